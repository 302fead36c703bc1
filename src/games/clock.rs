//! Time controls: equal-time games, where each side searches by iterative deepening for the
//! time its clock allots ([`crate::search::Searcher::choose_timed`]) and a side that uses more
//! than it has loses. An evaluation that costs more per call is then measured at the strength
//! it has per second, not per ply.
//!
//! Two forms, as engine testers write them (`--tc` of `match` and `play`):
//!
//! * `SECONDS` (e.g. `0.1`): that much for every move; a move that takes longer loses.
//! * `GAME+INC` (e.g. `10+0.1`): GAME seconds for the whole game, INC seconds added after each
//!   move (Fischer); a side whose clock runs out loses. A move is given `remaining / 30 + INC`,
//!   never more than the remaining time less a margin.
//!
//! The margin, what a search keeps back for the time between reading the clock and the move
//! being on the board (and for the thread being descheduled on a busy machine), is a fifth of
//! the time available, at most 50 ms. An iteration the deadline cuts short is thrown away, so
//! the margin costs little. Timed games are not
//! reproducible: how deep a search gets depends on the machine and its load.
//!
//! # Example
//!
//! ```
//! use checkers_ga::Color;
//! use checkers_ga::{Clock, TimeControl};
//! use std::time::Duration;
//!
//! let secs = Duration::from_secs;
//! let mut clock = Clock::new(TimeControl::Game { base: secs(60), increment: secs(1) });
//! assert!(clock.budget(Color::Black) < secs(60));
//! assert!(clock.spend(Color::Black, secs(5))); // in time: 60 - 5 + 1 left
//! assert_eq!(clock.remaining(Color::Black), secs(56));
//! assert!(!clock.spend(Color::White, secs(61))); // more than it had: lost on time
//! ```

use crate::board::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// The longest time limit a person may set (a move's timeout, a handshake's): a day.
pub const MAX_TIMEOUT_S: f64 = 86_400.0;

/// The longest margin past a clock a move may end with and still count: an hour.
pub const MAX_MARGIN_MS: u64 = 3_600_000;

/// A time limit out of range: one line naming the flag that gave it.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LimitError {
    /// A timeout that is not above 0 and at most [`MAX_TIMEOUT_S`].
    #[error("{flag} {seconds} must be above 0 and at most {MAX_TIMEOUT_S} seconds")]
    Timeout {
        /// The flag (`--move-timeout`).
        flag: String,
        /// The seconds given.
        seconds: f64,
    },
    /// A margin past the clock over [`MAX_MARGIN_MS`].
    #[error("--time-margin {0} must be 0..{MAX_MARGIN_MS} milliseconds")]
    Margin(u64),
}

/// A timeout of `seconds` given by `flag` (a move's, a handshake's): above 0 and at most a
/// day.
pub fn check_timeout(flag: &str, seconds: f64) -> Result<Duration, LimitError> {
    match seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT_S {
        true => Ok(Duration::from_secs_f64(seconds)),
        false => Err(LimitError::Timeout {
            flag: flag.to_string(),
            seconds,
        }),
    }
}

/// A margin past the clock of `ms` milliseconds (`--time-margin`): at most an hour.
pub fn check_margin(ms: u64) -> Result<Duration, LimitError> {
    match ms <= MAX_MARGIN_MS {
        true => Ok(Duration::from_millis(ms)),
        false => Err(LimitError::Margin(ms)),
    }
}

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// The same time for every move.
    PerMove(Duration),
    /// Time for the whole game, and an increment added after each move.
    Game {
        /// The time on each side's clock at the start.
        base: Duration,
        /// Added to a side's clock after each of its moves.
        increment: Duration,
    },
}

/// The longest time a `--tc` may give (a day): beyond it is a mistake, not a time control.
const MAX_SECONDS: f64 = 86_400.0;

/// The shortest time per move or per game: one millisecond.
const MIN_SECONDS: f64 = 0.001;

/// Moves a game-clock search plans for: it takes this fraction of what is left.
const MOVES_TO_GO: u32 = 30;

/// The most a search keeps back.
const MAX_MARGIN: Duration = Duration::from_millis(50);

/// A time control's text that is not one: the error of [`TimeControl`]'s `FromStr`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TimeControlError {
    /// Nothing given.
    #[error("empty: expected SECONDS per move (e.g. 0.1) or GAME+INC (e.g. 10+0.1)")]
    Empty,
    /// A part (`what`: time per move, game time or increment) that is no number.
    #[error("{what} '{text}' in '{whole}' is not a number of seconds")]
    NotSeconds {
        /// Which part.
        what: &'static str,
        /// The part.
        text: String,
        /// The whole time control.
        whole: String,
    },
    /// A part outside `min..MAX_SECONDS` seconds.
    #[error("{what} '{text}' in '{whole}' must be {}..{MAX_SECONDS} seconds", if *min > 0.0 { min.to_string() } else { "0".to_string() })]
    OutOfRange {
        /// Which part.
        what: &'static str,
        /// The part.
        text: String,
        /// The whole time control.
        whole: String,
        /// The least the part may be.
        min: f64,
    },
}

fn seconds(
    text: &str,
    what: &'static str,
    whole: &str,
    min: f64,
) -> Result<Duration, TimeControlError> {
    let t = text.trim();
    let v: f64 =
        t.strip_suffix('s')
            .unwrap_or(t)
            .parse()
            .map_err(|_| TimeControlError::NotSeconds {
                what,
                text: t.to_string(),
                whole: whole.to_string(),
            })?;
    if !(v.is_finite() && v >= min && v <= MAX_SECONDS) {
        return Err(TimeControlError::OutOfRange {
            what,
            text: t.to_string(),
            whole: whole.to_string(),
            min,
        });
    }
    Ok(Duration::from_secs_f64(v))
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;
    /// `SECONDS` per move, or `GAME+INC` (seconds per game, and per move added); a trailing
    /// `s` on a number is allowed.
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(TimeControlError::Empty);
        }
        match s.split_once('+') {
            None => Ok(TimeControl::PerMove(seconds(
                s,
                "time per move",
                s,
                MIN_SECONDS,
            )?)),
            Some((base, inc)) => Ok(TimeControl::Game {
                base: seconds(base, "game time", s, MIN_SECONDS)?,
                increment: seconds(inc, "increment", s, 0.0)?,
            }),
        }
    }
}

impl TimeControl {
    /// The time control as `--tc` takes it: `0.1`, `10+0.1`.
    pub fn flag(&self) -> String {
        match self {
            TimeControl::PerMove(t) => t.as_secs_f64().to_string(),
            TimeControl::Game { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

impl fmt::Display for TimeControl {
    /// `0.1 s/move` or `10+0.1 s` (seconds per game, plus per move).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerMove(t) => write!(f, "{} s/move", t.as_secs_f64()),
            TimeControl::Game { base, increment } => {
                write!(f, "{}+{} s", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// What a search keeps back of `available`: a fifth, at most [`MAX_MARGIN`].
fn margin(available: Duration) -> Duration {
    (available / 5).min(MAX_MARGIN)
}

/// The two clocks of a game: each side under its own time control (the same one for both in
/// an equal-time game), and a margin past its time that a move may end in before the side
/// loses on time (for an outside engine, whose move crosses a pipe).
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Black's and White's time controls.
    tcs: [TimeControl; 2],
    /// Black's and White's time left (for [`TimeControl::Game`]).
    left: [Duration; 2],
    /// How far past its time a move may end and still count.
    margin: Duration,
}

fn slot(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Clock {
    /// A clock for a game under `tc`, both sides at their starting time, no margin.
    pub fn new(tc: TimeControl) -> Clock {
        Clock::with_controls([tc, tc])
    }

    /// A clock for a game with Black under `tcs[0]` and White under `tcs[1]`, both at their
    /// starting time, no margin.
    pub fn with_controls(tcs: [TimeControl; 2]) -> Clock {
        let start = |tc: TimeControl| match tc {
            TimeControl::PerMove(t) => t,
            TimeControl::Game { base, .. } => base,
        };
        Clock {
            tcs,
            left: [start(tcs[0]), start(tcs[1])],
            margin: Duration::ZERO,
        }
    }

    /// The clock with `margin`: a move that ends at most this far past the side's time still
    /// counts ([`Clock::spend`]); the budgets do not change.
    pub fn with_margin(mut self, margin: Duration) -> Clock {
        self.margin = margin;
        self
    }

    /// The time control the clock was made for (Black's, when the sides' differ).
    pub fn time_control(&self) -> TimeControl {
        self.tcs[0]
    }

    /// `side`'s time control.
    pub fn control(&self, side: Color) -> TimeControl {
        self.tcs[slot(side)]
    }

    /// The margin past a side's time that a move may end in.
    pub fn margin(&self) -> Duration {
        self.margin
    }

    /// The time `side` has for its next move before it loses (the margin not included).
    pub fn remaining(&self, side: Color) -> Duration {
        match self.control(side) {
            TimeControl::PerMove(t) => t,
            TimeControl::Game { .. } => self.left[slot(side)],
        }
    }

    /// The search budget of `side`'s next move: the time per move less the margin, or
    /// `remaining / 30 + increment`, at most the remaining time less the margin.
    pub fn budget(&self, side: Color) -> Duration {
        let left = self.remaining(side);
        let cap = left - margin(left);
        match self.control(side) {
            TimeControl::PerMove(_) => cap,
            TimeControl::Game { increment, .. } => (left / MOVES_TO_GO + increment).min(cap),
        }
    }

    /// Charges `used` to `side` for a move: false when that was more than it had and the
    /// margin (it lost on time); otherwise a game clock gets the increment (a move that ended
    /// within the margin leaves nothing but the increment).
    pub fn spend(&mut self, side: Color, used: Duration) -> bool {
        let left = self.remaining(side);
        if used > left + self.margin {
            return false;
        }
        if let TimeControl::Game { increment, .. } = self.control(side) {
            self.left[slot(side)] = left.saturating_sub(used) + increment;
        }
        true
    }
}

/// What one side's searches did in a timed game: the moves it searched (forced moves are
/// played without a search and not counted), the depths they reached, their nodes and time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Searches made (forced moves, played without a search, not counted).
    pub searches: u32,
    /// The sum of the depths reached (the last completed iteration of each search).
    pub depth_sum: u64,
    /// Nodes visited by all the searches.
    pub nodes: u64,
    /// Time spent on every move, forced ones included, in nanoseconds.
    pub nanos: u64,
    /// Moves played, forced ones included.
    #[serde(default)]
    pub moves: u32,
    /// The time on the side's clock when the game ended, in nanoseconds (summed over games
    /// by [`SearchStats::add`]; 0 without a clock).
    #[serde(default)]
    pub left_nanos: u64,
}

impl SearchStats {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &SearchStats) {
        self.searches += o.searches;
        self.depth_sum += o.depth_sum;
        self.nodes += o.nodes;
        self.nanos += o.nanos;
        self.moves += o.moves;
        self.left_nanos += o.left_nanos;
    }

    /// The mean depth reached per search (0 with none).
    pub fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / self.searches.max(1) as f64
    }

    /// Nodes per second of search time (0 with none).
    pub fn nodes_per_second(&self) -> f64 {
        if self.nanos == 0 {
            0.0
        } else {
            self.nodes as f64 * 1e9 / self.nanos as f64
        }
    }
}

/// A note for a tuning session on a clock asked for `threads` worker threads (0: one per core)
/// on a machine with fewer cores: games on a clock that share cores measure the crowd, not
/// the engine. None when every game has a core of its own.
pub fn crowd_note(threads: usize) -> Option<String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (threads > cores).then(|| {
        format!(
            "note: --threads {threads} on {cores} cores: games on a clock share the cores, so              their clocks measure the crowd (the default is one game per core)"
        )
    })
}

/// What the timed games of a generation or a step did with their clocks: what the sides'
/// searches did, summed over the games, and the games lost on time. A tuning session keeps one
/// per generation (SPSA: per span of steps) in its history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeUse {
    /// Games counted.
    pub games: u32,
    /// Both sides' searches in those games, summed ([`SearchStats::left_nanos`]: the time left
    /// on each side's clock at the end, summed over sides and games).
    pub sides: SearchStats,
    /// Games lost on time.
    pub lost_on_time: u32,
}

impl TimeUse {
    /// Counts a game: its sides' searches (None: a game without a clock, or decided without
    /// moves) and whether a side lost it on time.
    pub fn add_game(&mut self, timing: Option<&[SearchStats; 2]>, lost_on_time: bool) {
        self.games += 1;
        if let Some([b, w]) = timing {
            self.sides.add(b);
            self.sides.add(w);
        }
        self.lost_on_time += u32::from(lost_on_time);
    }

    /// Adds another span's counts to these.
    pub fn add(&mut self, o: &TimeUse) {
        self.games += o.games;
        self.sides.add(&o.sides);
        self.lost_on_time += o.lost_on_time;
    }

    /// The mean depth a search reached (0 with none).
    pub fn mean_depth(&self) -> f64 {
        self.sides.mean_depth()
    }

    /// The mean time a move took.
    pub fn mean_move(&self) -> Duration {
        Duration::from_nanos(self.sides.nanos / u64::from(self.sides.moves.max(1)))
    }

    /// The mean time left on a side's clock at a game's end.
    pub fn mean_left(&self) -> Duration {
        Duration::from_nanos(self.sides.left_nanos / (2 * u64::from(self.games.max(1))))
    }

    /// Every game counted was lost on time (and there was at least one).
    pub fn all_lost_on_time(&self) -> bool {
        self.games > 0 && self.lost_on_time == self.games
    }

    /// One line for people: `depth 7.2, 48 ms a move, 3.1 s left at the end, 2 of 64 games
    /// lost on time` (the time left only under a game clock, `per_move` false).
    pub fn line(&self, per_move: bool) -> String {
        let mut out = format!(
            "depth {:.1}, {} ms a move",
            self.mean_depth(),
            self.mean_move().as_millis()
        );
        if !per_move {
            out += &format!(", {:.1} s left at the end", self.mean_left().as_secs_f64());
        }
        out += &format!(
            ", {} of {} lost on time",
            self.lost_on_time,
            crate::text::count(self.games as usize, "game", "games")
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_both_forms_and_refuses_nonsense() {
        assert_eq!("0.1".parse(), Ok(TimeControl::PerMove(ms(100))));
        assert_eq!("0.25s".parse(), Ok(TimeControl::PerMove(ms(250))));
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Game {
                base: ms(10_000),
                increment: ms(100)
            })
        );
        assert_eq!(
            "2+0".parse(),
            Ok(TimeControl::Game {
                base: ms(2000),
                increment: ms(0)
            })
        );
        for bad in [
            "", "0", "-1", "abc", "1+", "+1", "1+x", "0+1", "1+-1", "nan", "inf", "1e9", "1+2+3",
            "40/60",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "'{bad}'");
        }
        assert_eq!(TimeControl::PerMove(ms(100)).to_string(), "0.1 s/move");
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap().to_string(),
            "10+0.1 s"
        );
    }

    /// The typed error says what the `String` error said.
    #[test]
    fn the_errors_read_as_before() {
        let e = |s: &str| s.parse::<TimeControl>().unwrap_err().to_string();
        assert_eq!(
            e(""),
            "empty: expected SECONDS per move (e.g. 0.1) or GAME+INC (e.g. 10+0.1)"
        );
        assert_eq!(
            e("abc"),
            "time per move 'abc' in 'abc' is not a number of seconds"
        );
        assert_eq!(
            e("0"),
            "time per move '0' in '0' must be 0.001..86400 seconds"
        );
        assert_eq!(
            e("1+-1"),
            "increment '-1' in '1+-1' must be 0..86400 seconds"
        );
        assert_eq!(
            e("0+1"),
            "game time '0' in '0+1' must be 0.001..86400 seconds"
        );
    }

    #[test]
    fn budgets_stay_within_the_time_left_and_time_runs_out() {
        let mut c = Clock::new("0.1".parse().unwrap());
        assert_eq!(c.budget(Color::Black), ms(80));
        assert!(c.spend(Color::Black, ms(100)));
        assert!(!c.spend(Color::White, ms(101)));
        assert_eq!(c.remaining(Color::Black), ms(100));

        let mut c = Clock::new("3+0.1".parse().unwrap());
        assert_eq!(c.budget(Color::White), ms(200));
        assert!(c.spend(Color::White, ms(1000)));
        assert_eq!(c.remaining(Color::White), ms(2100));
        assert_eq!(c.remaining(Color::Black), ms(3000));
        // Little left: the budget stays below it, the increment notwithstanding.
        assert!(c.spend(Color::White, ms(2090)));
        assert_eq!(c.remaining(Color::White), ms(110));
        assert_eq!(c.budget(Color::White), ms(88));
        assert!(!c.spend(Color::White, ms(111)));
    }

    #[test]
    fn each_side_has_its_own_control_and_the_margin_forgives_a_late_move() {
        let tcs = ["0.1".parse().unwrap(), "2+0.5".parse().unwrap()];
        let mut c = Clock::with_controls(tcs).with_margin(ms(30));
        assert_eq!(c.control(Color::Black), tcs[0]);
        assert_eq!(c.control(Color::White), tcs[1]);
        assert_eq!(c.margin(), ms(30));
        assert_eq!(c.remaining(Color::Black), ms(100));
        assert_eq!(c.remaining(Color::White), ms(2000));
        assert_eq!(c.budget(Color::Black), ms(80));
        assert_eq!(c.budget(Color::White), ms(2000) / 30 + ms(500));
        // Within the margin: the move counts; past it, the side loses.
        assert!(c.spend(Color::Black, ms(130)));
        assert!(!c.spend(Color::Black, ms(131)));
        assert!(c.spend(Color::White, ms(2020)));
        assert_eq!(
            c.remaining(Color::White),
            ms(500),
            "nothing left but the increment"
        );
        assert!(!c.spend(Color::White, ms(531)));
        // Without a margin, as before.
        let mut c = Clock::with_controls(tcs);
        assert!(!c.spend(Color::Black, ms(101)));
    }
}
