//! The HTML report of a session (`checkers-ga report`): one self-contained page, nothing
//! fetched from the network (CSS, SVG charts and the script that steps through a game are
//! inline), written atomically.
//!
//! What it holds: the yardstick Elo of the best so far over the generations with its 95%
//! band, the population's diversity and the tournament games per second, the best so far's
//! weights over the generations as a heatmap (scaled to the men weight), the final weights with
//! their descriptions, a game of the last measurement to step through on a board, the duels of
//! the best so far, and the settings.
//!
//! - [`gather`] collects what the page shows from a session (the best so far of past
//!   generations from the history, or from the kept checkpoints where the history does not
//!   have it; the game replayed with the library's game and search code);
//! - [`page`] makes the HTML text of that;
//! - [`write_report`] does both and writes the file; [`write_session_report`] does it all for a
//!   session folder (its newest checkpoint), in one call.
//!
//! The game: no game's moves are recorded in a session, but the yardstick measurement of a
//! generation is a seeded match ([`crate::ga::measure_match`]), so its first game (the best so
//! far with Black, from the first ballot opening) is played again here move for move. A session
//! with no measurement yet shows the game a measurement of its last generation would play.

use crate::board::{Color, Position};
use crate::eval::Weights;
use crate::ga::{measure_match, GenerationStats, Session, Stop, Yardstick};
use crate::game::{Game, Outcome};
use crate::jobs;
use crate::matchplay::{elo, MatchRun, MatchSettings};
use crate::report::{duel_text, nice_step, tick_label, xml_escape, Priority, ReportError};
use crate::store;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The report file's name in a session folder when no other is given.
pub const REPORT_FILE: &str = "report.html";

/// The most columns of the weight heatmap (generations sampled evenly, the last always in).
pub const HEATMAP_COLUMNS: usize = 48;

/// The most points of a per-generation line (longer histories are sampled evenly).
pub const MAX_LINE_POINTS: usize = 600;

/// How the page is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Reload the page every this many seconds (`<meta http-equiv="refresh">`), so that a
    /// browser left open follows a running session; None: no reload.
    pub refresh: Option<u32>,
}

/// A game to step through on the page.
#[derive(Clone, Debug)]
pub struct ShownGame {
    /// What game it is, on one line.
    pub title: String,
    pub black: String,
    pub white: String,
    /// The game, from the start position (its first plies are the ballot opening's).
    pub game: Game,
    /// Plies of the opening (forced by the ballot, not chosen by the engines).
    pub opening_plies: usize,
}

/// What the page shows of a session.
#[derive(Clone, Debug)]
pub struct ReportData<'a> {
    pub session: &'a Session,
    /// Where the session was read from (a checkpoint file), as shown.
    pub source: String,
    /// The heatmap's columns: a generation and its best so far where known.
    pub bests: Vec<(u64, Option<Weights>)>,
    pub game: Option<ShownGame>,
}

/// Indices of at most `n` entries of `0..len`, evenly spread, the first and last always in.
pub fn sample(len: usize, n: usize) -> Vec<usize> {
    if len <= n || n < 2 {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = (0..n)
        .map(|k| ((k as f64) * (len - 1) as f64 / (n - 1) as f64).round() as usize)
        .collect();
    out.dedup();
    out
}

/// Collects what the page shows of `session`, read from the checkpoint `checkpoint` (its
/// folder's other checkpoints give the best so far of past generations the history does not
/// hold). Plays one game (at the session's depth).
pub fn gather<'a>(session: &'a Session, checkpoint: &Path) -> ReportData<'a> {
    let dir = crate::files::folder_of(checkpoint);
    let from_checkpoint = |g: u64| {
        store::load_checkpoint_alone(&store::checkpoint_path(&dir, g))
            .ok()
            .and_then(|s| s.best_so_far)
    };
    let h = &session.history;
    let wanted = sample(h.len(), HEATMAP_COLUMNS);
    let mut want_all = wanted.clone();
    let measured = h.iter().rposition(|x| x.measure.is_some());
    want_all.extend(measured);
    let known = session.bests_at(&want_all, from_checkpoint);
    let bests = wanted
        .iter()
        .map(|&i| (h[i].generation, known[i]))
        .collect();
    let game = match measured {
        Some(i) => known[i].map(|w| {
            measurement_game(
                session,
                &w,
                h[i].generation,
                format!(
                    "Game 1 of the measurement after generation {}: the best so far of that \
                     generation against the yardstick",
                    h[i].generation
                ),
            )
        }),
        None => session.best_so_far.map(|w| {
            measurement_game(
                session,
                &w,
                session.generation,
                "No measurement yet: the game a measurement of the last generation's best so \
                 far against the yardstick would play first"
                    .to_string(),
            )
        }),
    };
    ReportData {
        session,
        source: checkpoint.display().to_string(),
        bests,
        game,
    }
}

/// Plays game 1 of generation `g`'s yardstick measurement with `best` as the best so far: the
/// same seed, depth and opening as the session's measurement, so the same moves.
pub fn measurement_game(session: &Session, best: &Weights, g: u64, title: String) -> ShownGame {
    let s = &session.settings;
    let (a, b, settings) = measure_match(best, s, g);
    let run = MatchRun::of(&MatchSettings {
        pairs: Some(1),
        ..settings
    });
    let batch = run.batch(&a, &b);
    let job = &batch.jobs[0];
    let game = match jobs::play_job(&batch, job, &|| false) {
        Some(p) => p.replay(&batch, &job.start),
        None => batch.game(&job.start),
    };
    let opening_plies = batch.game(&job.start).plies();
    ShownGame {
        title,
        black: format!("best so far (depth {})", a.config.depth),
        white: format!("{} (depth {})", b.name, b.config.depth),
        game,
        opening_plies,
    }
}

/// A position as 32 characters, squares 1 to 32: `b` black man, `B` black king, `w`, `W`
/// white, `.` empty (what the page's script draws).
pub fn board_string(p: &Position) -> String {
    (1..=32u8)
        .map(|sq| match p.piece_at(sq) {
            Some((Color::Black, false)) => 'b',
            Some((Color::Black, true)) => 'B',
            Some((Color::White, false)) => 'w',
            Some((Color::White, true)) => 'W',
            None => '.',
        })
        .collect()
}

/// The index of the men weight (what the heatmap and the weight table are scaled to).
fn men_index(w: &Weights) -> Option<usize> {
    let set = w.set();
    set.index_of("men").or_else(|| set.index_of("men@open"))
}

/// The scale of a weight vector: its men weight when positive, else its largest |weight|
/// (at least 1); and what it is, in words.
fn scale_of(w: &Weights) -> (f64, &'static str) {
    match men_index(w).map(|i| w[i]) {
        Some(m) if m > 0 => (m as f64, "the men weight"),
        _ => (
            w.values()
                .iter()
                .map(|&x| (x as i32).abs())
                .max()
                .unwrap_or(1)
                .max(1) as f64,
            "the largest |weight| (the men weight is not positive)",
        ),
    }
}

/// A short description of a yardstick.
fn yardstick_text(y: Yardstick) -> &'static str {
    match y {
        Yardstick::Material => "men 100, kings 160",
        Yardstick::Hand => "a hand-made value function",
        Yardstick::Classic => "a classical hand-written evaluation",
    }
}

// ---------------------------------------------------------------------------------------------
// Charts

/// One series of a line chart.
struct Series {
    name: String,
    class: &'static str,
    colour: &'static str,
    points: Vec<(f64, f64)>,
    /// A band (x, low, high) drawn under the line.
    band: Vec<(f64, f64, f64)>,
    /// A dot per point with this tooltip each (empty: no dots).
    tips: Vec<String>,
}

/// An inline SVG line chart: title, legend on its own row, axes with ticks, optional bands.
fn line_chart(id: &str, title: &str, y_label: &str, w: f64, h: f64, series: &[Series]) -> String {
    const LEFT: f64 = 62.0;
    const RIGHT: f64 = 18.0;
    const TOP: f64 = 58.0;
    const BOTTOM: f64 = 44.0;
    let pw = w - LEFT - RIGHT;
    let ph = h - TOP - BOTTOM;
    let xs = series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.0)
            .chain(s.band.iter().map(|b| b.0))
    });
    let (mut x0, mut x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 <= x0 {
        (x0, x1) = (x0 - 1.0, x0 + 1.0);
    }
    let ys = series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.1)
            .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
    });
    let (mut y0, mut y1) = ys
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    let ystep = nice_step(y1 - y0, 6);
    y0 = (y0 / ystep).floor() * ystep;
    y1 = (y1 / ystep).ceil() * ystep;
    let xstep = nice_step(x1 - x0, 8).max(1.0);
    let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * pw;
    let sy = |y: f64| TOP + ph - (y - y0) / (y1 - y0) * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg class=\"chart\" id=\"{id}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
         role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        t = xml_escape(title)
    );
    let _ = writeln!(
        s,
        "<text class=\"chart-title\" x=\"{LEFT}\" y=\"20\">{}</text>",
        xml_escape(title)
    );
    // Legend: one row under the title, items laid out by their text's length.
    let mut lx = LEFT;
    for se in series {
        let _ = writeln!(
            s,
            "<g class=\"legend-item\"><rect x=\"{lx:.1}\" y=\"32\" width=\"18\" height=\"4\" fill=\"{c}\"/>\
             <text x=\"{:.1}\" y=\"38\">{}</text></g>",
            lx + 24.0,
            xml_escape(&se.name),
            c = se.colour
        );
        lx += 24.0 + 6.6 * se.name.chars().count() as f64 + 22.0;
    }
    // Grid and ticks (bounded loops: odd data must not make them run long).
    let mut v = y0;
    let mut n = 0;
    while v <= y1 + ystep * 1e-6 && n < 50 {
        let y = sy(v);
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/>\
             <text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT + pw,
            LEFT - 6.0,
            y + 4.0,
            tick_label(v)
        );
        v += ystep;
        n += 1;
    }
    let mut g = (x0 / xstep).ceil() * xstep;
    n = 0;
    while g <= x1 + 1e-9 && n < 50 {
        let x = sx(g);
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>\
             <text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            TOP + ph,
            TOP + ph + 5.0,
            TOP + ph + 18.0,
            tick_label(g)
        );
        g += xstep;
        n += 1;
    }
    if y0 < 0.0 && y1 > 0.0 {
        let _ = writeln!(
            s,
            "<line class=\"zero\" x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/>",
            LEFT + pw,
            y = sy(0.0)
        );
    }
    let _ = writeln!(
        s,
        "<path class=\"axis\" d=\"M{LEFT} {TOP} V{:.1} H{:.1}\" fill=\"none\"/>",
        TOP + ph,
        LEFT + pw
    );
    let _ = writeln!(
        s,
        "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">generation</text>",
        LEFT + pw / 2.0,
        h - 6.0
    );
    let _ = writeln!(
        s,
        "<text class=\"label\" x=\"14\" y=\"{y:.1}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 14 {y:.1})\">{}</text>",
        xml_escape(y_label),
        y = TOP + ph / 2.0
    );
    for se in series {
        if !se.band.is_empty() {
            let mut d = String::new();
            for (i, b) in se.band.iter().enumerate() {
                let _ = write!(
                    d,
                    "{}{:.1} {:.1}",
                    if i == 0 { "M" } else { " L" },
                    sx(b.0),
                    sy(b.2)
                );
            }
            for b in se.band.iter().rev() {
                let _ = write!(d, " L{:.1} {:.1}", sx(b.0), sy(b.1));
            }
            let _ = writeln!(
                s,
                "<path class=\"{}-band\" d=\"{d} Z\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"/>",
                se.class, se.colour
            );
        }
        if se.points.len() > 1 {
            let mut d = String::new();
            for (i, p) in se.points.iter().enumerate() {
                let _ = write!(
                    d,
                    "{}{:.1} {:.1}",
                    if i == 0 { "M" } else { " L" },
                    sx(p.0),
                    sy(p.1)
                );
            }
            let _ = writeln!(
                s,
                "<path class=\"{}\" d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                se.class, se.colour
            );
        }
        if !se.tips.is_empty() {
            let _ = writeln!(
                s,
                "<g class=\"{}-points\" fill=\"{}\">",
                se.class, se.colour
            );
            for (p, tip) in se.points.iter().zip(&se.tips) {
                let _ = writeln!(
                    s,
                    "<circle class=\"point\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\"><title>{}</title></circle>",
                    sx(p.0),
                    sy(p.1),
                    xml_escape(tip)
                );
            }
            s.push_str("</g>\n");
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The Elo chart: the best so far against the yardstick, with the 95% band (ends beyond
/// +/-800 Elo, a perfect score's infinite ones included, are drawn at +/-800).
fn elo_chart(session: &Session) -> Option<String> {
    let s = &session.settings;
    let clamp = |v: f64| {
        if v.is_nan() {
            0.0
        } else {
            v.clamp(-800.0, 800.0)
        }
    };
    let mut points = Vec::new();
    let mut band = Vec::new();
    let mut tips = Vec::new();
    for h in &session.history {
        if let Some(m) = h.measure {
            let e = elo(&m);
            let g = h.generation as f64;
            points.push((g, clamp(e.diff)));
            band.push((g, clamp(e.low), clamp(e.high)));
            tips.push(format!(
                "generation {}: {} (W/D/L {m}; 95%: {} .. {})",
                h.generation,
                crate::report::elo_text(&m),
                elo_end(e.low),
                elo_end(e.high)
            ));
        }
    }
    if points.is_empty() {
        return None;
    }
    let games = s.ga.measure_games.div_ceil(2).saturating_mul(2);
    let title = format!(
        "Elo of the best so far vs {} ({}), depth {}, {games} games each",
        s.ga.yardstick,
        yardstick_text(s.ga.yardstick),
        s.search.depth
    );
    Some(line_chart(
        "elo-chart",
        &title,
        "Elo vs yardstick",
        960.0,
        380.0,
        &[Series {
            name: "Elo of the best so far, with its 95% band".to_string(),
            class: "elo",
            colour: "#2a7d2e",
            points,
            band,
            tips,
        }],
    ))
}

fn elo_end(v: f64) -> String {
    if v.is_finite() {
        format!("{v:+.0}")
    } else if v > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
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

fn diversity_chart(history: &[GenerationStats]) -> String {
    line_chart(
        "diversity-chart",
        "Diversity of the population",
        "mean |difference| / i16 range",
        470.0,
        300.0,
        &[Series {
            name: "diversity".to_string(),
            class: "diversity",
            colour: "#7b3fa0",
            points: per_generation(history, |h| h.diversity),
            band: Vec::new(),
            tips: Vec::new(),
        }],
    )
}

fn speed_chart(history: &[GenerationStats]) -> String {
    line_chart(
        "speed-chart",
        "Tournament games per second",
        "games / s",
        470.0,
        300.0,
        &[Series {
            name: "games per second".to_string(),
            class: "speed",
            colour: "#c0561b",
            points: per_generation(history, |h| {
                if h.seconds > 0.0 {
                    h.games as f64 / h.seconds
                } else {
                    f64::NAN
                }
            }),
            band: Vec::new(),
            tips: Vec::new(),
        }],
    )
}

/// The colour of a scaled weight `r` in -1..1 (blue negative, white 0, red positive).
fn heat_colour(r: f64) -> String {
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

/// The heatmap of the best so far's weights over the generations, each column scaled to its
/// own men weight.
fn heatmap(data: &ReportData) -> Option<String> {
    let cols: Vec<(u64, Weights)> = data
        .bests
        .iter()
        .filter_map(|(g, w)| w.map(|w| (*g, w)))
        .collect();
    let (_, last) = *cols.last()?;
    let params = last.set().params();
    let rows = params.len();
    let cell_h = (720.0 / rows as f64).clamp(9.0, 12.0);
    let cell_w = (700.0 / cols.len() as f64).clamp(6.0, 36.0);
    let longest = params.iter().map(|p| p.name.len()).max().unwrap_or(4);
    let left = 12.0 + 6.2 * longest as f64;
    let top = 44.0;
    let width = (left + cell_w * cols.len() as f64 + 20.0).max(left + 420.0);
    let height = top + cell_h * rows as f64 + 40.0;
    // The colour scale: the largest |weight / men weight| of any cell, from 1 to 4.
    let range = cols
        .iter()
        .flat_map(|(_, w)| {
            let (sc, _) = scale_of(w);
            w.values().iter().map(move |&x| (x as f64 / sc).abs())
        })
        .fold(1.0f64, f64::max)
        .min(4.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg class=\"heatmap\" id=\"weights-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" role=\"img\" \
         aria-label=\"weights of the best so far over the generations\">"
    );
    let fallback = cols.iter().any(|(_, w)| scale_of(w).1 != "the men weight");
    // The title is HTML above the chart, so it wraps instead of being cut.
    let title = format!(
        "<h3 class=\"chart-head\">Weights of the best so far, each divided by its men weight{}</h3>\n",
        if fallback {
            " (or by its largest |weight| where the men weight is not positive)"
        } else {
            ""
        }
    );
    s.insert_str(0, &title);
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
        "\n<text class=\"tick\" x=\"{kx}\" y=\"28\">-{r}</text>\
         <text class=\"tick\" x=\"{:.1}\" y=\"28\" text-anchor=\"middle\">0</text>\
         <text class=\"tick\" x=\"{:.1}\" y=\"28\" text-anchor=\"end\">+{r} x men</text>",
        kx + 102.5,
        kx + 205.0,
        r = tick_label((range * 10.0).round() / 10.0)
    );
    for (i, p) in params.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text class=\"row-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"{:.1}\">{}</text>",
            left - 6.0,
            top + cell_h * (i as f64 + 0.8),
            (cell_h - 1.0).min(10.0),
            xml_escape(p.name)
        );
    }
    for (c, (g, w)) in cols.iter().enumerate() {
        let (sc, _) = scale_of(w);
        let x = left + cell_w * c as f64;
        let _ = writeln!(s, "<g class=\"heat-col\" data-generation=\"{g}\">");
        for (i, &v) in w.values().iter().enumerate() {
            let r = v as f64 / sc;
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\">\
                 <title>generation {g}, {}: {v} ({r:.2} x men)</title></rect>",
                top + cell_h * i as f64,
                cell_w - 0.5,
                cell_h - 0.5,
                heat_colour(r / range),
                xml_escape(params.get(i).map_or("?", |p| p.name)),
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
                top + cell_h * rows as f64 + 14.0
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

// ---------------------------------------------------------------------------------------------
// Tables

fn esc(s: &str) -> String {
    xml_escape(s)
}

fn weights_table(w: &Weights) -> String {
    let (scale, what) = scale_of(w);
    let params = w.set().params();
    let mut s = format!(
        "<p class=\"note\">{} weights of the <code>{}</code> set; \"x men\" is each weight divided \
         by {what} ({scale}).</p>\n<table id=\"weights-table\" class=\"weights\"><thead><tr><th>#</th>\
         <th>name</th><th>weight</th><th>x men</th><th class=\"bar-col\"></th><th>class</th>\
         <th>description</th></tr></thead><tbody>\n",
        w.len(),
        w.set()
    );
    for (i, (&v, p)) in w.values().iter().zip(params).enumerate() {
        let r = v as f64 / scale;
        let pct = (r.abs().min(4.0) / 4.0 * 50.0).max(if v != 0 { 0.5 } else { 0.0 });
        let bar = if r >= 0.0 {
            format!("left:50%;width:{pct:.1}%")
        } else {
            format!("left:{:.1}%;width:{pct:.1}%", 50.0 - pct)
        };
        let _ = writeln!(
            s,
            "<tr><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{v}</td>\
             <td class=\"num\">{r:.2}</td><td class=\"bar-col\"><div class=\"bar\"><span class=\"{}\" \
             style=\"{bar}\"></span></div></td><td>{}</td><td>{}</td></tr>",
            i + 1,
            esc(p.name),
            if r >= 0.0 { "pos" } else { "neg" },
            Priority::of(v).label(),
            esc(p.description)
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

fn settings_table(session: &Session) -> String {
    let s = &session.settings;
    let g = &s.ga;
    let stop = match s.stop {
        Stop::Generations(n) => format!("after {n} generations"),
        Stop::Seconds(t) => format!("after {t} seconds of evolution"),
    };
    let games = if s.games == 0 {
        "all against all, twice".to_string()
    } else {
        format!("{} per individual", s.games)
    };
    let deepen = if g.deepen_at > 0 {
        format!("to {} from generation {}", g.deepen_to, g.deepen_at)
    } else {
        "never".to_string()
    };
    let fit = match (g.fit_every, g.fit_top) {
        (0, _) => "never".to_string(),
        (k, 0) => format!("every {k} generations, the fitted vector a newcomer"),
        (k, top) => format!(
            "every {k} generations to the games among the {top} best, the fitted vector a newcomer"
        ),
    };
    let widen = match g.widen_at {
        0 => "never".to_string(),
        at => format!("into {} after generation {at}", g.widen_to),
    };
    let measure = if g.measure_every > 0 {
        format!(
            "every {} generations, {} games against {} ({})",
            g.measure_every,
            g.measure_games.div_ceil(2).saturating_mul(2),
            g.yardstick,
            yardstick_text(g.yardstick)
        )
    } else {
        "never".to_string()
    };
    let rows: Vec<(&str, String)> = vec![
        ("parameters", g.params.to_string()),
        ("population", s.population.to_string()),
        ("tournament games", games),
        ("search depth", s.search.depth.to_string()),
        ("deepen", deepen),
        ("capture extension", s.search.capture_extension.to_string()),
        (
            "transposition table",
            format!("2^{} entries", s.search.tt_log2),
        ),
        ("openings", format!("{:?}", s.openings).to_lowercase()),
        ("selection", g.selection.to_string()),
        ("roulette noise factor", s.factor.to_string()),
        ("mutation chance", s.mutation.to_string()),
        ("mutation", g.mutation.to_string()),
        ("initial weight range", format!("+/-{}", g.init_range)),
        ("elite", s.elite.to_string()),
        ("newcomers", s.newcomers.to_string()),
        ("hall of fame", g.hall_of_fame.to_string()),
        ("endgame pairs", g.endgame_pairs.to_string()),
        ("duel games", g.duel_games.to_string()),
        ("fit to the games", fit),
        ("widen", widen),
        ("measurement", measure),
        (
            "draw rules",
            format!(
                "{} quiet plies, {}-fold repetition, {} plies at most",
                s.rules.quiet_plies, s.rules.repetitions, s.rules.max_plies
            ),
        ),
        ("stop", stop),
        ("seed", s.seed.to_string()),
    ];
    let mut out = String::from("<table id=\"settings-table\" class=\"settings\"><tbody>\n");
    for (k, v) in rows {
        let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The duels: counts, and the generations where the best so far changed.
fn duels(session: &Session) -> String {
    let h = &session.history;
    let played = h
        .iter()
        .filter(|x| x.duel.is_some_and(|d| !d.is_same()))
        .count();
    let replaced = h
        .iter()
        .filter(|x| x.duel.is_some_and(|d| d.replaced))
        .count();
    let same = h
        .iter()
        .filter(|x| x.duel.is_some_and(|d| d.is_same()))
        .count();
    let mut s = format!(
        "<p>Each generation's best plays the best so far over {} ballot games (points: 2 a win, 1 a \
         draw); it takes the title when it scores more{}. <b>{played}</b> duels played, \
         <b>{replaced}</b> won by the challenger; in <b>{same}</b> generations the best so far \
         won its own tournament (no duel).</p>\n",
        session.settings.ga.duel_games,
        if session.settings.ga.duel_games == 2 {
            " (with 2 games a tie goes to the challenger)"
        } else {
            ""
        }
    );
    let changes: Vec<&GenerationStats> = h
        .iter()
        .filter(|x| x.duel.is_none_or(|d| d.replaced))
        .collect();
    const SHOWN: usize = 40;
    if changes.len() > SHOWN {
        let _ = writeln!(
            s,
            "<p class=\"note\">The newest {SHOWN} of the {} changes of the best so far:</p>",
            changes.len()
        );
    }
    s.push_str(
        "<table id=\"duels-table\" class=\"duels\"><thead><tr><th>generation</th><th>duel \
         (challenger-holder)</th><th>the generation's best: points</th><th>mean</th></tr></thead><tbody>\n",
    );
    for x in changes
        .iter()
        .skip(changes.len().saturating_sub(SHOWN))
        .rev()
    {
        let d = match x.duel {
            None => "first generation".to_string(),
            Some(_) => duel_text(x),
        };
        let _ = writeln!(
            s,
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td></tr>",
            x.generation,
            esc(&d),
            x.best,
            x.mean
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

// ---------------------------------------------------------------------------------------------
// The game

/// The game as JSON for the page's script: the start and every ply's move and position.
fn game_json(g: &ShownGame) -> String {
    let mut pos = *g.game.start();
    let mut plies = Vec::new();
    for (i, m) in g.game.moves().iter().enumerate() {
        let mover = pos.side_to_move();
        pos = pos.play(m);
        plies.push(serde_json::json!({
            "move": m.to_string(),
            "from": m.from(),
            "to": m.to(),
            "side": if mover == Color::Black { "b" } else { "w" },
            "opening": i < g.opening_plies,
            "pos": board_string(&pos),
        }));
    }
    let result = match g.game.result() {
        Some((o, why)) => {
            let who = match o {
                Outcome::BlackWin => format!("Black ({}) wins", g.black),
                Outcome::WhiteWin => format!("White ({}) wins", g.white),
                Outcome::Draw => "draw".to_string(),
            };
            format!("{}: {who} ({why})", o.pdn())
        }
        None => "unfinished".to_string(),
    };
    let doc = serde_json::json!({
        "start": board_string(g.game.start()),
        "plies": plies,
        "result": result,
    });
    // Safe inside a <script> element.
    serde_json::to_string(&doc)
        .unwrap_or_default()
        .replace("</", "<\\/")
}

fn game_section(g: &ShownGame) -> String {
    format!(
        "<p>{title}. Black: <b>{black}</b>; White: <b>{white}</b>. The first {op} plies are the \
         ballot opening. Step with the buttons, the arrow keys (Home and End for the ends) or a \
         click on a move.</p>\n\
         <div class=\"game\"><div class=\"board-wrap\">\
         <svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 400\" \
         data-ply=\"0\" role=\"img\" aria-label=\"board\"></svg>\
         <div class=\"controls\"><button id=\"first\" title=\"first (Home)\">&#xAB;</button>\
         <button id=\"prev\" title=\"previous (left arrow)\">&#x25C0;</button>\
         <span id=\"ply-label\">start</span>\
         <button id=\"next\" title=\"next (right arrow)\">&#x25B6;</button>\
         <button id=\"last\" title=\"last (End)\">&#xBB;</button></div></div>\
         <div class=\"moves-wrap\"><ol id=\"moves\"></ol><p id=\"result\"></p></div></div>\n\
         <script type=\"application/json\" id=\"game-data\">{json}</script>\n",
        title = esc(&g.title),
        black = esc(&g.black),
        white = esc(&g.white),
        op = g.opening_plies,
        json = game_json(g)
    )
}

/// The page's script: draws the board of the current ply and steps through the game. The URL
/// fragment `#ply=N` opens at ply N, and each step writes it (so a reload, as `--refresh`
/// makes, opens where the reader was); `#steps=...` replays button clicks and keys on load
/// (`n` next, `p` previous, `r` right arrow, `l` left arrow, `e` End, `h` Home), which is how
/// the browser test drives it.
const SCRIPT: &str = r#"
(function () {
  var el = document.getElementById('game-data');
  if (!el) return;
  var G = JSON.parse(el.textContent);
  var board = document.getElementById('board');
  var NS = 'http://www.w3.org/2000/svg';
  var ply = 0;
  function node(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function cell(sq) {
    var r = Math.floor((sq - 1) / 4);
    var c = 2 * ((sq - 1) % 4) + (r % 2 === 0 ? 1 : 0);
    return [c * 50, r * 50];
  }
  function draw() {
    var pos = ply === 0 ? G.start : G.plies[ply - 1].pos;
    var last = ply === 0 ? null : G.plies[ply - 1];
    while (board.firstChild) board.removeChild(board.firstChild);
    for (var r = 0; r < 8; r++)
      for (var c = 0; c < 8; c++)
        board.appendChild(node('rect', {x: c * 50, y: r * 50, width: 50, height: 50,
          'class': (r + c) % 2 ? 'dark' : 'light'}));
    for (var sq = 1; sq <= 32; sq++) {
      var xy = cell(sq);
      if (last && (sq === last.from || sq === last.to))
        board.appendChild(node('rect', {x: xy[0], y: xy[1], width: 50, height: 50,
          'class': sq === last.to ? 'hl-to' : 'hl-from'}));
      var num = node('text', {x: xy[0] + 3, y: xy[1] + 11, 'class': 'sqnum'});
      num.textContent = sq;
      board.appendChild(num);
      var p = pos.charAt(sq - 1);
      if (p === '.') continue;
      var colour = (p === 'b' || p === 'B') ? 'black' : 'white';
      var king = p === 'B' || p === 'W';
      board.appendChild(node('circle', {cx: xy[0] + 25, cy: xy[1] + 25, r: 19,
        'class': 'piece ' + colour + (king ? ' king' : ''), 'data-square': sq}));
      if (king) {
        var k = node('text', {x: xy[0] + 25, y: xy[1] + 31, 'class': 'crown ' + colour,
          'text-anchor': 'middle'});
        k.textContent = 'K';
        board.appendChild(k);
      }
    }
    board.setAttribute('data-ply', ply);
    board.setAttribute('data-position', pos);
    var label = document.getElementById('ply-label');
    label.textContent = ply === 0 ? 'start' : ('ply ' + ply + ' of ' + G.plies.length + ': ' +
      (last.side === 'b' ? 'Black ' : 'White ') + last.move);
    var items = document.querySelectorAll('#moves .mv');
    for (var i = 0; i < items.length; i++)
      items[i].classList.toggle('current', i === ply - 1);
    document.getElementById('prev').disabled = ply === 0;
    document.getElementById('first').disabled = ply === 0;
    document.getElementById('next').disabled = ply === G.plies.length;
    document.getElementById('last').disabled = ply === G.plies.length;
    // Keep the current move in view inside the list (never scrolls the page).
    var cur = document.querySelector('#moves .current');
    var box = document.getElementById('moves');
    if (cur) box.scrollTop = Math.max(0, cur.offsetTop - box.clientHeight / 2);
  }
  function go(n) {
    ply = Math.max(0, Math.min(G.plies.length, n));
    draw();
  }
  // Remember the ply in the address, so a reload (--refresh) opens the page where it was.
  function remember() {
    try { history.replaceState(null, '', '#ply=' + ply); } catch (e) { /* not allowed here */ }
  }
  var list = document.getElementById('moves');
  for (var i = 0; i < G.plies.length; i += 2) {
    var li = document.createElement('li');
    for (var j = i; j < Math.min(i + 2, G.plies.length); j++) {
      var a = document.createElement('span');
      a.className = 'mv' + (G.plies[j].opening ? ' opening' : '');
      a.textContent = G.plies[j].move;
      a.setAttribute('data-ply', j + 1);
      a.addEventListener('click', function (e) {
        step(parseInt(e.target.getAttribute('data-ply'), 10));
      });
      li.appendChild(a);
    }
    list.appendChild(li);
  }
  document.getElementById('result').textContent = 'Result: ' + G.result;
  function step(n) { go(n); remember(); }
  document.getElementById('next').addEventListener('click', function () { step(ply + 1); });
  document.getElementById('prev').addEventListener('click', function () { step(ply - 1); });
  document.getElementById('first').addEventListener('click', function () { step(0); });
  document.getElementById('last').addEventListener('click', function () { step(G.plies.length); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') { step(ply + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { step(ply - 1); e.preventDefault(); }
    else if (e.key === 'Home') { step(0); e.preventDefault(); }
    else if (e.key === 'End') { step(G.plies.length); e.preventDefault(); }
  });
  var hash = window.location.hash;
  var m = /ply=(\d+)/.exec(hash);
  go(m ? parseInt(m[1], 10) : 0);
  var s = /steps=([nprleh]*)/.exec(hash);
  if (s) {
    var keys = {r: 'ArrowRight', l: 'ArrowLeft', e: 'End', h: 'Home'};
    for (var t = 0; t < s[1].length; t++) {
      var ch = s[1].charAt(t);
      if (ch === 'n') document.getElementById('next').click();
      else if (ch === 'p') document.getElementById('prev').click();
      else document.dispatchEvent(new KeyboardEvent('keydown', {key: keys[ch], bubbles: true}));
    }
  }
})();
"#;

const STYLE: &str = r#"
:root { --ink: #1d2330; --muted: #5b6475; --line: #dde1e8; --card: #ffffff; --bg: #f3f5f8; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
header { background: #1f3a5f; color: #fff; padding: 22px 32px 18px; }
header h1 { margin: 0 0 4px; font-size: 24px; font-weight: 600; }
header p { margin: 0; color: #c9d6ea; }
nav { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 4px 0 14px; }
nav a { color: #1f3a5f; text-decoration: none; border-bottom: 1px solid #b9c6da; }
nav a:hover { border-bottom-color: #1f3a5f; }
main { max-width: 1040px; margin: 0 auto; padding: 18px 20px 40px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: 16px 20px; margin: 16px 0; }
section h2 { margin: 0 0 10px; font-size: 18px; font-weight: 600; }
h3.chart-head { margin: 4px 0 8px; font-size: 14px; font-weight: 600; }
.figures { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; padding: 0; list-style: none; }
.figures li { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 16px; min-width: 150px; }
.figures b { display: block; font-size: 20px; }
.figures span { color: var(--muted); font-size: 12px; }
.note { color: var(--muted); font-size: 13px; }
.pair { display: flex; flex-wrap: wrap; gap: 12px; }
.pair > svg { flex: 1 1 440px; min-width: 0; }
svg.chart { width: 100%; height: auto; display: block; font-family: inherit; }
svg.chart text { font-size: 12px; fill: var(--ink); }
svg.chart .chart-title { font-size: 14px; font-weight: 600; }
svg.chart .tick { fill: var(--muted); font-size: 11px; }
svg.chart .grid { stroke: #eceff3; }
svg.chart .axis { stroke: #8a93a3; }
svg.chart .zero { stroke: #8a93a3; stroke-dasharray: 4 3; }
svg.chart .row-label { fill: var(--muted); }
svg.heatmap { max-width: 100%; height: auto; display: block; font-family: inherit; }
svg.heatmap text { font-size: 11px; fill: var(--ink); }
svg.heatmap .chart-title { font-size: 14px; font-weight: 600; }
svg.heatmap .tick, svg.heatmap .row-label { fill: var(--muted); }
.heat-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th { white-space: nowrap; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line);
  vertical-align: top; }
thead th { background: #f7f8fa; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.settings th { width: 220px; font-weight: 500; color: var(--muted); }
.bar-col { width: 120px; }
.bar { position: relative; height: 10px; background: #f1f3f6; margin-top: 4px; }
.bar::after { content: ""; position: absolute; left: 50%; top: -2px; bottom: -2px;
  border-left: 1px solid #9aa3b2; }
.bar span { position: absolute; top: 0; bottom: 0; }
.bar span.pos { background: #c23b48; }
.bar span.neg { background: #3a73b5; }
.game { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.board-wrap { width: 400px; max-width: 100%; }
#board { width: 100%; height: auto; display: block; border: 2px solid #5a3e24; }
#board .light { fill: #f0dcb4; }
#board .dark { fill: #9b6b43; }
#board .hl-from { fill: #c9a227; opacity: 0.55; }
#board .hl-to { fill: #e3c23b; opacity: 0.8; }
#board .sqnum { font-size: 9px; fill: #f4e6cc; }
#board .piece.black { fill: #2b2b2b; stroke: #000; stroke-width: 2; }
#board .piece.white { fill: #fbf7ee; stroke: #6f6a60; stroke-width: 2; }
#board .piece.king { stroke-width: 4; }
#board .crown { font-size: 17px; font-weight: 700; }
#board .crown.black { fill: #e8c547; }
#board .crown.white { fill: #a5291f; }
.controls { display: flex; align-items: center; gap: 6px; margin-top: 8px; }
.controls button { font-size: 16px; padding: 4px 10px; border: 1px solid #b9c0cc;
  background: #fff; border-radius: 4px; cursor: pointer; }
.controls button:disabled { opacity: 0.4; cursor: default; }
#ply-label { flex: 1; text-align: center; font-variant-numeric: tabular-nums; }
.moves-wrap { flex: 1 1 260px; }
#moves { position: relative; max-height: 400px; overflow-y: auto; margin: 0; padding: 0 0 0 44px;
  border: 1px solid var(--line); border-radius: 4px;
  font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
#moves li { padding: 1px 0; }
#moves li:nth-child(odd) { background: #f7f8fa; }
#moves .mv { display: inline-block; min-width: 68px; padding: 0 4px; cursor: pointer;
  border-radius: 3px; }
#moves .mv.opening { color: var(--muted); font-style: italic; }
#moves .mv.current { background: #e3c23b; color: #000; }
footer { color: var(--muted); font-size: 12px; text-align: center; margin-top: 24px; }
"#;

/// Seconds as people read them: `4.2 s`, `3 min 20 s`, `2 h 05 min`.
pub fn duration_text(s: f64) -> String {
    if !s.is_finite() || s < 0.0 {
        return "?".to_string();
    }
    if s < 60.0 {
        return format!("{s:.1} s");
    }
    let t = s.round() as u64;
    if t < 3600 {
        format!("{} min {:02} s", t / 60, t % 60)
    } else {
        format!("{} h {:02} min", t / 3600, (t % 3600) / 60)
    }
}

/// The HTML page of `data`.
pub fn page(data: &ReportData, opts: &Options) -> String {
    let session = data.session;
    let s = &session.settings;
    let mut p = String::new();
    p.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    p.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    if let Some(r) = opts.refresh {
        let _ = writeln!(p, "<meta http-equiv=\"refresh\" content=\"{r}\">");
    }
    let _ = writeln!(
        p,
        "<title>checkers-ga session '{}': report</title>",
        esc(&session.name)
    );
    let _ = writeln!(p, "<style>{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(
        p,
        "<header><h1>checkers-ga session '{}'</h1><p>{} generation{}, {} of evolution; \
         population {}, depth {}, <code>{}</code> parameters, seed {}; read from {}</p></header>\n<main>",
        esc(&session.name),
        session.generation,
        if session.generation == 1 { "" } else { "s" },
        duration_text(session.elapsed),
        s.population,
        s.search.depth,
        s.ga.params,
        s.seed,
        esc(&data.source)
    );

    // Contents.
    let mut links = vec![("strength", "Strength")];
    if !session.history.is_empty() {
        links.push(("population", "Population"));
    }
    if data.bests.iter().any(|(_, w)| w.is_some()) {
        links.push(("weights-over-time", "Weights over time"));
    }
    if data.game.is_some() {
        links.push(("game", "Game"));
    }
    if session.best_so_far.is_some() {
        links.push(("final-weights", "Final weights"));
    }
    if !session.history.is_empty() {
        links.push(("duels", "Duels"));
    }
    links.push(("settings", "Settings"));
    p.push_str("<nav>");
    for (id, name) in links {
        let _ = write!(p, "<a href=\"#{id}\">{name}</a>");
    }
    p.push_str("</nav>\n");

    // Key figures.
    p.push_str("<ul class=\"figures\">\n");
    let fig = |p: &mut String, v: String, what: &str| {
        let _ = writeln!(p, "<li><b>{}</b><span>{}</span></li>", esc(&v), esc(what));
    };
    fig(&mut p, session.generation.to_string(), "generations");
    if let Some((g, m)) = session.last_measure() {
        fig(
            &mut p,
            crate::report::elo_text(&m),
            &format!("Elo vs {} after generation {g}", s.ga.yardstick),
        );
    }
    let changes = session
        .history
        .iter()
        .filter(|x| x.duel.is_some_and(|d| d.replaced))
        .count();
    fig(&mut p, changes.to_string(), "new bests so far by duel");
    if let Some(h) = session.history.last() {
        fig(
            &mut p,
            format!("{:.3}", h.diversity),
            "diversity, last generation",
        );
        let total: f64 = session.history.iter().map(|h| h.seconds).sum();
        let games: u64 = session.history.iter().map(|h| h.games as u64).sum();
        if total > 0.0 {
            fig(
                &mut p,
                format!("{:.0}", games as f64 / total),
                "tournament games per second",
            );
        }
    }
    p.push_str("</ul>\n");

    p.push_str("<section id=\"strength\"><h2>Strength</h2>\n");
    match elo_chart(session) {
        Some(c) => {
            p.push_str(&c);
            p.push_str(
                "<p class=\"note\">The best so far plays the yardstick over the first ballot \
                 openings with both colours at the session's depth; the band is the 95% interval \
                 (ends beyond +/-800 Elo are drawn at +/-800).</p>\n",
            );
        }
        None => p.push_str(
            "<p class=\"note\" id=\"no-elo\">No yardstick measurement yet (see \
             <code>--measure-every</code>).</p>\n",
        ),
    }
    p.push_str("</section>\n");

    if !session.history.is_empty() {
        p.push_str("<section id=\"population\"><h2>Population</h2><div class=\"pair\">\n");
        p.push_str(&diversity_chart(&session.history));
        p.push_str(&speed_chart(&session.history));
        p.push_str(
            "</div><p class=\"note\">Diversity: the mean absolute difference between two \
             individuals' weights, per weight, over the i16 range (about 0.33 for random \
             vectors, 0 when all are equal).</p></section>\n",
        );
    }

    if let Some(h) = heatmap(data) {
        p.push_str("<section id=\"weights-over-time\"><h2>The best so far's weights over the generations</h2>\n<div class=\"heat-wrap\">");
        p.push_str(&h);
        p.push_str("</div><p class=\"note\">Each column is the best so far after that generation (from the history, or the kept checkpoints); each weight is divided by that vector's men weight, so columns compare as shapes. Hover a cell for its value.</p></section>\n");
    }

    if let Some(g) = &data.game {
        p.push_str("<section id=\"game\"><h2>A game of the last measurement</h2>\n");
        p.push_str(&game_section(g));
        p.push_str("</section>\n");
    }

    if let Some(w) = &session.best_so_far {
        p.push_str("<section id=\"final-weights\"><h2>Final weights: the best so far</h2>\n");
        p.push_str(&weights_table(w));
        p.push_str("</section>\n");
    }

    if !session.history.is_empty() {
        p.push_str("<section id=\"duels\"><h2>Duels of the best so far</h2>\n");
        p.push_str(&duels(session));
        p.push_str("</section>\n");
    }

    p.push_str("<section id=\"settings\"><h2>Settings</h2>\n");
    p.push_str(&settings_table(session));
    p.push_str("</section>\n");
    let _ = writeln!(
        p,
        "<footer>checkers-ga {} report{}</footer>\n</main>",
        env!("CARGO_PKG_VERSION"),
        match opts.refresh {
            Some(r) => format!(", reloads every {r} s"),
            None => String::new(),
        }
    );
    if data.game.is_some() {
        let _ = writeln!(p, "<script>{SCRIPT}</script>");
    }
    p.push_str("</body>\n</html>\n");
    p
}

/// Makes the page of `session` (read from `checkpoint`) and writes it to `out` atomically (temp
/// name, sync, rename).
pub fn write_report(
    session: &Session,
    checkpoint: &Path,
    out: &Path,
    opts: &Options,
) -> Result<(), ReportError> {
    let data = gather(session, checkpoint);
    crate::files::write_atomic(out, page(&data, opts).as_bytes()).map_err(|source| {
        ReportError::Write {
            path: out.to_path_buf(),
            source,
        }
    })
}

/// The whole report of a session folder in one call: reads its newest loadable checkpoint with
/// its history and writes the page to `out` (default: `report.html` in the folder). Returns
/// the file written. This is what a running session can call after each measurement.
pub fn write_session_report(
    folder: &Path,
    out: Option<&Path>,
    opts: &Options,
) -> Result<PathBuf, ReportError> {
    let found = store::locate(Some(&folder.to_string_lossy()), Path::new("."))?;
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| crate::files::folder_of(&found.path).join(REPORT_FILE));
    write_report(&found.session, &found.path, &out, opts)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_keep_the_ends() {
        assert_eq!(sample(3, 48), vec![0, 1, 2]);
        let s = sample(1000, 10);
        assert_eq!(s.len(), 10);
        assert_eq!((s[0], s[9]), (0, 999));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert!(sample(0, 10).is_empty());
    }

    #[test]
    fn board_strings() {
        let s = board_string(&Position::start());
        assert_eq!(
            s,
            format!("{}{}{}", "b".repeat(12), ".".repeat(8), "w".repeat(12))
        );
    }

    #[test]
    fn durations() {
        assert_eq!(duration_text(4.24), "4.2 s");
        assert_eq!(duration_text(200.0), "3 min 20 s");
        assert_eq!(duration_text(7500.0), "2 h 05 min");
        assert_eq!(duration_text(f64::NAN), "?");
    }

    #[test]
    fn heat_colours() {
        assert_eq!(heat_colour(0.0), "#f7f7f7");
        assert_eq!(heat_colour(1.0), "#b2182b");
        assert_eq!(heat_colour(-5.0), "#2166ac");
        assert_eq!(heat_colour(f64::NAN), "#f7f7f7");
    }
}
