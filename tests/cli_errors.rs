//! Bad flags and values: one line on stderr, exit status 2, never a panic, nothing written.

mod common;

use common::{run, Tmp};

fn one_line_error(t: &Tmp, args: &[&str], needle: &str) {
    one_line_error_with(t, args, needle, 2)
}

fn one_line_error_with(t: &Tmp, args: &[&str], needle: &str, code: i32) {
    let out = run(&t.0, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: {err} (expected '{needle}')"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn bad_flags_and_values_are_one_line_errors() {
    let t = Tmp::new("cli");
    let p = ["--populations", "pops", "--weights-dir", "w"];
    let new = |extra: &[&'static str]| {
        let mut v = vec!["new"];
        v.extend_from_slice(extra);
        v.extend_from_slice(&p);
        v
    };
    one_line_error(&t, &new(&["--population", "6"]), "population 6");
    one_line_error(&t, &new(&["--population", "4096"]), "population 4096");
    one_line_error(&t, &new(&["--games", "6"]), "multiple of 4");
    one_line_error(&t, &new(&["--depth", "0"]), "depth 0");
    one_line_error(&t, &new(&["--mutation", "-0.1"]), "mutation");
    one_line_error(&t, &new(&["--mutation", "NaN"]), "mutation");
    one_line_error(&t, &new(&["--time", "-1"]), "--time");
    one_line_error(&t, &new(&["--max-plies", "0"]), "max plies 0");
    one_line_error(&t, &new(&["--threads", "100000"]), "--threads 100000");
    one_line_error(&t, &new(&["--openings", "book"]), "book");
    one_line_error(&t, &new(&["--generations", "1", "--time", "5"]), "--time");
    one_line_error(&t, &new(&["--name", "../x"]), "plain folder name");
    one_line_error(&t, &new(&["--depth", "4294967296"]), "4294967296");
    // A sum that would wrap is refused like any other too large.
    one_line_error(
        &t,
        &new(&["--newcomers", "18446744073709551615"]),
        "exceed the population",
    );
    one_line_error(&t, &["bench", "--depth", "0"], "--depth 0");
    one_line_error(
        &t,
        &["match", "material", "thesis", "--name-a", "A\nB"],
        "--name-a",
    );
    one_line_error(&t, &["bench", "--depth", "31"], "--depth 31");
    one_line_error(&t, &["perft", "41"], "0..=40");
    one_line_error(&t, &["perft"], "<DEPTH>");
    one_line_error(&t, &["perft", "3", "--fen", "B:W33:B1"], "33");
    one_line_error(&t, &["features", "--fen", "X:W1:B2"], "colour");
    one_line_error(&t, &["nosuchcommand"], "nosuchcommand");
    one_line_error(
        &t,
        &["match", "material", "thesis", "--games", "0"],
        "--games 0",
    );
    one_line_error(
        &t,
        &["match", "material", "thesis", "--depth-b", "31"],
        "--depth-b 31",
    );
    // A file that cannot be written is a failure while working, not a bad command line.
    one_line_error_with(&t, &["play", "--pdn", "nodir/g.pdn"], "nodir", 1);
    // Nothing was written by any of them.
    assert!(!t.0.join("w").exists() || std::fs::read_dir(t.0.join("w")).unwrap().count() == 0);
    let pops = t.0.join("pops");
    if pops.exists() {
        for e in std::fs::read_dir(&pops).unwrap() {
            let d = e.unwrap().path();
            assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "{}", d.display());
        }
    }
}

/// A build without the `mpi` feature started by an MPI launcher as several processes refuses
/// (once, on the first process) instead of running the session that many times.
#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_without_mpi_refuses_to_run_as_several_ranks() {
    let t = Tmp::new("nompi");
    let launched = |rank: &str| {
        common::bin()
            .current_dir(&t.0)
            .args(["new", "--generations", "1", "--populations", "pops"])
            .env("OMPI_COMM_WORLD_SIZE", "3")
            .env("OMPI_COMM_WORLD_RANK", rank)
            .output()
            .expect("run checkers-ga")
    };
    let first = launched("0");
    let err = String::from_utf8_lossy(&first.stderr);
    assert_eq!(first.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--features mpi"), "{err}");
    let second = launched("2");
    assert_eq!(second.status.code(), Some(1));
    assert!(second.stderr.is_empty());
    assert!(!t.0.join("pops").exists());
    // One process under a launcher is a plain run.
    let single = common::bin()
        .current_dir(&t.0)
        .args(["perft", "2"])
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .output()
        .expect("run checkers-ga");
    assert!(single.status.success());
}
