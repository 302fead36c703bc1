//! The genetic algorithm: tournament (with an optional hall of fame and endgame games),
//! best-so-far duel, selection (the original's truncation "roulette", a fitness-proportionate
//! wheel, or tournament selection), one-point crossover with one cut per pair, mutation (the
//! original's single-gene replacement, or Gaussian steps), the next generation made of children,
//! elite parents (the best so far among them) and newcomers, and a periodic measurement of the
//! best so far against a fixed yardstick.
//!
//! Every random choice of generation `g` comes from generators derived from
//! `(session seed, purpose, g, index)`, so a session resumed from the checkpoint written after
//! generation `g` continues exactly as if it had never stopped, at any thread count.

use crate::board::{Color, Position};
#[cfg(test)]
use crate::eval::NUM_PARAMS;
use crate::eval::{ParamSet, Weights, MAX_WEIGHTS};
use crate::fit::{self, Fitted, Positions};
use crate::game::{DrawRules, Outcome};
use crate::jobs::{self, Batch, GameJob, Played, Side, Start};
use crate::matchplay::{play_match, Engine, MatchSettings, OpeningBook, Wdl};
use crate::movegen::has_capture;
use crate::openings::ballot;
use crate::rng::{derive, Purpose};
use crate::search::SearchConfig;
use crate::tournament::{self, GameResult, Standing};
use crate::yardstick::Evaluator;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// When a session stops.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Stop {
    /// After this many generations in all (counting those of earlier runs).
    Generations(u64),
    /// Once this many seconds of evolution in all have passed (a generation still under way
    /// then is abandoned at a game boundary and not saved).
    Seconds(f64),
}

/// At most this many positions of a generation's games go into a fit ([`GaOptions::fit_every`]).
pub const FIT_POSITIONS: usize = 200_000;
/// Passes of each fit over its positions.
pub const FIT_EPOCHS: u32 = 4;

/// The largest population a session accepts (all against all is population^2 games).
pub const MAX_POPULATION: usize = 1024;

/// Everything that defines a session's evolution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Individuals per generation (a multiple of 4).
    pub population: usize,
    /// Games per individual per generation; 0 = all against all, twice.
    pub games: usize,
    pub search: SearchConfig,
    /// Selection noise: a random integer in `[0, factor)` added to each total before ranking
    /// (0 = none); the order ranks truncation selection and the elite.
    pub factor: u32,
    /// Chance that a child is mutated (by [`GaOptions::mutation`]: one weight replaced, or
    /// some weights moved by Gaussian steps).
    pub mutation: f64,
    pub stop: Stop,
    pub seed: u64,
    pub openings: OpeningBook,
    /// Parents kept, the best so far among them.
    pub elite: usize,
    /// Fresh random individuals per generation.
    pub newcomers: usize,
    pub rules: DrawRules,
    /// Operators and measurements beyond the original tool's; [`GaOptions::ORIGINAL`] is the
    /// original's behaviour (and what checkpoints of format 1 are read as).
    pub ga: GaOptions,
}

/// How parents are chosen from a generation's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selection {
    /// The original tool's "roulette": points plus a random integer in `[0, factor)`, sorted,
    /// the first population/2 distinct genotypes.
    Truncation,
    /// Fitness-proportionate roulette wheel: each of the population/2 parents is drawn with
    /// probability proportional to its points.
    Roulette,
    /// Tournament selection: each parent is the best of this many individuals drawn at random.
    Tournament(u32),
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selection::Truncation => f.write_str("truncation"),
            Selection::Roulette => f.write_str("roulette"),
            Selection::Tournament(k) => write!(f, "tournament:{k}"),
        }
    }
}

impl std::str::FromStr for Selection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "unknown selection '{s}' (expected truncation, roulette or tournament:K with K 2..64)"
            )
        };
        match s {
            "truncation" => Ok(Selection::Truncation),
            "roulette" => Ok(Selection::Roulette),
            _ => {
                let k: u32 = match s {
                    "tournament" => 2,
                    _ => s
                        .strip_prefix("tournament:")
                        .and_then(|k| k.parse().ok())
                        .ok_or_else(bad)?,
                };
                if (2..=64).contains(&k) {
                    Ok(Selection::Tournament(k))
                } else {
                    Err(bad())
                }
            }
        }
    }
}

/// What a mutation does to a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mutation {
    /// The original's: one weight replaced by a uniform random `i16`.
    Replace,
    /// `genes` weights (drawn with replacement) each moved by a Gaussian step of standard
    /// deviation `sigma`, rounded and clamped to the `i16` range: refines rather than replaces.
    Gauss { sigma: u32, genes: u32 },
    /// As `Gauss`, by layer for a network set (`net66`): each gene is drawn from the weighted
    /// sum or from the network with equal chance, and a network weight moves by `sigma / 8`
    /// (the scale its random weights start at). For the other sets it is `Gauss`.
    Layered { sigma: u32, genes: u32 },
    /// Self-adaptive steps, as evolutionary programming does: every individual carries its own
    /// step sizes ([`Steps`]: one for the weighted sum, one for a network's weights), starting
    /// at `sigma` (a network's at `sigma / 8`). A child's are the geometric mean of its parents',
    /// and when it is mutated each is first multiplied by `exp(tau * N(0, 1))` (tau =
    /// `1 / sqrt(2 sqrt(n))`, n its weights), then `genes` weights move by Gaussian steps of
    /// those sizes (for `net66` drawn from the sum or the network with equal chance).
    Adaptive { sigma: u32, genes: u32 },
}

/// The step sizes an individual carries under [`Mutation::Adaptive`]: for the weighted sum's
/// weights and for a network's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Steps {
    pub sum: f32,
    pub net: f32,
}

/// The smallest and largest step size an individual may carry.
const STEP_RANGE: (f32, f32) = (1.0, 32767.0);

impl Steps {
    /// The steps of a newcomer: `sigma`, and `sigma / 8` for a network (where its random
    /// weights start).
    pub fn initial(sigma: u32) -> Steps {
        Steps {
            sum: sigma as f32,
            net: (sigma as f32 / 8.0).max(STEP_RANGE.0),
        }
    }

    /// The geometric mean of two individuals' steps (a child's).
    fn mean(a: Steps, b: Steps) -> Steps {
        Steps {
            sum: (a.sum * b.sum).sqrt(),
            net: (a.net * b.net).sqrt(),
        }
    }

    /// Both within [`STEP_RANGE`] (and finite): what a checkpoint may hold.
    pub fn is_valid(&self) -> bool {
        [self.sum, self.net]
            .iter()
            .all(|v| (STEP_RANGE.0..=STEP_RANGE.1).contains(v))
    }
}

impl Mutation {
    /// The kind's step size (0 for `replace`), where [`Steps`] start.
    pub fn sigma(&self) -> u32 {
        match *self {
            Mutation::Replace => 0,
            Mutation::Gauss { sigma, .. }
            | Mutation::Layered { sigma, .. }
            | Mutation::Adaptive { sigma, .. } => sigma,
        }
    }
}

impl std::fmt::Display for Mutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mutation::Replace => f.write_str("replace"),
            Mutation::Gauss { sigma, genes } => write!(f, "gauss:{sigma}:{genes}"),
            Mutation::Layered { sigma, genes } => write!(f, "layered:{sigma}:{genes}"),
            Mutation::Adaptive { sigma, genes } => write!(f, "adaptive:{sigma}:{genes}"),
        }
    }
}

impl std::str::FromStr for Mutation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "unknown mutation '{s}' (expected replace, or gauss:SIGMA[:GENES], layered:SIGMA[:GENES] or adaptive:SIGMA[:GENES] with SIGMA 1..32767 and GENES 1..{MAX_WEIGHTS})"
            )
        };
        if s == "replace" {
            return Ok(Mutation::Replace);
        }
        let (kind, rest) = ["gauss:", "layered:", "adaptive:"]
            .iter()
            .find_map(|k| s.strip_prefix(k).map(|r| (*k, r)))
            .ok_or_else(bad)?;
        let mut it = rest.split(':');
        let sigma: u32 = it.next().and_then(|x| x.parse().ok()).ok_or_else(bad)?;
        let genes: u32 = match it.next() {
            Some(g) => g.parse().map_err(|_| bad())?,
            None => 1,
        };
        if it.next().is_some() || !(1..=32767).contains(&sigma) {
            return Err(bad());
        }
        if !(1..=MAX_WEIGHTS as u32).contains(&genes) {
            return Err(bad());
        }
        Ok(match kind {
            "layered:" => Mutation::Layered { sigma, genes },
            "adaptive:" => Mutation::Adaptive { sigma, genes },
            _ => Mutation::Gauss { sigma, genes },
        })
    }
}

/// The GA's operators beyond the original tool's, and the session's own measurements.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaOptions {
    /// The parameters the weight vectors weigh.
    pub params: ParamSet,
    pub selection: Selection,
    pub mutation: Mutation,
    /// Random weights (first population, newcomers) are uniform in `[-init_range, init_range]`
    /// (32767: the whole `i16` range, as the original).
    pub init_range: u16,
    /// Past bests kept as extra tournament opponents (they play the population but are not
    /// bred from); 0 = none.
    pub hall_of_fame: u32,
    /// From this generation on (0 = never) tournament, duel and endgame games search to
    /// `deepen_to` plies instead of the session's depth: cheap shallow games early, deeper late.
    pub deepen_at: u64,
    pub deepen_to: u32,
    /// Endgame pairs per individual and generation: individual `i` also plays its next
    /// `endgame_pairs` ring neighbours from a kings-only ending drawn for the pair (2 or 3 kings
    /// against 1), once with each side, so that converting a won ending earns points.
    pub endgame_pairs: u32,
    /// Games of the best-so-far duel: the generation's best plays the best so far from
    /// `duel_games / 2` ballot openings, both colours. With 2 (the original) a tie goes to the
    /// challenger; with more, the challenger must score more than the holder.
    pub duel_games: u32,
    /// Every this many generations the best so far plays [`GaOptions::yardstick`] (0 = never).
    pub measure_every: u64,
    /// Games of that measurement (the first `measure_games / 2` ballot openings, both colours).
    pub measure_games: u32,
    pub yardstick: Yardstick,
    /// Every this many generations (0 = never) the best so far is fitted to the results of the
    /// generation's own games (a logistic regression on their quiet positions, [`crate::fit`])
    /// and the fitted vector enters the next population in place of a newcomer.
    pub fit_every: u64,
    /// The fit learns only from the games between two of the generation's `fit_top` best
    /// individuals by tournament points (the first among equals first; 0 = every game): the
    /// games of random newcomers and weak children teach play nobody good plays.
    pub fit_top: u32,
    /// After this generation (0 = never) the session continues as `widen_to`: every weight
    /// vector is widened into it ([`Weights::widen`]: same evaluation, a network at 0) and
    /// newcomers are drawn from it. A two-stage session: the weighted sum first, then a
    /// network over it.
    pub widen_at: u64,
    pub widen_to: ParamSet,
}

impl GaOptions {
    /// The original tool's operators and no measurement (what a checkpoint of format 1 meant).
    pub const ORIGINAL: GaOptions = GaOptions {
        params: ParamSet::Thesis60,
        selection: Selection::Truncation,
        mutation: Mutation::Replace,
        init_range: i16::MAX as u16,
        hall_of_fame: 0,
        deepen_at: 0,
        deepen_to: 0,
        endgame_pairs: 0,
        duel_games: 2,
        measure_every: 0,
        measure_games: 312,
        yardstick: Yardstick::Material,
        fit_every: 0,
        fit_top: 0,
        widen_at: 0,
        widen_to: ParamSet::Thesis60,
    };
}

impl Default for GaOptions {
    /// The defaults of `new`, each chosen by measurement (docs/results.md, "Choosing the defaults"):
    /// the net66 parameters (8 hidden units); a first population drawn from -4000..4000 (so the weights
    /// can learn their scale) refined by Gaussian steps (4 genes, sigma 800); the original's
    /// truncation selection; a 32-game duel for the best so far; the best so far measured
    /// against material over the whole ballot every 50 generations; in every generation a
    /// vector fitted to the games among the generation's better half enters as a newcomer.
    fn default() -> Self {
        GaOptions {
            params: ParamSet::Net66(crate::eval::DEFAULT_HIDDEN),
            selection: Selection::Truncation,
            mutation: Mutation::Gauss {
                sigma: 800,
                genes: 4,
            },
            init_range: 4000,
            hall_of_fame: 0,
            deepen_at: 0,
            deepen_to: 0,
            endgame_pairs: 0,
            duel_games: 32,
            measure_every: 50,
            measure_games: 312,
            yardstick: Yardstick::Material,
            fit_every: 1,
            fit_top: (DEFAULT_POPULATION / 2) as u32,
            widen_at: 0,
            widen_to: ParamSet::Endgame66,
        }
    }
}

/// Generations of a session given neither a generation count nor a time: about 4 minutes on
/// 2 cores at the other defaults.
pub const DEFAULT_GENERATIONS: u64 = 200;

/// Search depth of a session's games unless given: depth-4 games teach the fit more per
/// CPU-second than twice as many generations of depth-2 games (docs/results.md).
pub const DEFAULT_DEPTH: u32 = 4;

/// The population of a session given none.
pub const DEFAULT_POPULATION: usize = 32;

impl Default for Settings {
    /// The defaults of `new` (seed 0): population 32 at depth 4, all against all twice from the
    /// ballot openings, 200 generations, 90% of children mutated, elite and newcomers a
    /// quarter of the population each, and [`GaOptions::default`].
    fn default() -> Self {
        Settings::with_population(DEFAULT_POPULATION)
    }
}

impl Settings {
    /// [`Settings::default`] with another population size (elite and newcomers a quarter of it,
    /// the fit's games those among its better half).
    pub fn with_population(population: usize) -> Settings {
        Settings {
            population,
            games: 0,
            search: SearchConfig {
                depth: DEFAULT_DEPTH,
                capture_extension: true,
                tt_log2: 14,
            },
            factor: 8,
            mutation: 0.9,
            stop: Stop::Generations(DEFAULT_GENERATIONS),
            seed: 0,
            openings: OpeningBook::Ballot,
            elite: population / 4,
            newcomers: population / 4,
            rules: DrawRules::default(),
            ga: GaOptions {
                fit_top: (population / 2) as u32,
                ..GaOptions::default()
            },
        }
    }
}

impl std::fmt::Display for Stop {
    /// `stop after generation N` or `stop after T s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Generations(g) => write!(f, "stop after generation {g}"),
            Stop::Seconds(t) => write!(f, "stop after {t} s"),
        }
    }
}

/// The fixed opponent a session measures its best so far against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Yardstick {
    /// Men 100, kings 160, for both sides.
    Material,
    /// The hand-made value function (see [`crate::yardstick::hand`]).
    Hand,
    /// The classical hand-written evaluation (see [`crate::yardstick::classic`]).
    Classic,
}

impl std::fmt::Display for Yardstick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Yardstick::Material => "material",
            Yardstick::Hand => "hand",
            Yardstick::Classic => "classic",
        })
    }
}

impl std::str::FromStr for Yardstick {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "material" => Ok(Yardstick::Material),
            "hand" => Ok(Yardstick::Hand),
            "classic" => Ok(Yardstick::Classic),
            _ => Err(format!(
                "unknown yardstick '{s}' (expected material, hand or classic)"
            )),
        }
    }
}

impl Yardstick {
    /// The yardstick's evaluation.
    pub fn evaluator(&self) -> Evaluator {
        match self {
            Yardstick::Material => crate::eval::material().into(),
            Yardstick::Hand => Evaluator::Hand,
            Yardstick::Classic => Evaluator::Classic,
        }
    }
}

/// The widenings a session may take.
const WIDENINGS: &str =
    "only thesis60 -> endgame66 -> phased132, thesis60 or endgame66 -> net66, net66:H -> net66 \
     with more units";

/// Weights of one set that do not widen into another: one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot continue a {from} session as {to}: {}", WIDENINGS)]
pub struct WidenError {
    pub from: ParamSet,
    pub to: ParamSet,
}

/// A setting out of range: the message names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

impl Settings {
    /// The search depth of generation `g`'s games (the schedule of [`GaOptions::deepen_at`]).
    pub fn depth_at(&self, g: u64) -> u32 {
        if self.ga.deepen_at > 0 && g >= self.ga.deepen_at {
            self.ga.deepen_to
        } else {
            self.search.depth
        }
    }

    /// Checks the settings a user gave; the message names the bad one.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.check().map_err(SettingsError)
    }

    fn check(&self) -> Result<(), String> {
        let p = self.population;
        if p < 4 || !p.is_multiple_of(4) || p > MAX_POPULATION {
            return Err(format!(
                "population {p} must be a multiple of 4 from 4 to {MAX_POPULATION}"
            ));
        }
        if !self.games.is_multiple_of(4) {
            return Err(format!(
                "games per individual {} must be a multiple of 4 (each plays games/4 neighbours \
                 on each side of a ring, twice), or 0 for all against all",
                self.games
            ));
        }
        if self.rules.max_plies == 0 || self.rules.max_plies > 100_000 {
            return Err(format!(
                "max plies {} must be 1..100000 (tournament games need a cap)",
                self.rules.max_plies
            ));
        }
        crate::search::check_depth(self.search.depth, "depth").map_err(|e| e.to_string())?;
        if self.search.tt_log2 > crate::search::MAX_TT_LOG2 {
            return Err(format!(
                "transposition table of 2^{} entries: at most 2^{}",
                self.search.tt_log2,
                crate::search::MAX_TT_LOG2
            ));
        }
        if !(0.0..=1.0).contains(&self.mutation) {
            return Err(format!("mutation chance {} must be in 0..1", self.mutation));
        }
        if self.elite == 0 {
            return Err("elite must be at least 1 (it holds the best so far)".to_string());
        }
        if self.elite + self.newcomers > p {
            return Err(format!(
                "elite {} + newcomers {} exceed the population {p}",
                self.elite, self.newcomers
            ));
        }
        if self.elite > p / 2 {
            return Err(format!(
                "elite {} cannot exceed the parents (population/2 = {})",
                self.elite,
                p / 2
            ));
        }
        let ga = &self.ga;
        let most = 2 * ballot().len() as u32;
        if ga.duel_games == 0 || !ga.duel_games.is_multiple_of(2) || ga.duel_games > most {
            return Err(format!(
                "duel games {} must be an even number from 2 to {most}",
                ga.duel_games
            ));
        }
        if ga.measure_every > 0 && (ga.measure_games < 2 || ga.measure_games > most) {
            return Err(format!(
                "measure games {} must be 2..{most}",
                ga.measure_games
            ));
        }
        if let Selection::Tournament(k) = ga.selection {
            if !(2..=64).contains(&k) {
                return Err(format!("tournament selection size {k} must be 2..64"));
            }
        }
        if ga.deepen_at > 0 {
            crate::search::check_depth(ga.deepen_to, "deepened depth")
                .map_err(|e| e.to_string())?;
        }
        if ga.widen_at > 0
            && ga.widen_to != ga.params
            && Weights::zero_of(ga.params).widen(ga.widen_to).is_none()
        {
            return Err(format!(
                "cannot widen {} into {}: {WIDENINGS}",
                ga.params, ga.widen_to
            ));
        }
        if ga.endgame_pairs as usize >= p {
            return Err(format!(
                "endgame pairs {} must be below the population {p}",
                ga.endgame_pairs
            ));
        }
        if ga.hall_of_fame as usize > MAX_POPULATION {
            return Err(format!(
                "hall of fame {} must be 0..{MAX_POPULATION}",
                ga.hall_of_fame
            ));
        }
        if let Mutation::Gauss { genes, .. } | Mutation::Layered { genes, .. } = ga.mutation {
            if genes as usize > ga.params.len() {
                return Err(format!(
                    "mutation of {genes} genes: the {} set has {} weights",
                    ga.params,
                    ga.params.len()
                ));
            }
        }
        if ga.fit_top == 1 || ga.fit_top as usize > p {
            return Err(format!(
                "fit top {} must be 0 (every game) or 2..{p} (the population)",
                ga.fit_top
            ));
        }
        if ga.init_range == 0 || ga.init_range > i16::MAX as u16 {
            return Err(format!("init range {} must be 1..32767", ga.init_range));
        }
        match self.stop {
            Stop::Generations(0) => Err("--generations must be at least 1".to_string()),
            Stop::Seconds(s) if s.is_nan() || s <= 0.0 => {
                Err("--time must be a positive number of seconds".to_string())
            }
            _ => Ok(()),
        }
    }
}

/// The duel of a generation's best against the best so far ([`GaOptions::duel_games`] games,
/// colours swapped). All zero and not replaced: the generation's best was the best so far
/// itself, and no duel was played.
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

/// A session: settings, where it stands, and what it has learnt. (Its file formats are in
/// [`crate::store`].)
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub name: String,
    pub settings: Settings,
    /// Generations completed.
    pub generation: u64,
    /// Seconds of evolution so far, over all runs.
    pub elapsed: f64,
    /// The population the next generation will play.
    pub population: Vec<Weights>,
    /// Under [`Mutation::Adaptive`], the step sizes each individual of `population` carries
    /// (empty otherwise; missing ones are a newcomer's).
    pub steps: Vec<Steps>,
    /// The last population that played, with its results (empty before the first generation).
    pub last: Vec<(Weights, Standing)>,
    pub best_so_far: Option<Weights>,
    pub history: Vec<GenerationStats>,
    /// The hall of fame: the newest `hall_of_fame` bests so far, oldest first; they play in
    /// every tournament.
    pub hall: Vec<Weights>,
    /// The best so far each time it changed, with the generation it changed in, oldest first.
    /// With the history's duel column it gives the best so far of every generation (`history
    /// --elo`). Checkpoints of formats 1 and 2 did not keep it: a session continued from one
    /// lacks the changes before.
    pub bests: Vec<(u64, Weights)>,
    /// The fit of the last generation this process played, when it fitted one
    /// ([`GaOptions::fit_every`]); not saved (the fitted vector is in the population).
    pub fitted: Option<Fitted>,
}

impl Session {
    /// A new session with a random first population.
    pub fn new(name: &str, settings: Settings) -> Session {
        let mut rng = derive(settings.seed, Purpose::Initial, 0, 0);
        let (set, range) = (settings.ga.params, settings.ga.init_range);
        let population = (0..settings.population)
            .map(|_| random_weights(set, range, &mut rng))
            .collect();
        Session::with_population(name, settings, population)
    }

    /// A new session from a given first population (e.g. a population file of the original).
    pub fn with_population(name: &str, settings: Settings, population: Vec<Weights>) -> Session {
        Session {
            name: name.to_string(),
            settings,
            generation: 0,
            elapsed: 0.0,
            population,
            steps: Vec::new(),
            last: Vec::new(),
            best_so_far: None,
            history: Vec::new(),
            hall: Vec::new(),
            bests: Vec::new(),
            fitted: None,
        }
    }

    /// Has the stop condition been reached?
    pub fn finished(&self) -> bool {
        match self.settings.stop {
            Stop::Generations(n) => self.generation >= n,
            Stop::Seconds(s) => self.elapsed >= s,
        }
    }

    /// The hall of fame members that play in the next tournament (the newest past bests).
    pub fn hall_players(&self) -> &[Weights] {
        let h = (self.settings.ga.hall_of_fame as usize).min(self.hall.len());
        &self.hall[self.hall.len() - h..]
    }

    /// A new best so far joins the hall of fame, which keeps its newest `hall_of_fame`.
    fn enter_hall(&mut self, w: Weights) {
        let h = self.settings.ga.hall_of_fame as usize;
        if h == 0 {
            return;
        }
        self.hall.push(w);
        if self.hall.len() > h {
            self.hall.drain(..self.hall.len() - h);
        }
    }

    /// The next tournament's schedule: the population and the hall of fame (indices from
    /// population.len() on); hall members never meet each other.
    fn schedule(&self, g: u64) -> Vec<tournament::Pairing> {
        let n = self.population.len();
        let h = self.hall_players().len();
        let mut prng = derive(self.settings.seed, Purpose::Pairing, g, 0);
        let mut sched = tournament::schedule(n + h, self.settings.games, &mut prng);
        sched.retain(|p| p.black < n || p.white < n);
        sched
    }

    /// Number of games the next generation's tournament plays.
    pub fn games_per_generation(&self) -> usize {
        self.schedule(self.generation + 1).len()
    }

    /// Plays one generation on the current rayon pool and breeds the next population.
    /// `on_game` is called after every tournament game.
    pub fn run_generation(&mut self, on_game: &(dyn Fn(&GameResult) + Sync)) -> GenerationStats {
        self.run_generation_until(on_game, &|| false)
            .expect("never stopped")
    }

    /// [`Session::run_generation`] that can be abandoned: `stop` is asked before every game
    /// (tournament, endgame and duel games) and before the yardstick measurement. Once it says
    /// yes no further game starts, the generation is abandoned, the session is left exactly as
    /// it was, and the result is `None`; playing the generation again later gives the same
    /// result as if it had never been interrupted.
    pub fn run_generation_until(
        &mut self,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<GenerationStats> {
        let g = self.generation + 1;
        let to = self.settings.ga.widen_to;
        if self.settings.ga.widen_at == 0
            || g <= self.settings.ga.widen_at
            || self.settings.ga.params == to
        {
            return self.play_generation(on_game, stop);
        }
        // The first generation after `widen_at`: widened on a copy, kept once it is played.
        let mut wide = self.clone();
        if wide.widen(to).is_err() {
            // Refused by `Settings::validate`: never here.
            return self.play_generation(on_game, stop);
        }
        let stats = wide.play_generation(on_game, stop)?;
        *self = wide;
        Some(stats)
    }

    /// Every weight vector of the session widened into `to` (the same evaluation; a network at
    /// 0), and `to` the session's set from now on.
    pub fn widen(&mut self, to: ParamSet) -> Result<(), WidenError> {
        let from = self.settings.ga.params;
        let widen = |w: &Weights| w.widen(to).ok_or(WidenError { from, to });
        self.population = self
            .population
            .iter()
            .map(widen)
            .collect::<Result<_, _>>()?;
        self.hall = self.hall.iter().map(widen).collect::<Result<_, _>>()?;
        self.best_so_far = self.best_so_far.as_ref().map(widen).transpose()?;
        for (w, _) in self.last.iter_mut() {
            *w = widen(w)?;
        }
        self.settings.ga.params = to;
        Ok(())
    }

    /// [`Session::run_generation_until`] without the widening.
    fn play_generation(
        &mut self,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<GenerationStats> {
        let t = Instant::now();
        let g = self.generation + 1;
        // The tournament, duel and endgame games search to the scheduled depth; measurements
        // stay at the session's depth, so their series is comparable from start to end.
        let mut s = self.settings.clone();
        s.search.depth = self.settings.depth_at(g);
        let pop = self.population.clone();
        let fitting = s.ga.fit_every > 0 && g.is_multiple_of(s.ga.fit_every);
        let (results, standings, positions) =
            self.tournament(&pop, &s, g, fitting, on_game, stop)?;
        let points: Vec<u32> = standings.iter().map(|x| x.points).collect();
        let (duel, new_best) = self.crown(&pop, &points, &s, g, stop)?;
        let best = new_best.or(self.best_so_far).unwrap_or(pop[0]);
        let fitted = positions.and_then(|p| {
            let mut rng = derive(s.seed, Purpose::Fit, g, 0);
            fit::fit(&best, &p, FIT_POSITIONS, FIT_EPOCHS, &mut rng)
        });
        let (next, next_steps) = next_population(
            &pop,
            &self.steps,
            &points,
            best,
            fitted.as_ref().map(|f| f.weights),
            &s,
            g,
        );
        // The best so far against the yardstick, every `measure_every` generations (not
        // interruptible once started: a few hundred games at the session's depth).
        let due = s.ga.measure_every > 0 && g.is_multiple_of(s.ga.measure_every);
        if due && stop() {
            return None;
        }
        let measure = due.then(|| measure(&best, &self.settings, g));
        let stats = GenerationStats {
            generation: g,
            best: points.iter().copied().max().unwrap_or(0),
            mean: points.iter().map(|&p| p as f64).sum::<f64>() / pop.len().max(1) as f64,
            min: points.iter().copied().min().unwrap_or(0),
            diversity: diversity(&pop),
            duel,
            games: results.len() as u32,
            plies: results.iter().map(|r| r.plies as u64).sum(),
            seconds: t.elapsed().as_secs_f64(),
            measure,
        };
        // The session changes only once the whole generation is played.
        if let Some(b) = new_best {
            self.best_so_far = Some(b);
            self.enter_hall(b);
            self.bests.push((g, b));
        }
        self.last = pop.into_iter().zip(standings).collect();
        self.population = next;
        self.steps = next_steps;
        self.generation = g;
        self.elapsed += stats.seconds;
        self.history.push(stats.clone());
        self.fitted = fitted;
        Some(stats)
    }

    /// Generation `g`'s tournament: the population and the hall of fame, then the endgame
    /// games, as one batch of jobs (on this process's pool, or spread over an MPI job's
    /// ranks). Every game's result, the population's standings, and with `positions` the
    /// games' quiet positions with their results.
    #[allow(clippy::type_complexity)]
    fn tournament(
        &self,
        pop: &[Weights],
        s: &Settings,
        g: u64,
        positions: bool,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<(Vec<GameResult>, Vec<Standing>, Option<Positions>)> {
        let mut players = pop.to_vec();
        players.extend_from_slice(self.hall_players());
        let sched = self.schedule(g);
        let endgames = endgame_pairings(pop, s, g);
        let mut batch = Batch::of_weights(&players, s.seed, s.rules);
        batch.jobs = tournament::jobs(&sched, s.search, s.openings, g);
        batch.jobs.extend(endgame_jobs(&endgames, s.search, g));
        batch.record_moves = positions;
        let on_done = |k: usize, p: &Played| {
            if let Some(pairing) = sched.get(k) {
                on_game(&tournament::result(pairing, p));
            }
        };
        let played = jobs::run(&batch, &on_done, stop)?;
        let results: Vec<GameResult> = sched
            .iter()
            .chain(endgames.iter().map(|(pairing, _)| pairing))
            .zip(&played)
            .map(|(pairing, p)| tournament::result(pairing, p))
            .collect();
        let mut standings = tournament::standings(players.len(), &results);
        standings.truncate(pop.len());
        // Each game's positions on its own thread, joined in the games' order: the games
        // between two of the `fit_top` best (all games with 0).
        let positions = positions.then(|| {
            let learns = fit_players(&standings, players.len(), s.ga.fit_top);
            let per_game: Vec<Positions> = batch
                .jobs
                .par_iter()
                .zip(&played)
                .zip(&results)
                .map(|((job, p), r)| {
                    let mut data = Positions::new(s.ga.params);
                    if learns[r.pairing.black] && learns[r.pairing.white] {
                        let game = p.replay(&batch, &job.start);
                        data.add_game(game.start(), game.moves(), p.outcome());
                    }
                    data
                })
                .collect();
            let mut data = Positions::new(s.ga.params);
            for g in per_game {
                data.append(g);
            }
            data
        });
        Some((results, standings, positions))
    }

    /// The generation's best (the first among equals) against the best so far: the duel (None
    /// in the first generation) and the new best so far, if it changes.
    fn crown(
        &self,
        pop: &[Weights],
        points: &[u32],
        s: &Settings,
        g: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<(Option<Duel>, Option<Weights>)> {
        let best_idx = (0..pop.len())
            .max_by_key(|&i| (points[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        let challenger = pop[best_idx];
        Some(match self.best_so_far {
            None => (None, Some(challenger)),
            Some(holder) if holder == challenger => (Some(Duel::SAME), None),
            Some(holder) => {
                let d = duel(&challenger, &holder, s, g, stop)?;
                (Some(d), d.replaced.then_some(challenger))
            }
        })
    }

    /// The best so far after each generation of the history, where known: from the changes in
    /// [`Session::bests`] (a generation's best so far changed when its duel is absent, the
    /// first generation, or replaced it); `None` where the change is not recorded (the part of
    /// a session played before checkpoint format 3). The last generation's is `best_so_far`.
    pub fn bests_by_generation(&self) -> Vec<Option<Weights>> {
        let mut changes = self.bests.iter().peekable();
        let mut current = None;
        let n = self.history.len();
        let mut out = Vec::with_capacity(n);
        for (i, h) in self.history.iter().enumerate() {
            while changes.next_if(|(g, _)| *g < h.generation).is_some() {}
            if h.duel.is_none_or(|d| d.replaced) {
                current = changes
                    .next_if(|(g, _)| *g == h.generation)
                    .map(|(_, w)| *w);
            }
            if i + 1 == n && h.generation == self.generation {
                current = self.best_so_far;
            }
            out.push(current);
        }
        out
    }

    /// The best so far after the generations of the history at the indices `wanted`, where it
    /// can be told: from [`Session::bests_by_generation`], else from `from_checkpoint(g)` (the
    /// checkpoint of generation `g`, when there is one), and from a neighbour whose best so far
    /// is known when the generation between them did not change it.
    pub fn bests_at(
        &self,
        wanted: &[usize],
        mut from_checkpoint: impl FnMut(u64) -> Option<Weights>,
    ) -> Vec<Option<Weights>> {
        let h = &self.history;
        let mut best = self.bests_by_generation();
        let changed = |i: usize| h[i].duel.is_none_or(|d| d.replaced);
        let mut want = vec![false; h.len()];
        for &i in wanted {
            if let Some(x) = want.get_mut(i) {
                *x = true;
            }
        }
        for i in (0..h.len()).rev() {
            if best[i].is_some() {
                continue;
            }
            if i + 1 < h.len() && !changed(i + 1) && best[i + 1].is_some() {
                best[i] = best[i + 1];
            } else if want[i] {
                best[i] = from_checkpoint(h[i].generation);
            }
        }
        for i in 1..h.len() {
            if best[i].is_none() && !changed(i) {
                best[i] = best[i - 1];
            }
        }
        best
    }

    /// The newest yardstick measurement of the history, with its generation.
    pub fn last_measure(&self) -> Option<(u64, Wdl)> {
        self.history
            .iter()
            .rev()
            .find_map(|h| h.measure.map(|m| (h.generation, m)))
    }
}

/// Which of `players` (the population, then the hall of fame) the fit learns from: the `top`
/// best of the population by points, the first among equals first (all of them with 0). The
/// hall of fame's past bests count as learned from only when every game is.
fn fit_players(standings: &[Standing], players: usize, top: u32) -> Vec<bool> {
    if top == 0 {
        return vec![true; players];
    }
    let mut order: Vec<usize> = (0..standings.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(standings[i].points), i));
    let mut learns = vec![false; players];
    for &i in order.iter().take(top as usize) {
        learns[i] = true;
    }
    learns
}

/// The next population: children of the selected parents (crossover, mutation), then the
/// elite (the best so far first, then the best-ranked distinct parents), then newcomers.
/// The next population: children of the parents selected by `points`, the elite (`best` first),
/// and newcomers, the first of them `fitted` when given (else the last child).
fn next_population(
    pop: &[Weights],
    steps: &[Steps],
    points: &[u32],
    best: Weights,
    fitted: Option<Weights>,
    s: &Settings,
    g: u64,
) -> (Vec<Weights>, Vec<Steps>) {
    let n = pop.len();
    let mut brng = derive(s.seed, Purpose::Breeding, g, 0);
    let ranked = roulette_order(points, s.factor, &mut brng);
    let parents = match s.ga.selection {
        Selection::Truncation => select_parents(pop, &ranked, n / 2),
        Selection::Roulette => roulette_wheel(pop, points, n / 2, &mut brng),
        Selection::Tournament(k) => tournament_select(pop, points, n / 2, k, &mut brng),
    };
    // An individual's steps (the first of its genotype's; a newcomer's for one not in `pop`).
    let initial = Steps::initial(s.ga.mutation.sigma());
    let steps_of = |w: &Weights| {
        pop.iter()
            .position(|p| p == w)
            .and_then(|i| steps.get(i).copied())
            .unwrap_or(initial)
    };
    let parent_steps: Vec<Steps> = parents.iter().map(steps_of).collect();
    let n_children = n - s.elite - s.newcomers;
    let (mut next, mut next_steps): (Vec<Weights>, Vec<Steps>) = breed(
        &parents,
        Some(&parent_steps),
        n_children,
        s.mutation,
        s.ga.mutation,
        &mut brng,
    )
    .into_iter()
    .unzip();
    next.push(best);
    for &i in &ranked {
        if next.len() >= n_children + s.elite {
            break;
        }
        if pop[i] != best && !next[n_children..].contains(&pop[i]) {
            next.push(pop[i]);
        }
    }
    // Too few distinct parents for the elite: fill with the best ranked, duplicates allowed.
    let mut k = 0;
    while next.len() < n_children + s.elite {
        next.push(pop[ranked[k % ranked.len()]]);
        k += 1;
    }
    next_steps.extend(next[n_children..].iter().map(steps_of));
    while next.len() < n {
        next.push(random_weights(s.ga.params, s.ga.init_range, &mut brng));
        next_steps.push(initial);
    }
    let slot = match s.newcomers {
        0 => n_children.checked_sub(1),
        _ => Some(n_children + s.elite),
    };
    if let (Some(f), Some(at)) = (fitted, slot) {
        next[at] = f;
        next_steps[at] = initial;
    }
    if !matches!(s.ga.mutation, Mutation::Adaptive { .. }) {
        next_steps.clear();
    }
    (next, next_steps)
}

/// A random weight vector of `set`, each weight uniform in `[-range, range]` (the whole `i16`
/// range for 32767 and above, drawn exactly as [`Weights::random_of`]).
pub fn random_weights<R: Rng + ?Sized>(set: ParamSet, range: u16, rng: &mut R) -> Weights {
    if range >= i16::MAX as u16 {
        return Weights::random_of(set, rng);
    }
    let mut w = Weights::zero_of(set);
    let r = range as i32;
    // A network's weights start at an eighth of the range: drawn as wide as the weighted sum's,
    // the network's noise swamps the sum (docs/results.md, "The network set").
    let linear = match set {
        ParamSet::Net66(_) => crate::eval::NUM_ALL,
        _ => usize::MAX,
    };
    for (i, x) in w.values_mut().iter_mut().enumerate() {
        let r = if i < linear { r } else { (r / 8).max(1) };
        *x = rng.random_range(-r..=r) as i16;
    }
    w
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
fn endgame_pairings(pop: &[Weights], s: &Settings, g: u64) -> Vec<(tournament::Pairing, Position)> {
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
fn endgame_jobs(
    games: &[(tournament::Pairing, Position)],
    config: SearchConfig,
    g: u64,
) -> Vec<GameJob> {
    games
        .iter()
        .enumerate()
        .map(|(k, (p, pos))| {
            GameJob::new(
                Side::new(p.black, config),
                Side::new(p.white, config),
                Start::of(pos),
                Purpose::Game,
                g,
                (1 << 40) + k as u64,
            )
        })
        .collect()
}

/// The best so far plays the yardstick over the first `measure_games / 2` ballot openings,
/// both colours, at the session's depth; each game's generator comes from (seed, generation,
/// game), so the result does not depend on the number of threads.
fn measure(best: &Weights, s: &Settings, g: u64) -> Wdl {
    let (a, b, settings) = measure_match(best, s, g);
    play_match(&a, &b, &settings, &|_| {}).0
}

/// The match of generation `g`'s yardstick measurement: the best so far `best` (A) against the
/// yardstick, both at the session's depth, over the first `measure_games / 2` ballot openings
/// with the generation's seed. Playing it again gives the same games (the HTML report replays
/// one of them).
pub fn measure_match(best: &Weights, s: &Settings, g: u64) -> (Engine, Engine, MatchSettings) {
    let a = Engine {
        name: "best so far".to_string(),
        eval: (*best).into(),
        config: s.search,
    };
    let b = Engine {
        name: s.ga.yardstick.to_string(),
        eval: s.ga.yardstick.evaluator(),
        config: s.search,
    };
    let settings = MatchSettings {
        book: OpeningBook::Ballot,
        pairs: Some((s.ga.measure_games as usize).div_ceil(2)),
        seed: s.seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        rules: s.rules,
    };
    (a, b, settings)
}

/// Individuals ordered by total plus roulette noise in `[0, factor)`, best first (ties keep
/// the population order).
pub fn roulette_order<R: Rng + ?Sized>(points: &[u32], factor: u32, rng: &mut R) -> Vec<usize> {
    let noisy: Vec<u64> = points
        .iter()
        .map(|&p| {
            p as u64
                + if factor > 0 {
                    rng.random_range(0..factor) as u64
                } else {
                    0
                }
        })
        .collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(noisy[i]));
    order
}

/// The first `count` distinct genotypes in `ranked` order, filled up with duplicates (again in
/// ranked order) when there are not enough distinct ones.
pub fn select_parents(pop: &[Weights], ranked: &[usize], count: usize) -> Vec<Weights> {
    let mut parents: Vec<Weights> = Vec::with_capacity(count);
    for &i in ranked {
        if parents.len() == count {
            break;
        }
        if !parents.contains(&pop[i]) {
            parents.push(pop[i]);
        }
    }
    let mut k = 0;
    while parents.len() < count && !ranked.is_empty() {
        parents.push(pop[ranked[k % ranked.len()]]);
        k += 1;
    }
    parents
}

/// One-point crossover: one cut in `1..len`, tails swapped, two children (of the same set).
pub fn crossover(a: &Weights, b: &Weights, cut: usize) -> (Weights, Weights) {
    let mut c1 = *a;
    let mut c2 = *b;
    c1.values_mut()[cut..].copy_from_slice(&b.values()[cut..]);
    c2.values_mut()[cut..].copy_from_slice(&a.values()[cut..]);
    (c1, c2)
}

/// Children of shuffled pairs of `parents` by one-point crossover, `count` of them; each child is
/// mutated by `kind` with chance `mutation`.
pub fn breed_with<R: Rng + ?Sized>(
    parents: &[Weights],
    count: usize,
    mutation: f64,
    kind: Mutation,
    rng: &mut R,
) -> Vec<Weights> {
    breed(parents, None, count, mutation, kind, rng)
        .into_iter()
        .map(|(w, _)| w)
        .collect()
}

/// [`breed_with`] for individuals that carry [`Steps`] (`steps[i]` is `parents[i]`'s; None:
/// every parent's are those of a newcomer): each child with its steps, the geometric mean of
/// its parents', adapted when it is mutated by [`Mutation::Adaptive`]. Draws the same numbers
/// as [`breed_with`] for the other kinds.
pub fn breed<R: Rng + ?Sized>(
    parents: &[Weights],
    steps: Option<&[Steps]>,
    count: usize,
    mutation: f64,
    kind: Mutation,
    rng: &mut R,
) -> Vec<(Weights, Steps)> {
    let initial = Steps::initial(kind.sigma());
    let mut children = Vec::with_capacity(count + 1);
    if parents.is_empty() {
        return children;
    }
    let steps_of = |i: usize| steps.and_then(|s| s.get(i).copied()).unwrap_or(initial);
    while children.len() < count {
        let mut order: Vec<usize> = (0..parents.len()).collect();
        order.shuffle(rng);
        for pair in order.chunks(2) {
            if children.len() >= count {
                break;
            }
            let (ia, ib) = (pair[0], *pair.get(1).unwrap_or(&pair[0]));
            let (a, b) = (parents[ia], parents[ib]);
            let cut = rng.random_range(1..a.len());
            let (c1, c2) = crossover(&a, &b, cut);
            let st = Steps::mean(steps_of(ia), steps_of(ib));
            children.push((c1, st));
            children.push((c2, st));
        }
    }
    children.truncate(count);
    for (c, st) in children.iter_mut() {
        if rng.random_bool(mutation) {
            match kind {
                Mutation::Adaptive { genes, .. } => mutate_adaptive(c, st, genes, rng),
                _ => mutate(c, kind, rng),
            }
        }
    }
    children
}

/// Fitness-proportionate selection: `count` parents, each drawn with probability proportional
/// to its points (uniformly when every individual scored 0).
pub fn roulette_wheel<R: Rng + ?Sized>(
    pop: &[Weights],
    points: &[u32],
    count: usize,
    rng: &mut R,
) -> Vec<Weights> {
    let total: u64 = points.iter().map(|&p| p as u64).sum();
    (0..count)
        .map(|_| {
            if total == 0 {
                return pop[rng.random_range(0..pop.len())];
            }
            let mut spin = rng.random_range(0..total);
            for (i, &p) in points.iter().enumerate() {
                if spin < p as u64 {
                    return pop[i];
                }
                spin -= p as u64;
            }
            pop[pop.len() - 1]
        })
        .collect()
}

/// Tournament selection: `count` parents, each the one with the most points among `k` drawn at
/// random (with replacement; the first drawn wins a tie).
pub fn tournament_select<R: Rng + ?Sized>(
    pop: &[Weights],
    points: &[u32],
    count: usize,
    k: u32,
    rng: &mut R,
) -> Vec<Weights> {
    (0..count)
        .map(|_| {
            let mut best = rng.random_range(0..pop.len());
            for _ in 1..k {
                let c = rng.random_range(0..pop.len());
                if points[c] > points[best] {
                    best = c;
                }
            }
            pop[best]
        })
        .collect()
}

/// A standard normal draw (Box-Muller on two uniforms of the generator).
fn gaussian<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Mutates one child as `kind` says.
pub fn mutate<R: Rng + ?Sized>(child: &mut Weights, kind: Mutation, rng: &mut R) {
    match kind {
        Mutation::Replace => {
            let i = rng.random_range(0..child.len());
            child[i] = (rng.next_u32() >> 16) as u16 as i16;
        }
        Mutation::Layered { sigma, genes } if matches!(child.set(), ParamSet::Net66(_)) => {
            let linear = crate::eval::NUM_ALL;
            for _ in 0..genes {
                let (i, s) = if rng.random_bool(0.5) {
                    (rng.random_range(0..linear), sigma)
                } else {
                    (rng.random_range(linear..child.len()), (sigma / 8).max(1))
                };
                step(child, i, s, rng);
            }
        }
        Mutation::Gauss { sigma, genes } | Mutation::Layered { sigma, genes } => {
            for _ in 0..genes {
                let i = rng.random_range(0..child.len());
                step(child, i, sigma, rng);
            }
        }
        Mutation::Adaptive { sigma, genes } => {
            mutate_adaptive(child, &mut Steps::initial(sigma), genes, rng)
        }
    }
}

/// A self-adaptive mutation ([`Mutation::Adaptive`]): `steps` first change by log-normal
/// factors (the network's only in a network set), then `genes` weights move by them.
pub fn mutate_adaptive<R: Rng + ?Sized>(
    child: &mut Weights,
    steps: &mut Steps,
    genes: u32,
    rng: &mut R,
) {
    let tau = 1.0 / (2.0 * (child.len() as f64).sqrt()).sqrt();
    let adapt = |s: &mut f32, rng: &mut R| {
        let v = *s as f64 * (tau * gaussian(rng)).exp();
        *s = (v as f32).clamp(STEP_RANGE.0, STEP_RANGE.1);
    };
    let net = matches!(child.set(), ParamSet::Net66(_));
    adapt(&mut steps.sum, rng);
    if net {
        adapt(&mut steps.net, rng);
    }
    let linear = crate::eval::NUM_ALL;
    for _ in 0..genes {
        let (i, s) = match net {
            true if rng.random_bool(0.5) => (rng.random_range(linear..child.len()), steps.net),
            true => (rng.random_range(0..linear), steps.sum),
            false => (rng.random_range(0..child.len()), steps.sum),
        };
        step_by(child, i, s as f64, rng);
    }
}

/// Moves weight `i` by a Gaussian step of standard deviation `sigma`, rounded and clamped.
fn step<R: Rng + ?Sized>(child: &mut Weights, i: usize, sigma: u32, rng: &mut R) {
    step_by(child, i, sigma as f64, rng)
}

/// [`step`] of any size.
fn step_by<R: Rng + ?Sized>(child: &mut Weights, i: usize, sigma: f64, rng: &mut R) {
    let step = (gaussian(rng) * sigma).round();
    let v = (child[i] as f64 + step).clamp(i16::MIN as f64, i16::MAX as f64);
    child[i] = v as i16;
}

/// Mean absolute difference between pairs of individuals, per weight, as a share of 65535.
pub fn diversity(pop: &[Weights]) -> f64 {
    let n = pop.len();
    if n < 2 {
        return 0.0;
    }
    let mut total = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            for (x, y) in pop[i].values().iter().zip(pop[j].values()) {
                total += (*x as i32 - *y as i32).unsigned_abs() as u64;
            }
        }
    }
    let pairs = (n * (n - 1) / 2) as f64;
    total as f64 / pairs / pop[0].len() as f64 / 65535.0
}

/// The generation's best plays the best so far. With `duel_games` 2 (the original): two games,
/// colours swapped, from one ballot opening drawn for the duel, and the challenger takes over
/// if it scores at least as well. With more: `duel_games / 2` distinct ballot openings drawn
/// for the duel, both colours each, and the challenger must score more (a tie keeps the holder).
/// `None` when `stop` said yes before a game.
fn duel(
    challenger: &Weights,
    holder: &Weights,
    s: &Settings,
    g: u64,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Duel> {
    let mut rng = derive(s.seed, Purpose::Duel, g, 0);
    let pairs = (s.ga.duel_games as usize / 2).max(1);
    let openings: Vec<usize> = if pairs == 1 {
        vec![rng.random_range(0..ballot().len())]
    } else {
        let mut all: Vec<usize> = (0..ballot().len()).collect();
        all.shuffle(&mut rng);
        all.into_iter().cycle().take(pairs).collect()
    };
    // Game k: opening k / 2, the challenger (player 0) Black when k is even. Each has its own
    // generator.
    let mut batch = Batch::of_weights(&[*challenger, *holder], s.seed, s.rules);
    batch.jobs = (0..2 * pairs as u64)
        .map(|k| {
            let (b, w) = if k.is_multiple_of(2) { (0, 1) } else { (1, 0) };
            let start = match s.openings {
                OpeningBook::Ballot => Start::Ballot(openings[(k / 2) as usize] as u32),
                OpeningBook::Start => Start::Initial,
            };
            let side = |player| Side::new(player, s.search);
            GameJob::new(side(b), side(w), start, Purpose::Duel, g, k + 1)
        })
        .collect();
    let mut pts = (0u32, 0u32);
    for (k, p) in jobs::run(&batch, &|_, _| {}, stop)?.iter().enumerate() {
        let (result, challenger_black) = (p.result.map(|r| r.0), k.is_multiple_of(2));
        pts.0 += Outcome::points(result, challenger_black);
        pts.1 += Outcome::points(result, !challenger_black);
    }
    Some(Duel {
        challenger: pts.0,
        holder: pts.1,
        replaced: if pairs == 1 {
            pts.0 >= pts.1
        } else {
            pts.0 > pts.1
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn w(v: i16) -> Weights {
        Weights::thesis([v; NUM_PARAMS])
    }

    #[test]
    fn crossover_swaps_tails_at_one_cut() {
        let (c1, c2) = crossover(&w(1), &w(2), 10);
        assert_eq!(&c1.values()[..10], &[1; 10]);
        assert_eq!(&c1.values()[10..], &[2; 50]);
        assert_eq!(&c2.values()[..10], &[2; 10]);
        assert_eq!(&c2.values()[10..], &[1; 50]);
    }

    #[test]
    fn roulette_without_noise_sorts_by_points() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(roulette_order(&[3, 9, 1, 9], 0, &mut rng), vec![1, 3, 0, 2]);
    }

    #[test]
    fn parents_are_distinct_while_possible() {
        let pop = vec![w(1), w(1), w(2), w(3)];
        let p = select_parents(&pop, &[0, 1, 2, 3], 2);
        assert_eq!(p, vec![w(1), w(2)]);
        let same = vec![w(5); 4];
        assert_eq!(select_parents(&same, &[0, 1, 2, 3], 2), vec![w(5), w(5)]);
    }

    #[test]
    fn mutation_changes_at_most_one_weight() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let kids = breed_with(&[w(7), w(7)], 100, 1.0, Mutation::Replace, &mut rng);
        assert_eq!(kids.len(), 100);
        for k in &kids {
            assert!(k.values().iter().filter(|&&x| x != 7).count() <= 1);
        }
        assert!(kids.iter().any(|k| *k != w(7)));
        let none = breed_with(&[w(7), w(7)], 10, 0.0, Mutation::Replace, &mut rng);
        assert!(none.iter().all(|k| *k == w(7)));
    }

    #[test]
    fn diversity_is_zero_for_clones_and_about_a_third_for_random() {
        assert_eq!(diversity(&[w(4), w(4), w(4)]), 0.0);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let pop: Vec<Weights> = (0..16).map(|_| Weights::random(&mut rng)).collect();
        let d = diversity(&pop);
        assert!((0.28..0.39).contains(&d), "{d}");
    }

    #[test]
    fn gaussian_mutation_moves_few_weights_by_small_steps() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let kind = Mutation::Gauss {
            sigma: 500,
            genes: 3,
        };
        let mut moved = 0;
        for _ in 0..500 {
            let mut c = w(1000);
            mutate(&mut c, kind, &mut rng);
            let changed: Vec<i16> = c.values().iter().copied().filter(|&x| x != 1000).collect();
            assert!(changed.len() <= 3);
            // Six standard deviations: a step this large is a bug, not bad luck.
            assert!(changed.iter().all(|&x| (x as i32 - 1000).abs() <= 3000));
            moved += changed.len();
        }
        assert!(moved > 1200, "{moved} weights moved in 500 mutations");
        // Clamped at the ends of the i16 range.
        let mut c = w(i16::MAX);
        for _ in 0..100 {
            mutate(&mut c, kind, &mut rng);
        }
        assert!(c.values().iter().all(|&x| x > 20000));
    }

    #[test]
    fn roulette_wheel_draws_in_proportion_to_points() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let pop = vec![w(0), w(1), w(2)];
        let picks = roulette_wheel(&pop, &[0, 10, 30], 4000, &mut rng);
        let count = |v| picks.iter().filter(|p| **p == w(v)).count();
        assert_eq!(count(0), 0, "no points, never drawn");
        let share = count(2) as f64 / 4000.0;
        assert!((0.72..0.78).contains(&share), "{share}");
        // Nobody scored: uniform.
        let flat = roulette_wheel(&pop, &[0, 0, 0], 300, &mut rng);
        assert!(pop.iter().all(|p| flat.contains(p)));
    }

    #[test]
    fn the_fit_learns_from_the_top_by_points_the_first_among_equals_first() {
        let st = |p: u32| Standing {
            points: p,
            ..Standing::default()
        };
        let standings = [st(3), st(9), st(5), st(9), st(1)];
        // Five in the population, two past bests of the hall of fame after them.
        assert_eq!(
            fit_players(&standings, 7, 3),
            [false, true, true, true, false, false, false]
        );
        assert_eq!(
            fit_players(&standings, 7, 1),
            [false, true, false, false, false, false, false]
        );
        assert_eq!(fit_players(&standings, 7, 0), [true; 7]);
        assert_eq!(
            fit_players(&standings, 7, 5),
            [true, true, true, true, true, false, false]
        );
    }

    #[test]
    fn tournament_selection_favours_the_best() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let pop: Vec<Weights> = (0..8).map(w).collect();
        let points: Vec<u32> = (0..8).collect();
        let picks = tournament_select(&pop, &points, 2000, 4, &mut rng);
        let worst = picks.iter().filter(|p| **p == w(0)).count();
        let best = picks.iter().filter(|p| **p == w(7)).count();
        // P(best) = 1 - (7/8)^4 = 0.41; P(worst) = (1/8)^4.
        assert!(best > 700 && worst < 10, "best {best} worst {worst}");
    }

    #[test]
    fn option_texts_parse_and_print_back() {
        for t in ["truncation", "roulette", "tournament:3"] {
            assert_eq!(t.parse::<Selection>().unwrap().to_string(), t);
        }
        for t in ["replace", "gauss:1500:4"] {
            assert_eq!(t.parse::<Mutation>().unwrap().to_string(), t);
        }
        assert_eq!(
            "gauss:700".parse::<Mutation>(),
            Ok(Mutation::Gauss {
                sigma: 700,
                genes: 1
            })
        );
        for bad in [
            "gauss",
            "gauss:0",
            "gauss:5:0",
            "gauss:5:2243", // beyond MAX_WEIGHTS (2242, net66:32)
            "gauss:x",
            "flip",
        ] {
            assert!(bad.parse::<Mutation>().is_err(), "{bad}");
        }
        for bad in ["tournament:1", "tournament:65", "best"] {
            assert!(bad.parse::<Selection>().is_err(), "{bad}");
        }
    }

    #[test]
    fn random_weights_stay_in_their_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..100 {
            let v = random_weights(ParamSet::Phased132, 300, &mut rng);
            assert_eq!(v.len(), 132);
            assert!(v.values().iter().all(|&x| (-300..=300).contains(&x)));
        }
        let mut a = ChaCha8Rng::seed_from_u64(8);
        let mut b = ChaCha8Rng::seed_from_u64(8);
        assert_eq!(
            random_weights(ParamSet::Thesis60, 32767, &mut a),
            Weights::random(&mut b)
        );
    }

    #[test]
    fn layered_mutation_moves_the_sum_and_the_network_alike_the_network_by_an_eighth() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut sum_moves, mut net_moves, mut net_largest) = (0, 0, 0i32);
        for _ in 0..400 {
            let mut w = Weights::zero_of(ParamSet::Net66(8));
            mutate(
                &mut w,
                Mutation::Layered {
                    sigma: 800,
                    genes: 1,
                },
                &mut rng,
            );
            let (sum, net) = w.values().split_at(crate::eval::NUM_ALL);
            sum_moves += sum.iter().filter(|&&x| x != 0).count();
            let moved: Vec<i32> = net.iter().filter(|&&x| x != 0).map(|&x| x as i32).collect();
            net_moves += moved.len();
            net_largest = moved.iter().fold(net_largest, |m, x| m.max(x.abs()));
        }
        // About half the genes each (the network has 544 of the 610 weights).
        assert!((150..250).contains(&sum_moves), "{sum_moves}");
        assert!((150..250).contains(&net_moves), "{net_moves}");
        // Steps of sigma 100: none near 800.
        assert!(net_largest < 500, "{net_largest}");
        // For a set without a network it is the Gaussian mutation itself.
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
        let (mut x, mut y) = (w(5), w(5));
        mutate(
            &mut x,
            Mutation::Layered {
                sigma: 800,
                genes: 4,
            },
            &mut a,
        );
        mutate(
            &mut y,
            Mutation::Gauss {
                sigma: 800,
                genes: 4,
            },
            &mut b,
        );
        assert_eq!(x, y);
        assert_eq!(
            "layered:800:4".parse::<Mutation>(),
            Ok(Mutation::Layered {
                sigma: 800,
                genes: 4
            })
        );
    }

    #[test]
    fn adaptive_children_carry_their_parents_mean_steps_adapted_when_mutated() {
        let kind: Mutation = "adaptive:800:4".parse().unwrap();
        assert_eq!(
            kind,
            Mutation::Adaptive {
                sigma: 800,
                genes: 4
            }
        );
        assert_eq!(kind.to_string(), "adaptive:800:4");
        let set = ParamSet::Net66(2);
        let parents = [Weights::zero_of(set), Weights::zero_of(set)];
        let steps = [
            Steps {
                sum: 100.0,
                net: 10.0,
            },
            Steps {
                sum: 400.0,
                net: 40.0,
            },
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        // Never mutated: exactly the geometric mean.
        let kids = breed(&parents, Some(&steps), 6, 0.0, kind, &mut rng);
        assert_eq!(kids.len(), 6);
        for (_, st) in &kids {
            assert_eq!(
                *st,
                Steps {
                    sum: 200.0,
                    net: 20.0
                }
            );
        }
        // Always mutated: each child's steps moved (both layers), and its weights by about them.
        let kids = breed(&parents, Some(&steps), 200, 1.0, kind, &mut rng);
        let mut sums = Vec::new();
        for (w, st) in &kids {
            assert!(st.is_valid());
            assert_ne!(st.sum, 200.0);
            assert_ne!(st.net, 20.0);
            sums.push(st.sum);
            assert!(w.values().iter().any(|&v| v != 0));
            let (linear, net) = w.values().split_at(crate::eval::NUM_ALL);
            let big = |xs: &[i16], s: f32| xs.iter().all(|&v| (v.abs() as f32) < 8.0 * s);
            assert!(big(linear, st.sum) && big(net, st.net), "{st:?}");
        }
        // Log-normal factors around 1: about as many steps grew as shrank.
        let grew = sums.iter().filter(|&&s| s > 200.0).count();
        assert!((60..140).contains(&grew), "{grew}");
        // Steps stay in range however far they are pushed.
        let mut st = Steps {
            sum: 32000.0,
            net: 1.0,
        };
        let mut x = Weights::zero_of(set);
        for _ in 0..500 {
            mutate_adaptive(&mut x, &mut st, 1, &mut rng);
            assert!(st.is_valid(), "{st:?}");
        }
    }

    #[test]
    fn adaptive_steps_follow_their_individuals_into_the_next_population() {
        let settings = Settings {
            stop: Stop::Generations(2),
            seed: 3,
            ga: GaOptions {
                params: ParamSet::Net66(2),
                mutation: Mutation::Adaptive {
                    sigma: 800,
                    genes: 4,
                },
                ..GaOptions::default()
            },
            ..Settings::with_population(8)
        };
        let mut s = Session::new(
            "a",
            Settings {
                search: SearchConfig::with_depth(1),
                ..settings
            },
        );
        assert!(
            s.steps.is_empty(),
            "a first population starts at the kind's sigma"
        );
        s.run_generation(&|_| {});
        assert_eq!(s.steps.len(), 8);
        // Children 0..4, elite 4..6, newcomers 6..8 (the settings' quarter each).
        let newcomer = Steps::initial(800);
        assert_eq!(
            newcomer,
            Steps {
                sum: 800.0,
                net: 100.0
            }
        );
        assert_eq!(&s.steps[6..], &[newcomer, newcomer]);
        assert!(s.steps[..4].iter().any(|st| *st != newcomer));
        let before = s.clone();
        s.run_generation(&|_| {});
        // An elite individual of generation 2 that was in generation 2's population keeps its
        // steps.
        for (w, st) in s.population[4..6].iter().zip(&s.steps[4..6]) {
            if let Some(i) = before.population.iter().position(|p| p == w) {
                assert_eq!(*st, before.steps[i]);
            }
        }
    }

    #[test]
    fn a_random_network_starts_at_an_eighth_of_the_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let v = random_weights(ParamSet::Net66(8), 4000, &mut rng);
        let (linear, net) = v.values().split_at(crate::eval::NUM_ALL);
        assert!(linear.iter().all(|&x| (-4000..=4000).contains(&x)));
        assert!(
            linear.iter().any(|&x| x.abs() > 500),
            "the sum keeps the whole range"
        );
        assert!(net.iter().all(|&x| (-500..=500).contains(&x)));
        assert!(
            net.iter().any(|&x| x.abs() > 250),
            "and the network uses its eighth"
        );
    }

    #[test]
    fn endgame_positions_are_kings_only_with_a_side_ahead_and_no_capture() {
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        let mut black_ahead = 0;
        for _ in 0..500 {
            let p = endgame_position(&mut rng);
            let (b, w) = (
                p.pieces(Color::Black).count(),
                p.pieces(Color::White).count(),
            );
            assert_eq!(p.kings(Color::Black).count(), b);
            assert_eq!(p.kings(Color::White).count(), w);
            assert!(b.max(w) >= 2 && b.max(w) <= 3 && b.min(w) == 1, "{b} v {w}");
            assert!(!has_capture(&p));
            black_ahead += (b > w) as u32;
        }
        assert!((150..350).contains(&black_ahead), "{black_ahead}");
    }

    #[test]
    fn a_fitted_newcomer_enters_in_generations_that_fit_and_only_there() {
        let settings = Settings {
            population: 8,
            search: SearchConfig::with_depth(2),
            stop: Stop::Generations(3),
            seed: 5,
            elite: 2,
            newcomers: 2,
            ga: GaOptions {
                fit_every: 2,
                ..GaOptions::default()
            },
            ..Settings::with_population(8)
        };
        let mut fitting = Session::new("f", settings.clone());
        let mut plain = Session::new(
            "p",
            Settings {
                ga: GaOptions {
                    fit_every: 0,
                    ..settings.ga
                },
                ..settings
            },
        );
        for g in 1..=3u64 {
            fitting.run_generation(&|_| {});
            plain.run_generation(&|_| {});
            // The first newcomer's slot: after 4 children and the elite of 2.
            let slot = 6;
            if g == 2 {
                let f = fitting.fitted.clone().expect("generation 2 fits");
                assert!(f.positions >= fit::MIN_POSITIONS, "{f:?}");
                assert!(f.after < f.before, "{f:?}");
                assert_eq!(fitting.population[slot], f.weights);
                assert_ne!(plain.population[slot], f.weights);
                // The fit starts from the best so far and moves it.
                assert_ne!(Some(f.weights), fitting.best_so_far);
                let mut rest = fitting.population.clone();
                rest[slot] = plain.population[slot];
                assert_eq!(
                    rest, plain.population,
                    "the rest of the population as without"
                );
            } else {
                assert!(fitting.fitted.is_none(), "generation {g}");
                if g == 1 {
                    assert_eq!(fitting.population, plain.population);
                }
            }
        }
    }

    #[test]
    fn an_abandoned_generation_leaves_the_session_as_it_was() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let settings = Settings {
            population: 8,
            games: 0,
            search: SearchConfig::with_depth(1),
            factor: 8,
            mutation: 0.9,
            stop: Stop::Generations(10),
            seed: 11,
            openings: OpeningBook::Ballot,
            elite: 2,
            newcomers: 2,
            rules: DrawRules::default(),
            ga: GaOptions {
                hall_of_fame: 1,
                endgame_pairs: 1,
                duel_games: 4,
                measure_every: 1,
                measure_games: 4,
                ..GaOptions::ORIGINAL
            },
        };
        let mut whole = Session::new("s", settings);
        whole.run_generation(&|_| {});
        let before = whole.clone();
        // How often an uninterrupted generation asks whether to stop.
        let asked = AtomicUsize::new(0);
        let count = || {
            asked.fetch_add(1, Ordering::SeqCst);
            false
        };
        let mut once = before.clone();
        let stats = once
            .run_generation_until(&|_| {}, &count)
            .expect("not stopped");
        let asks = asked.load(Ordering::SeqCst);
        assert!(asks > 56 + 16, "{asks}");
        // Stopped at the first ask, half way, and at the last one (the measurement).
        for cut in [0, asks / 2, asks - 1] {
            let seen = AtomicUsize::new(0);
            let stop = || seen.fetch_add(1, Ordering::SeqCst) >= cut;
            let mut s = before.clone();
            assert!(s.run_generation_until(&|_| {}, &stop).is_none(), "{cut}");
            assert_eq!(s, before, "stopped after {cut} asks");
        }
        // And played again, the generation is the one never interrupted.
        whole.run_generation(&|_| {});
        let wall = |mut s: Session| {
            s.elapsed = 0.0;
            s.history.iter_mut().for_each(|h| h.seconds = 0.0);
            s
        };
        assert_eq!(wall(whole), wall(once));
        assert!(stats.measure.is_some());
    }

    #[test]
    fn the_depth_schedule_switches_at_its_generation() {
        let mut st = Settings {
            population: 8,
            games: 0,
            search: SearchConfig::with_depth(2),
            factor: 8,
            mutation: 0.3,
            stop: Stop::Generations(10),
            seed: 1,
            openings: OpeningBook::Ballot,
            elite: 2,
            newcomers: 2,
            rules: DrawRules::default(),
            ga: GaOptions::ORIGINAL,
        };
        assert_eq!((st.depth_at(1), st.depth_at(1000)), (2, 2));
        st.ga.deepen_at = 5;
        st.ga.deepen_to = 4;
        assert_eq!((st.depth_at(4), st.depth_at(5), st.depth_at(9)), (2, 4, 4));
        assert!(st.validate().is_ok());
        st.ga.deepen_to = 0;
        assert!(st.validate().unwrap_err().0.contains("deepened depth"));
        st.ga.deepen_to = 3;
        // A crafted checkpoint cannot ask for a tournament of 4 billion draws per parent.
        st.ga.selection = Selection::Tournament(u32::MAX);
        assert!(st
            .validate()
            .unwrap_err()
            .0
            .contains("tournament selection size"));
    }
}
