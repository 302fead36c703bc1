//! An outside engine's game to a depth holds a core: the engine runs on one core while it plays
//! (its game's), and with `--no-pin`, or on a clock, on any core the process may use. The fake
//! engine `cores.py` writes the cores it may run on when it starts and at every move. (Linux
//! only; on a machine whose tests may use one core there is nothing to pin, and the test says
//! SKIPPED.)

#![cfg(target_os = "linux")]

mod common;

use common::{bin, manifest_dir, text, Tmp};

/// The cores this process may use, as `cores.py` writes them (`0,1`).
fn our_cores() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_string();
    // `0-3,6` as `0,1,2,3,6`.
    let mut cores = Vec::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((a, b)) => cores.extend(a.parse::<u32>().unwrap()..=b.parse().unwrap()),
            None => cores.push(part.parse().unwrap()),
        }
    }
    cores
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The lines `cores.py` wrote at its moves in a match of 4 games against `material` with
/// `more` flags; every engine it started began free to run on `all` cores (the thread that
/// starts engines holds no game's core).
fn cores_seen(tag: &str, more: &[&str], all: &str) -> Vec<String> {
    let t = Tmp::new(tag);
    let file = t.0.join("cores.txt");
    let o = bin()
        .current_dir(manifest_dir())
        .args([
            "match",
            "material",
            &format!("hub:python3 tests/fake_engines/cores.py {}", file.display()),
            "--games",
            "4",
            "--seed",
            "1",
            "--threads",
            "2",
            "--quiet",
        ])
        .args(more)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let seen = std::fs::read_to_string(&file).unwrap();
    assert!(!seen.is_empty(), "the engine was never asked for a move");
    let (starts, moves): (Vec<&str>, Vec<&str>) =
        seen.lines().partition(|l| l.starts_with("start "));
    assert!(!starts.is_empty(), "{seen}");
    for start in starts {
        assert_eq!(
            start,
            format!("start {all}"),
            "an engine began pinned: {seen}"
        );
    }
    moves.into_iter().map(str::to_string).collect()
}

#[test]
fn an_engine_plays_a_game_to_a_depth_on_one_core_and_elsewhere_on_any() {
    if !common::have_python() {
        return;
    }
    let all = our_cores();
    if !all.contains(',') {
        eprintln!("SKIPPED: this test may use one core only ({all}): nothing to pin");
        return;
    }
    let pinned = cores_seen("cores-depth", &["--depth", "2"], &all);
    for line in &pinned {
        assert!(
            !line.contains(',') && all.split(',').any(|c| c == line),
            "a move on cores {line} of {all}: {pinned:?}"
        );
    }
    let free = cores_seen("cores-free", &["--depth", "2", "--no-pin"], &all);
    assert!(free.iter().all(|l| *l == all), "{free:?} (all: {all})");
    let clock = cores_seen("cores-clock", &["--tc", "5+0.05"], &all);
    assert!(clock.iter().all(|l| *l == all), "{clock:?} (all: {all})");
}
