//! An engine author's first hour: what a newcomer to outside-engine tuning meets first. A
//! session of one tuned parameter, what an engine session (and one of our own weights) will
//! cost and a budget of games, a
//! corrupt history beside a sound checkpoint, the hints a session prints, the lock after a
//! clean exit. Our own engine through the protocol (`checkers-ga hub --tunable`) is the
//! outside engine, so nothing here needs Python.

mod common;

use common::{bin, new_cmd, resume_cmd, run_ok, text, Tmp, BIN};

/// Our engine through the protocol, its weights tunable, ties broken the same way every time.
fn engine() -> String {
    format!("{BIN} hub --tunable --tunable-range 1000 --tie-break first material")
}

/// Settings of a small, quick engine session.
const SMALL: [&str; 8] = [
    "--population",
    "4",
    "--duel-games",
    "2",
    "--measure-every",
    "0",
    "--depth",
    "1",
];

#[test]
fn tuning_one_parameter_runs_generation_after_generation() {
    let t = Tmp::new("one-gene");
    let mut c = new_cmd(&t, 1, "one", true, &SMALL);
    c.args([
        "--engine",
        &engine(),
        "--tune",
        "kings",
        "--generations",
        "3",
    ]);
    let out = run_ok(c);
    assert!(out.trim().ends_with("best.json"), "{out}");
    let shown = run_ok({
        let mut c = bin();
        c.arg("show").arg(out.trim());
        c
    });
    assert!(shown.contains("kings"), "{shown}");
}

/// A session of our own weights, small and quick: `generations` generations.
fn quick_session(t: &Tmp, name: &str, generations: u64) {
    let g = generations.to_string();
    let args = [
        "--population",
        "4",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--generations",
        &g,
    ];
    run_ok(new_cmd(t, 5, name, true, &args));
}

/// The one line of a run's output that says what the run will cost (`this run: ...`).
fn cost_line(out: &str) -> &str {
    let cost: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("this run: "))
        .collect();
    assert_eq!(cost.len(), 1, "{out}");
    cost[0]
}

/// A session of our own weights says what its run will cost once its pace is known, as an
/// engine session does: one line, with its own ways to ask for less; `--quiet` says nothing but
/// the answer's path.
#[test]
fn a_session_of_our_weights_says_what_it_will_cost() {
    let t = Tmp::new("our-cost");
    let args = [
        "--population",
        "4",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--generations",
        "12",
        "--measure-every",
        "0",
    ];
    let out = run_ok(new_cmd(&t, 5, "ours", false, &args));
    let cost = cost_line(&out);
    for needle in [
        "this run: 12 generations of about ",
        " games in all, about ",
        " games/s so far; for less, give --games-budget GAMES",
        ", fewer --generations or a smaller --population",
    ] {
        assert!(cost.contains(needle), "{needle}: {out}");
    }
    let quiet = run_ok(new_cmd(&t, 5, "quiet", true, &args));
    assert_eq!(quiet.lines().count(), 1, "{quiet}");
}

/// A session that ended cleanly leaves no lock file in its folder (the lock was the process's,
/// and it has gone), also after `resume`.
#[test]
fn a_clean_exit_leaves_no_lock_file() {
    let t = Tmp::new("lock");
    quick_session(&t, "l", 1);
    let lock = t.session("l").join(checkers_ga::LOCK_FILE);
    assert!(t.session("l").join("gen-00001.ckpt").exists());
    assert!(!lock.exists(), "{} left", lock.display());
    run_ok(resume_cmd(
        &t,
        Some(&t.session("l")),
        true,
        &["--generations", "2"],
    ));
    assert!(!lock.exists(), "{} left after resume", lock.display());
}

/// `history`, `report` and `resume` of a session whose history.bin was replaced by 100 random
/// bytes: each works from the sound checkpoint and says, in one warning line, what was lost.
#[test]
fn a_corrupt_history_file_costs_its_statistics_not_the_session() {
    let t = Tmp::new("corrupt-history");
    quick_session(&t, "h", 3);
    let file = t.session("h").join("history.bin");
    let noise: Vec<u8> = (0..100u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(&file, &noise).unwrap();
    let warned = |err: &str| {
        let lines: Vec<&str> = err.lines().filter(|l| l.contains("history.bin")).collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(lines[0].starts_with("warning: "), "{err}");
        assert!(lines[0].contains("3 generation(s) are lost"), "{err}");
    };
    let pops = t.pops();
    let pops = pops.to_str().unwrap();
    for cmd in [
        vec!["history", "h", "--populations", pops],
        vec!["report", "h", "--populations", pops],
    ] {
        let mut c = bin();
        c.current_dir(&t.0).args(&cmd);
        let out = c.output().unwrap();
        assert!(out.status.success(), "{cmd:?}: {}", text(&out.stderr));
        warned(&text(&out.stderr));
    }
    let out = resume_cmd(&t, Some(&t.session("h")), false, &["--generations", "4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    warned(&text(&out.stderr));
    // The damaged file is set aside, not lost; the new one holds what the session ran since.
    let aside = t.session("h").join("history.bin.superseded-1");
    assert_eq!(std::fs::read(aside).unwrap(), noise);
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["history", "h", "--populations", pops]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("warning"),
        "{}",
        text(&out.stderr)
    );
    let table = text(&out.stdout);
    assert!(
        table.lines().any(|l| l.trim_start().starts_with("4 ")),
        "{table}"
    );
}

/// A history file cut short keeps its whole records: the warning says which generations are
/// kept, and `history` shows them.
#[test]
fn a_history_file_cut_short_keeps_its_whole_records() {
    let t = Tmp::new("short-history");
    quick_session(&t, "s", 4);
    let file = t.session("s").join("history.bin");
    let bytes = std::fs::read(&file).unwrap();
    // Cut inside the last record.
    std::fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
    // Named, the newest checkpoint is read with what can be saved (its folder would give the
    // newest checkpoint whose history is whole, generation 3's, from which a resume replays
    // generation 4 exactly).
    let mut c = bin();
    c.current_dir(&t.0).arg("history").arg(t.ckpt("s", 4));
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("1 generation(s) are lost (generations 1 to 3 kept)"),
        "{err}"
    );
    let table = text(&out.stdout);
    for g in ["1 ", "2 ", "3 "] {
        assert!(
            table.lines().any(|l| l.trim_start().starts_with(g)),
            "{table}"
        );
    }
}

/// Is there a `python3` for the Python fake engines? In CI there must be; elsewhere a test
/// without it prints `SKIPPED: <why>` and stops.
fn python() -> bool {
    common::have_python()
}

/// Games that ended before either engine moved (each engine exits when asked for its first
/// move) have no length to report: the match says so instead of counting the openings' plies.
#[test]
fn games_that_never_started_are_not_given_a_length() {
    if !python() {
        return;
    }
    let e = "hub:python3 tests/fake_engines/exit_at_once.py";
    let mut c = bin();
    c.current_dir(common::manifest_dir())
        .args(["match", e, e, "--depth", "2", "--games", "2"]);
    let out = c.output().unwrap();
    let report = text(&out.stdout);
    assert!(report.contains("Faults (games lost): A 1, B 1"), "{report}");
    let last = report.lines().last().unwrap_or_default();
    assert!(last.starts_with("time "), "{report}");
    assert!(last.ends_with("no game got past its opening"), "{report}");
    assert!(!last.contains("plies/game"), "{report}");
}

/// The commands a session's end suggests (`next:`) work as printed, with a populations folder
/// of its own; `show` and `export` take `--populations` like `report` and `history`; a copied
/// session folder is named by its path, not by the original's name.
#[test]
fn the_hints_at_a_sessions_end_work_as_printed() {
    let t = Tmp::new("hints");
    let pops = t.0.join("elsewhere");
    let mut c = bin();
    c.current_dir(&t.0).args([
        "new",
        "--population",
        "4",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--generations",
        "2",
        "--measure-every",
        "0",
        "--seed",
        "3",
        "--name",
        "hinted",
        "--populations",
        pops.to_str().unwrap(),
    ]);
    let out = run_ok(c);
    let run_hints = |out: &str| -> usize {
        let mut ran = 0;
        for line in out.lines().filter(|l| l.starts_with(&format!("  {BIN} "))) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[1] == "match" {
                continue; // a 312-game match at depth 6: its player arguments are checked below
            }
            let mut c = std::process::Command::new(words[0]);
            c.current_dir(&t.0).args(&words[1..]);
            let o = c.output().unwrap();
            assert!(o.status.success(), "{line}: {}", text(&o.stderr));
            ran += 1;
        }
        ran
    };
    assert!(
        out.contains(&format!("report hinted --populations {}", pops.display())),
        "{out}"
    );
    assert_eq!(run_hints(&out), 2, "{out}");
    let pops_arg = pops.to_str().unwrap();
    for args in [
        vec!["show", "hinted", "--populations", pops_arg],
        vec![
            "export",
            "hinted",
            "--populations",
            pops_arg,
            "--format",
            "json",
        ],
    ] {
        let mut c = bin();
        c.current_dir(&t.0).args(&args);
        run_ok(c);
    }
    // A copy of the folder, continued: its hints name the copy.
    let copy = t.0.join("copy");
    std::fs::create_dir(&copy).unwrap();
    for e in std::fs::read_dir(pops.join("hinted")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
    }
    let mut c = bin();
    c.current_dir(&t.0).args([
        "resume",
        copy.to_str().unwrap(),
        "--generations",
        "3",
        "--force",
        "--weights-dir",
        t.0.join("w").to_str().unwrap(),
    ]);
    let out = run_ok(c);
    assert!(out.contains(&format!("report {}", copy.display())), "{out}");
    assert_eq!(run_hints(&out), 2, "{out}");
}

/// An outside engine's session says, once its games past the first generation show their pace
/// (64 of them), what its settings will cost (its games and their time at that pace) and how to
/// ask for less; `--games-budget` asks for
/// a number of games; its progress lines count the games so far; `new --help` gives the
/// defaults an engine session really uses.
#[test]
fn an_engine_session_says_what_it_will_cost_and_takes_a_budget_of_games() {
    let t = Tmp::new("cost");
    // The defaults (the mean), population 4: 2 mirrored pairs of 2 games, 4 a generation.
    let small = ["--population", "4", "--depth", "1", "--measure-every", "0"];
    let mut c = new_cmd(&t, 2, "cost", false, &small);
    c.args([
        "--engine",
        &engine(),
        "--tune",
        "kings,moves",
        "--games-budget",
        "100",
    ]);
    let out = run_ok(c);
    assert!(
        out.lines().next().unwrap().contains("25 generations"),
        "{out}"
    );
    let cost = cost_line(&out);
    for needle in [
        "25 generations of about 4 games",
        "100 games in all",
        "games/s",
        "--games-budget",
    ] {
        assert!(cost.contains(needle), "{needle}: {out}");
    }
    assert!(
        !out.contains(" 0.0 gen") && !out.contains(" 0.0 games"),
        "{out}"
    );
    // Said past the first generation (whose games wait for the engine's processes to start).
    let at = |start: &str| out.lines().position(|l| l.starts_with(start)).unwrap();
    assert!(at("this run: ") > at("generation 2/25"), "{out}");
    // Its progress lines read as every tuner's: every 5% of the run, with the games so far.
    let gen2 = out
        .lines()
        .find(|l| l.starts_with("generation 2/25"))
        .unwrap();
    assert!(
        gen2.contains("  8/100 games  ") && gen2.contains("moved most: "),
        "{out}"
    );
    assert!(!out.contains("generation 1/25"), "{out}");
    // What the help says an engine session uses is what it used.
    let s = common::load(&t.ckpt("cost", 25));
    assert_eq!(
        s.settings.ga.method,
        checkers_ga::Method::Mean {
            spread: 8192,
            rate: 100
        }
    );
    assert_eq!(s.settings.ga.fit_every, 0);
    // Another selection: population 4 plays 12 tournament games and a duel of 2 a generation.
    let mut c = new_cmd(&t, 2, "duel", true, &SMALL);
    c.args(["--engine", &engine(), "--tune", "kings,moves"]);
    c.args(["--games-budget", "42", "--selection", "truncation"]);
    run_ok(c);
    let s = common::load(&t.ckpt("duel", 3));
    assert_eq!(s.history.len(), 3);
    assert!(s
        .history
        .iter()
        .skip(1)
        .all(|h| h.games == 12 && h.duel.is_some()));
    assert_eq!(
        s.settings.ga.mutation,
        checkers_ga::Mutation::Gauss {
            sigma: 2048,
            genes: 1
        }
    );
    let help = run_ok({
        let mut c = bin();
        c.args(["new", "--help"]);
        c
    });
    let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("new --engine: gauss:2048:N/4"), "{help}");
    assert!(help.contains("new --engine: mean:8192:100"), "{help}");
    assert!(help.contains("[new: 32; new --engine: 16]"), "{help}");
    assert!(help.contains("new --engine: 0, the fit"), "{help}");
    assert!(help.contains("new --engine: 8192"), "{help}");
}

#[test]
fn a_budget_of_games_conflicts_with_a_count_of_generations() {
    let t = Tmp::new("budget-conflict");
    for more in [&["--generations", "3"][..], &["--time", "10"], &[]] {
        let mut c = new_cmd(&t, 2, "b", true, &["--games-budget", "0"]);
        if !more.is_empty() {
            c = new_cmd(&t, 2, "b", true, &["--games-budget", "40"]);
            c.args(more);
        }
        let out = c.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{more:?}: {}",
            text(&out.stderr)
        );
    }
}
