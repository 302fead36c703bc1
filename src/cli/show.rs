//! `checkers-ga show FILE`: the parameters of the weights' set (66 for the default endgame66)
//! with their weights and priority classes.

use super::common::weights_arg;
use anyhow::Context;
use checkers_ga::formats::InputKind;
use checkers_ga::report::{select, weights_table, wrap, SortOrder, TABLE_WIDTH};
use checkers_ga::rng::fresh_seed;
use checkers_ga::weightfile::load_weight_file;
use std::io::{IsTerminal, Write};

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
    /// Row order: number, weight (highest first) or abs (largest |weight| first)
    #[arg(long, default_value = "number")]
    pub sort: String,
    /// Seed of `random` weights (drawn and printed when absent)
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn run(a: ShowArgs) -> anyhow::Result<()> {
    let sort: SortOrder = a.sort.parse()?;
    let arg = weights_arg(&a.file, a.seed.unwrap_or_else(fresh_seed), 0)?;
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
    let set = sel.weights.set();
    text.push_str(&format!("parameters: {set} ({} weights)\n", set.len()));
    if let Some(layers) = checkers_ga::report::net_layers(set) {
        text.push_str(&layers);
    }
    text.push('\n');
    // Descriptions are cut to the table's width on a terminal only: a file or a pipe gets
    // them whole.
    let width = out.is_terminal().then_some(TABLE_WIDTH);
    text.push_str(&weights_table(&sel.weights, sort, width));
    out.write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(())
}
