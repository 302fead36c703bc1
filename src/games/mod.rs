//! Games as work: clocks, the players and the one game loop, outside engines' parameters as a
//! genome and the tuning simulator's synthetic engine, game jobs on a thread pool or an MPI
//! job, matches and a generation's tournament.
//!
//! Files, bottom up: `clock`, `sim`, `genome`, `play`, `side`, `schedule`, `pool`, `jobs`,
//! `faults`, `cluster`, `matchplay`, `tournament`.
//!
//! - `clock`: time controls, a game's clock, search statistics.
//! - `sim`: the tuning simulator `sim:N`, a model of strength that decides its games;
//!   `genome`: an outside engine's declared parameters, the tuned ones as the genes of a
//!   weight vector.
//! - `play`: the game loop and its players (our searcher, an outside engine's pooled process,
//!   a person).
//! - `side`: who plays a side, described once (our engine, an outside engine, a genome of a
//!   tuned engine; its clock), and the one builder of its player.
//! - `schedule`: the schedule log and its model; `pool`: the thread pools games are played
//!   on; `jobs`: games as self-contained jobs, played in batches (each side one of the batch's
//!   entrants); `faults`: a batch's games an engine lost by a fault, in words; `cluster`: the
//!   jobs spread over an MPI job (feature `mpi`).
//! - `matchplay`: matches between two engines, Elo, SPRT; `tournament`: a generation's
//!   pairings and standings.

pub(crate) mod clock;
pub(crate) mod cluster;
mod faults;
pub(crate) mod genome;
pub(crate) mod jobs;
pub mod matchplay;
pub mod play;
pub(crate) mod pool;
pub mod schedule;
pub(crate) mod side;
pub(crate) mod sim;
pub(crate) mod tournament;
