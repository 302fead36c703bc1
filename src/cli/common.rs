//! Pieces shared by the subcommands: reading players and weights, thread pools, output.

use anyhow::Context;
use checkers_ga::eval::Weights;
use checkers_ga::rng::{derive, Purpose};
use checkers_ga::search::SearchConfig;
use std::io::IsTerminal;
use std::path::Path;

/// Loads a weight file, or makes random weights for the word `random` (from `seed`).
pub fn weights_arg(spec: &str, seed: u64, slot: u64) -> anyhow::Result<(String, Weights)> {
    if spec == "random" {
        let mut rng = derive(seed, Purpose::Initial, u64::MAX, slot);
        return Ok(("random".to_string(), Weights::random(&mut rng)));
    }
    let w = checkers_ga::weights::load_weights(Path::new(spec))?;
    let name = Path::new(spec)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| spec.to_string());
    Ok((name, w))
}

/// Search settings from the common flags.
pub fn search_config(depth: u32, no_extension: bool, tt_log2: u8) -> SearchConfig {
    SearchConfig {
        depth,
        capture_extension: !no_extension,
        tt_log2,
    }
}

/// A rayon pool with `threads` workers (0 = one per core).
pub fn pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the thread pool")
}

/// Should progress bars be drawn? Only on a terminal.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}
