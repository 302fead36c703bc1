//! Pieces shared by the subcommands: reading players (weights or yardsticks), thread pools,
//! output.

use anyhow::Context;
use checkers_ga::eval::Weights;
use checkers_ga::rng::{derive, Purpose};
use checkers_ga::search::SearchConfig;
use checkers_ga::Evaluator;
use std::io::IsTerminal;
use std::path::Path;

/// The words an evaluator argument accepts besides a file name.
pub const EVALUATOR_NAMES: &str = "material, thesis, random, hand or classic";

/// Resolves a player's evaluator: any file `show` reads (its weights), the built-in weight sets
/// `material` and `thesis`, random weights for `random` (from `seed` and `slot`), or the
/// yardsticks `hand` and `classic`. A built-in name is used only when no file of that name
/// exists. Returns a name for reports and the evaluator.
pub fn evaluator_arg(spec: &str, seed: u64, slot: u64) -> anyhow::Result<(String, Evaluator)> {
    let is_file = Path::new(spec).exists();
    if !is_file {
        if spec == "random" {
            let mut rng = derive(seed, Purpose::Initial, u64::MAX, slot);
            return Ok(("random".to_string(), Weights::random(&mut rng).into()));
        }
        if let Some(e) = Evaluator::yardstick(spec) {
            return Ok((spec.to_string(), e));
        }
        // The shipped weight files are built in, so `material` and `thesis` work from any
        // folder.
        let builtin = match spec {
            "material" => Some(include_str!("../../weights/material.json")),
            "thesis" => Some(include_str!("../../weights/thesis-table-4-2.json")),
            _ => None,
        };
        if let Some(text) = builtin {
            let w = checkers_ga::weights::parse_weights(text)?;
            return Ok((spec.to_string(), w.into()));
        }
    }
    // Anything `show` reads: a weight file, a checkpoint (its best so far), CSV, or a file of
    // the original tool (its weights, or a population's first individual).
    let input = match checkers_ga::formats::load_input(Path::new(spec)) {
        Ok(i) => i,
        Err(e) if !is_file => {
            anyhow::bail!("{e} (and '{spec}' is not one of {EVALUATOR_NAMES})")
        }
        Err(e) => return Err(e.into()),
    };
    let w = checkers_ga::report::select(&input, None)?.weights;
    let name = Path::new(spec)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| spec.to_string());
    Ok((name, w.into()))
}

/// Search settings from the common flags.
pub fn search_config(depth: u32, no_extension: bool, tt_log2: u8) -> SearchConfig {
    SearchConfig {
        depth,
        capture_extension: !no_extension,
        tt_log2,
    }
}

/// More worker threads than any machine this runs on has cores.
const MAX_THREADS: usize = 1024;

/// A rayon pool with `threads` workers (0 = one per core).
pub fn pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    if threads > MAX_THREADS {
        anyhow::bail!("--threads {threads} must be 0..{MAX_THREADS} (0 = one per core)");
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the thread pool")
}

/// Should progress bars be drawn? Only on a terminal.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// Checks, before any work, that a file can be written at `path`: not a folder, and its folder
/// exists. (The write itself goes through a temporary file and a rename.)
pub fn check_output_file(path: &std::path::Path, what: &str) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("{what} '{}' is a folder, not a file", path.display());
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !parent.is_dir() {
        anyhow::bail!(
            "{what} '{}': no folder '{}'",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// Creates a folder the run will write into, before any work.
pub fn ensure_folder(dir: &std::path::Path, what: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the {what} folder '{}'", dir.display()))
}

/// The error of a run that Ctrl-C stopped after saving its work and saying how to continue:
/// the command exits with 130 (the shell's code for SIGINT) and prints nothing more.
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}
