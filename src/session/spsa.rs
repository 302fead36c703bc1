//! An SPSA session (`checkers-ga spsa`): an SPSA run ([`SpsaState`]) in the session every
//! one-file tuner has ([`SessionRun`]): its folder (`populations/NAME/`) locked while it runs,
//! its checkpoint `spsa.ckpt` ([`crate::store::TunerSession`]) written at the start and after
//! every whole step, its answer (θ rounded) in `best.json`.

use super::progress::StepReport;
use super::run::SessionRun;
use super::tuner_run::FileTuner;
use crate::genome::EngineSpec;
use crate::spsa::{SpsaState, SpsaStep};
use crate::store::{self, CheckpointError, OneFileSession, TunerSession};
use std::path::{Path, PathBuf};

/// An SPSA session ready to run.
pub type SpsaRun = SessionRun<SpsaState>;

impl FileTuner for SpsaState {
    const KIND: store::TunerKind = store::TunerKind::Spsa;
    const STEP: &'static str = "step";

    fn checkpoint(dir: &Path) -> PathBuf {
        store::spsa_path(dir)
    }

    fn encode(session: &TunerSession<&SpsaState>) -> Result<Vec<u8>, String> {
        store::encode_spsa(session)
    }

    fn load(path: &Path) -> Result<TunerSession<SpsaState>, CheckpointError> {
        store::load_spsa(path)
    }

    fn view(session: &TunerSession<SpsaState>) -> &dyn OneFileSession {
        session
    }

    fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    fn budget(&self) -> u64 {
        2 * self.settings.pairs()
    }

    fn games_per_step(&self) -> u64 {
        2 * self.settings.pairs_per_step.max(1) as u64
    }

    fn steps(&self) -> u64 {
        self.settings.steps()
    }

    fn steps_done(&self) -> u64 {
        self.step
    }

    fn finished(&self) -> bool {
        SpsaState::finished(self)
    }

    fn progress(&self) -> String {
        SpsaState::progress(self)
    }

    fn values(&self) -> Vec<f64> {
        self.theta.clone()
    }

    fn comment(name: &str, state: &SpsaState) -> String {
        answer_comment(name, state)
    }

    fn report(s: &SpsaStep) -> StepReport {
        StepReport {
            number: s.step,
            games: s.games,
            values: s.theta.clone(),
            note: format!("result {:+}", s.result),
            played: 2 * s.pairs,
            draws: s.draws,
            pairs: s.pairs,
            decided: s.decided,
            time: s.time,
            faults: s.faults.clone(),
        }
    }
}

/// The comment of an SPSA session's answer file: `SPSA session 'NAME', seed S: G games in K
/// steps of P pairs, depth D, c_end C, r_end R`, and `(stopped; T games asked for)` when the
/// budget is not played yet.
fn answer_comment(name: &str, st: &SpsaState) -> String {
    let s = &st.settings;
    let stopped = if st.finished() {
        String::new()
    } else {
        format!(" (stopped; {} games asked for)", 2 * s.pairs())
    };
    format!(
        "SPSA session '{}', seed {}: {} games in {} steps of {} pairs, depth {}, c_end {}, \
         r_end {}{stopped}",
        name,
        s.seed,
        st.games(),
        st.step,
        s.pairs_per_step,
        st.spec.depth(),
        s.c_end,
        s.r_end,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::EngineError;
    use crate::sim::SimModel;
    use crate::spsa::SpsaSettings;
    use crate::SessionError;

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
        let run = SpsaRun::start_tuner(Some("s".into()), 1, &root, state, None, 1).unwrap();
        let checkpoint = run.checkpoint();
        drop(run);
        let e = SpsaRun::resume_tuner(&checkpoint, 1)
            .err()
            .expect("refused");
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
