//! The mean with a spread that adapts: the GA's mean ([`crate::ga::Centre`]: mirrored pairs
//! around a centre, Adam-scaled steps, the centres' average the answer) as a tuner of the
//! contract ([`crate::tuner::Tuner`]), its spread moved by its own signal.
//!
//! Adam's statistics say how consistent each gene's slope is: the running mean of the slope
//! over its running root mean square is near 1 while the games keep pointing one way, and
//! near `sqrt((1 - β1) / (1 + β1))` (0.23) when they are noise. Each generation the spread is
//! multiplied by `exp(gain * (c - target))`, `c` that ratio averaged over the genes: it grows
//! (up to where it started) while the centre travels, and shrinks near an optimum, where a
//! fixed spread keeps the pairs too far apart to tell small differences. Never below a
//! sixty-fourth of its start.

use crate::board::Position;
use crate::eval::Weights;
use crate::ga::{pair_results, Centre, MEAN_RATE, MEAN_SPREAD};
use crate::game::DrawRules;
use crate::genome::EngineSpec;
use crate::jobs::{Batch, GameJob, Opening, Played, Seat, Start};
use crate::openings::{ballot, StartPosition};
use crate::rng::{derive, Purpose};
use crate::search::SearchConfig;
use crate::tuner::Tuner;
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// The adaptive mean's settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveSettings {
    /// Games to play in all.
    pub games: u64,
    /// Mirrored pairs a generation.
    pub pairs: u32,
    /// How fast the spread follows the signal (0: the plain mean's fixed spread).
    pub gain: f64,
    /// The consistency the spread aims at.
    pub target: f64,
    /// The seed every draw comes from.
    pub seed: u64,
}

impl Default for AdaptiveSettings {
    fn default() -> Self {
        AdaptiveSettings {
            games: 4000,
            pairs: 8,
            gain: 0.1,
            target: 0.35,
            seed: 1,
        }
    }
}

/// An adaptive mean run as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveMean {
    /// The engine whose parameters are tuned.
    pub spec: EngineSpec,
    /// The settings.
    pub settings: AdaptiveSettings,
    /// The centre, its Adam statistics and the average of the centres.
    pub centre: Centre,
    /// The spread it started with (the plain mean's for the engine's parameter count).
    pub start: f64,
    /// The spread now.
    pub spread: f64,
    /// Generations played.
    pub generation: u64,
    /// Games played.
    pub games: u64,
}

impl AdaptiveMean {
    /// A run at its start: the centre at the declared values, the plain mean's spread (half
    /// of it beyond 16 parameters, twice the rate).
    pub fn new(spec: &EngineSpec, settings: &AdaptiveSettings) -> AdaptiveMean {
        let start = if spec.tuned.len() <= 16 {
            MEAN_SPREAD as f64
        } else {
            MEAN_SPREAD as f64 / 2.0
        };
        AdaptiveMean {
            spec: spec.clone(),
            settings: *settings,
            centre: Centre::at(&spec.defaults()),
            start,
            spread: start,
            generation: 0,
            games: 0,
        }
    }

    /// The plain mean's rate for the engine's parameter count.
    fn rate(&self) -> f64 {
        let r = MEAN_RATE as f64 / 1000.0;
        if self.spec.tuned.len() <= 16 {
            r
        } else {
            2.0 * r
        }
    }

    /// The next generation's pairs and their openings.
    fn pairs(&self) -> (usize, Vec<u32>) {
        let left = self.settings.games.saturating_sub(self.games);
        let pairs = (self.settings.pairs as u64).min(left.div_ceil(2)) as usize;
        let mut rng = derive(self.settings.seed, Purpose::Pairing, self.generation + 1, 0);
        let openings = (0..pairs)
            .map(|_| rng.random_range(0..ballot().len() as u32))
            .collect();
        (pairs, openings)
    }
}

impl Tuner for AdaptiveMean {
    type Step = f64;

    fn ask(&self) -> Option<Batch> {
        if self.games >= self.settings.games {
            return None;
        }
        let (pairs, openings) = self.pairs();
        let g = self.generation + 1;
        let like = self.spec.defaults();
        let players = self
            .centre
            .population(self.settings.seed, g, 2 * pairs, self.spread, &like);
        let mut batch = Batch::of_weights(&players, self.settings.seed, DrawRules::default());
        batch.engine = Some(self.spec.clone());
        batch.tc = self.spec.tc;
        batch.time_margin = self.spec.time_margin;
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
        let config = SearchConfig::with_depth(self.spec.depth);
        for j in 0..pairs {
            let (plus, minus) = (Seat::new(2 * j, config), Seat::new(2 * j + 1, config));
            for (k, (black, white)) in [(plus, minus), (minus, plus)].into_iter().enumerate() {
                let index = (2 * j + k) as u64;
                let start = Start::Opening(j as u32);
                batch
                    .jobs
                    .push(GameJob::new(black, white, start, Purpose::Game, g, index));
            }
        }
        Some(batch)
    }

    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<f64> {
        let g = self.generation + 1;
        let pairs = batch.jobs.len() / 2;
        let games = batch.jobs.iter().zip(played).map(|(job, p)| {
            let black = match p.result.map(|r| r.0) {
                Some(crate::game::GameOutcome::BlackWin) => 1,
                Some(crate::game::GameOutcome::WhiteWin) => -1,
                _ => 0,
            };
            (job.black.player as usize, job.white.player as usize, black)
        });
        let results = pair_results(pairs, games);
        let rate = self.rate();
        self.centre
            .step(self.settings.seed, g, &results, self.spread, rate);
        // How consistent the slopes are, averaged over the genes.
        let debias = 1.0 - 0.99f64.powf(self.centre.steps as f64);
        let n = self.centre.slope.len().max(1) as f64;
        let c: f64 = self
            .centre
            .slope
            .iter()
            .zip(&self.centre.square)
            .map(|(m, v)| {
                let rms = (v / debias).sqrt();
                if rms > 0.0 {
                    (m.abs() / rms).min(1.0)
                } else {
                    0.0
                }
            })
            .sum::<f64>()
            / n;
        let s = self.settings;
        self.spread =
            (self.spread * (s.gain * (c - s.target)).exp()).clamp(self.start / 64.0, self.start);
        self.generation = g;
        self.games += played.len() as u64;
        Some(self.spread)
    }

    fn answer(&self) -> Weights {
        self.centre.answer(&self.spec.defaults())
    }

    fn games(&self) -> u64 {
        self.games
    }
}
