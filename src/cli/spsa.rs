//! `checkers-ga spsa --engine CMD`: SPSA over an outside Hub engine's own int parameters (the
//! tuner of chess engine testing), from the engine's declared values, for a budget of games;
//! prints the final values and writes them as an engine parameter file (`show` reads it, as it
//! reads a session's best).

use super::common::{
    catch_interrupt, check_output_file, engine_spec, pool, progress_style, say, show_progress,
    warn, Interrupted,
};
use anyhow::Context;
use checkers_ga::formats::engine_params_json;
use checkers_ga::{spsa, SpsaObserver, SpsaSettings, SpsaStep};
use indicatif::ProgressBar;
use std::path::PathBuf;

/// The most games `--games` may ask for.
const MAX_GAMES: u64 = 10_000_000;

/// The file written when `--out` is not given.
const DEFAULT_OUT: &str = "spsa-params.json";

#[derive(clap::Args)]
pub struct SpsaArgs {
    /// The outside Hub engine whose int parameters are tuned: its command line (e.g. "python3
    /// examples/hub_engine.py"; a hub: prefix is allowed)
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    /// The parameters to tune, by the engine's names (comma-separated) [default: every int
    /// parameter it declares with min < max]
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub tune: Vec<String>,
    /// A parameter set the same for both sides of every game, NAME=VALUE (repeatable)
    #[arg(long, value_name = "NAME=VALUE")]
    pub engine_option: Vec<String>,
    /// The depth of every game (`level depth=`)
    #[arg(long, default_value_t = checkers_ga::DEFAULT_DEPTH)]
    pub depth: u32,
    /// The games to play in all (rounded up to even: pairs of games, colours swapped)
    #[arg(long)]
    pub games: u64,
    /// Game pairs per step, all played at once (at least half of --threads keeps every thread
    /// busy)
    #[arg(long, value_name = "P", default_value_t = SpsaSettings::default().pairs_per_step)]
    pub pairs: u32,
    /// The final perturbation of each parameter, as a fraction of its declared range (at least
    /// 1): fishtest's c_end
    #[arg(long, value_name = "F", default_value_t = SpsaSettings::default().c_end)]
    pub c_end: f64,
    /// The final learning rate, fishtest's r_end: one net win moves a parameter by r_end times
    /// its final perturbation
    #[arg(long, value_name = "R", default_value_t = SpsaSettings::default().r_end)]
    pub r_end: f64,
    /// Seed of the perturbations and openings (drawn when absent; the opening line and the
    /// file's comment give it)
    #[arg(long)]
    pub seed: Option<u64>,
    /// The engine parameter file to write (the final values, the engine, the run in its
    /// comment)
    #[arg(long, value_name = "FILE", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// Overwrite --out if it exists
    #[arg(long)]
    pub force: bool,
    /// Worker threads (0 = one per core)
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Seconds a move may take before the engine counts as hung (it loses that game)
    /// [default: 60]
    #[arg(long, value_name = "S")]
    pub move_timeout: Option<f64>,
    /// Seconds an outside engine has for its handshake (`hub` ... `wait`, `init` ... `ready`)
    /// before it counts as never having answered [default: 10]
    #[arg(long, value_name = "S")]
    pub handshake_timeout: Option<f64>,
    /// Print θ every N steps (0 = never; also with --quiet)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub print_every: u64,
    /// No progress bar, no opening line
    #[arg(long)]
    pub quiet: bool,
}

/// What the first stop signal says.
const STOPPING: &str = "stopping: the step under way is dropped and the values so far are \
                        written (the same signal again exits at once)";

/// The progress bar and the lines of `--print-every`.
struct Printer {
    bar: ProgressBar,
    names: Vec<String>,
    every: u64,
}

impl SpsaObserver for Printer {
    fn game_done(&self) {
        self.bar.inc(1);
    }

    fn step_done(&mut self, s: &SpsaStep) {
        let theta: Vec<String> = self
            .names
            .iter()
            .zip(&s.theta)
            .map(|(n, t)| format!("{n}={t:.1}"))
            .collect();
        self.bar.set_message(format!("step {}/{}", s.step, s.steps));
        if self.every > 0 && s.step.is_multiple_of(self.every) {
            self.bar.suspend(|| {
                say(&format!(
                    "step {} ({} games, result {:+}): {}",
                    s.step,
                    s.games,
                    s.result,
                    theta.join(" ")
                ))
            });
        }
    }
}

pub fn run(a: SpsaArgs) -> anyhow::Result<()> {
    super::common::set_handshake_timeout(a.handshake_timeout)?;
    if a.games < 2 || a.games > MAX_GAMES {
        usage!("--games {} must be 2..{MAX_GAMES}", a.games);
    }
    let seed = a.seed.unwrap_or_else(checkers_ga::fresh_seed);
    let settings = SpsaSettings {
        games: a.games,
        pairs_per_step: a.pairs,
        c_end: a.c_end,
        r_end: a.r_end,
        seed,
        ..SpsaSettings::default()
    };
    if let Err(e) = settings.check() {
        usage!("{e}");
    }
    checkers_ga::check_depth(a.depth, "--depth")?;
    check_output_file(&a.out, "--out")?;
    if a.out.exists() && !a.force {
        anyhow::bail!(
            "'{}' already exists; add --force to overwrite it",
            a.out.display()
        );
    }
    let pool = pool(a.threads)?;
    let spec = engine_spec(
        &a.engine,
        &a.engine_option,
        a.move_timeout,
        a.depth,
        &a.tune,
    )?;
    let stop = catch_interrupt(STOPPING)?;
    let names: Vec<String> = spec.tuned.iter().map(|t| t.name.clone()).collect();
    if !a.quiet {
        say(&format!(
            "spsa of {} (seed {seed}): {} parameters ({}), {} games in {} steps of {} pairs, depth {}",
            spec.name,
            names.len(),
            names.join(", "),
            2 * settings.pairs(),
            settings.steps(),
            settings.pairs_per_step,
            spec.depth
        ));
    }
    let bar = if show_progress(a.quiet) {
        let b = ProgressBar::new(2 * settings.pairs());
        b.set_style(progress_style(
            "{bar:40} {pos}/{len} games {rate} eta {eta}  {msg}",
        ));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut printer = Printer {
        bar,
        names,
        every: a.print_every,
    };
    let result = pool.install(|| spsa(&spec, &settings, &mut printer, stop));
    printer.bar.finish_and_clear();
    checkers_ga::release_engines();
    let result = result.map_err(|e| anyhow::anyhow!(e))?;
    let comment = format!(
        "SPSA, seed {seed}: {} games in {} steps of {} pairs, depth {}, c_end {}, r_end {}{}",
        result.games_played,
        result.steps,
        settings.pairs_per_step,
        spec.depth,
        settings.c_end,
        settings.r_end,
        if result.stopped {
            format!(" (stopped; {} games asked for)", 2 * settings.pairs())
        } else {
            String::new()
        }
    );
    let text = engine_params_json(&spec, &result.weights, None, Some(&comment));
    checkers_ga::write_atomic(&a.out, text.as_bytes())
        .with_context(|| format!("cannot write '{}'", a.out.display()))?;
    for (t, v) in spec.tuned.iter().zip(&result.values) {
        say(&format!("{} {v} (default {})", t.name, t.default));
    }
    let line = format!(
        "wrote {} ({} games, {} steps)",
        a.out.display(),
        result.games_played,
        result.steps
    );
    if result.stopped {
        warn(&format!(
            "{} stopped the run after {} of {} games; {line}",
            super::common::stop_signal_name(),
            result.games_played,
            2 * settings.pairs()
        ));
        return Err(Interrupted.into());
    }
    if !a.quiet {
        say(&line);
    }
    Ok(())
}
