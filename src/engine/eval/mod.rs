//! The evaluation: 60 parameters counted on the board for one player, weighted and summed
//! (the thesis's 60, and the endgame parameters of the larger sets).
//!
//! Every parameter is defined once, in [`eval_trace`], which reports each value to a [`Trace`].
//! [`evaluate`] runs it with a [`WeightedSum`] (value * weight, accumulated), [`features`] with a
//! [`FeatureVector`] (the values themselves), so the search and the feature dump cannot disagree.
//! Everything is computed with bitboard masks, one-step diagonal shifts and popcounts; only the
//! capture parameters (16, 17, 19, 20) walk the jump tree, and only when a capture exists.
//!
//! docs/parameters.md describes every parameter set and parameter for readers of the weights.
//!
//! "The player" P is the side the search maximises, whoever is to move; the opponent is O.
//! Conventions where the thesis leaves room (see the parameter table in [`PARAMS`]):
//! - Rows are counted from a side's own back row (Black: row 0 = squares 1-4; White: row 7 =
//!   squares 29-32). Bottom rows = its 2 nearest rows, middle rows = squares 13-20 for both sides,
//!   top rows = its 3 farthest rows. A side's third row (Black 9-12, White 21-24) is in no band.
//! - Distance to promotion of a man = rows still to advance: 7 - row for Black, row for White.
//! - Movable, lonely, blocking and block lines look only at the board (a movable piece has a
//!   free square to step to, whether or not a capture makes that step illegal).
//! - Moves/captures count legal moves as the move generator does: two jump paths taking the same
//!   pieces are two moves.
//!
//! Files, bottom up: `names`, `weights`, `features`, `network`, `board_net`.
//! - `names`: the table of parameter names and descriptions, and the parameter counts.
//! - `weights`: [`ParamSet`] and [`Weights`], with their serde forms.
//! - `features`: every parameter's value of a position ([`eval_trace`], [`all_trace`]).
//! - `network`: the network of the `net66` sets, its dot products by SSE2 or AVX2 ([`Simd`]).
//! - `board_net`: the network of the `board` sets over the pieces on the board, its units'
//!   sums kept up to date move by move ([`Accumulator`]).
//!
//! This file puts them together: [`evaluate`].
//!
//! # Example
//!
//! ```
//! use checkers_ga::Color;
//! use checkers_ga::{evaluate, material};
//! use checkers_ga::parse_fen;
//!
//! // Black, a man up, is ahead; White sees the same position as behind.
//! let pos = parse_fen("W:W32:B1,2").unwrap();
//! let w = material();
//! assert!(evaluate(&pos, Color::Black, &w) > 0);
//! assert!(evaluate(&pos, Color::White, &w) < 0);
//! ```

mod board_net;
mod features;
mod names;
mod network;
mod weights;

pub use board_net::{board_inputs, Accumulator, TO_MOVE};
pub use features::{all_features, all_trace, eval_trace, features, king_ending, Trace};
pub use names::{
    board_input_name, board_len, net_len, param_index, Param, ALL_PARAMS, BOARD_INPUTS, MAX_HIDDEN,
    NUM_ALL, NUM_PARAMS, PARAMS,
};
pub use network::{Simd, NET_ACT_MAX, NET_INPUT_CLAMP, NET_SHIFT};
pub use weights::{
    material, ParamSet, Thesis60Tuple, UnknownParamSet, Weights, DEFAULT_BOARD_HIDDEN,
    DEFAULT_HIDDEN, MAX_WEIGHTS,
};

use crate::board::{Color, Position};

/// |evaluate(..)| never exceeds this, so a search can put terminal (win/loss) scores beyond it.
///
/// For positions reachable in play the weighted sum stays far below (about 1000 * 32768); the
/// bound only matters for artificial positions, where the sum is saturated to it.
pub const MAX_EVAL: i32 = 1 << 30;
/// The number of pieces at which the phased set's mix is all opening weights (24 at the start).
pub const PHASE_PIECES: i64 = 24;

/// Accumulates value * weight: the evaluation.
///
/// The sum is an `i64`: a value is an `i32` and a weight at most 2^15 in magnitude, so a term is
/// below 2^46 and 60 terms below 2^52: no overflow (the original tool's 32-bit sum could).
pub struct WeightedSum<'a> {
    /// The weights (of a linear set: weight `i` multiplies parameter `i`).
    pub weights: &'a Weights,
    /// The sum so far.
    pub sum: i64,
}

impl Trace for WeightedSum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        self.sum += value as i64 * self.weights.w[param] as i64;
    }
}

/// Accumulates the opening and the endgame sums of the phased set.
struct PhasedSum<'a> {
    w: &'a [i16; MAX_WEIGHTS],
    open: i64,
    end: i64,
}

impl Trace for PhasedSum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        self.open += value as i64 * self.w[param] as i64;
        self.end += value as i64 * self.w[NUM_ALL + param] as i64;
    }
}

/// Evaluation of `pos` for `player` (whoever is to move): sum of parameter * weight (for the
/// phased set, the opening and endgame sums mixed by the pieces left; for the network set, plus
/// the network's output over the same values, `net_output`), saturated to
/// `-MAX_EVAL..=MAX_EVAL` (never reached by real positions).
///
/// The network's dot products use the best instructions the CPU has, asked at each call; a
/// caller evaluating many positions asks once ([`Simd::detect`]) and calls [`evaluate_with`].
#[inline]
pub fn evaluate(pos: &Position, player: Color, w: &Weights) -> i32 {
    evaluate_with(pos, player, w, Simd::detect())
}

/// [`evaluate`] with the network's dot products by `simd` (the same value by any).
#[inline]
pub fn evaluate_with(pos: &Position, player: Color, w: &Weights, simd: Simd) -> i32 {
    let sum = match w.set() {
        ParamSet::Thesis60 => {
            let mut t = WeightedSum { weights: w, sum: 0 };
            eval_trace(pos, player, &mut t);
            t.sum
        }
        ParamSet::Endgame66 => {
            let mut t = WeightedSum { weights: w, sum: 0 };
            all_trace(pos, player, &mut t);
            t.sum
        }
        ParamSet::Phased132 => {
            let mut t = PhasedSum {
                w: &w.w,
                open: 0,
                end: 0,
            };
            all_trace(pos, player, &mut t);
            let n = (pos.occupied().count() as i64).min(PHASE_PIECES);
            (t.open * n + t.end * (PHASE_PIECES - n)) / PHASE_PIECES
        }
        ParamSet::Net66(h) => network::net_sum(pos, player, &w.w, h as usize, simd),
        // An outside engine's parameters: its own evaluation, not ours.
        ParamSet::Engine(_) => 0,
        ParamSet::Board(h) => {
            let acc = Accumulator::new(pos, player, w.values(), h as usize);
            return evaluate_board(pos, player, w, &acc);
        }
    };
    sum.clamp(-(MAX_EVAL as i64), MAX_EVAL as i64) as i32
}

/// The evaluation of `pos` for `player` by a board network set `w` whose units' sums for
/// `pos` are `acc` (kept up to date by a search): the weighted sum of the 66 plus the
/// network's output, saturated as [`evaluate`] is. The same value as [`evaluate`].
#[inline]
pub fn evaluate_board(pos: &Position, player: Color, w: &Weights, acc: &Accumulator) -> i32 {
    let mut t = WeightedSum { weights: w, sum: 0 };
    all_trace(pos, player, &mut t);
    let h = w.set().hidden();
    let to_move = pos.side_to_move() == player;
    let sum = t.sum + acc.output(to_move, w.values(), h) as i64;
    sum.clamp(-(MAX_EVAL as i64), MAX_EVAL as i64) as i32
}
