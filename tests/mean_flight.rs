//! The mean with generations in flight (`new --engine CMD --in-flight G`): each generation's
//! pairs are drawn G generations ahead, so that their games play while the last generation is
//! told. Our engine through the protocol: the same seed gives the same checkpoints at 1 and 2
//! threads, stopped after a generation and resumed, and with one generation in flight at a
//! time on the simulator it is the session it always was; bad settings are one line.

mod common;

use common::{manifest_dir, new_cmd, resume_cmd, run_ok, run_usage_err, tunable_engine, Tmp};
use std::path::Path;

/// A checkpoint without its wall-clock times, as bytes.
fn normalized(p: &Path) -> Vec<u8> {
    let mut s = common::load(p);
    s.elapsed = 0.0;
    for h in s.history.iter_mut() {
        h.seconds = 0.0;
    }
    checkers_ga::store::encode_checkpoint(&s).unwrap()
}

/// `new --engine` our engine, three weights tuned by the mean with 3 generations in flight,
/// population 4 (2 pairs, 4 games a generation), depth 1.
fn ours(t: &Tmp, name: &str, quiet: bool, more: &[&str]) -> std::process::Command {
    let engine = tunable_engine();
    let mut c = new_cmd(
        t,
        5,
        name,
        quiet,
        &[
            "--engine",
            &engine,
            "--tune",
            "kings,opp_kings,moves",
            "--population",
            "4",
            "--depth",
            "1",
            "--in-flight",
            "3",
        ],
    );
    // The engine's folder (kept in the checkpoint) is the same for every run.
    c.current_dir(manifest_dir()).args(more);
    c
}

#[test]
fn generations_in_flight_give_the_same_session_at_any_thread_count_and_resumed() {
    let whole = |threads: &str| {
        let t = Tmp::new(&format!("whole-{threads}"));
        run_ok(ours(
            &t,
            "m",
            true,
            &["--generations", "7", "--threads", threads],
        ));
        t
    };
    let (one, two) = (whole("1"), whole("2"));
    let last = normalized(&one.ckpt("m", 7));
    assert_eq!(last, normalized(&two.ckpt("m", 7)));
    // The checkpoint is format 10 (the generations in flight and the pairs drawn ahead).
    let bytes = std::fs::read(one.ckpt("m", 7)).unwrap();
    assert_eq!(&bytes[..8], b"CKGACKPT");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 10);
    let s = common::load(&one.ckpt("m", 7));
    assert_eq!(s.settings.ga.in_flight, 3);
    let ahead = &s.centre.as_ref().unwrap().ahead;
    assert_eq!(ahead.len(), 2);
    assert!(ahead.iter().all(|p| p.len() == 4));
    // The next generation's pairs (the 8th) were drawn ahead after generation 5, from its
    // centre, and kept since.
    let before = common::load(&one.ckpt("m", 6));
    assert_eq!(before.centre.as_ref().unwrap().ahead[0], s.population);
    assert_eq!(before.centre.as_ref().unwrap().ahead[1], ahead[0]);
    let five = common::load(&one.ckpt("m", 5)).centre.unwrap();
    let (spread, _) = s.settings.ga.selection.mean().unwrap();
    assert_eq!(
        five.population(s.settings.seed, 8, 4, spread, &s.population[0]),
        s.population
    );

    // Stopped after generation 3 (its games in flight abandoned), then resumed on 2 threads.
    let t = Tmp::new("parts");
    run_ok(ours(
        &t,
        "m",
        true,
        &["--generations", "3", "--threads", "2"],
    ));
    assert!(!t.ckpt("m", 4).exists());
    let mut c = resume_cmd(&t, Some(&t.session("m")), true, &["--generations", "7"]);
    c.args(["--threads", "2"]);
    run_ok(c);
    assert_eq!(last, normalized(&t.ckpt("m", 7)));

    // The opening line says how many are in flight.
    let t = Tmp::new("said");
    let out = run_ok(ours(&t, "m", false, &["--generations", "1"]));
    assert!(
        out.lines().next().unwrap().ends_with(", 3 in flight"),
        "{out}"
    );
}

#[test]
fn one_generation_in_flight_is_the_session_of_before() {
    // `--in-flight 1` is the default: its checkpoint is format 8, as before generations in
    // flight, and the same bytes whether given or not.
    let t = Tmp::new("one");
    let sim = |name: &str, more: &[&str]| {
        let mut c = new_cmd(
            &t,
            2,
            name,
            true,
            &[
                "--engine",
                "sim:6",
                "--population",
                "8",
                "--generations",
                "5",
            ],
        );
        c.args(more);
        run_ok(c);
    };
    sim("a", &[]);
    sim("b", &["--in-flight", "1"]);
    let a = std::fs::read(t.ckpt("a", 5)).unwrap();
    assert_eq!(u32::from_le_bytes(a[8..12].try_into().unwrap()), 8);
    let (mut sa, mut sb) = (common::load(&t.ckpt("a", 5)), common::load(&t.ckpt("b", 5)));
    sb.name = sa.name.clone();
    for s in [&mut sa, &mut sb] {
        s.elapsed = 0.0;
        for h in s.history.iter_mut() {
            h.seconds = 0.0;
        }
    }
    assert_eq!(
        checkers_ga::store::encode_checkpoint(&sa).unwrap(),
        checkers_ga::store::encode_checkpoint(&sb).unwrap()
    );
    // With one in flight the next pairs are drawn from the newest centre; with two, from the
    // one before.
    let (spread, _) = sa.settings.ga.selection.mean().unwrap();
    let newest = sa.centre.as_ref().unwrap();
    let next = newest.population(sa.settings.seed, 6, 8, spread, &sa.population[0]);
    assert_eq!(next, sa.population);
    sim("c", &["--in-flight", "2"]);
    let sc = common::load(&t.ckpt("c", 5));
    let c4 = common::load(&t.ckpt("c", 4)).centre.unwrap();
    assert_eq!(c4.ahead, std::slice::from_ref(&sc.population));
    let drawn = c4.population(sc.settings.seed, 6, 8, spread, &sc.population[0]);
    assert_eq!(drawn, sc.population);
}

#[test]
fn bad_generations_in_flight_are_one_line() {
    let t = Tmp::new("bad");
    let cases: [(&[&str], &str); 4] = [
        (&["--engine", "sim:4", "--in-flight", "0"], "must be 1..64"),
        (&["--engine", "sim:4", "--in-flight", "65"], "must be 1..64"),
        (&["--in-flight", "2"], "need --selection mean"),
        (
            &[
                "--engine",
                "sim:4",
                "--in-flight",
                "2",
                "--measure-every",
                "5",
            ],
            "take no measurement",
        ),
    ];
    for (args, says) in cases {
        let e = run_usage_err(new_cmd(&t, 1, "x", true, args));
        assert!(e.contains(says), "{args:?}: {e}");
    }
}
