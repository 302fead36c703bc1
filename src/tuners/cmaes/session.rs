//! CMA-ES as a one-file tuner, registered ([`CMAES`]): `checkers-ga cmaes` and its flags, `new
//! --engine --tuner cmaes`, the default tuner beyond [`crate::ga::MEAN_WIDE`] parameters. Its
//! session is every one-file tuner's ([`crate::SessionRun`]): its folder (`populations/NAME/`)
//! locked while it runs, its checkpoint `cmaes.ckpt` written at the start and after every whole
//! generation, its answer (the average of the means, rounded) in `best.json`.

use super::checkpoint::{decode_cmaes, encode_cmaes};
use super::{CmaesSettings, CmaesState, CmaesStep};
use crate::eval::Weights;
use crate::genome::EngineSpec;
use crate::store::{AnyTuner, FileTuner, OneFileKind, Start, TunerHistory, TunerKind};
use crate::store::{TunerOption, TunerPoint};
use crate::store::{TunerSession, ONE_FILE_TUNERS};
use crate::tuner::{StepReport, Tuner as _};
use linkme::distributed_slice;

/// CMA-ES, as registered among the one-file tuners.
#[distributed_slice(ONE_FILE_TUNERS)]
pub static CMAES: OneFileKind = OneFileKind {
    name: "cmaes",
    label: "CMA-ES",
    a_label: "a CMA-ES",
    about: "Tune an outside Hub engine's int parameters by CMA-ES (separable, mirrored pairs, \
            an adapted step size), for a budget of games, as a session (`resume NAME` \
            continues it); writes the final values as an engine parameter file",
    file: super::CMAES_FILE,
    magic: super::CMAES_MAGIC,
    step: "generation",
    order: 2,
    decode: |p, b| decode_cmaes(p, b).map(TunerSession::erased),
    options: &OPTIONS,
    check: |s| settings_of(s).map(|_| ()),
    start: Some(start),
    default_beyond: Some(crate::ga::MEAN_WIDE),
};

/// CMA-ES's own flags.
static OPTIONS: [TunerOption; 6] = [
    TunerOption {
        name: "pairs",
        value_name: "P",
        help: "Mirrored pairs a generation (0: 4 + 3 ln n candidates, halved, at least 4 pairs)",
        default: || CmaesSettings::default().pairs.to_string(),
        sim: false,
        sim_flag: None,
    },
    TunerOption {
        name: "sigma",
        value_name: "GENES",
        help: "The step size at the start, in genes (a gene spans a parameter's declared range \
               in 65536 steps; 0: 8192, halved beyond 16 parameters); it adapts, never above \
               this",
        default: || CmaesSettings::default().sigma.to_string(),
        sim: false,
        sim_flag: None,
    },
    TunerOption {
        name: "rate",
        value_name: "R",
        help: "The mean's learning rate: the share of the selected step it moves (0..1]",
        default: || CmaesSettings::default().rate.to_string(),
        sim: true,
        sim_flag: None,
    },
    TunerOption {
        name: "cov-rate",
        value_name: "F",
        help: "The covariance's learning rates as a share of CMA-ES's own: 0 keeps it the \
               identity (the step size alone adapts), 1 the usual speed",
        default: || CmaesSettings::default().cov_rate.to_string(),
        sim: true,
        sim_flag: None,
    },
    TunerOption {
        name: "in-flight",
        value_name: "G",
        help: "Generations in flight: the next generations' pairs are drawn before the last \
               ones are told, so that their games keep the threads busy while the last games \
               end (1: each generation waits for the one before; 0: 1 up to 8 parameters, 3 \
               beyond; at most 64). The results are the same at any thread count",
        default: || CmaesSettings::default().in_flight.to_string(),
        sim: true,
        sim_flag: None,
    },
    TunerOption {
        name: "growth",
        value_name: "F",
        help: "Uncertainty handling: σ grows by this factor each generation whose decided \
               pairs do not agree (two halves' steps no closer than chance), so that it keeps \
               the scale at which games still tell the sides apart; 1: σ adapts by its path \
               alone; 1.01 tuned better on the simulator, level in real games (1..2)",
        default: || CmaesSettings::default().growth.to_string(),
        sim: true,
        sim_flag: None,
    },
];

/// The settings `start` gives, checked.
fn settings_of(s: &Start) -> Result<CmaesSettings, String> {
    let settings = CmaesSettings {
        games: s.games,
        seed: s.seed,
        pairs: s.get("pairs")?,
        sigma: s.get("sigma")?,
        rate: s.get("rate")?,
        cov_rate: s.get("cov-rate")?,
        in_flight: s.get("in-flight")?,
        growth: s.get("growth")?,
        ..CmaesSettings::default()
    };
    settings.check()?;
    Ok(settings)
}

/// A run on `spec` at its start.
fn start(spec: &EngineSpec, s: &Start) -> Result<AnyTuner, String> {
    Ok(AnyTuner::new(CmaesState::new(spec, &settings_of(s)?)))
}

impl FileTuner for CmaesState {
    const KIND: &'static OneFileKind = &CMAES;

    fn encode(session: &TunerSession<&CmaesState>) -> Result<Vec<u8>, String> {
        encode_cmaes(session)
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
    fn comment(&self, name: &str) -> String {
        let s = &self.settings;
        let stopped = if self.finished() {
            String::new()
        } else {
            format!(" (stopped; {} games asked for)", CmaesState::budget(self))
        };
        format!(
            "CMA-ES session '{}', seed {}: {} games in {} generations of {} pairs, {}, σ {:.0} \
             of {:.0}, rate {}{stopped}",
            name,
            s.seed,
            self.games,
            self.generation,
            s.pairs,
            self.spec.level(),
            self.sigma,
            s.sigma,
            s.rate,
        )
    }

    /// `cmaes of ENGINE (seed S): G games in K generations of P pairs, σ X, rate R, F in
    /// flight, growth U, LEVEL`.
    fn opening(&self) -> String {
        let s = &self.settings;
        format!(
            "cmaes of {} (seed {}): {} games in {} generations of {} pairs, σ {:.0}, rate {}, \
             {} in flight, growth {}, {}",
            self.spec.engine.name,
            s.seed,
            CmaesState::budget(self),
            self.generations(),
            s.pairs,
            s.sigma,
            s.rate,
            s.in_flight,
            s.growth,
            self.spec.level()
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

    fn history(&self, name: &str) -> TunerHistory {
        history(self, name)
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        settings(self)
    }

    /// The mean, besides the answer (the average of the means).
    fn also(&self) -> Vec<(&'static str, Weights)> {
        vec![("mean", self.genome_at_mean())]
    }
}

/// The run of `st` as `history`, `report` and `show` read it, as session `name`: the average
/// of the means at its kept generations (and the last), and σ at each.
fn history(st: &CmaesState, name: &str) -> TunerHistory {
    let mut points: Vec<TunerPoint> = st
        .history
        .iter()
        .map(|h| TunerPoint {
            step: h.generation,
            games: h.games,
            values: st.values_at(&h.average),
            weights: st.genome_at(&h.average),
            faults: Some(h.faults),
            time: h.time,
            extra: vec![("sigma", h.sigma)],
        })
        .collect();
    if points.last().map(|p| p.step) != Some(st.generation) {
        points.push(TunerPoint {
            step: st.generation,
            games: st.games,
            values: st.values(),
            weights: st.answer(),
            faults: Some(st.faults),
            time: st.spec.tc.map(|_| st.time),
            extra: vec![("sigma", st.sigma)],
        });
    }
    let sigmas: Vec<String> = st
        .history
        .iter()
        .map(|h| format!("{}: {:.0}", h.generation, h.sigma))
        .collect();
    TunerHistory {
        tuner: TunerKind::OneFile(&CMAES),
        step: "generation",
        answer: ("the answer", "answer"),
        rounded: "the means' average rounded",
        name: name.to_string(),
        spec: st.spec.clone(),
        seed: st.settings.seed,
        budget: (st.budget(), st.generations()),
        done: (st.games, st.generation),
        progress: st.progress(),
        every: st.settings.history_every,
        points,
        note: Some(format!(
            "σ in genes at the kept generations: {}; now {:.0}",
            sigmas.join(", "),
            st.sigma
        )),
    }
}

/// `st`'s own settings as a report lists them.
fn settings(st: &CmaesState) -> Vec<(&'static str, String)> {
    let set = &st.settings;
    vec![
        (
            "generations",
            format!("{} of {} mirrored pairs", st.generations(), set.pairs),
        ),
        (
            "step size σ",
            format!(
                "{:.0} genes at the start, {:.0} now (a range is 65536 genes)",
                set.sigma, st.sigma
            ),
        ),
        ("mean's rate", set.rate.to_string()),
        ("covariance's rate", set.cov_rate.to_string()),
        (
            "σ's growth",
            if set.growth > 1.0 {
                format!(
                    "{} a generation while the pairs carry no signal (signal now {:.2})",
                    set.growth, st.signal
                )
            } else {
                "1: none (σ adapts by its path alone)".to_string()
            },
        ),
    ]
}
