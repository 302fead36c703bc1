//! A whole game: the rules that end it (no moves, draws by the 40-move rule, repetition or a
//! length cap, a clock run out), its record and its PDN text. docs/rules.md states the rules; docs/formats.md
//! the PDN.
//!
//! # Example
//!
//! ```
//! use checkers_ga::{Color, Position};
//! use checkers_ga::{DrawRules, Game, GameOutcome};
//! use checkers_ga::parse_move;
//!
//! let mut game = Game::new(Position::start(), DrawRules::default());
//! game.play(parse_move(game.position(), "11-15").unwrap());
//! assert_eq!((game.plies(), game.position().side_to_move()), (1, Color::White));
//! assert!(!game.is_over());
//! game.resign(); // White, to move, gives up
//! assert_eq!(game.result().unwrap().0, GameOutcome::BlackWin);
//! ```

use crate::board::{Color, Move, Position};
use crate::movegen::legal_moves;
use crate::notation::to_fen;
use std::fmt;

/// Draw rules, all settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawRules {
    /// Plies with no capture and no man move that make a draw (80 = the 40-move rule; 0 = off).
    pub quiet_plies: u32,
    /// The number of times the same position (same side to move) must occur for a draw (0 = off).
    pub repetitions: u32,
    /// A hard cap on the game's length in plies, counted from its start position (0 = none).
    pub max_plies: u32,
}

impl Default for DrawRules {
    /// The 40-move rule, threefold repetition, and a cap of 300 plies.
    fn default() -> Self {
        DrawRules {
            quiet_plies: 80,
            repetitions: 3,
            max_plies: 300,
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameOutcome {
    /// Black won: White, to move, had no legal move (no piece left, or all blocked), or resigned
    /// or lost on time.
    BlackWin,
    /// White won: Black, to move, had no legal move, or resigned or lost on time.
    WhiteWin,
    /// A draw by one of the game's [`DrawRules`].
    Draw,
}

impl GameOutcome {
    /// Points of a game for one side: 2 for a win, 1 for a draw (or a game without a result),
    /// 0 for a loss; `black`: the side is Black.
    pub fn points(result: Option<GameOutcome>, black: bool) -> u32 {
        match (result, black) {
            (Some(GameOutcome::BlackWin), true) | (Some(GameOutcome::WhiteWin), false) => 2,
            (Some(GameOutcome::Draw), _) | (None, _) => 1,
            _ => 0,
        }
    }

    /// PDN result text: `1-0` Black (the first player) wins, `0-1` White wins, `1/2-1/2`.
    pub fn pdn(self) -> &'static str {
        match self {
            GameOutcome::BlackWin => "1-0",
            GameOutcome::WhiteWin => "0-1",
            GameOutcome::Draw => "1/2-1/2",
        }
    }

    /// The win for a colour.
    pub fn win_for(c: Color) -> GameOutcome {
        match c {
            Color::Black => GameOutcome::BlackWin,
            Color::White => GameOutcome::WhiteWin,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EndReason {
    /// This side was to move and had no legal move.
    NoMoves(Color),
    /// The 40-move rule (or its configured length).
    QuietPlies,
    /// The same position occurred the configured number of times.
    Repetition,
    /// The length cap was reached.
    MaxPlies,
    /// This side gave up (a human quitting).
    Resigned(Color),
    /// This side used more time than its clock had (a game with a time control).
    Time(Color),
    /// This side's outside engine failed ([`EngineFault`]): it loses the game.
    Fault(Color, EngineFault),
    /// Drawn by adjudication: both engines' scores stayed near zero long enough.
    AdjudicatedDraw,
    /// Lost by adjudication: this side's engine (and its opponent's) scored it lost long
    /// enough.
    AdjudicatedLoss(Color),
}

/// How an outside engine failed a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EngineFault {
    /// It answered with a move that is not legal (or not a move).
    IllegalMove,
    /// Its process exited (or closed its output).
    Exited,
    /// It did not answer within its time and the margin.
    Hung,
    /// It printed lines that are not the protocol.
    Garbage,
    /// It never finished the protocol's handshake (`hub` ... `wait`, `init` ... `ready`).
    NoHandshake,
}

impl fmt::Display for EngineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineFault::IllegalMove => "played an illegal move",
            EngineFault::Exited => "exited",
            EngineFault::Hung => "did not answer in time",
            EngineFault::Garbage => "printed garbage",
            EngineFault::NoHandshake => "never answered the handshake",
        })
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::NoMoves(c) => write!(f, "{} has no moves", c.name()),
            EndReason::QuietPlies => f.write_str("no capture or man move for too long"),
            EndReason::Repetition => f.write_str("repetition"),
            EndReason::MaxPlies => f.write_str("move limit reached"),
            EndReason::Resigned(c) => write!(f, "{} resigned", c.name()),
            EndReason::Time(c) => write!(f, "{} ran out of time", c.name()),
            EndReason::Fault(c, e) => write!(f, "{}'s engine {e}", c.name()),
            EndReason::AdjudicatedDraw => f.write_str("adjudicated a draw"),
            EndReason::AdjudicatedLoss(c) => write!(f, "adjudicated a loss for {}", c.name()),
        }
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    rules: DrawRules,
    /// Hashes of the positions since the last irreversible move (capture or man move).
    recent: Vec<u64>,
    result: Option<(GameOutcome, EndReason)>,
    /// What the PDN's result comment adds to the reason (an engine's illegal move, its last
    /// words).
    note: Option<String>,
}

impl Game {
    /// A game from `start` under `rules` (a start position with no move is already decided).
    pub fn new(start: Position, rules: DrawRules) -> Game {
        let mut g = Game {
            start,
            pos: start,
            moves: Vec::new(),
            rules,
            recent: vec![start.hash()],
            result: None,
            note: None,
        };
        g.check_end();
        g
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now, after every move played.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played from [`Game::start`], in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of moves (plies) played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The draw rules the game is played under.
    pub fn rules(&self) -> &DrawRules {
        &self.rules
    }

    /// The result and its reason, once the game is over.
    pub fn result(&self) -> Option<(GameOutcome, EndReason)> {
        self.result
    }

    /// Whether the game has a result.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Plays a move, which must be legal in the current position (from [`legal_moves`]).
    pub fn play(&mut self, m: Move) {
        if self.result.is_some() {
            return;
        }
        let irreversible = m.is_capture() || self.pos.is_man_move(&m);
        self.pos = self.pos.play(&m);
        self.moves.push(m);
        if irreversible {
            self.recent.clear();
        }
        self.recent.push(self.pos.hash());
        self.check_end();
    }

    /// The side to move gives up.
    pub fn resign(&mut self) {
        if self.result.is_none() {
            let c = self.pos.side_to_move();
            self.result = Some((GameOutcome::win_for(c.opposite()), EndReason::Resigned(c)));
        }
    }

    /// Ends the game with `result`, given from outside its moves, if it has none: the result
    /// of a game played elsewhere whose moves were not all kept (a batch's that records none,
    /// or the tuning simulator's, whose games have no moves).
    pub fn conclude(&mut self, result: (GameOutcome, EndReason)) {
        if self.result.is_none() {
            self.result = Some(result);
        }
    }

    /// The side to move's engine failed: it loses, and `detail` (what it said or did) goes
    /// into the PDN's result comment.
    pub fn forfeit(&mut self, fault: EngineFault, detail: &str) {
        if self.result.is_none() {
            let c = self.pos.side_to_move();
            self.result = Some((
                GameOutcome::win_for(c.opposite()),
                EndReason::Fault(c, fault),
            ));
            if !detail.is_empty() {
                self.note = Some(detail.to_string());
            }
        }
    }

    /// Ends the game by adjudication: a draw ([`EndReason::AdjudicatedDraw`]) or a loss for
    /// `loser` ([`EndReason::AdjudicatedLoss`]).
    pub fn adjudicate(&mut self, loser: Option<Color>) {
        if self.result.is_none() {
            self.result = Some(match loser {
                None => (GameOutcome::Draw, EndReason::AdjudicatedDraw),
                Some(c) => (
                    GameOutcome::win_for(c.opposite()),
                    EndReason::AdjudicatedLoss(c),
                ),
            });
        }
    }

    /// What the PDN's result comment adds to the reason, if anything.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The side to move has run out of time: it loses.
    pub fn lose_on_time(&mut self) {
        self.lose_on_time_noted("");
    }

    /// [`Game::lose_on_time`], with what happened (`detail`, kept as the game's [`Game::note`]
    /// when not empty): how long the move took and what the clock had.
    pub fn lose_on_time_noted(&mut self, detail: &str) {
        if self.result.is_none() {
            let c = self.pos.side_to_move();
            self.result = Some((GameOutcome::win_for(c.opposite()), EndReason::Time(c)));
            if !detail.is_empty() {
                self.note = Some(detail.to_string());
            }
        }
    }

    fn check_end(&mut self) {
        let side = self.pos.side_to_move();
        if !crate::movegen::has_any_move(&self.pos) {
            self.result = Some((
                GameOutcome::win_for(side.opposite()),
                EndReason::NoMoves(side),
            ));
            return;
        }
        // `recent` holds the positions since the last irreversible move, so its length less one
        // is the number of quiet plies in a row.
        let quiet = self.recent.len() as u32 - 1;
        if self.rules.quiet_plies > 0 && quiet >= self.rules.quiet_plies {
            self.result = Some((GameOutcome::Draw, EndReason::QuietPlies));
        } else if self.rules.repetitions > 0
            && self
                .recent
                .iter()
                .filter(|&&h| h == self.pos.hash())
                .count() as u32
                >= self.rules.repetitions
        {
            self.result = Some((GameOutcome::Draw, EndReason::Repetition));
        } else if self.rules.max_plies > 0 && self.moves.len() as u32 >= self.rules.max_plies {
            self.result = Some((GameOutcome::Draw, EndReason::MaxPlies));
        }
    }

    /// The game as PDN. `tags` gives Event, Black and White; Date is today's.
    pub fn to_pdn(&self, tags: &PdnTags) -> String {
        let result = self.result.map(|r| r.0.pdn()).unwrap_or("*");
        let mut s = String::new();
        s += &format!("[Event \"{}\"]\n", escape(&tags.event));
        s += &format!("[Date \"{}\"]\n", today());
        s += &format!("[Black \"{}\"]\n", escape(&tags.black));
        s += &format!("[White \"{}\"]\n", escape(&tags.white));
        s += &format!("[Result \"{result}\"]\n");
        s += "[GameType \"21\"]\n";
        if self.start != Position::start() {
            s += "[SetUp \"1\"]\n";
            s += &format!("[FEN \"{}\"]\n", to_fen(&self.start));
        }
        if let Some((_, reason)) = self.result {
            match &self.note {
                Some(n) => s += &format!("{{{reason}: {}}}\n", n.replace(['{', '}'], "")),
                None => s += &format!("{{{reason}}}\n"),
            }
        }
        let mut tokens = Vec::new();
        let mut side = self.start.side_to_move();
        let mut number = 1;
        for (i, m) in self.moves.iter().enumerate() {
            match side {
                Color::Black => tokens.push(format!("{number}.")),
                Color::White if i == 0 => tokens.push(format!("{number}...")),
                Color::White => {}
            }
            tokens.push(m.to_string());
            if side == Color::White {
                number += 1;
            }
            side = side.opposite();
        }
        tokens.push(result.to_string());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 79 {
                s += &line;
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line += &t;
        }
        s += &line;
        s.push('\n');
        s
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.pos).as_slice().to_vec()
    }
}

/// The names written into a PDN record.
#[derive(Clone, Debug, Default)]
pub struct PdnTags {
    /// The `Event` tag.
    pub event: String,
    /// The `Black` tag: the name of the engine or player with Black.
    pub black: String,
    /// The `White` tag: the name of the engine or player with White.
    pub white: String,
}

impl PdnTags {
    /// Whether `name` is a value a tag takes as a name on one line in quotes: not empty, no
    /// control character (a line break), no `"` and no `\`.
    pub fn is_tag_value(name: &str) -> bool {
        !(name.is_empty() || name.contains(['"', '\\']) || name.chars().any(char::is_control))
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date as `YYYY.MM.DD` (UTC), for the PDN Date tag.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::PdnTags;

    #[test]
    fn a_tag_value_is_a_name_on_one_line_without_quotes_or_backslashes() {
        for good in ["A", "hub:engine --x", "café 2"] {
            assert!(PdnTags::is_tag_value(good), "{good}");
        }
        for bad in ["", "A\nB", "tab\there", "say \"hi\"", "back\\slash"] {
            assert!(!PdnTags::is_tag_value(bad), "{bad:?}");
        }
    }
}
