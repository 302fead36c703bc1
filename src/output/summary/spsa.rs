//! What `history` and `report` show of an SPSA session: θ at each step its history kept, as a
//! table ([`spsa_history_table`]) and as a chart of each parameter's place in its declared
//! range over the steps ([`spsa_chart`]).

use crate::genome::EngineSpec;
use crate::matchplay::Wdl;
use crate::spsa::SpsaPoint;
use crate::store::SpsaSession;

/// θ at the steps the session's history kept: the start, every `history_every` steps, and the
/// last whole step.
pub fn spsa_points(s: &SpsaSession) -> Vec<SpsaPoint> {
    s.state.result(false).history
}

/// The games lost by an engine's fault in the steps since the point before each of `points`
/// (0 at the start); None where the history did not keep them (a checkpoint of format 1).
pub fn spsa_faults(points: &[SpsaPoint]) -> Vec<Option<u64>> {
    let mut before = None;
    points
        .iter()
        .map(|p| {
            let since = if p.step == 0 {
                Some(0)
            } else {
                Some(p.faults? - before?)
            };
            before = p.faults;
            since
        })
        .collect()
}

/// The history as a table: one row per kept step (its number, the games played by then, the
/// games lost by a fault since the row before (`?` where not kept), on a clock what the
/// games since the row before did with it (mean depth, ms a move, time left at the end under a
/// game clock, games lost on time), and θ of every parameter,
/// one decimal), under a row of the engine's names; when `elo` names any step, an Elo column
/// against a reference (`elo` pairs a step with the match result of its values).
pub fn spsa_history_table(s: &SpsaSession, elo: &[(u64, Wdl)]) -> String {
    points_table(&s.state.spec, "step", &spsa_points(s), elo)
}

/// A one-file tuner's history as a table ([`spsa_history_table`]'s, whichever tuner's: CMA-ES
/// gives its answer at the generations it kept): `step` names the first column.
pub fn points_table(
    spec: &EngineSpec,
    step: &str,
    points: &[SpsaPoint],
    elo: &[(u64, Wdl)],
) -> String {
    let tuned = &spec.tuned;
    let widths: Vec<usize> = tuned.iter().map(|t| t.name.len().max(7)).collect();
    let w0 = step.len().max(6);
    let mut head = format!("{step:>w0$} {:>8} {:>6}", "games", "faults");
    // On a clock: what the games of the steps since the row before did with it.
    let clock = spec.tc;
    let game_clock = matches!(clock, Some(crate::clock::TimeControl::Game { .. }));
    if clock.is_some() {
        head += &super::history::time_head(game_clock);
    }
    for (t, w) in tuned.iter().zip(&widths) {
        head += &format!(" {:>w$}", t.name);
    }
    if !elo.is_empty() {
        head += "  Elo vs reference (W/D/L)";
    }
    let mut lines = vec![head];
    for (p, f) in points.iter().zip(spsa_faults(points)) {
        let f = f.map_or("?".to_string(), |f| f.to_string());
        let mut row = format!("{:>w0$} {:>8} {f:>6}", p.step, p.games);
        if clock.is_some() {
            if p.step == 0 {
                let left = if game_clock {
                    " ".repeat(7)
                } else {
                    String::new()
                };
                row += &format!(" {:>5} {:>7}{left} {:>9}", "", "", "");
            } else {
                row += &super::history::time_cells(p.time.as_ref(), game_clock);
            }
        }
        for (x, w) in p.theta.iter().zip(&widths) {
            row += &format!(" {x:>w$.1}");
        }
        if let Some((_, w)) = elo.iter().find(|(x, _)| *x == p.step) {
            row += &format!("  {}", super::elo_text(w));
        }
        lines.push(row);
    }
    let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    lines.insert(1, "-".repeat(width));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// A line chart of θ over the steps: each parameter's place in its declared range (0% its
/// minimum, 100% its maximum), one line per parameter in the engine's order
/// ([`super::parameter_chart`], as the GA's history of an engine draws its answer).
/// `standalone`: an SVG file (`history --svg`); else an element of the report's page.
pub fn spsa_chart(s: &SpsaSession, standalone: bool) -> String {
    let title = format!("SPSA session '{}' of {}", s.name, s.state.spec.name);
    points_chart(&title, &s.state.spec, "step", spsa_points(s), standalone)
}

/// A one-file tuner's history as a chart ([`spsa_chart`]'s, whichever tuner's): `title` names
/// the session, `step` the x axis.
pub fn points_chart(
    title: &str,
    spec: &EngineSpec,
    step: &str,
    points: Vec<SpsaPoint>,
    standalone: bool,
) -> String {
    let title = format!("{title}: each parameter's place in its declared range");
    let points: Vec<(f64, Vec<f64>)> = points
        .into_iter()
        .map(|p| (p.step as f64, p.theta))
        .collect();
    super::parameter_chart(&title, spec, step, &points, standalone)
}
