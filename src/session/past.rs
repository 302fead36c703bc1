//! The best so far of a session's past generations, measured against a reference (the
//! finals play them against each other: file `finals`).

use crate::eval::Weights;
use crate::ga::GaState;
use crate::genome::EngineSpec;
use crate::matchplay::{Contestant, MatchGame, MatchObserver, MatchResult, MatchRun};
use crate::store;
use std::path::Path;

/// The best so far of past generations of a session, for `history --elo`: every `every`-th
/// generation's, where it can be told (from the history's record of changes, or the session
/// folder's kept checkpoints); or the values of an SPSA session's kept steps
/// ([`PastBests::of_tuner`]).
#[derive(Clone, Debug)]
pub struct PastBests {
    /// (generation, its best so far), oldest first.
    pub chosen: Vec<(u64, Weights)>,
    /// The distinct weight vectors among them, each played once.
    pub distinct: Vec<Weights>,
    /// Generations wanted whose best so far cannot be told (played before checkpoint format 3,
    /// their checkpoints pruned).
    pub left_out: usize,
}

impl PastBests {
    /// The bests of `session` (whose folder is `dir`) every `every` generations.
    pub fn of(session: &GaState, dir: &Path, every: u64) -> PastBests {
        let wanted = crate::summary::elo_generations(&session.history, every);
        PastBests::at(session, dir, &wanted)
    }

    /// The bests of `session` at `count` generations spread evenly after generation `from` up
    /// to the last one (the last among them): for the finals.
    pub fn spread(session: &GaState, dir: &Path, count: usize, from: u64) -> PastBests {
        let h = &session.history;
        let last = h.last().map_or(0, |x| x.generation);
        let from = from.min(last);
        let mut wanted: Vec<usize> = Vec::new();
        for i in 1..=count as u64 {
            let g = from + (last - from) * i / count.max(1) as u64;
            if let Some(at) = h.iter().position(|x| x.generation >= g) {
                if !wanted.contains(&at) {
                    wanted.push(at);
                }
            }
        }
        PastBests::at(session, dir, &wanted)
    }

    /// The answers at the kept steps of a one-file tuner's session (SPSA's θ rounded,
    /// CMA-ES's average of the means: [`crate::store::TunerHistory`]) whose number is a
    /// multiple of `every` (and at the last), each with its step: what `history --elo` plays of
    /// such a session. None is left out.
    pub fn of_tuner(h: &crate::store::TunerHistory, every: u64) -> PastBests {
        let last = h.points.len().saturating_sub(1);
        let chosen: Vec<(u64, Weights)> = h
            .points
            .iter()
            .enumerate()
            .filter(|(i, p)| p.step.is_multiple_of(every) || *i == last)
            .map(|(_, p)| (p.step, p.weights))
            .collect();
        PastBests::distinct_of(chosen, 0)
    }

    /// `chosen`, its distinct weight vectors, and `left_out`.
    fn distinct_of(chosen: Vec<(u64, Weights)>, left_out: usize) -> PastBests {
        let mut distinct: Vec<Weights> = Vec::new();
        for (_, w) in &chosen {
            if !distinct.contains(w) {
                distinct.push(*w);
            }
        }
        PastBests {
            chosen,
            distinct,
            left_out,
        }
    }

    /// The bests of `session` after the generations at the history indices `wanted`.
    fn at(session: &GaState, dir: &Path, wanted: &[usize]) -> PastBests {
        let known = bests_at(session, dir, wanted);
        let chosen: Vec<(u64, Weights)> = wanted
            .iter()
            .filter_map(|&i| known[i].map(|w| (session.history[i].generation, w)))
            .collect();
        let left_out = wanted.len() - chosen.len();
        PastBests::distinct_of(chosen, left_out)
    }

    /// Each distinct best plays `reference` in `run`, as `match` plays a checkpoint of its
    /// generation ([`Contestant::of_genome`] at `depth`: with `engine`, that outside engine
    /// with the values the best stands for); every generation chosen gets its best's result.
    /// `on_game` is called after every game.
    pub fn measure(
        &self,
        engine: Option<&EngineSpec>,
        reference: &Contestant,
        run: &MatchRun,
        depth: u32,
        on_game: &(dyn Fn() + Sync),
    ) -> Vec<(u64, MatchResult)> {
        measure_genomes(&self.chosen, engine, reference, run, depth, on_game)
    }
}

/// The best so far of `session` (whose folder is `dir`) after the generations of its history,
/// for those at the indices `wanted` and those the history tells: from the history's record
/// of its changes, else from the generation's checkpoint.
fn bests_at(session: &GaState, dir: &Path, wanted: &[usize]) -> Vec<Option<Weights>> {
    session.bests_at(wanted, |g| {
        store::load_checkpoint_alone(&store::checkpoint_path(dir, g))
            .ok()
            .and_then(|s| s.best_so_far)
    })
}

/// The answer (the best so far) of `session` (whose folder is `dir`) after every generation
/// of its history, where it can be told: from the history's record of its changes, else from
/// the generation's checkpoint (None when neither has it). What `match` plays for each
/// generation's checkpoint; `history` shows its values in a session of an outside engine.
pub fn answers_by_generation(session: &GaState, dir: &Path) -> Vec<Option<Weights>> {
    let all: Vec<usize> = (0..session.history.len()).collect();
    bests_at(session, dir, &all)
}

/// What hears of each game of a measurement.
struct EachGame<'f>(&'f (dyn Fn() + Sync));

impl MatchObserver for EachGame<'_> {
    type Error = std::convert::Infallible;
    fn game_finished(&self, _: &MatchGame) {
        (self.0)()
    }
}

/// Each distinct genome of `chosen` (a generation's best, an SPSA step's values, each with its
/// generation or step) plays `reference` in `run` as `match` plays it
/// ([`Contestant::of_genome`] with `engine` at `depth`), once however often it is chosen; each
/// of `chosen` gets its genome's result. `on_game` is called after every game.
pub fn measure_genomes(
    chosen: &[(u64, Weights)],
    engine: Option<&EngineSpec>,
    reference: &Contestant,
    run: &MatchRun,
    depth: u32,
    on_game: &(dyn Fn() + Sync),
) -> Vec<(u64, MatchResult)> {
    let mut results: Vec<(Weights, MatchResult)> = Vec::new();
    for (at, w) in chosen {
        if results.iter().any(|(x, _)| x == w) {
            continue;
        }
        let player = Contestant::of_genome(engine, w, format!("the answer at {at}"), depth);
        let r = match run.run_players(&player, reference, &EachGame(on_game)) {
            Ok(r) => r,
            Err(e) => match e {},
        };
        results.push((*w, r));
    }
    chosen
        .iter()
        .filter_map(|(at, w)| {
            let r = results.iter().find(|(x, _)| x == w)?;
            Some((*at, r.1.clone()))
        })
        .collect()
}
