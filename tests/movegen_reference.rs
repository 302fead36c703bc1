//! Differential test of the engine's move generator against a deliberately simple reference.
//!
//! The reference below knows nothing of bitboards: the board is an array of 33 optional pieces
//! (index 0 unused), squares are turned into (row, column) by the board numbering and jumps are
//! found by plain recursion. It is slow and obvious on purpose. For every position visited, the
//! engine's moves (text via `Move`'s `Display`, resulting position via `to_fen`) must equal the
//! reference's exactly, as multisets (a duplicated move is an error too).
//!
//! Positions come from seeded random play (from the start and from every ACF 3-move ballot
//! opening) and from random setups with kings on both sides. The same reference also recomputes
//! the small entries of `tests/data/perft.txt`, so that data does not rest on the engine alone.

mod common;

use checkers_ga::{has_capture, legal_moves, parse_fen, perft, to_fen, Color, Position};
use common::{perft_cases, SplitMix};

// ---------------------------------------------------------------------------------------------
// The reference board and move generator.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Black,
    White,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    side: Side,
    king: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    /// `sq[s]` for s in 1..=32; `sq[0]` is unused.
    sq: [Option<Piece>; 33],
    to_move: Side,
}

/// (row, column) of square 1..=32: row r holds squares 4r+1..4r+4; dark squares are at columns
/// 1,3,5,7 on even rows and 0,2,4,6 on odd rows.
fn coords(s: usize) -> (i32, i32) {
    let r = (s as i32 - 1) / 4;
    let k = (s as i32 - 1) % 4;
    let c = if r % 2 == 0 { 2 * k + 1 } else { 2 * k };
    (r, c)
}

/// The square at (row, column), if it is a dark square on the board.
fn square(r: i32, c: i32) -> Option<usize> {
    if !(0..8).contains(&r) || !(0..8).contains(&c) || (r + c) % 2 == 0 {
        return None;
    }
    Some((4 * r + c / 2 + 1) as usize)
}

/// The row where a man of this side is crowned.
fn crown_row(side: Side) -> i32 {
    match side {
        Side::Black => 7,
        Side::White => 0,
    }
}

/// Directions (row step, column step) a piece may move or jump in. Black moves toward row 7.
fn directions(p: Piece) -> Vec<(i32, i32)> {
    if p.king {
        vec![(1, -1), (1, 1), (-1, -1), (-1, 1)]
    } else if p.side == Side::Black {
        vec![(1, -1), (1, 1)]
    } else {
        vec![(-1, -1), (-1, 1)]
    }
}

/// A reference move: every square the piece stands on, and the squares it takes.
#[derive(Clone, Debug)]
struct RefMove {
    path: Vec<usize>,
    captured: Vec<usize>,
}

impl RefMove {
    fn text(&self) -> String {
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        self.path
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }
}

impl Board {
    fn empty(to_move: Side) -> Board {
        Board {
            sq: [None; 33],
            to_move,
        }
    }

    /// Continues a jump sequence of `piece` (which left `origin`) from `cur`.
    fn jumps_from(
        &self,
        piece: Piece,
        origin: usize,
        cur: usize,
        path: &mut Vec<usize>,
        captured: &mut Vec<usize>,
        out: &mut Vec<RefMove>,
    ) {
        let (r, c) = coords(cur);
        let mut continued = false;
        for (dr, dc) in directions(piece) {
            let (Some(mid), Some(land)) = (square(r + dr, c + dc), square(r + 2 * dr, c + 2 * dc))
            else {
                continue;
            };
            let mid_is_enemy = matches!(self.sq[mid], Some(p) if p.side != piece.side);
            // Taken pieces stay on the board until the move ends; the origin is free.
            let land_is_free = self.sq[land].is_none() || land == origin;
            if !mid_is_enemy || captured.contains(&mid) || !land_is_free {
                continue;
            }
            continued = true;
            path.push(land);
            captured.push(mid);
            if !piece.king && coords(land).0 == crown_row(piece.side) {
                // A man reaching the far row is crowned and the move ends there.
                out.push(RefMove {
                    path: path.clone(),
                    captured: captured.clone(),
                });
            } else {
                self.jumps_from(piece, origin, land, path, captured, out);
            }
            path.pop();
            captured.pop();
        }
        if !continued && !captured.is_empty() {
            out.push(RefMove {
                path: path.clone(),
                captured: captured.clone(),
            });
        }
    }

    fn moves(&self) -> Vec<RefMove> {
        let mut captures = Vec::new();
        for s in 1..=32 {
            if let Some(p) = self.sq[s] {
                if p.side == self.to_move {
                    self.jumps_from(p, s, s, &mut vec![s], &mut Vec::new(), &mut captures);
                }
            }
        }
        if !captures.is_empty() {
            return captures; // capturing is mandatory
        }
        let mut quiet = Vec::new();
        for s in 1..=32 {
            if let Some(p) = self.sq[s] {
                if p.side == self.to_move {
                    let (r, c) = coords(s);
                    for (dr, dc) in directions(p) {
                        if let Some(t) = square(r + dr, c + dc) {
                            if self.sq[t].is_none() {
                                quiet.push(RefMove {
                                    path: vec![s, t],
                                    captured: Vec::new(),
                                });
                            }
                        }
                    }
                }
            }
        }
        quiet
    }

    fn has_capture(&self) -> bool {
        self.moves().iter().any(|m| !m.captured.is_empty())
    }

    fn play(&self, m: &RefMove) -> Board {
        let mut b = self.clone();
        let from = m.path[0];
        let to = *m.path.last().unwrap();
        let mut p = b.sq[from].take().unwrap();
        for &x in &m.captured {
            b.sq[x] = None;
        }
        if coords(to).0 == crown_row(p.side) {
            p.king = true;
        }
        b.sq[to] = Some(p);
        b.to_move = self.to_move.other();
        b
    }

    /// PDN FEN as the engine writes it: side, White's squares, Black's squares, increasing.
    fn fen(&self) -> String {
        let list = |side: Side| {
            (1..=32)
                .filter_map(|s| match self.sq[s] {
                    Some(p) if p.side == side => Some(if p.king {
                        format!("K{s}")
                    } else {
                        s.to_string()
                    }),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = match self.to_move {
            Side::Black => 'B',
            Side::White => 'W',
        };
        format!("{side}:W{}:B{}", list(Side::White), list(Side::Black))
    }

    /// Reads a FEN written by hand in this file (plain comma lists, `K` for kings).
    fn from_fen(fen: &str) -> Board {
        let fields: Vec<&str> = fen.trim().split(':').collect();
        assert_eq!(fields.len(), 3, "bad test FEN {fen}");
        let to_move = if fields[0] == "B" {
            Side::Black
        } else {
            Side::White
        };
        let mut b = Board::empty(to_move);
        for f in &fields[1..] {
            let side = if f.starts_with('B') {
                Side::Black
            } else {
                Side::White
            };
            for tok in f[1..].split(',').filter(|t| !t.is_empty()) {
                let (king, num) = match tok.strip_prefix('K') {
                    Some(n) => (true, n),
                    None => (false, tok),
                };
                let (lo, hi): (usize, usize) = match num.split_once('-') {
                    Some((a, z)) => (a.parse().unwrap(), z.parse().unwrap()),
                    None => (num.parse().unwrap(), num.parse().unwrap()),
                };
                for s in lo..=hi {
                    b.sq[s] = Some(Piece { side, king });
                }
            }
        }
        b
    }

    /// The engine position with the same pieces, built from raw bitboards (not from FEN).
    fn to_engine(&self) -> Position {
        let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
        for s in 1..=32 {
            if let Some(p) = self.sq[s] {
                let bit = 1u32 << (s - 1);
                match p.side {
                    Side::Black => black |= bit,
                    Side::White => white |= bit,
                }
                if p.king {
                    kings |= bit;
                }
            }
        }
        let side = match self.to_move {
            Side::Black => Color::Black,
            Side::White => Color::White,
        };
        Position::from_parts(black, white, kings, side)
    }

    fn from_engine(pos: &Position) -> Board {
        let to_move = match pos.side_to_move() {
            Color::Black => Side::Black,
            Color::White => Side::White,
        };
        let mut b = Board::empty(to_move);
        for s in 1..=32u8 {
            if let Some((c, king)) = pos.piece_at(s) {
                let side = match c {
                    Color::Black => Side::Black,
                    Color::White => Side::White,
                };
                b.sq[s as usize] = Some(Piece { side, king });
            }
        }
        b
    }
}

fn ref_perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = b.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| ref_perft(&b.play(m), depth - 1)).sum()
}

// ---------------------------------------------------------------------------------------------
// Position sources.

/// A random legal setup: 1..=12 pieces a side, men never on their own crowning row, at least
/// one king on each side (when `kings_both` holds), either side to move.
fn random_setup(rng: &mut SplitMix, kings_both: bool) -> Board {
    let to_move = if rng.chance(50) {
        Side::Black
    } else {
        Side::White
    };
    let mut b = Board::empty(to_move);
    let king_percent = [10, 30, 60, 100][rng.below(4)];
    // Denser boards give more captures; sparse ones more king moves.
    let max_pieces = [4, 8, 12][rng.below(3)];
    for side in [Side::Black, Side::White] {
        let n = 1 + rng.below(max_pieces);
        for i in 0..n {
            let king = (kings_both && i == 0) || rng.chance(king_percent);
            loop {
                let s = 1 + rng.below(32);
                if b.sq[s].is_some() || (!king && coords(s).0 == crown_row(side)) {
                    continue;
                }
                b.sq[s] = Some(Piece { side, king });
                break;
            }
        }
    }
    b
}

/// The FENs after three moves of every ACF ballot opening (last `|` column of the data file).
fn ballot_fens() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/acf-3-move-ballot.txt");
    let text = std::fs::read_to_string(path).expect("read data/acf-3-move-ballot.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.rsplit('|').next().unwrap().trim().to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The comparison.

/// Compares engine and reference on one position; returns the engine's moves as (text, FEN)
/// in sorted order (the same list as the reference's), or panics with a precise report.
fn compare(pos: &Position) -> Vec<(String, String)> {
    let board = Board::from_engine(pos);
    assert_eq!(
        board.to_engine(),
        *pos,
        "board round trip of {}",
        to_fen(pos)
    );
    let fen = board.fen();

    let mut engine: Vec<(String, String)> = Vec::new();
    for m in legal_moves(pos).iter() {
        let next = pos.play(m);
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "incremental hash differs from computed hash after {m} in {fen}"
        );
        engine.push((m.to_string(), to_fen(&next)));
    }
    engine.sort();

    let ref_moves = board.moves();
    let mut reference: Vec<(String, String)> = ref_moves
        .iter()
        .map(|m| (m.text(), board.play(m).fen()))
        .collect();
    reference.sort();

    if engine != reference {
        let missing: Vec<_> = reference.iter().filter(|x| !engine.contains(x)).collect();
        let extra: Vec<_> = engine.iter().filter(|x| !reference.contains(x)).collect();
        panic!(
            "move lists differ in {fen}\n  engine ({}): {:?}\n  reference ({}): {:?}\n  \
             missing from engine: {missing:?}\n  extra in engine: {extra:?}",
            engine.len(),
            engine.iter().map(|x| &x.0).collect::<Vec<_>>(),
            reference.len(),
            reference.iter().map(|x| &x.0).collect::<Vec<_>>(),
        );
    }
    assert_eq!(
        has_capture(pos),
        board.has_capture(),
        "has_capture disagrees in {fen}"
    );
    assert_eq!(
        perft(pos, 1),
        reference.len() as u64,
        "perft(1) disagrees with the move count in {fen}"
    );
    engine
}

/// Plays a seeded random game from `start`, comparing every position on the way.
/// Returns the number of positions compared.
fn random_game(start: Position, rng: &mut SplitMix, max_plies: usize) -> usize {
    let mut pos = start;
    let mut count = 0;
    for _ in 0..max_plies {
        let listed = compare(&pos);
        count += 1;
        if listed.is_empty() {
            break;
        }
        // Pick a move by its text in sorted order, so the choice does not depend on the
        // engine's generation order.
        let (text, _) = &listed[rng.below(listed.len())];
        let m = *legal_moves(&pos)
            .iter()
            .find(|m| &m.to_string() == text)
            .unwrap();
        pos = pos.play(&m);
    }
    count
}

#[test]
fn reference_geometry_matches_the_board_numbering() {
    // Numbering: square 1 = (row 0, col 1), its neighbours are 5 and 6; 4 and 29 single corners.
    assert_eq!(coords(1), (0, 1));
    assert_eq!(coords(4), (0, 7));
    assert_eq!(coords(5), (1, 0));
    assert_eq!(coords(29), (7, 0));
    assert_eq!(coords(32), (7, 6));
    for s in 1..=32 {
        let (r, c) = coords(s);
        assert_eq!(square(r, c), Some(s));
    }
    let b = Board::from_fen("B:W:B1");
    let texts: Vec<String> = b.moves().iter().map(RefMove::text).collect();
    assert_eq!(texts, ["1-5", "1-6"]);
    // The reference's own perft from the start position (published numbers).
    let start = Board::from_fen("B:W21-32:B1-12");
    let counts: Vec<u64> = (1..=6).map(|d| ref_perft(&start, d)).collect();
    assert_eq!(counts, [7, 49, 302, 1469, 7361, 36768]);
    // The king loop: two paths taking the same four pieces are two moves.
    let lp = Board::from_fen("B:W9,10,17,18:BK15");
    let mut texts: Vec<String> = lp.moves().iter().map(RefMove::text).collect();
    texts.sort();
    assert_eq!(texts, ["15x22x13x6x15", "15x6x13x22x15"]);
}

#[test]
fn differential_random_play_from_start() {
    let mut rng = SplitMix(0x5EED_0001);
    let mut n = 0;
    for _ in 0..150 {
        n += random_game(Position::start(), &mut rng, 200);
    }
    println!("random play from the start: {n} positions");
    assert!(n >= 5_000, "only {n} positions");
}

#[test]
fn differential_random_play_from_ballot_openings() {
    let fens = ballot_fens();
    assert_eq!(fens.len(), 174, "the ballot file has 174 openings");
    let mut rng = SplitMix(0x5EED_0002);
    let mut n = 0;
    for fen in &fens {
        let pos = parse_fen(fen).unwrap_or_else(|e| panic!("ballot FEN {fen}: {e}"));
        for _ in 0..2 {
            n += random_game(pos, &mut rng, 200);
        }
    }
    println!("random play from the ballot openings: {n} positions");
    assert!(n >= 10_000, "only {n} positions");
}

#[test]
fn differential_random_setups_with_kings() {
    let mut rng = SplitMix(0x5EED_0003);
    let mut n = 0;
    let mut with_capture = 0;
    for i in 0..30_000 {
        let board = random_setup(&mut rng, i % 4 != 3);
        let pos = board.to_engine();
        let listed = compare(&pos);
        if listed.first().is_some_and(|(t, _)| t.contains('x')) {
            with_capture += 1;
        }
        n += 1;
        // A short random continuation from some setups reaches positions a setup rarely makes.
        if i % 10 == 0 {
            n += random_game(pos, &mut rng, 20);
        }
    }
    println!("random setups: {n} positions, {with_capture} setups with a capture");
    assert!(n >= 30_000);
    assert!(with_capture >= 3_000, "too few captures: {with_capture}");
}

#[test]
fn differential_hand_made_positions() {
    for fen in [
        "B:W9,10,17,18:BK15",
        "B:W26,27:B22",
        "W:W11:B6,7",
        "B:W21-32:B1-12",
        "W:WK10,K14:BK1",
        "B:W6,7,14,15,22,23:BK1",
        "W:WK28:B6,7,14,15,22,23,K24",
    ] {
        let pos = parse_fen(fen).unwrap();
        assert_eq!(
            Board::from_engine(&pos),
            Board::from_fen(fen),
            "parse of {fen}"
        );
        compare(&pos);
    }
}

/// The entries of `tests/data/perft.txt` small enough for the reference perft agree with it.
#[test]
fn reference_perft_agrees_with_data_file() {
    let mut checked = 0;
    for c in perft_cases() {
        let (fen, depth, nodes) = (c.fen.as_str(), c.depth, c.nodes);
        if nodes > 1_000_000 {
            continue;
        }
        let board = Board::from_fen(fen);
        assert_eq!(
            ref_perft(&board, depth),
            nodes,
            "reference perft {fen} depth {depth}"
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} entries checked");
}

/// Prints reference perft counts for new data-file entries: `cargo test --test
/// movegen_reference print_reference_perft -- --ignored --nocapture` with `PERFT_FEN` and
/// `PERFT_DEPTH` set.
#[test]
#[ignore]
fn print_reference_perft() {
    let fen = std::env::var("PERFT_FEN").unwrap_or_else(|_| "B:W21-32:B1-12".to_string());
    let depth: u32 = std::env::var("PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(6);
    let board = Board::from_fen(&fen);
    for d in 1..=depth {
        println!("{fen} | {d} | {}", ref_perft(&board, d));
    }
}
