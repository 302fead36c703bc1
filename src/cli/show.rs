//! `checkers-ga show FILE`: the parameters of the weights' set (66 for the default endgame66)
//! with their weights and priority classes.

use super::common::weights_arg;
use anyhow::Context;
use checkers_ga::formats::InputKind;
use checkers_ga::fresh_seed;
use checkers_ga::summary::{select, weights_text, wrap, SortOrder, TABLE_WIDTH};
use checkers_ga::weightfile::load_weight_file;
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
    text.push_str(&weights_text(&sel.weights, sort, a.network));
    out.write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(())
}
