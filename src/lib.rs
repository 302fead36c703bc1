//! checkers-ga: an English draughts (American checkers) engine whose evaluation weights are
//! evolved by a genetic algorithm.
//!
//! The repository's docs/ describe the rules as implemented (`rules.md`), the parameters
//! (`parameters.md`), the genetic algorithm (`ga.md`) and every file format (`formats.md`).
//!
//! # Layers
//!
//! Each module uses only the modules listed before it (a test checks this):
//!
//! 1. [`rng`]: every seeded generator, derived from a seed and the place it is used.
//! 2. [`files`]: file I/O at the bottom: atomic writes (temp name, sync, rename), bounded reads.
//! 3. [`text`]: how figures are written for people: an Elo difference, with its margin.
//! 4. [`chart`]: SVG line charts: ticks, legend, bands (for `history --svg` and the report).
//! 5. [`lock`]: one process per session folder.
//! 6. [`board`]: bitboards, positions, moves.
//! 7. [`movegen`]: legal moves, perft.
//! 8. [`notation`]: FEN, move text.
//! 9. [`eval`]: the parameter sets, their values of a position, [`Weights`].
//! 10. [`yardstick`]: the hand-written evaluations `hand` and `classic`, and [`Evaluator`].
//! 11. [`search`]: alpha-beta with a transposition table; iterative deepening against a time
//!     budget.
//! 12. [`clock`]: time controls: the time a move may take, the clock of a game.
//! 13. [`game`]: a whole game: draw rules, PDN.
//! 14. [`openings`]: the ballot, opening books and files.
//! 15. [`weightfile`]: weight files (JSON and the original text): reading, writing, their origin.
//! 16. [`jobs`]: games as self-contained jobs, played in batches on a rayon pool (or the ranks
//!     of an MPI job), results in job order.
//! 17. [`cluster`]: (feature `mpi`) the jobs spread over an MPI job.
//! 18. [`matchplay`]: matches between two engines, Elo, SPRT.
//! 19. [`tournament`]: a generation's pairings and standings.
//! 20. [`fit`]: weights fitted to game results (logistic regression on played positions).
//! 21. [`ga`]: a session's data and one generation: tournament, duel, selection, crossover,
//!     mutation, measurement.
//! 22. [`store`]: checkpoints and the history file.
//! 23. [`formats`]: reading any weights input, exports.
//! 24. [`summary`]: what `show`, `export` and `history` print: weight tables, the history table and chart.
//! 25. [`html`]: the self-contained HTML report of a session.
//! 26. [`session`]: running a session: start, resume, stop, finish, with an [`session::Observer`].
//! 27. [`bench`]: the benchmark workloads.
//!
//! The `checkers-ga` binary only parses arguments and prints.
//!
//! # Examples
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
//!
//! A three-generation session run through the library: an observer stops it after its first
//! generation, it is resumed from its checkpoint, and it ends where an uninterrupted session
//! of the same seed ends.
//!
//! ```
//! use checkers_ga::ga::Session;
//! use checkers_ga::session::{SessionEnd, NewSession, Observer, Overrides, SessionRun, SessionOptions, Silent};
//! use std::path::Path;
//! use std::sync::atomic::{AtomicBool, Ordering};
//!
//! /// Sets the stop flag once the first checkpoint is written.
//! struct StopAfterOne<'a>(&'a AtomicBool, Vec<u64>);
//! impl Observer for StopAfterOne<'_> {
//!     fn checkpoint_written(&mut self, _: &Path, s: &Session) {
//!         self.1.push(s.generation);
//!         self.0.store(true, Ordering::SeqCst);
//!     }
//! }
//!
//! let small = Overrides {
//!     population: Some(8),
//!     depth: Some(1),
//!     generations: Some(3),
//!     duel_games: Some(2),
//!     measure_every: Some(0),
//!     ..Overrides::default()
//! };
//! let folder = |tag: &str| {
//!     let dir = std::env::temp_dir().join(format!("ckga-doc-{tag}-{}", std::process::id()));
//!     let _ = std::fs::remove_dir_all(&dir);
//!     SessionOptions {
//!         populations: dir.join("populations"),
//!         threads: 2,
//!         ..SessionOptions::default()
//!     }
//! };
//! let spec = NewSession {
//!     name: Some("doc".into()),
//!     seed: Some(5),
//!     settings: small.clone(),
//!     ..NewSession::default()
//! };
//!
//! // Uninterrupted.
//! let whole = folder("whole");
//! let never = AtomicBool::new(false);
//! let run = SessionRun::start(spec.clone(), whole.clone()).unwrap();
//! let done = run.evolve(&mut Silent, &never).unwrap();
//! assert_eq!((done.end, done.generation), (SessionEnd::Finished, 3));
//!
//! // Stopped after generation 1, then resumed.
//! let parts = folder("parts");
//! let stop = AtomicBool::new(false);
//! let mut observer = StopAfterOne(&stop, Vec::new());
//! let first = SessionRun::start(spec, parts.clone()).unwrap().evolve(&mut observer, &stop).unwrap();
//! assert_eq!((first.end, first.generation, observer.1), (SessionEnd::Stopped, 1, vec![1]));
//! let rest = SessionRun::resume(Some("doc"), &Overrides::default(), parts.clone()).unwrap();
//! let last = rest.evolve(&mut Silent, &never).unwrap();
//! assert_eq!((last.end, last.generation), (SessionEnd::Finished, 3));
//!
//! let best = |o: &checkers_ga::session::SessionOutcome| std::fs::read(o.best_weights.as_ref().unwrap());
//! assert_eq!(best(&done).unwrap(), best(&last).unwrap());
//! let load = |p: &Path| {
//!     let mut s = checkers_ga::store::load_checkpoint(p).unwrap();
//!     s.elapsed = 0.0;
//!     s.history.iter_mut().for_each(|h| h.seconds = 0.0);
//!     s
//! };
//! assert_eq!(load(&done.checkpoint), load(&last.checkpoint));
//! # for o in [whole, parts] { let _ = std::fs::remove_dir_all(o.populations.parent().unwrap()); }
//! ```

pub mod bench;
pub mod board;
pub mod chart;
pub mod clock;
pub mod cluster;
pub mod eval;
pub mod files;
pub mod fit;
pub mod formats;
pub mod ga;
pub mod game;
pub mod html;
pub mod jobs;
pub mod lock;
pub mod matchplay;
pub mod movegen;
pub mod notation;
pub mod openings;
pub mod rng;
pub mod search;
pub mod session;
pub mod store;
pub mod summary;
pub mod text;
pub mod tournament;
pub mod weightfile;
pub mod yardstick;

pub use board::{Bitboard, Color, Move, MoveList, Position};
pub use eval::{evaluate, features, Param, Weights, NUM_PARAMS, PARAMS};
pub use movegen::{generate, has_capture, legal_moves, perft, perft_divide};
pub use notation::{parse_fen, parse_move, parse_square, to_fen, ParseError};
pub use weightfile::{load_weights, parse_weights, save_weights, WeightsError};
pub use yardstick::Evaluator;
