//! `history --elo`: the answer of past generations (a GA session's best so far) or of a
//! one-file tuner's kept steps (SPSA's θ rounded, CMA-ES's average of the means) played against a fixed reference, each exactly as `match`
//! plays it (of a GA session, that generation's checkpoint).

use super::common::{pool, progress_style, show_progress};
use super::history_args::HistoryArgs;
use checkers_ga::fresh_seed;
use checkers_ga::matchplay::{load_openings, Contestant, MatchResult, MatchRun, OutsideEngine};
use checkers_ga::store::TunerHistory;
use checkers_ga::summary::EloReference;
use checkers_ga::EngineSpec;
use checkers_ga::GaState;
use checkers_ga::PastBests;
use checkers_ga::{check_depth, TimeControl, MAX_TIMED_DEPTH};
use indicatif::ProgressBar;
use std::path::Path;
use std::time::Duration;

/// What `--elo` measured: the header line, the reference's settings (for JSON), and each
/// measured generation (or step) with its answer's match.
pub struct Measured {
    pub line: String,
    pub reference: EloReference,
    pub results: Vec<(u64, MatchResult)>,
}

/// The level `--elo` plays at: the session's clock when its games were played on one and no
/// `--depth` is given, both sides then searching to at most `MAX_TIMED_DEPTH` plies; else
/// `--depth`, or `depth`, the session's. The depth and, on a clock, the clock and its margin.
fn level(
    a: &HistoryArgs,
    engine: Option<&EngineSpec>,
    depth: u32,
) -> anyhow::Result<(u32, Option<(TimeControl, Duration)>)> {
    match engine.and_then(|e| e.tc.map(|tc| (tc, e.time_margin))) {
        Some(clock) if a.depth.is_none() => Ok((MAX_TIMED_DEPTH, Some(clock))),
        _ => {
            let depth = a.depth.unwrap_or(depth);
            check_depth(depth, "--depth")?;
            Ok((depth, None))
        }
    }
}

/// How the header says the level: `at depth 4`, or `on a clock of 0.1 s/move (margin 30 ms)`.
fn level_text(depth: u32, clock: Option<(TimeControl, Duration)>) -> String {
    match clock {
        Some((tc, m)) if !m.is_zero() => {
            format!("on a clock of {tc} (margin {} ms)", m.as_millis())
        }
        Some((tc, _)) => format!("on a clock of {tc}"),
        None => format!("at depth {depth}"),
    }
}

/// The reference's settings for JSON.
fn reference_of(
    name: String,
    games: usize,
    depth: u32,
    clock: Option<(TimeControl, Duration)>,
    seed: u64,
    generations_left_out: Option<usize>,
) -> EloReference {
    EloReference {
        name,
        games,
        depth,
        clock: clock.map(|(tc, m)| (tc.flag(), m.as_millis() as u64)),
        seed,
        generations_left_out,
    }
}

/// The settings of `--elo` checked, the match `match --games N --seed S` plays from the ballot
/// (on `clock` when given), and the reference: `--reference` as `match` reads a player, or by
/// default (an outside engine's session) the engine with its declared values, else
/// `material`. Its name as the header and JSON give it.
fn setup(
    a: &HistoryArgs,
    engine: Option<&EngineSpec>,
    depth: u32,
    clock: Option<(TimeControl, Duration)>,
) -> anyhow::Result<(MatchRun<'static>, u64, Contestant, String)> {
    if a.every == 0 {
        usage!("--every must be at least 1");
    }
    if a.games == 0 {
        usage!("--games must be at least 1");
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let pairs = a.games.div_ceil(2);
    let mut run = MatchRun::new(pairs * 2, load_openings("ballot", Some(pairs))?, seed);
    if let Some((tc, margin)) = clock {
        run.tc = [Some(tc); 2];
        run.time_margin = margin;
    }
    if let Some(e) = engine {
        // The engine plays every game of the answers: one that cannot start fails here, in
        // one line, before any game.
        OutsideEngine::declared(e, e.engine.name.clone())
            .probe(checkers_ga::handshake_timeout())
            .map_err(|x| {
                anyhow::anyhow!("{}: the engine {x}", e.engine.program.command.join(" "))
            })?;
    }
    let (reference, name) = match (&a.reference, engine) {
        (None, Some(e)) => {
            let name = format!("{} (declared values)", e.engine.name);
            let h = OutsideEngine {
                depth: Some(depth),
                ..OutsideEngine::declared(e, name.clone())
            };
            (Contestant::Outside(h), name)
        }
        (r, _) => {
            let r = r.as_deref().unwrap_or("material");
            let c = super::matchcmd::match_player(checkers_ga::PlayerRequest {
                arg: r.to_string(),
                slot: 1,
                seed,
                depth,
                ..Default::default()
            })?;
            (c, r.to_string())
        }
    };
    Ok((run, seed, reference, name))
}

/// A progress bar of `games` games (hidden off a terminal).
fn bar(games: usize) -> ProgressBar {
    if show_progress(false) {
        let b = ProgressBar::new(games as u64);
        b.set_style(progress_style(
            "Elo {bar:40} {pos}/{len} games {rate} eta {eta}",
        ));
        b
    } else {
        ProgressBar::hidden()
    }
}

/// Plays the answer of the chosen generations against the reference; a weight vector that
/// stays the answer over several generations is played once.
///
/// The answer of generation `g` comes from the history (which records it each time it
/// changes), or where the history does not have it (the part of a session played before
/// checkpoint format 3) from that generation's checkpoint in the session folder; generations
/// with neither are left out and counted in the header line.
pub fn measure(a: &HistoryArgs, session: &GaState, dir: &Path) -> anyhow::Result<Measured> {
    let engine = session.settings.engine.as_ref();
    let (depth, clock) = level(a, engine, session.settings.search.depth)?;
    let (run, seed, reference, name) = setup(a, engine, depth, clock)?;
    let past = PastBests::of(session, dir, a.every);
    let missing = past.left_out;
    let bar = bar(past.distinct.len() * run.games);
    let p = pool(a.threads)?;
    let results = p.install(|| past.measure(engine, &reference, &run, depth, &|| bar.inc(1)));
    bar.finish_and_clear();
    let what = if session.settings.ga.method.mean().is_some() {
        "the answer"
    } else {
        "best so far"
    };
    let mut line = format!(
        "Elo: {what} vs {name} over {} ballot games {}, seed {seed} (as `match` plays each \
         generation's checkpoint)",
        run.games,
        level_text(depth, clock)
    );
    if missing > 0 {
        line += &format!(
            " ({missing} generation(s) left out: played before checkpoint format 3, and their \
             checkpoints were pruned)"
        );
    }
    let reference = reference_of(name, run.games, depth, clock, seed, Some(missing));
    Ok(Measured {
        line,
        reference,
        results,
    })
}

/// Plays the answers at the kept steps of a one-file tuner's session (SPSA's θ rounded,
/// CMA-ES's average of the means) whose number is a multiple of `--every` (and the last)
/// against the reference, each as `match` plays it (the engine with those values); values kept
/// over several steps are played once.
pub fn measure_tuner(a: &HistoryArgs, h: &TunerHistory) -> anyhow::Result<Measured> {
    let spec = &h.spec;
    let (depth, clock) = level(a, Some(spec), spec.depth())?;
    let (run, seed, reference, name) = setup(a, Some(spec), depth, clock)?;
    let past = PastBests::of_tuner(h, a.every);
    let bar = bar(past.distinct.len() * run.games);
    let p = pool(a.threads)?;
    let results = p.install(|| past.measure(Some(spec), &reference, &run, depth, &|| bar.inc(1)));
    bar.finish_and_clear();
    let line = format!(
        "Elo: {} vs {name} over {} ballot games {}, seed {seed} (as `match` plays those \
         values)",
        h.rounded,
        run.games,
        level_text(depth, clock)
    );
    let reference = reference_of(name, run.games, depth, clock, seed, None);
    Ok(Measured {
        line,
        reference,
        results,
    })
}
