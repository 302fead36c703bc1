//! Plain minimax, the reference the searcher's alpha-beta must equal.

use super::{INF, MAX_PLY, WIN};
use crate::board::{Color, Position};
use crate::eval::Weights;
use crate::yardstick::Evaluator;

/// Plain minimax (no pruning, no table) to `depth` plies with the same leaf rules as the
/// searcher: the reference that alpha-beta must equal.
pub fn minimax(pos: &Position, depth: u32, weights: &Weights, capture_extension: bool) -> i32 {
    minimax_with(
        pos,
        depth,
        &Evaluator::Weighted(*weights),
        capture_extension,
    )
}

/// [`minimax`] with any evaluator.
pub fn minimax_with(pos: &Position, depth: u32, eval: &Evaluator, capture_extension: bool) -> i32 {
    minimax_node(pos, depth, 0, pos.side_to_move(), eval, capture_extension)
}

/// Plain minimax of a node `ply` plies below a root where `player` was to move: the value for
/// the side to move at `pos`, leaves evaluated for `player`.
pub fn minimax_from(
    pos: &Position,
    depth: u32,
    ply: u32,
    player: Color,
    w: &Weights,
    ext: bool,
) -> i32 {
    minimax_node(pos, depth, ply, player, &Evaluator::Weighted(*w), ext)
}

fn minimax_node(
    pos: &Position,
    depth: u32,
    ply: u32,
    player: Color,
    e: &Evaluator,
    ext: bool,
) -> i32 {
    let list = crate::movegen::legal_moves(pos);
    if list.is_empty() {
        return -(WIN - ply as i32);
    }
    if (depth == 0 && !(ext && list[0].is_capture())) || ply as usize >= MAX_PLY - 1 {
        let v = e.evaluate(pos, player);
        return if pos.side_to_move() == player { v } else { -v };
    }
    list.iter()
        .map(|m| {
            -minimax_node(
                &pos.play(m),
                depth.saturating_sub(1),
                ply + 1,
                player,
                e,
                ext,
            )
        })
        .max()
        .unwrap_or(-INF)
}
