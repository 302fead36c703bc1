//! Fixed-depth alpha-beta (negamax) search with an [`Evaluator`] at the leaves: a weight vector
//! (the weighted sum of its parameters) or a yardstick; and the same search by iterative
//! deepening against a time budget ([`Searcher::choose_timed`], for games with a clock).
//!
//! * Values are from the point of view of the searching player (the root side): leaves are
//!   evaluated for that player with its evaluator, and negated at the opponent's nodes.
//! * A side to move with no legal move has lost: `-(WIN - ply)`, beyond any evaluation, so a
//!   faster win scores higher and a slower loss less badly.
//! * Settings (defaults in [`SearchConfig::default`]): the capture extension keeps searching at
//!   the horizon while the side to move must capture (quiescence for a game where captures are
//!   forced); the transposition table caches results by position hash. A table entry is used for
//!   its value only at exactly the remaining depth it was searched with, so alpha-beta with the
//!   table returns exactly the plain minimax value (a tested property); any entry still gives
//!   its best move to the move ordering.
//! * Move ordering: table move, then moves that crown, then killer moves, then history scores.
//! * Reductions and pruning ([`SearchParams`], not part of the settings that checkpoints
//!   hold): late-move reductions, aspiration windows at the root of a timed search and futility
//!   pruning near the horizon, each off at its neutral value. A searcher given none
//!   ([`Searcher::with_params`]) searches a fixed depth with [`SearchParams::NEUTRAL`], the
//!   plain alpha-beta above (node for node, a tested property), and on a clock with the tuned
//!   [`SearchParams::DEFAULT`].
//! * Among root moves of equal best value one is picked uniformly at random with the caller's
//!   generator, as the original tool did.
//! * A timed search deepens one ply at a time up to the configured depth (its maximum) while
//!   the budget lasts: depth 1 always completes; deeper, the clock is read every
//!   [`CLOCK_CHECK_NODES`] nodes, and an iteration cut short by the deadline is thrown away
//!   (the table entries of the subtrees it finished remain, for move ordering), so the move
//!   played is that of the last completed iteration. The fixed-depth search does not read the
//!   clock and is unchanged by it (a separate instance of the same code).
//!
//! Files, bottom up: `table`, `leaf`, `order`, `minimax`, `params`, `root`.
//! - `table`: the transposition table's entries.
//! - `leaf`: the leaf evaluation, one type per kind of evaluator.
//! - `order`: move ordering.
//! - `minimax`: plain minimax, the reference.
//! - `params`: the tunable constants of reductions and pruning.
//! - `root`: a pass over the root moves, and aspiration windows around it.
//!
//! # Example
//!
//! ```
//! use checkers_ga::Position;
//! use checkers_ga::material;
//! use checkers_ga::legal_moves;
//! use checkers_ga::{derive, Purpose};
//! use checkers_ga::{SearchConfig, Searcher};
//!
//! let start = Position::start();
//! let mut searcher = Searcher::new(material(), SearchConfig::with_depth(3));
//! let mut rng = derive(1, Purpose::Game, 0, 0); // breaks ties between equal moves
//! let found = searcher.choose(&start, &mut rng);
//! let best = found.best.unwrap();
//! assert!(legal_moves(&start).iter().any(|m| *m == best));
//! assert_eq!(found.depth, 3);
//! ```

mod leaf;
mod minimax;
mod order;
mod params;
mod root;
mod table;

pub use minimax::{minimax, minimax_from, minimax_with};
pub use params::{ParamSpec, SearchParams};

use crate::board::{Color, Move, MoveList, Position};
use crate::eval::{Accumulator, Simd};
use crate::movegen::{capture_and_any_move, generate, has_any_move};
use crate::yardstick::Evaluator;
use leaf::{BoardLeaf, ClassicLeaf, HandLeaf, Leaf, WeightedLeaf};
use root::RootPass;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::{from_tt, to_tt, Bound, TtEntry, EMPTY_ENTRY};

/// The score of a won position at the root (a win at ply `p` scores `WIN - p`).
pub const WIN: i32 = 1_500_000_000;
const _: () = assert!(
    WIN - 10_000 > crate::eval::MAX_EVAL,
    "wins must lie beyond evaluations"
);
const INF: i32 = WIN + 1;
/// Scores beyond this are wins or losses, not evaluations.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SearchConfig {
    /// Plies searched before the leaves are evaluated.
    pub depth: u32,
    /// Keep searching at the horizon while the side to move has a capture.
    pub capture_extension: bool,
    /// Transposition table size as a power of two of entries (0 = no table; at most
    /// `MAX_TT_LOG2`).
    pub tt_log2: u8,
}

/// The deepest search any command accepts (depths are 1..=MAX_DEPTH).
pub const MAX_DEPTH: u32 = 30;

/// A search depth out of 1..=[`MAX_DEPTH`]; `what` names it (`--depth`, `depth`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {depth} must be 1..{MAX_DEPTH}")]
pub struct DepthError {
    /// The name of the setting given (`--depth`, `depth`).
    pub what: String,
    /// The depth given.
    pub depth: u32,
}

/// Checks a search depth given by a user.
pub fn check_depth(depth: u32, what: &str) -> Result<u32, DepthError> {
    if (1..=MAX_DEPTH).contains(&depth) {
        Ok(depth)
    } else {
        Err(DepthError {
            what: what.to_string(),
            depth,
        })
    }
}

/// The largest transposition table, as a power of two of entries: 2^20 entries (16 MiB), what
/// `play` uses. Sessions use 2^14 per searcher.
pub const MAX_TT_LOG2: u8 = 20;

impl Default for SearchConfig {
    /// Depth 4, capture extension on, a table of 2^16 entries (1 MiB).
    fn default() -> Self {
        SearchConfig {
            depth: 4,
            capture_extension: true,
            tt_log2: 16,
        }
    }
}

impl SearchConfig {
    /// The default settings searching `depth` plies.
    pub fn with_depth(depth: u32) -> SearchConfig {
        SearchConfig {
            depth,
            ..SearchConfig::default()
        }
    }
}

/// Result of a root search.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult {
    /// The chosen move (None when the side to move has no legal move).
    pub best: Option<Move>,
    /// Value of the chosen move for the searching player (None when it was forced and not searched).
    pub value: Option<i32>,
    /// Nodes visited by this search.
    pub nodes: u64,
    /// The depth the move was chosen at: the configured depth, or in a timed search the depth
    /// of the last completed iteration (0 when the move was forced and not searched).
    pub depth: u32,
}

/// The deepest a timed search goes: its maximum depth when none is given.
pub const MAX_TIMED_DEPTH: u32 = 64;

/// A timed search reads the clock once every this many nodes (a power of two): about a tenth
/// of a millisecond of search.
pub const CLOCK_CHECK_NODES: u64 = 1024;

/// What one man is worth in the evaluator's values when the searcher is not told
/// ([`Searcher::set_man_value`]).
const DEFAULT_MAN: i32 = 100;

/// The deepest line a search follows (plies from the root).
const MAX_PLY: usize = 128;

/// A searcher for one player: its evaluator, settings, table and statistics.
pub struct Searcher {
    /// The evaluator, held once (a weighted one is 4.5 KB): the leaves read its weights here.
    eval: Evaluator,
    /// The network's dot products, chosen for the CPU when the searcher is made.
    simd: Simd,
    config: SearchConfig,
    tt: Vec<TtEntry>,
    epoch: u8,
    killers: [[Move; 2]; MAX_PLY],
    history: [[u32; 32]; 32],
    /// Nodes visited since the searcher was made.
    pub nodes: u64,
    player: Color,
    /// The deadline of the timed search under way.
    deadline: Instant,
    /// Set once a timed search passed its deadline: every node returns at once.
    stopped: bool,
    /// Stops a timed or abortable search from outside (another thread), read where the clock
    /// is read ([`Self::set_abort`]).
    abort: Option<Arc<AtomicBool>>,
    /// Ties among the best root moves go to the first in generation order, not to the
    /// generator ([`Searcher::set_first_ties`]).
    first_ties: bool,
    /// A board network's units' sums of the position at each ply of the line being searched
    /// (unused by other evaluators).
    acc: Box<[Accumulator; MAX_PLY]>,
    /// The reductions and pruning given ([`Self::with_params`]); None: neutral at a fixed
    /// depth, the tuned defaults on a clock.
    params: Option<SearchParams>,
    /// Those of the search under way.
    active: SearchParams,
    /// What one man is worth in the evaluator's values ([`Self::set_man_value`]): the unit of
    /// the margins of `params`, which are in hundredths of a man.
    man: i32,
    /// The aspiration window and futility margin of the search under way, in the evaluator's
    /// values (0: off).
    aspiration_units: i32,
    futility_units: i32,
}

impl Searcher {
    /// A searcher with an evaluator (or weights, which make a weighted one).
    pub fn new(eval: impl Into<Evaluator>, config: SearchConfig) -> Searcher {
        let tt = if config.tt_log2 > 0 {
            vec![EMPTY_ENTRY; 1usize << config.tt_log2.min(MAX_TT_LOG2)]
        } else {
            Vec::new()
        };
        Searcher {
            eval: eval.into(),
            simd: Simd::detect(),
            config,
            tt,
            epoch: 1,
            killers: [[Move::default(); 2]; MAX_PLY],
            history: [[0; 32]; 32],
            nodes: 0,
            player: Color::Black,
            deadline: Instant::now(),
            stopped: false,
            abort: None,
            first_ties: false,
            acc: Box::new(
                [Accumulator {
                    sums: [0; crate::eval::MAX_HIDDEN],
                }; MAX_PLY],
            ),
            params: None,
            active: SearchParams::NEUTRAL,
            man: DEFAULT_MAN,
            aspiration_units: 0,
            futility_units: 0,
        }
    }

    /// What one man is worth in the evaluator's values (its `man_value`, which the search
    /// layer cannot measure): the unit of the margins of [`SearchParams`] (hundredths of a
    /// man). None, or a searcher never told: 100, a man's worth in `material` and the
    /// yardsticks. Keep it with the evaluator: [`Self::reset`] does not change it.
    pub fn set_man_value(&mut self, man: Option<i32>) {
        self.man = man.unwrap_or(DEFAULT_MAN).max(1);
    }

    /// The searcher with reductions and pruning `params` in every search, fixed-depth and
    /// timed alike ([`Self::set_params`]).
    pub fn with_params(mut self, params: SearchParams) -> Searcher {
        self.set_params(Some(params));
        self
    }

    /// The reductions and pruning of every search from now on; None (a new searcher's):
    /// [`SearchParams::NEUTRAL`] at a fixed depth ([`Self::choose`], [`Self::value`],
    /// [`Self::choose_abortable`]), [`SearchParams::DEFAULT`] on a clock
    /// ([`Self::choose_timed`]).
    pub fn set_params(&mut self, params: Option<SearchParams>) {
        self.params = params;
    }

    /// The reductions and pruning given ([`Self::set_params`]).
    pub fn params(&self) -> Option<SearchParams> {
        self.params
    }

    /// Makes the reductions and pruning of a fixed-depth search (`timed` false) or a timed one
    /// those of the search that starts.
    fn activate(&mut self, timed: bool) {
        self.active = match (self.params, timed) {
            (Some(p), _) => p,
            (None, false) => SearchParams::NEUTRAL,
            (None, true) => SearchParams::DEFAULT,
        };
        self.aspiration_units = self.active.units(self.active.aspiration, self.man);
        self.futility_units = self.active.units(self.active.futility, self.man);
    }

    /// A flag another thread sets to stop this searcher's timed searches
    /// ([`Self::choose_timed`]) and abortable ones ([`Self::choose_abortable`]) as if their
    /// time were up: read where the clock is read, every `CLOCK_CHECK_NODES` nodes. The
    /// fixed-depth [`Self::choose`] never reads it (nor the clock). The searcher never clears
    /// the flag; the caller does before the next search.
    pub fn set_abort(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.abort = flag;
    }

    /// Whether the time is up or the abort flag is set (the timed search's check).
    #[inline]
    fn out_of_time(&self) -> bool {
        Instant::now() >= self.deadline
            || self
                .abort
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// With `true`, ties among the best root moves go to the first of them in generation order
    /// and the generator passed to [`Self::choose`] is not used: the same position and history
    /// give the same move in any process (a match against an outside engine playing this
    /// searcher, compared with the same match in-process). The default breaks ties at random.
    pub fn set_first_ties(&mut self, first: bool) {
        self.first_ties = first;
    }

    /// Whether ties go to the first best move ([`Self::set_first_ties`]).
    pub fn first_ties(&self) -> bool {
        self.first_ties
    }

    /// The search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// What the leaves are evaluated with.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// A new evaluator (or weights), and a fresh start (for a new game). The evaluator is
    /// copied once, into the searcher.
    #[inline]
    pub fn reset(&mut self, eval: impl Into<Evaluator>) {
        self.eval = eval.into();
        self.clear();
    }

    /// Forgets the table, killers and history (for a new game).
    pub fn clear(&mut self) {
        self.new_epoch();
        self.killers = [[Move::default(); 2]; MAX_PLY];
        self.history = [[0; 32]; 32];
    }

    /// Minimax value of `pos` for the side to move, searched to the configured depth.
    pub fn value(&mut self, pos: &Position) -> i32 {
        self.activate(false);
        self.set_player(pos.side_to_move());
        self.search::<false>(pos, self.config.depth, 0, -INF, INF)
    }

    fn set_player(&mut self, p: Color) {
        if p != self.player {
            // Values in the table are relative to the player the evaluation is made for.
            self.player = p;
            self.new_epoch();
        }
    }

    /// Chooses a move for the side to move. A single legal move is played without searching.
    pub fn choose<R: rand::Rng + ?Sized>(&mut self, pos: &Position, rng: &mut R) -> SearchResult {
        let start_nodes = self.nodes;
        let mut list = match moves_to_search(pos) {
            Ok(list) => list,
            Err(only) => return only,
        };
        let (best, value) = self.root(pos, &mut list, rng);
        SearchResult {
            best: Some(best),
            value: Some(value),
            nodes: self.nodes - start_nodes,
            depth: self.config.depth.max(1),
        }
    }

    /// [`Self::choose`] that the abort flag ([`Self::set_abort`]) can stop: when it finishes,
    /// the same move, value, depth and node count as [`Self::choose`] (the clock-reading
    /// instance of the same search, with no deadline); None when the flag stopped it first.
    pub fn choose_abortable<R: rand::Rng + ?Sized>(
        &mut self,
        pos: &Position,
        rng: &mut R,
    ) -> Option<SearchResult> {
        let start_nodes = self.nodes;
        let mut list = match moves_to_search(pos) {
            Ok(list) => list,
            Err(only) => return Some(only),
        };
        let now = Instant::now();
        self.deadline = [365 * 86_400, 86_400, 3_600]
            .iter()
            .find_map(|&s| now.checked_add(Duration::from_secs(s)))
            .unwrap_or(now);
        self.stopped = false;
        self.activate(false);
        let generated = self.root_moves(pos, &mut list);
        let depth = self.config.depth.max(1);
        let pass = self.root_pass(pos, list.as_slice(), depth, true, (-INF, INF));
        self.stopped = false;
        let pass = pass?;
        let value = pass.best;
        Some(SearchResult {
            best: Some(pass.pick(&generated, rng, self.first_ties)),
            value: Some(value),
            nodes: self.nodes - start_nodes,
            depth,
        })
    }

    /// Chooses a move by iterative deepening within `budget`: depths 1, 2, ... up to the
    /// configured depth (at most [`MAX_TIMED_DEPTH`]), each iteration's root moves ordered by
    /// the values of the one before. Depth 1 always completes, however short the budget; an
    /// iteration the deadline cuts short is discarded; no iteration starts once half the
    /// budget is spent (it would hardly finish), nor after one finds a forced win. Ties among
    /// the best moves of the last completed iteration are broken with `rng` as in
    /// [`Self::choose`]. A single legal move is played without searching. Not reproducible:
    /// how deep it gets depends on the machine and its load.
    pub fn choose_timed<R: rand::Rng + ?Sized>(
        &mut self,
        pos: &Position,
        rng: &mut R,
        budget: Duration,
    ) -> SearchResult {
        self.choose_timed_reporting(pos, rng, budget, &mut |_| {})
    }

    /// [`Self::choose_timed`], telling `report` after every completed iteration what it found:
    /// its depth, value, the nodes so far and its best move (the first of the best in
    /// generation order: the generator is not used for reports, so the move finally chosen
    /// is the same as without them).
    pub fn choose_timed_reporting<R: rand::Rng + ?Sized>(
        &mut self,
        pos: &Position,
        rng: &mut R,
        budget: Duration,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let start = Instant::now();
        let start_nodes = self.nodes;
        let mut list = match moves_to_search(pos) {
            Ok(list) => list,
            Err(only) => return only,
        };
        self.deadline = start.checked_add(budget).unwrap_or(start);
        self.stopped = false;
        self.activate(true);
        let generated = self.root_moves(pos, &mut list);
        let mut moves: Vec<Move> = list.as_slice().to_vec();
        let max_depth = self.config.depth.clamp(1, MAX_TIMED_DEPTH);
        // The last whole iteration and its depth.
        let mut done: Option<(RootPass, u32)> = None;
        for depth in 1..=max_depth {
            // Depth 1 does not look at the clock (nor has a previous value to aspire to).
            let last = done.as_ref().map(|(p, _)| p.best);
            let Some(pass) = self.aspiring_pass(pos, &moves, depth, last) else {
                break;
            };
            let best = pass.best;
            // The next iteration searches the best moves first (the others' values are upper
            // bounds, still the best guess of their order).
            let mut order: Vec<(i32, Move)> = pass.values.iter().copied().zip(moves).collect();
            order.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
            moves = order.into_iter().map(|(_, m)| m).collect();
            let shown = generated.iter().find(|g| pass.ties.contains(g)).copied();
            report(&SearchResult {
                best: shown,
                value: Some(best),
                nodes: self.nodes - start_nodes,
                depth,
            });
            done = Some((pass, depth));
            if best > WIN_BOUND || start.elapsed() * 2 >= budget {
                break;
            }
        }
        self.stopped = false;
        let (pass, depth) = done.expect("depth 1 never looks at the clock");
        SearchResult {
            value: Some(pass.best),
            best: Some(pass.pick(&generated, rng, self.first_ties)),
            nodes: self.nodes - start_nodes,
            depth,
        }
    }

    fn root<R: rand::Rng + ?Sized>(
        &mut self,
        pos: &Position,
        list: &mut MoveList,
        rng: &mut R,
    ) -> (Move, i32) {
        self.activate(false);
        let generated = self.root_moves(pos, list);
        let depth = self.config.depth.max(1);
        let pass = self
            .root_pass(pos, list.as_slice(), depth, false, (-INF, INF))
            .expect("an untimed search is never stopped");
        let best = pass.best;
        (pass.pick(&generated, rng, self.first_ties), best)
    }

    /// Starts a search at the root `pos`: its player set, the root counted as a node, `list`
    /// ordered for searching. The moves in their generation order, which breaks ties, so the
    /// choice does not depend on what the killers and history (which order the search) remember
    /// from earlier searches.
    fn root_moves(&mut self, pos: &Position, list: &mut MoveList) -> Vec<Move> {
        self.set_player(pos.side_to_move());
        self.nodes += 1;
        let generated = list.as_slice().to_vec();
        self.order(pos, list, 0);
        generated
    }

    #[inline]
    fn leaf<L: Leaf>(&self, pos: &Position, ply: u32) -> i32 {
        let v = L::evaluate(self, pos, ply);
        if pos.side_to_move() == self.player {
            v
        } else {
            -v
        }
    }

    fn new_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: old entries could look current again, so wipe them once every 255 clears.
            self.tt.iter_mut().for_each(|e| *e = EMPTY_ENTRY);
            self.epoch = 1;
        }
    }

    /// The expected line after `first` from `pos`: `first`, then the table's best move of each
    /// position reached (the legal move with that origin and destination, the first in
    /// generation order), while the table knows the position and the line does not repeat;
    /// at most `max` moves. A guess for display (the table may have lost entries), never
    /// searched. The table's entries are for the player of the last search.
    pub fn principal_variation(&self, pos: &Position, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut seen = vec![pos.hash()];
        let mut p = pos.play(&first);
        while line.len() < max && !self.tt.is_empty() && !seen.contains(&p.hash()) {
            let e = self.tt[self.tt_index(p.hash())];
            if e.key != p.hash() || e.epoch != self.epoch {
                break;
            }
            let mut list = MoveList::new();
            generate(&p, &mut list);
            let Some(m) = list
                .iter()
                .find(|m| m.from() == e.best_from && m.to() == e.best_to)
                .copied()
            else {
                break;
            };
            seen.push(p.hash());
            line.push(m);
            p = p.play(&m);
        }
        line
    }

    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    /// [`Self::negamax`] compiled for this searcher's evaluator: the choice is made once per
    /// call here, not at every leaf. `TIMED`: the instance that reads the clock.
    fn search<const TIMED: bool>(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match &self.eval {
            Evaluator::Weighted(w) if w.set().is_board() => {
                self.acc[ply as usize] =
                    Accumulator::new(pos, self.player, w.values(), w.set().hidden());
                self.negamax::<BoardLeaf, TIMED>(pos, depth, ply, alpha, beta)
            }
            Evaluator::Weighted(_) => {
                self.negamax::<WeightedLeaf, TIMED>(pos, depth, ply, alpha, beta)
            }
            Evaluator::Hand => self.negamax::<HandLeaf, TIMED>(pos, depth, ply, alpha, beta),
            Evaluator::Classic => self.negamax::<ClassicLeaf, TIMED>(pos, depth, ply, alpha, beta),
        }
    }

    /// The alpha-beta value of `pos`. With `TIMED`, the clock is read every
    /// [`CLOCK_CHECK_NODES`] nodes; past the deadline `stopped` is set and every node returns
    /// 0 at once without touching the table, killers or history (the caller discards the
    /// iteration).
    fn negamax<L: Leaf, const TIMED: bool>(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if TIMED {
            if self.nodes & (CLOCK_CHECK_NODES - 1) == 0 && self.out_of_time() {
                self.stopped = true;
            }
            if self.stopped {
                return 0;
            }
        }
        if depth == 0 {
            let (capture, any) = capture_and_any_move(pos);
            if !(self.config.capture_extension && capture) {
                if !any {
                    return -(WIN - ply as i32);
                }
                return self.leaf::<L>(pos, ply);
            }
        }
        if ply as usize >= MAX_PLY - 1 {
            return if has_any_move(pos) {
                self.leaf::<L>(pos, ply)
            } else {
                -(WIN - ply as i32)
            };
        }
        // The table first: an exact hit needs no move generation. Entries are only stored for
        // nodes that had moves, so a hit is never a position without moves.
        let key = pos.hash();
        let use_tt = !self.tt.is_empty() && depth > 0;
        let mut tt_move = None;
        if use_tt {
            let e = self.tt[self.tt_index(key)];
            if e.key == key && e.epoch == self.epoch {
                tt_move = Some((e.best_from, e.best_to));
                if e.depth as u32 == depth {
                    let v = from_tt(e.value, ply);
                    let hit = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => v >= beta,
                        Bound::Upper => v <= alpha,
                    };
                    if hit {
                        return v;
                    }
                }
            }
        }
        let mut list = MoveList::new();
        generate(pos, &mut list);
        if list.is_empty() {
            return -(WIN - ply as i32);
        }
        let p = self.active;
        // Captures are forced: a node has only captures or none.
        let quiet = !list[0].is_capture();
        let margin = self.futility_units;
        if margin > 0 && quiet && depth <= p.futility_depth && alpha.abs() < WIN_BOUND {
            let stand = i64::from(self.leaf::<L>(pos, ply));
            let bound = stand + i64::from(margin) * i64::from(depth);
            if bound <= i64::from(alpha) {
                return bound as i32;
            }
        }
        self.order(pos, &mut list, ply as usize);
        if let Some((from, to)) = tt_move {
            if let Some(i) = list.iter().position(|m| m.from() == from && m.to() == to) {
                list.as_mut_slice()[..=i].rotate_right(1);
            }
        }
        let mut a = alpha;
        let mut best = -INF;
        let mut best_move = list[0];
        let next = depth.saturating_sub(1);
        // Late quiet moves may be reduced here (not the first `lmr_moves`, killers or
        // crowning moves).
        let reducing = p.lmr_reduction > 0 && quiet && depth >= p.lmr_depth && next > 0;
        let killers = self.killers[ply as usize];
        for (i, m) in list.iter().enumerate() {
            let child = pos.play(m);
            if L::INCREMENTAL {
                self.board_child(pos, &child, ply as usize);
            }
            let reduce = reducing
                && i as u32 >= p.lmr_moves
                && a.abs() < WIN_BOUND
                && !killers.contains(m)
                && !self.crowns(pos, m);
            let v = if reduce {
                // A null window at the reduced depth: only a move that beats alpha there is
                // searched again in full.
                let r = next.saturating_sub(p.lmr_reduction);
                let v = -self.negamax::<L, TIMED>(&child, r, ply + 1, -a - 1, -a);
                if TIMED && self.stopped {
                    return 0;
                }
                if v > a {
                    -self.negamax::<L, TIMED>(&child, next, ply + 1, -beta, -a)
                } else {
                    v
                }
            } else {
                -self.negamax::<L, TIMED>(&child, next, ply + 1, -beta, -a)
            };
            if TIMED && self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = *m;
                if v > a {
                    a = v;
                    if a >= beta {
                        if !m.is_capture() {
                            let k = &mut self.killers[ply as usize];
                            if k[0] != *m {
                                k[1] = k[0];
                                k[0] = *m;
                            }
                            let h = &mut self.history[m.from() as usize - 1][m.to() as usize - 1];
                            *h = h.saturating_add(depth * depth);
                        }
                        break;
                    }
                }
            }
        }
        if use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let idx = self.tt_index(key);
            self.tt[idx] = TtEntry {
                key,
                value: to_tt(best, ply),
                best_from: best_move.from(),
                best_to: best_move.to(),
                depth: depth.min(255) as u8,
                bound,
                epoch: self.epoch,
            };
        }
        best
    }

    /// The board network's sums of `child`, a move from `parent` at `ply`, into `ply + 1`.
    #[inline(always)]
    fn board_child(&mut self, parent: &Position, child: &Position, ply: usize) {
        if let Evaluator::Weighted(w) = &self.eval {
            let (done, next) = self.acc.split_at_mut(ply + 1);
            next[0] = done[ply];
            next[0].apply(parent, child, self.player, w.values(), w.set().hidden());
        }
    }
}

/// The legal moves of `pos` when there is a choice; with one move or none, the result of a
/// search that plays it (or none) without searching.
fn moves_to_search(pos: &Position) -> Result<MoveList, SearchResult> {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    if list.len() <= 1 {
        return Err(SearchResult {
            best: list.iter().next().copied(),
            value: None,
            nodes: 0,
            depth: 0,
        });
    }
    Ok(list)
}
