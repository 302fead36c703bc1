//! Matches between two engines over an opening book, and the Elo arithmetic engine testers use.
//! Every item is reached here, at `matchplay::` (its files are private):
//!
//! - a match's games played as jobs ([`MatchRun`], [`play_match`]: each engine on its own clock
//!   or to its depth, with the match's adjudication, on the pool or the ranks of an MPI job)
//!   and its record as PDN ([`match_pdn`]) (file `run`);
//! - W/D/L, pentanomial pair counts, Elo ([`elo`]) and the SPRT ([`Sprt`]) (file `stats`);
//! - draw and resign adjudication on the engines' scores ([`Adjudication`], [`Adjudicator`]),
//!   done by the game loop (`crate::play`);
//! - who plays a side, our engine, an outside one or a genome of the match's tuned engine
//!   ([`Contestant`], [`OutsideEngine`] (described in `crate::hub`); from `crate::side`), a
//!   match between any two ([`MatchRun::run_players`], as jobs too), and two of one name told
//!   apart ([`tell_apart`]) (file `contestant`);
//! - a match's levels as a person asks for them, checked before any engine starts: each
//!   side's depth and clock, the games, the margins ([`MatchRequest`]) (file `request`);
//! - the text a match prints before and after its games ([`MatchHeader`], [`MatchReport`])
//!   (file `report`).
//!
//! The opening books a match starts from are `crate::openings`.
//!
//! Files, bottom up: `stats`, `run`, `contestant`, `request`, `report`.
//!
//! # Example
//!
//! ```
//! use checkers_ga::material;
//! use checkers_ga::DrawRules;
//! use checkers_ga::matchplay::{play_match, Contestant, MatchSettings, OurEngine};
//! use checkers_ga::SearchConfig;
//! use checkers_ga::Evaluator;
//!
//! let engine = |name: &str, eval: Evaluator| {
//!     Contestant::Ours(OurEngine {
//!         name: name.into(),
//!         eval,
//!         config: SearchConfig::with_depth(1),
//!     })
//! };
//! let a = engine("material", material().into());
//! let b = engine("hand", Evaluator::yardstick("hand").unwrap());
//! let settings = MatchSettings::ballot(4, 1, DrawRules::default());
//! let (wdl, games) = play_match(&a, &b, &settings, &|_| {});
//! assert_eq!((wdl.games(), games.len()), (4, 4));
//! ```

mod contestant;
mod report;
mod request;
mod run;
mod stats;

pub use crate::openings::{load_openings, start_positions, OpeningBook, OpeningsError};
pub use crate::play::WIN_CENTI_MEN;
pub use crate::play::{
    Adjudication, AdjudicationError, Adjudicator, DrawAdjudication, ResignAdjudication,
};
pub use crate::side::{
    Contestant, HubProbe, OptionsError, OurEngine, OutsideEngine, DEFAULT_MOVE_TIMEOUT,
};
pub use contestant::tell_apart;
pub use report::{MatchHeader, MatchJson, MatchReport, RunningScore, MATCH_JSON_VERSION};
pub use request::{
    depth_limit, MatchLevels, MatchRequest, MatchRequestError, MATCH_DEPTH, MAX_MATCH_GAMES,
    SPRT_GAMES,
};
pub use run::{
    match_pdn, play_match, EngineLosses, EngineTiming, GameKeys, MatchEnd, MatchGame,
    MatchObserver, MatchResult, MatchRun, MatchSettings, MatchTally, Score, Unobserved,
};
pub use stats::{
    elo, elo_number, erf, logistic_score, Elo, Pentanomial, Sprt, SprtError, SprtVerdict, Wdl,
};
