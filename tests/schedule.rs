//! The schedule log (CHECKERS_GA_SCHEDULE_LOG) and `checkers-ga schedule`: a logged run ends
//! exactly as an unlogged one at any thread count and logs every game job of every batch; the
//! model's output lines; bad input is a one-line error.

mod common;

use checkers_ga::schedule::{Schedule, HEADER, LOG_ENV};
use common::{assert_error, assert_usage_error, bin, load, new_cmd, run_ok, Tmp};
use std::collections::BTreeMap;

/// The batches of a log by id: (phase, the jobs' indices in the order of the lines, the
/// batch line's job count).
fn batches(log: &str) -> BTreeMap<u64, (String, Vec<u64>, Option<u64>)> {
    let mut out: BTreeMap<u64, (String, Vec<u64>, Option<u64>)> = BTreeMap::new();
    let mut lines = log.lines();
    assert_eq!(lines.next(), Some(HEADER));
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 8, "{l}");
        let id = || f[2].parse::<u64>().unwrap();
        match f[0] {
            "job" => {
                let e = out.entry(id()).or_insert((f[1].into(), Vec::new(), None));
                assert_eq!(e.0, f[1], "{l}");
                e.1.push(f[3].parse().unwrap());
            }
            "batch" => {
                let e = out.entry(id()).or_insert((f[1].into(), Vec::new(), None));
                e.2 = Some(f[3].parse().unwrap());
            }
            _ => {}
        }
    }
    out
}

#[test]
fn a_logged_session_ends_as_an_unlogged_one_and_logs_every_game() {
    let t = Tmp::new("session");
    let args = |threads: &'static str| {
        [
            "--population",
            "8",
            "--depth",
            "2",
            "--generations",
            "2",
            "--duel-games",
            "4",
            "--measure-every",
            "2",
            "--measure-games",
            "8",
            "--threads",
            threads,
        ]
    };
    let log = t.0.join("a.csv");
    let mut logged = new_cmd(&t, 7, "logged", true, &args("2"));
    logged.env(LOG_ENV, &log);
    run_ok(logged);
    let mut plain = new_cmd(&t, 7, "plain", true, &args("1"));
    plain.env_remove(LOG_ENV);
    run_ok(plain);
    assert!(!t.0.join("plain.csv").exists());
    // The same session: best weights, and the checkpoint but for its times.
    let same = |name: &str| {
        let mut s = load(&t.ckpt(name, 2));
        s.name.clear();
        s.elapsed = 0.0;
        s.history.iter_mut().for_each(|h| h.seconds = 0.0);
        s
    };
    assert_eq!(same("logged"), same("plain"));
    let best = |name: &str| {
        std::fs::read_to_string(t.best(name))
            .unwrap()
            .replace(name, "NAME")
    };
    assert!(best("logged") == best("plain"), "the best weights differ");
    // Every batch's jobs, each once, in job order, as many as the batch says.
    let text = std::fs::read_to_string(&log).unwrap();
    let b = batches(&text);
    let phases: Vec<&str> = b.values().map(|(p, _, _)| p.as_str()).collect();
    assert_eq!(
        phases,
        ["tournament", "tournament", "duel", "measure"],
        "{text}"
    );
    for (id, (_, jobs, n)) in &b {
        let want: Vec<u64> = (0..n.unwrap_or_else(|| panic!("batch {id} has no line"))).collect();
        assert_eq!(jobs, &want, "batch {id}");
    }
    assert_eq!(b[&2].1.len(), 4, "the duel's games");
    assert_eq!(b[&3].1.len(), 8, "the measurement's games");
    for span in [
        "positions",
        "fit-evals",
        "fit-forward",
        "fit-gradient",
        "fit-step",
        "breed",
        "checkpoint",
    ] {
        let n = text
            .lines()
            .filter(|l| l.starts_with(&format!("span,{span},")))
            .count();
        assert!(n >= 2, "{span}: {n} spans in\n{text}");
    }
    assert!(text.lines().last().unwrap().starts_with("end,"));
    // The model at one thread: every job, span and the serial rest one after the other.
    let s = Schedule::parse(&text).unwrap();
    let one = s.predict(1);
    assert!((one.seconds - s.work()).abs() < 1e-9 && (one.efficiency - 1.0).abs() < 1e-9);
    assert!(
        s.work() > s.seconds * 0.5,
        "two threads at most: {} {}",
        s.work(),
        s.seconds
    );
}

#[test]
fn a_logged_match_logs_its_games_and_an_engine_process_logs_nothing() {
    let t = Tmp::new("match");
    let log = t.0.join("m.csv");
    let mut c = bin();
    c.current_dir(&t.0).env(LOG_ENV, &log).args([
        "match",
        "material",
        "classic",
        "--depth",
        "2",
        "--games",
        "10",
        "--threads",
        "2",
        "--quiet",
    ]);
    run_ok(c);
    let text = std::fs::read_to_string(&log).unwrap();
    let b = batches(&text);
    assert_eq!(b.len(), 1, "{text}");
    assert_eq!(b[&0].0, "match");
    assert_eq!(b[&0].1, (0..10).collect::<Vec<u64>>());
    // `hub` (the engine an outside-engine session starts, which inherits the variable) never
    // opens the log: it would overwrite its parent's.
    let hub_log = t.0.join("hub.csv");
    let mut hub = bin();
    hub.current_dir(&t.0)
        .env(LOG_ENV, &hub_log)
        .arg("hub")
        .stdin(std::process::Stdio::null());
    let _ = hub.output().unwrap();
    assert!(!hub_log.exists());
}

#[test]
fn a_tuner_with_generations_in_flight_logs_a_stream_and_ends_as_one_played_in_turn() {
    let t = Tmp::new("stream");
    let log = t.0.join("s.csv");
    let engine = common::tunable_engine();
    let run = |name: &str, threads: &str, flight: &str| {
        let mut c = bin();
        c.current_dir(&t.0)
            .args(["cmaes", "--engine", &engine, "--tune", "kings,moves"])
            .args(["--depth", "2", "--games", "96", "--seed", "3", "--quiet"])
            .args(["--threads", threads, "--in-flight", flight, "--name", name])
            .arg("--populations")
            .arg(t.pops());
        c
    };
    let mut logged = run("logged", "2", "3");
    logged.env(LOG_ENV, &log);
    run_ok(logged);
    let mut plain = run("plain", "1", "3");
    plain.env_remove(LOG_ENV);
    run_ok(plain);
    let values = |name: &str| {
        let text = std::fs::read_to_string(t.session(name).join("best.json")).unwrap();
        text.lines()
            .filter(|l| !l.contains("comment"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(values("logged"), values("plain"));
    // 2 parameters: 4 pairs, 8 games a generation, 12 generations: each batch's games, its
    // line with 3 in flight, and its tell.
    let text = std::fs::read_to_string(&log).unwrap();
    let b = batches(&text);
    assert_eq!(b.len(), 12, "{text}");
    for (id, (phase, jobs, n)) in &b {
        assert_eq!(
            (phase.as_str(), jobs.len(), *n),
            ("cmaes", 8, Some(8)),
            "{id}"
        );
    }
    let flights = text
        .lines()
        .filter(|l| l.starts_with("batch,") && l.ends_with(",3"))
        .count();
    let tells = text
        .lines()
        .filter(|l| l.starts_with("tell,cmaes,"))
        .count();
    assert_eq!((flights, tells), (12, 12), "{text}");
    let s = Schedule::parse(&text).unwrap();
    assert!(s.batches.iter().all(|b| b.flight == 3 && b.tell > 0.0));
    let one = s.predict(1);
    assert!((one.seconds - s.work()).abs() < 1e-9 && (one.efficiency - 1.0).abs() < 1e-9);
    // One generation in flight: the same games would be other games (drawn from later means),
    // and its log has no stream.
    let mut one_at_a_time = run("single", "2", "1");
    let single_log = t.0.join("one.csv");
    one_at_a_time.env(LOG_ENV, &single_log);
    run_ok(one_at_a_time);
    let text = std::fs::read_to_string(&single_log).unwrap();
    assert!(!text.contains("\ntell,"), "{text}");
    assert_eq!(batches(&text).len(), 12);
}

#[test]
fn the_model_prints_each_thread_count_and_where_the_idle_time_goes() {
    let t = Tmp::new("model");
    let log = t.write(
        "run.csv",
        format!(
            "{HEADER}\n\
             job,tournament,0,1,0,0.5,2.0,1\n\
             job,tournament,0,0,0,0.0,1.0,1\n\
             job,tournament,0,2,0,2.5,1.0,1\n\
             batch,tournament,0,3,1,0.0,4.0,0\n\
             span,fit-gradient,0,0,0,4.0,2.0,2\n\
             job,duel,1,0,0,6.0,1.0,1\n\
             batch,duel,1,1,1,6.0,1.0,0\n\
             end,,0,0,0,0,8.0,0\n"
        )
        .as_bytes(),
    );
    let mut c = bin();
    c.current_dir(&t.0).args([
        "schedule",
        "run.csv",
        "--threads",
        "1,2,8",
        "--run",
        "pop64",
    ]);
    let out = run_ok(c);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "log run.csv: 2 batches, 4 jobs, 8.00 s, of which 1.00 s serial",
            "modelled pop64 1 1.000  8.00 s  idle: none",
            "modelled pop64 2 0.800  5.00 s  idle: serial 0.100, wait-duel 0.100",
            "modelled pop64 8 0.200  5.00 s  idle: wait-tournament 0.300, serial 0.175, \
             wait-duel 0.175, fit-gradient 0.150",
        ],
        "{out}"
    );
    // Longest first: the tournament's 2 s game first on 2 threads changes nothing here (the
    // two others fit beside it either way).
    let mut c = bin();
    c.current_dir(&t.0).args([
        "schedule",
        "run.csv",
        "--threads",
        "2",
        "--run",
        "x",
        "--longest-first",
    ]);
    let out = run_ok(c);
    assert!(
        out.lines().any(|l| l == "longest-first x 2 0.800  5.00 s"),
        "{out}"
    );
    assert!(log.exists());
}

#[test]
fn bad_logs_and_arguments_are_one_line_errors() {
    let t = Tmp::new("bad");
    t.write(
        "bad.csv",
        format!("{HEADER}\njob,t,0,x,0,0,1,1\n").as_bytes(),
    );
    t.write("other.csv", b"gen,best\n1,2\n");
    let schedule = |args: &[&str]| {
        let mut c = bin();
        c.current_dir(&t.0).arg("schedule").args(args);
        c.output().unwrap()
    };
    assert_error(&schedule(&["missing.csv"]), &["cannot read missing.csv"]);
    assert_error(&schedule(&["bad.csv"]), &["bad.csv", "line 2", "field 4"]);
    assert_error(&schedule(&["other.csv"]), &["line 1", "not a schedule log"]);
    assert_usage_error(
        &schedule(&["bad.csv", "--run", "two words"]),
        &["--run", "one word"],
    );
    assert_usage_error(&schedule(&["bad.csv", "--threads", "0"]), &["--threads"]);
    // A log that cannot be written stops the run before it starts.
    let mut c = new_cmd(
        &t,
        1,
        "s",
        true,
        &["--population", "4", "--generations", "1"],
    );
    c.env(LOG_ENV, t.0.join("no-such-folder").join("x.csv"));
    let out = c.output().unwrap();
    assert_error(&out, &["cannot write the schedule log", LOG_ENV]);
    assert!(!t.session("s").exists());
}
