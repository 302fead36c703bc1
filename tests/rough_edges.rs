//! One game-length cap for new, match and play; resume echoes the settings it changes (and
//! says which of them the session does not use);
//! `new --include` takes the built-in names.

mod common;

use common::{assert_error, load, new_cmd, resume_cmd, run, Tmp};

#[test]
fn new_match_and_play_cap_games_at_the_same_length() {
    let t = Tmp::new("cap");
    let out = new_cmd(
        &t,
        1,
        "cap",
        true,
        &["--population", "4", "--generations", "1"],
    )
    .args(["--depth", "1", "--measure-every", "0"])
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = load(&t.ckpt("cap", 1));
    assert_eq!(s.settings.rules.max_plies, 300);
    for cmd in ["match", "play"] {
        let help = run(&t.0, &[cmd, "--help"]);
        let text = String::from_utf8_lossy(&help.stdout);
        // The option's help: its line and the next two (clap wraps long help).
        let line = text
            .lines()
            .skip_while(|l| !l.contains("--max-plies"))
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(line.contains("[default: 300]"), "{cmd}: {line}");
    }
}

#[test]
fn resume_echoes_the_settings_it_changes() {
    let t = Tmp::new("echo");
    let out = new_cmd(
        &t,
        2,
        "echo",
        true,
        &["--population", "4", "--generations", "1"],
    )
    .args(["--depth", "1", "--measure-every", "0"])
    .output()
    .unwrap();
    assert!(out.status.success());
    let out = resume_cmd(&t, Some(&t.session("echo")), false, &[])
        .args(["--generations", "2", "--mutation", "0.5", "--depth", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("new setting: mutation 0.9 -> 0.5\n"),
        "{text}"
    );
    assert!(
        text.contains("new setting: stop after generation 1 -> after generation 2\n"),
        "{text}"
    );
    // --depth 1 is the stored value: not a change.
    assert!(!text.contains("new setting: depth"), "{text}");
    assert_eq!(text.matches("new setting: ").count(), 2, "{text}");
}

#[test]
fn resume_says_which_new_settings_the_session_does_not_use() {
    let t = Tmp::new("unused");
    let out = new_cmd(
        &t,
        2,
        "m",
        true,
        &["--population", "4", "--generations", "1"],
    )
    .args(["--depth", "1", "--measure-every", "0"])
    .args(["--selection", "mean", "--fit-every", "0"])
    .output()
    .unwrap();
    assert!(out.status.success());
    // The mean breeds no children and plays no duel; it searches with our searcher.
    let out = resume_cmd(&t, Some(&t.session("m")), false, &[])
        .args(["--generations", "2", "--elite", "2", "--duel-games", "2"])
        .args(["--deepen", "2:2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for unused in ["elite 1 -> 2", "duel-games 32 -> 2"] {
        let line = format!("new setting: {unused} (this session does not use it)\n");
        assert!(text.contains(&line), "{line}: {text}");
    }
    assert!(
        text.contains("new setting: deepen never -> 2:2\n"),
        "{text}"
    );
}

#[test]
fn new_includes_built_in_weight_sets() {
    let t = Tmp::new("include");
    let out = new_cmd(
        &t,
        3,
        "inc",
        true,
        &["--population", "4", "--generations", "1"],
    )
    .args([
        "--depth",
        "1",
        "--measure-every",
        "0",
        "--include",
        "material",
    ])
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = load(&t.ckpt("inc", 1));
    let material = checkers_ga::material().widen(s.settings.ga.params).unwrap();
    assert_eq!(
        s.last[0].0, material,
        "the first individual played as material"
    );
    let out = new_cmd(
        &t,
        3,
        "inc2",
        true,
        &["--population", "4", "--generations", "1"],
    )
    .args(["--include", "classic"])
    .output()
    .unwrap();
    assert_error(&out, &["--include 'classic'", "not a weight vector"]);
}

/// Every bad command line exits 2 with one `error:` line, whether clap finds it (a value that
/// does not parse) or a check after parsing does (a value out of range); nothing is written. A
/// failure while working (a file that cannot be read) stays 1.
#[test]
fn every_bad_command_line_exits_2() {
    let t = Tmp::new("usage");
    let cases: &[(&[&str], &str)] = &[
        (&["new", "--population", "7"], "population 7"),
        (&["new", "--depth", "0"], "depth 0"),
        (&["new", "--mutation", "2"], "mutation chance 2"),
        (&["new", "--generations", "0"], "--generations"),
        (&["new", "--population", "abc"], "abc"),
        (&["new", "--elite", "100"], "elite 100"),
        (&["new", "--name", "../x"], "plain folder name"),
        (&["export", "material", "--format", "xml"], "xml"),
        (&["show", "material", "--sort", "name"], "name"),
        (
            &["match", "material", "classic", "--depth", "0"],
            "--depth 0",
        ),
        (
            &["match", "material", "classic", "--games", "0"],
            "--games 0",
        ),
        (&["play", "--white", "0:material"], "depth '0'"),
        (&["play", "--white", "material"], "DEPTH:EVAL"),
        (&["play", "--fen", "XYZ"], "--fen"),
        (&["features", "--fen", "XYZ"], "--fen"),
        (&["features", "--side", "green"], "green"),
        (&["finals", "--entrants", "1"], "--entrants"),
        (&["report", "--refresh", "0"], "--refresh"),
    ];
    for (args, needle) in cases {
        let out = run(&t.0, args);
        common::assert_usage_error(&out, &[needle]);
    }
    assert!(
        std::fs::read_dir(&t.0).unwrap().next().is_none(),
        "a bad command line wrote something"
    );
    assert_error(&run(&t.0, &["show", "nosuch.json"]), &["nosuch.json"]);
}

/// `continue with:` repeats how the program was started: the path it was given (`argv[0]`),
/// or `cargo run --` when cargo ran it (cargo's variables set, and the parent not a program of
/// the binary's own target folder: `cargo run` replaces itself with the program, so the
/// parent is the shell that ran cargo).
#[cfg(target_os = "linux")]
#[test]
fn continue_with_repeats_how_the_program_was_run() {
    use std::os::unix::process::CommandExt;
    let t = Tmp::new("argv0");
    let args = ["--population", "4", "--depth", "1", "--generations", "1"];
    let time = ["--time", "0.000001", "--measure-every", "0"];
    // Started as ./target/release/checkers-ga by a test of this package (its parent), which
    // inherits cargo's variables: the path as given.
    let mut c = new_cmd(&t, 1, "a", false, &args[..4]);
    c.args(time).arg0("./target/release/checkers-ga");
    c.env("CARGO", "cargo").env("CARGO_PKG_NAME", "checkers-ga");
    let out = c.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("continue with: ./target/release/checkers-ga resume a "),
        "{text}"
    );
    // Through `cargo run`: cargo's variables, and no test binary among the ancestors (cargo
    // replaces itself with the program, whose parent is the user's shell). Here: started in
    // the background by a shell that exits at once, so that the program is nobody's child of
    // ours; its output comes through a file.
    let inner = new_cmd(&t, 1, "b", false, &args[..4]);
    let mut line = vec![common::BIN.to_string()];
    line.extend(
        inner
            .get_args()
            .chain(time.iter().map(std::ffi::OsStr::new))
            .map(|a| a.to_string_lossy().into_owned()),
    );
    let log = t.0.join("cargo-run.out");
    let done = t.0.join("cargo-run.done");
    let status = std::process::Command::new("/bin/sh")
        .current_dir(&t.0)
        .args([
            "-c",
            "( \"$@\" > cargo-run.out 2>&1; touch cargo-run.done ) & exit 0",
            "sh",
        ])
        .args(&line)
        .env("CARGO", "cargo")
        .env("CARGO_PKG_NAME", "checkers-ga")
        .status()
        .unwrap();
    assert!(status.success());
    let t0 = std::time::Instant::now();
    while !done.exists() {
        assert!(
            t0.elapsed().as_secs() < 120,
            "the background run did not end"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = std::process::Output {
        status,
        stdout: std::fs::read(&log).unwrap(),
        stderr: Vec::new(),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let profile = std::path::Path::new(common::BIN)
        .parent()
        .and_then(|p| p.file_name())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let expect = match profile.as_str() {
        "release" => "cargo run --release --".to_string(),
        "debug" => "cargo run --".to_string(),
        p => format!("cargo run --profile {p} --"),
    };
    assert!(
        text.contains(&format!("continue with: {expect} resume b ")),
        "{text}"
    );
}

/// `--quiet` prints the best-weights file's path and nothing else, on standard output.
#[test]
fn quiet_prints_only_the_path_of_the_best_weights() {
    let t = Tmp::new("quiet");
    let out = common::bin()
        .current_dir(&t.0)
        .args([
            "new",
            "--population",
            "4",
            "--depth",
            "1",
            "--generations",
            "1",
        ])
        .args(["--measure-every", "0", "--name", "q", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert_eq!(common::text(&out.stderr), "");
    assert_eq!(common::text(&out.stdout), "populations/q/best.json\n");
    // So does a resume at the session's end: why it plays nothing goes to standard error.
    let out = common::bin()
        .current_dir(&t.0)
        .args(["resume", "q", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert_eq!(common::text(&out.stdout), "populations/q/best.json\n");
    assert!(
        common::text(&out.stderr).contains("already reached its limit"),
        "{}",
        common::text(&out.stderr)
    );
}

/// `--quiet` means the same for every tuner of an outside engine (which `new --engine` picks
/// by the engine's parameters): the answer's path alone on standard output.
#[test]
fn quiet_prints_only_the_answers_path_whichever_tuner() {
    let t = Tmp::new("quiet-tuners");
    for (verb, budget) in [
        ("new", "--games-budget"),
        ("spsa", "--games"),
        ("cmaes", "--games"),
    ] {
        let name = format!("q{verb}");
        let out = common::bin()
            .current_dir(&t.0)
            .args([verb, "--engine", "sim:4", budget, "64", "--seed", "3"])
            .args(["--name", &name, "--quiet"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{verb}: {}",
            common::text(&out.stderr)
        );
        assert_eq!(
            common::text(&out.stdout),
            format!("populations/{name}/best.json\n"),
            "{verb}"
        );
    }
}

/// A session's outputs stay in its own folder: the best weights in `populations/NAME/best.json`
/// (said in the `next:` lines), the finals' winner in `populations/NAME/finals.json`; nothing
/// is written beside the weight files the repository ships. `--weights-dir` still writes
/// `DIR/NAME-best.json`.
#[test]
fn session_outputs_stay_in_the_session_folder() {
    let t = Tmp::new("outputs");
    let out = common::bin()
        .current_dir(&t.0)
        .args([
            "new",
            "--population",
            "4",
            "--depth",
            "1",
            "--generations",
            "2",
        ])
        .args(["--measure-every", "0", "--name", "o", "--seed", "3"])
        .output()
        .unwrap();
    let text = common::text(&out.stdout);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert!(t.0.join("populations/o/best.json").is_file(), "{text}");
    assert!(!t.0.join("weights").exists(), "{text}");
    assert!(
        text.contains("best weights: populations/o/best.json"),
        "{text}"
    );
    assert!(
        text.contains(" match populations/o/best.json classic --depth 6"),
        "{text}"
    );
    let out = run(
        &t.0,
        &[
            "finals",
            "o",
            "--entrants",
            "2",
            "--games",
            "2",
            "--depth",
            "1",
        ],
    );
    let text = common::text(&out.stdout);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert!(text.contains("populations/o/finals.json"), "{text}");
    assert!(t.0.join("populations/o/finals.json").is_file(), "{text}");
    assert!(!t.0.join("weights").exists(), "{text}");
    let out = common::bin()
        .current_dir(&t.0)
        .args([
            "new",
            "--population",
            "4",
            "--depth",
            "1",
            "--generations",
            "1",
        ])
        .args(["--measure-every", "0", "--name", "w", "--weights-dir", "w8"])
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(common::text(&out.stdout), "w8/w-best.json\n");
    assert!(!t.0.join("populations/w/best.json").exists());
}
