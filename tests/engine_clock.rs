//! Tuning on a clock (`new --engine CMD --tc ...`, `spsa --tc ...`): every game is played on
//! the clock, sent to the engine as Hub `level` lines with its time left; what the games did
//! with their clocks (depth, time a move, time left, games lost on time) is in the history;
//! the clock is kept through a resume; an engine that loses every game on time fails the
//! session in one line, its checkpoint the one before. The fake engine `clock.py SHARE` takes
//! SHARE of the time each `level` allows. (It needs `python3`: without it these tests fail in
//! CI and elsewhere say `SKIPPED`.)

mod common;

use common::{bin, manifest_dir, new_cmd, resume_cmd, run_ok, text, Tmp};
use std::path::Path;
use std::process::Command;

/// `clock.py SHARE`, logging every line it reads to `log`.
fn engine(share: &str, log: &Path) -> String {
    format!(
        "python3 tests/fake_engines/clock.py {share} --log={}",
        log.display()
    )
}

/// `new --engine CMD --tc TC` for session `name`: population 4, `more`, run in the repository.
fn clocked_new(t: &Tmp, name: &str, cmd: &str, tc: &str, more: &[&str]) -> Command {
    let mut c = new_cmd(t, 3, name, true, &["--population", "4"]);
    c.current_dir(manifest_dir())
        .args(["--engine", cmd, "--tc", tc])
        .args(more);
    c
}

/// The `level` lines an engine read (its log's lines, each after the process id).
fn levels(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest.to_string()))
        .filter(|l| l.starts_with("level"))
        .collect()
}

/// The checkpoint format of a file (its header's version).
fn version(p: &Path) -> u32 {
    let b = std::fs::read(p).unwrap();
    u32::from_le_bytes(b[8..12].try_into().unwrap())
}

/// The rows of a history table (after its rule), each split into words.
fn rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .skip_while(|l| !l.starts_with("---"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty() && l.starts_with(' '))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The head of a history table (the line above its rule).
fn head(table: &str) -> &str {
    let lines: Vec<&str> = table.lines().collect();
    let rule = lines
        .iter()
        .position(|l| l.starts_with("---"))
        .unwrap_or_else(|| panic!("no table in {table}"));
    lines[rule - 1]
}

/// The column of a history table headed `name`, as numbers, one per row.
fn column(table: &str, name: &str) -> Vec<f64> {
    let head: Vec<&str> = head(table).split_whitespace().collect();
    let at = head
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name} in {table}"));
    // "left s" and "ms/move" are read as one word each by their place in the row.
    let before: usize = head[..at].iter().filter(|h| **h == "s").count();
    rows(table)
        .iter()
        .map(|r| r[at - before].parse().unwrap_or(f64::NAN))
        .collect()
}

#[test]
fn a_session_on_a_clock_tells_the_engine_its_time_keeps_what_it_used_and_resumes() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("clock-ga");
    let log = t.0.join("engine.log");
    run_ok(clocked_new(
        &t,
        "c",
        &engine("0.1", &log),
        "0.1",
        &["--generations", "1"],
    ));
    // Every `level` is the clock: 0.1 s for the move, never a depth.
    let sent = levels(&log);
    assert!(!sent.is_empty(), "no level line in the engine's log");
    assert!(sent.iter().all(|l| l == "level move-time=0.1"), "{sent:?}");
    // The checkpoint keeps the clock (format 9); the history says what the games did with it.
    let ckpt = t.ckpt("c", 1);
    assert_eq!(version(&ckpt), checkers_ga::store::CHECKPOINT_CLOCK_VERSION);
    let s = common::load(&ckpt);
    let e = s.settings.engine.as_ref().expect("an engine session");
    assert_eq!(e.tc, Some("0.1".parse().unwrap()));
    let time = s.history[0].time.expect("time use in the history");
    assert_eq!(time.games, s.history[0].games);
    assert_eq!(time.lost_on_time, 0, "{time:?}");
    // The fake takes 0.1 of 100 ms a move and says depth (ms / 10) + 1: 10 ms, depth 2 (the
    // time as we measure it adds the pipe's).
    let ms = time.mean_move().as_secs_f64() * 1000.0;
    assert!((9.0..60.0).contains(&ms), "{ms} ms a move");
    assert_eq!(time.mean_depth(), 2.0, "{time:?}");
    // Continued (with 2 generations in flight), it plays on the same clock.
    let before = sent.len();
    let mut more = resume_cmd(
        &t,
        Some(&t.session("c")),
        true,
        &["--generations", "2", "--in-flight", "2"],
    );
    more.current_dir(manifest_dir());
    run_ok(more);
    let sent = levels(&log);
    assert!(sent.len() > before, "no games after the resume");
    assert!(
        sent[before..].iter().all(|l| l == "level move-time=0.1"),
        "{sent:?}"
    );
    // Format 10: the clock, then the generations in flight.
    assert_eq!(
        version(&t.ckpt("c", 2)),
        checkers_ga::store::CHECKPOINT_FLIGHT_VERSION
    );
    let s = common::load(&t.ckpt("c", 2));
    assert_eq!(s.settings.ga.in_flight, 2);
    assert_eq!(s.settings.engine.unwrap().tc, Some("0.1".parse().unwrap()));
    assert!(s.history.iter().all(|h| h.time.is_some()));
    // `history` shows the clock's columns.
    let out = run_ok({
        let mut c = bin();
        c.args(["history", "c", "--populations"]).arg(t.pops());
        c
    });
    let depth = column(&out, "depth");
    assert_eq!(depth.len(), 2, "{out}");
    assert_eq!(depth, vec![2.0, 2.0], "{out}");
    assert_eq!(column(&out, "time-lost"), vec![0.0, 0.0], "{out}");
    // `history --elo` measures the answers on the session's clock, as they were tuned.
    let before = levels(&log).len();
    let out = run_ok({
        let mut c = bin();
        c.args([
            "history", "c", "--elo", "--games", "2", "--seed", "1", "--format", "json",
        ])
        .args(["--populations"])
        .arg(t.pops())
        .current_dir(manifest_dir());
        c
    });
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["reference"]["clock"], "0.1", "{out}");
    // The engine's log shows the measurement's games on the clock too: no depth was sent.
    let sent = levels(&log);
    assert!(
        sent.len() > before,
        "the measurement's games reached no engine"
    );
    assert!(sent[before..]
        .iter()
        .all(|l| l.starts_with("level move-time=")));
    // The answer file keeps the clock it was tuned on, and `show` says it, not a depth.
    let best = t.best("c");
    let text = std::fs::read_to_string(&best).unwrap();
    assert!(text.contains("\"clock\": \"0.1\""), "{text}");
    let out = run_ok({
        let mut c = bin();
        c.arg("show").arg(&best);
        c
    });
    assert!(out.contains("), clock 0.1 s/move: "), "{out}");
    // The report has a section on the clock, a row per generation, and names it in the
    // settings instead of a depth.
    let page = report(&t, "c");
    assert!(page.contains("<section id=\"clock\">"), "no clock section");
    assert_eq!(clock_rows(&page), 2);
    assert!(page.contains("<th>clock</th><td>0.1 s/move"));
    assert!(!page.contains("<th>search depth</th>"));
}

/// The report of session `name`, as text.
fn report(t: &Tmp, name: &str) -> String {
    let page = t.0.join(format!("{name}.html"));
    run_ok({
        let mut c = bin();
        c.args(["report", name, "--populations"])
            .arg(t.pops())
            .arg("-o")
            .arg(&page);
        c
    });
    std::fs::read_to_string(page).unwrap()
}

/// The rows of the report's clock table.
fn clock_rows(page: &str) -> usize {
    let table = page
        .split("<table id=\"clock-table\">")
        .nth(1)
        .expect("a clock table");
    let body = table.split("</table>").next().unwrap();
    body.matches("<tr><td>").count()
}

#[test]
fn a_game_clock_sends_the_time_left_and_the_increment() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("clock-game");
    let log = t.0.join("engine.log");
    run_ok(clocked_new(
        &t,
        "g",
        &engine("0.5", &log),
        "1+0.005",
        &["--generations", "1"],
    ));
    let sent = levels(&log);
    assert!(
        sent.iter()
            .all(|l| l.starts_with("level time=") && l.contains("inc=0.005")),
        "{sent:?}"
    );
    // The clocks run down: some level gives less than the second a side starts with.
    let left: Vec<f64> = sent
        .iter()
        .filter_map(|l| {
            l.split_whitespace()
                .nth(1)?
                .strip_prefix("time=")?
                .parse()
                .ok()
        })
        .collect();
    assert!(left.iter().any(|&x| x < 0.99), "{sent:?}");
    let s = common::load(&t.ckpt("g", 1));
    let time = s.history[0].time.unwrap();
    assert_eq!(time.lost_on_time, 0);
    let left = time.mean_left().as_secs_f64();
    assert!(left > 0.0 && left < 1.0, "{time:?}");
    let out = run_ok({
        let mut c = bin();
        c.args(["history", "g", "--populations"]).arg(t.pops());
        c
    });
    assert!(head(&out).contains("left s"), "{out}");
}

#[test]
fn an_engine_that_loses_every_game_on_time_fails_the_session_in_one_line() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("clock-late");
    let log = t.0.join("engine.log");
    let out = clocked_new(
        &t,
        "late",
        &engine("2", &log),
        "0.02",
        &["--generations", "2"],
    )
    .output()
    .unwrap();
    assert!(!out.status.success(), "the session went on");
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "not one line: {err}");
    assert!(
        lines[0].starts_with("error: every game of generation 1 was lost on time")
            && lines[0].contains("clock of 0.02 s/move"),
        "{err}"
    );
    // No checkpoint of the lost generation; the losses are logged.
    assert!(!t.ckpt("late", 1).exists());
    let faults = std::fs::read_to_string(t.session("late").join("faults.log")).unwrap();
    assert!(
        faults.lines().count() > 0 && faults.lines().all(|l| l.contains("lost on time")),
        "{faults}"
    );
}

#[test]
fn spsa_on_a_clock_keeps_its_clock_and_fails_on_an_engine_that_cannot_keep_time() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("clock-spsa");
    let log = t.0.join("engine.log");
    let spsa = |name: &str, share: &str| {
        let mut c = bin();
        c.current_dir(manifest_dir())
            .args(["spsa", "--engine", &engine(share, &log)])
            .args(["--tc", "0.1", "--games", "8", "--pairs", "2", "--seed", "5"])
            .args(["--quiet", "--name", name, "--populations"])
            .arg(t.pops());
        c
    };
    run_ok(spsa("s", "0.1"));
    let sent = levels(&log);
    assert!(
        !sent.is_empty() && sent.iter().all(|l| l == "level move-time=0.1"),
        "{sent:?}"
    );
    let ckpt = t.session("s").join("spsa.ckpt");
    assert_eq!(version(&ckpt), 3);
    let s = checkers_ga::load_spsa(&ckpt).unwrap();
    assert_eq!(s.state.spec.tc, Some("0.1".parse().unwrap()));
    let out = run_ok({
        let mut c = bin();
        c.args(["history", "s", "--populations"]).arg(t.pops());
        c
    });
    assert!(head(&out).contains("time-lost"), "{out}");
    // The last row (the end of the run) counts the games since the row before.
    let last = rows(&out).pop().unwrap();
    assert_eq!(last[0], "2", "{out}");
    let page = report(&t, "s");
    assert_eq!(clock_rows(&page), 1, "one kept step after the start");
    assert!(page.contains("<th>clock</th><td>0.1 s/move"));
    // An engine that takes twice its time: the run ends at its first step, in one line.
    let out = spsa("late", "2").output().unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "not one line: {err}");
    assert!(
        lines[0].starts_with("error: every game of step 1 was lost on time"),
        "{err}"
    );
}

#[test]
fn a_clock_on_more_threads_than_cores_says_the_clocks_measure_the_crowd() {
    if !common::have_python() {
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t = Tmp::new("clock-crowd");
    let log = t.0.join("engine.log");
    let threads = (cores + 1).to_string();
    let out = clocked_new(
        &t,
        "crowd",
        &engine("0.05", &log),
        "0.1",
        &["--generations", "1", "--threads", &threads],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("--threads {threads} on {cores} cores"))
            && err.contains("measure the crowd"),
        "{err}"
    );
    // The simulator plays no moves: no clock for it.
    let out = clocked_new(&t, "sim", "sim:4", "0.1", &[])
        .output()
        .unwrap();
    common::assert_usage_error(&out, &["--tc", "simulator"]);
}

#[test]
fn a_time_margin_lets_a_late_move_stand_and_is_kept_with_the_clock() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("clock-margin");
    let log = t.0.join("engine.log");
    // 1.3 times its 50 ms: late by 15 ms every move, within a margin of 200 ms.
    run_ok(clocked_new(
        &t,
        "m",
        &engine("1.3", &log),
        "0.05",
        &["--generations", "1", "--time-margin", "200"],
    ));
    let mut more = resume_cmd(&t, Some(&t.session("m")), true, &["--generations", "2"]);
    more.current_dir(manifest_dir());
    run_ok(more);
    let s = common::load(&t.ckpt("m", 2));
    let e = s.settings.engine.as_ref().unwrap();
    assert_eq!(e.time_margin, std::time::Duration::from_millis(200));
    for h in &s.history {
        let time = h.time.expect("time use");
        assert_eq!(time.lost_on_time, 0, "{time:?}");
        assert!(time.mean_move().as_millis() >= 60, "{time:?}");
    }
    // The CSV and JSON histories carry the clock's columns and fields.
    let history = |format: &str| {
        run_ok({
            let mut c = bin();
            c.args(["history", "m", "--format", format, "--populations"])
                .arg(t.pops());
            c
        })
    };
    let csv = history("csv");
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = head.iter().position(|h| *h == "lost_on_time").expect(&csv);
    assert_eq!(
        head[at - 3..at],
        ["mean_depth", "ms_per_move", "seconds_left"]
    );
    for row in csv.lines().skip(1) {
        assert_eq!(row.split(',').nth(at), Some("0"), "{csv}");
    }
    let json: serde_json::Value = serde_json::from_str(&history("json")).unwrap();
    assert_eq!(json["clock"], "0.05");
    assert_eq!(json["time_margin_ms"], 200);
    assert_eq!(json["generations"][1]["time"]["lost_on_time"], 0);
    // Without the margin the same engine loses every game on time.
    let out = clocked_new(
        &t,
        "n",
        &engine("1.3", &log),
        "0.05",
        &["--generations", "1"],
    )
    .output()
    .unwrap();
    assert!(text(&out.stderr).contains("every game of generation 1 was lost on time"));
    // A margin needs a clock.
    let out = new_cmd(
        &t,
        3,
        "d",
        true,
        &["--population", "4", "--time-margin", "5"],
    )
    .current_dir(manifest_dir())
    .args(["--engine", &engine("0.1", &log)])
    .output()
    .unwrap();
    common::assert_usage_error(&out, &["--time-margin", "--tc"]);
}
