//! Game jobs: a list of games described completely (sides, search settings, start, the key of
//! each game's generator), played on a rayon pool, results in job order.
//!
//! Every game the tool plays for a session or a match goes through [`run`]: the tournament,
//! the endgame games, the best-so-far duel, and the matches (`match`, and the yardstick
//! measurements, which are matches). Each side of a game is one of the batch's sides
//! (`crate::side::Side`: our evaluation, an outside engine, a genome of the tuned engine, on
//! its clock or to its depth), and its player is made from it by the one builder. A game
//! depends on its job only (searchers are reset for every game, its generator comes from the
//! job's key), so the results are the same whichever thread, or whichever process, plays it
//! (but not for a side on a clock, where how deep a search gets depends on time; and an outside
//! engine must decide by its position and its settings alone, as ours does). By default
//! [`run`] plays the batch on the current rayon pool; a build with the `mpi` feature, started
//! under `mpirun` or `srun`, installs an [`Executor`] that hands the jobs out to all ranks of
//! the MPI job instead (`crate::cluster`), with the same results.

use crate::board::{Color, Move, MoveList, Position};
use crate::clock::{SearchStats, TimeControl, TimeUse};
use crate::eval::Weights;
use crate::game::{DrawRules, EndReason, Game, GameOutcome};
use crate::genome::EngineSpec;
use crate::movegen::generate;
use crate::openings::{ballot, StartPosition};
use crate::play::{lease_engines, play_game, Adjudication, SidePlayer, Table};
use crate::rng::{derive, Purpose};
use crate::schedule;
use crate::search::{SearchConfig, Searcher};
use crate::side::{Plays, Side};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

pub use super::pool::{
    check_threads, pool_for, pool_threads, thread_pool, PoolError, ENGINE_GAMES_PER_CORE,
};

/// One side of a game: who plays it, as an index into the batch's sides (each of which says
/// all of how it plays: [`Side`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Index of the side in [`Batch::sides`].
    pub side: u32,
}

impl Seat {
    /// Side `side` of the batch (an index into its sides).
    pub fn new(side: usize) -> Seat {
        Seat { side: side as u32 }
    }
}

/// Where a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Start {
    /// The start position.
    Initial,
    /// The start position, then the moves of ballot opening `n` (modulo the ballot's size).
    Ballot(u32),
    /// A position given by its bitboards and the side to move (the endgame games).
    Position {
        /// Black's pieces (bit `n - 1` is square `n`).
        black: u32,
        /// White's pieces (bit `n - 1` is square `n`).
        white: u32,
        /// Which of those pieces are kings.
        kings: u32,
        /// The side to move.
        side: Color,
    },
    /// Opening `n` of the batch's [`Batch::openings`] (a match's start positions).
    Opening(u32),
}

impl Start {
    /// The position as [`Start::Position`].
    pub fn of(p: &Position) -> Start {
        Start::Position {
            black: p.pieces(Color::Black).0,
            white: p.pieces(Color::White).0,
            kings: p.kings(Color::Black).0 | p.kings(Color::White).0,
            side: p.side_to_move(),
        }
    }

    /// A game from here, a ballot opening's moves played; [`Start::Opening`] needs its batch
    /// ([`Batch::game`]) and is the start position here.
    fn base(&self, rules: DrawRules) -> Game {
        match *self {
            Start::Initial | Start::Opening(_) => Game::new(Position::start(), rules),
            Start::Ballot(n) => {
                let b = ballot();
                let mut game = Game::new(Position::start(), rules);
                for m in &b[n as usize % b.len()].moves {
                    game.play(*m);
                }
                game
            }
            Start::Position {
                black,
                white,
                kings,
                side,
            } => Game::new(Position::from_parts(black, white, kings, side), rules),
        }
    }
}

/// A position and the moves played from it before the engines take over: a match's start (a
/// ballot opening, or a FEN or PDN position of an opening file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// [`Start::Initial`] or [`Start::Position`].
    pub setup: Start,
    /// The moves played from `setup` to reach the start position.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The job form of an opening book's start position.
    pub fn of(s: &StartPosition) -> Opening {
        Opening {
            setup: Start::of(&s.setup),
            moves: s.moves.clone(),
        }
    }
}

/// One game: which of the batch's sides plays Black and which White, from where, and the key
/// `(purpose, round, index)` of its generator (with the batch's seed: `derive(seed, purpose, round, index)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameJob {
    /// The side that plays Black: an index into [`Batch::sides`], which says how it plays.
    pub black: Seat,
    /// The side that plays White, as `black`.
    pub white: Seat,
    /// Where the game starts.
    pub start: Start,
    /// What the game is for: with the seed, round and index it derives the game's random generator.
    pub purpose: Purpose,
    /// The generation (or 0 for a match).
    pub round: u64,
    /// The game's number within its round and purpose.
    pub index: u64,
}

impl GameJob {
    /// A game of `black` against `white` from `start`, its generator keyed by
    /// `(purpose, round, index)`.
    pub fn new(
        black: Seat,
        white: Seat,
        start: Start,
        purpose: Purpose,
        round: u64,
        index: u64,
    ) -> GameJob {
        GameJob {
            black,
            white,
            start,
            purpose,
            round,
            index,
        }
    }
}

/// A batch that cannot be played as it is (one from another process): the message names the
/// job or opening.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BatchError(pub String);

/// A list of games and what they share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    /// Who plays the sides the jobs point at ([`Seat::side`]), each on its clock or to its
    /// depth: our evaluations, outside engines, genomes of [`Batch::engine`].
    pub sides: Vec<Side>,
    /// The seed the games' random generators are derived from.
    pub seed: u64,
    /// The draw rules every game is played under.
    pub rules: DrawRules,
    /// Keep every game's moves (for PDN), not only its result.
    pub record_moves: bool,
    /// Once the batch is stopped, abandon the games under way too (at their next move), not
    /// only the games not started: a match, whose games past the deciding pair do not count.
    pub abandon: bool,
    /// The start positions [`Start::Opening`] points at.
    pub openings: Vec<Opening>,
    /// Draw and resign adjudication on the sides' scores (off unless set: a match's).
    #[serde(default)]
    pub adjudication: Adjudication,
    /// With a clock: how far past its time a move may end and still count
    /// ([`Clock::with_margin`](crate::clock::Clock::with_margin)).
    #[serde(default)]
    pub time_margin: std::time::Duration,
    /// Root ties go to the first best move in generation order, not to the game's generator
    /// ([`Searcher::set_first_ties`]): a match compared with the same match against an
    /// outside engine.
    #[serde(default)]
    pub first_ties: bool,
    /// The tuned outside engine whose genomes the sides of [`Plays::Genome`] are (each
    /// side's values set before its game); with a simulator's model, the model decides every
    /// game. None: no side is a genome.
    #[serde(default)]
    pub engine: Option<EngineSpec>,
    /// The games, in the order their results are returned.
    pub jobs: Vec<GameJob>,
}

impl Batch {
    /// An empty batch of these sides.
    pub fn new(sides: Vec<Side>, seed: u64, rules: DrawRules) -> Batch {
        Batch {
            sides,
            seed,
            rules,
            record_moves: false,
            abandon: false,
            openings: Vec::new(),
            adjudication: Adjudication::default(),
            time_margin: std::time::Duration::ZERO,
            first_ties: false,
            engine: None,
            jobs: Vec::new(),
        }
    }

    /// A batch whose sides are our engine with these weights, searching with `config`.
    pub fn of_weights(
        weights: &[Weights],
        config: SearchConfig,
        seed: u64,
        rules: DrawRules,
    ) -> Batch {
        let sides = weights.iter().map(|&w| Side::ours(w, config));
        Batch::new(sides.collect(), seed, rules)
    }

    /// A batch whose sides are these genomes of tuned engine `engine`, each on the engine's
    /// clock (with its margin) or at its depth.
    pub fn of_genomes(
        engine: &EngineSpec,
        genomes: &[Weights],
        seed: u64,
        rules: DrawRules,
    ) -> Batch {
        let sides = genomes.iter().map(|&w| Side::genome(engine, w));
        let mut batch = Batch::new(sides.collect(), seed, rules);
        batch.engine = Some(engine.clone());
        batch.time_margin = engine.time_margin;
        batch
    }

    /// Every side on clock `tc` (None: to its depth).
    pub fn on_clock(&mut self, tc: Option<TimeControl>) {
        for e in &mut self.sides {
            e.clock = tc;
        }
    }

    /// The batches as one, their games in order (each batch's sides, openings and jobs after
    /// the batch before's; every game as its own batch plays it): so the executor plays
    /// batches that do not wait for each other at once. None when they differ in anything but
    /// their sides, openings and jobs, or when there are none.
    pub fn merge(batches: &[Batch]) -> Option<Batch> {
        let (first, rest) = batches.split_first()?;
        let shared = |b: &Batch| Batch {
            sides: Vec::new(),
            openings: Vec::new(),
            jobs: Vec::new(),
            ..b.clone()
        };
        let mut out = shared(first);
        if rest.iter().any(|b| shared(b) != out) {
            return None;
        }
        for b in batches {
            let (sides, openings) = (out.sides.len() as u32, out.openings.len() as u32);
            out.jobs.extend(b.jobs.iter().map(|j| {
                let mut j = *j;
                j.black.side += sides;
                j.white.side += sides;
                if let Start::Opening(n) = &mut j.start {
                    *n += openings;
                }
                j
            }));
            out.sides.extend(b.sides.iter().cloned());
            out.openings.extend(b.openings.iter().cloned());
        }
        Some(out)
    }

    /// Checks that every job names a side and an opening of the batch, that a genome's side
    /// has the batch's engine (and a simulator's, that every side is a genome), and that every
    /// opening's moves are legal (a batch from another process).
    pub fn check(&self) -> Result<(), BatchError> {
        self.check_text().map_err(BatchError)
    }

    fn check_text(&self) -> Result<(), String> {
        let n = self.sides.len();
        if let Some(k) = self
            .jobs
            .iter()
            .position(|j| j.black.side as usize >= n || j.white.side as usize >= n)
        {
            return Err(format!("game job {k} names a side beyond the {n} given"));
        }
        if self.engine.is_none() {
            if let Some(k) = self
                .sides
                .iter()
                .position(|e| matches!(e.plays, Plays::Genome(_)))
            {
                return Err(format!("side {k} is a genome, but the batch has no engine"));
            }
        }
        if let Some(spec) = self.engine.as_ref().filter(|e| e.sim_model().is_some()) {
            if let Some(k) = (self.sides.iter()).position(|e| !matches!(e.plays, Plays::Genome(_)))
            {
                return Err(format!(
                    "side {k} is not a genome of {}, which decides every game",
                    spec.engine.name
                ));
            }
        }
        let m = self.openings.len();
        if let Some(k) = self
            .jobs
            .iter()
            .position(|j| matches!(j.start, Start::Opening(o) if o as usize >= m))
        {
            return Err(format!(
                "game job {k} names an opening beyond the {m} given"
            ));
        }
        for (k, o) in self.openings.iter().enumerate() {
            if matches!(o.setup, Start::Opening(_)) {
                return Err(format!("opening {k} starts from another opening"));
            }
            let mut game = o.setup.base(self.rules);
            for mv in &o.moves {
                if !game.legal_moves().contains(mv) {
                    return Err(format!("opening {k} has an illegal move"));
                }
                game.play(*mv);
            }
        }
        Ok(())
    }

    /// The clock a side of the batch plays on (None: to its depth).
    pub fn clock_of(&self, seat: &Seat) -> Option<TimeControl> {
        self.sides.get(seat.side as usize)?.clock
    }

    /// Whether any game of the batch is played on a clock (its games then report their time).
    pub fn timed(&self) -> bool {
        self.sides.iter().any(|e| e.clock.is_some())
    }

    /// What game `job` is played at: each side on its clock (with the batch's margin) or to
    /// its depth, and the batch's adjudication.
    fn table(&self, job: &GameJob) -> Table {
        let clocks = [self.clock_of(&job.black), self.clock_of(&job.white)];
        Table::of(clocks, self.time_margin, self.adjudication)
    }

    /// A game from `start`, its opening's moves played.
    pub fn game(&self, start: &Start) -> Game {
        match *start {
            Start::Opening(k) => match self.openings.get(k as usize) {
                Some(o) => {
                    let mut game = o.setup.base(self.rules);
                    for mv in &o.moves {
                        game.play(*mv);
                    }
                    game
                }
                // Refused by `check`; a batch made here never names a missing opening.
                None => start.base(self.rules),
            },
            s => s.base(self.rules),
        }
    }
}

/// A played game: its result, length and (when the batch asked) its moves, each as its index
/// among the legal moves of the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The result and why the game ended; `None` when it was abandoned (a stopped batch).
    pub result: Option<(GameOutcome, EndReason)>,
    /// Moves played (plies), the opening's included.
    pub plies: u32,
    /// The moves, each as its index among the legal moves where it was played; empty unless the
    /// batch's `record_moves` is set.
    pub moves: Vec<u8>,
    /// In a batch with a clock: what Black's and White's searches did.
    pub timing: Option<[SearchStats; 2]>,
    /// What an outside engine that lost the game by a fault said or did ([`Game::note`]).
    #[serde(default)]
    pub note: Option<String>,
}

impl Played {
    /// A finished game of `batch` as its result: its moves when the batch records them, what
    /// an engine that faulted said.
    fn of(batch: &Batch, game: &Game, timing: Option<[SearchStats; 2]>) -> Played {
        Played {
            result: game.result(),
            plies: game.plies() as u32,
            moves: if batch.record_moves {
                move_indices(game)
            } else {
                Vec::new()
            },
            timing,
            note: game.note().map(str::to_string),
        }
    }

    /// The outcome, a game without one (cut short) counting as a draw.
    pub fn outcome(&self) -> GameOutcome {
        self.result.map(|r| r.0).unwrap_or(GameOutcome::Draw)
    }

    /// The whole game again from its job's start (the batch must have recorded the moves),
    /// with its end when the moves alone do not end it: a loss on time, an outside engine's
    /// fault (with what it said), a resignation, an adjudication.
    pub fn replay(&self, batch: &Batch, start: &Start) -> Game {
        let mut game = batch.game(start);
        for m in self.decode(&game) {
            game.play(m);
        }
        match self.result {
            Some((_, EndReason::Time(_))) => {
                game.lose_on_time_noted(self.note.as_deref().unwrap_or(""))
            }
            Some((_, EndReason::Fault(_, f))) => {
                game.forfeit(f, self.note.as_deref().unwrap_or(""))
            }
            Some((_, EndReason::Resigned(_))) => game.resign(),
            Some((_, EndReason::AdjudicatedDraw)) => game.adjudicate(None),
            Some((_, EndReason::AdjudicatedLoss(c))) => game.adjudicate(Some(c)),
            // Its moves ended it (then the same result), or they were not kept.
            Some(result) => game.conclude(result),
            None => {}
        }
        game
    }

    /// The start and the moves of the game [`Played::replay`] gives (its `start()` and
    /// `moves()`) without playing it as a [`Game`]: the moves are decoded as they are
    /// iterated, with no allocation for each (the fit's positions, in one pass).
    pub fn moves_from<'a>(
        &'a self,
        batch: &Batch,
        start: &Start,
    ) -> (Position, impl Iterator<Item = Move> + 'a) {
        let game = batch.game(start);
        let opening = game.moves().to_vec();
        let rest = self.decode(&game);
        (*game.start(), opening.into_iter().chain(rest))
    }

    /// The moves after `game` (the job's start, its opening's moves played), decoded from
    /// their indices; an index out of range ends them.
    fn decode(&self, game: &Game) -> Decode<'_> {
        Decode {
            pos: *game.position(),
            indices: self.moves.get(game.plies()..).unwrap_or_default().iter(),
        }
    }
}

/// Moves from `pos`, each given as its index among the legal moves where it was played,
/// generated into a list on the stack.
struct Decode<'a> {
    pos: Position,
    indices: std::slice::Iter<'a, u8>,
}

impl Iterator for Decode<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let &i = self.indices.next()?;
        let mut list = MoveList::new();
        generate(&self.pos, &mut list);
        match list.as_slice().get(i as usize) {
            Some(&m) => {
                self.pos = self.pos.play(&m);
                Some(m)
            }
            None => {
                self.indices = Default::default();
                None
            }
        }
    }
}

thread_local! {
    /// Each worker thread keeps its searchers (their tables are large) across games; every game
    /// resets them, so results never depend on which thread ran what.
    static SEARCHERS: std::cell::RefCell<Vec<Searcher>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The most searchers a thread keeps between games (two per search setting in use).
const KEPT_SEARCHERS: usize = 8;

/// Plays one job of `batch` on this thread; None when `stop` says yes before the game starts
/// or, in a batch that abandons its games ([`Batch::abandon`]), before one of its moves.
pub fn play_job(batch: &Batch, job: &GameJob, stop: &dyn Fn() -> bool) -> Option<Played> {
    if stop() {
        return None;
    }
    let mut rng = derive(batch.seed, job.purpose, job.round, job.index);
    let side_of = |seat: &Seat| &batch.sides[seat.side as usize];
    // The tuning simulator: the game decided by its model, from the game's own generator.
    if let Some(spec) = &batch.engine {
        if let Some(model) = spec.sim_model() {
            let values = |seat: &Seat| spec.values(&side_of(seat).genome_of(spec));
            let (b, w) = (values(&job.black), values(&job.white));
            let (outcome, reason, plies) = model.play(&b, &w, &mut rng);
            return Some(Played {
                result: Some((outcome, reason)),
                plies,
                moves: Vec::new(),
                timing: None,
                note: None,
            });
        }
    }
    let table = batch.table(job);
    let timed = table.clocks.iter().any(Option::is_some);
    let side =
        |seat: &Seat| side_of(seat).player(batch.engine.as_ref(), batch.first_ties, searcher);
    let (mut sb, mut sw) = (side(&job.black), side(&job.white));
    let mut game = batch.game(&job.start);
    let stats = play_game(
        &mut game,
        [&mut sb, &mut sw],
        &table,
        &mut rng,
        within(batch, stop),
        &mut |_| {},
    );
    let (finished, timing) = (stats.is_some(), if timed { stats } else { None });
    SEARCHERS.with(|cell| {
        let mut kept = cell.borrow_mut();
        for p in [sb, sw] {
            if let SidePlayer::Ours(s) = p {
                kept.push(*s);
            }
        }
        let n = kept.len();
        kept.drain(..n.saturating_sub(KEPT_SEARCHERS));
    });
    finished.then(|| Played::of(batch, &game, timing))
}

/// What a game of `batch` asks before each move: `stop` when the batch abandons its games
/// under way ([`Batch::abandon`]), else never (a game started is played out).
fn within<'a>(batch: &Batch, stop: &'a dyn Fn() -> bool) -> &'a dyn Fn() -> bool {
    if batch.abandon {
        stop
    } else {
        &|| false
    }
}

/// What the games of a batch with a clock did with it: their sides' searches and the games
/// lost on time.
pub fn time_use(played: &[Played]) -> TimeUse {
    let mut t = TimeUse::default();
    for p in played {
        let lost = matches!(p.result, Some((_, EndReason::Time(_))));
        t.add_game(p.timing.as_ref(), lost);
    }
    t
}

/// A searcher with settings `config` from this thread's kept ones, or a new one.
fn searcher(config: SearchConfig) -> Searcher {
    SEARCHERS.with(|cell| {
        let mut kept = cell.borrow_mut();
        match kept.iter().rposition(|s| *s.config() == config) {
            Some(i) => kept.remove(i),
            None => Searcher::new(Weights::zero(), config),
        }
    })
}

/// Each move of `game` (from its start) as its index among the legal moves where it was played.
fn move_indices(game: &Game) -> Vec<u8> {
    let mut pos = *game.start();
    let mut list = MoveList::new();
    let mut out = Vec::with_capacity(game.plies());
    for m in game.moves() {
        generate(&pos, &mut list);
        let i = list
            .iter()
            .position(|x| x == m)
            .expect("a played move is legal");
        out.push(i as u8);
        pos = pos.play(m);
    }
    out
}

/// Plays jobs `range` of `batch` on the current rayon pool in job order: every thread takes
/// the next job not started (games differ in length by ten times), so games end about in job
/// order and a match's SPRT, which counts them in that order, stops near the games under way.
/// `stop` is asked before each game (and before each move in a batch that abandons its games);
/// once it says yes no further game starts. `on_done(k, played)` is called as job `k`
/// finishes. The result of each job of the range, None for one not played to its end.
pub fn play_range(
    batch: &Batch,
    range: std::ops::Range<usize>,
    on_done: &(dyn Fn(usize, &Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Vec<Option<Played>> {
    let jobs = batch.jobs.get(range.clone()).unwrap_or_default();
    // An outside engine's idle processes are kept for the batch's next games at least.
    let outside = batch.engine.is_some()
        || batch
            .sides
            .iter()
            .any(|e| matches!(e.plays, Plays::Outside(_)));
    let _engines = outside.then(lease_engines);
    let slots: Vec<OnceLock<Played>> = jobs.iter().map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    let threads = rayon::current_num_threads();
    // The schedule log's record of the batch (None, and nothing timed, unless one is open).
    let log = schedule::batch(phase_of(jobs), jobs.len(), threads);
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(i) else {
            return;
        };
        let began = log.as_ref().map(|_| Instant::now());
        let played = play_job(batch, job, stop);
        // The job's time includes what `on_done` does with its result on this thread.
        if let Some(p) = &played {
            on_done(range.start + i, p);
        }
        if let (Some(log), Some(t)) = (&log, began) {
            log.job(range.start + i, t);
        }
        let Some(p) = played else {
            return;
        };
        let _ = slots[i].set(p);
    };
    rayon::scope(|s| {
        for _ in 0..threads.min(jobs.len()) {
            s.spawn(|_| worker());
        }
    });
    if let Some(log) = log {
        log.end();
    }
    slots.into_iter().map(OnceLock::into_inner).collect()
}

/// The schedule log's phase of a batch of `jobs` when none is named: what its first job is for.
pub(crate) fn phase_of(jobs: &[GameJob]) -> &'static str {
    jobs.first().map_or("match", |j| j.purpose.phase())
}

/// Plays the jobs on the current rayon pool ([`play_range`] of them all): the results, or
/// `None` once `stop` said yes before a game.
pub fn play_local(
    batch: &Batch,
    on_done: &(dyn Fn(usize, &Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<Played>> {
    play_range(batch, 0..batch.jobs.len(), on_done, stop)
        .into_iter()
        .collect()
}

/// Something that plays batches: results in job order, the same as [`play_local`]'s.
pub trait Executor: Send + Sync {
    /// Plays `batch`: calls `on_done(index, played)` as each game ends, asks `stop` before each
    /// game, and returns every result in job order, or `None` once `stop` said yes.
    fn run(
        &self,
        batch: &Batch,
        on_done: &(dyn Fn(usize, &Played) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Vec<Played>>;
}

static EXECUTOR: OnceLock<Box<dyn Executor>> = OnceLock::new();

/// Makes [`run`] use `e` for the rest of the process (once; false when one was set already).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by the MPI executor
pub fn set_executor(e: Box<dyn Executor>) -> bool {
    EXECUTOR.set(e).is_ok()
}

/// Plays a batch: on the current rayon pool ([`play_local`]), or with the executor set by
/// [`set_executor`] (the ranks of an MPI job). `on_done(k, played)` is called (on one thread at
/// a time or several) as job `k` finishes, in about job order; `stop` as [`play_range`] asks it,
/// and the result is `None` once it said yes before a game (every game that finished went
/// through `on_done` all the same: a match counts them from there).
pub fn run(
    batch: &Batch,
    on_done: &(dyn Fn(usize, &Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<Played>> {
    if batch.jobs.is_empty() {
        return Some(Vec::new());
    }
    match EXECUTOR.get() {
        Some(e) => e.run(batch, on_done, stop),
        None => play_local(batch, on_done, stop),
    }
}

/// Has an executor other than the local pool been set ([`set_executor`]: the ranks of an MPI
/// job)? Batches are then played one at a time through [`run`] (a tuner's batches in flight
/// merged into one, `crate::flight`).
pub fn remote() -> bool {
    EXECUTOR.get().is_some()
}

#[cfg(test)]
#[path = "jobs_tests.rs"]
mod tests;
