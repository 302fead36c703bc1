//! The contract a tuner keeps, ask and tell (as DEAP's generate and update, or Nevergrad's ask
//! and tell): the tuner says which games it wants played next, as a batch of game jobs
//! ([`Batch`]: the candidates and their pairings, openings and per-game keys), is told their
//! results, and moves on. What plays the games, a rayon pool or the ranks of an MPI job, is
//! the jobs executor's business ([`crate::jobs::run`]), never the tuner's; so is stopping.
//!
//! A tuner's state is data: everything a batch draws comes from its seed and its own step
//! counters, so asking again without a tell gives the same batch. A batch cut short by a stop
//! is abandoned and asked again later, and a run continued from a saved state plays the games
//! a run that never stopped would have played.
//!
//! The GA ([`crate::GaState`]: a generation is its tournament, then a duel and a measurement
//! when they are due, up to three batches), SPSA ([`crate::SpsaState`]) and every other
//! one-file tuner ([`crate::store::FileTuner`]) keep it.

use crate::eval::Weights;
use crate::jobs::{self, Batch, Played};
use std::sync::atomic::{AtomicBool, Ordering};

/// The budget of games a tuner of an outside engine plays when none is given: `new --engine`'s
/// `--games-budget` with a one-file tuner, and every one-file tuner's default settings.
pub const TUNER_GAMES: u64 = 4000;

/// The most games a session of a one-file tuner may ask for.
pub const MAX_TUNER_GAMES: u64 = 10_000_000;

/// How often a one-file tuner keeps a point of its history (the answer so far): every 10
/// steps, or as many more as keep the history of a run of `steps` steps whose points hold
/// about `params` numbers within about 4 MiB of its checkpoint (a run of millions of games).
pub fn history_every(steps: u64, params: usize) -> u64 {
    let point = 8 * params as u64 + 24;
    let most = (4u64 << 20) / point.max(1);
    steps.div_ceil(most.max(1)).max(10)
}

/// A tuner, by its ask and tell: it says which games it wants played next, as a batch of
/// game jobs, and is told their results. Its state is data: everything a batch draws comes
/// from its seed and its own step counters, so asking again without a tell gives the same
/// batch, a batch cut short by a stop is asked again later, and a run continued from a saved
/// state plays the games a run that never stopped would have played. What plays the games (a
/// rayon pool, an MPI job's ranks) is the jobs executor's business, never the tuner's;
/// [`play_step`] plays one step.
pub trait Tuner {
    /// What a whole step reports when it ends (SPSA's [`crate::SpsaStep`]).
    type Step;

    /// The games it wants played next; None once its budget is played. Without a tell in
    /// between, the same batch each time.
    fn ask(&self) -> Option<Batch>;

    /// The results of the batch [`Self::ask`] gave, in job order (one per job): the tuner
    /// moves on, and says what its step did when the step ends; None while the step wants
    /// more games (a tuner whose step is more than one batch asks for the next).
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<Self::Step>;

    /// Drops what a step cut short was told before its last batch, so that the next ask
    /// starts the step again (nothing for a tuner whose steps are one batch each).
    fn abandon(&mut self) {}

    /// Its answer as it stands: the genome it would play now.
    fn answer(&self) -> Weights;

    /// Games played in whole steps.
    fn games(&self) -> u64;

    /// What the schedule log ([`crate::schedule`]) calls the batch asked for next, when the
    /// default (by its games' purpose) would not say it (the GA's `tournament` and `measure`).
    fn phase(&self) -> Option<&'static str> {
        None
    }

    /// How many batches it keeps in flight: the batch asked for next and those after it,
    /// drawn before the results of the ones before them are told. 1 (the default): each batch
    /// waits for the last one's results. A tuner that keeps more makes every step one batch,
    /// and its state keeps what it drew for the batches asked for ahead, so that which batch
    /// it asks for never depends on when it is asked ([`crate::run_steps`] plays them as a stream).
    fn in_flight(&self) -> usize {
        1
    }

    /// The batch `k` after the one [`Self::ask`] gives (`k` below [`Self::in_flight`]; `k = 0`
    /// is `ask`'s), before any of them is told; None past the budget.
    fn ask_ahead(&self, k: usize) -> Option<Batch> {
        if k == 0 {
            self.ask()
        } else {
            None
        }
    }
}

/// Plays `tuner`'s next step on the jobs executor: asks, plays the batch, tells, until a step
/// ends; the step. `on_game(k, played)` hears of each game of a batch as it finishes; `stop` is
/// asked before each game (and each move of a batch that abandons its games). None when the
/// budget is played, or when stopped before the step ended: the step is abandoned
/// ([`Tuner::abandon`]) and the tuner is as it was before it.
pub fn play_step<T: Tuner + ?Sized>(
    tuner: &mut T,
    on_game: &(dyn Fn(usize, &Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<T::Step> {
    loop {
        let batch = tuner.ask()?;
        let phase = tuner.phase().map(crate::schedule::phase);
        let played = jobs::run(&batch, on_game, stop);
        drop(phase);
        let Some(played) = played else {
            tuner.abandon();
            return None;
        };
        if let Some(step) = tuner.tell(&batch, &played) {
            return Some(step);
        }
    }
}

/// What watches a tuner's run: every finished game (heard from the worker threads) and every
/// whole step, as the tuner reports it (`S`: [`Tuner::Step`]).
pub trait StepObserver<S>: Sync {
    /// A game has ended.
    fn game_done(&self) {}
    /// A step has ended and the tuner moved.
    fn step_done(&mut self, _step: &S) {}
}

/// An observer that watches nothing.
impl<S> StepObserver<S> for () {}

/// Plays `tuner`'s next step ([`play_step`]) for `observer`, which hears of each game and of the
/// step; the step. None when the budget is played, or when `stop` was set before the step or
/// during its games (the step is abandoned and the tuner as it was).
pub fn advance<T: Tuner + ?Sized>(
    tuner: &mut T,
    observer: &mut dyn StepObserver<T::Step>,
    stop: &AtomicBool,
) -> Option<T::Step> {
    let stopper = || stop.load(Ordering::SeqCst);
    if stopper() {
        return None;
    }
    let watcher: &dyn StepObserver<T::Step> = &*observer;
    let done = play_step(tuner, &|_, _| watcher.game_done(), &stopper)?;
    observer.step_done(&done);
    Some(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::EngineSpec;
    use crate::sim::SimModel;
    use crate::{SpsaSettings, SpsaState};

    fn spsa() -> SpsaState {
        let model = SimModel::new(4, 7);
        let settings = SpsaSettings {
            games: 64,
            pairs_per_step: 4,
            seed: 11,
            ..SpsaSettings::default()
        };
        SpsaState::new(&EngineSpec::simulated(&model, 2), &settings).unwrap()
    }

    fn on_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
        crate::jobs::thread_pool(2).unwrap().install(f)
    }

    #[test]
    fn asking_again_gives_the_same_games_and_a_stopped_step_changes_nothing() {
        let mut t = spsa();
        let batch = t.ask().unwrap();
        assert_eq!(batch.jobs.len(), 8);
        assert_eq!(t.ask(), Some(batch));
        let before = t.clone();
        assert!(on_pool(|| play_step(&mut t, &|_, _| {}, &|| true)).is_none());
        assert_eq!(t, before);
        // Told of its batch's games, it moves on: the next batch is another step's.
        let step = on_pool(|| play_step(&mut t, &|_, _| {}, &|| false)).unwrap();
        assert_eq!((step.step, step.games, t.games()), (1, 8, 8));
        assert_ne!(t.ask(), before.ask());
    }

    #[test]
    fn a_state_saved_between_steps_goes_on_as_the_run_that_never_stopped() {
        let mut whole = spsa();
        let mut steps = Vec::new();
        on_pool(|| {
            while let Some(s) = play_step(&mut whole, &|_, _| {}, &|| false) {
                steps.push(s.theta);
            }
        });
        assert_eq!(steps.len(), 8);
        assert!(whole.ask().is_none(), "the budget is played");
        let mut part = spsa();
        let mut again = Vec::new();
        on_pool(|| {
            for _ in 0..3 {
                again.push(play_step(&mut part, &|_, _| {}, &|| false).unwrap().theta);
            }
        });
        let bytes = bincode::serde::encode_to_vec(&part, bincode::config::standard()).unwrap();
        let (mut part, _): (SpsaState, _) =
            bincode::serde::decode_from_slice(&bytes, bincode::config::standard()).unwrap();
        on_pool(|| {
            while let Some(s) = play_step(&mut part, &|_, _| {}, &|| false) {
                again.push(s.theta);
            }
        });
        assert_eq!(again, steps);
        assert_eq!(part.answer(), whole.answer());
    }
}

/// A step as progress lines and the signal note read it, whichever tuner's.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// The step's number, from 1.
    pub number: u64,
    /// Games played so far, this step's included.
    pub games: u64,
    /// The answer after the step, in the engine's units.
    pub values: Vec<f64>,
    /// The step's result in a few words (`result +2`, `σ 4096`).
    pub note: String,
    /// This step's games.
    pub played: u64,
    /// This step's games that were drawn.
    pub draws: u64,
    /// This step's pairs whose two sides played each other (one opening, colours swapped):
    /// SPSA's θ+ and θ-, the mirrored candidates of the mean and of an evolution strategy; 0
    /// for a GA tournament.
    pub pairs: u64,
    /// Of those, the pairs whose sides scored apart.
    pub decided: u64,
    /// On a clock: what this step's games did with it.
    pub time: Option<crate::clock::TimeUse>,
    /// The step's games an engine lost by a fault or on time, a line each (which game, which
    /// side, what it did and said), as the session's `faults.log` keeps them.
    pub faults: Vec<String>,
}
