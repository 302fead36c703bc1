//! What the page shows, gathered from a session: the best so far of sampled generations, and
//! the game of the last measurement played again.

use super::HEATMAP_COLUMNS;
use crate::board::{Color, Position};
use crate::eval::Weights;
use crate::ga::{measure_match, GaState, Settings};
use crate::game::Game;
use crate::jobs;
use crate::matchplay::{MatchRun, MatchSettings};
use crate::store;
use std::path::Path;

/// A game to step through on the page.
#[derive(Clone, Debug)]
pub struct ShownGame {
    /// What game it is, on one line.
    pub title: String,
    /// Who played Black, as shown.
    pub black: String,
    /// Who played White, as shown.
    pub white: String,
    /// The game, from the start position (its first plies are the ballot opening's).
    pub game: Game,
    /// Plies of the opening (forced by the ballot, not chosen by the engines).
    pub opening_plies: usize,
}

/// What the page shows of a session.
#[derive(Clone, Debug)]
pub struct ReportData<'a> {
    /// The session reported on.
    pub session: &'a GaState,
    /// Where the session was read from (a checkpoint file), as shown.
    pub source: String,
    /// The heatmap's columns: a generation and its best so far where known.
    pub bests: Vec<(u64, Option<Weights>)>,
    /// Of an outside engine's session, the answer (the best so far) after each generation of
    /// the history, where known (its chart is SPSA's of θ); empty for our weights.
    pub answers: Vec<Option<Weights>>,
    /// A game to show on the page, if any.
    pub game: Option<ShownGame>,
}

/// What the session's answer is called: under the mean "the answer" (the centres' average,
/// as `history` calls it), else "the best so far".
pub(super) fn answer_name(s: &Settings) -> &'static str {
    match s.ga.method.mean() {
        Some(_) => "the answer",
        None => "the best so far",
    }
}

/// Indices of at most `n` entries of `0..len`, evenly spread, the first and last always in.
pub fn sample(len: usize, n: usize) -> Vec<usize> {
    if len <= n || n < 2 {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = (0..n)
        .map(|k| ((k as f64) * (len - 1) as f64 / (n - 1) as f64).round() as usize)
        .collect();
    out.dedup();
    out
}

/// Collects what the page shows of `session`, read from the checkpoint `checkpoint` (its
/// folder's other checkpoints give the best so far of past generations the history does not
/// hold). Plays one game (at the session's depth; none for the simulator, whose games have no
/// moves).
pub fn gather<'a>(session: &'a GaState, checkpoint: &Path) -> ReportData<'a> {
    collect(session, checkpoint, true)
}

/// [`gather`], playing its game only when `game` (else the page has none).
pub(super) fn collect<'a>(session: &'a GaState, checkpoint: &Path, game: bool) -> ReportData<'a> {
    let dir = crate::files::folder_of(checkpoint);
    let from_checkpoint = |g: u64| {
        store::load_checkpoint_alone(&store::checkpoint_path(&dir, g))
            .ok()
            .and_then(|s| s.best_so_far)
    };
    let h = &session.history;
    let wanted = sample(h.len(), HEATMAP_COLUMNS);
    let measured = h.iter().rposition(|x| x.measure.is_some());
    // An outside engine's answer is charted after every generation.
    let engine = session.settings.engine.is_some();
    let want_all: Vec<usize> = match engine {
        true => (0..h.len()).collect(),
        false => wanted.iter().copied().chain(measured).collect(),
    };
    let known = session.bests_at(&want_all, from_checkpoint);
    let bests = wanted
        .iter()
        .map(|&i| (h[i].generation, known[i]))
        .collect();
    let who = answer_name(&session.settings);
    let game = match measured {
        // The simulator's games are decided by its model: they have no moves to show.
        _ if session.settings.simulated() || !game => None,
        Some(i) => known[i].map(|w| {
            measurement_game(
                session,
                &w,
                h[i].generation,
                format!(
                    "Game 1 of the measurement after generation {}: {who} of that generation \
                     against the yardstick",
                    h[i].generation
                ),
            )
        }),
        None => session.best_so_far.map(|w| {
            measurement_game(
                session,
                &w,
                session.generation,
                match session.settings.ga.measure_every {
                    0 => format!(
                        "The game a measurement of {who} after the last generation against \
                         the yardstick would play first (the session measures nothing)"
                    ),
                    _ => format!(
                        "No measurement yet: the game a measurement of {who} after the last \
                         generation against the yardstick would play first"
                    ),
                },
            )
        }),
    };
    ReportData {
        session,
        source: checkpoint.display().to_string(),
        bests,
        answers: if engine { known } else { Vec::new() },
        game,
    }
}

/// Plays game 1 of generation `g`'s yardstick measurement with `best` as the best so far: the
/// same seed, depth and opening as the session's measurement, so the same moves. Of an outside
/// engine's session the engine plays it, `best` set as its parameters against its declared
/// values, as the measurement and `match` play it.
pub fn measurement_game(session: &GaState, best: &Weights, g: u64, title: String) -> ShownGame {
    let s = &session.settings;
    let (a, b, settings) = measure_match(best, s, g);
    let run = MatchRun::of(&MatchSettings {
        pairs: Some(1),
        ..settings
    });
    let batch = run.batch_of(&a, &b);
    let job = &batch.jobs[0];
    let game = match jobs::play_job(&batch, job, &|| false) {
        Some(p) => p.replay(&batch, &job.start),
        None => batch.game(&job.start),
    };
    let opening_plies = batch.game(&job.start).plies();
    // The depth the games search to: an outside engine's own.
    let depth = s.games_depth().unwrap_or(s.search.depth);
    let who = match s.ga.method.mean() {
        Some(_) => "the answer",
        None => "best so far",
    };
    ShownGame {
        title,
        black: format!("{who} (depth {depth})"),
        white: format!("{} (depth {depth})", b.name()),
        game,
        opening_plies,
    }
}

/// A position as 32 characters, squares 1 to 32: `b` black man, `B` black king, `w`, `W`
/// white, `.` empty (what the page's script draws).
pub fn board_string(p: &Position) -> String {
    (1..=32u8)
        .map(|sq| match p.piece_at(sq) {
            Some((Color::Black, false)) => 'b',
            Some((Color::Black, true)) => 'B',
            Some((Color::White, false)) => 'w',
            Some((Color::White, true)) => 'W',
            None => '.',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_keep_the_ends() {
        assert_eq!(sample(3, 48), vec![0, 1, 2]);
        let s = sample(1000, 10);
        assert_eq!(s.len(), 10);
        assert_eq!((s[0], s[9]), (0, 999));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert!(sample(0, 10).is_empty());
    }

    #[test]
    fn board_strings() {
        let s = board_string(&Position::start());
        assert_eq!(
            s,
            format!("{}{}{}", "b".repeat(12), ".".repeat(8), "w".repeat(12))
        );
    }
}
