//! Hub lines, positions and moves as text: parsing and writing.
//!
//! Hub (version 2, the protocol of the draughts engine Scan) is line based: a command, then
//! arguments `name=value` or bare `name`, a value with spaces (or an empty one) in double
//! quotes. There is no escape: a value cannot hold a double quote or a line break.
//!
//! For English draughts the position and move texts are those pydraughts (the Python client
//! that drives Hub engines) uses for its variant `english`:
//! - a position is the side letter and one character per dark square, **with the colours
//!   swapped and the board turned half round**: standard square `s` is character `33 - s`
//!   after the side letter, a Black man is `w`, a Black king `W`, a White man `b`, a White king
//!   `B`, an empty square `e`, and Black to move is written `W` (White to move `B`). The start
//!   is `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`.
//! - a move is in standard numbering (not turned): `11-15`, and a capture is
//!   `FROMxTOxC1xC2...`, its destination followed by every captured square (`18x9x14`: from 18
//!   to 9 taking 14), which we write in increasing order.

use crate::board::{row_of, Color, Move, MoveList, Position};
use crate::movegen::generate;
use std::fmt;

/// Why a Hub line, position or move could not be read (a one-line message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HubError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, HubError> {
    Err(HubError(msg.into()))
}

/// One protocol line: a command and its arguments, in order (values unquoted; a bare word is
/// an argument without a value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubLine {
    /// The first word: `hub`, `pos`, `done`...
    pub command: String,
    /// The arguments: name and value (`None` for a bare word such as `think` in `go think`).
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// Reads one line. Values may be quoted (`pv="11-15 23-19"`); an unterminated quote, an
    /// argument without a name (`=5`) or a quote inside a name or bare value is an error, as is
    /// a line with no command.
    pub fn parse(line: &str) -> Result<HubLine, HubError> {
        // Each word is found as a slice and copied once (a `pos` line carries a game's moves).
        let text = line.trim();
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        let command = &text[..end];
        if command.contains(['"', '=']) {
            return err(format!("the line must start with a command word: '{text}'"));
        }
        if command.is_empty() {
            return err("an empty line (no command)");
        }
        let mut args = Vec::new();
        let mut rest = &text[end..];
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let name_end =
                (rest.find(|c: char| c.is_whitespace() || c == '=')).unwrap_or(rest.len());
            let name = &rest[..name_end];
            if name.contains('"') {
                return err(format!("an argument name holds a quote in '{text}'"));
            }
            if name.is_empty() {
                return err(format!("an argument without a name in '{text}'"));
            }
            let Some(after) = rest[name_end..].strip_prefix('=') else {
                args.push((name.to_string(), None));
                rest = &rest[name_end..];
                continue;
            };
            let value = match after.strip_prefix('"') {
                Some(quoted) => {
                    let Some(close) = quoted.find('"') else {
                        return err(format!("the value of '{name}' has no closing quote"));
                    };
                    rest = &quoted[close + 1..];
                    if rest.starts_with(|c: char| !c.is_whitespace()) {
                        return err(format!("a space must follow the quoted value of '{name}'"));
                    }
                    &quoted[..close]
                }
                None => {
                    let value_end = after.find(char::is_whitespace).unwrap_or(after.len());
                    let value = &after[..value_end];
                    if value.contains('"') {
                        return err(format!("a quote inside the value of '{name}'"));
                    }
                    rest = &after[value_end..];
                    value
                }
            };
            args.push((name.to_string(), Some(value.to_string())));
        }
        Ok(HubLine {
            command: command.to_string(),
            args,
        })
    }

    /// A line with a command and no arguments yet.
    pub fn new(command: &str) -> HubLine {
        HubLine {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// The line with one more argument `key=value` (builder).
    pub fn arg(mut self, key: &str, value: impl fmt::Display) -> HubLine {
        self.args.push((key.to_string(), Some(value.to_string())));
        self
    }

    /// The line with one more bare argument (`think` in `go think`).
    pub fn flag(mut self, key: &str) -> HubLine {
        self.args.push((key.to_string(), None));
        self
    }

    /// The value of the first argument named `key` (`""` for a bare word).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether an argument named `key` is present, with or without a value.
    pub fn has(&self, key: &str) -> bool {
        self.args.iter().any(|(k, _)| k == key)
    }
}

/// `cmd k=v k="v w"`: a value is quoted when it is empty or holds a space or `=`, as the
/// protocol requires. Hub has no escape, so a double quote inside a value is written as `'`
/// and a line break as a space.
impl fmt::Display for HubLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.command)?;
        for (k, v) in &self.args {
            write!(f, " {k}")?;
            if let Some(v) = v {
                let clean: String = v
                    .chars()
                    .map(|c| match c {
                        '"' => '\'',
                        '\n' | '\r' => ' ',
                        c => c,
                    })
                    .collect();
                if clean.is_empty() || clean.contains(|c: char| c.is_whitespace() || c == '=') {
                    write!(f, "=\"{clean}\"")?;
                } else {
                    write!(f, "={clean}")?;
                }
            }
        }
        Ok(())
    }
}

/// The position as Hub text for English draughts: the side letter (`W` when Black is to move)
/// and 32 characters, standard square `s` at character `33 - s`, colours swapped (a Black man
/// `w`, king `W`; a White man `b`, king `B`; empty `e`).
pub fn hub_position(pos: &Position) -> String {
    let mut s = String::with_capacity(33);
    s.push(match pos.side_to_move() {
        Color::Black => 'W',
        Color::White => 'B',
    });
    for i in 1..=32u8 {
        s.push(match pos.piece_at(33 - i) {
            None => 'e',
            Some((Color::Black, false)) => 'w',
            Some((Color::Black, true)) => 'W',
            Some((Color::White, false)) => 'b',
            Some((Color::White, true)) => 'B',
        });
    }
    s
}

/// Reads a Hub position for English draughts ([`hub_position`]'s text). A man on the row where
/// it would be crowned is an error.
pub fn parse_hub_position(text: &str) -> Result<Position, HubError> {
    let t = text.trim();
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 33 {
        return err(format!(
            "position '{t}' must be a side letter (W or B) and 32 squares, not {} characters",
            chars.len()
        ));
    }
    let side = match chars[0] {
        'W' => Color::Black,
        'B' => Color::White,
        c => {
            return err(format!(
                "position '{t}' starts with '{c}': the side to move must be W (Black, in \
                 pydraughts' swapped colours) or B (White)"
            ))
        }
    };
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for (i, &c) in chars[1..].iter().enumerate() {
        let sq = 32 - i as u8; // character i + 1 is standard square 33 - (i + 1)
        let bit = 1u32 << (sq - 1);
        let (colour, king) = match c {
            'e' => continue,
            'w' => (Color::Black, false),
            'W' => (Color::Black, true),
            'b' => (Color::White, false),
            'B' => (Color::White, true),
            _ => {
                return err(format!(
                    "position '{t}': character {} is '{c}' (expected w, W, b, B or e)",
                    i + 2
                ))
            }
        };
        if !king {
            let crown = match colour {
                Color::Black => 7,
                Color::White => 0,
            };
            if row_of(sq) == crown {
                return err(format!(
                    "position '{t}': a {} man on square {sq}, the row where it is crowned",
                    colour.name()
                ));
            }
        } else {
            kings |= bit;
        }
        match colour {
            Color::Black => black |= bit,
            Color::White => white |= bit,
        }
    }
    Ok(Position::from_parts(black, white, kings, side))
}

/// The move as Hub text: `11-15`, or a capture `FROMxTOxC1xC2...` with the captured squares in
/// increasing order.
pub fn hub_move(_pos: &Position, m: &Move) -> String {
    if !m.is_capture() {
        return format!("{}-{}", m.from(), m.to());
    }
    let mut s = format!("{}x{}", m.from(), m.to());
    for sq in m.captured().squares() {
        s.push_str(&format!("x{sq}"));
    }
    s
}

/// Reads a Hub move (`11-15`, `18x9x14`) of `pos`: only a legal move is accepted, found by its
/// origin, destination and the set of squares it takes (in any order). A plain two-square
/// capture (`18x9`, as PDN writes it) is accepted when one legal capture joins those squares.
/// Jump paths that take the same pieces lead to the same position; the first in generation
/// order is returned.
pub fn parse_hub_move(pos: &Position, text: &str) -> Result<Move, HubError> {
    let t = text.trim();
    let capture = t.contains('x');
    let parts: Vec<&str> = if capture {
        t.split('x').collect()
    } else {
        t.split('-').collect()
    };
    let mut squares = Vec::with_capacity(parts.len());
    for p in &parts {
        match p.parse::<u8>() {
            Ok(n) if (1..=32).contains(&n) => squares.push(n),
            _ => {
                return err(format!(
                    "move '{t}': '{p}' is not a square 1..32 (a move is 11-15 or 18x9x14)"
                ))
            }
        }
    }
    if squares.len() < 2 || (!capture && squares.len() != 2) {
        return err(format!(
            "move '{t}' must be FROM-TO or FROMxTOxCAPTURED... (e.g. 11-15, 18x9x14)"
        ));
    }
    let (from, to) = (squares[0], squares[1]);
    let mut taken = 0u32;
    for &sq in &squares[2..] {
        taken |= 1 << (sq - 1);
    }
    // Made in place: every move of the protocol is read here (see `legal_moves`).
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    let fits = |m: &&Move| m.from() == from && m.to() == to && m.is_capture() == capture;
    let found: Vec<&Move> = moves
        .iter()
        .filter(fits)
        .filter(|m| squares.len() == 2 || m.captured().0 == taken)
        .collect();
    let Some(first) = found.first() else {
        let mut why = format!("'{t}' is not a legal move");
        if moves.is_empty() {
            why.push_str(" (no legal moves)");
        } else if moves[0].is_capture() && !capture {
            why.push_str(" (a capture is mandatory)");
        }
        return err(why);
    };
    let target = pos.play(first);
    if found.iter().any(|m| pos.play(m) != target) {
        let names: Vec<String> = found.iter().map(|m| hub_move(pos, m)).collect();
        return err(format!(
            "'{t}' is ambiguous: it could be {}",
            names.join(" or ")
        ));
    }
    Ok(**first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::notation::{parse_fen, to_fen};
    use crate::rng::{derive, Purpose};
    use rand::RngExt;

    #[test]
    fn a_line_parses_as_the_char_by_char_reader_read_it() {
        use rand::RngExt;
        let pieces = [
            "pos",
            "go",
            " ",
            "  ",
            "\t",
            "=",
            "\"",
            "a",
            "b1",
            "x=1",
            "é",
            "moves",
            "\"9-13 22-18\"",
            "pv=",
            "ß",
            "\u{3000}",
        ];
        let mut rng = derive(7, Purpose::Game, 0, 0);
        for _ in 0..50_000 {
            let n = rng.random_range(0..10);
            let line: String = (0..n)
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect();
            assert_eq!(HubLine::parse(&line), parse_by_chars(&line), "{line:?}");
        }
        for line in [
            "pos pos=Wbbe moves=\"9-13 22-18\"",
            "go think",
            "",
            "=x",
            "a \"b",
            "a b=\"c\"d",
        ] {
            assert_eq!(HubLine::parse(line), parse_by_chars(line), "{line:?}");
        }
    }

    /// The parse of before, char by char: the reference the slice-based one is held to.
    fn parse_by_chars(line: &str) -> Result<HubLine, HubError> {
        let text = line.trim();
        let mut chars = text.char_indices().peekable();
        let word_end = |c: char| c.is_whitespace();
        // The command.
        let mut command = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if word_end(c) {
                break;
            }
            if c == '"' || c == '=' {
                return err(format!("the line must start with a command word: '{text}'"));
            }
            command.push(c);
            chars.next();
        }
        if command.is_empty() {
            return err("an empty line (no command)");
        }
        let mut args = Vec::new();
        loop {
            while chars.peek().is_some_and(|&(_, c)| word_end(c)) {
                chars.next();
            }
            if chars.peek().is_none() {
                break;
            }
            let mut name = String::new();
            while let Some(&(_, c)) = chars.peek() {
                if word_end(c) || c == '=' {
                    break;
                }
                if c == '"' {
                    return err(format!("an argument name holds a quote in '{text}'"));
                }
                name.push(c);
                chars.next();
            }
            if name.is_empty() {
                return err(format!("an argument without a name in '{text}'"));
            }
            if chars.peek().is_none_or(|&(_, c)| c != '=') {
                args.push((name, None));
                continue;
            }
            chars.next(); // '='
            let mut value = String::new();
            if chars.peek().is_some_and(|&(_, c)| c == '"') {
                chars.next();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    value.push(c);
                }
                if !closed {
                    return err(format!("the value of '{name}' has no closing quote"));
                }
                if chars.peek().is_some_and(|&(_, c)| !word_end(c)) {
                    return err(format!("a space must follow the quoted value of '{name}'"));
                }
            } else {
                while let Some(&(_, c)) = chars.peek() {
                    if word_end(c) {
                        break;
                    }
                    if c == '"' {
                        return err(format!("a quote inside the value of '{name}'"));
                    }
                    value.push(c);
                    chars.next();
                }
            }
            args.push((name, Some(value)));
        }
        Ok(HubLine { command, args })
    }

    #[test]
    fn lines_parse_with_quotes_and_bare_words() {
        let l =
            HubLine::parse(r#"  pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="11-15 23-19"  "#)
                .unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"));
        assert_eq!(l.get("moves"), Some("11-15 23-19"));
        let g = HubLine::parse("go think").unwrap();
        assert_eq!(g.args, vec![("think".to_string(), None)]);
        assert_eq!(g.get("think"), Some(""));
        assert!(g.has("think") && !g.has("ponder"));
        let e = HubLine::parse(r#"set-param name=weights value="""#).unwrap();
        assert_eq!(e.get("value"), Some(""));
        let bare = HubLine::parse("set-param name=x value=").unwrap();
        assert_eq!(bare.get("value"), Some(""));
        assert_eq!(HubLine::parse("hub").unwrap(), HubLine::new("hub"));
    }

    #[test]
    fn malformed_lines_are_errors() {
        for bad in [
            "",
            "   ",
            r#"pos moves="11-15"#,
            "level =5",
            r#"x a="b"c"#,
            r#""hub""#,
            r#"x a=b"c"#,
            "=x",
        ] {
            assert!(HubLine::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn lines_are_written_quoted_where_needed_and_read_back() {
        let l = HubLine::new("info")
            .arg("depth", 7)
            .arg("score", "0.25")
            .arg("pv", "11-15 23-19")
            .arg("empty", "");
        let text = l.to_string();
        assert_eq!(text, r#"info depth=7 score=0.25 pv="11-15 23-19" empty="""#);
        assert_eq!(HubLine::parse(&text).unwrap(), l);
        let odd = HubLine::new("error").arg("message", "a \"quoted\"\nword");
        assert_eq!(odd.to_string(), r#"error message="a 'quoted' word""#);
        assert!(HubLine::parse(&odd.to_string()).is_ok());
        assert_eq!(HubLine::new("go").flag("think").to_string(), "go think");
        let eq = HubLine::new("error").arg("message", "a=b");
        assert_eq!(eq.to_string(), r#"error message="a=b""#);
        assert_eq!(HubLine::parse(&eq.to_string()).unwrap(), eq);
    }

    #[test]
    fn positions_follow_pydraughts_orientation() {
        assert_eq!(
            hub_position(&Position::start()),
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        let p = parse_fen("B:W21,22:B1,K2").unwrap();
        assert_eq!(hub_position(&p), "WeeeeeeeeeebbeeeeeeeeeeeeeeeeeeWw");
        assert_eq!(
            parse_hub_position("WeeeeeeeeeebbeeeeeeeeeeeeeeeeeeWw").unwrap(),
            p
        );
        let w = parse_fen("W:WK3,20:B9").unwrap();
        assert_eq!(
            to_fen(&parse_hub_position(&hub_position(&w)).unwrap()),
            to_fen(&w)
        );
        assert!(hub_position(&w).starts_with('B'));
    }

    #[test]
    fn bad_positions_are_errors() {
        for bad in [
            "",
            "Wbbbb",
            "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx",
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwww",
            // A Black man (w) on square 32 (character 1): its crowning row.
            "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            // A White man (b) on square 1 (character 32).
            "Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeb",
        ] {
            assert!(parse_hub_position(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn moves_are_standard_numbers_with_captured_squares() {
        let start = Position::start();
        let m = parse_hub_move(&start, "11-15").unwrap();
        assert_eq!((m.from(), m.to()), (11, 15));
        assert_eq!(hub_move(&start, &m), "11-15");
        // A capture as pydraughts writes it: 18x9x14 is 18 to 9 taking 14 (White's man on 18).
        let p = parse_fen("W:W18:B14,1").unwrap();
        let c = parse_hub_move(&p, "18x9x14").unwrap();
        assert_eq!((c.from(), c.to(), c.captured().0), (18, 9, 1 << 13));
        assert_eq!(hub_move(&p, &c), "18x9x14");
        assert_eq!(parse_hub_move(&p, "18x9").unwrap(), c);
        for bad in [
            "18x9x15", "18-9", "18x10x14", "x", "18", "33-1", "a-b", "18x9x14x",
        ] {
            assert!(parse_hub_move(&p, bad).is_err(), "{bad:?} was accepted");
        }
        assert!(parse_hub_move(&start, "11-18").is_err());
        assert!(
            parse_hub_move(&start, "22-18").is_err(),
            "White's move, Black to play"
        );
    }

    #[test]
    fn a_two_square_capture_that_names_two_moves_is_ambiguous() {
        // The Black man on 6 reaches 22 over 10 and 18, or over 9 and 17.
        let p = parse_fen("B:W9,10,17,18:B6").unwrap();
        let e = parse_hub_move(&p, "6x22").unwrap_err();
        assert!(e.0.contains("ambiguous"), "{e}");
        let right = parse_hub_move(&p, "6x22x18x10").unwrap();
        assert_eq!(right.captured().squares().collect::<Vec<_>>(), vec![10, 18]);
        assert_eq!(hub_move(&p, &right), "6x22x10x18");
        let left = parse_hub_move(&p, "6x22x9x17").unwrap();
        assert_eq!(left.captured().squares().collect::<Vec<_>>(), vec![9, 17]);
        assert!(parse_hub_move(&p, "6x22x9x18").is_err());
        assert!(parse_hub_move(&p, "6x22x9").is_err());
    }

    #[test]
    fn random_positions_and_moves_round_trip() {
        let mut rng = derive(26, Purpose::Game, 1, 0);
        let mut checked = 0;
        for _ in 0..60 {
            let mut pos = Position::start();
            for _ in 0..150 {
                let text = hub_position(&pos);
                assert_eq!(text.len(), 33);
                assert_eq!(parse_hub_position(&text).unwrap(), pos, "{}", to_fen(&pos));
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                for m in moves.iter() {
                    let back = parse_hub_move(&pos, &hub_move(&pos, m)).unwrap();
                    assert_eq!(pos.play(&back), pos.play(m));
                    assert_eq!(
                        (back.from(), back.to(), back.captured()),
                        (m.from(), m.to(), m.captured())
                    );
                    // Captured squares in any order.
                    if m.capture_count() > 1 {
                        let mut caps: Vec<u8> = m.captured().squares().collect();
                        caps.reverse();
                        let text = std::iter::once(m.from())
                            .chain(std::iter::once(m.to()))
                            .chain(caps)
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join("x");
                        assert_eq!(pos.play(&parse_hub_move(&pos, &text).unwrap()), pos.play(m));
                    }
                    checked += 1;
                }
                pos = pos.play(&moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 5000, "{checked}");
    }
}
