// Evaluation weights exported by `checkers-ga export --format rust` from
// thesis-table-4-2.json (JSON weight file).
// Weight i multiplies parameter i of NAMES; each parameter is defined in docs/parameters.md of
// the checkers-ga repository (file formats: docs/formats.md). evaluate(black, white, kings,
// player_is_white) below is the whole evaluation with these weights, as checkers-ga computes it.
//
// NAMES: save as thesis_table_4_2.rs and declare `mod thesis_table_4_2;` (`export --prefix NAME`
// chooses the suggested name; by default it comes from the weight file's name). The names inside
// are not prefixed: each export is a module of its own, so the exports of other weights can live
// in the same crate.
//
// BOARD: a position is three 32-bit masks, black and white (each side's pieces) and kings (the
// kings of both): bit i is square i + 1, squares 1-32 as in PDN, Black starts on 1-12 and moves
// toward 32 (the start: black = 0x00000fff, white = 0xfff00000, kings = 0). SIDE below says
// which player a value is for and what a search calls; UNIT what a man is worth; CHECK the
// values of two positions to test a program against.
//
// SIDE: evaluate(black, white, kings, player_is_white) is the value for the player named,
// whoever is to move, and it is not antisymmetric (the two players' values of one position do
// not sum to 0). At the leaves of a negamax search call evaluate_for_root(black, white, kings,
// white_to_move, root_is_white): the value for the root player (the side choosing the move),
// negated where the opponent is to move, which is what checkers-ga's own search does; then the
// search plays as checkers-ga's (worked example before that function, at the end). A minimax
// search that always maximizes for Black, as many older engines do, calls
// evaluate_for_black(black, white, kings, white_to_move, root_is_white) at its leaves instead:
// the same value from Black's point of view.
//
// UNIT: one man is worth MAN_VALUE = 1 units: the median, over the positions of the 156 ballot
// openings in use (after their three moves), both players, and each man of the player, of the
// player's value minus its value with that man taken off the board; computed by checkers-ga
// export from these weights (at least 1). to_centimen(v) gives a value in hundredths of a man.
// These weights do not value a man: the median is -23817, so MAN_VALUE is 1 and to_centimen's
// values are not hundredths of a man.
//
// CHECK: `checkers-ga eval WEIGHTS [FEN]` prints a position's values with these weights; this
// module must give the same. The start position (black = 0x00000fff, white = 0xfff00000, kings =
// 0x00000000, Black to move): evaluate(black, white, kings, 0) = -1460863 (Black's value),
// evaluate(black, white, kings, 1) = -1460863 (White's), evaluate_side_to_move(black, white,
// kings, 0) = 0. W:W18,19,24,26,K7:B5,9,10,14,K28 (black = 0x08002310, white = 0x02860040, kings
// = 0x08000040, White to move): evaluate(black, white, kings, 0) = -665503 (Black's value),
// evaluate(black, white, kings, 1) = -455377 (White's), evaluate_side_to_move(black, white,
// kings, 1) = 105063.

/// The parameter set the weights are for.
pub const PARAMS: &str = "thesis60";

/// The 60 evaluation weights.
pub const WEIGHTS: [i16; 60] = [
    -27848, // 1 men
    0,      // 2 kings
    22520,  // 3 opp_men
    -24912, // 4 opp_kings
    25644,  // 5 wall_men
    0,      // 6 wall_kings
    0,      // 7 opp_wall_men
    27337,  // 8 opp_wall_kings
    0,      // 9 movable_men
    4708,   // 10 movable_kings
    6119,   // 11 opp_movable_men
    0,      // 12 opp_movable_kings
    21613,  // 13 moves
    0,      // 14 opp_moves
    0,      // 15 has_capture
    -28692, // 16 captures
    -20989, // 17 longest_capture
    -20551, // 18 opp_has_capture
    0,      // 19 opp_captures
    -13876, // 20 opp_longest_capture
    0,      // 21 promotion_distance
    -24871, // 22 opp_promotion_distance
    0,      // 23 free_promotion_squares
    -30665, // 24 opp_free_promotion_squares
    0,      // 25 bottom_men
    0,      // 26 bottom_kings
    0,      // 27 opp_bottom_men
    0,      // 28 opp_bottom_kings
    -24696, // 29 middle_men
    26462,  // 30 middle_kings
    -32375, // 31 opp_middle_men
    0,      // 32 opp_middle_kings
    0,      // 33 top_men
    27159,  // 34 top_kings
    0,      // 35 opp_top_men
    0,      // 36 opp_top_kings
    0,      // 37 lonely_men
    -20871, // 38 lonely_kings
    0,      // 39 opp_lonely_men
    11132,  // 40 opp_lonely_kings
    -25605, // 41 corner_man
    -32651, // 42 corner_king
    0,      // 43 double_corner
    0,      // 44 opp_corner_man
    0,      // 45 opp_corner_king
    25836,  // 46 opp_double_corner
    -25839, // 47 triangle
    1326,   // 48 oreo
    0,      // 49 bridge
    0,      // 50 dog
    0,      // 51 opp_triangle
    -618,   // 52 opp_oreo
    0,      // 53 opp_bridge
    14026,  // 54 opp_dog
    0,      // 55 blocking
    0,      // 56 block_lines
    0,      // 57 longest_block_line
    32446,  // 58 opp_blocking
    -28419, // 59 opp_block_lines
    0,      // 60 opp_longest_block_line
];

/// The parameter names, in the same order.
pub const NAMES: [&str; 60] = [
    "men",
    "kings",
    "opp_men",
    "opp_kings",
    "wall_men",
    "wall_kings",
    "opp_wall_men",
    "opp_wall_kings",
    "movable_men",
    "movable_kings",
    "opp_movable_men",
    "opp_movable_kings",
    "moves",
    "opp_moves",
    "has_capture",
    "captures",
    "longest_capture",
    "opp_has_capture",
    "opp_captures",
    "opp_longest_capture",
    "promotion_distance",
    "opp_promotion_distance",
    "free_promotion_squares",
    "opp_free_promotion_squares",
    "bottom_men",
    "bottom_kings",
    "opp_bottom_men",
    "opp_bottom_kings",
    "middle_men",
    "middle_kings",
    "opp_middle_men",
    "opp_middle_kings",
    "top_men",
    "top_kings",
    "opp_top_men",
    "opp_top_kings",
    "lonely_men",
    "lonely_kings",
    "opp_lonely_men",
    "opp_lonely_kings",
    "corner_man",
    "corner_king",
    "double_corner",
    "opp_corner_man",
    "opp_corner_king",
    "opp_double_corner",
    "triangle",
    "oreo",
    "bridge",
    "dog",
    "opp_triangle",
    "opp_oreo",
    "opp_bridge",
    "opp_dog",
    "blocking",
    "block_lines",
    "longest_block_line",
    "opp_blocking",
    "opp_block_lines",
    "opp_longest_block_line",
];

/// What one man is worth: the median, over the positions of the 156 ballot openings in use (after
/// their three moves), both players, and each man of the player, of the player's value minus its
/// value with that man taken off the board; computed by checkers-ga export from these weights (at
/// least 1).
pub const MAN_VALUE: i32 = 1;

// ---------------------------------------------------------------------------------------------
// The evaluation, as checkers-ga computes it (no dependencies).
//
// A position is three bitboards: `black` and `white` hold each side's pieces, `kings` the kings
// of both; bit i is square i + 1 (squares 1-32 as in PDN: Black starts on 1-12 and moves toward
// 32). The player (`player_is_white`) is the side the value is for, whoever is to move; the
// side to move changes nothing else. How a search calls it: see `evaluate_for_root` at the end.

const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;
const LEFT_EDGE: u32 = 0x1010_1010;
const RIGHT_EDGE: u32 = 0x0808_0808;
const WALL: u32 = 0xF000_000F | LEFT_EDGE | RIGHT_EDGE;
const MIDDLE: u32 = 0x000F_F000;
const ROW_BIT2: u32 = 0xFFFF_0000;
const ROW_BIT1: u32 = 0xFF00_FF00;
const ROW_BIT0: u32 = 0xF0F0_F0F0;
/// Directions: 0 up-left, 1 up-right (toward square 32), 2 down-left, 3 down-right; 3 - d is
/// the reverse of d.
const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];
/// The most jumps of one capture.
const MAX_JUMPS: u32 = 12;

/// Every square of `b` one step in direction `d`; squares that would leave the board vanish.
const fn step(b: u32, d: usize) -> u32 {
    match d {
        0 => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !LEFT_EDGE) << 3),
        1 => ((b & EVEN_ROWS & !RIGHT_EDGE) << 5) | ((b & ODD_ROWS) << 4),
        2 => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !LEFT_EDGE) >> 5),
        _ => ((b & EVEN_ROWS & !RIGHT_EDGE) >> 3) | ((b & ODD_ROWS) >> 4),
    }
}

const fn sq(s: u32) -> u32 {
    1 << (s - 1)
}

/// The 8 centre squares (10, 11, 14, 15, 18, 19, 22, 23).
const CENTRE8: u32 = sq(10) | sq(11) | sq(14) | sq(15) | sq(18) | sq(19) | sq(22) | sq(23);

fn pc(b: u32) -> i32 {
    b.count_ones() as i32
}

/// One side's geometry.
struct Side {
    /// The directions its men move in, then the other two.
    fwd: [usize; 2],
    back: [usize; 2],
    crown: u32,
    bottom: u32,
    top: u32,
    corner_man: u32,
    corner_king: u32,
    double_corner: u32,
    triangle: u32,
    oreo: u32,
    bridge: u32,
    dog_own: u32,
    dog_opp: u32,
    is_black: bool,
}

const BLACK: Side = Side {
    fwd: [0, 1],
    back: [2, 3],
    crown: 0xF000_0000,
    bottom: 0x0000_00FF,
    top: 0xFFF0_0000,
    corner_man: sq(4),
    corner_king: sq(29),
    double_corner: sq(1) | sq(5),
    triangle: sq(1) | sq(2) | sq(6),
    oreo: sq(2) | sq(3) | sq(7),
    bridge: sq(1) | sq(3),
    dog_own: sq(1),
    dog_opp: sq(5),
    is_black: true,
};

const WHITE: Side = Side {
    fwd: [2, 3],
    back: [0, 1],
    crown: 0x0000_000F,
    bottom: 0xFF00_0000,
    top: 0x0000_0FFF,
    corner_man: sq(29),
    corner_king: sq(4),
    double_corner: sq(28) | sq(32),
    triangle: sq(27) | sq(31) | sq(32),
    oreo: sq(26) | sq(30) | sq(31),
    bridge: sq(30) | sq(32),
    dog_own: sq(32),
    dog_opp: sq(28),
    is_black: false,
};

/// Sum of the row numbers (0 = squares 1-4 .. 7 = squares 29-32) of the squares of `b`.
fn row_sum(b: u32) -> i32 {
    4 * pc(b & ROW_BIT2) + 2 * pc(b & ROW_BIT1) + pc(b & ROW_BIT0)
}

/// The pieces of a side (men `men`, kings `kings`) that can jump now.
fn jumpers(s: &Side, men: u32, kings: u32, opp: u32, empty: u32) -> u32 {
    let mut j = 0;
    for d in s.fwd {
        j |= step(step(empty, 3 - d) & opp, 3 - d) & (men | kings);
    }
    for d in s.back {
        j |= step(step(empty, 3 - d) & opp, 3 - d) & kings;
    }
    j
}

/// (capture sequences, most pieces taken) from `cur`: taken pieces stay on the board until the
/// move ends, a man stops on its crowning row (`crown`, 0 for a king), at most 12 jumps.
fn jump_stats(
    dirs: &[usize],
    crown: u32,
    cur: u32,
    empty: u32,
    opp: u32,
    taken: u32,
    depth: u32,
) -> (i32, i32) {
    let mut count = 0;
    let mut longest = 0;
    for &d in dirs {
        let mid = step(cur, d) & opp & !taken;
        let land = step(mid, d) & empty;
        if land == 0 {
            continue;
        }
        let (c, l) = if land & crown != 0 || depth + 1 >= MAX_JUMPS {
            (1, depth as i32 + 1)
        } else {
            jump_stats(dirs, crown, land, empty, opp, taken | mid, depth + 1)
        };
        count += c;
        longest = longest.max(l);
    }
    if count == 0 {
        (1, depth as i32)
    } else {
        (count, longest)
    }
}

/// Block lines along diagonal `d`: (maximal runs of 3 or more own pieces, the longest or 0).
fn runs(own: u32, d: usize) -> (i32, i32) {
    let l2 = own & step(own, 3 - d);
    let l3 = own & step(l2, 3 - d);
    if l3 == 0 {
        return (0, 0);
    }
    let start = own & !step(own, d);
    let mut longest = 3;
    let mut l = own & step(l3, 3 - d);
    while l != 0 {
        longest += 1;
        l = own & step(l, 3 - d);
    }
    (pc(l3 & start), longest)
}

/// The 30 values of one side, in the order its parameters come (see `emit` below):
/// men, kings, wall men, wall kings, movable men, movable kings, moves, has capture, captures,
/// longest capture, promotion distance, free promotion squares, bottom men, bottom kings,
/// middle men, middle kings, top men, top kings, lonely men, lonely kings, corner man, corner
/// king, double corner, triangle, oreo, bridge, dog, blocking, block lines, longest block line.
fn side_stats(s: &Side, own: u32, kings: u32, opp: u32, has_neighbour: u32) -> [i32; 30] {
    let men = own & !kings;
    let empty = !(own | opp);
    let fwd0 = step(empty, 3 - s.fwd[0]);
    let fwd1 = step(empty, 3 - s.fwd[1]);
    let bk0 = step(empty, 3 - s.back[0]);
    let bk1 = step(empty, 3 - s.back[1]);
    let (mut has_capture, mut captures, mut longest) = (0, 0, 0);
    let moves;
    let mut j = jumpers(s, men, kings, opp, empty);
    if j != 0 {
        while j != 0 {
            let bit = j & j.wrapping_neg();
            j &= j - 1;
            // The origin is vacated for the whole move (a king may pass over it again).
            let (c, l) = if kings & bit != 0 {
                jump_stats(&ALL_DIRS, 0, bit, empty | bit, opp, 0, 0)
            } else {
                jump_stats(&s.fwd, s.crown, bit, empty | bit, opp, 0, 0)
            };
            captures += c;
            longest = longest.max(l);
        }
        has_capture = 1;
        moves = captures;
    } else {
        moves = pc(own & fwd0) + pc(own & fwd1) + pc(kings & bk0) + pc(kings & bk1);
    }
    let promotion = if s.is_black {
        7 * pc(men) - row_sum(men)
    } else {
        row_sum(men)
    };
    let all = |b: u32, mask: u32| (b & mask == mask) as i32;
    let (c0, l0) = runs(own, 0);
    let (c1, l1) = runs(own, 1);
    [
        pc(men),
        pc(kings),
        pc(men & WALL),
        pc(kings & WALL),
        pc(men & (fwd0 | fwd1)),
        pc(kings & (fwd0 | fwd1 | bk0 | bk1)),
        moves,
        has_capture,
        captures,
        longest,
        promotion,
        pc(empty & s.crown),
        pc(men & s.bottom),
        pc(kings & s.bottom),
        pc(men & MIDDLE),
        pc(kings & MIDDLE),
        pc(men & s.top),
        pc(kings & s.top),
        pc(men & !has_neighbour),
        pc(kings & !has_neighbour),
        (men & s.corner_man != 0) as i32,
        (kings & s.corner_king != 0) as i32,
        all(men, s.double_corner),
        all(own, s.triangle),
        all(own, s.oreo),
        all(own, s.bridge),
        (own & s.dog_own != 0 && opp & s.dog_opp != 0) as i32,
        pc(own & (step(own, 3 - s.fwd[0]) | step(own, 3 - s.fwd[1]))),
        c0 + c1,
        l0.max(l1),
    ]
}

/// Where each of the 60 parameters comes from: i for the player's value i (of the 30), 30 + i
/// for the opponent's.
const EMIT: [usize; 60] = [
    0, 1, 30, 31, 2, 3, 32, 33, 4, 5, 34, 35, 6, 36, 7, 8, 9, 37, 38, 39, 10, 40, 11, 41, 12, 13,
    42, 43, 14, 15, 44, 45, 16, 17, 46, 47, 18, 19, 48, 49, 20, 21, 22, 50, 51, 52, 23, 24, 25, 26,
    53, 54, 55, 56, 27, 28, 29, 57, 58, 59,
];

/// Manhattan distance between two squares (bit indices 0..31) on the 8x8 board.
fn manhattan(a: u32, b: u32) -> i32 {
    let col = |i: u32| (2 * (i % 4) + 1 - (i / 4) % 2) as i32;
    (a as i32 / 4 - b as i32 / 4).abs() + (col(a) - col(b)).abs()
}

/// (chase, cornered) of a side whose kings `strong_kings` outnumber the kings `weak_kings` of
/// a side `weak` that has nothing but kings; (0, 0) otherwise.
fn chase(strong_kings: u32, weak: u32, weak_kings: u32) -> (i32, i32) {
    if pc(strong_kings) <= pc(weak_kings) || weak == 0 || weak != weak_kings {
        return (0, 0);
    }
    let mut chase = 0;
    let mut k = strong_kings;
    while k != 0 {
        let a = k.trailing_zeros();
        k &= k - 1;
        let mut nearest = 14;
        let mut o = weak;
        while o != 0 {
            nearest = nearest.min(manhattan(a, o.trailing_zeros()));
            o &= o - 1;
        }
        chase += 14 - nearest;
    }
    let mut cornered = 0;
    let mut k = weak_kings;
    while k != 0 {
        let a = k.trailing_zeros();
        k &= k - 1;
        // The double-corner squares 1, 5, 28 and 32.
        cornered += [0, 4, 27, 31]
            .iter()
            .map(|&c| manhattan(a, c))
            .min()
            .unwrap_or(0);
    }
    (chase + 4 * cornered, cornered)
}

/// A king ending: one side has only kings left, and the other side has more kings.
fn king_ending(black: u32, white: u32, kings: u32) -> bool {
    let ahead = |weak: u32, strong: u32| {
        weak != 0 && weak & kings == weak && pc(strong & kings) > pc(weak & kings)
    };
    ahead(black, white) || ahead(white, black)
}

/// The 66 parameter values for the player, in weight order (the 60, then king_chase,
/// opp_king_chase, cornered_distance, opp_cornered_distance, trade, centre_kings). With
/// `king_ending_rule` (every set but thesis60), in a king ending only material (1-4), the chase
/// and cornered values and trade are given; the others are 0.
pub fn features(
    black: u32,
    white: u32,
    kings: u32,
    player_is_white: bool,
    king_ending_rule: bool,
) -> [i32; 66] {
    let occ = black | white;
    let has_neighbour = step(occ, 0) | step(occ, 1) | step(occ, 2) | step(occ, 3);
    let b = side_stats(&BLACK, black, kings & black, white, has_neighbour);
    let w = side_stats(&WHITE, white, kings & white, black, has_neighbour);
    let mut po = [0; 60];
    let (own, opp) = if player_is_white {
        po[..30].copy_from_slice(&w);
        po[30..].copy_from_slice(&b);
        (white, black)
    } else {
        po[..30].copy_from_slice(&b);
        po[30..].copy_from_slice(&w);
        (black, white)
    };
    let mut v = [0; 66];
    for (x, &i) in v.iter_mut().zip(EMIT.iter()) {
        *x = po[i];
    }
    let (own_k, opp_k) = (own & kings, opp & kings);
    let c = chase(own_k, opp, opp_k);
    let oc = chase(opp_k, own, own_k);
    let (np, no) = (pc(own), pc(opp));
    v[60] = c.0;
    v[61] = oc.0;
    v[62] = c.1;
    v[63] = oc.1;
    v[64] = (np - no) * (24 - (np + no)).max(0);
    v[65] = pc(own_k & CENTRE8);
    if king_ending_rule && king_ending(black, white, kings) {
        for (i, x) in v.iter_mut().enumerate() {
            if !(i < 4 || (60..65).contains(&i)) {
                *x = 0;
            }
        }
    }
    v
}

/// The weighted sum of the values `v` with the weights starting at `WEIGHTS[from]`.
fn weighted_sum(v: &[i32], from: usize) -> i64 {
    v.iter()
        .zip(&WEIGHTS[from..])
        .map(|(&x, &w)| x as i64 * w as i64)
        .sum()
}

/// The value saturated to -2^30..=2^30 (never reached by real positions).
fn saturate(sum: i64) -> i32 {
    sum.clamp(-(1 << 30), 1 << 30) as i32
}

/// The evaluation of the position for the player: the weighted sum of the 60 values, saturated to
/// -2^30..=2^30.
pub fn evaluate(black: u32, white: u32, kings: u32, player_is_white: bool) -> i32 {
    let v = features(black, white, kings, player_is_white, false);
    saturate(weighted_sum(&v[..60], 0))
}

// ---------------------------------------------------------------------------------------------
// How a search calls it.
//
// The value is for the player named, and it is NOT antisymmetric: for one position,
// `evaluate(b, w, k, false) + evaluate(b, w, k, true)` is not 0 (the weights were evolved with
// a search that always asks for the same player). checkers-ga's own search (a negamax
// alpha-beta) evaluates every leaf for the ROOT player, the side choosing the move, and negates
// the value at nodes where the opponent is to move. `evaluate_for_root` does exactly that: call
// it at the leaves of a negamax search, passing the side to move at the leaf and the side to
// move at the root, and the search plays as checkers-ga's does (same values, same best moves).
//
// Worked example: the root is Black to move (`root_is_white = false`). A leaf 3 plies down has
// White to move; its negamax value is `-evaluate(b, w, k, false)` (Black's value, negated
// because White is to move), which is what `evaluate_for_root(b, w, k, true, false)` returns.
// A leaf 4 plies down (Black to move) gets `+evaluate(b, w, k, false)`. A minimax (not negamax)
// search that maximizes for the root player simply uses `evaluate(b, w, k, root_is_white)`.
//
// A minimax search that always maximizes for BLACK (Black maximizes, White minimizes, at every
// node, whoever is at the root), as many older engines do, calls `evaluate_for_black` at its
// leaves: the root player's value from Black's point of view (negated when White is the root
// player), passing the side to move at the leaf and at the root. It then plays as checkers-ga's
// search does (same best moves; its root value, negated when White is at the root, is
// checkers-ga's). A Black-maximizing search that cannot pass the root player down may use
// Black's view of the side-to-move value: `evaluate_side_to_move(..)`, negated when White is to
// move.
//
// A search that cannot pass the root player down may call `evaluate_side_to_move`: the
// antisymmetric value (the side to move's value minus the opponent's, halved), for the side to
// move. It costs two evaluations and does not play exactly as checkers-ga (the weights were not
// evolved for it). Do not call `evaluate(b, w, k, side_to_move)` at the leaves of a negamax
// search: that mixes the two players' functions (in one trial with the hour's weights in
// another engine it scored -2 Elo where `evaluate_for_root` scored +40).

/// The negamax value of a leaf: the root player's value ([`evaluate`] for `root_is_white`),
/// negated when the other side is to move at the leaf. What checkers-ga's search computes at
/// its leaves.
pub fn evaluate_for_root(
    black: u32,
    white: u32,
    kings: u32,
    white_to_move: bool,
    root_is_white: bool,
) -> i32 {
    let v = evaluate(black, white, kings, root_is_white);
    if white_to_move == root_is_white {
        v
    } else {
        -v
    }
}

/// The leaf value of a minimax search that always maximizes for Black: the root player's value
/// ([`evaluate`] for `root_is_white`), from Black's point of view, so negated when White is the
/// root player. Equal to [`evaluate_for_root`] negated where White is to move at the leaf. With
/// Black maximizing and White minimizing over it, the search plays as checkers-ga's.
pub fn evaluate_for_black(
    black: u32,
    white: u32,
    kings: u32,
    white_to_move: bool,
    root_is_white: bool,
) -> i32 {
    let v = evaluate_for_root(black, white, kings, white_to_move, root_is_white);
    if white_to_move {
        -v
    } else {
        v
    }
}

/// The antisymmetric value for the side to move: (own value - opponent's value) / 2, rounded
/// toward 0, so that the two sides' values of one position always sum to 0.
pub fn evaluate_side_to_move(black: u32, white: u32, kings: u32, white_to_move: bool) -> i32 {
    let own = evaluate(black, white, kings, white_to_move) as i64;
    let opp = evaluate(black, white, kings, !white_to_move) as i64;
    ((own - opp) / 2) as i32
}

/// A value of these functions in hundredths of a man (a man = 100, rounded toward 0):
/// `v * 100 / MAN_VALUE`. Distinct values may become equal: search with the raw values to play
/// as checkers-ga does, and use this for margins, thresholds and display.
pub fn to_centimen(v: i32) -> i32 {
    (v as i64 * 100 / MAN_VALUE as i64) as i32
}
