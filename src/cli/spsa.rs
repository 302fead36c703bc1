//! `checkers-ga spsa --engine CMD`: SPSA over an outside Hub engine's own int parameters (the
//! tuner of chess engine testing), from the engine's declared values, for a budget of games;
//! prints the final values. The run is a session, `populations/NAME/` with a checkpoint after
//! every step and its answer in `best.json` (an engine parameter file, as an engine session's
//! best: `show`, `export` and `match` read it; `--out` also writes a copy): `resume NAME`
//! continues it ([`resume`], from `resume`), and `show`, `export`, `history` and `report` read
//! it.

use super::common::{
    catch_interrupt, check_output_file, command_prefix, engine_spec, pool, progress_style,
    resume_command, say, say_somewhere, session_arg, shell_word, show_progress, stop_signal_name,
    warn, AlreadySaid, Interrupted,
};
use super::evolve_args::ResumeArgs;
use checkers_ga::store::{history_every, MAX_SPSA_GAMES as MAX_GAMES};
use checkers_ga::{Overrides, SessionError, SpsaObserver, SpsaRun, SpsaSettings, SpsaState};
use checkers_ga::{PaceClock, SpsaProgress, SpsaStep};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

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
    /// Play every game on a clock instead of to --depth, as `match --tc` does: SECONDS per
    /// move (e.g. 0.1) or GAME+INC (e.g. 10+0.1), sent as Hub `level` lines with the time
    /// left; a game lost on time is a loss. Not reproducible
    #[arg(long, value_name = "SECONDS|GAME+INC")]
    pub tc: Option<checkers_ga::TimeControl>,
    /// With --tc: how far past its clock a move may end before the side loses on time, in
    /// milliseconds (for the time a move takes through the pipe, or on a busy machine)
    /// [default: 0]
    #[arg(long, value_name = "MS")]
    pub time_margin: Option<u64>,
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
    /// A copy of the session's answer, POPULATIONS/NAME/best.json (the final values, the
    /// engine, the run in its comment), also written to FILE
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
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
    /// Session name: its checkpoint goes to POPULATIONS/NAME/spsa.ckpt, written after every
    /// step [default: two words drawn from the seed, e.g. amber-otter]
    #[arg(long)]
    pub name: Option<String>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
}

/// What the first stop signal says.
const STOPPING: &str = "stopping: the step under way is dropped and the values so far are \
                        written (the same signal again exits at once; the checkpoint of the \
                        last whole step stays)";

/// The progress bar (on a terminal), the progress lines (off one), and the lines of
/// `--print-every`.
struct Printer {
    bar: ProgressBar,
    names: Vec<String>,
    every: u64,
    /// The run's games and time, its start-up apart.
    clock: PaceClock,
    /// Off a terminal (and not quiet): a line every so often.
    lines: Option<SpsaProgress>,
    /// How much the games tell the tuner (said once when little; None when quiet).
    signal: Option<checkers_ga::Signal>,
}

impl SpsaObserver for Printer {
    fn game_done(&self) {
        self.clock.game_done();
        self.bar.inc(1);
    }

    fn step_done(&mut self, s: &SpsaStep) {
        // The first step started the engine's processes: the pace counts from its end.
        self.clock.start_up_done();
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
        let pace = self.clock.pace();
        if let Some(line) = self.lines.as_mut().and_then(|p| p.line(s, &pace)) {
            say(&line);
        }
        let games = 2 * s.pairs;
        if let Some(g) = self.signal.as_mut() {
            g.add(games, s.draws, s.pairs, s.decided);
            if let Some(t) = &s.time {
                g.add_timed(u64::from(t.games), u64::from(t.lost_on_time));
            }
            for note in [g.note(), g.time_note()].into_iter().flatten() {
                self.bar.suspend(|| say(&note));
            }
        }
    }
}

/// How a run of an SPSA session goes, from `spsa` or `resume`.
struct RunOptions {
    threads: usize,
    quiet: bool,
    print_every: u64,
    populations: PathBuf,
    handshake_timeout: Option<f64>,
    report: Option<PathBuf>,
    /// The `--out` file as the command line gave it (None: as the checkpoint keeps it).
    out_shown: Option<PathBuf>,
}

pub fn run(a: SpsaArgs) -> anyhow::Result<()> {
    super::common::set_handshake_timeout(a.handshake_timeout)?;
    if let Some(name) = a
        .name
        .as_deref()
        .filter(|n| !checkers_ga::store::is_plain_name(n))
    {
        usage!("session name '{name}' must be a plain folder name");
    }
    if a.games < 2 || a.games > MAX_GAMES {
        usage!("--games {} must be 2..{MAX_GAMES}", a.games);
    }
    let seed = a.seed.unwrap_or_else(checkers_ga::fresh_seed);
    let mut settings = SpsaSettings {
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
    if let Some(name) = &a.name {
        SpsaRun::check_free(&a.populations, name)?;
    }
    if let Some(out) = &a.out {
        check_output_file(out, "--out")?;
        if out.exists() && !a.force {
            anyhow::bail!(
                "'{}' already exists; add --force to overwrite it",
                out.display()
            );
        }
    }
    pool(a.threads)?;
    let mut spec = engine_spec(
        &a.engine,
        &a.engine_option,
        a.move_timeout,
        a.depth,
        &a.tune,
    )?;
    super::common::set_clock(&mut spec, a.tc, a.time_margin, a.threads)?;
    let stop = catch_interrupt(STOPPING)?;
    // θ is kept every 10 steps, or less often where a long run's history would outgrow its
    // checkpoint.
    settings.history_every = history_every(settings.steps(), spec.tuned.len());
    let state = SpsaState::new(&spec, &settings).map_err(|e| super::Usage(e.to_string()))?;
    let out = a
        .out
        .as_ref()
        .map(|o| std::path::absolute(o).unwrap_or_else(|_| o.clone()));
    let run = SpsaRun::start(a.name.clone(), &a.populations, state, out)?;
    let opts = RunOptions {
        threads: a.threads,
        quiet: a.quiet,
        print_every: a.print_every,
        populations: a.populations.clone(),
        handshake_timeout: a.handshake_timeout,
        report: None,
        out_shown: a.out.clone(),
    };
    if !a.quiet {
        let level = spec.level();
        say(&format!(
            "spsa of {} (seed {seed}): {} games in {} steps of {} pairs, {level}",
            spec.name,
            2 * settings.pairs(),
            settings.steps(),
            settings.pairs_per_step,
        ));
        say(&spec.tuning_line());
    }
    play(run, &opts, stop)
}

/// `resume NAME` of an SPSA session (its checkpoint found by
/// [`checkers_ga::store::tuner_of`]): continues it where its last whole step left it,
/// with the settings it started with (a session setting given is refused: the budget and the
/// gains are the run's).
pub fn resume(checkpoint: &Path, a: ResumeArgs) -> anyhow::Result<()> {
    if a.session.overrides() != Overrides::default() {
        usage!(
            "'{}' is an SPSA session: resume takes none of a GA session's settings (its budget, \
             steps and gains are fixed when it starts)",
            checkpoint.display()
        );
    }
    let r = &a.run;
    for (given, flag) in [
        (r.keep.is_some(), "--keep"),
        (r.keep_every.is_some(), "--keep-every"),
        (r.weights_dir.is_some(), "--weights-dir"),
        (r.force, "--force"),
    ] {
        if given {
            usage!(
                "{flag} applies to GA sessions; '{}' is an SPSA session",
                checkpoint.display()
            );
        }
    }
    if let Some(out) = &r.report {
        check_output_file(out, "--report")?;
    }
    pool(r.threads)?;
    let stop = catch_interrupt(STOPPING)?;
    let run = SpsaRun::resume(checkpoint)?;
    let opts = RunOptions {
        threads: r.threads,
        quiet: r.quiet,
        // --verbose: θ after every step.
        print_every: r.verbose as u64,
        populations: r.populations.clone(),
        handshake_timeout: r.handshake_timeout,
        report: r.report.clone(),
        out_shown: None,
    };
    let s = &run.session;
    if s.state.finished() {
        say(&format!(
            "SPSA session '{}' already played its budget ({}); its values:",
            s.name,
            s.state.progress()
        ));
    } else if !r.quiet {
        say(&format!(
            "resuming SPSA session '{}' from {} ({})",
            s.name,
            run.checkpoint.display(),
            s.state.progress()
        ));
    }
    play(run, &opts, stop)
}

/// Runs the session to the end of its budget or a stop (which writes its answer, `best.json`,
/// and its `--out` copy), prints its values, and says how to go on.
fn play(
    mut run: SpsaRun,
    opts: &RunOptions,
    stop: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<()> {
    let name = run.session.name.clone();
    let resume = resume_command(
        &run.dir,
        &name,
        &opts.populations,
        None,
        opts.handshake_timeout,
    );
    let settings = run.session.state.settings;
    let total = 2 * settings.pairs();
    if !opts.quiet && !run.session.state.finished() {
        say(&format!(
            "session '{name}': checkpoint {} after every step (Ctrl-C stops; `resume {}` \
             continues)",
            run.checkpoint.display(),
            session_arg(&run.dir, &name, &opts.populations)
        ));
    }
    let on_terminal = show_progress(opts.quiet);
    let bar = if on_terminal {
        let b = ProgressBar::new(total).with_position(run.session.state.games());
        b.set_style(progress_style(
            "{bar:40} {pos}/{len} games {rate} eta {eta}  {msg}",
        ));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut printer = Printer {
        bar,
        names: run
            .session
            .state
            .spec
            .tuned
            .iter()
            .map(|t| t.name.clone())
            .collect(),
        every: opts.print_every,
        clock: PaceClock::new(),
        lines: (!opts.quiet && !on_terminal).then(|| SpsaProgress::new(&run.session.state)),
        signal: (!opts.quiet).then(checkers_ga::Signal::default),
    };
    let pool = pool(opts.threads)?;
    let ran = pool.install(|| run.run(&mut printer, stop));
    printer.bar.finish_and_clear();
    let outcome = match ran {
        Ok(outcome) => outcome,
        Err(e @ SessionError::Checkpoint(_)) => {
            warn(&format!("error: {e}"));
            say_somewhere(&format!(
                "continue with, once there is space again: {resume}"
            ));
            return Err(AlreadySaid.into());
        }
        Err(e) => return Err(e.into()),
    };
    let stopped = outcome.stopped;
    let s = &run.session;
    let st = &s.state;
    let result = st.result(stopped);
    let copy = match (&outcome.copy, &opts.out_shown) {
        (Some(c), shown) => format!(
            "; also written to {}",
            shown.as_deref().unwrap_or(c).display()
        ),
        (None, _) => String::new(),
    };
    let wrote = format!(
        "best values: {} ({} games, {} steps){copy}",
        outcome.best.display(),
        result.games_played,
        result.steps
    );
    for (t, v) in st.spec.tuned.iter().zip(&result.values) {
        say(&format!("{} {v} (default {})", t.name, t.default));
    }
    if let Some(report) = &opts.report {
        let o = checkers_ga::html::Options::default();
        if let Err(e) = checkers_ga::html::write_spsa_report(s, &run.checkpoint, report, &o) {
            warn(&format!("warning: report not written: {e}"));
        }
    }
    let line = wrote;
    if stopped {
        warn(&format!(
            "{} stopped the run after {} of {total} games; {line}",
            stop_signal_name(),
            result.games_played,
        ));
        say_somewhere(&format!(
            "session '{name}' stands at {} ({})",
            st.progress(),
            run.checkpoint.display()
        ));
        say_somewhere(&format!("continue with: {resume}"));
        return Err(Interrupted.into());
    }
    if !opts.quiet {
        say(&line);
        let me = command_prefix();
        let arg = session_arg(&run.dir, &name, &opts.populations);
        let file = shell_word(&outcome.best.to_string_lossy());
        say(&format!(
            "session '{name}': {} ({})",
            st.progress(),
            run.checkpoint.display()
        ));
        let spec = &st.spec;
        if spec.sim_model().is_some() {
            say("next: its values, its history, a report:");
        } else {
            // Against the engine with its declared values.
            say("next: its strength, its values, its history, a report:");
            let cmd: Vec<String> = spec.command.iter().map(|w| shell_word(w)).collect();
            say(&format!(
                "  {me} match {file} {} {} --games 312",
                shell_word(&format!("hub:{}", cmd.join(" "))),
                spec.level_flag()
            ));
        }
        say(&format!("  {me} export {file} --format hub"));
        say(&format!("  {me} history {arg}"));
        say(&format!("  {me} report {arg}"));
    }
    Ok(())
}
