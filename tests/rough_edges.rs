//! One game-length cap for new, match and play; resume echoes the settings it changes;
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
    let material = checkers_ga::eval::material()
        .widen(s.settings.ga.params)
        .unwrap();
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
