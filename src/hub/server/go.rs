//! `go`: the search, on the calling thread, and its `info` and `done` lines.

use super::answers::{error_text, info_line, say};
use super::{lock, Level, Shared, State};
use crate::board::Move;
use crate::game::{EndReason, Game, GameOutcome};
use crate::hub::protocol::{hub_move, HubLine};
use crate::search::{SearchConfig, SearchResult, Searcher, MAX_TIMED_DEPTH};
use std::io::Write;
use std::time::{Duration, Instant};

/// A fifth of the time available, at most 50 ms: what a timed search keeps back.
fn margin(d: Duration) -> Duration {
    (d / 5).min(Duration::from_millis(50))
}

impl State<'_> {
    /// `go`: searches (on this thread; the `info` lines of timed levels are written as the
    /// iterations complete) and gives the final `info` and `done` lines, to be written in one
    /// write (or the error and `done` when there is no move to search).
    pub(super) fn go<W: Write>(&mut self, shared: &Shared<W>) -> anyhow::Result<String> {
        // The clock runs from here: making the searcher (its table's memory, at a game's first
        // move) is time the move takes.
        let start = Instant::now();
        let Some(game) = self.game.as_ref() else {
            return Ok(error_text("go without a position: send pos pos=... first"));
        };
        let pos = *game.position();
        if !crate::movegen::has_any_move(&pos) {
            return Ok(error_text("the position has no legal move") + "done\n");
        }
        let level = self.level.unwrap_or(Level::Depth(self.opts.depth));
        let depth = match level {
            Level::Depth(d) => d,
            _ => MAX_TIMED_DEPTH,
        };
        // One searcher for the game; made again only when the depth or table change, given the
        // evaluation (and cleared) when it changed.
        let changed = std::mem::take(&mut self.eval_changed);
        if std::mem::take(&mut self.man_stale) {
            self.man = crate::man::man_value(&self.eval).map(f64::from);
        }
        let mut searcher = match self.searcher.take() {
            Some(mut s) if s.config().depth == depth => {
                if changed {
                    s.reset(self.eval);
                }
                s
            }
            _ => {
                let config = SearchConfig {
                    depth,
                    tt_log2: self.opts.hash,
                    ..SearchConfig::default()
                };
                Box::new(Searcher::new(self.eval, config))
            }
        };
        searcher.set_first_ties(self.opts.first_ties);
        searcher.set_params(self.search);
        searcher.set_man_value(
            self.man
                .map(|m| m.round().clamp(1.0, f64::from(i32::MAX)) as i32),
        );
        searcher.set_abort(Some(shared.abort.clone()));
        let rng = self
            .rng
            .as_mut()
            .ok_or_else(|| anyhow::anyhow!("the tie-break generator is missing"))?;
        let man = self.man;
        let mut failed = None;
        let mut report = |r: &SearchResult| {
            if let Some(m) = r.best {
                let line = info_line(r, m, &pos, start.elapsed(), man);
                if let Err(e) = say(&mut *lock(&shared.out), &line) {
                    failed = Some(e);
                }
            }
        };
        let result = match level {
            Level::Depth(_) => match searcher.choose_abortable(&pos, rng) {
                Some(r) => r,
                None => {
                    // Stopped before the search finished: the depth-1 choice.
                    let mut quick =
                        Searcher::new(*searcher.evaluator(), SearchConfig::with_depth(1));
                    quick.set_first_ties(searcher.first_ties());
                    let mut r = quick.choose(&pos, rng);
                    r.depth = 1;
                    r
                }
            },
            Level::MoveTime(t) => {
                let budget = (t - margin(t)).saturating_sub(start.elapsed());
                searcher.choose_timed_reporting(&pos, rng, budget, &mut report)
            }
            Level::Time { moves, time, inc } => {
                let left = time + inc;
                let share = left / moves.unwrap_or(30) + inc;
                let budget = share
                    .min(left - margin(left))
                    .saturating_sub(start.elapsed());
                searcher.choose_timed_reporting(&pos, rng, budget, &mut report)
            }
            Level::Infinite => searcher.choose_timed_reporting(
                &pos,
                rng,
                Duration::from_secs(1_000_000_000),
                &mut report,
            ),
        };
        let elapsed = start.elapsed();
        let draw = if self.opts.repetition_draws {
            repetition_draw(game, &result)
        } else {
            None
        };
        self.searcher = Some(searcher);
        if let Some(e) = failed {
            return Err(e);
        }
        let (best, value) = match draw {
            Some(m) => (Some(m), Some(0)),
            None => (result.best, result.value),
        };
        let Some(best) = best else {
            return Ok(error_text("the position has no legal move") + "done\n");
        };
        let shown = SearchResult { value, ..result };
        let mut info = info_line(&shown, best, &pos, elapsed, self.man);
        // The final line's PV: the searcher's table, a few moves deep.
        if draw.is_none() {
            if let Some(s) = self.searcher.as_ref() {
                let mut p = pos;
                let line: Vec<String> = s
                    .principal_variation(&pos, best, 12)
                    .iter()
                    .map(|m| {
                        let t = hub_move(&p, m);
                        p = p.play(m);
                        t
                    })
                    .collect();
                info.args.retain(|(k, _)| k != "pv");
                info = info.arg("pv", line.join(" "));
            }
        }
        let done = HubLine::new("done").arg("move", hub_move(&pos, &best));
        Ok(format!("{info}\n{done}\n"))
    }
}

/// The repetition rule of `repetition-draws`: when `result` values the position below a draw,
/// a root move that completes a draw by repetition in `game`.
fn repetition_draw(game: &Game, result: &SearchResult) -> Option<Move> {
    if result.value.is_none_or(|v| v >= 0) {
        return None;
    }
    game.legal_moves().into_iter().find(|m| {
        let mut g = game.clone();
        g.play(*m);
        g.result() == Some((GameOutcome::Draw, EndReason::Repetition))
    })
}
