//! Running a session of any tuner: one [`SessionRun`] (file `run`) whatever the tuner. A
//! session is opened by its tuner: the GA's (and the mean's) is started from a [`NewSession`]
//! ([`SessionRun::start`]) or continued from a checkpoint with settings changed
//! ([`SessionRun::resume`]: a wider parameter set, another population size; file `ga`); a
//! one-file tuner's (`checkers-ga spsa`, `checkers-ga cmaes`, any registered one), from its
//! state as every such tuner's, an [`crate::store::AnyTuner`] ([`SessionRun::start_tuner`],
//! [`SessionRun::resume_tuner`]; file `tuner_run`; what is each tuner's own is its
//! [`crate::store::FileTuner`], in its own module). Then every session
//! runs the same way ([`SessionRun::run`]) until its end, its time limit, or a stop flag the
//! caller sets; an [`Observer`] the caller implements hears of every step (a GA generation's
//! duel and measurement are in what it reports), game, checkpoint, the answer and the end.
//! Everything a session's folder needs is done here: the lock ([`crate::lock`]), temp-file
//! cleanup, the checkpoints (the GA's keep policy, [`crate::store`]), the answer file (the
//! GA's best-weights file and its lineage, a one-file tuner's `best.json`).
//!
//! The defaults are the library's: [`Settings::default`] (what `checkers-ga new` runs) and
//! [`SessionOptions::default`] (folder `populations/`, the best weights in each session's folder,
//! keep the newest 10 checkpoints and every 100th).
//!
//! Files, bottom up: `names`, `folder`, `pace`, `options`, `outside`, `players`, `best`,
//! `past`, `elo`, `finals`, `steps`, `run`, `ga`, `progress`, `tuner_run`.
//! `players` reads a player as a person names one (a side of a match or of a game, a
//! reference); `elo` measures a session's answers against one ([`EloPlan`]). `steps` is the one
//! loop of every session, whichever tuner: its steps, its stop and time limit, the checkpoint a
//! stop leaves, the faults log, the answer written however the run ends, and the [`Observer`]
//! that hears any of them. `run` is the one run around it ([`SessionRun`], [`SessionOutcome`]);
//! what differs by tuner once a session is open is its state's files and how they are kept
//! ([`SessionTuner`]: the GA's checkpoint a generation, history file and best-weights file in
//! `ga`, a one-file tuner's checkpoint and `best.json` in `tuner_run`). `progress` is what an engine session's run says
//! as it goes, whichever tuner's.
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
//! let done = SessionRun::start(spec, options).unwrap().run(&mut Silent, &never).unwrap();
//! assert_eq!((done.end, done.steps_done), (SessionEnd::Finished, 1));
//! assert!(done.checkpoint.exists());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod best;
mod elo;
mod finals;
mod folder;
mod ga;
mod names;
mod options;
mod outside;
mod pace;
mod past;
mod players;
mod progress;
mod run;
mod steps;
mod tuner_run;

pub use best::{best_path, write_answer_file, AnswerFileError, BEST_FILE, FINALS_FILE};
pub use elo::{EloError, EloOptions, EloPlan};
pub use finals::{Entrant, Finals, FinalsError, FinalsOptions, FinalsPlan, MAX_ENTRANTS};
pub use folder::session_arg;
pub use ga::NewSession;
pub use names::default_name;
pub use options::{Overrides, SettingChange};
pub use outside::{EngineRequest, EngineRequestError};
pub use pace::{Eta, Pace, PaceClock, RunCost};
pub use past::{answers_by_generation, measure_genomes, PastBests};
pub use players::{
    evaluator_arg, evaluator_of, CheckedPlayer, GameSide, PlayerError, PlayerRequest, SideRequest,
};
pub use progress::{SessionProgress, ShowsProgress, StepReport, TunerProgress};
pub use run::{SessionOutcome, SessionRun, SessionTuner};
pub use tuner_run::{check_free, engine_tuner};

use crate::genome::EngineSpec;
use crate::jobs::PoolError;
use crate::lock::LockError;
use crate::store::{self, CheckpointError, LocateError};
use crate::weightfile::WeightsError;
use std::path::PathBuf;
use std::time::Duration;
pub use steps::{Observer, SessionEnd, Silent};

/// Is `e` bad input, the caller's values (a setting, a depth or a thread count out of range,
/// a flag of a tuned engine, of a match, of the finals or of a player that cannot hold, a session name
/// that is not a plain folder name), rather than a failure while working (a file that cannot
/// be read, an engine that does not start)? Of the library's errors; what the command line
/// exits with 2 for, as for the flags its parser refuses.
pub fn is_bad_input(e: &(dyn std::error::Error + 'static)) -> bool {
    if e.is::<crate::ga::SettingsError>()
        || e.is::<crate::search::DepthError>()
        || e.is::<crate::matchplay::MatchRequestError>()
        || e.is::<crate::clock::LimitError>()
    {
        return true;
    }
    if let Some(e) = e.downcast_ref::<PoolError>() {
        return matches!(e, PoolError::TooMany(_));
    }
    if let Some(e) = e.downcast_ref::<EngineRequestError>() {
        return matches!(e, EngineRequestError::Flag(_));
    }
    if let Some(e) = e.downcast_ref::<FinalsError>() {
        return matches!(
            e,
            FinalsError::Entrants | FinalsError::Games | FinalsError::Depth(_)
        );
    }
    if let Some(e) = e.downcast_ref::<crate::summary::ReportError>() {
        return matches!(e, crate::summary::ReportError::Option(_));
    }
    if let Some(e) = e.downcast_ref::<PlayerError>() {
        return e.is_usage();
    }
    if let Some(e) = e.downcast_ref::<EloError>() {
        return e.is_usage();
    }
    matches!(
        e.downcast_ref::<SessionError>(),
        Some(
            SessionError::Settings(_)
                | SessionError::Name(_)
                | SessionError::Pool(PoolError::TooMany(_))
        )
    )
}

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
    /// A new session named as one that exists: how to continue that one, as `checkers-ga
    /// resume ARG` (a program started by another name says its own: [`SessionError::said_by`]).
    #[error("{}", self.said_by("checkers-ga"))]
    Taken {
        /// The name asked for.
        name: String,
        /// The folder of the session that has it.
        dir: std::path::PathBuf,
        /// What `resume` takes to continue that session (its name, with the folders when
        /// they are not the defaults, or its folder).
        resume: String,
    },
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
        "{source}; the session stands at {step} {generation}{}{}",
        at_checkpoint(checkpoint),
        best_note(best_weights)
    )]
    Save {
        /// Why the checkpoint could not be written.
        source: CheckpointError,
        /// What the tuner calls a step: `generation` (the GA, CMA-ES), `step` (SPSA).
        step: &'static str,
        /// The steps (generations) of the newest good checkpoint.
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
                engine: e.engine.name.clone(),
                tc: e
                    .tc
                    .unwrap_or(crate::clock::TimeControl::PerMove(Duration::ZERO)),
            }),
            _ => Ok(()),
        }
    }

    /// The error's line with `program` as the command that continues a session
    /// ([`SessionError::Taken`]: e.g. `cargo run --release --` for a program started by
    /// cargo); any other error's own line.
    pub fn said_by(&self, program: &str) -> String {
        match self {
            SessionError::Taken { name, dir, resume } => format!(
                "session '{name}' already exists in '{}': continue it with `{program} resume \
                 {resume}` or pick another --name",
                dir.display()
            ),
            e => e.to_string(),
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
