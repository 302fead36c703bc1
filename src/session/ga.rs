//! The GA's sessions (and the mean's): how one is started ([`SessionRun::start`]: its settings,
//! its first population, the best-weights file it may write) or resumed
//! ([`SessionRun::resume`]: from a checkpoint found by name, folder or file, with settings
//! changed: a wider parameter set, another population size), and how its folder keeps its
//! files as it runs: a checkpoint a generation (and its history record), kept as the keep
//! policy says, and its best-weights file. The run itself is every tuner's ([`SessionRun`]).

use super::best::{self, BestFile};
use super::folder::{self, Held};
use super::outside::{engine_defaults, follow_depth, ENGINE_POPULATION};
use super::run::{SessionRun, SessionTuner};
use super::steps::{Keeper, SessionEnd, Steps, Told};
use super::{check_name, default_name, io, options, Overrides, SessionError, SessionOptions};
use crate::eval::{ParamSet, Weights};
use crate::ga::{GaState, GenerationStats, Settings, Stop, DEFAULT_POPULATION};
use crate::genome::EngineSpec;
use crate::jobs::thread_pool;
use crate::rng::fresh_seed;
use crate::store::{self, CheckpointError, StateFiles, TunerSession};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a new session is made of. Absent settings take [`Settings::default`]'s values.
#[derive(Clone, Debug, Default)]
pub struct NewSession {
    /// The folder's name under the populations folder (default: the date and time).
    pub name: Option<String>,
    /// Seed of every random choice (default: drawn, and kept in [`SessionRun::seed_drawn`]).
    pub seed: Option<u64>,
    /// Settings that differ from the defaults.
    pub settings: Overrides,
    /// A first population (e.g. read from a file of the original tool): its size is the
    /// population's; without `settings.params` it continues in thesis60.
    pub from: Option<Vec<Weights>>,
    /// Weights put into the first population in place of random ones, each with a name for
    /// errors.
    pub include: Vec<(String, Weights)>,
    /// Tune this outside engine's own parameters instead of our weights
    /// ([`EngineSpec::probe`] reads what it declares): the genome is its tuned `int`
    /// parameters, its games are played by it, there is no fit, and the yardstick is the
    /// engine with its declared values. Its depth is the session's `--depth`.
    pub engine: Option<EngineSpec>,
}

impl NewSession {
    /// The settings of this new session with seed `seed`, checked: the defaults
    /// ([`Settings::default`]; with `from`, its population size and thesis60; with an outside
    /// engine, its parameter set, no fit and the steps measured for engines), the caller's
    /// settings over them. What
    /// [`SessionRun::start`] starts with, so that a session run elsewhere (the tuning
    /// simulator's runs) has exactly the settings `checkers-ga new` would give it.
    pub fn settings_with(&self, seed: u64) -> Result<Settings, SessionError> {
        let o = &self.settings;
        let population = match (&self.from, o.population) {
            (Some(pop), Some(p)) if p != pop.len() => {
                return Err(SessionError::Input(format!(
                    "--population {p} differs from the {} individuals of --from",
                    pop.len()
                )))
            }
            (Some(pop), _) => pop.len(),
            (None, p) => p.unwrap_or(match &self.engine {
                Some(_) => ENGINE_POPULATION,
                None => DEFAULT_POPULATION,
            }),
        };
        let mut settings = Settings::with_population(population);
        settings.seed = seed;
        if self.from.is_some() {
            // The original tool's population continues in its own 60 parameters unless told.
            settings.ga.params = ParamSet::Thesis60;
        }
        if let Some(engine) = &self.engine {
            if self.from.is_some() || !self.include.is_empty() {
                return Err(SessionError::Input(
                    "--engine takes no --from or --include (the first population is drawn \
                     around the engine's declared values)"
                        .into(),
                ));
            }
            engine_defaults(&mut settings, engine);
        }
        o.apply(&mut settings);
        follow_depth(&mut settings);
        settings.validate()?;
        crate::store::check_checkpoint_size(&settings).map_err(SessionError::Input)?;
        Ok(settings)
    }
}

impl SessionRun<GaState> {
    /// Prepares a new session: checks the settings, makes and locks its folder (refusing one
    /// that has checkpoints) and checks that its best-weights file may be written. Nothing is
    /// made when an input is refused.
    pub fn start(
        spec: NewSession,
        options: SessionOptions,
    ) -> Result<SessionRun<GaState>, SessionError> {
        let pool = thread_pool(options.threads)?;
        let seed_drawn = spec.seed.is_none();
        let seed = spec.seed.unwrap_or_else(fresh_seed);
        let settings = spec.settings_with(seed)?;
        let name = spec
            .name
            .clone()
            .unwrap_or_else(|| default_name(seed, &options.populations));
        check_name(&name)?;
        let mut session = match &spec.from {
            Some(pop) => {
                // Into a larger set (--params): the new weights start at 0.
                let set = settings.ga.params;
                let pop = pop
                    .iter()
                    .map(|w| w.widen(set).expect("60 weights widen into every set"))
                    .collect();
                GaState::with_population(&name, settings, pop)
            }
            None => GaState::new(&name, settings),
        };
        if spec.include.len() > session.population.len() {
            return Err(SessionError::Input(format!(
                "{} --include files do not fit a population of {}",
                spec.include.len(),
                session.population.len()
            )));
        }
        let set = session.settings.ga.params;
        for (slot, (what, w)) in spec.include.iter().enumerate() {
            session.population[slot] = w.widen(set).ok_or_else(|| {
                SessionError::Input(format!(
                    "--include '{what}' holds {} weights; this session evolves {} (--params)",
                    w.set(),
                    set
                ))
            })?;
        }
        // The input holds; now the folders.
        let dir = store::session_dir(&options.populations, &name);
        best::check_weights_folder(&options, &dir, &name)?;
        // Checked before a new folder is made, so a refusal leaves nothing behind.
        let last = best::last_generation(&session);
        let (held, best_seen) = folder::claim(&options.populations, &name, |dir| {
            best::check_lineage(&options, &name, seed, last, dir)
        })?;
        let pool = crate::jobs::pool_for(pool, options.threads, session.settings.engine.as_ref())?;
        let files = GaFiles { options, best_seen };
        let mut run = SessionRun::opened(session, name, held, files, pool);
        run.seed_drawn = seed_drawn;
        Ok(run)
    }

    /// Prepares to continue a session: `target` is a checkpoint file, a session folder or a
    /// session name under the populations folder (None: the newest checkpoint there).
    /// `overrides` change its settings (a wider parameter set widens every weight vector; a
    /// new population size keeps the elite first). Continuing from an older checkpoint starts
    /// a new branch: the newer checkpoints are set aside.
    pub fn resume(
        target: Option<&str>,
        overrides: &Overrides,
        options: SessionOptions,
    ) -> Result<SessionRun<GaState>, SessionError> {
        let pool = thread_pool(options.threads)?;
        let root = &options.populations;
        let found = store::locate(target, root)?;
        let dir = crate::files::folder_of(&found.path);
        best::check_weights_folder(&options, &dir, &found.session.name)?;
        // Held until the session ends. Temp-file cleanup and the set-aside of newer checkpoints
        // below happen only under it, so they never touch the files of a running session.
        let held = folder::enter(&dir)?;
        // Look again now that no one else writes here: a session that held the folder until
        // just now may have written newer checkpoints. A checkpoint named by the caller is read
        // again (it may have been set aside meanwhile).
        let named_file = target.is_some_and(|f| Path::new(f).is_file());
        let found = match dir.to_str() {
            Some(d) if !named_file => store::locate(Some(d), root)?,
            _ => {
                let (session, warning) = store::load_checkpoint_recovering(&found.path)?;
                store::Located {
                    session,
                    path: found.path,
                    skipped: found.skipped,
                    warning,
                }
            }
        };
        let (path, mut session, skipped) = (found.path, found.session, found.skipped);
        let history_lost = found.warning;
        let before = session.settings.clone();
        overrides.apply(&mut session.settings);
        follow_depth(&mut session.settings);
        if let Some(engine) = &session.settings.engine {
            engine
                .check_unchanged()
                .map_err(|error| SessionError::EngineChanged {
                    name: session.name.clone(),
                    error,
                })?;
        }
        let n = session.settings.population;
        if n != before.population {
            // Elite and newcomers that were the default quarter follow the new size, unless
            // given.
            if overrides.elite.is_none() && before.elite == before.population / 4 {
                session.settings.elite = n / 4;
            }
            if overrides.newcomers.is_none() && before.newcomers == before.population / 4 {
                session.settings.newcomers = n / 4;
            }
            // So do the fit's games when they were the default better half.
            if overrides.fit_top.is_none() && before.ga.fit_top as usize == before.population / 2 {
                session.settings.ga.fit_top = (n / 2) as u32;
            }
        }
        session.settings.validate()?;
        crate::store::check_checkpoint_size(&session.settings).map_err(SessionError::Input)?;
        if session.settings.ga.params != before.ga.params {
            let to = session.settings.ga.params;
            session.settings.ga.params = before.ga.params;
            session
                .widen(to)
                .map_err(|e| SessionError::Input(e.to_string()))?;
        }
        if n != before.population {
            options::resize(&mut session, &before);
        }
        // The mean's pairs follow from its centre, whatever the size or spread now; those
        // drawn ahead stand while what drew them is unchanged.
        let session = session.recentred(&before);
        let best_seen = best::check_lineage(
            &options,
            &session.name,
            session.settings.seed,
            best::last_generation(&session),
            &dir,
        )?;
        let moved = store::set_aside_newer(&dir, session.generation).map_err(io(format!(
            "cannot set aside newer checkpoints in '{}'",
            dir.display()
        )))?;
        let changes = options::changes(&before, &session.settings);
        let pool = crate::jobs::pool_for(pool, options.threads, session.settings.engine.as_ref())?;
        let name = session.name.clone();
        let files = GaFiles { options, best_seen };
        let mut run = SessionRun::opened(session, name, Held { dir, ..held }, files, pool);
        run.resumed_from = Some(path);
        run.changes = changes;
        run.set_aside = moved;
        run.skipped = skipped;
        run.history_lost = history_lost;
        Ok(run)
    }
}

impl Steps for GaState {
    fn done(&self) -> bool {
        self.finished()
    }

    fn engine(&self) -> Option<&EngineSpec> {
        self.settings.engine.as_ref()
    }

    fn told(&self, stats: &GenerationStats) -> Told {
        Told {
            what: format!("generation {}", stats.generation),
            time: stats.time,
            faults: self.faults.clone(),
        }
    }

    fn deadline(&self) -> Option<Instant> {
        deadline(self)
    }

    fn steps_played(&self) -> u64 {
        self.generation
    }
}

impl SessionTuner for GaState {
    type Files = GaFiles;

    /// Its checkpoint and history file ([`store::ga_files`]); the state holds its name, and its
    /// best-weights file is the run's options'.
    fn encode(&self, _: &str, _: Option<&Path>) -> Result<StateFiles, String> {
        store::ga_files(self)
    }

    fn out<'a>(&self, _: &'a GaFiles) -> Option<&'a Path> {
        None
    }

    fn decode(files: &StateFiles) -> Result<TunerSession<GaState>, CheckpointError> {
        let state = store::ga_from_files(files)?;
        Ok(TunerSession {
            name: state.name.clone(),
            state,
            out: None,
        })
    }

    fn checkpoint_in(&self, dir: &Path) -> PathBuf {
        store::checkpoint_path(dir, self.generation)
    }

    /// The folder's keep policy is read (or the run's options give it) and its checkpoints
    /// opened for the run.
    fn keeper<'a>(
        &self,
        _: &'a str,
        dir: &'a Path,
        files: &'a mut GaFiles,
    ) -> Result<Box<dyn Keeper<GaState> + 'a>, SessionError> {
        let keep = options::keep_policy(dir, &files.options)?;
        Ok(Box::new(GaKeeper {
            files: store::Checkpoints::open(dir, self, keep)?,
            dir,
            ga: files,
        }))
    }

    /// The best so far, to the best-weights file (None: there is none yet).
    fn write_answer(
        &self,
        _: &str,
        dir: &Path,
        files: &mut GaFiles,
        end: SessionEnd,
    ) -> Result<Option<PathBuf>, SessionError> {
        let stopped = end == SessionEnd::Stopped;
        best::write(self, &files.options, dir, &mut files.best_seen, stopped)
    }
}

/// What the GA's files need beyond the session and its folder: the run's options (where the
/// best-weights file goes, the keep policy) and what the best-weights file held when the
/// session was opened or this run last wrote it, which it must still hold when the answer is
/// written (no other process wrote it meanwhile).
pub struct GaFiles {
    options: SessionOptions,
    best_seen: Option<BestFile>,
}

/// The GA's files over a run: a checkpoint a generation (and its history record) in the
/// session's folder, kept as the keep policy says, and the best-weights file.
struct GaKeeper<'a> {
    files: store::Checkpoints,
    dir: &'a Path,
    ga: &'a mut GaFiles,
}

impl Keeper<GaState> for GaKeeper<'_> {
    fn save(&mut self, s: &GaState) -> Result<PathBuf, CheckpointError> {
        self.files.save(s)
    }

    fn at(&self, s: &GaState) -> (PathBuf, bool) {
        let path = s.checkpoint_in(self.dir);
        let written = path.exists();
        (path, written)
    }

    fn answer(&mut self, s: &GaState, end: SessionEnd) -> Result<Option<PathBuf>, SessionError> {
        s.write_answer(&s.name, self.dir, self.ga, end)
    }

    /// The best weights of the session as it is (the newest whole generation) are written if
    /// they can be, and the error says where the session stands.
    fn save_failed(
        &mut self,
        s: &GaState,
        source: CheckpointError,
    ) -> (SessionError, Option<PathBuf>) {
        let best_weights = s
            .write_answer(&s.name, self.dir, self.ga, SessionEnd::Stopped)
            .ok()
            .flatten();
        let newest = store::list_checkpoints(self.dir)
            .into_iter()
            .filter_map(|p| Some((store::checkpoint_generation(&p)?, p)))
            .filter(|(g, p)| *g <= s.generation && store::load_checkpoint_alone(p).is_ok())
            .max_by_key(|(g, _)| *g);
        let e = SessionError::Save {
            source,
            step: "generation",
            generation: newest.as_ref().map_or(0, |(g, _)| *g),
            checkpoint: newest.map(|(_, p)| p),
            best_weights,
        };
        (e, None)
    }
}

/// When a session with a time limit must stop starting games: its time left from now.
fn deadline(s: &GaState) -> Option<Instant> {
    match s.settings.stop {
        Stop::Seconds(t) => Duration::try_from_secs_f64((t - s.elapsed).max(0.0))
            .ok()
            .and_then(|d| Instant::now().checked_add(d)),
        Stop::Generations(_) => None,
    }
}
