//! Unit tests of `tuning_sim` (a file of their own beside it).

use super::*;
use crate::jobs::{Batch, GameJob, Seat, Start};
use crate::rng::Purpose;

#[test]
fn a_grid_has_each_line_once_in_order_and_a_summary_per_line() {
    let (ga, spsa) = (TunerKind::Ga, "spsa".parse().unwrap());
    let lines = SimLine::grid(&[ga, spsa, ga], &[4], &[400, 400, 1000]);
    let heads: Vec<(TunerKind, u64)> = lines.iter().map(|l| (l.tuner, l.games)).collect();
    assert_eq!(heads, [(ga, 400), (ga, 1000), (spsa, 400), (spsa, 1000)]);
    let seeds: Vec<u64> = lines[0].runs(3..5).map(|r| r.seed).collect();
    assert_eq!(seeds, [3, 4]);
    let result = |regret, games_played| SimResult {
        regret,
        games_played,
        generations: 5,
        details: vec![("defaults", 100.0)],
    };
    let (regret, details) = lines[0].summary(&[result(10.0, 400), result(20.0, 396)]);
    assert_eq!(regret.mean, 15.0);
    let names: Vec<&str> = details.iter().map(|d| d.0).collect();
    assert_eq!(names, ["defaults", "generations", "games-played"]);
    assert_eq!(details[2].1.mean, 398.0);
    let (_, details) = lines[2].summary(&[result(1.0, 400), result(2.0, 400)]);
    assert_eq!(details.len(), 2, "no generations for SPSA");
}

#[test]
fn the_t_quantile_and_the_interval() {
    // Exact values: 2.0930 (19), 2.0452 (29), 1.9840 (100).
    for (df, t) in [(19, 2.0930), (29, 2.0452), (100, 1.9840), (11, 2.2010)] {
        assert!((t975(df) - t).abs() < 0.001, "{df}: {}", t975(df));
    }
    let i = Interval::of(&[1.0, 2.0, 3.0, 4.0]);
    // sd 1.291, t(3) 3.182: half 2.054.
    assert!(
        (i.mean - 2.5).abs() < 1e-12 && (i.high - 4.554).abs() < 0.001,
        "{i:?}"
    );
    assert!((i.mean - i.low - (i.high - i.mean)).abs() < 1e-12);
    assert_eq!(Interval::of(&[7.0]).low, 7.0);
}

/// A batch of the simulator's games: the defaults against values moved from them.
fn sim_batch(n: usize) -> Batch {
    let model = SimModel::new(n, 1);
    let spec = EngineSpec::simulated(&model, 2);
    let other = spec.genome(&[(model.params()[0].name.clone(), model.params()[0].max)]);
    let genomes = [spec.defaults(), other];
    let mut batch = Batch::of_genomes(&spec, &genomes, 7, Default::default());
    let seat = Seat::new;
    batch.jobs = (0..400)
        .map(|k| {
            let (b, w) = if k % 2 == 0 { (0, 1) } else { (1, 0) };
            GameJob::new(
                seat(b),
                seat(w),
                Start::Ballot(k as u32),
                Purpose::Spsa,
                3,
                k,
            )
        })
        .collect();
    batch
}

#[test]
fn the_simulators_games_are_the_same_at_any_thread_count() {
    let batch = sim_batch(8);
    let play = |threads| {
        crate::jobs::thread_pool(threads)
            .unwrap()
            .install(|| crate::jobs::run(&batch, &|_, _| {}, &|| false).unwrap())
    };
    let one = play(1);
    assert_eq!(one, play(2));
    assert_eq!(one, play(3));
    // Decided games and draws both, no moves.
    let draws = one
        .iter()
        .filter(|p| p.outcome() == crate::game::GameOutcome::Draw);
    assert!(draws.count() > 100);
    assert!(one.iter().all(|p| p.moves.is_empty() && p.result.is_some()));
    // Another seed, other games.
    let mut other = batch.clone();
    other.seed = 8;
    assert_ne!(
        one,
        crate::jobs::play_local(&other, &|_, _| {}, &|| false).unwrap()
    );
}

#[test]
fn an_answers_regret_is_against_the_optimum_and_told_only_on_the_simulator() {
    let model = SimModel::new(6, 1);
    let spec = EngineSpec::simulated(&model, 2);
    let optimum: Vec<(String, i64)> = (model.params().iter())
        .map(|p| (p.name.clone(), p.optimum))
        .collect();
    let declared = model.regret(&model.defaults());
    assert!(declared > 100.0, "{declared}");
    assert_eq!(
        answer_regret(&spec, &spec.genome(&optimum)),
        Some((0.0, declared))
    );
    assert_eq!(
        answer_regret(&spec, &spec.defaults()),
        Some((declared, declared))
    );
    let mut outside = spec.clone();
    outside.engine.program.command.push("--other".into());
    assert_eq!(answer_regret(&outside, &spec.defaults()), None);
}

#[test]
fn an_obviously_better_vector_beats_a_worse_one() {
    let model = SimModel::new(66, 1);
    let spec = EngineSpec::simulated(&model, 2);
    let best = spec.genome(
        &model
            .params()
            .iter()
            .map(|p| (p.name.clone(), p.optimum))
            .collect::<Vec<_>>(),
    );
    assert_eq!(model.regret(&spec.values(&best)), 0.0);
    let mut batch = sim_batch(66);
    batch.sides = [best, spec.defaults()]
        .map(|w| crate::side::Side::genome(&spec, w))
        .to_vec();
    let played = crate::jobs::play_local(&batch, &|_, _| {}, &|| false).unwrap();
    // Player 0 (the optimum) is Black in the even games.
    let points: u32 = played
        .iter()
        .enumerate()
        .map(|(k, p)| crate::game::GameOutcome::points(p.result.map(|r| r.0), k % 2 == 0))
        .sum();
    // 150 Elo: about 70% of the points.
    let share = points as f64 / (2 * played.len()) as f64;
    assert!(share > 0.62 && share < 0.78, "{share}");
}

#[test]
fn a_run_is_the_same_at_any_thread_count_and_spsa_and_cmaes_improve_on_the_defaults() {
    let (spsa, cmaes) = ("spsa".parse().unwrap(), "cmaes".parse().unwrap());
    let runs: Vec<SimRun> = [TunerKind::Ga, spsa, cmaes]
        .into_iter()
        .flat_map(|tuner| {
            (1..=3).map(move |seed| SimRun {
                tuner,
                params: 8,
                games: 1000,
                seed,
            })
        })
        .collect();
    let setup = SimSetup::default();
    let one = run_sims(&runs, &setup, 1).unwrap();
    assert_eq!(one, run_sims(&runs, &setup, 2).unwrap());
    for (run, r) in runs.iter().zip(&one) {
        let defaults = r.details[0];
        assert_eq!(defaults.0, "defaults");
        assert!(r.regret >= 0.0 && defaults.1 >= 150.0);
        match run.tuner {
            // The mean, population 16: 8 pairs of 2 games a generation, no measurement.
            TunerKind::Ga => assert_eq!((r.generations, r.games_played), (63, 1008)),
            TunerKind::OneFile(k) if k.name == "spsa" => {
                assert_eq!(r.games_played, 1000);
                assert!(r.regret < defaults.1, "{r:?}");
            }
            // 8 parameters: 5 pairs of 2 games a generation.
            TunerKind::OneFile(_) => {
                assert_eq!((r.generations, r.games_played), (100, 1000));
                assert!(r.regret < defaults.1, "{r:?}");
            }
        }
    }
    // A bad setting of the GA is one line, before any run.
    let bad = SimSetup {
        ga: Overrides {
            population: Some(6),
            ..Overrides::default()
        },
        ..SimSetup::default()
    };
    let e = run_sims(&runs, &bad, 1).unwrap_err();
    assert!(
        matches!(e, SimError::Ga(SessionError::Settings(_))),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("population 6") && !e.contains('\n'), "{e}");
}

#[test]
fn the_tuner_chart_draws_a_line_per_tuner_and_depth() {
    let text = "elo ga ours 1000 1 4 10.0 5.0\nelo ga ours 1000 2 4 20.0 5.0\n\
                elo ga ours 2000 1 4 30.0 5.0\nelo spsa ours 1000 1 4 15.0 5.0\n\
                elo spsa ours 1000 1 6 nan nan\nmean ga ours 1000 4 15 0 30\n";
    let svg = tuner_chart(text, "t").unwrap();
    assert!(
        svg.contains("ga, depth 4") && svg.contains("spsa, depth 4"),
        "{svg}"
    );
    assert!(
        !svg.contains("spsa, depth 6"),
        "a depth with no figure has no line"
    );
    assert_eq!(
        tuner_chart("mean only\n", "t"),
        Err(TunerChartError::NoLine)
    );
    let e = tuner_chart("mean\nelo ga ours x 1 4 1 1\n", "t").unwrap_err();
    assert_eq!(e, TunerChartError::BadLine(2));
    assert_eq!(
        e.to_string(),
        "line 2: not `elo TUNER PROBLEM GAMES SEED DEPTH ELO MARGIN`"
    );
}

#[test]
fn bad_runs_say_which_failure_before_any_is_played() {
    let run = |tuner, params| SimRun {
        tuner,
        params,
        games: 100,
        seed: 1,
    };
    let setup = SimSetup::default();
    let spsa: TunerKind = "spsa".parse().unwrap();
    let e = check_sims(&[run(spsa, 0)], &setup).unwrap_err();
    assert!(matches!(e, SimError::Params(0)), "{e:?}");
    let max = crate::sim::MAX_SIM_PARAMS;
    assert_eq!(
        e.to_string(),
        format!("0 parameters: the simulator has 1..{max}")
    );
    // A budget out of range comes first, then the parameters.
    let budget = |games| SimRun {
        games,
        ..run(spsa, 0)
    };
    let max_games = crate::tuner::MAX_TUNER_GAMES;
    for games in [0, 1, max_games + 1] {
        let e = check_sims(&[run(spsa, 4), budget(games)], &setup).unwrap_err();
        assert!(matches!(e, SimError::Games(g) if g == games), "{e:?}");
    }
    assert!(check_sims(&[budget(2), budget(max_games)], &setup)
        .is_err_and(|e| matches!(e, SimError::Params(0))));
    let e = SimError::Games(1).to_string();
    assert_eq!(e, format!("1 games: a run's budget is 2..{max_games}"));
    // A tuner's bad setting is refused whether or not it runs, naming the tuner.
    let no_pairs = SimSetup {
        options: vec![("spsa", "pairs", "0".into())],
        ..SimSetup::default()
    };
    for tuner in [spsa, TunerKind::Ga] {
        let e = run_sims(&[run(tuner, 4)], &no_pairs, 1).unwrap_err();
        assert!(
            matches!(&e, SimError::Setting { tuner, .. } if tuner.name == "spsa"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "SPSA: --pairs must be at least 1");
    }
    assert!(matches!(spsa, TunerKind::OneFile(k) if k.label == "SPSA"));
    let e = "sa".parse::<TunerKind>().unwrap_err();
    assert_eq!(e, UnknownTuner("sa".into()));
    assert_eq!(
        e.to_string(),
        "unknown tuner 'sa' (expected ga, spsa or cmaes)"
    );
    assert!(matches!("cmaes".parse(), Ok(TunerKind::OneFile(k)) if k.label == "CMA-ES"));
}
