//! The one-file tuners that are modules of their own: each is whole in its folder (its
//! algorithm, its checkpoint, its settings and its registration among the one-file tuners,
//! [`crate::store::ONE_FILE_TUNERS`]), and nothing outside it names it but this list and the
//! crate's re-exports.
//!
//! Files, bottom up: `spsa`, `cmaes`.
//!
//! - `spsa`: SPSA (simultaneous perturbation stochastic approximation) over an outside engine's
//!   parameters, one step at a time, as chess engine testers tune.
//! - `cmaes`: CMA-ES (separable, mirrored pairs) over an outside engine's parameters, one
//!   generation at a time.
//!
//! The unit tests' build has one more, a tuner of the tests registered from its file alone
//! (file `toy`), that shows what a new tuner gets from its registration.

pub(crate) mod cmaes;
pub(crate) mod spsa;
#[cfg(test)]
mod toy;
