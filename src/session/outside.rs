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
    settings.search.depth = engine.depth();
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
        e.engine.depth = Some(depth);
    }
}

/// The outside engine a tuning session tunes, as a person names it (`new --engine`, `spsa`,
/// `cmaes`): its command line (a `hub:` prefix allowed; `sim:N[:SEED]` for the tuning
/// simulator), options set the same for every game, the move timeout, the depth, the
/// parameters to tune (empty: every `int` it declares with a range) and, for games on a clock,
/// the time control and its margin. [`EngineRequest::spec`] checks it and reads the engine's
/// declarations. The defaults are the library's: a move timeout of 60 s, no margin.
#[derive(Clone, Debug)]
pub struct EngineRequest {
    /// The engine's command line.
    pub command: String,
    /// `NAME=VALUE` options (`--engine-option`).
    pub options: Vec<String>,
    /// Seconds a move may take before the engine counts as hung (None: 60).
    pub move_timeout: Option<f64>,
    /// The depth of every game.
    pub depth: u32,
    /// The parameters to tune, by the engine's names.
    pub tune: Vec<String>,
    /// Every game on this clock instead of to the depth (`--tc`).
    pub tc: Option<crate::clock::TimeControl>,
    /// With a clock: milliseconds a move may end past it (`--time-margin`; None: 0).
    pub time_margin_ms: Option<u64>,
}

impl Default for EngineRequest {
    /// No command yet, at the default depth ([`crate::DEFAULT_DEPTH`]), every other flag
    /// absent.
    fn default() -> EngineRequest {
        EngineRequest {
            command: String::new(),
            options: Vec::new(),
            move_timeout: None,
            depth: crate::ga::DEFAULT_DEPTH,
            tune: Vec::new(),
            tc: None,
            time_margin_ms: None,
        }
    }
}

/// Why an [`EngineRequest`] gives no engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineRequestError {
    /// A flag that cannot hold, before any engine is started: the line names it (a usage
    /// error).
    #[error("{0}")]
    Flag(String),
    /// The command line names no program that can be started.
    #[error("--engine {command}: {error}")]
    Command {
        /// The command line as given.
        command: String,
        /// What is wrong with it.
        error: String,
    },
    /// The engine, started, cannot be tuned as asked.
    #[error(transparent)]
    Engine(#[from] crate::genome::EngineError),
    /// The folder the engine would run in cannot be told.
    #[error("cannot tell the current folder: {0}")]
    Folder(std::io::Error),
}

impl EngineRequest {
    /// The engine as a session keeps it: every flag checked first (a [`EngineRequestError::Flag`]
    /// before anything is started), then the engine started once, in the current folder, to read
    /// what it declares ([`EngineSpec::probe`]); the simulator's model for `sim:N`.
    pub fn spec(&self) -> Result<EngineSpec, EngineRequestError> {
        let flag = |s: String| Err(EngineRequestError::Flag(s));
        if let Err(e) = crate::search::check_depth(self.depth, "--depth") {
            return flag(e.to_string());
        }
        let cmd = self.command.as_str();
        let sim = match cmd.starts_with(crate::sim::SIM_PREFIX) {
            true => Some(
                crate::sim::SimModel::parse(cmd)
                    .map_err(|e| EngineRequestError::Flag(format!("--engine {e}")))?,
            ),
            false => None,
        };
        if sim.is_some() && (!self.tune.is_empty() || !self.options.is_empty()) {
            return flag(format!(
                "--engine {cmd}: the simulator takes no --tune or --engine-option (every \
                 parameter of its model is tuned)"
            ));
        }
        let Some(tc) = self.tc else {
            if self.time_margin_ms.is_some() {
                return flag("--time-margin needs --tc (a fixed depth has no clock)".into());
            }
            return self.untimed(sim);
        };
        if sim.is_some() {
            return flag("--tc: the simulator plays no moves, so it has no clock".into());
        }
        let margin = crate::clock::check_margin(self.time_margin_ms.unwrap_or(0))
            .map_err(|e| EngineRequestError::Flag(e.to_string()))?;
        let mut spec = self.untimed(sim)?;
        spec.tc = Some(tc);
        spec.time_margin = margin;
        Ok(spec)
    }

    /// The engine to its depth (`sim`: the simulator's size and seed).
    fn untimed(&self, sim: Option<(usize, u64)>) -> Result<EngineSpec, EngineRequestError> {
        let cmd = self.command.as_str();
        if let Some((n, seed)) = sim {
            let model = crate::sim::SimModel::new(n, seed);
            return Ok(EngineSpec::simulated(&model, self.depth));
        }
        let options = crate::hub::parse_options(&self.options).map_err(|o| {
            EngineRequestError::Flag(format!("--engine-option '{o}' must be NAME=VALUE"))
        })?;
        let timeout = match self.move_timeout {
            None => crate::hub::DEFAULT_MOVE_TIMEOUT,
            Some(t) => crate::clock::check_timeout("--move-timeout", t)
                .map_err(|e| EngineRequestError::Flag(e.to_string()))?,
        };
        let bare = cmd.strip_prefix("hub:").unwrap_or(cmd);
        let mut engine = crate::side::OutsideEngine::from_command(bare).map_err(|error| {
            EngineRequestError::Command {
                command: cmd.to_string(),
                error,
            }
        })?;
        let dir = std::env::current_dir().map_err(EngineRequestError::Folder)?;
        engine.program.dir = Some(dir);
        engine.program.options = options;
        engine.depth = Some(self.depth);
        engine.move_timeout = timeout;
        Ok(EngineSpec::probe(engine, &self.tune)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flag_of(r: &EngineRequest) -> String {
        match r.spec() {
            Err(EngineRequestError::Flag(line)) => line,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_request_checks_its_flags_before_it_starts_anything() {
        let sim = EngineRequest {
            command: "sim:4:9".into(),
            depth: 3,
            ..EngineRequest::default()
        };
        let spec = sim.spec().unwrap();
        assert_eq!((spec.tuned.len(), spec.depth()), (4, 3));
        let deep = EngineRequest {
            depth: 0,
            ..sim.clone()
        };
        assert!(
            flag_of(&deep).starts_with("--depth 0 "),
            "{}",
            flag_of(&deep)
        );
        let flag = |r: EngineRequest| flag_of(&r);
        let tc = "0.1".parse().ok();
        assert!(flag(EngineRequest { tc, ..sim.clone() }).starts_with("--tc:"));
        let tune = vec!["p1".to_string()];
        assert!(flag(EngineRequest {
            tune,
            ..sim.clone()
        })
        .contains("takes no --tune"));
        // No program of this name is started: the flag is wrong first.
        let missing = EngineRequest {
            command: "no-such-engine-anywhere".into(),
            ..EngineRequest::default()
        };
        let line = flag(EngineRequest {
            time_margin_ms: Some(5),
            ..missing.clone()
        });
        assert_eq!(
            line,
            "--time-margin needs --tc (a fixed depth has no clock)"
        );
        let bad = EngineRequest {
            options: vec!["x".into()],
            ..missing.clone()
        };
        assert_eq!(flag(bad), "--engine-option 'x' must be NAME=VALUE");
        match missing.spec() {
            Err(EngineRequestError::Command { command, .. }) => {
                assert_eq!(command, "no-such-engine-anywhere")
            }
            other => panic!("{other:?}"),
        }
    }
}
