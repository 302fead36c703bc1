//! The pace of a run's games, measured past its start-up, and the time it makes of the games
//! left: what the cost line of an outside engine's session (`this run: ... about 3m40s at the
//! 9.1 games/s so far`), its ETA and an SPSA session's progress lines say.
//!
//! A run's first generation (or SPSA step) starts the outside engine's processes as its games
//! need them (a Python engine takes a tenth of a second or more to start, several times that
//! on a busy machine, against about a tenth of a second for a whole game at depth 2), so its
//! games come slower than the run's: a rate measured over it said the run would take twice
//! as long as it did. The pace counts from the end of it ([`PaceClock::start_up_done`]), and
//! a run's time is the time so far plus the games left at that pace.
//!
//! ```
//! use checkers_ga::Pace;
//! // 16 games in the first 4 s (the start-up), then 80 more in 8 s: 10 games a second.
//! let pace = Pace { games: 96, seconds: 12.0, start_up: Some((16, 4.0)) };
//! assert_eq!(pace.games_per_second(), Some(10.0));
//! // 400 games in all: 12 s so far and 304 games left, 30.4 s.
//! assert!((pace.run_seconds(400.0).unwrap() - 42.4).abs() < 1e-9);
//! ```

use crate::ga::{GaState, Stop};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Games and seconds past the start-up from which a pace is [`Pace::settled`].
const SETTLED_GAMES: u64 = 64;
/// Seconds past the start-up from which a pace is [`Pace::settled`], however few its games.
const SETTLED_SECONDS: f64 = 10.0;

/// Where a run stands in games and time: its games and seconds so far, and those at the end of
/// its start-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Games ended since the run started.
    pub games: u64,
    /// Seconds since the run started.
    pub seconds: f64,
    /// The games and seconds at the end of the start-up (None: not over yet).
    pub start_up: Option<(u64, f64)>,
}

impl Pace {
    /// The games and seconds past the start-up (None before its end).
    pub fn past_start_up(&self) -> Option<(u64, f64)> {
        let (g, s) = self.start_up?;
        Some((self.games.saturating_sub(g), (self.seconds - s).max(0.0)))
    }

    /// Games per second past the start-up; None before its end, or with no game or no time
    /// past it.
    pub fn games_per_second(&self) -> Option<f64> {
        let (g, s) = self.past_start_up()?;
        (g > 0 && s > 0.0).then(|| g as f64 / s)
    }

    /// Games per second past the start-up when known, else over the whole run so far (start-up
    /// included, so slower than the run's); None before the first game.
    pub fn rate(&self) -> Option<f64> {
        self.games_per_second().or_else(|| {
            (self.games > 0 && self.seconds > 0.0).then(|| self.games as f64 / self.seconds)
        })
    }

    /// Is the pace measured well enough to tell the run's time: 64 games or 10 seconds past the
    /// start-up?
    pub fn settled(&self) -> bool {
        self.past_start_up()
            .is_some_and(|(g, s)| g > 0 && (g >= SETTLED_GAMES || s >= SETTLED_SECONDS))
    }

    /// Seconds `games` more games take at [`Pace::rate`]; None without a rate.
    pub fn seconds_for(&self, games: f64) -> Option<f64> {
        let r = self.rate()?;
        Some(games.max(0.0) / r)
    }

    /// Seconds the whole run takes when it plays `total` games in all: the time so far and the
    /// games left at [`Pace::rate`]; None without a rate.
    pub fn run_seconds(&self, total: f64) -> Option<f64> {
        Some(self.seconds + self.seconds_for(total - self.games as f64)?)
    }
}

/// The clock of a [`Pace`]: counts a run's games as they end (from any thread) and marks the
/// end of its start-up.
#[derive(Debug)]
pub struct PaceClock {
    started: Instant,
    games: AtomicU64,
    start_up: Mutex<Option<(u64, f64)>>,
}

impl Default for PaceClock {
    fn default() -> PaceClock {
        PaceClock::new()
    }
}

impl PaceClock {
    /// A run starting now.
    pub fn new() -> PaceClock {
        PaceClock {
            started: Instant::now(),
            games: AtomicU64::new(0),
            start_up: Mutex::new(None),
        }
    }

    /// A game has ended.
    pub fn game_done(&self) {
        self.games.fetch_add(1, Ordering::Relaxed);
    }

    /// The start-up is over (the run's first generation or step has ended): the pace counts
    /// from now. Later calls change nothing.
    pub fn start_up_done(&self) {
        let now = (
            self.games.load(Ordering::Relaxed),
            self.started.elapsed().as_secs_f64(),
        );
        let mut mark = self.start_up.lock().unwrap_or_else(|e| e.into_inner());
        mark.get_or_insert(now);
    }

    /// The pace now.
    pub fn pace(&self) -> Pace {
        Pace {
            games: self.games.load(Ordering::Relaxed),
            seconds: self.started.elapsed().as_secs_f64(),
            start_up: *self.start_up.lock().unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// Seconds since the run started.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

/// What a run of an outside engine's session plans to play, whichever tuner's: the steps left
/// (generations of the GA, steps of SPSA, generations of CMA-ES; None under a time limit) and
/// the games a step plays on average. Its [`RunCost::line`] says what that costs at the pace
/// seen, and how to ask for less.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunCost {
    /// Steps the run plays (None: it stops at a time limit).
    pub generations: Option<u64>,
    /// Games a step plays on average.
    pub per_generation: f64,
    /// What a step is called: `generation`, `step`.
    pub step: &'static str,
    /// The flag that asks for a number of games (`--games-budget` of `new`, `--games` of
    /// `spsa` and `cmaes`; empty for a run whose budget is fixed: no way to ask for less is
    /// said).
    pub budget_flag: &'static str,
    /// The rest of the ways to ask for less, after the budget's (the GA's: `, fewer
    /// --generations or a smaller --population`).
    pub less: &'static str,
}

impl RunCost {
    /// What a run of session `s` plans to play from where it stands: the generations left to
    /// its limit (None under a time limit), of the games its next generation plays.
    pub fn of_session(s: &GaState) -> RunCost {
        RunCost {
            generations: match s.settings.stop {
                Stop::Generations(n) => Some(n.saturating_sub(s.generation)),
                Stop::Seconds(_) => None,
            },
            per_generation: s.settings.games_per_generation(),
            step: "generation",
            budget_flag: "--games-budget",
            less: ", fewer --generations or a smaller --population",
        }
    }

    /// What a run of a one-file tuner plans to play: `steps` left, of `per_step` games, a
    /// step called `step`; `budget_flag` is how its command asks for games.
    pub fn of_steps(
        steps: u64,
        per_step: f64,
        step: &'static str,
        budget_flag: &'static str,
    ) -> RunCost {
        RunCost {
            generations: Some(steps),
            per_generation: per_step,
            step,
            budget_flag,
            less: "",
        }
    }

    /// The line that says what the run costs at `pace` and how to ask for less, once the pace
    /// is [`Pace::settled`] (None before): `this run: 125 generations of about 16 games, 2,000
    /// games in all, about 3m40s at the 9.1 games/s so far; for less, ...`. The time is the
    /// run's in all, the time so far included.
    pub fn line(&self, pace: &Pace) -> Option<String> {
        if !pace.settled() {
            return None;
        }
        let games_per_second = pace.games_per_second()?;
        let per = self.per_generation;
        let speed = crate::per_time(games_per_second, "games");
        let budget = 4000u64;
        let budget_time = crate::short_time(budget as f64 / games_per_second);
        let total = self.generations.map(|g| g as f64 * per);
        let (flag, rest) = (self.budget_flag, self.less);
        let less = if flag.is_empty() {
            // A run whose budget is fixed (a one-file tuner's, resumed): nothing to ask.
            String::new()
        } else if total.is_some_and(|t| t <= 1.5 * budget as f64) {
            format!("; for less, give {flag} GAMES{rest}")
        } else {
            format!("; for less, give {flag} GAMES ({flag} {budget}: about {budget_time}){rest}")
        };
        let step = self.step;
        let per_text = crate::grouped(per.round() as u64);
        Some(match self.generations {
            Some(g) => {
                let total = (g as f64 * per).round() as u64;
                format!(
                    "this run: {g} {step}{} of about {per_text} games, {} games in all, \
                     about {} at the {speed} so far{less}",
                    if g == 1 { "" } else { "s" },
                    crate::grouped(total),
                    crate::short_time(pace.run_seconds(total as f64)?),
                )
            }
            None => format!(
                "this run: about {per_text} games a {step}, a {step} every {} at the {speed} so \
                 far{less}",
                crate::short_time(pace.seconds_for(per)?),
            ),
        })
    }
}

/// How fast a run of a session goes, in generations, and the time it has left: what its
/// progress line says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eta {
    /// Generations per second: past the start-up (the run's first generation) once a
    /// generation has ended past it, else over the whole run so far.
    pub per_second: f64,
    /// Seconds to the session's limit: its generations left at that rate, or what is left of
    /// its time limit.
    pub seconds_left: f64,
}

impl Eta {
    /// The rate and time left of a run of session `s` that started at generation `first` and
    /// stands at `pace`.
    pub fn of(s: &GaState, first: u64, pace: &Pace) -> Eta {
        // Generations a second past the first (the start-up), or over the run so far.
        let gens = (s.generation - first) as f64;
        let past = (gens - 1.0).max(0.0);
        let per_second = match pace.past_start_up() {
            Some((_, secs)) if past > 0.0 && secs > 0.0 => past / secs,
            _ => gens / pace.seconds.max(1e-9),
        };
        let seconds_left = match s.settings.stop {
            Stop::Generations(n) => n.saturating_sub(s.generation) as f64 / per_second.max(1e-9),
            Stop::Seconds(t) => t - s.elapsed,
        };
        Eta {
            per_second,
            seconds_left,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pace_leaves_out_the_start_up() {
        // The issue's run: the first generation's 16 games took 3 s (processes starting), the
        // next 112 took 12.3 s.
        let p = Pace {
            games: 128,
            seconds: 15.3,
            start_up: Some((16, 3.0)),
        };
        let r = p.games_per_second().unwrap();
        assert!((r - 112.0 / 12.3).abs() < 1e-12);
        assert_eq!(p.rate(), Some(r));
        // Over the whole run so far it would be 8.4 games/s, and 2,000 games 239 s, not 221.
        let run = p.run_seconds(2000.0).unwrap();
        assert!((run - (15.3 + 1872.0 / r)).abs() < 1e-9, "{run}");
        assert!((run - 220.9).abs() < 0.1, "{run}");
        assert!((p.seconds_for(91.0).unwrap() - 10.0).abs() < 0.01);
    }

    #[test]
    fn before_the_end_of_the_start_up_there_is_no_pace_past_it() {
        let p = Pace {
            games: 10,
            seconds: 2.0,
            start_up: None,
        };
        assert_eq!(p.games_per_second(), None);
        assert!(!p.settled());
        // The rate so far stands in where a rate is needed before.
        assert_eq!(p.rate(), Some(5.0));
        assert_eq!(p.seconds_for(20.0), Some(4.0));
        let none = Pace {
            games: 0,
            seconds: 0.0,
            start_up: None,
        };
        assert_eq!((none.rate(), none.run_seconds(10.0)), (None, None));
        // Just past it, no game yet.
        let p = Pace {
            games: 16,
            seconds: 3.0,
            start_up: Some((16, 3.0)),
        };
        assert_eq!(p.games_per_second(), None);
        assert_eq!(p.rate(), Some(16.0 / 3.0));
    }

    #[test]
    fn settled_from_64_games_or_10_seconds_past_the_start_up() {
        let at = |games, seconds| Pace {
            games,
            seconds,
            start_up: Some((16, 3.0)),
        };
        assert!(!at(79, 12.9).settled());
        assert!(at(80, 4.0).settled());
        assert!(at(17, 13.0).settled());
        assert!(!at(16, 30.0).settled());
    }

    #[test]
    fn the_cost_line_says_the_runs_time_at_the_pace_past_the_start_up() {
        let ga = |generations| {
            let mut c = RunCost::of_session(&GaState::new("t", crate::ga::Settings::default()));
            c.generations = generations;
            c.per_generation = 16.0;
            c
        };
        let cost = ga(Some(125));
        let early = Pace {
            games: 16,
            seconds: 3.0,
            start_up: Some((16, 3.0)),
        };
        assert_eq!(cost.line(&early), None);
        // 64 games past the start-up in 8 s: 8 games/s; 1,920 games left, 240 s, and 11 so far.
        let p = Pace {
            games: 80,
            seconds: 11.0,
            start_up: Some((16, 3.0)),
        };
        let line = cost.line(&p).unwrap();
        assert!(
            line.starts_with(
                "this run: 125 generations of about 16 games, 2,000 games in all, about 4m11s \
                 at the 8.0 games/s so far; for less, give --games-budget GAMES, fewer"
            ),
            "{line}"
        );
        // A larger run says what 4,000 games would cost.
        let big = ga(Some(1000));
        assert!(big
            .line(&p)
            .unwrap()
            .contains("16,000 games in all, about 33m21s at the 8.0 games/s so far; for less, give --games-budget GAMES (--games-budget 4000: about 8m20s)"));
        // Under a time limit: a generation's time.
        let timed = ga(None);
        assert!(timed.line(&p).unwrap().starts_with(
            "this run: about 16 games a generation, a generation every 2s at the 8.0"
        ));
        // A one-file tuner's run, by its own words and flag.
        let spsa = RunCost::of_steps(250, 8.0, "step", "--games");
        assert_eq!(
            spsa.line(&p).unwrap(),
            "this run: 250 steps of about 8 games, 2,000 games in all, about 4m11s at the 8.0 \
             games/s so far; for less, give --games GAMES"
        );
        let big = RunCost::of_steps(2000, 8.0, "generation", "--games-budget");
        assert!(big
            .line(&p)
            .unwrap()
            .ends_with("for less, give --games-budget GAMES (--games-budget 4000: about 8m20s)"));
    }

    #[test]
    fn a_sessions_cost_counts_the_generations_left_to_its_limit() {
        let mut s = GaState::new("t", crate::ga::Settings::default());
        s.settings.stop = Stop::Generations(10);
        s.generation = 4;
        let cost = RunCost::of_session(&s);
        assert_eq!(cost.generations, Some(6));
        assert_eq!(cost.per_generation, s.settings.games_per_generation());
        s.generation = 12;
        assert_eq!(RunCost::of_session(&s).generations, Some(0));
        s.settings.stop = Stop::Seconds(60.0);
        assert_eq!(RunCost::of_session(&s).generations, None);
    }

    #[test]
    fn the_eta_counts_generations_past_the_first() {
        let mut s = GaState::new("t", crate::ga::Settings::default());
        s.settings.stop = Stop::Generations(20);
        s.generation = 5;
        // From generation 2: 3 generations, the first (the start-up) in 4 s, 2 more in 2 s.
        let pace = Pace {
            games: 48,
            seconds: 6.0,
            start_up: Some((16, 4.0)),
        };
        let eta = Eta::of(&s, 2, &pace);
        assert_eq!(eta.per_second, 1.0);
        assert_eq!(eta.seconds_left, 15.0);
        // One generation so far: over the whole run.
        let eta = Eta::of(&s, 4, &pace);
        assert_eq!(eta.per_second, 1.0 / 6.0);
        // Under a time limit: what is left of it.
        s.settings.stop = Stop::Seconds(100.0);
        s.elapsed = 40.0;
        assert_eq!(Eta::of(&s, 2, &pace).seconds_left, 60.0);
    }

    #[test]
    fn the_clock_marks_the_start_up_once() {
        let c = PaceClock::new();
        assert_eq!(c.pace().start_up, None);
        c.game_done();
        c.game_done();
        c.start_up_done();
        c.game_done();
        c.start_up_done();
        let p = c.pace();
        assert_eq!(p.games, 3);
        assert_eq!(p.start_up.map(|s| s.0), Some(2));
        assert!(p.seconds >= p.start_up.unwrap().1);
    }
}
