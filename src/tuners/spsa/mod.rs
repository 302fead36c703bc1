//! SPSA (simultaneous perturbation stochastic approximation) over an outside engine's tuned
//! `int` parameters: the black-box tuner of chess engine testing (fishtest, OpenBench), to
//! compare the GA with at an equal number of games.
//!
//! Each parameter `i` has a real value `θ_i`, starting at the engine's declared default. A
//! step perturbs every parameter at once: `Δ_i` is +1 or -1 (drawn from the seed and the step's
//! number), `θ+ = θ + c_k Δ` and `θ- = θ - c_k Δ` (clamped into the declared range, rounded),
//! and the two play `pairs_per_step` game pairs, each pair from a ballot opening drawn for it
//! with both colours. With `r` the wins minus losses of `θ+` over those games, every parameter
//! moves by `a_k r Δ_i / c_k,i` (clamped into its range).
//!
//! The gains are fishtest's. `k` counts game pairs (the step that plays pairs `k0 + 1 ..= k0 +
//! P` has `k = k0 + 1`); `N` is the budget in pairs (`games / 2`) and `A = N / 10`:
//!
//! - `c_k,i = c_end,i * (N / k)^0.101`, so the perturbation ends at `c_end,i`, the fraction
//!   [`SpsaSettings::c_end`] of parameter `i`'s range (1/20 by default, Stockfish's tuning
//!   default), never less than 1 (an integer cannot move by less, and then `θ+` and `θ-` always
//!   differ);
//! - `a_k,i = r_end * c_end,i^2 * ((A + N) / (A + k))^0.602`, so one net win moves a parameter
//!   by `r_end * c_end,i` at the end of the run and about twice that at its start.
//!
//! [`SpsaSettings::r_end`] is 0.02 by default, ten times fishtest's 0.002, because runs here
//! are about ten times shorter (thousands of games, not tens of thousands). With 2,000 pairs
//! (4,000 games) and `c_end` = range / 20: noise alone (a pair's wins minus losses vary by
//! about one, in random directions) moves a parameter by about `0.02 * sqrt(2000) * 1.5 ≈ 1.3
//! c_end`, while a perturbation worth 0.1 win per pair (some 20 Elo between `θ+` and `θ-`)
//! moves it by about `0.02 * 2000 * 0.1 * 1.5 ≈ 6 c_end`, a third of the range, toward the
//! better side.
//!
//! A run is data, [`SpsaState`]: θ, the steps and pairs done, the history, the settings and the
//! engine; [`SpsaState::advance`] plays one step. [`spsa()`](fn@spsa) runs one to its end; an
//! SPSA session (`checkers-ga spsa`, a [`crate::SessionRun`]) writes the state after every step and
//! can be continued from it.
//!
//! Deterministic: the perturbations and openings come from the seed and the step's number, a
//! step's games are the match of `θ+` against `θ-`, genomes of the engine, over its openings
//! ([`MatchRun::batch_of`], played as one batch by [`jobs::run`] on the current rayon pool)
//! and counted in game order, so a deterministic engine gives the same result at any number of
//! threads, and a run continued from its state after any step ends with the values of one that
//! never stopped.
//!
//! Files, bottom up: `checkpoint`, `session`: its checkpoint file (`spsa.ckpt`); its
//! [`crate::store::FileTuner`] and its registration, [`SPSA`]: its command's settings and how
//! a run starts.

use crate::board::Position;
use crate::clock::TimeUse;
use crate::eval::Weights;
use crate::game::DrawRules;
use crate::genome::EngineSpec;
use crate::jobs::{Batch, Played};
use crate::matchplay::{Contestant, GameKeys, MatchRun, MatchSettings, MatchTally};
use crate::openings::{ballot, OpeningBook, StartPosition};
use crate::rng::{derive, Purpose};
use crate::tuner::{self, StepObserver, Tuner};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// fishtest's exponent of the learning rate's decay.
const ALPHA: f64 = 0.602;
/// fishtest's exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;

/// How an SPSA run is played: its budget, its steps and its gains.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaSettings {
    /// The games to play in all (rounded up to even: game pairs).
    pub games: u64,
    /// Game pairs per step (the last step may have fewer): all of a step's games are played at
    /// once, so at least half the worker threads keep every thread busy.
    pub pairs_per_step: u32,
    /// The final perturbation of each parameter as a fraction of its declared range (never less
    /// than 1).
    pub c_end: f64,
    /// fishtest's `r_end`: the final learning rate, as the move of a parameter per net win over
    /// its final perturbation.
    pub r_end: f64,
    /// The seed of the perturbations and openings.
    pub seed: u64,
    /// Keep θ in [`SpsaResult::history`] every this many steps, besides the start and the end
    /// (0: by the budget, [`history_every`](crate::history_every): every 10 steps, or less
    /// often where a long run's history would outgrow its checkpoint).
    pub history_every: u64,
}

impl Default for SpsaSettings {
    /// 4,000 games in steps of 4 pairs, `c_end` 1/20 of the range, `r_end` 0.02, seed 1, θ kept
    /// by the budget.
    fn default() -> SpsaSettings {
        SpsaSettings {
            games: crate::tuner::TUNER_GAMES,
            pairs_per_step: 4,
            c_end: 0.05,
            r_end: 0.02,
            seed: 1,
            history_every: 0,
        }
    }
}

/// Why an SPSA run cannot be played: a setting out of range, one variant per setting, each
/// one line naming the command's flag.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SpsaError {
    /// [`SpsaSettings::games`] is less than 2 (one pair) or more than
    /// [`MAX_TUNER_GAMES`](crate::MAX_TUNER_GAMES).
    #[error("--games {0} must be 2..{max}", max = crate::tuner::MAX_TUNER_GAMES)]
    Games(u64),
    /// [`SpsaSettings::pairs_per_step`] is 0.
    #[error("--pairs must be at least 1")]
    Pairs,
    /// [`SpsaSettings::c_end`] is not in `(0, 1]`.
    #[error("--c-end {0} must be more than 0 and at most 1 (a fraction of each range)")]
    CEnd(f64),
    /// [`SpsaSettings::r_end`] is not in `(0, 100]`.
    #[error("--r-end {0} must be more than 0 and at most 100")]
    REnd(f64),
}

impl SpsaSettings {
    /// Checks the settings: the first one out of range.
    pub fn check(&self) -> Result<(), SpsaError> {
        if !(2..=crate::tuner::MAX_TUNER_GAMES).contains(&self.games) {
            return Err(SpsaError::Games(self.games));
        }
        if self.pairs_per_step == 0 {
            return Err(SpsaError::Pairs);
        }
        if !(self.c_end.is_finite() && self.c_end > 0.0 && self.c_end <= 1.0) {
            return Err(SpsaError::CEnd(self.c_end));
        }
        if !(self.r_end.is_finite() && self.r_end > 0.0 && self.r_end <= 100.0) {
            return Err(SpsaError::REnd(self.r_end));
        }
        Ok(())
    }

    /// The budget in game pairs.
    pub fn pairs(&self) -> u64 {
        self.games.div_ceil(2)
    }

    /// The number of steps the budget makes.
    pub fn steps(&self) -> u64 {
        self.pairs().div_ceil(self.pairs_per_step.max(1) as u64)
    }
}

/// θ at some point of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaPoint {
    /// Steps done.
    pub step: u64,
    /// Games played.
    pub games: u64,
    /// θ, in the order of [`EngineSpec::tuned`].
    pub theta: Vec<f64>,
    /// Games lost by an engine's fault (a crash, a hang, an illegal move, garbage) in the
    /// steps up to this one, counted since the run began keeping them ([`SpsaState::faults`]);
    /// None in a history kept before (SPSA checkpoint format 1).
    pub faults: Option<u64>,
    /// On a clock ([`EngineSpec::tc`]): what the games of the steps since the point before
    /// did with it. Kept in the checkpoint after the rest (SPSA format 3).
    #[serde(skip)]
    pub time: Option<TimeUse>,
}

/// One step as it ends, for an observer.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaStep {
    /// The step's number, from 1.
    pub step: u64,
    /// The number of steps of the whole run.
    pub steps: u64,
    /// Games played so far, this step's included.
    pub games: u64,
    /// The values `θ+` played with.
    pub plus: Vec<i64>,
    /// The values `θ-` played with.
    pub minus: Vec<i64>,
    /// Wins minus losses of `θ+` in this step's games.
    pub result: i64,
    /// θ after the step.
    pub theta: Vec<f64>,
    /// This step's games that were drawn.
    pub draws: u64,
    /// This step's pairs of games (one opening, colours swapped).
    pub pairs: u64,
    /// Of those, the pairs θ+ and θ- scored apart in.
    pub decided: u64,
    /// On a clock: what this step's games did with it.
    pub time: Option<TimeUse>,
    /// The games of this step an engine lost by a fault or on time, a line each
    /// (the sides are `θ+` and `θ-`).
    pub faults: Vec<String>,
}

/// The end of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaResult {
    /// The final θ rounded, as a genome of the engine's set ([`EngineSpec::genome`]).
    pub weights: Weights,
    /// The final θ rounded, in the order of [`EngineSpec::tuned`].
    pub values: Vec<i64>,
    /// The final θ.
    pub theta: Vec<f64>,
    /// Games played (in whole steps).
    pub games_played: u64,
    /// Steps done.
    pub steps: u64,
    /// Was it stopped before its budget was played?
    pub stopped: bool,
    /// θ at the start, every [`SpsaSettings::history_every`] steps, and at the end.
    pub history: Vec<SpsaPoint>,
}

/// fishtest's gain sequences of a run, per tuned parameter.
struct Gains {
    /// `c`: the perturbation at `k = 1`.
    c: Vec<f64>,
    /// `a`: the learning rate's numerator.
    a: Vec<f64>,
    /// `A`: a tenth of the budget in pairs.
    big_a: f64,
}

impl Gains {
    fn new(spec: &EngineSpec, s: &SpsaSettings) -> Gains {
        let n = s.pairs() as f64;
        let big_a = n / 10.0;
        let c_end: Vec<f64> = spec
            .tuned
            .iter()
            .map(|t| ((t.max - t.min) as f64 * s.c_end).max(1.0))
            .collect();
        Gains {
            c: c_end.iter().map(|c| c * n.powf(GAMMA)).collect(),
            a: c_end
                .iter()
                .map(|c| s.r_end * c * c * (big_a + n).powf(ALPHA))
                .collect(),
            big_a,
        }
    }

    /// `c_k` of each parameter at pair `k` (from 1).
    fn c(&self, k: u64) -> Vec<f64> {
        self.c.iter().map(|c| c / (k as f64).powf(GAMMA)).collect()
    }

    /// `a_k` of each parameter at pair `k` (from 1).
    fn a(&self, k: u64) -> Vec<f64> {
        let d = (self.big_a + k as f64).powf(ALPHA);
        self.a.iter().map(|a| a / d).collect()
    }
}

/// The genome of these values, in the order of [`EngineSpec::tuned`].
fn genome_of(spec: &EngineSpec, values: &[i64]) -> Weights {
    let named: Vec<(String, i64)> = spec
        .tuned
        .iter()
        .zip(values)
        .map(|(t, &v)| (t.name.clone(), v))
        .collect();
    spec.genome(&named)
}

/// An SPSA run as data: what [`SpsaState::advance`] moves on by one step. Everything a step
/// draws comes from the seed and the step's number, so a run continued from a state is the run
/// that never stopped. An SPSA session's checkpoint holds one ([`crate::store::TunerSession`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// The engine whose parameters are tuned.
    pub spec: EngineSpec,
    /// The run's budget, steps, gains and seed.
    pub settings: SpsaSettings,
    /// θ, in the order of [`EngineSpec::tuned`].
    pub theta: Vec<f64>,
    /// Steps done.
    pub step: u64,
    /// Game pairs played (in whole steps).
    pub pairs_done: u64,
    /// θ at the start and every [`SpsaSettings::history_every`] steps so far (before the last
    /// step of the budget).
    pub history: Vec<SpsaPoint>,
    /// Games lost by an engine's fault so far (since the resume, for a run whose checkpoint
    /// was written before they were counted: SPSA checkpoint format 1).
    pub faults: u64,
    /// On a clock: what the games of the steps since the last point of the history did with
    /// it. Kept in the checkpoint after the rest (SPSA format 3).
    #[serde(skip)]
    pub time: TimeUse,
}

impl SpsaState {
    /// A run at its start: θ at the engine's declared defaults. The first bad setting when
    /// the settings are bad.
    pub fn new(spec: &EngineSpec, settings: &SpsaSettings) -> Result<SpsaState, SpsaError> {
        settings.check()?;
        let mut settings = *settings;
        if settings.history_every == 0 {
            let every = crate::tuner::history_every(settings.steps(), spec.tuned.len());
            settings.history_every = every;
        }
        let theta: Vec<f64> = spec.tuned.iter().map(|t| t.default as f64).collect();
        Ok(SpsaState {
            spec: spec.clone(),
            settings,
            history: vec![SpsaPoint {
                step: 0,
                games: 0,
                theta: theta.clone(),
                faults: Some(0),
                time: None,
            }],
            theta,
            step: 0,
            pairs_done: 0,
            faults: 0,
            time: TimeUse::default(),
        })
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        2 * self.pairs_done
    }

    /// `step 3 of 5, 24 of 40 games`: how far the run is.
    pub fn progress(&self) -> String {
        format!(
            "step {} of {}, {} of {} games",
            self.step,
            self.settings.steps(),
            self.games(),
            2 * self.settings.pairs()
        )
    }

    /// Has the whole budget been played?
    pub fn finished(&self) -> bool {
        self.pairs_done >= self.settings.pairs()
    }

    /// θ rounded, in the order of [`EngineSpec::tuned`] (a genome's values: clamped to the
    /// declared ranges).
    pub fn weights(&self) -> Weights {
        self.weights_at(&self.theta)
    }

    /// θ `theta` (one of its history's) rounded, as [`SpsaState::weights`] rounds the current
    /// one: the values `match` would play had the run stopped there.
    pub fn weights_at(&self, theta: &[f64]) -> Weights {
        let rounded: Vec<i64> = theta.iter().map(|x| x.round() as i64).collect();
        genome_of(&self.spec, &rounded)
    }

    /// Plays the next step and moves θ; the step as the observer heard of it. None when the
    /// budget is played, or `stop` was set before the step or during its games (the step is
    /// abandoned and the state unchanged). The games are played on the jobs executor (the
    /// current rayon pool, or an MPI job's ranks): [`tuner::play_step`] of this state's ask and
    /// tell.
    pub fn advance(
        &mut self,
        observer: &mut dyn StepObserver<SpsaStep>,
        stop: &AtomicBool,
    ) -> Option<SpsaStep> {
        if self.finished() {
            return None;
        }
        tuner::advance(self, observer, stop)
    }

    /// What the next step draws and plays, from the seed and the step's number: the signs,
    /// the gains, θ+ and θ- and the step's match. None once the budget is played.
    fn plan(&self) -> Option<Plan> {
        if self.finished() {
            return None;
        }
        let s = self.settings;
        let spec = &self.spec;
        let gains = Gains::new(spec, &s);
        let lo: Vec<f64> = spec.tuned.iter().map(|t| t.min as f64).collect();
        let hi: Vec<f64> = spec.tuned.iter().map(|t| t.max as f64).collect();
        let step = self.step + 1;
        let theta = &self.theta;
        let pairs = (s.pairs() - self.pairs_done).min(s.pairs_per_step as u64);
        let k = self.pairs_done + 1;
        let mut rng = derive(s.seed, Purpose::Spsa, step, 0);
        let delta: Vec<f64> = theta
            .iter()
            .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
            .collect();
        let ck = gains.c(k);
        let ak = gains.a(k);
        let side = |sign: f64| -> Vec<i64> {
            (0..theta.len())
                .map(|i| {
                    (theta[i] + sign * ck[i] * delta[i])
                        .clamp(lo[i], hi[i])
                        .round() as i64
                })
                .collect()
        };
        let (wp, wm) = (genome_of(spec, &side(1.0)), genome_of(spec, &side(-1.0)));
        let openings: Vec<u32> = (0..pairs)
            .map(|_| rng.random_range(0..ballot().len() as u32))
            .collect();
        let genome = |name: &str, w: Weights| Contestant::Genome {
            name: name.to_string(),
            w,
        };
        let mut batch = step_match(spec, &s, step, &openings)
            .batch_of(&genome("plus", wp), &genome("minus", wm));
        batch.record_moves = false;
        Some(Plan {
            step,
            pairs,
            delta,
            ck,
            ak,
            lo,
            hi,
            plus: wp,
            minus: wm,
            batch,
        })
    }

    /// The run as it stands: θ rounded, and the history with the point of the last step done.
    pub fn result(&self, stopped: bool) -> SpsaResult {
        let mut history = self.history.clone();
        if history.last().map(|h| h.step) != Some(self.step) {
            history.push(SpsaPoint {
                step: self.step,
                games: self.games(),
                theta: self.theta.clone(),
                faults: Some(self.faults),
                time: self.spec.tc.map(|_| self.time),
            });
        }
        let weights = self.weights();
        SpsaResult {
            weights,
            values: self.spec.values(&weights),
            theta: self.theta.clone(),
            games_played: self.games(),
            steps: self.step,
            stopped,
            history,
        }
    }
}

/// What step `step` draws and plays ([`SpsaState::plan`]).
struct Plan {
    step: u64,
    pairs: u64,
    delta: Vec<f64>,
    ck: Vec<f64>,
    ak: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    plus: Weights,
    minus: Weights,
    batch: Batch,
}

impl Tuner for SpsaState {
    type Step = SpsaStep;

    /// The next step's match of θ+ (A) against θ-: its pairs of games over ballot openings
    /// drawn for the step.
    fn ask(&self) -> Option<Batch> {
        self.plan().map(|p| p.batch)
    }

    /// Moves θ by the step's result (wins minus losses of θ+; an engine's fault loses the
    /// game) and keeps a point of the history every [`SpsaSettings::history_every`] steps.
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<SpsaStep> {
        let p = self.plan()?;
        debug_assert_eq!(&p.batch, batch, "told of a batch not asked for");
        let tally = MatchTally::of(batch, played);
        let ([p_plus, p_minus], faults) = (tally.points, tally.faults);
        let result = (i64::from(p_plus) - i64::from(p_minus)) / 2;
        for i in 0..self.theta.len() {
            let moved = self.theta[i] + p.ak[i] * result as f64 * p.delta[i] / p.ck[i];
            self.theta[i] = moved.clamp(p.lo[i], p.hi[i]);
        }
        self.pairs_done += p.pairs;
        self.step = p.step;
        self.faults += u64::from(faults);
        let games = self.games();
        let steps = self.settings.steps();
        let done = SpsaStep {
            step: p.step,
            steps,
            games,
            plus: self.spec.values(&p.plus),
            minus: self.spec.values(&p.minus),
            result,
            theta: self.theta.clone(),
            draws: u64::from(tally.draws),
            pairs: u64::from(tally.pairs),
            decided: u64::from(tally.decided),
            time: tally.time,
            faults: batch.fault_lines(played, &|k| ["θ+", "θ-"][k.min(1)].to_string()),
        };
        if let Some(t) = &tally.time {
            self.time.add(t);
        }
        let every = self.settings.history_every;
        if every > 0 && p.step.is_multiple_of(every) && p.step < steps {
            self.history.push(SpsaPoint {
                step: p.step,
                games,
                theta: self.theta.clone(),
                faults: Some(self.faults),
                time: self.spec.tc.map(|_| std::mem::take(&mut self.time)),
            });
        }
        Some(done)
    }

    fn answer(&self) -> Weights {
        self.weights()
    }

    fn games(&self) -> u64 {
        SpsaState::games(self)
    }
}

/// The games of step `step`: the match of θ+ (`plus`, side A) against θ- (`minus`), genomes of
/// `spec` ([`Contestant::Genome`]), over the ballot openings drawn for the step, each played
/// twice with colours swapped, A with Black first ([`MatchRun::batch_of`]). Each game's generator is keyed by the step (`Spsa`, step, game)
/// and a stopped step abandons its games under way.
fn step_match<'r>(
    spec: &EngineSpec,
    s: &SpsaSettings,
    step: u64,
    openings: &[u32],
) -> MatchRun<'r> {
    let mut run = MatchRun::of(&MatchSettings {
        book: OpeningBook::Ballot,
        pairs: Some(0),
        seed: s.seed,
        rules: DrawRules::default(),
        engine: Some(spec.clone()),
    });
    run.starts = openings
        .iter()
        .map(|&o| StartPosition {
            setup: Position::start(),
            moves: ballot()[o as usize].moves.clone(),
        })
        .collect();
    run.games = 2 * openings.len();
    run.keys = GameKeys::Tuning {
        purpose: Purpose::Spsa,
        round: step,
        first: 0,
    };
    run
}

/// Runs SPSA over `spec`'s tuned parameters from their declared defaults: [`SpsaState::new`],
/// then [`SpsaState::advance`] until the budget is played or `stop` is set. The games are
/// played on the current rayon pool (install one to choose the number of threads). `stop` is
/// checked before every game: once it is set the step under way is abandoned and the result is
/// θ after the last whole step. The engine's idle processes stay for the next step and end
/// with the run. The first bad setting when the settings are bad.
pub fn spsa(
    spec: &EngineSpec,
    settings: &SpsaSettings,
    observer: &mut dyn StepObserver<SpsaStep>,
    stop: &AtomicBool,
) -> Result<SpsaResult, SpsaError> {
    let mut state = SpsaState::new(spec, settings)?;
    let _engines = crate::play::lease_engines();
    while state.advance(observer, stop).is_some() {}
    Ok(state.result(!state.finished()))
}

mod checkpoint;
mod session;

pub use checkpoint::{decode_spsa, encode_spsa, is_spsa, load_spsa, spsa_path};
pub use checkpoint::{SPSA_FILE, SPSA_MAGIC, SPSA_VERSION};
pub use session::SPSA;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::Tuned;

    /// A library user's session is whole without the command line: the budget is checked and
    /// the history is kept by it.
    #[test]
    fn default_settings_check_the_budget_and_keep_a_history_by_it() {
        let spec = spec(&[(0, 100), (0, 100)]);
        let with = |games| {
            SpsaState::new(
                &spec,
                &SpsaSettings {
                    games,
                    ..Default::default()
                },
            )
        };
        assert_eq!(with(4000).unwrap().settings.history_every, 10);
        let long = with(crate::MAX_TUNER_GAMES).unwrap().settings.history_every;
        assert!(long > 10, "{long}");
        let e = with(crate::MAX_TUNER_GAMES + 1).unwrap_err().to_string();
        assert_eq!(e, "--games 10000001 must be 2..10000000");
    }

    fn spec(ranges: &[(i64, i64)]) -> EngineSpec {
        EngineSpec {
            engine: crate::hub::OutsideEngine {
                name: "e".into(),
                program: crate::hub::Program::default(),
                depth: Some(1),
                move_timeout: std::time::Duration::from_secs(1),
            },
            tc: None,
            time_margin: std::time::Duration::ZERO,
            declared: vec![],
            tuned: ranges
                .iter()
                .enumerate()
                .map(|(i, &(min, max))| Tuned {
                    name: format!("p{i}"),
                    min,
                    max,
                    default: min,
                })
                .collect(),
        }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end_and_start_larger() {
        let s = SpsaSettings {
            games: 4000,
            ..SpsaSettings::default()
        };
        let e = spec(&[(100, 300), (0, 10)]);
        let g = Gains::new(&e, &s);
        let n = s.pairs();
        // c_end: range / 20, at least 1.
        let c = g.c(n);
        assert!(
            (c[0] - 10.0).abs() < 1e-9 && (c[1] - 1.0).abs() < 1e-9,
            "{c:?}"
        );
        // A net win moves a parameter by r_end * c_end at the end.
        let (a, c) = (g.a(n), g.c(n));
        for i in 0..2 {
            let per_win = a[i] / c[i];
            assert!((per_win - s.r_end * c[i]).abs() < 1e-9, "{per_win}");
        }
        // At the start: a larger perturbation, about twice the move per win.
        let (a1, c1) = (g.a(1), g.c(1));
        assert!(c1[0] > 2.0 * 10.0 && c1[0] < 2.3 * 10.0, "{c1:?}");
        let ratio = (a1[0] / c1[0]) / (a[0] / c[0]);
        assert!(ratio > 1.8 && ratio < 2.2, "{ratio}");
    }

    #[test]
    fn settings_are_checked_and_steps_cover_the_budget() {
        let s = SpsaSettings {
            games: 41,
            pairs_per_step: 4,
            ..SpsaSettings::default()
        };
        assert_eq!((s.pairs(), s.steps()), (21, 6));
        assert!(s.check().is_ok());
        let games = SpsaSettings { games: 1, ..s };
        assert_eq!(games.check(), Err(SpsaError::Games(1)));
        let pairs = SpsaSettings {
            pairs_per_step: 0,
            ..s
        };
        assert_eq!(pairs.check(), Err(SpsaError::Pairs));
        let c_end = SpsaSettings { c_end: 0.0, ..s };
        assert_eq!(c_end.check(), Err(SpsaError::CEnd(0.0)));
        let nan = SpsaSettings {
            c_end: f64::NAN,
            ..s
        };
        assert!(matches!(nan.check(), Err(SpsaError::CEnd(c)) if c.is_nan()));
        let r_end = SpsaSettings { r_end: -0.1, ..s };
        assert_eq!(r_end.check(), Err(SpsaError::REnd(-0.1)));
        // The messages name the command's flags.
        let text = |e: SpsaError| e.to_string();
        assert_eq!(text(SpsaError::Games(1)), "--games 1 must be 2..10000000");
        assert_eq!(text(SpsaError::Pairs), "--pairs must be at least 1");
        assert_eq!(
            text(SpsaError::CEnd(1.5)),
            "--c-end 1.5 must be more than 0 and at most 1 (a fraction of each range)"
        );
        assert_eq!(
            text(SpsaError::REnd(-0.1)),
            "--r-end -0.1 must be more than 0 and at most 100"
        );
        // A run of bad settings does not start.
        let e = spsa(&spec(&[(0, 10)]), &pairs, &mut (), &AtomicBool::new(false));
        assert_eq!(e, Err(SpsaError::Pairs));
    }
}
