//! Text forms: PDN FEN positions, move text and board coordinates.
//!
//! FEN: `B:W21,22,K30:B1,2,3` (side to move, then each colour's pieces; `K` marks a king).
//! Also accepted: ranges (`B1-12`, `WK29-31`), either colour order, lower case, surrounding quotes
//! and a trailing dot. Move text: `11-15`, `15x24`, `15x24x31`, `11 15`, coordinates (`c3-d4`),
//! and the short from-to form of a capture when only one capture joins the two squares.
//!
//! # Example
//!
//! ```
//! use checkers_ga::Position;
//! use checkers_ga::{parse_fen, parse_move, to_fen};
//!
//! let start = Position::start();
//! assert_eq!(parse_fen(&to_fen(&start)).unwrap(), start);
//! assert!(parse_move(&start, "11-15").is_ok());
//! assert!(parse_move(&start, "11-18").is_err()); // not a legal move
//! assert!(parse_fen("B:W9,10:BK33").is_err()); // no square 33
//! ```

use crate::board::{col_of, row_of, square_at, Color, Move, Position};

/// Why a piece of text could not be read, by what it was meant to be. The message names the
/// offending token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("{0}")]
    /// A square that is not a number 1..=32; the message says what was read.
    Square(String),
    #[error("{0}")]
    /// A malformed FEN string; the message says what is wrong.
    Fen(String),
    #[error("{0}")]
    /// A move that is malformed or not legal in the position; the message says why.
    Move(String),
}

fn square_err<T>(msg: String) -> Result<T, ParseError> {
    Err(ParseError::Square(msg))
}

fn fen_err<T>(msg: String) -> Result<T, ParseError> {
    Err(ParseError::Fen(msg))
}

fn move_err<T>(msg: String) -> Result<T, ParseError> {
    Err(ParseError::Move(msg))
}

fn parse_color(tok: &str) -> Result<Color, ParseError> {
    match tok {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => fen_err(format!("unknown colour '{tok}' (expected B or W)")),
    }
}

fn parse_square_number(tok: &str) -> Result<u8, ParseError> {
    let t = tok.trim();
    match t.parse::<u32>() {
        Ok(n) if (1..=32).contains(&n) => Ok(n as u8),
        Ok(_) => square_err(format!("square '{t}' is outside 1..32")),
        Err(_) => square_err(format!("'{t}' is not a square number")),
    }
}

/// Reads a PDN FEN string into a position.
pub fn parse_fen(text: &str) -> Result<Position, ParseError> {
    let mut s = text.trim();
    if let Some(inner) = s.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
        s = inner.trim();
    }
    s = s.trim_matches('"').trim();
    s = s.strip_suffix('.').unwrap_or(s).trim();
    if s.is_empty() {
        return fen_err("empty FEN".to_string());
    }
    let fields: Vec<&str> = s.split(':').collect();
    if fields.len() != 3 {
        return fen_err(format!(
            "FEN '{s}' must have 3 fields separated by ':' (side:pieces:pieces), found {}",
            fields.len()
        ));
    }
    let side = parse_color(fields[0].trim())?;
    let mut sets = [0u32; 2];
    let mut kings = 0u32;
    let mut seen_colour = [false; 2];
    for field in &fields[1..] {
        let field = field.trim();
        let mut chars = field.chars();
        let c = match chars.next() {
            Some(ch) => parse_color(&ch.to_string())?,
            None => return fen_err("empty piece field in FEN".to_string()),
        };
        if seen_colour[c as usize] {
            return fen_err(format!("colour '{}' is listed twice", c.letter()));
        }
        seen_colour[c as usize] = true;
        let rest = chars.as_str().trim();
        if rest.is_empty() {
            continue;
        }
        for tok in rest.split(',') {
            let tok = tok.trim();
            if tok.is_empty() {
                return fen_err(format!("empty square entry in '{field}'"));
            }
            let (king, body) = match tok.strip_prefix(['K', 'k']) {
                Some(b) => (true, b),
                None => (false, tok),
            };
            let (lo, hi) = match body.split_once('-') {
                Some((a, b)) => (parse_square_number(a)?, parse_square_number(b)?),
                None => {
                    let n = parse_square_number(body)?;
                    (n, n)
                }
            };
            if lo > hi {
                return fen_err(format!("range '{tok}' runs backwards"));
            }
            for sq in lo..=hi {
                let bit = 1u32 << (sq - 1);
                if (sets[0] | sets[1]) & bit != 0 {
                    return fen_err(format!("square {sq} is listed twice"));
                }
                if !king {
                    let crowned = match c {
                        Color::Black => row_of(sq) == 7,
                        Color::White => row_of(sq) == 0,
                    };
                    if crowned {
                        return fen_err(format!(
                            "a {} man on square {sq} stands on its crowning row (it would be a king)",
                            c.name()
                        ));
                    }
                } else {
                    kings |= bit;
                }
                sets[c as usize] |= bit;
            }
        }
    }
    Ok(Position::from_parts(sets[0], sets[1], kings, side))
}

/// Writes a position as PDN FEN, squares in increasing order, White's list first.
pub fn to_fen(pos: &Position) -> String {
    let list = |c: Color| {
        pos.pieces(c)
            .squares()
            .map(|sq| {
                if pos.kings(c).contains(sq) {
                    format!("K{sq}")
                } else {
                    sq.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}:W{}:B{}",
        pos.side_to_move().letter(),
        list(Color::White),
        list(Color::Black)
    )
}

/// The coordinate name of a square with White at the bottom: 29 = a1, 4 = h8.
pub fn square_to_coord(sq: u8) -> String {
    let file = (b'a' + col_of(sq)) as char;
    let rank = 8 - row_of(sq);
    format!("{file}{rank}")
}

/// Reads a square given as a number (1..32) or as coordinates (a1..h8, dark squares only).
pub fn parse_square(tok: &str) -> Result<u8, ParseError> {
    let t = tok.trim();
    let b = t.as_bytes();
    if b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit() {
        let file = b[0].to_ascii_lowercase();
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&b[1]) {
            return square_err(format!("'{t}' is not a square (a1..h8)"));
        }
        let col = (file - b'a') as i32;
        let row = 8 - (b[1] - b'0') as i32;
        return match square_at(row, col) {
            Some(sq) => Ok(sq),
            None => square_err(format!(
                "'{t}' is a light square; pieces stand on dark squares"
            )),
        };
    }
    parse_square_number(t)
}

/// Splits move text into squares: separators `-`, `x`, `:` or spaces.
fn move_squares(text: &str) -> Result<Vec<u8>, ParseError> {
    let t = text.trim();
    if t.is_empty() {
        return move_err("empty move".to_string());
    }
    let mut out = Vec::new();
    let mut tok = String::new();
    let flush = |tok: &mut String, out: &mut Vec<u8>| -> Result<(), ParseError> {
        if !tok.is_empty() {
            // A number or a letter and a digit is meant as a square: say what is wrong with
            // it. Anything else is not a move at all.
            let b = tok.as_bytes();
            let square_like = b.iter().all(u8::is_ascii_digit)
                || (b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit());
            if !square_like {
                return move_err(format!(
                    "'{t}' is not a move (write a move like 11-15, 15x24 or f6-e5)"
                ));
            }
            out.push(parse_square(tok)?);
            tok.clear();
        }
        Ok(())
    };
    // A separator other than a space stands between two squares, once: `11-15-`, `11--15`
    // and `-11-15` are typos, not moves.
    let loose = || {
        move_err(format!(
            "'{t}' is not a move (write a move like 11-15, 15x24 or f6-e5)"
        ))
    };
    let mut joined = true;
    for ch in t.chars() {
        if ch == '-' || ch == 'x' || ch == 'X' || ch == ':' {
            flush(&mut tok, &mut out)?;
            if joined {
                return loose();
            }
            joined = true;
        } else if ch.is_whitespace() {
            flush(&mut tok, &mut out)?;
        } else if ch.is_ascii_alphanumeric() {
            joined = false;
            tok.push(ch);
        } else {
            return move_err(format!("unexpected character '{ch}' in move '{t}'"));
        }
    }
    flush(&mut tok, &mut out)?;
    if joined && !out.is_empty() {
        return loose();
    }
    if out.len() < 2 {
        return move_err(format!("move '{t}' needs at least two squares"));
    }
    Ok(out)
}

/// Finds the legal move that `text` names in `pos`.
///
/// The full square list must match a legal move; a two-square capture (`15x31` for `15x24x31`)
/// is accepted when exactly one legal capture joins them, otherwise the error lists candidates.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    let squares = move_squares(text)?;
    // Made in place (see `legal_moves`).
    let mut moves = crate::board::MoveList::new();
    crate::movegen::generate(pos, &mut moves);
    if let Some(m) = moves.iter().find(|m| m.squares() == squares) {
        return Ok(*m);
    }
    if squares.len() == 2 {
        let cands: Vec<&Move> = moves
            .iter()
            .filter(|m| m.from() == squares[0] && m.to() == squares[1])
            .collect();
        match cands.len() {
            1 => return Ok(*cands[0]),
            0 => {}
            _ => {
                let names: Vec<String> = cands.iter().map(|m| m.to_string()).collect();
                return move_err(format!(
                    "'{}' is ambiguous: it could be {}",
                    text.trim(),
                    names.join(" or ")
                ));
            }
        }
    }
    let mut why = format!("'{}' is not a legal move", text.trim());
    // The first jumps of a longer capture: the piece must go on jumping.
    let continued: Vec<String> = moves
        .iter()
        .filter(|m| m.is_capture() && m.squares().len() > squares.len())
        .filter(|m| m.squares().starts_with(&squares))
        .map(|m| m.to_string())
        .collect();
    if moves.is_empty() {
        why.push_str(" (no legal moves)");
    } else if !continued.is_empty() {
        why.push_str(&format!(
            " (the jump must be continued: {})",
            continued.join(" or ")
        ));
    } else if moves[0].is_capture() {
        why.push_str(" (a capture is mandatory)");
    }
    move_err(why)
}
