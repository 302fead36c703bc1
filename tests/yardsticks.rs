//! The yardsticks `hand` and `classic`: colour symmetry, values computed by hand, the search
//! with them (alpha-beta equals minimax, classic converts two kings against one where material
//! does not), and the commands that accept them by name (`match`, `play`, `bench`,
//! `history --elo --reference`).

mod common;

use checkers_ga::{classic, hand, CLASSIC};
use checkers_ga::{minimax_with, SearchConfig, Searcher};
use checkers_ga::{parse_fen, parse_weights, Color, Evaluator, Position};
use checkers_ga::{DrawRules, Game, GameOutcome};
use common::{assert_error, new_cmd, run, stdout_ok, Tmp, Xs};
use rand::SeedableRng;

fn material() -> Evaluator {
    parse_weights(include_str!("../weights/material.json"))
        .unwrap()
        .into()
}

fn fen(f: &str) -> Position {
    parse_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// A few thousand random setups, some with many kings, either side to move.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut r = Xs(seed);
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                common::random_position(&mut r)
            } else {
                common::random_position_both_sides(&mut r)
            }
        })
        .collect()
}

#[test]
fn both_are_colour_symmetric_and_zero_sum() {
    let mut kings_both = 0;
    for (i, pos) in random_positions(4000, 0x5EED).iter().enumerate() {
        let flipped = pos.flipped();
        for c in [Color::Black, Color::White] {
            for (name, f) in [
                ("hand", hand as fn(&Position, Color) -> i32),
                ("classic", classic),
            ] {
                let v = f(pos, c);
                assert_eq!(
                    v,
                    f(&flipped, c.opposite()),
                    "{name}, position {i} {}, {c:?}",
                    checkers_ga::to_fen(pos)
                );
                assert_eq!(v, -f(pos, c.opposite()), "{name}, position {i}");
            }
        }
        if !pos.kings(Color::Black).is_empty() && !pos.kings(Color::White).is_empty() {
            kings_both += 1;
        }
    }
    // The chase terms (kings on both sides) were exercised.
    assert!(kings_both > 500, "{kings_both}");
}

#[test]
fn hand_values_computed_by_hand() {
    // White kings on 10 (row 2, column 3) and 14 (row 3, column 2): 300 + 5 centre each = 610.
    // Black king on 1 (row 0, column 1): 300 - 25 corner - 8 edge = 267.
    // Chase: distances 10-1 = 2 + 2 and 14-1 = 3 + 1, average 4: 10 * (14 - 4) = 100.
    let p = fen("W:WK10,K14:BK1");
    assert_eq!(hand(&p, Color::White), 610 - 267 + 100);
    assert_eq!(hand(&p, Color::Black), -443);

    // Black: man 1 (double corner +15) 115, man 12 (h-file +10) 110, king 15 (centre) 305.
    // White: man 20 (h-file) 110, man 29 (a-file +10, corner +15) 125, king 31 (centre +5,
    // edge -8) 297. One king each: no chase.
    let p = fen("B:W20,29,K31:B1,12,K15");
    assert_eq!(hand(&p, Color::Black), 530 - 532);

    // Three kings against two, all on corner squares (-25 - 8 each, 267), a Black man on 9
    // (column 1: nothing extra). Chase pairs (White 1, 4, 32 with Black 5, 28): 2 + 12 + 8 + 6
    // + 12 + 2 = 42, average 7: 10 * (14 - 7) = 70.
    let p = fen("W:WK1,K4,K32:BK5,K28,9");
    assert_eq!(hand(&p, Color::White), 801 - 634 + 70);

    // Three kings (18, 19, 27: centre, 305 each) against one on 3 (centre, edge: 297); the
    // distances 6, 4, 6 average 16/3: 10 * (14 - 16/3) = 86.7, rounded to 86.
    let p = fen("B:WK18,K19,K27:BK3");
    assert_eq!(hand(&p, Color::White), 915 - 297 + 86);

    // The start: everything cancels.
    assert_eq!(hand(&Position::start(), Color::Black), 0);
}

#[test]
fn classic_at_the_start_is_the_turn() {
    let start = Position::start();
    assert_eq!(classic(&start, Color::Black), CLASSIC.turn);
    assert_eq!(classic(&start, Color::White), -CLASSIC.turn);
    // A man more, everything else even: material plus the trade term, and more of the trade
    // term with less material left.
    let up12 = classic(
        &fen("B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12"),
        Color::Black,
    );
    let up3 = classic(&fen("B:W29,30:B1,2,3"), Color::Black);
    assert!(up12 > CLASSIC.man, "{up12}");
    assert!(up3 > up12 + 100, "{up3} vs {up12}");
}

#[test]
fn alpha_beta_equals_minimax_with_the_yardsticks() {
    for (i, pos) in random_positions(120, 77).iter().enumerate() {
        for e in [Evaluator::Hand, Evaluator::Classic] {
            for depth in 1..=4 {
                let cfg = SearchConfig {
                    depth,
                    capture_extension: true,
                    tt_log2: 12,
                };
                let mut s = Searcher::new(e, cfg);
                assert_eq!(
                    s.value(pos),
                    minimax_with(pos, depth, &e, true),
                    "{e:?} position {i} depth {depth}"
                );
            }
        }
    }
}

/// White (to move) plays `attacker` at depth 6, Black defends at depth 12; the 40-move rule is
/// on, so a win must come within 80 plies.
fn two_kings_against_one(attacker: Evaluator, defender: Evaluator, seed: u64) -> Game {
    let mut white = Searcher::new(attacker, SearchConfig::with_depth(6));
    let mut black = Searcher::new(defender, SearchConfig::with_depth(12));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut g = Game::new(fen("W:WK10,K14:BK1"), DrawRules::default());
    checkers_ga::play::play_out(&mut g, &mut black, &mut white, &mut rng);
    g
}

#[test]
fn classic_converts_two_kings_against_one_and_material_does_not() {
    for defender in [Evaluator::Classic, material(), Evaluator::Hand] {
        for seed in 0..3 {
            let g = two_kings_against_one(Evaluator::Classic, defender, seed);
            assert_eq!(
                g.result().map(|r| r.0),
                Some(GameOutcome::WhiteWin),
                "defender {defender:?} seed {seed}: {:?} after {} plies",
                g.result(),
                g.plies()
            );
            assert!(g.plies() < 80, "{} plies", g.plies());
        }
    }
    // Material alone sees no progress to make: the lone king holds the double corner until the
    // 40-move rule (or a repetition) draws.
    for seed in 0..3 {
        let g = two_kings_against_one(material(), Evaluator::Classic, seed);
        assert_eq!(
            g.result().map(|r| r.0),
            Some(GameOutcome::Draw),
            "seed {seed}"
        );
    }
}

// ----- the commands -----

fn wdl(out: &str) -> Vec<u32> {
    out.lines()
        .find_map(|l| l.strip_prefix("W/D/L for A: "))
        .unwrap_or_else(|| panic!("{out}"))
        .split('/')
        .map(|x| x.parse().unwrap())
        .collect()
}

#[test]
fn match_takes_the_yardsticks_by_name() {
    let t = Tmp::new("match");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "classic", "material", "--depth", "2", "--games", "4", "--seed", "3",
            "--quiet",
        ],
    ));
    assert!(
        out.starts_with("A: classic  B: material  depth 2/2  4 games"),
        "{out}"
    );
    assert_eq!(wdl(&out).iter().sum::<u32>(), 4, "{out}");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "hand", "classic", "--depth", "1", "--games", "2", "--quiet",
        ],
    ));
    assert!(out.starts_with("A: hand  B: classic"), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
}

/// The moves of a match's PDN, without the tags (which name the players).
fn pdn_moves(t: &Tmp, a: &str, b: &str) -> String {
    stdout_ok(&run(
        &t.0,
        &[
            "match", a, b, "--depth", "3", "--games", "4", "--seed", "1", "--quiet", "--pdn",
            "g.pdn",
        ],
    ));
    t.read("g.pdn")
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_file_of_that_name_comes_first() {
    let plain = Tmp::new("plain");
    let material_games = pdn_moves(&plain, "material", "material");
    let classic_games = pdn_moves(&plain, "classic", "material");
    assert_ne!(material_games, classic_games);
    // A file named `classic` (here the material weights) is read instead of the yardstick.
    let t = Tmp::new("file");
    std::fs::copy(common::repo("weights/material.json"), t.0.join("classic")).unwrap();
    assert_eq!(pdn_moves(&t, "classic", "material"), material_games);
}

#[test]
fn play_and_bench_take_the_yardsticks() {
    let t = Tmp::new("play");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "play",
            "--black",
            "2:classic",
            "--white",
            "2:hand",
            "--seed",
            "1",
            "--max-plies",
            "16",
        ],
    ));
    assert!(
        out.starts_with("Black: classic (depth 2)  White: hand (depth 2)"),
        "{out}"
    );
    assert!(out.contains("Result: "), "{out}");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "bench",
            "--weights",
            "classic",
            "--depth",
            "1",
            "--rounds",
            "1",
        ],
    ));
    assert!(
        out.contains("eval_ns ") && out.contains("search_nps "),
        "{out}"
    );
}

#[test]
fn bad_names_are_one_line_errors() {
    let t = Tmp::new("bad");
    assert_error(
        &run(&t.0, &["match", "classic", "clasic", "--depth", "1"]),
        &["clasic", "material, thesis, random, hand or classic"],
    );
    assert_error(
        &run(&t.0, &["play", "--black", "2:handd", "--white", "2:hand"]),
        &["handd"],
    );
}

/// A one-generation session of 4 individuals at depth 1, made with the binary.
fn tiny_session(t: &Tmp) {
    let out = new_cmd(
        t,
        1,
        "tiny",
        true,
        &[
            "--population",
            "4",
            "--generations",
            "1",
            "--depth",
            "1",
            "--max-plies",
            "60",
        ],
    )
    .output()
    .unwrap();
    stdout_ok(&out);
}

#[test]
fn history_elo_against_a_yardstick_and_material_by_default() {
    let t = Tmp::new("history");
    tiny_session(&t);
    let pops = t.pops();
    let pops = pops.to_str().unwrap();
    let base = ["history", "tiny", "--populations", pops, "--elo"];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        stdout_ok(&run(&t.0, &a))
    };
    let out = with(&[
        "--reference",
        "classic",
        "--games",
        "2",
        "--depth",
        "2",
        "--seed",
        "4",
    ]);
    assert!(
        out.contains("Elo: best so far vs classic over 2 ballot games at depth 2, seed 4"),
        "{out}"
    );
    let out = with(&["--games", "2", "--seed", "4"]);
    assert!(
        out.contains("Elo: best so far vs material over 2 ballot games at depth 1, seed 4"),
        "{out}"
    );
    let mut bad = base.to_vec();
    bad.extend_from_slice(&["--reference", "classics"]);
    assert_error(
        &run(&t.0, &bad),
        &["classics", "material, thesis, random, hand or classic"],
    );
}
