//! A side's player, whichever kind, owned: [`SidePlayer`].

use super::{Answer, Outside, Person, Player, Searching, Turn};
use crate::game::Game;
use crate::hub::ClientError;
use crate::search::Searcher;

/// The player of one side, owned: our searcher, an outside engine (its process taken from the
/// pool), a person, or any other player. What a game job's sides (`crate::jobs`: a match's, a
/// tournament's) and `play`'s sides are.
pub enum SidePlayer {
    /// Our engine: a searcher with its evaluation and settings.
    Ours(Box<Searcher>),
    /// An outside Hub engine.
    Outside(Box<Outside>),
    /// A person who types moves.
    Person(Box<Person>),
    /// Any other player.
    Other(Box<dyn Player + Send>),
}

impl SidePlayer {
    /// The outside engine that plays the side, if one does.
    pub fn outside_mut(&mut self) -> Option<&mut Outside> {
        match self {
            SidePlayer::Outside(o) => Some(o),
            _ => None,
        }
    }
}

impl Player for SidePlayer {
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError> {
        match self {
            SidePlayer::Ours(s) => Searching::new(s).go(game, turn),
            SidePlayer::Outside(o) => o.go(game, turn),
            SidePlayer::Person(p) => p.go(game, turn),
            SidePlayer::Other(p) => p.go(game, turn),
        }
    }

    fn game_over(&mut self, abandoned: bool) {
        match self {
            SidePlayer::Ours(s) => Searching::new(s).game_over(abandoned),
            SidePlayer::Outside(o) => o.game_over(abandoned),
            SidePlayer::Person(p) => p.game_over(abandoned),
            SidePlayer::Other(p) => p.game_over(abandoned),
        }
    }
}
