//! What a session keeps of its past: each generation's statistics (the history), the lineage
//! of bests so far, and the hall of fame.

use super::matches::Duel;
use crate::eval::Weights;
use crate::matchplay::Wdl;
use serde::{Deserialize, Serialize};

/// One generation's statistics, kept in the session's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// 1 for the first generation.
    pub generation: u64,
    /// Points (2 a win, 1 a draw) of the generation's top scorer in its tournament.
    pub best: u32,
    /// Mean points per individual in the tournament.
    pub mean: f64,
    /// Points of the generation's lowest scorer.
    pub min: u32,
    /// Mean absolute difference between two individuals' weights, per weight, over the i16
    /// range (0 = all identical, about 0.33 for uniform random vectors).
    pub diversity: f64,
    /// None in the first generation (there is no best so far yet).
    pub duel: Option<Duel>,
    /// Games played in the tournament.
    pub games: u32,
    /// Plies of all those games together.
    pub plies: u64,
    /// Wall-clock seconds of the generation.
    pub seconds: f64,
    /// The best so far against the session's yardstick (its wins, draws and losses), in
    /// generations where it was measured.
    pub measure: Option<Wdl>,
    /// Tournament games an outside engine lost by a fault (a crash, a hang, an illegal move,
    /// garbage): 0 for our own engine. Kept in the history file after the record's other
    /// fields, only when not 0 (so the records of our engine's sessions are as before).
    #[serde(skip)]
    pub faults: u32,
    /// On a clock ([`crate::genome::EngineSpec::tc`]): what the tournament's games did with
    /// it (their depths, time per move, time left at the end, games lost on time). Kept in the
    /// history file after the faults, only when there is one.
    #[serde(skip)]
    pub time: Option<crate::clock::TimeUse>,
}

/// Read access to a record's entries as a slice, and building one from a `Vec`.
macro_rules! record_of {
    ($record:ident, $entry:ty) => {
        impl std::ops::Deref for $record {
            type Target = [$entry];
            fn deref(&self) -> &[$entry] {
                &self.0
            }
        }

        impl From<Vec<$entry>> for $record {
            fn from(v: Vec<$entry>) -> $record {
                $record(v)
            }
        }

        impl PartialEq<Vec<$entry>> for $record {
            fn eq(&self, other: &Vec<$entry>) -> bool {
                self.0 == *other
            }
        }

        impl FromIterator<$entry> for $record {
            fn from_iter<I: IntoIterator<Item = $entry>>(it: I) -> $record {
                $record(it.into_iter().collect())
            }
        }

        impl<'a> IntoIterator for &'a $record {
            type Item = &'a $entry;
            type IntoIter = std::slice::Iter<'a, $entry>;
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }
    };
}

/// A session's history (DEAP's `Logbook`): every generation's statistics, oldest first. Saved
/// exactly as the list of its entries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct History(Vec<GenerationStats>);

record_of!(History, GenerationStats);

impl History {
    /// Adds a played generation's statistics.
    pub fn record(&mut self, stats: GenerationStats) {
        self.0.push(stats);
    }

    /// The newest yardstick measurement, with its generation.
    pub fn last_measure(&self) -> Option<(u64, Wdl)> {
        self.0
            .iter()
            .rev()
            .find_map(|h| h.measure.map(|m| (h.generation, m)))
    }
}

impl std::ops::DerefMut for History {
    /// The entries may be changed in place (e.g. their times zeroed), not added or removed.
    fn deref_mut(&mut self) -> &mut [GenerationStats] {
        &mut self.0
    }
}

impl<'a> IntoIterator for &'a mut History {
    type Item = &'a mut GenerationStats;
    type IntoIter = std::slice::IterMut<'a, GenerationStats>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

/// The hall of fame (DEAP's `HallOfFame`): the newest bests so far, oldest first; they play in
/// every tournament. Saved exactly as the list of its members.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HallOfFame(Vec<Weights>);

record_of!(HallOfFame, Weights);

impl HallOfFame {
    /// A new best so far enters; the hall keeps its newest `size` (none with 0).
    pub fn update(&mut self, best: Weights, size: usize) {
        if size == 0 {
            return;
        }
        self.0.push(best);
        if self.0.len() > size {
            self.0.drain(..self.0.len() - size);
        }
    }

    /// The newest `size` members (all when there are fewer).
    pub fn newest(&self, size: usize) -> &[Weights] {
        &self.0[self.0.len() - size.min(self.0.len())..]
    }
}

/// The lineage of bests: the best so far each time it changed, with the generation it changed
/// in, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Lineage(Vec<(u64, Weights)>);

record_of!(Lineage, (u64, Weights));

impl Lineage {
    /// Generation `generation`'s best became the best so far.
    pub fn record(&mut self, generation: u64, best: Weights) {
        self.0.push((generation, best));
    }
}
