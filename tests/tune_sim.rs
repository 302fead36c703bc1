//! The tuning simulator (`sim:N`, docs/simulator.md): `tune-sim` prints one `regret TUNER
//! PARAMS GAMES MEAN LOW HIGH` line per tuner, parameter count and budget, the same at any
//! thread count, and SPSA on 8 parameters ends well below the declared values' regret; `new`
//! and `spsa` take `--engine sim:N` (a session resumes, its summary gives its regret); bad
//! input is one line.

mod common;

use common::{assert_usage_error, bin, file_values, new_cmd, resume_cmd, run_ok, Tmp};
use std::process::Command;

fn tune_sim(args: &[&str]) -> Command {
    let mut c = bin();
    c.arg("tune-sim").args(args);
    c
}

/// A `regret` or `detail` line's head (its words before the figures) and its three figures.
fn figures(line: &str) -> (String, [f64; 3]) {
    let words: Vec<&str> = line.split(' ').collect();
    let n = words.len();
    assert!(n >= 7, "{line}");
    let f = |w: &str| -> f64 {
        assert!(
            w.split_once('.').is_some_and(|(_, d)| d.len() == 1),
            "one decimal: {line}"
        );
        w.parse()
            .unwrap_or_else(|_| panic!("not a number in {line}"))
    };
    let x = [f(words[n - 3]), f(words[n - 2]), f(words[n - 1])];
    assert!(x[1] <= x[0] && x[0] <= x[2], "LOW <= MEAN <= HIGH: {line}");
    (words[..n - 3].join(" "), x)
}

#[test]
fn regret_lines_per_tuner_params_and_games_and_spsa_beats_the_defaults() {
    let args = [
        "--tuner", "ga,spsa", "--params", "8", "--games", "1000", "--seeds", "6", "--quiet",
    ];
    let plain = run_ok(tune_sim(&[&args[..], &["--threads", "1"]].concat()));
    let lines: Vec<&str> = plain.lines().collect();
    assert_eq!(lines.len(), 2, "{plain}");
    let heads: Vec<String> = lines.iter().map(|l| figures(l).0).collect();
    assert_eq!(heads, ["regret ga 8 1000", "regret spsa 8 1000"]);
    // Two threads, the same figures; with --detail the same regret lines and more.
    let detail = run_ok(tune_sim(
        &[&args[..], &["--threads", "2", "--detail"]].concat(),
    ));
    let regrets: Vec<&str> = detail
        .lines()
        .filter(|l| l.starts_with("regret "))
        .collect();
    assert_eq!(regrets, lines);
    let find = |head: &str| {
        detail
            .lines()
            .map(figures)
            .find(|(h, _)| h == head)
            .unwrap_or_else(|| panic!("no '{head}' in:\n{detail}"))
            .1
    };
    let defaults = find("detail spsa 8 1000 defaults");
    // Every run starts from the declared values, 150 Elo below the optimum (and no interval).
    assert!(defaults[0] >= 150.0 && defaults[1] == defaults[2]);
    let spsa = figures(lines[1]).1;
    assert!(
        spsa[2] < defaults[0] - 40.0,
        "SPSA's regret {spsa:?} against the defaults' {defaults:?}"
    );
    // The mean, population 16: 16 games a generation, 1,000 games buy 63.
    assert_eq!(find("detail ga 8 1000 generations"), [63.0; 3]);
    assert_eq!(find("detail spsa 8 1000 games-played"), [1000.0; 3]);
    for what in ["pop-mean", "pop-best", "elite-mean", "winner"] {
        find(&format!("detail ga 8 1000 {what}"));
    }
}

#[test]
fn the_gas_settings_after_the_double_dash_are_news() {
    let base = [
        "--tuner", "ga", "--params", "8", "--games", "1000", "--seeds", "3", "--quiet",
    ];
    let plain = run_ok(tune_sim(&base));
    // A population of 8: many more generations for the same games, another answer.
    let small = run_ok(tune_sim(
        &[&base[..], &["--detail", "--", "--population", "8"]].concat(),
    ));
    let gens = small
        .lines()
        .find(|l| l.contains(" generations "))
        .unwrap()
        .to_string();
    let (_, g) = figures(&gens);
    assert!(g[0] > 10.0, "{gens}");
    assert_ne!(plain.lines().next(), small.lines().next());
}

#[test]
fn bad_input_is_one_line() {
    let cases: [(&str, &str); 8] = [
        ("--tuner sa", "unknown tuner 'sa'"),
        ("--tuner ga --seeds 1", "--seeds 1"),
        ("--tuner ga --params 0", "--params 0"),
        ("--tuner ga --games 1", "--games 1"),
        ("--tuner ga -- --generations 5", "--games-budget"),
        ("--tuner ga -- --population 6", "population 6"),
        ("--tuner ga -- --bogus", "--bogus"),
        ("--tuner spsa --c-end 2", "--c-end 2"),
    ];
    for (args, needle) in cases {
        let mut words: Vec<&str> = args.split(' ').collect();
        for (flag, value) in [("--params", "8"), ("--games", "1000"), ("--seeds", "3")] {
            if !words.contains(&flag) {
                words.splice(0..0, [flag, value]);
            }
        }
        let out = tune_sim(&words).output().unwrap();
        assert_usage_error(&out, &[needle]);
    }
}

#[test]
fn new_and_spsa_take_the_simulator_and_a_session_of_it_resumes() {
    let t = Tmp::new("sim");
    let out = run_ok(new_cmd(
        &t,
        1,
        "s8",
        false,
        &["--engine", "sim:8", "--games-budget", "32"],
    ));
    assert!(out.contains("2 generations"), "{out}");
    let regret = out
        .lines()
        .find(|l| l.contains("Elo below the optimum of sim:8:1"))
        .unwrap_or_else(|| panic!("no regret in:\n{out}"));
    assert!(regret.contains("(the declared values: 150.1)"), "{regret}");
    assert!(t.best("s8").exists() && t.ckpt("s8", 2).exists());
    let more = run_ok(resume_cmd(
        &t,
        Some(&t.session("s8")),
        true,
        &["--generations", "3"],
    ));
    assert!(more.is_empty() || !more.contains("error"), "{more}");
    assert!(t.ckpt("s8", 3).exists());
    // The same session at another thread count: the same checkpoint.
    run_ok(new_cmd(
        &t,
        1,
        "again",
        true,
        &[
            "--engine",
            "sim:8",
            "--games-budget",
            "32",
            "--threads",
            "1",
        ],
    ));
    let body = |name: &str| {
        let mut s = common::load(&t.ckpt(name, 2));
        s.elapsed = 0.0;
        s.name.clear();
        s.history.iter_mut().for_each(|h| h.seconds = 0.0);
        s
    };
    assert_eq!(body("s8"), body("again"));
    // SPSA.
    let mut c = bin();
    c.current_dir(&t.0).args([
        "spsa", "--engine", "sim:8:2", "--games", "200", "--seed", "3", "--quiet", "--name", "sp",
    ]);
    // --quiet: the answer's path alone.
    let out = run_ok(c);
    assert_eq!(out, "populations/sp/best.json\n");
    assert_eq!(file_values(&t.0.join(out.trim_end()))[0].0, "p1");
    // A bad simulator, and flags it does not take.
    for (engine, extra, needle) in [
        ("sim:0", vec![], "expected sim:N or sim:N:SEED"),
        ("sim:8:x", vec![], "'sim:8:x' is not a simulator"),
        ("sim:8", vec!["--tune", "p1"], "takes no --tune"),
    ] {
        let out = new_cmd(
            &t,
            1,
            "bad",
            true,
            &[&["--engine", engine][..], &extra].concat(),
        )
        .output()
        .unwrap();
        assert_usage_error(&out, &[needle]);
    }
}

#[test]
fn the_regret_is_that_of_the_answers_new_and_spsa_give() {
    let t = Tmp::new("faithful");
    let model = checkers_ga::SimModel::new(8, 1);
    let (mut ga, mut spsa) = (Vec::new(), Vec::new());
    for seed in [4u64, 5] {
        let name = format!("s{seed}");
        let out = run_ok(new_cmd(
            &t,
            seed,
            &name,
            false,
            &["--engine", "sim:8", "--games-budget", "3000"],
        ));
        let line = out
            .lines()
            .find(|l| l.contains("its answer plays"))
            .unwrap_or_else(|| panic!("{out}"));
        let figure = line.split_whitespace().nth(3).unwrap();
        ga.push(figure.parse::<f64>().unwrap());
        let mut c = bin();
        c.current_dir(&t.0).args([
            "spsa", "--engine", "sim:8", "--games", "1000", "--force", "--quiet", "--seed",
        ]);
        c.arg(seed.to_string());
        // --quiet says the answer's path; its values in the model's order.
        let best = t.0.join(run_ok(c).trim_end());
        let values: Vec<i64> = file_values(&best).into_iter().map(|(_, v)| v).collect();
        assert_eq!(values.len(), 8);
        spsa.push(model.regret(&values));
    }
    let line = |tuner: &str, games: &str| {
        let out = run_ok(tune_sim(&[
            "--tuner",
            tuner,
            "--params",
            "8",
            "--games",
            games,
            "--seeds",
            "2",
            "--first-seed",
            "4",
            "--quiet",
        ]));
        figures(out.lines().next().unwrap()).1[0]
    };
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    // The sessions' figures are printed to 0.1: their mean to within 0.1.
    assert!((line("ga", "3000") - mean(&ga)).abs() <= 0.1, "{ga:?}");
    assert!(
        (line("spsa", "1000") - mean(&spsa)).abs() <= 0.051,
        "{spsa:?}"
    );
}
