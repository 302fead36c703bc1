//! A session of an outside engine: its defaults before the user's settings (the parameter set,
//! the mean, the population and steps measured for engines), its search depth, and the log of
//! the games the engine lost by a fault.

use crate::ga::Settings;
use crate::genome::EngineSpec;
use std::path::Path;

/// The session's log of an outside engine's faults, in its folder: one line for each game
/// the engine lost by a fault or on time, added after each generation or step, whichever the
/// tuner (their count is in the history).
pub const FAULTS_FILE: &str = "faults.log";

/// Adds the faults of a step (`at`: `generation 12`, `step 40`) to [`FAULTS_FILE`], each line
/// after `at` (the file written again whole: temp name, sync, rename). A log that cannot be
/// written is not worth stopping the session for: the count is in the history either way.
pub(super) fn log_faults(dir: &Path, at: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let path = dir.join(FAULTS_FILE);
    let mut text = std::fs::read_to_string(&path).unwrap_or_default();
    for f in lines {
        text.push_str(&format!("{at}, {f}\n"));
    }
    let _ = crate::files::write_atomic(&path, text.as_bytes());
}

/// The defaults of a session that tunes an outside engine, before the user's settings: its
/// parameter set, no fit, no measurement, and the mean ([`crate::ga::Method::Mean`]: mirrored
/// pairs around the declared values, the answer the centres' average), which tuned better per
/// game than the GA's selections and than SPSA on the tuning simulator and on real engines
/// (docs/results.md). The GA's steps are those measured for engines (a gene spans the
/// parameter's whole range, so a step is a share of it).
pub(super) fn engine_defaults(settings: &mut Settings, engine: &EngineSpec) {
    settings.ga.params = engine.params();
    settings.ga.fit_every = 0;
    // A measurement is 312 games that tune nothing: under a budget of games they are games
    // the tuning does not get (`--measure-every K` asks for them).
    settings.ga.measure_every = 0;
    settings.ga.method = crate::ga::engine_mean(engine.tuned.len());
    settings.ga.init_range = ENGINE_INIT_RANGE;
    settings.ga.mutation = crate::ga::Mutation::Gauss {
        sigma: ENGINE_SIGMA,
        genes: engine_genes(engine.tuned.len()),
    };
    settings.search.depth = engine.depth;
    settings.engine = Some(engine.clone());
    settings.ga.in_flight = crate::ga::default_in_flight(settings);
}

/// The population of an outside engine's session unless given: 8 mirrored pairs, 16 games a
/// generation. On our engine's 66 weights through the protocol it tuned better than 48 (more
/// pairs a step, a third of the steps) at 4,000 games (docs/results.md).
pub const ENGINE_POPULATION: usize = 16;

/// Newcomers of an outside engine's session start within this share of 65535 of each
/// parameter's range around its declared value (about an eighth of the range either way).
pub const ENGINE_INIT_RANGE: u16 = 8192;
/// The Gaussian step of an outside engine's session: about 3% of a parameter's range.
/// Measured on our engine's 66 weights through the protocol (docs/results.md): a quarter of
/// the genes moved by this step tuned better at equal games than one gene moved twice as far.
pub const ENGINE_SIGMA: u32 = 2048;

/// The genes a mutation moves in an outside engine's session of `n` parameters: a quarter of
/// them, at least one.
pub fn engine_genes(n: usize) -> u32 {
    (n / 4).max(1) as u32
}

/// An outside engine searches to the session's depth.
pub(super) fn follow_depth(settings: &mut Settings) {
    let depth = settings.search.depth;
    if let Some(e) = settings.engine.as_mut() {
        e.depth = depth;
    }
}
