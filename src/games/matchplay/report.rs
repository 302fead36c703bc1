//! The text a match prints: [`MatchHeader`] before its games, [`RunningScore`] on its progress
//! line, [`MatchReport`] after them; and its result as JSON ([`MatchJson`], `--json`).

use super::run::{MatchEnd, MatchResult, MatchRun, Score};
use super::stats::{elo, elo_number, Sprt, SprtVerdict};
use crate::board::Color;
use crate::game::EndReason;
use crate::side::{Contestant, DEFAULT_MOVE_TIMEOUT};
use serde_json::{json, Value};
use std::fmt::{self, Display, Formatter};
use std::path::Path;
use std::time::Duration;

/// The move timeout of an outside engine's side (None: ours, or a person).
fn move_timeout(c: &Contestant) -> Option<Duration> {
    match c {
        Contestant::Outside(h) => Some(h.move_timeout),
        _ => None,
    }
}

/// What a match says before its games: the engines, their depths (or the clock and their
/// maximum depths), the number of games and the seed; with an SPRT, its hypotheses.
pub struct MatchHeader<'a> {
    /// The match.
    pub run: &'a MatchRun<'a>,
    /// Engine A.
    pub a: &'a Contestant,
    /// Engine B.
    pub b: &'a Contestant,
}

impl Display for MatchHeader<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (a, b, run) = (self.a, self.b, self.run);
        // Every side of a match is asked for a depth; an outside one at its own level says so.
        let depth = |c: &Contestant| c.depth().map_or("its own".to_string(), |d| d.to_string());
        let (da, db) = (depth(a), depth(b));
        let (a, b) = (a.name(), b.name());
        let (total, seed) = (run.games, run.seed);
        let book = 2 * run.starts.len();
        // An SPRT run past the book plays until it decides: its game count is a cap.
        let total = if run.sprt.is_some() && total > book {
            format!("up to {total}")
        } else {
            total.to_string()
        };
        match &run.tc {
            [None, None] => writeln!(
                f,
                "A: {a}  B: {b}  depth {da}/{db}  {total} games  seed {seed}"
            )?,
            [Some(tc), Some(tb)] if tc == tb => writeln!(
                f,
                "A: {a}  B: {b}  tc {tc}  max depth {da}/{db}  {total} games  seed {seed}"
            )?,
            [ta, tb] => {
                let side = |tc: &Option<_>, d: &str| match tc {
                    Some(tc) => format!("tc {tc} max depth {d}"),
                    None => format!("depth {d}"),
                };
                writeln!(
                    f,
                    "A: {a}  B: {b}  A {}, B {}  {total} games  seed {seed}",
                    side(ta, &da),
                    side(tb, &db)
                )?
            }
        }
        if run.games > book && book > 0 {
            let rounds = match run.sprt {
                Some(_) => "as many as the SPRT needs".to_string(),
                None => run.games.div_ceil(book).to_string(),
            };
            writeln!(
                f,
                "Rounds: {rounds} of the {} openings, ties broken anew each round",
                run.starts.len()
            )?;
        }
        if let Some(s) = &run.sprt {
            writeln!(
                f,
                "SPRT: H0 elo {}, H1 elo {} (logistic Elo), alpha {}, beta {}",
                s.elo0, s.elo1, s.alpha, s.beta
            )?;
        }
        if !run.adjudication.is_off() {
            writeln!(f, "Adjudication: {}", run.adjudication)?;
        }
        if !run.time_margin.is_zero() {
            writeln!(f, "Time margin: {} ms", run.time_margin.as_millis())?;
        }
        // Said when an outside side's is not the default: one for both, or each side's.
        let [ta, tb] = [move_timeout(self.a), move_timeout(self.b)];
        let set = |t: &Option<Duration>| t.is_some_and(|t| t != DEFAULT_MOVE_TIMEOUT);
        if set(&ta) || set(&tb) {
            match (ta, tb) {
                (Some(x), Some(y)) if x != y => writeln!(
                    f,
                    "Move timeout: A {} s, B {} s",
                    x.as_secs_f64(),
                    y.as_secs_f64()
                )?,
                (Some(t), _) | (None, Some(t)) => {
                    writeln!(f, "Move timeout: {} s", t.as_secs_f64())?
                }
                (None, None) => {}
            }
        }
        Ok(())
    }
}

/// What a match says after its games: whether it was interrupted, W/D/L, the score, the Elo
/// difference with its interval, the pentanomial counts, the SPRT's ratio and verdict, with a
/// clock the engines' depths, speeds and time losses, the time taken and where the PDN went.
pub struct MatchReport<'a> {
    /// The match.
    pub run: &'a MatchRun<'a>,
    /// What it produced.
    pub result: &'a MatchResult,
    /// The wall-clock time it took.
    pub seconds: f64,
    /// The file its games were appended to, if any.
    pub pdn: Option<&'a Path>,
}

/// `s` after a count of one, else nothing.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Display for MatchReport<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let result = self.result;
        let (wdl, games) = (result.wdl, &result.games);
        let plies: usize = games.iter().map(|g| g.game.plies()).sum();
        if result.end == MatchEnd::Interrupted {
            writeln!(
                f,
                "Interrupted: the result of the {} finished game{}",
                games.len(),
                plural(games.len())
            )?;
        }
        writeln!(f, "W/D/L for A: {wdl}")?;
        writeln!(
            f,
            "Score: {:.1}/{} ({:.1} %)",
            wdl.score(),
            wdl.games(),
            100.0 * wdl.score() / wdl.games().max(1) as f64
        )?;
        let e = elo(&wdl);
        writeln!(f, "Elo difference: {e}")?;
        writeln!(
            f,
            "95% interval: {} .. {}",
            elo_number(e.low),
            elo_number(e.high)
        )?;
        writeln!(f, "Pentanomial [0, 0.5, 1, 1.5, 2]: {}", result.pentanomial)?;
        if let Some(s) = &self.run.sprt {
            let (lower, upper) = s.bounds();
            writeln!(
                f,
                "LLR: {:.2} ({lower:.2}, {upper:.2})",
                s.llr(&result.pentanomial)
            )?;
            let pairs = result.pentanomial.pairs();
            let verdict = match result.end {
                MatchEnd::Sprt(SprtVerdict::H0) => format!("H0 accepted after {pairs} pairs"),
                MatchEnd::Sprt(SprtVerdict::H1) => format!("H1 accepted after {pairs} pairs"),
                MatchEnd::Complete => format!("inconclusive at the game limit ({pairs} pairs)"),
                MatchEnd::Interrupted => format!("inconclusive, interrupted after {pairs} pairs"),
            };
            writeln!(f, "SPRT result: {verdict}")?;
        }
        let [la, lb] = result.losses;
        if !self.run.adjudication.is_off()
            || result.adjudicated_draws + la.adjudicated + lb.adjudicated > 0
        {
            writeln!(
                f,
                "Adjudicated: {} draw{}, losses A {}, B {}",
                result.adjudicated_draws,
                plural(result.adjudicated_draws as usize),
                la.adjudicated,
                lb.adjudicated
            )?;
        }
        if la.faults + lb.faults > 0 {
            writeln!(f, "Faults (games lost): A {}, B {}", la.faults, lb.faults)?;
            // Why, engine by engine: each kind of fault, how often, and the first game's words.
            for (engine, a) in [("A", true), ("B", false)] {
                let mut kinds: Vec<(crate::game::EngineFault, usize, usize, Option<&str>)> =
                    Vec::new();
                for g in &result.games {
                    if let Some((_, crate::game::EndReason::Fault(c, k))) = g.game.result() {
                        if (c == crate::board::Color::Black) == (g.a_is_black == a) {
                            match kinds.iter_mut().find(|x| x.0 == k) {
                                Some(x) => x.1 += 1,
                                None => kinds.push((k, 1, g.index + 1, g.game.note())),
                            }
                        }
                    }
                }
                for (k, n, first, note) in kinds {
                    let note = note.map(|t| format!(": {t}")).unwrap_or_default();
                    writeln!(
                        f,
                        "  {engine} {k} in {n} game{} (game {first}{note})",
                        plural(n)
                    )?;
                }
            }
        }
        if self.run.tc.iter().any(Option::is_some) {
            let [ta, tb] = result.timing.unwrap_or_default();
            writeln!(
                f,
                "Mean depth: A {:.1}, B {:.1}",
                ta.stats.mean_depth(),
                tb.stats.mean_depth()
            )?;
            writeln!(
                f,
                "Nodes/s: A {:.2} M, B {:.2} M",
                ta.stats.nodes_per_second() / 1e6,
                tb.stats.nodes_per_second() / 1e6
            )?;
            writeln!(f, "Time losses: A {}, B {}", la.time, lb.time)?;
        }
        let secs = self.seconds;
        // Moves the players made, the openings' left out: none when every game ended (a fault,
        // a handshake never finished) before either side moved.
        let played = games
            .iter()
            .map(|g| {
                g.game
                    .plies()
                    .saturating_sub(self.run.start_of(g.index).moves.len())
            })
            .sum::<usize>();
        let length = if played == 0 && !games.is_empty() {
            "no game got past its opening".to_string()
        } else {
            format!("{:.1} plies/game", plies as f64 / games.len().max(1) as f64)
        };
        writeln!(
            f,
            "time {secs:.1} s, {:.1} games/s, {length}",
            wdl.games() as f64 / secs.max(1e-9),
        )?;
        if let Some(path) = self.pdn {
            writeln!(
                f,
                "PDN: {} game{} appended to {}",
                games.len(),
                plural(games.len()),
                path.display()
            )?;
        }
        Ok(())
    }
}

/// The running score of a match, for its progress line: `W/D/L 10/5/3  Elo +40.2 +/- 60.1`,
/// and with an SPRT `  LLR 1.23 (-2.94, 2.94)`.
pub struct RunningScore<'a> {
    /// The counted games so far.
    pub score: &'a Score,
    /// The match's SPRT, if any.
    pub sprt: Option<&'a Sprt>,
}

impl Display for RunningScore<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let e = elo(&self.score.wdl);
        write!(
            f,
            "W/D/L {}  Elo {} +/- {}",
            self.score.wdl,
            elo_number(e.diff),
            elo_number(e.margin)
        )?;
        if let Some(s) = self.sprt {
            let (lower, upper) = s.bounds();
            write!(
                f,
                "  LLR {:.2} ({lower:.2}, {upper:.2})",
                s.llr(&self.score.pentanomial)
            )?;
        }
        Ok(())
    }
}

/// A match's result as JSON (`match --json FILE`; the fields are described in docs/formats.md):
/// the engines, the settings, W/D/L, the pentanomial counts, Elo with its interval, the SPRT's
/// state and verdict, the adjudicated and forfeited games, and every counted game.
pub struct MatchJson<'a> {
    /// The match.
    pub run: &'a MatchRun<'a>,
    /// A and B: their names, their search depths (with a clock, their maximum; None for an
    /// outside engine at its own level) and an outside engine's move timeout.
    pub sides: [&'a Contestant; 2],
    /// What `--openings` named (`ballot`, `start` or a file).
    pub openings: &'a str,
    /// What the match produced.
    pub result: &'a MatchResult,
    /// The wall-clock time it took.
    pub seconds: f64,
}

/// The version of [`MatchJson`]'s layout.
pub const MATCH_JSON_VERSION: u32 = 1;

/// A number, or null when it is not finite (JSON has no infinities).
fn finite(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

/// A short, stable name of a game's end, for scripts.
fn reason_code(r: &EndReason) -> &'static str {
    match r {
        EndReason::NoMoves(_) => "no_moves",
        EndReason::QuietPlies => "quiet_moves",
        EndReason::Repetition => "repetition",
        EndReason::MaxPlies => "move_limit",
        EndReason::Resigned(_) => "resigned",
        EndReason::Time(_) => "time",
        EndReason::Fault(..) => "fault",
        EndReason::AdjudicatedDraw => "adjudicated_draw",
        EndReason::AdjudicatedLoss(_) => "adjudicated_loss",
    }
}

impl MatchJson<'_> {
    /// The result as a JSON value.
    pub fn to_value(&self) -> Value {
        let (run, result) = (self.run, self.result);
        let engine = |k: usize| {
            json!({
                "name": self.sides[k].name(),
                "depth": self.sides[k].depth(),
                "tc": run.tc[k].map(|t| t.to_string()),
                "move_timeout_s": move_timeout(self.sides[k]).map(|t| t.as_secs_f64()),
            })
        };
        // The outside sides' move timeout when they have one (null: no outside side, or two
        // with different ones, which `engines` gives).
        let timeouts: Vec<Duration> = self.sides.iter().filter_map(|c| move_timeout(c)).collect();
        let shared = timeouts
            .first()
            .filter(|t| timeouts.iter().all(|x| x == *t));
        let e = elo(&result.wdl);
        let sprt = run.sprt.map(|s| {
            let (lower, upper) = s.bounds();
            let verdict = match result.end {
                MatchEnd::Sprt(SprtVerdict::H0) => Some("H0"),
                MatchEnd::Sprt(SprtVerdict::H1) => Some("H1"),
                _ => None,
            };
            json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": finite(s.llr(&result.pentanomial)),
                "lower": lower, "upper": upper,
                "verdict": verdict,
            })
        });
        let adj = &run.adjudication;
        let losses = |k: usize| {
            let l = result.losses[k];
            json!({"time": l.time, "faults": l.faults, "adjudicated": l.adjudicated})
        };
        let book = run.starts.len().max(1);
        let games: Vec<Value> = result
            .games
            .iter()
            .map(|g| {
                let (black, white) = if g.a_is_black { (0, 1) } else { (1, 0) };
                let r = g.game.result();
                let points = f64::from(g.half_points_for_a() as u32) / 2.0;
                json!({
                    "index": g.index,
                    "round": run.round_of(g.index),
                    "opening": (g.index / 2) % book + 1,
                    "fen": crate::notation::to_fen(&run.start_of(g.index).position()),
                    "a_color": if g.a_is_black { "black" } else { "white" },
                    "black": self.sides[black].name(),
                    "white": self.sides[white].name(),
                    "result": r.map_or("*", |(o, _)| o.pdn()),
                    "score_a": points,
                    "reason": r.map(|(_, e)| e.to_string()),
                    "reason_code": r.map(|(_, e)| reason_code(&e)),
                    "detail": g.game.note(),
                    "loser": r.and_then(|(_, e)| match e {
                        EndReason::Time(c) | EndReason::Fault(c, _) | EndReason::AdjudicatedLoss(c)
                        | EndReason::NoMoves(c) | EndReason::Resigned(c) => Some(if (c == Color::Black) == g.a_is_black { "A" } else { "B" }),
                        _ => None,
                    }),
                    "plies": g.game.plies(),
                })
            })
            .collect();
        let end = match result.end {
            MatchEnd::Complete => "complete",
            MatchEnd::Sprt(_) => "sprt",
            MatchEnd::Interrupted => "interrupted",
        };
        json!({
            "format": "checkers-ga match",
            "version": MATCH_JSON_VERSION,
            "engines": {"a": engine(0), "b": engine(1)},
            "settings": {
                "openings": self.openings,
                "book_size": run.starts.len(),
                "games": run.games,
                "seed": run.seed,
                "max_plies": run.rules.max_plies,
                "time_margin_ms": run.time_margin.as_millis() as u64,
                "move_timeout_s": shared.map(|t| t.as_secs_f64()),
                "draw_adjudication": adj.draw.map(|d| json!({
                    "move_number": d.move_number, "move_count": d.move_count, "score": d.score,
                })),
                "resign_adjudication": adj.resign.map(|r| json!({
                    "move_count": r.move_count, "score": r.score,
                })),
                "first_ties": run.first_ties,
            },
            "end": end,
            "games_counted": result.games.len(),
            "wdl": {"wins": result.wdl.wins, "draws": result.wdl.draws, "losses": result.wdl.losses},
            "score": result.wdl.score(),
            "pentanomial": result.pentanomial.0,
            "elo": {
                "diff": finite(e.diff), "margin": finite(e.margin),
                "low": finite(e.low), "high": finite(e.high), "los": e.los,
            },
            "sprt": sprt,
            "adjudicated_draws": result.adjudicated_draws,
            "losses": {"a": losses(0), "b": losses(1)},
            "seconds": self.seconds,
            "games": games,
        })
    }

    /// Writes the result to `path` atomically (a temporary file, synced, renamed).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut text =
            serde_json::to_string_pretty(&self.to_value()).map_err(std::io::Error::other)?;
        text.push('\n');
        crate::files::write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Program;
    use crate::matchplay::{load_openings, Pentanomial, Wdl};
    use crate::search::SearchConfig;
    use crate::side::{OurEngine, OutsideEngine};

    fn outside(seconds: u64) -> Contestant {
        Contestant::Outside(OutsideEngine {
            name: "x".into(),
            program: Program::new(vec!["x".into()]),
            depth: Some(3),
            move_timeout: Duration::from_secs(seconds),
        })
    }

    /// Each outside side's move timeout is its own: the header says one that is not the
    /// default, the JSON each engine's.
    #[test]
    fn a_match_says_each_outside_sides_move_timeout() {
        let ours = Contestant::Ours(OurEngine {
            name: "material".into(),
            eval: crate::eval::material().into(),
            config: SearchConfig::with_depth(2),
        });
        let run = MatchRun::new(2, load_openings("ballot", Some(1)).unwrap(), 1);
        let header = |a: &Contestant, b: &Contestant| MatchHeader { run: &run, a, b }.to_string();
        assert!(!header(&ours, &outside(60)).contains("Move timeout"));
        assert!(header(&ours, &outside(5)).contains("Move timeout: 5 s\n"));
        let both = header(&outside(5), &outside(7));
        assert!(both.contains("Move timeout: A 5 s, B 7 s\n"), "{both}");
        // Two outside sides, one at the default: each side's, not one for both.
        let one = header(&outside(5), &outside(60));
        assert!(one.contains("Move timeout: A 5 s, B 60 s\n"), "{one}");
        assert!(!header(&outside(60), &outside(60)).contains("Move timeout"));
        let result = MatchResult {
            wdl: Wdl::default(),
            pentanomial: Pentanomial::default(),
            games: Vec::new(),
            end: MatchEnd::Complete,
            timing: None,
            losses: Default::default(),
            adjudicated_draws: 0,
        };
        let json = |a: &Contestant, b: &Contestant| {
            MatchJson {
                run: &run,
                sides: [a, b],
                openings: "ballot",
                result: &result,
                seconds: 0.0,
            }
            .to_value()
        };
        let v = json(&ours, &outside(5));
        assert_eq!(v["engines"]["a"]["move_timeout_s"], Value::Null);
        assert_eq!(v["engines"]["b"]["move_timeout_s"], json!(5.0));
        assert_eq!(v["settings"]["move_timeout_s"], json!(5.0));
        let v = json(&outside(5), &outside(7));
        assert_eq!(v["settings"]["move_timeout_s"], Value::Null);
        assert_eq!(v["engines"]["a"]["move_timeout_s"], json!(5.0));
    }
}
