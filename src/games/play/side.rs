//! A side's player owned for as many games as it plays: [`SidePlayer`].

use super::{Answer, Outside, Player, Searching, Turn};
use crate::game::Game;
use crate::hub::ClientError;
use crate::search::Searcher;

/// The player of one side, owned and kept across its games: our searcher, an outside engine
/// (its process taken from the pool each game), or any other player (a person at the
/// terminal). What a match's side ([`crate::matchplay::Contestant::player`]) and `play`'s
/// sides are.
pub enum SidePlayer {
    /// Our engine: a searcher with its evaluation and settings.
    Ours(Box<Searcher>),
    /// An outside Hub engine.
    Outside(Box<Outside>),
    /// Any other player.
    Other(Box<dyn Player + Send>),
}

impl SidePlayer {
    /// Ready for its next game: our searcher's table cleared (an outside engine's process
    /// went back to its pool when the last game ended).
    pub fn next_game(&mut self) {
        if let SidePlayer::Ours(s) = self {
            s.clear();
        }
    }

    /// Our searcher, if the side is ours.
    pub fn searcher(&mut self) -> Option<&mut Searcher> {
        match self {
            SidePlayer::Ours(s) => Some(s),
            _ => None,
        }
    }
}

impl Player for SidePlayer {
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError> {
        match self {
            SidePlayer::Ours(s) => Searching::new(s).go(game, turn),
            SidePlayer::Outside(o) => o.go(game, turn),
            SidePlayer::Other(p) => p.go(game, turn),
        }
    }

    fn game_over(&mut self, abandoned: bool) {
        match self {
            SidePlayer::Ours(s) => Searching::new(s).game_over(abandoned),
            SidePlayer::Outside(o) => o.game_over(abandoned),
            SidePlayer::Other(p) => p.game_over(abandoned),
        }
    }
}
