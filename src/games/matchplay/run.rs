//! Playing a match: its games as jobs, counted in index order whatever order the threads finish
//! them in, with an optional SPRT, clock and interrupt flag.

use super::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};
use crate::board::Color;
use crate::clock::{SearchStats, TimeControl, TimeUse};
use crate::game::{DrawRules, EndReason, Game, GameOutcome, PdnTags};
use crate::genome::EngineSpec;
use crate::jobs::{self, Batch, GameJob, Opening, Played, Seat, Start};
use crate::openings::{start_positions, OpeningBook, StartPosition};
use crate::play::Adjudication;
use crate::rng::{derive, ChaCha8Rng, Purpose};
use crate::side::{Contestant, OurEngine};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

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
    /// The tuned outside engine of an outside engine's session's matches: its genome sides
    /// ([`Contestant::Genome`]) play as that engine with the values they stand for, on its
    /// clock (with its margin) or at its depth. Our engine and an outside contestant play as
    /// themselves.
    pub engine: Option<EngineSpec>,
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

/// Plays the match of A against B on the current rayon pool (a genome side in the match of
/// the settings' tuned engine: [`MatchRun::batch_of`]); `on_game` is called as each game
/// finishes. Every game's generator is derived from (seed, game index), so the result does not
/// depend on the number of threads.
pub fn play_match(
    a: &Contestant,
    b: &Contestant,
    settings: &MatchSettings,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> (Wdl, Vec<MatchGame>) {
    let run = MatchRun::of(settings);
    match run.run_batch(&run.batch_of(a, b), &Progress(on_game)) {
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

/// The running score of a match's counted games: A's W/D/L and the pentanomial counts of the
/// completed pairs. Fed the games in index order ([`MatchObserver::game_counted`]), it is what
/// the match's result will say so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// A's wins, draws and losses.
    pub wdl: Wdl,
    /// The pairs of which both games were counted.
    pub pentanomial: Pentanomial,
    /// The pair and half points of the last game when it opened a pair.
    open_pair: Option<(usize, usize)>,
}

impl Score {
    /// Counts the next game (indices increasing); true when it completed a pair.
    pub fn add(&mut self, g: &MatchGame) -> bool {
        let hp = g.half_points_for_a();
        self.wdl.add(hp);
        let pair = g.index / 2;
        if g.index.is_multiple_of(2) {
            self.open_pair = Some((pair, hp));
        } else if let Some((p, first)) = self.open_pair.take() {
            if p == pair {
                self.pentanomial.add(first + hp);
                return true;
            }
        }
        false
    }
}

/// How one engine's counted games were lost off the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineLosses {
    /// Lost on time ([`EndReason::Time`]).
    pub time: u32,
    /// Lost by its engine's fault ([`EndReason::Fault`]: an illegal move, an exit, a hang,
    /// garbage, no handshake).
    pub faults: u32,
    /// Adjudicated a loss ([`EndReason::AdjudicatedLoss`]).
    pub adjudicated: u32,
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
    /// A's and B's games lost on time, by a fault or by adjudication, over the games that
    /// count.
    pub losses: [EngineLosses; 2],
    /// Counted games adjudicated a draw.
    pub adjudicated_draws: u32,
}

/// A match counted from its games' results ([`MatchTally::of`]): what a tuner comparing two
/// candidates (a duel, an SPSA step, a CMA-ES pair) reads of a batch it asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchTally {
    /// Points (2 a win, 1 a draw) of A and of B.
    pub points: [u32; 2],
    /// Games an outside engine lost by a fault.
    pub faults: u32,
    /// Games drawn (or without a result).
    pub draws: u32,
    /// Pairs of games (one opening, colours swapped) played.
    pub pairs: u32,
    /// Of those, the pairs that scored apart: A did not take 2 of the pair's 4 points.
    pub decided: u32,
    /// On a clock: what the games did with it.
    pub time: Option<TimeUse>,
}

impl MatchTally {
    /// The tally of the games `played` of a match's `batch` ([`MatchRun::batch_of`]: A with
    /// Black in the even games), in job order.
    pub fn of(batch: &Batch, played: &[Played]) -> MatchTally {
        let mut t = MatchTally {
            time: batch.timed().then(|| jobs::time_use(played)),
            ..MatchTally::default()
        };
        let mut pair = [0u32; 2];
        for (i, p) in played.iter().enumerate() {
            let (result, a_black) = (p.result.map(|r| r.0), MatchRun::a_is_black(i));
            let own = GameOutcome::points(result, a_black);
            t.points[0] += own;
            t.points[1] += GameOutcome::points(result, !a_black);
            if own == 1 {
                t.draws += 1;
            }
            if matches!(p.result, Some((_, EndReason::Fault(..)))) {
                t.faults += 1;
            }
            pair[i % 2] = own;
            if i % 2 == 1 {
                t.pairs += 1;
                if pair[0] + pair[1] != 2 {
                    t.decided += 1;
                }
            }
        }
        t
    }
}

/// A match to play: where its game pairs start, how many games, its seed and draw rules, an
/// optional SPRT and interrupt flag, the engines' clocks and the adjudication.
#[derive(Clone, Debug)]
pub struct MatchRun<'a> {
    /// Each start position is played twice, A with Black in the first game of the pair, in
    /// rounds: game `i` starts from `starts[(i / 2) % starts.len()]` ([`MatchRun::start_of`]).
    pub starts: Vec<StartPosition>,
    /// The number of games (even; may exceed `2 * starts.len()`: rounds of the book, the
    /// tie-break generators moving on each round, [`MatchRun::rng_of`]).
    pub games: usize,
    /// The seed every game's generator is derived from.
    pub seed: u64,
    /// The draw rules and the game length cap.
    pub rules: DrawRules,
    /// Stop as soon as this test decides.
    pub sprt: Option<Sprt>,
    /// When raised, games in progress are abandoned at their next move and no game starts.
    pub interrupt: Option<&'a AtomicBool>,
    /// A's and B's time controls (None: that engine searches to its depth, without a clock).
    /// With one, an engine searches by iterative deepening for the time its clock allots, its
    /// depth the maximum. Not reproducible.
    pub tc: [Option<TimeControl>; 2],
    /// How far past its clock a move may end before the side loses on time
    /// ([`crate::Clock::with_margin`]); 0 by default.
    pub time_margin: Duration,
    /// Draw and resign adjudication (off by default).
    pub adjudication: Adjudication,
    /// Root ties go to the first best move, not to the game's generator
    /// ([`crate::Searcher::set_first_ties`]).
    pub first_ties: bool,
    /// The tuned outside engine whose genomes the match's genome sides are
    /// ([`Contestant::Genome`], [`MatchSettings::engine`]).
    pub engine: Option<EngineSpec>,
    /// How each game's generator is keyed ([`MatchRun::key_of`]).
    pub keys: GameKeys,
}

/// How the games of a match key their generators (with the match's seed,
/// `derive(seed, purpose, round, index)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameKeys {
    /// A match's own: game `i` is `(Game, round of i, i)` ([`MatchRun::round_of`]).
    #[default]
    Match,
    /// Part of a tuner's work: game `i` is `(purpose, round, first + i)` (a GA's duel, an SPSA
    /// step).
    Tuning {
        /// What the games are for.
        purpose: Purpose,
        /// The generation or step.
        round: u64,
        /// The index of the first game.
        first: u64,
    },
}

/// The consumer side of a match: games are counted in index order, whatever order the threads
/// finish them in, so the totals, the SPRT's stopping point and the record are the same at any
/// thread count. Shared by the game loops' threads (the counts behind a mutex).
pub(super) struct Tally<'r, O: MatchObserver + ?Sized> {
    /// The games of the match.
    total: usize,
    sprt: Option<Sprt>,
    observer: &'r O,
    counts: Mutex<Counts<O::Error>>,
}

/// What a [`Tally`] has counted.
struct Counts<E> {
    /// Finished games waiting for an earlier one.
    pending: BTreeMap<usize, MatchGame>,
    /// The next index to count.
    next: usize,
    score: Score,
    timing: Option<[EngineTiming; 2]>,
    losses: [EngineLosses; 2],
    adjudicated_draws: u32,
    games: Vec<MatchGame>,
    verdict: Option<SprtVerdict>,
    error: Option<E>,
}

impl<E> Counts<E> {
    /// Counts one game (indices strictly increasing); sets the verdict when the game completes
    /// a pair that decides the SPRT.
    fn count<O: MatchObserver<Error = E> + ?Sized>(
        &mut self,
        g: MatchGame,
        observer: &O,
        sprt: Option<&Sprt>,
    ) {
        if let Err(e) = observer.game_counted(&g) {
            self.error = Some(e);
            return;
        }
        let pair_done = self.score.add(&g);
        // Engine 0 (A) or 1 (B) playing `c` in this game.
        let engine = |c: Color| usize::from((c == Color::Black) != g.a_is_black);
        match g.game.result() {
            Some((_, EndReason::Time(c))) => self.losses[engine(c)].time += 1,
            Some((_, EndReason::Fault(c, _))) => self.losses[engine(c)].faults += 1,
            Some((_, EndReason::AdjudicatedLoss(c))) => self.losses[engine(c)].adjudicated += 1,
            Some((_, EndReason::AdjudicatedDraw)) => self.adjudicated_draws += 1,
            _ => {}
        }
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
                t[engine(c)].time_losses += 1;
            }
        }
        if pair_done {
            if let Some(s) = sprt {
                self.verdict = s.verdict(s.llr(&self.score.pentanomial));
            }
        }
        self.games.push(g);
    }

    /// Counts the waiting games that follow the last counted one, until a verdict or an error.
    fn drain<O: MatchObserver<Error = E> + ?Sized>(&mut self, observer: &O, sprt: Option<&Sprt>) {
        while self.verdict.is_none() && self.error.is_none() {
            match self.pending.remove(&self.next) {
                Some(g) => {
                    self.count(g, observer, sprt);
                    self.next += 1;
                }
                None => break,
            }
        }
    }
}

impl<'r, O: MatchObserver + ?Sized> Tally<'r, O> {
    /// The tally of `run`'s games (its game count and SPRT), telling `observer`.
    pub(super) fn new(run: &MatchRun, observer: &'r O) -> Tally<'r, O> {
        Tally {
            total: run.games,
            sprt: run.sprt,
            observer,
            counts: Mutex::new(Counts {
                pending: BTreeMap::new(),
                next: 0,
                score: Score::default(),
                timing: None,
                losses: [EngineLosses::default(); 2],
                adjudicated_draws: 0,
                games: Vec::new(),
                verdict: None,
                error: None,
            }),
        }
    }

    /// A finished game, from any thread in any order: the observer hears of it at once
    /// ([`MatchObserver::game_finished`]), and it counts when the games before it have
    /// ([`MatchObserver::game_counted`]). True when the match is to stop: the SPRT decided
    /// or the observer failed (the games under way no longer count).
    pub(super) fn add(&self, game: MatchGame) -> bool {
        self.observer.game_finished(&game);
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.pending.insert(game.index, game);
        c.drain(self.observer, self.sprt.as_ref());
        c.verdict.is_some() || c.error.is_some()
    }

    /// The result once the game loop has stopped: every game counted (complete), the SPRT's
    /// decision, or (`interrupted`: the loop stopped early for the interrupt flag) the games
    /// finished by then, those after the first unfinished one too. A match that stopped with
    /// games missing counts as interrupted either way. The observer's error, if any, is
    /// returned instead.
    pub(super) fn finish(self, interrupted: bool) -> Result<MatchResult, O::Error> {
        let mut t = self.counts.into_inner().unwrap_or_else(|e| e.into_inner());
        let end = if let Some(v) = t.verdict {
            MatchEnd::Sprt(v)
        } else if t.next >= self.total || t.error.is_some() {
            MatchEnd::Complete
        } else {
            // Interrupted (or the loop stopped short): the finished games after the first
            // unfinished one count too.
            let _ = interrupted;
            let rest = std::mem::take(&mut t.pending);
            for (_, g) in rest {
                if t.error.is_some() {
                    break;
                }
                t.count(g, self.observer, None);
            }
            MatchEnd::Interrupted
        };
        if let Some(e) = t.error {
            return Err(e);
        }
        Ok(MatchResult {
            wdl: t.score.wdl,
            pentanomial: t.score.pentanomial,
            games: t.games,
            end,
            timing: t.timing,
            losses: t.losses,
            adjudicated_draws: t.adjudicated_draws,
        })
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
            engine: None,
        }
    }

    /// The number of games these settings play: two for each start position.
    pub fn games(&self) -> usize {
        start_positions(self.book, self.pairs).len() * 2
    }
}

impl MatchRun<'_> {
    /// The match `settings` describe (their book's first game pairs, seed and rules), without
    /// an SPRT or an interrupt flag; on the clock of its outside engine's session
    /// ([`EngineSpec::tc`]), if any.
    pub fn of(settings: &MatchSettings) -> MatchRun<'static> {
        let starts = start_positions(settings.book, settings.pairs);
        let tc = settings.engine.as_ref().and_then(|e| e.tc);
        let margin = settings.engine.as_ref().map(|e| e.time_margin);
        MatchRun {
            rules: settings.rules,
            tc: [tc; 2],
            time_margin: margin.unwrap_or_default(),
            engine: settings.engine.clone(),
            ..MatchRun::new(starts.len() * 2, starts, settings.seed)
        }
    }

    /// `games` games from `starts` (in rounds of them) with tie-breaks from `seed`, and
    /// everything else as `match` has it by default: the default draw rules, no SPRT, no
    /// interrupt flag, no clock, margin or adjudication, ties to the seed. What `match
    /// --games N --seed S` plays from the ballot, and `history --elo` with it.
    pub fn new(games: usize, starts: Vec<StartPosition>, seed: u64) -> MatchRun<'static> {
        MatchRun {
            games,
            starts,
            seed,
            rules: DrawRules::default(),
            sprt: None,
            interrupt: None,
            tc: [None; 2],
            time_margin: Duration::ZERO,
            adjudication: Adjudication::default(),
            first_ties: false,
            engine: None,
            keys: GameKeys::Match,
        }
    }

    /// The start position of game `game`: pair `game / 2` of the book, in rounds (pair
    /// `(game / 2) % starts.len()`).
    pub fn start_of(&self, game: usize) -> &StartPosition {
        &self.starts[(game / 2) % self.starts.len().max(1)]
    }

    /// The round of the book game `game` is in (0 for the first `2 * starts.len()` games).
    pub fn round_of(&self, game: usize) -> u64 {
        (game / (2 * self.starts.len()).max(1)) as u64
    }

    /// The tie-break generator of game `game`: `derive(seed, Game, round, game)`, so the games
    /// of the first round are those a match of one round plays and each later round breaks
    /// its ties anew.
    pub fn rng_of(&self, game: usize) -> ChaCha8Rng {
        let (purpose, round, index) = self.key_of(game);
        derive(self.seed, purpose, round, index)
    }

    /// The key `(purpose, round, index)` of game `game`'s generator ([`MatchRun::keys`]).
    pub fn key_of(&self, game: usize) -> (Purpose, u64, u64) {
        match self.keys {
            GameKeys::Match => (Purpose::Game, self.round_of(game), game as u64),
            GameKeys::Tuning {
                purpose,
                round,
                first,
            } => (purpose, round, first + game as u64),
        }
    }

    /// Whether A has Black in game `game` (the first of each pair).
    pub fn a_is_black(game: usize) -> bool {
        game.is_multiple_of(2)
    }

    /// Plays the match of two of our engines through `jobs::run` (any two contestants:
    /// [`MatchRun::run_players`]): on the current rayon pool, or spread over the ranks of an
    /// MPI job, with the same result. The observer hears of each game as it
    /// finishes (in any order: for progress) and of each game that counts, in index order
    /// (for a record that must not depend on the thread count; after an interrupt it also gets
    /// the finished games that follow an unfinished one). An error from
    /// [`MatchObserver::game_counted`] stops the match and is returned. Each engine plays on
    /// its own clock (with the margin) or to its depth, with the match's adjudication.
    pub fn run<O: MatchObserver + ?Sized>(
        &self,
        a: &OurEngine,
        b: &OurEngine,
        observer: &O,
    ) -> Result<MatchResult, O::Error> {
        self.run_batch(&self.batch(a, b), observer)
    }

    /// Plays the match's games as `batch` holds them ([`MatchRun::batch_of`]), as
    /// [`MatchRun::run`] says.
    pub(super) fn run_batch<O: MatchObserver + ?Sized>(
        &self,
        batch: &Batch,
        observer: &O,
    ) -> Result<MatchResult, O::Error> {
        let tally = Tally::new(self, observer);
        let done = AtomicBool::new(false);
        let interrupted = || self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed));
        let stop = || done.load(Ordering::Relaxed) || interrupted();
        // Games end about in index order (on this process's pool, or handed out to the ranks of
        // an MPI job in ranges), so few wait for an earlier one and an SPRT stops near the
        // games in progress; once it decides, the games under way are abandoned.
        let on_done = |i: usize, p: &Played| {
            let g = MatchGame {
                index: i,
                a_is_black: i.is_multiple_of(2),
                game: p.replay(batch, &batch.jobs[i].start),
                timing: p.timing,
            };
            if tally.add(g) {
                done.store(true, Ordering::Relaxed);
            }
        };
        // Every finished game went through `on_done`: the totals are the tally's, whether or not
        // the batch ran to its end.
        let _ = jobs::run(batch, &on_done, &stop);
        tally.finish(interrupted())
    }

    /// The match's games of two of our engines as jobs ([`MatchRun::batch_of`]).
    pub fn batch(&self, a: &OurEngine, b: &OurEngine) -> Batch {
        self.batch_of(&Contestant::Ours(a.clone()), &Contestant::Ours(b.clone()))
    }

    /// The match's games of A against B as jobs: game `i` is pair i / 2 from start position
    /// (i / 2) mod the book's size ([`MatchRun::start_of`]), A (side 0) with Black when i is
    /// even, its generator from (seed, game, round, i) ([`MatchRun::rng_of`]); each side on
    /// its own clock ([`MatchRun::tc`]) or to its depth, with the match's adjudication. Each
    /// contestant plays as what it is: a genome ([`Contestant::Genome`]) as the match's tuned
    /// engine with its values (`Side::genome`), our engine as ours.
    ///
    /// # Panics
    ///
    /// When a contestant is a genome and the match has no tuned engine ([`MatchRun::engine`]).
    pub fn batch_of(&self, a: &Contestant, b: &Contestant) -> Batch {
        let side_of = |c: &Contestant, tc: Option<TimeControl>| {
            let mut e = c.side(self.engine.as_ref(), tc);
            e.clock = tc;
            e
        };
        let sides = vec![side_of(a, self.tc[0]), side_of(b, self.tc[1])];
        let mut batch = Batch::new(sides, self.seed, self.rules);
        batch.record_moves = true;
        batch.abandon = true;
        batch.adjudication = self.adjudication;
        batch.time_margin = self.time_margin;
        batch.first_ties = self.first_ties;
        batch.engine = self.engine.clone();
        batch.openings = self.starts.iter().map(Opening::of).collect();
        let (sa, sb) = (Seat::new(0), Seat::new(1));
        let n = self.starts.len().max(1);
        batch.jobs = (0..self.games)
            .map(|i| {
                let (black, white) = if i.is_multiple_of(2) {
                    (sa, sb)
                } else {
                    (sb, sa)
                };
                let (purpose, round, index) = self.key_of(i);
                GameJob::new(
                    black,
                    white,
                    Start::Opening(((i / 2) % n) as u32),
                    purpose,
                    round,
                    index,
                )
            })
            .collect();
        batch
    }
}

/// The match's games as one PDN text.
pub fn match_pdn(names: [&str; 2], games: &[MatchGame]) -> String {
    let [a, b] = names;
    let mut out = String::new();
    for g in games {
        let (black, white) = if g.a_is_black { (a, b) } else { (b, a) };
        let tags = PdnTags {
            event: format!("checkers-ga match, game {}", g.index + 1),
            black: black.to_string(),
            white: white.to_string(),
        };
        out += &g.game.to_pdn(&tags);
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
