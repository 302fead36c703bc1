//! Opening books: the ACF 3-move ballot (embedded), the start position, or a user's file of
//! positions (a FEN per line, or PDN games).
//!
//! Fixed-depth engines with random tie-breaks still repeat themselves from the start position,
//! so matches and tournaments start from the ballot: the first three moves of each game are
//! drawn from the standard list, and each opening is played twice with colours swapped.
//!
//! [`OpeningBook`] names the built-in books; [`load_openings`] reads what `--openings` names.
//!
//! The ballot's positions also measure what one man is worth in an evaluation's values
//! ([`crate::man_value`]).
//!
//! # Example
//!
//! ```
//! use checkers_ga::matchplay::start_positions;
//! use checkers_ga::{ballot, OpeningBook};
//!
//! assert_eq!(ballot().len(), 156);
//! let book: OpeningBook = "ballot".parse().unwrap();
//! let starts = start_positions(book, Some(2));
//! assert_eq!(starts.len(), 2);
//! assert_eq!(starts[0].moves.len(), 3); // the ballot's three moves
//! ```

use crate::board::{Move, Position};
use crate::notation::{parse_fen, parse_move};
use std::sync::OnceLock;

const BALLOT_TEXT: &str = include_str!("../../data/acf-3-move-ballot.txt");

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
    /// Its number in the ballot.
    pub number: u32,
    /// The three moves, as played from the start position.
    pub moves: Vec<Move>,
    /// Whether it is played.
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

/// Where a game of a match begins: a set-up position and the moves played from it before the
/// engines take over (the ballot: the start position and three moves; a FEN line: the position
/// and no moves; a PDN game: its `FEN` tag or the start position, and its moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    /// The position set up first.
    pub setup: Position,
    /// The moves played from it before the engines take over.
    pub moves: Vec<Move>,
}

impl StartPosition {
    /// The position the engines play from.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.setup, |p, m| p.play(m))
    }
}

/// Reads an opening file: either one PDN FEN per line (`B:W21-32:B1-12`; empty lines and lines
/// starting with `#` are skipped) or PDN games (tag pairs such as `[FEN "..."]`, then move text
/// with move numbers, `{comments}`, `(variations)`, `;` comments to the end of the line, `$N`
/// annotations and a result, all of which but the moves are skipped). A file whose first content
/// line starts with `[` or a move number is PDN. Every position must leave the side to move a
/// legal move. Errors name the line.
pub fn parse_opening_file(text: &str) -> Result<Vec<StartPosition>, OpeningFileError> {
    parse_openings(text).map_err(OpeningFileError)
}

/// Why an opening file could not be read: the message names the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OpeningFileError(pub String);

fn parse_openings(text: &str) -> Result<Vec<StartPosition>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    let is_pdn = match first {
        None => return Err("no positions in the file".to_string()),
        Some(l) => {
            l.starts_with('[')
                || l.split(|c: char| c == '.' || c.is_whitespace())
                    .next()
                    .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                    && l.contains('.')
        }
    };
    let out = if is_pdn {
        parse_pdn_games(text)?
    } else {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let setup = parse_fen(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            let s = StartPosition {
                setup,
                moves: Vec::new(),
            };
            check_playable(&s).map_err(|e| format!("line {}: {e}", i + 1))?;
            out.push(s);
        }
        out
    };
    if out.is_empty() {
        return Err("no positions in the file".to_string());
    }
    Ok(out)
}

fn check_playable(s: &StartPosition) -> Result<(), String> {
    if crate::movegen::has_any_move(&s.position()) {
        Ok(())
    } else {
        Err(format!(
            "{} has no legal move in this position",
            s.position().side_to_move().name()
        ))
    }
}

/// One lexical piece of PDN text with the line it starts on.
enum PdnToken {
    Tag(String, String),
    Word(String),
}

fn pdn_tokens(text: &str) -> Result<Vec<(usize, PdnToken)>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '{' => {
                let start = line;
                while i < chars.len() && chars[i] != '}' {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if i == chars.len() {
                    return Err(format!("line {start}: a comment '{{' is never closed"));
                }
                i += 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                let (start, mut depth) = (line, 0);
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '\n' => line += 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                if depth != 0 {
                    return Err(format!("line {start}: a variation '(' is never closed"));
                }
            }
            '[' => {
                let start = line;
                let mut j = i + 1;
                let mut quoted = false;
                while j < chars.len() && (quoted || chars[j] != ']') && chars[j] != '\n' {
                    // Inside the quoted value a ']' is text, and an escaped character is
                    // skipped.
                    match chars[j] {
                        '\\' if quoted => j += 1,
                        '"' => quoted = !quoted,
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() || chars[j] != ']' {
                    return Err(format!("line {start}: a tag '[' is not closed on its line"));
                }
                let inner: String = chars[i + 1..j].iter().collect();
                let inner = inner.trim();
                let (name, value) = inner
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| format!("line {start}: tag '[{inner}]' has no value"))?;
                let value = value.trim();
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| {
                        format!("line {start}: the value of tag '{name}' must be in quotes")
                    })?
                    .replace("\\\"", "\"")
                    .replace("\\\\", "\\");
                out.push((start, PdnToken::Tag(name.to_string(), value)));
                i = j + 1;
            }
            _ => {
                let mut j = i;
                while j < chars.len()
                    && !chars[j].is_whitespace()
                    && !matches!(chars[j], '{' | '(' | '[' | ';')
                {
                    j += 1;
                }
                out.push((line, PdnToken::Word(chars[i..j].iter().collect())));
                i = j;
            }
        }
    }
    Ok(out)
}

/// The games of a PDN text: each game's `FEN` tag (or the start position) and its moves.
fn parse_pdn_games(text: &str) -> Result<Vec<StartPosition>, String> {
    Ok(pdn_games(text, true)?
        .into_iter()
        .map(|g| g.start)
        .collect())
}

/// A game of a PDN text as written: where it starts, its moves (each checked by our rules) and
/// the result that ends its move text (`1-0`, `0-1`, `1/2-1/2`, `*`...), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The `FEN` tag's position (or the start position) and the moves.
    pub start: StartPosition,
    /// The result token, as written.
    pub result: Option<String>,
}

/// A PDN game replayed by our rules ([`PdnGame::replay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The position before each move, in order (the move's own is `start.moves[i]`).
    pub before: Vec<Position>,
    /// The position after the last move.
    pub last: Position,
    /// How our rules end the game (under the default draw rules), and after how many plies;
    /// None: not over. Fewer plies than the moves: the game went on after our rules would
    /// have ended it (other draw rules).
    pub ended: Option<(crate::game::GameOutcome, crate::game::EndReason, usize)>,
}

impl PdnGame {
    /// Its moves played by our rules from its start: each position on the way and where our
    /// rules end it.
    pub fn replay(&self) -> Replayed {
        let setup = self.start.setup;
        let mut game = crate::game::Game::new(setup, crate::game::DrawRules::default());
        let (mut before, mut pos) = (Vec::with_capacity(self.start.moves.len()), setup);
        for m in &self.start.moves {
            before.push(pos);
            pos = pos.play(m);
            // A game over by our rules takes no more moves: its plies stay where it ended.
            game.play(*m);
        }
        Replayed {
            before,
            last: pos,
            ended: game.result().map(|(o, r)| (o, r, game.plies())),
        }
    }
}

/// Reads the games of a PDN text (the syntax of [`load_openings`]'s PDN games), every move
/// checked by our rules; unlike an opening, a game may end where the side to move has no move.
/// Errors name the line.
pub fn read_pdn_games(text: &str) -> Result<Vec<PdnGame>, OpeningFileError> {
    pdn_games(text, false).map_err(OpeningFileError)
}

/// The games of a PDN text; with `playable`, each must leave the side to move a legal move.
fn pdn_games(text: &str, playable: bool) -> Result<Vec<PdnGame>, String> {
    struct Building {
        line: usize,
        fen: Option<Position>,
        moves: Vec<(usize, String)>,
        has_tags: bool,
    }
    let mut games = Vec::new();
    let mut cur: Option<Building> = None;
    let finish =
        |b: Building, result: Option<String>, games: &mut Vec<PdnGame>| -> Result<(), String> {
            let setup = b.fen.unwrap_or_else(Position::start);
            let mut pos = setup;
            let mut moves = Vec::new();
            for (line, t) in &b.moves {
                let m = parse_move(&pos, t)
                    .map_err(|e| format!("line {line}: game {}: {e}", games.len() + 1))?;
                pos = pos.play(&m);
                moves.push(m);
            }
            let s = StartPosition { setup, moves };
            if playable {
                check_playable(&s)
                    .map_err(|e| format!("line {}: game {}: {e}", b.line, games.len() + 1))?;
            }
            games.push(PdnGame { start: s, result });
            Ok(())
        };
    for (line, tok) in pdn_tokens(text)? {
        match tok {
            PdnToken::Tag(name, value) => {
                // A tag after move text starts the next game.
                if cur.as_ref().is_some_and(|b| !b.moves.is_empty()) {
                    finish(cur.take().expect("checked"), None, &mut games)?;
                }
                let b = cur.get_or_insert(Building {
                    line,
                    fen: None,
                    moves: Vec::new(),
                    has_tags: false,
                });
                b.has_tags = true;
                if name.eq_ignore_ascii_case("FEN") {
                    b.fen = Some(parse_fen(&value).map_err(|e| format!("line {line}: {e}"))?);
                }
            }
            PdnToken::Word(w) => {
                if matches!(
                    w.as_str(),
                    "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1"
                ) {
                    match cur.take() {
                        Some(b) => finish(b, Some(w.clone()), &mut games)?,
                        None => return Err(format!("line {line}: a result '{w}' with no game")),
                    }
                    continue;
                }
                if w.starts_with('$') {
                    continue;
                }
                // A move number (`12.`, `12...`), possibly glued to the move (`12.9-13`).
                let digits = w.bytes().take_while(u8::is_ascii_digit).count();
                let rest = if digits > 0 && w[digits..].starts_with('.') {
                    w[digits..].trim_start_matches('.')
                } else {
                    &w
                };
                let mv = rest.trim_end_matches(['!', '?', '*']);
                if mv.is_empty() {
                    continue;
                }
                cur.get_or_insert(Building {
                    line,
                    fen: None,
                    moves: Vec::new(),
                    has_tags: false,
                })
                .moves
                .push((line, mv.to_string()));
            }
        }
    }
    if let Some(b) = cur {
        if b.has_tags || !b.moves.is_empty() {
            finish(b, None, &mut games)?;
        }
    }
    Ok(games)
}

/// Where games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OpeningBook {
    /// The 156 ballot openings in use, each played twice with colours swapped.
    Ballot,
    /// The start position.
    Start,
}

/// An opening book's name that is neither `ballot` nor `start` (the name given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown opening book '{0}' (expected ballot or start)")]
pub struct UnknownOpeningBook(pub String);

impl std::str::FromStr for OpeningBook {
    type Err = UnknownOpeningBook;
    fn from_str(s: &str) -> Result<Self, UnknownOpeningBook> {
        match s {
            "ballot" => Ok(OpeningBook::Ballot),
            "start" => Ok(OpeningBook::Start),
            _ => Err(UnknownOpeningBook(s.to_string())),
        }
    }
}

/// The start positions of `pairs` game pairs from a book. Ballot: the first `pairs` openings in
/// ballot order (all 156 when `pairs` is None); start: the start position `pairs` times (once
/// when None).
pub fn start_positions(book: OpeningBook, pairs: Option<usize>) -> Vec<StartPosition> {
    match book {
        OpeningBook::Ballot => {
            let b = ballot();
            let n = pairs.unwrap_or(b.len()).min(b.len());
            b[..n]
                .iter()
                .map(|o| StartPosition {
                    setup: Position::start(),
                    moves: o.moves.clone(),
                })
                .collect()
        }
        OpeningBook::Start => vec![
            StartPosition {
                setup: Position::start(),
                moves: Vec::new(),
            };
            pairs.unwrap_or(1)
        ],
    }
}

/// Why `--openings` could not be read: one line.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("--openings '{0}': no such file (and not ballot or start)")]
    /// No file of that name, and not a book's name.
    NoSuch(String),
    #[error("cannot read openings file '{name}': {source}")]
    /// The file could not be read.
    Read {
        /// The name given.
        name: String,
        /// Why.
        source: std::io::Error,
    },
    #[error("openings file '{0}' is not UTF-8 text")]
    /// The file is not UTF-8 text.
    NotText(String),
    #[error("openings file '{name}': {source}")]
    /// The file is not an opening file.
    File {
        /// The name given.
        name: String,
        /// The line that is wrong, and why.
        source: OpeningFileError,
    },
}

/// The start positions of `--openings NAME`: a file when one of that name exists (a FEN per
/// line or PDN games), else the book `ballot` or `start`; the first `pairs` of them.
pub fn load_openings(
    name: &str,
    pairs: Option<usize>,
) -> Result<Vec<StartPosition>, OpeningsError> {
    let path = std::path::Path::new(name);
    if !path.exists() {
        return match name.parse::<OpeningBook>() {
            Ok(book) => Ok(start_positions(book, pairs)),
            Err(_) => Err(OpeningsError::NoSuch(name.to_string())),
        };
    }
    let bytes = crate::files::read_bounded(path).map_err(|source| OpeningsError::Read {
        name: name.to_string(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| OpeningsError::NotText(name.to_string()))?;
    let mut starts = parse_opening_file(&text).map_err(|source| OpeningsError::File {
        name: name.to_string(),
        source,
    })?;
    if let Some(p) = pairs {
        starts.truncate(p);
    }
    Ok(starts)
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

#[cfg(test)]
mod file_tests {
    use super::*;
    use crate::notation::to_fen;

    #[test]
    fn fen_lines_are_positions_without_moves() {
        let s =
            parse_opening_file("# two positions\nB:W21-32:B1-12\n\n W:W18,K30:B14,2.\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].setup, Position::start());
        assert!(s[0].moves.is_empty());
        assert_eq!(to_fen(&s[1].position()), "W:W18,K30:B2,14");
    }

    #[test]
    fn pdn_games_give_their_setup_and_moves() {
        let text = "[Event \"a\"]\n[Result \"*\"]\n1. 9-13 {book} 22-18 2. 6-9 (2. 5-9) *\n\n\
                    [FEN \"W:W18,K30:B14,2\"]\n1... 18x9 $1 ; a capture\n*\n1.11-15 23-19 *";
        let s = parse_opening_file(text).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].setup, Position::start());
        let texts: Vec<String> = s[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(texts, ["9-13", "22-18", "6-9"]);
        assert_eq!(s[0].position(), ballot_all()[4].position);
        assert_eq!(to_fen(&s[1].setup), "W:W18,K30:B2,14");
        assert_eq!(s[1].moves.len(), 1);
        assert_eq!(s[2].moves.len(), 2);
    }

    #[test]
    fn a_bracket_or_an_escaped_quote_in_a_tag_value_is_text() {
        let text = "[Black \"a]\"]\n[White \"say \\\"b\\\"\"]\n[FEN \"W:W18:B14\"]\n1... 18x9 1-0";
        let g = read_pdn_games(text).unwrap();
        assert_eq!(to_fen(&g[0].start.setup), "W:W18:B14");
        assert!(read_pdn_games("[Black \"a]\n1. 9-13 *").is_err());
    }

    #[test]
    fn a_pdn_game_replays_to_where_our_rules_end_it() {
        let text = "1. 9-13 22-18 *\n\n[FEN \"W:W18:B14\"]\n1... 18x9 1-0";
        let g = read_pdn_games(text).unwrap();
        let r = g[0].replay();
        assert_eq!(r.before.len(), 2);
        assert_eq!(r.before[0], Position::start());
        let m = &g[0].start.moves;
        assert_eq!(r.before[1], Position::start().play(&m[0]));
        assert_eq!(r.last, r.before[1].play(&m[1]));
        assert_eq!(r.ended, None);
        // White takes Black's last man: Black has no move left.
        let r = g[1].replay();
        assert_eq!(to_fen(&r.last), "B:W9:B");
        let (outcome, reason, plies) = r.ended.unwrap();
        assert_eq!((outcome.pdn(), plies), ("0-1", 1));
        assert_eq!(
            reason,
            crate::game::EndReason::NoMoves(crate::board::Color::Black)
        );
    }

    #[test]
    fn bad_files_are_errors_naming_the_line() {
        let e = parse_opening_file("B:W21-32:B1-12\nB:W21-32:B1-33\n")
            .unwrap_err()
            .0;
        assert!(e.starts_with("line 2: "), "{e}");
        let e = parse_opening_file("[Event \"x\"]\n1. 9-13 22-18\n2. 9-14 *\n")
            .unwrap_err()
            .0;
        assert!(e.starts_with("line 3: ") && e.contains("9-14"), "{e}");
        assert!(parse_opening_file("").is_err());
        assert!(parse_opening_file("# only a comment\n").is_err());
        assert!(
            parse_opening_file("[FEN \"B:W1:B\"] *").is_err(),
            "Black cannot move"
        );
        assert!(parse_opening_file("1. 9-13 { open").is_err());
        assert!(
            parse_opening_file("[FEN B:W1:B5]").is_err(),
            "unquoted tag value"
        );
    }
}
