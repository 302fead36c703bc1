//! What every one-file tuner's command shares: the flags of a session that tunes an outside
//! engine's parameters with a one-file tuner (the engine, the games, the session's name and
//! folder, the answer's copy), the progress it prints, and running, stopping and resuming it
//! ([`checkers_ga::SessionRun`]). The tuner's own flags are its registration's
//! ([`super::one_file`]).

use super::common::{
    catch_interrupt, check_output_file, resume_command, say, say_somewhere, show_progress, warn,
    AlreadySaid, Interrupted,
};
use super::engine_end::EngineEnd;
use super::engine_progress::{set_stop_note, EnginePrinter, EngineWatch};
use super::evolve_args::ResumeArgs;
use checkers_ga::session_arg;
use checkers_ga::store::{AnyTuner, OneFileKind};
use checkers_ga::{Overrides, SessionEnd, SessionError, SessionProgress, SessionRun};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The flags every one-file tuner's session takes.
#[derive(clap::Args)]
pub struct TunerSessionArgs {
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
    /// Seed of every draw of the run (drawn when absent; the opening line and the file's
    /// comment give it)
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
    /// Print the values every N steps (0 = never; also with --quiet)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub print_every: u64,
    /// Write a self-contained HTML report of the session to FILE as it runs (after the run's
    /// first step and every 5% of the budget, from the checkpoint just written) and at its end
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Print only the answer's path (no progress bar, no opening line, no values; the lines of
    /// --print-every still come when asked)
    #[arg(long)]
    pub quiet: bool,
    /// Session name: its checkpoint goes to POPULATIONS/NAME/ (the tuner's one checkpoint file), written
    /// after every step [default: two words drawn from the seed, e.g. amber-otter]
    #[arg(long)]
    pub name: Option<String>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// The flag that gave --games, as the cost line names it (`--games-budget` when `new
    /// --engine --tuner` started the session).
    #[arg(skip = "--games")]
    pub budget_flag: &'static str,
}

/// A new session's engine and seed, its flags checked: what each tuner builds its state from.
pub struct Prepared {
    /// The engine, its clock set.
    pub spec: checkers_ga::EngineSpec,
    /// The run's seed.
    pub seed: u64,
    /// The stop flag (Ctrl-C).
    pub stop: &'static AtomicBool,
}

/// What the first stop signal says.
const STOPPING: &str = "stopping: the games under way are dropped and the values so far are \
                        written (the same signal again exits at once; the last checkpoint, \
                        written after every whole step or generation, stays)";

impl TunerSessionArgs {
    /// A tuner's settings error as the user typed the flags: its budget by the flag that gave it
    /// (`--games-budget` of `new --engine --tuner`).
    pub fn as_given(&self, error: &str) -> String {
        match error.strip_prefix("--games ") {
            Some(rest) => format!("{} {rest}", self.budget_flag),
            None => error.to_string(),
        }
    }

    /// Checks the session's name (the budget is the tuner's settings', which check it).
    pub fn check(&self) -> anyhow::Result<()> {
        if let Some(name) = &self.name {
            checkers_ga::check_name(name)?;
        }
        Ok(())
    }

    /// Checks the flags a new session of any tuner takes, sets up the pool and the stop
    /// signal, and asks the engine what it declares (`spec`: what it declared when it was
    /// asked already).
    pub fn prepare(&self, spec: Option<checkers_ga::EngineSpec>) -> anyhow::Result<Prepared> {
        super::common::set_handshake_timeout(self.handshake_timeout)?;
        self.check()?;
        checkers_ga::check_depth(self.depth, "--depth")?;
        if let Some(name) = &self.name {
            checkers_ga::check_free(&self.populations, name)?;
        }
        if let Some(r) = &self.report {
            check_output_file(r, "--report")?;
        }
        if let Some(out) = &self.out {
            check_output_file(out, "--out")?;
            if out.exists() && !self.force {
                anyhow::bail!(
                    "'{}' already exists; add --force to overwrite it",
                    out.display()
                );
            }
        }
        checkers_ga::check_threads(self.threads)?;
        let spec = match spec {
            Some(spec) => spec,
            None => {
                let request = checkers_ga::EngineRequest {
                    command: self.engine.clone(),
                    options: self.engine_option.clone(),
                    move_timeout: self.move_timeout,
                    depth: self.depth,
                    tune: self.tune.clone(),
                    tc: self.tc,
                    time_margin_ms: self.time_margin,
                };
                super::common::engine_of(&request, self.threads)?
            }
        };
        let stop = catch_interrupt(STOPPING)?;
        Ok(Prepared {
            spec,
            seed: self.seed.unwrap_or_else(checkers_ga::fresh_seed),
            stop,
        })
    }

    /// Starts the session of `state` and runs it; `opening` is the tuner's first line (what it
    /// plays), said before the engine's.
    pub fn start(&self, p: Prepared, state: AnyTuner, opening: String) -> anyhow::Result<()> {
        let out = self
            .out
            .as_ref()
            .map(|o| std::path::absolute(o).unwrap_or_else(|_| o.clone()));
        let threads = self.threads;
        let run = SessionRun::start_tuner(
            self.name.clone(),
            p.seed,
            &self.populations,
            state,
            out,
            threads,
        )?;
        let opts = RunOptions {
            quiet: self.quiet,
            print_every: self.print_every,
            populations: self.populations.clone(),
            handshake_timeout: self.handshake_timeout,
            report: self.report.clone(),
            out_shown: self.out.clone(),
            budget_flag: self.budget_flag,
        };
        if !self.quiet {
            say(&opening);
            say(&p.spec.tuning_line());
        }
        play(run, &opts, p.stop)
    }
}

/// `resume [NAME]` of a one-file tuner's session (its checkpoint found by
/// [`checkers_ga::store::tuner_of`]; with no name, the newest session's): continues it where its last whole step left it, with the
/// settings it started with (a session setting given is refused: the budget and the rest are
/// the run's); its page is written when `--report` asks for one.
pub fn resume(tuner: &'static OneFileKind, checkpoint: &Path, a: ResumeArgs) -> anyhow::Result<()> {
    let (kind, a_kind) = (tuner.label, tuner.a_label);
    // With no name given, the refusal says why this session was taken.
    let taken = match a.file {
        None => "no session named, and the newest, ",
        Some(_) => "",
    };
    if a.session.overrides() != Overrides::default() {
        usage!(
            "{taken}'{}' is {a_kind} session: resume takes none of a GA session's settings (its \
             budget and its own settings are fixed when it starts)",
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
                "{flag} applies to GA sessions; {taken}'{}' is {a_kind} session",
                checkpoint.display()
            );
        }
    }
    if let Some(out) = &r.report {
        check_output_file(out, "--report")?;
    }
    checkers_ga::check_threads(r.threads)?;
    let stop = catch_interrupt(STOPPING)?;
    let run = SessionRun::resume_tuner(checkpoint, r.threads)?;
    let opts = RunOptions {
        quiet: r.quiet,
        // --verbose: the values after every step.
        print_every: r.verbose as u64,
        populations: r.populations.clone(),
        handshake_timeout: r.handshake_timeout,
        report: r.report.clone(),
        out_shown: None,
        // The budget is the session's: resume changes none of it.
        budget_flag: "",
    };
    let checkpoint = run.checkpoint();
    if a.file.is_none() {
        // Said even with --quiet: the user named no session, and this one runs now.
        warn(&format!(
            "resume: no session named, so continuing the newest one: '{}' ({})",
            run.name(),
            checkpoint.display()
        ));
    }
    if run.state.finished() {
        // On stderr with --quiet, whose output is the answer's path alone.
        let line = format!(
            "{kind} session '{}' already played its budget ({}); its values:",
            run.name(),
            run.state.progress()
        );
        match r.quiet {
            true => warn(&line),
            false => say(&line),
        };
    } else if !r.quiet {
        say(&format!(
            "resuming {kind} session '{}' from {} ({})",
            run.name(),
            checkpoint.display(),
            run.state.progress()
        ));
    }
    play(run, &opts, stop)
}

/// How a run of a session goes, from its command or `resume`.
struct RunOptions {
    quiet: bool,
    print_every: u64,
    populations: PathBuf,
    handshake_timeout: Option<f64>,
    report: Option<PathBuf>,
    /// The `--out` file as the command line gave it (None: as the checkpoint keeps it).
    out_shown: Option<PathBuf>,
    /// How the cost line names the flag of a budget of games.
    budget_flag: &'static str,
}

/// Runs the session to the end of its budget or a stop (which writes its answer, `best.json`,
/// and its `--out` copy), prints its values, and says how to go on.
fn play(mut run: SessionRun<AnyTuner>, opts: &RunOptions, stop: &AtomicBool) -> anyhow::Result<()> {
    super::common::path_only(opts.quiet);
    let name = run.name().to_string();
    let checkpoint = run.checkpoint();
    let resume = resume_command(
        &run.dir,
        &name,
        &opts.populations,
        None,
        opts.handshake_timeout,
    );
    let state = &run.state;
    let total = state.budget();
    if !opts.quiet && !state.finished() {
        say(&format!(
            "session '{name}': checkpoint {} after every {} (Ctrl-C stops; `resume {}` \
             continues)",
            checkpoint.display(),
            state.kind().step,
            session_arg(&run.dir, &name, &opts.populations)
        ));
    }
    let on_terminal = show_progress(opts.quiet);
    let mut watch = EngineWatch::<AnyTuner>::new(
        EnginePrinter::new(
            &SessionProgress::of(state),
            opts.quiet,
            on_terminal,
            opts.print_every,
            run.cost(opts.budget_flag),
        ),
        opts.report.clone(),
        resume.clone(),
    );
    // (A one-file tuner's checkpoint is written from its step 0.) A session that has played
    // its budget runs nothing, and leaves no note.
    if !state.finished() {
        set_stop_note(state.kind().step, state.steps_done(), &checkpoint, &resume);
    }
    let ran = run.run(&mut watch, stop);
    watch.clear();
    let outcome = match ran {
        Ok(outcome) => outcome,
        Err(e @ SessionError::Save { .. }) => {
            warn(&format!("error: {e}"));
            say_somewhere(&format!(
                "continue with, once there is space again: {resume}"
            ));
            return Err(AlreadySaid.into());
        }
        Err(e) => return Err(e.into()),
    };
    let stopped = outcome.end != SessionEnd::Finished;
    let best = run.best_file();
    let st = &run.state;
    let arg = session_arg(&run.dir, &name, &opts.populations);
    let mut end = EngineEnd {
        spec: st.spec(),
        answer: st.answer(),
        best: &best,
        games: st.games(),
        steps: st.steps_done(),
        step: st.kind().step,
        also: match (run.out(), &opts.out_shown) {
            (Some(c), shown) => format!(
                "; also written to {}",
                shown.as_deref().unwrap_or(c).display()
            ),
            (None, _) => String::new(),
        },
        name: &name,
        progress: st.progress(),
        checkpoint: &checkpoint,
        session_arg: &arg,
        page: None,
    };
    if opts.quiet {
        // Only the answer's path, for a script to use, as every tuner's --quiet says it.
        say(&best.display().to_string());
    } else {
        end.say_values();
    }
    // The page at the end (unless writing it failed as the run went).
    watch.write_page(
        &run.state,
        &checkpoint,
        &checkers_ga::html::Options::default(),
    );
    if stopped {
        end.say_stopped(total, &resume);
        return Err(Interrupted.into());
    }
    if !opts.quiet {
        end.page = watch.page();
        end.say_done(watch.printer.clock.seconds(), &[]);
    }
    Ok(())
}
