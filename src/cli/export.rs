//! `checkers-ga export FILE --format F`: weights as JSON, CSV, Rust, a C header or the original
//! tool's text format.

use super::common::weights_arg;
use anyhow::{bail, Context};
use checkers_ga::formats::ExportFormat;
use checkers_ga::fresh_seed;
use checkers_ga::summary::select;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ExportArgs {
    /// A weight file (JSON, CSV or the original `60 1` text), a checkpoint (.ckpt: its best so
    /// far), a session folder or a session's name (its newest checkpoint, as `resume` takes
    /// it: NAME is populations/NAME/), a population file of the original tool
    /// (its first individual), or the built-in `material`, `thesis` or `random`
    #[arg(value_name = "FILE|FOLDER|NAME")]
    pub file: String,
    /// Output format: json, csv, rust, c or original; for an outside engine's parameters hub
    /// (its set-param lines) or json (the values by name)
    #[arg(long, short = 'f', value_name = "FORMAT")]
    pub format: String,
    /// Write to this file instead of standard output
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Overwrite OUT if it exists
    #[arg(long)]
    pub force: bool,
    /// Export individual K, numbered from 1, of a checkpoint's last evaluated population or of
    /// a population file
    #[arg(long, short = 'i', value_name = "K")]
    pub individual: Option<usize>,
    /// Seed of `random` weights (drawn when absent; the export names it)
    #[arg(long)]
    pub seed: Option<u64>,
    /// C: the prefix of every name in the header and of its include guard (`_` is added; upper
    /// case for macros), so that two exports can be included in one program; Rust: the
    /// suggested module name. Default: from the input's file name (evolved-hour.json gives
    /// evolved_hour_; a session's NAME/best.json, NAME_best_)
    #[arg(long, value_name = "NAME")]
    pub prefix: Option<String>,
    /// Folder of session folders, where a session's NAME is looked for
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
}

pub fn run(a: ExportArgs) -> anyhow::Result<()> {
    let file = checkers_ga::formats::in_populations(&a.file, &a.populations);
    let arg = weights_arg(&file, a.seed.unwrap_or_else(fresh_seed), 0)?;
    let sel = select(&arg.input, a.individual)?;
    // One list of formats (ExportFormat::ALL) for the weights and for an engine's parameters.
    let format: ExportFormat = a
        .format
        .parse()
        .map_err(|e: checkers_ga::formats::FormatError| super::Usage(e.to_string()))?;
    let shown = std::path::Path::new(&arg.shown);
    let file_name = shown
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| arg.shown.clone());
    // A session's answer (`NAME/best.json`) is named by its session.
    let prefix = (a.prefix.clone())
        .or_else(|| checkers_ga::formats::answer_prefix(shown, checkers_ga::BEST_FILE));
    let text = sel.export(format, &file_name, arg.title.as_deref(), prefix.as_deref())?;
    write_out(&a, &text, format.name(), &arg.shown)
}

/// Writes an export to standard output, or to `--output` (refusing to overwrite without
/// `--force`).
fn write_out(a: &ExportArgs, text: &str, format: &str, shown: &str) -> anyhow::Result<()> {
    match &a.output {
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .context("cannot write to standard output")?,
        Some(out) => {
            if out.is_dir() {
                bail!("'{}' is a folder; give a file name", out.display());
            }
            if out.exists() && !a.force {
                bail!(
                    "'{}' already exists; add --force to overwrite it",
                    out.display()
                );
            }
            checkers_ga::write_atomic(out, text.as_bytes())
                .with_context(|| format!("cannot write '{}'", out.display()))?;
            println!("wrote {} ({format}, from {shown})", out.display());
        }
    }
    Ok(())
}
