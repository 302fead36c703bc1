//! What the one checkpoint of an outside engine's tuner session holds, SPSA's (`spsa.ckpt`)
//! and CMA-ES's (`cmaes.ckpt`) alike: the session's name,
//! the tuner's state and the `--out` file its answer is also written to; and the checks of the
//! engine every such checkpoint makes as it is read.
//!
//! What every command that reads such a session needs of it, whichever tuner's, is
//! [`OneFileSession`]: its run as a history ([`TunerHistory`]: its words, budget, progress and
//! kept points), its answer, its own settings. `history`, `report`, `show`, `export` and
//! `match` read a one-file session through it alone, so none of them names a tuner.

use super::TunerKind;
use crate::clock::TimeUse;
use crate::eval::Weights;
use crate::genome::EngineSpec;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A kept point of a one-file tuner's history.
#[derive(Clone, Debug, PartialEq)]
pub struct TunerPoint {
    /// Steps (SPSA) or generations (CMA-ES) done.
    pub step: u64,
    /// Games played by then.
    pub games: u64,
    /// The answer then in the engine's units, unrounded (θ; CMA-ES's average of the means).
    pub values: Vec<f64>,
    /// The genome the answer then plays (rounded as `match` plays it).
    pub weights: Weights,
    /// Games lost by an engine's fault by then; None where not kept (SPSA format 1).
    pub faults: Option<u64>,
    /// On a clock: what the games since the point before did with it.
    pub time: Option<TimeUse>,
    /// The tuner's own figures then, each by the name its records give it (CMA-ES's step
    /// size, `sigma`, in genes); none for a tuner without any (SPSA).
    pub extra: Vec<(&'static str, f64)>,
}

/// A one-file tuner's session as `history`, `report` and `show` read it, whichever tuner's:
/// the words its lines use, where its run stands and its answer at every point its history
/// kept. `summary` prints it as a table and a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct TunerHistory {
    /// Whose session.
    pub tuner: TunerKind,
    /// What one step is called: `step`, `generation`.
    pub step: &'static str,
    /// What the answer is called in prose (`θ`, `the answer`) and in CSV and JSON (`theta`,
    /// `answer`).
    pub answer: (&'static str, &'static str),
    /// What its rounding is called: `θ rounded`, `the means' average rounded`.
    pub rounded: &'static str,
    /// The session's name.
    pub name: String,
    /// The engine.
    pub spec: EngineSpec,
    /// The run's seed.
    pub seed: u64,
    /// Games and steps in the budget.
    pub budget: (u64, u64),
    /// Games and steps played.
    pub done: (u64, u64),
    /// Where it stands, in words.
    pub progress: String,
    /// A point is kept every this many steps.
    pub every: u64,
    /// The start, every `every` steps, and the last whole step.
    pub points: Vec<TunerPoint>,
    /// A line the table ends with (CMA-ES: σ at the kept generations).
    pub note: Option<String>,
}

/// A one-file tuner's session as its checkpoint was read ([`super::open`]), whichever tuner's:
/// what the commands that read a session need of it. Each one-file tuner's checkpoint module
/// implements it for its session, and its file is registered once, in store's list of one-file
/// tuners, which [`super::open`] and [`super::session_in`] go through.
pub trait OneFileSession: Send + Sync + std::fmt::Debug {
    /// Whose session it is.
    fn tuner(&self) -> TunerKind;
    /// The session's name.
    fn name(&self) -> &str;
    /// The engine whose parameters it tunes.
    fn spec(&self) -> &EngineSpec;
    /// Its run: its words, where it stands, its answer at every kept point.
    fn history(&self) -> TunerHistory;
    /// Its answer as it stands, rounded as `match` plays it.
    fn answer(&self) -> Weights;
    /// The engine parameter file its answer is also written to (`--out`), if any.
    fn out(&self) -> Option<&Path>;
    /// Its own settings as a report lists them, after the engine, the clock and the games
    /// (SPSA's steps and gains, CMA-ES's step size and rates).
    fn settings(&self) -> Vec<(&'static str, String)>;
}

/// A tuner session as its checkpoint holds it: `state` is the tuner's ([`crate::SpsaState`],
/// [`crate::CmaesState`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunerSession<T> {
    /// The session's name (its folder's).
    pub name: String,
    /// The run as it stands after its last whole step.
    pub state: T,
    /// The engine parameter file its answer is also written to (`--out`, made absolute), if
    /// any.
    pub out: Option<PathBuf>,
}

impl<T> TunerSession<T> {
    /// The session with its state borrowed (what a checkpoint is written from; it encodes as
    /// the session does).
    pub fn view(&self) -> TunerSession<&T> {
        TunerSession {
            name: self.name.clone(),
            state: &self.state,
            out: self.out.clone(),
        }
    }
}

/// The part of a one-file tuner's checkpoint that its serialized state leaves out when it
/// plays on a clock: the clock of the run's games ([`EngineSpec::tc`]) and its margin, what the
/// games did with it between each point of the history and the one before (one record a
/// point), and since the last one. Every one-file tuner's checkpoint writes it alike (SPSA's
/// from format 3 on a clock, CMA-ES's always).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockPart {
    /// The clock (none: a run to a depth).
    pub clock: Option<crate::clock::TimeControl>,
    /// How far past its clock a move may end.
    pub margin: std::time::Duration,
    /// What the games did with the clock up to each point of the history.
    pub times: Vec<Option<TimeUse>>,
    /// What the games since the last point did with it.
    pub under_way: TimeUse,
}

impl ClockPart {
    /// The clock part of a run on `spec`, its history's records `times` and `under_way`.
    pub fn of(spec: &EngineSpec, times: Vec<Option<TimeUse>>, under_way: TimeUse) -> ClockPart {
        ClockPart {
            clock: spec.tc,
            margin: spec.time_margin,
            times,
            under_way,
        }
    }

    /// Puts the part back into a decoded run: the clock and margin into `spec`, each record
    /// into its point of the history (`points`), the rest into `under_way`; one line when the
    /// records do not match the history.
    pub fn restore<'a>(
        self,
        spec: &mut EngineSpec,
        points: impl ExactSizeIterator<Item = &'a mut Option<TimeUse>>,
        under_way: &mut TimeUse,
    ) -> Result<(), String> {
        if points.len() != self.times.len() {
            return Err("the clock's records do not match the history".into());
        }
        spec.tc = self.clock;
        spec.time_margin = self.margin;
        for (p, t) in points.zip(self.times) {
            *p = t;
        }
        *under_way = self.under_way;
        Ok(())
    }
}

/// Checks a decoded session's name and engine as user input: one line saying what is wrong
/// (a name that is not a plain one, no tuned parameter or too many, a range that does not
/// hold its default, a depth out of range).
pub fn check_engine(name: &str, spec: &EngineSpec) -> Result<(), String> {
    if !super::is_plain_name(name) {
        return Err(format!("session name '{name}' is not a plain name"));
    }
    let n = spec.tuned.len();
    if n == 0 || n > crate::eval::MAX_WEIGHTS {
        return Err(format!(
            "the engine has {n} tuned parameters (expected 1..={})",
            crate::eval::MAX_WEIGHTS
        ));
    }
    if let Some(t) = spec
        .tuned
        .iter()
        .find(|t| t.min >= t.max || !(t.min..=t.max).contains(&t.default))
    {
        return Err(format!(
            "parameter {}: range {}..={} with default {} is not a range around its default",
            t.name, t.min, t.max, t.default
        ));
    }
    crate::search::check_depth(spec.depth(), "the depth").map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use std::time::Duration;

    /// The clock part puts back what it took, record by record, and refuses records that do
    /// not match the history in one line.
    #[test]
    fn a_clock_part_puts_back_what_it_took() {
        let mut spec = EngineSpec::simulated(&crate::sim::SimModel::new(3, 1), 2);
        spec.tc = Some(TimeControl::PerMove(Duration::from_millis(30)));
        spec.time_margin = Duration::from_millis(7);
        let used = |games| TimeUse {
            games,
            ..TimeUse::default()
        };
        let part = ClockPart::of(&spec, vec![None, Some(used(4))], used(2));
        let mut back = EngineSpec::simulated(&crate::sim::SimModel::new(3, 1), 2);
        let (mut points, mut under_way) = ([Some(used(9)), None], TimeUse::default());
        part.clone()
            .restore(&mut back, points.iter_mut(), &mut under_way)
            .unwrap();
        assert_eq!((back.tc, back.time_margin), (spec.tc, spec.time_margin));
        assert_eq!(points, [None, Some(used(4))]);
        assert_eq!(under_way, used(2));
        let mut one = [None];
        let e = part
            .restore(&mut back, one.iter_mut(), &mut under_way)
            .unwrap_err();
        assert_eq!(e, "the clock's records do not match the history");
    }
}
