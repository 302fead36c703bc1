//! The lines of a GA session's run of our own weights: the bar's prefix and its Elo trend,
//! what a generation says of strength before any measurement, and the line each generation
//! prints off a terminal; and what every GA run says at its end: its strength, the hint of
//! `finals`, a generation abandoned.

use checkers_ga::per_time as rate;
use checkers_ga::summary::{decided_pairs, elo_text, generation_games, tournament_max_points};
use checkers_ga::{GaState, GenerationStats, SessionEnd, Stop};

use super::common::{command_prefix, say, say_somewhere, stop_signal_name, Interrupted};

/// `gen 345/2000` or `gen 345 312/600 s`.
pub fn progress_prefix(s: &GaState) -> String {
    match s.settings.stop {
        Stop::Generations(n) => format!("gen {}/{n}", s.generation),
        Stop::Seconds(t) => format!("gen {} {:.0}/{t} s", s.generation, s.elapsed),
    }
}

/// What a generation says of the best so far's strength before any measurement, at no extra
/// cost: the duel that decided it (`duel 18-14`, the challenger's points first) and how well its
/// evaluation predicts the generation's game results (`fit error 0.213`, the fit's mean squared
/// error for it; lower is better).
pub fn early_signal(st: &GenerationStats, s: &GaState) -> String {
    let duel = match st.duel {
        Some(d) if !d.is_same() => Some(format!("duel {}-{}", d.challenger, d.holder)),
        _ => None,
    };
    let fit = s
        .fitted
        .as_ref()
        .map(|f| format!("fit error {:.3}", f.before));
    [duel, fit]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A generation's line; `games_seconds` is the time its games took (its rate leaves out the fit
/// and the measurement), or 0 when unknown (then the whole generation's time counts).
pub fn summary_line(st: &GenerationStats, s: &GaState, games_seconds: f64) -> String {
    let duel = match st.duel {
        None => "first best".to_string(),
        Some(d) if d.is_same() => "best so far again".to_string(),
        Some(d) => format!(
            "duel {}-{}{}",
            d.challenger,
            d.holder,
            if d.replaced { " new best" } else { "" }
        ),
    };
    let limit = match s.settings.stop {
        Stop::Generations(g) => format!("/{g}"),
        Stop::Seconds(_) => String::new(),
    };
    let measured = match st.measure {
        Some(m) => format!("  vs {}: {}", s.settings.yardstick_name(), elo_text(&m)),
        None => String::new(),
    };
    // The best so far's error predicting this generation's results, every generation the fit
    // runs: a signal of strength from the first generation on.
    let fit = match &s.fitted {
        Some(f) => format!("  fit error {:.3}", f.before),
        None => String::new(),
    };
    // An outside engine's faults (their games lost; the session's faults.log says which).
    let mut faults = match st.faults {
        0 => String::new(),
        n => format!("  faults {n}"),
    };
    // On a clock: the depth its searches reached, and its games lost on time.
    if let Some(t) = &st.time {
        faults += &format!("  depth {:.1}", t.mean_depth());
        if t.lost_on_time > 0 {
            faults += &format!("  lost on time {}", t.lost_on_time);
        }
    }
    // The mean: how many of its mirrored pairs their games decided (the rest drew, and moved
    // the centre nothing).
    let standing = match decided_pairs(s) {
        Some((pairs, decided)) => {
            format!("pairs decided {decided} of {pairs}  centres averaged")
        }
        None => format!(
            "top {} of {} points  diversity {:.3}  {duel}",
            st.best,
            tournament_max_points(s),
            st.diversity
        ),
    };
    format!(
        "gen {}{limit}  {standing}{fit}{measured}{faults}  {} games {}  {:.1} s",
        st.generation,
        generation_games(st, s),
        rate(
            st.games as f64
                / if games_seconds > 0.0 {
                    games_seconds
                } else {
                    st.seconds
                }
                .max(1e-9),
            ""
        ),
        st.seconds
    )
}

/// What a GA run that did not play to its end says (to the terminal, or standard error when
/// standard output is not one): the generation abandoned, where the session stands, how to
/// continue; a stop by a signal is an error (exit status 130).
pub(super) fn say_unfinished(
    out: &checkers_ga::SessionOutcome,
    stop_setting: Stop,
    resume: &str,
) -> anyhow::Result<()> {
    let why = match out.end {
        SessionEnd::Finished => return Ok(()),
        SessionEnd::Stopped => format!("stopped by {}", stop_signal_name()),
        SessionEnd::TimeLimit => format!("time limit reached ({stop_setting})"),
    };
    let g = out.steps_done;
    say_somewhere(&format!(
        "{why}: generation {} was abandoned and not saved; the session stands at generation {g} \
         ({})",
        g + 1,
        out.checkpoint.display()
    ));
    if out.end == SessionEnd::Stopped {
        say_somewhere(&format!("continue with: {resume}"));
        return Err(Interrupted.into());
    }
    let t = match stop_setting {
        Stop::Seconds(t) => t,
        Stop::Generations(_) => 0.0,
    };
    say_somewhere(&format!(
        "continue with: {resume} --time {} (--time is the session's total: {t} s so far)",
        (2.0 * t).ceil()
    ));
    Ok(())
}

/// How the session's best so far measured, at the first and the last measurement (none
/// without one).
pub(super) fn strength(s: &GaState) -> Vec<String> {
    checkers_ga::summary::strength_span(s).into_iter().collect()
}

/// The hint of `finals` at the end of a long session (named by `session_arg`).
pub(super) fn finals_hint(s: &GaState, session_arg: &str) {
    if s.generation >= FINALS_HINT_GENERATIONS {
        say(&format!(
            "  {} finals {session_arg}    # the strongest of its past bests at depth 6",
            command_prefix(),
        ));
    }
}

/// From this many generations on, the end of a session suggests `finals`: the last best so far
/// of a long session is not always its strongest.
const FINALS_HINT_GENERATIONS: u64 = 1000;
