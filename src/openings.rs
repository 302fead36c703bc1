//! Opening books: the ACF 3-move ballot (embedded) or the start position.
//!
//! Fixed-depth engines with random tie-breaks still repeat themselves from the start position,
//! so matches and tournaments start from the ballot: the first three moves of each game are
//! drawn from the standard list, and each opening is played twice with colours swapped.

use crate::board::{Move, Position};
use crate::notation::{parse_fen, parse_move};
use std::sync::OnceLock;

const BALLOT_TEXT: &str = include_str!("../data/acf-3-move-ballot.txt");

/// Whether an opening is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallotStatus {
    /// One of the 144 openings of the original crossboard deck.
    Crossboard,
    /// One of the 12 admitted in 2003 (crossboard + mail = the 156 in use).
    Mail,
    /// Not played.
    Barred,
}

/// One numbered ballot opening.
#[derive(Clone, Debug)]
pub struct Opening {
    pub number: u32,
    /// The three moves, as played from the start position.
    pub moves: Vec<Move>,
    pub status: BallotStatus,
    /// The opening's name, empty when it has none.
    pub name: String,
    /// The position after the three moves.
    pub position: Position,
}

impl Opening {
    /// The opening's moves as text, e.g. `9-13 22-18 6-9`.
    pub fn moves_text(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn parse_ballot(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let bad = |why: &str| format!("ballot line {}: {why}: '{line}'", i + 1);
        if cols.len() != 5 {
            return Err(bad("expected 5 columns"));
        }
        let number = cols[0].parse().map_err(|_| bad("bad number"))?;
        let status = match cols[2] {
            "crossboard" => BallotStatus::Crossboard,
            "mail" => BallotStatus::Mail,
            "barred" => BallotStatus::Barred,
            _ => return Err(bad("unknown status")),
        };
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for t in cols[1].split_whitespace() {
            let m = parse_move(&pos, t).map_err(|e| bad(&e.to_string()))?;
            pos = pos.play(&m);
            moves.push(m);
        }
        let fen = parse_fen(cols[4]).map_err(|e| bad(&e.to_string()))?;
        if fen != pos {
            return Err(bad("the moves do not lead to the listed FEN"));
        }
        out.push(Opening {
            number,
            moves,
            status,
            name: cols[3].to_string(),
            position: pos,
        });
    }
    Ok(out)
}

/// All 174 numbered openings of the ballot, barred ones included, in ballot order.
pub fn ballot_all() -> &'static [Opening] {
    static B: OnceLock<Vec<Opening>> = OnceLock::new();
    B.get_or_init(|| {
        // The embedded list is checked by the test suite; it cannot fail at run time.
        parse_ballot(BALLOT_TEXT).expect("embedded ballot is valid")
    })
}

/// The 156 openings in use (crossboard and mail), in ballot order. Built once: tournaments
/// look an opening up for every game.
pub fn ballot() -> &'static [&'static Opening] {
    static B: OnceLock<Vec<&'static Opening>> = OnceLock::new();
    B.get_or_init(|| {
        ballot_all()
            .iter()
            .filter(|o| o.status != BallotStatus::Barred)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_ballot_parses_with_156_in_use() {
        let all = parse_ballot(BALLOT_TEXT).unwrap();
        assert_eq!(all.len(), 174);
        assert_eq!(ballot().len(), 156);
        let mail = all
            .iter()
            .filter(|o| o.status == BallotStatus::Mail)
            .count();
        assert_eq!(mail, 12);
        assert_eq!(ballot_all()[4].name, "Dreaded Edinburgh");
        assert_eq!(ballot_all()[4].moves_text(), "9-13 22-18 6-9");
    }

    #[test]
    fn bad_ballot_lines_are_errors() {
        assert!(parse_ballot("1 | 9-13 21-17 | crossboard |  | B:W1:B2").is_err());
        assert!(parse_ballot("1 | 9-14 21-17 5-9 | crossboard |  | B:W1:B2").is_err());
        assert!(parse_ballot("x | 9-13 21-17 5-9 | crossboard").is_err());
    }
}
