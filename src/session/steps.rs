//! The one loop every session runs its tuner in, the GA's and every [`crate::store::FileTuner`]'s:
//! [`run_session`] plays the tuner's steps ([`play_steps`]: as a stream, [`crate::run_steps`],
//! on the current rayon pool) until the tuner is done, its time limit passes or the caller's stop
//! flag is set; after each step it hears it (the observer; the step's faults into the session's
//! `faults.log`; the rule that a step lost wholly on time ends the run), writes the session's
//! checkpoint, then asks whether to go on. A stop ends it at the next game boundary; the steps
//! under way are abandoned, so the newest checkpoint is the last whole step and a resumed run
//! goes on exactly. At its end, however it ends (but for a step lost wholly on time, which ends
//! it with an error), the session's answer is written. The outside
//! engine's idle processes are kept for the run's next games and end with it.
//!
//! What is each tuner's own is what [`Steps`] asks of its state (is it done, its engine, a step
//! in words, its time limit) and how its session keeps its files ([`Keeper`]: the GA's
//! checkpoint a generation and best-weights file, a one-file tuner's checkpoint and `best.json`).
//!
//! What a session's run reports, whichever tuner's, is one [`Observer`] of its state: each step
//! as it starts and ends, each game, each checkpoint, the answer file, a stop.
//!
//! The hooks sit behind a read-write lock: games end on every thread ([`RunHooks::game_done`]
//! takes it to read) while a step is told on one of them. The checkpoint is written outside
//! the lock, so games that end meanwhile do not wait for the disk.

use super::outside::log_faults;
use super::SessionError;
use crate::clock::TimeUse;
use crate::flight::lock;
use crate::ga::GaState;
use crate::genome::EngineSpec;
use crate::store::CheckpointError;
use crate::tuner::Tuner;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Instant;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// The session reached its limit (or had reached it before this run).
    Finished,
    /// The caller's stop flag was set: the step under way was abandoned.
    Stopped,
    /// The session's time limit passed within a generation, which was abandoned.
    TimeLimit,
}

/// What a running session reports, whichever tuner's: `T` is its tuner's state ([`GaState`],
/// the default, for the GA and the mean; [`crate::store::AnyTuner`], every one-file tuner's), and a
/// step what that tuner calls one (a generation of the GA, whose [`Tuner::Step`] says what it
/// did: its duel, its measurement). Every method has a default that does nothing.
pub trait Observer<T: Tuner = GaState>: Send + Sync {
    /// A step starts (of the GA: a generation, its tournament first).
    fn step_started(&mut self, _state: &T) {}
    /// A game ended (called from the worker threads).
    fn game_done(&self) {}
    /// A step was played and the tuner moved (its checkpoint not yet written, and never for
    /// a step whose every game was lost on time, which ends the run): `step` says what it did,
    /// `state` stands after it.
    fn step_done(&mut self, _step: &T::Step, _state: &T) {}
    /// The checkpoint of `state` was written to `path`.
    fn checkpoint_written(&mut self, _path: &Path, _state: &T) {}
    /// The session's answer was written to `path` (the GA's best-weights file, a one-file
    /// tuner's `best.json`).
    fn answer_written(&mut self, _path: &Path) {}
    /// The run stopped before the session's end (`end` is not [`SessionEnd::Finished`]); the
    /// session stands at `checkpoint`.
    fn stopped(&mut self, _end: SessionEnd, _state: &T, _checkpoint: &Path) {}
}

/// An observer that hears nothing.
pub struct Silent;

impl<T: Tuner> Observer<T> for Silent {}

/// What the one loop needs of a tuner's state beyond the contract.
pub trait Steps: Tuner + Send {
    /// Has it played all it will (its budget, its generations, its time)?
    fn done(&self) -> bool;
    /// The outside engine it tunes, if any.
    fn engine(&self) -> Option<&EngineSpec>;
    /// Step `step`, just told (the state stands after it), as the run hears it.
    fn told(&self, step: &Self::Step) -> Told;
    /// When it must stop starting games (its time limit), from now; None: never.
    fn deadline(&self) -> Option<Instant> {
        None
    }
    /// Whole steps played (the GA's generations).
    fn steps_played(&self) -> u64;
}

/// A step told, as the run hears it.
pub struct Told {
    /// The step in words: `generation 4`, `step 40`.
    pub what: String,
    /// On a clock: what its games did with it.
    pub time: Option<TimeUse>,
    /// Its games an engine lost by a fault or on time, a line each ([`crate::jobs::Batch::fault_lines`]).
    pub faults: Vec<String>,
}

/// How a session keeps its files around its tuner's state `T`: its checkpoints and its answer.
pub trait Keeper<T>: Send {
    /// Writes the checkpoint of `state`; its path.
    fn save(&mut self, state: &T) -> Result<PathBuf, CheckpointError>;
    /// The checkpoint `state` stands at, and whether it is written (a GA session stopped
    /// before its first generation has none until the stop writes it).
    fn at(&self, state: &T) -> (PathBuf, bool);
    /// Writes the session's answer, however the run ended (`end`); its file (None: no answer
    /// yet).
    fn answer(&mut self, state: &T, end: SessionEnd) -> Result<Option<PathBuf>, SessionError>;
    /// The checkpoint of `state` could not be written: the error the run ends with, having
    /// written what answer it could (the file, when the observer is to hear of it).
    fn save_failed(&mut self, state: &T, e: CheckpointError) -> (SessionError, Option<PathBuf>);
}

/// What a run did ([`run_session`]).
pub(crate) struct Ran {
    /// How it ended.
    pub end: SessionEnd,
    /// The checkpoint the session stands at.
    pub checkpoint: PathBuf,
    /// The answer written, if any.
    pub answer: Option<PathBuf>,
}

/// Runs `state`'s session in folder `dir` until the tuner is done, its time limit passes (no
/// game starts past it) or `stop` is set (asked before every game), its files kept by `keeper`
/// and `observer` hearing it all. A run that ends short of the tuner's end saves the state it
/// stands at when that is not saved yet. The answer is written however the run ends, but for
/// a step refused ([`Steps::told`] wholly lost on time), which ends it with the checkpoint of
/// the step before.
pub(crate) fn run_session<T: Steps>(
    state: &mut T,
    keeper: &mut dyn Keeper<T>,
    dir: &Path,
    observer: &mut dyn Observer<T>,
    stop: &AtomicBool,
) -> Result<Ran, SessionError> {
    let deadline = Mutex::new(state.deadline());
    let halt =
        || stop.load(Ordering::SeqCst) || lock(&deadline).is_some_and(|d| Instant::now() >= d);
    let mut ran = Ok(());
    if !state.done() && !stop.load(Ordering::SeqCst) {
        observer.step_started(state);
        let mut hooks = Hooks {
            observer: &mut *observer,
            dir,
            deadline: &deadline,
            stop,
            told: None,
        };
        let mut save = |st: &T| keeper.save(st);
        ran = play_steps(state, &mut hooks, &mut save, &halt);
    }
    let failed = |keeper: &mut dyn Keeper<T>, observer: &mut dyn Observer<T>, state: &T, e| {
        let (e, answer) = keeper.save_failed(state, e);
        if let Some(p) = answer {
            observer.answer_written(&p);
        }
        e
    };
    match ran {
        Ok(()) => {}
        Err(RunFault::Told(e)) => return Err(e),
        Err(RunFault::Save(e)) => return Err(failed(keeper, observer, state, e)),
    }
    let end = if state.done() {
        SessionEnd::Finished
    } else if stop.load(Ordering::SeqCst) || state.deadline().is_none() {
        SessionEnd::Stopped
    } else {
        SessionEnd::TimeLimit
    };
    let (checkpoint, written) = keeper.at(state);
    if end != SessionEnd::Finished && !written {
        if let Err(e) = keeper.save(state) {
            return Err(failed(keeper, observer, state, e));
        }
    }
    let answer = keeper.answer(state, end)?;
    if let Some(p) = &answer {
        observer.answer_written(p);
    }
    if end != SessionEnd::Finished {
        observer.stopped(end, state, &checkpoint);
    }
    Ok(Ran {
        end,
        checkpoint,
        answer,
    })
}

/// A run as [`play_steps`] hears it: the observer hears every game, step and checkpoint; a
/// step's faults go to the session's log once its checkpoint is written; a step whose every game was lost on time ends the
/// run (it moved the tuner by nothing the engine played; the checkpoint stays the step
/// before); each checkpoint renews the time limit's deadline, and once the tuner is done or
/// stopped no further step is taken.
struct Hooks<'a, T: Tuner> {
    observer: &'a mut dyn Observer<T>,
    dir: &'a Path,
    deadline: &'a Mutex<Option<Instant>>,
    stop: &'a AtomicBool,
    /// The step told whose checkpoint is being written: its words and its faults, logged once
    /// it is kept (a step not kept is played again on resume, and logged then; but for one
    /// lost wholly on time, logged at once: it says why the run ends).
    told: Option<(String, Vec<String>)>,
}

impl<T: Steps> RunHooks<T> for Hooks<'_, T> {
    fn game_done(&self) {
        self.observer.game_done();
    }

    fn told(&mut self, state: &T, step: &T::Step) -> Result<(), SessionError> {
        self.observer.step_done(step, state);
        let told = state.told(step);
        let lost = SessionError::out_of_time(told.what.clone(), told.time.as_ref(), state.engine());
        if lost.is_err() {
            // The games that ended the run are logged: they say why.
            log_faults(self.dir, &told.what, &told.faults);
        } else {
            self.told = Some((told.what, told.faults));
        }
        lost
    }

    fn saved(&mut self, state: &T, path: &Path) -> bool {
        if let Some((what, faults)) = self.told.take() {
            log_faults(self.dir, &what, &faults);
        }
        self.observer.checkpoint_written(path, state);
        *lock(self.deadline) = state.deadline();
        if state.done() || self.stop.load(Ordering::SeqCst) {
            return false;
        }
        self.observer.step_started(state);
        true
    }
}

/// What a session does around its tuner's steps.
pub(crate) trait RunHooks<T: Tuner>: Send + Sync {
    /// A game has ended (called from any thread).
    fn game_done(&self);
    /// Step `step` was told and `state` stands after it, its checkpoint not yet written. An
    /// error ends the run, the checkpoint left at the step before.
    fn told(&mut self, state: &T, step: &T::Step) -> Result<(), SessionError>;
    /// The checkpoint of `state` was written to `path`: whether to take further steps.
    fn saved(&mut self, state: &T, path: &std::path::Path) -> bool;
}

/// Why [`play_steps`] ended a run before the tuner's end or a stop.
pub(crate) enum RunFault {
    /// A hook refused the step ([`RunHooks::told`]).
    Told(SessionError),
    /// The checkpoint could not be written.
    Save(CheckpointError),
}

/// Plays `state`'s steps until it has no more, `halt` says yes, or `hooks` end the run;
/// `save` writes a checkpoint of the state after each step told and returns its path.
pub(crate) fn play_steps<T: Tuner + Send, H: RunHooks<T>>(
    state: &mut T,
    hooks: &mut H,
    save: &mut (dyn FnMut(&T) -> Result<PathBuf, CheckpointError> + Send),
    halt: &(dyn Fn() -> bool + Sync),
) -> Result<(), RunFault> {
    // The engine's idle processes stay for the next step and end with the run.
    let _engines = crate::play::lease_engines();
    let hooks = RwLock::new(hooks);
    let mut fault = Ok(());
    let games = |_: &crate::jobs::Played| read(&hooks).game_done();
    let mut after = |st: &T, step: &T::Step| {
        if let Err(e) = write(&hooks).told(st, step) {
            fault = Err(RunFault::Told(e));
            return false;
        }
        let span = crate::schedule::span("checkpoint", 1);
        let saved = save(st);
        drop(span);
        match saved {
            Ok(path) => write(&hooks).saved(st, &path),
            Err(e) => {
                fault = Err(RunFault::Save(e));
                false
            }
        }
    };
    if !halt() {
        crate::run_steps(state, &games, halt, &mut after);
    }
    fault
}

fn read<'a, 'b, H: ?Sized>(l: &'a RwLock<&'b mut H>) -> RwLockReadGuard<'a, &'b mut H> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write<'a, 'b, H: ?Sized>(l: &'a RwLock<&'b mut H>) -> RwLockWriteGuard<'a, &'b mut H> {
    l.write().unwrap_or_else(|e| e.into_inner())
}
