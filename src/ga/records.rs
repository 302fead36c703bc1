//! What a session keeps of its past: each generation's statistics.

use super::matches::Duel;
use crate::matchplay::Wdl;
use serde::{Deserialize, Serialize};

/// One generation's statistics, kept in the session's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// 1 for the first generation.
    pub generation: u64,
    pub best: u32,
    pub mean: f64,
    pub min: u32,
    /// Mean absolute difference between two individuals' weights, per weight, over the i16
    /// range (0 = all identical, about 0.33 for uniform random vectors).
    pub diversity: f64,
    /// None in the first generation (there is no best so far yet).
    pub duel: Option<Duel>,
    pub games: u32,
    pub plies: u64,
    /// Wall-clock seconds of the generation.
    pub seconds: f64,
    /// The best so far against the session's yardstick (its wins, draws and losses), in
    /// generations where it was measured.
    pub measure: Option<Wdl>,
}
