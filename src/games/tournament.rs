//! Tournaments inside a population: who plays whom from which opening, the games as jobs
//! ([`crate::jobs`]), and per-individual results by colour.
//!
//! Scoring (ours; the original counted +1/-1/0): a win is 2 points, a draw 1, a loss 0.

use crate::game::GameOutcome;
use crate::jobs::{GameJob, Played, Seat, Start};
use crate::matchplay::OpeningBook;
use crate::openings::ballot;
use crate::rng::{ChaCha8Rng, Purpose};
use rand::seq::SliceRandom;
use rand::RngExt;

/// One scheduled game: indices into the population, and the opening (index into the ballot in
/// use; ignored for the start-position book).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pairing {
    /// Index of the individual playing Black.
    pub black: usize,
    /// Index of the individual playing White.
    pub white: usize,
    /// Index of the ballot opening the game starts from.
    pub opening: usize,
}

/// The schedule for one generation. `games_per_individual == 0`: every individual against every
/// other, twice with colours swapped, both games of a pair from the same opening drawn by `rng`.
/// Otherwise the original tool's neighbour scheme (each plays n/2 neighbours twice): the
/// population is shuffled into a ring and each individual meets its `n/4` nearest neighbours on
/// each side, twice each, so exactly `n` games each (sessions ask for a multiple of 4).
pub fn schedule(
    population: usize,
    games_per_individual: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Pairing> {
    let n_openings = ballot().len();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    if games_per_individual == 0 || games_per_individual >= 2 * (population.saturating_sub(1)) {
        for i in 0..population {
            for j in i + 1..population {
                pairs.push((i, j));
            }
        }
    } else {
        let mut ring: Vec<usize> = (0..population).collect();
        ring.shuffle(rng);
        let reach = (games_per_individual / 4).max(1).min(population / 2);
        for k in 0..population {
            for d in 1..=reach {
                let other = (k + d) % population;
                // With an even ring and reach = population/2 the opposite pair comes up twice.
                if 2 * d == population && k >= population / 2 {
                    continue;
                }
                pairs.push((ring[k], ring[other]));
            }
        }
    }
    let mut out = Vec::with_capacity(pairs.len() * 2);
    for (a, b) in pairs {
        both_colours(a, b, rng.random_range(0..n_openings), &mut out);
    }
    out
}

/// `a` and `b` play twice from `opening`, `a` Black first.
fn both_colours(a: usize, b: usize, opening: usize, out: &mut Vec<Pairing>) {
    out.push(Pairing {
        black: a,
        white: b,
        opening,
    });
    out.push(Pairing {
        black: b,
        white: a,
        opening,
    });
}

/// The schedule of mirrored pairs (`--selection mean`): individuals `2j` and `2j + 1` play each
/// other `games` times (0: twice; an odd count is rounded up), each two games from one opening
/// drawn by `rng` with the colours swapped; no one else.
pub fn pair_schedule(population: usize, games: usize, rng: &mut ChaCha8Rng) -> Vec<Pairing> {
    let n_openings = ballot().len();
    let rounds = games.max(2).div_ceil(2);
    let mut out = Vec::with_capacity(population / 2 * rounds * 2);
    for j in 0..population / 2 {
        let (a, b) = (2 * j, 2 * j + 1);
        for _ in 0..rounds {
            both_colours(a, b, rng.random_range(0..n_openings), &mut out);
        }
    }
    out
}

/// The result of one tournament game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    /// Who played whom, from which opening.
    pub pairing: Pairing,
    /// How the game ended.
    pub outcome: GameOutcome,
    /// Its length in plies.
    pub plies: u32,
}

/// An individual's results in one tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    /// 2 per win, 1 per draw.
    pub points: u32,
    /// Games won with Black.
    pub wins_black: u32,
    /// Games drawn with Black.
    pub draws_black: u32,
    /// Games lost with Black.
    pub losses_black: u32,
    /// Games won with White.
    pub wins_white: u32,
    /// Games drawn with White.
    pub draws_white: u32,
    /// Games lost with White.
    pub losses_white: u32,
}

impl Standing {
    /// Games played, summed in 64 bits (six `u32` counts cannot overflow it, whatever a
    /// checkpoint holds).
    pub fn games(&self) -> u64 {
        [
            self.wins_black,
            self.draws_black,
            self.losses_black,
            self.wins_white,
            self.draws_white,
            self.losses_white,
        ]
        .iter()
        .map(|&c| c as u64)
        .sum()
    }
}

/// The schedule's games as jobs of a batch whose sides are the tournament's players (population
/// indices): game `k` uses the generator derived from `(seed, Game, generation, k)`.
pub fn jobs(schedule: &[Pairing], book: OpeningBook, generation: u64) -> Vec<GameJob> {
    schedule
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let start = match book {
                OpeningBook::Ballot => Start::Ballot(p.opening as u32),
                OpeningBook::Start => Start::Initial,
            };
            GameJob::new(
                Seat::new(p.black),
                Seat::new(p.white),
                start,
                Purpose::Game,
                generation,
                k as u64,
            )
        })
        .collect()
}

/// A game's result for its pairing.
pub fn result(pairing: &Pairing, played: &Played) -> GameResult {
    GameResult {
        pairing: *pairing,
        outcome: played.outcome(),
        plies: played.plies,
    }
}

/// Totals per individual from a tournament's results.
pub fn standings(population: usize, results: &[GameResult]) -> Vec<Standing> {
    let mut s = vec![Standing::default(); population];
    for r in results {
        let (b, w) = (r.pairing.black, r.pairing.white);
        match r.outcome {
            GameOutcome::BlackWin => {
                s[b].wins_black += 1;
                s[b].points += 2;
                s[w].losses_white += 1;
            }
            GameOutcome::WhiteWin => {
                s[w].wins_white += 1;
                s[w].points += 2;
                s[b].losses_black += 1;
            }
            GameOutcome::Draw => {
                s[b].draws_black += 1;
                s[b].points += 1;
                s[w].draws_white += 1;
                s[w].points += 1;
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn all_vs_all_pairs_everyone_twice_with_colours_swapped() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let s = schedule(8, 0, &mut rng);
        assert_eq!(s.len(), 8 * 7);
        for i in 0..8 {
            for j in 0..8 {
                if i != j {
                    let n = s.iter().filter(|p| p.black == i && p.white == j).count();
                    assert_eq!(n, 1, "{i} v {j}");
                }
            }
        }
        for pair in s.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
        }
    }

    #[test]
    fn neighbour_scheme_gives_each_the_asked_number_of_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let s = schedule(16, 8, &mut rng);
        for i in 0..16 {
            let n = s.iter().filter(|p| p.black == i || p.white == i).count();
            assert_eq!(n, 8, "individual {i}");
        }
    }

    #[test]
    fn standings_count_points_by_colour() {
        let p = |b, w| Pairing {
            black: b,
            white: w,
            opening: 0,
        };
        let r = [
            GameResult {
                pairing: p(0, 1),
                outcome: GameOutcome::BlackWin,
                plies: 10,
            },
            GameResult {
                pairing: p(1, 0),
                outcome: GameOutcome::Draw,
                plies: 10,
            },
        ];
        let s = standings(2, &r);
        assert_eq!(s[0].points, 3);
        assert_eq!(s[1].points, 1);
        assert_eq!(s[0].wins_black, 1);
        assert_eq!(s[0].draws_white, 1);
        assert_eq!(s[1].losses_white, 1);
        assert_eq!(s[1].draws_black, 1);
    }
}
