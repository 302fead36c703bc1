//! Fitting a weight vector to game results: a logistic regression of each game's result on the
//! quiet positions of the game (Texel's method), started from a given vector.
//!
//! The result of a position is that of its game for the side to move (1 win, 1/2 draw, 0 loss);
//! the prediction is `1 / (1 + exp(-scale * eval))`. The scale is fitted first, for the start
//! vector, and then kept, so the fitted weights stay on the start vector's scale. Only the
//! linear part of a vector is fitted (for a network set the network stays as it is and its
//! output is part of the prediction). Quiet positions are those where the side to move has no
//! capture: the only ones a search evaluates with capture extension on.
//!
//! Deterministic: the same positions give the same fit at any thread count (gradients are
//! summed over fixed chunks, in chunk order).

use crate::board::{Color, Move, Position};
use crate::eval::{self, ParamSet, Weights, NUM_ALL, PHASE_PIECES};
use crate::game::Outcome;
use crate::movegen::has_capture;
use rayon::prelude::*;

/// Positions with their results, as the values a set's linear weights multiply.
#[derive(Clone, Debug)]
pub struct Positions {
    set: ParamSet,
    /// The values, `linear_len(set)` per position.
    x: Vec<f32>,
    /// Each position's result for its side to move.
    y: Vec<f32>,
    /// The positions themselves (a network's output depends on the start vector).
    pos: Vec<Position>,
}

/// How a fit went.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub weights: Weights,
    /// The logistic scale fitted for the start vector (per evaluation unit).
    pub scale: f64,
    /// Mean squared error of the predicted result, for the start vector and the fitted one.
    pub before: f64,
    pub after: f64,
    /// Positions used.
    pub positions: usize,
}

/// The number of weights of `set` a fit changes: its linear part.
pub fn linear_len(set: ParamSet) -> usize {
    match set {
        ParamSet::Thesis60 => eval::NUM_PARAMS,
        ParamSet::Endgame66 | ParamSet::Net66(_) => NUM_ALL,
        ParamSet::Phased132 => 2 * NUM_ALL,
    }
}

/// The values `set`'s linear weights multiply in `pos` for `player` (the phased set's opening
/// and endgame values carry the mix of the pieces left).
fn linear_values(set: ParamSet, pos: &Position, player: Color, out: &mut [f32]) {
    match set {
        ParamSet::Thesis60 => {
            for (o, v) in out.iter_mut().zip(eval::features(pos, player)) {
                *o = v as f32;
            }
        }
        ParamSet::Endgame66 | ParamSet::Net66(_) => {
            for (o, v) in out.iter_mut().zip(eval::all_features(pos, player)) {
                *o = v as f32;
            }
        }
        ParamSet::Phased132 => {
            let n = (pos.occupied().count() as i64).min(PHASE_PIECES) as f32;
            let open = n / PHASE_PIECES as f32;
            for (i, v) in eval::all_features(pos, player).into_iter().enumerate() {
                out[i] = v as f32 * open;
                out[NUM_ALL + i] = v as f32 * (1.0 - open);
            }
        }
    }
}

impl Positions {
    /// No positions yet, for weight vectors of `set`.
    pub fn new(set: ParamSet) -> Positions {
        Positions {
            set,
            x: Vec::new(),
            y: Vec::new(),
            pos: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.y.len()
    }

    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Adds the quiet positions of a game from `start` through `moves` (each position before a
    /// move), with the game's outcome.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], outcome: Outcome) {
        let d = linear_len(self.set);
        let mut pos = *start;
        for m in moves {
            if !has_capture(&pos) {
                let player = pos.side_to_move();
                let y = match outcome {
                    Outcome::Draw => 0.5,
                    o if o == Outcome::win_for(player) => 1.0,
                    _ => 0.0,
                };
                let at = self.x.len();
                self.x.resize(at + d, 0.0);
                linear_values(self.set, &pos, player, &mut self.x[at..]);
                self.y.push(y);
                self.pos.push(pos);
            }
            pos = pos.play(m);
        }
    }
}

/// Rows per chunk of the parallel sums (fixed, so the sums do not depend on the threads).
const CHUNK: usize = 2048;
/// Fewer positions than this give no fit.
pub const MIN_POSITIONS: usize = 200;

/// The logistic function.
fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean squared error of `1 / (1 + exp(-scale * e))` against `y`.
fn error(e: &[f64], y: &[f32], scale: f64) -> f64 {
    let sum: f64 = e
        .iter()
        .zip(y)
        .map(|(&e, &y)| (sigmoid(scale * e) - y as f64).powi(2))
        .sum();
    sum / e.len().max(1) as f64
}

/// The scale (a power of ten in twentieths, 1e-6 to 1) that minimizes [`error`] for the
/// evaluations `e`.
fn fit_scale(e: &[f64], y: &[f32]) -> f64 {
    (-120..=0)
        .map(|k| 10f64.powf(k as f64 / 20.0))
        .map(|s| (error(e, y, s), s))
        .fold((f64::INFINITY, 1.0), |a, b| if b.0 < a.0 { b } else { a })
        .1
}

/// Fits the linear weights of `start` to at most `max_positions` of `data` (every k-th, in
/// order) by `iterations` full-batch steps of Adam on the squared error. None with fewer than
/// [`MIN_POSITIONS`] positions or data of another set.
pub fn fit(
    start: &Weights,
    data: &Positions,
    max_positions: usize,
    iterations: u32,
) -> Option<Fitted> {
    if data.set != start.set() || data.len() < MIN_POSITIONS {
        return None;
    }
    let d = linear_len(data.set);
    let stride = data.len().div_ceil(max_positions.max(MIN_POSITIONS));
    let rows: Vec<usize> = (0..data.len()).step_by(stride).collect();
    let n = rows.len();
    let mut x = Vec::with_capacity(n * d);
    let mut y = Vec::with_capacity(n);
    let w0: Vec<f64> = start.values()[..d].iter().map(|&v| v as f64).collect();
    // Whatever the linear part does not explain (a network's output) stays as an offset.
    let mut offset = Vec::with_capacity(n);
    for &r in &rows {
        let xr = &data.x[r * d..][..d];
        x.extend_from_slice(xr);
        y.push(data.y[r]);
        let p = &data.pos[r];
        let linear: f64 = xr.iter().zip(&w0).map(|(&a, &b)| a as f64 * b).sum();
        offset.push(eval::evaluate(p, p.side_to_move(), start) as f64 - linear);
    }
    let evals = |w: &[f64]| -> Vec<f64> {
        x.par_chunks(CHUNK * d)
            .zip(offset.par_chunks(CHUNK))
            .flat_map_iter(|(xc, oc)| {
                xc.chunks(d)
                    .zip(oc)
                    .map(|(xr, &o)| o + xr.iter().zip(w).map(|(&a, &b)| a as f64 * b).sum::<f64>())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let e0 = evals(&w0);
    let scale = fit_scale(&e0, &y);
    let before = error(&e0, &y, scale);

    // Adam, its step a fraction of the start vector's typical weight.
    let typical = (w0.iter().map(|w| w * w).sum::<f64>() / d as f64)
        .sqrt()
        .max(1.0);
    let lr = 0.01 * typical;
    let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-12);
    let mut w = w0.clone();
    let mut m = vec![0.0; d];
    let mut v = vec![0.0; d];
    for t in 1..=iterations {
        let e = evals(&w);
        let grad = x
            .par_chunks(CHUNK * d)
            .zip(e.par_chunks(CHUNK))
            .zip(y.par_chunks(CHUNK))
            .map(|((xc, ec), yc)| {
                let mut g = vec![0.0f64; d];
                for ((xr, &e), &y) in xc.chunks(d).zip(ec).zip(yc) {
                    let p = sigmoid(scale * e);
                    let k = 2.0 * (p - y as f64) * p * (1.0 - p) * scale;
                    for (gj, &xj) in g.iter_mut().zip(xr) {
                        *gj += k * xj as f64;
                    }
                }
                g
            })
            .collect::<Vec<_>>()
            .into_iter()
            .fold(vec![0.0f64; d], |mut a, g| {
                a.iter_mut().zip(g).for_each(|(a, g)| *a += g);
                a
            });
        let c1 = 1.0 - b1.powi(t as i32);
        let c2 = 1.0 - b2.powi(t as i32);
        for j in 0..d {
            let g = grad[j] / n as f64;
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let step = lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            w[j] = (w[j] - step).clamp(-(i16::MAX as f64), i16::MAX as f64);
        }
    }
    let mut weights = *start;
    for (o, &f) in weights.values_mut()[..d].iter_mut().zip(&w) {
        *o = f.round() as i16;
    }
    let rounded: Vec<f64> = weights.values()[..d].iter().map(|&v| v as f64).collect();
    let after = error(&evals(&rounded), &y, scale);
    Some(Fitted {
        weights,
        scale,
        before,
        after,
        positions: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DrawRules, Game};
    use crate::rng::{derive, Purpose};
    use crate::search::{SearchConfig, Searcher};

    /// Games between `material` (men 100, kings 160) and a vector that values kings at 0.
    fn games(set: ParamSet, n: u64) -> Positions {
        let mut good = Weights::zero_of(set);
        let mut bad = Weights::zero_of(set);
        // Parameters 0..4: own men, own kings, the opponent's men, the opponent's kings.
        good.values_mut()[..4].copy_from_slice(&[100, 160, -100, -160]);
        bad.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
        let mut data = Positions::new(set);
        for k in 0..n {
            let (b, w) = if k % 2 == 0 { (good, bad) } else { (bad, good) };
            let mut sb = Searcher::new(b, SearchConfig::with_depth(2));
            let mut sw = Searcher::new(w, SearchConfig::with_depth(2));
            let mut game = Game::new(Position::start(), DrawRules::default());
            let mut rng = derive(k, Purpose::Game, 0, k);
            game.play_out(&mut sb, &mut sw, &mut rng);
            let outcome = game.result().map(|r| r.0).unwrap_or(Outcome::Draw);
            data.add_game(game.start(), game.moves(), outcome);
        }
        data
    }

    #[test]
    fn quiet_positions_only_with_the_result_for_the_side_to_move() {
        let data = games(ParamSet::Endgame66, 2);
        assert!(!data.is_empty());
        assert!(data.pos.iter().all(|p| !has_capture(p)));
        assert!(data.y.iter().all(|&y| y == 0.0 || y == 0.5 || y == 1.0));
        assert_eq!(data.x.len(), data.len() * NUM_ALL);
    }

    #[test]
    fn a_fit_lowers_the_error_and_is_the_same_at_any_thread_count() {
        let data = games(ParamSet::Endgame66, 24);
        assert!(data.len() >= MIN_POSITIONS, "{} positions", data.len());
        let mut start = Weights::zero_of(ParamSet::Endgame66);
        start.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
        let pool = |t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        };
        let one = pool(1).install(|| fit(&start, &data, 5000, 100)).unwrap();
        let two = pool(2).install(|| fit(&start, &data, 5000, 100)).unwrap();
        assert_eq!(one, two);
        assert!(one.after < one.before, "{} -> {}", one.before, one.after);
        assert!(one.positions <= 5000);
        assert_ne!(one.weights, start);
    }

    #[test]
    fn too_few_positions_or_another_set_give_no_fit() {
        let start = Weights::zero_of(ParamSet::Endgame66);
        assert!(fit(&start, &Positions::new(ParamSet::Endgame66), 5000, 10).is_none());
        let more = games(ParamSet::Endgame66, 24);
        assert!(fit(&start, &more, 5000, 10).is_some());
        assert!(fit(&Weights::zero_of(ParamSet::Thesis60), &more, 5000, 10).is_none());
    }

    #[test]
    fn a_network_keeps_its_network_and_its_output_counts() {
        let set = ParamSet::Net66(2);
        let data = games(set, 24);
        let mut start = Weights::zero_of(set);
        start.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
        for (i, v) in start.values_mut()[NUM_ALL..].iter_mut().enumerate() {
            *v = (i as i16 % 7) - 3;
        }
        let f = fit(&start, &data, 5000, 50).unwrap();
        assert_eq!(f.weights.values()[NUM_ALL..], start.values()[NUM_ALL..]);
        assert!(f.after < f.before);
    }
}
