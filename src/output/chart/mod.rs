//! SVG charts, the same for `history --svg` and the HTML report: nice ticks ([`axis`]), a
//! legend laid out by its text's length ([`legend`]) and a line chart with optional bands and
//! a second y axis ([`line`](mod@line)). A chart is SVG text, standalone (with its XML
//! declaration) or inline in a page; it is drawn with presentation attributes and classes, so
//! a page's CSS may restyle it and a standalone file looks the same without one.
//!
//! Files, bottom up: `svg`, `axis`, `legend`, `line`.

pub mod axis;
pub mod legend;
pub mod line;
pub mod svg;

pub use axis::{nice_step, tick_label};
pub use line::{Axis, AxisSide, LineChart, Series};
pub use svg::xml_escape;

#[cfg(test)]
mod tests {
    use super::{LineChart, Series};

    /// A line chart is SVG text with a path per series (once the module's doc example).
    #[test]
    fn a_line_chart_is_svg_with_a_path_per_series() {
        let mut chart = LineChart::new("Points", 600.0, 300.0);
        let best = vec![(1.0, 3.0), (2.0, 5.0)];
        chart
            .series
            .push(Series::line("best points", "best", "#d62728", best));
        let svg = chart.svg();
        assert!(svg.starts_with("<svg") && svg.contains("<path class=\"best\""));
    }
}
