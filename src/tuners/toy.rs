//! A tuner of the tests' own, registered from this file alone (the unit tests' build only): what
//! a new one-file tuner gets from its registration without a line of it anywhere else, its
//! session (start, stop, resume to the answer of a run never stopped), `open` by name, its
//! history. Its steps are SPSA's (what is tested is the plumbing, not the algorithm); its
//! checkpoint is its own (magic `CKGATOYS`, the session in the common frame).
#![cfg(test)]

use crate::genome::EngineSpec;
use crate::jobs::{Batch, Played};
use crate::store::{decode_frame, decode_payload, encode_parts, AnyTuner, CheckpointError};
use crate::store::{FileTuner, FrameKind, OneFileKind, TunerHistory, TunerSession};
use crate::store::{TunerKind, ONE_FILE_TUNERS};
use crate::tuner::{StepReport, Tuner};
use crate::tuners::spsa::{SpsaSettings, SpsaState, SpsaStep};
use linkme::distributed_slice;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The toy, as registered.
#[distributed_slice(ONE_FILE_TUNERS)]
static TOY: OneFileKind = OneFileKind {
    name: "toy",
    label: "TOY",
    a_label: "a TOY",
    about: "A tuner of the unit tests",
    file: "toy.ckpt",
    magic: b"CKGATOYS",
    step: "round",
    order: 99,
    decode: |p, b| decode(p, b).map(TunerSession::erased),
    options: &[],
    check: |_| Ok(()),
    start: None,
    default_beyond: None,
};

const FRAME: FrameKind = FrameKind {
    magic: b"CKGATOYS",
    writes: 1,
    newest: 1,
    noun: "a toy checkpoint",
    tuner: "TOY ",
};

/// SPSA's steps under another name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Toy(SpsaState);

fn decode(path: &Path, bytes: &[u8]) -> Result<TunerSession<Toy>, CheckpointError> {
    let fail = |what: String| CheckpointError::new(path, what);
    let (_, payload) = decode_frame(bytes, &FRAME).map_err(|e| fail(e.to_string()))?;
    let (session, _) = decode_payload::<TunerSession<Toy>>(payload)
        .map_err(|e| fail(format!("cannot decode: {e}")))?;
    Ok(session)
}

impl Tuner for Toy {
    type Step = SpsaStep;
    fn ask(&self) -> Option<Batch> {
        self.0.ask()
    }
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<SpsaStep> {
        self.0.tell(batch, played)
    }
    fn answer(&self) -> crate::eval::Weights {
        self.0.answer()
    }
    fn games(&self) -> u64 {
        self.0.games()
    }
}

impl FileTuner for Toy {
    const KIND: &'static OneFileKind = &TOY;
    fn encode(session: &TunerSession<&Toy>) -> Result<Vec<u8>, String> {
        encode_parts(&FRAME, 1, session, None::<&()>)
    }
    fn spec(&self) -> &EngineSpec {
        FileTuner::spec(&self.0)
    }
    fn budget(&self) -> u64 {
        FileTuner::budget(&self.0)
    }
    fn games_per_step(&self) -> u64 {
        FileTuner::games_per_step(&self.0)
    }
    fn steps(&self) -> u64 {
        FileTuner::steps(&self.0)
    }
    fn steps_done(&self) -> u64 {
        FileTuner::steps_done(&self.0)
    }
    fn values(&self) -> Vec<f64> {
        FileTuner::values(&self.0)
    }
    fn comment(&self, name: &str) -> String {
        format!("TOY session '{name}'")
    }
    fn opening(&self) -> String {
        "toy".into()
    }
    fn report(step: &SpsaStep) -> StepReport {
        <SpsaState as FileTuner>::report(step)
    }
    fn history(&self, name: &str) -> TunerHistory {
        TunerHistory {
            tuner: TunerKind::OneFile(&TOY),
            step: "round",
            ..FileTuner::history(&self.0, name)
        }
    }
    fn settings(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Observer, SessionEnd, SessionRun, Silent};
    use crate::sim::SimModel;
    use crate::store::{open, Opened};
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn a_tuner_registered_in_one_file_has_a_session_that_resumes_and_opens_by_name() {
        let root = std::env::temp_dir().join(format!("ckga-toy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let spec = EngineSpec::simulated(&SimModel::new(3, 1), 1);
        let settings = SpsaSettings {
            games: 24,
            seed: 5,
            ..SpsaSettings::default()
        };
        let fresh = || AnyTuner::new(Toy(SpsaState::new(&spec, &settings).unwrap()));
        let never = AtomicBool::new(false);
        let mut whole = SessionRun::start_tuner(Some("w".into()), 5, &root, fresh(), None, 1)
            .expect("a session");
        assert_eq!(
            whole.run(&mut Silent, &never).unwrap().end,
            SessionEnd::Finished
        );
        assert!(root.join("w").join("toy.ckpt").exists());

        struct StopAfterOne<'a>(&'a AtomicBool);
        impl Observer<AnyTuner> for StopAfterOne<'_> {
            fn step_done(&mut self, _: &StepReport, _: &AnyTuner) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let stop = AtomicBool::new(false);
        let mut part = SessionRun::start_tuner(Some("p".into()), 5, &root, fresh(), None, 1)
            .expect("a session");
        part.run(&mut StopAfterOne(&stop), &stop).unwrap();
        let checkpoint = part.checkpoint();
        drop(part);
        // Resumed from its file, told from every other tuner's by its magic.
        let mut rest = SessionRun::resume_tuner(&checkpoint, 2).unwrap();
        assert_eq!(rest.state.kind(), &TOY);
        rest.run(&mut Silent, &never).unwrap();
        assert_eq!(rest.state.values(), whole.state.values());
        assert_eq!(rest.state.answer(), whole.state.answer());

        // Every command's door finds it by name, as its own tuner's.
        match open(Some("p"), &root).unwrap() {
            Opened::OneFile { session, .. } => {
                assert_eq!(session.tuner(), TunerKind::OneFile(&TOY));
                assert_eq!(session.tuner().name(), "TOY");
                let h = session.history();
                assert_eq!((h.step, h.done.0), ("round", 24));
                assert_eq!(session.answer(), whole.state.answer());
            }
            Opened::Ga(_) => panic!("not the GA's"),
        }
        // Not a default: the GA stays new --engine's tuner up to 16 parameters.
        assert_eq!(crate::session::engine_tuner(8), TunerKind::Ga);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
