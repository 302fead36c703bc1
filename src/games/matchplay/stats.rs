//! The statistics of a match: W/D/L, the pentanomial counts of the game pairs, Elo with its
//! interval and likelihood of superiority, and the sequential probability ratio test.

/// Totals for engine A (also stored in checkpoints: a session's yardstick measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Wdl {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl Wdl {
    /// Games played, summed in 64 bits (three `u32` counts cannot overflow it).
    pub fn games(&self) -> u64 {
        self.wins as u64 + self.draws as u64 + self.losses as u64
    }
    /// Points with 1 for a win and 1/2 for a draw.
    pub fn score(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
    /// Counts one game of `half_points` (2 win, 1 draw, 0 loss).
    pub fn add(&mut self, half_points: usize) {
        match half_points {
            2 => self.wins += 1,
            0 => self.losses += 1,
            _ => self.draws += 1,
        }
    }
}

impl std::fmt::Display for Wdl {
    /// `w/d/l`, the form every command prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}", self.wins, self.draws, self.losses)
    }
}

/// The results of the colour-swapped game pairs: how many pairs scored 0, 1/2, 1, 3/2 and 2
/// points for A (a pair of two draws and a pair of a win and a loss both score 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// The number of pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }
    /// Counts one pair of `half_points` (0..=4) for A.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }
}

impl std::fmt::Display for Pentanomial {
    /// `a, b, c, d, e`, the pairs scoring 0, 0.5, 1, 1.5 and 2.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "{a}, {b}, {c}, {d}, {e}")
    }
}

/// A sequential probability ratio test of H0: "A is `elo0` stronger than B" against H1: "A is
/// `elo1` stronger" (logistic Elo), with error rates `alpha` (accepting H1 when H0 holds) and
/// `beta` (accepting H0 when H1 holds). The log-likelihood ratio is the generalised SPRT on the
/// pentanomial counts of the game pairs, as the chess testing tools fastchess and OpenBench
/// compute it: the likelihood of the observed pair results under the most likely pentanomial
/// distribution whose expected score is that of `elo1`, over the same for `elo0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The decision of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The log-likelihood ratio fell to the lower bound: A is not `elo1` stronger.
    H0,
    /// The log-likelihood ratio rose to the upper bound: A is not only `elo0` stronger.
    H1,
}

impl Sprt {
    /// Checks the settings: `elo0 < elo1`, both within +/-1000, `alpha` and `beta` in (0, 1)
    /// with `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        Sprt::checked(elo0, elo1, alpha, beta).map_err(SprtError)
    }

    fn checked(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let in_range = |e: f64| e.is_finite() && e.abs() <= 1000.0;
        if !in_range(elo0) || !in_range(elo1) {
            return Err(format!(
                "elo0 {elo0} and elo1 {elo1} must be within -1000..1000"
            ));
        }
        if elo0 >= elo1 {
            return Err(format!("elo0 {elo0} must be below elo1 {elo1}"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(format!("{name} {v} must be between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!("alpha + beta ({}) must be below 1", alpha + beta));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for pair results `p` (0 with no pair). A count
    /// of zero is taken as 0.001, as fastchess does, so no outcome is impossible.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts = p.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / total);
        let p0 = most_likely_with_mean(&freq, logistic_score(self.elo0));
        let p1 = most_likely_with_mean(&freq, logistic_score(self.elo1));
        total
            * (0..5)
                .map(|i| freq[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    /// H0 or H1 once `llr` reaches a bound, None before.
    pub fn verdict(&self, llr: f64) -> Option<SprtVerdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtVerdict::H1)
        } else if llr <= lower {
            Some(SprtVerdict::H0)
        } else {
            None
        }
    }
}

/// SPRT settings out of range, or text that is not `elo0,elo1[,alpha,beta]`: one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SprtError(pub String);

impl std::str::FromStr for Sprt {
    type Err = SprtError;
    /// `elo0,elo1` or `elo0,elo1,alpha,beta` (alpha and beta default to 0.05).
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() != 2 && parts.len() != 4 {
            return Err(SprtError(format!(
                "'{s}' must be elo0,elo1 or elo0,elo1,alpha,beta (e.g. 0,10 or 0,10,0.05,0.05)"
            )));
        }
        let mut v = [0.0, 0.0, 0.05, 0.05];
        for (x, t) in v.iter_mut().zip(&parts) {
            *x = t
                .parse::<f64>()
                .map_err(|_| SprtError(format!("'{t}' in '{s}' is not a number")))?;
        }
        Sprt::new(v[0], v[1], v[2], v[3])
    }
}

/// The expected score (0..1) of a side `elo` logistic Elo stronger: 1 / (1 + 10^(-elo/400)).
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The pair scores of the pentanomial classes, as a fraction of the pair's 2 points.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution over the five pair scores that maximises the likelihood of the observed
/// frequencies `freq` (all positive) among those whose expected score is `s` (0 < s < 1):
/// p_i = freq_i / (1 + theta (a_i - s)), with theta the root of
/// sum freq_i (a_i - s) / (1 + theta (a_i - s)) = 0 (M. Van den Bergh, "Comments on normalized
/// Elo", proposition 1.1). The sum falls as theta rises, from +inf at -1/(1 - s) to -inf at 1/s,
/// so bisection finds the root; 200 halvings reach the limit of f64.
fn most_likely_with_mean(freq: &[f64; 5], s: f64) -> [f64; 5] {
    let f = |theta: f64| -> f64 {
        (0..5)
            .map(|i| {
                let d = PAIR_SCORES[i] - s;
                freq[i] * d / (1.0 + theta * d)
            })
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let mut p = [0.0; 5];
    for i in 0..5 {
        p[i] = freq[i] / (1.0 + theta * (PAIR_SCORES[i] - s));
    }
    p
}

/// An Elo estimate with its 95% margin and the likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// Elo difference (infinite when one side scored everything).
    pub diff: f64,
    /// Half-width of the 95% interval.
    pub margin: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
    /// Ends of the 95% interval, Elo(mu - 1.96 sigma) and Elo(mu + 1.96 sigma): they stay
    /// finite on the side away from a perfect score when the margin itself is infinite.
    pub low: f64,
    /// The upper end of the 95% interval (see `low`).
    pub high: f64,
}

fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Elo difference: mu = (W + D/2)/n, sigma from the trinomial variance,
/// margin = (Elo(mu + 1.96 sigma) - Elo(mu - 1.96 sigma)) / 2.
pub fn elo(w: &Wdl) -> Elo {
    let n = w.games() as f64;
    if n == 0.0 {
        return Elo {
            diff: 0.0,
            margin: f64::INFINITY,
            los: 0.5,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let (wn, ln, dn) = (w.wins as f64, w.losses as f64, w.draws as f64);
    let mu = (wn + dn / 2.0) / n;
    let var = (wn * (1.0 - mu).powi(2) + ln * mu.powi(2) + dn * (0.5 - mu).powi(2)) / n;
    let sigma = var.sqrt() / n.sqrt();
    let diff = elo_of(mu);
    let (low, high) = (elo_of(mu - 1.96 * sigma), elo_of(mu + 1.96 * sigma));
    // With a perfect score both ends are the same infinity: the margin is unbounded, not NaN.
    let margin = match (high - low) / 2.0 {
        m if m.is_nan() => f64::INFINITY,
        m => m,
    };
    let los = if wn + ln == 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((wn - ln) / (2.0 * (wn + ln)).sqrt()))
    };
    Elo {
        diff,
        margin,
        los,
        low,
        high,
    }
}

/// The error function, from a Chebyshev fit of erfc with fractional error below 1.2e-7.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - r
    } else {
        r - 1.0
    }
}

/// An Elo figure with one decimal, `inf` or `-inf` ([`crate::text::EloFigure`]); a value that
/// rounds to zero is `0.0`, never `-0.0`.
pub fn elo_number(v: f64) -> String {
    format!("{:.1}", crate::text::EloFigure(v))
}

impl std::fmt::Display for Elo {
    /// `X +/- Y, LOS: Z %`, with `inf` where a side scored everything.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} +/- {}, LOS: {:.1} %",
            elo_number(self.diff),
            elo_number(self.margin),
            self.los * 100.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive, Purpose};

    #[test]
    fn elo_of_even_score_is_zero() {
        let e = elo(&Wdl {
            wins: 10,
            draws: 10,
            losses: 10,
        });
        assert!(e.diff.abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-6);
        assert!(e.margin > 0.0 && e.margin.is_finite());
    }

    #[test]
    fn elo_matches_hand_computation() {
        // W=60 L=20 D=20: mu = 0.7, Elo = -400 log10(1/0.7 - 1) = 147.19.
        let e = elo(&Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        });
        assert!((e.diff - 147.19).abs() < 0.01, "{}", e.diff);
        // sigma = sqrt((60*.09 + 20*.49 + 20*.04)/100)/10 = sqrt(0.16)/10 = 0.04
        let m = (elo_of(0.7 + 1.96 * 0.04) - elo_of(0.7 - 1.96 * 0.04)) / 2.0;
        assert!((e.margin - m).abs() < 1e-9);
        assert!(e.los > 0.99);
    }

    #[test]
    fn an_even_score_is_zero_elo_without_a_sign() {
        let e = elo(&Wdl {
            wins: 3,
            draws: 4,
            losses: 3,
        });
        assert!(e.to_string().starts_with("0.0 +/- "), "{e}");
        assert_eq!(elo_number(-0.04), "0.0");
    }

    #[test]
    fn erf_known_values() {
        assert!((erf(0.0)).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-2.0) + 0.995_322_27).abs() < 1e-6);
    }

    #[test]
    fn near_perfect_score_keeps_a_finite_lower_end() {
        let e = elo(&Wdl {
            wins: 310,
            draws: 2,
            losses: 0,
        });
        assert!(e.margin.is_infinite());
        assert!(e.low.is_finite() && e.low > 800.0, "{}", e.low);
        assert!(e.high.is_infinite());
    }

    #[test]
    fn all_losses_have_an_unbounded_margin() {
        let e = elo(&Wdl {
            wins: 0,
            draws: 0,
            losses: 312,
        });
        assert_eq!(e.diff, f64::NEG_INFINITY);
        assert_eq!(e.margin, f64::INFINITY);
        assert_eq!(e.to_string(), "-inf +/- inf, LOS: 0.0 %");
    }

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05).unwrap()
    }

    #[test]
    fn sprt_bounds_and_parsing() {
        let (lo, hi) = sprt(0.0, 10.0).bounds();
        assert!((lo + 2.944_439).abs() < 1e-5 && (hi - 2.944_439).abs() < 1e-5);
        assert_eq!("0,10".parse::<Sprt>().unwrap(), sprt(0.0, 10.0));
        let s: Sprt = " -5, 5, 0.1, 0.2".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        for bad in [
            "10",
            "10,0",
            "0,10,0.05",
            "0,x",
            "0,10,0,0.05",
            "0,10,0.6,0.5",
            "0,2000",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
        assert_eq!(sprt(0.0, 10.0).llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn most_likely_distribution_has_the_asked_mean() {
        let freq = [0.1, 0.2, 0.3, 0.25, 0.15];
        for s in [0.2, 0.5, 0.557, 0.9] {
            let p = most_likely_with_mean(&freq, s);
            let sum: f64 = p.iter().sum();
            let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{s}: {p:?}");
            assert!((mean - s).abs() < 1e-9, "{s}: {p:?}");
        }
        // The observed mean: the observed frequencies themselves.
        let mean: f64 = (0..5).map(|i| freq[i] * PAIR_SCORES[i]).sum();
        let p = most_likely_with_mean(&freq, mean);
        assert!((0..5).all(|i| (p[i] - freq[i]).abs() < 1e-9), "{p:?}");
    }

    #[test]
    fn llr_is_antisymmetric_under_mirroring() {
        // The pairs seen from B, with the hypotheses mirrored, give the opposite ratio.
        let p = Pentanomial([3, 10, 25, 14, 6]);
        let mut m = p.0;
        m.reverse();
        let a = sprt(-5.0, 20.0).llr(&p);
        let b = sprt(-20.0, 5.0).llr(&Pentanomial(m));
        assert!((a + b).abs() < 1e-9, "{a} {b}");
    }

    #[test]
    fn llr_agrees_with_the_normal_approximation_for_close_hypotheses() {
        // For elo0 and elo1 close together the GSPRT is N (s1 - s0)(2 s - s0 - s1) / (2 var),
        // s and var the mean and variance of a pair's score (as a fraction of 2 points).
        let p = Pentanomial([900, 2400, 3500, 2500, 1000]);
        let n = p.pairs() as f64;
        let s = (0..5).map(|i| p.0[i] as f64 * PAIR_SCORES[i]).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| p.0[i] as f64 * (PAIR_SCORES[i] - s).powi(2))
            .sum::<f64>()
            / n;
        let t = sprt(0.0, 5.0);
        let (s0, s1) = (logistic_score(0.0), logistic_score(5.0));
        let approx = n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
        let exact = t.llr(&p);
        assert!(approx > 1.0, "{approx}");
        assert!((exact - approx).abs() < 0.01 * approx, "{exact} {approx}");
    }

    /// Pair results drawn from a game distribution of win and draw chances: the two games of a
    /// pair independent.
    fn pair_sampler(win: f64, draw: f64) -> impl FnMut(&mut crate::rng::ChaCha8Rng) -> usize {
        use rand::RngExt;
        move |rng| {
            let mut hp = 0;
            for _ in 0..2 {
                let x: f64 = rng.random();
                hp += if x < win {
                    2
                } else if x < win + draw {
                    1
                } else {
                    0
                };
            }
            hp
        }
    }

    /// Runs an SPRT to a verdict or `max_pairs` for each of `runs` seeds; returns the counts of
    /// H0, H1 and undecided.
    fn simulate(t: &Sprt, win: f64, draw: f64, runs: u64, max_pairs: u32) -> [u32; 3] {
        let mut counts = [0; 3];
        let mut sample = pair_sampler(win, draw);
        for seed in 0..runs {
            let mut rng = derive(seed, Purpose::Game, 42, 0);
            let mut p = Pentanomial::default();
            let mut verdict = None;
            while verdict.is_none() && p.pairs() < max_pairs {
                p.add(sample(&mut rng));
                verdict = t.verdict(t.llr(&p));
            }
            counts[match verdict {
                Some(SprtVerdict::H0) => 0,
                Some(SprtVerdict::H1) => 1,
                None => 2,
            }] += 1;
        }
        counts
    }

    #[test]
    fn sprt_error_rates_stay_within_alpha_and_beta() {
        // 200 seeded runs under each hypothesis (draw rate 0.4, elo0 0, elo1 40): the wrong
        // verdict may come at most alpha (beta) of the time, plus three standard deviations of
        // a binomial count (10 + 9).
        let t = sprt(0.0, 40.0);
        let runs = 200;
        let slack = 3.0 * (runs as f64 * 0.05 * 0.95).sqrt();
        let limit = (runs as f64 * 0.05 + slack) as u32;
        // H0 true: equal strength.
        let [h0, h1, open] = simulate(&t, 0.3, 0.4, runs, 2000);
        assert!(h1 <= limit, "H1 accepted {h1} times out of {runs} under H0");
        assert!(
            h0 >= runs as u32 - limit - open && open <= 2,
            "{h0} {h1} {open}"
        );
        // H1 true: the score of +40 Elo.
        let w = logistic_score(40.0) - 0.2;
        let [h0, h1, open] = simulate(&t, w, 0.4, runs, 2000);
        assert!(h0 <= limit, "H0 accepted {h0} times out of {runs} under H1");
        assert!(
            h1 >= runs as u32 - limit - open && open <= 2,
            "{h0} {h1} {open}"
        );
    }

    #[test]
    fn all_wins_is_infinite_not_a_panic() {
        let e = elo(&Wdl {
            wins: 5,
            draws: 0,
            losses: 0,
        });
        assert!(e.diff.is_infinite());
        assert!(e.to_string().starts_with("inf"));
    }
}
