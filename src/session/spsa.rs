//! An SPSA session (`checkers-ga spsa`): an SPSA run ([`SpsaState`]) behind the same front door
//! as an evolution session. Its folder (`populations/NAME/`) is locked while it runs
//! ([`crate::lock`]) and holds its checkpoint, `spsa.ckpt` ([`crate::store::SpsaSession`]),
//! written at the start and again after every whole step; a step cut short by a stop is
//! abandoned, and [`SpsaRun::resume`] continues from the last whole one with the values a run
//! that never stopped has.

use super::{default_name, ensure_folder, SessionError};
use crate::files::{folder_of, write_atomic};
use crate::lock::{lock_session, SessionLock};
use crate::spsa::{SpsaObserver, SpsaState};
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
    /// the parameter file its values are also written to. Nothing is made when the name is
    /// refused.
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
    /// SPSA or of the GA): [`SpsaRun::start`] checks again under the folder's lock.
    pub fn check_free(populations: &Path, name: &str) -> Result<(), SessionError> {
        let dir = store::session_dir(populations, name);
        if spsa_path(&dir).exists() || !store::list_checkpoints(&dir).is_empty() {
            return Err(SessionError::Refused(format!(
                "session '{name}' already exists in '{}': continue it with `checkers-ga resume \
                 {name}` or pick another --name",
                dir.display()
            )));
        }
        Ok(())
    }

    /// Prepares to continue the SPSA session whose checkpoint is `checkpoint` (see
    /// [`crate::store::find_spsa`]): locks its folder, reads the checkpoint, and checks
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
    /// the step under way is abandoned), writing the checkpoint after every step. The games are
    /// played on the current rayon pool; the engine's idle processes end with the run. True
    /// when it stopped before the end of the budget.
    pub fn run(
        &mut self,
        observer: &mut dyn SpsaObserver,
        stop: &AtomicBool,
    ) -> Result<bool, SessionError> {
        // The engine's idle processes stay for the next step and end with the run.
        let _engines = crate::play::lease_engines();
        let mut saved = Ok(());
        while self.session.state.advance(observer, stop).is_some() {
            saved = self.save();
            if saved.is_err() {
                break;
            }
        }
        saved?;
        Ok(!self.session.state.finished())
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
