//! The rayon pools games are played on: how many threads ([`pool_threads`]: an outside
//! engine's games to a depth play two a core where they do not hold a core each) and the pool
//! itself ([`thread_pool`]).

use crate::genome::EngineSpec;

/// More worker threads than any machine this runs on has cores.
pub const MAX_THREADS: usize = 1024;

/// Why a thread pool could not be had.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("--threads {0} must be 0..{MAX_THREADS} (0 = one per core)")]
    /// A thread count above 1,024.
    TooMany(usize),
    #[error("cannot start the thread pool: {0}")]
    /// Rayon could not build the pool.
    Build(#[from] rayon::ThreadPoolBuildError),
}

/// The games a core plays at once, by default, of an outside engine to a fixed depth when
/// games do not hold a core each ([`crate::hub::set_pinning`]). Such a game is two processes
/// answering each other over pipes, one of them thinking at a time: spread over the cores it
/// keeps about two thirds of a core busy, and two games beside each other on two cores slow
/// each other (each waits for a core the other's processes hold). Two games a core keep the
/// cores busy: on 2 cores, an engine session of our 66 weights through the protocol played
/// its games 1.4 times as fast at 4 threads as at 2 (docs/scaling.md). A game that holds a
/// core keeps it busy alone, and one a core is then the faster.
pub const ENGINE_GAMES_PER_CORE: usize = 2;

/// The worker threads of a pool for `threads` (0: by the cores) whose games are those of
/// `engine` (None: our engine's): `threads` when given; else one a core, or
/// [`ENGINE_GAMES_PER_CORE`] a core for an outside engine's games to a fixed depth that do not
/// hold a core each ([`crate::hub::pins`]: pinning is off, or the system cannot pin; on a
/// clock a game's engines want their cores to themselves; the simulator's games play no
/// moves).
pub fn pool_threads(threads: usize, engine: Option<&EngineSpec>) -> usize {
    match engine {
        Some(e)
            if threads == 0 && e.tc.is_none() && e.sim_model().is_none() && !crate::hub::pins() =>
        {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            (cores * ENGINE_GAMES_PER_CORE).min(MAX_THREADS)
        }
        _ => threads,
    }
}

/// `pool`, made for `threads`, or, where an outside engine's games want more threads than it
/// has ([`pool_threads`]), a pool of those.
pub fn pool_for(
    pool: rayon::ThreadPool,
    threads: usize,
    engine: Option<&EngineSpec>,
) -> Result<rayon::ThreadPool, PoolError> {
    match pool_threads(threads, engine) {
        n if n == threads || n == pool.current_num_threads() => Ok(pool),
        n => thread_pool(n),
    }
}

/// Refuses a thread count no pool is made with (over 1024), before any work.
pub fn check_threads(threads: usize) -> Result<(), PoolError> {
    match threads > MAX_THREADS {
        true => Err(PoolError::TooMany(threads)),
        false => Ok(()),
    }
}

/// A rayon pool with `threads` workers (0 = one per core) to play batches on.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, PoolError> {
    check_threads(threads)?;
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}
