//! What the engine writes: a line, an `error` line, and the `info` line of a search with its
//! score.

use crate::board::{Move, Position};
use crate::hub::protocol::{hub_move, HubLine};
use crate::search::{SearchResult, WIN, WIN_BOUND};
use std::io::Write;
use std::time::Duration;

pub(super) fn say<W: Write>(out: &mut W, line: &HubLine) -> anyhow::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

pub(super) fn say_error<W: Write>(out: &mut W, message: &str) -> anyhow::Result<()> {
    say(out, &HubLine::new("error").arg("message", message))
}

/// An `error` line, as text.
pub(super) fn error_text(message: &str) -> String {
    format!("{}\n", HubLine::new("error").arg("message", message))
}

/// A search value as Hub's score in men: a forced win in `p` plies is `100 - p / 100`, an
/// evaluation its value over what one man is worth (`man`; 100 units when None).
fn score(v: i32, man: Option<f64>) -> String {
    if v.abs() > WIN_BOUND {
        let plies = f64::from(WIN - v.abs());
        let s = 100.0 - plies / 100.0;
        return format!("{:.2}", if v > 0 { s } else { -s });
    }
    let men = f64::from(v) / man.unwrap_or(100.0);
    // Evaluations stay below the scores of wins.
    format!("{:.2}", men.clamp(-89.0, 89.0))
}

/// The `info` line of a search: depth (and mean depth, the same), score (when the move was
/// searched), nodes, time, speed in millions of nodes per second, and the move as the PV.
pub(super) fn info_line(
    r: &SearchResult,
    best: Move,
    pos: &Position,
    elapsed: Duration,
    man: Option<f64>,
) -> HubLine {
    let secs = elapsed.as_secs_f64();
    let mut info = HubLine::new("info")
        .arg("depth", r.depth)
        .arg("mean-depth", format!("{:.1}", r.depth as f64));
    if let Some(v) = r.value {
        info = info.arg("score", score(v, man));
    }
    let mnps = if secs > 0.0 {
        r.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    info.arg("nodes", r.nodes)
        .arg("time", format!("{secs:.3}"))
        .arg("nps", format!("{mnps:.2}"))
        .arg("pv", hub_move(pos, &best))
}
