//! The chart both tuners draw of an outside engine's parameters ([`parameter_chart`]): each
//! parameter's place in its declared range over the generations (the GA's answer) or the steps
//! (SPSA's θ); and the line that heads the history of a session of an outside engine, whichever
//! tuner's.

use crate::chart::{LineChart, Series};
use crate::genome::EngineSpec;
use std::path::Path;

/// The head of the history of a session of outside engine `spec`, whichever tuner's, without
/// its line's end: `TUNER session 'NAME' (FILE): engine E, N parameters, LEVEL, seed S;
/// PROGRESS`.
pub(super) fn engine_session_head(
    tuner: &str,
    name: &str,
    file: &Path,
    spec: &EngineSpec,
    seed: u64,
    progress: &str,
) -> String {
    format!(
        "{tuner} session '{name}' ({}): engine {}, {}, {}, seed {seed}; {progress}",
        file.display(),
        spec.engine.name,
        crate::text::count(spec.tuned.len(), "parameter", "parameters"),
        spec.level()
    )
}

/// The colours of the chart's lines, in turn.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// The most points of a line (longer histories are sampled evenly, the last point always in).
const MAX_POINTS: usize = 600;

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

/// A line chart titled `title` of `spec`'s tuned parameters over `points` (each an x, a
/// generation or a step, named by `x_label`, and the values in the order of
/// [`EngineSpec::tuned`], in the engine's units): each parameter's place in its declared range
/// (0% its minimum, 100% its maximum), one line per parameter in the engine's order (the
/// lines' classes `theta-0`, `theta-1`, ...). `standalone`: an SVG file (`history --svg`);
/// else an element of the report's page with the id `theta-chart`.
pub fn parameter_chart(
    title: &str,
    spec: &EngineSpec,
    x_label: &str,
    points: &[(f64, Vec<f64>)],
    standalone: bool,
) -> String {
    let mut chart = LineChart::new(title, if standalone { 800.0 } else { 960.0 }, 420.0);
    chart.standalone = standalone;
    if !standalone {
        chart.id = Some("theta-chart".to_string());
    }
    chart.x_label = x_label.to_string();
    chart.left.label = "% of the declared range".to_string();
    let shown = sampled(points.len());
    for (i, t) in spec.tuned.iter().enumerate() {
        let span = (t.max - t.min) as f64;
        let line = shown
            .iter()
            .filter_map(|&k| {
                let (x, v) = &points[k];
                Some((*x, 100.0 * (v.get(i)? - t.min as f64) / span))
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
