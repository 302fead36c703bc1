//! A session's answers measured against a fixed reference, as `history --elo` measures them
//! ([`EloPlan`]): which answers, the match each plays, the reference, and the level.

use super::past::PastBests;
use super::players::{PlayerError, PlayerRequest};
use crate::clock::TimeControl;
use crate::ga::GaState;
use crate::genome::EngineSpec;
use crate::matchplay::{load_openings, Contestant, MatchResult, MatchRun, OutsideEngine};
use crate::search::{check_depth, DepthError, MAX_TIMED_DEPTH};
use crate::store::TunerHistory;
use crate::summary::EloReference;
use std::path::Path;
use std::time::Duration;

/// What a measurement is asked for: every how many generations (or steps), games a
/// measured answer, the depth, the reference and the seed. The defaults are `history --elo`'s
/// (every generation, 40 games, the session's level, its reference) but the seed, 0, which
/// `history` draws afresh when none is given.
#[derive(Clone, Debug)]
pub struct EloOptions {
    /// Measure the generations (steps) whose number is a multiple of this, and the last.
    pub every: u64,
    /// Games of each measured answer: the first `games / 2` ballot openings, each twice.
    pub games: usize,
    /// The depth of both sides; None: the session's (a session tuned on a clock is measured
    /// on that clock).
    pub depth: Option<u32>,
    /// The reference as a person names a match's player ([`PlayerRequest`]); None: in an
    /// outside engine's session that engine with its declared values, else `material`.
    pub reference: Option<String>,
    /// The seed of the games' tie-breaks (and of a `random` reference's weights).
    pub seed: u64,
}

impl EloOptions {
    /// Refuses a count of 0.
    fn check(&self) -> Result<(), EloError> {
        match (self.every, self.games) {
            (0, _) => Err(EloError::Every),
            (_, 0) => Err(EloError::Games),
            _ => Ok(()),
        }
    }
}

impl Default for EloOptions {
    fn default() -> EloOptions {
        EloOptions {
            every: 1,
            games: 40,
            depth: None,
            reference: None,
            seed: 0,
        }
    }
}

/// Why a measurement cannot be made: one line.
#[derive(Debug, thiserror::Error)]
pub enum EloError {
    /// `every` is 0.
    #[error("--every must be at least 1")]
    Every,
    /// `games` is 0.
    #[error("--games must be at least 1")]
    Games,
    /// The depth is out of range.
    #[error(transparent)]
    Depth(#[from] DepthError),
    /// The ballot could not be read.
    #[error(transparent)]
    Openings(#[from] crate::openings::OpeningsError),
    /// The session's engine, which plays every game of the answers, cannot start.
    #[error("{command}: the engine {error}")]
    Engine {
        /// Its command line.
        command: String,
        /// Why.
        error: crate::hub::ClientError,
    },
    /// The reference cannot play.
    #[error(transparent)]
    Reference(#[from] PlayerError),
}

impl EloError {
    /// Is it the caller's values (exit status 2 on the command line)?
    pub fn is_usage(&self) -> bool {
        match self {
            EloError::Every | EloError::Games | EloError::Depth(_) => true,
            EloError::Reference(e) => e.is_usage(),
            EloError::Openings(_) | EloError::Engine { .. } => false,
        }
    }
}

/// A session's answers measured against a fixed reference: each distinct answer plays a match
/// of the ballot's first openings against it, as `match` plays that answer (the engine with
/// its values in an outside engine's session).
#[derive(Clone, Debug)]
pub struct EloPlan {
    /// The answers measured, each with its generation or step.
    pub past: PastBests,
    /// The outside engine whose values the answers are (None: our weights).
    pub engine: Option<EngineSpec>,
    /// The match each answer plays.
    pub run: MatchRun<'static>,
    /// The reference.
    pub reference: Contestant,
    /// The reference's name, as the header and the JSON history give it.
    pub reference_name: String,
    /// The depth of both sides (their maximum depth on a clock).
    pub depth: u32,
    /// The clock both sides play on, and its margin: a session tuned on one is measured on
    /// it unless a depth is asked for.
    pub clock: Option<(TimeControl, Duration)>,
    /// Of a GA session: generations whose answer can be told by neither the history nor a
    /// checkpoint (None for a one-file tuner's, where every kept step can be).
    pub left_out: Option<usize>,
    /// The seed of the games' tie-breaks.
    pub seed: u64,
    /// What to warn of before the games: options the reference does not declare.
    pub warnings: Vec<String>,
}

impl EloPlan {
    /// The measurement of a GA session's answers (the best so far; the mean's answer), every
    /// `every` generations, its folder `dir` holding the checkpoints of generations the
    /// history does not tell.
    pub fn of_session(
        session: &GaState,
        dir: &Path,
        options: &EloOptions,
    ) -> Result<EloPlan, EloError> {
        options.check()?;
        let engine = session.settings.engine.as_ref();
        let (depth, clock) = level(options, engine, session.settings.search.depth)?;
        let past = PastBests::of(session, dir, options.every);
        let left_out = Some(past.left_out);
        EloPlan::new(past, engine, depth, clock, left_out, options)
    }

    /// The measurement of a one-file tuner's answers at its kept steps (SPSA's θ rounded,
    /// CMA-ES's average of the means) whose number is a multiple of `every`, and the last.
    pub fn of_tuner(h: &TunerHistory, options: &EloOptions) -> Result<EloPlan, EloError> {
        options.check()?;
        let spec = &h.spec;
        let (depth, clock) = level(options, Some(spec), spec.depth())?;
        let past = PastBests::of_tuner(h, options.every);
        EloPlan::new(past, Some(spec), depth, clock, None, options)
    }

    fn new(
        past: PastBests,
        engine: Option<&EngineSpec>,
        depth: u32,
        clock: Option<(TimeControl, Duration)>,
        left_out: Option<usize>,
        options: &EloOptions,
    ) -> Result<EloPlan, EloError> {
        let seed = options.seed;
        let pairs = options.games.div_ceil(2);
        let mut run = MatchRun::new(pairs * 2, load_openings("ballot", Some(pairs))?, seed);
        if let Some((tc, margin)) = clock {
            run.tc = [Some(tc); 2];
            run.time_margin = margin;
        }
        if let Some(e) = engine {
            // The engine plays every game of the answers: one that cannot start fails here,
            // in one line, before any game.
            OutsideEngine::declared(e, e.engine.name.clone())
                .probe(crate::hub::handshake_timeout())
                .map_err(|error| EloError::Engine {
                    command: e.engine.program.command.join(" "),
                    error,
                })?;
        }
        let mut warnings = Vec::new();
        let (reference, reference_name) = match (&options.reference, engine) {
            (None, Some(e)) => {
                let name = format!("{} (declared values)", e.engine.name);
                let h = OutsideEngine {
                    depth: Some(depth),
                    ..OutsideEngine::declared(e, name.clone())
                };
                (Contestant::Outside(h), name)
            }
            (r, _) => {
                let r = r.as_deref().unwrap_or("material");
                let player = PlayerRequest {
                    arg: r.to_string(),
                    slot: 1,
                    seed,
                    depth: Some(depth),
                    options_flag: "--reference".into(),
                    ..PlayerRequest::default()
                }
                .player()?;
                warnings = player.warnings;
                (player.contestant, r.to_string())
            }
        };
        Ok(EloPlan {
            past,
            engine: engine.cloned(),
            run,
            reference,
            reference_name,
            depth,
            clock,
            left_out,
            seed,
            warnings,
        })
    }

    /// The games the measurement plays: a match for each distinct answer.
    pub fn games(&self) -> usize {
        self.past.distinct.len() * self.run.games
    }

    /// Plays every distinct answer against the reference once, on the current rayon pool;
    /// each measured generation (step) gets its answer's result. `on_game` is called after
    /// every game.
    pub fn measure(&self, on_game: &(dyn Fn() + Sync)) -> Vec<(u64, MatchResult)> {
        let engine = self.engine.as_ref();
        (self.past).measure(engine, &self.reference, &self.run, self.depth, on_game)
    }

    /// The level in words: `at depth 4`, or `on a clock of 0.1 s/move (margin 30 ms)`.
    pub fn level(&self) -> String {
        match self.clock {
            Some((tc, m)) if !m.is_zero() => {
                format!("on a clock of {tc} (margin {} ms)", m.as_millis())
            }
            Some((tc, _)) => format!("on a clock of {tc}"),
            None => format!("at depth {}", self.depth),
        }
    }

    /// The reference and the match's settings, as the JSON history records them.
    pub fn record(&self) -> EloReference {
        EloReference {
            name: self.reference_name.clone(),
            games: self.run.games,
            depth: self.depth,
            clock: (self.clock).map(|(tc, m)| (tc.flag(), m.as_millis() as u64)),
            seed: self.seed,
            generations_left_out: self.left_out,
        }
    }
}

/// The level of a measurement: the session's clock when its games were played on one and no
/// depth is asked for, both sides then searching to at most [`MAX_TIMED_DEPTH`] plies; else the
/// depth asked for, or `depth`, the session's.
fn level(
    options: &EloOptions,
    engine: Option<&EngineSpec>,
    depth: u32,
) -> Result<(u32, Option<(TimeControl, Duration)>), EloError> {
    match engine.and_then(|e| e.tc.map(|tc| (tc, e.time_margin))) {
        Some(clock) if options.depth.is_none() => Ok((MAX_TIMED_DEPTH, Some(clock))),
        _ => {
            let depth = options.depth.unwrap_or(depth);
            check_depth(depth, "--depth")?;
            Ok((depth, None))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::is_bad_input;

    fn plan(options: EloOptions) -> Result<EloPlan, EloError> {
        let session = GaState::new("s", crate::Settings::default());
        EloPlan::of_session(&session, Path::new("/nonexistent"), &options)
    }

    #[test]
    fn a_measurement_plays_the_ballot_against_material_at_the_sessions_depth_by_default() {
        let p = plan(EloOptions::default()).unwrap();
        let depth = crate::Settings::default().search.depth;
        assert_eq!(p.reference_name, "material");
        assert_eq!((p.depth, p.run.games), (depth, 40));
        assert_eq!(p.level(), format!("at depth {depth}"));
        assert_eq!(p.reference.depth(), Some(depth));
        assert_eq!(p.record().generations_left_out, Some(0));
        let p = plan(EloOptions {
            games: 7,
            depth: Some(3),
            reference: Some("classic".into()),
            ..EloOptions::default()
        })
        .unwrap();
        assert_eq!(
            (p.reference_name.as_str(), p.depth, p.run.games),
            ("classic", 3, 8)
        );
    }

    #[test]
    fn a_bad_value_is_the_callers_and_a_missing_file_is_not() {
        for (options, line) in [
            (
                EloOptions {
                    every: 0,
                    ..EloOptions::default()
                },
                "--every must be at least 1",
            ),
            (
                EloOptions {
                    games: 0,
                    ..EloOptions::default()
                },
                "--games must be at least 1",
            ),
        ] {
            let e = plan(options).unwrap_err();
            assert_eq!(e.to_string(), line);
            assert!(is_bad_input(&e));
        }
        let e = plan(EloOptions {
            depth: Some(0),
            ..EloOptions::default()
        })
        .unwrap_err();
        assert!(e.to_string().starts_with("--depth 0"), "{e}");
        assert!(is_bad_input(&e));
        let e = plan(EloOptions {
            reference: Some("no-such-reference.json".into()),
            ..EloOptions::default()
        })
        .unwrap_err();
        assert!(!is_bad_input(&e), "{e}");
    }
}
