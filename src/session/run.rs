//! One run for every tuner's session: [`SessionRun`]. However a session was opened (a new one
//! claims its folder, a resumed one enters it; what makes the state is each tuner's: the GA's
//! in file `ga`, a one-file tuner's in file `tuner_run`), the run that follows is the same: its
//! folder held, locked, for as long as the run lives; its games on its own thread pool; its
//! steps played in the one loop of file `steps` until the tuner is done, its time limit passes
//! or the caller stops it; its answer written however it ends ([`SessionRun::run`]), or
//! without playing ([`SessionRun::finish`]); one [`SessionOutcome`]. What differs by tuner
//! once the run is made is only how its folder keeps its files ([`SessionTuner`]).

use super::folder::Held;
use super::steps::{run_session, Keeper, Observer, SessionEnd, Steps};
use super::{SessionError, SettingChange};
use crate::lock::SessionLock;
use crate::store::CheckpointError;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A tuner whose sessions run as a [`SessionRun`]: what the run needs of it beyond the tuner
/// contract ([`crate::Tuner`]) is how its folder keeps its files. The GA's [`crate::GaState`]
/// keeps a checkpoint a generation, its history and its best-weights file; every
/// [`crate::FileTuner`] (SPSA, CMA-ES) one checkpoint and `best.json`.
pub trait SessionTuner: Steps + Sized {
    /// What its files need beyond its state and folder, fixed when the session is opened.
    type Files: Send + Sync;
    /// The checkpoint in folder `dir` the session stands at (a GA session has none before its
    /// first generation, or a stop, writes it).
    fn checkpoint_in(&self, dir: &Path) -> PathBuf;
    /// How session `name`'s folder `dir` keeps its files over one run, from `self` as it
    /// starts.
    fn keeper<'a>(
        &self,
        name: &'a str,
        dir: &'a Path,
        files: &'a Self::Files,
    ) -> Result<Box<dyn Keeper<Self> + 'a>, SessionError>;
}

/// A session of tuner `T` ready to run (the GA's by default): its folder locked, its state read
/// or made, its thread pool built. It is opened by its tuner's `start` or `resume`: the GA's
/// ([`SessionRun::start`], [`SessionRun::resume`]) or a one-file tuner's
/// ([`SessionRun::start_tuner`], [`SessionRun::resume_tuner`]).
pub struct SessionRun<T: SessionTuner = crate::GaState> {
    /// The tuner's state as it stands (the GA's is the whole session).
    pub state: T,
    /// The session's name (its folder's).
    pub name: String,
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
    pub(super) files: T::Files,
    pool: rayon::ThreadPool,
    _lock: SessionLock,
}

/// What a run did, whichever tuner's: how it ended, where the session stands, its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionOutcome {
    /// Why the run ended.
    pub end: SessionEnd,
    /// Whole steps (the GA's generations) the session has played.
    pub steps_done: u64,
    /// The checkpoint the session stands at.
    pub checkpoint: PathBuf,
    /// The answer file written (the GA's best-weights file, a one-file tuner's `best.json`;
    /// None when there is no answer yet).
    pub answer: Option<PathBuf>,
}

impl<T: SessionTuner> SessionRun<T> {
    /// The run of `state`, session `name`, in the folder `held` holds, as a new session or one
    /// opened with nothing to say (a resume fills in what it found).
    pub(super) fn opened(
        state: T,
        name: String,
        held: Held,
        files: T::Files,
        pool: rayon::ThreadPool,
    ) -> SessionRun<T> {
        SessionRun {
            state,
            name,
            dir: held.dir,
            resumed_from: None,
            seed_drawn: false,
            changes: Vec::new(),
            set_aside: Vec::new(),
            skipped: Vec::new(),
            history_lost: None,
            files,
            pool,
            _lock: held.lock,
        }
    }

    /// The checkpoint the session stands at (a new GA session has none until its first
    /// generation or a stop).
    pub fn checkpoint(&self) -> PathBuf {
        self.state.checkpoint_in(&self.dir)
    }

    /// The worker threads its games are played on.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Plays steps (the GA's generations) until the tuner is done, its time limit passes
    /// (which holds within a step: past it no game starts) or `stop` is set (checked before
    /// every game). A checkpoint is written after every whole step; a step cut short is
    /// abandoned and not saved, so a resumed run goes on exactly as if never stopped (a GA
    /// session stopped before its first generation saves generation 0). The answer is written
    /// however the run ends, but for a step whose every game was lost on time: that ends the
    /// run with an error, the session at the checkpoint before. `observer` hears every step,
    /// game and checkpoint, the answer file and a stop. The games are played on the run's
    /// pool, as a stream when the tuner keeps steps in flight ([`crate::run_steps`]); an
    /// outside engine's idle processes end with the run.
    pub fn run(
        &mut self,
        observer: &mut dyn Observer<T>,
        stop: &AtomicBool,
    ) -> Result<SessionOutcome, SessionError> {
        let mut keeper = self.state.keeper(&self.name, &self.dir, &self.files)?;
        let (state, dir) = (&mut self.state, &self.dir);
        let ran = self
            .pool
            .install(|| run_session(state, &mut *keeper, dir, observer, stop))?;
        Ok(SessionOutcome {
            end: ran.end,
            steps_done: self.state.steps_played(),
            checkpoint: ran.checkpoint,
            answer: ran.answer,
        })
    }

    /// Ends a run without playing (a session that has reached its end, or has too little
    /// time left for a step): writes its answer, which `observer` hears of.
    pub fn finish(&self, observer: &mut dyn Observer<T>) -> Result<SessionOutcome, SessionError> {
        let mut keeper = self.state.keeper(&self.name, &self.dir, &self.files)?;
        let answer = keeper.answer(&self.state)?;
        if let Some(p) = &answer {
            observer.answer_written(p);
        }
        Ok(SessionOutcome {
            end: SessionEnd::Finished,
            steps_done: self.state.steps_played(),
            checkpoint: self.checkpoint(),
            answer,
        })
    }
}
