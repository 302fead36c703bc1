//! The tuning simulator's synthetic engine (`sim:N[:SEED]`): an engine of `N` `int`
//! parameters that plays no game at all. A game between the parameter values `x` (Black) and
//! `y` (White) is decided by a known model of the engine's strength, drawn from the game's own
//! generator, so that a tuner can be run thousands of times in minutes and scored against the
//! model's optimum (its regret). The model (docs/simulator.md):
//!
//! - **Strength.** `S(x) = -M (1 - exp(-Q(x) / M))` in Elo, `M` = [`SATURATION`]: 0 at the
//!   optimum, below it everywhere else, `-Q(x)` near the optimum and never below `-M` (the
//!   worst settings of an engine still play legal, if bad, checkers).
//! - **The quadratic core.** With `z_i = (x_i - opt_i) / (max_i - min_i)` (the distance from the
//!   optimum as a share of the parameter's declared range), `Q(x) = sum c_i z_i^2 + sum over
//!   the pairs 2 r sqrt(c_i c_j) z_i z_j`. The curvatures `c_i` come in three tiers: about a
//!   sixth of the parameters matter a lot (`c` 2,000..8,000 Elo per range squared: 10% of the
//!   range off costs 20..80 Elo), half of them little (100..800: 1..8 Elo at 10% off) and a
//!   third almost nothing (1..20). `N / 8` disjoint pairs (at least one) of the parameters
//!   that matter interact with a correlation `r` of 0.5..0.9 either sign: the best value of
//!   one depends on the other. `Q` is positive definite, so the optimum is the only maximum.
//! - **Ranges, optimum, defaults.** The declared ranges are drawn from those real engines
//!   declare (`0..1000`, `-500..500`, `0..20`, `1..64`, ...). The optimum of each parameter is
//!   a whole number 15%..40% of its range from one end, never at the centre. The declared
//!   defaults are the optimum moved the way an author's guess is (a few percent of the range
//!   for the parameters that matter a lot, more for the others), scaled so that the defaults
//!   play [`DEFAULT_DEFICIT`] Elo below the optimum (150 Elo: the tuners of this project gained
//!   47 to 129 Elo over real engines' declared values in 4,000 games without converging,
//!   docs/results.md, so a converged optimum lies beyond that).
//! - **A game.** The Elo difference `d = S(x) - S(y)` gives the expected score of the
//!   logistic Elo curve, `1 / (1 + 10^(-d / 400))`, what a match measures; wins, draws and
//!   losses split it as BayesElo's draw model with `drawelo` [`DRAW_ELO`] does at the BayesElo
//!   difference that has that expected score. Two equal engines draw 58% of their games, as
//!   this project's engines do at depths 2 to 4 over the ballot; an engine 50 Elo stronger wins
//!   29%, draws 56%. Real games over the ballot openings (both colours each) showed no
//!   first-move advantage (377 Black wins, 369 White wins in 1,560 games), so there is none.
//!   The game's start (its opening) and the depth play no part.
//!
//! The model is fixed by `N` and its seed (`sim:N` is `sim:N:1`): every tuner run over
//! `sim:66` meets the same landscape.

use crate::game::{EndReason, GameOutcome};
use rand::{Rng, RngExt, SeedableRng};

/// How a command names the simulator: `sim:N` or `sim:N:SEED`.
pub const SIM_PREFIX: &str = "sim:";
/// The model seed of `sim:N`.
pub const DEFAULT_MODEL_SEED: u64 = 1;
/// The most parameters a model has.
pub const MAX_SIM_PARAMS: usize = 1000;
/// How far below the optimum, in Elo, the declared defaults play.
pub const DEFAULT_DEFICIT: f64 = 150.0;
/// The strength of the worst settings, in Elo below the optimum (where `S` saturates).
pub const SATURATION: f64 = 1500.0;
/// BayesElo's `drawelo` of the games: 58% draws between equal engines.
pub const DRAW_ELO: f64 = 230.0;

/// The declared ranges the parameters are drawn from.
const RANGES: [(i64, i64); 10] = [
    (0, 1000),
    (-500, 500),
    (0, 100),
    (-50, 50),
    (0, 10000),
    (0, 20),
    (-200, 200),
    (1, 64),
    (0, 255),
    (-1000, 1000),
];

/// One parameter of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct SimParam {
    /// Its name (`p1`, `p2`, ...).
    pub name: String,
    /// Its least value.
    pub min: i64,
    /// Its greatest value.
    pub max: i64,
    /// The value the engine declares.
    pub default: i64,
    /// The value of the optimum.
    pub optimum: i64,
    /// Elo lost per (share of the range off the optimum) squared, interactions aside.
    pub curvature: f64,
}

/// Two parameters that interact: `Q` has the term `coef z_a z_b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimPair {
    /// The first parameter's index.
    pub a: usize,
    /// The second parameter's index.
    pub b: usize,
    /// Their correlation, 0.5..0.9 either sign.
    pub r: f64,
    /// `2 r sqrt(c_a c_b)`.
    coef: f64,
}

/// The synthetic engine's model: its parameters, their interactions, and how games go.
#[derive(Clone, Debug, PartialEq)]
pub struct SimModel {
    seed: u64,
    params: Vec<SimParam>,
    pairs: Vec<SimPair>,
}

/// A standard normal draw (Box-Muller on two uniforms of the generator).
fn gaussian<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A name that is not the simulator's (`sim:N` or `sim:N:SEED`): the text given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a simulator: expected sim:N or sim:N:SEED, N the parameters \
     (1..{MAX_SIM_PARAMS}) and SEED the model's seed (a whole number)"
)]
pub struct NotASimulator(pub String);

impl SimModel {
    /// Reads `sim:N` or `sim:N:SEED` (N parameters, 1..=[`MAX_SIM_PARAMS`]): N and the seed.
    pub fn parse(text: &str) -> Result<(usize, u64), NotASimulator> {
        let bad = || NotASimulator(text.to_string());
        let rest = text.strip_prefix(SIM_PREFIX).ok_or_else(bad)?;
        let mut parts = rest.split(':');
        let n: usize = parts
            .next()
            .and_then(|n| n.parse().ok())
            .filter(|n| (1..=MAX_SIM_PARAMS).contains(n))
            .ok_or_else(bad)?;
        let seed = match parts.next() {
            None => DEFAULT_MODEL_SEED,
            Some(s) => s.parse().map_err(|_| bad())?,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok((n, seed))
    }

    /// The model of `n` parameters (1..=[`MAX_SIM_PARAMS`], more are cut to that) drawn from
    /// `seed`.
    pub fn new(n: usize, seed: u64) -> SimModel {
        let n = n.clamp(1, MAX_SIM_PARAMS);
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(b"sim-modl");
        key[8..16].copy_from_slice(&seed.to_le_bytes());
        key[16..24].copy_from_slice(&(n as u64).to_le_bytes());
        let mut rng = rand_chacha::ChaCha8Rng::from_seed(key);
        // The tiers, in a random order: a sixth (at least one) matter a lot, a third almost
        // nothing, the rest little.
        let big = n.div_ceil(6);
        let nothing = n / 3;
        let mut tiers: Vec<u8> = (0..n)
            .map(|i| {
                if i < big {
                    0
                } else if i < big + nothing {
                    2
                } else {
                    1
                }
            })
            .collect();
        rand::seq::SliceRandom::shuffle(tiers.as_mut_slice(), &mut rng);
        let mut params: Vec<SimParam> = tiers
            .iter()
            .enumerate()
            .map(|(i, &tier)| {
                let (min, max) = RANGES[rng.random_range(0..RANGES.len())];
                let (lo, hi): (f64, f64) =
                    [(2000.0, 8000.0), (100.0, 800.0), (1.0, 20.0)][tier as usize];
                // Log-uniform within the tier.
                let curvature = lo * (hi / lo).powf(rng.random::<f64>());
                let span = (max - min) as f64;
                let from_end = 0.15 + 0.25 * rng.random::<f64>();
                let share = if rng.random_bool(0.5) {
                    from_end
                } else {
                    1.0 - from_end
                };
                let optimum = (min as f64 + share * span).round() as i64;
                SimParam {
                    name: format!("p{}", i + 1),
                    min,
                    max,
                    default: optimum,
                    optimum,
                    curvature,
                }
            })
            .collect();
        // Disjoint pairs among the parameters that matter.
        let mut matter: Vec<usize> = (0..n).filter(|&i| tiers[i] < 2).collect();
        rand::seq::SliceRandom::shuffle(matter.as_mut_slice(), &mut rng);
        let pairs = (n / 8).max(1).min(matter.len() / 2);
        let pairs: Vec<SimPair> = (0..pairs)
            .map(|k| {
                let (a, b) = (matter[2 * k], matter[2 * k + 1]);
                let size = 0.5 + 0.4 * rng.random::<f64>();
                let r = if rng.random_bool(0.5) { size } else { -size };
                let coef = 2.0 * r * (params[a].curvature * params[b].curvature).sqrt();
                SimPair { a, b, r, coef }
            })
            .collect();
        // The author's guess: off by a few percent of the range where it matters a lot, more
        // where it matters less; then scaled to the deficit.
        let guess: Vec<f64> = tiers
            .iter()
            .map(|&t| gaussian(&mut rng) * [0.05, 0.20, 0.35][t as usize])
            .collect();
        let mut model = SimModel {
            seed,
            params: params.clone(),
            pairs,
        };
        let at = |scale: f64, params: &mut Vec<SimParam>| {
            for (p, g) in params.iter_mut().zip(&guess) {
                let span = (p.max - p.min) as f64;
                let v = (p.optimum as f64 + scale * g * span).round() as i64;
                p.default = v.clamp(p.min, p.max);
            }
        };
        let deficit = |m: &SimModel| -m.strength(&m.defaults());
        let (mut lo, mut hi) = (0.0, 1.0);
        loop {
            at(hi, &mut params);
            model.params.clone_from(&params);
            if deficit(&model) >= DEFAULT_DEFICIT || hi > 1e6 {
                break;
            }
            hi *= 2.0;
        }
        for _ in 0..60 {
            let mid = (lo + hi) / 2.0;
            at(mid, &mut params);
            model.params.clone_from(&params);
            if deficit(&model) < DEFAULT_DEFICIT {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // The nearest whole values at or just past the deficit.
        at(hi, &mut model.params);
        model
    }

    /// How the simulator is named: `sim:N:SEED`.
    pub fn name(&self) -> String {
        format!("{SIM_PREFIX}{}:{}", self.params.len(), self.seed)
    }

    /// The model's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The parameters, in order.
    pub fn params(&self) -> &[SimParam] {
        &self.params
    }

    /// The interacting pairs.
    pub fn pairs(&self) -> &[SimPair] {
        &self.pairs
    }

    /// The declared values.
    pub fn defaults(&self) -> Vec<i64> {
        self.params.iter().map(|p| p.default).collect()
    }

    /// The optimum's values.
    pub fn optimum(&self) -> Vec<i64> {
        self.params.iter().map(|p| p.optimum).collect()
    }

    /// `Q(x)`, the quadratic core, in Elo (0 at the optimum, positive elsewhere). Missing
    /// values are the optimum's.
    pub fn core(&self, values: &[i64]) -> f64 {
        let z = |i: usize| {
            let p = &self.params[i];
            let v = values.get(i).copied().unwrap_or(p.optimum);
            (v - p.optimum) as f64 / (p.max - p.min) as f64
        };
        let mut q = 0.0;
        for (i, p) in self.params.iter().enumerate() {
            let zi = z(i);
            q += p.curvature * zi * zi;
        }
        for pair in &self.pairs {
            q += pair.coef * z(pair.a) * z(pair.b);
        }
        q.max(0.0)
    }

    /// `S(x)`: the strength of the values `x`, in Elo relative to the optimum (0 there,
    /// negative elsewhere, never below `-SATURATION`).
    pub fn strength(&self, values: &[i64]) -> f64 {
        SATURATION * (-self.core(values) / SATURATION).exp_m1()
    }

    /// `S(optimum) - S(x)`: how many Elo the values `x` play below the optimum.
    pub fn regret(&self, values: &[i64]) -> f64 {
        -self.strength(values)
    }

    /// The chances of a win, a draw and a loss for a side `d` Elo (logistic) stronger than its
    /// opponent: BayesElo's draw model with [`DRAW_ELO`] at the BayesElo difference whose
    /// expected score is the logistic `1 / (1 + 10^(-d / 400))`.
    pub fn chances(d: f64) -> (f64, f64, f64) {
        let e = (1.0 / (1.0 + 10f64.powf(-d / 400.0))).clamp(1e-12, 1.0 - 1e-12);
        let k = 10f64.powf(DRAW_ELO / 400.0);
        // With a = 10^(D / 400) at the BayesElo difference D: win a / (a + k), loss
        // 1 / (1 + a k), and 2e - 1 = win - loss gives a quadratic in a.
        let y = 2.0 * e - 1.0;
        let b = y * (1.0 + k * k);
        let a = (b + (b * b + 4.0 * k * k * (1.0 - y * y)).sqrt()) / (2.0 * k * (1.0 - y));
        let win = a / (a + k);
        let loss = 1.0 / (1.0 + a * k);
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// A game between the values `black` and `white`, drawn from `rng`: its outcome, why it
    /// ended (a side without moves, or the 40-move rule) and a length in plies (40..160,
    /// for the statistics: nothing depends on it).
    pub fn play<R: Rng + ?Sized>(
        &self,
        black: &[i64],
        white: &[i64],
        rng: &mut R,
    ) -> (GameOutcome, EndReason, u32) {
        let d = self.strength(black) - self.strength(white);
        let (win, draw, _) = SimModel::chances(d);
        let u: f64 = rng.random::<f64>();
        let plies = 40 + rng.random_range(0..120u32);
        use crate::board::Color;
        if u < win {
            (
                GameOutcome::BlackWin,
                EndReason::NoMoves(Color::White),
                plies,
            )
        } else if u < win + draw {
            (GameOutcome::Draw, EndReason::QuietPlies, plies)
        } else {
            (
                GameOutcome::WhiteWin,
                EndReason::NoMoves(Color::Black),
                plies,
            )
        }
    }
}

thread_local! {
    /// The models this thread has used (a game asks for its model by name).
    static MODELS: std::cell::RefCell<Vec<std::sync::Arc<SimModel>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The model of `n` parameters and `seed` ([`SimModel::new`]), made once per thread.
pub fn cached(n: usize, seed: u64) -> std::sync::Arc<SimModel> {
    MODELS.with(|cell| {
        let mut kept = cell.borrow_mut();
        if let Some(m) = kept.iter().find(|m| m.params.len() == n && m.seed == seed) {
            return m.clone();
        }
        let m = std::sync::Arc::new(SimModel::new(n, seed));
        kept.push(m.clone());
        m
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_bad_ones_say_what_is_expected() {
        assert_eq!(SimModel::parse("sim:8"), Ok((8, 1)));
        assert_eq!(SimModel::parse("sim:66:7"), Ok((66, 7)));
        for bad in [
            "sim:",
            "sim:0",
            "sim:x",
            "sim:8:",
            "sim:8:1:2",
            "sim:-3",
            "sim8",
            "sim:1001",
        ] {
            let e = SimModel::parse(bad).unwrap_err();
            assert_eq!(e, NotASimulator(bad.to_string()));
            let e = e.to_string();
            assert!(
                e.contains("expected sim:N or sim:N:SEED") && !e.contains('\n'),
                "{e}"
            );
        }
    }

    #[test]
    fn the_optimum_is_the_maximum_and_the_defaults_are_the_deficit_below() {
        for (n, seed) in [(8, 1), (66, 1), (1, 3), (13, 9)] {
            let m = SimModel::new(n, seed);
            assert_eq!(m.params().len(), n);
            assert_eq!(m.name(), format!("sim:{n}:{seed}"));
            assert_eq!(m.regret(&m.optimum()), 0.0);
            let d = m.regret(&m.defaults());
            assert!(
                (DEFAULT_DEFICIT..DEFAULT_DEFICIT + 5.0).contains(&d),
                "{n}: {d}"
            );
            for p in m.params() {
                assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
                let share = (p.optimum - p.min) as f64 / (p.max - p.min) as f64;
                assert!((0.14..=0.41).contains(&share) || (0.59..=0.86).contains(&share));
            }
            // Anywhere else is weaker, never below the saturation.
            let mut rng = crate::rng::derive(seed, crate::rng::Purpose::Game, 0, n as u64);
            for _ in 0..2000 {
                let x: Vec<i64> = m
                    .params()
                    .iter()
                    .map(|p| rng.random_range(p.min..=p.max))
                    .collect();
                let r = m.regret(&x);
                assert!((0.0..=SATURATION).contains(&r), "{r}");
                if x != m.optimum() {
                    assert!(r > 0.0);
                }
            }
        }
        // The same name, the same model; another seed, another.
        assert_eq!(SimModel::new(66, 1), SimModel::new(66, 1));
        assert_ne!(SimModel::new(66, 1), SimModel::new(66, 2));
    }

    #[test]
    fn the_tiers_and_the_pairs_are_as_documented() {
        let m = SimModel::new(66, 1);
        let tier = |lo: f64, hi: f64| {
            m.params()
                .iter()
                .filter(|p| p.curvature >= lo && p.curvature <= hi)
                .count()
        };
        assert_eq!(tier(2000.0, 8000.0), 11);
        assert_eq!(tier(100.0, 800.0), 33);
        assert_eq!(tier(1.0, 20.0), 22);
        assert_eq!(m.pairs().len(), 8);
        let mut seen = std::collections::HashSet::new();
        for p in m.pairs() {
            assert!(seen.insert(p.a) && seen.insert(p.b), "pairs are disjoint");
            assert!((0.5..=0.9).contains(&p.r.abs()));
            assert!(m.params()[p.a].curvature >= 100.0 && m.params()[p.b].curvature >= 100.0);
        }
        // An interaction: the best value of one parameter moves with the other (the one that
        // matters more moved by 30% of its range, toward its farther end).
        for pair in m.pairs() {
            let (a, b) = match m.params()[pair.a].curvature > m.params()[pair.b].curvature {
                true => (pair.a, pair.b),
                false => (pair.b, pair.a),
            };
            let mut x = m.optimum();
            let (pa, pb) = (&m.params()[a], &m.params()[b]);
            let step = 3 * (pa.max - pa.min) / 10;
            x[a] = match pa.optimum - pa.min > pa.max - pa.optimum {
                true => pa.optimum - step,
                false => pa.optimum + step,
            };
            let regret_at = |v: i64| {
                let mut y = x.clone();
                y[b] = v;
                m.regret(&y)
            };
            let best_b = (pb.min..=pb.max)
                .min_by(|&u, &v| regret_at(u).total_cmp(&regret_at(v)))
                .unwrap();
            assert_ne!(best_b, pb.optimum, "{pair:?}");
            assert!(regret_at(best_b) < regret_at(pb.optimum));
        }
        assert_eq!(SimModel::new(8, 1).pairs().len(), 1);
    }

    #[test]
    fn the_chances_give_the_logistic_score_and_the_draw_rate() {
        let (w, d, l) = SimModel::chances(0.0);
        assert!(
            (w - l).abs() < 1e-12 && (d - 0.58).abs() < 0.01,
            "{w} {d} {l}"
        );
        for elo in [-800.0, -200.0, -50.0, 10.0, 50.0, 100.0, 400.0, 1500.0] {
            let (w, d, l) = SimModel::chances(elo);
            assert!(w >= 0.0 && d >= 0.0 && l >= 0.0 && (w + d + l - 1.0).abs() < 1e-9);
            let score = w + d / 2.0;
            let logistic = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
            assert!((score - logistic).abs() < 1e-9, "{elo}: {score} {logistic}");
        }
        // Fewer draws between unequal engines.
        assert!(SimModel::chances(200.0).1 < SimModel::chances(50.0).1);
        assert!(SimModel::chances(50.0).1 < SimModel::chances(0.0).1);
    }

    #[test]
    fn many_games_at_a_known_difference_match_the_model() {
        let m = SimModel::new(8, 1);
        // Black at the optimum, White at a value about 100 Elo below.
        let best = m.optimum();
        let k = m
            .params()
            .iter()
            .position(|p| p.curvature > 1000.0)
            .unwrap();
        let mut worse = best.clone();
        let p = &m.params()[k];
        let mut v = p.optimum;
        while m.regret(&worse) < 100.0 && v > p.min {
            v -= 1;
            worse[k] = v;
        }
        if m.regret(&worse) < 100.0 {
            v = p.optimum;
            while m.regret(&worse) < 100.0 && v < p.max {
                v += 1;
                worse[k] = v;
            }
        }
        let d = m.strength(&best) - m.strength(&worse);
        assert!((100.0..300.0).contains(&d), "{d}");
        let (pw, pd, _) = SimModel::chances(d);
        let n = 20_000;
        let (mut wins, mut draws, mut points) = (0u32, 0u32, 0.0);
        for g in 0..n {
            let mut rng = crate::rng::derive(11, crate::rng::Purpose::Game, 1, g);
            // Colours alternate: no side advantage either way.
            let (o, _, plies) = if g % 2 == 0 {
                m.play(&best, &worse, &mut rng)
            } else {
                m.play(&worse, &best, &mut rng)
            };
            assert!((40..160).contains(&plies));
            let better_black = g % 2 == 0;
            match (o, better_black) {
                (GameOutcome::Draw, _) => {
                    draws += 1;
                    points += 0.5
                }
                (GameOutcome::BlackWin, true) | (GameOutcome::WhiteWin, false) => {
                    wins += 1;
                    points += 1.0
                }
                _ => {}
            }
        }
        let n = n as f64;
        // Five standard errors: a fixed seed, so never flaky, and a wrong model fails.
        let near = |seen: f64, p: f64| (seen / n - p).abs() < 5.0 * (p * (1.0 - p) / n).sqrt();
        assert!(near(wins as f64, pw), "wins {wins} against {}", pw * n);
        assert!(near(draws as f64, pd), "draws {draws} against {}", pd * n);
        let score = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        assert!((points / n - score).abs() < 5.0 * (0.25 / n).sqrt());
        // The better side wins more than it loses, and scores above 60%.
        assert!(points / n > 0.6);
    }
}
