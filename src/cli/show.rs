//! `checkers-ga show FILE`: the parameters with their weights and priority classes.

use anyhow::Context;
use checkers_ga::formats::{load_input, InputKind};
use checkers_ga::report::{select, weights_table, wrap, SortOrder, TABLE_WIDTH};
use checkers_ga::weights::load_weight_file;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ShowArgs {
    /// A weight file (JSON, CSV or the original `60 1` text), a checkpoint (.ckpt: its best so
    /// far) or a population file of the original tool (its first individual); the kind is told
    /// by the content
    pub file: PathBuf,
    /// Show individual K, numbered from 1: of a checkpoint's last evaluated population (with
    /// its points and W-D-L by colour) or of a population file
    #[arg(long, short = 'i', value_name = "K")]
    pub individual: Option<usize>,
    /// Row order: number, weight (highest first) or abs (largest |weight| first)
    #[arg(long, default_value = "number")]
    pub sort: String,
}

pub fn run(a: ShowArgs) -> anyhow::Result<()> {
    let sort: SortOrder = a.sort.parse()?;
    let input = load_input(&a.file)?;
    let sel = select(&input, a.individual)?;
    let mut out = std::io::stdout().lock();
    let header = format!("{}: {}", a.file.display(), sel.title);
    let mut text = wrap(&header, TABLE_WIDTH, "  ").join("\n");
    text.push('\n');
    for d in &sel.details {
        text.push_str(d);
        text.push('\n');
    }
    if sel.kind == InputKind::Json {
        // A session's best-weights file names the session and generation it comes from.
        if let Ok(Some(o)) = load_weight_file(&a.file).map(|f| f.origin) {
            text.push_str(&format!("best so far of {o}\n"));
        }
    }
    let set = sel.weights.set();
    text.push_str(&format!("parameters: {set} ({} weights)\n", set.len()));
    text.push('\n');
    text.push_str(&weights_table(&sel.weights, sort));
    out.write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(())
}
