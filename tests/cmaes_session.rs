//! `checkers-ga cmaes` runs as a session, as `spsa` does (one session around either tuner):
//! `populations/NAME/cmaes.ckpt` after every generation, a lock while it runs, Ctrl-C (exit 130)
//! says `continue with: ... resume NAME`, and `resume NAME` ends with exactly the answer of a
//! run that never stopped, at another thread count; `show`, `export`, `match` and `history`
//! read the session; bad input is a one-line error. The engine is our own through the Hub
//! protocol (`checkers-ga hub --tunable`).

mod common;

use common::{assert_error_exit, bin, output, run_ok, text, tunable_engine, Tmp};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `cmaes` of our engine's `kings`, `opp_kings` and `moves` at depth 2, seed 7, session `name`
/// under T/populations, its answer also written to T/NAME.json.
fn cmaes(t: &Tmp, name: &str, games: &str, threads: &str) -> Command {
    let engine = tunable_engine();
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["cmaes", "--engine", &engine])
        .args(["--tune", "kings,opp_kings,moves", "--depth", "2"])
        .args(["--games", games, "--seed", "7", "--threads", threads])
        .args(["--quiet", "--name", name, "--populations"])
        .arg(t.pops())
        .arg("--out")
        .arg(t.0.join(format!("{name}.json")));
    c
}

/// The session's checkpoint: its generations done, when it can be read.
fn generations_done(t: &Tmp, name: &str) -> Option<u64> {
    let file = t.session(name).join("cmaes.ckpt");
    checkers_ga::load_cmaes(&file)
        .ok()
        .map(|s| s.state.generation)
}

#[test]
fn a_run_stopped_and_resumed_ends_with_the_answer_of_one_that_never_stopped() {
    let t = Tmp::new("cmaes-resume");
    // 3 parameters: 4 mirrored pairs a generation, 240 games in 30 generations.
    let games = "240";
    // 3 generations in flight (1 by default for 3 parameters): the stream is stopped and
    // resumed with what the generations asked for ahead were drawn from.
    let streamed = |name: &str, threads: &str| {
        let mut c = cmaes(&t, name, games, threads);
        c.args(["--in-flight", "3"]);
        c
    };
    // --quiet: the answer's path alone.
    let said = run_ok(streamed("whole", "1"));
    let best = t.session("whole").join("best.json");
    assert_eq!(said, format!("{}\n", best.display()));

    let child = streamed("cut", "2")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while generations_done(&t, "cut").unwrap_or(0) < 3 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no generation saved"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The folder is locked while the session runs.
    let busy = output(t.cmd(&["resume", "cut"]));
    assert_error_exit(&busy, 1, &["in use by process"]);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(130), "{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    // --quiet: standard output holds the answer's path alone; how to continue is on standard
    // error.
    assert!(!out.contains("continue with"), "{out}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("continue with: ") && l.contains("resume cut")),
        "{err}"
    );
    let stood = generations_done(&t, "cut").unwrap();
    assert!((3..30).contains(&stood), "stopped at generation {stood}");
    let best = |name: &str| std::fs::read_to_string(t.session(name).join("best.json")).unwrap();
    assert!(
        best("cut").contains(&format!("{} games in {stood} generations", 8 * stood)),
        "{}",
        best("cut")
    );
    assert!(best("cut").contains("(stopped; 240 games asked for)"));

    // Resumed at another thread count: the answer and the history of the whole run.
    let said = run_ok(t.cmd(&["resume", "cut", "--threads", "1", "--verbose"]));
    let first = format!("generation {} ({} games, σ ", stood + 1, 8 * (stood + 1));
    assert!(said.lines().any(|l| l.starts_with(&first)), "{said}");
    assert!(said.contains("generation 30 (240 games, σ "), "{said}");
    assert_eq!(generations_done(&t, "cut"), Some(30));
    let export = |name: &str| run_ok(t.cmd(&["export", name, "--format", "hub"]));
    let values = export("whole");
    assert_eq!(values.lines().count(), 3, "{values}");
    assert_eq!(export("cut"), values);
    let history = |name: &str| run_ok(t.cmd(&["history", name]));
    let table = history("whole");
    assert!(table.contains("CMA-ES session 'whole'"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.trim_start().starts_with("30      240")),
        "{table}"
    );
    assert_eq!(
        history("cut")
            .replace("'cut'", "'whole'")
            .replace("/cut/", "/whole/"),
        table
    );
    let (bw, bc) = (best("whole"), best("cut"));
    assert_eq!(bw.replace("'whole'", "'cut'"), bc);
    assert!(!bc.contains("stopped"), "{bc}");
    let copy = std::fs::read_to_string(t.0.join("cut.json")).unwrap();
    assert_eq!(copy, bc);

    // Resumed when done: says so, and plays nothing.
    let again = run_ok(t.cmd(&["resume", "cut"]));
    assert!(again.contains("already played its budget"), "{again}");
}

#[test]
fn show_reads_a_cmaes_session_and_bad_input_is_one_line() {
    let t = Tmp::new("cmaes-bad");
    run_ok(cmaes(&t, "s", "16", "2"));
    let shown = run_ok(t.cmd(&["show", "s"]));
    let words = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("CMA-ES session 's', generation 2 of 2, 16 of 16 games"),
        "{shown}"
    );
    let dir = t.session("s");
    let hub = run_ok(t.cmd(&["export", "s", "--format", "hub"]));
    for other in [dir.clone(), dir.join("cmaes.ckpt"), dir.join("best.json")] {
        let mut c = bin();
        c.arg("export").arg(&other).args(["--format", "hub"]);
        assert_eq!(run_ok(c), hub);
    }
    // Its history for programs, in its own words, and --elo as for SPSA.
    let csv = run_ok(t.cmd(&["history", "s", "--format", "csv"]));
    assert_eq!(
        csv.lines().next(),
        Some(
            "generation,games,reference_wins,reference_draws,reference_losses,reference_elo,\
             reference_margin,faults,kings,opp_kings,moves,sigma"
        ),
        "{csv}"
    );
    assert!(csv.lines().any(|l| l.starts_with("2,16,")), "{csv}");
    let json = run_ok(t.cmd(&["history", "s", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["tuner"], "cmaes");
    assert_eq!(v["generations_done"], 2);
    let last = v["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["generation"], 2);
    assert!(last["answer"]["kings"].is_f64(), "{json}");
    // σ at each kept generation, the table's last line's, and the CSV's last column.
    let sigma = last["sigma"].as_f64().expect("σ in the record");
    let table = run_ok(t.cmd(&["history", "s"]));
    assert!(table.contains(&format!("now {sigma:.0}")), "{table}");
    let csv_sigma: f64 = csv
        .lines()
        .last()
        .unwrap()
        .rsplit(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // (serde_json reads a float to within a unit in the last place)
    assert!((csv_sigma - sigma).abs() < 1e-9, "{csv}");
    // The answer's values are the session's best.json's.
    let best = std::fs::read_to_string(dir.join("best.json")).unwrap();
    let kings = last["values"]["kings"].as_i64().unwrap();
    assert!(best.contains(&format!("\"kings\": {kings}")), "{best}");
    let elo = run_ok(t.cmd(&["history", "s", "--elo", "--games", "4", "--threads", "2"]));
    assert!(elo.contains("Elo: the means' average rounded vs"), "{elo}");
    // The GA's commands refuse it by its checkpoint.
    let o = output(t.cmd(&["finals", "s"]));
    assert_error_exit(&o, 1, &["cmaes.ckpt", "is a CMA-ES session", "finals"]);
    let page = run_ok(t.cmd(&["report", "s"]));
    let page = std::path::Path::new(page.trim());
    assert_eq!(page, dir.join("report.html"));
    let html = std::fs::read_to_string(page).unwrap();
    for says in [
        "CMA-ES session 's'",
        "The answer over the generations",
        "generations done / in the budget",
        "step size σ",
        "opp_kings",
        "<svg",
    ] {
        assert!(html.contains(says), "{says}: {html}");
    }
    // Taken: by this tuner and by the others.
    let o = output(cmaes(&t, "s", "16", "1"));
    // How to continue it, as this program was started (its path here).
    let resume = format!("`{} resume s", common::BIN);
    assert_error_exit(&o, 1, &["already exists", &resume]);
    let o = output(t.cmd(&["resume", "s", "--generations", "5"]));
    assert_error_exit(&o, 2, &["is a CMA-ES session"]);
    // Settings out of range.
    for (flag, value, says) in [
        ("--rate", "0", "rate"),
        ("--cov-rate", "2", "rate"),
        ("--sigma", "-1", "--sigma"),
        ("--games", "1", "--games"),
    ] {
        let mut c = cmaes(&t, "x", "16", "1");
        c.args([flag, value]);
        assert_error_exit(&output(c), 2, &[says]);
    }
    assert!(!t.session("x").exists());
    // A corrupted checkpoint: every command that reads it says so on one line.
    let file = dir.join("cmaes.ckpt");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    for args in [
        &["resume", "s"][..],
        &["show", "s"],
        &["export", "s", "--format", "hub"],
        &["history", "s"],
    ] {
        let o = output(t.cmd(args));
        assert_error_exit(&o, 1, &["cmaes.ckpt", "checksum"]);
    }
}

#[test]
fn new_engine_with_a_tuner_runs_that_tuners_session() {
    let t = Tmp::new("cmaes-new");
    run_ok(cmaes(&t, "direct", "16", "2"));
    let engine = tunable_engine();
    let new = |name: &str, tuner: &str, more: &[&str]| {
        let mut c = t.cmd(&["new", "--engine", &engine, "--tuner", tuner]);
        c.args(["--tune", "kings,opp_kings,moves", "--depth", "2"])
            .args(["--games-budget", "16", "--seed", "7", "--quiet"])
            .args(["--name", name])
            .args(more);
        c
    };
    let w = t.0.join("w");
    run_ok(new(
        "via-new",
        "cmaes",
        &["--weights-dir", w.to_str().unwrap()],
    ));
    // The same session as `cmaes` starts: its checkpoint, its answer, its copy.
    assert!(t.session("via-new").join("cmaes.ckpt").is_file());
    let export = |name: &str| run_ok(t.cmd(&["export", name, "--format", "hub"]));
    assert_eq!(export("via-new"), export("direct"));
    let copy = std::fs::read_to_string(w.join("via-new-best.json")).unwrap();
    assert!(copy.contains("CMA-ES session 'via-new'"), "{copy}");
    // SPSA the same way; a GA setting is refused in one line, naming it.
    run_ok(new("spsa", "spsa", &[]));
    assert!(t.session("spsa").join("spsa.ckpt").is_file());
    let o = output(new("x", "cmaes", &["--population", "8"]));
    assert_error_exit(&o, 2, &["--tuner cmaes", "--population"]);
    assert!(!t.session("x").exists());
    // --report, as every tuner's session takes it: the page of the session as it ended, the
    // page `report` writes of it.
    let page = t.0.join("page.html");
    run_ok(new("paged", "spsa", &["--report", page.to_str().unwrap()]));
    let written = std::fs::read_to_string(&page).unwrap();
    assert!(written.contains("SPSA session 'paged'"), "{written}");
    assert!(written.contains("16 of 16 games"), "{written}");
    let again = t.0.join("again.html");
    run_ok(t.cmd(&["report", "paged", "-o", again.to_str().unwrap()]));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), written);
}

#[test]
fn new_engine_without_a_tuner_picks_one_by_the_engines_parameter_count() {
    let t = Tmp::new("cmaes-default");
    let engine = tunable_engine();
    let new = |name: &str, more: &[&str]| {
        let mut c = t.cmd(&["new", "--engine", &engine, "--depth", "1"]);
        c.args(["--seed", "3", "--name", name]).args(more);
        c
    };
    // Our 60 weights: CMA-ES, which says so.
    let said = run_ok(new("wide", &["--games-budget", "16"]));
    assert!(said.contains("tuning by CMA-ES"), "{said}");
    assert!(t.session("wide").join("cmaes.ckpt").is_file());
    // Three of them: the GA (the mean).
    let said = run_ok(new(
        "narrow",
        &["--tune", "kings,opp_kings,moves", "--games-budget", "32"],
    ));
    assert!(!said.contains("CMA-ES"), "{said}");
    assert!(!t.session("narrow").join("cmaes.ckpt").exists());
    assert!(t.session("narrow").join("history.bin").is_file());
    // All 60, with a setting only the GA takes: the GA.
    run_ok(new(
        "ga",
        &["--population", "8", "--generations", "1", "--quiet"],
    ));
    assert!(t.session("ga").join("history.bin").is_file());
    assert!(!t.session("ga").join("cmaes.ckpt").exists());
}
