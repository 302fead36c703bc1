//! The point of the tool: a short evolution session must produce weights that beat random
//! weights over the ballot, and more generations must not make them worse against a fixed
//! reference. (Seeded, so the outcome is fixed; a broken GA, search or evaluation fails it.)

mod common;

use common::{new_cmd, stdout_ok, Tmp};

fn wdl(out: &str) -> (u32, u32, u32) {
    let v: Vec<u32> = out
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L for A: "))
        .unwrap_or_else(|| panic!("no W/D/L line in {out}"))
        .split('/')
        .map(|x| x.parse().unwrap())
        .collect();
    (v[0], v[1], v[2])
}

fn match_vs(t: &Tmp, best: &std::path::Path, other: &str) -> (u32, u32, u32) {
    let out = common::bin()
        .current_dir(&t.0)
        .arg("match")
        .arg(best)
        .args([
            other, "--depth", "2", "--games", "80", "--seed", "4", "--quiet",
        ])
        .output()
        .unwrap();
    wdl(&stdout_ok(&out))
}

#[test]
fn evolved_weights_beat_random_weights() {
    let t = Tmp::new("strength");
    let out = new_cmd(
        &t,
        3,
        "s",
        true,
        &["--population", "8", "--depth", "2", "--generations", "40"],
    )
    .output()
    .unwrap();
    stdout_ok(&out);
    let (w, _d, l) = match_vs(&t, &t.best("s"), "random");
    assert!(w >= 50 && l <= 5, "evolved vs random: {w} wins, {l} losses");
}

#[test]
fn a_longer_session_does_better_against_material() {
    let t = Tmp::new("progress");
    let run = |name: &str, gens: &str| {
        let out = new_cmd(
            &t,
            5,
            name,
            true,
            &["--population", "16", "--depth", "2", "--generations", gens],
        )
        .output()
        .unwrap();
        stdout_ok(&out);
        let (w, d, _) = match_vs(&t, &t.best(name), "material");
        2 * w + d
    };
    let short = run("short", "2");
    let long = run("long", "150");
    assert!(
        long > short,
        "points against material: 150 generations {long}, 2 generations {short}"
    );
}

/// The README's main command with a fixed seed: its yardstick measurements rise from the first
/// to the last. About four minutes on 2 cores in release, so not in the default run:
/// `cargo test --release --test strength -- --ignored`.
#[test]
#[ignore]
fn the_default_session_rises_against_material() {
    let t = Tmp::new("default");
    stdout_ok(&new_cmd(&t, 1, "d", true, &[]).output().unwrap());
    let s = common::load(&t.ckpt("d", 2000));
    let elo: Vec<f64> = s
        .history
        .iter()
        .filter_map(|h| h.measure)
        .map(|m| checkers_ga::matchplay::elo(&m).diff)
        .collect();
    assert_eq!(elo.len(), 40);
    assert!(elo[39] > elo[0], "first {} last {}", elo[0], elo[39]);
}
