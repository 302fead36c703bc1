//! CMA-ES for game results: a separable (diagonal) covariance matrix adaptation evolution
//! strategy with mirrored pairs, over an outside engine's tuned parameters, keeping the
//! tuner contract ([`crate::tuner::Tuner`]).
//!
//! The search works on the genome's genes (each parameter mapped onto the `i16` range, as the
//! GA's genomes are), from the engine's declared defaults. Generation `g` draws `k` directions
//! `z_j` (standard normal in every gene) and plays pair `j`, `m + σ y_j` against `m - σ y_j`
//! with `y_j = sqrt(C) z_j`, two games from one ballot opening (colours swapped); `r_j` is the
//! wins minus losses of the `+` side (-2..2).
//!
//! Games give a pair's winner, not a value, so selection is by pairs: the winner of each pair
//! that was decided is selected, weighted by its margin (`|r_j|`), and the generation moves as
//! CMA-ES moves with those weights: the mean toward the selected steps (by a share `rate` of
//! them: single games are noisy), the evolution paths, the step size σ by cumulative step-size
//! adaptation (the path's length against a random walk's; never above the σ it started with),
//! and the diagonal of `C` by the rank-one and rank-μ updates (the separable variant's
//! learning rates, larger by `(n + 2) / 3`, times `cov_rate`). Mirrored pairs cancel the
//! curvature around `m` in each comparison, and a decisive pair says which side of `m` is
//! better along its direction. A generation whose pairs were all drawn moves nothing: draws
//! say only that the two sides were close.
//!
//! What the covariance learns from such selection is biased: a pair whose sides lie farther
//! apart along a gene that matters is decided more often and by more, so the selected steps
//! are longer than the drawn ones in exactly the genes that matter, and `C` grows there
//! without end. On the simulator every `cov_rate` above 0 tuned worse, and some runs ran off
//! to the ends of the ranges; by default `C` stays the identity and σ alone adapts (a
//! cumulative step-size adaptation evolution strategy). Learning `C` needs a ranking across
//! pairs, which games between the pairs (or against a common opponent) would buy; playing each
//! candidate against the mean was tried and stalled (both sides of a pair near the mean lose
//! alike, and their steps cancel).
//!
//! Uncertainty handling (`--growth`, off by default): near the optimum the pairs' winners
//! turn to chance, and cumulative step-size adaptation then lets σ sink (a path of chance
//! steps is a random walk's, and σ has a floor, not a pull back up) until the pairs' sides are
//! too close for games to tell apart and the mean stops where it stands. With a growth above
//! 1, each generation splits its decided pairs in two halves and measures how far the halves'
//! selected steps point one way (the cosine of their sums, times `sqrt(n)`: about a standard
//! normal number by chance), smoothed at the path's rate ([`CmaesState::signal`]); while that
//! is below [`CMAES_SIGNAL`], σ grows by [`CmaesSettings::growth`] a generation (UH-CMA-ES
//! grows σ the same way when re-evaluated candidates change rank). σ then settles where the
//! games still carry a slope, and the mean keeps moving about the optimum, which the answer's
//! average finds. The simulator's choice is [`CMAES_GROWTH`]; real games have not shown it to
//! tune better at 4,000 games, so it is asked for, not the default.
//!
//! The answer is the average of the means, the mean after generation `t` weighted `t` (as the
//! GA's mean averages its centres): the noise of single games is averaged out, while σ shrinks
//! the moves near an optimum.
//!
//! Files, bottom up: `checkpoint`, `session`: its checkpoint file (`cmaes.ckpt`); its
//! [`crate::store::FileTuner`] and its registration, [`CMAES`]: its command's settings and
//! how a run starts).

use crate::board::Position;
use crate::clock::TimeUse;
use crate::eval::Weights;
use crate::game::DrawRules;
use crate::genome::EngineSpec;
use crate::jobs::{Batch, GameJob, Opening, Played, Seat, Start};
use crate::matchplay::MatchTally;
use crate::openings::{ballot, StartPosition};
use crate::rng::{derive, Purpose};
use crate::tuner::Tuner;
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// The step size a run starts with, in genes (a gene spans the `i16` range: 8192 is an eighth
/// of a parameter's declared range), for up to 16 parameters; half of it beyond, as the GA's
/// mean takes (`engine_mean`).
pub const CMAES_SIGMA: f64 = 8192.0;

/// The least step size: a gene's unit is 1/65536 of a range, so below a few units pairs
/// round to the same values.
pub const CMAES_MIN_SIGMA: f64 = 8.0;

/// A CMA-ES run's settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaesSettings {
    /// Games to play in all, rounded up to an even number (whole pairs: the last generation
    /// may have fewer pairs).
    pub games: u64,
    /// Mirrored pairs a generation (0: `4 + 3 ln n` candidates, halved, at least 4 pairs).
    pub pairs: u32,
    /// The step size at the start, in genes (0: [`CMAES_SIGMA`], halved beyond 16
    /// parameters).
    pub sigma: f64,
    /// The seed every draw comes from.
    pub seed: u64,
    /// The mean's learning rate: the share of the selected step it moves (CMA-ES's `c_m`, 1 in
    /// a noiseless search).
    pub rate: f64,
    /// The covariance's learning rates as a share of CMA-ES's own (the separable variant's):
    /// 1 adapts `C` at the usual speed, 0 keeps it the identity (σ alone adapts).
    pub cov_rate: f64,
    /// Keep a point of the history ([`CmaesState::history`]) every this many generations (0:
    /// by the budget, as SPSA's: [`history_every`](crate::history_every), a point sized as 8
    /// numbers more than the parameters for σ and a time record).
    pub history_every: u64,
    /// Generations in flight: each generation's pairs are drawn before the generations before
    /// it, up to this many less one, are told (from the mean, σ and `C` as they stood then), so
    /// that the next generations' games are played while the last ones end; 1: each generation
    /// waits for the one before; 0: by the parameters ([`cmaes_in_flight`]). Kept apart from
    /// the rest of the settings in a checkpoint (format 2).
    #[serde(skip)]
    pub in_flight: u32,
    /// Uncertainty handling: σ grows by this factor each generation whose pairs carried no
    /// signal ([`CmaesState::signal`] below [`CMAES_SIGNAL`]), so that σ does not shrink below
    /// the scale at which games still tell the sides apart; 1: never (σ adapts by its path
    /// alone, as before format 3). Kept apart from the rest of the settings in a checkpoint
    /// (format 3; a checkpoint of an older format keeps 1).
    #[serde(skip)]
    pub growth: f64,
}

/// The generations in flight beyond [`CMAES_ALONE`] parameters.
pub const CMAES_IN_FLIGHT: u32 = 3;

/// Up to this many parameters a run keeps one generation in flight by default.
pub const CMAES_ALONE: usize = 8;

/// The generations in flight a run of `n` parameters keeps by default: 1 up to
/// [`CMAES_ALONE`] parameters, [`CMAES_IN_FLIGHT`] beyond. On the simulator (100 seeds) 3 in
/// flight tuned better than 1 on 16 and 66 parameters at 4,000 and 16,000 games (level at
/// 1,000) and worse on 8, and level in real games on our 66 weights; 3 keep 16 threads about
/// 0.96 busy with generations of 16 games where 1 keeps them 0.53 busy (docs/scaling.md).
pub fn cmaes_in_flight(n: usize) -> u32 {
    if n <= CMAES_ALONE {
        1
    } else {
        CMAES_IN_FLIGHT
    }
}

/// The growth of σ a generation while the pairs carry no signal, as the simulator chose it
/// ([`CmaesSettings::growth`]; `--growth 1.01`). Not the default: on the simulator it tuned
/// better at every size and budget, most at 16,000 games, but in real games at 4,000 it was
/// level with σ by its path alone, a few Elo lower on each of three engines (docs/results.md).
pub const CMAES_GROWTH: f64 = 1.01;

/// The signal ([`CmaesState::signal`]) below which σ grows ([`CmaesSettings::growth`]).
pub const CMAES_SIGNAL: f64 = 0.3;

/// The most generations in flight a run keeps.
pub const CMAES_MAX_IN_FLIGHT: u32 = 64;

/// The mean's learning rate of [`CmaesSettings::default`]: the best of 1, 0.5, 0.3 and 0.1 on
/// the simulator (docs/results.md).
pub const CMAES_RATE: f64 = 0.3;

impl CmaesSettings {
    /// What is wrong with the settings, in one line: the games must be 2..
    /// [`MAX_TUNER_GAMES`](crate::MAX_TUNER_GAMES), σ 0..32768 (0: automatic), the
    /// generations in flight at most 64, the mean's rate above 0 and at most 1, the
    /// covariance's 0..1.
    pub fn check(&self) -> Result<(), String> {
        let most = crate::tuner::MAX_TUNER_GAMES;
        if !(2..=most).contains(&self.games) {
            return Err(format!("--games {} must be 2..{most}", self.games));
        }
        // 0: the automatic step size.
        if !(self.sigma.is_finite() && (0.0..=32768.0).contains(&self.sigma)) {
            return Err(format!("--sigma {} must be 0..32768", self.sigma));
        }
        if self.in_flight > CMAES_MAX_IN_FLIGHT {
            return Err(format!(
                "{} generations in flight is more than {CMAES_MAX_IN_FLIGHT}",
                self.in_flight
            ));
        }
        if !(self.rate > 0.0 && self.rate <= 1.0) {
            return Err(format!(
                "the mean's rate {} must be above 0 and at most 1",
                self.rate
            ));
        }
        if !(self.growth.is_finite() && (1.0..=2.0).contains(&self.growth)) {
            return Err(format!("σ's growth {} must be 1..2", self.growth));
        }
        if !(0.0..=1.0).contains(&self.cov_rate) {
            return Err(format!(
                "the covariance's rate {} must be 0..1",
                self.cov_rate
            ));
        }
        Ok(())
    }
}

impl Default for CmaesSettings {
    /// 4,000 games, the automatic population, step size and generations in flight, seed 1,
    /// the mean's rate 0.3 (`CMAES_RATE`), the covariance fixed (`cov_rate` 0): from mirrored
    /// pairs' results the covariance learns the wrong thing (module docs), and every rate above
    /// 0 tuned worse on the simulator; and no uncertainty handling (`growth` 1: real games have
    /// not shown [`CMAES_GROWTH`] to tune better).
    fn default() -> Self {
        CmaesSettings {
            games: crate::tuner::TUNER_GAMES,
            pairs: 0,
            sigma: 0.0,
            seed: 1,
            rate: CMAES_RATE,
            cov_rate: 0.0,
            history_every: 0,
            in_flight: 0,
            growth: 1.0,
        }
    }
}

/// A CMA-ES run as data: what [`Tuner::tell`] moves on by one generation. Its engine's clock
/// is not part of its serialized form ([`EngineSpec`] keeps the clock apart, as the sessions'
/// checkpoints do): whatever saves a run on a clock keeps the clock beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaesState {
    /// The engine whose parameters are tuned.
    pub spec: EngineSpec,
    /// The settings, their automatic values filled in.
    pub settings: CmaesSettings,
    /// The mean, in genes.
    pub mean: Vec<f64>,
    /// The step size.
    pub sigma: f64,
    /// The diagonal of the covariance matrix.
    pub c: Vec<f64>,
    /// The conjugate evolution path (σ's).
    pub p_sigma: Vec<f64>,
    /// The evolution path (C's).
    pub p_c: Vec<f64>,
    /// The average of the means so far (the answer), the mean after generation `t` weighted
    /// `t`.
    pub average: Vec<f64>,
    /// Generations played.
    pub generation: u64,
    /// Generations that moved (had a decided pair).
    pub moved: u64,
    /// Games played.
    pub games: u64,
    /// Games lost by an engine's fault (a crash, a hang, an illegal move, garbage) so far.
    pub faults: u64,
    /// The answer at the start and every [`CmaesSettings::history_every`] generations.
    pub history: Vec<CmaesPoint>,
    /// On a clock: what the games since the last point of the history did with it (kept in
    /// a session's checkpoint beside the rest, as the clock is).
    #[serde(skip)]
    pub time: TimeUse,
    /// What the generations asked for ahead and not yet told were drawn from, the next first
    /// (fewer than [`CmaesSettings::in_flight`]; the later ones are drawn from the mean as it
    /// stands). Kept in a session's checkpoint beside the rest (format 2).
    #[serde(skip)]
    pub ahead: Vec<CmaesDraw>,
    /// How much the generations' pairs agree, smoothed: each generation with two decided pairs
    /// or more splits them in two halves (alternately) and takes the cosine of the halves'
    /// selected steps times `sqrt(n)` (about a standard normal number when the pairs' winners
    /// are chance, larger when both halves lean the way the strength rises); this is its
    /// running mean, at the step-size path's rate. Kept in a session's checkpoint beside the
    /// rest (format 3).
    #[serde(skip)]
    pub signal: f64,
}

/// What a generation's pairs were drawn from: the mean, σ and `C`'s diagonal when it was asked
/// for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaesDraw {
    /// The mean, in genes.
    pub mean: Vec<f64>,
    /// The step size.
    pub sigma: f64,
    /// The diagonal of the covariance matrix.
    pub c: Vec<f64>,
}

/// The run at some point of its history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaesPoint {
    /// Generations played.
    pub generation: u64,
    /// Games played.
    pub games: u64,
    /// The answer then (the average of the means), in genes.
    pub average: Vec<f64>,
    /// The step size then.
    pub sigma: f64,
    /// Games lost by an engine's fault up to then.
    pub faults: u64,
    /// On a clock: what the games since the point before did with it (kept in a session's
    /// checkpoint beside the rest).
    #[serde(skip)]
    pub time: Option<TimeUse>,
}

/// What one generation did, as [`Tuner::tell`] reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct CmaesStep {
    /// The generation.
    pub generation: u64,
    /// Games played so far.
    pub games: u64,
    /// Each pair's wins minus losses of its `+` side.
    pub results: Vec<i64>,
    /// The step size after the generation.
    pub sigma: f64,
    /// The answer after the generation, in the engine's units ([`CmaesState::values`]).
    pub values: Vec<f64>,
    /// This generation's games that were drawn.
    pub draws: u64,
    /// This generation's pairs of games.
    pub pairs: u64,
    /// Of those, the pairs whose sides scored apart.
    pub decided: u64,
    /// On a clock: what this generation's games did with it.
    pub time: Option<TimeUse>,
    /// The games of this generation an engine lost by a fault or on time, a line each
    /// (pair `j`'s sides are `pair j+` and `pair j-`).
    pub faults: Vec<String>,
}

/// A standard normal number (Box-Muller).
fn normal(rng: &mut impl RngExt) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// `E ||N(0, I)||` in `n` dimensions (the usual approximation).
fn expected_norm(n: f64) -> f64 {
    n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n))
}

impl CmaesState {
    /// A run at its start: the mean at the engine's declared defaults, `C` the identity.
    pub fn new(spec: &EngineSpec, settings: &CmaesSettings) -> CmaesState {
        let n = spec.tuned.len().max(1);
        let mut s = *settings;
        if s.pairs == 0 {
            let lambda = 4.0 + (3.0 * (n as f64).ln()).floor();
            s.pairs = ((lambda / 2.0).ceil() as u32).max(4);
        }
        // 0 (or anything not a number above 0): the automatic step size; never below the
        // least.
        if s.sigma.is_nan() || s.sigma <= 0.0 {
            s.sigma = if n <= 16 {
                CMAES_SIGMA
            } else {
                CMAES_SIGMA / 2.0
            };
        }
        s.sigma = s.sigma.max(CMAES_MIN_SIGMA);
        if s.in_flight == 0 {
            s.in_flight = cmaes_in_flight(n);
        }
        let mean: Vec<f64> = spec
            .defaults()
            .values()
            .iter()
            .take(n)
            .map(|&v| v as f64)
            .collect();
        let mut state = CmaesState {
            spec: spec.clone(),
            sigma: s.sigma,
            settings: s,
            c: vec![1.0; n],
            p_sigma: vec![0.0; n],
            p_c: vec![0.0; n],
            history: vec![CmaesPoint {
                generation: 0,
                games: 0,
                average: mean.clone(),
                sigma: s.sigma,
                faults: 0,
                time: spec.tc.map(|_| TimeUse::default()),
            }],
            average: mean.clone(),
            mean,
            generation: 0,
            moved: 0,
            games: 0,
            faults: 0,
            time: TimeUse::default(),
            ahead: Vec::new(),
            signal: 0.0,
        };
        if state.settings.history_every == 0 {
            let every = crate::tuner::history_every(state.generations(), n + 8);
            state.settings.history_every = every;
        }
        state
    }

    /// The answer in the engine's units, unrounded: the average of the means, each gene mapped
    /// onto its parameter's range.
    pub fn values(&self) -> Vec<f64> {
        self.values_at(&self.average)
    }

    /// Genes `x` in the engine's units, unrounded.
    pub fn values_at(&self, x: &[f64]) -> Vec<f64> {
        self.spec
            .tuned
            .iter()
            .zip(x)
            .map(|(t, &g)| {
                let span = (t.max - t.min) as f64;
                t.min as f64 + (g - i16::MIN as f64) / 65535.0 * span
            })
            .collect()
    }

    /// Has the whole budget been played?
    pub fn finished(&self) -> bool {
        self.games >= self.settings.games
    }

    /// The games of the whole budget: whole pairs.
    pub fn budget(&self) -> u64 {
        self.settings.games.next_multiple_of(2)
    }

    /// The generations of the whole budget.
    pub fn generations(&self) -> u64 {
        self.budget()
            .div_ceil(2 * u64::from(self.settings.pairs.max(1)))
    }

    /// Where it stands, in words: `generation 12 of 250, 192 of 4000 games`.
    pub fn progress(&self) -> String {
        format!(
            "generation {} of {}, {} of {} games",
            self.generation,
            self.generations(),
            self.games,
            self.budget()
        )
    }

    /// Generations in flight (at least 1).
    fn flight(&self) -> usize {
        self.settings.in_flight.max(1) as usize
    }

    /// The pairs of the generation `k` after the next (0 past the budget).
    fn pairs_ahead(&self, k: usize) -> usize {
        let per = 2 * u64::from(self.settings.pairs);
        let played = self.games.saturating_add(per.saturating_mul(k as u64));
        let left = self.settings.games.saturating_sub(played);
        (self.settings.pairs as u64).min(left.div_ceil(2)) as usize
    }

    /// The mean, σ and `C` as they stand, to draw from.
    fn draw_now(&self) -> CmaesDraw {
        CmaesDraw {
            mean: self.mean.clone(),
            sigma: self.sigma,
            c: self.c.clone(),
        }
    }

    /// The directions and openings of the generation `k` after the next, from the seed and its
    /// number.
    fn draws(&self, k: usize) -> (Vec<Vec<f64>>, Vec<u32>) {
        let pairs = self.pairs_ahead(k);
        // Keyed apart from the generation's games (`Cmaes`, generation, game index).
        let mut rng = derive(
            self.settings.seed,
            Purpose::Cmaes,
            self.generation + 1 + k as u64,
            u64::MAX,
        );
        let n = self.mean.len();
        let z = (0..pairs)
            .map(|_| (0..n).map(|_| normal(&mut rng)).collect())
            .collect();
        let openings = (0..pairs)
            .map(|_| rng.random_range(0..ballot().len() as u32))
            .collect();
        (z, openings)
    }

    /// The mean as it stands, as a genome (the answer is the means' average: [`Tuner::answer`]).
    pub fn genome_at_mean(&self) -> Weights {
        self.genome_at(&self.mean)
    }

    /// The genome at genes `x` (rounded, clamped into the `i16` range).
    pub fn genome_at(&self, x: &[f64]) -> Weights {
        let mut w = self.spec.defaults();
        for (o, &v) in w.values_mut().iter_mut().zip(x) {
            *o = v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        }
        w
    }

    /// Pair `j`'s two sides: the mean plus and minus σ times direction `z` scaled by `C`, as
    /// `d` has them.
    fn sides(&self, d: &CmaesDraw, z: &[f64]) -> [Weights; 2] {
        [1.0, -1.0].map(|sign| {
            let x: Vec<f64> = (0..z.len())
                .map(|i| d.mean[i] + sign * d.sigma * d.c[i].sqrt() * z[i])
                .collect();
            self.genome_at(&x)
        })
    }
}

impl Tuner for CmaesState {
    type Step = CmaesStep;

    /// The generation's pairs, each its two games from its opening.
    fn ask(&self) -> Option<Batch> {
        self.ask_ahead(0)
    }

    fn in_flight(&self) -> usize {
        self.flight()
    }

    /// The pairs of the generation `k` after the next, drawn from what it was drawn from if it
    /// was asked for before (else from the mean as it stands).
    fn ask_ahead(&self, k: usize) -> Option<Batch> {
        if k >= self.flight() || self.pairs_ahead(k) == 0 {
            return None;
        }
        let (zs, openings) = self.draws(k);
        let now;
        let d = match self.ahead.get(k) {
            Some(d) => d,
            None => {
                now = self.draw_now();
                &now
            }
        };
        let players: Vec<Weights> = zs.iter().flat_map(|z| self.sides(d, z)).collect();
        let mut batch = Batch::of_genomes(
            &self.spec,
            &players,
            self.settings.seed,
            DrawRules::default(),
        );
        batch.abandon = true;
        batch.openings = openings
            .iter()
            .map(|&o| {
                Opening::of(&StartPosition {
                    setup: Position::start(),
                    moves: ballot()[o as usize].moves.clone(),
                })
            })
            .collect();
        let g = self.generation + 1 + k as u64;
        for j in 0..zs.len() {
            let (plus, minus) = (Seat::new(2 * j), Seat::new(2 * j + 1));
            for (k, (black, white)) in [(plus, minus), (minus, plus)].into_iter().enumerate() {
                let index = (2 * j + k) as u64;
                let start = Start::Opening(j as u32);
                batch
                    .jobs
                    .push(GameJob::new(black, white, start, Purpose::Cmaes, g, index));
            }
        }
        Some(batch)
    }

    /// Moves the mean, the paths, σ and `C` by the generation's decided pairs.
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<CmaesStep> {
        // The generations asked for ahead keep what they were drawn from before the mean moves.
        while self.ahead.len() < self.flight() && self.pairs_ahead(self.ahead.len()) > 0 {
            self.ahead.push(self.draw_now());
        }
        let drawn = if self.ahead.is_empty() {
            self.draw_now()
        } else {
            self.ahead.remove(0)
        };
        let (zs, _) = self.draws(0);
        let mut results = vec![0i64; zs.len()];
        for (job, p) in batch.jobs.iter().zip(played) {
            let pair = job.black.side as usize / 2;
            let plus_black = job.black.side.is_multiple_of(2);
            let black = match p.result.map(|r| r.0) {
                Some(crate::game::GameOutcome::BlackWin) => 1,
                Some(crate::game::GameOutcome::WhiteWin) => -1,
                _ => 0,
            };
            if let Some(r) = results.get_mut(pair) {
                *r += if plus_black { black } else { -black };
            }
        }
        let tally = MatchTally::of(batch, played);
        self.generation += 1;
        self.games += played.len() as u64;
        self.faults += u64::from(tally.faults);
        if let Some(t) = &tally.time {
            self.time.add(t);
        }
        let total: f64 = results.iter().map(|r| r.unsigned_abs() as f64).sum();
        if total > 0.0 {
            self.update(&drawn, &zs, &results, total);
        }
        let t = self.generation as f64;
        for (a, m) in self.average.iter_mut().zip(&self.mean) {
            // The mean after generation t weighs t: the average's share of it is 2 / (t + 1).
            *a += (m - *a) * 2.0 / (t + 1.0);
        }
        let every = self.settings.history_every;
        if every > 0 && (self.generation.is_multiple_of(every) || self.finished()) {
            self.history.push(CmaesPoint {
                generation: self.generation,
                games: self.games,
                average: self.average.clone(),
                sigma: self.sigma,
                faults: self.faults,
                time: self.spec.tc.map(|_| std::mem::take(&mut self.time)),
            });
        }
        Some(CmaesStep {
            generation: self.generation,
            games: self.games,
            results,
            sigma: self.sigma,
            values: self.values(),
            draws: u64::from(tally.draws),
            pairs: u64::from(tally.pairs),
            decided: u64::from(tally.decided),
            time: tally.time,
            faults: batch.fault_lines(played, &|k| {
                format!("pair {}{}", k / 2 + 1, if k % 2 == 0 { '+' } else { '-' })
            }),
        })
    }

    fn answer(&self) -> Weights {
        self.genome_at(&self.average)
    }

    fn games(&self) -> u64 {
        self.games
    }
}

impl CmaesState {
    /// One generation's update from its decided pairs (`total`: the sum of their margins),
    /// its pairs drawn from `d`.
    fn update(&mut self, d: &CmaesDraw, zs: &[Vec<f64>], results: &[i64], total: f64) {
        // The selected steps: each decided pair's winning side, weighted by its margin.
        let selected: Vec<(Vec<f64>, f64)> = zs
            .iter()
            .zip(results)
            .filter(|(_, r)| **r != 0)
            .map(|(z, &r)| {
                let s = r.signum() as f64;
                (
                    z.iter().map(|x| s * x).collect(),
                    r.unsigned_abs() as f64 / total,
                )
            })
            .collect();
        self.update_selected(d, &selected);
    }

    /// One generation's update from its selected steps (signed directions) and their weights
    /// (summing to 1), drawn from `d`: the mean moves by the steps as they were taken (`d`'s σ
    /// and `C`), from where it stands now.
    fn update_selected(&mut self, d: &CmaesDraw, selected: &[(Vec<f64>, f64)]) {
        let n = self.mean.len();
        let nf = n as f64;
        let mu_eff = 1.0 / selected.iter().map(|(_, w)| w * w).sum::<f64>();
        let mut z_w = vec![0.0; n];
        for (z, wj) in selected {
            for i in 0..n {
                z_w[i] += wj * z[i];
            }
        }
        let sd: Vec<f64> = d.c.iter().map(|c| c.sqrt()).collect();
        let y_w: Vec<f64> = (0..n).map(|i| sd[i] * z_w[i]).collect();
        // Learning rates (Hansen's defaults; the separable variant's C rates times (n+2)/3).
        let eta = self.settings.cov_rate;
        let c_sigma = (mu_eff + 2.0) / (nf + mu_eff + 5.0);
        let d_sigma = 1.0 + 2.0 * (((mu_eff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma;
        let c_c = (4.0 + mu_eff / nf) / (nf + 4.0 + 2.0 * mu_eff / nf);
        let sep = (nf + 2.0) / 3.0;
        let c_1 = (2.0 / ((nf + 1.3).powi(2) + mu_eff) * sep).min(0.5) * eta;
        let c_mu =
            (2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((nf + 2.0).powi(2) + mu_eff) * sep * eta)
                .clamp(0.0, 1.0 - c_1);
        let c_m = self.settings.rate;
        for (m, y) in self.mean.iter_mut().zip(&y_w) {
            *m = (*m + c_m * d.sigma * y).clamp(i16::MIN as f64, i16::MAX as f64);
        }
        let k_sigma = (c_sigma * (2.0 - c_sigma) * mu_eff).sqrt();
        for (p, z) in self.p_sigma.iter_mut().zip(&z_w) {
            *p = (1.0 - c_sigma) * *p + k_sigma * z;
        }
        self.moved += 1;
        let norm = self.p_sigma.iter().map(|x| x * x).sum::<f64>().sqrt();
        let chi = expected_norm(nf);
        let fade = (1.0 - (1.0 - c_sigma).powi(2 * self.moved as i32)).sqrt();
        let h_sigma = if norm / fade.max(1e-12) < (1.4 + 2.0 / (nf + 1.0)) * chi {
            1.0
        } else {
            0.0
        };
        let k_c = (c_c * (2.0 - c_c) * mu_eff).sqrt();
        for (p, y) in self.p_c.iter_mut().zip(&y_w) {
            *p = (1.0 - c_c) * *p + h_sigma * k_c * y;
        }
        for i in 0..n {
            let rank_mu: f64 = selected
                .iter()
                .map(|(z, wj)| wj * (sd[i] * z[i]).powi(2))
                .sum();
            let lost = (1.0 - h_sigma) * c_c * (2.0 - c_c) * self.c[i];
            self.c[i] = ((1.0 - c_1 - c_mu) * self.c[i]
                + c_1 * (self.p_c[i] * self.p_c[i] + lost)
                + c_mu * rank_mu)
                .clamp(1e-4, 1e4);
        }
        let mut sigma = self.sigma * ((c_sigma / d_sigma) * (norm / chi - 1.0)).exp();
        if self.settings.growth > 1.0 {
            if let Some(cos) = halves_cosine(selected) {
                self.signal += c_sigma * (cos * nf.sqrt() - self.signal);
            }
            if self.signal < CMAES_SIGNAL {
                sigma *= self.settings.growth;
            }
        }
        self.sigma = sigma.clamp(CMAES_MIN_SIGMA, self.settings.sigma);
    }
}

/// The cosine of the weighted sums of the selected steps in two halves (alternately), or none
/// with fewer than two steps or a sum of length 0.
fn halves_cosine(selected: &[(Vec<f64>, f64)]) -> Option<f64> {
    let n = selected.first()?.0.len();
    let mut halves = [vec![0.0; n], vec![0.0; n]];
    for (j, (z, w)) in selected.iter().enumerate() {
        for (h, x) in halves[j % 2].iter_mut().zip(z) {
            *h += w * x;
        }
    }
    let [a, b] = &halves;
    let dot = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(x, y)| x * y).sum::<f64>();
    let lengths = (dot(a, a) * dot(b, b)).sqrt();
    (selected.len() >= 2 && lengths > 0.0).then(|| dot(a, b) / lengths)
}

mod checkpoint;
mod session;

pub use checkpoint::{
    cmaes_path, decode_cmaes, encode_cmaes, is_cmaes, load_cmaes, CMAES_FILE, CMAES_MAGIC,
    CMAES_VERSION,
};
pub use session::CMAES;

#[cfg(test)]
mod flight_tests;
#[cfg(test)]
mod tests;
