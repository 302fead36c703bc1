//! An SPSA session (`checkers-ga spsa`): an SPSA run ([`SpsaState`]) behind the same front door
//! as an evolution session. Its folder (`populations/NAME/`) is locked while it runs
//! ([`crate::lock`]) and holds its checkpoint, `spsa.ckpt` ([`crate::store::SpsaSession`]),
//! written at the start and again after every whole step; a step cut short by a stop is
//! abandoned, and [`SpsaRun::resume`] continues from the last whole one with the values a run
//! that never stopped has. Its answer, θ rounded, is `best.json` in its folder, written when a
//! run ends however it ends, in the format of an engine session's best file (an engine
//! parameter file: `show`, `export` and `match` read it), and also to the `--out` file the
//! session names, if any.

use super::best::{write_answer_file, BEST_FILE};
use super::pace::Pace;
use super::{default_name, ensure_folder, SessionError};
use crate::files::{folder_of, write_atomic};
use crate::lock::{lock_session, SessionLock};
use crate::spsa::{SpsaObserver, SpsaSettings, SpsaState, SpsaStep};
use crate::store::{self, CheckpointError};
use crate::store::{encode_spsa, load_spsa, spsa_path, SpsaSession};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// An SPSA session ready to run: its folder locked, its checkpoint read or written.
pub struct SpsaRun {
    /// The session as it stands.
    pub session: SpsaSession,
    /// Its folder.
    pub dir: PathBuf,
    /// Its checkpoint.
    pub checkpoint: PathBuf,
    _lock: SessionLock,
}

impl SpsaRun {
    /// Starts a session of `state` (a run at its start) named `name` (None: two words drawn from
    /// its seed, as `new` names a session) under `populations`: makes and locks its folder,
    /// refusing one that holds a session already, and writes its checkpoint at step 0. `out` is
    /// a parameter file its values are also written to, besides the session's `best.json`.
    /// Nothing is made when the name is refused.
    pub fn start(
        name: Option<String>,
        populations: &Path,
        state: SpsaState,
        out: Option<PathBuf>,
    ) -> Result<SpsaRun, SessionError> {
        let name = name.unwrap_or_else(|| default_name(state.settings.seed, populations));
        if !store::is_plain_name(&name) {
            return Err(SessionError::Input(format!(
                "session name '{name}' must be a plain folder name"
            )));
        }
        let dir = store::session_dir(populations, &name);
        // A folder that exists is locked before it is looked at, so a running session is
        // reported as such.
        if !dir.is_dir() {
            ensure_folder(&dir, "session")?;
        }
        let lock = lock_session(&dir)?;
        SpsaRun::check_free(populations, &name)?;
        store::remove_stale_temp_files(&dir);
        let run = SpsaRun {
            checkpoint: spsa_path(&dir),
            session: SpsaSession { name, state, out },
            dir,
            _lock: lock,
        };
        run.save()?;
        Ok(run)
    }

    /// Refuses a session name whose folder under `populations` holds a session already (of
    /// SPSA or of the GA) or a session's answer (`best.json`): [`SpsaRun::start`] checks again
    /// under the folder's lock.
    pub fn check_free(populations: &Path, name: &str) -> Result<(), SessionError> {
        let dir = store::session_dir(populations, name);
        if store::session_in(&dir).is_some() || dir.join(BEST_FILE).exists() {
            return Err(SessionError::Refused(format!(
                "session '{name}' already exists in '{}': continue it with `checkers-ga resume \
                 {name}` or pick another --name",
                dir.display()
            )));
        }
        Ok(())
    }

    /// Prepares to continue the SPSA session whose checkpoint is `checkpoint` (see
    /// [`crate::store::tuner_of`]): locks its folder, reads the checkpoint, and checks
    /// that the engine still declares what it declared (one line when it does not).
    pub fn resume(checkpoint: &Path) -> Result<SpsaRun, SessionError> {
        let dir = folder_of(checkpoint);
        // Read under the lock: a run that held the folder until just now may have written a
        // later step.
        let lock = lock_session(&dir)?;
        let session = load_spsa(checkpoint)?;
        store::remove_stale_temp_files(&dir);
        if !session.state.finished() {
            session
                .state
                .spec
                .check_unchanged()
                .map_err(|error| SessionError::EngineChanged {
                    name: session.name.clone(),
                    error,
                })?;
        }
        Ok(SpsaRun {
            session,
            dir,
            checkpoint: checkpoint.to_path_buf(),
            _lock: lock,
        })
    }

    /// Plays steps until the budget is played or `stop` is set (checked before every game:
    /// the step under way is abandoned), writing the checkpoint after every step, then writes
    /// the answer ([`SpsaRun::write_answer`]), however the run ends (when a checkpoint cannot
    /// be written, as it can). The games are played on the current rayon pool; the engine's
    /// idle processes end with the run.
    pub fn run(
        &mut self,
        observer: &mut dyn SpsaObserver,
        stop: &AtomicBool,
    ) -> Result<SpsaOutcome, SessionError> {
        let saved = {
            // The engine's idle processes stay for the next step and end with the run.
            let _engines = crate::play::lease_engines();
            let mut saved = Ok(());
            while let Some(step) = self.session.state.advance(observer, stop) {
                // A step whose every game was lost on time moved θ by nothing the engine
                // played: the run ends, its checkpoint the step before.
                let st = &self.session.state;
                SessionError::out_of_time(
                    format!("step {}", step.step),
                    step.time.as_ref(),
                    Some(&st.spec),
                )?;
                saved = self.save();
                if saved.is_err() {
                    break;
                }
            }
            saved
        };
        if let Err(e) = saved {
            let _ = self.write_answer();
            return Err(e);
        }
        self.write_answer()
    }

    /// The session's answer file: `best.json` in its folder.
    pub fn best_file(&self) -> PathBuf {
        self.dir.join(BEST_FILE)
    }

    /// Writes θ after the last whole step, rounded, to the session's `best.json` and to its
    /// `--out` copy if it has one (each to a temporary name, synced, renamed): an engine
    /// parameter file whose comment names the session and what the run played.
    pub fn write_answer(&self) -> Result<SpsaOutcome, SessionError> {
        let st = &self.session.state;
        let stopped = !st.finished();
        let (w, comment) = (st.weights(), answer_comment(&self.session));
        let best = self.best_file();
        let write = |path: &Path| -> Result<(), SessionError> {
            Ok(write_answer_file(
                path,
                Some(&st.spec),
                &w,
                None,
                Some(&comment),
            )?)
        };
        write(&best)?;
        if let Some(out) = &self.session.out {
            write(out)?;
        }
        Ok(SpsaOutcome {
            stopped,
            best,
            copy: self.session.out.clone(),
        })
    }

    /// Writes the checkpoint (temp name, sync, rename).
    fn save(&self) -> Result<(), SessionError> {
        let path = &self.checkpoint;
        let bytes = encode_spsa(&self.session).map_err(|e| CheckpointError::new(path, e))?;
        write_atomic(path, &bytes)
            .map_err(|e| CheckpointError::new(path, format!("cannot write: {e}")))?;
        Ok(())
    }
}

/// What a run of an SPSA session did ([`SpsaRun::run`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaOutcome {
    /// Did it stop before the end of the budget?
    pub stopped: bool,
    /// The session's answer: `best.json` in its folder.
    pub best: PathBuf,
    /// The copy of it the session names (`spsa --out`), if any.
    pub copy: Option<PathBuf>,
}

/// Games between two progress lines of an SPSA run at most (rounded up to whole steps).
const LINE_GAMES: u64 = 200;

/// The lines an SPSA run prints off a terminal (a pipe, a log file), as `new` prints one per
/// generation: one every [`SpsaProgress::every`] steps and one at the last step, each with the
/// steps and games played, their rate and the time left (at the pace past the start-up,
/// [`Pace`]) and the parameters that moved most since the line before (or the run's start), in
/// the engine's units:
///
/// `step 75/500  600/4000 games  9.1 games/s  left 6m13s  moved most: king +12.4 (to 142.4),
/// mobility -3.1 (to 4.9), centre +1.0 (to 6.0)`
#[derive(Clone, Debug)]
pub struct SpsaProgress {
    every: u64,
    /// The games of the whole run.
    total: u64,
    names: Vec<String>,
    /// θ at the last line (or the run's start).
    last: Vec<f64>,
}

impl SpsaProgress {
    /// The lines of a run of `state` from where it stands.
    pub fn new(state: &SpsaState) -> SpsaProgress {
        SpsaProgress {
            every: SpsaProgress::every(&state.settings),
            total: 2 * state.settings.pairs(),
            names: state.spec.tuned.iter().map(|t| t.name.clone()).collect(),
            last: state.theta.clone(),
        }
    }

    /// Every how many steps a line comes: every 5% of the run, and at least every 200 games
    /// (every step when a step plays more).
    pub fn every(settings: &SpsaSettings) -> u64 {
        let per_step = 2 * settings.pairs_per_step.max(1) as u64;
        settings
            .steps()
            .div_ceil(20)
            .min(LINE_GAMES.div_ceil(per_step))
            .max(1)
    }

    /// The line after `step`, when one is due (every [`SpsaProgress::every`] steps and at the
    /// last), at `pace`; θ then counts as seen.
    pub fn line(&mut self, step: &SpsaStep, pace: &Pace) -> Option<String> {
        if !(step.step.is_multiple_of(self.every) || step.step == step.steps) {
            return None;
        }
        let total = self.total;
        let rate = match pace.rate() {
            Some(r) => crate::per_time(r, "games"),
            None => "? games/s".to_string(),
        };
        let left = pace
            .seconds_for(total.saturating_sub(step.games) as f64)
            .map_or("?".to_string(), crate::short_time);
        let mut moved: Vec<(usize, f64)> = step
            .theta
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
            .map(|&(i, d)| format!("{} {d:+.1} (to {:.1})", self.names[i], step.theta[i]))
            .collect();
        self.last.clone_from(&step.theta);
        Some(format!(
            "step {}/{}  {}/{total} games  {rate}  left {left}  moved most: {}",
            step.step,
            step.steps,
            step.games,
            if moves.is_empty() {
                "none".to_string()
            } else {
                moves.join(", ")
            }
        ))
    }
}

/// The comment of an SPSA session's answer file: `SPSA session 'NAME', seed S: G games in K
/// steps of P pairs, depth D, c_end C, r_end R`, and `(stopped; T games asked for)` when the
/// budget is not played yet.
fn answer_comment(session: &SpsaSession) -> String {
    let st = &session.state;
    let s = &st.settings;
    let stopped = if st.finished() {
        String::new()
    } else {
        format!(" (stopped; {} games asked for)", 2 * s.pairs())
    };
    format!(
        "SPSA session '{}', seed {}: {} games in {} steps of {} pairs, depth {}, c_end {}, \
         r_end {}{stopped}",
        session.name,
        s.seed,
        st.games(),
        st.step,
        s.pairs_per_step,
        st.spec.depth,
        s.c_end,
        s.r_end,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::{EngineError, EngineSpec};
    use crate::sim::SimModel;
    use crate::spsa::SpsaSettings;

    #[test]
    fn a_session_whose_engine_changed_is_refused_on_resume_by_its_variant() {
        let root = std::env::temp_dir().join(format!("ckga-spsa-changed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut spec = EngineSpec::simulated(&SimModel::new(2, 1), 1);
        // The session's record of the engine: the simulator now declares another default.
        spec.declared[0].value = "12345".into();
        let settings = SpsaSettings {
            games: 4,
            ..SpsaSettings::default()
        };
        let state = SpsaState::new(&spec, &settings).unwrap();
        let run = SpsaRun::start(Some("s".into()), &root, state, None).unwrap();
        let checkpoint = run.checkpoint.clone();
        drop(run);
        let e = SpsaRun::resume(&checkpoint).err().expect("refused");
        assert!(
            matches!(
                &e,
                SessionError::EngineChanged {
                    name,
                    error: EngineError::ParameterChanged { .. }
                } if name == "s"
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot continue session 's': the engine's parameter p1 changed"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
