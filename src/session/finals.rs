//! The finals: a round robin among a session's past bests ([`FinalsPlan`]: which, how they
//! play, where the winner goes).

use super::best::{write_answer_file, AnswerFileError};
use super::past::PastBests;
use crate::eval::Weights;
use crate::ga::GaState;
use crate::genome::EngineSpec;
use crate::matchplay::MatchSettings;
use crate::search::{DepthError, SearchConfig};
use crate::weightfile::Origin;
use std::path::{Path, PathBuf};

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
    /// the engine's games, the engine asked for `depth` too.
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
        settings.engine = session.settings.engine.clone().map(|mut e| {
            e.engine.depth = Some(depth);
            e
        });
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

impl PastBests {
    /// The finals: every two distinct bests play a match of `settings` (both searching with
    /// `config`), a round robin. The same games at any thread count. `on_game` is called after
    /// every game.
    pub fn finals(
        &self,
        config: crate::search::SearchConfig,
        settings: &crate::matchplay::MatchSettings,
        on_game: &(dyn Fn(&crate::matchplay::MatchGame) + Sync),
    ) -> Finals {
        let entrants: Vec<Entrant> = self
            .distinct
            .iter()
            .map(|w| {
                let gens = self.chosen.iter().filter(|(_, x)| x == w).map(|(g, _)| *g);
                Entrant {
                    first: gens.clone().min().unwrap_or(0),
                    last: gens.max().unwrap_or(0),
                    weights: *w,
                    points: 0,
                    games: 0,
                }
            })
            .collect();
        let mut finals = Finals { entrants };
        let n = finals.entrants.len();
        // Of an outside engine's session, genomes of its engine.
        let engine = |e: &Entrant| {
            crate::matchplay::Contestant::genome_or_ours(
                settings.engine.as_ref(),
                &e.weights,
                format!("best so far of generation {}", e.first),
                config,
            )
        };
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (engine(&finals.entrants[i]), engine(&finals.entrants[j]));
                let (wdl, _) = crate::matchplay::play_match(&a, &b, settings, on_game);
                let games = wdl.wins + wdl.draws + wdl.losses;
                finals.entrants[i].points += 2 * wdl.wins + wdl.draws;
                finals.entrants[j].points += 2 * wdl.losses + wdl.draws;
                finals.entrants[i].games += games;
                finals.entrants[j].games += games;
            }
        }
        finals
    }
}

/// What a session's finals are asked for (`checkers-ga finals`'s flags; the defaults are
/// its).
#[derive(Clone, Debug, PartialEq)]
pub struct FinalsOptions {
    /// How many past bests play: the best so far after this many generations spread evenly
    /// from `from` to the last (the last among them); a best that held over several of them
    /// plays once. At least 2.
    pub entrants: usize,
    /// The entrants come from after this generation.
    pub from: u64,
    /// The search depth of the finals' games.
    pub depth: u32,
    /// The games of each pair: the first `games / 2` ballot openings, each with both colours.
    pub games: usize,
    /// The seed of the games' tie-breaks (None: the session's).
    pub seed: Option<u64>,
    /// Where the winner's weights go (None: [`FINALS_FILE`](crate::FINALS_FILE) in the
    /// session folder).
    pub out: Option<PathBuf>,
}

impl Default for FinalsOptions {
    /// 8 entrants from the whole session, 312 games a pair at depth 6, the session's seed, the
    /// winner to the session folder's `finals.json`.
    fn default() -> FinalsOptions {
        FinalsOptions {
            entrants: 8,
            from: 0,
            depth: 6,
            games: 312,
            seed: None,
            out: None,
        }
    }
}

/// The most entrants finals take (a round robin of that many is 32,640 pairs).
pub const MAX_ENTRANTS: usize = 256;

/// Why a session's finals cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum FinalsError {
    /// Fewer than two entrants asked for, or more than [`MAX_ENTRANTS`].
    #[error("--entrants must be 2..{MAX_ENTRANTS} (a round robin needs two players)")]
    Entrants,
    /// No game a pair.
    #[error("--games must be at least 1")]
    Games,
    /// A depth out of range.
    #[error(transparent)]
    Depth(#[from] DepthError),
    /// A session with no generation to take a best from.
    #[error("session '{name}' ({}) has no generations yet", checkpoint.display())]
    NoGenerations {
        /// The session's name.
        name: String,
        /// Its checkpoint.
        checkpoint: PathBuf,
    },
    /// `from` at or past the session's last generation.
    #[error("--from {from} leaves no generation: session '{name}' stands at {last}")]
    From {
        /// The generation asked for.
        from: u64,
        /// The session's name.
        name: String,
        /// Its last generation.
        last: u64,
    },
    /// No chosen generation's best so far can be told.
    #[error(
        "no best so far of those generations can be told ({left_out} played before checkpoint \
         format 3, and their checkpoints were pruned)"
    )]
    NoBests {
        /// The generations left out.
        left_out: usize,
    },
    /// The winner's file could not be written.
    #[error(transparent)]
    Write(#[from] AnswerFileError),
}

/// The finals of a session, planned: its entrants (past bests), how every pair plays, and
/// where the winner goes. [`FinalsPlan::play`] plays them, [`FinalsPlan::write_winner`]
/// writes the winner's file.
#[derive(Clone, Debug)]
pub struct FinalsPlan {
    /// The session's name.
    pub name: String,
    /// The past bests that play.
    pub past: PastBests,
    /// The generations they come from: after `from`, up to `last`.
    pub from: u64,
    /// See `from`.
    pub last: u64,
    /// The games' depth.
    pub depth: u32,
    /// The seed of their tie-breaks.
    pub seed: u64,
    /// The winner's file.
    pub out: PathBuf,
    config: SearchConfig,
    settings: MatchSettings,
    /// The session's own seed, for the winner's origin.
    session_seed: u64,
    engine: Option<EngineSpec>,
}

impl FinalsPlan {
    /// Checks what `o` asks for alone, before a session is read: two entrants at least, a game
    /// a pair, a depth in range.
    pub fn check(o: &FinalsOptions) -> Result<(), FinalsError> {
        if !(2..=MAX_ENTRANTS).contains(&o.entrants) {
            return Err(FinalsError::Entrants);
        }
        if o.games == 0 {
            return Err(FinalsError::Games);
        }
        crate::search::check_depth(o.depth, "--depth")?;
        Ok(())
    }

    /// The finals of `session` (read from `checkpoint`, in its folder) as `o` asks.
    pub fn new(
        session: &GaState,
        checkpoint: &Path,
        o: &FinalsOptions,
    ) -> Result<FinalsPlan, FinalsError> {
        FinalsPlan::check(o)?;
        let name = session.name.clone();
        let Some(last) = session.history.last().map(|h| h.generation) else {
            let checkpoint = checkpoint.to_path_buf();
            return Err(FinalsError::NoGenerations { name, checkpoint });
        };
        if o.from >= last {
            let from = o.from;
            return Err(FinalsError::From { from, name, last });
        }
        let dir = crate::files::folder_of(checkpoint);
        let past = PastBests::spread(session, &dir, o.entrants, o.from);
        if past.distinct.is_empty() {
            let left_out = past.left_out;
            return Err(FinalsError::NoBests { left_out });
        }
        let seed = o.seed.unwrap_or(session.settings.seed);
        let (config, settings) = Finals::match_settings(session, o.depth, o.games, seed);
        Ok(FinalsPlan {
            name,
            past,
            from: o.from,
            last,
            depth: o.depth,
            seed,
            out: (o.out.clone()).unwrap_or_else(|| dir.join(super::FINALS_FILE)),
            config,
            settings,
            session_seed: session.settings.seed,
            engine: session.settings.engine.clone(),
        })
    }

    /// The games of each pair (the ballot's openings, both colours).
    pub fn per_pair(&self) -> usize {
        self.settings.games()
    }

    /// The games of the whole round robin.
    pub fn games(&self) -> u64 {
        let n = self.past.distinct.len() as u64;
        n * n.saturating_sub(1) / 2 * self.per_pair() as u64
    }

    /// Plays the finals (the same games at any thread count); `on_game` hears each game.
    pub fn play(&self, on_game: &(dyn Fn(&crate::matchplay::MatchGame) + Sync)) -> Finals {
        self.past.finals(self.config, &self.settings, on_game)
    }

    /// Writes the winner of `finals` (played by this plan) to [`FinalsPlan::out`], with its
    /// origin (the session, its seed, the generation it was first the best after) and what
    /// the finals played; the winner (None: no entrants, nothing written).
    pub fn write_winner<'f>(&self, finals: &'f Finals) -> Result<Option<&'f Entrant>, FinalsError> {
        let Some(w) = finals.winner() else {
            return Ok(None);
        };
        let origin = Origin {
            session: self.name.clone(),
            seed: self.session_seed,
            generation: w.first,
        };
        let comment = format!(
            "the winner of the finals of session '{}': {} bests so far after generations \
             {}..{}, {} games a pair at depth {}, seed {}",
            self.name,
            self.past.distinct.len(),
            self.from + 1,
            self.last,
            self.per_pair(),
            self.depth,
            self.seed
        );
        let engine = self.engine.as_ref();
        write_answer_file(&self.out, engine, &w.weights, Some(&origin), Some(&comment))?;
        Ok(Some(w))
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

    /// The finals of an outside engine's session ask the engine for the finals' depth, not the
    /// session's.
    #[test]
    fn an_engines_finals_play_at_the_finals_depth() {
        let spec = crate::EngineSpec::simulated(&crate::SimModel::new(4, 1), 2);
        let new = crate::NewSession {
            engine: Some(spec),
            ..crate::NewSession::default()
        };
        let session = GaState::new("e", new.settings_with(1).unwrap());
        let (config, settings) = Finals::match_settings(&session, 6, 4, 1);
        assert_eq!(config.depth, 6);
        assert_eq!(settings.engine.map(|e| e.depth()), Some(6));
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
