//! A line chart over the generations: series on a left and an optional right y axis, each
//! with an optional band (an interval drawn under its line) and dots with tooltips.

use super::axis::{tick_label, Scale};
use super::legend::{Legend, ROW_HEIGHT};
use super::svg::{path_d, xml_escape};
use std::fmt::Write as _;

/// Which y axis a series is drawn against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AxisSide {
    /// The left axis (with the grid).
    #[default]
    Left,
    /// The right axis.
    Right,
}

/// A y axis: its label and, where it is not the ink's, its colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Axis {
    /// What it measures, written along it.
    pub label: String,
    /// The colour of its ticks and label (None: the default ink).
    pub colour: Option<String>,
}

/// One series of a line chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// The class of its path (`{class}`), band (`{class}-band`) and dots (`{class}-points`).
    pub class: String,
    /// Its colour.
    pub colour: String,
    /// The axis it is drawn against.
    pub side: AxisSide,
    /// Its points (x, y); points with a value that is not finite are left out.
    pub points: Vec<(f64, f64)>,
    /// A band (x, low, high) drawn under the line (empty: none).
    pub band: Vec<(f64, f64, f64)>,
    /// The radius of a dot at each point (0: no dots).
    pub dots: f64,
    /// A tooltip per dot (empty: none).
    pub tips: Vec<String>,
    /// The line's width.
    pub width: f64,
}

impl Series {
    /// A plain line: no band, no dots, 2 px wide, on the left axis.
    pub fn line(name: &str, class: &str, colour: &str, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.to_string(),
            class: class.to_string(),
            colour: colour.to_string(),
            points,
            width: 2.0,
            ..Series::default()
        }
    }

    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.points
            .iter()
            .map(|p| p.1)
            .chain(self.band.iter().flat_map(|b| [b.1, b.2]))
            .filter(|v| v.is_finite())
    }
}

/// A line chart: a title, a legend under it (wrapped to more rows when long), a plot with
/// the generation along x, and the series. See [`LineChart::svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// The title, above the legend and as the SVG's `<title>`.
    pub title: String,
    /// The whole width in pixels.
    pub width: f64,
    /// The plot's height in pixels (the chart is as much taller as its title, legend and
    /// axis labels need).
    pub plot_height: f64,
    /// A standalone file (XML declaration, size in pixels, a white background) or an element
    /// inline in a page (class `chart`, scaled by the page).
    pub standalone: bool,
    /// The element's id when inline.
    pub id: Option<String>,
    /// The x axis's label.
    pub x_label: String,
    /// The left y axis.
    pub left: Axis,
    /// The right y axis, when a series uses it.
    pub right: Option<Axis>,
    /// The series, in legend order; drawn the other way round, so the first is on top.
    pub series: Vec<Series>,
}

/// Space left of the plot (tick labels and the axis label).
const LEFT: f64 = 70.0;
/// Space under the plot.
const BOTTOM: f64 = 48.0;
/// The middle of the legend's first row.
const LEGEND_Y: f64 = 48.0;

impl LineChart {
    /// An inline chart titled `title`, `width` by about `height` pixels, with no series yet.
    pub fn new(title: &str, width: f64, height: f64) -> LineChart {
        LineChart {
            title: title.to_string(),
            width,
            plot_height: (height - LEGEND_Y - 20.0 - BOTTOM).max(40.0),
            standalone: false,
            id: None,
            x_label: "generation".to_string(),
            left: Axis::default(),
            right: None,
            series: Vec::new(),
        }
    }

    fn scale(&self, side: AxisSide) -> Scale {
        let (lo, hi) = self
            .series
            .iter()
            .filter(|s| s.side == side)
            .flat_map(Series::values)
            .fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        Scale::values(lo, hi, 6)
    }

    /// The chart as SVG text.
    pub fn svg(&self) -> String {
        let right_w = if self.right.is_some() { 70.0 } else { 24.0 };
        let pw = self.width - LEFT - right_w;
        let items: Vec<(String, String)> = self
            .series
            .iter()
            .map(|s| (s.name.clone(), s.colour.clone()))
            .collect();
        let legend = Legend::place(&items, LEFT, pw);
        let top = LEGEND_Y + ROW_HEIGHT * legend.rows().saturating_sub(1) as f64 + 22.0;
        let ph = self.plot_height;
        let (w, h) = (self.width, top + ph + BOTTOM);
        let xs = self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.0)
                .chain(s.band.iter().map(|b| b.0))
        });
        let (x0, x1) = xs
            .filter(|x| x.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        let xscale = if x0.is_finite() {
            Scale::generations(x0, x1, 10)
        } else {
            Scale::generations(1.0, 1.0, 10)
        };
        let sx = |x: f64| LEFT + xscale.fraction(x) * pw;
        let scales = [self.scale(AxisSide::Left), self.scale(AxisSide::Right)];
        let sy = |side: AxisSide, v: f64| {
            let sc = scales[(side == AxisSide::Right) as usize];
            top + ph - sc.fraction(v) * ph
        };
        let title = xml_escape(&self.title);

        let mut s = String::new();
        if self.standalone {
            s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            let _ = writeln!(
                s,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
                 viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">"
            );
            let _ = writeln!(s, "<title>{title}</title>");
            let _ = writeln!(
                s,
                "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"white\"/>"
            );
        } else {
            let id = self
                .id
                .as_ref()
                .map(|i| format!(" id=\"{}\"", xml_escape(i)))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "<svg class=\"chart\"{id} xmlns=\"http://www.w3.org/2000/svg\" \
                 viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\" \
                 aria-label=\"{title}\"><title>{title}</title>"
            );
        }
        let _ = writeln!(
            s,
            "<text class=\"chart-title\" x=\"{:.1}\" y=\"24\" text-anchor=\"middle\" \
             font-size=\"15\">{title}</text>",
            w / 2.0
        );
        s.push_str(&legend.svg(LEGEND_Y));

        // The y axes: the left one with the grid (and a dashed zero line inside its range).
        for (side, axis) in [
            (AxisSide::Left, Some(&self.left)),
            (AxisSide::Right, self.right.as_ref()),
        ] {
            let Some(axis) = axis else { continue };
            let sc = scales[(side == AxisSide::Right) as usize];
            let left = side == AxisSide::Left;
            let (ax, dir, anchor) = if left {
                (LEFT, -1.0, "end")
            } else {
                (LEFT + pw, 1.0, "start")
            };
            let fill = axis
                .colour
                .as_ref()
                .map(|c| format!(" fill=\"{c}\""))
                .unwrap_or_default();
            let stroke = axis.colour.as_deref().unwrap_or("#8a93a3");
            let _ = writeln!(
                s,
                "<g class=\"y-axis{}\">",
                if left { "" } else { " right" }
            );
            for v in sc.ticks() {
                let y = sy(side, v);
                if left {
                    let _ = writeln!(
                        s,
                        "<line class=\"{}\" x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" \
                         stroke=\"{}\"{}/>",
                        if v == 0.0 && sc.lo < 0.0 { "zero" } else { "grid" },
                        LEFT + pw,
                        if v == 0.0 && sc.lo < 0.0 { "#8a93a3" } else { "#e6e8ec" },
                        if v == 0.0 && sc.lo < 0.0 {
                            " stroke-dasharray=\"4 3\""
                        } else {
                            ""
                        }
                    );
                }
                let _ = writeln!(
                    s,
                    "<line class=\"axis\" x1=\"{ax:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" \
                     stroke=\"{stroke}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" \
                     text-anchor=\"{anchor}\"{fill}>{}</text>",
                    ax + 5.0 * dir,
                    ax + 8.0 * dir,
                    y + 4.0,
                    tick_label(v)
                );
            }
            let _ = writeln!(
                s,
                "<line class=\"axis\" x1=\"{ax:.1}\" y1=\"{top:.1}\" x2=\"{ax:.1}\" y2=\"{:.1}\" \
                 stroke=\"{stroke}\"/>",
                top + ph
            );
            let (lx, rot) = if left { (18.0, -90) } else { (w - 14.0, 90) };
            let _ = writeln!(
                s,
                "<text class=\"label\" x=\"{lx:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" \
                 transform=\"rotate({rot} {lx:.1} {y:.1})\"{fill}>{}</text>",
                xml_escape(&axis.label),
                y = top + ph / 2.0
            );
            s.push_str("</g>\n");
        }

        // The x axis.
        s.push_str("<g class=\"x-axis\">\n");
        for g in xscale.ticks() {
            let x = sx(g);
            let _ = writeln!(
                s,
                "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" \
                 stroke=\"#8a93a3\"/><text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" \
                 text-anchor=\"middle\">{}</text>",
                top + ph,
                top + ph + 5.0,
                top + ph + 19.0,
                tick_label(g)
            );
        }
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" \
             stroke=\"#8a93a3\"/>",
            LEFT + pw,
            y = top + ph
        );
        let _ = writeln!(
            s,
            "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            LEFT + pw / 2.0,
            h - 8.0,
            xml_escape(&self.x_label)
        );
        s.push_str("</g>\n");

        // The series, the first on top.
        for se in self.series.iter().rev() {
            let y = |v: f64| sy(se.side, v);
            let finite: Vec<(f64, f64)> = se
                .points
                .iter()
                .copied()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .collect();
            if !se.band.is_empty() {
                // Ends beyond the axis (an infinite one included) are drawn at its end.
                let sc = scales[(se.side == AxisSide::Right) as usize];
                let yb = |v: f64| {
                    y(if v.is_nan() {
                        0.0
                    } else {
                        v.clamp(sc.lo, sc.hi)
                    })
                };
                let upper = se.band.iter().map(|b| (sx(b.0), yb(b.2)));
                let lower = se.band.iter().rev().map(|b| (sx(b.0), yb(b.1)));
                let d = path_d(upper.chain(lower));
                let _ = writeln!(
                    s,
                    "<path class=\"{}-band\" d=\"{d} Z\" fill=\"{}\" fill-opacity=\"0.18\" \
                     stroke=\"none\"/>",
                    se.class, se.colour
                );
            }
            if !finite.is_empty() {
                let _ = writeln!(
                    s,
                    "<path class=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    se.class,
                    path_d(finite.iter().map(|p| (sx(p.0), y(p.1)))),
                    se.colour,
                    se.width
                );
            }
            if se.dots > 0.0 {
                let _ = writeln!(
                    s,
                    "<g class=\"{}-points\" fill=\"{}\">",
                    se.class, se.colour
                );
                for (i, p) in finite.iter().enumerate() {
                    let tip = se
                        .tips
                        .get(i)
                        .map(|t| format!("<title>{}</title>", xml_escape(t)))
                        .unwrap_or_default();
                    let _ = writeln!(
                        s,
                        "<circle class=\"point\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{}\">{tip}</circle>",
                        sx(p.0),
                        y(p.1),
                        se.dots
                    );
                }
                s.push_str("</g>\n");
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_with_a_band_and_two_axes() {
        let mut c = LineChart::new("t <1>", 800.0, 400.0);
        c.standalone = true;
        c.right = Some(Axis {
            label: "points".into(),
            colour: None,
        });
        let mut elo = Series::line("Elo", "elo", "green", vec![(1.0, -50.0), (3.0, 120.0)]);
        elo.band = vec![(1.0, -90.0, -10.0), (3.0, 60.0, f64::INFINITY)];
        elo.dots = 3.5;
        elo.tips = vec!["a".into(), "b".into()];
        let mut pts = Series::line("points", "best", "red", vec![(1.0, 3.0), (2.0, f64::NAN)]);
        pts.side = AxisSide::Right;
        c.series = vec![elo, pts];
        let svg = c.svg();
        assert!(svg.starts_with("<?xml"));
        assert!(svg.contains("<title>t &lt;1&gt;</title>"));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("class=\"zero\""));
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        // The Elo is drawn last (on top) though first in the legend.
        assert!(svg.find("class=\"elo\"").unwrap() > svg.find("class=\"best\"").unwrap_or(0));
    }
}
