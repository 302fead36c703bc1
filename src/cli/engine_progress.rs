//! What the run of an engine session prints as it goes, whichever tuner runs it (`new
//! --engine` under the GA or the mean, `spsa`, `cmaes`, their `resume`): the progress bar on a
//! terminal, the progress lines off one, the values every N steps (`--print-every`), the cost
//! line once the pace is known, and the note when the games tell the tuner little. It is told
//! each game and each step ([`checkers_ga::StepReport`]), as the tuner reports it. One observer
//! ([`EngineWatch`]) hears every tuner's engine session and keeps its page (`--report`) and
//! the note an MPI job ended from outside says.

use super::common::{progress_style, say, warn};
use checkers_ga::html::{self, RunPage};
use checkers_ga::{Observer, SessionEnd, ShowsProgress};
use checkers_ga::{PaceClock, RunCost, SessionProgress, Signal, StepReport, TunerProgress};
use indicatif::ProgressBar;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// The progress bar (on a terminal), the progress lines (off one), and the lines of
/// `--print-every`.
pub struct EnginePrinter {
    pub bar: ProgressBar,
    /// `--quiet`: no lines but those of `--print-every`.
    pub quiet: bool,
    names: Vec<String>,
    step: &'static str,
    steps: u64,
    /// On a time limit: the seconds the run has.
    time_left: Option<f64>,
    every: u64,
    /// The run's games and time, its start-up apart.
    pub clock: PaceClock,
    /// Off a terminal (and not quiet): a line every so often.
    lines: Option<TunerProgress>,
    /// How much the games tell the tuner (said once when little; None when quiet).
    signal: Option<Signal>,
    /// What the run will cost, said once its pace past the start-up is known (None when quiet
    /// or once said).
    cost: Option<RunCost>,
}

impl EnginePrinter {
    /// The printer of a run of a session standing at `p`: a bar when `on_terminal` (and not
    /// `quiet`), lines otherwise (none when `quiet`), the values every `every` steps (0:
    /// never), and `cost` said once its pace is known (unless `quiet`).
    pub fn new(
        p: &SessionProgress,
        quiet: bool,
        on_terminal: bool,
        every: u64,
        cost: RunCost,
    ) -> EnginePrinter {
        let bar = if on_terminal && p.budget > 0 {
            let b = ProgressBar::new(p.budget).with_position(p.games);
            b.set_style(progress_style(
                "{bar:40} {pos}/{len} games {rate} eta {eta}  {msg}",
            ));
            b
        } else if on_terminal {
            // On a time limit: the games so far, their rate and the time.
            let b = ProgressBar::no_length().with_position(p.games);
            b.set_style(progress_style("{pos} games {rate} {elapsed}  {msg}"));
            b
        } else {
            ProgressBar::hidden()
        };
        EnginePrinter {
            bar,
            quiet,
            names: p.names.clone(),
            step: p.step,
            steps: p.steps,
            time_left: p.time_left,
            every,
            clock: PaceClock::new(),
            lines: (!quiet && !on_terminal).then(|| TunerProgress::new(p)),
            signal: (!quiet).then(Signal::default),
            cost: (!quiet).then_some(cost),
        }
    }

    /// A game ended (on any thread).
    pub fn game_done(&self) {
        self.clock.game_done();
        self.bar.inc(1);
    }

    /// A step ended, as its tuner reports it.
    pub fn step_done(&mut self, s: &StepReport) {
        // The first step started the engine's processes: the pace counts from its end.
        self.clock.start_up_done();
        let values: Vec<String> = self
            .names
            .iter()
            .zip(&s.values)
            .map(|(n, t)| format!("{n}={t:.1}"))
            .collect();
        let of = match self.steps {
            0 => String::new(),
            n => format!("/{n}"),
        };
        // On a time limit, the bar has no end: its message says the time left.
        let left = self.time_left.map_or(String::new(), |t| {
            let left = (t - self.clock.seconds()).max(0.0);
            format!("  left {}", checkers_ga::short_time(left))
        });
        self.bar
            .set_message(format!("{} {}{of}{left}", self.step, s.number));
        // The bar counts every game; a step's duel or measurement is counted here.
        self.bar.set_position(s.games.max(self.bar.position()));
        if self.every > 0 && s.number.is_multiple_of(self.every) {
            self.bar.suspend(|| {
                say(&format!(
                    "{} {} ({} games, {}): {}",
                    self.step,
                    s.number,
                    s.games,
                    s.note,
                    values.join(" ")
                ))
            });
        }
        let pace = self.clock.pace();
        if let Some(line) = self.lines.as_mut().and_then(|p| p.line(s, &pace)) {
            say(&line);
        }
        if let Some(line) = self.cost.as_ref().and_then(|c| c.line(&pace)) {
            self.bar.suspend(|| say(&line));
            self.cost = None;
        }
        if let Some(g) = self.signal.as_mut() {
            let games = (s.played, s.draws);
            for note in g.step(games, (s.pairs, s.decided), s.time.as_ref()) {
                self.bar.suspend(|| say(&note));
            }
        }
    }
}

/// What every tuner's engine session shows as its run goes ([`Observer`] of its state `T`):
/// its progress ([`EnginePrinter`]), the tuner's own line after a step (the GA's measurement),
/// its page (`--report`: after the run's first step, every 5% of its steps and when the tuner
/// says, following the run; the page at the end is the caller's, [`EngineWatch::write_page`]),
/// the note of where it stands for an MPI job ended from outside, and its answer's file (which
/// the GA's end reads).
pub struct EngineWatch<T> {
    pub printer: EnginePrinter,
    page: RunPage,
    /// How to continue the session, for the stop note.
    resume: String,
    /// No step of this run has been played yet.
    first: bool,
    /// The answer's file, once written.
    pub answer: Option<PathBuf>,
    /// Say the path of each checkpoint written (a GA session's `--verbose`).
    pub checkpoint_lines: bool,
    tuner: PhantomData<fn(T)>,
}

impl<T: ShowsProgress> EngineWatch<T> {
    /// The observer of a run printing with `printer`, its page at `page` (None: no page),
    /// continued by `resume`.
    pub fn new(printer: EnginePrinter, page: Option<PathBuf>, resume: String) -> EngineWatch<T> {
        EngineWatch {
            printer,
            page: RunPage::new(page),
            resume,
            first: true,
            answer: None,
            checkpoint_lines: false,
            tuner: PhantomData,
        }
    }

    /// The page, while it is written (None: no `--report`, or it failed).
    pub fn page(&self) -> Option<&Path> {
        self.page.path()
    }

    /// Writes the page of `state` standing at `checkpoint` as `o` says (a failure is said once
    /// and the page is not written again).
    pub fn write_page(&mut self, state: &T, checkpoint: &Path, o: &html::Options) {
        if let Some(w) = self.page.write(|out| state.write_page(checkpoint, out, o)) {
            self.printer.bar.suspend(|| warn(&w));
        }
    }

    /// Clears the bar.
    pub fn clear(&self) {
        self.printer.bar.finish_and_clear();
    }
}

impl<T: ShowsProgress> Observer<T> for EngineWatch<T> {
    fn game_done(&self) {
        self.printer.game_done();
    }

    fn step_done(&mut self, step: &T::Step, state: &T) {
        self.printer.step_done(&state.step_report(step));
        if let Some(line) = state.step_line(step).filter(|_| !self.printer.quiet) {
            self.printer.bar.suspend(|| say(&line));
        }
    }

    fn checkpoint_written(&mut self, path: &Path, state: &T) {
        let first = std::mem::replace(&mut self.first, false);
        if self.checkpoint_lines {
            self.printer
                .bar
                .suspend(|| say(&format!("checkpoint {}", path.display())));
        }
        let Some(progress) = state.session_progress() else {
            return;
        };
        set_stop_note(progress.step, progress.steps_done, path, &self.resume);
        // The page follows the run, its next rewrite reckoned from the run's pace; at the
        // last step the page at the end is written once the answer is.
        let first = first && !progress.at_last_step();
        if progress.page_due() || first || state.page_now() {
            let follow = html::Options {
                follow: Some(html::FOLLOW_EVERY),
                rewrite_in: progress.page_in(&self.printer.clock.pace()),
                ..Default::default()
            };
            self.write_page(state, path, &follow);
        }
    }

    fn answer_written(&mut self, path: &Path) {
        self.answer = Some(path.to_path_buf());
    }

    fn stopped(&mut self, _: SessionEnd, _: &T, _: &Path) {
        self.clear();
    }
}

/// What rank 0 of an MPI job says if the job is ended under it (a rank died, mpirun stopped),
/// whichever tuner's session it runs: the `step` under way is lost, the session stands at
/// its checkpoint `checkpoint` after `done` of them, and `resume` continues it.
pub fn set_stop_note(step: &str, done: u64, checkpoint: &Path, resume: &str) {
    checkers_ga::set_stop_note(format!(
        "{step} {} was not finished; the session stands at {step} {done} ({}); continue with: \
         {resume} (under mpirun or srun with any number of ranks, or without MPI)",
        done + 1,
        checkpoint.display(),
    ));
}
