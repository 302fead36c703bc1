//! Feature extraction: every parameter's value of a position for one player, reported to a
//! [`Trace`] by [`eval_trace`] (the 60) and [`all_trace`] (the 60 and the endgame parameters).

use super::names::{NUM_ALL, NUM_PARAMS};
use crate::board::{step, Color, Dir, Position, BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use crate::movegen;

/// Receives each parameter's value as [`eval_trace`] computes it (`param` is 0-based).
pub trait Trace {
    /// Receives the value of parameter `param`.
    fn add(&mut self, param: usize, value: i32);
}

/// Records the values: the feature vector (the 60, or the 60 and the endgame parameters).
pub struct FeatureVector<const N: usize>(pub [i32; N]);

impl<const N: usize> Trace for FeatureVector<N> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        if param < N {
            self.0[param] = value;
        }
    }
}

/// The 60 parameter values of `pos` for `player`, in the thesis's order.
pub fn features(pos: &Position, player: Color) -> [i32; NUM_PARAMS] {
    let mut t = FeatureVector([0; NUM_PARAMS]);
    eval_trace(pos, player, &mut t);
    t.0
}

/// The 60 parameter values and the endgame parameters, in the order of [`ALL_PARAMS`](super::ALL_PARAMS).
pub fn all_features(pos: &Position, player: Color) -> [i32; NUM_ALL] {
    let mut t = FeatureVector([0; NUM_ALL]);
    all_trace(pos, player, &mut t);
    t.0
}

/// Reports the parameters of the larger sets (the 60, then the endgame parameters). In a
/// [`king_ending`] only material (parameters 0..4), the chase and cornered terms and trade speak:
/// the 60's positional terms (and centre kings) are learnt from games with men on the board, and
/// there they would outweigh what converts such an ending (driving the lone kings out of the
/// double corners).
#[inline]
pub fn all_trace<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    if king_ending(pos) {
        eval_trace(pos, player, &mut KingEnding(t));
        endgame_trace(pos, player, &mut KingEnding(t));
    } else {
        eval_trace(pos, player, t);
        endgame_trace(pos, player, t);
    }
}

/// A king ending: one side has only kings left, and the other side has more kings.
#[inline]
pub fn king_ending(pos: &Position) -> bool {
    let ahead = |weak: Color| {
        let pieces = pos.pieces(weak).0;
        let kings = pos.kings(weak).0;
        pieces != 0
            && pieces == kings
            && pos.kings(weak.opposite()).0.count_ones() > kings.count_ones()
    };
    ahead(Color::Black) || ahead(Color::White)
}

/// Passes on only the material parameters (0..4) and the endgame parameters but centre kings.
struct KingEnding<'a, T>(&'a mut T);

impl<T: Trace> Trace for KingEnding<'_, T> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        if param < 4 || (NUM_PARAMS..NUM_PARAMS + 5).contains(&param) {
            self.0.add(param, value);
        }
    }
}

/// The squares nearest the corners a weaker king runs to: the two double corners.
const DOUBLE_CORNERS: [u8; 4] = [1, 5, 28, 32];
/// How much the weaker kings' distance from the double corners counts in the chase, against one
/// step of a stronger king towards them. A ratio of about 3 or more drives a lone king out of its
/// double corner at depths 2 to 6 (less lets the stronger kings crowd it and repeat): the chase
/// alone then converts whatever its (positive) weight, and `cornered_distance` refines it.
const CORNERED_IN_CHASE: i32 = 4;
/// The 8 centre squares.
const CENTRE8: u32 = sq(10) | sq(11) | sq(14) | sq(15) | sq(18) | sq(19) | sq(22) | sq(23);

/// Manhattan distance between two squares on the 8x8 board (rows plus columns, 0..14).
#[inline]
fn manhattan(a: u8, b: u8) -> i32 {
    use crate::board::{col_of, row_of};
    (row_of(a) as i32 - row_of(b) as i32).abs() + (col_of(a) as i32 - col_of(b) as i32).abs()
}

/// Squares (1..32) of a bitboard.
#[inline]
fn squares_of(mut b: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let s = b.trailing_zeros() as u8 + 1;
        b &= b - 1;
        Some(s)
    })
}

/// (chase, cornered) for a side `strong` with more kings than `weak` has, when the weak side has
/// only kings left: cornered is the sum over the weak kings of the distance to the nearest
/// double-corner square, and chase the sum over the strong side's kings of 14 minus the distance
/// to the nearest weak king, plus [`CORNERED_IN_CHASE`] times cornered. (0, 0) otherwise. While the weak side still has men, its kings in the double corners
/// are out of play rather than cornered, so these terms stay silent there.
#[inline]
fn chase(strong_kings: u32, weak: u32, weak_kings: u32) -> (i32, i32) {
    if strong_kings.count_ones() <= weak_kings.count_ones() || weak == 0 || weak != weak_kings {
        return (0, 0);
    }
    let mut chase = 0;
    for k in squares_of(strong_kings) {
        let nearest = squares_of(weak)
            .map(|o| manhattan(k, o))
            .min()
            .unwrap_or(14);
        chase += 14 - nearest;
    }
    let mut cornered = 0;
    for k in squares_of(weak_kings) {
        cornered += DOUBLE_CORNERS
            .iter()
            .map(|&c| manhattan(k, c))
            .min()
            .unwrap_or(0);
    }
    (chase + CORNERED_IN_CHASE * cornered, cornered)
}

/// Reports the endgame parameters (indices 60.. of [`ALL_PARAMS`](super::ALL_PARAMS)) of `pos` for `player`.
#[inline]
pub fn endgame_trace<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    let (own, opp) = (pos.pieces(player).0, pos.pieces(player.opposite()).0);
    let (own_k, opp_k) = (pos.kings(player).0, pos.kings(player.opposite()).0);
    let (mut c, mut oc) = ((0, 0), (0, 0));
    if own_k | opp_k != 0 {
        c = chase(own_k, opp, opp_k);
        oc = chase(opp_k, own, own_k);
    }
    let (np, no) = (own.count_ones() as i32, opp.count_ones() as i32);
    t.add(NUM_PARAMS, c.0);
    t.add(NUM_PARAMS + 1, oc.0);
    t.add(NUM_PARAMS + 2, c.1);
    t.add(NUM_PARAMS + 3, oc.1);
    t.add(NUM_PARAMS + 4, (np - no) * (24 - (np + no)).max(0));
    t.add(NUM_PARAMS + 5, (own_k & CENTRE8).count_ones() as i32);
}

// ---------------------------------------------------------------------------------------------
// Board geometry. Bit i = square i + 1; row r holds bits 4r..4r+3.

const fn sq(s: u32) -> u32 {
    1 << (s - 1)
}

/// The 14 border squares: 1-4, 29-32, 5, 13, 21, 12, 20, 28.
const WALL: u32 = 0xF000_000F | 0x1010_1010 | 0x0808_0808;
/// Rows 3 and 4 (squares 13-20): the middle rows for both sides.
const MIDDLE: u32 = 0x000F_F000;
/// Squares of rows 4-7, rows 2,3,6,7 and rows 1,3,5,7: the three bits of a square's row number.
const ROW_BIT2: u32 = 0xFFFF_0000;
const ROW_BIT1: u32 = 0xFF00_FF00;
const ROW_BIT0: u32 = 0xF0F0_F0F0;

/// Sum of the row numbers (0..7) of the squares of `b`.
#[inline(always)]
fn row_sum(b: u32) -> i32 {
    (4 * (b & ROW_BIT2).count_ones()
        + 2 * (b & ROW_BIT1).count_ones()
        + (b & ROW_BIT0).count_ones()) as i32
}

/// Squares with at least one occupied diagonal neighbour.
#[inline(always)]
fn neighbours(occ: u32) -> u32 {
    step(occ, Dir::UpLeft)
        | step(occ, Dir::UpRight)
        | step(occ, Dir::DownLeft)
        | step(occ, Dir::DownRight)
}

/// One side's geometry, as compile-time constants.
trait Side {
    const COLOR: Color;
    /// Directions its men move in.
    const FWD: [Dir; 2];
    /// The other two directions (kings only).
    const BACK: [Dir; 2];
    /// The row where its men crown.
    const CROWN: u32;
    const BOTTOM: u32;
    const TOP: u32;
    /// Its back-row single corner (a man there counts) and the opponent's (a king there counts).
    const CORNER_MAN: u32;
    const CORNER_KING: u32;
    const DOUBLE_CORNER: u32;
    const TRIANGLE: u32;
    const OREO: u32;
    const BRIDGE: u32;
    /// Dog: an own piece on `DOG_OWN` and an opponent piece on `DOG_OPP`.
    const DOG_OWN: u32;
    const DOG_OPP: u32;
    /// Sum of distances to the crowning row of the men `men`.
    fn promotion_distance(men: u32) -> i32;
}

struct Black;
struct White;

impl Side for Black {
    const COLOR: Color = Color::Black;
    const FWD: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    const BACK: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const CROWN: u32 = BLACK_CROWN_ROW;
    const BOTTOM: u32 = 0x0000_00FF; // 1-8
    const TOP: u32 = 0xFFF0_0000; // 21-32
    const CORNER_MAN: u32 = sq(4);
    const CORNER_KING: u32 = sq(29);
    const DOUBLE_CORNER: u32 = sq(1) | sq(5);
    const TRIANGLE: u32 = sq(1) | sq(2) | sq(6);
    const OREO: u32 = sq(2) | sq(3) | sq(7);
    const BRIDGE: u32 = sq(1) | sq(3);
    const DOG_OWN: u32 = sq(1);
    const DOG_OPP: u32 = sq(5);
    #[inline(always)]
    fn promotion_distance(men: u32) -> i32 {
        7 * men.count_ones() as i32 - row_sum(men)
    }
}

impl Side for White {
    const COLOR: Color = Color::White;
    const FWD: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const BACK: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    const CROWN: u32 = WHITE_CROWN_ROW;
    const BOTTOM: u32 = 0xFF00_0000; // 25-32
    const TOP: u32 = 0x0000_0FFF; // 1-12
    const CORNER_MAN: u32 = sq(29);
    const CORNER_KING: u32 = sq(4);
    const DOUBLE_CORNER: u32 = sq(28) | sq(32);
    const TRIANGLE: u32 = sq(27) | sq(31) | sq(32);
    const OREO: u32 = sq(26) | sq(30) | sq(31);
    const BRIDGE: u32 = sq(30) | sq(32);
    const DOG_OWN: u32 = sq(32);
    const DOG_OPP: u32 = sq(28);
    #[inline(always)]
    fn promotion_distance(men: u32) -> i32 {
        row_sum(men)
    }
}

/// The 30 values of one side (parameters 1-60 are these for P and O, interleaved).
#[derive(Default)]
struct SideStats {
    men: i32,
    kings: i32,
    wall_men: i32,
    wall_kings: i32,
    movable_men: i32,
    movable_kings: i32,
    moves: i32,
    has_capture: i32,
    captures: i32,
    longest_capture: i32,
    promotion_distance: i32,
    free_promotion: i32,
    bottom_men: i32,
    bottom_kings: i32,
    middle_men: i32,
    middle_kings: i32,
    top_men: i32,
    top_kings: i32,
    lonely_men: i32,
    lonely_kings: i32,
    corner_man: i32,
    corner_king: i32,
    double_corner: i32,
    triangle: i32,
    oreo: i32,
    bridge: i32,
    dog: i32,
    blocking: i32,
    block_lines: i32,
    longest_block_line: i32,
}

#[inline(always)]
fn pc(b: u32) -> i32 {
    b.count_ones() as i32
}

#[inline(always)]
fn all(b: u32, mask: u32) -> i32 {
    (b & mask == mask) as i32
}

/// Block lines along one diagonal orientation `d`: (number of maximal runs of 3 or more own
/// pieces, length of the longest such run or 0).
#[inline(always)]
fn runs(own: u32, d: Dir) -> (i32, i32) {
    let back = d.reverse();
    // l_k = squares starting a chain of k own pieces in direction d: l_{k+1} = own & (l_k - d).
    let l2 = own & step(own, back);
    let l3 = own & step(l2, back);
    if l3 == 0 {
        return (0, 0);
    }
    // A maximal run starts on an own piece whose neighbour behind (in -d) is not own.
    let start = own & !step(own, d);
    let count = pc(l3 & start);
    let mut longest = 3;
    let mut l = own & step(l3, back);
    while l != 0 {
        longest += 1;
        l = own & step(l, back);
    }
    (count, longest)
}

/// All values of side `S` (own pieces `own`, of which `kings` are kings; opponent pieces `opp`).
#[inline(always)]
fn side_stats<S: Side>(own: u32, kings: u32, opp: u32, has_neighbour: u32) -> SideStats {
    let men = own & !kings;
    let occ = own | opp;
    let empty = !occ;
    let mut s = SideStats {
        men: pc(men),
        kings: pc(kings),
        wall_men: pc(men & WALL),
        wall_kings: pc(kings & WALL),
        ..SideStats::default()
    };

    // Non-capturing steps: forward for every piece, backward for kings.
    let fwd0 = step(empty, S::FWD[0].reverse());
    let fwd1 = step(empty, S::FWD[1].reverse());
    let bk0 = step(empty, S::BACK[0].reverse());
    let bk1 = step(empty, S::BACK[1].reverse());
    let fwd_free = fwd0 | fwd1;
    s.movable_men = pc(men & fwd_free);
    s.movable_kings = pc(kings & (fwd_free | bk0 | bk1));

    let j = movegen::jumpers(S::COLOR, men, kings, opp, empty);
    if j != 0 {
        let (count, longest) = movegen::capture_stats(S::COLOR, kings, opp, empty, j);
        // At most a few hundred sequences and 12 pieces: both fit an i32.
        let (count, longest) = (count as i32, longest as i32);
        s.has_capture = 1;
        s.captures = count;
        s.longest_capture = longest;
        s.moves = count;
    } else {
        s.moves = pc(own & fwd0) + pc(own & fwd1) + pc(kings & bk0) + pc(kings & bk1);
    }

    s.promotion_distance = S::promotion_distance(men);
    s.free_promotion = pc(empty & S::CROWN);
    s.bottom_men = pc(men & S::BOTTOM);
    s.bottom_kings = pc(kings & S::BOTTOM);
    s.middle_men = pc(men & MIDDLE);
    s.middle_kings = pc(kings & MIDDLE);
    s.top_men = pc(men & S::TOP);
    s.top_kings = pc(kings & S::TOP);
    s.lonely_men = pc(men & !has_neighbour);
    s.lonely_kings = pc(kings & !has_neighbour);
    s.corner_man = (men & S::CORNER_MAN != 0) as i32;
    s.corner_king = (kings & S::CORNER_KING != 0) as i32;
    s.double_corner = all(men, S::DOUBLE_CORNER);
    s.triangle = all(own, S::TRIANGLE);
    s.oreo = all(own, S::OREO);
    s.bridge = all(own, S::BRIDGE);
    s.dog = ((own & S::DOG_OWN != 0) && (opp & S::DOG_OPP != 0)) as i32;

    // Blocking: an own piece on a forward neighbour.
    s.blocking = pc(own & (step(own, S::FWD[0].reverse()) | step(own, S::FWD[1].reverse())));
    let (c0, l0) = runs(own, Dir::UpLeft);
    let (c1, l1) = runs(own, Dir::UpRight);
    s.block_lines = c0 + c1;
    s.longest_block_line = l0.max(l1);
    s
}

/// Computes every parameter of `pos` for `player` and reports it to `t` (0-based index, thesis
/// order). The single definition behind [`evaluate`](super::evaluate) and [`features`].
///
/// On x86-64 the body is compiled a second time with the `popcnt` instruction enabled and chosen
/// at run time when the CPU has it (every x86-64 CPU since about 2008): the baseline target
/// counts bits with a dozen instructions each, which doubles the cost of an evaluation.
#[inline]
pub fn eval_trace<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports the only feature the function enables.
            return unsafe { eval_trace_popcnt(pos, player, t) };
        }
    }
    eval_body(pos, player, t)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
unsafe fn eval_trace_popcnt<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    eval_body(pos, player, t)
}

#[inline(always)]
fn eval_body<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    let black = pos.pieces(Color::Black).0;
    let white = pos.pieces(Color::White).0;
    let kings = pos.kings(Color::Black).0 | pos.kings(Color::White).0;
    let has_neighbour = neighbours(black | white);
    let b = side_stats::<Black>(black, kings & black, white, has_neighbour);
    let w = side_stats::<White>(white, kings & white, black, has_neighbour);
    match player {
        Color::Black => emit(&b, &w, t),
        Color::White => emit(&w, &b, t),
    }
}

/// Reports P's and O's values in the thesis's order (one call per parameter, so a weighted sum folds
/// each weight's index at compile time).
#[inline(always)]
fn emit<T: Trace>(p: &SideStats, o: &SideStats, t: &mut T) {
    t.add(0, p.men);
    t.add(1, p.kings);
    t.add(2, o.men);
    t.add(3, o.kings);
    t.add(4, p.wall_men);
    t.add(5, p.wall_kings);
    t.add(6, o.wall_men);
    t.add(7, o.wall_kings);
    t.add(8, p.movable_men);
    t.add(9, p.movable_kings);
    t.add(10, o.movable_men);
    t.add(11, o.movable_kings);
    t.add(12, p.moves);
    t.add(13, o.moves);
    t.add(14, p.has_capture);
    t.add(15, p.captures);
    t.add(16, p.longest_capture);
    t.add(17, o.has_capture);
    t.add(18, o.captures);
    t.add(19, o.longest_capture);
    t.add(20, p.promotion_distance);
    t.add(21, o.promotion_distance);
    t.add(22, p.free_promotion);
    t.add(23, o.free_promotion);
    t.add(24, p.bottom_men);
    t.add(25, p.bottom_kings);
    t.add(26, o.bottom_men);
    t.add(27, o.bottom_kings);
    t.add(28, p.middle_men);
    t.add(29, p.middle_kings);
    t.add(30, o.middle_men);
    t.add(31, o.middle_kings);
    t.add(32, p.top_men);
    t.add(33, p.top_kings);
    t.add(34, o.top_men);
    t.add(35, o.top_kings);
    t.add(36, p.lonely_men);
    t.add(37, p.lonely_kings);
    t.add(38, o.lonely_men);
    t.add(39, o.lonely_kings);
    t.add(40, p.corner_man);
    t.add(41, p.corner_king);
    t.add(42, p.double_corner);
    t.add(43, o.corner_man);
    t.add(44, o.corner_king);
    t.add(45, o.double_corner);
    t.add(46, p.triangle);
    t.add(47, p.oreo);
    t.add(48, p.bridge);
    t.add(49, p.dog);
    t.add(50, o.triangle);
    t.add(51, o.oreo);
    t.add(52, o.bridge);
    t.add(53, o.dog);
    t.add(54, p.blocking);
    t.add(55, p.block_lines);
    t.add(56, p.longest_block_line);
    t.add(57, o.blocking);
    t.add(58, o.block_lines);
    t.add(59, o.longest_block_line);
}
