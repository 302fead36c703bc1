//! What a generation under way keeps between its batches of games ([`Pending`]), and the
//! session's weight vectors as widening swaps them ([`Vectors`]).

use super::matches::Duel;
use super::mean::Centre;
use super::records::HallOfFame;
use super::settings::{Settings, Steps};
use crate::clock::TimeUse;
use crate::eval::{ParamSet, Weights};
use crate::fit::{Fitted, Positions};
use crate::replay::Replay;
use crate::tournament::{GameResult, Standing};
use std::sync::OnceLock;
use std::time::Instant;

/// The weight vectors of a session, with their set: what widening changes.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Vectors {
    pub(super) params: ParamSet,
    pub(super) population: Vec<Weights>,
    pub(super) hall: HallOfFame,
    pub(super) best_so_far: Option<Weights>,
    pub(super) last: Vec<(Weights, Standing)>,
}

/// What a generation in progress has been told, between its batches; empty between
/// generations. Not saved: a checkpoint holds whole generations, and a session loaded from
/// one plays its next generation from the start.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    /// When the generation's first batch was asked for: its time in the history runs from
    /// the first ask to the last tell (an ask only to look starts the clock too).
    pub(super) started: OnceLock<Instant>,
    /// What the played batches gave; None until the tournament is told.
    pub(super) stage: Option<Box<Stage>>,
}

impl PartialEq for Pending {
    /// Two sessions are equal whatever their clocks say.
    fn eq(&self, other: &Pending) -> bool {
        self.stage == other.stage
    }
}

impl Pending {
    /// Is a generation under way (its tournament told)?
    pub fn is_empty(&self) -> bool {
        self.stage.is_none()
    }
}

/// What a generation's tournament gave: every game's result, the population's standings, and
/// when the generation fits, the games' quiet positions with their results.
#[derive(Clone, Debug)]
pub(super) struct Tournament {
    pub(super) results: Vec<GameResult>,
    pub(super) standings: Vec<Standing>,
    /// The games an outside engine lost by a fault or on time, each in a line.
    pub(super) faults: Vec<String>,
    /// How many of those were faults (the rest were lost on time).
    pub(super) fault_count: usize,
    /// On a clock: what the games did with it.
    pub(super) time: Option<TimeUse>,
}

impl PartialEq for Tournament {
    fn eq(&self, o: &Tournament) -> bool {
        (
            &self.results,
            &self.standings,
            &self.faults,
            self.fault_count,
            self.time,
        ) == (&o.results, &o.standings, &o.faults, o.fault_count, o.time)
    }
}

/// A generation between its batches.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Stage {
    /// The generation's number and settings (the search at its scheduled depth).
    pub(super) g: u64,
    pub(super) s: Settings,
    /// The population that played.
    pub(super) pop: Vec<Weights>,
    /// In the first generation after `widen_at`: the session's vectors before widening, put
    /// back if the generation is abandoned.
    pub(super) narrow: Option<Vectors>,
    pub(super) tournament: Tournament,
    /// The played positions the fit learns from, until the duel is told (not compared).
    pub(super) positions: Option<PositionsKept>,
    /// The batch that is due next.
    pub(super) due: Due,
    /// The duel's result (None in the first generation and under the mean).
    pub(super) duel: Option<Duel>,
    /// The new best so far, when it changes.
    pub(super) new_best: Option<Weights>,
    /// What the generation bred, once its duel is told.
    pub(super) bred: Option<Bred>,
}

/// Positions kept in a stage; equal whatever they hold (they follow from the games).
#[derive(Clone, Debug)]
pub(super) struct PositionsKept(pub(super) Positions);

impl PartialEq for PositionsKept {
    fn eq(&self, _: &PositionsKept) -> bool {
        true
    }
}

/// The batch a generation plays next, after its tournament.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Due {
    /// The generation's best against the best so far.
    /// The challenger, then the holder.
    Duel(Box<[Weights; 2]>),
    /// The best so far against the yardstick.
    Measure,
}

/// The next generation, bred, and what it learnt on the way.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Bred {
    pub(super) best: Weights,
    pub(super) next: Vec<Weights>,
    pub(super) steps: Vec<Steps>,
    pub(super) fitted: Option<Fitted>,
    pub(super) replay: Option<Replay>,
    pub(super) centre: Option<Centre>,
}

impl Stage {
    /// The population's tournament points.
    pub(super) fn points(&self) -> Vec<u32> {
        self.tournament.standings.iter().map(|x| x.points).collect()
    }
}
