//! `checkers-ga hub`: our engine as a Hub engine on standard input and output (the protocol of
//! draughts engines that pydraughts and Hub GUIs drive). Nothing but the protocol is written to
//! standard output; a bad PLAYER is a one-line error before anything is said.

use super::common::evaluator_arg;
use checkers_ga::{serve_hub, tunable_params, HubEngineOptions, SearchParams};

#[derive(clap::Args)]
pub struct HubArgs {
    /// The evaluation: a weight file (or anything `show` reads), a shipped weight set's name,
    /// or a built-in player; the `weights` parameter of the protocol changes it
    #[arg(default_value = "evolved-hour", value_name = "PLAYER")]
    pub player: String,
    /// The depth searched when the client sends no `level` (1..30; `depth` parameter)
    #[arg(long, default_value_t = HubEngineOptions::default().depth)]
    pub depth: u32,
    /// How ties among the best root moves are broken: `random` (from --seed) or `first` in
    /// generation order, so a fixed-depth move depends only on the position (`tie-break`
    /// parameter)
    #[arg(long, default_value = "random", value_parser = ["random", "first"])]
    pub tie_break: String,
    /// Seed of the random tie-breaks (`seed` parameter)
    #[arg(long, default_value_t = HubEngineOptions::default().seed)]
    pub seed: u64,
    /// Declare each weight of PLAYER as an int parameter named as `show` names it (`men`,
    /// `opp_kings`...; -32768..32767), so a client can tune the weights with `set-param`.
    /// PLAYER must be a linear weighted sum (thesis60 or endgame66)
    #[arg(long)]
    pub tunable: bool,
    /// With --tunable: the weights declare -R..R as their range (a tuner's steps are a share of
    /// the declared range; e.g. 1000 for weights near material's, a man 100)
    #[arg(long, value_name = "R", default_value_t = 32767, requires = "tunable",
          value_parser = clap::value_parser!(i16).range(1..))]
    pub tunable_range: i16,
    /// Declare the constants of the search's reductions and pruning as int parameters
    /// (`lmr-depth`, `lmr-moves`, `lmr-reduction`, `aspiration`, `futility`,
    /// `futility-depth`) at their tuned defaults, applied at every level, fixed depths
    /// included; alone or beside --tunable. Without it (and --search-params): none at a
    /// fixed depth, the tuned defaults on a clock
    #[arg(long)]
    pub tunable_search: bool,
    /// The search's reductions and pruning at every level, fixed depths included: `neutral`
    /// (every feature off, the plain alpha-beta), `default` (the tuned defaults), either
    /// followed by `,NAME=VALUE` items (e.g. `neutral,futility=60`); with --tunable-search,
    /// the values its parameters start at
    #[arg(long, value_name = "PARAMS")]
    pub search_params: Option<String>,
}

pub fn run(a: HubArgs) -> anyhow::Result<()> {
    checkers_ga::check_depth(a.depth, "--depth")?;
    let seed = a.seed;
    let load = move |spec: &str| {
        let (_, eval) = evaluator_arg(spec, seed, 0).map_err(|e| format!("{e:#}"))?;
        let man = checkers_ga::man_value(&eval).map(f64::from);
        Ok((eval, man))
    };
    // The player is read before the protocol starts, so a bad one is a usage error.
    let eval = match load(&a.player) {
        Ok((eval, _)) => eval,
        Err(e) => usage!("PLAYER '{}': {e}", a.player),
    };
    if a.tunable {
        if let Err(e) = tunable_params(&eval) {
            usage!("--tunable: PLAYER '{}': {e}", a.player);
        }
    }
    let search_params = match a.search_params.as_deref().map(SearchParams::parse) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => usage!("--search-params: {e}"),
    };
    let options = HubEngineOptions {
        weights: a.player,
        depth: a.depth,
        first_ties: a.tie_break == "first",
        seed: a.seed,
        tunable: a.tunable,
        tunable_range: a.tunable_range,
        tunable_search: a.tunable_search,
        search_params,
        ..HubEngineOptions::default()
    };
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    serve_hub(stdin, stdout, options, &load)
}
