//! The one loop every session runs its tuner in, the GA's and every [`crate::FileTuner`]'s:
//! [`play_steps`] plays the tuner's steps as a stream ([`crate::run_steps`]) on the current
//! rayon pool, and after each step told hears it ([`RunHooks::told`]: the observer, the rule
//! that a step lost wholly on time ends the run), writes the session's checkpoint, then asks
//! whether to go on ([`RunHooks::saved`]). A stop ends it at the next game boundary; the steps
//! under way are abandoned, so the newest checkpoint is the last whole step and a resumed run
//! goes on exactly. The outside engine's idle processes are kept for the run's next games and
//! end with it.
//!
//! What a session's run reports, whichever tuner's, is one [`Observer`] of its state: each step
//! as it starts and ends, each game, each checkpoint, the answer file, a stop.
//!
//! The hooks sit behind a read-write lock: games end on every thread ([`RunHooks::game_done`]
//! takes it to read) while a step is told on one of them. The checkpoint is written outside
//! the lock, so games that end meanwhile do not wait for the disk.

use super::SessionError;
use crate::ga::Session;
use crate::store::CheckpointError;
use crate::tuner::Tuner;
use std::path::{Path, PathBuf};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

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

/// What a running session reports, whichever tuner's: `T` is its tuner's state ([`Session`],
/// the default, for the GA and the mean; [`crate::SpsaState`]; [`crate::CmaesState`]), and a
/// step what that tuner calls one (a generation of the GA, whose [`Tuner::Step`] says what it
/// did: its duel, its measurement). Every method has a default that does nothing.
pub trait Observer<T: Tuner = Session>: Send + Sync {
    /// A step starts (of the GA: a generation, its tournament first).
    fn step_started(&mut self, _state: &T) {}
    /// A game ended (called from the worker threads).
    fn game_done(&self) {}
    /// A step was played and the tuner moved (its checkpoint not yet written): `step` says what
    /// it did, `state` stands after it.
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
