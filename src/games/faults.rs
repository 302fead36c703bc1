//! The games of a batch that an outside engine lost by a fault or on time, in words: the lines
//! of a session's `faults.log`, whichever the tuner.

use super::jobs::{Batch, Opening, Played, Start};
use crate::board::{Color, Move, Position};
use crate::game::EndReason;

impl Batch {
    /// The games of `played` (this batch's, in job order) that an outside engine lost by a
    /// fault or on time, a line each: which game, which side (`side` names side `k`: `individual
    /// 3`, `θ+`) with which colour, what it did and what it said.
    pub fn fault_lines(&self, played: &[Played], side: &dyn Fn(usize) -> String) -> Vec<String> {
        self.jobs
            .iter()
            .zip(played)
            .enumerate()
            .filter_map(|(k, (job, p))| {
                let (c, what) = match p.result {
                    Some((_, EndReason::Fault(c, f))) => (c, f.to_string()),
                    Some((_, EndReason::Time(c))) => (c, "lost on time".to_string()),
                    _ => return None,
                };
                let seat = if c == Color::Black {
                    job.black
                } else {
                    job.white
                };
                let note = p
                    .note
                    .as_deref()
                    .map_or(String::new(), |n| format!(": {n}"));
                let start = start_name(&job.start, &self.openings);
                Some(format!(
                    "game {} ({start}), {} as {}: {what}{note}",
                    k + 1,
                    side(seat.side as usize),
                    c.name()
                ))
            })
            .collect()
    }
}

/// The start in words, for a log: `ballot opening 12`, `opening 10-15 23-18 7-10` (one of
/// `openings`, from the start position), `the start position`, `an ending`.
fn start_name(start: &Start, openings: &[Opening]) -> String {
    let initial = |s: &Start| *s == Start::Initial || *s == Start::of(&Position::start());
    match *start {
        Start::Initial => "the start position".to_string(),
        Start::Ballot(n) => format!("ballot opening {}", n + 1),
        Start::Opening(n) => match openings.get(n as usize) {
            Some(o) if !o.moves.is_empty() && initial(&o.setup) => {
                let moves: Vec<String> = o.moves.iter().map(Move::to_string).collect();
                format!("opening {}", moves.join(" "))
            }
            _ => format!("opening {}", n + 1),
        },
        Start::Position { .. } => "an ending".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{ballot, StartPosition};

    #[test]
    fn a_start_is_named_by_what_a_person_can_find_again() {
        let first = ballot()[0].moves.clone();
        let words: Vec<String> = first.iter().map(Move::to_string).collect();
        let from_start = Opening::of(&StartPosition {
            setup: Position::start(),
            moves: first.clone(),
        });
        let bare = Opening::of(&StartPosition {
            setup: Position::start(),
            moves: Vec::new(),
        });
        let openings = [from_start, bare];
        let name = |s: Start| start_name(&s, &openings);
        assert_eq!(name(Start::Initial), "the start position");
        assert_eq!(name(Start::Ballot(11)), "ballot opening 12");
        assert_eq!(
            name(Start::Opening(0)),
            format!("opening {}", words.join(" "))
        );
        assert_eq!(name(Start::Opening(1)), "opening 2");
        assert_eq!(name(Start::Opening(7)), "opening 8");
        let ending = crate::parse_fen("W:W30:B1").unwrap();
        assert_eq!(name(Start::of(&ending)), "an ending");
    }
}
