//! What a search evaluates its leaves with, as a type per kind of evaluator (the board
//! network's from the sums the search keeps).

use super::Searcher;
use crate::board::Position;
use crate::eval::{evaluate_board, evaluate_with};
use crate::yardstick::Evaluator;

/// The leaf evaluation of a searcher, as a type, so that [`Searcher::negamax`] is compiled once
/// per kind of evaluator and the weighted search runs the same code as one that only knows
/// weights.
pub(super) trait Leaf {
    /// Whether the search keeps a board network's sums up to date move by move.
    const INCREMENTAL: bool = false;
    /// Value of `pos`, at `ply`, for the searching player.
    fn evaluate(s: &Searcher, pos: &Position, ply: u32) -> i32;
}

pub(super) struct WeightedLeaf;
pub(super) struct BoardLeaf;
pub(super) struct HandLeaf;
pub(super) struct ClassicLeaf;

impl Leaf for WeightedLeaf {
    #[inline(always)]
    fn evaluate(s: &Searcher, pos: &Position, _: u32) -> i32 {
        match &s.eval {
            Evaluator::Weighted(w) => evaluate_with(pos, s.player, w, s.simd),
            _ => unreachable!("a weighted leaf in a search with weights"),
        }
    }
}

impl Leaf for BoardLeaf {
    const INCREMENTAL: bool = true;
    #[inline(always)]
    fn evaluate(s: &Searcher, pos: &Position, ply: u32) -> i32 {
        match &s.eval {
            Evaluator::Weighted(w) => evaluate_board(pos, s.player, w, &s.acc[ply as usize]),
            _ => unreachable!("a board leaf in a search with weights"),
        }
    }
}

impl Leaf for HandLeaf {
    #[inline(always)]
    fn evaluate(s: &Searcher, pos: &Position, _: u32) -> i32 {
        crate::yardstick::hand(pos, s.player)
    }
}

impl Leaf for ClassicLeaf {
    #[inline(always)]
    fn evaluate(s: &Searcher, pos: &Position, _: u32) -> i32 {
        crate::yardstick::classic(pos, s.player)
    }
}
