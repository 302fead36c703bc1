//! `checkers-ga finals`: a round robin among a session's past bests. The table ranks every
//! distinct entrant with points that add up to the games played, the winner's file holds the
//! best so far of the generation it names (as that generation's checkpoint says), the result is
//! the same at any thread count, and bad input gets a one-line error.

mod common;

use checkers_ga::store;
use common::{assert_error, new_cmd, run, run_ok, stdout_ok, Tmp};

/// A small real session (every checkpoint kept) in `t`.
fn session(t: &Tmp, name: &str) {
    run_ok(new_cmd(
        t,
        5,
        name,
        true,
        &[
            "--population",
            "8",
            "--generations",
            "12",
            "--depth",
            "1",
            "--params",
            "endgame66",
            "--fit-every",
            "0",
            "--measure-every",
            "0",
            "--keep",
            "0",
        ],
    ));
}

/// Four entrants, six games a pair at depth 2.
const SMALL: &[&str] = &["--entrants", "4", "--games", "6", "--depth", "2"];

fn finals(t: &Tmp, name: &str, extra: &[&str]) -> std::process::Output {
    let pops = t.pops();
    let mut args = vec!["finals", name, "--populations", pops.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&t.0, &args)
}

/// The table's rows: (generations, points, games).
fn rows(out: &str) -> Vec<(String, f64, u32)> {
    out.lines()
        .skip_while(|l| !l.starts_with("rank"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (p, g) = f[2].split_once('/').expect("points/games");
            (f[1].to_string(), p.parse().unwrap(), g.parse().unwrap())
        })
        .collect()
}

#[test]
fn a_round_robin_of_past_bests_names_and_writes_its_winner() {
    let t = Tmp::new("rr");
    session(&t, "s");
    let out = stdout_ok(&finals(
        &t,
        "s",
        &[SMALL, &["--threads", "1", "--out", "w.json"]].concat(),
    ));
    let r = rows(&out);
    assert!(r.len() >= 2 && r.len() <= 4, "{out}");
    let n = r.len() as u32;
    // Every entrant plays every other 6 games; 2 points a game shared by both sides.
    for (_, _, games) in &r {
        assert_eq!(*games, 6 * (n - 1), "{out}");
    }
    let total: f64 = r.iter().map(|x| x.1).sum();
    assert_eq!(total, (6 * n * (n - 1) / 2) as f64, "{out}");
    // Ranked by points.
    assert!(r.windows(2).all(|w| w[0].1 >= w[1].1), "{out}");

    // The file holds the best so far after the first generation of the winner's row.
    let winner_gen: u64 = r[0].0.split("..").next().unwrap().parse().unwrap();
    assert!(
        out.contains(&format!(
            "winner: the best so far after generation {winner_gen} -> w.json"
        )),
        "{out}"
    );
    let file: serde_json::Value = serde_json::from_str(&t.read("w.json")).unwrap();
    assert_eq!(file["session"], "s");
    assert_eq!(file["generation"], winner_gen);
    let w = checkers_ga::load_weights(&t.0.join("w.json")).unwrap();
    let ckpt = store::load_checkpoint_alone(&t.ckpt("s", winner_gen)).unwrap();
    assert_eq!(ckpt.best_so_far, Some(w));

    // The same table and winner on two threads.
    let two = stdout_ok(&finals(
        &t,
        "s",
        &[SMALL, &["--threads", "2", "--out", "w2.json"]].concat(),
    ));
    assert_eq!(rows(&two), r);
    assert_eq!(checkers_ga::load_weights(&t.0.join("w2.json")).unwrap(), w);
}

/// The library's finals are the command's: the same entrants, games and winner's file.
#[test]
fn the_librarys_finals_play_and_write_what_the_command_does() {
    use checkers_ga::{FinalsError, FinalsOptions, FinalsPlan};
    let t = Tmp::new("lib");
    session(&t, "s");
    stdout_ok(&finals(&t, "s", &[SMALL, &["--out", "cli.json"]].concat()));
    let found = store::locate(Some("s"), &t.pops()).unwrap();
    let options = FinalsOptions {
        entrants: 4,
        games: 6,
        depth: 2,
        out: Some(t.0.join("lib.json")),
        ..FinalsOptions::default()
    };
    let plan = FinalsPlan::new(&found.session, &found.path, &options).unwrap();
    let n = plan.past.distinct.len() as u64;
    assert_eq!(plan.games(), n * (n - 1) / 2 * 6);
    let played = std::sync::atomic::AtomicU64::new(0);
    let finals = plan.play(&|_| {
        played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(played.into_inner(), plan.games());
    let winner = plan.write_winner(&finals).unwrap().expect("entrants");
    // The same file: weights, origin, comment.
    assert_eq!(t.read("lib.json"), t.read("cli.json"));
    let file = |f: &str| checkers_ga::load_weights(&t.0.join(f)).unwrap();
    assert_eq!(file("lib.json"), winner.weights);
    // What it refuses, before or after reading the session.
    let bad = |o: FinalsOptions| FinalsPlan::new(&found.session, &found.path, &o).unwrap_err();
    let one = FinalsOptions {
        entrants: 1,
        ..options.clone()
    };
    assert!(matches!(bad(one), FinalsError::Entrants));
    let late = FinalsOptions {
        from: 12,
        ..options.clone()
    };
    assert_eq!(
        bad(late).to_string(),
        "--from 12 leaves no generation: session 's' stands at 12"
    );
}

#[test]
fn bad_finals_settings_get_one_line() {
    let t = Tmp::new("bad");
    session(&t, "s");
    common::assert_usage_error(&finals(&t, "s", &["--entrants", "1"]), &["--entrants"]);
    common::assert_usage_error(
        &finals(&t, "s", &["--entrants", "18446744073709551615"]),
        &["--entrants must be 2..256"],
    );
    assert_error(&finals(&t, "s", &["--from", "12"]), &["--from", "12"]);
    common::assert_usage_error(&finals(&t, "s", &["--depth", "0"]), &["--depth"]);
    assert_error(&finals(&t, "nosuch", &[]), &["nosuch"]);
    assert_error(
        &finals(&t, "s", &["--out", "nodir/w.json"]),
        &["--out", "nodir"],
    );
    // Nothing was written by the failed runs.
    assert!(!t.weights().join("s-finals.json").exists());
    assert!(!t.session("s").join("finals.json").exists());
}
