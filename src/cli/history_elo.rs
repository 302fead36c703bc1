//! `history --elo`: the answer of past generations (a GA session's best so far) or of a
//! one-file tuner's kept steps (SPSA's θ rounded, CMA-ES's average of the means) played
//! against a fixed reference, each exactly as `match` plays it (of a GA session, that
//! generation's checkpoint): the library's [`EloPlan`], with a progress bar and its header
//! line.

use super::common::{pool, progress_style, show_progress, warn};
use super::history_args::HistoryArgs;
use checkers_ga::fresh_seed;
use checkers_ga::matchplay::MatchResult;
use checkers_ga::store::TunerHistory;
use checkers_ga::summary::EloReference;
use checkers_ga::GaState;
use checkers_ga::{EloOptions, EloPlan};
use indicatif::ProgressBar;
use std::path::Path;

/// What `--elo` measured: the header line, the reference's settings (for JSON), and each
/// measured generation (or step) with its answer's match.
pub struct Measured {
    pub line: String,
    pub reference: EloReference,
    pub results: Vec<(u64, MatchResult)>,
}

/// The measurement `--elo`'s flags ask for.
fn options(a: &HistoryArgs) -> EloOptions {
    EloOptions {
        every: a.every,
        games: a.games,
        depth: a.depth,
        reference: a.reference.clone(),
        seed: a.seed.unwrap_or_else(fresh_seed),
    }
}

/// Plays the plan's answers against its reference on `--threads`, with a progress bar (hidden
/// off a terminal).
fn play(a: &HistoryArgs, plan: &EloPlan) -> anyhow::Result<Vec<(u64, MatchResult)>> {
    for w in &plan.warnings {
        warn(w);
    }
    let bar = if show_progress(false) {
        let b = ProgressBar::new(plan.games() as u64);
        b.set_style(progress_style(
            "Elo {bar:40} {pos}/{len} games {rate} eta {eta}",
        ));
        b
    } else {
        ProgressBar::hidden()
    };
    let results = pool(a.threads)?.install(|| plan.measure(&|| bar.inc(1)));
    bar.finish_and_clear();
    Ok(results)
}

/// Plays the answer of the chosen generations against the reference ([`EloPlan::of_session`]);
/// a weight vector that stays the answer over several generations is played once.
pub fn measure(a: &HistoryArgs, session: &GaState, dir: &Path) -> anyhow::Result<Measured> {
    let plan = EloPlan::of_session(session, dir, &options(a))?;
    let results = play(a, &plan)?;
    let what = if session.settings.ga.method.mean().is_some() {
        "the answer"
    } else {
        "best so far"
    };
    let mut line = format!(
        "Elo: {what} vs {} over {} ballot games {}, seed {} (as `match` plays each \
         generation's checkpoint)",
        plan.reference_name,
        plan.run.games,
        plan.level(),
        plan.seed
    );
    if let Some(missing) = plan.left_out.filter(|m| *m > 0) {
        line += &format!(
            " ({missing} generation(s) left out: played before checkpoint format 3, and their \
             checkpoints were pruned)"
        );
    }
    Ok(Measured {
        line,
        reference: plan.record(),
        results,
    })
}

/// Plays the answers at the kept steps of a one-file tuner's session whose number is a
/// multiple of `--every` (and the last) against the reference ([`EloPlan::of_tuner`]), each as
/// `match` plays it (the engine with those values); values kept over several steps are played
/// once.
pub fn measure_tuner(a: &HistoryArgs, h: &TunerHistory) -> anyhow::Result<Measured> {
    let plan = EloPlan::of_tuner(h, &options(a))?;
    let results = play(a, &plan)?;
    let line = format!(
        "Elo: {} vs {} over {} ballot games {}, seed {} (as `match` plays those values)",
        h.rounded,
        plan.reference_name,
        plan.run.games,
        plan.level(),
        plan.seed
    );
    Ok(Measured {
        line,
        reference: plan.record(),
        results,
    })
}
