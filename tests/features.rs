//! Evaluation parameters: hand-checked positions (tests/data/features.txt), colour symmetry,
//! own/opponent consistency, evaluate = sum of features * weights, the `features` command.

mod common;

use checkers_ga::{
    evaluate, features, legal_moves, parse_fen, Color, Position, Weights, NUM_PARAMS, PARAMS,
};
use checkers_ga::{param_index, MAX_EVAL};
use common::{bin, random_position, random_position_both_sides, Xs};

struct Case {
    line: usize,
    fen: String,
    side: Color,
    expected: [i32; NUM_PARAMS],
}

fn parse_side(s: &str) -> Color {
    match s {
        "black" => Color::Black,
        "white" => Color::White,
        _ => panic!("bad side '{s}'"),
    }
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/features.txt");
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "line {}: FEN | side | values", n + 1);
        let mut expected = [0i32; NUM_PARAMS];
        let mut seen = [false; NUM_PARAMS];
        for kv in parts[2].split_whitespace() {
            let (k, v) = kv
                .split_once('=')
                .unwrap_or_else(|| panic!("line {}: '{kv}' is not name=value", n + 1));
            let i = param_index(k).unwrap_or_else(|| panic!("line {}: unknown '{k}'", n + 1));
            assert!(!seen[i], "line {}: {k} given twice", n + 1);
            seen[i] = true;
            expected[i] = v.parse().unwrap();
            assert_ne!(expected[i], 0, "line {}: list only non-zero values", n + 1);
        }
        out.push(Case {
            line: n + 1,
            fen: parts[0].to_string(),
            side: parse_side(parts[1]),
            expected,
        });
    }
    out
}

#[test]
fn hand_checked_positions() {
    let cases = cases();
    assert!(cases.len() >= 12);
    let mut failures = Vec::new();
    for c in &cases {
        let pos = parse_fen(&c.fen).unwrap();
        let got = features(&pos, c.side);
        for i in 0..NUM_PARAMS {
            if got[i] != c.expected[i] {
                failures.push(format!(
                    "line {} ({} for {:?}): {} = {}, expected {}",
                    c.line, c.fen, c.side, PARAMS[i].name, got[i], c.expected[i]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The hand-checked cases exercise every parameter and the cases the brief lists.
#[test]
fn hand_checked_positions_cover_every_parameter() {
    let cases = cases();
    for (i, p) in PARAMS.iter().enumerate() {
        assert!(
            cases.iter().any(|c| c.expected[i] != 0),
            "no hand-checked case has a non-zero {}",
            p.name
        );
    }
    let has = |name: &str, pred: &dyn Fn(i32) -> bool| {
        let i = param_index(name).unwrap();
        cases.iter().any(|c| pred(c.expected[i]))
    };
    // Multi-jumps (more than one piece taken) for the player and for the opponent.
    for name in ["longest_capture", "opp_longest_capture"] {
        assert!(has(name, &|v| v > 1), "{name} > 1");
    }
    // Block lines of length 3 and 4 for the player and for the opponent.
    for name in ["longest_block_line", "opp_longest_block_line"] {
        assert!(has(name, &|v| v == 3), "{name} = 3");
        assert!(has(name, &|v| v == 4), "{name} = 4");
    }
    // Both colours as the player.
    assert!(cases.iter().any(|c| c.side == Color::Black));
    assert!(cases.iter().any(|c| c.side == Color::White));
}

#[test]
fn colour_symmetry() {
    let mut r = Xs(0x5EED_0001);
    let mut captures = 0;
    for _ in 0..2000 {
        let pos = random_position(&mut r);
        let flipped = pos.flipped();
        let fw = features(&pos, Color::White);
        let fb = features(&pos, Color::Black);
        assert_eq!(fw, features(&flipped, Color::Black), "{pos:?}");
        assert_eq!(fb, features(&flipped, Color::White), "{pos:?}");
        captures += (fb[14] + fb[17] > 0) as u32;
    }
    assert!(
        captures > 200,
        "too few positions with captures: {captures}"
    );
}

/// Each own parameter for one side equals the matching opponent parameter for the other.
#[test]
fn own_and_opponent_parameters_agree() {
    let pairs: Vec<(usize, usize)> = PARAMS
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.name.starts_with("opp_"))
        .map(|(i, p)| (i, param_index(&format!("opp_{}", p.name)).unwrap()))
        .collect();
    assert_eq!(pairs.len(), NUM_PARAMS / 2);
    let mut r = Xs(0x5EED_0002);
    for _ in 0..2000 {
        let pos = random_position(&mut r);
        let fb = features(&pos, Color::Black);
        let fw = features(&pos, Color::White);
        for &(own, opp) in &pairs {
            assert_eq!(fb[own], fw[opp], "{} {pos:?}", PARAMS[own].name);
            assert_eq!(fw[own], fb[opp], "{} {pos:?}", PARAMS[own].name);
        }
        // Who is to move changes nothing: parameters are counted "as if to move".
        let other = pos.with_side(pos.side_to_move().opposite());
        assert_eq!(fb, features(&other, Color::Black));
    }
}

#[test]
fn evaluate_equals_weighted_sum_of_features() {
    let mut r = Xs(0x5EED_0003);
    for n in 0..2000u32 {
        let pos = random_position(&mut r);
        let mut w = [0i16; NUM_PARAMS];
        for x in w.iter_mut() {
            *x = r.next() as i16;
        }
        if n.is_multiple_of(10) {
            // Extremes: every weight at one end of the range.
            w = [if n.is_multiple_of(20) {
                i16::MIN
            } else {
                i16::MAX
            }; NUM_PARAMS];
        }
        let w = Weights::thesis(w);
        for player in [Color::Black, Color::White] {
            let f = features(&pos, player);
            let sum: i64 = f
                .iter()
                .zip(w.values().iter().copied())
                .map(|(&v, x)| v as i64 * x as i64)
                .sum();
            assert!(sum.abs() < MAX_EVAL as i64, "{sum}");
            assert_eq!(evaluate(&pos, player, &w) as i64, sum, "{pos:?}");
        }
    }
    assert_eq!(
        evaluate(&Position::start(), Color::Black, &Weights::zero()),
        0
    );
}

/// The move and capture parameters (12-19) agree with the move generator, for both sides.
#[test]
fn move_and_capture_counts_match_the_move_generator() {
    let mut r = Xs(0x1234_5678_9ABC_DEF1);
    let mut with_multi = 0;
    for _ in 0..20_000 {
        let pos = random_position_both_sides(&mut r);
        for player in [Color::Black, Color::White] {
            let f = features(&pos, player);
            for (side, moves, has, caps, longest) in [
                (player, 12, 14, 15, 16),
                (player.opposite(), 13, 17, 18, 19),
            ] {
                let legal = legal_moves(&pos.with_side(side));
                let capturing = legal.iter().filter(|m| m.is_capture()).count() as i32;
                let most = legal.iter().map(|m| m.capture_count()).max().unwrap_or(0) as i32;
                assert_eq!(f[moves], legal.len() as i32, "{pos:?} {side:?}");
                assert_eq!(f[has], (capturing > 0) as i32);
                assert_eq!(f[caps], capturing);
                assert_eq!(f[longest], most);
                with_multi += (most > 1) as u32;
            }
        }
    }
    assert!(with_multi > 100, "too few multi-jumps tested: {with_multi}");
}

#[test]
fn evaluate_is_the_weighted_sum() {
    let mut r = Xs(99);
    for _ in 0..2000 {
        let pos = random_position_both_sides(&mut r);
        let mut w = [0i16; NUM_PARAMS];
        for x in w.iter_mut() {
            *x = r.next() as i16;
        }
        let w = Weights::thesis(w);
        for player in [Color::Black, Color::White] {
            let f = features(&pos, player);
            let sum: i64 = f
                .iter()
                .zip(w.values().iter().copied())
                .map(|(&v, x)| v as i64 * x as i64)
                .sum();
            assert_eq!(evaluate(&pos, player, &w) as i64, sum);
        }
    }
}

fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = bin().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn features_command_prints_the_hand_checked_values() {
    for c in cases().iter().take(4) {
        let side = match c.side {
            Color::Black => "black",
            Color::White => "white",
        };
        let (code, out, err) = run_cli(&["features", "--fen", &c.fen, "--side", side]);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), NUM_PARAMS);
        for (i, l) in lines.iter().enumerate() {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(
                f,
                [
                    (i + 1).to_string().as_str(),
                    PARAMS[i].name,
                    c.expected[i].to_string().as_str()
                ]
            );
        }
    }
    // Default side: the side to move.
    let (_, out, _) = run_cli(&["features", "--fen", "W:W18,K31:B"]);
    assert!(out.lines().next().unwrap().ends_with(" 1"), "{out}");
    let (_, out2, _) = run_cli(&["features", "--fen", "W:W18,K31:B", "--side", "WHITE"]);
    assert_eq!(out, out2);
}

#[test]
fn features_command_rejects_bad_input() {
    for args in [
        &["features", "--fen", "B:W21-32"][..],
        &["features", "--fen", "B:W40:B1"][..],
        &["features", "--fen", "B:W21-32:B1-12", "--side", "red-ish"][..],
    ] {
        let (code, out, err) = run_cli(args);
        // A bad command line: exit status 2.
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.starts_with("error: "), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}
