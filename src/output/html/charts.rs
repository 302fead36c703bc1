//! The page's charts: the Elo of the best so far (the answer) with its band, the diversity and
//! the speed (line charts of `crate::chart`), and the heatmap of the best so far's weights over
//! the generations. (An outside engine's answer over the generations is the chart of
//! [`crate::summary::engine_answer_chart`].)

use super::gather::{answer_name, sample, ReportData};
use super::tables::scale_of;
use super::MAX_LINE_POINTS;
use crate::chart::{tick_label, xml_escape, LineChart, Series};
use crate::eval::{Weights, NUM_ALL};
use crate::ga::{GaState, GenerationStats};
use crate::summary::elo_series;
use std::fmt::Write as _;

/// An inline chart of the page.
fn inline(id: &str, title: &str, y_label: &str, w: f64, h: f64, series: Series) -> String {
    let mut c = LineChart::new(title, w, h);
    c.id = Some(id.to_string());
    c.left.label = y_label.to_string();
    c.series.push(series);
    c.svg()
}

/// The Elo chart: the session's answer ([`answer_name`]) against the yardstick, with the 95%
/// band (ends beyond +/-800 Elo, a perfect score's infinite ones included, are drawn at
/// +/-800).
pub fn elo_chart(session: &GaState) -> Option<String> {
    let s = &session.settings;
    let measured: Vec<_> = session
        .history
        .iter()
        .filter_map(|h| h.measure.map(|m| (h.generation as f64, m)))
        .collect();
    if measured.is_empty() {
        return None;
    }
    let games = s.ga.measure_games.div_ceil(2).saturating_mul(2);
    let depth = match s.games_depth() {
        Some(d) => format!(", depth {d}"),
        None => String::new(),
    };
    let who = answer_name(s);
    let title = format!(
        "Elo of {who} vs {}{depth}, {games} games each",
        s.yardstick_text()
    );
    let series = elo_series(
        &measured,
        &format!("Elo of {who}, with its 95% band"),
        "#2a7d2e",
    );
    Some(inline(
        "elo-chart",
        &title,
        "Elo vs yardstick",
        960.0,
        380.0,
        series,
    ))
}

/// A per-generation line, sampled down to [`MAX_LINE_POINTS`].
fn per_generation(
    history: &[GenerationStats],
    f: impl Fn(&GenerationStats) -> f64,
) -> Vec<(f64, f64)> {
    sample(history.len(), MAX_LINE_POINTS)
        .into_iter()
        .map(|i| (history[i].generation as f64, f(&history[i])))
        .filter(|p| p.1.is_finite())
        .collect()
}

/// The population's diversity over the generations.
pub fn diversity_chart(history: &[GenerationStats]) -> String {
    let points = per_generation(history, |h| h.diversity);
    inline(
        "diversity-chart",
        "Diversity of the population",
        "mean |difference| / i16 range",
        470.0,
        300.0,
        Series::line("diversity", "diversity", "#7b3fa0", points),
    )
}

/// The tournament games per second over the generations.
pub fn speed_chart(history: &[GenerationStats]) -> String {
    let points = per_generation(history, |h| {
        if h.seconds > 0.0 {
            h.games as f64 / h.seconds
        } else {
            f64::NAN
        }
    });
    inline(
        "speed-chart",
        "Tournament games per second",
        "games / s",
        470.0,
        300.0,
        Series::line("games per second", "speed", "#c0561b", points),
    )
}

/// The colour of a scaled weight `r` in -1..1 (blue negative, white 0, red positive).
pub fn heat_colour(r: f64) -> String {
    let r = if r.is_nan() { 0.0 } else { r.clamp(-1.0, 1.0) };
    let (end, t) = if r < 0.0 {
        ((33.0, 102.0, 172.0), -r)
    } else {
        ((178.0, 24.0, 43.0), r)
    };
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(247.0, end.0),
        mix(247.0, end.1),
        mix(247.0, end.2)
    )
}

/// The weights the heatmap has a row for: every weight of a linear set; of a network (`net66`
/// or `board`), the weights of its values and its output weights (its hidden units' input
/// weights and biases, most of its weights, are left out).
pub fn heatmap_rows(w: &Weights) -> Vec<usize> {
    let h = w.set().hidden();
    if h == 0 {
        return (0..w.len()).collect();
    }
    // The output weights are the last h weights of both kinds of network.
    let outs = w.len() - h;
    (0..NUM_ALL).chain(outs..outs + h).collect()
}

/// The distance between the heatmap's rows, and the size of its row labels, in pixels: the
/// labels never overlap.
pub const HEAT_ROW: f64 = 12.0;
/// The size of the heatmap's row labels (below [`HEAT_ROW`]).
pub const HEAT_LABEL: f64 = 10.0;

/// The heatmap of the best so far's weights over the generations, each column scaled to its
/// own men weight (or its largest |weight| where the men weight is not positive).
pub fn heatmap(data: &ReportData) -> Option<String> {
    let cols: Vec<(u64, Weights)> = data
        .bests
        .iter()
        .filter_map(|(g, w)| w.map(|w| (*g, w)))
        .collect();
    let (_, last) = *cols.last()?;
    let params = last.set().params();
    let rows = heatmap_rows(&last);
    let cell_h = HEAT_ROW;
    let cell_w = (700.0 / cols.len() as f64).clamp(6.0, 36.0);
    let longest = rows
        .iter()
        .map(|&i| params[i].name.len())
        .max()
        .unwrap_or(4);
    let left = 12.0 + 6.2 * longest as f64;
    let top = 44.0;
    let width = (left + cell_w * cols.len() as f64 + 20.0).max(left + 420.0);
    let height = top + cell_h * rows.len() as f64 + 40.0;
    let scales: Vec<(f64, &str)> = cols.iter().map(|(_, w)| scale_of(w)).collect();
    let by_men = scales.iter().filter(|s| s.1 == "the men weight").count();
    // What a cell's value is a multiple of, in the key and the tooltips.
    let unit = |what: &str| {
        if what == "the men weight" {
            "men"
        } else {
            "largest |weight|"
        }
    };
    let key_unit = match by_men {
        n if n == cols.len() => "men",
        0 => "largest |weight|",
        _ => "men (or largest |weight|)",
    };
    // The colour scale: the largest |weight / scale| of any cell shown, from 1 to 4.
    let range = cols
        .iter()
        .zip(&scales)
        .flat_map(|((_, w), (sc, _))| rows.iter().map(move |&i| (w[i] as f64 / sc).abs()))
        .fold(1.0f64, f64::max)
        .min(4.0);
    // The title is HTML above the chart, so it wraps instead of being cut.
    let mut s = format!(
        "<h3 class=\"chart-head\">Weights of {}, each divided by its men weight{}{}</h3>\n",
        answer_name(&data.session.settings),
        if by_men < cols.len() {
            " (or by its largest |weight| where the men weight is not positive)"
        } else {
            ""
        },
        if rows.len() < last.len() {
            format!(
                "; of the network, the {NUM_ALL} weights of the values and the {} output weights \
                 (the hidden units' input weights are left out)",
                last.set().hidden()
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        s,
        "<svg class=\"heatmap\" id=\"weights-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" role=\"img\" \
         aria-label=\"weights of {} over the generations\">",
        answer_name(&data.session.settings)
    );
    // Colour key.
    let kx = left;
    for k in 0..=40 {
        let r = -1.0 + k as f64 / 20.0;
        let _ = write!(
            s,
            "<rect x=\"{:.1}\" y=\"4\" width=\"5\" height=\"10\" fill=\"{}\"/>",
            kx + 5.0 * k as f64,
            heat_colour(r)
        );
    }
    let _ = writeln!(
        s,
        "\n<text class=\"tick key\" x=\"{kx}\" y=\"28\">-{r}</text>\
         <text class=\"tick key\" x=\"{:.1}\" y=\"28\" text-anchor=\"middle\">0</text>\
         <text class=\"tick key\" x=\"{:.1}\" y=\"28\">+{r} x {key_unit}</text>",
        kx + 102.5,
        kx + 190.0,
        r = tick_label((range * 10.0).round() / 10.0)
    );
    for (k, &i) in rows.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text class=\"row-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" \
             style=\"font-size:{HEAT_LABEL}px\">{}</text>",
            left - 6.0,
            top + cell_h * (k as f64 + 0.8),
            xml_escape(params[i].name)
        );
    }
    for (c, ((g, w), (sc, what))) in cols.iter().zip(&scales).enumerate() {
        let x = left + cell_w * c as f64;
        let _ = writeln!(
            s,
            "<g class=\"heat-col\" data-generation=\"{g}\" transform=\"translate({x:.1} {top})\">"
        );
        for (k, &i) in rows.iter().enumerate() {
            let v = w[i];
            let r = v as f64 / sc;
            let _ = writeln!(
                s,
                "<rect y=\"{:.0}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\">\
                 <title>generation {g}, {}: {v} ({r:.2} x {})</title></rect>",
                cell_h * k as f64,
                cell_w - 0.5,
                cell_h - 0.5,
                heat_colour(r / range),
                xml_escape(params[i].name),
                unit(what)
            );
        }
        s.push_str("</g>\n");
    }
    let every = (cols.len() / 8).max(1);
    for (c, (g, _)) in cols.iter().enumerate() {
        if c % every == 0 || c + 1 == cols.len() {
            let _ = writeln!(
                s,
                "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{g}</text>",
                left + cell_w * (c as f64 + 0.5),
                top + cell_h * rows.len() as f64 + 14.0
            );
        }
    }
    let _ = writeln!(
        s,
        "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">generation</text>",
        left + cell_w * cols.len() as f64 / 2.0,
        height - 6.0
    );
    s.push_str("</svg>\n");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::ParamSet;

    #[test]
    fn heat_colours() {
        assert_eq!(heat_colour(0.0), "#f7f7f7");
        assert_eq!(heat_colour(1.0), "#b2182b");
        assert_eq!(heat_colour(-5.0), "#2166ac");
        assert_eq!(heat_colour(f64::NAN), "#f7f7f7");
    }

    #[test]
    fn a_network_shows_its_values_and_outputs() {
        let zero = |s: ParamSet| Weights::new(s, &vec![0; s.len()]).unwrap();
        let net = zero(ParamSet::Net66(8));
        let rows = heatmap_rows(&net);
        assert_eq!(rows.len(), NUM_ALL + 8);
        let names = net.set().params();
        assert_eq!(names[rows[NUM_ALL]].name, "out1");
        assert_eq!(heatmap_rows(&zero(ParamSet::Thesis60)).len(), 60);
        let board = zero(ParamSet::Board(5));
        let rows = heatmap_rows(&board);
        let names: Vec<&str> = rows.iter().map(|&i| board.set().params()[i].name).collect();
        assert_eq!(names.len(), NUM_ALL + 5);
        assert_eq!(names[NUM_ALL - 1], "centre_kings");
        assert_eq!(&names[NUM_ALL..], &["out1", "out2", "out3", "out4", "out5"]);
    }
}
