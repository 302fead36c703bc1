//! Helpers shared by the integration tests: each test file says `mod common;` and uses what it
//! needs (hence the `dead_code` allowance: no file uses all of it).
//!
//! - running the binary: [`BIN`], [`bin`], [`run`], [`stdout_ok`], [`assert_error`], and the
//!   `new` / `resume` command lines of an evolution session, [`new_cmd`] and [`resume_cmd`];
//! - unique temporary folders removed on drop: [`Tmp`];
//! - files of the repository: [`manifest_dir`], [`repo`], [`perft_cases`];
//! - fixed data: [`vector`] (a weight vector), [`settings`] (session settings), [`load`] (a
//!   checkpoint that must load);
//! - seeded generators: [`SplitMix`], [`Xs`] and the random setups [`random_position`] and
//!   [`random_position_both_sides`]. Their sequences are part of the tests' data (the positions
//!   a test sees depend on them): do not change them.

#![allow(dead_code)]

use checkers_ga::matchplay::OpeningBook;
use checkers_ga::DrawRules;
use checkers_ga::SearchConfig;
use checkers_ga::{store, Color, Position, Weights, NUM_PARAMS};
use checkers_ga::{GaOptions, GaState, Settings, Stop};
use checkers_ga::{BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------------------------
// Running the binary

/// The `checkers-ga` binary built for the tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_checkers-ga");

/// A command running the binary.
pub fn bin() -> Command {
    Command::new(BIN)
}

/// Runs the binary with `args` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run checkers-ga")
}

/// Asserts success; returns stdout.
pub fn stdout_ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Lossy UTF-8 text of a process's output.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `c` and asserts success; returns stdout (the failure names the command and both
/// streams).
pub fn run_ok(mut c: Command) -> String {
    let desc = format!("{c:?}");
    let out = c.output().expect("run checkers-ga");
    assert!(
        out.status.success(),
        "{desc} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs `c` and asserts a failure with one `error:` line on stderr, exit code 1 and no panic;
/// returns the error line.
pub fn run_err(mut c: Command) -> String {
    let desc = format!("{c:?}");
    let out = c.output().expect("run checkers-ga");
    err_line(&desc, &out)
}

/// The one `error:` line of a failed run `desc` (exit code 1, no panic), asserted.
pub fn err_line(desc: &str, out: &Output) -> String {
    let err = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{desc}: expected exit code 1\nstdout:\n{}\nstderr:\n{err}",
        text(&out.stdout)
    );
    assert!(!err.contains("panicked"), "{desc} panicked:\n{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "{desc}: expected one error line, got:\n{err}"
    );
    assert!(lines[0].starts_with("error:"), "{desc}: {err}");
    lines[0].to_string()
}

/// One line on stderr, `error: ...` containing every needle, exit code 1, nothing on stdout.
pub fn assert_error(out: &Output, needles: &[&str]) {
    assert_error_exit(out, 1, needles);
}

/// One line on stderr, `error: ...` containing every needle, exit code `code`, nothing on
/// stdout.
pub fn assert_error_exit(out: &Output, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "not one line: {err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    for n in needles {
        assert!(lines[0].contains(n), "'{n}' not in: {err}");
    }
}

/// `checkers-ga new ARGS --populations T/populations --weights-dir T/weights [--quiet]
/// --seed SEED --name NAME`, run in `T`.
pub fn new_cmd(t: &Tmp, seed: u64, name: &str, quiet: bool, args: &[&str]) -> Command {
    let mut c = bin();
    c.current_dir(&t.0).arg("new").args(args);
    c.arg("--populations").arg(t.pops());
    c.arg("--weights-dir").arg(t.weights());
    if quiet {
        c.arg("--quiet");
    }
    c.args(["--seed", &seed.to_string(), "--name", name]);
    c
}

/// `checkers-ga resume [TARGET] ARGS --populations T/populations --weights-dir T/weights
/// [--quiet]`, run in `T`.
pub fn resume_cmd(t: &Tmp, target: Option<&Path>, quiet: bool, args: &[&str]) -> Command {
    let mut c = bin();
    c.current_dir(&t.0).arg("resume");
    if let Some(p) = target {
        c.arg(p);
    }
    c.args(args);
    c.arg("--populations").arg(t.pops());
    c.arg("--weights-dir").arg(t.weights());
    if quiet {
        c.arg("--quiet");
    }
    c
}

// ---------------------------------------------------------------------------------------------
// Temporary folders

/// A unique temporary folder, removed on drop (also when the test panics).
pub struct Tmp(pub PathBuf);

impl Tmp {
    /// `ckga-TESTFILE-TAG-PID-N-NANOS` under the system's temporary folder, created empty.
    pub fn new(tag: &str) -> Tmp {
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!(
            "ckga-{}-{tag}-{}-{}-{nanos}",
            env!("CARGO_CRATE_NAME"),
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("create temp dir");
        Tmp(p)
    }
    /// Writes `name` in the folder; returns its path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).expect("write test input");
        p
    }
    /// The text of `name` in the folder.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.0.join(name)).expect("read output")
    }
    /// The populations folder of [`new_cmd`] and [`resume_cmd`].
    pub fn pops(&self) -> PathBuf {
        self.0.join("populations")
    }
    /// The weights folder of [`new_cmd`] and [`resume_cmd`].
    pub fn weights(&self) -> PathBuf {
        self.0.join("weights")
    }
    /// The folder of session `name`.
    pub fn session(&self, name: &str) -> PathBuf {
        self.pops().join(name)
    }
    /// The checkpoint of generation `g` of session `name`.
    pub fn ckpt(&self, name: &str, g: u64) -> PathBuf {
        store::checkpoint_path(&self.session(name), g)
    }
    /// The best weights file of session `name`.
    pub fn best(&self, name: &str) -> PathBuf {
        self.weights().join(format!("{name}-best.json"))
    }
    /// `checkers-ga ARGS --populations T/populations`, run in the folder.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = bin();
        c.current_dir(&self.0)
            .args(args)
            .arg("--populations")
            .arg(self.pops());
        c
    }
}

/// Runs a command to its end, whatever its exit status.
pub fn output(mut c: Command) -> Output {
    c.output().expect("run checkers-ga")
}

/// Our engine through the Hub protocol, its weights tunable within -1000..1000 and ties broken
/// the same way every time, from `material`.
pub fn tunable_engine() -> String {
    format!("{BIN} hub --tunable --tunable-range 1000 --tie-break first material")
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------------------------
// Files of the repository

/// The root of the repository.
pub fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `path` under the root of the repository.
pub fn repo(path: &str) -> PathBuf {
    manifest_dir().join(path)
}

/// One case of `tests/data/perft.txt`: `FEN | depth | nodes`.
pub struct PerftCase {
    /// Line number in the file, from 1.
    pub line: usize,
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
}

/// The cases of `tests/data/perft.txt` (`#` starts a comment).
pub fn perft_cases() -> Vec<PerftCase> {
    let text =
        std::fs::read_to_string(repo("tests/data/perft.txt")).expect("read tests/data/perft.txt");
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 3, "line {}: expected `FEN | depth | nodes`", i + 1);
        out.push(PerftCase {
            line: i + 1,
            fen: f[0].to_string(),
            depth: f[1]
                .parse()
                .unwrap_or_else(|_| panic!("line {}: bad depth", i + 1)),
            nodes: f[2]
                .parse()
                .unwrap_or_else(|_| panic!("line {}: bad node count", i + 1)),
        });
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Fixed data

/// A fixed weight vector spread over the whole i16 range, different for each `k`.
pub fn vector(k: i32) -> Weights {
    let mut w = [0i16; NUM_PARAMS];
    for (i, x) in w.iter_mut().enumerate() {
        *x = ((i as i32 * 7919 + k * 104_729) % 65_536 - 32_768) as i16;
    }
    Weights::thesis(w)
}

/// The settings of the sessions the tests build by hand: depth 1 with the capture extension,
/// all against all, factor 8, mutation 0.3, ballot openings, one elite, one newcomer, default
/// draw rules, stopping after `generations`.
pub fn settings(population: usize, generations: u64, seed: u64) -> Settings {
    Settings {
        population,
        games: 0,
        search: SearchConfig {
            depth: 1,
            capture_extension: true,
            tt_log2: 10,
        },
        factor: 8,
        mutation_chance: 0.3,
        stop: Stop::Generations(generations),
        seed,
        openings: OpeningBook::Ballot,
        elite: 1,
        newcomers: 1,
        rules: DrawRules::default(),
        ga: GaOptions::ORIGINAL,
        engine: None,
    }
}

/// The session of a checkpoint that must load.
pub fn load(p: &Path) -> GaState {
    store::load_checkpoint(p).unwrap_or_else(|e| panic!("{e}"))
}

/// A checkpoint without its wall-clock times (the seconds of evolution, per generation), as
/// the bytes it would be written as: two runs of one session compare equal.
pub fn timeless(p: &Path) -> Vec<u8> {
    let mut s = load(p);
    s.elapsed = 0.0;
    for h in s.history.iter_mut() {
        h.seconds = 0.0;
    }
    store::encode_checkpoint(&s).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Seeded generators

/// splitmix64: a tiny PRNG, seeded by constants so every run sees the same data.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough integer in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// xorshift64*: small, deterministic.
pub struct Xs(pub u64);

impl Xs {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A random legal setup: 0-12 pieces a side, no man on its crowning row, either side to move.
pub fn random_position(r: &mut Xs) -> Position {
    let mut pieces = Pieces::default();
    let king_odds = 1 + r.next() % 5;
    for black in [true, false] {
        let count = r.next() % 13;
        pieces.place(r, black, count, king_odds);
    }
    pieces.position(r)
}

/// A random legal setup with both sides on the board: 1-12 pieces a side, kings more likely
/// than in [`random_position`], no man on its crowning row, either side to move.
pub fn random_position_both_sides(r: &mut Xs) -> Position {
    let mut pieces = Pieces::default();
    let nb = 1 + r.next() % 12;
    let nw = 1 + r.next() % 12;
    let king_odds = 1 + r.next() % 4;
    pieces.place(r, true, nb, king_odds);
    pieces.place(r, false, nw, king_odds);
    pieces.position(r)
}

/// The bitboards of a setup being built.
#[derive(Default)]
struct Pieces {
    black: u32,
    white: u32,
    kings: u32,
}

impl Pieces {
    /// Puts `count` pieces of one colour on random free squares, each a king when a draw is a
    /// multiple of `king_odds`; a man never lands on its crowning row.
    fn place(&mut self, r: &mut Xs, black: bool, count: u64, king_odds: u64) {
        let mut placed = 0;
        while placed < count {
            let bit = 1u32 << (r.next() % 32);
            if (self.black | self.white) & bit != 0 {
                continue;
            }
            let king = r.next().is_multiple_of(king_odds);
            let crown = if black {
                BLACK_CROWN_ROW
            } else {
                WHITE_CROWN_ROW
            };
            if !king && bit & crown != 0 {
                continue;
            }
            if black {
                self.black |= bit;
            } else {
                self.white |= bit;
            }
            if king {
                self.kings |= bit;
            }
            placed += 1;
        }
    }

    /// The position, with a random side to move.
    fn position(&self, r: &mut Xs) -> Position {
        let side = if r.next().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        Position::from_parts(self.black, self.white, self.kings, side)
    }
}

/// A bad command line: one line on stderr, `error: ...` containing every needle, exit code 2,
/// nothing on stdout.
pub fn assert_usage_error(out: &Output, needles: &[&str]) {
    assert_error_exit(out, 2, needles);
}

/// Runs `c`, which must be a bad command line ([`assert_usage_error`]); returns its one
/// `error:` line.
pub fn run_usage_err(mut c: Command) -> String {
    let out = c.output().expect("run checkers-ga");
    assert_usage_error(&out, &[]);
    text(&out.stderr).trim_end().to_string()
}

// ---------------------------------------------------------------------------------------------
// Processes of outside engines

/// The live processes whose command line holds `marker` (an argument a test gives the engines
/// it starts), each as `PID: COMMAND LINE`.
pub fn with_marker(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().parse::<u32>().is_err() {
            continue;
        }
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(marker) {
                found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// Asserts that no process with `marker` is left (a killed one may take a moment to go on a
/// loaded machine: a generous bound, which only a process that was not killed reaches).
pub fn assert_none_left(marker: &str) {
    let t = std::time::Instant::now();
    loop {
        let left = with_marker(marker);
        if left.is_empty() {
            return;
        }
        assert!(
            t.elapsed() < std::time::Duration::from_secs(60),
            "engine processes left: {left:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

// ---------------------------------------------------------------------------------------------
// Tests that need a program from outside

/// Whether a test that needs something from outside (a program, a file) can run: `ok`, or in
/// CI (`CI=true`, where .ci/run installs everything) a failure that says `why`, or elsewhere a
/// line `SKIPPED: <why>` on standard error and false, so that the test returns having said
/// it did not run.
pub fn can_run(ok: bool, why: &str) -> bool {
    if ok {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{why}, and CI must run every test (.ci/run installs what they need)");
    }
    // Straight to standard error, past the test harness's capture of eprintln!, so that a
    // plain `cargo test` shows it.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
    false
}

/// Does `program ARGS` run and succeed?
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Is there a `python3` for the Python engines ([`can_run`])?
pub fn have_python() -> bool {
    can_run(
        runs("python3", &["--version"]),
        "python3 is missing, and this test's engine is Python",
    )
}

/// The values an engine parameter file (a tuner's answer) holds, by name, in the engine's
/// order.
#[allow(dead_code)]
pub fn file_values(path: &Path) -> Vec<(String, i64)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let p = checkers_ga::formats::parse_engine_params(&text).unwrap();
    let names = p.spec.tuned.iter().map(|t| t.name.clone());
    names.zip(p.spec.values(&p.weights)).collect()
}
