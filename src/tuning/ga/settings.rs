//! A session's settings: the stop condition, the operators' kinds and options, their defaults,
//! parsing and checks.

use crate::eval::{ParamSet, MAX_WEIGHTS};
use crate::game::DrawRules;
use crate::genome::EngineSpec;
use crate::matchplay::OpeningBook;
use crate::search::SearchConfig;
use crate::yardstick::Evaluator;
use serde::{Deserialize, Serialize};

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
    /// Depth and other search settings of every tournament game.
    pub search: SearchConfig,
    /// Selection noise: a random integer in `[0, factor)` added to each total before ranking
    /// (0 = none); the order ranks truncation selection and the elite.
    pub factor: u32,
    /// Chance that a child is mutated (by [`GaOptions::mutation`]: one weight replaced, or
    /// some weights moved by Gaussian steps).
    #[serde(rename = "mutation")]
    pub mutation_chance: f64,
    /// When the session ends.
    pub stop: Stop,
    /// Seed of every random choice of the session.
    pub seed: u64,
    /// The openings the tournament games start from.
    pub openings: OpeningBook,
    /// Parents kept, the best so far among them.
    pub elite: usize,
    /// Fresh random individuals per generation.
    pub newcomers: usize,
    /// The draw rules of every game.
    pub rules: DrawRules,
    /// Operators and measurements beyond the original tool's; [`GaOptions::ORIGINAL`] is the
    /// original's behaviour (and what checkpoints of format 1 are read as).
    pub ga: GaOptions,
    /// The outside engine whose own parameters the session tunes (its games are played by
    /// that engine through the Hub protocol, the genome its `int` parameters); None: our
    /// engine's weights. Kept in a checkpoint beside the settings (format 6), not in them.
    #[serde(skip)]
    pub engine: Option<EngineSpec>,
}

/// What makes the next population from a generation's games (`--selection`): the genetic
/// algorithm with its selection of parents, the fit alone, or the mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "MethodCode", into = "MethodCode")]
pub enum Method {
    /// The genetic algorithm: parents chosen by points ([`Selection`]), then crossover and
    /// mutation.
    Ga(Selection),
    /// No selection at all, to measure what the GA's own operators add: the next population is
    /// the fit of the first individual, copied (the fitted vector, playing itself, carried
    /// from generation to generation); without a fit, the population stays as it is.
    FitOnly,
    /// The mean (`crate::ga::Centre`): the population is mirrored pairs around a centre,
    /// `spread` gene units either way, each pair playing only itself; the centre moves toward
    /// the pairs' winners by at most about `rate` thousandths of the spread a generation, and
    /// the answer is the average of the centres.
    Mean {
        /// How far a pair's two individuals lie from the centre in each gene.
        spread: u16,
        /// The centre's largest usual move a generation, in thousandths of the spread.
        rate: u16,
    },
}

/// How the genetic algorithm chooses parents from a generation's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// [`Method`] as checkpoints write it: one enum, its variants in this order (formats 1 on).
#[derive(Clone, Copy, Serialize, Deserialize)]
enum MethodCode {
    Truncation,
    Roulette,
    Tournament(u32),
    FitOnly,
    Mean { spread: u16, rate: u16 },
}

impl From<MethodCode> for Method {
    fn from(c: MethodCode) -> Method {
        match c {
            MethodCode::Truncation => Method::Ga(Selection::Truncation),
            MethodCode::Roulette => Method::Ga(Selection::Roulette),
            MethodCode::Tournament(k) => Method::Ga(Selection::Tournament(k)),
            MethodCode::FitOnly => Method::FitOnly,
            MethodCode::Mean { spread, rate } => Method::Mean { spread, rate },
        }
    }
}

impl From<Method> for MethodCode {
    fn from(m: Method) -> MethodCode {
        match m {
            Method::Ga(Selection::Truncation) => MethodCode::Truncation,
            Method::Ga(Selection::Roulette) => MethodCode::Roulette,
            Method::Ga(Selection::Tournament(k)) => MethodCode::Tournament(k),
            Method::FitOnly => MethodCode::FitOnly,
            Method::Mean { spread, rate } => MethodCode::Mean { spread, rate },
        }
    }
}

/// The spread of `--selection mean` unless given: an eighth of a gene's range either way.
pub const MEAN_SPREAD: u16 = 8192;
/// The rate of `--selection mean` unless given: a tenth of the spread a generation.
pub const MEAN_RATE: u16 = 100;
impl Method {
    /// The mean's spread and rate as reals, when the method is the mean.
    pub fn mean(&self) -> Option<(f64, f64)> {
        match *self {
            Method::Mean { spread, rate } => Some((spread as f64, rate as f64 / 1000.0)),
            _ => None,
        }
    }

    /// The GA's selection, when the method is the GA.
    pub fn selection(&self) -> Option<Selection> {
        match *self {
            Method::Ga(s) => Some(s),
            _ => None,
        }
    }
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

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Ga(s) => s.fmt(f),
            Method::FitOnly => f.write_str("fit-only"),
            Method::Mean { spread, rate } => write!(f, "mean:{spread}:{rate}"),
        }
    }
}

/// A setting's text that names no value of it (the text given): the error of the settings'
/// `FromStr` impls ([`Selection`], [`Mutation`], [`YardstickKind`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSettingError {
    /// Not a [`Selection`].
    #[error(
        "unknown selection '{0}' (expected truncation, roulette, tournament:K with K 2..64, fit-only, or mean[:SPREAD[:RATE]] with SPREAD 1..32767 and RATE 1..1000)"
    )]
    Selection(String),
    /// Not a [`Mutation`].
    #[error("unknown mutation '{0}' (expected replace, or gauss:SIGMA[:GENES], layered:SIGMA[:GENES] or adaptive:SIGMA[:GENES] with SIGMA 1..32767 and GENES 1..{MAX_WEIGHTS})")]
    Mutation(String),
    /// Not a [`YardstickKind`].
    #[error("unknown yardstick '{0}' (expected material, hand or classic)")]
    Yardstick(String),
}

impl std::str::FromStr for Method {
    type Err = ParseSettingError;
    fn from_str(s: &str) -> Result<Self, ParseSettingError> {
        let bad = || ParseSettingError::Selection(s.to_string());
        match s {
            "fit-only" => Ok(Method::FitOnly),
            _ if s == "mean" || s.starts_with("mean:") => {
                let mut parts = s.split(':').skip(1);
                let mut next = |default: u16, most: u16| match parts.next() {
                    None => Some(default),
                    Some(t) => t.parse::<u16>().ok().filter(|v| (1..=most).contains(v)),
                };
                let spread = next(MEAN_SPREAD, i16::MAX as u16).ok_or_else(bad)?;
                let rate = next(MEAN_RATE, 1000).ok_or_else(bad)?;
                if parts.next().is_some() {
                    return Err(bad());
                }
                Ok(Method::Mean { spread, rate })
            }
            _ => s.parse().map(Method::Ga),
        }
    }
}

impl std::str::FromStr for Selection {
    type Err = ParseSettingError;
    fn from_str(s: &str) -> Result<Self, ParseSettingError> {
        let bad = || ParseSettingError::Selection(s.to_string());
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
    Gauss {
        /// Standard deviation of a step, in weight units.
        sigma: u32,
        /// How many weights move (drawn with replacement).
        genes: u32,
    },
    /// As `Gauss`, by layer for a network set (`net66`): each gene is drawn from the weighted
    /// sum or from the network with equal chance, and a network weight moves by `sigma / 8`
    /// (the scale its random weights start at). For the other sets it is `Gauss`.
    Layered {
        /// Standard deviation of a step of the weighted sum, in weight units (a network weight's is
        /// `sigma / 8`).
        sigma: u32,
        /// How many weights move (drawn with replacement).
        genes: u32,
    },
    /// Self-adaptive steps, as evolutionary programming does: every individual carries its own
    /// step sizes (`Steps`: one for the weighted sum, one for a network's weights), starting
    /// at `sigma` (a network's at `sigma / 8`). A child's are the geometric mean of its parents',
    /// and when it is mutated each is first multiplied by `exp(tau * N(0, 1))` (tau =
    /// `1 / sqrt(2 sqrt(n))`, n its weights), then `genes` weights move by Gaussian steps of
    /// those sizes (for `net66` drawn from the sum or the network with equal chance).
    Adaptive {
        /// The starting step size, in weight units.
        sigma: u32,
        /// How many weights move (drawn with replacement).
        genes: u32,
    },
}

/// The step sizes an individual carries under [`Mutation::Adaptive`]: for the weighted sum's
/// weights and for a network's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Steps {
    /// Step size for the weighted sum's weights, in weight units.
    pub sum: f32,
    /// Step size for the network's weights.
    pub net: f32,
}

/// The smallest and largest step size an individual may carry.
pub(super) const STEP_RANGE: (f32, f32) = (1.0, 32767.0);

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
    pub(super) fn mean(a: Steps, b: Steps) -> Steps {
        Steps {
            sum: (a.sum * b.sum).sqrt(),
            net: (a.net * b.net).sqrt(),
        }
    }

    /// Both in `1.0..=32767.0` (and finite): what a checkpoint may hold.
    pub fn is_valid(&self) -> bool {
        [self.sum, self.net]
            .iter()
            .all(|v| (STEP_RANGE.0..=STEP_RANGE.1).contains(v))
    }
}

impl Mutation {
    /// The kind's step size (0 for `replace`), where `Steps` start.
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
    type Err = ParseSettingError;
    fn from_str(s: &str) -> Result<Self, ParseSettingError> {
        let bad = || ParseSettingError::Mutation(s.to_string());
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
    /// What makes the next population: the GA with its selection, the fit alone, or the mean
    /// (`--selection`).
    pub method: Method,
    /// How a child is mutated.
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
    /// The depth of the tournament games from generation `deepen_at` on.
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
    /// The engine the best so far is measured against.
    pub yardstick: YardstickKind,
    /// Every this many generations (0 = never) the best so far is fitted to the results of the
    /// generation's own games (a logistic regression on their quiet positions, `crate::fit`)
    /// and the fitted vector enters the next population in place of a newcomer.
    pub fit_every: u64,
    /// The fit learns only from the games between two of the generation's `fit_top` best
    /// individuals by tournament points (the first among equals first; 0 = every game): the
    /// games of random newcomers and weak children teach play nobody good plays.
    pub fit_top: u32,
    /// The fit learns from the positions of the last `fit_replay` fitting generations (the
    /// replay, `crate::replay`; 0 or 1 = the generation's own games). Kept in the checkpoint
    /// beside the settings (format 7; older checkpoints read as 0).
    #[serde(skip)]
    pub fit_replay: u32,
    /// The share, in percent (0..=100), of each fit target that is the start vector's value of
    /// the position searched to `fit_blend_depth` (the game's result is the rest; 0 = the
    /// result alone). Kept beside the settings as `fit_replay` is.
    #[serde(skip)]
    pub fit_blend: u32,
    /// The depth of the searches of `fit_blend` (1..=`MAX_DEPTH`).
    #[serde(skip)]
    pub fit_blend_depth: u32,
    /// After this generation (0 = never) the session continues as `widen_to`: every weight
    /// vector is widened into it ([`crate::eval::Weights::widen`]: same evaluation, a network at 0) and
    /// newcomers are drawn from it. A two-stage session: the weighted sum first, then a
    /// network over it.
    pub widen_at: u64,
    /// The parameter set the session continues in after generation `widen_at`.
    pub widen_to: ParamSet,
    /// Under the mean, the generations in flight: each generation's pairs are drawn that many
    /// generations ahead, so that the next ones play while the last are told; 1 otherwise.
    /// Kept beside the settings (checkpoint format 10; older ones read as 1).
    #[serde(skip, default = "one")]
    pub in_flight: u32,
}

fn one() -> u32 {
    1
}

impl GaOptions {
    /// The original tool's operators and no measurement (what a checkpoint of format 1 meant).
    pub const ORIGINAL: GaOptions = GaOptions {
        params: ParamSet::Thesis60,
        method: Method::Ga(Selection::Truncation),
        mutation: Mutation::Replace,
        init_range: i16::MAX as u16,
        hall_of_fame: 0,
        deepen_at: 0,
        deepen_to: 0,
        endgame_pairs: 0,
        duel_games: 2,
        measure_every: 0,
        measure_games: 312,
        yardstick: YardstickKind::Material,
        fit_every: 0,
        fit_top: 0,
        fit_replay: 0,
        fit_blend: 0,
        fit_blend_depth: 2,
        widen_at: 0,
        widen_to: ParamSet::Thesis60,
        in_flight: 1,
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
            method: Method::Ga(Selection::Truncation),
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
            yardstick: YardstickKind::Material,
            fit_every: 1,
            fit_top: (DEFAULT_POPULATION / 2) as u32,
            fit_replay: 0,
            fit_blend: 0,
            fit_blend_depth: 2,
            widen_at: 0,
            widen_to: ParamSet::Endgame66,
            in_flight: 1,
        }
    }
}

/// The most generations a replay may hold (`--fit-replay`).
pub const MAX_FIT_REPLAY: u32 = 1000;

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
            mutation_chance: 0.9,
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
            engine: None,
        }
    }
}

impl Settings {
    /// The games a generation plays, on average: its tournament (with a full hall of fame),
    /// its endgame games, the duel (every generation after the first) and a measurement's
    /// share. What `--games-budget` divides by, and what a session says it will cost.
    pub fn games_per_generation(&self) -> f64 {
        let n = self.population;
        let h = self.ga.hall_of_fame as usize;
        let measure = match self.ga.measure_every {
            0 => 0.0,
            k => self.ga.measure_games.div_ceil(2) as f64 * 2.0 / k as f64,
        };
        if self.ga.method.mean().is_some() {
            // Each pair plays itself; no duel, no endgame games.
            return (n / 2 * self.games.max(2).div_ceil(2) * 2) as f64 + measure;
        }
        // The schedule's length does not depend on the draw: any generator counts it.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
        let tournament = crate::tournament::schedule(n + h, self.games, &mut rng)
            .iter()
            .filter(|p| p.black < n || p.white < n)
            .count() as f64;
        let endgames = (2 * n * self.ga.endgame_pairs as usize) as f64;
        tournament + endgames + self.ga.duel_games as f64 + measure
    }

    /// The generations that a budget of `games` games in all buys (at least one).
    pub fn generations_for_games(&self, games: u64) -> u64 {
        ((games as f64 / self.games_per_generation().max(1.0)).round() as u64).max(1)
    }

    /// What the measurements play against, for people: the yardstick's name, or for an outside
    /// engine's session `defaults` (the engine with its declared values).
    pub fn yardstick_name(&self) -> String {
        match &self.engine {
            Some(_) => "defaults".to_string(),
            None => self.ga.yardstick.to_string(),
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
pub enum YardstickKind {
    /// Men 100, kings 160, for both sides.
    Material,
    /// The hand-made value function (see [`crate::yardstick::hand`]).
    Hand,
    /// The classical hand-written evaluation (see [`crate::yardstick::classic`]).
    Classic,
}

impl std::fmt::Display for YardstickKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            YardstickKind::Material => "material",
            YardstickKind::Hand => "hand",
            YardstickKind::Classic => "classic",
        })
    }
}

impl std::str::FromStr for YardstickKind {
    type Err = ParseSettingError;
    fn from_str(s: &str) -> Result<Self, ParseSettingError> {
        match s {
            "material" => Ok(YardstickKind::Material),
            "hand" => Ok(YardstickKind::Hand),
            "classic" => Ok(YardstickKind::Classic),
            _ => Err(ParseSettingError::Yardstick(s.to_string())),
        }
    }
}

impl YardstickKind {
    /// The yardstick's evaluation.
    pub fn evaluator(&self) -> Evaluator {
        match self {
            YardstickKind::Material => crate::eval::material().into(),
            YardstickKind::Hand => Evaluator::Hand,
            YardstickKind::Classic => Evaluator::Classic,
        }
    }
}

/// The widenings a session may take.
pub(super) const WIDENINGS: &str =
    "only thesis60 -> endgame66 -> phased132, thesis60 or endgame66 -> net66, net66:H -> net66 \
     with more units";

/// Weights of one set that do not widen into another: one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot continue a {from} session as {to}: {}", WIDENINGS)]
pub struct WidenError {
    /// The session's parameter set.
    pub from: ParamSet,
    /// The parameter set asked for.
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
}
