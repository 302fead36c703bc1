//! Progress inside a session: the best so far measured against a fixed yardstick every K
//! generations, in the checkpoint's history, the per-generation line, `history` and its chart.

mod common;

use common::{load, new_cmd, run, stdout_ok, Tmp};

const ARGS: &[&str] = &[
    "--population",
    "8",
    "--depth",
    "1",
    "--max-plies",
    "120",
    "--generations",
    "4",
    "--measure-every",
    "2",
    "--measure-games",
    "8",
];

#[test]
fn measurements_go_into_history_line_table_and_chart() {
    let t = Tmp::new("progress");
    let out = stdout_ok(&new_cmd(&t, 21, "m", false, ARGS).output().unwrap());
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("gen ")).collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l.contains("vs material: "), k % 2 == 1, "{l}");
    }
    let s = load(&t.ckpt("m", 4));
    let measured: Vec<u64> = s
        .history
        .iter()
        .filter(|h| h.measure.is_some())
        .map(|h| h.generation)
        .collect();
    assert_eq!(measured, vec![2, 4]);
    for h in &s.history {
        if let Some(m) = h.measure {
            assert_eq!(
                m.wins + m.draws + m.losses,
                8,
                "generation {}",
                h.generation
            );
        }
    }
    let svg = t.0.join("h.svg");
    let table = stdout_ok(&run(
        &t.0,
        &["history", "m", "--populations", t.pops().to_str().unwrap()],
    ));
    assert!(table.contains("vs yardstick"), "{table}");
    assert!(
        table.contains("against material over 8 ballot games at depth 1"),
        "{table}"
    );
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(
        rows[1].contains("+/-") && rows[3].contains("+/-"),
        "{table}"
    );
    assert!(
        !rows[0].contains("+/-") && !rows[2].contains("+/-"),
        "{table}"
    );
    // With --svg only the chart's path is printed.
    let out = stdout_ok(&run(
        &t.0,
        &[
            "history",
            "m",
            "--populations",
            t.pops().to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
    ));
    assert_eq!(out, format!("SVG chart written to {}\n", svg.display()));
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains("class=\"elo\""), "no Elo series");
    // Elo first, in the title and the legend, naming the yardstick and its depth.
    assert!(
        chart.contains(
            "Session &apos;m&apos;: Elo of the best so far vs material at depth 1, 8 games"
        ),
        "{chart}"
    );
    let legend = chart.split("<g class=\"legend\">").nth(1).unwrap();
    let first = legend
        .find(">Elo of the best so far vs material at depth 1")
        .unwrap();
    assert!(first < legend.find(">best points<").unwrap(), "{legend}");
    assert_eq!(chart.matches("<circle").count(), 4 + 4 + 2);
}

#[test]
fn measurements_do_not_depend_on_the_thread_count() {
    let runs: Vec<Tmp> = ["1", "2"]
        .iter()
        .map(|threads| {
            let t = Tmp::new("progress-det");
            let mut a = ARGS.to_vec();
            a.extend_from_slice(&["--threads", threads]);
            stdout_ok(&new_cmd(&t, 22, "m", true, &a).output().unwrap());
            t
        })
        .collect();
    let m = |t: &Tmp| -> Vec<_> {
        load(&t.ckpt("m", 4))
            .history
            .iter()
            .map(|h| h.measure)
            .collect()
    };
    assert_eq!(m(&runs[0]), m(&runs[1]));
}

/// Before the first measurement (generation 50 by default) every generation's line already
/// shows a signal of strength, computed anyway: the fit's error for the best so far (how well
/// its evaluation predicts the generation's results), and the duel from generation 2 on.
#[test]
fn every_generation_line_shows_a_signal_from_the_start() {
    let t = Tmp::new("signal");
    let args = [
        "--population",
        "8",
        "--depth",
        "1",
        "--max-plies",
        "120",
        "--generations",
        "3",
    ];
    let out = stdout_ok(&new_cmd(&t, 21, "f", false, &args).output().unwrap());
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("gen ")).collect();
    assert_eq!(lines.len(), 3, "{out}");
    for l in &lines {
        let e: f64 = l
            .split("fit error ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no fit error in {l}"))
            .parse()
            .unwrap();
        assert!((0.0..=1.0).contains(&e), "{l}");
        assert!(!l.contains("vs material"), "{l}");
    }
    assert!(lines[1..].iter().all(|l| l.contains("duel ")), "{out}");
}
