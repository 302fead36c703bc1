//! Fuzzing the checkpoint decoder: mutated checkpoints of every format (bit flips,
//! truncation, splicing of two checkpoints, and edits of the payload behind a recomputed length
//! and checksum, which reach the bincode decoder and the checks after it) must decode to an
//! error of one line naming the file, or to a session; never a panic, never an abort, and never
//! an allocation over 100 MB (this test binary's global allocator counts every allocation and
//! refuses any larger one, which would abort the test).
//!
//! `cargo test` runs 1,000,000 mutations (about half a minute in the test profile on 2 cores);
//! `CKGA_FUZZ_ITERATIONS=N` changes the count and `CKGA_FUZZ_SEED=S` the mutations
//! (`scripts/fuzz-checkpoints.sh` runs more in release). A failing input is written to the
//! temporary folder and named in the failure.

mod common;

use checkers_ga::store;
use checkers_ga::{GaState, Method, Mutation, ParamSet, Selection};
use common::{repo, settings, SplitMix};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest single allocation allowed: 100 MB.
const LIMIT: usize = 100_000_000;

/// The system allocator, counting: the largest request seen, and refusing any over [`LIMIT`].
struct Counting;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        if layout.size() > LIMIT {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        if layout.size() > LIMIT {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        if new_size > LIMIT {
            return std::ptr::null_mut();
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const HEADER: usize = 28;

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Sets the header's length and checksum to those of the payload after it.
fn reseal(b: &mut [u8]) {
    if b.len() < HEADER {
        return;
    }
    let len = (b.len() - HEADER) as u64;
    let sum = fnv(&b[HEADER..]);
    b[12..20].copy_from_slice(&len.to_le_bytes());
    b[20..28].copy_from_slice(&sum.to_le_bytes());
}

/// A checkpoint of the current format made in-process: 3 generations of population 4 with a
/// hall of fame, yardstick measurements, tournament selection and Gaussian mutation.
fn current_format() -> Vec<u8> {
    let mut s = settings(4, 3, 5);
    s.rules.max_plies = 60;
    s.ga.hall_of_fame = 2;
    s.ga.measure_every = 1;
    s.ga.measure_games = 2;
    s.ga.duel_games = 4;
    s.ga.method = Method::Ga(Selection::Tournament(2));
    s.ga.mutation = Mutation::Gauss {
        sigma: 500,
        genes: 3,
    };
    let mut session = GaState::new("fuzz", s);
    for _ in 0..3 {
        session.run_generation(&|_| {});
    }
    store::encode_checkpoint(&session).unwrap()
}

/// A checkpoint of the current format of a board set with a replay (`--params board:2
/// --fit-every 1 --fit-replay 2`): 3 generations of population 4, so the mutations reach the
/// board network's weights and the replay's positions and generations.
fn board_with_replay() -> Vec<u8> {
    let mut s = settings(4, 3, 6);
    s.rules.max_plies = 40;
    s.ga.params = ParamSet::Board(2);
    s.ga.init_range = 4000;
    s.ga.fit_every = 1;
    s.ga.fit_replay = 2;
    s.ga.fit_top = 2;
    s.ga.mutation = Mutation::Gauss {
        sigma: 500,
        genes: 3,
    };
    s.validate().unwrap();
    let mut session = GaState::new("fuzz-board", s);
    for _ in 0..3 {
        session.run_generation(&|_| {});
    }
    let generations: Vec<u64> = session.replay.generations().collect();
    assert_eq!(
        generations,
        [2, 3],
        "the replay keeps the last 2 generations"
    );
    assert!(!session.replay.is_empty(), "the replay holds positions");
    let bytes = store::encode_checkpoint(&session).unwrap();
    let back = store::decode_checkpoint(Path::new("seed"), &bytes).unwrap();
    assert_eq!(back.settings.ga.params, ParamSet::Board(2));
    assert_eq!(back.settings.ga.fit_replay, 2);
    assert_eq!(back.replay, session.replay);
    bytes
}

/// The checkpoints mutated: of formats 1 and 2 (files), and of the current format (a session
/// of the original's thesis set without a replay, and a board set with one).
fn seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        "tests/data/checkpoint-v1-gen2.ckpt",
        "tests/data/checkpoint-v1-gen3.ckpt",
        "tests/data/checkpoint-v2-gen2.ckpt",
        "tests/data/checkpoint-v2-gen3.ckpt",
    ]
    .iter()
    .map(|p| std::fs::read(repo(p)).unwrap())
    .collect();
    v.push(current_format());
    v.push(board_with_replay());
    for s in &v {
        store::decode_checkpoint(Path::new("seed"), s).expect("every seed decodes");
    }
    v
}

/// Values that make decoders take unusual paths: varint markers, extremes, zero.
const INTERESTING: [u8; 10] = [0, 1, 0x7f, 0x80, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff];

/// One mutation of a seed. Returns the bytes and the kind of mutation.
fn mutate(r: &mut SplitMix, seeds: &[Vec<u8>]) -> (Vec<u8>, &'static str) {
    let a = &seeds[r.below(seeds.len())];
    match r.below(100) {
        // Bit flips anywhere (the checksum should catch most).
        0..=9 => {
            let mut b = a.clone();
            for _ in 0..1 + r.below(4) {
                let i = r.below(b.len());
                b[i] ^= 1 << r.below(8);
            }
            (b, "bit flips")
        }
        // Truncation, with and without a resealed header.
        10..=17 => {
            let mut b = a[..r.below(a.len() + 1)].to_vec();
            if r.chance(50) {
                reseal(&mut b);
            }
            (b, "truncation")
        }
        // Splicing: the start of one checkpoint and the end of another, resealed, often with
        // the version of a third.
        18..=29 => {
            let c = &seeds[r.below(seeds.len())];
            let cut_a = HEADER + r.below(a.len() - HEADER + 1);
            let cut_c = HEADER + r.below(c.len() - HEADER + 1);
            let mut b = a[..cut_a].to_vec();
            b.extend_from_slice(&c[cut_c..]);
            if r.chance(30) {
                b[8..12].copy_from_slice(&(1 + r.below(3) as u32).to_le_bytes());
            }
            reseal(&mut b);
            (b, "splicing")
        }
        // Payload edits behind a recomputed checksum: they reach the decoder.
        _ => {
            let mut b = a.clone();
            for _ in 0..1 + r.below(4) {
                let at = HEADER + r.below(b.len() - HEADER);
                match r.below(6) {
                    0 => b[at] ^= 1 << r.below(8),
                    1 => b[at] = INTERESTING[r.below(INTERESTING.len())],
                    2 => b[at] = r.next() as u8,
                    3 => {
                        // A large varint in place: 253 (u64 follows) and 8 random bytes.
                        let mut v = vec![0xfd];
                        v.extend_from_slice(&r.next().to_le_bytes());
                        let end = (at + 1 + r.below(9)).min(b.len());
                        b.splice(at..end, v);
                    }
                    4 => {
                        let end = (at + 1 + r.below(16)).min(b.len());
                        b.drain(at..end);
                        if b.len() <= HEADER {
                            b.push(0);
                        }
                    }
                    _ => {
                        let n = 1 + r.below(8);
                        let fill: Vec<u8> = (0..n)
                            .map(|_| INTERESTING[r.below(INTERESTING.len())])
                            .collect();
                        b.splice(at..at, fill);
                    }
                }
            }
            if r.chance(10) {
                b[8..12].copy_from_slice(&(1 + r.below(3) as u32).to_le_bytes());
            }
            reseal(&mut b);
            (b, "payload edit")
        }
    }
}

/// What became of a mutated checkpoint.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// It decoded (the mutation kept it valid).
    Decoded,
    /// Rejected by the header: magic, version, length or checksum.
    Header,
    /// Rejected by the decoder or the checks after it.
    Payload,
}

/// Decodes `bytes`: an error must be one line naming the file.
fn check(bytes: &[u8]) -> Result<Outcome, String> {
    let path = Path::new("fuzz/gen-00001.ckpt");
    match store::decode_checkpoint(path, bytes) {
        Ok(s) => {
            // A session that decodes is one the tool accepts: its settings hold.
            s.settings
                .validate()
                .map_err(|e| format!("decoded with invalid settings: {e}"))?;
            Ok(Outcome::Decoded)
        }
        Err(e) => {
            let msg = e.to_string();
            if msg.contains('\n') || !msg.contains("fuzz/gen-00001.ckpt") || e.path != path {
                return Err(format!("bad error message: {msg:?}"));
            }
            let header = [
                "magic",
                "version",
                "truncated",
                "trailing",
                "checksum",
                "empty",
            ];
            if header.iter().any(|h| e.problem.contains(h)) {
                Ok(Outcome::Header)
            } else {
                Ok(Outcome::Payload)
            }
        }
    }
}

/// A thread's counts of each [`Outcome`], and of each kind of mutation.
type ThreadResult = ([u64; 3], Vec<(&'static str, u64)>);

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn a_million_mutated_checkpoints_never_panic_abort_or_allocate_too_much() {
    let iterations = env_u64("CKGA_FUZZ_ITERATIONS", 1_000_000);
    let seed = env_u64("CKGA_FUZZ_SEED", 0x5EED_C0DE);
    let seeds = seeds();
    let threads = 2u64;
    let started = std::time::Instant::now();
    let results: Vec<ThreadResult> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let seeds = &seeds;
                sc.spawn(move || {
                    let mut r = SplitMix(seed ^ (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let mut counts = [0u64; 3];
                    let mut kinds: Vec<(&str, u64)> = Vec::new();
                    for i in (k..iterations).step_by(threads as usize) {
                        let (bytes, kind) = mutate(&mut r, seeds);
                        match kinds.iter_mut().find(|(n, _)| *n == kind) {
                            Some(c) => c.1 += 1,
                            None => kinds.push((kind, 1)),
                        }
                        let outcome = std::panic::catch_unwind(|| check(&bytes))
                            .unwrap_or_else(|_| Err("panicked".to_string()));
                        match outcome {
                            Ok(o) => counts[o as usize] += 1,
                            Err(why) => {
                                let f = std::env::temp_dir()
                                    .join(format!("ckga-fuzz-failure-{seed}-{i}.ckpt"));
                                let _ = std::fs::write(&f, &bytes);
                                panic!(
                                    "mutation {i} ({kind}, seed {seed}): {why}; input written to {}",
                                    f.display()
                                );
                            }
                        }
                    }
                    (counts, kinds)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let count = |o: Outcome| -> u64 { results.iter().map(|r| r.0[o as usize]).sum() };
    let (decoded, header, payload) = (
        count(Outcome::Decoded),
        count(Outcome::Header),
        count(Outcome::Payload),
    );
    let mut kinds: Vec<(&str, u64)> = Vec::new();
    for (_, ks) in &results {
        for (k, n) in ks {
            match kinds.iter_mut().find(|(m, _)| m == k) {
                Some(c) => c.1 += n,
                None => kinds.push((k, *n)),
            }
        }
    }
    let largest = LARGEST.load(Ordering::Relaxed);
    eprintln!(
        "fuzz: {iterations} mutated checkpoints in {:.1} s ({kinds:?}): {header} rejected by \
         the header, {payload} by the decoder and its checks, {decoded} decoded; largest \
         allocation {largest} bytes",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(decoded + header + payload, iterations);
    assert!(largest <= LIMIT, "an allocation of {largest} bytes");
    // The mutations reach past the checksum: most are rejected by the decoder or the checks
    // after it, not by the header.
    assert!(payload > iterations / 2, "{payload} of {iterations}");
    // The allocator does count (a small figure above is a measurement, not a blind spot).
    let v: Vec<u8> = Vec::with_capacity(LIMIT / 2);
    assert!(LARGEST.load(Ordering::Relaxed) >= LIMIT / 2);
    drop(v);
}
