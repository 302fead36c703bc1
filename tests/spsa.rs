//! `checkers-ga spsa --engine CMD`: SPSA over examples/hub_engine.py's parameters at depth 1.
//! A short run writes the same engine parameter file at one thread and two, its values within
//! the declared ranges, and `show` reads it; Ctrl-C stops a run at the next step and still
//! writes the values so far; bad flags and a bad engine are one-line errors.
//!
//! The engine is Python's: without `python3` the tests that play say why they skipped.

mod common;

use common::{assert_error_exit, bin, file_values, manifest_dir, text, Tmp};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ENGINE: &str = "python3 examples/hub_engine.py";

/// Is there a `python3` to run the example engine? Says why not.
fn have_python() -> bool {
    common::have_python()
}

/// `checkers-ga spsa --engine ENGINE ARGS --populations T/populations`, run in the
/// repository.
fn spsa(t: &Tmp, args: &[&str]) -> Command {
    let mut c = bin();
    c.current_dir(manifest_dir())
        .args(["spsa", "--engine", ENGINE])
        .args(args)
        .arg("--populations")
        .arg(t.pops());
    c
}

fn output(mut c: Command) -> Output {
    c.output().expect("run checkers-ga")
}

/// The declared (min, max) of every parameter of the example engine, from its source.
fn ranges() -> Vec<(String, i64, i64)> {
    let src = std::fs::read_to_string(manifest_dir().join("examples/hub_engine.py")).unwrap();
    let block = src
        .split("PARAMS = {")
        .nth(1)
        .unwrap()
        .split('}')
        .next()
        .unwrap();
    block
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.trim().split_once(':')?;
            let nums: Vec<i64> = rest
                .trim()
                .trim_start_matches('(')
                .trim_end_matches("),")
                .split(',')
                .map(|x| x.trim().parse().unwrap())
                .collect();
            Some((name.trim().trim_matches('"').to_string(), nums[1], nums[2]))
        })
        .collect()
}

fn run_at(t: &Tmp, threads: &str, out: &Path) -> String {
    let o = output(spsa(
        t,
        &[
            "--depth",
            "1",
            "--games",
            "40",
            "--seed",
            "11",
            "--threads",
            threads,
            "--quiet",
            "--name",
            "det",
            "--out",
            out.to_str().unwrap(),
        ],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
}

#[test]
fn a_short_run_is_the_same_at_one_thread_and_two_and_stays_in_range() {
    if !have_python() {
        return;
    }
    // Two sessions of the same name, in two folders of sessions.
    let (t, t2) = (Tmp::new("det"), Tmp::new("det2"));
    let (one, two) = (t.0.join("one.json"), t.0.join("two.json"));
    let a = run_at(&t, "1", &one);
    let b = run_at(&t2, "2", &two);
    // The same answer, byte for byte; --quiet says each session's answer's path alone.
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    for (said, t) in [(&a, &t), (&b, &t2)] {
        let best = t.pops().join("det").join("best.json");
        assert_eq!(*said, format!("{}\n", best.display()));
    }
    let got = file_values(&one);
    let ranges = ranges();
    assert_eq!(got.len(), 8, "{a}");
    for ((name, v), (n, min, max)) in got.iter().zip(&ranges) {
        assert_eq!(name, n);
        assert!(
            (*min..=*max).contains(v),
            "{name} {v} outside {min}..={max}"
        );
    }
    let file = std::fs::read_to_string(&one).unwrap();
    assert!(file.contains("\"format\": \"checkers-ga engine parameters\""));
    assert!(
        file.contains("SPSA session 'det', seed 11: 40 games in 5 steps of 4 pairs"),
        "{file}"
    );
    for (name, v) in &got {
        assert!(file.contains(&format!("\"{name}\": {v}")), "{file}");
    }
    let shown = output({
        let mut c = bin();
        c.arg("show").arg(&one);
        c
    });
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    // An existing file is kept without --force.
    let o = output(spsa(
        &t,
        &[
            "--depth",
            "1",
            "--games",
            "2",
            "--quiet",
            "--out",
            one.to_str().unwrap(),
        ],
    ));
    assert_error_exit(&o, 1, &["already exists", "--force"]);
}

#[test]
fn ctrl_c_stops_at_the_next_step_and_writes_the_values_so_far() {
    if !have_python() {
        return;
    }
    let t = Tmp::new("stop");
    let out = t.0.join("stopped.json");
    let child = spsa(
        &t,
        &[
            "--depth",
            "1",
            "--games",
            "100000",
            "--threads",
            "2",
            "--seed",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let t0 = Instant::now();
    let o = child.wait_with_output().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    assert_eq!(file_values(&out).len(), 8);
    let err = text(&o.stderr);
    assert!(err.contains("stopped the run after"), "{err}");
    let file = std::fs::read_to_string(&out).unwrap();
    assert!(file.contains("(stopped; 100000 games asked for)"), "{file}");
}

#[test]
fn bad_flags_are_one_line_errors() {
    let t = Tmp::new("bad");
    let out = t.0.join("x.json");
    let o = out.to_str().unwrap();
    for (args, needle) in [
        (vec!["--games", "0"], "--games 0 must be"),
        (vec!["--games", "1"], "--games 1 must be"),
        (vec!["--games", "10", "--pairs", "0"], "--pairs must be"),
        (vec!["--games", "10", "--c-end", "0"], "--c-end 0 must be"),
        (
            vec!["--games", "10", "--c-end", "1.5"],
            "--c-end 1.5 must be",
        ),
        (vec!["--games", "10", "--r-end", "-1"], "--r-end -1 must be"),
        (
            vec!["--games", "10", "--r-end", "nan"],
            "--r-end NaN must be",
        ),
        (vec!["--games", "10", "--depth", "0"], "--depth"),
        (vec!["--games", "10", "--threads", "5000"], "--threads 5000"),
        (vec!["--games", "ten"], "--games"),
        (vec!["--games", "10", "--bogus"], "--bogus"),
        (
            vec!["--games", "10", "--engine-option", "x"],
            "must be NAME=VALUE",
        ),
        (
            vec!["--games", "10", "--move-timeout", "0"],
            "--move-timeout 0",
        ),
    ] {
        let mut c = spsa(&t, &args);
        c.args(["--out", o]);
        let r = output(c);
        assert_error_exit(&r, 2, &[needle]);
    }
    // A budget over the most a session plays, named by the flag that gave it.
    for (verb, flag) in [
        ("spsa", "--games"),
        ("cmaes", "--games"),
        ("new", "--games-budget"),
    ] {
        let r = output({
            let mut c = bin();
            c.args([verb, "--engine", "sim:4", flag, "20000000"]);
            if verb == "new" {
                c.args(["--tuner", "spsa"]);
            }
            c.arg("--populations").arg(t.0.join("p"));
            c
        });
        assert_error_exit(&r, 2, &[&format!("{flag} 20000000 must be 2..10000000")]);
    }
    // A setting only the GA takes, given with a one-file tuner: refused in one line that
    // names it, never left aside in silence (each of these was, before session 39, but
    // --population).
    for (tuner, ga_only) in [
        ("spsa", &["--selection", "tournament:3"][..]),
        ("spsa", &["--generations", "5"]),
        ("cmaes", &["--time", "60"]),
        ("cmaes", &["--params", "endgame66"]),
        ("cmaes", &["--measure-every", "5"]),
        ("spsa", &["--measure-games", "8"]),
        ("cmaes", &["--population", "8"]),
    ] {
        let r = output({
            let mut c = bin();
            c.args(["new", "--engine", "sim:4", "--tuner", tuner]);
            c.args(ga_only);
            c.arg("--populations").arg(t.0.join("p"));
            c
        });
        let says = format!(
            "--tuner {tuner} takes none of the GA's settings ({})",
            ga_only[0]
        );
        assert_error_exit(&r, 2, &[&says]);
    }
    assert!(!t.0.join("p").exists(), "nothing started");
    // No --engine, no --games.
    let r = output({
        let mut c = bin();
        c.args(["spsa", "--games", "10"]);
        c
    });
    assert_error_exit(&r, 2, &["--engine"]);
    let r = output({
        let mut c = bin();
        c.args(["spsa", "--engine", ENGINE]);
        c
    });
    assert_error_exit(&r, 2, &["--games"]);
    // An engine that cannot start, an output in no folder.
    let r = output({
        let mut c = bin();
        c.args([
            "spsa",
            "--engine",
            "./no-such-engine",
            "--games",
            "10",
            "--out",
            o,
        ]);
        c
    });
    assert_error_exit(&r, 1, &["no-such-engine"]);
    let r = output(spsa(
        &t,
        &["--games", "10", "--out", "/no/such/folder/x.json"],
    ));
    assert_error_exit(&r, 1, &["--out", "no folder"]);
    assert!(!out.exists());
    if have_python() {
        let r = output(spsa(&t, &["--games", "10", "--tune", "queen", "--out", o]));
        assert_error_exit(&r, 1, &["no parameter 'queen'", "king"]);
        assert!(!out.exists());
    }
}
