//! The replay: the quiet positions of the games the fit learned from in the last generations,
//! with their results, so that each generation's fit learns from more than its own games.
//!
//! A session keeps the positions of its last `fit_replay` fitting generations (bounded: the
//! oldest generation's are dropped first) in its checkpoint, so a resumed session fits exactly
//! as one never stopped. A position is kept as its pieces, the side to move and the game's
//! result for that side; the values the fit needs are computed again from them.

use crate::board::{Color, Position, BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use crate::eval::ParamSet;
use crate::fit::Positions;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The most positions a replay holds (beyond it the oldest generations are dropped, and one
/// generation above it keeps every k-th position): about 14 bytes each in a checkpoint, at
/// most 17.
pub const MAX_REPLAY_POSITIONS: usize = 300_000;

/// One position of the replay: the pieces (Black's, White's, the kings), the side to move,
/// and the game's result for it in halves (0 loss, 1 draw, 2 win).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    black: u32,
    white: u32,
    kings: u32,
    white_to_move: bool,
    halves: u8,
}

impl Sample {
    /// The sample of a quiet position with the result `y` (0, 1/2 or 1) for its side to move.
    pub fn new(pos: &Position, y: f32) -> Sample {
        Sample {
            black: pos.pieces(Color::Black).0,
            white: pos.pieces(Color::White).0,
            kings: pos.kings(Color::Black).0 | pos.kings(Color::White).0,
            white_to_move: pos.side_to_move() == Color::White,
            halves: (y * 2.0).round().clamp(0.0, 2.0) as u8,
        }
    }

    /// The position and its result for the side to move.
    pub fn position(&self) -> (Position, f32) {
        let side = if self.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        let pos = Position::from_parts(self.black, self.white, self.kings, side);
        (pos, self.halves as f32 / 2.0)
    }

    /// Whether the sample could be in a replay: pieces on distinct squares, kings among them,
    /// no man on the row where it would be crowned, a result of 0, 1/2 or 1 (a checkpoint is
    /// checked as user input is).
    fn valid(&self) -> bool {
        self.black & self.white == 0
            && self.kings & !(self.black | self.white) == 0
            && self.black & !self.kings & BLACK_CROWN_ROW == 0
            && self.white & !self.kings & WHITE_CROWN_ROW == 0
            && self.halves <= 2
    }
}

/// The positions of the last generations, oldest generation first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    chunks: VecDeque<(u64, Vec<Sample>)>,
}

impl Replay {
    /// Adds generation `g`'s positions and keeps the last `keep` generations that added any
    /// (at most `MAX_REPLAY_POSITIONS` (300,000) positions in all, the oldest dropped first).
    pub fn add(&mut self, g: u64, positions: &Positions, keep: u32) {
        self.add_within(g, positions, keep, MAX_REPLAY_POSITIONS);
    }

    /// [`Replay::add`] with at most `max` positions in all.
    fn add_within(&mut self, g: u64, positions: &Positions, keep: u32, max: usize) {
        let mut samples: Vec<Sample> = positions
            .quiet()
            .map(|(pos, y)| Sample::new(pos, y))
            .collect();
        // One generation above the bound keeps every k-th of its positions, so a replay never
        // holds more than a checkpoint may.
        if samples.len() > max {
            let k = samples.len().div_ceil(max);
            samples = samples.into_iter().step_by(k).collect();
        }
        self.chunks.push_back((g, samples));
        while self.chunks.len() > keep.max(1) as usize
            || (self.chunks.len() > 1 && self.len() > max)
        {
            self.chunks.pop_front();
        }
    }

    /// The positions held.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.1.len()).sum()
    }

    /// Whether no position is held.
    #[allow(dead_code)] // beside len
    pub fn is_empty(&self) -> bool {
        self.chunks.iter().all(|c| c.1.is_empty())
    }

    /// The generations whose positions are held, oldest first.
    pub fn generations(&self) -> impl Iterator<Item = u64> + '_ {
        self.chunks.iter().map(|c| c.0)
    }

    /// Every position held, as the fit's data for weight vectors of `set`, oldest first.
    pub fn positions(&self, set: ParamSet) -> Positions {
        let mut data = Positions::new(set);
        for (_, samples) in &self.chunks {
            for s in samples {
                let (pos, y) = s.position();
                data.add_quiet(&pos, y);
            }
        }
        data
    }

    /// Checks a replay read from a file: generations increasing and at most `last`, every
    /// sample a position, at most `MAX_REPLAY_POSITIONS` in all.
    pub fn validate(&self, last: u64) -> Result<(), String> {
        let mut before = 0;
        for (g, samples) in &self.chunks {
            if *g <= before || *g > last {
                return Err(format!(
                    "the replay holds generation {g} after {before} (the session is at {last})"
                ));
            }
            before = *g;
            if let Some(s) = samples.iter().find(|s| !s.valid()) {
                return Err(format!("the replay holds an impossible position: {s:?}"));
            }
        }
        if self.len() > MAX_REPLAY_POSITIONS {
            return Err(format!(
                "the replay holds {} positions, more than {MAX_REPLAY_POSITIONS}",
                self.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameOutcome;
    use crate::movegen::legal_moves;

    fn some_game(moves: usize) -> Positions {
        let mut data = Positions::new(ParamSet::Endgame66);
        let mut pos = Position::start();
        let mut line = Vec::new();
        for k in 0..moves {
            let m = legal_moves(&pos);
            let m = m[k % m.len()];
            line.push(m);
            pos = pos.play(&m);
        }
        data.add_game(&Position::start(), line, GameOutcome::Draw);
        data
    }

    #[test]
    fn the_replay_keeps_the_last_generations_and_gives_back_their_positions() {
        let mut r = Replay::default();
        r.add(1, &some_game(10), 2);
        r.add(2, &some_game(20), 2);
        r.add(4, &some_game(30), 2);
        assert_eq!(r.generations().collect::<Vec<_>>(), vec![2, 4]);
        let mut want = some_game(20);
        want.append(some_game(30));
        let got = r.positions(ParamSet::Endgame66);
        assert_eq!(got.len(), want.len());
        assert!(got.quiet().eq(want.quiet()));
        // A board set sees each position from both sides.
        assert_eq!(r.positions(ParamSet::Board(2)).len(), 2 * want.len());
        assert!(r.validate(4).is_ok());
        assert!(r.validate(3).is_err());
    }

    #[test]
    fn impossible_samples_are_refused() {
        let mut r = Replay::default();
        r.add(1, &some_game(4), 1);
        r.chunks[0].1[0].white |= 1;
        assert!(r.validate(1).unwrap_err().contains("impossible"));
    }

    #[test]
    fn a_generation_above_the_bound_keeps_every_kth_position() {
        let game = some_game(40);
        let n = game.len();
        let mut r = Replay::default();
        r.add_within(1, &game, 4, n / 3);
        assert!(r.len() <= n / 3 && r.len() >= n / 4, "{} of {n}", r.len());
        let kept: Vec<Position> = r
            .positions(ParamSet::Endgame66)
            .quiet()
            .map(|q| *q.0)
            .collect();
        let k = n.div_ceil(n / 3);
        let every: Vec<Position> = game.quiet().step_by(k).map(|q| *q.0).collect();
        assert_eq!(kept, every);
        r.add_within(2, &game, 4, n / 3);
        assert_eq!(r.generations().collect::<Vec<_>>(), vec![2]);
    }

    #[test]
    fn a_man_on_its_crowning_row_is_refused() {
        let mut r = Replay::default();
        r.add(1, &some_game(4), 1);
        let ok = r.chunks[0].1[0];
        let top = BLACK_CROWN_ROW & BLACK_CROWN_ROW.wrapping_neg();
        let bottom = WHITE_CROWN_ROW & WHITE_CROWN_ROW.wrapping_neg();
        let middle = 1 << 14;
        for (black, white, kings, valid) in [
            (top, middle, 0, false),
            (top, middle, top, true),
            (middle, bottom, 0, false),
            (middle, bottom, bottom, true),
            (bottom, top, 0, true),
        ] {
            r.chunks[0].1[0] = Sample {
                black,
                white,
                kings,
                ..ok
            };
            assert_eq!(r.validate(1).is_ok(), valid, "{:?}", r.chunks[0].1[0]);
        }
    }
}
