//! The games of a generation beyond its tournament: the endgame games, the duel of its best
//! against the best so far, and the measurement of the best so far against the yardstick.

use super::settings::Settings;
use crate::board::{Color, Position};
use crate::eval::Weights;
use crate::jobs::{GameJob, Seat, Start};
use crate::matchplay::{Contestant, GameKeys, MatchRun, MatchSettings, OpeningBook, OurEngine};
use crate::movegen::has_capture;
use crate::openings::ballot;
use crate::openings::StartPosition;
use crate::rng::{derive, Purpose};
use crate::tournament;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

/// The duel of a generation's best against the best so far
/// ([`GaOptions::duel_games`](crate::ga::GaOptions::duel_games) games, colours swapped).
/// All zero and not replaced: the generation's best was the best so far itself, and no duel
/// was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    /// Points of the generation's best (2 win, 1 draw), out of 2 * duel games.
    pub challenger: u32,
    /// Points of the best so far, out of 2 * duel games.
    pub holder: u32,
    /// Did the generation's best become the best so far?
    pub replaced: bool,
}

impl Duel {
    /// The record of a generation whose best was the best so far itself (no duel played).
    pub const SAME: Duel = Duel {
        challenger: 0,
        holder: 0,
        replaced: false,
    };

    /// Was the generation's best the best so far itself?
    pub fn is_same(&self) -> bool {
        *self == Duel::SAME
    }
}

/// A kings-only ending the stronger side wins with good play: 2 kings against 1 (two times in
/// three) or 3 against 1, on squares drawn by `rng`, the stronger side and the side to move drawn
/// too; redrawn until neither side can capture at once.
pub fn endgame_position<R: Rng + ?Sized>(rng: &mut R) -> Position {
    const KINDS: [(u32, u32); 3] = [(2, 1), (2, 1), (3, 1)];
    loop {
        let (strong, weak) = KINDS[rng.random_range(0..KINDS.len())];
        let mut squares: Vec<u32> = (0..32).collect();
        squares.shuffle(rng);
        let bits = |v: &[u32]| v.iter().fold(0u32, |b, &q| b | (1 << q));
        let a = bits(&squares[..strong as usize]);
        let b = bits(&squares[strong as usize..(strong + weak) as usize]);
        let (black, white) = if rng.random_bool(0.5) { (a, b) } else { (b, a) };
        let side = if rng.random_bool(0.5) {
            Color::Black
        } else {
            Color::White
        };
        let pos = Position::from_parts(black, white, black | white, side);
        if !has_capture(&pos) && !has_capture(&pos.with_side(side.opposite())) {
            return pos;
        }
    }
}

/// The generation's endgame games ([`GaOptions::endgame_pairs`]): individual `i` meets its next
/// `endgame_pairs` ring neighbours from an ending drawn for the pair, both sides. The pairings
/// have `opening` set to `usize::MAX`.
pub(super) fn endgame_pairings(
    pop: &[Weights],
    s: &Settings,
    g: u64,
) -> Vec<(tournament::Pairing, Position)> {
    let n = pop.len();
    let e = s.ga.endgame_pairs as usize;
    if e == 0 || n < 2 {
        return Vec::new();
    }
    let mut rng = derive(s.seed, Purpose::Pairing, g, 1);
    let mut out = Vec::with_capacity(2 * n * e);
    let pairing = |black, white| tournament::Pairing {
        black,
        white,
        opening: usize::MAX,
    };
    for i in 0..n {
        for k in 1..=e {
            let j = (i + k) % n;
            let pos = endgame_position(&mut rng);
            out.push((pairing(i, j), pos));
            out.push((pairing(j, i), pos));
        }
    }
    out
}

/// The endgame games as jobs: game `k` uses the generator of (seed, generation, 2^40 + k).
pub(super) fn endgame_jobs(games: &[(tournament::Pairing, Position)], g: u64) -> Vec<GameJob> {
    games
        .iter()
        .enumerate()
        .map(|(k, (p, pos))| {
            GameJob::new(
                Seat::new(p.black),
                Seat::new(p.white),
                Start::of(pos),
                Purpose::Game,
                g,
                (1 << 40) + k as u64,
            )
        })
        .collect()
}

/// The match of generation `g`'s yardstick measurement: the best so far `best` (A) against the
/// yardstick, both at the session's depth, over the first `measure_games / 2` ballot openings
/// with the generation's seed. Of an outside engine's session, both are genomes of its engine
/// (the yardstick its declared values) in a match of that engine. Playing it again gives the
/// same games (the HTML report replays one of them).
pub fn measure_match(
    best: &Weights,
    s: &Settings,
    g: u64,
) -> (Contestant, Contestant, MatchSettings) {
    let a = contestant("best so far", best, s);
    let b = match &s.engine {
        Some(e) => Contestant::Genome {
            name: s.yardstick_name(),
            w: e.defaults(),
        },
        None => Contestant::Ours(OurEngine {
            name: s.yardstick_name(),
            eval: s.ga.yardstick.evaluator(),
            config: s.search,
        }),
    };
    let settings = MatchSettings {
        book: OpeningBook::Ballot,
        pairs: Some((s.ga.measure_games as usize).div_ceil(2)),
        seed: s.seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        rules: s.rules,
        engine: s.engine.clone(),
    };
    (a, b, settings)
}

/// The match of generation `g`'s duel, the generation's best (A) against the best so far.
/// With `duel_games` 2 (the original): two games, colours swapped, from one ballot opening
/// drawn for the duel, and the challenger takes over if it scores at least as well. With more:
/// `duel_games / 2` distinct ballot openings drawn for the duel, both colours each, and the
/// challenger must score more (a tie keeps the holder). Each game is keyed by the generation.
pub(super) fn duel_run(s: &Settings, g: u64) -> MatchRun<'static> {
    let mut rng = derive(s.seed, Purpose::Duel, g, 0);
    let pairs = (s.ga.duel_games as usize / 2).max(1);
    let openings: Vec<usize> = if pairs == 1 {
        vec![rng.random_range(0..ballot().len())]
    } else {
        let mut all: Vec<usize> = (0..ballot().len()).collect();
        all.shuffle(&mut rng);
        all.into_iter().cycle().take(pairs).collect()
    };
    let mut run = MatchRun::of(&MatchSettings {
        book: OpeningBook::Ballot,
        pairs: Some(0),
        seed: s.seed,
        rules: s.rules,
        engine: s.engine.clone(),
    });
    run.starts = openings
        .iter()
        .map(|&o| StartPosition {
            setup: Position::start(),
            moves: match s.openings {
                OpeningBook::Ballot => ballot()[o].moves.clone(),
                OpeningBook::Start => Vec::new(),
            },
        })
        .collect();
    run.games = 2 * pairs;
    run.keys = GameKeys::Tuning {
        purpose: Purpose::Duel,
        round: g,
        first: 1,
    };
    run
}

/// A genome as a side of the session's own matches: of an outside engine's session a genome of
/// its engine, else our engine with it as its weights, searching as `s` says (the
/// generation's depth) ([`Contestant::genome_or_ours`]).
pub(super) fn contestant(name: &str, w: &Weights, s: &Settings) -> Contestant {
    Contestant::genome_or_ours(s.engine.as_ref(), w, name.into(), s.search)
}
