//! Alpha-beta must return exactly what plain minimax returns on the same tree, with and without
//! the transposition table and the capture extension; the root choice must be a best move.

use checkers_ga::{legal_moves, parse_fen, Position, Weights};
use checkers_ga::{minimax, minimax_from, SearchConfig, Searcher, WIN};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions from seeded random play: from the start and from ballot-like random openings.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::start();
        let plies = rng.random_range(0..60);
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos = pos.play(&m);
        }
        out.push(pos);
    }
    out
}

/// Random weights of a board network of `h` units: the search keeps its units' sums move by
/// move, minimax evaluates each leaf from scratch. Network weights small enough that units
/// sit inside their range.
fn board_weights(h: u8, rng: &mut ChaCha8Rng) -> Weights {
    let mut w = Weights::zero_of(checkers_ga::ParamSet::Board(h));
    for (i, x) in w.values_mut().iter_mut().enumerate() {
        *x = if i < 66 {
            rng.random_range(-300..=300)
        } else {
            rng.random_range(-2000..=2000)
        };
    }
    w
}

fn random_weights(rng: &mut ChaCha8Rng) -> Weights {
    if rng.random_bool(0.25) {
        let h = rng.random_range(1..=5);
        return board_weights(h, rng);
    }
    // Small weights give many equal values (ties), large ones the full range.
    if rng.random_bool(0.3) {
        let mut w = Weights::zero();
        for x in w.values_mut().iter_mut() {
            *x = rng.random_range(-3..=3);
        }
        w
    } else {
        Weights::random(rng)
    }
}

fn check(configs: &[SearchConfig], positions: usize, max_depth: u32, seed: u64) {
    check_with(configs, positions, max_depth, seed, random_weights);
}

/// [`check`] with the weights of each position drawn by `weights`.
fn check_with(
    configs: &[SearchConfig],
    positions: usize,
    max_depth: u32,
    seed: u64,
    mut weights: impl FnMut(&mut ChaCha8Rng) -> Weights,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xABCD);
    for (i, pos) in random_positions(positions, seed).iter().enumerate() {
        let w = weights(&mut rng);
        for depth in 1..=max_depth {
            for c in configs {
                let cfg = SearchConfig { depth, ..*c };
                let expected = minimax(pos, depth, &w, cfg.capture_extension);
                let mut s = Searcher::new(w, cfg);
                let got = s.value(pos);
                assert_eq!(
                    got,
                    expected,
                    "position {i} {} depth {depth} config {cfg:?}",
                    checkers_ga::to_fen(pos)
                );
                // Searching again with a warm table must not change the value.
                assert_eq!(s.value(pos), expected, "warm table, position {i}");
            }
        }
    }
}

#[test]
fn alpha_beta_equals_minimax_without_table_or_extension() {
    let cfg = SearchConfig {
        depth: 1,
        capture_extension: false,
        tt_log2: 0,
    };
    check(&[cfg], 500, 5, 1);
}

#[test]
fn alpha_beta_with_table_equals_minimax() {
    let cfg = SearchConfig {
        depth: 1,
        capture_extension: false,
        tt_log2: 12,
    };
    check(&[cfg], 500, 5, 2);
}

#[test]
fn alpha_beta_with_capture_extension_equals_extended_minimax() {
    let with_tt = SearchConfig {
        depth: 1,
        capture_extension: true,
        tt_log2: 12,
    };
    let without = SearchConfig {
        tt_log2: 0,
        ..with_tt
    };
    check(&[with_tt, without], 150, 4, 3);
}

#[test]
fn alpha_beta_equals_minimax_for_a_board_network_of_32_units() {
    // All 32 units: the accumulator's and the output's loops of fixed length, kept move by
    // move in the search, against minimax's sums from scratch at every leaf. Fewer positions
    // than the small networks: each leaf costs minimax 32 units.
    let plain = SearchConfig {
        depth: 1,
        capture_extension: false,
        tt_log2: 0,
    };
    let table = SearchConfig {
        tt_log2: 12,
        ..plain
    };
    let extension = SearchConfig {
        capture_extension: true,
        ..table
    };
    check_with(&[plain, table, extension], 200, 5, 5, |r| {
        board_weights(32, r)
    });
}

#[test]
fn root_choice_is_one_of_the_best_moves_and_ties_are_broken_at_random() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (i, pos) in random_positions(200, 4).iter().enumerate() {
        let w = random_weights(&mut rng);
        let depth = 1 + (i as u32 % 4);
        let moves = legal_moves(pos);
        if moves.len() < 2 {
            continue;
        }
        let values: Vec<i32> = moves
            .iter()
            .map(|m| -minimax_from(&pos.play(m), depth - 1, 1, pos.side_to_move(), &w, true))
            .collect();
        let best = *values.iter().max().unwrap();
        let mut s = Searcher::new(w, SearchConfig::with_depth(depth));
        let r = s.choose(pos, &mut rng);
        let m = r.best.unwrap();
        let k = moves.iter().position(|x| *x == m).unwrap();
        assert_eq!(values[k], best, "position {i}");
        assert_eq!(r.value, Some(best));
    }
    // All-zero weights: every move of the start position is worth 0, so over many choices
    // every one of the 7 moves gets picked.
    let mut s = Searcher::new(Weights::zero(), SearchConfig::with_depth(2));
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200 {
        seen.insert(s.choose(&Position::start(), &mut rng).best.unwrap());
    }
    assert_eq!(seen.len(), 7);
}

#[test]
fn a_side_without_moves_has_lost_and_faster_wins_score_higher() {
    // White king on 1 is trapped? No: Black to move with no pieces left has lost.
    let lost = parse_fen("B:WK10:B").unwrap();
    let mut s = Searcher::new(Weights::zero(), SearchConfig::with_depth(3));
    assert_eq!(s.value(&lost), -WIN);
    // Black man on 5 can take White's last piece on 9 at once: a win in one ply.
    let win1 = parse_fen("B:W9:B5").unwrap();
    let v1 = s.value(&win1);
    assert_eq!(v1, WIN - 1);
    // The two-kings-against-one ending is a win for White whatever the weights, found at depth.
    let w = Weights::zero();
    let mut deep = Searcher::new(w, SearchConfig::with_depth(9));
    let ending = parse_fen("W:WK10,K14:BK1").unwrap();
    let v = deep.value(&ending);
    assert!(v >= WIN - 100 || v == 0, "value {v}");
}

#[test]
fn two_kings_convert_against_one() {
    // Material weights: the engine must win W:WK10,K14:BK1 within the move cap.
    use checkers_ga::{DrawRules, Game, GameOutcome};
    let mut w = Weights::zero();
    w[1] = 100; // own kings
    w[3] = -100; // opponent kings
    w[7] = 30; // opponent kings at the wall: drive the lone king to the edge
    let mut white = Searcher::new(w, SearchConfig::with_depth(16));
    let mut black = Searcher::new(w, SearchConfig::with_depth(4));
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut g = Game::new(parse_fen("W:WK10,K14:BK1").unwrap(), DrawRules::default());
    checkers_ga::play::play_out(&mut g, &mut black, &mut white, &mut rng);
    assert_eq!(
        g.result().map(|r| r.0),
        Some(GameOutcome::WhiteWin),
        "{:?} after {} plies",
        g.result(),
        g.plies()
    );
    let _ = rng.next_u32();
}

/// Timed search: iterative deepening against a budget always returns a legal move, stops on its
/// own (no wall-clock speed is asserted: only that a 0.05 s search ends within seconds), gets
/// past depth 1 on an easy case, and with time to spare reaches its maximum depth with the
/// value the fixed-depth search gives.
mod timed {
    use super::*;
    use checkers_ga::MAX_TIMED_DEPTH;
    use std::time::{Duration, Instant};

    #[test]
    fn a_short_budget_returns_a_legal_move_deeper_than_one_ply_and_stops() {
        let material = checkers_ga::parse_weights(include_str!("../weights/material.json"))
            .expect("material weights");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (i, pos) in random_positions(12, 21).iter().enumerate() {
            let moves = legal_moves(pos);
            if moves.len() < 2 {
                continue;
            }
            let mut s = Searcher::new(material, SearchConfig::with_depth(40));
            let t = Instant::now();
            let r = s.choose_timed(pos, &mut rng, Duration::from_millis(50));
            let took = t.elapsed();
            assert!(took < Duration::from_secs(5), "position {i}: {took:?}");
            let m = r.best.expect("a move");
            assert!(
                moves.as_slice().contains(&m),
                "position {i}: {m} is not legal"
            );
            assert!(
                (1..=40).contains(&r.depth),
                "position {i}: depth {}",
                r.depth
            );
            assert!(r.value.is_some() && r.nodes > 0);
        }
        // The start position: 50 ms is far more than depth 2 needs (a few hundred nodes).
        let mut s = Searcher::new(material, SearchConfig::with_depth(40));
        let r = s.choose_timed(&Position::start(), &mut rng, Duration::from_millis(50));
        assert!(r.depth > 1, "depth {}", r.depth);
    }

    #[test]
    fn no_time_at_all_still_completes_depth_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for pos in random_positions(30, 22) {
            let moves = legal_moves(&pos);
            let mut s = Searcher::new(Weights::zero(), SearchConfig::with_depth(MAX_TIMED_DEPTH));
            let r = s.choose_timed(&pos, &mut rng, Duration::ZERO);
            match moves.len() {
                0 => assert!(r.best.is_none()),
                1 => assert_eq!((r.best, r.depth, r.nodes), (Some(moves[0]), 0, 0)),
                _ => {
                    assert!(moves.as_slice().contains(&r.best.unwrap()));
                    assert_eq!(r.depth, 1);
                }
            }
        }
    }

    #[test]
    fn with_time_to_spare_it_reaches_the_maximum_depth_and_the_fixed_depth_value() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut wrng = ChaCha8Rng::seed_from_u64(6);
        for (i, pos) in random_positions(40, 23).iter().enumerate() {
            let moves = legal_moves(pos);
            if moves.len() < 2 {
                continue;
            }
            let w = random_weights(&mut wrng);
            let depth = 1 + (i as u32 % 4);
            let fixed = Searcher::new(w, SearchConfig::with_depth(depth)).choose(pos, &mut rng);
            // The plain search on a clock (a clock's default reductions and pruning change
            // values: tests/search_params.rs checks them).
            let mut s = Searcher::new(w, SearchConfig::with_depth(depth))
                .with_params(checkers_ga::SearchParams::NEUTRAL);
            let r = s.choose_timed(pos, &mut rng, Duration::from_secs(600));
            // A forced win ends the deepening early; otherwise every depth is searched.
            let won = r.value.unwrap() > WIN - 1000;
            assert!(r.depth == depth || won, "position {i}: depth {}", r.depth);
            if r.depth == depth {
                assert_eq!(r.value, fixed.value, "position {i}");
            }
            // The move is one of the best at the depth reached.
            let m = r.best.unwrap();
            let v = -minimax_from(&pos.play(&m), r.depth - 1, 1, pos.side_to_move(), &w, true);
            assert_eq!(Some(v), r.value, "position {i}");
        }
    }
}
