//! `checkers-ga show FILE`: the parameters of the weights' set (66 for the default endgame66)
//! with their weights and priority classes.

use super::common::weights_arg;
use anyhow::Context;
use checkers_ga::formats::InputKind;
use checkers_ga::fresh_seed;
use checkers_ga::summary::{
    class_counts, hidden_units, is_hidden, select, sorted_indices, wrap, Priority, SortOrder,
    HIGH_THRESHOLD, MEDIUM_THRESHOLD, TABLE_WIDTH,
};
use checkers_ga::weightfile::load_weight_file;
use checkers_ga::Weights;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ShowArgs {
    /// A weight file (JSON, CSV or the original `60 1` text), a checkpoint (.ckpt: its best so
    /// far), a session folder or a session's name (its newest checkpoint, as `resume` takes
    /// it: NAME is populations/NAME/), a population file of the original tool
    /// (its first individual), or the built-in `material`, `thesis` or `random`; the kind of
    /// file is told by the content
    #[arg(value_name = "FILE|FOLDER|NAME")]
    pub file: String,
    /// Show individual K, numbered from 1: of a checkpoint's last evaluated population (with
    /// its points and W/D/L by colour) or of a population file
    #[arg(long, short = 'i', value_name = "K")]
    pub individual: Option<usize>,
    /// Row order: number, weight (highest first), abs (largest |weight| first) or, for an
    /// outside engine's parameters, change (largest change from the declared value, in units
    /// of the declared range, first); an engine's parameters sort by the values shown
    #[arg(long, default_value = "number")]
    pub sort: String,
    /// Seed of `random` weights (drawn and printed when absent)
    #[arg(long)]
    pub seed: Option<u64>,
    /// A network's hidden units weight by weight (net66: 536 rows, board: 131 per unit) instead
    /// of one line each
    #[arg(long, alias = "full")]
    pub network: bool,
    /// Folder of session folders, where a session's NAME is looked for
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
}

pub fn run(a: ShowArgs) -> anyhow::Result<()> {
    let sort: SortOrder = a
        .sort
        .parse()
        .map_err(|e: checkers_ga::summary::ReportError| super::Usage(e.to_string()))?;
    let file = checkers_ga::formats::in_populations(&a.file, &a.populations);
    let arg = weights_arg(&file, a.seed.unwrap_or_else(fresh_seed), 0)?;
    let sel = select(&arg.input, a.individual)?;
    let mut out = std::io::stdout().lock();
    let title = arg.title.as_deref().unwrap_or(&sel.title);
    let header = format!("{}: {title}", arg.shown);
    let mut text = wrap(&header, TABLE_WIDTH, "  ").join("\n");
    text.push('\n');
    for d in &sel.details {
        text.push_str(d);
        text.push('\n');
    }
    if sel.kind == InputKind::Json && arg.title.is_none() {
        // A session's best-weights file names the session and generation it comes from.
        let file = std::path::Path::new(&a.file);
        if let Ok(Some(o)) = load_weight_file(file).map(|f| f.origin) {
            text.push_str(&format!("best so far of {o}\n"));
        }
    }
    if let Some(engine) = &sel.engine {
        // An outside engine's parameters, by its names.
        text.push_str(&format!(
            "outside engine '{}' ({}), {}: {}\n\n",
            engine.engine.name,
            engine.engine.program.command.join(" "),
            engine.level(),
            checkers_ga::count(engine.tuned.len(), "tuned parameter", "tuned parameters")
        ));
        text.push_str(&checkers_ga::summary::engine_table(
            engine,
            &sel.weights,
            sort,
        ));
        out.write_all(text.as_bytes())
            .context("cannot write to standard output")?;
        return Ok(());
    }
    if sort == SortOrder::Change {
        usage!(
            "--sort change orders an outside engine's parameters by their change from the \
             declared values; weights have none (sort by number, weight or abs)"
        );
    }
    let set = sel.weights.set();
    text.push_str(&format!("parameters: {set} ({} weights)\n", set.len()));
    if let Some(layers) = checkers_ga::summary::net_layers(set) {
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
    let man = checkers_ga::summary::man_line(&sel.weights);
    text.push_str(&wrap(&man, TABLE_WIDTH, "  ").join("\n"));
    text.push('\n');
    text.push_str(&class_legend(&sel.weights));
    text.push('\n');
    text.push_str(&table(&sel.weights, sort, a.network));
    if set.hidden() > 0 && !a.network {
        text.push('\n');
        text.push_str(&hidden_units_text(&sel.weights));
    }
    out.write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(())
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

/// The table of weights within [`TABLE_WIDTH`] columns: number, name, weight, class and
/// description (wrapped under itself); a network's hidden units only with `network`.
fn table(w: &Weights, sort: SortOrder, network: bool) -> String {
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
/// |weight| (three where they fit).
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
