//! Our engine through the Hub protocol plays as it does in-process: with tie-breaks made
//! deterministic (`--first-ties`, and `checkers-ga hub --tie-break first`), `match A
//! hub:"checkers-ga hub B"` at fixed depth records the same games as `match A B`, Date tags
//! aside, whichever colour the outside engine has and at any thread count.

mod common;

use common::{bin, stdout_ok, Tmp, BIN};

/// The PDN of `match A B ARGS --depth 4 --games 8 --first-ties`, without its Date tags.
fn pdn_of(tmp: &Tmp, tag: &str, a: &str, b: &str, args: &[&str]) -> String {
    let path = tmp.0.join(format!("{tag}.pdn"));
    let out = bin()
        .args([
            "match",
            a,
            b,
            "--depth",
            "4",
            "--games",
            "8",
            "--first-ties",
        ])
        .args(["--seed", "3", "--quiet", "--pdn"])
        .arg(&path)
        .args(args)
        .output()
        .expect("run checkers-ga");
    stdout_ok(&out);
    let text = std::fs::read_to_string(&path).expect("the PDN");
    assert_eq!(text.matches("[Event ").count(), 8, "{text}");
    text.lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Our engine with `eval` as an outside engine, its ties broken as `--first-ties` breaks them.
fn hub(eval: &str) -> String {
    format!("hub:\"{BIN}\" hub {eval} --tie-break first")
}

#[test]
fn a_match_through_the_protocol_is_the_match_in_process() {
    let tmp = Tmp::new("same");
    let in_process = pdn_of(&tmp, "in", "material", "hand", &[]);
    for threads in ["1", "2"] {
        let through = pdn_of(
            &tmp,
            &format!("hub-b-{threads}"),
            "material",
            &hub("hand"),
            &[
                "--option-b",
                "repetition-draws=false",
                "--name-b",
                "hand",
                "--threads",
                threads,
            ],
        );
        assert_eq!(through, in_process, "B outside, {threads} threads");
    }
    // A outside, with the engine's name from its `id name=` replaced the same way.
    let through = pdn_of(
        &tmp,
        "hub-a",
        &hub("material"),
        "hand",
        &[
            "--option-a",
            "repetition-draws=false",
            "--name-a",
            "material",
        ],
    );
    assert_eq!(through, in_process, "A outside");
}

#[test]
fn two_outside_engines_play_each_other_as_in_process() {
    let tmp = Tmp::new("both");
    let in_process = pdn_of(&tmp, "in", "classic", "material", &["--threads", "2"]);
    let through = pdn_of(
        &tmp,
        "hub",
        &hub("classic"),
        &hub("material"),
        &[
            "--name-a",
            "classic",
            "--name-b",
            "material",
            "--option-a",
            "repetition-draws=false",
            "--option-b",
            "repetition-draws=false",
            "--threads",
            "2",
        ],
    );
    assert_eq!(through, in_process);
}

#[test]
fn an_outside_engine_is_named_by_its_id_and_warned_of_unknown_options() {
    let tmp = Tmp::new("name");
    let path = tmp.0.join("g.pdn");
    let out = bin()
        .args([
            "match",
            "material",
            &hub("hand"),
            "--depth",
            "2",
            "--games",
            "2",
        ])
        .args(["--quiet", "--option-b", "no-such-option=1", "--pdn"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = stdout_ok(&out);
    assert!(
        stdout.starts_with("A: material  B: checkers-ga  depth 2/2"),
        "{stdout}"
    );
    let stderr = common::text(&out.stderr);
    assert!(
        stderr.contains("declares no parameter 'no-such-option'"),
        "{stderr}"
    );
    let pdn = std::fs::read_to_string(&path).unwrap();
    assert!(pdn.contains("[White \"checkers-ga\"]"), "{pdn}");
}

#[test]
fn bad_outside_engine_arguments_are_one_line_errors() {
    let run = |args: &[&str]| bin().args(args).output().unwrap();
    let out = run(&[
        "match",
        "material",
        "hub:no-such-engine-anywhere",
        "--games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let e = common::text(&out.stderr);
    assert!(
        e.contains("no program 'no-such-engine-anywhere': none on PATH"),
        "{e}"
    );
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    let out = run(&["match", "material", &hub("hand"), "--option-b", "depth"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("--option-b 'depth' must be NAME=VALUE"));
    let out = run(&["match", "material", "hand", "--option-b", "depth=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("options are for an outside engine"));
    let out = run(&["match", "material", "hub:\"unclosed", "--games", "2"]);
    assert!(common::text(&out.stderr).contains("without its closing"));
    // Commands that play only our own evaluations refuse an outside engine in one line.
    let out = run(&["bench", "--weights", &hub("hand")]);
    assert_eq!(out.status.code(), Some(2), "{}", common::text(&out.stderr));
    assert!(common::text(&out.stderr).contains("an outside engine cannot play here"));
}
