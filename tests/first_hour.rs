//! An engine author's first hour: what a newcomer to outside-engine tuning meets first. A
//! session of one tuned parameter, what an engine session will cost and a budget of games, a
//! corrupt history beside a sound checkpoint, the hints a session prints, the lock after a
//! clean exit. Our own engine through the protocol (`checkers-ga hub --tunable`) is the
//! outside engine, so nothing here needs Python.

mod common;

use common::{bin, new_cmd, resume_cmd, run_ok, text, Tmp, BIN};

/// Our engine through the protocol, its weights tunable, ties broken the same way every time.
fn engine() -> String {
    format!("{BIN} hub --tunable --tunable-range 1000 --tie-break first material")
}

/// Settings of a small, quick engine session.
const SMALL: [&str; 8] = [
    "--population",
    "4",
    "--duel-games",
    "2",
    "--measure-every",
    "0",
    "--depth",
    "1",
];

#[test]
fn tuning_one_parameter_runs_generation_after_generation() {
    let t = Tmp::new("one-gene");
    let mut c = new_cmd(&t, 1, "one", true, &SMALL);
    c.args([
        "--engine",
        &engine(),
        "--tune",
        "kings",
        "--generations",
        "3",
    ]);
    let out = run_ok(c);
    assert!(out.trim().ends_with("best.json"), "{out}");
    let shown = run_ok({
        let mut c = bin();
        c.arg("show").arg(out.trim());
        c
    });
    assert!(shown.contains("kings"), "{shown}");
}

/// A session of our own weights, small and quick: `generations` generations.
fn quick_session(t: &Tmp, name: &str, generations: u64) {
    let g = generations.to_string();
    let args = [
        "--population",
        "4",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--generations",
        &g,
    ];
    run_ok(new_cmd(t, 5, name, true, &args));
}

/// A session that ended cleanly leaves no lock file in its folder (the lock was the process's,
/// and it has gone), also after `resume`.
#[test]
fn a_clean_exit_leaves_no_lock_file() {
    let t = Tmp::new("lock");
    quick_session(&t, "l", 1);
    let lock = t.session("l").join(checkers_ga::LOCK_FILE);
    assert!(t.session("l").join("gen-00001.ckpt").exists());
    assert!(!lock.exists(), "{} left", lock.display());
    run_ok(resume_cmd(
        &t,
        Some(&t.session("l")),
        true,
        &["--generations", "2"],
    ));
    assert!(!lock.exists(), "{} left after resume", lock.display());
}

/// `history`, `report` and `resume` of a session whose history.bin was replaced by 100 random
/// bytes: each works from the sound checkpoint and says, in one warning line, what was lost.
#[test]
fn a_corrupt_history_file_costs_its_statistics_not_the_session() {
    let t = Tmp::new("corrupt-history");
    quick_session(&t, "h", 3);
    let file = t.session("h").join("history.bin");
    let noise: Vec<u8> = (0..100u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(&file, &noise).unwrap();
    let warned = |err: &str| {
        let lines: Vec<&str> = err.lines().filter(|l| l.contains("history.bin")).collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(lines[0].starts_with("warning: "), "{err}");
        assert!(lines[0].contains("3 generation(s) are lost"), "{err}");
    };
    let pops = t.pops();
    let pops = pops.to_str().unwrap();
    for cmd in [
        vec!["history", "h", "--populations", pops],
        vec!["report", "h", "--populations", pops],
    ] {
        let mut c = bin();
        c.current_dir(&t.0).args(&cmd);
        let out = c.output().unwrap();
        assert!(out.status.success(), "{cmd:?}: {}", text(&out.stderr));
        warned(&text(&out.stderr));
    }
    let out = resume_cmd(&t, Some(&t.session("h")), false, &["--generations", "4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    warned(&text(&out.stderr));
    // The damaged file is set aside, not lost; the new one holds what the session ran since.
    let aside = t.session("h").join("history.bin.superseded-1");
    assert_eq!(std::fs::read(aside).unwrap(), noise);
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["history", "h", "--populations", pops]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("warning"),
        "{}",
        text(&out.stderr)
    );
    let table = text(&out.stdout);
    assert!(
        table.lines().any(|l| l.trim_start().starts_with("4 ")),
        "{table}"
    );
}

/// A history file cut short keeps its whole records: the warning says which generations are
/// kept, and `history` shows them.
#[test]
fn a_history_file_cut_short_keeps_its_whole_records() {
    let t = Tmp::new("short-history");
    quick_session(&t, "s", 4);
    let file = t.session("s").join("history.bin");
    let bytes = std::fs::read(&file).unwrap();
    // Cut inside the last record.
    std::fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
    let pops = t.pops();
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["history", "s", "--populations", pops.to_str().unwrap()]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("1 generation(s) are lost (generations 1 to 3 kept)"),
        "{err}"
    );
    let table = text(&out.stdout);
    for g in ["1 ", "2 ", "3 "] {
        assert!(
            table.lines().any(|l| l.trim_start().starts_with(g)),
            "{table}"
        );
    }
}

/// Is there a `python3` for the Python fake engines? In CI there must be; elsewhere a test
/// without it prints `SKIPPED: <why>` and stops.
fn python() -> bool {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is missing, and CI installs it"
        );
        eprintln!("SKIPPED: python3 is missing, and this test's engine is Python");
    }
    ok
}

/// Games that ended before either engine moved (each engine exits when asked for its first
/// move) have no length to report: the match says so instead of counting the openings' plies.
#[test]
fn games_that_never_started_are_not_given_a_length() {
    if !python() {
        return;
    }
    let e = "hub:python3 tests/fake_engines/exit_at_once.py";
    let mut c = bin();
    c.current_dir(common::manifest_dir())
        .args(["match", e, e, "--depth", "2", "--games", "2"]);
    let out = c.output().unwrap();
    let report = text(&out.stdout);
    assert!(report.contains("Faults (games lost): A 1, B 1"), "{report}");
    let last = report.lines().last().unwrap_or_default();
    assert!(last.starts_with("time "), "{report}");
    assert!(last.ends_with("no game got past its opening"), "{report}");
    assert!(!last.contains("plies/game"), "{report}");
}
