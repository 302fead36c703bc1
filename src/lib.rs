//! checkers-ga: an English draughts (American checkers) engine whose evaluation weights are
//! evolved by a genetic algorithm.
//!
//! The repository's docs/ describe the rules as implemented (`rules.md`), the parameters
//! (`parameters.md`), the genetic algorithm (`ga.md`) and every file format (`formats.md`).
//!
//! The crate is layered, each module depending only on those before it:
//! [`board`] (bitboards, positions, moves) -> [`movegen`] (legal moves, perft) -> [`notation`]
//! (FEN, move text) -> [`eval`] (the 60 parameters, [`Weights`]) and [`weights`] (weight files)
//! -> [`yardstick`] (the fixed hand-written evaluations `hand` and `classic`, and [`Evaluator`]:
//! weights or a yardstick) -> [`search`] (alpha-beta; iterative deepening against a time
//! budget) -> [`clock`] (time controls) -> [`game`] (draw rules, PDN, games with a clock) ->
//! [`openings`] (ballot, opening files) -> [`jobs`] (lists of games played on a rayon pool, or
//! on the ranks of an MPI job, results in job order) -> [`matchplay`] (matches, Elo, SPRT) ->
//! [`tournament`] (a generation's games) -> [`ga`] (sessions: selection, crossover, mutation) ->
//! [`store`] (atomic files, checkpoints; [`lock`]: one process per session folder) ->
//! [`formats`] (reading and writing weight files, exports) -> [`report`] (tables, charts).
//! [`rng`] derives every seeded generator; [`bench`] holds the benchmark workloads; [`cluster`]
//! (feature `mpi`) spreads the jobs over an MPI job. The `checkers-ga` binary only parses
//! arguments and prints.
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
//!
//! A search with weights, and a whole game between two engines from a ballot opening:
//!
//! ```
//! use checkers_ga::game::{DrawRules, Game};
//! use checkers_ga::openings::ballot;
//! use checkers_ga::rng::{derive, Purpose};
//! use checkers_ga::search::{SearchConfig, Searcher};
//! use checkers_ga::{parse_weights, Position};
//!
//! let material = parse_weights(include_str!("../weights/material.json")).unwrap();
//! let mut black = Searcher::new(material, SearchConfig::with_depth(3));
//! let mut white = Searcher::new(material, SearchConfig::with_depth(3));
//! let mut game = Game::new(Position::start(), DrawRules::default());
//! for m in &ballot()[4].moves {
//!     game.play(*m); // "Dreaded Edinburgh": 9-13 22-18 6-9
//! }
//! let mut rng = derive(1, Purpose::Game, 0, 0);
//! game.play_out(&mut black, &mut white, &mut rng);
//! assert!(game.result().is_some());
//! ```

pub mod bench;
pub mod board;
pub mod clock;
pub mod cluster;
pub mod eval;
pub mod formats;
pub mod ga;
pub mod game;
pub mod jobs;
pub mod lock;
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
pub mod yardstick;

pub use board::{Bitboard, Color, Move, MoveList, Position};
pub use eval::{evaluate, features, Param, Weights, NUM_PARAMS, PARAMS};
pub use movegen::{generate, has_capture, legal_moves, perft, perft_divide};
pub use notation::{parse_fen, parse_move, parse_square, to_fen, ParseError};
pub use weights::{load_weights, parse_weights, save_weights, WeightsError};
pub use yardstick::Evaluator;
