//! checkers-ga: an English draughts (American checkers) engine whose evaluation weights are
//! evolved by a genetic algorithm.
//!
//! The crate is layered, each module depending only on those above it in this list:
//! [`board`] (bitboards, positions, moves) -> [`movegen`] (legal moves, perft) -> [`notation`]
//! (FEN, move text).
//!
//! ```
//! use checkers_ga::{perft, Position};
//! assert_eq!(perft(&Position::start(), 3), 302);
//! ```
//!
//! ```
//! use checkers_ga::{legal_moves, parse_fen, to_fen};
//! let pos = parse_fen("B:W9,10,17,18:BK15").unwrap();
//! // A king loop: two jump paths take the same four pieces, so they are two moves.
//! assert_eq!(legal_moves(&pos).len(), 2);
//! assert_eq!(to_fen(&pos), "B:W9,10,17,18:BK15");
//! ```

pub mod bench;
pub mod board;
pub mod eval;
pub mod ga;
pub mod game;
pub mod matchplay;
pub mod movegen;
pub mod notation;
pub mod openings;
pub mod report;
pub mod rng;
pub mod search;
pub mod store;
pub mod tournament;
pub mod weights;

pub use board::{Bitboard, Color, Move, MoveList, Position};
pub use eval::{evaluate, features, Param, Weights, NUM_PARAMS, PARAMS};
pub use movegen::{generate, has_capture, legal_moves, perft, perft_divide};
pub use notation::{parse_fen, parse_move, parse_square, to_fen, ParseError};
pub use weights::{load_weights, parse_weights, save_weights, WeightsError};
