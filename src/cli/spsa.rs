//! `checkers-ga spsa --engine CMD`: SPSA over an outside Hub engine's own int parameters (the
//! tuner of chess engine testing), from the engine's declared values, for a budget of games;
//! prints the final values. The run is a session, `populations/NAME/` with a checkpoint after
//! every step and its answer in `best.json` (an engine parameter file, as an engine session's
//! best: `show`, `export` and `match` read it; `--out` also writes a copy): `resume NAME`
//! continues it ([`super::tuner_session::resume`]), and `show`, `export`, `history` and `report` read
//! it. The session's flags and run are every one-file tuner's ([`super::tuner_session`]).

use super::tuner_session::TunerSessionArgs;
use checkers_ga::{SpsaSettings, SpsaState};

#[derive(clap::Args)]
pub struct SpsaArgs {
    #[command(flatten)]
    pub session: TunerSessionArgs,
    /// Game pairs per step, all played at once (at least half of --threads keeps every thread
    /// busy)
    #[arg(long, value_name = "P", default_value_t = SpsaSettings::default().pairs_per_step)]
    pub pairs: u32,
    /// The final perturbation of each parameter, as a fraction of its declared range (at least
    /// 1): fishtest's c_end
    #[arg(long, value_name = "F", default_value_t = SpsaSettings::default().c_end)]
    pub c_end: f64,
    /// The final learning rate, fishtest's r_end: one net win moves a parameter by r_end times
    /// its final perturbation
    #[arg(long, value_name = "R", default_value_t = SpsaSettings::default().r_end)]
    pub r_end: f64,
}

impl SpsaArgs {
    /// A session of these flags with SPSA's defaults.
    pub fn with(session: TunerSessionArgs) -> SpsaArgs {
        let d = SpsaSettings::default();
        SpsaArgs {
            session,
            pairs: d.pairs_per_step,
            c_end: d.c_end,
            r_end: d.r_end,
        }
    }
}

/// `spec`: the engine as `new --engine` read it already, if it did.
pub fn run(a: SpsaArgs, spec: Option<checkers_ga::EngineSpec>) -> anyhow::Result<()> {
    a.session.check()?;
    let mut settings = SpsaSettings {
        games: a.session.games,
        pairs_per_step: a.pairs,
        c_end: a.c_end,
        r_end: a.r_end,
        ..SpsaSettings::default()
    };
    if let Err(e) = settings.check() {
        usage!("{}", a.session.as_given(&e.to_string()));
    }
    let p = a.session.prepare(spec)?;
    settings.seed = p.seed;
    let spec = &p.spec;
    let state = SpsaState::new(spec, &settings).map_err(|e| super::Usage(e.to_string()))?;
    let opening = format!(
        "spsa of {} (seed {}): {} games in {} steps of {} pairs, {}",
        spec.engine.name,
        p.seed,
        2 * settings.pairs(),
        settings.steps(),
        settings.pairs_per_step,
        spec.level()
    );
    a.session.start(p, state, opening)
}

pub fn threads(a: &SpsaArgs) -> usize {
    a.session.threads
}
