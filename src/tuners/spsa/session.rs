//! SPSA as a one-file tuner, registered ([`SPSA`]): `checkers-ga spsa` and its flags, `new
//! --engine --tuner spsa`, `tune-sim --tuner spsa` (its settings under their own names,
//! `--pairs`, `--c-end`, `--r-end`). Its session is every one-file tuner's
//! ([`crate::SessionRun`]): its folder (`populations/NAME/`) locked while it runs, its
//! checkpoint `spsa.ckpt` written at the start and after every whole step, its answer (θ
//! rounded) in `best.json`.

use super::checkpoint::{decode_spsa, encode_spsa, SPSA_FILE, SPSA_MAGIC};
use super::{SpsaSettings, SpsaState, SpsaStep};
use crate::genome::EngineSpec;
use crate::store::{AnyTuner, FileTuner, OneFileKind, Start, TunerHistory, TunerKind};
use crate::store::{TunerOption, TunerPoint};
use crate::store::{TunerSession, ONE_FILE_TUNERS};
use crate::tuner::StepReport;
use linkme::distributed_slice;

/// SPSA, as registered among the one-file tuners: `checkers-ga spsa`, `new --engine --tuner
/// spsa`.
#[distributed_slice(ONE_FILE_TUNERS)]
pub static SPSA: OneFileKind = OneFileKind {
    name: "spsa",
    label: "SPSA",
    a_label: "an SPSA",
    about: "Tune an outside Hub engine's int parameters by SPSA (as chess engine testers do), \
            for a budget of games, as a session (`resume NAME` continues it); writes the final \
            values as an engine parameter file",
    file: SPSA_FILE,
    magic: SPSA_MAGIC,
    step: "step",
    order: 1,
    decode: |p, b| decode_spsa(p, b).map(TunerSession::erased),
    options: &SPSA_OPTIONS,
    check: |s| spsa_settings(s).map(|_| ()),
    start: Some(|spec, s| {
        let state = SpsaState::new(spec, &spsa_settings(s)?).map_err(|e| e.to_string())?;
        Ok(AnyTuner::new(state))
    }),
    default_beyond: None,
};

/// SPSA's own flags.
static SPSA_OPTIONS: [TunerOption; 3] = [
    TunerOption {
        name: "pairs",
        value_name: "P",
        help: "Game pairs per step, all played at once (at least half of --threads keeps every \
               thread busy)",
        default: || SpsaSettings::default().pairs_per_step.to_string(),
        sim: true,
        sim_flag: Some("pairs"),
    },
    TunerOption {
        name: "c-end",
        value_name: "F",
        help: "The final perturbation of each parameter, as a fraction of its declared range \
               (at least 1): fishtest's c_end",
        default: || SpsaSettings::default().c_end.to_string(),
        sim: true,
        sim_flag: Some("c-end"),
    },
    TunerOption {
        name: "r-end",
        value_name: "R",
        help: "The final learning rate, fishtest's r_end: one net win moves a parameter by \
               r_end times its final perturbation",
        default: || SpsaSettings::default().r_end.to_string(),
        sim: true,
        sim_flag: Some("r-end"),
    },
];

/// The settings a start gives, checked.
fn spsa_settings(s: &Start) -> Result<SpsaSettings, String> {
    let settings = SpsaSettings {
        games: s.games,
        seed: s.seed,
        pairs_per_step: s.get("pairs")?,
        c_end: s.get("c-end")?,
        r_end: s.get("r-end")?,
        ..SpsaSettings::default()
    };
    settings.check().map_err(|e| e.to_string())?;
    Ok(settings)
}

impl FileTuner for SpsaState {
    const KIND: &'static OneFileKind = &SPSA;

    fn encode(session: &TunerSession<&SpsaState>) -> Result<Vec<u8>, String> {
        encode_spsa(session)
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

    /// `SPSA session 'NAME', seed S: G games in K steps of P pairs, depth D, c_end C, r_end
    /// R`, and `(stopped; T games asked for)` when the budget is not played yet.
    fn comment(&self, name: &str) -> String {
        let s = &self.settings;
        let stopped = if self.finished() {
            String::new()
        } else {
            format!(" (stopped; {} games asked for)", 2 * s.pairs())
        };
        format!(
            "SPSA session '{}', seed {}: {} games in {} steps of {} pairs, depth {}, c_end {}, \
             r_end {}{stopped}",
            name,
            s.seed,
            self.games(),
            self.step,
            s.pairs_per_step,
            self.spec.depth(),
            s.c_end,
            s.r_end,
        )
    }

    /// `spsa of ENGINE (seed S): G games in K steps of P pairs, LEVEL`.
    fn opening(&self) -> String {
        let s = &self.settings;
        format!(
            "spsa of {} (seed {}): {} games in {} steps of {} pairs, {}",
            self.spec.engine.name,
            s.seed,
            2 * s.pairs(),
            s.steps(),
            s.pairs_per_step,
            self.spec.level()
        )
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

    /// θ at its kept steps.
    fn history(&self, name: &str) -> TunerHistory {
        let st = self;
        TunerHistory {
            tuner: TunerKind::OneFile(&SPSA),
            step: "step",
            answer: ("θ", "theta"),
            rounded: "θ rounded",
            name: name.to_string(),
            spec: st.spec.clone(),
            seed: st.settings.seed,
            budget: (2 * st.settings.pairs(), st.settings.steps()),
            done: (st.games(), st.step),
            progress: st.progress(),
            every: st.settings.history_every,
            points: st
                .result(false)
                .history
                .into_iter()
                .map(|p| TunerPoint {
                    weights: st.weights_at(&p.theta),
                    step: p.step,
                    games: p.games,
                    values: p.theta,
                    faults: p.faults,
                    time: p.time,
                    extra: Vec::new(),
                })
                .collect(),
            note: None,
        }
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        let set = &self.settings;
        vec![
            (
                "steps",
                format!("{} of {} game pairs", set.steps(), set.pairs_per_step),
            ),
            ("c_end", format!("{} of each range (at least 1)", set.c_end)),
            ("r_end", set.r_end.to_string()),
        ]
    }
}
