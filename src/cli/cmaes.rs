//! `checkers-ga cmaes --engine CMD`: CMA-ES (separable, mirrored pairs, step-size adaptation)
//! over an outside Hub engine's own int parameters, from the engine's declared values, for a
//! budget of games; prints the final values. The run is a session as SPSA's is
//! ([`super::tuner_session`]): `populations/NAME/cmaes.ckpt` after every generation, its answer
//! (the average of the means) in `best.json`; `resume NAME` continues it, and `show`, `export`
//! and `match` read it.

use super::tuner_session::TunerSessionArgs;
use checkers_ga::{CmaesSettings, CmaesState, FileTuner};

#[derive(clap::Args)]
pub struct CmaesArgs {
    #[command(flatten)]
    pub session: TunerSessionArgs,
    /// Mirrored pairs a generation (0: 4 + 3 ln n candidates, halved, at least 4 pairs)
    #[arg(long, value_name = "P", default_value_t = 0)]
    pub pairs: u32,
    /// The step size at the start, in genes (a gene spans a parameter's declared range in
    /// 65536 steps; 0: 8192, halved beyond 16 parameters); it adapts, never above this
    #[arg(long, value_name = "GENES", default_value_t = 0.0)]
    pub sigma: f64,
    /// The mean's learning rate: the share of the selected step it moves (0..1]
    #[arg(long, value_name = "R", default_value_t = CmaesSettings::default().rate)]
    pub rate: f64,
    /// The covariance's learning rates as a share of CMA-ES's own: 0 keeps it the identity
    /// (the step size alone adapts), 1 the usual speed
    #[arg(long, value_name = "F", default_value_t = CmaesSettings::default().cov_rate)]
    pub cov_rate: f64,
    /// Generations in flight: the next generations' pairs are drawn before the last ones are
    /// told, so that their games keep the threads busy while the last games end (1: each
    /// generation waits for the one before; 0: 1 up to 8 parameters, 3 beyond; at most 64).
    /// The results are the same at any thread count
    #[arg(long, value_name = "G", default_value_t = CmaesSettings::default().in_flight)]
    pub in_flight: u32,
}

impl CmaesArgs {
    /// A session of these flags with CMA-ES's defaults.
    pub fn with(session: TunerSessionArgs) -> CmaesArgs {
        let d = CmaesSettings::default();
        CmaesArgs {
            session,
            pairs: d.pairs,
            sigma: d.sigma,
            rate: d.rate,
            cov_rate: d.cov_rate,
            in_flight: d.in_flight,
        }
    }
}

/// `spec`: the engine as `new --engine` read it already, if it did.
pub fn run(a: CmaesArgs, spec: Option<checkers_ga::EngineSpec>) -> anyhow::Result<()> {
    a.session.check()?;
    let mut settings = CmaesSettings {
        games: a.session.games,
        pairs: a.pairs,
        sigma: a.sigma,
        rate: a.rate,
        cov_rate: a.cov_rate,
        in_flight: a.in_flight,
        ..CmaesSettings::default()
    };
    if let Err(e) = settings.check() {
        usage!("{}", a.session.as_given(&e));
    }
    let p = a.session.prepare(spec)?;
    settings.seed = p.seed;
    let spec = &p.spec;
    let state = CmaesState::new(spec, &settings);
    let s = &state.settings;
    let opening = format!(
        "cmaes of {} (seed {}): {} games in {} generations of {} pairs, σ {:.0}, rate {}, \
         {} in flight, {}",
        spec.engine.name,
        p.seed,
        state.budget(),
        state.steps(),
        s.pairs,
        s.sigma,
        s.rate,
        s.in_flight,
        spec.level()
    );
    a.session.start(p, state, opening)
}

pub fn threads(a: &CmaesArgs) -> usize {
    a.session.threads
}
