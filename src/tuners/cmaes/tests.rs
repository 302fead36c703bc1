//! Unit tests of `cmaes` (a file of their own beside it).

use super::*;
use crate::rng::{derive, Purpose};
use crate::sim::SimModel;
use crate::tuner::play_step;
use rand::RngExt;

fn state(games: u64) -> CmaesState {
    let model = SimModel::new(4, 7);
    let settings = CmaesSettings {
        games,
        seed: 5,
        ..CmaesSettings::default()
    };
    CmaesState::new(&EngineSpec::simulated(&model, 2), &settings)
}

/// The library's settings are whole without the command line: the budget and σ are
/// checked, and the history is kept by the budget (a point every 10 generations, or
/// fewer where a long run's would outgrow its checkpoint), from the start.
#[test]
fn default_settings_check_the_budget_and_keep_a_history_by_it() {
    let s = CmaesSettings::default;
    for (bad, says) in [
        (CmaesSettings { games: 1, ..s() }, "--games 1 must be 2.."),
        (
            CmaesSettings {
                games: crate::MAX_TUNER_GAMES + 1,
                ..s()
            },
            "--games ",
        ),
        (
            CmaesSettings { sigma: -1.0, ..s() },
            "--sigma -1 must be 0..32768",
        ),
        (
            CmaesSettings {
                sigma: f64::NAN,
                ..s()
            },
            "--sigma NaN",
        ),
    ] {
        assert!(bad.check().unwrap_err().starts_with(says), "{says}");
    }
    assert_eq!(state(4000).settings.history_every, 10);
    assert_eq!(state(4000).history.len(), 1);
    let long = state(crate::MAX_TUNER_GAMES).settings.history_every;
    assert!(long > 10, "{long}");
}

#[test]
fn a_generation_is_mirrored_pairs_and_asking_again_gives_the_same_games() {
    let t = state(64);
    assert_eq!(t.settings.pairs, 4);
    let batch = t.ask().unwrap();
    assert_eq!(batch.jobs.len(), 8);
    assert_eq!(t.ask(), Some(batch.clone()));
    // Each pair's sides lie either side of the mean.
    let genes = t.mean.len();
    for pair in batch.sides.chunks(2) {
        use crate::side::Plays::Genome;
        let (Genome(a), Genome(b)) = (&pair[0].plays, &pair[1].plays) else {
            panic!("genomes expected");
        };
        for i in 0..genes {
            let (x, y) = (a.values()[i], b.values()[i]);
            if [x, y].iter().any(|&v| v == i16::MIN || v == i16::MAX) {
                continue; // clamped at the end of the range
            }
            let mid = (x as f64 + y as f64) / 2.0;
            assert!(
                (mid - t.mean[i]).abs() <= 1.0,
                "gene {i}: {x} {y} {}",
                t.mean[i]
            );
        }
    }
}

#[test]
fn a_run_plays_its_budget_and_resumes_exactly() {
    let pool = crate::jobs::thread_pool(2).unwrap();
    let state = |games| {
        let mut s = state(games);
        s.settings.in_flight = 3;
        s
    };
    let mut whole = state(96);
    let mut sigmas = Vec::new();
    pool.install(|| {
        while let Some(s) = play_step(&mut whole, &|_, _| {}, &|| false) {
            sigmas.push(s.sigma);
        }
    });
    assert_eq!(whole.games, 96);
    assert_eq!(sigmas.len(), 12);
    assert!(whole.ask().is_none());
    // Stopped after 5 generations, saved, loaded, continued.
    let mut part = state(96);
    pool.install(|| {
        for _ in 0..5 {
            play_step(&mut part, &|_, _| {}, &|| false).unwrap();
        }
    });
    let cfg = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(&part, cfg).unwrap();
    let (mut back, _): (CmaesState, _) = bincode::serde::decode_from_slice(&bytes, cfg).unwrap();
    // The generations in flight, what those asked for ahead were drawn from, σ's growth and
    // the signal are kept apart in a checkpoint (the store's tests read them back).
    assert_eq!(part.ahead.len(), 2);
    back.settings.in_flight = part.settings.in_flight;
    back.ahead = part.ahead.clone();
    back.settings.growth = part.settings.growth;
    back.signal = part.signal;
    let mut part = back;
    pool.install(|| while play_step(&mut part, &|_, _| {}, &|| false).is_some() {});
    assert_eq!(part, whole);
    assert_eq!(part.answer(), whole.answer());
}

#[test]
fn decided_pairs_move_the_mean_toward_their_winners_and_draws_move_nothing() {
    let mut t = state(64);
    let (zs, _) = t.draws(0);
    let before = t.clone();
    // Every pair drawn: nothing moves but the counts.
    t.update_for_test(&zs, &[0, 0, 0, 0]);
    assert_eq!(
        (t.mean.clone(), t.sigma),
        (before.mean.clone(), before.sigma)
    );
    // Pair 0's plus side won both games: the mean moves along its direction.
    let mut t = before.clone();
    t.update_for_test(&zs, &[2, 0, 0, 0]);
    for (i, z) in zs[0].iter().enumerate() {
        let moved = t.mean[i] - before.mean[i];
        assert!(moved * z >= 0.0, "gene {i}");
    }
    assert_ne!(t.mean, before.mean);
}

/// Uncertainty handling: generations whose pairs are won by chance grow σ back toward its start
/// where the step-size path alone lets it sink, and generations whose pairs all agree (each
/// won by the side a fixed slope favours) leave σ to the path alone.
#[test]
fn pairs_won_by_chance_grow_sigma_and_pairs_that_agree_leave_it_to_the_path() {
    let run = |growth: f64, chance: bool| {
        let mut t = CmaesState::new(
            &EngineSpec::simulated(&SimModel::new(8, 7), 2),
            &CmaesSettings {
                games: 1_000_000,
                seed: 5,
                growth,
                sigma: 4096.0,
                ..CmaesSettings::default()
            },
        );
        // Started low, as after a run's early generations.
        t.sigma = 256.0;
        let slope: Vec<f64> = (0..8)
            .map(|i| if i % 2 == 0 { 1.0 } else { -0.5 })
            .collect();
        let mut coin = derive(9, Purpose::Cmaes, 0, 0);
        for g in 0..300 {
            let (zs, _) = t.draws(0);
            let results: Vec<i64> = zs
                .iter()
                .map(|z| {
                    let lean: f64 = z.iter().zip(&slope).map(|(a, b)| a * b).sum();
                    let won = if chance {
                        coin.random::<bool>()
                    } else {
                        lean > 0.0
                    };
                    if won {
                        2
                    } else {
                        -2
                    }
                })
                .collect();
            t.update_for_test(&zs, &results);
            t.generation = g + 1;
        }
        t
    };
    let (alone, grown) = (run(1.0, true), run(1.01, true));
    assert!(grown.signal < CMAES_SIGNAL, "{}", grown.signal);
    assert!(
        grown.sigma > 256.0 && grown.sigma > 4.0 * alone.sigma,
        "σ {} grown, {} by its path alone",
        grown.sigma,
        alone.sigma
    );
    let (alone, handled) = (run(1.0, false), run(1.01, false));
    assert!(handled.signal > CMAES_SIGNAL, "{}", handled.signal);
    assert_eq!(handled.sigma, alone.sigma);
    assert_eq!(handled.mean, alone.mean);
}

impl CmaesState {
    fn update_for_test(&mut self, zs: &[Vec<f64>], results: &[i64]) {
        let total: f64 = results.iter().map(|r| r.unsigned_abs() as f64).sum();
        if total > 0.0 {
            self.update(&self.draw_now(), zs, results, total);
        }
    }
}
