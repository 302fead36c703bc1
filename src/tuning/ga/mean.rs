//! The mean: the GA of `--selection mean`, an evolution strategy of mirrored pairs.
//!
//! The population is pairs drawn around a centre `m` (real values, one a gene): pair `j` is
//! `m + s z_j` and `m - s z_j`, `z_j` a random sign for every gene and `s` the spread. The two
//! of a pair play each other (both colours, each game pair from its own ballot opening); `r_j`
//! is the wins minus losses of `m + s z_j`. Recombination moves the centre toward the winners:
//! every gene's estimate of the slope is `e_i = sum_j r_j z_j,i`, smoothed and scaled as Adam
//! does (a running mean of `e_i` over a running root mean square of it), and the centre moves by
//! at most about `rate * s` a generation in each gene. The answer (the session's best so far)
//! is not one individual but the average of the centres, later generations weighted more (the
//! centre after generation `t` weighted `t`): games decide nothing alone, all of them move
//! the centre a little, and the average cancels what noise is left.
//!
//! Why mirrored pairs: the difference between `m + s z` and `m - s z` is the slope along `z`
//! times `2 s` whatever the curvature around `m` (its second-order terms cancel), so a large
//! spread buys a clear result per game without bias; the individuals are far from `m`, but
//! only the centre's average is the answer.

use super::settings::{GaOptions, Method, Settings, MEAN_RATE, MEAN_SPREAD};
use crate::eval::Weights;
use crate::rng::{derive, Purpose};
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// Beyond this many tuned parameters, an outside engine's session takes half the spread
/// (`engine_mean`).
pub const MEAN_WIDE: usize = 16;

/// The mean an outside engine's session takes by default for `n` tuned parameters: SPREAD
/// 8192 and RATE 100 ([`MEAN_SPREAD`], [`MEAN_RATE`]) for up to [`MEAN_WIDE`] parameters; beyond,
/// half the spread and twice the rate (4096:200), the centre's largest move a generation the
/// same. A pair's perturbation grows with the square root of the parameters it spans, so a
/// wide genome needs a smaller one per parameter; each setting won where it was measured (the
/// example engine's 8 parameters, our 66 weights: docs/results.md).
pub fn engine_mean(n: usize) -> Method {
    if n <= MEAN_WIDE {
        Method::Mean {
            spread: MEAN_SPREAD,
            rate: MEAN_RATE,
        }
    } else {
        Method::Mean {
            spread: MEAN_SPREAD / 2,
            rate: MEAN_RATE * 2,
        }
    }
}

/// The most generations of the mean a session keeps in flight (`--in-flight`).
pub const MEAN_MAX_IN_FLIGHT: u32 = 64;

/// The generations in flight of an outside engine's session under the mean, where the mean is
/// the default tuner and drawing ahead tuned as well (more than [`MEAN_ALONE`], up to 16
/// parameters).
pub const MEAN_IN_FLIGHT: u32 = 3;

/// Up to this many tuned parameters the mean keeps one generation in flight: drawing ahead
/// tuned worse there.
pub const MEAN_ALONE: usize = 8;

/// The generations in flight an outside engine's session of `n` tuned parameters takes under
/// the mean unless given: [`MEAN_IN_FLIGHT`] from 9 to 16 parameters, where the mean
/// is the default tuner (its 16 games a generation leave most of 16 threads waiting for the
/// generation's longest game: 0.47 of linear modelled, 0.94 with 3 in flight) and drawing
/// ahead cost little if anything (16 parameters on the simulator: regret 17.2 against 16.7 at
/// 4,000 games; 12 of our weights in real games: -12.7 and -3.3 Elo against -7.1 and -0.2;
/// both within the intervals); one up to [`MEAN_ALONE`] (8 parameters: 5.0 against 4.1,
/// outside them; the example engine's 8 in real games: +47.8 and +34.7 against +63.6 and
/// +43.5, within them) and beyond 16, where CMA-ES is the default (66: 46.4 against 43.3), so
/// that a run there is the one it always was. Measured: docs/scaling.md.
pub fn engine_mean_in_flight(n: usize) -> u32 {
    if n > MEAN_ALONE && n <= MEAN_WIDE {
        MEAN_IN_FLIGHT
    } else {
        1
    }
}

/// Whether a session of `ga` can keep more than one generation in flight: under the mean
/// (a generation is one batch, its pairs' games), without measurements.
pub fn keeps_flight(ga: &GaOptions) -> bool {
    ga.method.mean().is_some() && ga.measure_every == 0
}

/// The generations in flight a session of `s` takes unless told (or told 0): an outside
/// engine's under the mean [`engine_mean_in_flight`], any other one.
pub fn default_in_flight(s: &Settings) -> u32 {
    match &s.engine {
        Some(e) if keeps_flight(&s.ga) => engine_mean_in_flight(e.tuned.len()),
        _ => 1,
    }
}

/// Checks the mean's own settings: its spread and rate, the operators it takes none of, and
/// its generations in flight (more than one only under the mean, without measurements: a
/// generation in flight is one batch, its pairs' games).
pub(super) fn check_mean(ga: &GaOptions) -> Result<(), String> {
    if let Method::Mean { spread, rate } = ga.method {
        if spread == 0 || spread > i16::MAX as u16 || rate == 0 || rate > 1000 {
            return Err(format!(
                "mean spread {spread} must be 1..32767 and rate {rate} 1..1000"
            ));
        }
        let other = [
            (ga.hall_of_fame > 0, "hall of fame (--hall-of-fame 0)"),
            (ga.fit_every > 0, "fit (--fit-every 0)"),
            (ga.endgame_pairs > 0, "endgame games (--endgame-pairs 0)"),
            (ga.widen_at > 0, "widening"),
        ];
        if let Some((_, what)) = other.iter().find(|(on, _)| *on) {
            return Err(format!(
                "--selection mean plays each mirrored pair only against itself: it takes \
                 no {what}"
            ));
        }
    }
    let n = ga.in_flight;
    if n == 0 || n > MEAN_MAX_IN_FLIGHT {
        return Err(format!(
            "{n} generations in flight must be 1..{MEAN_MAX_IN_FLIGHT}"
        ));
    }
    if n > 1 && ga.method.mean().is_none() {
        return Err(format!(
            "{n} generations in flight need --selection mean (a selection breeds from the \
             whole last generation)"
        ));
    }
    if n > 1 && ga.measure_every > 0 {
        return Err(format!(
            "{n} generations in flight take no measurement (--measure-every 0)"
        ));
    }
    Ok(())
}

/// The answer's weights: the centre after step `t` weighs `t^AVERAGE_POWER` (about; the
/// polynomial-decay average of stochastic approximation).
const AVERAGE_POWER: f64 = 1.0;

/// Adam's smoothing of the slope.
const BETA1: f64 = 0.9;
/// Adam's smoothing of the slope's square.
const BETA2: f64 = 0.99;

/// Where the centre of a mean session stands, kept in its checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Centre {
    /// The centre, a real value per gene.
    pub mean: Vec<f64>,
    /// The running mean of each gene's slope.
    pub slope: Vec<f64>,
    /// The running mean of each gene's slope squared.
    pub square: Vec<f64>,
    /// The weighted average of the centres so far (the answer).
    pub average: Vec<f64>,
    /// Generations that moved the centre.
    pub steps: u64,
    /// With generations in flight, the pairs of the generations after the next one, drawn
    /// ahead (oldest first; empty with one in flight). Kept in the checkpoint beside the
    /// centre (format 10).
    #[serde(skip)]
    pub ahead: Vec<Vec<Weights>>,
}

impl Centre {
    /// A centre at `w`, nothing learnt.
    pub fn at(w: &Weights) -> Centre {
        let mean: Vec<f64> = w.values().iter().map(|&v| v as f64).collect();
        let n = mean.len();
        Centre {
            average: mean.clone(),
            mean,
            slope: vec![0.0; n],
            square: vec![0.0; n],
            steps: 0,
            ahead: Vec::new(),
        }
    }

    /// Whether every vector has `genes` values and every value is finite (a checkpoint's).
    pub fn fits(&self, genes: usize) -> bool {
        [&self.mean, &self.slope, &self.square, &self.average]
            .iter()
            .all(|v| v.len() == genes && v.iter().all(|x| x.is_finite()))
    }

    /// The answer: the average of the centres, rounded, as weights of `like`'s set.
    pub fn answer(&self, like: &Weights) -> Weights {
        to_weights(&self.average, like)
    }

    /// The signs of generation `g`'s pairs, `pairs` of them.
    fn signs(seed: u64, g: u64, pairs: usize, genes: usize) -> Vec<Vec<f64>> {
        let mut rng = derive(seed, Purpose::Breeding, g, 0);
        (0..pairs)
            .map(|_| {
                (0..genes)
                    .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
                    .collect()
            })
            .collect()
    }

    /// Generation `g`'s population of `size` (even): pair `j` is individuals `2j` (the centre
    /// plus the spread along the pair's signs) and `2j + 1` (minus), of `like`'s set.
    pub fn population(
        &self,
        seed: u64,
        g: u64,
        size: usize,
        spread: f64,
        like: &Weights,
    ) -> Vec<Weights> {
        let genes = self.mean.len();
        let mut out = Vec::with_capacity(size);
        for z in Centre::signs(seed, g, size / 2, genes) {
            for sign in [1.0, -1.0] {
                let x: Vec<f64> = (0..genes)
                    .map(|i| self.mean[i] + sign * spread * z[i])
                    .collect();
                out.push(to_weights(&x, like));
            }
        }
        out
    }

    /// Draws the pairs of generations `g + 1` to `g + flight` around the centre as it stands
    /// (a session's start, or settings changed on resume): the first is returned, the rest
    /// kept as [`Centre::ahead`].
    pub fn draw_from(
        &mut self,
        seed: u64,
        g: u64,
        size: usize,
        spread: f64,
        like: &Weights,
        flight: u32,
    ) -> Vec<Weights> {
        self.ahead = (2..=flight as u64)
            .map(|k| self.population(seed, g + k, size, spread, like))
            .collect();
        self.population(seed, g + 1, size, spread, like)
    }

    /// After generation `g` moved the centre: the pairs of generation `g + 1` (drawn now with
    /// one generation in flight; else the oldest drawn ahead), and generation `g + flight`'s
    /// drawn now around the new centre and kept.
    pub fn draw_next(
        &mut self,
        seed: u64,
        g: u64,
        size: usize,
        spread: f64,
        like: &Weights,
        flight: u32,
    ) -> Vec<Weights> {
        if self.ahead.len() + 1 != flight.max(1) as usize {
            return self.draw_from(seed, g, size, spread, like, flight);
        }
        let drawn = self.population(seed, g + flight.max(1) as u64, size, spread, like);
        match self.ahead.is_empty() {
            true => drawn,
            false => {
                self.ahead.push(drawn);
                self.ahead.remove(0)
            }
        }
    }

    /// Moves the centre after generation `g`, whose pair `j` scored `results[j]` (wins minus
    /// losses of its first individual), each gene by at most about `rate * spread`; then
    /// adds the new centre to the average.
    pub fn step(&mut self, seed: u64, g: u64, results: &[i64], spread: f64, rate: f64) {
        let genes = self.mean.len();
        let signs = Centre::signs(seed, g, results.len(), genes);
        self.steps += 1;
        let t = self.steps as f64;
        let debias = 1.0 - BETA2.powf(t);
        for i in 0..genes {
            let e: f64 = signs
                .iter()
                .zip(results)
                .map(|(z, &r)| r as f64 * z[i])
                .sum();
            self.slope[i] = BETA1 * self.slope[i] + (1.0 - BETA1) * e;
            self.square[i] = BETA2 * self.square[i] + (1.0 - BETA2) * e * e;
            let rms = (self.square[i] / debias).sqrt();
            if rms > 0.0 {
                let moved = self.mean[i] + rate * spread * self.slope[i] / rms;
                self.mean[i] = moved.clamp(i16::MIN as f64, i16::MAX as f64);
            }
            // The centre after step t weighs t: the average's share of it is 2 / (t + 1).
            self.average[i] +=
                (self.mean[i] - self.average[i]) * (AVERAGE_POWER + 1.0) / (t + AVERAGE_POWER);
        }
    }
}

/// Real gene values as weights of `like`'s set (rounded, clamped into an i16).
fn to_weights(x: &[f64], like: &Weights) -> Weights {
    let mut w = *like;
    for (o, &v) in w.values_mut().iter_mut().zip(x) {
        *o = v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    }
    w
}

/// The wins minus losses of each pair's first individual (individuals `2j` and `2j + 1`),
/// from games given as (black, white, outcome for Black: 1 win, 0 draw, -1 loss).
pub fn pair_results(
    pairs: usize,
    games: impl IntoIterator<Item = (usize, usize, i64)>,
) -> Vec<i64> {
    let mut r = vec![0i64; pairs];
    for (b, w, black) in games {
        let (first, pair) = if b / 2 == w / 2 && b.is_multiple_of(2) {
            (black, b / 2)
        } else if b / 2 == w / 2 {
            (-black, b / 2)
        } else {
            continue;
        };
        if let Some(x) = r.get_mut(pair) {
            *x += first;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::ParamSet;

    fn start() -> Weights {
        let mut w = Weights::zero_of(ParamSet::Thesis60);
        for (i, v) in w.values_mut().iter_mut().enumerate() {
            *v = (i as i16 - 30) * 100;
        }
        w
    }

    #[test]
    fn pairs_in_flight_are_drawn_from_the_centre_of_their_draw() {
        let w = start();
        let mut c = Centre::at(&w);
        let first = c.clone();
        // Generations 1 to 3 drawn around the start.
        let pop1 = c.draw_from(9, 0, 8, 500.0, &w, 3);
        assert_eq!(pop1, first.population(9, 1, 8, 500.0, &w));
        assert_eq!(
            c.ahead,
            [2, 3].map(|g| first.population(9, g, 8, 500.0, &w))
        );
        // Generation 1 moves the centre: generation 2 is the one drawn before, 4 is drawn now.
        c.step(9, 1, &[2, -2, 0, 1], 500.0, 0.1);
        let moved = c.clone();
        let pop2 = c.draw_next(9, 1, 8, 500.0, &w, 3);
        assert_eq!(pop2, first.population(9, 2, 8, 500.0, &w));
        assert_eq!(c.ahead[0], first.population(9, 3, 8, 500.0, &w));
        assert_eq!(c.ahead[1], moved.population(9, 4, 8, 500.0, &w));
        assert_ne!(c.ahead[1], first.population(9, 4, 8, 500.0, &w));
        // One in flight: the next pairs are drawn now, nothing ahead.
        let mut one = moved.clone();
        one.ahead.clear();
        assert_eq!(
            one.draw_next(9, 1, 8, 500.0, &w, 1),
            moved.population(9, 2, 8, 500.0, &w)
        );
        assert!(one.ahead.is_empty());
    }

    #[test]
    fn a_pair_lies_either_side_of_the_centre_by_the_spread() {
        let w = start();
        let c = Centre::at(&w);
        let pop = c.population(9, 1, 8, 500.0, &w);
        assert_eq!(pop.len(), 8);
        for pair in pop.chunks(2) {
            for ((&a, &b), &m) in pair[0]
                .values()
                .iter()
                .zip(pair[1].values())
                .zip(w.values())
            {
                assert_eq!(a as i32 + b as i32, 2 * m as i32);
                assert_eq!((a as i32 - m as i32).abs(), 500);
            }
        }
        // Another generation, other signs; the same generation, the same pairs.
        assert_ne!(c.population(9, 2, 8, 500.0, &w), pop);
        assert_eq!(c.population(9, 1, 8, 500.0, &w), pop);
        // Near the end of the i16 range a gene is clamped.
        let mut edge = w;
        edge.values_mut()[0] = i16::MAX - 10;
        let e = Centre::at(&edge).population(9, 1, 2, 500.0, &edge);
        assert!(e.iter().all(|x| x.values()[0] >= i16::MAX - 510));
    }

    #[test]
    fn the_centre_moves_toward_the_winners_and_the_answer_follows_it() {
        let w = start();
        let mut c = Centre::at(&w);
        let pop = c.population(3, 1, 4, 800.0, &w);
        // Pair 0's first individual won both games, pair 1 drew.
        c.step(3, 1, &[2, 0], 800.0, 0.1);
        for i in 0..w.values().len() {
            let toward = (pop[0].values()[i] - w.values()[i]).signum() as f64;
            let moved = c.mean[i] - w.values()[i] as f64;
            assert!(moved * toward > 0.0, "gene {i}: moved {moved}");
            // At most about rate * spread a generation.
            assert!(moved.abs() <= 0.1 * 800.0 + 1e-9, "gene {i}: moved {moved}");
        }
        // The answer after one step is the centre (weight 1 of 1).
        assert_eq!(c.answer(&w).values(), to_weights(&c.mean, &w).values());
        // Draws everywhere: the centre keeps moving only with its momentum, the average lags.
        let before = c.mean.clone();
        c.step(3, 2, &[0, 0], 800.0, 0.1);
        assert_eq!(c.steps, 2);
        for (i, b) in before.iter().enumerate() {
            assert!((c.average[i] - b).abs() <= (c.mean[i] - b).abs() + 1e-9);
        }
        assert!(c.fits(w.values().len()));
        assert!(!c.fits(w.values().len() + 1));
    }

    #[test]
    fn pair_results_count_the_first_individuals_wins_minus_losses() {
        // Pair 0: 0 wins as Black, 0 loses as White; pair 1: a draw, then 3 wins as Black.
        let games = [(0, 1, 1), (1, 0, 1), (2, 3, 0), (3, 2, 1)];
        assert_eq!(pair_results(2, games), vec![0, -1]);
        // A game between different pairs counts for neither.
        assert_eq!(pair_results(2, [(0, 2, 1)]), vec![0, 0]);
    }
}

#[cfg(test)]
mod engine_mean_tests {
    use super::*;

    #[test]
    fn an_engine_s_mean_halves_its_spread_beyond_sixteen_parameters() {
        let narrow = Method::Mean {
            spread: 8192,
            rate: 100,
        };
        let wide = Method::Mean {
            spread: 4096,
            rate: 200,
        };
        assert_eq!(engine_mean(1), narrow);
        assert_eq!(engine_mean(8), narrow);
        assert_eq!(engine_mean(16), narrow);
        assert_eq!(engine_mean(17), wide);
        assert_eq!(engine_mean(66), wide);
        // `--selection mean` alone is the narrow one.
        assert_eq!("mean".parse::<Method>().unwrap(), narrow);
    }
}
