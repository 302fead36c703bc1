//! `checkers-ga NAME --engine CMD` of every registered one-file tuner (`spsa`, `cmaes`): the
//! tuner over an outside Hub engine's own int parameters, from the engine's declared values,
//! for a budget of games; prints the final values. The command is made from the tuner's
//! registration ([`checkers_ga::store::OneFileKind`]): its name, its help, its own flags
//! (`--rate R`, ...); the flags every such session takes are [`TunerSessionArgs`]. The run is a
//! session ([`super::tuner_session`]): `populations/NAME/` with its checkpoint after every
//! step and its answer in `best.json`; `resume NAME` continues it, and `show`, `export`,
//! `history`, `report` and `match` read it.

use super::tuner_session::TunerSessionArgs;
use checkers_ga::store::{one_file_tuners, AnyTuner, OneFileKind, Start, TunerOption};
use clap::{Args, FromArgMatches};

/// A one-file tuner's command as given: the tuner, the session's flags and its own.
pub struct OneFileArgs {
    /// The tuner.
    pub kind: &'static OneFileKind,
    /// The flags every one-file tuner's session takes.
    pub session: TunerSessionArgs,
    /// Its own flags, by name, as text (each given or its default).
    pub options: Vec<(&'static str, String)>,
}

/// The registered tuners that are started by a command of their own.
pub fn tuners() -> Vec<&'static OneFileKind> {
    one_file_tuners()
        .into_iter()
        .filter(|k| k.start.is_some())
        .collect()
}

/// The command of each registered tuner, to be added to the program's.
pub fn commands() -> Vec<clap::Command> {
    tuners().into_iter().map(command).collect()
}

/// `checkers-ga NAME`: the session's flags and the tuner's own.
fn command(kind: &'static OneFileKind) -> clap::Command {
    let mut c = TunerSessionArgs::augment_args(clap::Command::new(kind.name))
        .about(kind.about)
        .allow_negative_numbers(true);
    for o in kind.options {
        let default: &'static str = Box::leak((o.default)().into_boxed_str());
        c = c.arg(
            clap::Arg::new(o.name)
                .long(o.name)
                .value_name(o.value_name)
                .help(o.help)
                .default_value(default),
        );
    }
    c
}

/// The command line of `kind`'s command, read.
pub fn parse(kind: &'static OneFileKind, m: &clap::ArgMatches) -> Result<OneFileArgs, clap::Error> {
    let session = TunerSessionArgs::from_arg_matches(m)?;
    let options = kind
        .options
        .iter()
        .map(|o| {
            let v = m.get_one::<String>(o.name).cloned().unwrap_or_default();
            (o.name, v)
        })
        .collect();
    Ok(OneFileArgs {
        kind,
        session,
        options,
    })
}

impl OneFileArgs {
    /// A session of these flags at `kind`'s defaults.
    pub fn with(kind: &'static OneFileKind, session: TunerSessionArgs) -> OneFileArgs {
        let options = Start::defaults(kind, 0, 0).options;
        OneFileArgs {
            kind,
            session,
            options,
        }
    }
}

/// Starts and runs the session; `spec`: the engine as `new --engine` read it already, if it
/// did.
pub fn run(a: OneFileArgs, spec: Option<checkers_ga::EngineSpec>) -> anyhow::Result<()> {
    a.session.check()?;
    let start = |seed| Start {
        seed,
        games: a.session.games,
        options: a.options.clone(),
    };
    let kind = a.kind;
    let begin = kind.start.expect("a tuner with a command starts");
    // The settings are checked before the engine is started.
    if let Err(e) = (kind.check)(&start(1)) {
        usage!("{}", a.session.as_given(&e));
    }
    let p = a.session.prepare(spec)?;
    let state: AnyTuner = match begin(&p.spec, &start(p.seed)) {
        Ok(state) => state,
        Err(e) => usage!("{}", a.session.as_given(&e)),
    };
    let opening = state.opening();
    a.session.start(p, state, opening)
}

/// The flags `tune-sim` takes for tuner `kind`'s settings: `--NAME-SETTING` (or the flag the
/// setting names) for each setting it offers the simulator, with the setting.
pub fn sim_flags(kind: &'static OneFileKind) -> Vec<(String, &'static TunerOption)> {
    kind.options
        .iter()
        .filter(|o| o.sim)
        .map(|o| match o.sim_flag {
            Some(flag) => (flag.to_string(), o),
            None => (format!("{}-{}", kind.name, o.name), o),
        })
        .collect()
}

/// `tune-sim`'s flags for every registered tuner's settings on the simulator.
pub fn sim_args() -> Vec<clap::Arg> {
    let mut args = Vec::new();
    for k in tuners() {
        for (flag, o) in sim_flags(k) {
            let default: &'static str = Box::leak((o.default)().into_boxed_str());
            let help: &'static str = Box::leak(format!("{}: {}", k.label, o.help).into_boxed_str());
            let id: &'static str = Box::leak(flag.into_boxed_str());
            args.push(
                clap::Arg::new(id)
                    .long(id)
                    .value_name(o.value_name)
                    .help(help)
                    .default_value(default),
            );
        }
    }
    args
}

/// The settings `tune-sim`'s matches give the tuners: `(tuner, setting, value)` for each flag
/// given on the command line.
pub fn sim_options(m: &clap::ArgMatches) -> Vec<(&'static str, &'static str, String)> {
    let mut out = Vec::new();
    for k in tuners() {
        for (flag, o) in sim_flags(k) {
            if let Some(v) = m.get_one::<String>(&flag) {
                out.push((k.name, o.name, v.clone()));
            }
        }
    }
    out
}
