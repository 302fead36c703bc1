//! `checkers-ga hub` driven by Python's pydraughts (the client bots and tournament scripts use)
//! through whole games of English draughts: self-play, against a random mover with either
//! colour, two engine processes; at depth, move-time and clock levels. pydraughts checks every
//! move by its own rules (tests/hub/pydraughts_games.py), records the games with its PDN
//! writer, and `checkers-ga pdn` reads them back with the same moves, result and final
//! position.
//!
//! The Python is `PYDRAUGHTS_PYTHON` when set (CI sets it: .ci/run installs pydraughts into a
//! virtual environment), else /tmp/pdv/bin/python or `python3`, whichever imports `draughts`.
//! With none the test prints `SKIPPED: <why>` on standard error (past the test harness's
//! capture, so it shows in `cargo test`'s output) and passes; in CI (`CI` set, and not `false`)
//! it fails instead.

mod common;

use checkers_ga::{parse_fen, to_fen};
use common::{repo, Tmp, BIN};
use std::process::Command;

/// A Python that imports pydraughts, or why there is none.
fn pydraughts_python() -> Result<String, String> {
    let mut tried = Vec::new();
    let candidates = match std::env::var("PYDRAUGHTS_PYTHON") {
        Ok(p) => vec![p],
        Err(_) => vec!["/tmp/pdv/bin/python".to_string(), "python3".to_string()],
    };
    for python in candidates {
        let ok = Command::new(&python)
            .args(["-c", "import draughts.engine, draughts.PDN"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if ok {
            return Ok(python);
        }
        tried.push(python);
    }
    Err(format!(
        "no Python with pydraughts (tried {}; set PYDRAUGHTS_PYTHON or `pip install pydraughts==0.6.7`)",
        tried.join(", ")
    ))
}

/// Whether this runs in CI (`CI` set, and not empty or `false`), where every test must run.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false")
}

/// A test that cannot run here: in CI a failure; elsewhere `SKIPPED: <why>` written straight
/// to standard error (the harness captures `eprintln!`, and a passing test's output is never
/// shown).
fn skip(why: &str) {
    if in_ci() {
        panic!("CI must run this test: {why}");
    }
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

/// The lines of `checkers-ga pdn` for each game: `key: value` pairs.
fn read_back(pdn: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let out = Command::new(BIN)
        .args(["pdn", "--notation", "hub"])
        .arg(pdn)
        .output()
        .unwrap();
    let text = common::stdout_ok(&out);
    let mut games = Vec::new();
    for line in text.lines() {
        if line.starts_with("game ") {
            games.push(std::collections::HashMap::new());
            continue;
        }
        let (k, v) = line
            .split_once(": ")
            .unwrap_or((line.trim_end_matches(':'), ""));
        games
            .last_mut()
            .expect("a game line first")
            .insert(k.to_string(), v.to_string());
    }
    games
}

#[test]
fn pydraughts_plays_whole_games_and_its_pdn_reads_back_the_same() {
    let python = match pydraughts_python() {
        Ok(p) => p,
        Err(why) => return skip(&why),
    };
    let t = Tmp::new("pydraughts");
    let engine = std::fs::canonicalize(BIN).unwrap();
    let out = Command::new(&python)
        .arg(repo("tests/hub/pydraughts_games.py"))
        .arg(&engine)
        .arg(&t.0)
        .current_dir(&t.0)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pydraughts games failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let games: serde_json::Value = serde_json::from_str(&t.read("games.json")).unwrap();
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 4);
    let ours = read_back(&t.0.join("games.pdn"));
    assert_eq!(ours.len(), games.len());
    for (g, o) in games.iter().zip(&ours) {
        let label = g["label"].as_str().unwrap();
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(moves.len() >= 10, "{label}: {} moves", moves.len());
        let read: Vec<&str> = o["moves"].split_whitespace().collect();
        assert_eq!(read, moves, "{label}: the moves read back");
        assert_eq!(o["plies"], moves.len().to_string(), "{label}");
        assert_eq!(o["result"], g["result"].as_str().unwrap(), "{label}");
        let theirs = parse_fen(g["final_fen"].as_str().unwrap()).unwrap();
        assert_eq!(o["final"], to_fen(&theirs), "{label}: the final position");
        // A decided game is decided the same way by our rules.
        match g["winner"].as_i64() {
            Some(1) => assert_eq!(o["our rules"], "1-0 (White has no moves)", "{label}"),
            Some(2) => assert_eq!(o["our rules"], "0-1 (Black has no moves)", "{label}"),
            _ => {}
        }
    }
    // The engine does not lose to a random mover, with either colour.
    assert_ne!(games[1]["winner"].as_i64(), Some(2), "engine as Black lost");
    assert_ne!(games[2]["winner"].as_i64(), Some(1), "engine as White lost");
}

#[test]
fn pdn_reads_games_back_checked_by_our_rules_and_rejects_bad_ones() {
    let t = Tmp::new("pdn");
    // Two games: one ended (White has no piece left), one unfinished from a FEN setup.
    let file = t.write(
        "two.pdn",
        b"[Event \"a\"]\n[FEN \"B:W18:B14,1\"]\n\n1. 14x23 1-0\n\n\
          [Event \"b\"]\n\n1. 11-15 23-19 2. 8-11 22-17 {a comment} *\n",
    );
    let games = read_back(&file);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["moves"], "14x23x18");
    assert_eq!(games[0]["result"], "1-0");
    assert_eq!(games[0]["our rules"], "1-0 (White has no moves)");
    assert_eq!(games[0]["final"], "W:W:B1,23");
    assert_eq!(games[1]["moves"], "11-15 23-19 8-11 22-17");
    assert_eq!(games[1]["our rules"], "not over");
    assert_eq!(games[1]["plies"], "4");
    let pdn = Command::new(BIN).args(["pdn"]).arg(&file).output().unwrap();
    assert!(common::stdout_ok(&pdn).contains("moves: 14x23\n"));
    // An illegal move, an unclosed comment, no game, no file: one line each, exit 1.
    for (name, text, says) in [
        (
            "illegal.pdn",
            "1. 11-15 11-15 *\n",
            "line 1: game 1: '11-15' is not a legal move",
        ),
        ("comment.pdn", "1. 11-15 {never closed\n", "never closed"),
        ("empty.pdn", "\n", "no PDN game"),
    ] {
        let f = t.write(name, text.as_bytes());
        let out = Command::new(BIN).arg("pdn").arg(&f).output().unwrap();
        common::assert_error(&out, &[says]);
    }
    let out = Command::new(BIN)
        .args(["pdn", "/no/such/games.pdn"])
        .output()
        .unwrap();
    common::assert_error(&out, &["/no/such/games.pdn"]);
}

/// Without pydraughts the games' test says `SKIPPED` and why where `cargo test` shows it, and
/// passes; in CI it fails. (The test binary runs that one test again with a Python that does
/// not exist.)
#[test]
fn without_pydraughts_the_test_says_skipped_and_fails_in_ci() {
    let run = |ci: Option<&str>| {
        let mut c = Command::new(std::env::current_exe().unwrap());
        c.args([
            "pydraughts_plays_whole_games_and_its_pdn_reads_back_the_same",
            "--exact",
        ])
        .env("PYDRAUGHTS_PYTHON", "/no/such/python")
        .env_remove("CI");
        if let Some(v) = ci {
            c.env("CI", v);
        }
        c.output().unwrap()
    };
    let out = run(None);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(
        stderr.contains("SKIPPED: no Python with pydraughts (tried /no/such/python;"),
        "{stderr}"
    );
    let out = run(Some("true"));
    let all = common::text(&out.stdout) + &common::text(&out.stderr);
    assert!(!out.status.success(), "{all}");
    assert!(
        all.contains("CI must run this test: no Python with pydraughts"),
        "{all}"
    );
}
