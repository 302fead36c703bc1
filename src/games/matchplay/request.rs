//! A match's levels as a person asks for them ([`MatchRequest`]): each side's depth and
//! clock, the games, the margins, checked before any engine starts; and the games a match of
//! a book plays ([`MatchRequest::games`]).

use super::run::MatchRun;
use crate::clock::{check_margin, check_timeout, LimitError, TimeControl};
use crate::search::{MAX_DEPTH, MAX_TIMED_DEPTH};
use std::time::Duration;

/// The games an SPRT may play when no number is given: enough for engines a few Elo apart to
/// decide, a cap against a test that never does.
pub const SPRT_GAMES: usize = 100_000;

/// The most games a match may be asked for.
pub const MAX_MATCH_GAMES: usize = 100_000;

/// The depth of a side without a clock when none is given.
pub const MATCH_DEPTH: u32 = 4;

/// What a person asks of a match's levels, as `match` takes them (each field its flag's):
/// both sides' depth and B's when it differs, each side's clock, the games, the margin past a
/// clock and an outside engine's move timeout. Absent fields take the defaults: depth
/// [`MATCH_DEPTH`] without a clock, [`MAX_TIMED_DEPTH`] (a maximum) on one; B the depth given
/// for both; no margin; the games of the whole book once (with an SPRT, until it decides, at
/// most [`SPRT_GAMES`]).
#[derive(Clone, Debug, Default)]
pub struct MatchRequest {
    /// Both sides' depth (`--depth`); with a clock, their maximum depth.
    pub depth: Option<u32>,
    /// B's depth when it differs (`--depth-b`).
    pub depth_b: Option<u32>,
    /// A's and B's clocks (`--tc`, `--tc-a`, `--tc-b`); None: to the depth.
    pub tc: [Option<TimeControl>; 2],
    /// The games asked for (`--games`), rounded up to even.
    pub games: Option<usize>,
    /// How far past its clock a move may end, in milliseconds (`--time-margin`).
    pub time_margin_ms: Option<u64>,
    /// The longest an outside engine may take for one move without a clock, in seconds
    /// (`--move-timeout`).
    pub move_timeout_s: Option<f64>,
}

/// A [`MatchRequest`] checked: what the match plays at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchLevels {
    /// A's and B's clocks.
    pub tc: [Option<TimeControl>; 2],
    /// A's and B's depths (their maximum depths on a clock).
    pub depths: [u32; 2],
    /// The margin past a clock.
    pub time_margin: Duration,
    /// An outside side's move timeout without a clock (None: the engine's own, by default
    /// [`crate::hub::DEFAULT_MOVE_TIMEOUT`]).
    pub move_timeout: Option<Duration>,
}

impl MatchLevels {
    /// Sets `run`'s clocks and margin to these (the move timeout is each outside side's:
    /// [`crate::PlayerRequest::move_timeout`]).
    pub fn apply(&self, run: &mut MatchRun) {
        run.tc = self.tc;
        run.time_margin = self.time_margin;
    }
}

/// A value of a [`MatchRequest`] out of range: one line naming its flag.
#[derive(Debug, thiserror::Error)]
pub enum MatchRequestError {
    /// A depth or a number of games.
    #[error("{0}")]
    Value(String),
    /// A margin or a timeout.
    #[error(transparent)]
    Limit(#[from] LimitError),
}

/// The deepest a side may be asked to search, and how a message says why: on a clock (the
/// depth then a maximum) [`MAX_TIMED_DEPTH`], ` with --tc`; else [`MAX_DEPTH`].
pub fn depth_limit(tc: Option<TimeControl>) -> (u32, &'static str) {
    match tc {
        Some(_) => (MAX_TIMED_DEPTH, " with --tc"),
        None => (MAX_DEPTH, ""),
    }
}

impl MatchRequest {
    /// Checks every value and fills in the defaults.
    pub fn check(&self) -> Result<MatchLevels, MatchRequestError> {
        let bad = |s: String| Err(MatchRequestError::Value(s));
        let tc = self.tc;
        // With a clock the depth is a maximum, and deeper ones make sense.
        let ((max_a, with_a), (max_b, with_b)) = (depth_limit(tc[0]), depth_limit(tc[1]));
        let default = |k: usize| match tc[k] {
            Some(_) => MAX_TIMED_DEPTH,
            None => MATCH_DEPTH,
        };
        let depth = self.depth.unwrap_or(default(0));
        if depth == 0 || depth > max_a {
            return bad(format!("--depth {depth} must be 1..{max_a}{with_a}"));
        }
        let depth_b = self.depth_b.or(self.depth).unwrap_or(default(1));
        if depth_b == 0 || depth_b > max_b {
            return bad(match self.depth_b {
                Some(d) => format!("--depth-b {d} must be 1..{max_b}{with_b}"),
                None => format!("--depth {depth_b} must be 1..{max_b}{with_b} for B"),
            });
        }
        if let Some(g) = self.games.filter(|g| *g == 0 || *g > MAX_MATCH_GAMES) {
            return bad(format!("--games {g} must be 1..{MAX_MATCH_GAMES}"));
        }
        let time_margin = check_margin(self.time_margin_ms.unwrap_or(0))?;
        let move_timeout = match self.move_timeout_s {
            None => None,
            Some(s) => Some(check_timeout("--move-timeout", s)?),
        };
        Ok(MatchLevels {
            tc,
            depths: [depth, depth_b],
            time_margin,
            move_timeout,
        })
    }

    /// The games the match plays from a book of `book` positions: those asked for, rounded up
    /// to even; else the book once, each position twice, or with an SPRT ([`SPRT_GAMES`])
    /// until it decides.
    pub fn games(&self, book: usize, sprt: bool) -> usize {
        match self.games {
            Some(g) => g.div_ceil(2) * 2,
            None if sprt => SPRT_GAMES,
            None => book * 2,
        }
    }

    /// The pairs of openings to read from the book: those the games asked for need (None: the
    /// whole book).
    pub fn pairs(&self) -> Option<usize> {
        self.games.map(|g| g.div_ceil(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_searches_to_four_without_a_clock_and_to_the_timed_maximum_on_one() {
        let tc: Option<TimeControl> = "0.1".parse().ok();
        let plain = MatchRequest::default().check().unwrap();
        assert_eq!(plain.depths, [MATCH_DEPTH, MATCH_DEPTH]);
        let clocked = MatchRequest {
            tc: [None, tc],
            ..MatchRequest::default()
        };
        assert_eq!(
            clocked.check().unwrap().depths,
            [MATCH_DEPTH, MAX_TIMED_DEPTH]
        );
        let both = MatchRequest {
            depth: Some(6),
            ..clocked.clone()
        };
        assert_eq!(both.check().unwrap().depths, [6, 6]);
        let deep = MatchRequest {
            depth: Some(40),
            ..MatchRequest::default()
        };
        assert!(deep
            .check()
            .unwrap_err()
            .to_string()
            .starts_with("--depth 40 must be 1.."));
        let b = MatchRequest {
            depth_b: Some(0),
            ..MatchRequest::default()
        };
        assert!(b
            .check()
            .unwrap_err()
            .to_string()
            .starts_with("--depth-b 0 must be 1.."));
        let games = MatchRequest {
            games: Some(0),
            ..MatchRequest::default()
        };
        assert_eq!(
            games.check().unwrap_err().to_string(),
            "--games 0 must be 1..100000"
        );
        let slow = MatchRequest {
            move_timeout_s: Some(0.0),
            ..MatchRequest::default()
        };
        let e = slow.check().unwrap_err().to_string();
        assert_eq!(
            e,
            "--move-timeout 0 must be above 0 and at most 86400 seconds"
        );
        let margin = MatchRequest {
            time_margin_ms: Some(3_600_001),
            ..MatchRequest::default()
        };
        let e = margin.check().unwrap_err().to_string();
        assert_eq!(e, "--time-margin 3600001 must be 0..3600000 milliseconds");
        assert_eq!(MatchRequest::default().games(156, false), 312);
        assert_eq!(MatchRequest::default().games(156, true), SPRT_GAMES);
        let odd = MatchRequest {
            games: Some(7),
            ..MatchRequest::default()
        };
        assert_eq!((odd.games(156, true), odd.pairs()), (8, Some(4)));
    }
}
