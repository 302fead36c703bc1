//! Parameter sets: the 60 of the thesis, the 66 with endgame parameters, and the phased 132.
//! Their values, their evaluation, and every file that names the set it holds.

mod common;

use checkers_ga::weightfile::{parse_weight_file, weights_to_json, weights_to_original};
use checkers_ga::{all_features, evaluate, features, king_ending, ParamSet, NUM_ALL};
use checkers_ga::{parse_fen, Color, Weights};
use common::{assert_error, new_cmd, run, stdout_ok, Tmp, Xs};

/// A weight vector of `set` with every weight different.
fn sample(set: ParamSet) -> Weights {
    let v: Vec<i16> = (0..set.len())
        .map(|i| ((i as i32 * 7919 + 11) % 60001 - 30000) as i16)
        .collect();
    Weights::new(set, &v).unwrap()
}

#[test]
fn endgame_parameters_of_two_kings_against_one() {
    let pos = parse_fen("W:WK10,K14:BK1").unwrap();
    let white = all_features(&pos, Color::White);
    // Kings 10 (row 2, col 3) and 14 (row 3, col 2) are both 4 from the king on 1 (row 0,
    // col 1): chase (14 - 4) * 2; the lone king sits on a double-corner square: distance 0;
    // trade (2 - 1) * (24 - 3). A king ending (the weaker side has only kings): centre kings
    // and the 60's positional terms are silent, material speaks.
    assert_eq!(&white[60..], &[20, 0, 0, 0, 21, 0]);
    assert_eq!(&white[..4], &[0, 2, 0, 1]);
    assert!(white[4..60].iter().all(|&v| v == 0), "{:?}", &white[4..60]);
    let black = all_features(&pos, Color::Black);
    assert_eq!(&black[60..], &[0, 20, 0, 0, -21, 0]);
    assert_eq!(&black[..4], &[0, 1, 0, 2]);
    assert!(black[4..60].iter().all(|&v| v == 0), "{:?}", &black[4..60]);
    // While the weaker side has a man, no chase, and the positional terms speak again.
    let man = parse_fen("W:WK10,K14:BK1,20").unwrap();
    let m = all_features(&man, Color::White);
    assert_eq!(&m[60..64], &[0, 0, 0, 0]);
    assert_eq!(m[65], 2);
    assert!(m[4..60].iter().any(|&v| v != 0));
    // Out of the corner, the weaker king's distance counts.
    let out = parse_fen("W:WK10,K14:BK18").unwrap();
    let f = all_features(&out, Color::White);
    // 18 = row 4, col 3: nearest double-corner square 28 (row 6, col 7) or 5 (row 1, col 0): 6.
    assert_eq!(f[62], 6);
    // Both kings 2 from it (rows 2 and 3 to row 4): (14 - 2) * 2, plus 4 * 6 for the distance.
    assert_eq!(f[60], 48);
    // Equal kings: no chase.
    let even = parse_fen("W:WK10:BK1").unwrap();
    assert_eq!(&all_features(&even, Color::White)[60..64], &[0, 0, 0, 0]);
}

#[test]
fn larger_sets_evaluate_as_their_definitions_say() {
    let mut r = Xs(99);
    for _ in 0..500 {
        let pos = common::random_position_both_sides(&mut r);
        for player in [Color::Black, Color::White] {
            let f = all_features(&pos, player);
            let w66 = sample(ParamSet::Endgame66);
            let sum: i64 = f
                .iter()
                .zip(w66.values())
                .map(|(&v, &x)| v as i64 * x as i64)
                .sum();
            assert_eq!(evaluate(&pos, player, &w66) as i64, sum);
            let w132 = sample(ParamSet::Phased132);
            let dot = |off: usize| -> i64 {
                (0..NUM_ALL)
                    .map(|i| f[i] as i64 * w132[off + i] as i64)
                    .sum()
            };
            let n = (pos.occupied().count() as i64).min(24);
            let want = (dot(0) * n + dot(NUM_ALL) * (24 - n)) / 24;
            assert_eq!(evaluate(&pos, player, &w132) as i64, want);
            // The 60 are the first 60 of every set, but thesis60 keeps them in king endings.
            let w60 = Weights::thesis(w66.values()[..60].try_into().unwrap());
            let f60 = features(&pos, player);
            if !king_ending(&pos) {
                assert_eq!(&f60[..], &f[..60]);
            }
            let s60: i64 = f60
                .iter()
                .zip(w60.values())
                .map(|(&v, &x)| v as i64 * x as i64)
                .sum();
            assert_eq!(evaluate(&pos, player, &w60) as i64, s60);
        }
    }
}

#[test]
fn weight_files_name_their_set_and_read_back() {
    for set in ParamSet::ALL {
        let w = sample(set);
        let json = weights_to_json(&w);
        assert!(json.contains(&format!("\"params\": \"{set}\"")), "{json}");
        assert_eq!(parse_weight_file(&json).unwrap().weights, w);
        let orig = weights_to_original(&w);
        assert!(orig.starts_with(&format!("{} 1\n", set.len())));
        assert_eq!(parse_weight_file(&orig).unwrap().weights, w);
    }
    // A file of phased names without its "params" key says which set they belong to.
    let json =
        weights_to_json(&sample(ParamSet::Phased132)).replace("  \"params\": \"phased132\",\n", "");
    let e = parse_weight_file(&json).unwrap_err().to_string();
    assert!(e.contains("phased132"), "{e}");
    // A file naming a set but holding another's names.
    let json = weights_to_json(&sample(ParamSet::Thesis60)).replace("thesis60", "endgame66");
    let e = parse_weight_file(&json).unwrap_err().to_string();
    assert!(e.contains("missing parameters"), "{e}");
    let json = weights_to_json(&sample(ParamSet::Thesis60)).replace("thesis60", "sixty");
    let e = parse_weight_file(&json).unwrap_err().to_string();
    assert!(e.contains("\"params\""), "{e}");
}

#[test]
fn show_and_every_export_format_name_the_set() {
    let t = Tmp::new("sets");
    let w = sample(ParamSet::Endgame66);
    t.write("w.json", weights_to_json(&w).as_bytes());
    let shown = stdout_ok(&run(&t.0, &["show", "w.json"]));
    assert!(
        shown.contains("parameters: endgame66 (66 weights)"),
        "{shown}"
    );
    assert!(shown.contains("king_chase"), "{shown}");
    assert!(shown.contains("\n66 "), "{shown}");
    for (format, needle) in [
        ("json", "\"params\": \"endgame66\""),
        ("csv", "66,centre_kings,"),
        ("rust", "pub const PARAMS: &str = \"endgame66\";"),
        ("c", "#define W_PARAMS \"endgame66\""),
        ("original", "66 1\n"),
    ] {
        let out = stdout_ok(&run(&t.0, &["export", "w.json", "--format", format]));
        assert!(out.contains(needle), "{format}: {out}");
    }
    // CSV and the original form read back as the same set.
    for format in ["csv", "original"] {
        let file = format!("w.{format}");
        stdout_ok(&run(
            &t.0,
            &["export", "w.json", "--format", format, "-o", &file],
        ));
        let back = stdout_ok(&run(&t.0, &["show", &file]));
        assert!(back.contains("king_chase"), "{format}: {back}");
    }
}

#[test]
fn a_board_set_reads_back_from_every_format_and_shows_summarised() {
    let t = Tmp::new("sets-board");
    let set = ParamSet::Board(5);
    let w = sample(set);
    assert_eq!(w.len(), 66 + 5 * 131);
    t.write("b.json", weights_to_json(&w).as_bytes());
    // JSON, CSV and the original form, written by export, read back as the same weights.
    for (format, file) in [("json", "b2.json"), ("csv", "b.csv"), ("original", "b.txt")] {
        stdout_ok(&run(
            &t.0,
            &["export", "b.json", "--format", format, "-o", file],
        ));
        let back = parse_weight_file(&t.read(file)).map(|f| f.weights);
        let back = back.or_else(|_| checkers_ga::formats::parse_csv(&t.read(file)));
        assert_eq!(back.unwrap(), w, "{format}");
    }
    assert!(t.read("b.txt").starts_with("721 1\n"));
    // show: the layers, the 66 and the output weights in the table, one line per hidden unit;
    // not a row per input weight.
    let shown = stdout_ok(&run(&t.0, &["show", "b.txt"]));
    assert!(
        shown.contains("parameters: board:5 (721 weights)"),
        "{shown}"
    );
    let words = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    for layer in [
        "5 hidden units hidden1..hidden5 over the 129 board inputs",
        "INPUT>1..INPUT>5 (weights 67-711)",
        "hidden1.bias..hidden5.bias (weights 712-716)",
        "out1..out5 times the activations (weights 717-721)",
    ] {
        assert!(words.contains(layer), "{layer}: {shown}");
    }
    assert!(shown.contains("\n 66 centre_kings "), "{shown}");
    assert!(shown.contains("\n717 out1 "), "{shown}");
    assert!(!shown.contains("own_man@1>1"), "{shown}");
    assert!(!shown.contains(" hidden1.bias "), "{shown}");
    assert!(shown.lines().count() < 160, "{shown}");
    // Each unit's line: its output weight and bias, and its largest input weights by name.
    let unit = |j: usize| -> String {
        let line = shown
            .lines()
            .find(|l| l.starts_with(&format!("hidden{j} ")))
            .unwrap_or_else(|| panic!("no hidden{j} line: {shown}"));
        line.to_string()
    };
    for j in 1..=5 {
        let l = unit(j);
        let out = w[w.len() - 5 + j - 1];
        let bias = w[w.len() - 10 + j - 1];
        assert!(l.contains(&format!("out {out:>6}")), "{l}");
        assert!(l.contains(&format!("bias {bias:>6}")), "{l}");
        // The largest |input weight| of the unit, named by its input.
        let (i, big) = (0..129)
            .map(|i| (i, w[NUM_ALL + i * 5 + j - 1]))
            .max_by_key(|&(i, v)| (i32::from(v).abs(), std::cmp::Reverse(i)))
            .unwrap();
        let name = set.params()[NUM_ALL + i * 5 + j - 1].name;
        let name = name.strip_suffix(&format!(">{j}")).unwrap();
        assert!(l.contains(&format!("{name} {big:+}")), "{l}");
    }
    assert!(unit(1).contains("hidden1  out"), "{}", unit(1));
    // --network: every weight by name.
    let all = stdout_ok(&run(&t.0, &["show", "b.txt", "--network"]));
    for name in [
        "own_man@1>1",
        "to_move>5",
        "hidden5.bias",
        "out5",
        "opp_king@32>3",
    ] {
        assert!(all.contains(&format!(" {name} ")), "{name}");
    }
    assert!(all.lines().count() > 721);
}

#[test]
fn features_prints_the_board_inputs_of_a_board_set() {
    let t = Tmp::new("sets-board-features");
    // A black man on 1 and a white man on 32, White to move.
    let black = stdout_ok(&run(
        &t.0,
        &[
            "features", "--fen", "W:W32:B1", "--params", "board", "--side", "black",
        ],
    ));
    let lines: Vec<&str> = black.lines().collect();
    assert_eq!(lines.len(), 66 + 3, "{black}");
    assert!(lines[65].starts_with("66 centre_kings"), "{black}");
    assert_eq!(
        &lines[66..],
        &[
            "board inputs present (2 of 129, squares numbered from black's side):",
            "  1 own_man@1",
            " 96 opp_man@32",
        ]
    );
    // White sees the board turned: its man on 32 is its square 1; it is to move.
    let white = stdout_ok(&run(
        &t.0,
        &["features", "--fen", "W:W32:B1", "--params", "board:4"],
    ));
    let lines: Vec<&str> = white.lines().collect();
    assert_eq!(
        &lines[66..],
        &[
            "board inputs present (3 of 129, squares numbered from white's side):",
            "  1 own_man@1",
            " 96 opp_man@32",
            "129 to_move",
        ]
    );
    // Kings are their own inputs.
    let kings = stdout_ok(&run(
        &t.0,
        &["features", "--fen", "B:WK5:BK28", "--params", "board"],
    ));
    assert!(
        kings.ends_with("\n 60 own_king@28\n101 opp_king@5\n129 to_move\n"),
        "{kings}"
    );
    // The other sets print their parameters alone, as before.
    let e = stdout_ok(&run(
        &t.0,
        &["features", "--fen", "W:W32:B1", "--params", "endgame66"],
    ));
    assert_eq!(
        e,
        black
            .lines()
            .take(66)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    );
}

#[test]
fn a_session_evolves_its_set_and_refuses_another() {
    let t = Tmp::new("sets-session");
    let small = [
        "--population",
        "8",
        "--depth",
        "1",
        "--generations",
        "2",
        "--params",
        "phased132",
    ];
    stdout_ok(&new_cmd(&t, 5, "ph", true, &small).output().unwrap());
    let best = checkers_ga::load_weights(&t.best("ph")).unwrap();
    assert_eq!(best.set(), ParamSet::Phased132);
    let s = common::load(&t.ckpt("ph", 2));
    assert!(s.population.iter().all(|w| w.set() == ParamSet::Phased132));
    // A phased file cannot seed a thesis60 session.
    let include = format!("--include={}", t.best("ph").display());
    let out = new_cmd(
        &t,
        5,
        "th",
        true,
        &[
            "--population",
            "8",
            "--generations",
            "1",
            "--params",
            "thesis60",
            &include,
        ],
    )
    .output()
    .unwrap();
    assert_error(&out, &["phased132", "thesis60"]);
    // A thesis60 file widens into an endgame66 session (new weights 0).
    let include = format!(
        "--include={}",
        common::repo("weights/material.json").display()
    );
    let out = new_cmd(
        &t,
        5,
        "eg",
        true,
        &[
            "--population",
            "8",
            "--depth",
            "1",
            "--generations",
            "1",
            "--params",
            "endgame66",
            &include,
        ],
    )
    .output()
    .unwrap();
    stdout_ok(&out);
    let s = common::load(&t.ckpt("eg", 1));
    assert_eq!(s.last[0].0.set(), ParamSet::Endgame66);
    assert_eq!(&s.last[0].0.values()[..4], &[100, 160, -100, -160]);
    // A thesis60 session continues as phased132.
    stdout_ok(
        &new_cmd(
            &t,
            6,
            "wd",
            true,
            &[
                "--population",
                "8",
                "--depth",
                "1",
                "--generations",
                "1",
                "--params",
                "thesis60",
            ],
        )
        .output()
        .unwrap(),
    );
    stdout_ok(
        &common::resume_cmd(
            &t,
            Some(&t.session("wd")),
            true,
            &["--generations", "2", "--params", "phased132"],
        )
        .output()
        .unwrap(),
    );
    let s = common::load(&t.ckpt("wd", 2));
    assert_eq!(s.settings.ga.params, ParamSet::Phased132);
    assert!(s.population.iter().all(|w| w.set() == ParamSet::Phased132));
}

#[test]
fn features_prints_the_endgame_parameters_when_asked() {
    let t = Tmp::new("sets-features");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "features",
            "--fen",
            "W:WK10,K14:BK1",
            "--params",
            "endgame66",
        ],
    ));
    assert_eq!(out.lines().count(), 66, "{out}");
    assert!(
        out.contains("\n61 king_chase                 20\n"),
        "{out}"
    );
    assert!(
        out.contains("\n65 trade                      21\n"),
        "{out}"
    );
    let sixty = stdout_ok(&run(&t.0, &["features", "--fen", "W:WK10,K14:BK1"]));
    assert_eq!(sixty.lines().count(), 60);
    let bad = run(&t.0, &["features", "--params", "seventy"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success());
    assert!(
        err.lines().count() == 1 && err.contains("unknown parameter set 'seventy'"),
        "{err}"
    );
}

#[test]
fn a_refused_resume_sets_nothing_aside() {
    let t = Tmp::new("sets-refused");
    stdout_ok(
        &new_cmd(
            &t,
            8,
            "r",
            true,
            &["--population", "8", "--depth", "1", "--generations", "3"],
        )
        .output()
        .unwrap(),
    );
    // From generation 1, into a smaller set: refused before anything moves.
    let out = common::resume_cmd(
        &t,
        Some(&t.ckpt("r", 1)),
        true,
        &["--generations", "4", "--params", "thesis60"],
    )
    .output()
    .unwrap();
    assert_error(&out, &["endgame66", "thesis60"]);
    assert!(t.ckpt("r", 2).exists() && t.ckpt("r", 3).exists());
}
