//! What the run of an engine session prints as it goes, whichever tuner runs it (`new
//! --engine` under the GA or the mean, `spsa`, `cmaes`, their `resume`): the progress bar on a
//! terminal, the progress lines off one, the values every N steps (`--print-every`), the cost
//! line once the pace is known, and the note when the games tell the tuner little. It is told
//! each game and each step ([`checkers_ga::StepReport`]), as the tuner reports it.

use super::common::{progress_style, say};
use checkers_ga::{PaceClock, RunCost, SessionProgress, Signal, StepReport, TunerProgress};
use indicatif::ProgressBar;

/// The progress bar (on a terminal), the progress lines (off one), and the lines of
/// `--print-every`.
pub struct EnginePrinter {
    pub bar: ProgressBar,
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
