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
    let _ = (resume_cmd, text);
}
