//! `checkers-ga spsa` runs as a session: `populations/NAME/spsa.ckpt` after every step, a lock
//! while it runs, Ctrl-C (exit 130) says `continue with: ... resume NAME`, and `resume NAME`
//! ends with exactly the values of a run that never stopped, at another thread count; `show`,
//! `export`, `history` and `report` read the session; bad input is a one-line error. The
//! engine is our own through the Hub protocol (`checkers-ga hub --tunable`).

mod common;

use common::{assert_error_exit, bin, output, run_ok, text, tunable_engine, Tmp};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `spsa` of our engine's `kings`, `opp_kings` and `moves` at depth 2, seed 7, session `name`
/// under T/populations, its values also written to T/NAME.json.
fn spsa(t: &Tmp, name: &str, games: &str, threads: &str) -> Command {
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["spsa", "--engine", &tunable_engine()])
        .args([
            "--tune",
            "kings,opp_kings,moves",
            "--depth",
            "2",
            "--pairs",
            "2",
        ])
        .args([
            "--games",
            games,
            "--seed",
            "7",
            "--threads",
            threads,
            "--quiet",
        ])
        .args(["--name", name, "--populations"])
        .arg(t.pops())
        .arg("--out")
        .arg(t.0.join(format!("{name}.json")));
    c
}

/// The session's checkpoint: its steps done, when it can be read.
fn steps_done(t: &Tmp, name: &str) -> Option<u64> {
    let file = t.session(name).join("spsa.ckpt");
    checkers_ga::load_spsa(&file).ok().map(|s| s.state.step)
}

#[test]
fn a_run_stopped_and_resumed_ends_with_the_values_of_one_that_never_stopped() {
    let t = Tmp::new("resume");
    // 240 games in 60 steps of 2 pairs.
    let games = "240";
    run_ok(spsa(&t, "whole", games, "1"));

    let child = spsa(&t, "cut", games, "2")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped once a few steps are in its checkpoint.
    let t0 = Instant::now();
    while steps_done(&t, "cut").unwrap_or(0) < 3 {
        assert!(t0.elapsed() < Duration::from_secs(120), "no step saved");
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
    // --quiet: the answer's path alone on standard output, how to continue on standard error.
    assert!(!out.contains("continue with"), "{out}");
    let hint = err
        .lines()
        .find_map(|l| l.strip_prefix("continue with: "))
        .unwrap_or_else(|| panic!("no continue line in {err}"));
    assert!(
        hint.ends_with(&format!("resume cut --populations {}", t.pops().display())),
        "{hint}"
    );
    let stood = steps_done(&t, "cut").unwrap();
    assert!((3..60).contains(&stood), "stopped at step {stood}");
    // The values so far are the session's best.json, said to be stopped.
    let best = |name: &str| std::fs::read_to_string(t.session(name).join("best.json")).unwrap();
    assert!(
        best("cut").contains(&format!("{} games in {stood} steps", 4 * stood)),
        "{}",
        best("cut")
    );
    assert!(best("cut").contains("(stopped; 240 games asked for)"));

    // Resumed at another thread count: the values and θ's history of the whole run, and its
    // page.
    let page = t.0.join("cut.html");
    let more = t.cmd(&[
        "resume",
        "cut",
        "--threads",
        "1",
        "--verbose",
        "--report",
        page.to_str().unwrap(),
    ]);
    let said = run_ok(more);
    // --verbose: θ after every step, from the one after the checkpoint's.
    let first = format!("step {} ({} games, result ", stood + 1, 4 * (stood + 1));
    assert!(said.lines().any(|l| l.starts_with(&first)), "{said}");
    assert!(said.contains("step 60 (240 games, result "), "{said}");
    assert!(!said.contains(&format!("step {stood} (")), "{said}");
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .contains("step 60 of 60"));
    assert_eq!(steps_done(&t, "cut"), Some(60));
    let export = |name: &str| run_ok(t.cmd(&["export", name, "--format", "hub"]));
    let values = export("whole");
    assert_eq!(values.lines().count(), 3, "{values}");
    assert!(
        values.starts_with("set-param name=kings value="),
        "{values}"
    );
    assert_eq!(export("cut"), values);
    let history = |name: &str| run_ok(t.cmd(&["history", name, "--format", "csv"]));
    let csv = history("whole");
    assert!(
        csv.starts_with(
            "step,games,reference_wins,reference_draws,reference_losses,reference_elo,\
             reference_margin,faults,kings,opp_kings,moves\n"
        ),
        "{csv}"
    );
    assert!(csv.lines().any(|l| l.starts_with("60,240,")), "{csv}");
    assert_eq!(history("cut"), csv);
    // The --out file of each run holds its final values.
    let file = |name: &str| std::fs::read_to_string(t.0.join(format!("{name}.json"))).unwrap();
    let (w, c) = (file("whole"), file("cut"));
    // And so does each session's best.json, brought up to date by resume.
    let (bw, bc) = (best("whole"), best("cut"));
    assert_eq!(bw.replace("'whole'", "'cut'"), bc);
    for line in values.lines() {
        let v = line.rsplit('=').next().unwrap();
        let n = line
            .split("name=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let said = format!("\"{n}\": {v}");
        assert!(w.contains(&said) && c.contains(&said), "{said}: {w}{c}");
    }
    assert!(!c.contains("stopped") && !bc.contains("stopped"), "{c}");
}

#[test]
fn show_history_and_report_read_an_spsa_session() {
    let t = Tmp::new("read");
    run_ok(spsa(&t, "s", "24", "2"));
    let shown = run_ok(t.cmd(&["show", "s"]));
    assert!(shown.contains("SPSA session 's', step 6 of"), "{shown}");
    for name in ["kings", "opp_kings", "moves"] {
        assert!(
            shown
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(name)),
            "{shown}"
        );
    }
    // The folder and the checkpoint file read as the name does.
    let hub = run_ok(t.cmd(&["export", "s", "--format", "hub"]));
    let dir = t.session("s");
    for other in [dir.clone(), dir.join("spsa.ckpt")] {
        let mut c = bin();
        c.arg("export").arg(&other).args(["--format", "hub"]);
        assert_eq!(run_ok(c), hub);
    }
    let json = run_ok(t.cmd(&["export", "s", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["kings"].is_i64(), "{json}");

    let table = run_ok(t.cmd(&["history", "s"]));
    assert!(table.contains("SPSA session 's'"), "{table}");
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u64>().is_ok())
        })
        .collect();
    // The start and the last step (kept every 10 steps: none between).
    assert_eq!(rows.len(), 2, "{table}");
    assert!(rows[1].trim_start().starts_with("6       24"), "{table}");
    let json = run_ok(t.cmd(&["history", "s", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["tuner"], "spsa");
    assert_eq!(v["history"].as_array().unwrap().len(), 2, "{json}");
    let svg = t.0.join("theta.svg");
    let said = run_ok(t.cmd(&["history", "s", "--svg", svg.to_str().unwrap()]));
    assert!(said.contains("SVG chart written"), "{said}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("opp_kings"));
    // --svg with --elo's table is refused before anything of --elo is read or played, as for
    // a GA session.
    let o = output(t.cmd(&[
        "history",
        "s",
        "--elo",
        "--svg",
        "c.svg",
        "--reference",
        "missing.json",
    ]));
    common::assert_usage_error(&o, &["--svg writes the chart instead of the table"]);

    let page = run_ok(t.cmd(&["report", "s"]));
    let page = Path::new(page.trim());
    assert_eq!(page, dir.join("report.html"));
    let html = std::fs::read_to_string(page).unwrap();
    assert!(
        html.contains("SPSA session 's'") && html.contains("<svg"),
        "{html}"
    );
    assert!(html.contains("theta-chart") && html.contains("opp_kings"));
    // `finals` is the GA's alone: an SPSA session is refused in one line, by its checkpoint.
    let out = output(t.cmd(&["finals", "s"]));
    common::assert_error_exit(&out, 1, &["spsa.ckpt", "is an SPSA session", "finals"]);
}

/// With no session named, `resume`, `history` and `report` take the newest session under the
/// folder of sessions, whichever tuner's, and say which; `finals`, the GA's alone, takes the
/// newest of the GA's.
#[test]
fn with_no_name_the_newest_session_of_any_tuner_is_taken() {
    let t = Tmp::new("newest");
    let ga = [
        "new",
        "--population",
        "4",
        "--depth",
        "1",
        "--generations",
        "1",
    ];
    run_ok(t.cmd(&[&ga[..], &["--name", "g", "--seed", "1", "--quiet"]].concat()));
    // Written later than the GA session's checkpoint (on a file system that keeps times finer
    // than the pause).
    std::thread::sleep(Duration::from_millis(20));
    run_ok(spsa(&t, "s", "8", "2"));
    let out = output(t.cmd(&["history"]));
    let (table, said) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert!(table.starts_with("SPSA session 's' ("), "{table}");
    assert!(
        said.contains("history: no session named, so using the newest one: 's' ("),
        "{said}"
    );
    let out = output(t.cmd(&["resume", "--quiet"]));
    let (again, said) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("resume: no session named, so continuing the newest one: 's' ("),
        "{said}"
    );
    // --quiet: why nothing is played on stderr; the answer's path alone on stdout.
    assert!(
        said.contains("SPSA session 's' already played its budget"),
        "{said}"
    );
    assert_eq!(
        again.lines().collect::<Vec<_>>(),
        [t.session("s").join("best.json").to_string_lossy()],
        "{again}"
    );
    // A GA session's setting, given with no name, says why the SPSA session was taken.
    let out = output(t.cmd(&["resume", "--generations", "5"]));
    common::assert_error_exit(
        &out,
        2,
        &["no session named, and the newest, ", "is an SPSA session"],
    );
    let page = run_ok(t.cmd(&["report"]));
    assert_eq!(Path::new(page.trim()), t.session("s").join("report.html"));
    let out = output(t.cmd(&["finals", "--games", "2", "--depth", "1"]));
    let said = text(&out.stderr);
    // The GA's alone: the newest session of the GA, not the newer SPSA session, and said so.
    assert!(
        said.contains("finals: no session named, so using the newest session of the GA: 'g' ("),
        "{said}"
    );
}

#[test]
fn bad_input_is_one_line() {
    let t = Tmp::new("bad");
    // No such session.
    let o = output(t.cmd(&["resume", "nosuch"]));
    assert_error_exit(&o, 1, &["nosuch"]);
    run_ok(spsa(&t, "s", "4", "1"));
    // A session of that name already exists.
    let o = output(spsa(&t, "s", "4", "1"));
    assert_error_exit(&o, 1, &["already exists", "resume s"]);
    // Nor does a GA session start in its folder.
    let o = output(t.cmd(&["new", "--name", "s", "--generations", "1", "--quiet"]));
    assert_error_exit(&o, 1, &["already exists"]);
    // Every tuner refuses another's folder in the same words.
    let ga_said = common::err_line("new in an SPSA folder", &o);
    run_ok(t.cmd(&[
        "new",
        "--name",
        "g",
        "--generations",
        "1",
        "--population",
        "4",
    ]));
    let o = output(spsa(&t, "g", "4", "1"));
    let spsa_said = common::err_line("spsa in a GA folder", &o);
    assert_eq!(spsa_said.replace("g", "s"), ga_said.replace("g", "s"));
    // A name that is no folder name, a GA setting on resume, a bad --elo setting.
    let o = output(spsa(&t, "../x", "4", "1"));
    assert_error_exit(&o, 2, &["plain folder name"]);
    let o = output(t.cmd(&["resume", "s", "--generations", "5"]));
    assert_error_exit(&o, 2, &["is an SPSA session"]);
    let o = output(t.cmd(&["history", "s", "--elo", "--every", "0"]));
    assert_error_exit(&o, 2, &["--every must be at least 1"]);
    // A corrupted checkpoint: every command that reads it says so on one line.
    let file = t.session("s").join("spsa.ckpt");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    for args in [
        &["resume", "s"][..],
        &["show", "s"],
        &["export", "s", "--format", "hub"],
        &["history", "s"],
        &["report", "s"],
    ] {
        let o = output(t.cmd(args));
        assert_error_exit(&o, 1, &["spsa.ckpt", "checksum"]);
    }
    // Cut short.
    std::fs::write(&file, &bytes[..20]).unwrap();
    let o = output(t.cmd(&["resume", "s"]));
    assert_error_exit(&o, 1, &["spsa.ckpt", "truncated"]);
}

/// `spsa` of our engine with no `--out`, run in folder `cwd`, session `name` under
/// T/populations: 8 games at depth 1 in steps of 2 pairs, seed 3.
fn spsa_in(t: &Tmp, cwd: &Path, name: &str) -> Command {
    let mut c = bin();
    c.current_dir(cwd)
        .args(["spsa", "--engine", &tunable_engine()])
        .args(["--tune", "kings,moves", "--depth", "1", "--pairs", "2"])
        .args(["--games", "8", "--seed", "3", "--threads", "2"])
        .args(["--name", name, "--populations"])
        .arg(t.pops());
    c
}

#[test]
fn the_answer_is_the_sessions_best_json_and_nothing_lands_in_the_current_folder() {
    let t = Tmp::new("best");
    let cwd = t.0.join("work");
    std::fs::create_dir(&cwd).unwrap();
    let said = run_ok(spsa_in(&t, &cwd, "a"));
    // Nothing written where it ran.
    let left: Vec<_> = std::fs::read_dir(&cwd).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    // The answer in the session's folder, as a GA session's best.json of an engine is.
    let best = t.session("a").join("best.json");
    let file = std::fs::read_to_string(&best).unwrap();
    assert!(
        file.contains("\"format\": \"checkers-ga engine parameters\""),
        "{file}"
    );
    assert!(
        file.contains("SPSA session 'a', seed 3: 8 games in 2 steps"),
        "{file}"
    );
    assert!(
        said.contains(&format!("best values: {}", best.display())),
        "{said}"
    );
    // The lines to go on name it; show, export and match read it.
    let shown = best.to_str().unwrap();
    assert!(said.contains(&format!("match {shown} ")), "{said}");
    let hub = run_ok(t.cmd(&["export", "a", "--format", "hub"]));
    let mut c = bin();
    c.args(["export", shown, "--format", "hub"]);
    assert_eq!(run_ok(c), hub);
    let mut c = bin();
    c.args(["show", shown]);
    let table = run_ok(c);
    assert!(
        table.contains("kings") && table.contains("SPSA session 'a'"),
        "{table}"
    );
    let mut c = bin();
    c.args(["match", shown, &format!("hub:{}", tunable_engine())])
        .args(["--depth", "1", "--games", "2", "--threads", "1"]);
    assert!(run_ok(c).contains("W/D/L for A: "));

    // A second session in the same folder starts without --force; --out is an extra copy.
    let extra = t.0.join("extra.json");
    let mut c = spsa_in(&t, &cwd, "b");
    c.arg("--out").arg(&extra);
    let said = run_ok(c);
    assert!(
        said.contains(&format!("also written to {}", extra.display())),
        "{said}"
    );
    let best_b = std::fs::read_to_string(t.session("b").join("best.json")).unwrap();
    assert_eq!(std::fs::read_to_string(&extra).unwrap(), best_b);
    assert!(std::fs::read_dir(&cwd).unwrap().next().is_none());
    // An existing --out is kept without --force, before any session is made.
    let mut c = spsa_in(&t, &cwd, "c");
    c.arg("--out").arg(&extra);
    assert_error_exit(&output(c), 1, &["already exists", "--force"]);
    assert!(!t.session("c").exists());
}

/// The progress lines `spsa` prints off a terminal: (step, steps, games, the rest).
fn progress_lines(out: &str) -> Vec<(u64, u64, u64, String)> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("step ")?;
            let (done, rest) = rest.split_once('/')?;
            let (steps, rest) = rest.split_once("  ")?;
            let (games, rest) = rest.split_once('/')?;
            Some((
                done.parse().ok()?,
                steps.parse().ok()?,
                games.parse().ok()?,
                rest.to_string(),
            ))
        })
        .collect()
}

/// θ after each step, from the lines of `--print-every 1`: `step S (G games, result R): a=1.0 ...`.
fn theta_lines(out: &str) -> std::collections::HashMap<u64, Vec<(String, f64)>> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("step ")?;
            let (step, rest) = rest.split_once(" (")?;
            let step: u64 = step.parse().ok()?;
            let (_, values) = rest.split_once("): ")?;
            let theta = values
                .split_whitespace()
                .map(|nv| {
                    let (n, v) = nv.split_once('=').unwrap();
                    (n.to_string(), v.parse().unwrap())
                })
                .collect();
            Some((step, theta))
        })
        .collect()
}

#[test]
fn off_a_terminal_it_says_how_the_run_goes_every_so_often() {
    let t = Tmp::new("lines");
    // 400 games of the simulator in 50 steps of 4 pairs, stdout a pipe, θ after every step.
    let mut c = bin();
    c.current_dir(&t.0)
        .args([
            "spsa", "--engine", "sim:6:2", "--games", "400", "--seed", "4",
        ])
        .args(["--print-every", "1", "--name", "p", "--populations"])
        .arg(t.pops());
    let out = run_ok(c);
    let lines = progress_lines(&out);
    let theta = theta_lines(&out);
    // A line at least every 5% of the run (every 3 of 50 steps), the last step's too.
    let steps: Vec<u64> = lines.iter().map(|l| l.0).collect();
    assert!(steps.len() >= 17, "{out}");
    assert_eq!(steps.last(), Some(&50), "{out}");
    let mut before = 0;
    for (k, (step, of, games, rest)) in lines.iter().enumerate() {
        assert!(*step > before && step - before <= 3, "{out}");
        assert_eq!((*of, *games), (50, 8 * step), "{out}");
        assert!(rest.starts_with("400 games  "), "{rest}");
        assert!(
            rest.contains(" games/") && rest.contains(" left "),
            "{rest}"
        );
        // The largest moves since the line before, in the engine's units: each named
        // parameter moved by that much to that value, and none left out moved more.
        let moves = rest
            .split("moved most: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{rest}"));
        // (θ before the first step is not printed: the first line's moves are not checked.)
        let was = theta.get(&before).filter(|_| k > 0);
        let now = &theta[step];
        let mut smallest = f64::INFINITY;
        let mut named = Vec::new();
        for m in moves.split(", ").filter(|m| *m != "none") {
            // `p3 +12.5 (to 1030.0)`
            let w: Vec<&str> = m.split_whitespace().collect();
            assert_eq!(w.len(), 4, "{m}");
            let by: f64 = w[1].parse().unwrap();
            let to: f64 = w[3].trim_end_matches(')').parse().unwrap();
            let i = now.iter().position(|(n, _)| n == w[0]).unwrap();
            assert!((to - now[i].1).abs() < 0.051, "{m} vs {:?}", now[i]);
            if let Some(was) = was {
                assert!((by - (now[i].1 - was[i].1)).abs() < 0.16, "{m}");
            }
            smallest = smallest.min(by.abs());
            named.push(w[0]);
        }
        assert!(
            named.len() <= 3 && (named.is_empty() == (moves == "none")),
            "{rest}"
        );
        if let Some(was) = was {
            for (i, (n, v)) in now.iter().enumerate() {
                if !named.contains(&n.as_str()) {
                    // (Fewer than three named: the others did not move, to the 0.1 shown.)
                    let most = if named.len() < 3 {
                        0.16
                    } else {
                        smallest + 0.16
                    };
                    assert!((v - was[i].1).abs() <= most, "{n} in {rest}");
                }
            }
        }
        before = *step;
    }
    // A long run: a line at least every 200 games.
    let mut c = bin();
    c.current_dir(&t.0)
        .args([
            "spsa", "--engine", "sim:6:2", "--games", "20000", "--seed", "4",
        ])
        .args(["--name", "q", "--populations"])
        .arg(t.pops());
    let out = run_ok(c);
    let games: Vec<u64> = progress_lines(&out).iter().map(|l| l.2).collect();
    assert!(games.len() >= 100, "{out}");
    assert_eq!(games.last(), Some(&20000));
    assert!(games.windows(2).all(|w| w[1] - w[0] <= 200), "{games:?}");
    assert!(games[0] <= 200);
    // --quiet: none.
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["spsa", "--engine", "sim:6:2", "--games", "400", "--quiet"])
        .args(["--name", "r", "--populations"])
        .arg(t.pops());
    assert!(progress_lines(&run_ok(c)).is_empty());
}

/// A damaged checkpoint of a one-file tuner, found by its session's name, is that tuner's
/// one-line error in every command that reads a session: what is wrong with it, not only that
/// it is no checkpoint.
#[test]
fn a_damaged_tuner_checkpoint_says_what_is_wrong_everywhere() {
    let t = Tmp::new("damaged");
    for (file, bytes, said) in [
        ("spsa.ckpt", &b""[..], "the file is empty"),
        (
            "spsa.ckpt",
            &b"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"[..],
            "wrong magic",
        ),
        ("cmaes.ckpt", &b""[..], "the file is empty"),
    ] {
        let dir = t.session("d");
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(dir.join("spsa.ckpt"));
        std::fs::write(dir.join(file), bytes).unwrap();
        for verb in [
            &["history", "d"][..],
            &["report", "d"],
            &["show", "d"],
            &["export", "d", "--format", "hub"],
            &["resume", "d"],
        ] {
            let o = output(t.cmd(verb));
            assert_error_exit(&o, 1, &[file, said]);
        }
        std::fs::remove_file(dir.join(file)).unwrap();
    }
}
