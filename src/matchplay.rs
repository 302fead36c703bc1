//! Matches between two engines over an opening book, and the Elo arithmetic engine testers use.

use crate::board::Position;
use crate::game::{DrawRules, Game, Outcome, PdnTags};
use crate::openings::ballot;
use crate::rng::{derive, Purpose};
use crate::search::{SearchConfig, Searcher};
use crate::yardstick::Evaluator;
use rayon::prelude::*;

/// A player for a match: an evaluator (weights or a yardstick) and search settings, with a
/// name for reports.
#[derive(Clone, Debug)]
pub struct Engine {
    pub name: String,
    pub eval: Evaluator,
    pub config: SearchConfig,
}

/// Where games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OpeningBook {
    /// The 156 ballot openings in use, each played twice with colours swapped.
    Ballot,
    /// The start position.
    Start,
}

impl std::str::FromStr for OpeningBook {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ballot" => Ok(OpeningBook::Ballot),
            "start" => Ok(OpeningBook::Start),
            _ => Err(format!(
                "unknown opening book '{s}' (expected ballot or start)"
            )),
        }
    }
}

/// The start positions (with the moves that lead there) for `pairs` game pairs from a book.
/// Ballot: the first `pairs` openings in ballot order (all 156 when `pairs` is None).
pub fn start_positions(
    book: OpeningBook,
    pairs: Option<usize>,
) -> Vec<(Position, Vec<crate::Move>)> {
    match book {
        OpeningBook::Ballot => {
            let b = ballot();
            let n = pairs.unwrap_or(b.len()).min(b.len());
            b[..n]
                .iter()
                .map(|o| (o.position, o.moves.clone()))
                .collect()
        }
        OpeningBook::Start => vec![(Position::start(), Vec::new()); pairs.unwrap_or(1)],
    }
}

/// One finished game of a match, from A's point of view.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index of the game in the match (pair index * 2 + 0 when A has Black, + 1 when White).
    pub index: usize,
    pub a_is_black: bool,
    pub game: Game,
}

impl MatchGame {
    /// 1.0 win, 0.5 draw, 0.0 loss, for engine A.
    pub fn score_for_a(&self) -> f64 {
        match (self.game.result().map(|r| r.0), self.a_is_black) {
            (Some(Outcome::BlackWin), true) | (Some(Outcome::WhiteWin), false) => 1.0,
            (Some(Outcome::Draw), _) | (None, _) => 0.5,
            _ => 0.0,
        }
    }
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub book: OpeningBook,
    /// Number of game pairs (None: the whole ballot, or one pair from the start position).
    pub pairs: Option<usize>,
    pub seed: u64,
    pub rules: DrawRules,
}

/// Totals for engine A (also stored in checkpoints: a session's yardstick measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
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
}

/// Plays the match on the current rayon pool; `on_game` is called as each game finishes.
/// Every game's generator is derived from (seed, game index), so the result does not depend on
/// the number of threads.
pub fn play_match(
    a: &Engine,
    b: &Engine,
    settings: &MatchSettings,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> (Wdl, Vec<MatchGame>) {
    let starts = start_positions(settings.book, settings.pairs);
    let jobs: Vec<usize> = (0..starts.len() * 2).collect();
    let mut games: Vec<MatchGame> = jobs
        .par_iter()
        .map(|&i| {
            let (pos, opening_moves) = &starts[i / 2];
            let a_is_black = i % 2 == 0;
            let mut game = Game::new(Position::start(), settings.rules);
            if opening_moves.is_empty() && *pos != Position::start() {
                game = Game::new(*pos, settings.rules);
            }
            for m in opening_moves {
                game.play(*m);
            }
            let mut sa = Searcher::new(a.eval, a.config);
            let mut sb = Searcher::new(b.eval, b.config);
            let mut rng = derive(settings.seed, Purpose::Game, 0, i as u64);
            if a_is_black {
                game.play_out(&mut sa, &mut sb, &mut rng);
            } else {
                game.play_out(&mut sb, &mut sa, &mut rng);
            }
            let g = MatchGame {
                index: i,
                a_is_black,
                game,
            };
            on_game(&g);
            g
        })
        .collect();
    games.sort_by_key(|g| g.index);
    let mut wdl = Wdl::default();
    for g in &games {
        let s = g.score_for_a();
        if s == 1.0 {
            wdl.wins += 1;
        } else if s == 0.0 {
            wdl.losses += 1;
        } else {
            wdl.draws += 1;
        }
    }
    (wdl, games)
}

/// The match's games as one PDN text.
pub fn match_pdn(a: &Engine, b: &Engine, games: &[MatchGame]) -> String {
    let mut out = String::new();
    for g in games {
        let (black, white) = if g.a_is_black {
            (&a.name, &b.name)
        } else {
            (&b.name, &a.name)
        };
        let tags = PdnTags {
            event: format!("checkers-ga match, game {}", g.index + 1),
            black: black.clone(),
            white: white.clone(),
        };
        out += &g.game.to_pdn(&tags);
        out.push('\n');
    }
    out
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

/// An Elo figure with one decimal, `inf` or `-inf`.
pub fn elo_number(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else if v > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
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
