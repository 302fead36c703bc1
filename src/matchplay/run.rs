//! Playing a match: its games as jobs, counted in index order whatever order the threads finish
//! them in, with an optional SPRT, clock and interrupt flag.

use super::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};
use crate::board::Color;
use crate::clock::{SearchStats, TimeControl};
use crate::game::{DrawRules, EndReason, Game, GameOutcome, PdnTags};
use crate::jobs::{self, Batch, GameJob, Opening, Played, Seat, Start};
use crate::openings::{start_positions, OpeningBook, StartPosition};
use crate::rng::Purpose;
use crate::search::SearchConfig;
use crate::yardstick::Evaluator;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A player for a match: an evaluator (weights or a yardstick) and search settings, with a
/// name for reports.
#[derive(Clone, Debug)]
pub struct Engine {
    /// The name reports give it.
    pub name: String,
    /// How it evaluates positions: weights or a yardstick.
    pub eval: Evaluator,
    /// How deep it searches.
    pub config: SearchConfig,
}

/// One finished game of a match, from A's point of view.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index of the game in the match (pair index * 2 + 0 when A has Black, + 1 when White).
    pub index: usize,
    /// A had Black in this game.
    pub a_is_black: bool,
    /// The game, its moves and result.
    pub game: Game,
    /// With a clock: what Black's and White's searches did.
    pub timing: Option<[SearchStats; 2]>,
}

impl MatchGame {
    /// 2 win, 1 draw, 0 loss, for engine A.
    pub fn half_points_for_a(&self) -> usize {
        GameOutcome::points(self.game.result().map(|r| r.0), self.a_is_black) as usize
    }
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Where the games start.
    pub book: OpeningBook,
    /// Number of game pairs (None: the whole ballot, or one pair from the start position).
    pub pairs: Option<usize>,
    /// The seed every game's generator is derived from.
    pub seed: u64,
    /// The draw rules and the game length cap.
    pub rules: DrawRules,
}

/// What a running match reports, as a session reports to its observer. Both
/// methods are called from the worker threads and default to doing nothing.
pub trait MatchObserver: Sync {
    /// Why recording a game failed ([`std::convert::Infallible`] when it cannot).
    type Error: Send;
    /// A game finished (in any order: for progress).
    fn game_finished(&self, _game: &MatchGame) {}
    /// A game counts: called in index order, whatever order the games finished in, so a record
    /// kept here does not depend on the thread count (after an interrupt it also gets the
    /// finished games that follow an unfinished one). An error stops the match.
    fn game_counted(&self, _game: &MatchGame) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// An observer that hears nothing.
pub struct Unobserved;

impl MatchObserver for Unobserved {
    type Error = std::convert::Infallible;
}

/// The observer of [`play_match`]: a function called as each game finishes.
struct Progress<'f>(&'f (dyn Fn(&MatchGame) + Sync));

impl MatchObserver for Progress<'_> {
    type Error = std::convert::Infallible;
    fn game_finished(&self, game: &MatchGame) {
        (self.0)(game)
    }
}

/// Plays the match on the current rayon pool; `on_game` is called as each game finishes.
/// Every game's generator is derived from (seed, game index), so the result does not depend on
/// the number of threads.
pub fn play_match(
    a: &Engine,
    b: &Engine,
    settings: &MatchSettings,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> (Wdl, Vec<MatchGame>) {
    let run = MatchRun::of(settings);
    match run.run(a, b, &Progress(on_game)) {
        Ok(r) => (r.wdl, r.games),
        Err(e) => match e {},
    }
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// Every game was played.
    Complete,
    /// The SPRT reached a bound; the games after the deciding pair do not count.
    Sprt(SprtVerdict),
    /// The interrupt flag was raised: the games finished by then count, the rest were
    /// abandoned.
    Interrupted,
}

/// What one engine did over the counted games of a timed match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineTiming {
    /// The searches' totals.
    pub stats: SearchStats,
    /// Games it lost on time.
    pub time_losses: u32,
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// A's wins, draws and losses over the games that count.
    pub wdl: Wdl,
    /// The pairs of which both games count.
    pub pentanomial: Pentanomial,
    /// The games that count, in index order.
    pub games: Vec<MatchGame>,
    /// Why the match ended.
    pub end: MatchEnd,
    /// A's and B's searches and time losses over the games that count (a match with a clock).
    pub timing: Option<[EngineTiming; 2]>,
}

/// A match to play: where its game pairs start, its seed and draw rules, an optional SPRT and
/// an optional interrupt flag.
#[derive(Clone, Debug)]
pub struct MatchRun<'a> {
    /// Each start position is played twice, A with Black in the first game of the pair.
    pub starts: Vec<StartPosition>,
    /// The seed every game's generator is derived from.
    pub seed: u64,
    /// The draw rules and the game length cap.
    pub rules: DrawRules,
    /// Stop as soon as this test decides.
    pub sprt: Option<Sprt>,
    /// When raised, games in progress are abandoned at their next move and no game starts.
    pub interrupt: Option<&'a AtomicBool>,
    /// A clock for every game: the engines search by iterative deepening for the time it
    /// allots, their depths the maximum ([`Game::play_out_clocked`]). Not reproducible.
    pub tc: Option<TimeControl>,
    /// Root ties go to the first best move, not to the game's generator
    /// ([`crate::Searcher::set_first_ties`]).
    pub first_ties: bool,
}

/// The consumer side of a match: games are counted in index order, whatever order the threads
/// finish them in, so the totals, the SPRT's stopping point and the record are the same at any
/// thread count.
struct Tally<'r, O: MatchObserver + ?Sized> {
    /// Finished games waiting for an earlier one.
    pending: BTreeMap<usize, MatchGame>,
    /// The next index to count.
    next: usize,
    /// The half points of the last counted game when it opened a pair.
    open_pair: Option<(usize, usize)>,
    wdl: Wdl,
    pentanomial: Pentanomial,
    timing: Option<[EngineTiming; 2]>,
    games: Vec<MatchGame>,
    verdict: Option<SprtVerdict>,
    error: Option<O::Error>,
    observer: &'r O,
}

impl<O: MatchObserver + ?Sized> Tally<'_, O> {
    /// Counts one game (indices strictly increasing); returns the verdict when the game
    /// completes a pair that decides the SPRT.
    fn count(&mut self, g: MatchGame, sprt: Option<&Sprt>) {
        if let Err(e) = self.observer.game_counted(&g) {
            self.error = Some(e);
            return;
        }
        let hp = g.half_points_for_a();
        self.wdl.add(hp);
        if let Some([black, white]) = &g.timing {
            let t = self.timing.get_or_insert_with(Default::default);
            let (a, b) = if g.a_is_black {
                (black, white)
            } else {
                (white, black)
            };
            t[0].stats.add(a);
            t[1].stats.add(b);
            if let Some((_, EndReason::Time(c))) = g.game.result() {
                let a_lost = (c == Color::Black) == g.a_is_black;
                t[if a_lost { 0 } else { 1 }].time_losses += 1;
            }
        }
        let pair = g.index / 2;
        if g.index.is_multiple_of(2) {
            self.open_pair = Some((pair, hp));
        } else {
            if let Some((p, first)) = self.open_pair.take() {
                if p == pair {
                    self.pentanomial.add(first + hp);
                    if let Some(s) = sprt {
                        self.verdict = s.verdict(s.llr(&self.pentanomial));
                    }
                }
            }
        }
        self.games.push(g);
    }

    /// Counts the waiting games that follow the last counted one, until a verdict or an error.
    fn drain(&mut self, sprt: Option<&Sprt>) {
        while self.verdict.is_none() && self.error.is_none() {
            match self.pending.remove(&self.next) {
                Some(g) => {
                    self.count(g, sprt);
                    self.next += 1;
                }
                None => break,
            }
        }
    }
}

impl MatchSettings {
    /// The first `games / 2` ballot openings (`games` rounded up to even), each played with
    /// both colours, under `rules` with tie-breaks from `seed`.
    pub fn ballot(games: usize, seed: u64, rules: DrawRules) -> MatchSettings {
        MatchSettings {
            book: OpeningBook::Ballot,
            pairs: Some(games.div_ceil(2)),
            seed,
            rules,
        }
    }

    /// The number of games these settings play: two for each start position.
    pub fn games(&self) -> usize {
        start_positions(self.book, self.pairs).len() * 2
    }
}

impl MatchRun<'_> {
    /// The match `settings` describe (their book's first game pairs, seed and rules), without
    /// an SPRT, an interrupt flag or a clock.
    pub fn of(settings: &MatchSettings) -> MatchRun<'static> {
        MatchRun {
            starts: start_positions(settings.book, settings.pairs),
            seed: settings.seed,
            rules: settings.rules,
            sprt: None,
            interrupt: None,
            tc: None,
            first_ties: false,
        }
    }

    /// Plays the match through `jobs::run`: on the current rayon pool, or spread over the
    /// ranks of an MPI job, with the same result. The observer hears of each game as it
    /// finishes (in any order: for progress) and of each game that counts, in index order
    /// (for a record that must not depend on the thread count; after an interrupt it also gets
    /// the finished games that follow an unfinished one). An error from
    /// [`MatchObserver::game_counted`] stops the match and is returned.
    pub fn run<O: MatchObserver + ?Sized>(
        &self,
        a: &Engine,
        b: &Engine,
        observer: &O,
    ) -> Result<MatchResult, O::Error> {
        let batch = self.batch(a, b);
        let n = batch.jobs.len();
        let done = AtomicBool::new(false);
        let sprt = self.sprt.as_ref();
        let tally = Mutex::new(Tally {
            pending: BTreeMap::new(),
            next: 0,
            open_pair: None,
            wdl: Wdl::default(),
            pentanomial: Pentanomial::default(),
            timing: None,
            games: Vec::new(),
            verdict: None,
            error: None,
            observer,
        });
        let interrupted = || self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed));
        let stop = || done.load(Ordering::Relaxed) || interrupted();
        let lock = || tally.lock().unwrap_or_else(|e| e.into_inner());
        // Games end about in index order (on this process's pool, or handed out to the ranks of
        // an MPI job in ranges), so few wait for an earlier one and an SPRT stops near the
        // games in progress; once it decides, the games under way are abandoned.
        let on_done = |i: usize, p: &Played| {
            let g = MatchGame {
                index: i,
                a_is_black: i.is_multiple_of(2),
                game: p.replay(&batch, &batch.jobs[i].start),
                timing: p.timing,
            };
            observer.game_finished(&g);
            let mut t = lock();
            t.pending.insert(i, g);
            t.drain(sprt);
            if t.verdict.is_some() || t.error.is_some() {
                done.store(true, Ordering::Relaxed);
            }
        };
        // Every finished game went through `on_done`: the totals are the tally's, whether or not
        // the batch ran to its end.
        let _ = jobs::run(&batch, &on_done, &stop);
        let mut t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
        let end = if let Some(v) = t.verdict {
            MatchEnd::Sprt(v)
        } else if t.next == n || t.error.is_some() {
            MatchEnd::Complete
        } else {
            // Interrupted: the finished games after the first unfinished one count too.
            let rest = std::mem::take(&mut t.pending);
            for (_, g) in rest {
                if t.error.is_some() {
                    break;
                }
                t.count(g, None);
            }
            MatchEnd::Interrupted
        };
        if let Some(e) = t.error {
            return Err(e);
        }
        Ok(MatchResult {
            wdl: t.wdl,
            pentanomial: t.pentanomial,
            games: t.games,
            end,
            timing: t.timing,
        })
    }

    /// The match's games as jobs: game `i` is pair i / 2 from start position i / 2, A (player
    /// 0) with Black when i is even, its generator from (seed, game, 0, i).
    pub fn batch(&self, a: &Engine, b: &Engine) -> Batch {
        let mut batch = Batch::new(vec![a.eval, b.eval], self.seed, self.rules);
        batch.record_moves = true;
        batch.abandon = true;
        batch.tc = self.tc;
        batch.first_ties = self.first_ties;
        batch.openings = self.starts.iter().map(Opening::of).collect();
        let (sa, sb) = (Seat::new(0, a.config), Seat::new(1, b.config));
        batch.jobs = (0..self.starts.len() * 2)
            .map(|i| {
                let (black, white) = if i.is_multiple_of(2) {
                    (sa, sb)
                } else {
                    (sb, sa)
                };
                GameJob::new(
                    black,
                    white,
                    Start::Opening((i / 2) as u32),
                    Purpose::Game,
                    0,
                    i as u64,
                )
            })
            .collect();
        batch
    }
}

/// The match's games as one PDN text.
pub fn match_pdn(a: &Engine, b: &Engine, games: &[MatchGame]) -> String {
    let mut out = String::new();
    for g in games {
        let (black, white) = if g.a_is_black {
            (&a.name, &b.name)
        } else {
            (&b.name, &a.name)
        };
        let tags = PdnTags {
            event: format!("checkers-ga match, game {}", g.index + 1),
            black: black.clone(),
            white: white.clone(),
        };
        out += &g.game.to_pdn(&tags);
        out.push('\n');
    }
    out
}
