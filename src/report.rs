//! What is shown of weights and sessions, for `show`, `export` and `history`. (Reading and
//! writing the files is [`crate::formats`].)
//!
//! - The weights chosen from a file that holds weights, with a title saying what they are:
//!   [`select`].
//! - The parameter table of `show`, with a priority class per weight in the spirit of the
//!   original thesis (see [`Priority`]): [`weights_table`].
//! - The per-generation history of a session as a table ([`history_table`]) and as an SVG chart
//!   of the yardstick Elo and the best and mean points ([`history_svg`]).
//!
//! Individuals of a population (checkpoint or original population file) are numbered from 1,
//! as the original tool did.
//!
//! Errors are [`ReportError`]: one line.

use crate::eval::{ParamSet, Weights, NET_ACT_MAX, NET_SHIFT, NUM_ALL};
use crate::formats::{Input, InputKind};
use crate::ga::{GenerationStats, Session};
use crate::matchplay::{elo, Wdl};
use crate::tournament::Standing;
use std::fmt::Write as _;

/// Why weights could not be picked out of an input, or a report not made: one line.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// `--individual K` that the input does not have, or does not apply to.
    #[error("{0}")]
    Individual(String),
    /// A session with nothing to show yet.
    #[error("{0}")]
    Empty(String),
    /// An option's value that is not one of its words.
    #[error("{0}")]
    Option(String),
    #[error(transparent)]
    Locate(#[from] crate::store::LocateError),
    #[error("cannot write '{}': {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

// ---------------------------------------------------------------------------------------------
// Priority classes

/// |weight| at or above this is a high priority.
pub const HIGH_THRESHOLD: i32 = 16384;
/// |weight| at or above this (and below [`HIGH_THRESHOLD`]) is a medium priority.
pub const MEDIUM_THRESHOLD: i32 = 4096;

/// How much a weight matters, by its sign and magnitude, in the spirit of the original thesis
/// (which read its evolved weights as high/medium positive or negative priorities):
/// high when |w| >= 16384 (a quarter of the i16 range and up), medium when |w| >= 4096,
/// low below (including 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Priority {
    HighPositive,
    MediumPositive,
    Low,
    MediumNegative,
    HighNegative,
}

impl Priority {
    /// All classes, from high positive to high negative.
    pub const ALL: [Priority; 5] = [
        Priority::HighPositive,
        Priority::MediumPositive,
        Priority::Low,
        Priority::MediumNegative,
        Priority::HighNegative,
    ];

    /// The class of a weight.
    pub fn of(w: i16) -> Priority {
        let a = (w as i32).abs();
        match (a >= HIGH_THRESHOLD, a >= MEDIUM_THRESHOLD, w > 0) {
            (true, _, true) => Priority::HighPositive,
            (true, _, false) => Priority::HighNegative,
            (false, true, true) => Priority::MediumPositive,
            (false, true, false) => Priority::MediumNegative,
            _ => Priority::Low,
        }
    }

    /// The short label of the table's class column.
    pub fn label(self) -> &'static str {
        match self {
            Priority::HighPositive => "high+",
            Priority::MediumPositive => "med+",
            Priority::Low => "low",
            Priority::MediumNegative => "med-",
            Priority::HighNegative => "high-",
        }
    }

    /// The class in words.
    pub fn description(self) -> &'static str {
        match self {
            Priority::HighPositive => "high positive",
            Priority::MediumPositive => "medium positive",
            Priority::Low => "low",
            Priority::MediumNegative => "medium negative",
            Priority::HighNegative => "high negative",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The weights of an input

/// The weights chosen from an input, with what they are.
#[derive(Clone, Debug, PartialEq)]
pub struct Picked {
    pub weights: Weights,
    pub kind: InputKind,
    /// What was chosen, on one line, e.g. `checkpoint, session 'x', generation 3, best so far`.
    pub title: String,
    /// More lines about it (a comment, an individual's results).
    pub details: Vec<String>,
    /// A JSON file's comment.
    pub comment: Option<String>,
}

fn individual_index(k: usize, n: usize, of_what: &str) -> Result<usize, ReportError> {
    if n == 0 {
        return Err(ReportError::Individual(format!(
            "{of_what} is empty: there is no individual {k}"
        )));
    }
    if k == 0 || k > n {
        return Err(ReportError::Individual(format!(
            "--individual {k} is out of range: {of_what} has {n} individual{} (numbered 1..={n})",
            if n == 1 { "" } else { "s" }
        )));
    }
    Ok(k - 1)
}

/// A standing as one line: points and W/D/L by colour.
pub fn standing_text(s: &Standing) -> String {
    format!(
        "{} points in {} games; W/D/L as Black {}/{}/{}, as White {}/{}/{}",
        s.points,
        s.games(),
        s.wins_black,
        s.draws_black,
        s.losses_black,
        s.wins_white,
        s.draws_white,
        s.losses_white
    )
}

/// Chooses the weights to show or export: a weight file's weights; a checkpoint's best so far,
/// or with `individual = Some(K)` the K-th individual (from 1) of its last evaluated population;
/// a population file's individual K (default 1).
pub fn select(input: &Input, individual: Option<usize>) -> Result<Picked, ReportError> {
    match input {
        Input::Weights {
            kind,
            weights,
            comment,
        } => {
            if individual.is_some() {
                return Err(ReportError::Individual(format!(
                    "--individual applies to checkpoints and population files, not to a {}",
                    kind.description()
                )));
            }
            Ok(Picked {
                weights: *weights,
                kind: *kind,
                title: kind.description().to_string(),
                details: comment
                    .iter()
                    .flat_map(|c| wrap(&format!("comment: {c}"), TABLE_WIDTH, "  "))
                    .collect(),
                comment: comment.clone(),
            })
        }
        Input::Population {
            generation,
            individuals,
        } => {
            let k = individual.unwrap_or(1);
            let i = individual_index(k, individuals.len(), "the population file")?;
            let gen = generation
                .as_ref()
                .map(|g| format!(", generation {g}"))
                .unwrap_or_default();
            Ok(Picked {
                weights: individuals[i],
                kind: InputKind::OriginalPopulation,
                title: format!(
                    "{}{gen}, individual {k} of {}",
                    InputKind::OriginalPopulation.description(),
                    individuals.len()
                ),
                details: Vec::new(),
                comment: None,
            })
        }
        Input::Checkpoint(s) => {
            let head = format!(
                "checkpoint, session '{}', generation {}",
                s.name, s.generation
            );
            match individual {
                None => {
                    let Some(best) = s.best_so_far else {
                        return Err(ReportError::Empty(format!(
                            "session '{}' has no best so far yet (no generation played)",
                            s.name
                        )));
                    };
                    Ok(Picked {
                        weights: best,
                        kind: InputKind::Checkpoint,
                        title: format!("{head}, best so far"),
                        details: Vec::new(),
                        comment: None,
                    })
                }
                Some(k) => {
                    let what = format!("the last evaluated population of session '{}'", s.name);
                    let i = individual_index(k, s.last.len(), &what)?;
                    let (w, st) = &s.last[i];
                    Ok(Picked {
                        weights: *w,
                        kind: InputKind::Checkpoint,
                        title: format!("{head}, individual {k} of {}", s.last.len()),
                        details: vec![format!(
                            "played in generation {}: {}",
                            s.generation,
                            standing_text(st)
                        )],
                        comment: None,
                    })
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The parameter table

/// Row order of the parameter table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortOrder {
    /// Parameter number (weight order).
    #[default]
    Number,
    /// Weight, highest first.
    Weight,
    /// |weight|, largest first.
    Abs,
}

impl std::str::FromStr for SortOrder {
    type Err = ReportError;
    fn from_str(s: &str) -> Result<Self, ReportError> {
        match s {
            "number" => Ok(SortOrder::Number),
            "weight" => Ok(SortOrder::Weight),
            "abs" => Ok(SortOrder::Abs),
            _ => Err(ReportError::Option(format!(
                "unknown sort order '{s}' (expected number, weight or abs)"
            ))),
        }
    }
}

/// Every line of the parameter table fits in this many columns.
pub const TABLE_WIDTH: usize = 100;

/// `s` cut to `width` characters, ending in `...` when cut.
pub fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    if width <= 3 {
        return s.chars().take(width).collect();
    }
    let cut: String = s.chars().take(width - 3).collect();
    format!("{}...", cut.trim_end())
}

/// `text` on one or more lines of at most `width` characters, broken at spaces (a word longer
/// than a line, such as a long path, stays whole on its own line); lines after the first start
/// with `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut fresh = true;
    for word in text.split_whitespace() {
        if !fresh && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::replace(&mut line, indent.to_string()));
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    if !fresh || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Parameter indices (0-based) in the chosen order; ties keep the parameter order.
pub fn sorted_indices(w: &Weights, sort: SortOrder) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..w.len()).collect();
    match sort {
        SortOrder::Number => {}
        SortOrder::Weight => idx.sort_by_key(|&i| std::cmp::Reverse(w[i])),
        SortOrder::Abs => idx.sort_by_key(|&i| std::cmp::Reverse((w[i] as i32).abs())),
    }
    idx
}

/// The table of `show`: number, name, weight, priority class and description of every
/// parameter, a rule, and a legend with the class thresholds and counts. With `width`, no row
/// is longer: descriptions are cut to fit; with None they are whole.
pub fn weights_table(w: &Weights, sort: SortOrder, width: Option<usize>) -> String {
    let params = w.set().params();
    let name_w = params.iter().map(|p| p.name.len()).max().unwrap_or(4);
    let nw = w.len().to_string().len().max(2);
    let prefix = nw + 1 + name_w + 1 + 6 + 1 + 5 + 1;
    let desc_w = width.map_or(usize::MAX, |w| w.saturating_sub(prefix).max(10));
    let mut lines = vec![format!(
        "{:>nw$} {:<name_w$} {:>6} {:<5} {}",
        "#", "name", "weight", "class", "description"
    )];
    for i in sorted_indices(w, sort) {
        let p = &params[i];
        lines.push(format!(
            "{:>nw$} {:<name_w$} {:>6} {:<5} {}",
            i + 1,
            p.name,
            w[i],
            Priority::of(w[i]).label(),
            fit(p.description, desc_w)
        ));
    }
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    lines.insert(1, "-".repeat(width));
    lines.push("-".repeat(width));
    lines.push(format!(
        "class = priority by |weight|: high >= {HIGH_THRESHOLD}, medium >= {MEDIUM_THRESHOLD}, \
         low < {MEDIUM_THRESHOLD}; + positive, - negative"
    ));
    let names: Vec<String> = Priority::ALL
        .iter()
        .map(|&c| match c {
            Priority::Low => c.label().to_string(),
            _ => format!("{} {}", c.label(), c.description()),
        })
        .collect();
    lines.push(format!("  {}", names.join(", ")));
    let counts: Vec<String> = Priority::ALL
        .iter()
        .map(|&c| {
            let n = w.values().iter().filter(|&&x| Priority::of(x) == c).count();
            format!("{} {n}", c.label())
        })
        .collect();
    lines.push(format!("counts: {}", counts.join(", ")));
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

// ---------------------------------------------------------------------------------------------
// History

/// For the network set, its layers and where their weights are (weight numbers from 1), one
/// line each; None for the linear sets.
pub fn net_layers(set: ParamSet) -> Option<String> {
    let h = set.hidden();
    if h == 0 {
        return None;
    }
    let n = NUM_ALL;
    let outs = n + h * (n + 1);
    let mut s = format!("layers: the {n} values, weighted and summed (weights 1-{n}), plus\n");
    s.push_str(&format!(
        "  {h} hidden units hidden1..hidden{h}, each {n} input weights and a bias (weights {}-{outs}): \
         activation clamp((sum + bias) >> {NET_SHIFT}, 0, {NET_ACT_MAX})\n",
        n + 1
    ));
    s.push_str(&format!(
        "  1 output: out1..out{h} times the activations (weights {}-{}), added to the sum\n",
        outs + 1,
        outs + h
    ));
    Some(s)
}

/// The duel column: `challenger-holder` points, `*` when the challenger became the best so far,
/// `-` in the first generation, `same` when the generation's best was the best so far itself.
pub fn duel_text(s: &GenerationStats) -> String {
    match s.duel {
        None => "-".to_string(),
        Some(d) if d.is_same() => "same".to_string(),
        Some(d) => format!(
            "{}-{}{}",
            d.challenger,
            d.holder,
            if d.replaced { "*" } else { "" }
        ),
    }
}

/// Indices into `history` of the generations to measure: every generation whose number is a
/// multiple of `every` (1 = all), and always the last.
pub fn elo_generations(history: &[GenerationStats], every: u64) -> Vec<usize> {
    let every = every.max(1);
    let last = history.len().saturating_sub(1);
    (0..history.len())
        .filter(|&i| history[i].generation.is_multiple_of(every) || i == last)
        .collect()
}

/// A whole Elo figure with its sign (`+12`, `-7`, `0`: a value that rounds to zero has no
/// sign), `+inf` or `-inf`.
fn signed(v: f64) -> String {
    if v.is_finite() {
        match format!("{v:+.0}") {
            z if z == "+0" || z == "-0" => "0".to_string(),
            t => t,
        }
    } else if v.is_nan() {
        "?".to_string()
    } else if v > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// `Elo +/- margin (w/d/l)` of a match result, rounded to whole Elo.
pub fn elo_text(w: &Wdl) -> String {
    let e = elo(w);
    let margin = if e.margin.is_finite() {
        format!("{:.0}", e.margin)
    } else {
        "inf".to_string()
    };
    format!("{} +/- {margin} ({w})", signed(e.diff))
}

/// The per-generation table: generation, best/mean/min points, diversity, duel, seconds, and
/// (when `elo` names any generation) an Elo column against a reference. `elo` pairs a
/// generation number with the match result of its best so far.
pub fn history_table(history: &[GenerationStats], elo: &[(u64, Wdl)]) -> String {
    let gw = history
        .iter()
        .map(|s| s.generation.to_string().len())
        .max()
        .unwrap_or(0)
        .max(3);
    let dw = history
        .iter()
        .map(|s| duel_text(s).len())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut lines = Vec::new();
    let measured = history.iter().any(|s| s.measure.is_some());
    let mw = history
        .iter()
        .filter_map(|s| s.measure.map(|m| elo_text(&m).len()))
        .max()
        .unwrap_or(0)
        .max(14);
    let mut head = format!(
        "{:>gw$} {:>5} {:>8} {:>5} {:>9}  {:<dw$} {:>8}",
        "gen", "best", "mean", "min", "diversity", "duel", "seconds"
    );
    if measured {
        head.push_str(&format!("  {:<mw$}", "vs yardstick"));
    }
    if !elo.is_empty() {
        head.push_str("  Elo vs reference (W/D/L)");
    }
    lines.push(head);
    for s in history {
        let mut row = format!(
            "{:>gw$} {:>5} {:>8.2} {:>5} {:>9.3}  {:<dw$} {:>8.1}",
            s.generation,
            s.best,
            s.mean,
            s.min,
            s.diversity,
            duel_text(s),
            s.seconds
        );
        if measured {
            let m = s.measure.map(|m| elo_text(&m)).unwrap_or_default();
            row.push_str(&format!("  {m:<mw$}"));
        }
        if let Some((_, w)) = elo.iter().find(|(g, _)| *g == s.generation) {
            row.push_str("  ");
            row.push_str(&elo_text(w));
        }
        lines.push(row.trim_end().to_string());
    }
    let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    lines.insert(1, "-".repeat(width));
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Text made safe for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving at most about `target` ticks over
/// `range`.
pub fn nice_step(range: f64, target: usize) -> f64 {
    if range.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !range.is_finite() {
        return 1.0;
    }
    let raw = range / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Numbers for tick labels: no trailing `.0`.
pub fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v}")
    }
}

/// The title of a session's chart: what it shows, the yardstick and its depth included.
pub fn history_svg_title(session: &Session) -> String {
    if session.history.iter().any(|h| h.measure.is_some()) {
        format!(
            "Session '{}': Elo of the best so far vs {}, and tournament points",
            session.name,
            yardstick_words(session)
        )
    } else {
        format!(
            "Session '{}': tournament points per generation",
            session.name
        )
    }
}

/// `material at depth 2, 312 games`: the session's yardstick measurement in words.
fn yardstick_words(session: &Session) -> String {
    let s = &session.settings;
    format!(
        "{} at depth {}, {} games",
        s.ga.yardstick,
        s.search.depth,
        s.ga.measure_games.div_ceil(2).saturating_mul(2)
    )
}

/// An SVG chart (800x450 and up) of a session: the Elo of the best so far against the
/// yardstick with its 95% interval first (left axis, when the session has measurements), then
/// the best and mean tournament points per generation (right axis; the left one when there is
/// no measurement). The title ([`history_svg_title`]) and a legend that names the yardstick and
/// its depth sit above the plot, the legend's items laid out by their text's length (wrapped
/// to more rows when needed), so nothing overlaps.
pub fn history_svg(session: &Session) -> String {
    let history = &session.history;
    let title = history_svg_title(session);
    const W: f64 = 800.0;
    const LEFT: f64 = 70.0;
    const RIGHT: f64 = 70.0;
    const BOTTOM: f64 = 60.0;
    const PLOT_H: f64 = 312.0;
    const ELO: &str = "#2ca02c";
    let pw = W - LEFT - RIGHT;

    // The yardstick measurements: Elo of the best so far with its 95% interval (ends beyond
    // +/-800, or infinite, are drawn at +/-800).
    let measured: Vec<(f64, f64, f64, f64)> = history
        .iter()
        .filter_map(|st| {
            st.measure.map(|m| {
                let e = elo(&m);
                let c = |v: f64| {
                    if v.is_nan() {
                        0.0
                    } else {
                        v.clamp(-800.0, 800.0)
                    }
                };
                (st.generation as f64, c(e.diff), c(e.low), c(e.high))
            })
        })
        .collect();

    // Legend: Elo first, then the points; items placed by their text's length (about 7 px a
    // character at 12 px), wrapped onto further rows.
    let mut items: Vec<(String, &str)> = Vec::new();
    if !measured.is_empty() {
        items.push((
            format!(
                "Elo of the best so far vs {} (bars: 95%)",
                yardstick_words(session)
            ),
            ELO,
        ));
    }
    items.push(("best points".to_string(), "#d62728"));
    items.push(("mean points".to_string(), "#1f77b4"));
    let mut placed = Vec::new();
    let (mut lx, mut row) = (LEFT, 0);
    for (label, colour) in &items {
        let w = 40.0 + 7.0 * label.chars().count() as f64 + 24.0;
        if lx > LEFT && lx + w > LEFT + pw {
            lx = LEFT;
            row += 1;
        }
        placed.push((lx, row, label.as_str(), *colour));
        lx += w;
    }
    let top = 52.0 + 18.0 * (row + 1) as f64 + 8.0;
    let ph = PLOT_H;
    let h = top + ph + BOTTOM;

    let first = history.first().map(|s| s.generation).unwrap_or(1) as f64;
    let last = history.last().map(|s| s.generation).unwrap_or(1) as f64;
    let (x0, x1) = if last > first {
        (first, last)
    } else {
        (first - 1.0, first + 1.0)
    };
    let ymax_data = history
        .iter()
        .map(|s| (s.best as f64).max(s.mean))
        .fold(0.0, f64::max);
    let top_data = (ymax_data * 1.05).max(1.0);
    let ystep = nice_step(top_data, 6);
    let y1 = (top_data / ystep).ceil() * ystep;
    let xstep = nice_step(x1 - x0, 10).max(1.0);
    let sx = |g: f64| LEFT + (g - x0) / (x1 - x0) * pw;
    let sy = |v: f64| top + ph - v / y1 * ph;
    // The points axis: left without measurements, right with them (Elo takes the left).
    let (px, tick_dir, anchor) = if measured.is_empty() {
        (LEFT, -1.0, "end")
    } else {
        (LEFT + pw, 1.0, "start")
    };

    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{h}\" \
         viewBox=\"0 0 {W} {h}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<title>{}</title>", xml_escape(&title));
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{W}\" height=\"{h}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        s,
        "<text class=\"title\" x=\"{:.1}\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
        W / 2.0,
        xml_escape(&title)
    );

    // Grid and the points axis's ticks.
    s.push_str("<g class=\"y-axis\">\n");
    // Tick loops are bounded: a crafted checkpoint (infinite mean, huge generation numbers)
    // must not make them run forever.
    let mut v = 0.0;
    let mut ticks = 0;
    while v <= y1 + ystep * 1e-6 && ticks < 100 {
        ticks += 1;
        let y = sy(v);
        if measured.is_empty() {
            let _ = writeln!(
                s,
                "<line x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#e0e0e0\"/>",
                LEFT + pw
            );
        }
        let _ = writeln!(
            s,
            "<line x1=\"{px:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"black\"/>",
            px + 5.0 * tick_dir
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{}</text>",
            px + 8.0 * tick_dir,
            y + 4.0,
            tick_label(v)
        );
        v += ystep;
    }
    s.push_str("</g>\n");

    // x ticks: from the first multiple of the step at or after x0.
    s.push_str("<g class=\"x-axis\">\n");
    let mut g = (x0 / xstep).ceil() * xstep;
    let mut ticks = 0;
    while g <= x1 + 1e-9 && ticks < 100 {
        ticks += 1;
        let x = sx(g);
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
            top + ph,
            top + ph + 5.0
        );
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            top + ph + 20.0,
            tick_label(g)
        );
        g += xstep;
    }
    s.push_str("</g>\n");

    // Axes and their labels.
    let _ = writeln!(
        s,
        "<line x1=\"{px:.1}\" y1=\"{top:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
        top + ph
    );
    let _ = writeln!(
        s,
        "<line x1=\"{LEFT:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
        top + ph,
        LEFT + pw,
        top + ph
    );
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">generation</text>",
        LEFT + pw / 2.0,
        h - 15.0
    );
    let (lx, rot) = if measured.is_empty() {
        (20.0, -90)
    } else {
        (W - 14.0, 90)
    };
    let _ = writeln!(
        s,
        "<text x=\"{lx:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" transform=\"rotate({rot} {lx:.1} {y:.1})\">\
         points</text>",
        y = top + ph / 2.0
    );

    // The Elo measurements, on the left axis, drawn first in the legend and last on the plot
    // (on top of the points).
    let mut elo_svg = String::new();
    if !measured.is_empty() {
        let lo = measured.iter().map(|m| m.2).fold(0.0, f64::min);
        let hi = measured.iter().map(|m| m.3).fold(0.0, f64::max);
        let estep = nice_step((hi - lo).max(1.0), 6);
        let (e0, e1) = ((lo / estep).floor() * estep, (hi / estep).ceil() * estep);
        let e1 = if e1 > e0 { e1 } else { e0 + estep };
        let ey = |v: f64| top + ph - (v - e0) / (e1 - e0) * ph;
        s.push_str("<g class=\"elo-axis\">\n");
        let mut v = e0;
        let mut ticks = 0;
        while v <= e1 + estep * 1e-6 && ticks < 100 {
            ticks += 1;
            let y = ey(v);
            let _ = writeln!(
                s,
                "<line x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\"/>",
                LEFT + pw,
                if v == 0.0 { "#9ecf9e" } else { "#e8e8e8" }
            );
            let _ = writeln!(
                s,
                "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{LEFT:.1}\" y2=\"{y:.1}\" stroke=\"{ELO}\"/>",
                LEFT - 5.0
            );
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"{ELO}\">{}</text>",
                LEFT - 8.0,
                y + 4.0,
                tick_label(v)
            );
            v += estep;
        }
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT:.1}\" y1=\"{top:.1}\" x2=\"{LEFT:.1}\" y2=\"{:.1}\" stroke=\"{ELO}\"/>",
            top + ph
        );
        let _ = writeln!(
            s,
            "<text x=\"20\" y=\"{y:.1}\" text-anchor=\"middle\" fill=\"{ELO}\" \
             transform=\"rotate(-90 20 {y:.1})\">Elo vs {}</text>",
            xml_escape(&session.settings.ga.yardstick.to_string()),
            y = top + ph / 2.0
        );
        s.push_str("</g>\n");
        let mut d = String::new();
        for (i, m) in measured.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if i == 0 { "M" } else { " L" },
                sx(m.0),
                ey(m.1)
            );
        }
        let _ = writeln!(
            elo_svg,
            "<path class=\"elo\" d=\"{d}\" fill=\"none\" stroke=\"{ELO}\" stroke-width=\"2.5\"/>"
        );
        let _ = writeln!(
            elo_svg,
            "<g class=\"elo-points\" fill=\"{ELO}\" stroke=\"{ELO}\">"
        );
        for m in &measured {
            let x = sx(m.0);
            let _ = writeln!(
                elo_svg,
                "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>",
                ey(m.2),
                ey(m.3)
            );
            let _ = writeln!(
                elo_svg,
                "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3.5\"/>",
                ey(m.1)
            );
        }
        elo_svg.push_str("</g>\n");
    }

    // The points series.
    type Series = (&'static str, &'static str, fn(&GenerationStats) -> f64);
    let series: [Series; 2] = [
        ("best", "#d62728", |st| st.best as f64),
        ("mean", "#1f77b4", |st| st.mean),
    ];
    let width = if measured.is_empty() { "2" } else { "1.5" };
    for (name, colour, value) in series {
        let mut d = String::new();
        for (i, st) in history.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if i == 0 { "M" } else { " L" },
                sx(st.generation as f64),
                sy(value(st))
            );
        }
        let _ = writeln!(
            s,
            "<path class=\"{name}\" d=\"{d}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\"/>"
        );
        let _ = writeln!(s, "<g class=\"{name}-points\" fill=\"{colour}\">");
        for st in history {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\"/>",
                sx(st.generation as f64),
                sy(value(st))
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str(&elo_svg);

    // The legend, between the title and the plot.
    s.push_str("<g class=\"legend\">\n");
    for (lx, row, label, colour) in placed {
        let y = 52.0 + 18.0 * row as f64;
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" \
             stroke-width=\"3\"/>",
            lx,
            lx + 30.0
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            lx + 38.0,
            y + 4.0,
            xml_escape(label)
        );
    }
    s.push_str("</g>\n</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::NUM_PARAMS;

    #[test]
    fn priority_thresholds() {
        assert_eq!(Priority::of(0), Priority::Low);
        assert_eq!(Priority::of(4095), Priority::Low);
        assert_eq!(Priority::of(-4095), Priority::Low);
        assert_eq!(Priority::of(4096), Priority::MediumPositive);
        assert_eq!(Priority::of(-4096), Priority::MediumNegative);
        assert_eq!(Priority::of(16383), Priority::MediumPositive);
        assert_eq!(Priority::of(16384), Priority::HighPositive);
        assert_eq!(Priority::of(-16384), Priority::HighNegative);
        assert_eq!(Priority::of(i16::MIN), Priority::HighNegative);
        assert_eq!(Priority::of(i16::MAX), Priority::HighPositive);
    }

    #[test]
    fn table_fits_the_width() {
        let mut w = [0i16; NUM_PARAMS];
        for (i, x) in w.iter_mut().enumerate() {
            *x = if i % 2 == 0 { i16::MIN } else { 12345 };
        }
        for sort in [SortOrder::Number, SortOrder::Weight, SortOrder::Abs] {
            let t = weights_table(&Weights::thesis(w), sort, Some(TABLE_WIDTH));
            assert_eq!(t.lines().count(), NUM_PARAMS + 6);
            for l in t.lines() {
                assert!(l.chars().count() <= TABLE_WIDTH, "{l}");
            }
        }
    }

    #[test]
    fn sorting() {
        let mut w = [0i16; NUM_PARAMS];
        w[5] = -30000;
        w[7] = 20000;
        w[9] = 20000;
        let ww = Weights::thesis(w);
        assert_eq!(&sorted_indices(&ww, SortOrder::Weight)[..3], &[7, 9, 0]);
        assert_eq!(&sorted_indices(&ww, SortOrder::Abs)[..3], &[5, 7, 9]);
        assert_eq!(sorted_indices(&ww, SortOrder::Weight)[NUM_PARAMS - 1], 5);
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap("a bb ccc dd", 6, "  "), vec!["a bb", "  ccc", "  dd"]);
        assert_eq!(wrap("short", 10, "  "), vec!["short"]);
        assert_eq!(wrap("", 10, "  "), vec![""]);
        for l in wrap(&"word ".repeat(100), 20, "  ") {
            assert!(l.len() <= 20, "{l}");
        }
        let long = "x".repeat(30);
        assert_eq!(wrap(&format!("a {long} b"), 20, ""), vec!["a", &long, "b"]);
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(10.0, 5), 2.0);
        assert_eq!(nice_step(100.0, 6), 20.0);
        assert_eq!(nice_step(7.0, 10), 1.0);
        assert_eq!(nice_step(0.0, 5), 1.0);
    }
}
