//! The evaluation: 60 parameters counted on the board for one player, weighted and summed.
//!
//! PLACEHOLDER (being written): only the interface is fixed here.

use crate::board::{Color, Position};

/// Number of evaluation parameters (and weights).
pub const NUM_PARAMS: usize = 60;

/// A weight vector: the genotype the GA evolves, in SPEC section 3 order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Weights(pub [i16; NUM_PARAMS]);

/// Evaluation of `pos` for `player` (whoever is to move): sum of parameter * weight.
pub fn evaluate(pos: &Position, player: Color, w: &Weights) -> i32 {
    let men = pos.men(player).count() as i32 - pos.men(player.opposite()).count() as i32;
    let kings = pos.kings(player).count() as i32 - pos.kings(player.opposite()).count() as i32;
    men * w.0[0] as i32 + kings * w.0[1] as i32
}
