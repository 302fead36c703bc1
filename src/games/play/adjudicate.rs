//! Draw and resign adjudication as cutechess-cli does it: a game whose engines have agreed for
//! long enough that it is even, or that one side is lost, is ended there instead of being played
//! out. Scores are the engines' own, from the side that moved, in hundredths of a man
//! ("centi-men", as cutechess's centipawns).
//!
//! - Draw (`--draw-adjudication MOVENUMBER,MOVECOUNT,SCORE`): from full move `move_number` on,
//!   both engines' scores within +/-`score` for `move_count` consecutive moves each. A score
//!   outside the window starts the count again for both.
//! - Resign (`--resign-adjudication MOVECOUNT,SCORE`): one engine scores at most -`score` for
//!   `move_count` consecutive moves of its own and its opponent at least +`score` for each of
//!   its moves in between; the first engine loses.
//!
//! A move without a score (a forced move played without a search, or an engine that gave none)
//! neither counts nor breaks a count: in checkers many moves are forced captures, and cutechess's
//! rule of starting again on a move without a search would seldom let a count reach its end.
//!
//! # Example
//!
//! ```
//! use checkers_ga::matchplay::{Adjudication, Adjudicator, DrawAdjudication};
//! use checkers_ga::Color;
//!
//! let rule = Adjudication {
//!     draw: Some(DrawAdjudication { move_number: 2, move_count: 2, score: 10 }),
//!     resign: None,
//! };
//! let mut a = Adjudicator::new(&rule);
//! assert_eq!(a.record(Color::Black, 1, Some(5)), None);
//! assert_eq!(a.record(Color::White, 1, Some(-3)), None);
//! assert_eq!(a.record(Color::Black, 2, Some(0)), None);
//! assert_eq!(a.record(Color::White, 2, Some(8)), Some(None)); // a draw
//! ```

use crate::board::Color;

/// Draw adjudication: from full move `move_number` on, both engines' scores within
/// +/-`score` centi-men for `move_count` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawAdjudication {
    /// The first full move (1, 2, ...) at which a draw may be adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each engine within the window.
    pub move_count: u32,
    /// The window's half-width, in hundredths of a man.
    pub score: i32,
}

/// Resign adjudication: an engine at or below -`score` centi-men for `move_count` consecutive
/// moves while its opponent is at or above +`score` loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResignAdjudication {
    /// Consecutive moves of the losing engine at or below -`score`.
    pub move_count: u32,
    /// The threshold, in hundredths of a man (positive).
    pub score: i32,
}

/// The adjudication rules of a match (both off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Adjudication {
    /// Draw adjudication, if on.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication, if on.
    pub resign: Option<ResignAdjudication>,
}

impl Adjudication {
    /// Neither rule is on.
    pub fn is_off(&self) -> bool {
        self.draw.is_none() && self.resign.is_none()
    }
}

/// A rule's text that is not one: one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AdjudicationError(pub String);

/// `text`'s comma-separated numbers, `names.len()` of them, each at least `min[i]`.
fn numbers(text: &str, names: &[&str], min: &[i64]) -> Result<Vec<i64>, AdjudicationError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != names.len() {
        return Err(AdjudicationError(format!(
            "'{text}' must be {} (e.g. {})",
            names.join(","),
            if names.len() == 3 { "40,8,10" } else { "4,400" }
        )));
    }
    let mut out = Vec::new();
    for ((t, name), &lo) in parts.iter().zip(names).zip(min) {
        let v: i64 = t.parse().map_err(|_| {
            AdjudicationError(format!("{name} '{t}' in '{text}' is not a whole number"))
        })?;
        if !(lo..=1_000_000).contains(&v) {
            return Err(AdjudicationError(format!(
                "{name} {v} in '{text}' must be {lo}..1000000"
            )));
        }
        out.push(v);
    }
    Ok(out)
}

impl std::str::FromStr for DrawAdjudication {
    type Err = AdjudicationError;
    /// `MOVENUMBER,MOVECOUNT,SCORE` (e.g. `40,8,10`): move number at least 1, count at least 1,
    /// score at least 0 centi-men.
    fn from_str(s: &str) -> Result<DrawAdjudication, AdjudicationError> {
        let v = numbers(s, &["MOVENUMBER", "MOVECOUNT", "SCORE"], &[1, 1, 0])?;
        Ok(DrawAdjudication {
            move_number: v[0] as u32,
            move_count: v[1] as u32,
            score: v[2] as i32,
        })
    }
}

impl std::str::FromStr for ResignAdjudication {
    type Err = AdjudicationError;
    /// `MOVECOUNT,SCORE` (e.g. `4,400`): count at least 1, score at least 1 centi-man.
    fn from_str(s: &str) -> Result<ResignAdjudication, AdjudicationError> {
        let v = numbers(s, &["MOVECOUNT", "SCORE"], &[1, 1])?;
        Ok(ResignAdjudication {
            move_count: v[0] as u32,
            score: v[1] as i32,
        })
    }
}

impl std::fmt::Display for Adjudication {
    /// `draw from move 40 after 8 moves within +/-10 cm, resign after 4 moves at -400 cm`, or
    /// `off`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.draw {
            parts.push(format!(
                "draw from move {} after {} moves within +/-{} cm",
                d.move_number, d.move_count, d.score
            ));
        }
        if let Some(r) = self.resign {
            parts.push(format!(
                "resign after {} moves at -{} cm",
                r.move_count, r.score
            ));
        }
        if parts.is_empty() {
            f.write_str("off")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

fn slot(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The adjudication of one game: fed every move's score, it says when the game is decided.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Black's and White's consecutive scored moves within the draw window.
    draw_run: [u32; 2],
    /// Scored moves recorded so far: the time of each.
    time: u64,
    /// The times of Black's and White's last scored moves at or below -resign score, at most
    /// the resign count of them, all consecutive moves of that side.
    low: [std::collections::VecDeque<u64>; 2],
    /// The time of Black's and White's last scored move below +resign score.
    last_below: [Option<u64>; 2],
}

impl Adjudicator {
    /// A game's adjudicator under `rules`, before its first move.
    pub fn new(rules: &Adjudication) -> Adjudicator {
        Adjudicator {
            rules: *rules,
            draw_run: [0; 2],
            time: 0,
            low: Default::default(),
            last_below: [None; 2],
        }
    }

    /// Records the score (centi-men, from `side`'s point of view) of the move `side` just made
    /// in full move `full_move` (1 for the game's first two plies); None: the move had no score
    /// (a forced move), which neither counts nor breaks a count. Returns Some(None) when the
    /// game is to be adjudicated a draw, Some(Some(c)) when `c` is to lose (the caller calls
    /// [`crate::Game::adjudicate`]), None to play on.
    pub fn record(
        &mut self,
        side: Color,
        full_move: u32,
        score: Option<i32>,
    ) -> Option<Option<Color>> {
        let s = score?;
        let (me, other) = (slot(side), 1 - slot(side));
        if let Some(d) = self.rules.draw {
            if s.abs() <= d.score {
                self.draw_run[me] += 1;
            } else {
                self.draw_run = [0; 2];
            }
            if full_move >= d.move_number && self.draw_run.iter().all(|&n| n >= d.move_count) {
                return Some(None);
            }
        }
        if let Some(r) = self.rules.resign {
            let t = self.time;
            self.time += 1;
            let low = &mut self.low[me];
            if s <= -r.score {
                low.push_back(t);
                if low.len() > r.move_count as usize {
                    low.pop_front();
                }
            } else {
                low.clear();
            }
            if s < r.score {
                self.last_below[me] = Some(t);
            }
            // The window: this side's last `move_count` moves, all low; the opponent's moves
            // since the first of them all at or above +score.
            if low.len() >= r.move_count as usize
                && low
                    .front()
                    .is_some_and(|&w0| self.last_below[other].is_none_or(|b| b < w0))
            {
                return Some(Some(side));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn draw(move_number: u32, move_count: u32, score: i32) -> Adjudicator {
        Adjudicator::new(&Adjudication {
            draw: Some(DrawAdjudication {
                move_number,
                move_count,
                score,
            }),
            resign: None,
        })
    }

    fn resign(move_count: u32, score: i32) -> Adjudicator {
        Adjudicator::new(&Adjudication {
            draw: None,
            resign: Some(ResignAdjudication { move_count, score }),
        })
    }

    /// Feeds (side, full move, score) from Black's first move on; the ply at which it decided.
    fn feed(a: &mut Adjudicator, scores: &[Option<i32>]) -> Option<(usize, Option<Color>)> {
        for (ply, s) in scores.iter().enumerate() {
            let side = if ply % 2 == 0 { Black } else { White };
            if let Some(d) = a.record(side, ply as u32 / 2 + 1, *s) {
                return Some((ply, d));
            }
        }
        None
    }

    #[test]
    fn off_never_decides() {
        let mut a = Adjudicator::new(&Adjudication::default());
        assert!(Adjudication::default().is_off());
        for ply in 0..200 {
            let side = if ply % 2 == 0 { Black } else { White };
            assert_eq!(a.record(side, ply / 2 + 1, Some(0)), None);
            assert_eq!(a.record(side, ply / 2 + 1, Some(-100_000)), None);
        }
    }

    #[test]
    fn draw_needs_both_engines_in_the_window_for_the_count_and_the_move_number() {
        // Count 3 each, within +/-10: six plies in the window; move number 1.
        let mut a = draw(1, 3, 10);
        assert_eq!(feed(&mut a, &[Some(0); 5]), None);
        assert_eq!(a.record(White, 3, Some(-10)), Some(None));

        // A score outside the window starts both counts again.
        let mut a = draw(1, 2, 10);
        let s = [
            Some(0),
            Some(0),
            Some(0),
            Some(11),
            Some(0),
            Some(0),
            Some(0),
        ];
        assert_eq!(feed(&mut a, &s), None);
        let mut a = draw(1, 2, 10);
        let s = [
            Some(0),
            Some(0),
            Some(0),
            Some(11),
            Some(0),
            Some(0),
            Some(0),
            Some(0),
        ];
        assert_eq!(feed(&mut a, &s), Some((7, None)));

        // Not before the move number, though the count was reached long before.
        let mut a = draw(5, 1, 10);
        let got = feed(&mut a, &[Some(3); 20]);
        assert_eq!(got, Some((8, None)), "ply 8 is Black's move of full move 5");

        // Scoreless moves neither count nor break the count.
        let mut a = draw(1, 2, 10);
        let s = [Some(0), None, None, Some(0), Some(0), None, None, Some(0)];
        assert_eq!(feed(&mut a, &s), Some((7, None)));
    }

    #[test]
    fn resign_needs_the_loser_low_and_the_winner_high_throughout() {
        // White at -400 or below for 3 of its moves, Black at +400 or above in between.
        let mut a = resign(3, 400);
        let s = [
            Some(500),
            Some(-450),
            Some(400),
            Some(-400),
            Some(900),
            Some(-1000),
        ];
        assert_eq!(feed(&mut a, &s), Some((5, Some(White))));

        // The winner not agreeing once (a score below +400) spoils the windows that span it:
        // the loser needs 3 moves after it, the winner at +400 in between.
        let mut a = resign(3, 400);
        let s = [
            Some(500),
            Some(-450),
            Some(300),
            Some(-450),
            Some(500),
            Some(-450),
        ];
        assert_eq!(feed(&mut a, &s), None);
        // Ply 7: White's last three moves (plies 3, 5, 7) all low, Black's in between (4, 6)
        // high.
        assert_eq!(a.record(Black, 4, Some(500)), None);
        assert_eq!(a.record(White, 4, Some(-450)), Some(Some(White)));

        // The loser's score rising above -400 once breaks its run.
        let mut a = resign(2, 400);
        let s = [
            Some(-500),
            Some(600),
            Some(-399),
            Some(600),
            Some(-500),
            Some(600),
        ];
        assert_eq!(feed(&mut a, &s), None);
        assert_eq!(a.record(Black, 4, Some(-500)), Some(Some(Black)));

        // Black can be the loser too, and with a count of 1 one move is enough.
        let mut a = resign(1, 300);
        assert_eq!(feed(&mut a, &[Some(-300)]), Some((0, Some(Black))));
    }

    #[test]
    fn both_rules_at_once_and_the_texts() {
        let rules = Adjudication {
            draw: Some("1,2,10".parse().unwrap()),
            resign: Some("2,400".parse().unwrap()),
        };
        let mut a = Adjudicator::new(&rules);
        let s = [Some(5), Some(-5), Some(-800), Some(800), Some(-800)];
        assert_eq!(feed(&mut a, &s), Some((4, Some(Black))));
        assert_eq!(
            rules.to_string(),
            "draw from move 1 after 2 moves within +/-10 cm, resign after 2 moves at -400 cm"
        );
        assert_eq!(Adjudication::default().to_string(), "off");
        for bad in [
            "", "1,2", "1,2,3,4", "0,8,10", "40,0,10", "40,8,-1", "a,8,10", "40,8,1e3",
        ] {
            assert!(bad.parse::<DrawAdjudication>().is_err(), "'{bad}'");
        }
        for bad in ["", "4", "0,400", "4,0", "4,-400", "4,x", "4,400,1"] {
            assert!(bad.parse::<ResignAdjudication>().is_err(), "'{bad}'");
        }
        assert_eq!(
            "4, 400".parse::<ResignAdjudication>(),
            Ok(ResignAdjudication {
                move_count: 4,
                score: 400
            })
        );
    }
}
