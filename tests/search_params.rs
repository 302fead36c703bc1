//! The search's reductions and pruning ([`SearchParams`]): at their neutral values the search
//! is exactly the plain alpha-beta it was before them, node for node (digests of moves, values
//! and node counts taken from the search without them, fixed depth, timed and over games, with
//! and without the table); each feature is off at its switch whatever its other constants, and
//! changes the search when on; aspiration windows keep the exact root value.

use checkers_ga::{is_setting, SearchParams, Weights, WIN_BOUND};
use checkers_ga::{legal_moves, minimax_from, Evaluator, Position, SearchConfig, Searcher};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Positions from seeded random play from the start.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::start();
        for _ in 0..rng.random_range(0..60) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.random_range(0..moves.len())]);
        }
        out.push(pos);
    }
    out
}

/// Material, random weights of the 60, a board network of 4 units (its sums kept move by
/// move) and the `classic` yardstick.
fn evaluators() -> Vec<Evaluator> {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut board = Weights::zero_of(checkers_ga::ParamSet::Board(4));
    for (i, x) in board.values_mut().iter_mut().enumerate() {
        *x = if i < 66 {
            rng.random_range(-300..=300)
        } else {
            rng.random_range(-2000..=2000)
        };
    }
    vec![
        Evaluator::from(checkers_ga::material()),
        Evaluator::from(Weights::random(&mut rng)),
        Evaluator::from(board),
        Evaluator::Classic,
    ]
}

/// FNV-1a over whole numbers.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn add(&mut self, x: i64) {
        for b in x.to_le_bytes() {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// What a searcher is given before it searches: `params`, or none.
type Apply<'a> = &'a dyn Fn(Searcher) -> Searcher;

/// Every evaluator choosing a move in 60 positions at depths 1 to 8 (a fresh searcher each,
/// ties to the first best move), fixed-depth or timed with time to spare (iterative
/// deepening to that depth): the total nodes and a digest of every node count, value, depth
/// and move.
fn digest(timed: bool, tt_log2: u8, capture_extension: bool, apply: Apply) -> (u64, u64) {
    let mut h = Fnv::new();
    let mut nodes = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for e in evaluators() {
        for (i, pos) in random_positions(60, 9).iter().enumerate() {
            let depth = 1 + (i as u32 % 8);
            let cfg = SearchConfig {
                depth,
                capture_extension,
                tt_log2,
            };
            let mut s = apply(Searcher::new(e, cfg));
            s.set_first_ties(true);
            let r = if timed {
                s.choose_timed(pos, &mut rng, Duration::from_secs(600))
            } else {
                s.choose(pos, &mut rng)
            };
            nodes += r.nodes;
            h.add(r.nodes as i64);
            h.add(r.value.unwrap_or(7) as i64);
            h.add(r.depth as i64);
            h.add(r.best.map_or(-1, |m| m.from() as i64 * 64 + m.to() as i64));
        }
    }
    (nodes, h.0)
}

/// Two searchers that keep their tables, killers and history (as in a session's games) play
/// 40 plies at depth 6 from each of 4 positions: the total nodes and a digest of every node
/// count, value and move.
fn game_digest(tt_log2: u8, apply: Apply) -> (u64, u64) {
    let mut h = Fnv::new();
    let mut nodes = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let cfg = SearchConfig {
        depth: 6,
        capture_extension: true,
        tt_log2,
    };
    let es = evaluators();
    let mut a = apply(Searcher::new(es[1], cfg));
    let mut b = apply(Searcher::new(es[3], cfg));
    for start in random_positions(4, 3) {
        a.clear();
        b.clear();
        let mut pos = start;
        for ply in 0..40 {
            let s = if ply % 2 == 0 { &mut a } else { &mut b };
            let r = s.choose(&pos, &mut rng);
            let Some(m) = r.best else { break };
            nodes += r.nodes;
            h.add(r.nodes as i64);
            h.add(r.value.unwrap_or(7) as i64);
            h.add(m.from() as i64 * 64 + m.to() as i64);
            pos = pos.play(&m);
        }
    }
    (nodes, h.0)
}

/// A digest's searches: timed, the table's size (log2), the capture extension.
type Kind = (bool, u8, bool);

/// The digests of the search before it had reductions and pruning (commit 75ca9d4): kind ->
/// (nodes, digest).
const BEFORE: [(Kind, (u64, u64)); 6] = [
    ((false, 0, true), (703_793, 0x25ec_a1c6_e300_b612)),
    ((false, 16, true), (422_319, 0xb89d_6386_15cf_8096)),
    ((false, 12, false), (328_405, 0xc567_9b52_e298_351c)),
    ((true, 0, true), (794_020, 0x5b09_5115_ef16_1e11)),
    ((true, 16, true), (433_940, 0xc99d_6e91_3204_46d7)),
    ((true, 12, false), (443_944, 0xf8cc_8c3b_720e_a412)),
];

/// The game digests before, without and with the table.
const GAMES_BEFORE: [(u8, (u64, u64)); 2] = [
    (0, (172_157, 0x337a_c0e9_7f94_56b8)),
    (16, (123_484, 0xaf4b_bd8c_bea2_b9d0)),
];

/// Asserts that searchers given `apply` search exactly as before, timed searches included
/// when `timed`.
fn assert_as_before(what: &str, apply: Apply, timed: bool) {
    for ((t, tt, ext), want) in BEFORE {
        if t && !timed {
            continue;
        }
        let got = digest(t, tt, ext, apply);
        assert_eq!(
            got, want,
            "{what}: timed {t}, table 2^{tt}, extension {ext}"
        );
    }
    for (tt, want) in GAMES_BEFORE {
        assert_eq!(game_digest(tt, apply), want, "{what}: games, table 2^{tt}");
    }
}

#[test]
fn neutral_params_search_exactly_as_before_node_for_node() {
    let neutral = |s: Searcher| s.with_params(SearchParams::NEUTRAL);
    assert_as_before("neutral", &neutral, true);
    // A searcher given none searches a fixed depth with the neutral values.
    assert_as_before("none", &|s| s, false);
}

#[test]
fn a_timed_search_given_none_uses_the_tuned_defaults_a_fixed_depth_the_plain_search() {
    // The defaults are the answer docs/engine.md and docs/engines.md give: futility at the
    // last two plies, 0.84 men a ply, an aspiration window of 0.21 men, reductions off.
    let declared: Vec<(&str, i64)> = SearchParams::DEFAULT
        .declared()
        .iter()
        .map(|s| (s.name, s.value))
        .collect();
    assert_eq!(
        declared,
        [
            ("lmr-depth", 5),
            ("lmr-moves", 4),
            ("lmr-reduction", 0),
            ("aspiration", 21),
            ("futility", 84),
            ("futility-depth", 2)
        ]
    );
    let none = |s: Searcher| s;
    let defaults = |s: Searcher| s.with_params(SearchParams::DEFAULT);
    for (tt, ext) in [(0, true), (16, true), (12, false)] {
        let timed = digest(true, tt, ext, &none);
        assert_eq!(timed, digest(true, tt, ext, &defaults), "table 2^{tt}");
        let before = BEFORE.iter().find(|b| b.0 == (true, tt, ext)).unwrap().1;
        // They prune: fewer nodes to the same depths than the plain search.
        assert!(timed.0 < before.0, "table 2^{tt}: {} nodes", timed.0);
    }
}

#[test]
fn each_feature_is_off_at_its_switch_whatever_its_other_constants() {
    let n = SearchParams::NEUTRAL;
    let lmr = SearchParams {
        lmr_depth: 2,
        lmr_moves: 1,
        lmr_reduction: 0,
        ..n
    };
    let futility = SearchParams {
        futility: 0,
        futility_depth: 3,
        ..n
    };
    for (what, p) in [("lmr-reduction=0", lmr), ("futility=0", futility)] {
        assert_as_before(what, &|s| s.with_params(p), true);
    }
    // Aspiration windows act only in a timed search.
    let aspiration = |s: Searcher| s.with_params(SearchParams { aspiration: 0, ..n });
    for ((t, tt, ext), want) in BEFORE.into_iter().filter(|b| b.0 .0) {
        assert_eq!(digest(t, tt, ext, &aspiration), want, "aspiration=0");
    }
    // A margin beyond every evaluation here (they lie far inside the +/- 2^30 evaluations may
    // reach) prunes nothing: futility at its largest depth is as if off.
    let unreachable = SearchParams {
        futility: i32::MAX,
        futility_depth: 3,
        ..n
    };
    let apply = |s: Searcher| s.with_params(unreachable);
    assert_eq!(digest(false, 16, true, &apply), BEFORE[1].1);
}

#[test]
fn each_feature_on_changes_the_search_and_reductions_and_pruning_save_nodes() {
    let n = SearchParams::NEUTRAL;
    let on = [
        (
            "lmr-reduction=1",
            SearchParams {
                lmr_reduction: 1,
                lmr_depth: 2,
                lmr_moves: 2,
                ..n
            },
        ),
        (
            "futility=50",
            SearchParams {
                futility: 50,
                futility_depth: 2,
                ..n
            },
        ),
    ];
    for (what, p) in on {
        let apply = |s: Searcher| s.with_params(p);
        let (nodes, _) = digest(false, 16, true, &apply);
        assert!(nodes < BEFORE[1].1 .0, "{what}: {nodes} nodes");
        let (nodes, _) = game_digest(16, &apply);
        assert!(
            nodes < GAMES_BEFORE[1].1 .0,
            "{what}: {nodes} nodes in games"
        );
    }
    let apply = |s: Searcher| {
        s.with_params(SearchParams {
            aspiration: 10,
            ..n
        })
    };
    let got = digest(true, 16, true, &apply);
    assert_ne!(got, BEFORE[4].1, "aspiration=10");
    // At a fixed depth there is no previous iteration: no window.
    assert_eq!(digest(false, 16, true, &apply), BEFORE[1].1);
}

#[test]
fn aspiration_windows_keep_the_exact_value_and_a_best_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut wrng = ChaCha8Rng::seed_from_u64(6);
    for (i, pos) in random_positions(60, 23).iter().enumerate() {
        let moves = legal_moves(pos);
        if moves.len() < 2 {
            continue;
        }
        let w = Weights::random(&mut wrng);
        let depth = 2 + (i as u32 % 4);
        let aspiration = [1, 7, 40, 300][i % 4];
        let params = SearchParams {
            aspiration,
            ..SearchParams::NEUTRAL
        };
        let mut s = Searcher::new(w, SearchConfig::with_depth(depth)).with_params(params);
        let r = s.choose_timed(pos, &mut rng, Duration::from_secs(600));
        let fixed = Searcher::new(w, SearchConfig::with_depth(r.depth)).choose(pos, &mut rng);
        assert_eq!(
            r.value, fixed.value,
            "position {i}, aspiration {aspiration}"
        );
        let m = r.best.unwrap();
        let v = -minimax_from(&pos.play(&m), r.depth - 1, 1, pos.side_to_move(), &w, true);
        assert_eq!(Some(v), r.value, "position {i}, aspiration {aspiration}");
    }
}

#[test]
fn with_every_feature_on_moves_are_legal_and_wins_still_score_as_wins() {
    let aggressive = SearchParams {
        lmr_depth: 2,
        lmr_moves: 1,
        lmr_reduction: 3,
        aspiration: 1,
        futility: 1,
        futility_depth: 3,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for (i, pos) in random_positions(40, 31).iter().enumerate() {
        let moves = legal_moves(pos);
        for timed in [false, true] {
            let mut s = Searcher::new(checkers_ga::material(), SearchConfig::with_depth(7))
                .with_params(aggressive);
            let r = if timed {
                s.choose_timed(pos, &mut rng, Duration::from_secs(600))
            } else {
                s.choose(pos, &mut rng)
            };
            match r.best {
                Some(m) => assert!(moves.as_slice().contains(&m), "position {i}"),
                None => assert!(moves.is_empty()),
            }
        }
    }
    // Black's kings on 23 and 24 take White's last man within 3 plies; a lone king against
    // two is lost: wins and losses are never pruned.
    let win = checkers_ga::parse_fen("B:W32:BK23,K24").unwrap();
    let mut s =
        Searcher::new(checkers_ga::material(), SearchConfig::with_depth(6)).with_params(aggressive);
    let r = s.choose(&win, &mut rng);
    assert!(r.value.unwrap() > WIN_BOUND, "{:?}", r.value);
    let r = s.choose_timed(&win, &mut rng, Duration::from_secs(600));
    assert!(r.value.unwrap() > WIN_BOUND, "{:?}", r.value);
}

#[test]
fn the_declared_names_are_not_settings_and_the_neutral_values_declare_every_switch_off() {
    for spec in SearchParams::DEFAULT.declared() {
        assert!(!is_setting(spec.name), "{} reads as a setting", spec.name);
        assert!((spec.min..=spec.max).contains(&spec.value), "{spec:?}");
    }
    let off: Vec<(&str, i64)> = SearchParams::NEUTRAL
        .declared()
        .iter()
        .filter(|s| ["lmr-reduction", "aspiration", "futility"].contains(&s.name))
        .map(|s| (s.name, s.value))
        .collect();
    assert_eq!(
        off,
        [("lmr-reduction", 0), ("aspiration", 0), ("futility", 0)]
    );
}

#[test]
fn margins_are_in_hundredths_of_the_man_the_searcher_is_told() {
    let p = |futility, aspiration| SearchParams {
        futility,
        aspiration,
        futility_depth: 2,
        ..SearchParams::NEUTRAL
    };
    let told = |man: Option<i32>, futility, aspiration| {
        move |mut s: Searcher| {
            s.set_man_value(man);
            s.with_params(p(futility, aspiration))
        }
    };
    for timed in [false, true] {
        let plain = digest(timed, 16, true, &|s| s.with_params(p(50, 20)));
        // Not told: a man is 100 units, as when told None or 100.
        assert_eq!(digest(timed, 16, true, &told(None, 50, 20)), plain);
        assert_eq!(digest(timed, 16, true, &told(Some(100), 50, 20)), plain);
        // A twentieth of a man of 1000 units is 50 units, as half a man of 100 (and a fiftieth
        // is 20, as a fifth).
        assert_eq!(digest(timed, 16, true, &told(Some(1000), 5, 2)), plain);
        assert_ne!(digest(timed, 16, true, &told(Some(100), 5, 2)), plain);
    }
}
