//! `new --engine CMD --tuner NAME`: a one-file tuner's session started by `new`, from the
//! flags of `new` that mean the same there; and which flags of `new` only the GA takes. Above
//! `one_file` (which builds on `tuner_session`), below `evolve`.

use super::evolve_args::NewArgs;
use super::one_file::OneFileArgs;
use super::tuner_session::TunerSessionArgs;
use checkers_ga::store::OneFileKind;
use std::path::Path;

/// `new --engine CMD --tuner NAME`: the session of that tuner at its defaults, as its own
/// command starts it, from the flags of `new` that mean the same there (the engine's, the depth
/// or clock, `--games-budget` (4000 when not given), the seed, the name and folder, the
/// threads, `--report`);
/// `--weights-dir DIR` writes the answer's copy to `DIR/NAME-best.json`, as a GA session's. A
/// setting only the GA has is refused in one line.
///
/// `spec`: the engine as `new` read it already (when it chose the tuner by the engine's
/// parameter count), else it is read here.
pub fn new_engine_session(
    a: NewArgs,
    tuner: &'static OneFileKind,
    spec: Option<checkers_ga::EngineSpec>,
) -> anyhow::Result<()> {
    let o = a.session.overrides();
    let what = tuner.name;
    let ga_only = ga_only_flags(&a);
    let takes_in_flight = tuner.options.iter().any(|t| t.name == IN_FLIGHT);
    if !takes_in_flight && o.in_flight.is_some() {
        usage!("--tuner {what} plays one step at a time: it takes no --in-flight");
    }
    if !ga_only.is_empty() {
        usage!(
            "--tuner {what} takes none of the GA's settings ({}): `checkers-ga {what} --help` \
             lists its own",
            ga_only.join(", ")
        );
    }
    let out = match (&a.run.weights_dir, &a.name) {
        (Some(dir), Some(name)) => Some(checkers_ga::best_path(dir, name)),
        (Some(_), None) => usage!("--weights-dir with --tuner {what} needs --name"),
        (None, _) => None,
    };
    if let Some(d) = o.depth {
        checkers_ga::check_depth(d, "--depth")?;
    }
    let session = TunerSessionArgs {
        engine: a.engine.clone().unwrap_or_default(),
        tune: a.tune,
        engine_option: a.engine_option,
        depth: o.depth.unwrap_or(checkers_ga::DEFAULT_DEPTH),
        tc: a.tc,
        time_margin: a.time_margin,
        games: o.games_budget.unwrap_or(checkers_ga::TUNER_GAMES),
        seed: a.seed,
        out,
        force: a.run.force,
        threads: a.run.threads,
        move_timeout: a.move_timeout,
        handshake_timeout: a.run.handshake_timeout,
        print_every: 0,
        report: a.run.report,
        quiet: a.run.quiet,
        name: a.name,
        populations: a.run.populations,
        budget_flag: "--games-budget",
    };
    // The copy's folder is made once the flags are checked (as `new` makes --weights-dir).
    session.check()?;
    if let Some(dir) = session.out.as_deref().and_then(Path::parent) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create '{}': {e}", dir.display()))?;
    }
    let mut args = OneFileArgs::with(tuner, session);
    if let Some(g) = o.in_flight {
        args.options
            .iter_mut()
            .filter(|(n, _)| *n == IN_FLIGHT)
            .for_each(|(_, v)| *v = g.to_string());
    }
    super::one_file::run(args, spec)
}

/// The tuner's own setting `new --in-flight` gives, when it has one.
const IN_FLIGHT: &str = "in-flight";

/// The flags of `new` that only the GA takes, as given (`--population`, `--from`, ...): the
/// library's ([`checkers_ga::Overrides::ga_only`]) and the start population's and checkpoints'
/// of the command line. With any of them, `new --engine` without `--tuner` is the GA's session
/// whatever the engine.
pub fn ga_only_flags(a: &NewArgs) -> Vec<String> {
    let mut ga_only: Vec<String> = a
        .session
        .overrides()
        .ga_only()
        .into_iter()
        .map(|n| format!("--{n}"))
        .collect();
    for (given, flag) in [
        (a.from.is_some(), "--from"),
        (!a.include.is_empty(), "--include"),
        (a.run.keep.is_some(), "--keep"),
        (a.run.keep_every.is_some(), "--keep-every"),
        (a.run.verbose, "--verbose"),
    ] {
        if given {
            ga_only.push(flag.to_string());
        }
    }
    ga_only
}
