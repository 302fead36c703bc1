//! `match`: ballot openings twice with colours swapped, W/D/L, score and the Elo line; the same
//! seed gives the same games at any thread count; bad input is a one-line error.

mod common;

use common::{assert_error, repo, run, stdout_ok, Tmp};

fn match_args<'a>(threads: &'a str, pdn: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "material.json",
        "thesis.json",
        "--depth",
        "2",
        "--games",
        "12",
        "--seed",
        "5",
        "--threads",
        threads,
        "--pdn",
        pdn,
        "--quiet",
    ]
}

fn setup(tag: &str) -> Tmp {
    let t = Tmp::new(tag);
    for (from, to) in [
        ("weights/material.json", "material.json"),
        ("weights/thesis-table-4-2.json", "thesis.json"),
    ] {
        std::fs::copy(repo(from), t.0.join(to)).unwrap();
    }
    t
}

/// Everything but the wall-clock line.
fn without_time(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("time "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn prints_wdl_score_and_elo_and_is_the_same_at_any_thread_count() {
    let t = setup("match");
    let one = stdout_ok(&run(&t.0, &match_args("1", "one.pdn")));
    let wdl = one
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L for A: "))
        .unwrap_or_else(|| panic!("{one}"));
    let n: u32 = wdl.split('/').map(|x| x.parse::<u32>().unwrap()).sum();
    assert_eq!(n, 12, "{one}");
    assert!(one.lines().any(|l| l.starts_with("Score: ")), "{one}");
    let elo = one
        .lines()
        .find(|l| l.starts_with("Elo difference: "))
        .unwrap_or_else(|| panic!("{one}"));
    assert!(elo.contains(" +/- ") && elo.contains(", LOS: ") && elo.ends_with(" %"));

    let two = stdout_ok(&run(&t.0, &match_args("2", "two.pdn")));
    assert_eq!(
        without_time(&one).replace("one.pdn", "X"),
        without_time(&two).replace("two.pdn", "X")
    );
    let (p1, p2) = (t.read("one.pdn"), t.read("two.pdn"));
    assert_eq!(p1, p2);
    // 12 games: 6 ballot openings, each twice with colours swapped, recorded from the start.
    assert_eq!(p1.matches("[Event ").count(), 12);
    assert_eq!(p1.matches("[Black \"material\"]").count(), 6);
    assert_eq!(p1.matches("[White \"material\"]").count(), 6);
    assert!(
        p1.contains("1. 9-13 21-17 2. 5-9"),
        "the first ballot opening"
    );
}

#[test]
fn material_beats_the_thesis_set_read_as_the_spec_defines_it() {
    let t = setup("strength");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match",
            "material.json",
            "thesis.json",
            "--depth",
            "3",
            "--games",
            "40",
            "--seed",
            "1",
            "--quiet",
        ],
    ));
    let wdl: Vec<u32> = out
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L for A: "))
        .unwrap()
        .split('/')
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(wdl[0] > 30 && wdl[2] == 0, "{out}");
}

#[test]
fn bad_input_is_a_one_line_error() {
    let t = setup("badmatch");
    assert_error(
        &run(&t.0, &["match", "material.json", "missing.json"]),
        &["missing.json"],
    );
    assert_error(
        &run(
            &t.0,
            &["match", "material.json", "thesis.json", "--depth", "0"],
        ),
        &["--depth 0"],
    );
    t.write("garbage.json", b"{ not json");
    assert_error(
        &run(&t.0, &["match", "garbage.json", "thesis.json"]),
        &["garbage.json"],
    );
    let out = run(
        &t.0,
        &[
            "match",
            "material.json",
            "thesis.json",
            "--openings",
            "book",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "clap rejects an unknown book");
    assert!(String::from_utf8_lossy(&out.stderr).contains("book"));
}
