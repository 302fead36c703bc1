//! What `history` and `report` show of an SPSA session: θ at each step its history kept, as a
//! table ([`spsa_history_table`]) and as a chart of each parameter's place in its declared
//! range over the steps ([`spsa_chart`]).

use crate::chart::{LineChart, Series};
use crate::spsa::SpsaPoint;
use crate::store::SpsaSession;

/// The colours of the chart's lines, in turn.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// The most points of a line (longer histories are sampled evenly, the last point always in).
const MAX_POINTS: usize = 600;

/// θ at the steps the session's history kept: the start, every `history_every` steps, and the
/// last whole step.
pub fn spsa_points(s: &SpsaSession) -> Vec<SpsaPoint> {
    s.state.result(false).history
}

/// The history as a table: one row per kept step (its number, the games played by then and
/// θ of every parameter, one decimal), under a row of the engine's names.
pub fn spsa_history_table(s: &SpsaSession) -> String {
    let tuned = &s.state.spec.tuned;
    let widths: Vec<usize> = tuned.iter().map(|t| t.name.len().max(7)).collect();
    let mut head = format!("{:>6} {:>8}", "step", "games");
    for (t, w) in tuned.iter().zip(&widths) {
        head += &format!(" {:>w$}", t.name);
    }
    let mut lines = vec![head];
    for p in spsa_points(s) {
        let mut row = format!("{:>6} {:>8}", p.step, p.games);
        for (x, w) in p.theta.iter().zip(&widths) {
            row += &format!(" {x:>w$.1}");
        }
        lines.push(row);
    }
    let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    lines.insert(1, "-".repeat(width));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The indices of `len` points to draw: all of them, or [`MAX_POINTS`] spread evenly with the
/// last one in.
fn sampled(len: usize) -> Vec<usize> {
    if len <= MAX_POINTS {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..MAX_POINTS)
        .map(|k| k * (len - 1) / (MAX_POINTS - 1))
        .collect();
    v.dedup();
    v
}

/// A line chart of θ over the steps: each parameter's place in its declared range (0% its
/// minimum, 100% its maximum), one line per parameter in the engine's order. `standalone`: an
/// SVG file (`history --svg`); else an element of the report's page.
pub fn spsa_chart(s: &SpsaSession, standalone: bool) -> String {
    let spec = &s.state.spec;
    let title = format!(
        "SPSA session '{}' of {}: each parameter's place in its declared range",
        s.name, spec.name
    );
    let mut chart = LineChart::new(&title, if standalone { 800.0 } else { 960.0 }, 420.0);
    chart.standalone = standalone;
    if !standalone {
        chart.id = Some("theta-chart".to_string());
    }
    chart.x_label = "step".to_string();
    chart.left.label = "% of the declared range".to_string();
    let points = spsa_points(s);
    let shown = sampled(points.len());
    for (i, t) in spec.tuned.iter().enumerate() {
        let span = (t.max - t.min) as f64;
        let line = shown
            .iter()
            .map(|&k| {
                let p = &points[k];
                (p.step as f64, 100.0 * (p.theta[i] - t.min as f64) / span)
            })
            .collect();
        let colour = PALETTE[i % PALETTE.len()];
        chart
            .series
            .push(Series::line(&t.name, &format!("theta-{i}"), colour, line));
    }
    chart.svg()
}

#[cfg(test)]
mod tests {
    use super::sampled;

    #[test]
    fn long_histories_are_sampled_with_their_ends() {
        assert_eq!(sampled(3), vec![0, 1, 2]);
        let s = sampled(10_000);
        assert_eq!(s.len(), 600);
        assert_eq!((s[0], *s.last().unwrap()), (0, 9_999));
    }
}
