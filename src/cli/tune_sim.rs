//! `checkers-ga tune-sim`: the tuners run on the tuning simulator (`sim:N`), many seeds each,
//! in-process; one line per tuner, parameter count and budget: `regret TUNER PARAMS GAMES MEAN
//! LOW HIGH` (docs/simulator.md).

use super::common::say;
use super::evolve_args::SettingArgs;
use checkers_ga::store::TunerKind;
use checkers_ga::{check_sims, run_sims, Interval, SimError, SimLine, SimRun, SimSetup};
use clap::Parser;
use std::time::Instant;

/// The most seeds a command may ask for.
const MAX_SEEDS: u64 = 100_000;

#[derive(clap::Args)]
pub struct TuneSimArgs {
    /// The tuners, comma-separated: ga (the GA of `new --engine sim:N --games-budget GAMES`),
    /// spsa (`spsa --engine sim:N --games GAMES`), or any other one-file tuner by its
    /// command's name (`NAME --engine sim:N --games GAMES`); each tuner's settings that the
    /// simulator takes are `--NAME-SETTING` below
    #[arg(long, value_name = "TUNER,...", value_delimiter = ',', required = true)]
    pub tuner: Vec<TunerKind>,
    /// The models' parameter counts, comma-separated (the simulator sim:N of each)
    #[arg(long, value_name = "N,...", value_delimiter = ',', required = true)]
    pub params: Vec<usize>,
    /// The budgets in games, comma-separated
    #[arg(long, value_name = "GAMES,...", value_delimiter = ',', required = true)]
    pub games: Vec<u64>,
    /// Runs of each tuner, parameter count and budget, with the tuner seeds FIRST..FIRST+K-1
    #[arg(long, value_name = "K", default_value_t = 20)]
    pub seeds: u64,
    /// The first tuner seed
    #[arg(long, value_name = "FIRST", default_value_t = 1)]
    pub first_seed: u64,
    /// The models' seed (sim:N:SEED): the landscape every run of N parameters meets
    #[arg(long, value_name = "SEED", default_value_t = checkers_ga::DEFAULT_MODEL_SEED)]
    pub model_seed: u64,
    /// Each one-file tuner's settings on the simulator (`--cmaes-rate 0.5` gives `("cmaes",
    /// "rate", "0.5")`): flags made from the tuners' registrations ([`super::one_file`]).
    #[arg(skip)]
    pub tuner_options: Vec<(&'static str, &'static str, String)>,
    /// Worker threads, each playing whole runs (0 = one per core); the figures are the same at
    /// any count
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// After each regret line, `detail` lines: the regret of the declared values, and for the
    /// GA that of the last population's mean, its best (by the model), its best quarter's mean
    /// and its tournament winner, the generations and the games played
    #[arg(long)]
    pub detail: bool,
    /// No lines on stderr (what runs, how long they took)
    #[arg(long)]
    pub quiet: bool,
    /// The GA's settings over the defaults of `new --engine`, as `new` takes them, after `--`
    /// (e.g. `-- --duel-games 96 --population 16`); not --generations, --time or
    /// --games-budget (the budget is --games)
    #[arg(last = true, value_name = "NEW-FLAGS", allow_hyphen_values = true)]
    pub ga: Vec<String>,
}

/// `new`'s session flags, read from what follows `--`.
#[derive(clap::Parser)]
#[command(name = "tune-sim --", no_binary_name = true, disable_help_flag = true)]
struct GaFlags {
    #[command(flatten)]
    session: SettingArgs,
}

pub fn run(a: TuneSimArgs) -> anyhow::Result<()> {
    if a.seeds < 2 || a.seeds > MAX_SEEDS {
        usage!(
            "--seeds {} must be 2..{MAX_SEEDS} (an interval needs two)",
            a.seeds
        );
    }
    if a.first_seed.checked_add(a.seeds).is_none() {
        usage!(
            "--first-seed {} leaves no room for {} seeds",
            a.first_seed,
            a.seeds
        );
    }
    checkers_ga::check_threads(a.threads)?;
    let flags = match GaFlags::try_parse_from(&a.ga) {
        Ok(f) => f.session,
        Err(e) => {
            let text = e.render().to_string();
            let line = text.lines().next().unwrap_or("").trim();
            let line = line.strip_prefix("error: ").unwrap_or(line);
            usage!("the GA's settings after --: {line}")
        }
    };
    if flags.generations.is_some() || flags.time.is_some() || flags.games_budget.is_some() {
        usage!(
            "the GA's settings after -- take no --generations, --time or --games-budget: its \
             budget is --games"
        );
    }
    let setup = SimSetup {
        model_seed: a.model_seed,
        ga: flags.overrides(),
        options: a.tuner_options.clone(),
    };
    // The lines' order: tuner, parameters, budget; the runs of a line are its seeds.
    let lines = SimLine::grid(&a.tuner, &a.params, &a.games);
    let seeds = a.first_seed..a.first_seed + a.seeds;
    let runs: Vec<SimRun> = lines.iter().flat_map(|l| l.runs(seeds.clone())).collect();
    // Every setting is checked before a run, each tuner's whether or not it runs: what is
    // refused is the command line, said by its flags.
    match check_sims(&runs, &setup) {
        Ok(()) => {}
        Err(SimError::Games(g)) => {
            usage!("--games {g} must be 2..{}", checkers_ga::MAX_TUNER_GAMES)
        }
        Err(SimError::Params(n)) => {
            usage!("--params {n} must be 1..{}", checkers_ga::MAX_SIM_PARAMS)
        }
        Err(SimError::Setting { tuner, why }) => {
            let flags: Vec<String> = super::one_file::sim_flags(tuner)
                .into_iter()
                .map(|(flag, _)| format!("--{flag}"))
                .collect();
            usage!("{} ({}): {why}", tuner.label, flags.join(", "));
        }
        Err(e) => usage!("{e}"),
    }
    if !a.quiet {
        eprintln!(
            "tune-sim: {} runs ({} lines of {} seeds), model seed {}",
            runs.len(),
            lines.len(),
            a.seeds,
            a.model_seed
        );
    }
    let started = Instant::now();
    let results = run_sims(&runs, &setup, a.threads).map_err(|e| anyhow::anyhow!(e))?;
    let figures = |i: Interval| format!("{:.1} {:.1} {:.1}", i.mean, i.low, i.high);
    for (line, of) in lines.iter().zip(results.chunks(a.seeds as usize)) {
        let head = format!("{} {} {}", line.tuner, line.params, line.games);
        let (regret, details) = line.summary(of);
        say(&format!("regret {head} {}", figures(regret)));
        if a.detail {
            for (name, i) in details {
                say(&format!("detail {head} {name} {}", figures(i)));
            }
        }
    }
    if !a.quiet {
        eprintln!(
            "tune-sim: {} runs in {:.1} s",
            runs.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
