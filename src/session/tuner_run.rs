//! The session around a tuner of an outside engine whose state is one checkpoint file (SPSA's
//! `spsa.ckpt`, CMA-ES's `cmaes.ckpt`): [`TunerRun`], the same for every such tuner. Its folder
//! (`populations/NAME/`) is locked while it runs ([`crate::lock`]) and holds its checkpoint,
//! written at the start and again after every whole step; a step cut short by a stop is
//! abandoned ([`crate::Tuner::abandon`]), and [`TunerRun::resume`] continues from the last
//! whole one as a run that never stopped. Its answer is `best.json` in its folder, written when
//! a run ends however it ends (but for a step lost wholly on time), in the format of an engine session's best file (an engine
//! parameter file: `show`, `export` and `match` read it), and also to the `--out` file the
//! session names, if any.
//!
//! What is a tuner's own, [`FileTuner`] says: its checkpoint's file and format, its engine,
//! its budget, its answer's comment, and how a step reads in a progress line
//! ([`StepReport`]).

use super::best::{write_answer_file, BEST_FILE};
use super::folder::{self, Held};
use super::pace::RunCost;
use super::progress::{SessionProgress, StepReport};
use super::steps::{run_session, Keeper, Observer, SessionEnd, Steps, Told};
use super::{default_name, SessionError};
use crate::files::{folder_of, write_atomic};
use crate::genome::EngineSpec;
use crate::lock::SessionLock;
use crate::store::{self, CheckpointError, OneFileSession, TunerSession};
use crate::tuner::Tuner;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A tuner whose session is one checkpoint file in its folder: what [`TunerRun`] needs of it
/// beyond the tuner contract.
pub trait FileTuner: Tuner + Sized + Send {
    /// Whose session it is, as [`crate::store::session_in`] tells it by its file.
    const KIND: store::Tuner;
    /// What one step is called in lines: `step`, `generation`.
    const STEP: &'static str;

    /// Its checkpoint in session folder `dir`.
    fn checkpoint(dir: &Path) -> PathBuf;
    /// The bytes of a session's checkpoint; one line when it does not fit one.
    fn encode(session: &TunerSession<&Self>) -> Result<Vec<u8>, String>;
    /// Reads a session's checkpoint.
    fn load(path: &Path) -> Result<TunerSession<Self>, CheckpointError>;
    /// The session as every command that reads one sees it, whichever tuner's (`report`,
    /// `history`, `show`): its checkpoint's [`OneFileSession`].
    fn view(session: &TunerSession<Self>) -> &dyn OneFileSession;
    /// The engine whose parameters it tunes.
    fn spec(&self) -> &EngineSpec;
    /// The games of its whole budget.
    fn budget(&self) -> u64;
    /// The games of one whole step.
    fn games_per_step(&self) -> u64;
    /// Its steps in all.
    fn steps(&self) -> u64;
    /// Has the whole budget been played?
    fn finished(&self) -> bool {
        self.games() >= self.budget()
    }
    /// Where it stands, in words: `step 75 of 500, 600 of 4000 games`.
    fn progress(&self) -> String {
        format!(
            "{} {} of {}, {} of {} games",
            Self::STEP,
            self.steps_done(),
            self.steps(),
            self.games(),
            self.budget()
        )
    }
    /// Whole steps played.
    fn steps_done(&self) -> u64;
    /// Its answer in the engine's units, unrounded (θ, or CMA-ES's average of the means).
    fn values(&self) -> Vec<f64>;
    /// The comment of the answer file of session `name`: the tuner, the session, what it
    /// played.
    fn comment(name: &str, state: &Self) -> String;
    /// How step `step` reads in progress lines.
    fn report(step: &Self::Step) -> StepReport;
}

/// A tuner's session ready to run: its folder locked, its checkpoint read or written.
pub struct TunerRun<T: FileTuner> {
    /// The session as it stands.
    pub session: TunerSession<T>,
    /// Its folder.
    pub dir: PathBuf,
    /// Its checkpoint.
    pub checkpoint: PathBuf,
    _lock: SessionLock,
}

impl<T: FileTuner> TunerRun<T> {
    /// What the rest of the run plays, for its cost line: the steps left and the games left
    /// over them (the last step may be short); `budget_flag` is how its command asks for
    /// games ([`RunCost::of_steps`]).
    pub fn cost(&self, budget_flag: &'static str) -> RunCost {
        let state = &self.session.state;
        let steps = state.steps().saturating_sub(state.steps_done());
        let games = state.budget().saturating_sub(state.games());
        let per = games as f64 / steps.max(1) as f64;
        RunCost::of_steps(steps, per, T::STEP, budget_flag)
    }

    /// Every how many steps a page of the run (`--report`) is written again as it goes: every
    /// 5% of its steps.
    pub fn report_every(&self) -> u64 {
        self.session.state.steps().div_ceil(20).max(1)
    }

    /// Starts a session of `state` (a run at its start) named `name` (None: two words drawn from
    /// `seed`, as `new` names a session) under `populations`: makes and locks its folder,
    /// refusing one that holds a session already, and writes its checkpoint at step 0. `out` is
    /// a parameter file its answer is also written to, besides the session's `best.json`.
    /// Nothing is made when the name is refused.
    pub fn start(
        name: Option<String>,
        seed: u64,
        populations: &Path,
        state: T,
        out: Option<PathBuf>,
    ) -> Result<TunerRun<T>, SessionError> {
        let name = name.unwrap_or_else(|| default_name(seed, populations));
        super::check_name(&name)?;
        // Refused when the folder holds a session of any tuner or a session's answer.
        let (Held { dir, lock }, ()) =
            folder::claim(populations, &name, |_| check_free(populations, &name))?;
        let run = TunerRun {
            checkpoint: T::checkpoint(&dir),
            session: TunerSession { name, state, out },
            dir,
            _lock: lock,
        };
        save(&run.checkpoint, &T::encode(&run.session.view()))?;
        Ok(run)
    }

    /// Prepares to continue the session whose checkpoint is `checkpoint` (see
    /// [`crate::store::tuner_of`]): locks its folder, reads the checkpoint, and checks that the
    /// engine still declares what it declared (one line when it does not).
    pub fn resume(checkpoint: &Path) -> Result<TunerRun<T>, SessionError> {
        let dir = folder_of(checkpoint);
        // Read under the lock: a run that held the folder until just now may have written a
        // later step.
        let Held { lock, .. } = folder::enter(&dir)?;
        let session = T::load(checkpoint)?;
        if !session.state.finished() {
            session.state.spec().check_unchanged().map_err(|error| {
                SessionError::EngineChanged {
                    name: session.name.clone(),
                    error,
                }
            })?;
        }
        Ok(TunerRun {
            session,
            dir,
            checkpoint: checkpoint.to_path_buf(),
            _lock: lock,
        })
    }

    /// Plays steps until the budget is played or `stop` is set (checked before every game:
    /// the steps under way are abandoned), writing the checkpoint after every step, then writes
    /// the answer ([`TunerRun::write_answer`]), however the run ends (when a checkpoint cannot
    /// be written, as it can), but for a step whose every game was lost on time: that ends the
    /// run with an error, the checkpoint the step before. `observer` hears every step, game and checkpoint, the answer
    /// file, and a stop. The games are played on the jobs executor (the current rayon
    /// pool), as a stream when the tuner keeps generations in flight ([`crate::run_steps`]:
    /// the checkpoint is written while the next generations' games are played); the engine's
    /// idle processes end with the run. It is the loop of every session, the GA's included
    /// (file `steps`).
    pub fn run(
        &mut self,
        observer: &mut dyn Observer<T>,
        stop: &AtomicBool,
    ) -> Result<TunerOutcome, SessionError> {
        let TunerSession { name, state, out } = &mut self.session;
        let mut keeper = OneFile {
            checkpoint: &self.checkpoint,
            best: self.dir.join(BEST_FILE),
            name,
            out,
        };
        let ran = run_session(state, &mut keeper, &self.dir, observer, stop)?;
        Ok(TunerOutcome {
            stopped: ran.end != SessionEnd::Finished,
            best: self.best_file(),
            copy: self.session.out.clone(),
        })
    }

    /// The session's answer file: `best.json` in its folder.
    pub fn best_file(&self) -> PathBuf {
        self.dir.join(BEST_FILE)
    }

    /// Writes the answer after the last whole step, rounded, to the session's `best.json` and
    /// to its `--out` copy if it has one (each to a temporary name, synced, renamed): an engine
    /// parameter file whose comment names the session and what the run played.
    pub fn write_answer(&self) -> Result<TunerOutcome, SessionError> {
        let s = &self.session;
        write_answers(&s.state, &s.name, &self.best_file(), s.out.as_deref())?;
        Ok(TunerOutcome {
            stopped: !s.state.finished(),
            best: self.best_file(),
            copy: s.out.clone(),
        })
    }
}

impl<T: FileTuner> Steps for T {
    fn done(&self) -> bool {
        self.finished()
    }

    fn engine(&self) -> Option<&EngineSpec> {
        Some(self.spec())
    }

    fn told(&self, step: &T::Step) -> Told {
        let r = T::report(step);
        Told {
            what: format!("{} {}", T::STEP, r.number),
            time: r.time,
            faults: r.faults,
        }
    }
}

/// A one-file tuner's files: its checkpoint, `best.json` and the `--out` copy.
struct OneFile<'a> {
    checkpoint: &'a Path,
    best: PathBuf,
    name: &'a str,
    out: &'a Option<PathBuf>,
}

impl<T: FileTuner> Keeper<T> for OneFile<'_> {
    fn save(&mut self, state: &T) -> Result<PathBuf, CheckpointError> {
        let view = TunerSession {
            name: self.name.to_string(),
            state,
            out: self.out.clone(),
        };
        save(self.checkpoint, &T::encode(&view)).map(|()| self.checkpoint.to_path_buf())
    }

    /// Written at the start and after every step.
    fn at(&self, _: &T) -> (PathBuf, bool) {
        (self.checkpoint.to_path_buf(), true)
    }

    fn answer(&mut self, state: &T) -> Result<Option<PathBuf>, SessionError> {
        write_answers(state, self.name, &self.best, self.out.as_deref())?;
        Ok(Some(self.best.clone()))
    }

    fn save_failed(&mut self, state: &T, e: CheckpointError) -> (SessionError, Option<PathBuf>) {
        let written = write_answers(state, self.name, &self.best, self.out.as_deref()).is_ok();
        (e.into(), written.then(|| self.best.clone()))
    }
}

/// Writes `state`'s answer, rounded, to `best` and to `out` if given: an engine parameter file
/// whose comment names session `name` and what its run played.
fn write_answers<T: FileTuner>(
    state: &T,
    name: &str,
    best: &Path,
    out: Option<&Path>,
) -> Result<(), SessionError> {
    let (w, comment) = (state.answer(), T::comment(name, state));
    for path in std::iter::once(best).chain(out) {
        write_answer_file(path, Some(state.spec()), &w, None, Some(&comment))?;
    }
    Ok(())
}

/// Writes checkpoint `bytes` to `path` (temp name, sync, rename).
fn save(path: &Path, bytes: &Result<Vec<u8>, String>) -> Result<(), CheckpointError> {
    let bytes = bytes
        .as_ref()
        .map_err(|e| CheckpointError::new(path, e.clone()))?;
    write_atomic(path, bytes)
        .map_err(|e| CheckpointError::new(path, format!("cannot write: {e}")))?;
    Ok(())
}

/// Refuses a session name whose folder under `populations` holds a session already (of any
/// tuner) or a session's answer (`best.json`). [`TunerRun::start`] checks it before it makes
/// the folder, or under the lock of a folder that exists (and whether the folder holds a
/// session again under the lock in either case).
pub fn check_free(populations: &Path, name: &str) -> Result<(), SessionError> {
    folder::refuse_taken(populations, name)?;
    let dir = store::session_dir(populations, name);
    if dir.join(BEST_FILE).exists() {
        return Err(SessionError::Refused(format!(
            "session '{name}' has an answer in '{}' already: pick another --name",
            dir.display()
        )));
    }
    Ok(())
}

/// The tuner `new --engine` runs for an engine of `params` tuned parameters when none is named:
/// the GA (the mean) up to 16 parameters (the bound where the mean halves its spread), CMA-ES
/// beyond. Each won in real games where it was measured at equal games: the mean on the
/// example engine's 8 parameters, CMA-ES on our 66 weights through the protocol
/// (docs/results.md).
pub fn engine_tuner(params: usize) -> store::Tuner {
    if params <= crate::ga::MEAN_WIDE {
        store::Tuner::Ga
    } else {
        store::Tuner::Cmaes
    }
}

/// What a run of a tuner's session did ([`TunerRun::run`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TunerOutcome {
    /// Did it stop before the end of the budget?
    pub stopped: bool,
    /// The session's answer: `best.json` in its folder.
    pub best: PathBuf,
    /// The copy of it the session names (`--out`), if any.
    pub copy: Option<PathBuf>,
}

impl SessionProgress {
    /// Where a one-file tuner's session stands.
    pub fn of<T: FileTuner>(state: &T) -> SessionProgress {
        SessionProgress {
            step: T::STEP,
            steps: state.steps(),
            steps_done: state.steps_done(),
            games: state.games(),
            budget: state.budget(),
            games_per_step: state.games_per_step(),
            names: state.spec().tuned.iter().map(|t| t.name.clone()).collect(),
            values: state.values(),
            time_left: None,
        }
    }
}
