//! The finals: a round robin among a session's past bests.

use crate::eval::Weights;
use crate::ga::GaState;
use crate::matchplay::MatchSettings;
use crate::search::SearchConfig;

/// One of the finals' players: a past best so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// The first and last generation chosen for the finals that it was the best so far after.
    pub first: u64,
    /// See `first`.
    pub last: u64,
    /// The weights.
    pub weights: Weights,
    /// Half points (2 a win, 1 a draw) over its games.
    pub points: u32,
    /// Games it played in the finals.
    pub games: u32,
}

impl Entrant {
    /// Its score, 0..1.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.points as f64 / (2 * self.games) as f64
        }
    }

    /// The Elo difference its [`score`](Entrant::score) against the field means (logistic:
    /// `-400 log10(1/score - 1)`): infinite at a score of 1 (or 0, negative).
    pub fn elo_vs_field(&self) -> f64 {
        let score = self.score();
        if score >= 1.0 {
            f64::INFINITY
        } else if score <= 0.0 {
            f64::NEG_INFINITY
        } else {
            -400.0 * (1.0 / score - 1.0).log10()
        }
    }
}

/// A round robin among a session's past bests ([`super::PastBests::finals`]), to pick the strongest
/// at a deeper search than the session's: the best so far at the end of a long session is not
/// always its strongest (a tie in the duel keeps the holder).
#[derive(Clone, Debug, PartialEq)]
pub struct Finals {
    /// In the order of their generations.
    pub entrants: Vec<Entrant>,
}

impl Finals {
    /// How the finals of `session` play: its search at `depth`, and a match of `games`
    /// (rounded up to even: the first `games / 2` ballot openings, each with both colours)
    /// under the session's rules with tie-breaks from `seed`; an outside engine's session plays
    /// the engine's games.
    pub fn match_settings(
        session: &GaState,
        depth: u32,
        games: usize,
        seed: u64,
    ) -> (SearchConfig, MatchSettings) {
        let config = SearchConfig {
            depth,
            ..session.settings.search
        };
        let mut settings = MatchSettings::ballot(games, seed, session.settings.rules);
        settings.engine = session.settings.engine.clone();
        (config, settings)
    }

    /// The entrants' indices by points, most first; equal points rank the later best first.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order
            .sort_by_key(|&i| std::cmp::Reverse((self.entrants[i].points, self.entrants[i].first)));
        order
    }

    /// The winner (None without entrants).
    pub fn winner(&self) -> Option<&Entrant> {
        self.ranking().first().map(|&i| &self.entrants[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(points: u32, games: u32) -> Entrant {
        Entrant {
            first: 1,
            last: 1,
            weights: crate::material(),
            points,
            games,
        }
    }

    #[test]
    fn the_elo_against_the_field_is_the_scores() {
        assert_eq!(entrant(4, 4).elo_vs_field(), 0.0);
        assert_eq!(entrant(8, 4).elo_vs_field(), f64::INFINITY);
        assert_eq!(entrant(0, 4).elo_vs_field(), f64::NEG_INFINITY);
        // 75%: 190.8 Elo.
        assert!((entrant(6, 4).elo_vs_field() - 190.85).abs() < 0.01);
        // No game: an even score.
        assert_eq!(entrant(0, 0).elo_vs_field(), 0.0);
    }
}
