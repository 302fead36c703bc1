//! Fitting a weight vector to game results: a logistic regression of each game's result on the
//! quiet positions of the game (Texel's method), started from a given vector.
//!
//! The result of a position is that of its game for the side to move (1 win, 1/2 draw, 0 loss);
//! the prediction is `1 / (1 + exp(-scale * eval))`. The scale is fitted first, for the start
//! vector, and then kept, so the fitted weights stay on the start vector's scale. Every weight is
//! fitted: a network set's hidden and output weights too, by backpropagation through the
//! clipped activation (a unit outside `0..NET_ACT_MAX` passes no gradient, so a network that
//! is all zeros, as widening a weighted sum leaves it, first gets small random hidden weights,
//! its outputs staying 0; so does each unit whose inputs and bias are all 0, as widening a
//! network by more units leaves them). Quiet positions are those where the side to
//! move has no capture: the only ones a search evaluates with capture extension on.
//!
//! The fit is Adam over small batches of positions, a few passes over them in an order drawn
//! from the generator it is given: deterministic at any thread count. The steps run in order;
//! within a step the positions' evaluations are shared by the threads in chunks, and the
//! gradient in shares of the weights (each hidden unit's, the rest), every weight's sum taken
//! in one fixed order whatever the threads.

use crate::board::{Color, Move, Position};
use crate::eval::{
    self, board_inputs, ParamSet, Weights, BOARD_INPUTS, NET_ACT_MAX, NET_INPUT_CLAMP, NET_SHIFT,
    NUM_ALL, PHASE_PIECES,
};
use crate::game::GameOutcome;
use crate::movegen::has_capture;
use crate::schedule;
use crate::search::{SearchConfig, Searcher};
use rand::seq::SliceRandom;
use rand::RngExt;
use rayon::prelude::*;
use std::borrow::Borrow;

/// Positions with their results, as the values a set's linear weights multiply.
#[derive(Clone, Debug)]
pub struct Positions {
    set: ParamSet,
    /// The values, `linear_len(set)` per position (a network's inputs are the same values).
    x: Vec<f32>,
    /// Each position's result for the player it is evaluated for.
    y: Vec<f32>,
    /// The positions themselves (the errors before and after are those of `evaluate`).
    pos: Vec<Position>,
    /// The player each position is evaluated for: its side to move, and for a board network
    /// the other side too (the network has an input for who is to move).
    player: Vec<Color>,
}

/// How a fit went.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The fitted weights.
    pub weights: Weights,
    /// The logistic scale fitted for the start vector (per evaluation unit).
    pub scale: f64,
    /// Mean squared error of the predicted result, for the start vector and the fitted one.
    pub before: f64,
    /// Mean squared error of the fitted vector (see `before`).
    pub after: f64,
    /// Positions used.
    pub positions: usize,
}

/// The number of values per position: those the linear weights of `set` multiply.
pub fn linear_len(set: ParamSet) -> usize {
    match set {
        ParamSet::Thesis60 => eval::NUM_PARAMS,
        ParamSet::Endgame66 | ParamSet::Net66(_) | ParamSet::Board(_) => NUM_ALL,
        ParamSet::Phased132 => 2 * NUM_ALL,
        // An outside engine's parameters: nothing of ours to fit.
        ParamSet::Engine(_) => 0,
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
        ParamSet::Endgame66 | ParamSet::Net66(_) | ParamSet::Board(_) => {
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
        ParamSet::Engine(_) => {}
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
            player: Vec::new(),
        }
    }

    /// The number of positions gathered.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether no position was gathered.
    #[allow(dead_code)] // beside len
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Adds `other`'s positions after these (of the same set).
    pub fn append(&mut self, mut other: Positions) {
        debug_assert_eq!(self.set, other.set);
        self.x.append(&mut other.x);
        self.y.append(&mut other.y);
        self.pos.append(&mut other.pos);
        self.player.append(&mut other.player);
    }

    /// The positions, each with the player it is evaluated for and its result for them.
    pub fn rows(&self) -> impl Iterator<Item = (&Position, Color, f32)> {
        self.pos
            .iter()
            .zip(&self.player)
            .zip(&self.y)
            .map(|((p, &c), &y)| (p, c, y))
    }

    /// Adds a position evaluated for `player`, with its result for them.
    pub fn push(&mut self, pos: &Position, player: Color, y: f32) {
        let d = linear_len(self.set);
        let at = self.x.len();
        self.x.resize(at + d, 0.0);
        linear_values(self.set, pos, player, &mut self.x[at..]);
        self.y.push(y);
        self.pos.push(*pos);
        self.player.push(player);
    }

    /// Adds a quiet position with the result `y` for its side to move (for a board network,
    /// also for the other side, with `1 - y`).
    pub fn add_quiet(&mut self, pos: &Position, y: f32) {
        let player = pos.side_to_move();
        self.push(pos, player, y);
        if self.set.is_board() {
            self.push(pos, player.opposite(), 1.0 - y);
        }
    }

    /// The quiet positions added ([`Positions::add_quiet`]), each with its result for its side
    /// to move.
    pub fn quiet(&self) -> impl Iterator<Item = (&Position, f32)> {
        self.rows()
            .filter(|(p, c, _)| p.side_to_move() == *c)
            .map(|(p, _, y)| (p, y))
    }

    /// The set whose values these are.
    pub fn set(&self) -> ParamSet {
        self.set
    }

    /// Adds the quiet positions of a game from `start` through `moves` (each position before a
    /// move), with the game's outcome.
    pub fn add_game<M: Borrow<Move>>(
        &mut self,
        start: &Position,
        moves: impl IntoIterator<Item = M>,
        outcome: GameOutcome,
    ) {
        let mut pos = *start;
        for m in moves {
            let m = m.borrow();
            if !has_capture(&pos) {
                let player = pos.side_to_move();
                let y = match outcome {
                    GameOutcome::Draw => 0.5,
                    o if o == GameOutcome::win_for(player) => 1.0,
                    _ => 0.0,
                };
                self.add_quiet(&pos, y);
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

/// Positions in each step of a fit.
pub const BATCH: usize = 256;
/// A batch's gradient is summed in parts of this many positions, each part from zero in the
/// positions' order, then the parts in their order (fixed, so the fit does not depend on the
/// threads; a batch was once summed by one thread per part).
const BATCH_PART: usize = 64;
/// Positions of a batch one thread evaluates at a time.
const FORWARD_CHUNK: usize = 16;
/// The weights of one share of a weighted sum's gradient (a set without a network).
const LINEAR_SHARE: usize = 16;

/// A share of a batch's gradient that one thread sums: some of the weights, all the positions.
struct Share {
    kind: ShareKind,
    /// The weights' indices, in the order the share sums them.
    entries: Vec<usize>,
}

enum ShareKind {
    /// Linear weights `range`, and with `outputs` the output weights.
    Linear {
        range: std::ops::Range<usize>,
        outputs: bool,
    },
    /// Hidden unit `j`'s input weights and bias.
    Unit(usize),
}

/// The positions of one step: `batch`, indices into `rows`, which index `data`.
#[derive(Clone, Copy)]
struct StepRows<'a> {
    data: &'a Positions,
    rows: &'a [usize],
    batch: &'a [usize],
}

/// A chunk of a batch's positions evaluated: each position's slope of the error in its
/// evaluation (`k`), its hidden units' sums, and (a board network) its inputs.
struct Evaluated {
    k: Vec<f64>,
    act: Vec<f64>,
    inputs: Vec<usize>,
    /// Where each position's inputs end in `inputs`.
    ends: Vec<usize>,
}

/// A vector's evaluation in floating point, to fit: the linear part, and for a network set its
/// network ([`eval::net_output`] without the rounding).
struct Model {
    /// The linear values per position.
    d: usize,
    /// Hidden units (0: no network).
    hidden: usize,
    /// Whether the network is a board network (its inputs the pieces, `inputs` of
    /// [`Model::forward`]), not one over the linear values.
    board: bool,
}

impl Model {
    fn of(set: ParamSet) -> Model {
        Model {
            d: linear_len(set),
            hidden: set.hidden(),
            board: set.is_board(),
        }
    }

    /// Where the output weights start.
    fn outs(&self) -> usize {
        if self.board {
            self.d + (BOARD_INPUTS + 1) * self.hidden
        } else {
            self.d + self.hidden * (self.d + 1)
        }
    }

    /// Where hidden unit `j`'s input weights and bias are.
    fn unit_in(&self, j: usize) -> Vec<usize> {
        let (d, h) = (self.d, self.hidden);
        if self.board {
            (0..=BOARD_INPUTS).map(|i| d + i * h + j).collect()
        } else {
            (d + j * (d + 1)..d + (j + 1) * (d + 1)).collect()
        }
    }

    /// The evaluation of the values `x` (and for a board network the inputs present,
    /// `inputs`) with the weights `w` (all of a vector's weights); `act` gets each hidden
    /// unit's sum before the clipping.
    fn forward(&self, w: &[f64], x: &[f32], inputs: &[usize], act: &mut [f64]) -> f64 {
        let d = self.d;
        let mut e: f64 = x.iter().zip(&w[..d]).map(|(&a, &b)| a as f64 * b).sum();
        let outs = self.outs();
        if self.board {
            let h = self.hidden;
            act[..h].copy_from_slice(&w[d + BOARD_INPUTS * h..][..h]);
            for &i in inputs {
                for (a, &v) in act[..h].iter_mut().zip(&w[d + i * h..][..h]) {
                    *a += v;
                }
            }
            for (j, a) in act[..h].iter_mut().enumerate() {
                *a /= (1u32 << NET_SHIFT) as f64;
                e += a.clamp(0.0, NET_ACT_MAX as f64) * w[outs + j];
            }
            return e;
        }
        for (j, h) in act.iter_mut().enumerate().take(self.hidden) {
            let unit = &w[d + j * (d + 1)..][..d + 1];
            let sum: f64 = x.iter().zip(unit).map(|(&a, &b)| clamp_input(a) * b).sum();
            *h = (sum + unit[d]) / (1u32 << NET_SHIFT) as f64;
            e += h.clamp(0.0, NET_ACT_MAX as f64) * w[outs + j];
        }
        e
    }

    /// The shares a batch's gradient is summed in: the linear and output weights, and each
    /// hidden unit's weights; without a network, pieces of the linear weights.
    fn shares(&self) -> Vec<Share> {
        let (d, h) = (self.d, self.hidden);
        let linear = |range: std::ops::Range<usize>, outputs: bool| {
            let mut entries: Vec<usize> = range.clone().collect();
            if outputs {
                entries.extend(self.outs()..self.outs() + h);
            }
            Share {
                kind: ShareKind::Linear { range, outputs },
                entries,
            }
        };
        if h == 0 {
            let n = d.div_ceil(LINEAR_SHARE).max(1);
            return (0..n)
                .map(|i| linear(i * d / n..(i + 1) * d / n, false))
                .collect();
        }
        std::iter::once(linear(0..d, true))
            .chain((0..h).map(|j| Share {
                kind: ShareKind::Unit(j),
                entries: self.unit_in(j),
            }))
            .collect()
    }

    /// The positions `batch` (indices into `rows`) evaluated with `w`, in chunks of
    /// [`FORWARD_CHUNK`] on as many threads.
    fn forward_batch(&self, w: &[f64], at: StepRows, y: &[f32], scale: f64) -> Vec<Evaluated> {
        let (d, h) = (self.d, self.hidden);
        let StepRows { data, rows, batch } = at;
        batch
            .par_chunks(FORWARD_CHUNK)
            .map(|chunk| {
                let mut out = Evaluated {
                    k: Vec::with_capacity(chunk.len()),
                    act: vec![0.0; chunk.len() * h],
                    inputs: Vec::new(),
                    ends: Vec::with_capacity(chunk.len()),
                };
                let mut inputs = Vec::new();
                for (n, &i) in chunk.iter().enumerate() {
                    let r = rows[i];
                    let x = &data.x[r * d..][..d];
                    if self.board {
                        board_inputs(&data.pos[r], data.player[r], &mut inputs);
                        out.inputs.extend_from_slice(&inputs);
                    }
                    out.ends.push(out.inputs.len());
                    let e = self.forward(w, x, &inputs, &mut out.act[n * h..][..h]);
                    let p = sigmoid(scale * e);
                    out.k.push(2.0 * (p - y[i] as f64) * p * (1.0 - p) * scale);
                }
                out
            })
            .collect()
    }

    /// The gradient of the batch `batch` (evaluated as `ev`) into `grad`: each share summed on
    /// its own thread, every weight's sum taken in the same order whatever the threads (by
    /// parts of [`BATCH_PART`] positions, then the parts).
    fn gradient(
        &self,
        w: &[f64],
        at: StepRows,
        ev: &[Evaluated],
        shares: &[Share],
        grad: &mut [f64],
    ) {
        let sums: Vec<Vec<f64>> = shares
            .par_iter()
            .map(|s| self.share_sum(w, at, ev, s))
            .collect();
        for (s, sum) in shares.iter().zip(sums) {
            for (&i, v) in s.entries.iter().zip(sum) {
                grad[i] = v;
            }
        }
    }

    /// One share's entries of the batch's gradient (see [`Model::gradient`]).
    fn share_sum(&self, w: &[f64], at: StepRows, ev: &[Evaluated], share: &Share) -> Vec<f64> {
        let (d, h) = (self.d, self.hidden);
        let StepRows { data, rows, batch } = at;
        let max = NET_ACT_MAX as f64;
        let mut total = vec![0.0; share.entries.len()];
        let mut part = vec![0.0; share.entries.len()];
        for start in (0..batch.len()).step_by(BATCH_PART) {
            part.fill(0.0);
            for i in start..(start + BATCH_PART).min(batch.len()) {
                let (c, m) = (&ev[i / FORWARD_CHUNK], i % FORWARD_CHUNK);
                let k = c.k[m];
                let act = &c.act[m * h..][..h];
                let x = &data.x[rows[batch[i]] * d..][..d];
                match share.kind {
                    ShareKind::Linear { ref range, outputs } => {
                        for (g, &a) in part.iter_mut().zip(&x[range.clone()]) {
                            *g += k * a as f64;
                        }
                        if outputs {
                            for (g, &a) in part[range.len()..].iter_mut().zip(act) {
                                *g += k * a.clamp(0.0, max);
                            }
                        }
                    }
                    ShareKind::Unit(j) => {
                        let a = act[j];
                        if a > 0.0 && a < max {
                            let kj = k * w[self.outs() + j] / (1u32 << NET_SHIFT) as f64;
                            if self.board {
                                part[BOARD_INPUTS] += kj;
                                let from = if m == 0 { 0 } else { c.ends[m - 1] };
                                for &input in &c.inputs[from..c.ends[m]] {
                                    part[input] += kj;
                                }
                            } else {
                                for (g, &a) in part.iter_mut().zip(x) {
                                    *g += kj * clamp_input(a);
                                }
                                part[d] += kj;
                            }
                        }
                    }
                }
            }
            for (t, p) in total.iter_mut().zip(&part) {
                *t += p;
            }
        }
        total
    }

    /// Adds `k` times the gradient of [`Model::forward`] (at `w`, `x`, `act`) to `grad` (one
    /// position's; the tests' reference for [`Model::gradient`]).
    #[cfg(test)]
    #[allow(clippy::too_many_arguments)]
    fn backward(
        &self,
        w: &[f64],
        x: &[f32],
        inputs: &[usize],
        act: &[f64],
        k: f64,
        grad: &mut [f64],
    ) {
        let d = self.d;
        for (g, &a) in grad[..d].iter_mut().zip(x) {
            *g += k * a as f64;
        }
        let outs = self.outs();
        let h_all = self.hidden;
        for (j, &h) in act.iter().enumerate().take(self.hidden) {
            grad[outs + j] += k * h.clamp(0.0, NET_ACT_MAX as f64);
            if h > 0.0 && h < NET_ACT_MAX as f64 {
                let kj = k * w[outs + j] / (1u32 << NET_SHIFT) as f64;
                if self.board {
                    grad[d + BOARD_INPUTS * h_all + j] += kj;
                    for &i in inputs {
                        grad[d + i * h_all + j] += kj;
                    }
                    continue;
                }
                let unit = &mut grad[d + j * (d + 1)..][..d + 1];
                for (g, &a) in unit.iter_mut().zip(x) {
                    *g += kj * clamp_input(a);
                }
                unit[d] += kj;
            }
        }
    }

    /// The groups of weights that share a step size: the linear part, the hidden units' weights
    /// and biases, the output weights.
    fn groups(&self) -> Vec<std::ops::Range<usize>> {
        let d = self.d;
        if self.hidden == 0 {
            return std::iter::once(0..d).collect();
        }
        let outs = self.outs();
        vec![0..d, d..outs, outs..outs + self.hidden]
    }
}

/// A network input as the evaluation clamps it.
fn clamp_input(a: f32) -> f64 {
    (a as f64).clamp(-(NET_INPUT_CLAMP as f64), NET_INPUT_CLAMP as f64)
}

/// `w`'s values of the positions `rows` of `data` searched to `depth`, for the player each is
/// evaluated for (in parallel, in order).
fn searched(w: &Weights, data: &Positions, rows: &[usize], depth: u32) -> Vec<f64> {
    rows.par_chunks(CHUNK)
        .flat_map_iter(|c| {
            let mut s = Searcher::new(*w, SearchConfig::with_depth(depth));
            // A board set's two rows of a position (side by side) share one search.
            let mut last: Option<(Position, f64)> = None;
            c.iter().map(move |&r| {
                let p = &data.pos[r];
                let v = match last {
                    Some((q, v)) if q == *p => v,
                    _ => s.value(p) as f64,
                };
                last = Some((*p, v));
                if data.player[r] == p.side_to_move() {
                    v
                } else {
                    -v
                }
            })
        })
        .collect()
}

/// `w`'s evaluations of the positions `rows` of `data` (in parallel, in order).
fn evals(w: &Weights, data: &Positions, rows: &[usize]) -> Vec<f64> {
    rows.par_chunks(CHUNK)
        .flat_map_iter(|c| {
            c.iter()
                .map(|&r| eval::evaluate(&data.pos[r], data.player[r], w) as f64)
        })
        .collect()
}

/// What the fit predicts besides the game's result: a share of each position's target is the
/// start vector's searched value of it, as a probability (`1 / (1 + exp(-scale * value))`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchTarget {
    /// The searched value's share of the target, 0..=1 (the result's is the rest).
    pub share: f64,
    /// The depth of the searches.
    pub depth: u32,
}

/// The rows of at most `max_rows` of `data` (every k-th position, in order; at least
/// [`MIN_POSITIONS`]'s worth): whole positions, so a board set's two rows of a position (one
/// for each side) are taken together.
fn sample_rows(data: &Positions, max_rows: usize) -> Vec<usize> {
    let per = if data.set.is_board() { 2 } else { 1 };
    let stride = (data.len() / per).div_ceil((max_rows / per).max(MIN_POSITIONS));
    (0..data.len() / per)
        .step_by(stride)
        .flat_map(|q| (0..per).map(move |k| q * per + k))
        .collect()
}

/// Fits all the weights of `start` (a network set's network too) to at most `max_positions`
/// of `data` (every k-th, in order) by `epochs` passes of Adam over them in batches of
/// [`BATCH`] positions, in an order drawn from `rng`. None with fewer than [`MIN_POSITIONS`]
/// positions or data of another set.
///
/// Each position's target is its game's result, or with `target` a blend of the result and
/// the searched value. The searches run in parallel, each chunk of positions with its
/// own searcher; a search's value does not depend on the table it finds, so neither does
/// the fit.
pub fn fit_to<R: rand::Rng + ?Sized>(
    start: &Weights,
    data: &Positions,
    max_positions: usize,
    epochs: u32,
    target: Option<SearchTarget>,
    rng: &mut R,
) -> Option<Fitted> {
    if data.set != start.set() || data.len() < MIN_POSITIONS {
        return None;
    }
    let model = Model::of(data.set);
    let d = model.d;
    // The schedule log's spans: the evaluations and searches are shared by any number of
    // threads, a batch's gradient by its parts' number.
    let span = schedule::span("fit-evals", 0);
    let rows = sample_rows(data, max_positions);
    let n = rows.len();
    let e0 = evals(start, data, &rows);
    let y: Vec<f32> = rows.iter().map(|&r| data.y[r]).collect();
    let scale = fit_scale(&e0, &y);
    let y = match target {
        Some(t) if t.share > 0.0 => {
            let v = searched(start, data, &rows, t.depth);
            y.iter()
                .zip(v)
                .map(|(&y, v)| ((1.0 - t.share) * y as f64 + t.share * sigmoid(scale * v)) as f32)
                .collect()
        }
        _ => y,
    };
    let before = error(&e0, &y, scale);
    drop(span);
    // Each step: the positions' evaluations (by chunks), the gradient (by shares), Adam's
    // update (serial).
    let shares = model.shares();
    let mut forward = schedule::tally("fit-forward", BATCH.div_ceil(FORWARD_CHUNK) as u32);
    let mut gradient = schedule::tally("fit-gradient", shares.len() as u32);
    let mut step = schedule::tally("fit-step", 1);

    // Adam, each group's step a fraction of its typical start weight.
    let mut w0: Vec<f64> = start.values().iter().map(|&v| v as f64).collect();
    let rms = |w: &[f64]| (w.iter().map(|w| w * w).sum::<f64>() / w.len() as f64).sqrt();
    let groups = model.groups();
    let mut typical: Vec<f64> = groups.iter().map(|g| rms(&w0[g.clone()])).collect();
    if model.hidden > 0 && w0[d..].iter().all(|&v| v == 0.0) {
        // A network at zero (a widened vector) passes no gradient: its hidden units start from
        // small random weights, its outputs stay 0 (the start's evaluation is unchanged) and
        // step as the weighted sum's weights do.
        for v in &mut w0[groups[1].clone()] {
            *v = rng.random_range(-ZERO_NET_INIT..=ZERO_NET_INIT) as f64;
        }
        typical[1] = ZERO_NET_INIT as f64 / 2.0;
        typical[2] = typical[0];
    } else if model.hidden > 0 {
        // A unit whose inputs and bias are all 0 (a network widened by more units) would pass
        // no gradient either: its inputs and bias start small and random, its output as it is.
        for j in 0..model.hidden {
            let unit = model.unit_in(j);
            if unit.iter().all(|&i| w0[i] == 0.0) {
                for i in unit {
                    w0[i] = rng.random_range(-ZERO_NET_INIT..=ZERO_NET_INIT) as f64;
                }
            }
        }
    }
    let mut lr = vec![0.0; w0.len()];
    for (g, t) in groups.into_iter().zip(typical) {
        lr[g].fill(LEARNING_RATE * t.max(1.0));
    }
    let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-12);
    let mut w = w0.clone();
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    let mut order: Vec<usize> = (0..n).collect();
    let mut t = 0;
    for _ in 0..epochs {
        order.shuffle(rng);
        for batch in order.chunks(BATCH) {
            let at = StepRows {
                data,
                rows: &rows,
                batch,
            };
            let ev = forward.time(|| model.forward_batch(&w, at, &y, scale));
            gradient.time(|| model.gradient(&w, at, &ev, &shares, &mut grad));
            t += 1;
            step.time(|| {
                let c1 = 1.0 - b1.powi(t);
                let c2 = 1.0 - b2.powi(t);
                for j in 0..w.len() {
                    let g = grad[j] / batch.len() as f64;
                    m[j] = b1 * m[j] + (1.0 - b1) * g;
                    v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                    let step = lr[j] * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                    w[j] = (w[j] - step).clamp(-(i16::MAX as f64), i16::MAX as f64);
                }
            });
        }
    }
    drop((forward, gradient, step));
    let _span = schedule::span("fit-evals", 0);
    let mut weights = *start;
    for (o, &f) in weights.values_mut().iter_mut().zip(&w) {
        *o = f.round() as i16;
    }
    let after = error(&evals(&weights, data, &rows), &y, scale);
    Some(Fitted {
        weights,
        scale,
        before,
        after,
        positions: n,
    })
}

/// The range of a zero network's hidden weights when a fit starts them.
const ZERO_NET_INIT: i32 = 256;

/// Adam's step, as a fraction of a group's typical start weight.
const LEARNING_RATE: f64 = 0.01;

#[cfg(test)]
mod tests;
