//! The engine: the board and its moves, notation, the evaluation and its weights, the
//! hand-written yardsticks, the search, the rules of a whole game, and the openings games start
//! from, and what a man is worth to an evaluation.
//!
//! Files, bottom up: `board`, `movegen`, `notation`, `eval`, `yardstick`, `search`, `game`,
//! `openings`, `man`.
//!
//! - `board`: bitboards, positions, moves; `movegen`: legal moves, perft; `notation`: FEN and
//!   move text.
//! - `eval`: the parameter sets, their values of a position, the weights; `yardstick`: the
//!   evaluations `hand` and `classic`, and the evaluator type.
//! - `search`: alpha-beta with a transposition table; iterative deepening against a time
//!   budget.
//! - `game`: a whole game: draw rules, PDN; `openings`: the ballot, opening books and files;
//!   `man`: what one man is worth to an evaluation, measured over the ballot.

pub(crate) mod board;
pub(crate) mod eval;
pub(crate) mod game;
pub(crate) mod man;
pub(crate) mod movegen;
pub(crate) mod notation;
pub(crate) mod openings;
pub(crate) mod search;
pub(crate) mod yardstick;
