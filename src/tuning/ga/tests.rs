//! The unit tests of the genetic algorithm.

use super::generation::*;
use super::matches::*;
use super::operators::*;
use super::settings::*;
use super::step::fit_players;
use crate::board::Color;
use crate::eval::{ParamSet, Weights, NUM_PARAMS};
use crate::fit;
use crate::game::DrawRules;
use crate::matchplay::OpeningBook;
use crate::movegen::has_capture;
use crate::search::SearchConfig;
use crate::tournament::Standing;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn w(v: i16) -> Weights {
    Weights::thesis([v; NUM_PARAMS])
}

#[test]
fn crossover_swaps_tails_at_one_cut() {
    let (c1, c2) = crossover(&w(1), &w(2), 10);
    assert_eq!(&c1.values()[..10], &[1; 10]);
    assert_eq!(&c1.values()[10..], &[2; 50]);
    assert_eq!(&c2.values()[..10], &[2; 10]);
    assert_eq!(&c2.values()[10..], &[1; 50]);
}

#[test]
fn roulette_without_noise_sorts_by_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(noisy_ranking(&[3, 9, 1, 9], 0, &mut rng), vec![1, 3, 0, 2]);
}

#[test]
fn parents_are_distinct_while_possible() {
    let pop = vec![w(1), w(1), w(2), w(3)];
    let select = |pop: &[Weights]| -> Vec<Weights> {
        let parents = truncation(&Genotypes::of(pop), &[0, 1, 2, 3], 2);
        parents.iter().map(|&i| pop[i]).collect()
    };
    assert_eq!(select(&pop), vec![w(1), w(2)]);
    let same = vec![w(5); 4];
    assert_eq!(select(&same), vec![w(5), w(5)]);
}

#[test]
fn mutation_changes_at_most_one_weight() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let kids = breed_with(&[w(7), w(7)], 100, 1.0, Mutation::Replace, &mut rng);
    assert_eq!(kids.len(), 100);
    for k in &kids {
        assert!(k.values().iter().filter(|&&x| x != 7).count() <= 1);
    }
    assert!(kids.iter().any(|k| *k != w(7)));
    let none = breed_with(&[w(7), w(7)], 10, 0.0, Mutation::Replace, &mut rng);
    assert!(none.iter().all(|k| *k == w(7)));
}

#[test]
fn diversity_is_zero_for_clones_and_about_a_third_for_random() {
    assert_eq!(diversity(&[w(4), w(4), w(4)]), 0.0);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let pop: Vec<Weights> = (0..16).map(|_| Weights::random(&mut rng)).collect();
    let d = diversity(&pop);
    assert!((0.28..0.39).contains(&d), "{d}");
}

#[test]
fn gaussian_mutation_moves_few_weights_by_small_steps() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let kind = Mutation::Gauss {
        sigma: 500,
        genes: 3,
    };
    let mut moved = 0;
    for _ in 0..500 {
        let mut c = w(1000);
        mutate(&mut c, kind, &mut rng);
        let changed: Vec<i16> = c.values().iter().copied().filter(|&x| x != 1000).collect();
        assert!(changed.len() <= 3);
        // Six standard deviations: a step this large is a bug, not bad luck.
        assert!(changed.iter().all(|&x| (x as i32 - 1000).abs() <= 3000));
        moved += changed.len();
    }
    assert!(moved > 1200, "{moved} weights moved in 500 mutations");
    // Clamped at the ends of the i16 range.
    let mut c = w(i16::MAX);
    for _ in 0..100 {
        mutate(&mut c, kind, &mut rng);
    }
    assert!(c.values().iter().all(|&x| x > 20000));
}

#[test]
fn roulette_wheel_draws_in_proportion_to_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let pop = [w(0), w(1), w(2)];
    let picks = roulette_wheel(&[0, 10, 30], 4000, &mut rng);
    let count = |v| picks.iter().filter(|&&p| pop[p] == w(v)).count();
    assert_eq!(count(0), 0, "no points, never drawn");
    let share = count(2) as f64 / 4000.0;
    assert!((0.72..0.78).contains(&share), "{share}");
    // Nobody scored: uniform.
    let flat: Vec<Weights> = roulette_wheel(&[0, 0, 0], 300, &mut rng)
        .iter()
        .map(|&i| pop[i])
        .collect();
    assert!(pop.iter().all(|p| flat.contains(p)));
}

#[test]
fn the_fit_learns_from_the_top_by_points_the_first_among_equals_first() {
    let st = |p: u32| Standing {
        points: p,
        ..Standing::default()
    };
    let standings = [st(3), st(9), st(5), st(9), st(1)];
    // Five in the population, two past bests of the hall of fame after them.
    assert_eq!(
        fit_players(&standings, 7, 3),
        [false, true, true, true, false, false, false]
    );
    assert_eq!(
        fit_players(&standings, 7, 1),
        [false, true, false, false, false, false, false]
    );
    assert_eq!(fit_players(&standings, 7, 0), [true; 7]);
    assert_eq!(
        fit_players(&standings, 7, 5),
        [true, true, true, true, true, false, false]
    );
}

#[test]
fn tournament_selection_favours_the_best() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let pop: Vec<Weights> = (0..8).map(w).collect();
    let points: Vec<u32> = (0..8).collect();
    let picks = tournament_select(&points, 2000, 4, &mut rng);
    let worst = picks.iter().filter(|&&p| pop[p] == w(0)).count();
    let best = picks.iter().filter(|&&p| pop[p] == w(7)).count();
    // P(best) = 1 - (7/8)^4 = 0.41; P(worst) = (1/8)^4.
    assert!(best > 700 && worst < 10, "best {best} worst {worst}");
}

#[test]
fn option_texts_parse_and_print_back() {
    for t in ["truncation", "roulette", "tournament:3"] {
        assert_eq!(t.parse::<Selection>().unwrap().to_string(), t);
        let method = t.parse::<Method>().unwrap();
        assert_eq!(method.selection(), Some(t.parse().unwrap()));
        assert_eq!(method.to_string(), t);
    }
    for t in ["fit-only", "mean:8192:100"] {
        let method = t.parse::<Method>().unwrap();
        assert_eq!(
            (method.to_string(), method.selection()),
            (t.to_string(), None)
        );
        assert!(
            t.parse::<Selection>().is_err(),
            "{t} is no selection of parents"
        );
    }
    for t in ["replace", "gauss:1500:4"] {
        assert_eq!(t.parse::<Mutation>().unwrap().to_string(), t);
    }
    assert_eq!(
        "gauss:700".parse::<Mutation>(),
        Ok(Mutation::Gauss {
            sigma: 700,
            genes: 1
        })
    );
    for bad in [
        "gauss",
        "gauss:0",
        "gauss:5:0",
        "gauss:5:4259", // beyond MAX_WEIGHTS (4258, board:32)
        "gauss:x",
        "flip",
    ] {
        assert!(bad.parse::<Mutation>().is_err(), "{bad}");
    }
    for bad in ["tournament:1", "tournament:65", "best", "mean:0"] {
        assert!(bad.parse::<Method>().is_err(), "{bad}");
    }
}

#[test]
fn random_weights_stay_in_their_range() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..100 {
        let v = random_weights(ParamSet::Phased132, 300, &mut rng);
        assert_eq!(v.len(), 132);
        assert!(v.values().iter().all(|&x| (-300..=300).contains(&x)));
    }
    let mut a = ChaCha8Rng::seed_from_u64(8);
    let mut b = ChaCha8Rng::seed_from_u64(8);
    assert_eq!(
        random_weights(ParamSet::Thesis60, 32767, &mut a),
        Weights::random(&mut b)
    );
}

#[test]
fn layered_mutation_moves_the_sum_and_the_network_alike_the_network_by_an_eighth() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut sum_moves, mut net_moves, mut net_largest) = (0, 0, 0i32);
    for _ in 0..400 {
        let mut w = Weights::zero_of(ParamSet::Net66(8));
        mutate(
            &mut w,
            Mutation::Layered {
                sigma: 800,
                genes: 1,
            },
            &mut rng,
        );
        let (sum, net) = w.values().split_at(crate::eval::NUM_ALL);
        sum_moves += sum.iter().filter(|&&x| x != 0).count();
        let moved: Vec<i32> = net.iter().filter(|&&x| x != 0).map(|&x| x as i32).collect();
        net_moves += moved.len();
        net_largest = moved.iter().fold(net_largest, |m, x| m.max(x.abs()));
    }
    // About half the genes each (the network has 544 of the 610 weights).
    assert!((150..250).contains(&sum_moves), "{sum_moves}");
    assert!((150..250).contains(&net_moves), "{net_moves}");
    // Steps of sigma 100: none near 800.
    assert!(net_largest < 500, "{net_largest}");
    // For a set without a network it is the Gaussian mutation itself.
    let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
    let (mut x, mut y) = (w(5), w(5));
    mutate(
        &mut x,
        Mutation::Layered {
            sigma: 800,
            genes: 4,
        },
        &mut a,
    );
    mutate(
        &mut y,
        Mutation::Gauss {
            sigma: 800,
            genes: 4,
        },
        &mut b,
    );
    assert_eq!(x, y);
    assert_eq!(
        "layered:800:4".parse::<Mutation>(),
        Ok(Mutation::Layered {
            sigma: 800,
            genes: 4
        })
    );
}

#[test]
fn adaptive_children_carry_their_parents_mean_steps_adapted_when_mutated() {
    let kind: Mutation = "adaptive:800:4".parse().unwrap();
    assert_eq!(
        kind,
        Mutation::Adaptive {
            sigma: 800,
            genes: 4
        }
    );
    assert_eq!(kind.to_string(), "adaptive:800:4");
    let set = ParamSet::Net66(2);
    let parents = [Weights::zero_of(set), Weights::zero_of(set)];
    let steps = [
        Steps {
            sum: 100.0,
            net: 10.0,
        },
        Steps {
            sum: 400.0,
            net: 40.0,
        },
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    // Never mutated: exactly the geometric mean.
    let kids = breed(&parents, Some(&steps), 6, 0.0, kind, &mut rng);
    assert_eq!(kids.len(), 6);
    for (_, st) in &kids {
        assert_eq!(
            *st,
            Steps {
                sum: 200.0,
                net: 20.0
            }
        );
    }
    // Always mutated: each child's steps moved (both layers), and its weights by about them.
    let kids = breed(&parents, Some(&steps), 200, 1.0, kind, &mut rng);
    let mut sums = Vec::new();
    for (w, st) in &kids {
        assert!(st.is_valid());
        assert_ne!(st.sum, 200.0);
        assert_ne!(st.net, 20.0);
        sums.push(st.sum);
        assert!(w.values().iter().any(|&v| v != 0));
        let (linear, net) = w.values().split_at(crate::eval::NUM_ALL);
        let big = |xs: &[i16], s: f32| xs.iter().all(|&v| (v.abs() as f32) < 8.0 * s);
        assert!(big(linear, st.sum) && big(net, st.net), "{st:?}");
    }
    // Log-normal factors around 1: about as many steps grew as shrank.
    let grew = sums.iter().filter(|&&s| s > 200.0).count();
    assert!((60..140).contains(&grew), "{grew}");
    // Steps stay in range however far they are pushed.
    let mut st = Steps {
        sum: 32000.0,
        net: 1.0,
    };
    let mut x = Weights::zero_of(set);
    for _ in 0..500 {
        mutate_adaptive(&mut x, &mut st, 1, &mut rng);
        assert!(st.is_valid(), "{st:?}");
    }
}

#[test]
fn adaptive_steps_follow_their_individuals_into_the_next_population() {
    let settings = Settings {
        stop: Stop::Generations(2),
        seed: 3,
        ga: GaOptions {
            params: ParamSet::Net66(2),
            mutation: Mutation::Adaptive {
                sigma: 800,
                genes: 4,
            },
            ..GaOptions::default()
        },
        ..Settings::with_population(8)
    };
    let mut s = GaState::new(
        "a",
        Settings {
            search: SearchConfig::with_depth(1),
            ..settings
        },
    );
    assert!(
        s.steps.is_empty(),
        "a first population starts at the kind's sigma"
    );
    s.run_generation(&|_| {});
    assert_eq!(s.steps.len(), 8);
    // Children 0..4, elite 4..6, newcomers 6..8 (the settings' quarter each).
    let newcomer = Steps::initial(800);
    assert_eq!(
        newcomer,
        Steps {
            sum: 800.0,
            net: 100.0
        }
    );
    assert_eq!(&s.steps[6..], &[newcomer, newcomer]);
    assert!(s.steps[..4].iter().any(|st| *st != newcomer));
    let before = s.clone();
    s.run_generation(&|_| {});
    // An elite individual of generation 2 that was in generation 2's population keeps its
    // steps.
    for (w, st) in s.population[4..6].iter().zip(&s.steps[4..6]) {
        if let Some(i) = before.population.iter().position(|p| p == w) {
            assert_eq!(*st, before.steps[i]);
        }
    }
}

#[test]
fn a_random_network_starts_at_an_eighth_of_the_range() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let v = random_weights(ParamSet::Net66(8), 4000, &mut rng);
    let (linear, net) = v.values().split_at(crate::eval::NUM_ALL);
    assert!(linear.iter().all(|&x| (-4000..=4000).contains(&x)));
    assert!(
        linear.iter().any(|&x| x.abs() > 500),
        "the sum keeps the whole range"
    );
    assert!(net.iter().all(|&x| (-500..=500).contains(&x)));
    assert!(
        net.iter().any(|&x| x.abs() > 250),
        "and the network uses its eighth"
    );
}

#[test]
fn endgame_positions_are_kings_only_with_a_side_ahead_and_no_capture() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut black_ahead = 0;
    for _ in 0..500 {
        let p = endgame_position(&mut rng);
        let (b, w) = (
            p.pieces(Color::Black).count(),
            p.pieces(Color::White).count(),
        );
        assert_eq!(p.kings(Color::Black).count(), b);
        assert_eq!(p.kings(Color::White).count(), w);
        assert!(b.max(w) >= 2 && b.max(w) <= 3 && b.min(w) == 1, "{b} v {w}");
        assert!(!has_capture(&p));
        black_ahead += (b > w) as u32;
    }
    assert!((150..350).contains(&black_ahead), "{black_ahead}");
}

#[test]
fn a_fitted_newcomer_enters_in_generations_that_fit_and_only_there() {
    let settings = Settings {
        population: 8,
        search: SearchConfig::with_depth(2),
        stop: Stop::Generations(3),
        seed: 5,
        elite: 2,
        newcomers: 2,
        ga: GaOptions {
            fit_every: 2,
            ..GaOptions::default()
        },
        ..Settings::with_population(8)
    };
    let mut fitting = GaState::new("f", settings.clone());
    let mut plain = GaState::new(
        "p",
        Settings {
            ga: GaOptions {
                fit_every: 0,
                ..settings.ga
            },
            ..settings
        },
    );
    for g in 1..=3u64 {
        fitting.run_generation(&|_| {});
        plain.run_generation(&|_| {});
        // The first newcomer's slot: after 4 children and the elite of 2.
        let slot = 6;
        if g == 2 {
            let f = fitting.fitted.clone().expect("generation 2 fits");
            assert!(f.positions >= fit::MIN_POSITIONS, "{f:?}");
            assert!(f.after < f.before, "{f:?}");
            assert_eq!(fitting.population[slot], f.weights);
            assert_ne!(plain.population[slot], f.weights);
            // The fit starts from the best so far and moves it.
            assert_ne!(Some(f.weights), fitting.best_so_far);
            let mut rest = fitting.population.clone();
            rest[slot] = plain.population[slot];
            assert_eq!(
                rest, plain.population,
                "the rest of the population as without"
            );
        } else {
            assert!(fitting.fitted.is_none(), "generation {g}");
            if g == 1 {
                assert_eq!(fitting.population, plain.population);
            }
        }
    }
}

#[test]
fn an_abandoned_generation_leaves_the_session_as_it_was() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let base = three_batches();
    let settings = Settings {
        stop: Stop::Generations(10),
        seed: 11,
        ga: GaOptions {
            measure_games: 4,
            ..base.ga
        },
        ..base
    };
    let mut whole = GaState::new("s", settings);
    whole.run_generation(&|_| {});
    let before = whole.clone();
    // How often an uninterrupted generation asks whether to stop.
    let asked = AtomicUsize::new(0);
    let count = || {
        asked.fetch_add(1, Ordering::SeqCst);
        false
    };
    let mut once = before.clone();
    let stats = once
        .run_generation_until(&|_| {}, &count)
        .expect("not stopped");
    let asks = asked.load(Ordering::SeqCst);
    assert!(asks > 56 + 16, "{asks}");
    // Stopped at the first ask, half way, and at the last one (the measurement).
    for cut in [0, asks / 2, asks - 1] {
        let seen = AtomicUsize::new(0);
        let stop = || seen.fetch_add(1, Ordering::SeqCst) >= cut;
        let mut s = before.clone();
        assert!(s.run_generation_until(&|_| {}, &stop).is_none(), "{cut}");
        assert_eq!(s, before, "stopped after {cut} asks");
    }
    // And played again, the generation is the one never interrupted.
    whole.run_generation(&|_| {});
    assert_eq!(unclocked(whole), unclocked(once));
    assert!(stats.measure.is_some());
}

/// Settings of a small session whose generations play every batch: a tournament with a
/// hall of fame and endgame games, a duel of 4 games and a measurement of 6.
fn three_batches() -> Settings {
    Settings {
        population: 8,
        games: 0,
        search: SearchConfig::with_depth(1),
        factor: 8,
        mutation_chance: 0.9,
        stop: Stop::Generations(12),
        seed: 5,
        openings: OpeningBook::Ballot,
        elite: 2,
        newcomers: 2,
        rules: DrawRules::default(),
        ga: GaOptions {
            hall_of_fame: 1,
            endgame_pairs: 1,
            duel_games: 4,
            measure_every: 1,
            measure_games: 6,
            ..GaOptions::ORIGINAL
        },
        engine: None,
    }
}

/// The session without its clock (seconds differ from run to run).
fn unclocked(mut s: GaState) -> GaState {
    s.elapsed = 0.0;
    s.history.iter_mut().for_each(|h| h.seconds = 0.0);
    s
}

fn played(batch: &crate::jobs::Batch) -> Vec<crate::jobs::Played> {
    crate::jobs::run(batch, &|_, _| {}, &|| false).expect("not stopped")
}

#[test]
fn a_generation_is_asked_and_told_batch_by_batch_as_the_tuner_contract_says() {
    use crate::tuner::{play_step, Tuner};
    let mut s = GaState::new("s", three_batches());
    s.run_generation(&|_| {});
    // A generation whose best is not the best so far: its tournament, a duel, a measurement.
    let mut duels = 0;
    while duels == 0 {
        assert!(s.generation < 10, "no generation duelled");
        let before = s.clone();
        let tournament = s.ask().expect("not finished");
        assert_eq!(
            s.ask().as_ref(),
            Some(&tournament),
            "asked again: the same games"
        );
        let games = tournament.jobs.len();
        assert_eq!(
            games,
            s.games_per_generation() + 2 * 8,
            "with the endgame games"
        );
        let mut told = s.clone();
        let stats = match told.tell(&tournament, &played(&tournament)) {
            Some(stats) => stats, // its best was the best so far: measured next, or whole
            None if told.ask().unwrap().jobs.len() == 4 => {
                duels += 1;
                let duel = told.ask().unwrap();
                assert!(!told.pending.is_empty());
                let mut cut = told.clone();
                cut.abandon();
                assert_eq!(cut, before, "abandoned at the duel: as it was");
                assert!(told.tell(&duel, &played(&duel)).is_none(), "measured next");
                let measure = told.ask().unwrap();
                assert_eq!(measure.jobs.len(), 6);
                let mut cut = told.clone();
                cut.abandon();
                assert_eq!(cut, before, "abandoned at the measurement: as it was");
                told.tell(&measure, &played(&measure)).expect("whole")
            }
            None => {
                let measure = told.ask().unwrap();
                assert_eq!(measure.jobs.len(), 6);
                told.tell(&measure, &played(&measure)).expect("whole")
            }
        };
        assert!(told.pending.is_empty());
        assert!(stats.measure.is_some());
        // The generation as run_generation plays it, and as play_step does.
        let mut whole = before.clone();
        assert_eq!(whole.run_generation(&|_| {}).generation, stats.generation);
        assert_eq!(unclocked(whole.clone()), unclocked(told.clone()));
        let mut stepped = before.clone();
        play_step(&mut stepped, &|_, _| {}, &|| false).expect("a generation");
        assert_eq!(unclocked(stepped), unclocked(whole));
        let duel = if stats.duel.is_some_and(|d| !d.is_same()) {
            4
        } else {
            0
        };
        assert_eq!(told.games(), before.games() + games as u64 + duel + 6);
        assert_eq!(Tuner::answer(&told), told.best_so_far.unwrap());
        s = told;
    }
}

#[test]
fn a_widening_generation_abandoned_after_its_tournament_is_narrow_again() {
    use crate::tuner::Tuner;
    let mut st = three_batches();
    st.ga.widen_at = 1;
    st.ga.widen_to = ParamSet::Endgame66;
    let mut s = GaState::new("s", st);
    s.run_generation(&|_| {});
    let before = s.clone();
    let tournament = s.ask().unwrap();
    let wide = |p: &crate::side::Side| matches!(p.plays, crate::side::Plays::Ours { eval: crate::Evaluator::Weighted(w), .. } if w.set() == ParamSet::Endgame66);
    assert!(tournament.sides.iter().all(wide), "played widened");
    if s.tell(&tournament, &played(&tournament)).is_none() {
        assert_eq!(
            s.settings.ga.params,
            ParamSet::Endgame66,
            "widened while under way"
        );
        s.abandon();
    }
    assert_eq!(s.settings.ga.params, ParamSet::Thesis60);
    assert_eq!(s, before);
    let mut whole = before.clone();
    whole.run_generation(&|_| {});
    assert_eq!(whole.settings.ga.params, ParamSet::Endgame66);
    assert!(whole
        .population
        .iter()
        .all(|w| w.set() == ParamSet::Endgame66));
}

#[test]
fn the_depth_schedule_switches_at_its_generation() {
    let mut st = Settings {
        population: 8,
        games: 0,
        search: SearchConfig::with_depth(2),
        factor: 8,
        mutation_chance: 0.3,
        stop: Stop::Generations(10),
        seed: 1,
        openings: OpeningBook::Ballot,
        elite: 2,
        newcomers: 2,
        rules: DrawRules::default(),
        ga: GaOptions::ORIGINAL,
        engine: None,
    };
    assert_eq!((st.depth_at(1), st.depth_at(1000)), (2, 2));
    st.ga.deepen_at = 5;
    st.ga.deepen_to = 4;
    assert_eq!((st.depth_at(4), st.depth_at(5), st.depth_at(9)), (2, 4, 4));
    assert!(st.validate().is_ok());
    st.ga.deepen_to = 0;
    assert!(st.validate().unwrap_err().0.contains("deepened depth"));
    st.ga.deepen_to = 3;
    // A crafted checkpoint cannot ask for a tournament of 4 billion draws per parent.
    st.ga.method = Method::Ga(Selection::Tournament(u32::MAX));
    assert!(st
        .validate()
        .unwrap_err()
        .0
        .contains("tournament selection size"));
}

#[test]
fn every_operator_breeds_genomes_of_every_length_from_one() {
    // An outside engine's session tunes as few as one parameter (`--tune king`): one-point
    // crossover has no cut then, and no operator may draw from an empty range.
    let kinds = [
        Mutation::Replace,
        Mutation::Gauss {
            sigma: 2048,
            genes: 1,
        },
        Mutation::Gauss {
            sigma: 800,
            genes: 4,
        },
        Mutation::Layered {
            sigma: 800,
            genes: 4,
        },
        Mutation::Adaptive {
            sigma: 800,
            genes: 4,
        },
    ];
    for n in 1..=5u16 {
        let set = ParamSet::Engine(n);
        let parents: Vec<Weights> = (0..4)
            .map(|i| Weights::new(set, &vec![i as i16 * 100; n as usize]).unwrap())
            .collect();
        for kind in kinds {
            let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
            let children = breed(&parents, None, 7, 1.0, kind, &mut rng);
            assert_eq!(children.len(), 7, "{n} genes, {kind:?}");
            assert!(children.iter().all(|(c, _)| c.len() == n as usize));
            let mut child = parents[1];
            mutate(&mut child, kind, &mut rng);
            assert_eq!(child.len(), n as usize);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let pop: Vec<Weights> = (0..6).map(|_| random_weights(set, 100, &mut rng)).collect();
        assert!(diversity(&pop) >= 0.0);
    }
}

#[test]
fn a_genome_of_one_gene_breeds_its_parents_mutated() {
    let set = ParamSet::Engine(1);
    let parents = [
        Weights::new(set, &[5]).unwrap(),
        Weights::new(set, &[9]).unwrap(),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let children = breed_with(&parents, 2, 0.0, Mutation::Replace, &mut rng);
    let mut got: Vec<i16> = children.iter().map(|c| c.values()[0]).collect();
    got.sort();
    assert_eq!(got, vec![5, 9]);
}

/// Under the mean there is no duel: the answer is recorded in `bests` whenever it changes, so
/// a generation without a record kept the one before, and its best so far is known without a
/// checkpoint.
#[test]
fn the_means_answer_is_known_in_generations_that_kept_it() {
    let settings = Settings {
        ga: GaOptions {
            method: "mean:8192:100".parse().unwrap(),
            ..GaOptions::default()
        },
        ..Settings::default()
    };
    let mut s = GaState::with_population("mean", settings, vec![w(0); 4]);
    for g in 1..=4 {
        if g == 1 || g == 3 {
            s.bests.record(g, w(g as i16));
        }
        s.history.record(super::records::GenerationStats {
            generation: g,
            best: 4,
            mean: 2.0,
            min: 0,
            diversity: 0.1,
            duel: None,
            games: 8,
            plies: 800,
            seconds: 0.1,
            measure: None,
            faults: 0,
            time: None,
        });
    }
    s.generation = 4;
    s.best_so_far = Some(w(3));
    let known = [Some(w(1)), Some(w(1)), Some(w(3)), Some(w(3))];
    assert_eq!(s.bests_by_generation(), known);
    assert_eq!(s.bests_at(&[0, 1, 2, 3], |_| None), known);
}
