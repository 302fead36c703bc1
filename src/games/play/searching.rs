//! Our searcher as a player: a move searched to its depth, or by iterative deepening for the
//! time its clock allots (its depth then the maximum).

use super::{Answer, Player, Thought, Turn};
use crate::game::Game;
use crate::hub::ClientError;
use crate::search::{Searcher, WIN_BOUND};
use crate::yardstick::Evaluator;

/// The centi-men a won (or lost) position counts as in [`centi_men`]: beyond any evaluation,
/// so adjudication takes it for what it is.
pub const WIN_CENTI_MEN: i32 = 1_000_000;

/// A search value of `eval` (from the side that moved) in hundredths of a man, the unit
/// adjudication works in: the value over [`crate::man_value`] times 100, rounded; a won or
/// lost position is +/-[`WIN_CENTI_MEN`]. An evaluation in which a man is worth nothing gives
/// its own units.
pub fn centi_men(eval: &Evaluator, value: i32) -> i32 {
    if value.abs() > WIN_BOUND {
        return WIN_CENTI_MEN * value.signum();
    }
    match crate::man::man_value(eval).map(f64::from) {
        Some(m) => (100.0 * f64::from(value) / m)
            .round()
            .clamp(-f64::from(WIN_CENTI_MEN - 1), f64::from(WIN_CENTI_MEN - 1))
            as i32,
        None => value,
    }
}

/// Our searcher (its evaluator and settings as it stands) as a player.
pub struct Searching<'s> {
    searcher: &'s mut Searcher,
}

impl<'s> Searching<'s> {
    /// `searcher` as a player (it is not reset: the caller decides what it starts a game with).
    pub fn new(searcher: &'s mut Searcher) -> Searching<'s> {
        Searching { searcher }
    }
}

/// The move of `searcher` for the side to move: with a clock, by iterative deepening for the
/// time it allots.
fn choose(searcher: &mut Searcher, game: &Game, turn: Turn<'_>) -> Answer {
    let pos = game.position();
    let r = match turn.clock {
        Some(c) => searcher.choose_timed(pos, turn.rng, c.budget(turn.side)),
        None => searcher.choose(pos, turn.rng),
    };
    match r.best {
        Some(mv) => {
            let score = if turn.scored {
                r.value.map(|v| centi_men(searcher.evaluator(), v))
            } else {
                None
            };
            Answer::Move(
                mv,
                Thought {
                    depth: Some(r.depth),
                    nodes: Some(r.nodes),
                    value: r.value,
                    score,
                    elapsed: None,
                },
            )
        }
        // Not reached: the loop asks only in a position with a move.
        None => Answer::Resign,
    }
}

impl Player for Searching<'_> {
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError> {
        Ok(choose(self.searcher, game, turn))
    }
}
