//! Sessions and matches under `mpirun` (feature `mpi`, Open MPI's `mpirun` on the PATH): the
//! same checkpoints (yardstick measurements included), best weights, match reports (SPRT
//! included) and PDN files as one process, and a job that loses a rank
//! resumed without MPI to the same result. Run with `cargo test --features mpi --test mpi`.

#![cfg(feature = "mpi")]

mod common;

use checkers_ga::store;
use checkers_ga::GaState;
use common::{new_cmd, resume_cmd, stdout_ok, Tmp, BIN};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `c` (a command of the binary) as `mpirun -n N` runs it, in the same folder.
fn under_mpi(n: usize, c: &Command) -> Command {
    let mut m = Command::new("mpirun");
    m.args([
        "--allow-run-as-root",
        "--oversubscribe",
        "-n",
        &n.to_string(),
        BIN,
    ]);
    m.args(c.get_args());
    if let Some(d) = c.get_current_dir() {
        m.current_dir(d);
    }
    m
}

fn output(mut c: Command) -> Output {
    c.output().expect("run the command")
}

/// A checkpoint with its wall-clock fields (seconds of evolution, per generation) zeroed.
fn session(path: &Path) -> GaState {
    let mut s = store::load_checkpoint(path).unwrap_or_else(|e| panic!("{e}"));
    s.elapsed = 0.0;
    s.history.iter_mut().for_each(|h| h.seconds = 0.0);
    s
}

fn same_files(a: &Tmp, b: &Tmp, name: &str, gens: std::ops::RangeInclusive<u64>) {
    for g in gens {
        assert_eq!(
            session(&a.ckpt(name, g)),
            session(&b.ckpt(name, g)),
            "generation {g}"
        );
    }
    let best = |t: &Tmp| std::fs::read(t.best(name)).expect("best weights");
    assert_eq!(best(a), best(b));
}

/// Every kind of game a generation plays: tournament, hall of fame, endgame games, a duel of
/// several openings and a yardstick measurement (population and depth given by each test); a
/// board network fitted from a replay of the last 2 fits' games to blended targets.
const SESSION: &[&str] = &[
    "--params",
    "board:2",
    "--fit-replay",
    "2",
    "--fit-blend",
    "20:1",
    "--fit-every",
    "2",
    "--endgame-pairs",
    "1",
    "--hall-of-fame",
    "2",
    "--duel-games",
    "8",
    "--measure-every",
    "3",
    "--measure-games",
    "20",
];

fn args(extra: &[&str]) -> Vec<String> {
    SESSION.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_session_under_mpirun_is_the_session_of_one_process() {
    let plain = Tmp::new("plain");
    let a = args(&[
        "--population",
        "12",
        "--depth",
        "2",
        "--generations",
        "6",
        "--threads",
        "2",
    ]);
    stdout_ok(&output(new_cmd(&plain, 41, "s", true, &strs(&a))));

    // Three ranks of one thread each.
    let mpi = Tmp::new("mpi3");
    let a = args(&[
        "--population",
        "12",
        "--depth",
        "2",
        "--generations",
        "6",
        "--threads",
        "1",
    ]);
    let out = output(under_mpi(3, &new_cmd(&mpi, 41, "s", false, &strs(&a))));
    let text = stdout_ok(&out);
    // Rank 0 alone prints: one summary line per generation.
    assert_eq!(text.matches("gen 6/6 ").count(), 1, "{text}");
    same_files(&plain, &mpi, "s", 1..=6);
    // Generations 3 and 6 measured the best so far against the yardstick (a match, spread too).
    let measured: Vec<u64> = session(&mpi.ckpt("s", 6))
        .history
        .iter()
        .filter(|h| h.measure.is_some_and(|m| m.games() == 20))
        .map(|h| h.generation)
        .collect();
    assert_eq!(measured, [3, 6]);

    // Checkpoints are interchangeable: three generations without MPI, three more under it.
    let mixed = Tmp::new("mixed");
    let a = args(&["--population", "12", "--depth", "2", "--generations", "3"]);
    stdout_ok(&output(new_cmd(&mixed, 41, "s", true, &strs(&a))));
    let resume = resume_cmd(&mixed, Some(Path::new("s")), true, &["--generations", "6"]);
    stdout_ok(&output(under_mpi(2, &resume)));
    same_files(&plain, &mixed, "s", 4..=6);
}

/// A session that tunes an outside engine (a small Python engine whose moves follow its two
/// parameters, deterministic) under `mpirun -n 2`: each rank starts its own engine processes
/// for the games it is handed, and the checkpoints and best file are those of one process.
/// (No `--tune` here: Open MPI's `mpirun` takes `--tune` as its own option wherever it is.)
#[test]
fn an_outside_engine_s_session_under_mpirun_is_that_of_one_process() {
    let plain = Tmp::new("engine-plain");
    let decl = plain.write("params.txt", b"a 0 -50 50\nb 3 0 9\n");
    let engine = format!("python3 tests/fake_engines/declares.py {}", decl.display());
    let a = [
        "--engine",
        &engine,
        "--population",
        "8",
        "--depth",
        "2",
        "--generations",
        "3",
        "--duel-games",
        "4",
        "--measure-every",
        "3",
        "--measure-games",
        "8",
    ];
    // Both run in one folder: the session keeps the folder its engine runs in.
    let here = common::manifest_dir();
    let mut c = new_cmd(&plain, 5, "e", true, &a);
    c.current_dir(here);
    stdout_ok(&output(c));
    let mpi = Tmp::new("engine-mpi");
    let mut c = new_cmd(&mpi, 5, "e", true, &a);
    c.current_dir(here);
    let mut m = under_mpi(2, &c);
    m.stdin(Stdio::null());
    stdout_ok(&output(m));
    same_files(&plain, &mpi, "e", 1..=3);
}

/// The mean with 3 generations in flight (the default of an engine of 9 to 16 parameters;
/// this one has 2): under `mpirun` the generations in flight are played as one merged batch and
/// told in turn, the session of one process (which plays them as a stream); a session begun
/// under MPI goes on without it.
#[test]
fn the_means_generations_in_flight_under_mpirun_are_those_of_one_process() {
    let plain = Tmp::new("flight-plain");
    let decl = plain.write("params.txt", b"a 0 -50 50\nb 3 0 9\n");
    let engine = format!("python3 tests/fake_engines/declares.py {}", decl.display());
    let run = |t: &Tmp, gens: &str, mpi: bool, resume: bool| {
        let a = [
            "--engine",
            &engine,
            "--population",
            "8",
            "--depth",
            "2",
            "--in-flight",
            "3",
        ];
        let mut c = match resume {
            false => new_cmd(t, 6, "f", true, &a),
            true => resume_cmd(t, Some(&t.session("f")), true, &[]),
        };
        c.args(["--generations", gens])
            .current_dir(common::manifest_dir());
        let mut c = if mpi { under_mpi(2, &c) } else { c };
        c.stdin(Stdio::null());
        stdout_ok(&output(c));
    };
    run(&plain, "7", false, false);
    assert_eq!(session(&plain.ckpt("f", 7)).settings.ga.in_flight, 3);
    let mpi = Tmp::new("flight-mpi");
    run(&mpi, "7", true, false);
    same_files(&plain, &mpi, "f", 1..=7);
    let mixed = Tmp::new("flight-mixed");
    run(&mixed, "4", true, false);
    run(&mixed, "7", false, true);
    same_files(&plain, &mixed, "f", 5..=7);
}

/// CMA-ES with 3 generations in flight: under `mpirun` the generations in flight are played
/// as one merged batch and told in turn, the run of one process (which plays them as a
/// stream).
#[test]
fn a_cmaes_session_with_generations_in_flight_under_mpirun_is_that_of_one_process() {
    // Our engine through the protocol, started by the ranks (an MPI build: it must not take
    // itself for one more rank). (`--tune` would be mpirun's own flag.)
    let run = |t: &Tmp| {
        let engine = common::tunable_engine();
        let mut c = Command::new(BIN);
        c.current_dir(&t.0)
            .args(["cmaes", "--engine", &engine, "--pairs", "4"])
            .args([
                "--depth",
                "2",
                "--games",
                "80",
                "--seed",
                "9",
                "--in-flight",
                "3",
            ])
            .args(["--threads", "2", "--quiet", "--name", "c", "--populations"])
            .arg(t.pops());
        c
    };
    let plain = Tmp::new("cmaes-plain");
    stdout_ok(&output(run(&plain)));
    let mpi = Tmp::new("cmaes-mpi");
    let mut m = under_mpi(2, &run(&mpi));
    m.stdin(Stdio::null());
    stdout_ok(&output(m));
    let load = |t: &Tmp| checkers_ga::load_cmaes(&t.session("c").join("cmaes.ckpt")).unwrap();
    let (a, mut b) = (load(&plain), load(&mpi));
    assert_eq!(a.state.generation, 10);
    // The engine ran in each test's own folder.
    b.state.spec.engine.program.dir = a.state.spec.engine.program.dir.clone();
    assert!(a.state == b.state, "the runs differ");
}

/// `match A B ARGS --pdn PDN --quiet`, run in `t`.
fn match_cmd(t: &Tmp, pdn: &str, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.current_dir(&t.0)
        .arg("match")
        .args(args)
        .args(["--pdn", pdn, "--quiet"]);
    c
}

/// The lines of a match's output but the time and the PDN file's name.
fn report(s: &str) -> Vec<String> {
    s.lines()
        .filter(|l| !l.starts_with("time ") && !l.starts_with("PDN"))
        .map(str::to_string)
        .collect()
}

/// The same match as one process of two threads and under `mpirun -n 3` (one thread each):
/// the same report and PDN file. The report.
fn same_match(t: &Tmp, tag: &str, args: &[&str]) -> String {
    let (one_pdn, three_pdn) = (format!("{tag}-one.pdn"), format!("{tag}-three.pdn"));
    let mut one = match_cmd(t, &one_pdn, args);
    one.args(["--threads", "2"]);
    let one = stdout_ok(&output(one));
    let mut three = match_cmd(t, &three_pdn, args);
    three.args(["--threads", "1"]);
    let three = stdout_ok(&output(under_mpi(3, &three)));
    assert_eq!(report(&one), report(&three), "{tag}");
    assert_eq!(t.read(&one_pdn), t.read(&three_pdn), "{tag}");
    assert!(one.contains("W/D/L for A: "), "{one}");
    assert!(one.contains("Pentanomial [0, 0.5, 1, 1.5, 2]: "), "{one}");
    one
}

/// `match` under mpirun: its games are handed out to the ranks (through the jobs of a batch,
/// as a session's) and counted on rank 0 in game order, so W/D/L, Elo, the pentanomial counts,
/// the SPRT's stopping pair and the PDN file are those of one process.
#[test]
fn a_match_under_mpirun_plays_the_games_of_one_process() {
    let t = Tmp::new("match");
    let out = same_match(
        &t,
        "ballot",
        &[
            "material", "hand", "--depth", "3", "--games", "30", "--seed", "5",
        ],
    );
    assert!(out.contains(" 30 games "), "{out}");
    assert_eq!(t.read("ballot-one.pdn").matches("[Event ").count(), 30);

    // Start positions from a file (FEN lines), two depths and a short game cap.
    t.write(
        "positions.txt",
        b"B:W21-32:B1-12\nW:W18,22,25,K30:B2,5,14\nB:W17,21-32:B1-12,15\n",
    );
    let out = same_match(
        &t,
        "fen",
        &[
            "hand",
            "classic",
            "--depth",
            "3",
            "--depth-b",
            "2",
            "--openings",
            "positions.txt",
            "--max-plies",
            "60",
            "--seed",
            "3",
        ],
    );
    assert!(out.contains(" 6 games "), "{out}");
    assert!(t
        .read("fen-one.pdn")
        .contains("[FEN \"W:W18,22,25,K30:B2,5,14\"]"));

    // An SPRT that decides long before the game limit: the same pair on three ranks, which
    // play ahead of it; the games past it count nowhere, the PDN file included.
    let out = same_match(
        &t,
        "sprt",
        &[
            "material", "classic", "--depth", "2", "--games", "300", "--seed", "7", "--sprt",
            "-20,20",
        ],
    );
    let pairs = out
        .lines()
        .find_map(|l| l.strip_prefix("SPRT result: H0 accepted after "))
        .and_then(|r| r.strip_suffix(" pairs"))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no early H0: {out}"));
    assert!(pairs < 100, "{out}");
    assert_eq!(t.read("sprt-one.pdn").matches("[Event ").count(), 2 * pairs);

    // Draw and resign adjudication travel with the match's jobs: the ranks adjudicate the
    // games one process does.
    let out = same_match(
        &t,
        "adjudicated",
        &[
            "material",
            "hand",
            "--depth",
            "3",
            "--games",
            "20",
            "--seed",
            "5",
            "--draw-adjudication",
            "20,4,30",
            "--resign-adjudication",
            "4,300",
        ],
    );
    let adjudicated = out.lines().find(|l| l.starts_with("Adjudicated: "));
    assert!(
        adjudicated.is_some_and(|l| l != "Adjudicated: 0 draws, losses A 0, B 0"),
        "{out}"
    );

    // A match with an outside engine is a batch of jobs too: each rank starts the engine's
    // processes for the games it plays, and the games are those of one process.
    let engine = format!("hub:{BIN} hub --tie-break first material");
    let out = same_match(
        &t,
        "outside",
        &[
            "hand", &engine, "--depth", "3", "--games", "12", "--seed", "4",
        ],
    );
    assert!(out.contains(" 12 games "), "{out}");
    assert!(out.contains("B: checkers-ga "), "{out}");
}

/// The process ids of MPI rank `rank` whose command line mentions `marker`.
fn rank_pids(rank: u32, marker: &str) -> Vec<u32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let read = |f: &str| std::fs::read(e.path().join(f)).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&read("cmdline")).replace('\0', " ");
        if !cmdline.starts_with(BIN) || !cmdline.contains(marker) {
            continue;
        }
        let environ = read("environ");
        if environ.split(|&b| b == 0).any(|v| v == want.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}

/// Once `ready` says so, kills rank 1 of MPI job `job` (run in `t`, its standard error piped)
/// and returns what rank 0 said as the job ended, having checked that the job failed within a
/// minute of the kill.
fn kill_rank_1(t: &Tmp, mut job: Child, ready: impl Fn() -> bool) -> String {
    let t0 = Instant::now();
    while !ready() {
        if let Some(status) = job.try_wait().expect("mpirun") {
            let out = job.wait_with_output().expect("mpirun output");
            panic!("{status}: {}", String::from_utf8_lossy(&out.stderr));
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "never ready");
        std::thread::sleep(Duration::from_millis(20));
    }
    let marker = t.0.to_string_lossy().to_string();
    let pids = rank_pids(1, &marker);
    assert_eq!(pids.len(), 1, "rank 1 of the job: {pids:?}");
    let killed = Command::new("kill")
        .args(["-KILL", &pids[0].to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let t1 = Instant::now();
    let out = job.wait_with_output().expect("mpirun ends");
    assert!(t1.elapsed() < Duration::from_secs(60));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("error: the MPI job is being ended"))
        .unwrap_or_else(|| panic!("no message from rank 0: {err}"));
    assert!(rank_pids(0, &marker).is_empty() && rank_pids(2, &marker).is_empty());
    line.to_string()
}

#[test]
fn a_rank_killed_mid_generation_ends_the_job_and_resume_without_mpi_finishes_the_same() {
    let t = Tmp::new("killed");
    let a = args(&[
        "--generations",
        "1000",
        "--depth",
        "3",
        "--population",
        "16",
    ]);
    let job = under_mpi(3, &new_cmd(&t, 77, "k", false, &strs(&a)))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mpirun");
    // A few generations in, rank 1 dies (the job is always within a generation but for the
    // moments it writes a checkpoint).
    let line = kill_rank_1(&t, job, || t.ckpt("k", 3).exists());
    // It names the newest checkpoint, and the generation lost is the one after it.
    let newest = store::list_checkpoints(&t.session("k"))
        .iter()
        .filter_map(|p| store::checkpoint_generation(p))
        .max()
        .expect("checkpoints");
    assert!(newest >= 3);
    assert!(
        line.contains(&format!("generation {} was not finished", newest + 1)),
        "{line}"
    );
    assert!(
        line.contains(&format!("continue with: {BIN} resume k")),
        "{line}"
    );

    // Without MPI, two generations past the loss; and the same session never interrupted.
    let to = (newest + 2).to_string();
    let resume = resume_cmd(&t, Some(Path::new("k")), true, &["--generations", &to]);
    stdout_ok(&output(resume));
    let whole = Tmp::new("whole");
    let a = args(&["--generations", &to, "--depth", "3", "--population", "16"]);
    stdout_ok(&output(new_cmd(&whole, 77, "k", true, &strs(&a))));
    same_files(&whole, &t, "k", newest + 1..=newest + 2);
}

/// Every tuner's session says where it stands when its job is ended from outside: an SPSA
/// session's rank 0 names the step lost and how to continue, as the GA's names the
/// generation.
#[test]
fn a_rank_killed_mid_step_of_spsa_says_the_step_lost_and_how_to_continue() {
    let t = Tmp::new("killed-spsa");
    let mut c = Command::new(BIN);
    c.current_dir(&t.0)
        .args([
            "spsa", "--engine", "sim:8", "--games", "10000000", "--seed", "5",
        ])
        .args(["--threads", "1", "--quiet", "--name", "s", "--populations"])
        .arg(t.pops());
    let mut m = under_mpi(3, &c);
    let job = m
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mpirun");
    let checkpoint = t.session("s").join("spsa.ckpt");
    let t0 = Instant::now();
    let line = kill_rank_1(&t, job, || {
        checkpoint.exists() && t0.elapsed() > Duration::from_secs(1)
    });
    // `step N was not finished; the session stands at step N-1 (…spsa.ckpt); continue with: …`
    let number = |after: &str| -> u64 {
        let rest = &line[line.find(after).unwrap_or_else(|| panic!("{line}")) + after.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().unwrap_or_else(|_| panic!("{line}"))
    };
    let lost = number("step ");
    assert!(line.contains(" was not finished; "), "{line}");
    assert_eq!(number("the session stands at step "), lost - 1, "{line}");
    // Steps were played a second before the kill: the note followed them (the one set before
    // the run says step 1).
    assert!(lost > 2, "{line}");
    assert!(line.contains("spsa.ckpt"), "{line}");
    assert!(
        line.contains(&format!("continue with: {BIN} resume s")),
        "{line}"
    );
}
