//! `checkers-ga new` and `checkers-ga resume`: evolution sessions with a checkpoint per generation.

use super::common::{
    catch_interrupt, check_output_file, command_prefix, progress_style, resume_command, say,
    say_somewhere, show_progress, warn, weights_arg, AlreadySaid,
};
use super::evolve_lines::{early_signal, finals_hint, progress_prefix};
use super::evolve_lines::{say_unfinished, strength, summary_line};
use anyhow::Context;
use checkers_ga::fresh_seed;
use checkers_ga::store::TunerKind;
use checkers_ga::summary::elo_trend;
use checkers_ga::{self, NewSession, Observer, SessionEnd, SessionError, SessionRun};
use checkers_ga::{per_time as rate, short_time, Eta, PaceClock, RunCost};
use checkers_ga::{session_arg, shell_word};
use checkers_ga::{GaState, GenerationStats, Stop};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

pub use super::evolve_args::{NewArgs, ResumeArgs, RunArgs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What the first stop signal of a session says.
const STOPPING: &str = "stopping at the next game boundary to save the session (the same signal \
                        again exits at once; the checkpoints written so far stay)";

pub fn run_new(a: NewArgs) -> anyhow::Result<()> {
    super::common::set_handshake_timeout(a.run.handshake_timeout)?;
    if let Some(name) = &a.name {
        checkers_ga::check_name(name)?;
    }
    // The engine is read first when the tuner is chosen by its parameter count (no --tuner, no
    // setting only the GA takes).
    let mut read = None;
    let tuner = match (a.tuner, &a.engine) {
        (Some(t), _) => t,
        (None, Some(cmd)) if super::engine_tuner::ga_only_flags(&a).is_empty() => {
            let spec = engine_spec(cmd, &a)?;
            let n = spec.tuned.len();
            read = Some(spec);
            let tuner = checkers_ga::engine_tuner(n);
            if let TunerKind::OneFile(k) = tuner {
                if !a.run.quiet {
                    say(&format!(
                        "tuning by {}, the default tuner beyond {} parameters ({n} here; \
                         --tuner ga for the GA)",
                        k.label,
                        k.default_beyond.unwrap_or(0)
                    ));
                }
            }
            tuner
        }
        _ => TunerKind::Ga,
    };
    if let TunerKind::OneFile(k) = tuner {
        return super::engine_tuner::new_engine_session(a, k, read);
    }
    let stop = catch_interrupt(STOPPING)?;
    if let Some(r) = &a.run.report {
        check_output_file(r, "--report")?;
    }
    let from = match &a.from {
        Some(p) => Some(load_original_population(p)?),
        None => None,
    };
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut include = Vec::new();
    for (slot, spec) in a.include.iter().enumerate() {
        let arg =
            weights_arg(spec, seed, slot as u64).with_context(|| format!("--include '{spec}'"))?;
        let w = checkers_ga::summary::select(&arg.input, None)?.weights;
        include.push((spec.clone(), w));
    }
    let engine = match (read, &a.engine) {
        (Some(spec), _) => Some(spec),
        (None, Some(cmd)) => Some(engine_spec(cmd, &a)?),
        (None, None) => None,
    };
    let spec = NewSession {
        name: a.name.clone(),
        seed: Some(seed),
        settings: a.session.overrides(),
        from,
        include,
        engine,
    };
    let run = SessionRun::start(spec, a.run.library())?;
    let s = &run.state;
    if !a.run.quiet {
        let limit = match s.settings.stop {
            Stop::Generations(n) => checkers_ga::count(n as usize, "generation", "generations"),
            Stop::Seconds(t) => format!("{t} s"),
        };
        let level = match s.settings.engine.as_ref().filter(|e| e.tc.is_some()) {
            Some(e) => e.level(),
            None => format!("depth {}", s.settings.search.depth),
        };
        let flight = match s.settings.ga.in_flight {
            1 => String::new(),
            g => format!(", {g} in flight"),
        };
        match (
            &s.settings.engine,
            checkers_ga::SessionProgress::of_session(s),
        ) {
            // As every tuner's session of an engine opens: `spsa of ENGINE (seed S): ...`.
            (Some(e), Some(p)) => say(&format!(
                "ga of {} (seed {seed}): session '{}', {}, population {}, {level}{flight}",
                e.engine.name,
                s.name,
                match p.time_left {
                    Some(_) => format!("generations of {} games for {limit}", p.games_per_step),
                    None => format!(
                        "about {} games in {} generation{} of {}",
                        p.budget,
                        p.steps,
                        if p.steps == 1 { "" } else { "s" },
                        p.games_per_step
                    ),
                },
                s.settings.population
            )),
            _ => say(&format!(
                "new session '{}' (seed {seed}): population {}, {level}, {limit}{flight}",
                s.name, s.settings.population
            )),
        };
        if let Some(e) = &s.settings.engine {
            say(&e.tuning_line());
        }
        let unused = a.session.overrides().unused(&s.settings);
        if !unused.is_empty() {
            let flags: Vec<String> = unused.iter().map(|n| format!("--{n}")).collect();
            warn(&format!(
                "note: this session does not use {} (given, and kept aside)",
                flags.join(", ")
            ));
        }
    }
    evolve(run, &a.run, stop)
}

/// The outside engine of `new --engine CMD`: started once to read what it declares.
fn engine_spec(cmd: &str, a: &NewArgs) -> anyhow::Result<checkers_ga::EngineSpec> {
    let request = checkers_ga::EngineRequest {
        command: cmd.to_string(),
        options: a.engine_option.clone(),
        move_timeout: a.move_timeout,
        depth: a.session.depth.unwrap_or(checkers_ga::DEFAULT_DEPTH),
        tune: a.tune.clone(),
        tc: a.tc,
        time_margin_ms: a.time_margin,
    };
    super::common::engine_of(&request, a.run.threads)
}

/// Reads a population file of the original tool (its individuals; the other header fields
/// are the original's session arguments, which our options replace).
fn load_original_population(path: &Path) -> anyhow::Result<Vec<checkers_ga::Weights>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read population file '{}'", path.display()))?;
    let (_, pop) = checkers_ga::formats::parse_population(&text)
        .map_err(|e| anyhow::anyhow!("'{}': {e}", path.display()))?;
    Ok(pop)
}

pub fn run_resume(a: ResumeArgs) -> anyhow::Result<()> {
    super::common::set_handshake_timeout(a.run.handshake_timeout)?;
    // Another tuner's session continues as one.
    use checkers_ga::store::{tuner_of, TunerKind};
    if let (TunerKind::OneFile(k), Some(checkpoint)) =
        tuner_of(a.file.as_deref(), &a.run.populations)
    {
        return super::tuner_session::resume(k, &checkpoint, a);
    }
    let stop = catch_interrupt(STOPPING)?;
    if let Some(r) = &a.run.report {
        check_output_file(r, "--report")?;
    }
    // With no name, the newest session's folder (the GA's, as tuner_of found).
    let target = checkers_ga::store::named_or_newest(a.file.as_deref(), &a.run.populations);
    let run = SessionRun::resume(target.as_deref(), &a.session.overrides(), a.run.library())?;
    for e in &run.skipped {
        warn(&format!("warning: skipping {e}"));
    }
    if let Some(line) = &run.history_lost {
        warn(line);
    }
    let s = &run.state;
    let from = run.resumed_from.as_deref().unwrap_or(Path::new("?"));
    if a.file.is_none() {
        // Said even with --quiet: the user named no session, and this one runs now.
        warn(&format!(
            "resume: no session named, so continuing the newest one: '{}' ({})",
            s.name,
            from.display()
        ));
    }
    if !run.set_aside.is_empty() && !a.run.quiet {
        let unreadable = |p: &PathBuf| run.skipped.iter().any(|e| e.path == *p);
        let (bad, newer): (Vec<&PathBuf>, Vec<&PathBuf>) =
            run.set_aside.iter().partition(|p| unreadable(p));
        if !newer.is_empty() {
            say(&format!(
                "set aside {} newer checkpoint(s) of the earlier run as *.ckpt.superseded-N",
                newer.len()
            ));
        }
        if !bad.is_empty() {
            say(&format!(
                "set aside {} unreadable checkpoint(s) as *.ckpt.superseded-N",
                bad.len()
            ));
        }
    }
    if !a.run.quiet {
        if s.settings.engine.is_some() {
            // As every tuner's session of an engine resumes.
            say(&format!(
                "resuming GA session '{}' from {} ({})",
                s.name,
                from.display(),
                s.progress()
            ));
        } else {
            say(&format!(
                "resuming '{}' from {} (generation {}, {})",
                s.name,
                from.display(),
                s.generation,
                s.settings.stop
            ));
        }
        for change in &run.changes {
            say(&format!("new setting: {change}"));
        }
    }
    // Why nothing is played: on stderr with --quiet, whose output is the answer's path alone.
    let tell = |line: &str| match a.run.quiet {
        true => warn(line),
        false => say(line),
    };
    if s.finished() {
        // As the budget counts them: the duels and measurements too.
        let games = s.games_played();
        tell(&format!(
            "session '{}' already reached its limit ({}); give a larger --generations, \
             --games-budget (games in all: {games} so far) or --time",
            s.name, s.settings.stop
        ));
        return finish_here(run, &a.run);
    }
    if let (Stop::Seconds(t), Some((left, last))) = (s.settings.stop, s.time_short()) {
        tell(&format!(
            "session '{}' has {left:.1} s left of its --time {t} (the session's total), less \
             than one generation (about {:.1} s): give a larger --time, e.g. --time {}",
            s.name,
            last,
            (2.0 * t).ceil()
        ));
        return finish_here(run, &a.run);
    }
    evolve(run, &a.run, stop)
}

/// Ends a resume that plays nothing: writes the answer (and the page of `--report`); a session
/// of an outside engine then ends as every tuner's does at its end: its values, its answer's
/// file, where it stands, what to do next.
fn finish_here(mut run: SessionRun, opts: &RunArgs) -> anyhow::Result<()> {
    if let Some(p) = checkers_ga::SessionProgress::of_session(&run.state) {
        return super::ga_engine::finish_here(run, p, opts);
    }
    let mut printer = Printer::new(&run, opts, String::new());
    let out = run.finish(&mut printer)?;
    printer.write_report(&run.state, &out.checkpoint, None, None);
    Ok(())
}

/// The command that continues the session of `run` ([`resume_command`]).
fn resume_of(dir: &Path, name: &str, run: &RunArgs) -> String {
    resume_command(
        dir,
        name,
        &run.populations,
        run.weights_dir.as_deref(),
        run.handshake_timeout,
    )
}

/// What rank 0 of an MPI job says if the job is ended under it (a rank died, mpirun stopped):
/// the generation under way is lost, the session stands at its last checkpoint.
fn set_stop_note(session: &GaState, ckpt: &Path, resume: &str) {
    super::engine_progress::set_stop_note("generation", session.generation, ckpt, resume);
}

/// The session's reporter. On a terminal: one line updated in place (within 80 columns) with
/// the session-wide progress, its rate and ETA, and the latest yardstick Elo with its trend.
/// Off a terminal (or with --verbose): one line per generation. Quiet: nothing but the
/// best-weights file. With --report, the HTML report at every measurement. (A session of an
/// outside engine is shown as every tuner's engine session is: `ga_engine`.)
struct Printer {
    /// One line per generation (off a terminal, or --verbose).
    lines: bool,
    /// And the checkpoint's path after it (--verbose).
    verbose: bool,
    /// Nothing but the best-weights file's path (--quiet).
    quiet: bool,
    bar: ProgressBar,
    resume: String,
    /// How `report` and `finals` name the session (see [`session_arg`]).
    session_arg: String,
    report: checkers_ga::html::RunPage,
    /// The run's games and time, its start-up apart.
    clock: PaceClock,
    first_generation: u64,
    /// What the run will cost, said once its pace past the start-up is known (None when quiet
    /// or once said), as an engine session's run says it.
    cost: Option<RunCost>,
    /// When the current generation started, and when its last game so far ended (nanoseconds
    /// after that; written by the worker threads).
    generation_started: Instant,
    last_game: AtomicU64,
}

impl Printer {
    fn new(run: &SessionRun, opts: &RunArgs, resume: String) -> Printer {
        let on_terminal = show_progress(opts.quiet);
        let s = &run.state;
        let bar = if on_terminal && !opts.verbose {
            let b = match s.settings.stop {
                Stop::Generations(n) => {
                    let b = ProgressBar::new(n);
                    b.set_position(s.generation.min(n));
                    b
                }
                Stop::Seconds(t) => {
                    let b = ProgressBar::new(t.ceil() as u64);
                    b.set_position(s.elapsed as u64);
                    b
                }
            };
            b.set_style(progress_style("{prefix} {bar:16} {msg}"));
            b.set_prefix(progress_prefix(s));
            b.set_message(elo_trend(s));
            b
        } else {
            ProgressBar::hidden()
        };
        Printer {
            lines: !opts.quiet && (opts.verbose || !on_terminal),
            verbose: opts.verbose,
            quiet: opts.quiet,
            bar,
            resume,
            session_arg: session_arg(&run.dir, &s.name, &opts.populations),
            report: checkers_ga::html::RunPage::new(opts.report.clone()),
            clock: PaceClock::new(),
            first_generation: s.generation,
            cost: (!opts.quiet).then(|| RunCost::of_session(s)),
            generation_started: Instant::now(),
            last_game: AtomicU64::new(0),
        }
    }

    /// Rewrites the HTML report (a failure is said once and does not stop the session).
    fn write_report(
        &mut self,
        s: &GaState,
        checkpoint: &Path,
        refresh: Option<u32>,
        rewrite_in: Option<u32>,
    ) {
        let opts = checkers_ga::html::Options {
            refresh: None,
            follow: refresh,
            rewrite_in,
        };
        let write = |out: &Path| checkers_ga::html::write_report(s, checkpoint, out, &opts);
        if let Some(w) = self.report.write(write) {
            self.bar.suspend(|| warn(&w));
        }
    }

    /// Says `line` above the bar.
    fn say(&self, line: &str) {
        self.bar.suspend(|| say(line));
    }

    /// Clears the bar.
    fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Printer {
    fn step_started(&mut self, _: &GaState) {
        self.generation_started = Instant::now();
        self.last_game.store(0, Ordering::Relaxed);
    }

    fn game_done(&self) {
        let at = self.generation_started.elapsed().as_nanos() as u64;
        self.last_game.fetch_max(at, Ordering::Relaxed);
        self.clock.game_done();
    }

    fn step_done(&mut self, st: &GenerationStats, s: &GaState) {
        // The first generation started the engine's processes: the pace counts from its end.
        self.clock.start_up_done();
        let eta = Eta::of(s, self.first_generation, &self.clock.pace());
        self.bar.set_prefix(progress_prefix(s));
        self.bar.set_position(match s.settings.stop {
            Stop::Generations(_) => s.generation,
            Stop::Seconds(_) => s.elapsed as u64,
        });
        let mut elo = elo_trend(s);
        if elo.is_empty() {
            // Before the first measurement: what each generation tells of strength already.
            elo = early_signal(st, s);
        }
        self.bar.set_message(format!(
            "{} eta {}{}{elo}",
            rate(eta.per_second, "gen"),
            short_time(eta.seconds_left),
            if elo.is_empty() { "" } else { "  " }
        ));
        if self.lines {
            let games = self.last_game.load(Ordering::Relaxed) as f64 * 1e-9;
            say(&summary_line(st, s, games));
        }
        if let Some(line) = self.cost.as_ref().and_then(|c| c.line(&self.clock.pace())) {
            self.say(&line);
            self.cost = None;
        }
        if let (true, Some(f)) = (self.verbose, &s.fitted) {
            say(&format!(
                "fit of the best so far: {} positions of generation {}, squared error {:.4} -> {:.4}; a newcomer now",
                f.positions, s.generation, f.before, f.after
            ));
        }
    }

    fn checkpoint_written(&mut self, path: &Path, s: &GaState) {
        set_stop_note(s, path, &self.resume);
        if self.verbose {
            self.say(&format!("checkpoint {}", path.display()));
        }
        // The page follows the run: when the session says (after a measurement) and after
        // the run's first generation, as an engine session's does.
        let first = s.generation == self.first_generation + 1;
        if checkers_ga::ShowsProgress::page_now(s) || first {
            self.write_report(s, path, Some(checkers_ga::html::FOLLOW_EVERY), None);
        }
    }

    fn answer_written(&mut self, path: &Path) {
        self.clear();
        if self.quiet {
            // Only the path, for a script to use.
            say(&path.display().to_string());
        } else {
            say(&format!("best weights: {}", path.display()));
        }
    }

    fn stopped(&mut self, _: SessionEnd, _: &GaState, _: &Path) {
        self.clear();
    }
}

fn evolve(
    mut run: SessionRun,
    opts: &RunArgs,
    stop: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<()> {
    super::common::path_only(opts.quiet);
    let resume = resume_of(&run.dir, &run.state.name, opts);
    let start = run.checkpoint();
    if start.exists() {
        set_stop_note(&run.state, &start, &resume);
    } else {
        checkers_ga::set_stop_note(format!(
            "no generation of session '{}' was finished, nothing was saved",
            run.state.name
        ));
    }
    if let Some(p) = checkers_ga::SessionProgress::of_session(&run.state) {
        return super::ga_engine::evolve(run, p, opts, resume, stop);
    }
    if !opts.quiet {
        say(&format!(
            "checkpoints in {}/ (Ctrl-C stops at the next game boundary and saves)",
            run.dir.display()
        ));
    }
    let stop_setting = run.state.settings.stop;
    let mut printer = Printer::new(&run, opts, resume);
    let ran = run.run(&mut printer, stop);
    // The folder is free again as the run's end is said (and its page written).
    drop(run);
    let out = match ran {
        Ok(out) => out,
        Err(e @ SessionError::Save { .. }) => {
            printer.clear();
            warn(&format!("error: {e}"));
            say_somewhere(&format!(
                "continue with, once there is space again: {}",
                printer.resume
            ));
            return Err(AlreadySaid.into());
        }
        Err(e) => return Err(e.into()),
    };
    if let Ok(s) = checkers_ga::store::load_checkpoint(&out.checkpoint) {
        printer.write_report(&s, &out.checkpoint, None, None);
        if !opts.quiet {
            summary(&s, &mut printer, &out);
        }
    }
    say_unfinished(&out, stop_setting, &printer.resume)
}

/// The end of a run: what it did, how the best so far measured at the first and the last
/// measurement, and what to do next.
fn summary(s: &GaState, p: &mut Printer, out: &checkers_ga::SessionOutcome) {
    let gens = s.generation - p.first_generation;
    let wall = p.clock.seconds();
    say(&format!(
        "session '{}': {gens} generation{} in {} ({}), now at generation {}",
        s.name,
        if gens == 1 { "" } else { "s" },
        short_time(wall),
        rate(gens as f64 / wall.max(1e-9), "gen"),
        s.generation
    ));
    for line in strength(s) {
        say(&line);
    }
    if let Some(best) = &out.answer {
        let me = command_prefix();
        let file = shell_word(&best.to_string_lossy());
        say("next: its strength, its weights, a report:");
        say(&format!("  {me} match {file} classic --depth 6"));
        say(&format!("  {me} show {file}"));
        match p.report.path() {
            Some(r) => say(&format!("  open {}", r.display())),
            None => say(&format!("  {me} report {}", p.session_arg)),
        };
        finals_hint(s, &p.session_arg);
    }
}
