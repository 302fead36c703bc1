//! Command-line definitions and dispatch. Each subcommand's reporting lives in its own file.
//!
//! Exit status: 2 for a bad command line, whether clap finds it (an unknown flag, a value that
//! does not parse) or a check after parsing (a value out of range, options that do not go
//! together: a [`Usage`] error, or the library's check of a value the user gave,
//! [`checkers_ga::is_bad_input`], see [`is_usage_error`]); 1 for a failure while working (a
//! file that cannot be read or written).

/// Returns early from a command with a [`Usage`] error (exit status 2):
/// `usage!("--games {g} must be 1..100000")`.
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err($crate::cli::Usage(format!($($arg)*)).into())
    };
}

mod bench;
mod common;
mod engine_end;
mod engine_progress;
mod engine_tuner;
mod eval;
mod evolve;
mod evolve_args;
mod evolve_lines;
mod export;
mod features;
mod finals;
mod ga_engine;
mod history;
mod history_args;
mod history_elo;
mod history_tuner;
mod hub;
mod matchcmd;
mod one_file;
mod pdn;
mod perft;
mod play;
mod report;
mod schedule;
mod show;
mod tune_sim;
mod tuner_session;
mod tuners_chart;

pub use common::{command_prefix, AlreadySaid, Interrupted};

/// A bad command line found after parsing: a value out of range, options that do not go
/// together. Judged from the command line alone, never from a file; the command exits with 2,
/// as for the errors clap finds.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Is `e` a bad command line (exit status 2) rather than a failure while working (1)? A
/// [`Usage`] error, or the library's check of a value the user gave
/// ([`checkers_ga::is_bad_input`]), wherever in the chain of causes.
pub fn is_usage_error(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.is::<Usage>() || checkers_ga::is_bad_input(c))
}

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "checkers-ga",
    version,
    about = "Evolve English draughts evaluation weights with a genetic algorithm, and play with them"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Let an outside engine's games to a depth run on any core, a session's --threads 0 two a
    /// core (by default each game's thread and engines share one core, one game a core); for an
    /// engine that searches on several threads or busy-waits
    #[arg(long, global = true)]
    pub no_pin: bool,
}

// Made once a process: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Start an evolution session (a checkpoint is written after every generation)
    #[command(allow_negative_numbers = true)]
    New(evolve::NewArgs),
    /// Resume a session from a checkpoint, optionally with new settings
    #[command(allow_negative_numbers = true)]
    Resume(evolve::ResumeArgs),
    /// Evaluation and search speed on a fixed position set (single thread)
    #[command(allow_negative_numbers = true)]
    Bench(bench::BenchArgs),
    /// Count the leaf nodes of the move tree (move generator check and speed test)
    #[command(allow_negative_numbers = true)]
    Perft(perft::PerftArgs),
    /// Play a game: human or computer on either side, the board drawn after every move
    #[command(allow_negative_numbers = true)]
    Play(play::PlayArgs),
    /// Two weight files play the ballot openings twice each with colours swapped; prints Elo
    #[command(allow_negative_numbers = true)]
    Match(matchcmd::MatchArgs),
    /// Print the evaluation parameters of a position for one side (the thesis's 60 unless
    /// --params names a larger set: endgame66 and net66, the default of `new`, have 66)
    #[command(allow_negative_numbers = true)]
    Features(features::FeaturesArgs),
    /// Print a position's static value with the given weights: both players' values, the leaf
    /// values for either root player and the side to move's, in units and in men, with the
    /// export's function that gives each
    #[command(allow_negative_numbers = true)]
    Eval(eval::EvalArgs),
    /// Print the weights of a weight file, checkpoint, session or population file, one row per
    /// parameter (66 and a network's layers for the default set net66; 60, 66 or 132 for the
    /// others)
    #[command(allow_negative_numbers = true)]
    Show(show::ShowArgs),
    /// Write weights as JSON, CSV, Rust source, a C header or the original text format
    #[command(allow_negative_numbers = true)]
    Export(export::ExportArgs),
    /// A session's statistics per generation, as a table, an SVG chart and Elo measurements
    #[command(allow_negative_numbers = true)]
    History(history::HistoryArgs),
    /// Write one self-contained HTML page of a session: Elo, diversity, weights, a game
    #[command(allow_negative_numbers = true)]
    Report(report::ReportArgs),
    /// Serve our engine over the Hub protocol of draughts engines on standard input and output
    /// (for pydraughts, Hub GUIs and match tools)
    #[command(allow_negative_numbers = true)]
    Hub(hub::HubArgs),
    /// Read PDN games back: each game's moves checked by our rules, its result and final
    /// position
    Pdn(pdn::PdnArgs),
    /// A round robin at depth 6 among a session's past bests; writes the winner's weights
    #[command(allow_negative_numbers = true)]
    Finals(finals::FinalsArgs),
    /// What P threads would make of a run's schedule log (CHECKERS_GA_SCHEDULE_LOG)
    Schedule(schedule::ScheduleArgs),
    /// Run the tuners (the GA, SPSA, CMA-ES) many times on the tuning simulator sim:N, a synthetic
    /// engine with a known optimum; prints their regret: `regret TUNER PARAMS GAMES MEAN LOW
    /// HIGH`
    #[command(name = "tune-sim")]
    TuneSim(tune_sim::TuneSimArgs),
    /// Chart a real-games tuner comparison (scripts/compare-tuners.sh's `elo ...` lines): each
    /// tuner's mean Elo against the games played, per depth, with 95% bands, as SVG
    #[command(name = "tuners-chart")]
    TunersChart(tuners_chart::TunersChartArgs),
}

/// The worker threads a command asks for (`--threads`, 0 = one per core): what each rank of an
/// MPI job plays on.
pub fn threads(cli: &Invocation) -> usize {
    match &cli.command {
        Run::Builtin(Command::New(a)) => a.run.threads,
        Run::Builtin(Command::Resume(a)) => a.run.threads,
        Run::Builtin(Command::Match(a)) => a.threads,
        Run::Builtin(Command::History(a)) => a.threads,
        Run::Builtin(Command::Finals(a)) => a.threads,
        Run::OneFile(a) => a.session.threads,
        _ => 0,
    }
}

/// The command line as read: a command of the program's own, or a registered tuner's
/// (`checkers-ga spsa`, `checkers-ga cmaes`: [`one_file`]).
pub struct Invocation {
    /// `--no-pin`.
    pub no_pin: bool,
    /// The command.
    pub command: Run,
}

/// A command, the program's own or a registered tuner's.
#[allow(clippy::large_enum_variant)]
pub enum Run {
    /// One of [`Command`].
    Builtin(Command),
    /// A registered one-file tuner's.
    OneFile(one_file::OneFileArgs),
}

/// Reads the command line: the program's commands and each registered tuner's.
pub fn parse() -> Result<Invocation, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let m = Cli::command()
        .subcommands(one_file::commands())
        .mut_subcommand("tune-sim", |c| c.args(one_file::sim_args()))
        .try_get_matches()?;
    let no_pin = m.get_flag("no_pin");
    if let Some((name, sub)) = m.subcommand() {
        if let Some(kind) = one_file::tuners().into_iter().find(|k| k.name == name) {
            let a = one_file::parse(kind, sub)?;
            return Ok(Invocation {
                no_pin,
                command: Run::OneFile(a),
            });
        }
    }
    let mut cli = Cli::from_arg_matches(&m)?;
    if let (Command::TuneSim(a), Some((_, sub))) = (&mut cli.command, m.subcommand()) {
        a.tuner_options = one_file::sim_options(sub);
    }
    Ok(Invocation {
        no_pin: cli.no_pin,
        command: Run::Builtin(cli.command),
    })
}

pub fn run(cli: Invocation) -> anyhow::Result<()> {
    // The runs that play batches of games record their schedule when asked to.
    let logs = matches!(
        cli.command,
        Run::Builtin(Command::New(_) | Command::Resume(_) | Command::Match(_)) | Run::OneFile(_)
    );
    let log = std::env::var_os(checkers_ga::schedule::LOG_ENV).filter(|v| logs && !v.is_empty());
    if let Some(path) = &log {
        checkers_ga::schedule::open(std::path::Path::new(path)).map_err(|e| {
            anyhow::anyhow!(
                "cannot write the schedule log {} ({}): {e}",
                std::path::Path::new(path).display(),
                checkers_ga::schedule::LOG_ENV
            )
        })?;
    }
    let result = run_command(cli);
    if log.is_some() {
        if let Err(e) = checkers_ga::schedule::finish() {
            eprintln!("warning: {e}");
        }
    }
    result
}

fn run_command(cli: Invocation) -> anyhow::Result<()> {
    let command = match cli.command {
        Run::OneFile(a) => return one_file::run(a, None),
        Run::Builtin(c) => c,
    };
    match command {
        Command::New(a) => evolve::run_new(a),
        Command::Resume(a) => evolve::run_resume(a),
        Command::Perft(a) => perft::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Play(a) => play::run(a),
        Command::Match(a) => matchcmd::run(a),
        Command::Features(a) => features::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Show(a) => show::run(a),
        Command::Export(a) => export::run(a),
        Command::History(a) => history::run(a),
        Command::Report(a) => report::run(a),
        Command::Finals(a) => finals::run(a),
        Command::Hub(a) => hub::run(a),
        Command::TuneSim(a) => tune_sim::run(a),
        Command::TunersChart(a) => tuners_chart::run(a),
        Command::Pdn(a) => pdn::run(a),
        Command::Schedule(a) => schedule::run(a),
    }
}
