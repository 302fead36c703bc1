//! checkers-ga: an English draughts (American checkers) engine whose evaluation weights are
//! evolved by a genetic algorithm.
//!
//! The repository's docs/ describe the rules as implemented (`rules.md`), the parameters
//! (`parameters.md`), the genetic algorithm (`ga.md`) and every file format (`formats.md`).
//!
//! # The API
//!
//! What a library user needs is re-exported at the root, grouped as below (board and rules,
//! evaluation and weights, search and games, sessions, clusters, files); the modules are
//! private but for the namespaces of the files and output a user reads by name: [`store`],
//! [`weightfile`], [`formats`], [`matchplay`], [`play`] (the game loop and its players),
//! [`summary`], [`html`], [`schedule`] (the schedule log), and the [`bench`](mod@bench)
//! workloads. A namespace shows its chosen items at its own path (`matchplay::Wdl`); its files
//! are private, so no item is reached there by two paths.
//!
//! # Layers
//!
//! The modules are folders by job, bottom up; each uses only the modules listed before it, and
//! within a folder each file only those its folder lists before it (a test checks both):
//!
//! 1. `rng`: every seeded generator, derived from a seed and the place it is used.
//! 2. `files`: file I/O at the bottom: atomic writes (temp name, sync, rename), bounded reads.
//! 3. `text`: how figures are written for people: an Elo difference, with its margin.
//! 4. `lock`: one process per session folder.
//! 5. `engine`: the engine: the board, moves, notation, the evaluation and its weights
//!    ([`Weights`]), the yardsticks `hand` and `classic` and [`Evaluator`], the search, the
//!    rules of a whole game ([`Game`]), the ballot and opening books.
//! 6. `hub`: the Hub protocol of draughts engines both ways: our engine served to a Hub
//!    client ([`serve_hub`], `hub/server/`), outside engines driven as processes ([`HubProcess`]).
//! 7. `games`: games as work: clocks; an outside engine's parameters as a genome
//!    ([`EngineSpec`]) and the tuning simulator's synthetic engine `sim:N` ([`SimModel`]); the
//!    one game loop and its players ([`play`]); the [`schedule`] log; games as jobs on a rayon
//!    pool or the ranks of an MPI job; matches, Elo and SPRT ([`matchplay`]); a generation's
//!    tournament.
//! 8. `tuning`: the tuners: the contract they keep ([`Tuner`]: ask for games, be told their
//!    results; [`play_step`]; [`run_steps`]: a tuner's steps, as a stream of the batches it
//!    keeps in flight), the fit (logistic regression on played positions) and its
//!    replay of positions, the genetic algorithm (a session's data and one generation:
//!    tournament, duel, selection, crossover, mutation, the mean, measurement), SPSA
//!    ([`SpsaSettings`], [`spsa()`](fn@spsa), [`SpsaState`]).
//! 9. `output`: files and output: SVG charts, weight files ([`weightfile`]), checkpoints and
//!    the history file ([`store`]), weights inputs and exports ([`formats`]), what `show`,
//!    `export` and `history` print ([`summary`]), the HTML report ([`html`]); the contract of a
//!    tuner whose session is one file ([`store::FileTuner`]) and the list such tuners are
//!    registered in ([`store::one_file_tuners`]).
//! 10. `tuners`: the one-file tuners that are modules of their own, each whole in its folder
//!     (its algorithm, checkpoint and registration), and registered from there: CMA-ES
//!     ([`CmaesState`]). Nothing below names one; everything above reaches them through the
//!     list.
//! 11. `session`: running a session of any tuner: start, resume, stop, finish, with an
//!     [`Observer`]: one [`SessionRun`] for every tuner (the GA and the mean; every one-file
//!     tuner's, of an [`store::AnyTuner`]), playing its tuner's steps in the one loop of file
//!     `steps`.
//! 12. `tuning_sim`: the tuners run on the simulator through their normal code, scored by
//!     regret ([`SimRun`], [`SimSetup`], [`Interval`]).
//! 13. [`bench`](mod@bench): the benchmark workloads.
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
//! use checkers_ga::{ballot, derive, parse_weights, Purpose};
//! use checkers_ga::{DrawRules, Game, Position, SearchConfig, Searcher};
//!
//! let material = parse_weights(include_str!("../weights/material.json")).unwrap();
//! let mut black = Searcher::new(material, SearchConfig::with_depth(3));
//! let mut white = Searcher::new(material, SearchConfig::with_depth(3));
//! let mut game = Game::new(Position::start(), DrawRules::default());
//! for m in &ballot()[4].moves {
//!     game.play(*m); // "Dreaded Edinburgh": 9-13 22-18 6-9
//! }
//! let mut rng = derive(1, Purpose::Game, 0, 0);
//! checkers_ga::play::play_out(&mut game, &mut black, &mut white, &mut rng);
//! assert!(game.result().is_some());
//! ```
//!
//! A three-generation session run through the library: an observer stops it after its first
//! generation, it is resumed from its checkpoint, and it ends where an uninterrupted session
//! of the same seed ends.
//!
//! ```
//! use checkers_ga::{NewSession, Observer, Overrides, GaState, Silent};
//! use checkers_ga::{SessionEnd, SessionOptions, SessionOutcome, SessionRun};
//! use std::path::Path;
//! use std::sync::atomic::{AtomicBool, Ordering};
//!
//! /// Sets the stop flag once the first checkpoint is written.
//! struct StopAfterOne<'a>(&'a AtomicBool, Vec<u64>);
//! impl Observer for StopAfterOne<'_> {
//!     fn checkpoint_written(&mut self, _: &Path, s: &GaState) {
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
//! let mut run = SessionRun::start(spec.clone(), whole.clone()).unwrap();
//! let done = run.run(&mut Silent, &never).unwrap();
//! assert_eq!((done.end, done.steps_done), (SessionEnd::Finished, 3));
//!
//! // Stopped after generation 1, then resumed.
//! let parts = folder("parts");
//! let stop = AtomicBool::new(false);
//! let mut observer = StopAfterOne(&stop, Vec::new());
//! let first = SessionRun::start(spec, parts.clone()).unwrap().run(&mut observer, &stop).unwrap();
//! assert_eq!((first.end, first.steps_done, observer.1), (SessionEnd::Stopped, 1, vec![1]));
//! let mut rest = SessionRun::resume(Some("doc"), &Overrides::default(), parts.clone()).unwrap();
//! let last = rest.run(&mut Silent, &never).unwrap();
//! assert_eq!((last.end, last.steps_done), (SessionEnd::Finished, 3));
//!
//! let best = |o: &SessionOutcome| std::fs::read(o.answer.as_ref().unwrap());
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

#![warn(missing_docs)]

// The public namespaces: the files and printed output a user reads by name (checkpoints and
// history files, weight files, weights inputs and exports, matches, what `show`/`history`
// print, the HTML report, the schedule log) and the benchmark workloads. Everything else is reached through the
// re-exports below.
pub mod bench;
mod engine;
mod files;
mod games;
mod hub;
mod lock;
mod output;
mod rng;
mod session;
mod text;
mod tuners;
mod tuning;
mod tuning_sim;

// Inside the crate, each module by its short name (`crate::board`, `crate::jobs`, ...).
use engine::{board, eval, game, man, movegen, notation, openings, search, yardstick};
use games::{clock, cluster, genome, jobs, side, sim, tournament};
use output::chart;
use tuners::{cmaes, spsa};
use tuning::{fit, flight, ga, replay, signal, tuner};

pub use games::{matchplay, play, schedule};
pub use output::{formats, html, store, summary, weightfile};

// Board and rules.
pub use board::{Bitboard, Color, Move, MoveList, Position, BLACK_CROWN_ROW, WHITE_CROWN_ROW};
pub use clock::{check_margin, check_timeout, LimitError, MAX_MARGIN_MS, MAX_TIMEOUT_S};
pub use clock::{crowd_note, Clock, SearchStats, TimeControl, TimeControlError, TimeUse};
pub use game::{DrawRules, EndReason, EngineFault, Game, GameOutcome, PdnTags};
pub use hub::{hub_move, hub_position, parse_hub_move, parse_hub_position, HubError, HubLine};
pub use hub::{parse_options, split_words};
pub use hub::{serve_hub, tunable_params, HubEngineOptions, LoadEvaluator, NotTunable};
pub use man::{man_median, man_value};
pub use movegen::{generate, has_capture, legal_moves, perft, perft_divide};
pub use notation::{parse_fen, parse_move, parse_square, square_to_coord, to_fen, ParseError};
pub use openings::{ballot, load_openings, OpeningBook, UnknownOpeningBook};
pub use openings::{read_pdn_games, PdnGame, Replayed, StartPosition};

// Evaluation and weights.
pub use eval::{
    all_features, evaluate, evaluate_with, features, king_ending, material, net_len, param_index,
    Param, ParamSet, Simd, UnknownParamSet, Weights, ALL_PARAMS, DEFAULT_HIDDEN, MAX_EVAL,
    MAX_HIDDEN, NUM_ALL, NUM_PARAMS, PARAMS,
};
pub use eval::{
    board_input_name, board_inputs, board_len, evaluate_board, Accumulator, BOARD_INPUTS,
    DEFAULT_BOARD_HIDDEN, TO_MOVE,
};
pub use replay::Replay;
pub use weightfile::{load_weights, parse_weights, save_weights, WeightsError};
pub use yardstick::{classic, hand, Evaluator, CLASSIC};

// Search and games.
pub use jobs::{check_threads, pool_threads, thread_pool, PoolError, ENGINE_GAMES_PER_CORE};
pub use rng::{derive, fresh_seed, Purpose};
pub use search::{
    check_depth, minimax, minimax_from, minimax_with, DepthError, ParamSpec, SearchConfig,
    SearchParams, Searcher, MAX_DEPTH, MAX_TIMED_DEPTH, WIN, WIN_BOUND,
};
pub use text::{count, grouped, per_time, shell_word, short_time, EloFigure, EloMargin};
pub use tournament::Standing;

// Sessions: the settings, the session's data and a generation, running one.
pub use ga::{
    engine_mean_in_flight, measure_match, Duel, GaOptions, GaState, GenerationStats, HallOfFame,
    History, Lineage, Method, Mutation, ParseSettingError, Pending, Selection, Settings,
    SettingsError, Stop, YardstickKind, DEFAULT_DEPTH, DEFAULT_GENERATIONS, MEAN_ALONE,
    MEAN_IN_FLIGHT, MEAN_MAX_IN_FLIGHT, MEAN_WIDE,
};
pub use lock::LOCK_FILE;
pub use session::{
    answers_by_generation, best_path, measure_genomes, write_answer_file, AnswerFileError,
    EngineRequest, EngineRequestError, Entrant, Eta, Finals, FinalsError, FinalsOptions,
    FinalsPlan, NewSession, Observer, Overrides, Pace, PaceClock, PastBests, RunCost, SessionEnd,
    SessionError, SessionOptions, SessionOutcome, SessionRun, SettingChange, Silent, BEST_FILE,
    FINALS_FILE, MAX_ENTRANTS,
};
pub use session::{
    check_free, check_name, engine_tuner, is_bad_input, session_arg, SessionProgress, SessionTuner,
    ShowsProgress, StepReport, TunerProgress,
};
pub use session::{
    evaluator_arg, evaluator_of, CheckedPlayer, GameSide, PlayerError, PlayerRequest, SideRequest,
};
pub use session::{EloError, EloOptions, EloPlan};

// Outside engines (the Hub protocol).
pub use cmaes::{cmaes_in_flight, CmaesDraw, CmaesPoint, CmaesSettings, CmaesState, CmaesStep};
pub use cmaes::{cmaes_path, decode_cmaes, encode_cmaes, is_cmaes, load_cmaes};
pub use cmaes::{CMAES, CMAES_FILE, CMAES_MAGIC, CMAES_VERSION};
pub use cmaes::{
    CMAES_ALONE, CMAES_GROWTH, CMAES_IN_FLIGHT, CMAES_RATE, CMAES_SIGMA, CMAES_SIGNAL,
};
pub use flight::run_steps;
pub use genome::{is_setting, Declared, EngineError, EngineSpec, Tuned, SETTING_NAMES};
pub use hub::{handshake_timeout, misfit, set_handshake_timeout, DEFAULT_HANDSHAKE_TIMEOUT};
pub use hub::{hold_core, pinning, pins, set_pinning, CoreHold};
pub use hub::{kill_all_engines, ClientError, HubLevel, HubParam, HubProcess, HubReply, Program};
pub use signal::{standings_draws, Signal};
pub use sim::{NotASimulator, SimModel, SimPair, SimParam};
pub use sim::{
    DEFAULT_DEFICIT, DEFAULT_MODEL_SEED, DRAW_ELO, MAX_SIM_PARAMS, SATURATION, SIM_PREFIX,
};
pub use spsa::{decode_spsa, encode_spsa, is_spsa, load_spsa, spsa_path};
pub use spsa::{spsa, SpsaError, SpsaPoint, SpsaResult, SpsaSettings, SpsaState, SpsaStep};
pub use spsa::{SPSA, SPSA_FILE, SPSA_MAGIC, SPSA_VERSION};
pub use tuner::{
    advance, history_every, play_step, StepObserver, Tuner, MAX_TUNER_GAMES, TUNER_GAMES,
};
pub use tuning_sim::{
    answer_regret, check_sims, run_sim, run_sims, tuner_chart, Interval, SimError, SimLine,
    SimResult, SimRun, SimSetup, TunerChartError, UnknownTuner,
};

// Clusters (the `mpi` feature; without it a launch is always the first and only process).
pub use cluster::{set_stop_note, ClusterError, Launch};

// Files.
pub use files::{abandon_writes, folder_of, write_atomic, AppendFile};
