//! One man: every command that speaks of men (`show`, `export`'s `MAN_VALUE`, the `hub`
//! engine's `score=`, `play`'s `eval ... men`, `eval`'s `one man:`) measures a man the same way
//! (`checkers_ga::man_value`), for every shipped weight file.

mod common;

use checkers_ga::{man_value, minimax, weightfile, Evaluator, Position, Weights};
use common::{bin, repo, stdout_ok};
use std::io::Write;
use std::process::Stdio;

/// The shipped weight files (weights/*.json), by name.
fn shipped() -> Vec<(String, Weights)> {
    let mut names: Vec<String> = std::fs::read_dir(repo("weights"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    names
        .into_iter()
        .map(|n| {
            let w = weightfile::load_weights(&repo(&format!("weights/{n}"))).unwrap();
            (n, w)
        })
        .collect()
}

/// `show`'s man: the N of `one man: N units`, or None for `one man: not valued`.
fn show_man(file: &str) -> Option<i64> {
    let out = stdout_ok(&bin().args(["show", file]).output().unwrap());
    let line = out
        .lines()
        .find(|l| l.starts_with("one man: "))
        .unwrap_or_else(|| panic!("show {file} says no man:\n{out}"));
    let rest = &line["one man: ".len()..];
    if rest.starts_with("not valued") {
        return None;
    }
    Some(rest.split(' ').next().unwrap().parse().unwrap())
}

/// `eval`'s man: the N of `one man: N units` on its `weights:` line, None for `not valued`.
fn eval_man(file: &str) -> Option<i64> {
    let out = stdout_ok(&bin().args(["eval", file]).output().unwrap());
    let line = out
        .lines()
        .find(|l| l.starts_with("weights: "))
        .unwrap_or_else(|| panic!("{out}"));
    let rest = line.split("one man: ").nth(1).unwrap();
    if rest.starts_with("not valued") {
        return None;
    }
    Some(rest.split(' ').next().unwrap().parse().unwrap())
}

/// The C export's `#define PREFIX_MAN_VALUE N`.
fn export_man(file: &str) -> i64 {
    let out = stdout_ok(&bin().args(["export", file, "-f", "c"]).output().unwrap());
    let line = out
        .lines()
        .find(|l| l.starts_with("#define ") && l.contains("_MAN_VALUE "))
        .unwrap_or_else(|| panic!("no MAN_VALUE in the export of {file}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

/// The `hub` engine's `score=` at depth 1 from the start position.
fn hub_score(file: &str) -> String {
    let mut child = bin()
        .args(["hub", file, "--tie-break", "first"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"hub\ninit\nnew-game\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\nlevel depth=1\n\
              go think\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let info = text
        .lines()
        .find(|l| l.starts_with("info "))
        .unwrap_or_else(|| panic!("hub {file}: no info line: {text}"));
    info.split(' ')
        .find_map(|f| f.strip_prefix("score="))
        .unwrap_or_else(|| panic!("{info}"))
        .to_string()
}

/// `play`'s `eval X men for Black` (or `eval V for Black (units of the weights)`) of Black's
/// first move at depth 1.
fn play_eval(file: &str) -> String {
    let player = format!("1:{file}");
    let out = stdout_ok(
        &bin()
            .args(["play", "--black", &player, "--white", &player])
            .args(["--max-plies", "1", "--seed", "1"])
            .output()
            .unwrap(),
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("Black plays "))
        .unwrap_or_else(|| panic!("{out}"));
    line.split("eval ")
        .nth(1)
        .unwrap()
        .strip_suffix(')')
        .unwrap()
        .to_string()
}

/// For each shipped weight file the man is one number: `show`'s, the export's `MAN_VALUE`, the
/// library's; the hub engine's score and `play`'s value at depth 1 from the start are the
/// search value over it (1.08 and 2.73 men on the hub against 0.27 and 1.74 by the export's
/// MAN_VALUE for the two evolved files, before there was one man).
#[test]
fn every_command_counts_the_same_man() {
    let start = Position::start();
    for (name, w) in shipped() {
        let file = repo(&format!("weights/{name}"));
        let file = file.to_str().unwrap();
        let man = man_value(&Evaluator::from(w)).map(i64::from);
        assert_eq!(show_man(file), man, "{name}: show");
        assert_eq!(export_man(file), man.unwrap_or(1), "{name}: export");
        assert_eq!(eval_man(file), man, "{name}: eval");
        // The depth-1 value: the best of Black's moves, for Black.
        let v = minimax(&start, 1, &w, true);
        let hub = hub_score(file);
        let play = play_eval(file);
        match man {
            Some(m) => {
                let x = v as f64 / m as f64;
                let men = format!("{x:.2}");
                assert_eq!(hub, men, "{name}: hub");
                assert_eq!(play, format!("{x:+.2} men for Black"), "{name}: play");
                // The export's to_centimen: v * 100 / MAN_VALUE, rounded toward 0.
                let centi = v as i64 * 100 / m;
                assert!(
                    (centi as f64 / 100.0 - men.parse::<f64>().unwrap()).abs() <= 0.011,
                    "{name}: export {centi} centi-men, hub {men}"
                );
            }
            None => {
                // No man: the hub's scores are hundreds of units, play's the units.
                let units = format!("{:.2}", (v as f64 / 100.0).clamp(-89.0, 89.0));
                assert_eq!(hub, units, "{name}: hub");
                assert_eq!(play, format!("{v:+} for Black (units of the weights)"));
            }
        }
        eprintln!("{name}: man {man:?}, depth-1 value {v}: hub score {hub}, play {play}");
    }
}
