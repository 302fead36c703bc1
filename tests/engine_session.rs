//! Sessions that tune an outside engine's own parameters (`new --engine CMD`): the example
//! engine of `examples/hub_engine.py` and our own engine through the protocol (`checkers-ga hub
//! --tunable`) are tuned, stopped, resumed and shown by the engine's names; the same seed gives
//! the same session at 1 and 2 threads and resumed; engines that crash or hang cost games,
//! which the history and `faults.log` record (whichever the tuner), and leave no process; an engine whose
//! declarations changed is refused on resume. (The Python engines need `python3`: without it
//! these tests fail in CI and elsewhere say `SKIPPED`.)

mod common;

use common::{assert_none_left, bin, manifest_dir, new_cmd, resume_cmd, run_ok, text, Tmp};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Is there a `python3` to run the Python engines? Says why not when there is none.
fn python() -> bool {
    common::have_python()
}

/// The session settings of these tests: small and quick.
const SMALL: [&str; 10] = [
    "--population",
    "4",
    "--duel-games",
    "2",
    "--measure-every",
    "3",
    "--measure-games",
    "4",
    "--depth",
    "1",
];

/// `new --engine CMD` for session `name` with `SMALL` settings and `more`, run in the
/// repository (the engines' paths are relative to it).
fn engine_new(t: &Tmp, seed: u64, name: &str, engine: &str, more: &[&str]) -> Command {
    let mut c = new_cmd(t, seed, name, true, &SMALL);
    c.current_dir(manifest_dir())
        .args(["--engine", engine])
        .args(more);
    c
}

/// A marker no other process has on its command line.
fn marker(tag: &str) -> String {
    format!("--marker=engine-session-{tag}-{}", std::process::id())
}

const EXAMPLE: &str = "python3 examples/hub_engine.py";

#[test]
fn the_example_engine_is_tuned_stopped_resumed_and_shown_by_its_names() {
    if !python() {
        return;
    }
    let t = Tmp::new("engine-example");
    // Two generations, then continued to three: the same as three at once, at 1 thread and 2.
    run_ok(engine_new(&t, 7, "ex", EXAMPLE, &["--generations", "2"]));
    let mut more = resume_cmd(&t, Some(&t.session("ex")), true, &["--generations", "3"]);
    more.current_dir(manifest_dir());
    run_ok(more);
    let whole = Tmp::new("engine-example-whole");
    run_ok(engine_new(
        &whole,
        7,
        "ex",
        EXAMPLE,
        &["--generations", "3", "--threads", "1"],
    ));
    assert_eq!(
        common::timeless(&t.ckpt("ex", 3)),
        common::timeless(&whole.ckpt("ex", 3))
    );
    let s = common::load(&t.ckpt("ex", 3));
    let e = s
        .settings
        .engine
        .as_ref()
        .expect("the session keeps its engine");
    let names: Vec<&str> = e.tuned.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "king",
            "centre",
            "edge",
            "back-rank",
            "double-corner",
            "advance",
            "king-distance",
            "mobility"
        ]
    );
    assert!(s.history.iter().any(|h| h.measure.is_some()));
    // `show` of the session and of its best file: the engine's names and values in range.
    for what in [t.session("ex"), t.best("ex")] {
        let out = run_ok({
            let mut c = bin();
            c.arg("show").arg(&what);
            c
        });
        assert!(out.contains("outside engine 'hub_engine.py'"), "{out}");
        for p in &e.tuned {
            let row = out
                .lines()
                .find(|l| l.split_whitespace().nth(1) == Some(&p.name))
                .unwrap_or_else(|| panic!("no row for {} in {out}", p.name));
            let v: i64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
            assert!((p.min..=p.max).contains(&v), "{row}");
        }
    }
    // The export as the engine's own commands.
    let script = run_ok({
        let mut c = bin();
        c.arg("export").arg(t.best("ex")).args(["--format", "hub"]);
        c
    });
    assert_eq!(script.lines().count(), 8, "{script}");
    assert!(script.starts_with("set-param name=king value="), "{script}");
}

#[test]
fn our_engine_through_the_protocol_is_tuned_alike_at_any_thread_count() {
    let engine = format!(
        "{} hub --tunable --tunable-range 1000 --tie-break first material",
        common::BIN
    );
    let tune = ["--tune", "kings,opp_kings,moves", "--generations", "2"];
    let run = |threads: &str, more: &[&str]| {
        let t = Tmp::new(&format!("engine-ours-{threads}{}", more.len()));
        let mut c = engine_new(&t, 3, "ours", &engine, &tune);
        c.args(["--threads", threads]).args(more);
        run_ok(c);
        t
    };
    // By default each game holds a core (its thread and engines pinned to it): with --no-pin
    // the games run where the system puts them, to the same results.
    let (one, two, free) = (run("1", &[]), run("2", &[]), run("2", &["--no-pin"]));
    assert_eq!(
        common::timeless(&one.ckpt("ours", 2)),
        common::timeless(&two.ckpt("ours", 2))
    );
    assert_eq!(
        common::timeless(&two.ckpt("ours", 2)),
        common::timeless(&free.ckpt("ours", 2))
    );
    let out = run_ok({
        let mut c = bin();
        c.arg("show").arg(one.session("ours"));
        c
    });
    for name in ["kings", "opp_kings", "moves"] {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(name)),
            "{out}"
        );
    }
    // The set-param lines it exports are what the engine takes.
    let script = run_ok({
        let mut c = bin();
        c.arg("export")
            .arg(one.best("ours"))
            .args(["--format", "hub"]);
        c
    });
    let mut hub = Command::new(common::BIN)
        .args(["hub", "--tunable", "material"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut w = hub.stdin.take().unwrap();
        write!(w, "hub\n{script}init\nquit\n").unwrap();
    }
    let out = hub.wait_with_output().unwrap();
    let said = text(&out.stdout);
    assert!(said.contains("ready") && !said.contains("error"), "{said}");
}

#[test]
fn an_engine_that_crashes_costs_games_and_the_session_goes_on() {
    if !python() {
        return;
    }
    let m = marker("crash");
    let engine = format!("python3 tests/fake_engines/crash_every.py 2 {m}");
    let t = Tmp::new("engine-crash");
    let out = engine_new(
        &t,
        5,
        "c",
        &engine,
        &["--generations", "2", "--threads", "2"],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = common::load(&t.ckpt("c", 2));
    let faults: u32 = s.history.iter().map(|h| h.faults).sum();
    assert!(faults > 0, "no faults in {:?}", s.history);
    let log = std::fs::read_to_string(t.session("c").join("faults.log")).unwrap();
    assert_eq!(log.lines().count() as u32, faults, "{log}");
    assert!(
        log.lines()
            .all(|l| l.contains("exited") && l.contains("crash_every: exiting in game 2")),
        "{log}"
    );
    assert_none_left(&m);
}

#[test]
fn every_tuner_keeps_the_faults_log_of_an_engine_that_crashes() {
    if !python() {
        return;
    }
    let m = marker("crash-tuners");
    let engine = format!("python3 tests/fake_engines/crash_every.py 2 {m}");
    let t = Tmp::new("engine-crash-tuners");
    for tuner in ["spsa", "cmaes"] {
        let out = new_cmd(&t, 5, tuner, true, &["--depth", "1"])
            .current_dir(manifest_dir())
            .args(["--engine", &engine, "--tuner", tuner])
            .args(["--games-budget", "48", "--threads", "2"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{tuner}: {}", text(&out.stderr));
        let dir = t.session(tuner);
        let faults = match tuner {
            "spsa" => {
                checkers_ga::load_spsa(&dir.join("spsa.ckpt"))
                    .unwrap()
                    .state
                    .faults
            }
            _ => {
                checkers_ga::load_cmaes(&dir.join("cmaes.ckpt"))
                    .unwrap()
                    .state
                    .faults
            }
        };
        assert!(faults > 0, "{tuner}: no faults");
        let log = std::fs::read_to_string(dir.join("faults.log")).unwrap();
        assert_eq!(log.lines().count() as u64, faults, "{tuner}: {log}");
        let (step, side) = match tuner {
            "spsa" => ("step ", "θ"),
            _ => ("generation ", "pair "),
        };
        assert!(
            log.lines().all(|l| l.starts_with(step)
                && l.contains(side)
                && l.contains("exited")
                && l.contains("crash_every: exiting in game 2")),
            "{tuner}: {log}"
        );
        // The history's table says where the log is.
        let h = bin()
            .arg("history")
            .arg(&dir)
            .arg("--populations")
            .arg(t.pops())
            .output()
            .unwrap();
        assert!(
            text(&h.stdout).contains("faults.log says which"),
            "{}",
            text(&h.stdout)
        );
    }
    assert_none_left(&m);
}

#[test]
fn an_engine_that_hangs_loses_on_the_move_timeout_and_is_killed() {
    if !python() {
        return;
    }
    let m = marker("hang");
    let engine = format!("python3 tests/fake_engines/hang_every.py 2 {m}");
    let t = Tmp::new("engine-hang");
    let out = engine_new(
        &t,
        5,
        "h",
        &engine,
        // Two game threads: the processes play a second game (more threads would start
        // new ones for every game of the generation).
        &[
            "--generations",
            "1",
            "--move-timeout",
            "0.5",
            "--threads",
            "2",
        ],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = common::load(&t.ckpt("h", 1));
    assert!(s.history[0].faults > 0, "{:?}", s.history);
    let log = std::fs::read_to_string(t.session("h").join("faults.log")).unwrap();
    assert!(log.contains("did not answer in time"), "{log}");
    assert_none_left(&m);
}

#[test]
fn an_engine_whose_declarations_changed_is_refused_on_resume() {
    if !python() {
        return;
    }
    let t = Tmp::new("engine-declares");
    let decl = t.write("params.txt", b"a 0 -50 50\nb 3 0 9\n");
    let engine = format!("python3 tests/fake_engines/declares.py {}", decl.display());
    run_ok(engine_new(&t, 9, "d", &engine, &["--generations", "1"]));
    std::fs::write(&decl, "a 0 -50 60\nb 3 0 9\n").unwrap();
    let mut c = resume_cmd(&t, Some(&t.session("d")), true, &["--generations", "2"]);
    c.current_dir(manifest_dir());
    let out = c.output().unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot continue session 'd'") && err.contains("parameter a changed"),
        "{err}"
    );
    // Put back, it continues; a tuned parameter's new default is no change (the session sets
    // every tuned value itself and keeps its own start).
    std::fs::write(&decl, "a 7 -50 50\nb 3 0 9\n").unwrap();
    let mut c = resume_cmd(&t, Some(&t.session("d")), true, &["--generations", "2"]);
    c.current_dir(manifest_dir());
    run_ok(c);
    assert!(t.ckpt("d", 2).exists());
    let s = common::load(&t.ckpt("d", 2));
    let e = s.settings.engine.unwrap();
    assert_eq!(e.tuned.iter().find(|p| p.name == "a").unwrap().default, 0);
}

#[test]
fn bad_engine_input_is_one_line() {
    let t = Tmp::new("engine-bad");
    for (engine, more, needle) in [
        ("/no/such/engine", vec![], "no program"),
        (
            "python3 examples/hub_engine.py",
            vec!["--tune", "queen"],
            "declares no parameter 'queen'",
        ),
        (
            "python3 examples/hub_engine.py",
            vec!["--fit-every", "1"],
            "no fit",
        ),
    ] {
        if engine.starts_with("python3") && !python() {
            continue;
        }
        let out = engine_new(&t, 1, "bad", engine, &more).output().unwrap();
        assert!(!out.status.success(), "{engine} {more:?}");
        let err = text(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    assert!(!t.session("bad").join("gen-00001.ckpt").exists());
}

/// Ctrl-C during a session of an outside engine: it stops at the next game boundary, saves,
/// says how to continue and exits 130, leaving no engine process; continued, it finishes.
#[test]
fn ctrl_c_stops_an_engine_session_which_then_continues() {
    if !python() {
        return;
    }
    let m = marker("sigint");
    let engine = format!("{EXAMPLE} {m}");
    let t = Tmp::new("engine-sigint");
    let mut c = engine_new(&t, 11, "i", &engine, &["--generations", "30"]);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let first = t.ckpt("i", 1);
    let start = Instant::now();
    while !first.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the session ended early"
        );
        assert!(start.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(20));
    }
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{stdout}{}",
        text(&out.stderr)
    );
    // --quiet: the answer's path alone on standard output, how to continue on standard error.
    assert!(!stdout.contains("continue with:"), "{stdout}");
    assert!(text(&out.stderr).contains("continue with:"), "{stdout}");
    assert_none_left(&m);
    let newest = checkers_ga::store::list_checkpoints(&t.session("i"))
        .into_iter()
        .max()
        .unwrap();
    let g = common::load(&newest).generation;
    assert!((1..30).contains(&g));
    let mut c = resume_cmd(
        &t,
        Some(&t.session("i")),
        true,
        &["--generations", &(g + 1).to_string()],
    );
    c.current_dir(manifest_dir());
    run_ok(c);
    assert!(t.ckpt("i", g + 1).exists());
    assert_none_left(&m);
}

/// `2m05s` or `45s` (as the program writes a duration) in seconds.
fn seconds_of(text: &str) -> f64 {
    let (m, s) = match text.split_once('m') {
        Some((m, s)) => (m.parse::<f64>().unwrap(), s),
        None => (0.0, text),
    };
    60.0 * m + s.trim_end_matches('s').parse::<f64>().unwrap()
}

/// What a session of an engine slow to start says its run will cost (`this run: ... about 19s
/// at the 10.1 games/s so far`) is the time the run takes, within a quarter: the rate is
/// measured past the start of the engine's processes, which the first generation waits for.
#[test]
fn the_time_a_run_says_it_will_take_is_the_time_it_takes() {
    if !python() {
        return;
    }
    let t = Tmp::new("cost");
    let m = marker("cost");
    // Every process takes 1.5 s to start (two a thread in the first generation), a move 2 ms.
    let engine = format!("python3 tests/fake_engines/slow_start.py 1.5 2 {m}");
    let small = ["--population", "4", "--depth", "1", "--measure-every", "0"];
    let mut c = new_cmd(&t, 3, "c", false, &small);
    c.current_dir(manifest_dir()).args([
        "--engine",
        &engine,
        "--games-budget",
        "160",
        "--threads",
        "2",
    ]);
    let out = run_ok(c);
    let said = out
        .lines()
        .find_map(|l| l.strip_prefix("this run: "))
        .and_then(|l| l.split(" games in all, about ").nth(1))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no cost line in {out}"));
    // `session 'c': generation 40 of 40, 160 of 160 games, this run 19s (CHECKPOINT)`
    let took = out
        .lines()
        .find_map(|l| l.strip_prefix("session 'c': generation 40 of 40, "))
        .and_then(|l| l.split(", this run ").nth(1))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no summary in {out}"));
    let (said, took) = (seconds_of(said), seconds_of(took));
    assert!(
        (said - took).abs() <= 0.25 * took,
        "said {said} s, took {took} s:\n{out}"
    );
    assert_none_left(&m);
}
