//! Perft regression: every case of `tests/data/perft.txt` (`FEN | depth | nodes`, `#` comments)
//! must match `checkers_ga::perft`, and `perft_divide` must add up to `perft`.

mod common;

use checkers_ga::{legal_moves, parse_fen, perft, perft_divide, Position};
use common::perft_cases;

#[test]
fn perft_data_file() {
    let cases = perft_cases();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let pos = parse_fen(&c.fen).unwrap_or_else(|e| panic!("line {}: {e}", c.line));
        let got = perft(&pos, c.depth);
        if got != c.nodes {
            failures.push(format!(
                "line {}: {} depth {}: expected {}, engine {}",
                c.line, c.fen, c.depth, c.nodes, got
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rotating the board by 180 degrees and swapping the colours keeps the rules, so the counts.
#[test]
fn perft_of_flipped_positions() {
    let mut checked = 0;
    for c in perft_cases() {
        if c.nodes > 2_000_000 {
            continue;
        }
        let pos = parse_fen(&c.fen).unwrap();
        let flipped = pos.flipped();
        assert_eq!(flipped.flipped(), pos, "{}", c.fen);
        assert_eq!(flipped.hash(), flipped.compute_hash(), "{}", c.fen);
        assert_eq!(
            perft(&flipped, c.depth),
            c.nodes,
            "flipped {} depth {}",
            c.fen,
            c.depth
        );
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn perft_depth_zero_is_one() {
    assert_eq!(perft(&Position::start(), 0), 1);
    assert!(perft_divide(&Position::start(), 0).is_empty());
}

/// `perft_divide` has one entry per legal move, in any order, and its counts add up to `perft`.
#[test]
fn perft_divide_sums_to_perft() {
    let mut checked = 0;
    for c in perft_cases() {
        if c.nodes > 2_000_000 || c.depth == 0 {
            continue;
        }
        let pos = parse_fen(&c.fen).unwrap();
        let divide = perft_divide(&pos, c.depth);
        let total: u64 = divide.iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&pos, c.depth), "{} depth {}", c.fen, c.depth);
        assert_eq!(total, c.nodes, "{} depth {}", c.fen, c.depth);

        let mut divided: Vec<String> = divide.iter().map(|(m, _)| m.to_string()).collect();
        let mut legal: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
        divided.sort();
        legal.sort();
        assert_eq!(divided, legal, "{} depth {}", c.fen, c.depth);
        for (m, n) in &divide {
            assert_eq!(*n, perft(&pos.play(m), c.depth - 1), "{} after {m}", c.fen);
        }
        checked += 1;
    }
    assert!(checked >= 20);
}

/// Start position, depth 4, split by Black's seven first moves: the same counts whether one
/// asks `perft_divide` or plays the move and asks `perft`, and 1469 in all.
#[test]
fn perft_divide_start_position() {
    let divide = perft_divide(&Position::start(), 4);
    assert_eq!(divide.len(), 7);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 1469);
    let mut names: Vec<String> = divide.iter().map(|(m, _)| m.to_string()).collect();
    names.sort();
    assert_eq!(
        names,
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
}
