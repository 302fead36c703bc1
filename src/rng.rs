//! Seeded generators. Every random choice in the tool comes from a ChaCha generator derived from
//! the session (or match) seed and the place the choice is made, never from thread order.
//!
//! # Example
//!
//! ```
//! use checkers_ga::{derive, Purpose};
//! use rand::RngExt;
//!
//! // The same (seed, purpose, a, b) always gives the same stream; another purpose, another one.
//! let x: u64 = derive(7, Purpose::Game, 3, 12).random();
//! assert_eq!(x, derive(7, Purpose::Game, 3, 12).random::<u64>());
//! assert_ne!(x, derive(7, Purpose::Duel, 3, 12).random::<u64>());
//! ```

use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng;

/// What a derived generator is for, so two uses of the same numbers never share a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[repr(u64)]
pub enum Purpose {
    /// The GA's own choices in one generation (selection noise, crossover, mutation, newcomers).
    Breeding = 1,
    /// Opening draws and pairings of one generation's tournament.
    Pairing = 2,
    /// One game: tie-breaks among equal root moves.
    Game = 3,
    /// The best-so-far duel of one generation.
    Duel = 4,
    /// The first population of a session.
    Initial = 5,
    /// The order of the positions in one generation's fit.
    Fit = 6,
    /// One step of an SPSA run: its perturbation and openings, and its games.
    Spsa = 7,
    /// One generation of a CMA-ES run: its directions and openings, and its games.
    Cmaes = 8,
}

impl Purpose {
    /// What the schedule log calls a batch whose games are for this, when the tuner names no
    /// phase of its own: `duel`, `spsa`, `cmaes`, else `match`.
    pub fn phase(self) -> &'static str {
        match self {
            Purpose::Duel => "duel",
            Purpose::Spsa => "spsa",
            Purpose::Cmaes => "cmaes",
            _ => "match",
        }
    }
}

/// A generator for `(seed, purpose, a, b)`, e.g. `(session seed, Game, generation, game index)`.
pub fn derive(seed: u64, purpose: Purpose, a: u64, b: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&(purpose as u64).to_le_bytes());
    key[16..24].copy_from_slice(&a.to_le_bytes());
    key[24..].copy_from_slice(&b.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

/// A fresh seed from the clock and process id, for sessions started without `--seed`.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut x = t ^ ((std::process::id() as u64) << 32);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
