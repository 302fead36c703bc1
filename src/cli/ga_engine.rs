//! A GA session of an outside engine (`new --engine` under the GA or the mean, and its
//! `resume`): its run is shown as every tuner's engine session is ([`EngineWatch`]), and it
//! ends as every tuner's does ([`EngineEnd`]).

use super::common::{say, say_somewhere, show_progress, warn, AlreadySaid, Interrupted};
use super::engine_end::EngineEnd;
use super::engine_progress::{EnginePrinter, EngineWatch};
use super::evolve_args::RunArgs;
use super::evolve_lines::{finals_hint, say_unfinished, strength};
use checkers_ga::html::Options;
use checkers_ga::{session_arg, EngineSpec, GaState, RunCost, SessionOutcome, SessionProgress};
use checkers_ga::{SessionEnd, SessionError, SessionRun};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Runs GA session `run` of an outside engine, standing at `progress`, continued by `resume`.
pub(super) fn evolve(
    mut run: SessionRun,
    progress: SessionProgress,
    opts: &RunArgs,
    resume: String,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let s = &run.state;
    let arg = session_arg(&run.dir, &s.name, &opts.populations);
    if !opts.quiet {
        // As every tuner's engine session says it.
        say(&format!(
            "session '{}': a checkpoint in {}/ after every generation (Ctrl-C stops; `resume \
             {arg}` continues)",
            s.name,
            run.dir.display(),
        ));
    }
    let stop_setting = s.settings.stop;
    let printer = EnginePrinter::new(
        &progress,
        opts.quiet,
        show_progress(opts.quiet),
        opts.verbose as u64,
        RunCost::of_session(s),
    );
    let mut watch = EngineWatch::<GaState>::new(printer, opts.report.clone(), resume.clone());
    watch.checkpoint_lines = opts.verbose;
    let ran = run.run(&mut watch, stop);
    // The folder is free again as the run's end is said (and its page written).
    drop(run);
    watch.clear();
    let out = match ran {
        Ok(out) => out,
        Err(e @ SessionError::Save { .. }) => {
            warn(&format!("error: {e}"));
            say_answer(&mut watch, opts.quiet);
            say_somewhere(&format!(
                "continue with, once there is space again: {resume}"
            ));
            return Err(AlreadySaid.into());
        }
        Err(e) => return Err(e.into()),
    };
    if let Ok(s) = checkers_ga::store::load_checkpoint(&out.checkpoint) {
        watch.write_page(&s, &out.checkpoint, &Options::default());
        if say_end(&s, &mut watch, &out, opts.quiet, &arg, &resume) == Said::Stop {
            return Err(Interrupted.into());
        }
    }
    say_answer(&mut watch, opts.quiet);
    say_unfinished(&out, stop_setting, &resume)
}

/// Ends a resume of GA session `run` of an outside engine, standing at `progress`, that plays
/// nothing: writes the answer and the page of `--report`, then ends as every tuner's engine
/// session does at its end: its values, its answer's file, where it stands, what to do next.
pub(super) fn finish_here(
    mut run: SessionRun,
    progress: SessionProgress,
    opts: &RunArgs,
) -> anyhow::Result<()> {
    let s = &run.state;
    let arg = session_arg(&run.dir, &s.name, &opts.populations);
    let printer = EnginePrinter::new(&progress, true, false, 0, RunCost::of_session(s));
    let mut watch = EngineWatch::<GaState>::new(printer, opts.report.clone(), String::new());
    let out = run.finish(&mut watch)?;
    let s = &run.state;
    watch.write_page(s, &out.checkpoint, &Options::default());
    let (Some(e), Some(best)) = (&s.settings.engine, watch.answer.take()) else {
        return Ok(());
    };
    if opts.quiet {
        // Only the path, for a script to use.
        say(&best.display().to_string());
        return Ok(());
    }
    let end = engine_end(s, e, &best, &out.checkpoint, &arg, watch.page());
    end.say_values();
    end.say_done(0.0, &strength(s));
    Ok(())
}

/// Says the answer's file once, where the end did not (a checkpoint that could not be written
/// or read): its path alone when `quiet`.
fn say_answer(watch: &mut EngineWatch<GaState>, quiet: bool) {
    if let Some(path) = watch.answer.take() {
        match quiet {
            true => say(&path.display().to_string()),
            false => say(&format!("best values: {}", path.display())),
        };
    }
}

/// What the end of a run said.
#[derive(PartialEq)]
enum Said {
    /// The end of a run that played to its end or its time limit (or nothing, its answer
    /// unwritten).
    End,
    /// A stop by a signal, and how to continue.
    Stop,
}

/// The end of a run of session `s` (named by `arg`, continued by `resume`), as every tuner's
/// engine session ends ([`EngineEnd`]): its values (unless `quiet`: the answer's path alone),
/// then what to do next, or, stopped by a signal, what stopped it and how to continue.
fn say_end(
    s: &GaState,
    watch: &mut EngineWatch<GaState>,
    out: &SessionOutcome,
    quiet: bool,
    arg: &str,
    resume: &str,
) -> Said {
    let written = watch.answer.take();
    let (Some(e), Some(best)) = (&s.settings.engine, written.or(out.answer.clone())) else {
        return Said::End;
    };
    let end = engine_end(s, e, &best, &out.checkpoint, arg, watch.page());
    if quiet {
        // Only the path, for a script to use.
        say(&best.display().to_string());
    } else {
        end.say_values();
    }
    if out.end == SessionEnd::Stopped {
        let budget = SessionProgress::of_session(s).map_or(0, |g| g.budget);
        end.say_stopped(budget, resume);
        return Said::Stop;
    }
    if !quiet {
        end.say_done(watch.printer.clock.seconds(), &strength(s));
        finals_hint(s, arg);
    }
    Said::End
}

/// The end of outside engine `e`'s session `s` as every tuner's says it: its answer in file
/// `best`, where it stands (`checkpoint`), the session named by `arg` and its page.
fn engine_end<'a>(
    s: &'a GaState,
    e: &'a EngineSpec,
    best: &'a Path,
    checkpoint: &'a Path,
    arg: &'a str,
    page: Option<&'a Path>,
) -> EngineEnd<'a> {
    EngineEnd {
        spec: e,
        answer: s.answer().unwrap_or_else(|| e.defaults()),
        best,
        games: s.games_played(),
        steps: s.generation,
        step: "generation",
        also: String::new(),
        name: &s.name,
        progress: s.progress(),
        checkpoint,
        session_arg: arg,
        page,
    }
}
