//! A CMA-ES session (`checkers-ga cmaes`): a CMA-ES run ([`CmaesState`]) in the session every
//! one-file tuner has ([`SessionRun`]): its folder (`populations/NAME/`) locked while it runs,
//! its checkpoint `cmaes.ckpt` ([`crate::store::TunerSession`]) written at the start and after
//! every whole generation, its answer (the average of the means, rounded) in `best.json`.

use super::progress::StepReport;
use super::run::SessionRun;
use super::tuner_run::FileTuner;
use crate::cmaes::{CmaesState, CmaesStep};
use crate::genome::EngineSpec;
use crate::store::{self, CheckpointError, OneFileSession, TunerSession};
use std::path::{Path, PathBuf};

/// A CMA-ES session ready to run.
pub type CmaesRun = SessionRun<CmaesState>;

impl FileTuner for CmaesState {
    const KIND: store::TunerKind = store::TunerKind::Cmaes;
    const STEP: &'static str = "generation";

    fn checkpoint(dir: &Path) -> PathBuf {
        store::cmaes_path(dir)
    }

    fn encode(session: &TunerSession<&CmaesState>) -> Result<Vec<u8>, String> {
        store::encode_cmaes(session)
    }

    fn load(path: &Path) -> Result<TunerSession<CmaesState>, CheckpointError> {
        store::load_cmaes(path)
    }

    fn view(session: &TunerSession<CmaesState>) -> &dyn OneFileSession {
        session
    }

    fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    fn budget(&self) -> u64 {
        CmaesState::budget(self)
    }

    fn games_per_step(&self) -> u64 {
        2 * self.settings.pairs.max(1) as u64
    }

    fn steps(&self) -> u64 {
        self.generations()
    }

    fn steps_done(&self) -> u64 {
        self.generation
    }

    fn finished(&self) -> bool {
        CmaesState::finished(self)
    }

    fn progress(&self) -> String {
        CmaesState::progress(self)
    }

    fn values(&self) -> Vec<f64> {
        CmaesState::values(self)
    }

    /// `CMA-ES session 'NAME', seed S: G games in K generations of P pairs, depth D, σ X of
    /// Y, rate R`, and `(stopped; T games asked for)` when the budget is not played yet.
    fn comment(name: &str, st: &CmaesState) -> String {
        let s = &st.settings;
        let stopped = if st.finished() {
            String::new()
        } else {
            format!(" (stopped; {} games asked for)", CmaesState::budget(st))
        };
        format!(
            "CMA-ES session '{}', seed {}: {} games in {} generations of {} pairs, {}, σ {:.0} \
             of {:.0}, rate {}{stopped}",
            name,
            s.seed,
            st.games,
            st.generation,
            s.pairs,
            st.spec.level(),
            st.sigma,
            s.sigma,
            s.rate,
        )
    }

    fn report(s: &CmaesStep) -> StepReport {
        StepReport {
            number: s.generation,
            games: s.games,
            values: s.values.clone(),
            note: format!("σ {:.0}", s.sigma),
            played: 2 * s.pairs,
            draws: s.draws,
            pairs: s.pairs,
            decided: s.decided,
            time: s.time,
            faults: s.faults.clone(),
        }
    }
}
