//! Tuning: the algorithms that tune weights or an outside engine's parameters from games.
//!
//! Files, bottom up: `tuner`, `flight`, `signal`, `fit`, `replay`, `ga`.
//!
//! - `tuner`: the contract a tuner keeps (ask for games, be told their results), and the step
//!   that plays one on the jobs executor; `flight`: a tuner's steps played one after another,
//!   as a stream when it keeps batches in flight.
//! - `signal`: how much the games tell a tuner (draws, undecided pairs), said once.
//! - `fit`: weights fitted to game results by logistic regression on played positions;
//!   `replay`: the positions of the last generations' games, the fit's data.
//! - `ga`: the genetic algorithm: a session's data and one generation (tournament, duel,
//!   selection, crossover, mutation, the mean, measurement).
//!
//! The one-file tuners that are modules of their own (SPSA, CMA-ES) are in `crate::tuners`,
//! above this: they keep the contract of `tuner`.

pub(crate) mod fit;
pub(crate) mod flight;
pub(crate) mod ga;
pub(crate) mod replay;
pub(crate) mod signal;
pub(crate) mod tuner;
