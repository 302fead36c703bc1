//! An outside Hub engine as a player, and the one pool of its idle processes.
//!
//! A game takes an idle process of the player's program for its side at that side's first
//! move (or starts one), sets the side's parameter values when it has any (`set-param` for
//! each, then `init` ... `ready`), tells it a new game starts, plays, and gives it back. A
//! process that failed is killed, and the next game starts another; an abandoned game's
//! processes are killed too.
//!
//! The pool is keyed by what starts a process (its command, folder and options) and whether
//! its parameters are set before each game. Idle processes stay while anyone holds an
//! [`EngineLease`] (a session, an SPSA run, a match, a batch of games), so that the next game
//! reuses them; when the last lease is dropped (the work ended, failed or was stopped) they are
//! stopped, and a process given back with no lease held is stopped at once. No caller has to
//! remember to release anything.

use super::{Answer, Player, Thought, Turn};
use crate::clock::TimeControl;
use crate::game::Game;
use crate::hub::{
    handshake_timeout, hold_core, ClientError, CoreHold, HubLevel, HubProcess, Program,
};
use std::sync::Mutex;
use std::time::Duration;

pub use crate::hub::DEFAULT_MOVE_TIMEOUT;

/// On a clock, how much longer than twice its time an engine may be silent before it counts
/// as hung (a move that comes sooner but late loses on time).
const HUNG_AFTER_CLOCK: Duration = Duration::from_secs(1);

/// The idle processes, and how many hold the pool open.
struct Pool {
    leases: usize,
    /// Each idle process with its program and whether its parameters are set per game.
    idle: Vec<(Program, bool, HubProcess)>,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    leases: 0,
    idle: Vec::new(),
});

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keeps idle outside engine processes for the next game while held ([`lease_engines`]); when
/// the last one is dropped, the idle processes are stopped.
#[derive(Debug)]
pub struct EngineLease(());

/// A lease on the pool of idle outside engine processes: they are kept for reuse until every
/// lease is dropped.
pub fn lease_engines() -> EngineLease {
    pool().leases += 1;
    EngineLease(())
}

impl Drop for EngineLease {
    fn drop(&mut self) {
        let idle = {
            let mut p = pool();
            p.leases -= 1;
            if p.leases > 0 {
                return;
            }
            std::mem::take(&mut p.idle)
        };
        // Stopped (killed when they do not quit) outside the lock.
        drop(idle);
    }
}

/// An idle process of `program` (or a new one) on `core` (None: any), with `params` set (when
/// `tuned`), told a new game starts.
fn take(
    program: &Program,
    tuned: bool,
    params: &[(String, String)],
    core: Option<usize>,
    stop: &dyn Fn() -> bool,
) -> Result<HubProcess, ClientError> {
    let ready = |p: &mut HubProcess| -> Result<(), ClientError> {
        p.pin(core);
        if tuned {
            p.configure(params, handshake_timeout(), stop)?;
        }
        p.new_game()
    };
    loop {
        let idle = {
            let mut pool = pool();
            let at = pool
                .idle
                .iter()
                .position(|(k, t, _)| k == program && *t == tuned);
            at.map(|i| pool.idle.swap_remove(i).2)
        };
        match idle {
            // One that cannot take its values or hear `new-game` is dropped (killed); the next
            // is tried.
            Some(mut p) => {
                if ready(&mut p).is_ok() {
                    return Ok(p);
                }
                if stop() {
                    return Err(ClientError::Stopped);
                }
            }
            None => {
                let mut p = program.start(handshake_timeout(), stop)?;
                ready(&mut p)?;
                return Ok(p);
            }
        }
    }
}

/// Puts `p` back among the idle processes, or stops it when no lease is held.
fn give_back(program: &Program, tuned: bool, p: HubProcess) {
    let mut pool = pool();
    if pool.leases > 0 {
        pool.idle.push((program.clone(), tuned, p));
    } else {
        drop(pool);
        drop(p);
    }
}

/// Keeps `p`, a process of `program` just started and not yet given a game (its handshake made
/// to learn its name or check its options), for the next game of `program` played as it is,
/// while a lease is held; else it is stopped.
pub(crate) fn keep_started(program: &Program, p: HubProcess) {
    give_back(program, false, p);
}

/// An outside engine as a player: its program, the parameter values set before each game (a
/// tuned genome's; none for an engine played as it is), the depth it is asked for without a
/// clock, and how long a move may take then.
pub struct Outside {
    program: Program,
    /// Set before each game (`set-param` ..., `init` ... `ready`) when `tuned`.
    params: Vec<(String, String)>,
    tuned: bool,
    depth: Option<u32>,
    move_timeout: Duration,
    held: Option<HubProcess>,
    /// The core its game holds, at a fixed depth ([`crate::hub::hold_core`]).
    core: Option<CoreHold>,
    /// A core was asked for in this game (none is asked for again when none was had).
    asked: bool,
}

impl Outside {
    /// `program` played as it is, asked to search to `depth` without a clock (None: its own
    /// level, no `level` sent), a move without a clock allowed `move_timeout`.
    pub fn new(program: Program, depth: Option<u32>, move_timeout: Duration) -> Outside {
        Outside {
            program,
            params: Vec::new(),
            tuned: false,
            depth,
            move_timeout,
            held: None,
            core: None,
            asked: false,
        }
    }

    /// The same with `params` set before each game (a genome's values).
    pub fn tuned(mut self, params: Vec<(String, String)>) -> Outside {
        self.params = params;
        self.tuned = true;
        self
    }

    /// Takes its process now, before the game (to show the engine's name): the process, or
    /// why it could not start.
    pub fn ready(&mut self, stop: &dyn Fn() -> bool) -> Result<&mut HubProcess, ClientError> {
        let p = match self.held.take() {
            Some(p) => p,
            None => {
                let core = self.core.as_ref().map(CoreHold::cpu);
                take(&self.program, self.tuned, &self.params, core, stop)?
            }
        };
        Ok(self.held.insert(p))
    }
}

impl Player for Outside {
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError> {
        let (level, timeout) = match turn.clock {
            Some(c) => {
                let left = c.remaining(turn.side);
                let level = match c.control(turn.side) {
                    TimeControl::PerMove(_) => HubLevel::MoveTime(left),
                    TimeControl::Game { increment, .. } => HubLevel::Time {
                        time: left,
                        increment,
                    },
                };
                // A move past its time loses on time (the game loop's clock says so); only an
                // engine silent for twice its time and a second more counts as hung.
                (Some(level), 2 * (left + c.margin()) + HUNG_AFTER_CLOCK)
            }
            None => (self.depth.map(HubLevel::Depth), self.move_timeout),
        };
        // To a depth the game holds a core for our thread and its engines. On a clock, or with
        // no depth given (the engine searches as it likes), nothing is pinned: each runs where
        // the system puts it.
        if turn.clock.is_none() && self.depth.is_some() && !self.asked {
            self.core = hold_core();
            self.asked = true;
        }
        let core = self.core.as_ref().map(CoreHold::cpu);
        let p = self.ready(turn.stop)?;
        // (Taken before the game, for its name.)
        p.pin(core);
        match p.go(game.start(), game.moves(), level, timeout, turn.stop) {
            Ok(r) => Ok(Answer::Move(
                r.mv,
                Thought {
                    depth: r.depth,
                    nodes: r.nodes,
                    value: None,
                    score: r.centi_men(),
                    elapsed: Some(r.elapsed),
                },
            )),
            Err(e) => {
                if matches!(e, ClientError::Fault(..)) {
                    // Killed.
                    self.held = None;
                }
                Err(e)
            }
        }
    }

    fn game_over(&mut self, abandoned: bool) {
        (self.core, self.asked) = (None, false);
        if let Some(p) = self.held.take() {
            if abandoned {
                drop(p);
            } else {
                give_back(&self.program, self.tuned, p);
            }
        }
    }
}
