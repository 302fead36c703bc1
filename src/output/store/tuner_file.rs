//! What the one checkpoint of an outside engine's tuner session holds, SPSA's (`spsa.ckpt`,
//! [`super::spsa`]) and CMA-ES's (`cmaes.ckpt`, [`super::cmaes`]) alike: the session's name,
//! the tuner's state and the `--out` file its answer is also written to; and the checks of the
//! engine every such checkpoint makes as it is read.

use crate::genome::EngineSpec;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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

/// Checks a decoded session's name and engine as user input: one line saying what is wrong
/// (a name that is not a plain one, no tuned parameter or too many, a range that does not
/// hold its default, a depth out of range).
pub(super) fn check_engine(name: &str, spec: &EngineSpec) -> Result<(), String> {
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
    crate::search::check_depth(spec.depth, "the depth").map_err(|e| e.to_string())?;
    Ok(())
}
