//! What an engine session's run says as it goes, whichever tuner runs it (the GA, the mean,
//! any one-file tuner): where the session stands ([`SessionProgress`]), each step as its lines read it
//! ([`StepReport`]), and the lines it prints off a terminal ([`TunerProgress`]). A tuner gives
//! its own steps' reports ([`crate::store::FileTuner::report`], where it stands by
//! `SessionProgress::of`; a GA generation's:
//! [`StepReport::of_generation`]); the rest is the same for every tuner. [`ShowsProgress`] is
//! what one observer of every tuner's run asks of the tuner's state.

use super::pace::Pace;
use crate::clock::TimeUse;
use crate::ga::{GaState, GenerationStats, Stop};
use crate::html;
use crate::summary::ReportError;
use crate::summary::{decided_pairs, elo_text, generation_draws, tournament_max_points};
pub use crate::tuner::StepReport;
use std::path::Path;

/// Where an engine session stands as its progress is counted, whichever tuner's.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionProgress {
    /// What one step is called in lines: `step`, `generation`.
    pub step: &'static str,
    /// Its steps in all (0: not known ahead, on a time limit).
    pub steps: u64,
    /// Whole steps played.
    pub steps_done: u64,
    /// Games played in them.
    pub games: u64,
    /// The games of its whole run (of a GA session: those played and those its generations
    /// left will play; 0: not known ahead, on a time limit).
    pub budget: u64,
    /// The games of one whole step (about, for a GA session with duels or measurements).
    pub games_per_step: u64,
    /// The tuned parameters' names, in the engine's order.
    pub names: Vec<String>,
    /// Its answer now, in the engine's units.
    pub values: Vec<f64>,
    /// On a time limit (a GA session's `--time`): the seconds it has left.
    pub time_left: Option<f64>,
}

impl SessionProgress {
    /// Where a GA session of an outside engine stands (on a time limit, its steps and games
    /// in all are not known ahead: its time left is); None for a session of our own weights.
    pub fn of_session(s: &GaState) -> Option<SessionProgress> {
        let spec = s.settings.engine.as_ref()?;
        let per = s.settings.games_per_generation();
        let games = s.games_played();
        let (steps, budget, time_left) = match s.settings.stop {
            Stop::Generations(n) => {
                let left = n.saturating_sub(s.generation) as f64 * per;
                (n, games + left.round() as u64, None)
            }
            Stop::Seconds(t) => (0, 0, Some((t - s.elapsed).max(0.0))),
        };
        Some(SessionProgress {
            step: "generation",
            steps,
            steps_done: s.generation,
            games,
            budget,
            games_per_step: per.round() as u64,
            names: spec.tuned.iter().map(|t| t.name.clone()).collect(),
            values: answer_values(s),
            time_left,
        })
    }

    /// Every how many steps a page of the run (`--report`) is written again as it goes,
    /// whichever tuner's: every 5% of its steps (every step on a time limit, whose steps are
    /// not known ahead).
    pub fn page_every(&self) -> u64 {
        self.steps.div_ceil(20).max(1)
    }

    /// Is the page due after the step just played: a multiple of
    /// [`page_every`](SessionProgress::page_every) steps, and not the last (the page at the end is written
    /// once the answer is)?
    pub fn page_due(&self) -> bool {
        self.steps_done.is_multiple_of(self.page_every()) && !self.at_last_step()
    }

    /// Has it played its last step (never on a time limit, whose steps are not known ahead)?
    pub fn at_last_step(&self) -> bool {
        self.steps > 0 && self.steps_done >= self.steps
    }

    /// Seconds until the page is next written, at `pace` (None: no pace yet).
    pub fn page_in(&self, pace: &super::Pace) -> Option<u32> {
        let games = (self.games_per_step * self.page_every()) as f64;
        pace.seconds_for(games).map(|s| s.ceil() as u32)
    }
}

/// What an engine session's run shows as it goes, told by its tuner's state, so that one
/// observer shows every tuner's run the same way: where it stands, each step as lines read it,
/// a tuner's own line after a step, when its running page is due, and the page.
pub trait ShowsProgress: crate::Tuner {
    /// Where its session stands (None: a GA session of our own weights, whose run shows
    /// lines of its own).
    fn session_progress(&self) -> Option<SessionProgress>;
    /// Step `step`, just told (`self` stands after it), as progress lines read it.
    fn step_report(&self, step: &Self::Step) -> StepReport;
    /// A line of this tuner's own after step `step` (the GA's measurement of its answer).
    fn step_line(&self, _step: &Self::Step) -> Option<String> {
        None
    }
    /// Is the running page due after the step just played beyond the rule every tuner
    /// keeps ([`SessionProgress::page_due`]; the GA: after a measurement)?
    fn page_now(&self) -> bool {
        false
    }
    /// Writes the page of the session standing at `checkpoint` (as `self`) to `out`.
    fn write_page(
        &self,
        checkpoint: &Path,
        out: &Path,
        opts: &html::Options,
    ) -> Result<(), ReportError>;
}

impl ShowsProgress for GaState {
    fn session_progress(&self) -> Option<SessionProgress> {
        SessionProgress::of_session(self)
    }

    fn step_report(&self, step: &GenerationStats) -> StepReport {
        StepReport::of_generation(step, self)
    }

    fn step_line(&self, step: &GenerationStats) -> Option<String> {
        let m = step.measure?;
        Some(format!(
            "generation {}: the answer vs {}: {}",
            step.generation,
            self.settings.yardstick_name(),
            elo_text(&m)
        ))
    }

    fn page_now(&self) -> bool {
        self.history.last().is_some_and(|h| h.measure.is_some())
    }

    fn write_page(
        &self,
        checkpoint: &Path,
        out: &Path,
        opts: &html::Options,
    ) -> Result<(), ReportError> {
        html::write_report(self, checkpoint, out, opts)
    }
}

/// A GA session's answer in its engine's units (the engine's declared values before the first
/// generation); empty for a session of our own weights.
fn answer_values(s: &GaState) -> Vec<f64> {
    let Some(spec) = &s.settings.engine else {
        return Vec::new();
    };
    let answer = s.answer().unwrap_or_else(|| spec.defaults());
    spec.values(&answer).into_iter().map(|v| v as f64).collect()
}

impl StepReport {
    /// Generation `st` of GA session `s` (of an outside engine), as it stands after it: its
    /// note is the mean's pairs decided (`pairs decided 7 of 8`) or the tournament's top points
    /// (`top 41 of 60 points`).
    pub fn of_generation(st: &GenerationStats, s: &GaState) -> StepReport {
        let decided_of = decided_pairs(s);
        let (pairs, decided) = decided_of.unwrap_or((0, 0));
        let note = match decided_of {
            Some(_) => format!("pairs decided {decided} of {pairs}"),
            None => format!("top {} of {} points", st.best, tournament_max_points(s)),
        };
        StepReport {
            number: st.generation,
            games: s.games_played(),
            values: answer_values(s),
            note,
            played: u64::from(st.games),
            draws: generation_draws(st, s),
            pairs,
            decided,
            time: st.time,
            faults: s.faults.clone(),
        }
    }
}

/// Games between two progress lines of a run at most (rounded up to whole steps).
const LINE_GAMES: u64 = 200;

/// The lines an engine session's run prints off a terminal (a pipe, a log file), whichever
/// tuner's: one every [`TunerProgress::every`] steps and one at the last step, each with the
/// steps and games played, their rate and the time left (at the pace past the start-up,
/// [`Pace`]), the games lost by a fault since the line before and on a clock the depth the
/// searches reached and the games lost on time (when there were any), and the parameters that
/// moved most since the line before (or the run's start), in the engine's units:
///
/// `step 75/500  600/4000 games  9.1 games/s  left 6m13s  faults 1  moved most: king +12.4
/// (to 142.4), mobility -3.1 (to 4.9), centre +1.0 (to 6.0)`
#[derive(Clone, Debug)]
pub struct TunerProgress {
    every: u64,
    step: &'static str,
    steps: u64,
    /// The games of the whole run.
    total: u64,
    names: Vec<String>,
    /// The answer at the last line (or the run's start).
    last: Vec<f64>,
    /// On a time limit: the seconds the run has, and when (in the run's seconds) the next
    /// line is due.
    time_left: Option<(f64, f64)>,
    /// The games lost by a fault since the last line.
    faults: usize,
    /// On a clock: what the games since the last line did with it.
    time: Option<TimeUse>,
}

impl TunerProgress {
    /// The lines of a run of a session from where it stands.
    pub fn new(progress: &SessionProgress) -> TunerProgress {
        TunerProgress {
            every: TunerProgress::every(progress.steps, progress.games_per_step),
            step: progress.step,
            steps: progress.steps,
            total: progress.budget,
            names: progress.names.clone(),
            last: progress.values.clone(),
            time_left: progress.time_left.map(|t| (t, 0.0)),
            faults: 0,
            time: None,
        }
    }

    /// Every how many steps a line comes: every 5% of a run of `steps` steps, and at least
    /// every 200 games (every step when a step plays more).
    pub fn every(steps: u64, games_per_step: u64) -> u64 {
        steps
            .div_ceil(20)
            .min(LINE_GAMES.div_ceil(games_per_step.max(1)))
            .max(1)
    }

    /// The line after `step`, when one is due (every [`TunerProgress::every`] steps and at the
    /// last; on a time limit, the first step and then every 5% of the run's time), at `pace`;
    /// its answer then counts as seen.
    pub fn line(&mut self, step: &StepReport, pace: &Pace) -> Option<String> {
        // The fault lines include the games lost on time, which the clock's part counts.
        let on_time = step.time.map_or(0, |t| t.lost_on_time as usize);
        self.faults += step.faults.len().saturating_sub(on_time);
        if let Some(t) = &step.time {
            self.time.get_or_insert_with(TimeUse::default).add(t);
        }
        let due = match &mut self.time_left {
            Some((t, next)) => {
                let due = pace.seconds >= *next;
                if due && *t > 0.0 {
                    // The next 5% mark of the time past now.
                    let every = *t / 20.0;
                    *next = ((pace.seconds / every).floor() + 1.0) * every;
                }
                due
            }
            None => step.number.is_multiple_of(self.every) || step.number == self.steps,
        };
        if !due {
            return None;
        }
        // The faults and the clock's use since the line before, when there were any.
        let mut since = match std::mem::take(&mut self.faults) {
            0 => String::new(),
            n => format!("  faults {n}"),
        };
        if let Some(t) = self.time.take() {
            since += &format!("  depth {:.1}", t.mean_depth());
            if t.lost_on_time > 0 {
                since += &format!("  lost on time {}", t.lost_on_time);
            }
        }
        let total = self.total;
        let rate = match pace.rate() {
            Some(r) => crate::per_time(r, "games"),
            None => "? games/s".to_string(),
        };
        let left = match self.time_left {
            Some((t, _)) => crate::short_time((t - pace.seconds).max(0.0)),
            None => pace
                .seconds_for(total.saturating_sub(step.games) as f64)
                .map_or("?".to_string(), crate::short_time),
        };
        // Of how many, where that is known.
        let of = |n: u64| match n {
            0 => String::new(),
            n => format!("/{n}"),
        };
        let mut moved: Vec<(usize, f64)> = step
            .values
            .iter()
            .zip(&self.last)
            .map(|(now, was)| now - was)
            .enumerate()
            .filter(|(_, d)| d.abs() >= 0.05)
            .collect();
        // The largest first; equal moves in the engine's order.
        moved.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
        let moves: Vec<String> = moved
            .iter()
            .take(3)
            .map(|&(i, d)| format!("{} {d:+.1} (to {:.1})", self.names[i], step.values[i]))
            .collect();
        self.last.clone_from(&step.values);
        Some(format!(
            "{} {}{}  {}{} games  {rate}  left {left}{since}  moved most: {}",
            self.step,
            step.number,
            of(self.steps),
            step.games,
            of(total),
            if moves.is_empty() {
                "none".to_string()
            } else {
                moves.join(", ")
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(steps: u64, budget: u64, time_left: Option<f64>) -> TunerProgress {
        TunerProgress::new(&SessionProgress {
            step: "generation",
            steps,
            steps_done: 0,
            games: 0,
            budget,
            games_per_step: 4,
            names: vec!["king".into()],
            values: vec![100.0],
            time_left,
        })
    }

    /// Every tuner's page is written again every 5% of its steps, not after the last, the
    /// next rewrite reckoned from the run's pace.
    #[test]
    fn a_page_is_due_every_twentieth_of_the_steps() {
        let at = |steps: u64, steps_done: u64| SessionProgress {
            step: "generation",
            steps,
            steps_done,
            games: 0,
            budget: steps * 16,
            games_per_step: 16,
            names: Vec::new(),
            values: Vec::new(),
            time_left: None,
        };
        assert_eq!((at(250, 0).page_every(), at(10, 0).page_every()), (13, 1));
        let due: Vec<u64> = (1..=250).filter(|&d| at(250, d).page_due()).collect();
        assert_eq!(due.len(), 19);
        assert_eq!((due[0], due[18]), (13, 247));
        assert!(!at(10, 10).page_due(), "the last page is the end's");
        assert!(at(0, 7).page_due(), "every step on a time limit");
        let mut pace = crate::session::Pace {
            games: 0,
            seconds: 0.0,
            start_up: None,
        };
        assert_eq!(at(250, 13).page_in(&pace), None);
        pace.games = 160;
        pace.seconds = 10.0;
        // 13 generations of 16 games at 16 games a second.
        assert_eq!(at(250, 13).page_in(&pace), Some(13));
    }

    fn step(number: u64, king: f64) -> StepReport {
        StepReport {
            number,
            games: 4 * number,
            values: vec![king],
            note: String::new(),
            played: 4,
            draws: 0,
            pairs: 2,
            decided: 2,
            time: None,
            faults: Vec::new(),
        }
    }

    fn at(seconds: f64) -> Pace {
        Pace {
            games: 0,
            seconds,
            start_up: None,
        }
    }

    #[test]
    fn on_a_time_limit_a_line_comes_first_then_every_5_percent_of_the_time() {
        let mut p = progress(0, 0, Some(10.0));
        let line = p.line(&step(1, 101.0), &at(0.1)).unwrap();
        assert!(line.starts_with("generation 1  4 games  "), "{line}");
        assert!(
            line.contains("  left 9.9s") || line.contains("  left 10s"),
            "{line}"
        );
        assert!(line.contains("moved most: king +1.0 (to 101.0)"), "{line}");
        // The next line at 0.5 s, the 5% mark after it; the moves count from the last line.
        assert_eq!(p.line(&step(2, 102.0), &at(0.3)), None);
        let line = p.line(&step(3, 104.0), &at(0.7)).unwrap();
        assert!(line.starts_with("generation 3  12 games  "), "{line}");
        assert!(line.contains("king +3.0 (to 104.0)"), "{line}");
        assert_eq!(p.line(&step(4, 104.0), &at(0.9)), None);
        assert!(p.line(&step(5, 104.0), &at(1.0)).is_some());
    }

    #[test]
    fn to_a_number_of_steps_a_line_comes_every_5_percent_of_them_and_at_the_last() {
        let mut p = progress(40, 160, None);
        assert_eq!(p.line(&step(1, 101.0), &at(0.1)), None);
        let line = p.line(&step(2, 102.0), &at(0.2)).unwrap();
        assert!(line.starts_with("generation 2/40  8/160 games  "), "{line}");
        let mut q = progress(41, 164, None);
        assert!(q.line(&step(41, 101.0), &at(1.0)).is_some());
        // Every 3 steps of 41.
        assert_eq!(q.line(&step(40, 101.0), &at(1.0)), None);
    }
}
