//! Past one machine: a session's (or a match's) games spread over the ranks of an MPI job.
//!
//! A build with the `mpi` feature, started by `mpirun` or `srun`, runs the same command on every
//! rank. Rank 0 owns the command (session folder, lock, checkpoints, output, Ctrl-C) and runs it
//! as a one-process run would; every batch of games it plays through [`crate::jobs::run`] (a
//! session's tournament, endgame games, duels and yardstick measurements; `match`) is
//! broadcast to all ranks and handed out in ranges of jobs (guided self-scheduling: each range
//! a quarter of the remaining games' share of the asking rank's threads, never fewer games than
//! it has threads), and every rank, rank 0 included, plays its ranges on its own rayon pool.
//! Results go back to rank 0 into job order, so the outcome is byte for byte that of a
//! one-process run, at any number of ranks and threads. The other ranks print nothing.
//!
//! Without the feature only [`launcher_ranks`] is compiled: a plain build started as several
//! processes by an MPI launcher says it has no MPI support instead of running N copies.

/// The number of processes an MPI launcher (`mpirun`, `srun`) says this one belongs to, from
/// the variables Open MPI, PMIx, PMI and Slurm set; None when not started by one.
pub fn launcher_ranks() -> Option<usize> {
    let var = |k: &str| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
    };
    var("OMPI_COMM_WORLD_SIZE")
        .or_else(|| var("PMI_SIZE"))
        .or_else(|| var("PMIX_SIZE"))
        .or_else(|| var("SLURM_STEP_NUM_TASKS").filter(|_| var("SLURM_PROCID").is_some()))
}

/// What rank 0 says when the MPI job is ended under it: where the session stands and how to
/// continue (set by `new` and `resume` after every checkpoint).
static STOP_NOTE: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Sets the note `stop_note` gives.
pub fn set_stop_note(note: String) {
    if let Ok(mut n) = STOP_NOTE.lock() {
        *n = note;
    }
}

/// Where the session stands, for the message of a job ended from outside ("" outside sessions).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by the MPI executor
pub fn stop_note() -> String {
    STOP_NOTE.lock().map(|n| n.clone()).unwrap_or_default()
}

/// Why this process cannot take part in an MPI job: one line.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A build without the `mpi` feature started as several processes by a launcher.
    #[error(
        "started as one of {ranks} processes by an MPI launcher, but this build has no MPI \
         support: build with `cargo build --release --features mpi` (docs/clusters.md)"
    )]
    NoMpi {
        /// The ranks the job was started with.
        ranks: usize,
    },
    #[error("cannot start MPI: {0}")]
    /// MPI could not be initialised; the message says why.
    Init(String),
    #[error(transparent)]
    /// The thread pool of a rank could not be started.
    Pool(#[from] crate::jobs::PoolError),
    #[error("the game executor was set already")]
    /// A game executor was installed before this one.
    ExecutorSet,
}

/// How this process takes part in a command: alone, or as a rank of an MPI job (feature
/// `mpi`): rank 0 runs the command and hands its batches of games out, the other ranks play
/// them and print nothing. A binary's `main` is [`Launch::begin`], [`Launch::leads`] (who
/// reports a bad command line), [`Launch::start`] (false: a serving rank, done), the command,
/// [`Launch::finish`].
pub struct Launch {
    #[cfg(feature = "mpi")]
    cluster: Option<Cluster>,
}

impl Launch {
    /// Joins the MPI job an MPI launcher started this process in, if any. With the feature:
    /// SIGTERM (the launcher ending every rank when one dies) is taken by a thread, and rank 0
    /// says where the session stands (`stop_note`). Without it, a process started as one of
    /// several refuses (only the first says why, in [`ClusterError::NoMpi`]; the others get
    /// the same error and should leave quietly: see [`Launch::is_first_of_launch`]).
    pub fn begin() -> Result<Launch, ClusterError> {
        #[cfg(feature = "mpi")]
        {
            let launched = launcher_ranks().is_some();
            if launched {
                block_termination();
            }
            let cluster = init()?;
            if launched {
                let speak = cluster.as_ref().is_none_or(|c| c.rank() == 0);
                on_termination(move || {
                    if speak {
                        let note = stop_note();
                        eprintln!(
                            "error: the MPI job is being ended (SIGTERM: a rank died, or mpirun \
                             or srun was stopped){}{note}",
                            if note.is_empty() { "" } else { "; " }
                        );
                    }
                });
            }
            Ok(Launch { cluster })
        }
        #[cfg(not(feature = "mpi"))]
        match launcher_ranks().filter(|&n| n > 1) {
            Some(ranks) => Err(ClusterError::NoMpi { ranks }),
            None => Ok(Launch {}),
        }
    }

    /// Is this the first process of a launch (rank 0, or no launcher)? It alone reports.
    pub fn is_first_of_launch() -> bool {
        [
            "OMPI_COMM_WORLD_RANK",
            "PMIX_RANK",
            "PMI_RANK",
            "SLURM_PROCID",
        ]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .is_none_or(|r| r.trim() == "0")
    }

    /// Does this process run the command and report (rank 0, or no MPI job)?
    pub fn leads(&self) -> bool {
        #[cfg(feature = "mpi")]
        return self.cluster.as_ref().is_none_or(|c| c.rank() == 0);
        #[cfg(not(feature = "mpi"))]
        true
    }

    /// Before the command, with its `--threads`: rank 0 waits for the other ranks and from
    /// now on hands every batch out (true: run the command); the other ranks play batches until
    /// rank 0 is done (false: they run no command). Without an MPI job: true.
    pub fn start(&self, threads: usize) -> Result<bool, ClusterError> {
        #[cfg(feature = "mpi")]
        match &self.cluster {
            Some(c) if c.rank() != 0 => {
                // Ctrl-C is rank 0's to handle: it stops the session at a game boundary.
                let _ = ctrlc::set_handler(|| {});
                c.serve(threads);
                return Ok(false);
            }
            Some(c) => c.lead(threads)?,
            None => {}
        }
        let _ = threads;
        Ok(true)
    }

    /// After the command: rank 0 tells the other ranks to leave; MPI is finalised.
    pub fn finish(self) {
        #[cfg(feature = "mpi")]
        if let Some(c) = self.cluster {
            if c.rank() == 0 {
                c.finish();
            }
        }
    }
}

#[cfg(feature = "mpi")]
pub use imp::*;

#[cfg(feature = "mpi")]
mod imp {
    use super::ClusterError;
    use crate::jobs::{self, Batch, Executor, Played};
    use mpi::environment::Universe;
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;
    use mpi::Threading;
    use serde::{Deserialize, Serialize};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc;
    use std::time::Duration;

    /// Tag of the messages to rank 0.
    const UP: i32 = 11;
    /// Tag of the messages from rank 0.
    const DOWN: i32 = 12;
    /// The broadcast length that ends the job.
    const END: u64 = u64::MAX;
    /// A range is this fraction of the remaining games' share of the asking rank's threads.
    const GUIDED: usize = 4;
    /// Ranges a rank holds at once (one playing while the next is on its way).
    const IN_HAND: usize = 2;
    /// Pause between two looks at the network when nothing happened: short against a game, and
    /// no core spins while waiting.
    const POLL: Duration = Duration::from_micros(50);

    /// A message to rank 0.
    #[derive(Debug, Serialize, Deserialize)]
    enum Up {
        /// A rank's first message: the threads of its pool.
        Hello { threads: u32 },
        /// Asks for a range of the batch under way.
        Request,
        /// The games of a range from its first job on (None: not played, the batch was aborted).
        Results {
            start: u64,
            played: Vec<Option<Played>>,
        },
        /// The rank has returned every range it got and will ask for none in this batch.
        Done,
    }

    /// A message from rank 0.
    #[derive(Debug, Serialize, Deserialize)]
    enum Down {
        /// Play jobs `start..end`.
        Work { start: u64, end: u64 },
        /// Nothing more in this batch.
        NoMore,
        /// Stop starting games of this batch (Ctrl-C or `--time` on rank 0, a match's SPRT
        /// decided), and abandon those under way if the batch says so.
        Abort,
    }

    fn encode<T: Serialize>(x: &T) -> Vec<u8> {
        bincode::serde::encode_to_vec(x, bincode::config::standard())
            .expect("plain data always encodes")
    }

    fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8], what: &str) -> T {
        match bincode::serde::decode_from_slice(bytes, bincode::config::standard()) {
            Ok((x, _)) => x,
            Err(e) => fatal(&format!("garbled {what} message ({e})")),
        }
    }

    /// Ends the whole MPI job with one line: a message between ranks that cannot happen.
    fn fatal(msg: &str) -> ! {
        let world = SimpleCommunicator::world();
        eprintln!("error: MPI rank {}: {msg}", world.rank());
        world.abort(1)
    }

    fn send<T: Serialize>(world: &SimpleCommunicator, rank: i32, tag: i32, msg: &T) {
        world
            .process_at_rank(rank)
            .send_with_tag(&encode(msg)[..], tag);
    }

    /// Blocks SIGTERM in this thread and every thread started after it (call first in `main`,
    /// before MPI starts its threads), for [`on_termination`] to take it.
    pub fn block_termination() {
        // SAFETY: plain libc calls on a local, zeroed signal set.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        }
    }

    /// Starts a thread that waits for SIGTERM (blocked by [`block_termination`]), then runs `f`
    /// and ends the process at once with 143. `mpirun` sends SIGTERM to every rank when one
    /// dies or when it is stopped (Ctrl-C), and SIGKILL a second later; Slurm does the same
    /// when a job is cancelled or a step is killed.
    pub fn on_termination(f: impl FnOnce() + Send + 'static) {
        let _ = std::thread::Builder::new()
            .name("sigterm".to_string())
            .spawn(move || {
                // SAFETY: as above; sigwait only fills `sig`.
                let got = unsafe {
                    let mut set: libc::sigset_t = std::mem::zeroed();
                    libc::sigemptyset(&mut set);
                    libc::sigaddset(&mut set, libc::SIGTERM);
                    let mut sig = 0;
                    libc::sigwait(&set, &mut sig) == 0
                };
                if got {
                    f();
                    // SAFETY: ends the process without running exit handlers (MPI's would wait
                    // for ranks that are gone).
                    unsafe { libc::_exit(143) }
                }
            });
    }

    /// An initialised MPI job of more than one process (MPI_Finalize when dropped).
    pub struct Cluster {
        _universe: Universe,
        world: SimpleCommunicator,
    }

    /// Initialises MPI when an MPI launcher started this process. None: not started by one, or
    /// a job of a single process (which runs as a plain one).
    pub fn init() -> Result<Option<Cluster>, ClusterError> {
        if super::launcher_ranks().is_none() {
            return Ok(None);
        }
        // Rank 0 calls MPI from the thread that runs a batch, which is not the main thread (one
        // call at a time).
        let (universe, level) = mpi::initialize_with_threading(Threading::Multiple)
            .ok_or_else(|| ClusterError::Init("MPI is initialised already".to_string()))?;
        if matches!(level, Threading::Single | Threading::Funneled) {
            return Err(ClusterError::Init(format!(
                "the MPI library offers only {level:?} threading; checkers-ga needs Serialized \
                 (Open MPI and MPICH offer it)"
            )));
        }
        let world = universe.world();
        if world.size() < 2 {
            return Ok(None);
        }
        Ok(Some(Cluster {
            _universe: universe,
            world,
        }))
    }

    impl Cluster {
        pub fn rank(&self) -> i32 {
            self.world.rank()
        }

        pub fn size(&self) -> i32 {
            self.world.size()
        }

        /// Rank 0: waits until every other rank has said hello, then makes [`jobs::run`] hand
        /// out every batch to the ranks, playing rank 0's share on a pool of `threads` (0 = one
        /// per core).
        pub fn lead(&self, threads: usize) -> Result<(), ClusterError> {
            let local = jobs::thread_pool(threads)?;
            let size = self.size() as usize;
            let mut ranks = vec![0u32; size];
            ranks[0] = local.current_num_threads() as u32;
            let mut heard = 1;
            while heard < size {
                match self
                    .world
                    .any_process()
                    .immediate_matched_probe_with_tag(UP)
                {
                    Some(m) => {
                        let (bytes, status) = m.matched_receive_vec::<u8>();
                        match decode::<Up>(&bytes, "hello") {
                            Up::Hello { threads } => {
                                ranks[status.source_rank() as usize] = threads.max(1);
                                heard += 1;
                            }
                            other => fatal(&format!("expected a hello, got {other:?}")),
                        }
                    }
                    None => std::thread::sleep(POLL),
                }
            }
            if !jobs::set_executor(Box::new(Lead { local, ranks })) {
                return Err(ClusterError::ExecutorSet);
            }
            Ok(())
        }

        /// Rank 0, when its command is over: the other ranks leave [`Cluster::serve`].
        pub fn finish(&self) {
            announce(&self.world, END);
        }

        /// The other ranks: play what rank 0 hands out, on a pool of `threads` (0 = one per
        /// core), until it ends the job.
        pub fn serve(&self, threads: usize) {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => fatal(&format!("cannot start the thread pool: {e}")),
            };
            let world = &self.world;
            let threads = pool.current_num_threads() as u32;
            // An outside engine's idle processes stay for this rank's next games, batch after
            // batch (a session's generations), as rank 0's session keeps its own; they stop
            // when the job ends.
            let _engines = crate::play::lease_engines();
            send(world, 0, UP, &Up::Hello { threads });
            let root = world.process_at_rank(0);
            loop {
                let len = announce(world, 0);
                if len == END {
                    return;
                }
                let mut bytes = vec![0u8; len as usize];
                root.broadcast_into(&mut bytes[..]);
                let batch: Batch = decode(&bytes, "batch");
                if let Err(e) = batch.check() {
                    fatal(&e.to_string());
                }
                serve_batch(world, &pool, &batch);
            }
        }
    }

    /// Rank 0 announces the length of the next batch (or [`END`]) and every rank learns it: a
    /// nonblocking broadcast (it matches only nonblocking ones) waited for without spinning a
    /// core, as the other ranks wait here between batches.
    fn announce(world: &SimpleCommunicator, len: u64) -> u64 {
        let mut len = len;
        mpi::request::scope(|scope| {
            let mut req = world
                .process_at_rank(0)
                .immediate_broadcast_into(scope, &mut len);
            loop {
                match req.test() {
                    Ok(_) => break,
                    Err(r) => {
                        req = r;
                        std::thread::sleep(POLL);
                    }
                }
            }
        });
        len
    }

    /// Plays jobs `range` of `batch` in job order until `abort` is set (then `None` for each
    /// game left, and for each game under way in a batch that abandons its games).
    fn play_range(
        batch: &Batch,
        range: std::ops::Range<usize>,
        abort: &AtomicBool,
    ) -> Vec<Option<Played>> {
        jobs::play_range(batch, range, &|_, _| {}, &|| abort.load(Ordering::SeqCst))
    }

    /// A rank other than 0 in one batch: asks for ranges while it holds fewer than
    /// [`IN_HAND`], plays them on its pool, returns their results, and says when it is done.
    fn serve_batch(world: &SimpleCommunicator, pool: &rayon::ThreadPool, batch: &Batch) {
        let abort = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, Vec<Option<Played>>)>();
        pool.in_place_scope(|s| {
            let (mut held, mut asked, mut over) = (0usize, false, false);
            loop {
                let mut busy = false;
                while let Ok((start, played)) = rx.try_recv() {
                    held -= 1;
                    let start = start as u64;
                    send(world, 0, UP, &Up::Results { start, played });
                    busy = true;
                }
                while let Some(m) = world
                    .process_at_rank(0)
                    .immediate_matched_probe_with_tag(DOWN)
                {
                    busy = true;
                    let (bytes, _) = m.matched_receive_vec::<u8>();
                    match decode::<Down>(&bytes, "work") {
                        Down::Work { start, end } => {
                            asked = false;
                            let (start, end) = (start as usize, end as usize);
                            if start > end || end > batch.jobs.len() {
                                fatal(&format!(
                                    "range {start}..{end} of {} jobs",
                                    batch.jobs.len()
                                ));
                            }
                            held += 1;
                            let (tx, abort) = (tx.clone(), &abort);
                            s.spawn(move |_| {
                                let played = play_range(batch, start..end, abort);
                                let _ = tx.send((start, played));
                            });
                        }
                        Down::NoMore => {
                            asked = false;
                            over = true;
                        }
                        Down::Abort => {
                            abort.store(true, Ordering::SeqCst);
                            over = true;
                        }
                    }
                }
                if !over && !asked && held < IN_HAND {
                    send(world, 0, UP, &Up::Request);
                    asked = true;
                    busy = true;
                }
                if over && !asked && held == 0 {
                    send(world, 0, UP, &Up::Done);
                    return;
                }
                if !busy {
                    std::thread::sleep(POLL);
                }
            }
        });
    }

    /// Rank 0's executor: broadcasts each batch, hands out ranges, plays its own share.
    struct Lead {
        local: rayon::ThreadPool,
        /// Threads of each rank's pool (rank 0's is `local`).
        ranks: Vec<u32>,
    }

    impl Executor for Lead {
        fn run(
            &self,
            batch: &Batch,
            on_done: &(dyn Fn(usize, &Played) + Sync),
            stop: &(dyn Fn() -> bool + Sync),
        ) -> Option<Vec<Played>> {
            let world = SimpleCommunicator::world();
            let root = world.process_at_rank(0);
            let mut bytes = encode(batch);
            announce(&world, bytes.len() as u64);
            root.broadcast_into(&mut bytes[..]);

            let n = batch.jobs.len();
            let total: usize = self.ranks.iter().map(|&t| t as usize).sum();
            let mut next = 0usize;
            // The next range for a rank of `threads` threads.
            let take = |next: &mut usize, threads: usize| {
                let left = n - *next;
                let size = (left * threads)
                    .div_ceil(GUIDED * total)
                    .max(threads)
                    .min(left);
                *next += size;
                *next - size..*next
            };
            let mut results: Vec<Option<Played>> = vec![None; n];
            let mut store = |start: usize, played: Vec<Option<Played>>| {
                if start + played.len() > n {
                    fatal(&format!("results for jobs {start}.. of {n}"));
                }
                for (k, p) in played.into_iter().enumerate() {
                    if let Some(p) = p {
                        on_done(start + k, &p);
                        results[start + k] = Some(p);
                    }
                }
            };
            let abort = AtomicBool::new(false);
            let (tx, rx) = mpsc::channel::<(usize, Vec<Option<Played>>)>();
            let mut done = vec![false; self.ranks.len()];
            done[0] = true;
            self.local.in_place_scope(|s| {
                let mut held = 0usize;
                let mut aborted = false;
                loop {
                    let mut busy = false;
                    if !aborted && stop() {
                        aborted = true;
                        abort.store(true, Ordering::SeqCst);
                        for (r, _) in done.iter().enumerate().filter(|(_, d)| !**d) {
                            send(&world, r as i32, DOWN, &Down::Abort);
                        }
                    }
                    while !aborted && held < IN_HAND && next < n {
                        let range = take(&mut next, self.ranks[0] as usize);
                        held += 1;
                        let (tx, abort) = (tx.clone(), &abort);
                        s.spawn(move |_| {
                            let start = range.start;
                            let played = play_range(batch, range, abort);
                            let _ = tx.send((start, played));
                        });
                        busy = true;
                    }
                    while let Ok((start, played)) = rx.try_recv() {
                        held -= 1;
                        store(start, played);
                        busy = true;
                    }
                    while let Some(m) = world.any_process().immediate_matched_probe_with_tag(UP) {
                        busy = true;
                        let (bytes, status) = m.matched_receive_vec::<u8>();
                        let r = status.source_rank();
                        match decode::<Up>(&bytes, "result") {
                            Up::Request => {
                                let reply = if aborted || next >= n {
                                    Down::NoMore
                                } else {
                                    let range = take(&mut next, self.ranks[r as usize] as usize);
                                    Down::Work {
                                        start: range.start as u64,
                                        end: range.end as u64,
                                    }
                                };
                                send(&world, r, DOWN, &reply);
                            }
                            Up::Results { start, played } => store(start as usize, played),
                            Up::Done => done[r as usize] = true,
                            Up::Hello { .. } => fatal(&format!("rank {r} said hello twice")),
                        }
                    }
                    if held == 0 && done.iter().all(|d| *d) && (aborted || next >= n) {
                        return;
                    }
                    if !busy {
                        std::thread::sleep(POLL);
                    }
                }
            });
            results.into_iter().collect()
        }
    }
}
