//! The genetic algorithm: tournament (with an optional hall of fame and endgame games),
//! best-so-far duel, selection (the original's truncation "roulette", a fitness-proportionate
//! wheel, or tournament selection), one-point crossover with one cut per pair, mutation (the
//! original's single-gene replacement, or Gaussian steps), the next generation made of children,
//! elite parents (the best so far among them) and newcomers, and a periodic measurement of the
//! best so far against a fixed yardstick. Or, with `--selection mean`, an evolution strategy:
//! mirrored pairs around a centre that their games move, the answer the centres' average
//! ([`Centre`]).
//!
//! Every random choice of generation `g` comes from generators derived from
//! `(session seed, purpose, g, index)`, so a session resumed from the checkpoint written after
//! generation `g` continues exactly as if it had never stopped, at any thread count.
//!
//! Files, bottom up: `settings`, `applied`, `operators`, `mean`, `checks`, `breeding`,
//! `matches`, `records`, `pending`, `generation`, `step`; the unit tests are in `tests` and
//! `flight_tests` (the mean with generations in flight). (`applied`: which settings apply to
//! a session, as people read them; `checks`: the settings checked as user input; `pending`: what a generation under
//! way keeps between its batches; `step`: a generation as the tuner contract's step, its
//! batches asked for and told, the session changed once it is whole.)
//!
//! # Example
//!
//! ```
//! use checkers_ga::{GaState, Settings};
//! use checkers_ga::SearchConfig;
//!
//! let mut settings = Settings::with_population(8);
//! settings.search = SearchConfig::with_depth(1);
//! settings.games = 4;
//! settings.ga.duel_games = 2;
//! settings.ga.measure_every = 0;
//! settings.ga.fit_every = 0;
//! let mut session = GaState::new("doc", settings);
//! let stats = session.run_generation(&|_| {});
//! assert_eq!((stats.generation, session.generation), (1, 1));
//! assert!(session.best_so_far.is_some());
//! ```

mod applied;
mod breeding;
mod checks;
#[cfg(test)]
mod flight_tests;
mod generation;
mod matches;
mod mean;
mod operators;
mod pending;
mod records;
mod settings;
mod step;
#[cfg(test)]
mod tests;

pub use generation::GaState;
pub use matches::{measure_match, Duel};
pub use mean::{
    default_in_flight, engine_mean, engine_mean_in_flight, keeps_flight, Centre, MEAN_ALONE,
    MEAN_IN_FLIGHT, MEAN_MAX_IN_FLIGHT, MEAN_WIDE,
};
pub use operators::*;
pub use pending::Pending;
pub use records::{GenerationStats, HallOfFame, History, Lineage};
pub use settings::*;
