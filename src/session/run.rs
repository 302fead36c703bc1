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
use crate::store::{CheckpointError, StateFiles, TunerSession};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A tuner whose sessions run as a [`SessionRun`]: what the run needs of it beyond the tuner
/// contract ([`crate::Tuner`]) is its state as files ([`SessionTuner::encode`], read back by
/// [`SessionTuner::decode`]; `tests/tuner_contract.rs` holds every tuner to them) and how its
/// folder keeps them. The GA's [`crate::GaState`] keeps a checkpoint a generation, its history
/// and its best-weights file; every one-file tuner ([`crate::store::AnyTuner`]) one checkpoint
/// and `best.json`. It is sealed: the
/// library implements it for those two, and a new tuner whose session is one checkpoint
/// file comes in as a [`crate::store::FileTuner`], registered in its own module.
pub trait SessionTuner: Steps + Sized {
    /// What its files need beyond its state and folder, set when the session is opened.
    type Files: Send + Sync;
    /// Its state, of session `name` whose answer is also written to `out`, as the files of its
    /// folder hold it after a whole step (the GA's: its generation's checkpoint and the
    /// history file; a one-file tuner's: its checkpoint): the bytes a run leaves there (the
    /// GA's keeper appends to its history file a record at a time rather than writing it
    /// anew, to the same bytes), read back by [`SessionTuner::decode`]. One line when the
    /// state does not fit a checkpoint.
    fn encode(&self, name: &str, out: Option<&Path>) -> Result<StateFiles, String>;
    /// The session that files of [`SessionTuner::encode`] hold: its name, its state, and the
    /// parameter file its answer is also written to (a one-file tuner's `--out`; the GA's
    /// records none), which encode to the same files. One line naming the file that is not
    /// sound.
    fn decode(files: &StateFiles) -> Result<TunerSession<Self>, CheckpointError>;
    /// The checkpoint in folder `dir` the session stands at (a GA session has none before its
    /// first generation, or a stop, writes it).
    fn checkpoint_in(&self, dir: &Path) -> PathBuf;
    /// The parameter file its answer is also written to, as its files record it (the GA's:
    /// none).
    fn out<'a>(&self, files: &'a Self::Files) -> Option<&'a Path>;
    /// How session `name`'s folder `dir` keeps its files over one run, from `self` as it
    /// starts.
    fn keeper<'a>(
        &self,
        name: &'a str,
        dir: &'a Path,
        files: &'a mut Self::Files,
    ) -> Result<Box<dyn Keeper<Self> + 'a>, SessionError>;
    /// Writes the session's answer as it stands, and nothing else, after a run that ended as
    /// `end` says ([`SessionEnd::Finished`] for one that had nothing to play, `Stopped` for one
    /// cut short by a failure); its file (None: no answer yet).
    fn write_answer(
        &self,
        name: &str,
        dir: &Path,
        files: &mut Self::Files,
        end: SessionEnd,
    ) -> Result<Option<PathBuf>, SessionError>;
}

/// A session of tuner `T` ready to run (the GA's by default): its folder locked, its state read
/// or made, its thread pool built. It is opened by its tuner's `start` or `resume`: the GA's
/// ([`SessionRun::start`], [`SessionRun::resume`]; the session module shows one) or a one-file
/// tuner's ([`SessionRun::start_tuner`], [`SessionRun::resume_tuner`]).
///
/// # Example
///
/// An SPSA session of the tuning simulator's engine, stopped after its first step and resumed,
/// ends where an uninterrupted one does, as every tuner's session does:
///
/// ```
/// use checkers_ga::store::AnyTuner;
/// use checkers_ga::{EngineSpec, Observer, SessionEnd, SessionRun, SimModel, Silent};
/// use checkers_ga::{SpsaSettings, SpsaState, StepReport};
/// use std::sync::atomic::{AtomicBool, Ordering};
///
/// let root = std::env::temp_dir().join(format!("ckga-doc-run-{}", std::process::id()));
/// let _ = std::fs::remove_dir_all(&root);
/// let spec = EngineSpec::simulated(&SimModel::new(4, 1), 1);
/// let settings = SpsaSettings { games: 48, seed: 9, ..SpsaSettings::default() };
/// let fresh = || AnyTuner::new(SpsaState::new(&spec, &settings).unwrap());
/// let never = AtomicBool::new(false);
///
/// let mut whole = SessionRun::start_tuner(Some("whole".into()), 9, &root, fresh(), None, 2).unwrap();
/// let done = whole.run(&mut Silent, &never).unwrap();
/// assert_eq!(done.end, SessionEnd::Finished);
/// assert_ne!(whole.state.values(), fresh().values(), "the games moved θ");
///
/// struct StopAfterOne<'a>(&'a AtomicBool);
/// impl Observer<AnyTuner> for StopAfterOne<'_> {
///     fn step_done(&mut self, _: &StepReport, _: &AnyTuner) {
///         self.0.store(true, Ordering::SeqCst);
///     }
/// }
/// let stop = AtomicBool::new(false);
/// let mut part = SessionRun::start_tuner(Some("part".into()), 9, &root, fresh(), None, 2).unwrap();
/// let first = part.run(&mut StopAfterOne(&stop), &stop).unwrap();
/// assert_eq!((first.end, first.steps_done), (SessionEnd::Stopped, 1));
/// let checkpoint = part.checkpoint();
/// drop(part); // its folder is free again
///
/// // Continued on one thread: the same games, the same answer.
/// let mut rest = SessionRun::resume_tuner(&checkpoint, 1).unwrap();
/// let last = rest.run(&mut Silent, &never).unwrap();
/// assert_eq!(last.steps_done, done.steps_done);
/// assert_eq!(rest.state.values(), whole.state.values());
/// std::fs::remove_dir_all(&root).unwrap();
/// ```
pub struct SessionRun<T: SessionTuner = crate::GaState> {
    /// The tuner's state as it stands (the GA's is the whole session).
    pub state: T,
    pub(super) name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// The checkpoint a resumed session continues from.
    pub resumed_from: Option<PathBuf>,
    /// What follows is what a GA session's start or resume found or did (always empty for a
    /// one-file tuner's, whose seed is its caller's and whose settings are fixed when it
    /// starts). The seed was drawn by [`SessionRun::start`] (none was given): the only way to
    /// repeat the session is to show it.
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
    /// The folder's lock (None once dropped), and whether the folder was made for this run.
    lock: Option<SessionLock>,
    made: bool,
}

impl<T: SessionTuner> Drop for SessionRun<T> {
    /// Lets the folder go; one made for this run that it left empty (it could not write its
    /// first checkpoint) is removed, so no empty session folder is left behind.
    fn drop(&mut self) {
        drop(self.lock.take());
        if self.made {
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
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
            lock: Some(held.lock),
            made: held.made,
        }
    }

    /// The checkpoint the session stands at (a new GA session has none until its first
    /// generation or a stop).
    pub fn checkpoint(&self) -> PathBuf {
        self.state.checkpoint_in(&self.dir)
    }

    /// The session's name (its folder's).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The session's state as the files of its folder hold it after a whole step
    /// ([`SessionTuner::encode`]); one line when it does not fit a checkpoint.
    pub fn state_files(&self) -> Result<StateFiles, String> {
        self.state.encode(&self.name, self.state.out(&self.files))
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
    /// outside engine's idle processes end with the run. A run stopped may be run again (or
    /// finished) on the same `SessionRun`, as a resume would go on.
    pub fn run(
        &mut self,
        observer: &mut dyn Observer<T>,
        stop: &AtomicBool,
    ) -> Result<SessionOutcome, SessionError> {
        let mut keeper = self.state.keeper(&self.name, &self.dir, &mut self.files)?;
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
    /// time left for a step): writes its answer, and no other file, which `observer` hears
    /// of.
    pub fn finish(
        &mut self,
        observer: &mut dyn Observer<T>,
    ) -> Result<SessionOutcome, SessionError> {
        let answer = self.state.write_answer(
            &self.name,
            &self.dir,
            &mut self.files,
            SessionEnd::Finished,
        )?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewSession, Overrides, SessionOptions, Silent};
    use std::collections::BTreeMap;

    /// A GA session of 3 generations of 4 individuals at depth 1 in a fresh folder.
    fn small(tag: &str) -> (NewSession, SessionOptions) {
        let dir = std::env::temp_dir().join(format!("ckga-run-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let options = SessionOptions {
            populations: dir,
            threads: 2,
            ..SessionOptions::default()
        };
        let spec = NewSession {
            name: Some("r".into()),
            seed: Some(7),
            settings: Overrides {
                population: Some(4),
                depth: Some(1),
                generations: Some(3),
                duel_games: Some(2),
                measure_every: Some(0),
                ..Overrides::default()
            },
            ..NewSession::default()
        };
        (spec, options)
    }

    /// Every file of `dir` with its bytes.
    fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect()
    }

    /// Stops after the first generation it hears of.
    struct StopAfterOne<'a>(&'a AtomicBool);

    impl Observer for StopAfterOne<'_> {
        fn checkpoint_written(&mut self, _: &Path, _: &crate::GaState) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn a_run_stopped_and_run_again_goes_on_to_its_end_and_its_answer() {
        let (spec, options) = small("again");
        let root = options.populations.clone();
        let mut run = SessionRun::start(spec, options).unwrap();
        let stop = AtomicBool::new(false);
        let first = run.run(&mut StopAfterOne(&stop), &stop).unwrap();
        assert_eq!((first.end, first.steps_done), (SessionEnd::Stopped, 1));
        assert!(first.answer.is_some());
        // The same run again: the best-weights file it wrote itself is no one else's.
        let never = AtomicBool::new(false);
        let last = run.run(&mut crate::Silent, &never).unwrap();
        assert_eq!((last.end, last.steps_done), (SessionEnd::Finished, 3));
        assert_eq!(last.answer, first.answer);
        // The answer written is the end's, not the stop's.
        let best = last.answer.clone().unwrap();
        match crate::session::best::BestFile::read(&best) {
            crate::session::best::BestFile::Origin(o) => assert_eq!(o.generation, 3),
            other => panic!("{other:?}"),
        }
        // And finish after it writes the answer again.
        assert_eq!(run.finish(&mut Silent).unwrap().answer, first.answer);
        drop(run);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn finish_writes_the_answer_and_no_other_file() {
        let (spec, mut options) = small("finish");
        let root = options.populations.clone();
        let never = AtomicBool::new(false);
        let mut run = SessionRun::start(spec, options.clone()).unwrap();
        let done = run.run(&mut Silent, &never).unwrap();
        drop(run);
        let best = done.answer.unwrap();
        let dir = crate::folder_of(&best);
        std::fs::remove_file(&best).unwrap();
        let before = files(&dir);
        // A resume at the end with a keep policy given: only the answer is written.
        options.keep = Some(1);
        let mut run = SessionRun::resume(Some("r"), &Overrides::default(), options).unwrap();
        let end = run.finish(&mut Silent).unwrap();
        assert_eq!((end.end, end.steps_done), (SessionEnd::Finished, 3));
        assert_eq!(end.answer.as_ref(), Some(&best));
        drop(run);
        let mut after = files(&dir);
        assert!(after.remove("best.json").is_some());
        assert_eq!(
            after.keys().collect::<Vec<_>>(),
            before.keys().collect::<Vec<_>>()
        );
        assert!(
            after == before,
            "finish changed a file other than its answer"
        );
        std::fs::remove_dir_all(root).unwrap();
    }
}
