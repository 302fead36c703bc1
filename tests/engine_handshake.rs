//! The handshake with an outside engine as the client makes it (`match`, `play`, `new
//! --engine`, `spsa`): one time limit, `--handshake-timeout` (10 s by default), and an engine
//! that does not finish its handshake at the start of a command fails the command once, in one
//! line, before any game; a match reports its wall time, the handshakes included. The fakes are
//! Python's (tests/fake_engines); without `python3` the tests say `SKIPPED` and pass.

mod common;

use common::{bin, manifest_dir, text, Tmp};
use std::process::{Command, Output};

/// Is there a `python3` to run the fake engines? Says `SKIPPED` (past the harness's capture)
/// when there is none.
fn python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: no python3, and the outside engines of this test are Python"
        );
    }
    ok
}

/// `checkers-ga ARGS`, run in the repository (the fakes' paths are relative to it).
fn run(args: &[&str]) -> Output {
    bin()
        .current_dir(manifest_dir())
        .args(args)
        .output()
        .expect("run checkers-ga")
}

/// The command failed with exactly one line on standard error holding every needle, and
/// printed nothing of a match or a game on standard output.
fn assert_one_line_failure(what: &str, out: &Output, needles: &[&str]) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{what}: {stdout}{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{what}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{what}: no '{n}' in {stderr}");
    }
    assert!(!stdout.contains("W/D/L"), "{what}: {stdout}");
}

const SILENT: &str = "python3 tests/fake_engines/silent.py";

/// An engine that never answers `hub`: every command that starts one fails once, in one line
/// naming the time limit it was given, before any game.
#[test]
fn an_engine_that_never_answers_fails_the_command_once_within_the_handshake_timeout() {
    if !python() {
        return;
    }
    let t = Tmp::new("handshake-silent");
    let hub = format!("hub:{SILENT}");
    let limit = ["--handshake-timeout", "1"];
    let said = [
        "never answered the handshake",
        "no 'wait' after 'hub' within 1 s",
    ];
    let out = run(&[&["match", "material", &hub, "--games", "2"][..], &limit].concat());
    assert_one_line_failure("match", &out, &said);
    let pops = t.0.join("pops");
    let pops = pops.to_str().unwrap();
    let out = run(&[
        &["new", "--engine", SILENT, "--populations", pops, "--quiet"][..],
        &limit,
    ]
    .concat());
    assert_one_line_failure("new --engine", &out, &said);
    let spsa_out = t.0.join("spsa.json");
    let out = run(&[
        &["spsa", "--engine", SILENT, "--games", "4", "--out"][..],
        &[spsa_out.to_str().unwrap()],
        &limit,
    ]
    .concat());
    assert_one_line_failure("spsa", &out, &said);
    let out = run(&[&["play", "--black", &hub, "--white", "random"][..], &limit].concat());
    assert_one_line_failure("play", &out, &said);
}

/// `--handshake-timeout` takes seconds above 0.
#[test]
fn a_bad_handshake_timeout_is_a_usage_error() {
    for bad in ["0", "-1", "nan", "100000"] {
        let flag = format!("--handshake-timeout={bad}");
        let out = run(&["match", "material", "hand", &flag]);
        common::assert_usage_error(&out, &["--handshake-timeout"]);
    }
}

/// A match's reported time is its wall time: an engine whose first start (the handshake tried
/// before the games) takes 2 s makes the match report at least 2 s.
#[test]
fn a_match_reports_its_wall_time_handshakes_included() {
    if !python() {
        return;
    }
    let t = Tmp::new("handshake-slow");
    let flag = t.0.join("started");
    let engine = format!(
        "hub:python3 tests/fake_engines/slow_first.py 2 {}",
        flag.display()
    );
    let out = run(&[
        "match",
        "material",
        &engine,
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "10",
        "--threads",
        "1",
        "--quiet",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let secs: f64 = stdout
        .split("time ")
        .nth(1)
        .and_then(|r| r.split(" s").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no time in {stdout}"));
    assert!(secs >= 2.0, "reported {secs} s: {stdout}");
}

const EXAMPLE: &str = "python3 examples/hub_engine.py";

/// A value the engine's declaration rules out (not an integer, outside the range), one it
/// answers with `error`, or an `--engine-option` naming a tuned or undeclared parameter stops
/// the command with one line before any game: `match` (`--option-a/-b`), `new --engine` and
/// `spsa` (`--engine-option`). The names are the example engine's (`king` is an int
/// 100..300).
#[test]
fn options_an_engine_cannot_take_stop_the_command_before_any_game() {
    if !python() {
        return;
    }
    let t = Tmp::new("handshake-options");
    let hub = format!("hub:{EXAMPLE}");
    for (option, said) in [
        (
            "king=abc",
            "--option-b king=abc: 'abc' is not an integer (king is declared int 100..300)",
        ),
        (
            "king=1000",
            "--option-b king=1000: 1000 is outside the range",
        ),
    ] {
        let out = run(&[
            "match",
            "classic",
            &hub,
            "--games",
            "2",
            "--option-b",
            option,
        ]);
        assert_one_line_failure(option, &out, &[said]);
    }
    // Our own engine refuses weights it cannot read: it answers `error`, and the match stops.
    let ours = format!("hub:{} hub", common::BIN);
    let out = run(&[
        "match",
        "material",
        &ours,
        "--games",
        "2",
        "--option-b",
        "weights=no-such-weights",
    ]);
    assert_one_line_failure(
        "refused",
        &out,
        &[
            "--option-b weights=no-such-weights: ",
            " refused: ",
            "cannot read 'no-such-weights'",
        ],
    );
    let pops = t.0.join("pops");
    let pops = pops.to_str().unwrap();
    for (more, said) in [
        (
            vec!["--engine-option", "king=140"],
            "--engine-option king=140 sets a parameter that is tuned; to keep it fixed, tune the others: --tune centre,edge,",
        ),
        (
            vec!["--engine-option", "man=abc"],
            "--engine-option man=abc: the engine declares no parameter 'man' (its parameters: king, centre,",
        ),
        (
            vec!["--tune", "centre", "--engine-option", "king=abc"],
            "--engine-option king=abc: 'abc' is not an integer",
        ),
        (
            vec!["--tune", "centre", "--engine-option", "king=99"],
            "--engine-option king=99: 99 is outside the range",
        ),
    ] {
        let out = run(&[&["new", "--engine", EXAMPLE, "--populations", pops, "--quiet"][..], &more].concat());
        assert_one_line_failure(&format!("new {more:?}"), &out, &[said]);
    }
    assert!(
        !t.0.join("pops").exists()
            || std::fs::read_dir(t.0.join("pops"))
                .unwrap()
                .next()
                .is_none()
    );
    let engine = format!("{} hub --tunable material", common::BIN);
    let out = run(&[
        "new",
        "--engine",
        &engine,
        "--tune",
        "kings",
        "--engine-option",
        "weights=no-such-weights",
        "--populations",
        pops,
        "--quiet",
    ]);
    assert_one_line_failure(
        "new, refused",
        &out,
        &[
            "--engine-option weights=no-such-weights: the engine refused: ",
            "cannot read",
        ],
    );
    let spsa_out = t.0.join("spsa.json");
    let out = run(&[
        "spsa",
        "--engine",
        EXAMPLE,
        "--games",
        "4",
        "--engine-option",
        "mobility=abc",
        "--tune",
        "king",
        "--out",
        spsa_out.to_str().unwrap(),
    ]);
    assert_one_line_failure(
        "spsa",
        &out,
        &["--engine-option mobility=abc: 'abc' is not an integer"],
    );
    assert!(!spsa_out.exists());
}
