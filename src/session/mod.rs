//! Running an evolution session: start one ([`SessionRun::start`]) or continue one from a checkpoint
//! ([`SessionRun::resume`]), then [`SessionRun::evolve`] it until its limit, a deadline, or a stop flag the
//! caller sets; an [`Observer`] the caller implements hears of every generation (its
//! duel and measurement are in what the generation reports), game, checkpoint and the end, as
//! the observer of every tuner's session does. Everything a session's folder needs is done here:
//! the lock ([`crate::lock`]), temp-file cleanup, the checkpoints and their keep policy
//! ([`crate::store`]), the best-weights file and its lineage, and the setting changes of a
//! resumed session (a wider parameter set, another population size).
//!
//! The defaults are the library's: [`Settings::default`] (what `checkers-ga new` runs) and
//! [`SessionOptions::default`] (folder `populations/`, the best weights in each session's folder,
//! keep the newest 10 checkpoints and every 100th).
//!
//! The tuners of an outside engine whose state is one checkpoint file, SPSA (`checkers-ga
//! spsa`) and CMA-ES (`checkers-ga cmaes`), run in one session around any of them
//! ([`TunerRun`], file `tuner_run`: its folder, lock, checkpoint, answer and progress lines);
//! what is each tuner's own is its [`FileTuner`] (files `spsa`, `cmaes`).
//!
//! Files, bottom up: `names`, `folder`, `pace`, `options`, `outside`, `best`, `finals`, `past`, `steps`,
//! `progress`, `tuner_run`, `spsa`, `cmaes`. `progress` is what an engine session's run says as
//! it goes, whichever tuner's. `steps` is the one run of every session, whichever tuner: its
//! loop of steps, its stop and time limit, the checkpoint a stop leaves, the faults log, the
//! answer written however the run ends, and the [`Observer`] that hears any of them. What
//! differs by tuner is how its files are kept (the GA's checkpoint a generation and
//! best-weights file here, a one-file tuner's checkpoint and `best.json` in `tuner_run`).
//!
//! # Example
//!
//! ```
//! use checkers_ga::{SessionEnd, NewSession, Overrides, SessionRun, SessionOptions, Silent};
//! use std::sync::atomic::AtomicBool;
//!
//! let dir = std::env::temp_dir().join(format!("ckga-doc-session-{}", std::process::id()));
//! let options = SessionOptions {
//!     populations: dir.join("populations"),
//!     threads: 2,
//!     ..SessionOptions::default()
//! };
//! let spec = NewSession {
//!     name: Some("doc".into()),
//!     seed: Some(3),
//!     settings: Overrides {
//!         population: Some(4),
//!         depth: Some(1),
//!         generations: Some(1),
//!         duel_games: Some(2),
//!         measure_every: Some(0),
//!         ..Overrides::default()
//!     },
//!     ..NewSession::default()
//! };
//! let never = AtomicBool::new(false);
//! let done = SessionRun::start(spec, options).unwrap().evolve(&mut Silent, &never).unwrap();
//! assert_eq!((done.end, done.generation), (SessionEnd::Finished, 1));
//! assert!(done.checkpoint.exists());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod best;
mod cmaes;
mod finals;
mod folder;
mod names;
mod options;
mod outside;
mod pace;
mod past;
mod progress;
mod spsa;
mod steps;
mod tuner_run;

pub use best::{best_path, write_answer_file, AnswerFileError, BestFile, FINALS_FILE};
pub use cmaes::CmaesRun;
pub use finals::{Entrant, Finals};
pub use names::default_name;
pub use options::{Overrides, SettingChange};
pub use outside::{EngineRequest, EngineRequestError};
pub use pace::{Eta, Pace, PaceClock, RunCost};
pub use past::{answers_by_generation, measure_genomes, PastBests};
pub use progress::{SessionProgress, StepReport, TunerProgress};
pub use spsa::SpsaRun;
pub use tuner_run::{check_free, engine_tuner, FileTuner, TunerOutcome, TunerRun};

use crate::eval::{ParamSet, Weights};
use crate::ga::{GenerationStats, Session, Settings, Stop, DEFAULT_POPULATION};
use crate::genome::EngineSpec;
use crate::jobs::{thread_pool, PoolError};
use crate::lock::{LockError, SessionLock};
use crate::rng::fresh_seed;
use crate::store::{self, CheckpointError, LocateError};
use crate::weightfile::WeightsError;
use folder::Held;
use outside::{engine_defaults, follow_depth, ENGINE_POPULATION};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
pub use steps::{Observer, SessionEnd, Silent};

/// Refuses a session name that is not a plain folder name (no separators, not `.` or `..`,
/// not empty): a new session's, checked before anything is started.
pub fn check_name(name: &str) -> Result<(), SessionError> {
    match store::is_plain_name(name) {
        true => Ok(()),
        false => Err(SessionError::Name(name.to_string())),
    }
}

/// Why a session could not start, go on or finish: one line.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// A setting out of range (the message names it).
    #[error(transparent)]
    Settings(#[from] crate::ga::SettingsError),
    /// Input that cannot make a session: a population that does not fit.
    #[error("{0}")]
    Input(String),
    /// A session name that is not a plain folder name ([`check_name`]).
    #[error("session name '{0}' must be a plain folder name")]
    Name(String),
    /// A run that would overwrite or mix with what it must not (another session's files).
    #[error("{0}")]
    Refused(String),
    /// The outside engine of a session to continue cannot be started, or no longer declares
    /// what it declared when the session began.
    #[error("cannot continue session '{name}': {error}")]
    EngineChanged {
        /// The session's name.
        name: String,
        /// What changed, or why the engine could not be started.
        error: crate::genome::EngineError,
    },
    #[error(transparent)]
    /// A checkpoint could not be read.
    Checkpoint(#[from] CheckpointError),
    #[error(transparent)]
    /// No checkpoint was found for the session named.
    Locate(#[from] LocateError),
    #[error(transparent)]
    /// The session folder is locked by another process, or cannot be locked.
    Lock(#[from] LockError),
    #[error(transparent)]
    /// A weights file (a first population, or a best-weights file) could not be read.
    Weights(#[from] WeightsError),
    #[error(transparent)]
    /// The thread pool could not be started.
    Pool(#[from] PoolError),
    /// A file or folder operation, with what was being done.
    #[error("{what}: {source}")]
    Io {
        /// What was being done, e.g. `cannot create 'dir'`.
        what: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A checkpoint could not be written (a full disk): the run stopped; the best weights of
    /// the newest whole generation were written where they could be, and the session stands
    /// at its newest good checkpoint.
    #[error(
        "{source}; the session stands at generation {generation}{}{}",
        at_checkpoint(checkpoint),
        best_note(best_weights)
    )]
    Save {
        /// Why the checkpoint could not be written.
        source: CheckpointError,
        /// The generation of the newest good checkpoint.
        generation: u64,
        /// That checkpoint (None: the session has none yet).
        checkpoint: Option<PathBuf>,
        /// The best-weights file written (None: none, or it could not be written either).
        best_weights: Option<PathBuf>,
    },
    /// Every game of a generation (or an SPSA step) on a clock was lost on time: the engine
    /// does not keep to its clock. The session stands at its checkpoint before.
    #[error(
        "every game of {what} was lost on time ({games}): {engine} does not keep to its clock \
         of {tc}; give it more time (--tc) or check that it reads `level`"
    )]
    OutOfTime {
        /// `generation 3`, `step 12`.
        what: String,
        /// `16 games`.
        games: String,
        /// The engine's name.
        engine: String,
        /// The clock.
        tc: crate::clock::TimeControl,
    },
}

impl SessionError {
    /// [`SessionError::OutOfTime`] when every game counted in `time` was lost on time.
    pub(crate) fn out_of_time(
        what: String,
        time: Option<&crate::clock::TimeUse>,
        engine: Option<&EngineSpec>,
    ) -> Result<(), SessionError> {
        match (time, engine) {
            (Some(t), Some(e)) if t.all_lost_on_time() => Err(SessionError::OutOfTime {
                what,
                games: crate::text::count(t.games as usize, "game", "games"),
                engine: e.name.clone(),
                tc: e
                    .tc
                    .unwrap_or(crate::clock::TimeControl::PerMove(Duration::ZERO)),
            }),
            _ => Ok(()),
        }
    }
}

fn at_checkpoint(p: &Option<PathBuf>) -> String {
    match p {
        Some(p) => format!(" ({})", p.display()),
        None => " (no checkpoint)".to_string(),
    }
}

fn best_note(p: &Option<PathBuf>) -> String {
    match p {
        Some(p) => format!("; its best weights are in {}", p.display()),
        None => String::new(),
    }
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> SessionError {
    let what = what.into();
    move |source| SessionError::Io { what, source }
}

/// Options of a run that are not part of the session's identity.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Worker threads (0 = one per core); results are the same at any count.
    pub threads: usize,
    /// Keep the newest K checkpoints (0 = every checkpoint); None: what the session folder's
    /// keep file says, else `Keep::DEFAULT`.
    pub keep: Option<usize>,
    /// With `keep`: also keep the checkpoint of every M-th generation; None as `keep`.
    pub keep_every: Option<u64>,
    /// Folder of session folders.
    pub populations: PathBuf,
    /// Folder of the best-weights files (`NAME-best.json`); None: each session's own folder
    /// (`best.json`), apart from the weight files a repository ships.
    pub weights_dir: Option<PathBuf>,
    /// Overwrite the best-weights file even when it holds another lineage's best.
    pub force: bool,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            threads: 0,
            keep: None,
            keep_every: None,
            populations: PathBuf::from("populations"),
            weights_dir: None,
            force: false,
        }
    }
}

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

/// What a run did: how it ended, where the session stands, and the best-weights file.
#[derive(Clone, Debug)]
pub struct SessionOutcome {
    /// Why the run ended.
    pub end: SessionEnd,
    /// Generations the session has completed.
    pub generation: u64,
    /// The checkpoint the session stands at.
    pub checkpoint: PathBuf,
    /// The best-weights file written (None when there was no best so far yet).
    pub best_weights: Option<PathBuf>,
}

/// A session ready to run: its folder locked, its settings checked.
pub struct SessionRun {
    /// The session as it starts this run.
    pub session: Session,
    /// Its folder.
    pub dir: PathBuf,
    /// The checkpoint a resumed session continues from.
    pub resumed_from: Option<PathBuf>,
    /// The seed was drawn (none was given): the only way to repeat the session is to show it.
    pub seed_drawn: bool,
    /// Settings a resume changed, in the order of `--help`.
    pub changes: Vec<SettingChange>,
    /// Checkpoints newer than the one resumed from, set aside as `*.ckpt.superseded-N` (an
    /// earlier branch, or unreadable ones: see `skipped`).
    pub set_aside: Vec<PathBuf>,
    /// Newer checkpoints that could not be read and were passed over.
    pub skipped: Vec<CheckpointError>,
    /// What was lost of a damaged history file (one line for the user): the session goes on
    /// from its sound checkpoint, the damaged file set aside as `history.bin.superseded-N`.
    pub history_lost: Option<String>,
    options: SessionOptions,
    pool: rayon::ThreadPool,
    best_seen: Option<BestFile>,
    _lock: SessionLock,
}

impl SessionRun {
    /// Prepares a new session: checks the settings, makes and locks its folder (refusing one
    /// that has checkpoints) and checks that its best-weights file may be written. Nothing is
    /// made when an input is refused.
    pub fn start(spec: NewSession, options: SessionOptions) -> Result<SessionRun, SessionError> {
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
                Session::with_population(&name, settings, pop)
            }
            None => Session::new(&name, settings),
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
        let (Held { dir, lock }, best_seen) = folder::claim(&options.populations, &name, |dir| {
            best::check_lineage(&options, &name, seed, last, dir)
        })?;
        let pool = crate::jobs::pool_for(pool, options.threads, session.settings.engine.as_ref())?;
        Ok(SessionRun {
            session,
            dir,
            resumed_from: None,
            seed_drawn,
            changes: Vec::new(),
            set_aside: Vec::new(),
            skipped: Vec::new(),
            history_lost: None,
            pool,
            options,
            best_seen,
            _lock: lock,
        })
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
    ) -> Result<SessionRun, SessionError> {
        let pool = thread_pool(options.threads)?;
        let root = &options.populations;
        let found = store::locate(target, root)?;
        let dir = crate::files::folder_of(&found.path);
        best::check_weights_folder(&options, &dir, &found.session.name)?;
        // Held until the session ends. Temp-file cleanup and the set-aside of newer checkpoints
        // below happen only under it, so they never touch the files of a running session.
        let Held { lock, .. } = folder::enter(&dir)?;
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
        Ok(SessionRun {
            session,
            dir,
            resumed_from: Some(path),
            seed_drawn: false,
            changes,
            set_aside: moved,
            skipped,
            history_lost,
            pool,
            options,
            best_seen,
            _lock: lock,
        })
    }

    /// The checkpoint the session stands at before this run (it may not exist yet: a new
    /// session has none until its first generation or a stop).
    pub fn start_checkpoint(&self) -> PathBuf {
        store::checkpoint_path(&self.dir, self.session.generation)
    }

    /// Plays generations until the session's limit, its time limit (which holds within a
    /// generation: past it no game starts), or `stop` is set (checked before every game). A
    /// checkpoint is written after every whole generation; a generation cut short is abandoned
    /// and not saved (a session stopped before its first generation saves generation 0, so it
    /// can be resumed). The best so far is written to the best-weights file at the end,
    /// however the run ends.
    pub fn evolve(
        mut self,
        observer: &mut dyn Observer,
        stop: &AtomicBool,
    ) -> Result<SessionOutcome, SessionError> {
        let keep = options::keep_policy(&self.dir, &self.options)?;
        let mut keeper = GaFiles {
            files: store::Checkpoints::open(&self.dir, &self.session, keep)?,
            dir: &self.dir,
            options: &self.options,
            best_seen: &self.best_seen,
        };
        let (session, dir) = (&mut self.session, &self.dir);
        let ran = self
            .pool
            .install(|| steps::run_session(session, &mut keeper, dir, observer, stop))?;
        Ok(SessionOutcome {
            end: ran.end,
            generation: self.session.generation,
            checkpoint: ran.checkpoint,
            best_weights: ran.answer,
        })
    }
}

impl SessionRun {
    /// Ends a run without playing: writes the best-weights file (a session that has reached
    /// its limit, or has too little time left for a generation).
    pub fn finish(self, observer: &mut dyn Observer) -> Result<SessionOutcome, SessionError> {
        let best_weights = best::write(&self.session, &self.options, &self.dir, &self.best_seen)?;
        if let Some(p) = &best_weights {
            observer.answer_written(p);
        }
        Ok(SessionOutcome {
            end: SessionEnd::Finished,
            generation: self.session.generation,
            checkpoint: self.start_checkpoint(),
            best_weights,
        })
    }
}

impl steps::Steps for Session {
    fn done(&self) -> bool {
        self.finished()
    }

    fn engine(&self) -> Option<&EngineSpec> {
        self.settings.engine.as_ref()
    }

    fn told(&self, stats: &GenerationStats) -> steps::Told {
        steps::Told {
            what: format!("generation {}", stats.generation),
            time: stats.time,
            faults: self.faults.clone(),
        }
    }

    fn deadline(&self) -> Option<Instant> {
        deadline(self)
    }
}

/// The GA's files: a checkpoint a generation (and its history record) in the session's folder,
/// kept as the keep policy says, and the best-weights file.
struct GaFiles<'a> {
    files: store::Checkpoints,
    dir: &'a Path,
    options: &'a SessionOptions,
    best_seen: &'a Option<BestFile>,
}

impl steps::Keeper<Session> for GaFiles<'_> {
    fn save(&mut self, s: &Session) -> Result<PathBuf, CheckpointError> {
        self.files.save(s)
    }

    fn at(&self, s: &Session) -> (PathBuf, bool) {
        let path = store::checkpoint_path(self.dir, s.generation);
        let written = path.exists();
        (path, written)
    }

    fn answer(&mut self, s: &Session) -> Result<Option<PathBuf>, SessionError> {
        best::write(s, self.options, self.dir, self.best_seen)
    }

    /// The best weights of the session as it is (the newest whole generation) are written if
    /// they can be, and the error says where the session stands.
    fn save_failed(
        &mut self,
        s: &Session,
        source: CheckpointError,
    ) -> (SessionError, Option<PathBuf>) {
        let best_weights = best::write(s, self.options, self.dir, self.best_seen)
            .ok()
            .flatten();
        let newest = store::list_checkpoints(self.dir)
            .into_iter()
            .filter_map(|p| Some((store::checkpoint_generation(&p)?, p)))
            .filter(|(g, p)| *g <= s.generation && store::load_checkpoint_alone(p).is_ok())
            .max_by_key(|(g, _)| *g);
        let e = SessionError::Save {
            source,
            generation: newest.as_ref().map_or(0, |(g, _)| *g),
            checkpoint: newest.map(|(_, p)| p),
            best_weights,
        };
        (e, None)
    }
}

/// When a session with a time limit must stop starting games: its time left from now.
fn deadline(s: &Session) -> Option<Instant> {
    match s.settings.stop {
        Stop::Seconds(t) => Duration::try_from_secs_f64((t - s.elapsed).max(0.0))
            .ok()
            .and_then(|d| Instant::now().checked_add(d)),
        Stop::Generations(_) => None,
    }
}
