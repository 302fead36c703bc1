//! Text forms: PDN FEN (print, parse, accepted variants, one test per class of bad input),
//! move text (`11-15`, `11 15`, `15x24x31`, coordinates, the short form of a multi-capture) and
//! square names. Bad text must give an `Err` naming the bad token, never a panic.

mod common;

use checkers_ga::square_to_coord;
use checkers_ga::{legal_moves, parse_fen, parse_move, parse_square, to_fen, Color, Position};
use common::SplitMix;

// ---------------------------------------------------------------------------------------------
// Seeded random positions (splitmix64, seeded by constants).

/// Row 0..7 of square 1..32 (row r holds squares 4r+1..4r+4).
fn row(sq: u8) -> u8 {
    (sq - 1) / 4
}

/// A random legal setup: 0..=12 pieces a side, kings on both sides likely, men never on their
/// own crowning row (Black crowns on 29-32, White on 1-4), the given side to move.
fn random_setup(rng: &mut SplitMix, side: Color) -> Position {
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    let king_percent = [0, 25, 50, 100][rng.below(4)];
    for color in [Color::Black, Color::White] {
        let n = rng.below(13);
        for _ in 0..n {
            let king = rng.below(100) < king_percent;
            loop {
                let sq = 1 + rng.below(32) as u8;
                let bit = 1u32 << (sq - 1);
                let crown = match color {
                    Color::Black => 7,
                    Color::White => 0,
                };
                if (black | white) & bit != 0 || (!king && row(sq) == crown) {
                    continue;
                }
                match color {
                    Color::Black => black |= bit,
                    Color::White => white |= bit,
                }
                if king {
                    kings |= bit;
                }
                break;
            }
        }
    }
    Position::from_parts(black, white, kings, side)
}

fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = SplitMix(seed);
    (0..n)
        .map(|i| {
            let side = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            random_setup(&mut rng, side)
        })
        .collect()
}

/// Positions from seeded random games from the start: realistic move lists, captures included.
fn random_game_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        for _ in 0..150 {
            out.push(pos);
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    out
}

fn fen_err(text: &str) -> String {
    match parse_fen(text) {
        Ok(p) => panic!("{text:?} parsed as {}, expected an error", to_fen(&p)),
        Err(e) => e.to_string(),
    }
}

/// `text` is refused and the message names `token`.
fn assert_fen_err_names(text: &str, token: &str) {
    let msg = fen_err(text);
    assert!(
        msg.contains(token),
        "error for {text:?} should name {token:?}: {msg}"
    );
}

fn fen(text: &str) -> Position {
    parse_fen(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// FEN

#[test]
fn fen_round_trip_random_positions() {
    let mut positions = random_positions(0xF3E0_0001, 5_000);
    positions.extend(random_game_positions(0xF3E0_0002, 20));
    positions.push(Position::from_parts(0, 0, 0, Color::Black));
    positions.push(Position::from_parts(0, 0, 0, Color::White));
    for pos in positions {
        let text = to_fen(&pos);
        let back = parse_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, pos, "{text}");
        assert_eq!(back.hash(), pos.hash(), "{text}");
        assert_eq!(to_fen(&back), text);
    }
}

/// FEN written by hand in other valid ways (shuffled squares, either colour order, lower case,
/// quotes, trailing dot) reads back as the same position.
#[test]
fn fen_variants_of_random_positions() {
    let mut rng = SplitMix(0xF3E0_0003);
    for pos in random_positions(0xF3E0_0004, 2_000) {
        let mut fields = Vec::new();
        for c in [Color::Black, Color::White] {
            let mut items: Vec<String> = pos
                .pieces(c)
                .squares()
                .map(|sq| {
                    if pos.kings(c).contains(sq) {
                        format!("K{sq}")
                    } else {
                        sq.to_string()
                    }
                })
                .collect();
            for i in (1..items.len()).rev() {
                items.swap(i, rng.below(i + 1));
            }
            fields.push(format!("{}{}", c.letter(), items.join(",")));
        }
        if rng.below(2) == 0 {
            fields.swap(0, 1);
        }
        let mut text = format!("{}:{}", pos.side_to_move().letter(), fields.join(":"));
        if rng.below(3) == 0 {
            text = text.to_lowercase();
        }
        if rng.below(3) == 0 {
            text.push('.');
        }
        if rng.below(3) == 0 {
            text = format!("\"{text}\"");
        }
        assert_eq!(fen(&text), pos, "{text}");
    }
}

#[test]
fn fen_accepted_forms() {
    let p = fen("B:W21,22,K30:B1,2,3");
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.men(Color::White).squares().collect::<Vec<_>>(), [21, 22]);
    assert_eq!(p.kings(Color::White).squares().collect::<Vec<_>>(), [30]);
    assert_eq!(p.men(Color::Black).squares().collect::<Vec<_>>(), [1, 2, 3]);
    assert!(p.kings(Color::Black).is_empty());
    assert_eq!(to_fen(&p), "B:W21,22,K30:B1,2,3");

    let start = Position::start();
    for text in [
        "B:W21-32:B1-12",
        "B:B1-12:W21-32",
        "b:w21-32:b1-12",
        "b:b1-12:w21-32",
        "B:W21-32:B1-12.",
        "\"B:W21-32:B1-12\"",
        "\"B:W21-32:B1-12.\"",
        "  B:W21-32:B1-12  ",
        "B:W21,22,23,24,25-28,29-32:B1-4,5,6,7,8,9-12",
        "B:W32,31,30,29,28,27,26,25,24,23,22,21:B12,11,10,9,8,7,6,5,4,3,2,1",
        "[FEN \"B:W21-32:B1-12\"]",
    ] {
        assert_eq!(fen(text), start, "{text}");
    }
    assert_eq!(
        to_fen(&start),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );

    // King ranges, lower-case k, White to move.
    let k = fen("W:WK29-31,k32:bK1-3,4");
    assert_eq!(k.side_to_move(), Color::White);
    assert_eq!(k.kings(Color::White).count(), 4);
    assert_eq!(
        k.kings(Color::Black).squares().collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(k.men(Color::Black).squares().collect::<Vec<_>>(), [4]);
    assert_eq!(to_fen(&k), "W:WK29,K30,K31,K32:BK1,K2,K3,4");

    // A side may have no pieces at all.
    let e = fen("W:W:BK1");
    assert!(e.pieces(Color::White).is_empty());
    assert_eq!(to_fen(&e), "W:W:BK1");
    assert_eq!(to_fen(&fen("w:WK10,K14:BK1")), "W:WK10,K14:BK1");
}

#[test]
fn fen_unknown_colour() {
    assert_fen_err_names("X:W1:B2", "X");
    assert_fen_err_names("B:W21:R1", "R");
    assert_fen_err_names("B:Q21:B1", "Q");
    assert_fen_err_names("R:W21:B1", "R");
}

#[test]
fn fen_colour_listed_twice() {
    assert_fen_err_names("B:W21:W22", "W");
    assert_fen_err_names("B:B1:B2", "B");
}

#[test]
fn fen_square_zero() {
    assert_fen_err_names("B:W0:B1", "0");
    assert_fen_err_names("B:W21:BK0", "0");
    assert_fen_err_names("B:W21:B0-3", "0");
}

#[test]
fn fen_square_33() {
    assert_fen_err_names("B:W33:B1", "33");
    assert_fen_err_names("B:W21:BK33", "33");
    assert_fen_err_names("B:W30-33:B1", "33");
    assert_fen_err_names("B:W21:B1000", "1000");
}

#[test]
fn fen_square_listed_twice() {
    assert_fen_err_names("B:W21,21:B1", "21");
    assert_fen_err_names("B:W21:B21", "21");
    assert_fen_err_names("B:W21,K21:B1", "21");
    assert_fen_err_names("B:W17-22:B1,19", "19");
}

#[test]
fn fen_man_on_its_crowning_row() {
    // Black crowns on 29-32, White on 1-4: a man there would already be a king.
    for sq in 29..=32 {
        assert_fen_err_names(&format!("B:W21:B{sq}"), &sq.to_string());
        assert!(parse_fen(&format!("B:W21:BK{sq}")).is_ok());
        assert!(
            parse_fen(&format!("B:W{sq}:B1")).is_ok(),
            "White man on {sq}"
        );
    }
    for sq in 1..=4 {
        assert_fen_err_names(&format!("B:W{sq}:B12"), &sq.to_string());
        assert!(parse_fen(&format!("B:WK{sq}:B12")).is_ok());
        assert!(
            parse_fen(&format!("B:W21:B{sq}")).is_ok(),
            "Black man on {sq}"
        );
    }
    assert_fen_err_names("W:W21-32:B1-12,29", "29");
    assert_fen_err_names("W:W1-3:B12", "1");
}

#[test]
fn fen_garbage() {
    assert_fen_err_names("hello", "hello");
    assert_fen_err_names("B:W2a:B1", "2a");
    assert_fen_err_names("B:W21;22:B1", "21;22");
    fen_err("B:WK:B1");
    assert_fen_err_names("B:W32-21:B1", "32-21");
    assert_fen_err_names("B:W21,,22:B1", "W21,,22");
    assert_fen_err_names("B:W2x:B1", "2x");
    fen_err("B:W21:B1-");
    fen_err("B:W21:B-3");
    fen_err("B:W21:B1 2");
    fen_err("♔:W1:B2");
    fen_err("B:W½:B2");
}

#[test]
fn fen_empty() {
    fen_err("");
    fen_err("   ");
    fen_err("\"\"");
    fen_err(".");
}

#[test]
fn fen_missing_fields() {
    assert_fen_err_names("B", "B");
    assert_fen_err_names("B:W21", "B:W21");
    assert_fen_err_names("W21:B1", "W21:B1");
    assert_fen_err_names("B:W21:B1:W22", "B:W21:B1:W22");
    fen_err(":W21:B1");
    fen_err("B::B1");
    fen_err("B:W21:");
    fen_err("::");
}

/// Random strings over FEN-ish characters: parsing gives `Ok` or `Err`, never a panic, and
/// whatever parses prints back to something that parses to the same position.
#[test]
fn fen_fuzz_never_panics() {
    let alphabet: Vec<char> = "BWKbwkXx0123456789:,-.\" []é♔".chars().collect();
    let mut rng = SplitMix(0xF3E0_0005);
    let mut ok = 0;
    for _ in 0..50_000 {
        let len = rng.below(20);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(p) = parse_fen(&text) {
            ok += 1;
            assert_eq!(fen(&to_fen(&p)), p, "{text:?}");
        }
    }
    // Mutations of valid FEN hit the interesting cases far more often.
    for pos in random_positions(0xF3E0_0006, 5_000) {
        let mut chars: Vec<char> = to_fen(&pos).chars().collect();
        let i = rng.below(chars.len());
        match rng.below(3) {
            0 => chars[i] = alphabet[rng.below(alphabet.len())],
            1 => {
                chars.remove(i);
            }
            _ => chars.insert(i, alphabet[rng.below(alphabet.len())]),
        }
        let text: String = chars.into_iter().collect();
        if let Ok(p) = parse_fen(&text) {
            ok += 1;
            assert_eq!(fen(&to_fen(&p)), p, "{text:?}");
        }
    }
    assert!(ok > 0);
}

// ---------------------------------------------------------------------------------------------
// Squares

#[test]
fn square_names_round_trip() {
    for sq in 1..=32u8 {
        let name = square_to_coord(sq);
        assert_eq!(parse_square(&name), Ok(sq), "{sq} = {name}");
        assert_eq!(parse_square(&name.to_uppercase()), Ok(sq), "{sq} = {name}");
        assert_eq!(parse_square(&sq.to_string()), Ok(sq));
        // Square numbering, White at the bottom: row r = 0..7 is rank 8 - r; dark squares on
        // columns 1,3,5,7 of even rows and 0,2,4,6 of odd rows.
        let r = (sq - 1) / 4;
        let k = (sq - 1) % 4;
        let col = if r % 2 == 0 { 2 * k + 1 } else { 2 * k };
        let expect = format!("{}{}", (b'a' + col) as char, 8 - r);
        assert_eq!(name, expect, "square {sq}");
    }
    assert_eq!(square_to_coord(29), "a1");
    assert_eq!(square_to_coord(4), "h8");
    assert_eq!(square_to_coord(1), "b8");
    assert_eq!(square_to_coord(32), "g1");
    assert_eq!(square_to_coord(22), "c3");
    assert_eq!(square_to_coord(18), "d4");
}

#[test]
fn square_parse_errors() {
    for bad in [
        "0", "33", "-1", "", " ", "a8", "h1", "b1", "i1", "a9", "a0", "z5", "aa", "11a", "x", "e",
        "1.5", "٣", "é1",
    ] {
        assert!(parse_square(bad).is_err(), "{bad:?} should be refused");
    }
    let msg = parse_square("33").unwrap_err().to_string();
    assert!(msg.contains("33"), "{msg}");
    let msg = parse_square("a8").unwrap_err().to_string();
    assert!(msg.contains("a8"), "{msg}");
}

// ---------------------------------------------------------------------------------------------
// Move text

fn mv(pos: &Position, text: &str) -> String {
    match parse_move(pos, text) {
        Ok(m) => m.to_string(),
        Err(e) => panic!("{text:?} in {}: {e}", to_fen(pos)),
    }
}

fn move_err(pos: &Position, text: &str) -> String {
    match parse_move(pos, text) {
        Ok(m) => panic!("{text:?} in {} parsed as {m}", to_fen(pos)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn move_simple_forms() {
    let start = Position::start();
    assert_eq!(mv(&start, "11-15"), "11-15");
    assert_eq!(mv(&start, "11 15"), "11-15");
    assert_eq!(mv(&start, " 11-15 "), "11-15");
    assert_eq!(mv(&start, "11 - 15"), "11-15");
    assert_eq!(mv(&start, "9-13"), "9-13");
    assert_eq!(mv(&start, "12-16"), "12-16");
    let m = parse_move(&start, "11-15").unwrap();
    assert_eq!((m.from(), m.to(), m.is_capture()), (11, 15, false));
    assert_eq!(
        to_fen(&start.play(&m)),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );

    // White to move: 22-18 is c3-d4, 24-20 is g3-h4.
    let white = start.with_side(Color::White);
    assert_eq!(mv(&white, "22-18"), "22-18");
    assert_eq!(mv(&white, "c3-d4"), "22-18");
    assert_eq!(mv(&white, "C3-D4"), "22-18");
    assert_eq!(mv(&white, "c3 d4"), "22-18");
    assert_eq!(mv(&white, "g3-h4"), "24-20");
    // Black's 11-15 in coordinates: 11 = f6, 15 = e5.
    assert_eq!(mv(&start, "f6-e5"), "11-15");
}

#[test]
fn move_captures() {
    // Black man 15 jumps 19 to 24, then 27 to 31 (crowning).
    let p = fen("B:W19,27:B15");
    assert_eq!(mv(&p, "15x24x31"), "15x24x31");
    assert_eq!(mv(&p, "15 x 24 x 31"), "15x24x31");
    assert_eq!(mv(&p, "15X24X31"), "15x24x31");
    assert_eq!(mv(&p, "e5xg3xe1"), "15x24x31");
    // The short from-to form is accepted when only one capture joins the two squares.
    assert_eq!(mv(&p, "15x31"), "15x24x31");
    // Stopping half-way is not a move: the jump must go on.
    move_err(&p, "15x24");
    let m = parse_move(&p, "15x31").unwrap();
    assert_eq!(m.squares(), [15, 24, 31]);
    assert_eq!(m.capture_count(), 2);
    assert_eq!(to_fen(&p.play(&m)), "W:W:BK31");

    // A single jump.
    let q = fen("B:W19:B15");
    assert_eq!(mv(&q, "15x24"), "15x24");
    assert_eq!(mv(&q, "15 24"), "15x24");

    // White king multi-jump, White to move.
    let w = fen("W:WK28:B6,7,14,15,22,23,K24");
    let moves: Vec<String> = legal_moves(&w).iter().map(|m| m.to_string()).collect();
    for text in &moves {
        assert_eq!(&mv(&w, text), text);
    }
}

#[test]
fn move_short_form_ambiguous_king_loop() {
    let p = fen("B:W9,10,17,18:BK15");
    let a = mv(&p, "15x6x13x22x15");
    let b = mv(&p, "15x22x13x6x15");
    assert_eq!(a, "15x6x13x22x15");
    assert_eq!(b, "15x22x13x6x15");
    assert_ne!(
        parse_move(&p, "15x6x13x22x15").unwrap(),
        parse_move(&p, "15x22x13x6x15").unwrap()
    );
    let msg = move_err(&p, "15x15");
    assert!(msg.contains("15x15"), "{msg}");
    assert!(msg.contains("15x6x13x22x15"), "{msg}");
    assert!(msg.contains("15x22x13x6x15"), "{msg}");
    assert!(msg.to_lowercase().contains("ambiguous"), "{msg}");
}

/// Every legal move of many positions reads back from its own text, from its coordinate text,
/// and (for multi-jumps) from the short form exactly when that form is unambiguous.
#[test]
fn move_text_round_trip() {
    let mut positions = random_game_positions(0xF3E0_0007, 30);
    positions.extend(random_positions(0xF3E0_0008, 3_000));
    let mut short_ok = 0;
    let mut short_ambiguous = 0;
    for pos in positions {
        let moves = legal_moves(&pos);
        for m in moves.iter() {
            let text = m.to_string();
            assert_eq!(
                parse_move(&pos, &text),
                Ok(*m),
                "{text} in {}",
                to_fen(&pos)
            );
            let sep = if m.is_capture() { "x" } else { "-" };
            let coord: Vec<String> = m.squares().iter().map(|&s| square_to_coord(s)).collect();
            let coord = coord.join(sep);
            assert_eq!(
                parse_move(&pos, &coord),
                Ok(*m),
                "{coord} in {}",
                to_fen(&pos)
            );
            if m.capture_count() >= 2 {
                let short = format!("{}x{}", m.from(), m.to());
                let same_ends: Vec<String> = moves
                    .iter()
                    .filter(|o| o.from() == m.from() && o.to() == m.to())
                    .map(|o| o.to_string())
                    .collect();
                let exact = moves.iter().find(|o| o.squares() == [m.from(), m.to()]);
                match (exact, same_ends.len()) {
                    (Some(e), _) => assert_eq!(parse_move(&pos, &short), Ok(*e)),
                    (None, 1) => {
                        assert_eq!(parse_move(&pos, &short), Ok(*m));
                        short_ok += 1;
                    }
                    (None, _) => {
                        let msg = move_err(&pos, &short);
                        for c in &same_ends {
                            assert!(msg.contains(c.as_str()), "{short}: {msg} lacks {c}");
                        }
                        short_ambiguous += 1;
                    }
                }
            }
        }
    }
    assert!(short_ok > 100, "short forms tried: {short_ok}");
    assert!(
        short_ambiguous > 0,
        "ambiguous short forms tried: {short_ambiguous}"
    );
}

#[test]
fn move_illegal() {
    let start = Position::start();
    for text in [
        "11-14", "1-5", "21-17", "22-18", "11-15-19", "15-11", "11x18", "9x18", "12-17", "4-8",
        "1-1", "11-11",
    ] {
        move_err(&start, text);
    }
    // A capture is mandatory: the quiet move is refused and the message says why.
    let p = fen("B:W19:B1,15");
    let msg = move_err(&p, "1-5");
    assert!(msg.contains("1-5"), "{msg}");
    // The first jump of a double jump: the message says the jump goes on, and how.
    let p = fen("B:W18,27:B14");
    let msg = move_err(&p, "14x23");
    assert!(
        msg.contains("the jump must be continued: 14x23x32"),
        "{msg}"
    );
    assert!(!msg.contains("mandatory"), "{msg}");
    // Men do not move backwards; a crowned move cannot be undone.
    move_err(&fen("B:W32:B15"), "15-11");
    move_err(&fen("B:W32:B15"), "15-10");
    // No legal move at all.
    let none = fen("B:W21:B");
    move_err(&none, "1-5");
    // The ambiguous short form is only about captures: a quiet move with a wrong middle is wrong.
    move_err(&start, "11-15-18");
}

#[test]
fn move_out_of_range_squares() {
    let start = Position::start();
    for text in [
        "0-4",
        "11-33",
        "33-37",
        "11-0",
        "99x100",
        "11-4294967297",
        "i1-a1",
        "a9-b8",
    ] {
        move_err(&start, text);
    }
    let msg = move_err(&start, "11-33");
    assert!(msg.contains("33"), "{msg}");
    let msg = move_err(&start, "0-4");
    assert!(msg.contains('0'), "{msg}");
}

#[test]
fn move_garbage() {
    let start = Position::start();
    for text in [
        "",
        " ",
        "-",
        "x",
        "11",
        "11-",
        "hello",
        "a1",
        "11_15",
        "11/15",
        "11+15",
        "11-15?!?",
        "e4e5e6",
        "11–15",
        "１１-１５",
        "\u{0}",
        "x11x",
        "--",
        "11-1x",
        "11-15-",
        "11--15",
        "-11-15",
        "11-15 x",
        "11-:15",
    ] {
        assert!(
            parse_move(&start, text).is_err(),
            "{text:?} should be refused"
        );
    }
}

/// Random strings over move-ish characters: `Ok` or `Err`, never a panic; an `Ok` is legal.
#[test]
fn move_fuzz_never_panics() {
    let alphabet: Vec<char> = "0123456789-xX: abcdhijé".chars().collect();
    let mut rng = SplitMix(0xF3E0_0009);
    let positions = random_game_positions(0xF3E0_000A, 3);
    for i in 0..50_000 {
        let pos = positions[i % positions.len()];
        let len = rng.below(12);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Ok(m) = parse_move(&pos, &text) {
            assert!(legal_moves(&pos).iter().any(|l| *l == m), "{text:?}");
        }
    }
}
