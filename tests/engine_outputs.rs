//! What an outside engine's session says is true: `show --sort` orders by the values shown
//! (and by their change from the declared values), a session tunes playing values and leaves
//! the engine's settings out unless `--tune` names them, a mostly drawn session says so once,
//! every tuner's session is titled and headed alike by `show` and `history`, and the small
//! things a first user met: counts in the singular, `--engine` errors that name
//! what was typed, `resume` of a finished session that names every limit, and a match of one
//! engine under two settings whose sides have two names; every tuner's engine session ends,
//! and ends when stopped by Ctrl-C, with the same lines. (The Python engine needs `python3`:
//! without it those tests fail in CI and elsewhere say `SKIPPED`.)

mod common;

use checkers_ga::store;
use common::{manifest_dir, run, run_ok, stdout_ok, text, Tmp};

/// An outside engine's parameter file (what a session's `best.json` holds) with `params`:
/// (name, min, max, declared default, value).
fn engine_file(params: &[(&str, i64, i64, i64, i64)]) -> String {
    let values: Vec<String> = params
        .iter()
        .map(|(n, _, _, _, v)| format!("\"{n}\": {v}"))
        .collect();
    let declared: Vec<String> = params
        .iter()
        .map(|(n, lo, hi, d, _)| {
            format!(
                "{{\"name\": \"{n}\", \"kind\": \"int\", \"value\": \"{d}\", \"min\": \"{lo}\", \
                 \"max\": \"{hi}\"}}"
            )
        })
        .collect();
    let tuned: Vec<String> = params
        .iter()
        .map(|(n, lo, hi, d, _)| {
            format!("{{\"name\": \"{n}\", \"min\": {lo}, \"max\": {hi}, \"default\": {d}}}")
        })
        .collect();
    format!(
        "{{\"format\": \"checkers-ga engine parameters\", \"version\": 1, \"session\": \"t\", \
         \"seed\": 1, \"generation\": 5, \"values\": {{{}}}, \"engine\": {{\"command\": \
         [\"python3\", \"engine.py\"], \"dir\": null, \"options\": [], \"depth\": 2, \
         \"move_timeout_ms\": 60000, \"name\": \"engine.py\", \"declared\": [{}], \"tuned\": \
         [{}]}}}}",
        values.join(", "),
        declared.join(", "),
        tuned.join(", ")
    )
}

/// A session of one small generation at depth 1, unmeasured.
const ONE_GENERATION: [&str; 8] = [
    "--population",
    "4",
    "--depth",
    "1",
    "--generations",
    "1",
    "--measure-every",
    "0",
];

/// The parameter names of `show`'s table, in the order printed.
fn shown_order(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("---"))
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

#[test]
fn show_sorts_an_engines_parameters_by_the_values_shown() {
    let t = Tmp::new("sort");
    // Value order (c 250, a 10, b 9, d -300) is not the genes' order (b's value is near the top
    // of its range, a's near the bottom of its own).
    let file = t.write(
        "params.json",
        engine_file(&[
            ("a", 0, 1000, 500, 10),
            ("b", -10, 10, 0, 9),
            ("c", 100, 300, 200, 250),
            ("d", -500, 0, -250, -300),
        ])
        .as_bytes(),
    );
    let f = file.to_str().unwrap();
    let order = |sort: &str| shown_order(&stdout_ok(&run(&t.0, &["show", f, "--sort", sort])));
    assert_eq!(order("number"), ["a", "b", "c", "d"]);
    assert_eq!(order("weight"), ["c", "a", "b", "d"]);
    assert_eq!(order("abs"), ["d", "c", "a", "b"]);
    // Change in units of the range: a 490/1000, b 9/20, c 50/200, d 50/500.
    assert_eq!(order("change"), ["a", "b", "c", "d"]);
    // Weights have no declared values to change from.
    common::assert_usage_error(
        &run(&t.0, &["show", "material", "--sort", "change"]),
        &["--sort change", "outside engine"],
    );
}

#[test]
fn one_tuned_parameter_is_singular() {
    let t = Tmp::new("one");
    let file = t.write(
        "one.json",
        engine_file(&[("king", 100, 300, 130, 150)]).as_bytes(),
    );
    let out = stdout_ok(&run(&t.0, &["show", file.to_str().unwrap()]));
    assert!(out.contains(": 1 tuned parameter\n"), "{out}");
}

#[test]
fn a_mistyped_engine_is_named_as_typed() {
    let t = Tmp::new("typo");
    for verb in [
        &["new", "--engine", "../engine/draughts_engin.py"][..],
        &[
            "spsa",
            "--engine",
            "../engine/draughts_engin.py",
            "--games",
            "10",
        ][..],
    ] {
        let out = run(&t.0, verb);
        common::assert_error(
            &out,
            &["--engine ../engine/draughts_engin.py", "no program"],
        );
        assert!(!text(&out.stderr).contains("hub:"), "{}", text(&out.stderr));
    }
}

#[test]
fn resume_of_a_finished_budget_session_names_the_budget() {
    let t = Tmp::new("budget");
    let small = [
        "--population",
        "4",
        "--depth",
        "1",
        "--duel-games",
        "2",
        "--measure-every",
        "0",
        "--games-budget",
        "24",
    ];
    run_ok(common::new_cmd(&t, 1, "b", true, &small));
    let out = run_ok(common::resume_cmd(&t, Some(&t.session("b")), false, &[]));
    let line = out
        .lines()
        .find(|l| l.contains("already reached its limit"))
        .unwrap_or_else(|| panic!("no limit line: {out}"));
    for flag in ["--generations", "--games-budget", "--time"] {
        assert!(line.contains(flag), "{flag} not in: {line}");
    }
}

#[test]
fn a_finished_budget_counts_its_games_as_the_budget_does() {
    // Duels and measurements count toward --games-budget, and so in what the resume says.
    let t = Tmp::new("budget-count");
    let small = [
        "--population",
        "4",
        "--depth",
        "1",
        "--duel-games",
        "4",
        "--measure-every",
        "1",
        "--measure-games",
        "4",
        "--games-budget",
        "40",
    ];
    run_ok(common::new_cmd(&t, 1, "g", true, &small));
    let out = run_ok(common::resume_cmd(&t, Some(&t.session("g")), false, &[]));
    let games: u64 = out
        .split("games in all: ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of games: {out}"));
    // Stopped within the budget, and short of it by less than a generation's 12 tournament
    // games (the tournament games alone are 24).
    assert!(games <= 40 && games + 12 > 40, "{games}: {out}");
}

#[test]
fn one_engine_under_two_settings_has_two_names() {
    let t = Tmp::new("names");
    // One engine at two depths.
    let two_depths = [
        "match",
        "material",
        "material",
        "--depth",
        "2",
        "--depth-b",
        "3",
        "--games",
        "2",
        "--seed",
        "1",
    ];
    let out = stdout_ok(&run(&t.0, &two_depths));
    let head = out.lines().next().unwrap();
    assert!(
        head.starts_with("A: material depth 2  B: material depth 3"),
        "{head}"
    );
    // Named by the user: as named.
    let out = stdout_ok(&run(&t.0, &[&two_depths[..], &["--name-a", "x"]].concat()));
    assert!(out.starts_with("A: x  B: material  "), "{out}");
    if !common::have_python() {
        return;
    }
    let engine = format!(
        "hub:python3 {}",
        manifest_dir().join("examples/hub_engine.py").display()
    );
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match",
            &engine,
            &engine,
            "--option-a",
            "king=200",
            "--depth",
            "1",
            "--games",
            "2",
            "--seed",
            "1",
            "--threads",
            "1",
        ],
    ));
    let head = out.lines().next().unwrap();
    assert!(
        head.contains("A: hub_engine.py (king=200)  B: hub_engine.py (declared values)"),
        "{head}"
    );
}

#[test]
fn settings_are_not_tuned_unless_named() {
    let t = Tmp::new("settings");
    let engine = format!("{} hub --tunable material", common::BIN);
    let small = ONE_GENERATION;
    let mut c = common::new_cmd(&t, 1, "s", false, &small);
    c.args(["--engine", &engine]);
    let out = run_ok(c);
    let line = out
        .lines()
        .find(|l| l.starts_with("tuning "))
        .unwrap_or_else(|| panic!("no tuning line: {out}"));
    assert!(
        line.contains("left out as engine settings: depth, hash"),
        "{line}"
    );
    let shown = stdout_ok(&run(&t.0, &["show", t.session("s").to_str().unwrap()]));
    // Titled as every tuner's session of an engine is; the mean's answer is the centres'
    // average, no best so far.
    let title = shown.replace("\n  ", " ");
    assert!(
        title.contains(": GA session 's', generation 1 of ")
            && title.contains(": the centres' average\n"),
        "{shown}"
    );
    let names = shown_order(&shown);
    assert!(names.iter().any(|n| n == "men"), "{shown}");
    for setting in ["depth", "hash"] {
        assert!(
            !names.iter().any(|n| n == setting),
            "{setting} tuned: {shown}"
        );
    }
    // Named with --tune, a setting is tuned.
    let mut c = common::new_cmd(&t, 1, "named", false, &small);
    c.args(["--engine", &engine, "--tune", "men,hash"]);
    let out = run_ok(c);
    assert!(
        out.contains("tuning 2 parameters of checkers-ga: men, hash;"),
        "{out}"
    );
    // SPSA says the same and tunes the same.
    let mut c = common::bin();
    c.current_dir(&t.0).args([
        "spsa", "--engine", &engine, "--games", "4", "--depth", "1", "--seed", "1", "--name", "sp",
    ]);
    c.arg("--populations").arg(t.pops());
    let out = run_ok(c);
    let line = out
        .lines()
        .find(|l| l.starts_with("tuning "))
        .unwrap_or_else(|| panic!("no tuning line: {out}"));
    assert!(
        line.contains("left out as engine settings: depth, hash"),
        "{line}"
    );
    let shown = stdout_ok(&run(&t.0, &["show", t.session("sp").to_str().unwrap()]));
    let names = shown_order(&shown);
    assert!(names.iter().any(|n| n == "men"), "{shown}");
    assert!(!names.iter().any(|n| n == "hash"), "hash tuned: {shown}");
}

#[test]
fn a_mostly_drawn_session_says_so_once() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("draws");
    // The example engine at depth 1 draws most of its games.
    let mut c = common::new_cmd(
        &t,
        3,
        "d",
        false,
        &["--depth", "1", "--games-budget", "160"],
    );
    c.current_dir(manifest_dir())
        .args(["--engine", "python3 examples/hub_engine.py"]);
    let out = run_ok(c);
    let notes: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("note: the games tell the tuner little"))
        .collect();
    assert_eq!(notes.len(), 1, "{out}");
    assert!(notes[0].contains("were draws"), "{}", notes[0]);
    assert!(notes[0].contains("--depth"), "{}", notes[0]);
    // SPSA of the same engine at the same depth says it as well, once.
    let mut c = common::bin();
    c.current_dir(manifest_dir()).args([
        "spsa",
        "--engine",
        "python3 examples/hub_engine.py",
        "--depth",
        "1",
        "--games",
        "240",
        "--seed",
        "3",
        "--name",
        "sp",
    ]);
    c.arg("--populations").arg(t.pops());
    let out = run_ok(c);
    let notes: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("note: the games tell the tuner little"))
        .collect();
    assert_eq!(notes.len(), 1, "{out}");
    assert!(notes[0].contains("pairs of games decided"), "{}", notes[0]);
}

#[test]
fn new_says_which_given_options_the_session_does_not_use() {
    let t = Tmp::new("unused");
    let engine = format!("{} hub --tunable material", common::BIN);
    let small = ONE_GENERATION;
    // The mean (an engine session's default) breeds nothing and plays no duel; an outside
    // engine searches at its own depth, so --deepen is ours alone.
    let mut c = common::new_cmd(&t, 1, "u", false, &small);
    c.args(["--engine", &engine, "--elite", "2", "--deepen", "5:3"]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("note: this session does not use --elite, --deepen"),
        "{err}"
    );
    // Options that apply: no note.
    let mut c = common::new_cmd(&t, 1, "v", false, &small);
    c.args(["--engine", &engine]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("does not use"),
        "{}",
        text(&out.stderr)
    );
    // Our own weights under roulette use both.
    let mut c = common::new_cmd(&t, 1, "w", false, &small);
    c.args(["--elite", "2", "--deepen", "5:3", "--duel-games", "2"]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("does not use"),
        "{}",
        text(&out.stderr)
    );
}

/// A session of an outside engine stopped by Ctrl-C ends the same way whichever tuner ran it
/// (the GA's mean, SPSA, CMA-ES): exit status 130; its values so far, one line each; on
/// standard error what stopped it, after how many of its games, and `best values: FILE (G
/// games, N steps)`; where the session stands and how to continue, and no `next:` commands
/// (the session is not done); its answer file's comment says it was stopped (a GA session on
/// a time limit too, which a time limit's end does not say).
#[test]
fn every_tuners_engine_session_stopped_by_ctrl_c_ends_with_the_same_lines() {
    let t = Tmp::new("engine-stops");
    let engine = common::tunable_engine();
    let pops = t.0.join("populations");
    let pops = pops.to_str().unwrap();
    // (verb, its limit, the session, how the Ctrl-C line counts the games, what the answer
    // file's comment ends with): a GA session on a time limit has no count of games.
    for (verb, limit, name, of, asked) in [
        (
            "new",
            "--games-budget",
            "stop-ga",
            " of 100000 games",
            " games asked for)",
        ),
        (
            "new",
            "--time",
            "stop-time",
            " games",
            " (stopped before its 100000 s)",
        ),
        (
            "spsa",
            "--games",
            "stop-spsa",
            " of 100000 games",
            " games asked for)",
        ),
        (
            "cmaes",
            "--games",
            "stop-cmaes",
            " of 100000 games",
            " games asked for)",
        ),
    ] {
        let mut c = common::bin();
        c.current_dir(&t.0)
            .args([verb, "--engine", &engine, "--tune", "kings,opp_kings,moves"])
            .args([
                "--depth", "1", "--seed", "4", limit, "100000", "--name", name,
            ])
            .args(["--populations", pops])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let child = c.spawn().unwrap();
        // Stopped once its first step is saved (a one-file tuner's checkpoint is there from
        // its start).
        let dir = t.0.join("populations").join(name);
        let t0 = std::time::Instant::now();
        let saved = || match verb {
            "spsa" => {
                checkers_ga::load_spsa(&dir.join("spsa.ckpt")).is_ok_and(|s| s.state.step > 0)
            }
            "cmaes" => checkers_ga::load_cmaes(&dir.join("cmaes.ckpt"))
                .is_ok_and(|s| s.state.generation > 0),
            _ => !store::list_checkpoints(&dir).is_empty(),
        };
        while !saved() {
            assert!(t0.elapsed().as_secs() < 120, "{verb}: nothing saved");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let o = child.wait_with_output().unwrap();
        let (out, err) = (text(&o.stdout), text(&o.stderr));
        assert_eq!(o.status.code(), Some(130), "{verb}: {out}{err}");
        let values = out.lines().filter(|l| l.contains(" (default ")).count();
        assert_eq!(values, 3, "{verb}: {out}");
        let best = format!("{pops}/{name}/best.json");
        let stopped = err
            .lines()
            .find(|l| l.starts_with("Ctrl-C stopped the run after "))
            .unwrap_or_else(|| panic!("{verb}: {err}"));
        assert!(
            stopped.contains(&format!("{of}; best values: "))
                && stopped.contains(&format!("{best} (")),
            "{verb}: {stopped}"
        );
        let after = stopped.trim_start_matches("Ctrl-C stopped the run after ");
        let games: u64 = after.split(' ').next().unwrap().parse().unwrap();
        assert!(games > 0, "{verb}: {stopped}");
        let stands = format!("session '{name}' stands at ");
        assert!(out.lines().any(|l| l.starts_with(&stands)), "{verb}: {out}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("continue with: ") && l.contains(&format!("resume {name} "))),
            "{verb}: {out}"
        );
        assert!(!out.contains("next: "), "{verb}: {out}");
        // Its answer file says it was stopped, and how much was asked for.
        let file = std::fs::read_to_string(&best).unwrap();
        let comment: serde_json::Value = serde_json::from_str(&file).unwrap();
        let comment = comment["comment"].as_str().unwrap_or_default();
        assert!(
            comment.contains(&format!("session '{name}', seed 4: ")),
            "{verb}: {file}"
        );
        assert!(comment.ends_with(asked), "{verb} {limit}: {file}");
    }
}

/// A session of an outside engine says what it will cost, goes on and ends the same way whichever
/// tuner ran it (the GA's mean, SPSA, CMA-ES): its progress lines off a terminal, every 5% of the
/// run with the games so far; its cost once its pace is known, with its own
/// flag for a budget of games; where it stands at its end and the time the run took; the games
/// played by then in `history`'s table; its values, one line each, as `export --format hub` of its best file gives
/// them, then `best values: FILE` and the same `next:` commands, which work as printed (the
/// match apart: 312 games).
#[test]
fn every_tuners_engine_session_ends_with_the_same_lines() {
    let t = Tmp::new("engine-ends");
    let engine = common::tunable_engine();
    let pops = t.0.join("populations");
    let pops = pops.to_str().unwrap();
    let common_args = [
        "--engine",
        &engine,
        "--tune",
        "kings,opp_kings,moves",
        "--depth",
        "1",
        "--seed",
        "4",
        "--populations",
        pops,
    ];
    let runs: [(&str, &[&str]); 3] = [
        (
            "new",
            &[
                "--population",
                "4",
                "--games-budget",
                "160",
                "--name",
                "ends-ga",
            ],
        ),
        (
            "spsa",
            &["--games", "160", "--pairs", "2", "--name", "ends-spsa"],
        ),
        ("cmaes", &["--games", "160", "--name", "ends-cmaes"]),
    ];
    let mut nexts = Vec::new();
    for (verb, own) in runs {
        let out = run_ok({
            let mut c = common::bin();
            c.current_dir(&t.0).arg(verb).args(common_args).args(own);
            c
        });
        let name = own[own.len() - 1];
        // What the run costs, once its pace is known, and how to ask for less by its own
        // flag (the GA's adds its own ways: fewer generations, a smaller population).
        let flag = if verb == "new" {
            "--games-budget"
        } else {
            "--games"
        };
        let cost = out
            .lines()
            .find(|l| l.starts_with("this run: "))
            .unwrap_or_else(|| panic!("{verb}: no cost line: {out}"));
        assert!(cost.contains(" 160 games in all, about "), "{verb}: {cost}");
        let less = cost.split("; for less, give ").nth(1).unwrap_or_default();
        assert!(
            less == format!("{flag} GAMES") || less.starts_with(&format!("{flag} GAMES, fewer")),
            "{verb}: {cost}"
        );
        // Its progress lines, off a terminal: one every 5% of the run, the last at its end,
        // each with the games so far of the run's 160.
        let step = if verb == "spsa" { "step" } else { "generation" };
        let progress: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with(&format!("{step} ")) && l.contains(" games  "))
            .collect();
        assert!(progress.len() >= 19, "{verb}: {out}");
        assert!(
            progress.iter().all(|l| l.contains("/160 games  ")
                && l.contains(" games/s  left ")
                && l.contains("  moved most: ")),
            "{verb}: {out}"
        );
        assert!(
            progress.last().unwrap().contains(" 160/160 games  "),
            "{verb}: {out}"
        );
        // Where the session stands at the end, and what the run took.
        let stands = out
            .lines()
            .find(|l| l.starts_with(&format!("session '{name}': {step} ")))
            .unwrap_or_else(|| panic!("{verb}: {out}"));
        // Every tuner's line says the games of the whole session (the mean's too).
        assert!(
            stands.contains(", 160 of 160 games, this run "),
            "{verb}: {stands}"
        );
        let best = format!("{pops}/{name}/best.json");
        let lines: Vec<&str> = out.lines().collect();
        let at = |p: &str| lines.iter().position(|l| l.starts_with(p));
        let said = at("best values: ").unwrap_or_else(|| panic!("{verb}: {out}"));
        assert!(lines[said].contains(&best), "{verb}: {out}");
        let best_line = lines[said].to_string();
        // The values said are those of the best file.
        let hub = run_ok({
            let mut c = common::bin();
            c.current_dir(&t.0)
                .args(["export", &best, "--format", "hub"]);
            c
        });
        let exported: Vec<String> = hub
            .lines()
            .filter_map(|l| l.strip_prefix("set-param name="))
            .map(|l| l.replacen(" value=", " ", 1))
            .collect();
        let listed: Vec<String> = lines
            .iter()
            .filter(|l| l.contains(" (default "))
            .map(|l| l.split(" (default ").next().unwrap().to_string())
            .collect();
        assert_eq!(listed, exported, "{verb}: {out}");
        let next = at("next: ").unwrap_or_else(|| panic!("{verb}: {out}"));
        let hints: Vec<String> = lines[next..]
            .iter()
            .map(|l| l.replace(name, "NAME"))
            .collect();
        for line in &lines[next + 1..] {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.get(1) == Some(&"match") {
                continue;
            }
            let mut c = std::process::Command::new(words[0]);
            c.current_dir(&t.0).args(&words[1..]);
            let o = c.output().unwrap();
            assert!(o.status.success(), "{verb}: {line}: {}", text(&o.stderr));
        }
        nexts.push(hints);
        // `show` and `history` name the session as every tuner's session is named.
        let tuner = match verb {
            "new" => "GA",
            "spsa" => "SPSA",
            _ => "CMA-ES",
        };
        let raw = |verb: &str| {
            run_ok({
                let mut c = common::bin();
                c.current_dir(&t.0)
                    .args([verb, name, "--populations", pops]);
                c
            })
        };
        // Its wrapped lines joined.
        let said = |verb: &str| raw(verb).replace("\n  ", " ");
        let shown = said("show");
        let title = shown.lines().next().unwrap_or_default();
        assert!(
            title.contains(&format!(": {tuner} session '{name}', "))
                && title.contains(", seed 4: "),
            "{title}"
        );
        // Resumed at its end, it says its values and its answer's file again, with what it
        // played, as the run's end said them.
        let again = run_ok({
            let mut c = common::bin();
            c.current_dir(&t.0)
                .args(["resume", name, "--populations", pops]);
            c
        });
        let values = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.contains(" (default "))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(values(&again), values(&out), "{verb}: {again}");
        assert_eq!(
            again.lines().filter(|l| *l == best_line).count(),
            1,
            "{verb}: {again}\nexpected once: {best_line}"
        );
        // And where it stands and what to do next, as the run's end did.
        let stands_again = format!("session '{name}': {step} ");
        assert!(
            again.lines().any(|l| l.starts_with(&stands_again)),
            "{verb}: {again}"
        );
        let next_again: Vec<String> = again
            .lines()
            .skip_while(|l| !l.starts_with("next: "))
            .map(|l| l.replace(name, "NAME"))
            .collect();
        assert_eq!(Some(&next_again), nexts.last(), "{verb}: {again}");
        let history = said("history");
        // Its last row counts the games played by then: all of them.
        let table = raw("history");
        let last = table
            .lines()
            .rfind(|l| l.starts_with(' ') && l.trim_start().starts_with(char::is_numeric))
            .unwrap_or_default();
        assert_eq!(
            last.split_whitespace().nth(1),
            Some("160"),
            "{verb}: {table}"
        );
        assert!(history.contains("games: played by then; "), "{history}");
        let head = history.lines().next().unwrap_or_default();
        assert!(
            head.starts_with(&format!("{tuner} session '{name}' ("))
                && head.contains("): engine checkers-ga, 3 parameters, depth 1, seed 4; "),
            "{head}"
        );
    }
    assert_eq!(nexts[0], nexts[1], "the GA's and SPSA's hints");
    assert_eq!(nexts[1], nexts[2], "SPSA's and CMA-ES's hints");
}

/// An engine whose command names a file of the folder the session started in (`sh eng.sh`):
/// resumed from another folder, the session's `next:` match runs the engine in its own folder,
/// and works as printed there (the match apart: 2 games for its 312).
#[test]
fn the_next_match_of_a_session_resumed_elsewhere_runs_its_engine_where_it_started() {
    let t = Tmp::new("next-elsewhere");
    let (home, away) = (t.0.join("home"), t.0.join("away"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&away).unwrap();
    std::fs::write(
        home.join("eng.sh"),
        format!("exec {}\n", common::tunable_engine()),
    )
    .unwrap();
    let pops = t.0.join("populations");
    let pops = pops.to_str().unwrap();
    let args = [
        "--engine",
        "sh eng.sh",
        "--tune",
        "kings,moves",
        "--depth",
        "1",
        "--games",
        "32",
        "--seed",
        "2",
        "--name",
        "s",
        "--populations",
        pops,
    ];
    run_ok({
        let mut c = common::bin();
        c.current_dir(&home).arg("cmaes").args(args);
        c
    });
    let again = run_ok({
        let mut c = common::bin();
        c.current_dir(&away)
            .args(["resume", "s", "--populations", pops]);
        c
    });
    let line = again
        .lines()
        .find(|l| l.contains(" match "))
        .unwrap_or_else(|| panic!("no match line: {again}"));
    let home_word = home.to_str().unwrap();
    assert!(
        line.trim_start()
            .starts_with(&format!("(cd {home_word} && ")),
        "{line}"
    );
    // The engine's program by its full path (found on PATH), its file by the name given.
    assert!(line.contains("sh eng.sh' --depth 1"), "{line}");
    let short = line.replace("--games 312", "--games 2");
    let o = std::process::Command::new("sh")
        .current_dir(&away)
        .args(["-c", short.trim()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{short}: {}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("Elo difference: "),
        "{}",
        text(&o.stdout)
    );
}

/// A GA session of an outside engine on a time limit (`--time`) prints the lines every
/// engine session prints, with the games so far and the time left (its generations and
/// games in all are not known ahead), and ends as the others do, saying where it stands.
#[test]
fn an_engine_session_on_a_time_limit_prints_as_every_engine_session() {
    let t = Tmp::new("engine-time");
    let pops = t.0.join("populations");
    let out = run_ok({
        let mut c = common::bin();
        c.current_dir(&t.0).args([
            "new",
            "--engine",
            &common::tunable_engine(),
            "--tune",
            "kings,moves",
            "--depth",
            "1",
            "--population",
            "4",
            "--time",
            "1.5",
            "--seed",
            "4",
            "--name",
            "timed",
            "--populations",
            pops.to_str().unwrap(),
        ]);
        c
    });
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(
            "ga of checkers-ga (seed 4): session 'timed', generations of 4 games for 1.5 s"
        ),
        "{out}"
    );
    assert!(!out.lines().any(|l| l.starts_with("gen ")), "{out}");
    let progress: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("generation ") && l.contains(" games  "))
        .collect();
    assert!(!progress.is_empty(), "{out}");
    assert!(progress[0].starts_with("generation 1  4 games  "), "{out}");
    assert!(
        progress
            .iter()
            .all(|l| l.contains(" games/s  left ") && l.contains("  moved most: ")),
        "{out}"
    );
    let stands = out
        .lines()
        .find(|l| l.starts_with("session 'timed': generation "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        stands.contains(" of 1.5 s, this run ") && stands.contains("gen-"),
        "{stands}"
    );
    assert!(out.contains("best values: "), "{out}");
    // Its answer file says where it stands and, ended by its time limit, not that it was
    // stopped (the time its generations counted falls short of 1.5 s all the same: the one
    // under way at the limit is abandoned).
    let file = std::fs::read_to_string(pops.join("timed").join("best.json")).unwrap();
    let comment: serde_json::Value = serde_json::from_str(&file).unwrap();
    let comment = comment["comment"].as_str().unwrap_or_default();
    assert!(
        comment.starts_with("GA session 'timed', seed 4: generation ")
            && comment.ends_with(" of 1.5 s, depth 1"),
        "{comment}"
    );
}

#[test]
fn a_quiet_ga_session_of_an_engine_that_measures_prints_its_answers_path_alone() {
    let t = Tmp::new("quiet-measured");
    let engine = common::tunable_engine();
    let mut c = common::bin();
    c.current_dir(&t.0)
        .args([
            "new",
            "--engine",
            &engine,
            "--tune",
            "men,kings",
            "--depth",
            "1",
        ])
        .args([
            "--population",
            "4",
            "--generations",
            "2",
            "--measure-every",
            "1",
        ])
        .args([
            "--measure-games",
            "4",
            "--seed",
            "1",
            "--quiet",
            "--name",
            "q",
        ])
        .arg("--populations")
        .arg(t.pops());
    let out = run_ok(c);
    // No measurement line (`generation 1: the answer vs ...`): a script reads the path.
    let best = t.session("q").join("best.json");
    assert_eq!(out.trim_end(), best.display().to_string(), "{out}");
    // And it did measure.
    let s = store::load_checkpoint(&t.ckpt("q", 2)).unwrap();
    assert!(s.history.iter().all(|h| h.measure.is_some()), "unmeasured");
}
