//! The parameter table of `show`, with a priority class per weight in the spirit of the
//! original thesis (see [`Priority`]), and the layers of a network set; all `show` prints of
//! weights ([`weights_text`]) and of an outside engine's parameters ([`engine_table`]).

use super::layout::{fit, wrap, TABLE_WIDTH};
use super::ReportError;
use crate::eval::{ParamSet, Weights, BOARD_INPUTS, NET_ACT_MAX, NET_SHIFT, NUM_ALL};

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
    /// w >= 16384.
    HighPositive,
    /// 4096 <= w < 16384.
    MediumPositive,
    /// |w| < 4096 (0 included).
    Low,
    /// -16384 < w <= -4096.
    MediumNegative,
    /// w <= -16384.
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
    /// An outside engine's parameters only: the change from the declared value in units of
    /// the declared range (|value - default| / (max - min)), largest first.
    Change,
}

impl std::str::FromStr for SortOrder {
    type Err = ReportError;
    fn from_str(s: &str) -> Result<Self, ReportError> {
        match s {
            "number" => Ok(SortOrder::Number),
            "weight" => Ok(SortOrder::Weight),
            "abs" => Ok(SortOrder::Abs),
            "change" => Ok(SortOrder::Change),
            _ => Err(ReportError::Option(format!(
                "unknown sort order '{s}' (expected number, weight, abs or change)"
            ))),
        }
    }
}
/// Parameter indices (0-based) in the chosen order; ties keep the parameter order.
/// [`SortOrder::Change`] needs declared values, which weights do not have: it keeps the
/// parameter order (`show` refuses it for weights).
pub fn sorted_indices(w: &Weights, sort: SortOrder) -> Vec<usize> {
    let values: Vec<i64> = w.values().iter().map(|&x| i64::from(x)).collect();
    sorted_by_value(&values, sort, |_| 0.0)
}

/// Indices of `values` in `sort` order, ties in index order; `change(i)` is parameter i's
/// change in units of its range, for [`SortOrder::Change`].
fn sorted_by_value(values: &[i64], sort: SortOrder, change: impl Fn(usize) -> f64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    match sort {
        SortOrder::Number => {}
        SortOrder::Weight => idx.sort_by_key(|&i| std::cmp::Reverse(values[i])),
        SortOrder::Abs => idx.sort_by_key(|&i| std::cmp::Reverse(values[i].unsigned_abs())),
        SortOrder::Change => idx.sort_by(|&a, &b| change(b).total_cmp(&change(a))),
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
    lines.push(format!("counts: {}", class_counts(w)));
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Is parameter `name` a hidden unit's: an input weight or the bias of a `net66` unit
/// (`hiddenJ.NAME`), or a `board` unit's input weight (`INPUT>J`) or bias (`hiddenJ.bias`)?
pub fn is_hidden(name: &str) -> bool {
    name.contains('>')
        || name
            .strip_prefix("hidden")
            .and_then(|r| r.split_once('.'))
            .is_some_and(|(j, _)| j.parse::<u32>().is_ok())
}

/// A network's hidden unit as `show` sums it up ([`hidden_units`]).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenUnit {
    /// Its output weight (`outJ`; 0 where the set has none).
    pub out: i16,
    /// Its bias (`hiddenJ.bias`; 0 where the set has none).
    pub bias: i16,
    /// The size of its input weights: the root of their sum of squares.
    pub size: f64,
    /// Its input weights by input name (`NAME` of `hiddenJ.NAME`, `INPUT` of `INPUT>J`),
    /// largest |weight| first (equal ones in the set's order).
    pub inputs: Vec<(&'static str, i16)>,
}

/// The hidden units `hidden1..hiddenH` of network weights `w` (none for a linear set).
pub fn hidden_units(w: &Weights) -> Vec<HiddenUnit> {
    let params = w.set().params();
    (1..=w.set().hidden())
        .map(|j| {
            // A net66 unit's input weights are `hiddenJ.NAME`, a board unit's `INPUT>J`.
            let (unit, into) = (format!("hidden{j}."), format!(">{j}"));
            let of = |name: &str| params.iter().position(|p| p.name == name).map(|i| w[i]);
            let mut inputs: Vec<(&'static str, i16)> = params
                .iter()
                .enumerate()
                .filter_map(|(i, p)| {
                    let input = p.name.strip_prefix(unit.as_str());
                    Some((input.or_else(|| p.name.strip_suffix(into.as_str()))?, w[i]))
                })
                .filter(|(n, _)| *n != "bias")
                .collect();
            let size = inputs
                .iter()
                .map(|(_, v)| f64::from(*v).powi(2))
                .sum::<f64>()
                .sqrt();
            inputs.sort_by_key(|(_, v)| std::cmp::Reverse(i32::from(*v).abs()));
            HiddenUnit {
                out: of(&format!("out{j}")).unwrap_or(0),
                bias: of(&format!("{unit}bias")).unwrap_or(0),
                size,
                inputs,
            }
        })
        .collect()
}

/// For a network set (`net66:H`, `board:H`), its layers and where their weights are (weight numbers from 1), one
/// line each; None for the linear sets.
pub fn net_layers(set: ParamSet) -> Option<String> {
    let h = set.hidden();
    if h == 0 {
        return None;
    }
    let n = NUM_ALL;
    // The output weights are the last h weights of both kinds of network.
    let outs = set.len() - h;
    let mut s = format!("layers: the {n} values, weighted and summed (weights 1-{n}), plus\n");
    if set.is_board() {
        let biases = n + h * BOARD_INPUTS;
        s.push_str(&format!(
            "  {h} hidden units hidden1..hidden{h} over the {BOARD_INPUTS} board inputs (own_man, \
             own_king, opp_man, opp_king on squares 1-32 from the player's side, and to_move): \
             each input's weights INPUT>1..INPUT>{h} (weights {}-{biases}), then the biases \
             hidden1.bias..hidden{h}.bias (weights {}-{outs}): activation clamp((bias + weights \
             of the inputs present) >> {NET_SHIFT}, 0, {NET_ACT_MAX})\n",
            n + 1,
            biases + 1
        ));
        s.push_str(&format!(
            "  1 output: out1..out{h} times the activations (weights {}-{}), added to the sum\n",
            outs + 1,
            outs + h
        ));
        return Some(s);
    }
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

/// What one man is worth in `w`'s units, as `show` says it: [`crate::man_value`], the one
/// definition of a man that `play`, `hub`, `eval` and the exports use, or why there is none.
pub fn man_line(w: &Weights) -> String {
    let eval = (*w).into();
    match crate::man_value(&eval) {
        Some(m) => format!(
            "one man: {m} units (the median, over the ballot's positions, of a man's worth: the \
             man of play, hub, eval and the exports' MAN_VALUE)"
        ),
        None => format!(
            "one man: not valued by these weights (the median, over the ballot's positions, of \
             a man's worth is {}): play and eval give values in these units, hub's scores \
             are hundreds of them, the exports' MAN_VALUE is 1",
            crate::man_median(&eval)
        ),
    }
}

/// How many weights are in each class: `high+ 8, med+ 58, low 458, med- 66, high- 20`.
pub fn class_counts(w: &Weights) -> String {
    let counts: Vec<String> = Priority::ALL
        .iter()
        .map(|&c| {
            let n = w.values().iter().filter(|&&x| Priority::of(x) == c).count();
            format!("{} {n}", c.label())
        })
        .collect();
    counts.join(", ")
}

/// The table `show` prints for an outside engine's parameters: number, the engine's name, the
/// value genome `w` stands for, its declared default, the change from it, and the declared
/// range; rows in `sort` order, of the values shown (`weight`: highest value first, `abs`:
/// largest |value| first, `change`: largest change from the declared value in units of the
/// declared range first).
pub fn engine_table(spec: &crate::genome::EngineSpec, w: &Weights, sort: SortOrder) -> String {
    let values = spec.values(w);
    let change = |i: usize| {
        let t = &spec.tuned[i];
        (values[i] - t.default).unsigned_abs() as f64 / (t.max - t.min).max(1) as f64
    };
    let name_w = spec
        .tuned
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:>3} {:<name_w$} {:>8} {:>8} {:>8}  range\n",
        "#", "name", "value", "default", "change"
    );
    out.push_str(&"-".repeat(3 + 1 + name_w + 3 * 9 + 2 + 12));
    out.push('\n');
    for i in sorted_by_value(&values, sort, change) {
        let (t, v) = (&spec.tuned[i], values[i]);
        let change = match v - t.default {
            0 => "0".to_string(),
            d => format!("{d:+}"),
        };
        out.push_str(&format!(
            "{:>3} {:<name_w$} {v:>8} {:>8} {change:>8}  {}..{}\n",
            i + 1,
            t.name,
            t.default,
            t.min,
            t.max
        ));
    }
    out
}

/// What `show` prints of weights `w` below its header: the set and its size, a network's
/// layers ([`net_layers`]), what one man is worth ([`man_line`]), the class legend with the
/// counts, the table in `sort` order ([`show_table`]) and, for a network without `network`,
/// its hidden units one line each; wrapped to [`TABLE_WIDTH`] columns.
pub fn weights_text(w: &Weights, sort: SortOrder, network: bool) -> String {
    let set = w.set();
    let mut text = format!("parameters: {set} ({} weights)\n", set.len());
    if let Some(layers) = net_layers(set) {
        for line in layers.lines() {
            // Wrapped under itself, its indent kept.
            let body = line.trim_start();
            let lead = &line[..line.len() - body.len()];
            let more = format!("{lead}    ");
            for (k, part) in wrap(body, TABLE_WIDTH - more.len(), "").iter().enumerate() {
                text.push_str(if k == 0 { lead } else { &more });
                text.push_str(part);
                text.push('\n');
            }
        }
    }
    text.push_str(&wrap(&man_line(w), TABLE_WIDTH, "  ").join("\n"));
    text.push('\n');
    text.push_str(&class_legend(w));
    text.push('\n');
    text.push_str(&show_table(w, sort, network));
    if set.hidden() > 0 && !network {
        text.push('\n');
        text.push_str(&hidden_units_text(w));
    }
    text
}

/// The class column explained, before the table: the thresholds, and how many weights are in
/// each class.
fn class_legend(w: &Weights) -> String {
    let text = format!(
        "class: |weight| {HIGH_THRESHOLD} or more is high, {MEDIUM_THRESHOLD} or more medium \
         (med), less low; + positive, - negative. Counts: {}",
        class_counts(w)
    );
    let mut s = wrap(&text, TABLE_WIDTH, "  ").join("\n");
    s.push('\n');
    s
}

/// The table of `show` within [`TABLE_WIDTH`] columns: number, name, weight, class and
/// description (wrapped under itself) of each weight in `sort` order, under a rule; a
/// network's hidden units ([`is_hidden`]) only with `network`. ([`weights_table`] cuts the
/// descriptions to a width instead, and ends with the legend.)
pub fn show_table(w: &Weights, sort: SortOrder, network: bool) -> String {
    let params = w.set().params();
    let rows: Vec<usize> = sorted_indices(w, sort)
        .into_iter()
        .filter(|&i| network || !is_hidden(params[i].name))
        .collect();
    let name_w = rows
        .iter()
        .map(|&i| params[i].name.len())
        .max()
        .unwrap_or(4);
    let nw = w.len().to_string().len().max(2);
    let prefix = nw + 1 + name_w + 1 + 6 + 1 + 5 + 1;
    let desc_w = TABLE_WIDTH.saturating_sub(prefix).max(20);
    let indent = " ".repeat(prefix);
    let mut lines = vec![format!(
        "{:>nw$} {:<name_w$} {:>6} {:<5} {}",
        "#", "name", "weight", "class", "description"
    )];
    for &i in &rows {
        let p = &params[i];
        let desc = wrap(p.description, desc_w, "");
        let head = format!(
            "{:>nw$} {:<name_w$} {:>6} {:<5} {}",
            i + 1,
            p.name,
            w[i],
            Priority::of(w[i]).label(),
            desc[0]
        );
        lines.push(head.trim_end().to_string());
        for more in &desc[1..] {
            lines.push(format!("{indent}{more}"));
        }
    }
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    lines.insert(1, "-".repeat(width.min(TABLE_WIDTH)));
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// A network's hidden units ([`hidden_units`]), one line each: its output weight, its bias,
/// the size of its input weights (the root of their sum of squares) and its largest by
/// |weight| (three where they fit [`TABLE_WIDTH`], else fewer), under a line saying so.
fn hidden_units_text(w: &Weights) -> String {
    let mut s = String::from(
        "hidden units (each weight: show --network): output weight, bias, size of the input \
         weights (root of the sum of squares) and the largest of them\n",
    );
    s = wrap(&s, TABLE_WIDTH, "  ").join("\n");
    s.push('\n');
    for (k, unit) in hidden_units(w).iter().enumerate() {
        let j = k + 1;
        // The largest three, or fewer where three do not fit the width.
        let line = (1..=3)
            .rev()
            .map(|k| {
                let top: Vec<String> = unit
                    .inputs
                    .iter()
                    .take(k)
                    .map(|(n, v)| format!("{n} {v:+}"))
                    .collect();
                format!(
                    "{:<8} out {:>6}  bias {:>6}  size {:>6.0}  {}",
                    format!("hidden{j}"),
                    unit.out,
                    unit.bias,
                    unit.size,
                    top.join(", ")
                )
            })
            .find(|l| l.chars().count() <= TABLE_WIDTH)
            .unwrap_or_default();
        s.push_str(&line);
        s.push('\n');
    }
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
    fn a_networks_hidden_units_are_summed_up() {
        for set in [ParamSet::Net66(2), ParamSet::Board(2)] {
            let params = set.params();
            let mut values = vec![0i16; set.len()];
            for (i, p) in params.iter().enumerate() {
                values[i] = match p.name {
                    "out2" => 7,
                    "hidden2.bias" => -5,
                    n if is_hidden(n) && (n.ends_with(">2") || n.starts_with("hidden2.")) => {
                        if values.iter().all(|&v| v == 0) {
                            -4
                        } else {
                            3
                        }
                    }
                    _ => 0,
                };
            }
            let w = Weights::new(set, &values).unwrap();
            let units = hidden_units(&w);
            assert_eq!(units.len(), 2, "{set}");
            assert_eq!((units[0].out, units[0].bias, units[0].size), (0, 0, 0.0));
            let u = &units[1];
            assert_eq!((u.out, u.bias), (7, -5), "{set}");
            // One input weight -4, the others 3: the -4 first.
            assert_eq!(u.inputs[0].1, -4, "{set}");
            let n = u.inputs.len() as f64;
            assert!(
                (u.size - (16.0 + 9.0 * (n - 1.0)).sqrt()).abs() < 1e-9,
                "{set}"
            );
        }
        assert!(hidden_units(&crate::material()).is_empty());
        assert!(is_hidden("hidden3.bias") && is_hidden("own_man12>2"));
        assert!(!is_hidden("out3") && !is_hidden("hiddenX.y"));
    }

    #[test]
    fn show_sums_up_a_networks_hidden_units_unless_asked_for_every_weight() {
        let set = ParamSet::Net66(2);
        let values: Vec<i16> = (0..set.len()).map(|i| (i % 7) as i16 - 3).collect();
        let w = Weights::new(set, &values).unwrap();
        let short = weights_text(&w, SortOrder::Number, false);
        let full = weights_text(&w, SortOrder::Number, true);
        let row = |t: &str, name: &str| t.lines().any(|l| l.contains(&format!(" {name} ")));
        assert!(short.starts_with("parameters: net66:2 ("), "{short}");
        assert!(short.contains("\nhidden units (each weight: show --network)"));
        for j in [1, 2] {
            let unit = short
                .lines()
                .find(|l| l.starts_with(&format!("hidden{j} ")));
            assert!(unit.is_some_and(|l| l.contains(" out ") && l.contains(" size ")));
        }
        assert!(!row(&short, "hidden1.bias") && row(&short, "out1"));
        assert!(row(&full, "hidden1.bias") && row(&full, "out1"));
        assert!(!full.contains("hidden units (each weight"));
        // A linear set: no hidden units, every line within the width.
        let linear = weights_text(&crate::material(), SortOrder::Abs, false);
        assert!(!linear.contains("hidden units"));
        for l in linear.lines() {
            assert!(l.chars().count() <= TABLE_WIDTH, "{l}");
        }
        assert_eq!(
            show_table(&crate::material(), SortOrder::Number, false)
                .lines()
                .count(),
            linear.lines().skip_while(|l| !l.starts_with(" #")).count()
        );
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
}
