//! Outside engines that fail: `match material hub:python3 tests/fake_engines/X.py` for an
//! illegal move, an exit mid-game, a hang, garbage, and noise on stderr. The match goes on and
//! exits 0, the report and the PDN say why each game was lost (an engine with no answer to
//! `hub` at the start fails the match at once, in one line), and
//! afterwards no engine process is left (nor one an engine started). Stopping the match with
//! Ctrl-C, once or twice, leaves none either.

mod common;

use common::{assert_none_left, bin, manifest_dir, text, with_marker, Tmp};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A marker no other process has on its command line (the fakes take it as an argument, and
/// `hang.py` gives it to the child it starts).
fn marker(tag: &str) -> String {
    format!(
        "--marker=hub-faults-{tag}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    )
}

/// `match material hub:python3 tests/fake_engines/FAKE.py MARKER` (B the fake) over 4 games at
/// depth 2, run in the repository; returns the output and the PDN.
fn match_against(fake: &str, marker: &str) -> (Output, String) {
    let tmp = Tmp::new(fake);
    let pdn = tmp.0.join("games.pdn");
    let out = bin()
        .current_dir(manifest_dir())
        .args([
            "match",
            "material",
            &format!("hub:python3 tests/fake_engines/{fake}.py {marker}"),
            "--games",
            "4",
            "--depth",
            "2",
            "--move-timeout",
            "1",
            "--seed",
            "1",
            "--threads",
            "2",
            "--quiet",
            "--pdn",
        ])
        .arg(&pdn)
        .output()
        .expect("run checkers-ga");
    let pdn = std::fs::read_to_string(&pdn).unwrap_or_default();
    (out, pdn)
}

/// The fake loses all 4 games by `fault` (the report's words), the report and every game's
/// result comment saying why with `detail`; no process is left. Returns the match's stderr.
fn check_fault(fake: &str, fault: &str, detail: &str) -> String {
    let m = marker(fake);
    let (out, pdn) = match_against(fake, &m);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("W/D/L for A: 4/0/0"), "{stdout}");
    assert!(stdout.contains("Faults (games lost): A 0, B 4"), "{stdout}");
    assert!(
        stdout.contains(&format!("  B {fault} in 4 games (game 1: ")) && stdout.contains(detail),
        "{stdout}"
    );
    assert_eq!(pdn.matches("[Event ").count(), 4, "{pdn}");
    let comments: Vec<&str> = pdn.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(comments.len(), 4, "{pdn}");
    for c in comments {
        assert!(
            c.contains(&format!("'s engine {fault}: ")) && c.contains(detail),
            "{c}"
        );
    }
    assert_none_left(&m);
    text(&out.stderr)
}

#[test]
fn an_illegal_move_loses_the_game_and_the_match_goes_on() {
    check_fault(
        "illegal",
        "played an illegal move",
        "'1-32' is not a legal move",
    );
}

#[test]
fn an_exit_mid_game_loses_the_game_with_the_engine_s_last_words() {
    // The fault's word once: `exited: exit status 3`, not `exited: exited (exit status 3)`.
    check_fault(
        "exit",
        "exited",
        "exit status 3; its last words: fake engine: giving up",
    );
}

#[test]
fn a_hang_loses_the_game_and_the_engine_and_its_child_are_killed() {
    check_fault("hang", "did not answer in time", "no move after 1 s");
}

#[test]
fn garbage_loses_the_game() {
    check_fault(
        "garbage",
        "printed garbage",
        "Segmentation fault? no: garbage",
    );
}

/// An engine that never answers `hub` fails the match once, in one line, before any game (the
/// handshake tried at the start, within `--handshake-timeout`), and is killed.
#[test]
fn no_answer_to_hub_fails_the_match_before_any_game() {
    let m = marker("silent");
    let tmp = Tmp::new("silent");
    let pdn = tmp.0.join("games.pdn");
    let out = bin()
        .current_dir(manifest_dir())
        .args([
            "match",
            "material",
            &format!("hub:python3 tests/fake_engines/silent.py {m}"),
            "--games",
            "4",
            "--handshake-timeout",
            "1",
            "--pdn",
        ])
        .arg(&pdn)
        .output()
        .expect("run checkers-ga");
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr
            .contains("the engine never answered the handshake: no 'wait' after 'hub' within 1 s"),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(&pdn).unwrap_or_default().is_empty());
    assert_none_left(&m);
}

#[test]
fn noise_on_stderr_does_not_matter() {
    let m = marker("noisy");
    let (out, pdn) = match_against("noisy", &m);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.starts_with("A: material  B: noisy  depth 2/2  4 games"),
        "{stdout}"
    );
    assert!(!stdout.contains("Faults"), "{stdout}");
    assert!(!pdn.contains("engine"), "{pdn}");
    assert_eq!(pdn.matches("[Event ").count(), 4);
    assert_none_left(&m);
}

/// A match against the hanging fake without a move timeout, stopped by SIGINT once (or twice):
/// it exits 130 and leaves no engine process.
fn interrupt(times: usize) {
    let m = marker(&format!("sigint{times}"));
    let child = Command::new(common::BIN)
        .current_dir(manifest_dir())
        .args([
            "match",
            "material",
            &format!("hub:python3 tests/fake_engines/hang.py {m}"),
            "--games",
            "4",
            "--depth",
            "2",
            "--threads",
            "2",
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Both games' engines (and their children) are started and hang at their third move.
    let t = Instant::now();
    while with_marker(&m).len() < 4 {
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "{:?}",
            with_marker(&m)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..times {
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert_none_left(&m);
}

#[test]
fn ctrl_c_once_stops_the_match_and_its_engines() {
    interrupt(1);
}

#[test]
fn ctrl_c_twice_exits_at_once_and_kills_the_engines() {
    interrupt(2);
}
