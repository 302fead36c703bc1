//! The mean with generations in flight (`new --engine CMD --in-flight G`): each generation's
//! pairs are drawn G generations ahead, so that their games play while the last generation is
//! told. Our engine through the protocol: the same seed gives the same checkpoints at 1 and 2
//! threads, stopped after a generation and resumed. The default is 3 from 9 to 16 parameters
//! (where the mean is the default tuner and drawing ahead tuned as well), else 1, whose
//! checkpoints are as before; a mean session widened on resume goes on; CMA-ES by
//! `new` takes the flag, SPSA refuses it; bad settings are one line.

mod common;

use common::{manifest_dir, new_cmd, resume_cmd, run_ok, run_usage_err, tunable_engine, Tmp};
use std::path::Path;

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
    let last = common::timeless(&one.ckpt("m", 7));
    assert_eq!(last, common::timeless(&two.ckpt("m", 7)));
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
    let (spread, _) = s.settings.ga.method.mean().unwrap();
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
    assert_eq!(last, common::timeless(&t.ckpt("m", 7)));

    // The opening line says how many are in flight.
    let t = Tmp::new("said");
    let out = run_ok(ours(&t, "m", false, &["--generations", "1"]));
    assert!(
        out.lines().next().unwrap().ends_with(", 3 in flight"),
        "{out}"
    );
}

/// The format version of a checkpoint file.
fn version(p: &Path) -> u32 {
    let b = std::fs::read(p).unwrap();
    u32::from_le_bytes(b[8..12].try_into().unwrap())
}

#[test]
fn the_default_is_three_in_flight_from_9_to_16_parameters() {
    let t = Tmp::new("default");
    let sim = |name: &str, engine: &str, more: &[&str]| {
        let mut c = new_cmd(
            &t,
            2,
            name,
            true,
            &[
                "--engine",
                engine,
                "--population",
                "8",
                "--generations",
                "5",
            ],
        );
        c.args(more);
        run_ok(c);
        common::load(&t.ckpt(name, 5))
    };
    // From 9 to 16 parameters, where the mean is the default tuner: 3 in flight (0 says the
    // default too).
    let three = sim("three", "sim:12", &[]);
    assert_eq!(three.settings.ga.in_flight, 3);
    assert_eq!(version(&t.ckpt("three", 5)), 10);
    let zero = sim("zero", "sim:12", &["--in-flight", "0"]);
    assert_eq!(zero.centre, three.centre);
    // Up to 8, beyond 16 (the mean by --tuner ga), or with a measurement: one, in format 8 as
    // before.
    let small = sim("small", "sim:8", &[]);
    assert_eq!(small.settings.ga.in_flight, 1);
    assert_eq!(version(&t.ckpt("small", 5)), 8);
    let wide = sim("wide", "sim:20", &["--tuner", "ga"]);
    assert_eq!(wide.settings.ga.in_flight, 1);
    assert_eq!(version(&t.ckpt("wide", 5)), 8);
    let measured = sim("measured", "sim:12", &["--measure-every", "5"]);
    assert_eq!(measured.settings.ga.in_flight, 1);

    // With one in flight the next pairs are drawn from the newest centre; with two, from the
    // one before.
    let one = sim("one", "sim:6", &["--in-flight", "1"]);
    assert_eq!(version(&t.ckpt("one", 5)), 8);
    let (spread, _) = one.settings.ga.method.mean().unwrap();
    let newest = one.centre.as_ref().unwrap();
    let next = newest.population(one.settings.seed, 6, 8, spread, &one.population[0]);
    assert_eq!(next, one.population);
    let two = sim("two", "sim:6", &["--in-flight", "2"]);
    let c4 = common::load(&t.ckpt("two", 4)).centre.unwrap();
    assert_eq!(c4.ahead, std::slice::from_ref(&two.population));
    let drawn = c4.population(two.settings.seed, 6, 8, spread, &two.population[0]);
    assert_eq!(drawn, two.population);
}

#[test]
fn cmaes_by_new_takes_in_flight_and_spsa_refuses_it() {
    let t = Tmp::new("others");
    let mut c = new_cmd(
        &t,
        2,
        "c",
        false,
        &[
            "--engine",
            "sim:20",
            "--games-budget",
            "96",
            "--in-flight",
            "2",
        ],
    );
    c.args(["--threads", "1"]);
    let out = run_ok(c);
    assert!(out.contains("2 in flight"), "{out}");
    let e = run_usage_err(new_cmd(
        &t,
        2,
        "s",
        true,
        &["--engine", "sim:6", "--tuner", "spsa", "--in-flight", "2"],
    ));
    assert!(e.contains("takes no --in-flight"), "{e}");
}

#[test]
fn bad_generations_in_flight_are_one_line() {
    let t = Tmp::new("bad");
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "--engine",
                "sim:4",
                "--selection",
                "roulette",
                "--in-flight",
                "3",
            ],
            "need --selection mean",
        ),
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

#[test]
fn a_mean_session_widened_on_resume_goes_on() {
    // Its centre restarts at the widened best so far (before, its checkpoint could not be
    // read back: a centre of 60 values in a session of 66).
    let t = Tmp::new("widened");
    let mut c = new_cmd(
        &t,
        1,
        "w",
        true,
        &[
            "--selection",
            "mean",
            "--params",
            "thesis60",
            "--population",
            "8",
            "--depth",
            "1",
            "--generations",
            "2",
            "--measure-every",
            "0",
            "--fit-every",
            "0",
        ],
    );
    c.args(["--threads", "1"]);
    run_ok(c);
    let c = resume_cmd(
        &t,
        Some(&t.session("w")),
        true,
        &["--params", "endgame66", "--generations", "3"],
    );
    run_ok(c);
    let s = common::load(&t.ckpt("w", 3));
    assert_eq!(s.settings.ga.params.len(), 66);
    assert_eq!(s.centre.unwrap().mean.len(), 66);
}

#[test]
fn the_mean_of_our_weights_needs_no_flag_to_turn_the_fit_off() {
    // The mean takes no fit, hall of fame or endgame games: chosen by --selection, they are off
    // without being named (before, the fit's default refused it, and --fit-every 0 was then
    // said to be unused).
    let t = Tmp::new("meanown");
    let args = [
        "--selection",
        "mean",
        "--population",
        "8",
        "--depth",
        "1",
        "--generations",
        "2",
        "--measure-every",
        "0",
        "--threads",
        "1",
    ];
    let out = new_cmd(&t, 1, "m", false, &args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("does not use"), "{err}");
    // A fit asked for is still refused.
    let mut c = new_cmd(&t, 1, "f", true, &args);
    c.args(["--fit-every", "2"]);
    let e = run_usage_err(c);
    assert!(e.contains("takes no fit"), "{e}");
}
