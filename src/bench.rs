//! Fixed workloads for the benchmark scripts: a position set, evaluation speed and search speed.
//!
//! # Example
//!
//! ```
//! use checkers_ga::bench::{eval_ns, positions};
//! use checkers_ga::material;
//! use checkers_ga::Evaluator;
//!
//! let ps = positions();
//! assert!(!ps.is_empty());
//! let ns = eval_ns(&ps, &Evaluator::from(material()), 1); // nanoseconds per evaluation
//! assert!(ns > 0.0);
//! ```

use crate::board::Color;
use crate::board::Position;
use crate::eval::{evaluate_with, ParamSet, Simd, Weights};
use crate::movegen::legal_moves;
use crate::openings::ballot;
use crate::rng::{derive, Purpose};
use crate::search::{SearchConfig, SearchParams, Searcher};
use crate::yardstick::{classic, hand, Evaluator};
use rand::RngExt;
use std::time::{Duration, Instant};

/// The benchmark positions: every ballot opening in use, and from each one position after
/// 6 to 30 further random plies (seeded, so the set is the same in every run).
pub fn positions() -> Vec<Position> {
    let mut rng = derive(0xBE7C, Purpose::Game, 0, 0);
    let mut out = Vec::new();
    for o in ballot() {
        out.push(o.position);
        let mut p = o.position;
        for _ in 0..rng.random_range(6..=30) {
            let ms = legal_moves(&p);
            if ms.is_empty() {
                break;
            }
            p = p.play(&ms[rng.random_range(0..ms.len())]);
        }
        if !legal_moves(&p).is_empty() {
            out.push(p);
        }
    }
    out
}

/// Nanoseconds per full evaluation, over `rounds` passes of the position set (both sides).
pub fn eval_ns(positions: &[Position], e: &Evaluator, rounds: usize) -> f64 {
    // One timing loop per evaluator, each calling its function directly (as a search's leaves
    // do: the instruction set chosen once).
    let simd = Simd::detect();
    match e {
        Evaluator::Weighted(w) => time_eval(positions, rounds, |p, c| evaluate_with(p, c, w, simd)),
        Evaluator::Hand => time_eval(positions, rounds, hand),
        Evaluator::Classic => time_eval(positions, rounds, classic),
    }
}

fn time_eval(positions: &[Position], rounds: usize, f: impl Fn(&Position, Color) -> i32) -> f64 {
    let t = Instant::now();
    let mut sink = 0i64;
    for _ in 0..rounds {
        for p in positions {
            sink = sink.wrapping_add(f(std::hint::black_box(p), p.side_to_move()) as i64);
            sink = sink.wrapping_add(f(p, p.side_to_move().opposite()) as i64);
        }
    }
    std::hint::black_box(sink);
    t.elapsed().as_nanos() as f64 / (rounds * positions.len() * 2).max(1) as f64
}

/// Nanoseconds per evaluation of each parameter set (one set of each kind, [`ParamSet::ALL`]),
/// with `weights` for their own set and seeded random weights for the others (not widened
/// weights: a network whose weights are all 0 would be timed with every unit silent): the median
/// of `repeats` timings of `rounds` passes each, the sets taking turns so that a change in the
/// machine's load touches them alike.
pub fn set_costs(
    positions: &[Position],
    weights: Option<&Weights>,
    rounds: usize,
    repeats: usize,
) -> Vec<(ParamSet, f64)> {
    let mut rng = derive(0xBE7C, Purpose::Game, 1, 0);
    let sets: Vec<(ParamSet, Weights)> = ParamSet::ALL
        .into_iter()
        .map(|set| {
            let w = weights.filter(|w| w.set() == set).copied();
            (set, w.unwrap_or_else(|| Weights::random_of(set, &mut rng)))
        })
        .collect();
    let simd = Simd::detect();
    let mut times = vec![Vec::new(); sets.len()];
    for _ in 0..repeats.max(1) {
        for (t, (_, w)) in times.iter_mut().zip(&sets) {
            t.push(time_eval(positions, rounds, |p, c| {
                evaluate_with(p, c, w, simd)
            }));
        }
    }
    sets.iter()
        .zip(times)
        .map(|((set, _), mut t)| {
            t.sort_by(f64::total_cmp);
            (*set, t[t.len() / 2])
        })
        .collect()
}

/// Searches every position to the configured depth with one searcher (cleared in between);
/// returns (nodes, seconds).
pub fn search_speed(positions: &[Position], e: &Evaluator, config: SearchConfig) -> (u64, f64) {
    search_speed_with(positions, e, config, SearchParams::NEUTRAL)
}

/// [`search_speed`] with the reductions and pruning `params`: each position searched to the
/// configured depth; (nodes, seconds).
pub fn search_speed_with(
    positions: &[Position],
    e: &Evaluator,
    config: SearchConfig,
    params: SearchParams,
) -> (u64, f64) {
    let mut s = Searcher::new(*e, config).with_params(params);
    s.set_man_value(crate::man::man_value(e));
    let t = Instant::now();
    for p in positions {
        s.clear();
        std::hint::black_box(s.value(p));
    }
    (s.nodes, t.elapsed().as_secs_f64())
}

/// Time to depth: every position searched by iterative deepening ([`Searcher::choose_timed`]
/// with no time limit, ties to the first best move) to the configured depth with `params`
/// (aspiration windows included), one searcher cleared in between; (nodes, seconds). A forced
/// win ends a position's deepening early, and a single legal move is not searched, with any
/// params alike.
pub fn time_to_depth(
    positions: &[Position],
    e: &Evaluator,
    config: SearchConfig,
    params: SearchParams,
) -> (u64, f64) {
    let mut s = Searcher::new(*e, config).with_params(params);
    s.set_man_value(crate::man::man_value(e));
    s.set_first_ties(true);
    let mut rng = derive(0xBE7C, Purpose::Game, 3, 0);
    let unlimited = Duration::from_secs(1_000_000_000);
    let t = Instant::now();
    let mut nodes = 0;
    for p in positions {
        s.clear();
        nodes += std::hint::black_box(s.choose_timed(p, &mut rng, unlimited)).nodes;
    }
    (nodes, t.elapsed().as_secs_f64())
}

/// The search speed of each kind of set against `endgame66`'s, at `config`'s depth over
/// `positions`: the sets `endgame66`, `net66:8` and `board:32` with seeded random weights (the
/// network weights a sixteenth of the range, so that units sit inside their range as fitted
/// ones do), taking turns `repeats` times; per set, the median nodes per second.
pub fn set_search_speeds(
    positions: &[Position],
    config: SearchConfig,
    repeats: usize,
) -> Vec<(ParamSet, f64)> {
    let mut rng = derive(0xBE7C, Purpose::Game, 2, 0);
    let sets = [
        ParamSet::Endgame66,
        ParamSet::Net66(crate::eval::DEFAULT_HIDDEN),
        ParamSet::Board(crate::eval::DEFAULT_BOARD_HIDDEN),
    ];
    let linear = Weights::random_of(ParamSet::Endgame66, &mut rng);
    let vectors: Vec<Weights> = sets
        .iter()
        .map(|&set| {
            let mut w = Weights::random_of(set, &mut rng);
            for (i, v) in w.values_mut().iter_mut().enumerate() {
                *v = if i < crate::eval::NUM_ALL {
                    linear.values()[i]
                } else {
                    *v / 16
                };
            }
            w
        })
        .collect();
    let mut nps = vec![Vec::new(); sets.len()];
    for _ in 0..repeats.max(1) {
        for (n, w) in nps.iter_mut().zip(&vectors) {
            let (nodes, secs) = search_speed(positions, &Evaluator::Weighted(*w), config);
            n.push(nodes as f64 / secs.max(1e-9));
        }
    }
    sets.into_iter()
        .zip(nps)
        .map(|(set, mut n)| {
            n.sort_by(f64::total_cmp);
            (set, n[n.len() / 2])
        })
        .collect()
}
