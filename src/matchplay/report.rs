//! The text a match prints: [`MatchHeader`] before its games, [`MatchReport`] after them.

use super::run::{Engine, MatchEnd, MatchResult, MatchRun};
use super::stats::{elo, elo_number, SprtVerdict};
use std::fmt::{self, Display, Formatter};
use std::path::Path;

/// What a match says before its games: the engines, their depths (or the clock and their
/// maximum depths), the number of games and the seed; with an SPRT, its hypotheses.
pub struct MatchHeader<'a> {
    /// The match.
    pub run: &'a MatchRun<'a>,
    /// Engine A.
    pub a: &'a Engine,
    /// Engine B.
    pub b: &'a Engine,
}

impl Display for MatchHeader<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (a, b, run) = (self.a, self.b, self.run);
        let (total, seed) = (run.games, run.seed);
        match &run.tc {
            [None, None] => writeln!(
                f,
                "A: {}  B: {}  depth {}/{}  {total} games  seed {seed}",
                a.name, b.name, a.config.depth, b.config.depth
            )?,
            [Some(tc), Some(tb)] if tc == tb => writeln!(
                f,
                "A: {}  B: {}  tc {tc}  max depth {}/{}  {total} games  seed {seed}",
                a.name, b.name, a.config.depth, b.config.depth
            )?,
            [ta, tb] => {
                let side = |tc: &Option<_>, e: &Engine| match tc {
                    Some(tc) => format!("tc {tc} max depth {}", e.config.depth),
                    None => format!("depth {}", e.config.depth),
                };
                writeln!(
                    f,
                    "A: {}  B: {}  A {}, B {}  {total} games  seed {seed}",
                    a.name,
                    b.name,
                    side(ta, a),
                    side(tb, b)
                )?
            }
        }
        if let Some(s) = &run.sprt {
            writeln!(
                f,
                "SPRT: H0 elo {}, H1 elo {} (logistic Elo), alpha {}, beta {}",
                s.elo0, s.elo1, s.alpha, s.beta
            )?;
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
            writeln!(f, "Time losses: A {}, B {}", ta.time_losses, tb.time_losses)?;
        }
        let secs = self.seconds;
        writeln!(
            f,
            "time {secs:.1} s, {:.1} games/s, {:.1} plies/game",
            wdl.games() as f64 / secs.max(1e-9),
            plies as f64 / games.len().max(1) as f64
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
