//! The flags of `checkers-ga new` and `checkers-ga resume`: a session's settings (turned into
//! the library's [`Overrides`]), how a run goes (into its [`checkers_ga::SessionOptions`]), and
//! what only `new` or only `resume` takes.

use checkers_ga::matchplay::OpeningBook;
use checkers_ga::store::TunerKind;
use checkers_ga::{Method, Mutation, Overrides, ParamSet, YardstickKind};
use std::path::PathBuf;

/// Settings of a session. With `new`, an absent option takes its default; with `resume`, it
/// keeps the checkpoint's value.
#[derive(clap::Args, Default)]
pub struct SettingArgs {
    /// Individuals per generation, a multiple of 4 [new: 32; new --engine: 16]
    #[arg(long)]
    pub population: Option<usize>,
    /// Games per individual per generation, 0 = all against all twice (--selection mean: the
    /// games each mirrored pair plays, 0 = 2) [new: 0]
    #[arg(long)]
    pub games: Option<usize>,
    /// Search depth of the tournament games [new: 4]
    #[arg(long)]
    pub depth: Option<u32>,
    /// Selection noise: a random integer in [0, F) added to each total before ranking
    /// (truncation selection and the elite) [new: 8]
    #[arg(long)]
    pub factor: Option<u32>,
    /// Chance that a child is mutated, 0..1 [new: 0.9]
    #[arg(long)]
    pub mutation: Option<f64>,
    /// Stop after this many generations in all [new: 200]
    #[arg(long, conflicts_with = "time")]
    pub generations: Option<u64>,
    /// Stop once this many seconds of evolution in all have passed (a generation still under
    /// way then is abandoned at a game boundary and not saved)
    #[arg(long)]
    pub time: Option<f64>,
    /// Stop after about this many games in all (tournaments, duels, measurements): as many
    /// generations as they buy with the other settings, e.g. 4000
    #[arg(long, value_name = "GAMES", conflicts_with_all = ["time", "generations"],
        value_parser = clap::value_parser!(u64).range(1..))]
    pub games_budget: Option<u64>,
    /// Where games start: ballot or start [new: ballot]
    #[arg(long)]
    pub openings: Option<OpeningBook>,
    /// Parents kept into the next generation, the best so far among them [new: population/4]
    #[arg(long)]
    pub elite: Option<usize>,
    /// Fresh random individuals per generation [new: population/4]
    #[arg(long)]
    pub newcomers: Option<usize>,
    /// Game length cap in plies [new: 300, as match and play]
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Plies without capture or man move that draw, 0 = off [new: 80, the 40-move rule]
    #[arg(long)]
    pub quiet_plies: Option<u32>,
    /// The parameters the weights weigh: thesis60, endgame66, phased132, net66[:H] (a
    /// network over the 66 values with H hidden units, 1..=32, 8 when not given) or board[:H]
    /// (a network over the pieces on the board, H 1..=32, 32 when not given) [new: net66;
    /// with --from, thesis60 unless given]
    #[arg(long, value_name = "SET")]
    pub params: Option<ParamSet>,
    /// Parent selection: truncation (the original: points plus noise, top half), roulette
    /// (fitness-proportionate), tournament:K, fit-only (no GA: the population is the fitted
    /// vector, copied, to measure what the GA adds), or mean[:SPREAD[:RATE]] (mirrored pairs
    /// around a centre that their games move, the answer the centres' average; SPREAD in gene
    /// units, RATE in thousandths of it) [new: truncation; new --engine: mean:8192:100, and
    /// mean:4096:200 for more than 16 tuned parameters]
    #[arg(long)]
    pub selection: Option<Method>,
    /// Mutation: replace (one weight replaced by a random i16, the original),
    /// gauss:SIGMA[:GENES] (GENES weights moved by Gaussian steps), or layered:SIGMA[:GENES]
    /// (for net66: genes drawn from the sum and the network alike, network steps SIGMA/8), or
    /// adaptive:SIGMA[:GENES] (every individual carries its own step sizes, starting at SIGMA,
    /// inherited and mutated) [new: gauss:800:4; new --engine: gauss:2048:N/4, a quarter of
    /// the N tuned parameters, at least one]
    #[arg(long = "mutation-kind", value_name = "KIND")]
    pub mutation_kind: Option<Mutation>,
    /// Random weights are drawn uniformly from -R..R (32767 = the whole i16 range) [new: 4000;
    /// new --engine: 8192, around the declared values]
    #[arg(long, value_name = "R")]
    pub init_range: Option<u16>,
    /// Past bests that play in every tournament as extra opponents, 0 = none [new: 0]
    #[arg(long, value_name = "H")]
    pub hall_of_fame: Option<u32>,
    /// A depth schedule: from generation G on, games search to depth D (G:D; 0:0 = never)
    /// [new: never]
    #[arg(long, value_name = "G:D", value_parser = parse_deepen)]
    pub deepen: Option<(u64, u32)>,
    /// Endgame pairs per individual: each also plays its next E ring neighbours from a
    /// kings-only ending drawn for the pair (2 or 3 kings against 1), both sides [new: 0]
    #[arg(long, value_name = "E")]
    pub endgame_pairs: Option<u32>,
    /// Games of the duel that decides the best so far (even; 2 = the original, a tie goes to the
    /// challenger; more: distinct ballot openings, a tie keeps the holder) [new: 32]
    #[arg(long, value_name = "N")]
    pub duel_games: Option<u32>,
    /// Measure the best so far against the yardstick every K generations, 0 = never [new: 50]
    #[arg(long, value_name = "K")]
    pub measure_every: Option<u64>,
    /// Games of each measurement (the first N/2 ballot openings, both colours) [new: 312]
    #[arg(long, value_name = "N")]
    pub measure_games: Option<u32>,
    /// The fixed opponent of the measurements: material, hand or classic [new: material]
    #[arg(long, value_name = "NAME")]
    pub yardstick: Option<YardstickKind>,
    /// Every K generations fit the best so far to the generation's own games (logistic
    /// regression on their quiet positions) and let the fitted vector in as a newcomer,
    /// 0 = never [new: 1; new --engine: 0, the fit learns our evaluation only]
    #[arg(long, value_name = "K")]
    pub fit_every: Option<u64>,
    /// The fit learns only from the games between two of the generation's K best individuals
    /// by tournament points, 0 = from every game [new: population/2]
    #[arg(long, value_name = "K")]
    pub fit_top: Option<u32>,
    /// The fit learns from the positions of the last K fitting generations' games (a replay
    /// kept in the checkpoint), 0 or 1 = the generation's own games [new: 0]
    #[arg(long, value_name = "K")]
    pub fit_replay: Option<u32>,
    /// Each fit's target blends the game's result with the best so far's value of the position
    /// searched to DEPTH, PCT percent of it (0 = the result alone) [new: 0:2]
    #[arg(long, value_name = "PCT[:DEPTH]", value_parser = parse_blend)]
    pub fit_blend: Option<(u32, u32)>,
    /// A two-stage session: after generation G continue as SET, every vector widened into it
    /// (the same evaluation; e.g. 1000:net66 puts a network at 0 over the weighted sum);
    /// 0:SET = never [new: never]
    #[arg(long, value_name = "G:SET", value_parser = parse_widen)]
    pub widen: Option<(u64, ParamSet)>,
    /// Under --selection mean: generations in flight, each generation's pairs drawn that many
    /// generations ahead so that their games start while the last generation's are told (1:
    /// each generation waits for the one before; 0: the default; at most 64; the results are
    /// the same at any thread count). With --tuner cmaes, CMA-ES's (cmaes --in-flight) [new: 1;
    /// new --engine: 3 from 9 to 16 tuned parameters, else 1; beyond 16 CMA-ES, the default
    /// there, keeps 3]
    #[arg(long, value_name = "G")]
    pub in_flight: Option<u32>,
}

/// Options of a run that are not part of the session's identity.
#[derive(clap::Args)]
pub struct RunArgs {
    /// With an outside engine (new --engine, or its session resumed): seconds it has for its
    /// handshake (`hub` ... `wait`, `init` ... `ready`) before it counts as never having
    /// answered [default: 10]
    #[arg(long, value_name = "S")]
    pub handshake_timeout: Option<f64>,
    /// Worker threads (0 = one per core); results are the same at any count
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Keep the newest K checkpoints and those of every --keep-every'th generation; 0 keeps
    /// every checkpoint (the history file holds every generation either way) [new: 10; resume:
    /// the session's]
    #[arg(long, value_name = "K")]
    pub keep: Option<usize>,
    /// With --keep K: also keep the checkpoint of every M-th generation (0 = only the newest K)
    /// [new: 100; resume: the session's]
    #[arg(long, value_name = "M")]
    pub keep_every: Option<u64>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// Write the best weights to DIR/NAME-best.json instead of the session folder's best.json
    /// (POPULATIONS/NAME/best.json)
    #[arg(long, value_name = "DIR")]
    pub weights_dir: Option<PathBuf>,
    /// No progress line, no per-generation lines and no summary
    #[arg(long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// One line per generation on a terminal too (off a terminal there always is one), and the
    /// path of each checkpoint written
    #[arg(long)]
    pub verbose: bool,
    /// Write a self-contained HTML report of the session to FILE after the run's first
    /// generation, at every measurement (of an outside engine's session, also every 5% of its
    /// generations) and at the end; the page reloads
    /// itself, so a browser left open follows the session
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Overwrite the best-weights file even when it holds the best of another session, of
    /// another seed, or of a later generation than this run starts from (another branch)
    #[arg(long)]
    pub force: bool,
}

#[derive(clap::Args)]
pub struct NewArgs {
    #[command(flatten)]
    pub session: SettingArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Seed of every random choice (drawn, printed and stored when absent)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Session name: its checkpoints go to POPULATIONS/NAME/ [default: two words drawn from the
    /// seed, e.g. amber-otter]
    #[arg(long)]
    pub name: Option<String>,
    /// Start from a population file of the original tool
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Put these weights into the first population (repeatable), replacing random ones: any
    /// file `show` reads, a session folder (its best so far), or `material`, `thesis`, `random`
    #[arg(long, value_name = "FILE|FOLDER|NAME")]
    pub include: Vec<String>,
    /// Tune an outside Hub engine's own int parameters instead of our weights: the engine's
    /// command line (e.g. "python3 examples/hub_engine.py"; a hub: prefix is allowed). Its games
    /// search to --depth; there is no fit; the yardstick is the engine with its declared values
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// With --engine: the parameters to tune, by the engine's names (comma-separated)
    /// [default: every int parameter it declares with min < max]; under mpirun write
    /// --tune-params (Open MPI takes --tune for itself)
    #[arg(
        long,
        visible_alias = "tune-params",
        value_name = "NAME,...",
        value_delimiter = ',',
        requires = "engine"
    )]
    pub tune: Vec<String>,
    /// With --engine: a parameter set the same for every individual, NAME=VALUE (repeatable)
    #[arg(long, value_name = "NAME=VALUE", requires = "engine")]
    pub engine_option: Vec<String>,
    /// With --engine: seconds a move may take before the engine counts as hung (it loses that
    /// game, which is logged) [default: 60]
    #[arg(long, value_name = "S", requires = "engine")]
    pub move_timeout: Option<f64>,
    /// With --engine: play every tuning game on a clock instead of to --depth, as `match --tc`
    /// does: SECONDS per move (e.g. 0.1) or GAME+INC (e.g. 10+0.1), sent as Hub `level` lines
    /// with the time left; a game lost on time is a loss, and is logged. Not reproducible
    #[arg(long, value_name = "SECONDS|GAME+INC", requires = "engine")]
    pub tc: Option<checkers_ga::TimeControl>,
    /// With --tc: how far past its clock a move may end before the side loses on time, in
    /// milliseconds (for the time a move takes through the pipe, or on a busy machine)
    /// [default: 0]
    #[arg(long, value_name = "MS", requires = "engine")]
    pub time_margin: Option<u64>,
    /// With --engine: the tuner, ga (this command's genetic algorithm, the mean by default)
    /// or a one-file tuner by its command's name (its session as `checkers-ga NAME` starts
    /// it, at its defaults, for --games-budget games, 4000 when not given) [default: ga, or
    /// by the engine's parameter count]
    #[arg(long, value_name = "NAME", requires = "engine", value_parser = engine_tuners())]
    pub tuner: Option<TunerKind>,
}

/// `--tuner`'s values: `ga` and every registered tuner's command.
fn engine_tuners() -> impl clap::builder::TypedValueParser<Value = TunerKind> {
    use clap::builder::TypedValueParser;
    let tuners: Vec<_> = checkers_ga::store::one_file_tuners()
        .into_iter()
        .filter(|k| k.start.is_some())
        .collect();
    let names = std::iter::once("ga").chain(tuners.iter().map(|k| k.name));
    clap::builder::PossibleValuesParser::new(names.collect::<Vec<_>>()).map(
        move |name| match tuners.iter().find(|k| k.name == name) {
            Some(k) => TunerKind::OneFile(k),
            None => TunerKind::Ga,
        },
    )
}

#[derive(clap::Args)]
pub struct ResumeArgs {
    /// A checkpoint file, a session folder or a session name, of any tuner (default: the newest
    /// session under the populations folder, whichever tuner's)
    pub file: Option<String>,
    #[command(flatten)]
    pub session: SettingArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `G:SET` of `--widen`.
fn parse_widen(s: &str) -> Result<(u64, ParamSet), String> {
    let bad = || format!("'{s}': expected G:SET, e.g. 1000:net66");
    let (g, set) = s.split_once(':').ok_or_else(bad)?;
    let g: u64 = g.parse().map_err(|_| bad())?;
    let set: ParamSet = set.parse().map_err(|e| format!("'{s}': {e}"))?;
    Ok((g, set))
}

/// `PCT[:DEPTH]` of `--fit-blend` (depth 2 when not given).
fn parse_blend(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not PCT[:DEPTH] (a percentage and a depth, e.g. 30:2)");
    let (p, d) = s.split_once(':').unwrap_or((s, "2"));
    Ok((p.parse().map_err(|_| bad())?, d.parse().map_err(|_| bad())?))
}

/// `G:D` of `--deepen`.
fn parse_deepen(s: &str) -> Result<(u64, u32), String> {
    let bad = || format!("'{s}' is not G:D (a generation and a depth, e.g. 1500:3)");
    let (g, d) = s.split_once(':').ok_or_else(bad)?;
    Ok((g.parse().map_err(|_| bad())?, d.parse().map_err(|_| bad())?))
}

impl SettingArgs {
    pub fn overrides(&self) -> Overrides {
        Overrides {
            population: self.population,
            games: self.games,
            depth: self.depth,
            factor: self.factor,
            mutation: self.mutation,
            generations: self.generations,
            time: self.time,
            games_budget: self.games_budget,
            openings: self.openings,
            elite: self.elite,
            newcomers: self.newcomers,
            max_plies: self.max_plies,
            quiet_plies: self.quiet_plies,
            params: self.params,
            method: self.selection,
            mutation_kind: self.mutation_kind,
            init_range: self.init_range,
            hall_of_fame: self.hall_of_fame,
            deepen: self.deepen,
            endgame_pairs: self.endgame_pairs,
            duel_games: self.duel_games,
            measure_every: self.measure_every,
            measure_games: self.measure_games,
            yardstick: self.yardstick,
            fit_every: self.fit_every,
            fit_top: self.fit_top,
            fit_replay: self.fit_replay,
            fit_blend: self.fit_blend,
            widen: self.widen,
            in_flight: self.in_flight,
        }
    }
}

impl RunArgs {
    pub fn library(&self) -> checkers_ga::SessionOptions {
        checkers_ga::SessionOptions {
            threads: self.threads,
            keep: self.keep,
            keep_every: self.keep_every,
            populations: self.populations.clone(),
            weights_dir: self.weights_dir.clone(),
            force: self.force,
        }
    }
}
