//! Legal move generation and perft (the rules in words: docs/rules.md).
//!
//! Captures are mandatory; a jump sequence continues while it can; any capture sequence may be
//! chosen; a man that reaches the crowning row stops there. Pieces taken during a sequence stay
//! on the board until the move ends (they cannot be jumped twice, nor landed on).
//!
//! # Example
//!
//! ```
//! use checkers_ga::Position;
//! use checkers_ga::{legal_moves, perft};
//!
//! let pos = Position::start();
//! assert_eq!(legal_moves(&pos).len(), 7);
//! assert_eq!(perft(&pos, 4), 1469);
//! ```

use crate::board::{
    step, Color, Dir, Move, MoveList, Position, BLACK_CROWN_ROW, MAX_JUMPS, WHITE_CROWN_ROW,
};

/// Directions a man of colour `c` moves in.
#[inline(always)]
const fn forward(c: Color) -> [Dir; 2] {
    match c {
        Color::Black => [Dir::UpLeft, Dir::UpRight],
        Color::White => [Dir::DownLeft, Dir::DownRight],
    }
}

#[inline(always)]
const fn crown_row(c: Color) -> u32 {
    match c {
        Color::Black => BLACK_CROWN_ROW,
        Color::White => WHITE_CROWN_ROW,
    }
}

/// The pieces of the side to move that have a jump available right now.
#[inline]
pub(crate) fn jumpers(us: Color, men: u32, kings: u32, opp: u32, empty: u32) -> u32 {
    let mut j = 0;
    let pieces = men | kings;
    for d in forward(us) {
        let back = d.reverse();
        // A piece jumps in `d` when an opponent stands one step ahead and the next is empty.
        j |= step(step(empty, back) & opp, back) & pieces;
    }
    for d in forward(us.opposite()) {
        let back = d.reverse();
        j |= step(step(empty, back) & opp, back) & kings;
    }
    j
}

/// Does the side to move have a capture?
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    let (us, men, kings, opp, empty) = split(pos);
    jumpers(us, men, kings, opp, empty) != 0
}

#[inline(always)]
fn split(pos: &Position) -> (Color, u32, u32, u32, u32) {
    let (b, w, k) = pos.raw();
    let us = pos.side_to_move();
    let (own, opp) = match us {
        Color::Black => (b, w),
        Color::White => (w, b),
    };
    (us, own & !k, own & k, opp, !(b | w))
}

/// (Has the side to move a capture?, has it any legal move?) from one look at the board.
///
/// Always inlined: the search calls it at every leaf of each of its per-evaluator copies, and a
/// call there costs about 1 % of the search.
#[inline(always)]
pub fn capture_and_any_move(pos: &Position) -> (bool, bool) {
    let (us, men, kings, opp, empty) = split(pos);
    if jumpers(us, men, kings, opp, empty) != 0 {
        (true, true)
    } else {
        (false, count_quiet(us, men, kings, empty) > 0)
    }
}

/// Does the side to move have any legal move? (Cheap: no list is built.)
#[inline]
pub fn has_any_move(pos: &Position) -> bool {
    let (us, men, kings, opp, empty) = split(pos);
    count_quiet(us, men, kings, empty) > 0 || jumpers(us, men, kings, opp, empty) != 0
}

/// Generates every legal move of the side to move into `list` (cleared first).
pub fn generate(pos: &Position, list: &mut MoveList) {
    list.clear();
    let (us, men, kings, opp, empty) = split(pos);
    let j = jumpers(us, men, kings, opp, empty);
    if j != 0 {
        generate_captures(us, men, kings, opp, empty, j, list);
    } else {
        generate_quiet(us, men, kings, empty, list);
    }
}

/// Generates the legal moves into a new list. The list is 4 KiB, and where this is inlined the
/// compiler may build it here and copy it over (seen in `parse_hub_move`, where the copy cost
/// twenty times the generation; `#[inline]` attributes either way do not help): on a path
/// taken every move, [`generate`] into a list of the caller's own.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut l = MoveList::new();
    generate(pos, &mut l);
    l
}

fn generate_quiet(us: Color, men: u32, kings: u32, empty: u32, list: &mut MoveList) {
    for d in forward(us) {
        let mut movers = step(empty, d.reverse()) & (men | kings);
        while movers != 0 {
            let from = movers.trailing_zeros();
            movers &= movers - 1;
            let to = step(1 << from, d).trailing_zeros();
            list.push(Move::from_parts(from as u8, to as u8, 0, 0, 0));
        }
    }
    for d in forward(us.opposite()) {
        let mut movers = step(empty, d.reverse()) & kings;
        while movers != 0 {
            let from = movers.trailing_zeros();
            movers &= movers - 1;
            let to = step(1 << from, d).trailing_zeros();
            list.push(Move::from_parts(from as u8, to as u8, 0, 0, 0));
        }
    }
}

/// Number of legal non-capturing moves (valid only when the side has no capture).
#[inline]
fn count_quiet(us: Color, men: u32, kings: u32, empty: u32) -> u64 {
    let mut n = 0;
    for d in forward(us) {
        n += (step(men | kings, d) & empty).count_ones();
    }
    for d in forward(us.opposite()) {
        n += (step(kings, d) & empty).count_ones();
    }
    n as u64
}

struct JumpCtx<'a> {
    from: u8,
    king: bool,
    dirs: &'a [Dir],
    opp: u32,
    crown: u32,
}

fn generate_captures(
    us: Color,
    men: u32,
    kings: u32,
    opp: u32,
    empty: u32,
    jumpers: u32,
    list: &mut MoveList,
) {
    let crown = crown_row(us);
    let mut b = jumpers;
    while b != 0 {
        let from = b.trailing_zeros();
        b &= b - 1;
        let bit = 1u32 << from;
        let king = kings & bit != 0;
        debug_assert!(king || men & bit != 0);
        let dirs: &[Dir] = if king {
            &Dir::ALL
        } else {
            match us {
                Color::Black => &[Dir::UpLeft, Dir::UpRight],
                Color::White => &[Dir::DownLeft, Dir::DownRight],
            }
        };
        let ctx = JumpCtx {
            from: from as u8,
            king,
            dirs,
            opp,
            crown,
        };
        // The origin is vacated for the whole sequence (a king may come back to it).
        jump(&ctx, bit, empty | bit, 0, 0, 0, list);
    }
}

fn jump(
    ctx: &JumpCtx,
    cur: u32,
    empty: u32,
    captured: u32,
    path: u64,
    depth: u32,
    list: &mut MoveList,
) {
    let mut continued = false;
    for &d in ctx.dirs {
        let mid = step(cur, d) & ctx.opp & !captured;
        if mid == 0 {
            continue;
        }
        let land = step(mid, d) & empty;
        if land == 0 {
            continue;
        }
        continued = true;
        let captured2 = captured | mid;
        let to = land.trailing_zeros();
        if (!ctx.king && land & ctx.crown != 0) || depth + 1 >= MAX_JUMPS as u32 {
            list.push(Move::from_parts(
                ctx.from,
                to as u8,
                (depth + 1) as u8,
                captured2,
                path,
            ));
        } else {
            let path2 = path | ((to as u64) << (5 * depth));
            jump(ctx, land, empty, captured2, path2, depth + 1, list);
        }
    }
    if !continued && depth > 0 {
        // `path` holds every landing; the last one is the destination, not part of the path.
        let to = cur.trailing_zeros() as u8;
        let path = path & !(31u64 << (5 * (depth - 1)));
        list.push(Move::from_parts(ctx.from, to, depth as u8, captured, path));
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (jump paths counted apart).
///
/// Bulk counting: at the last ply the moves are counted, not played. The recursion works on raw
/// side-relative bitboards with the colour as a compile-time parameter and keeps no hash.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let (b, w, k) = pos.raw();
    match pos.side_to_move() {
        Color::Black => perft_raw::<true>(b, w, k, depth),
        Color::White => perft_raw::<false>(w, b, k, depth),
    }
}

#[inline(always)]
const fn color_of<const BLACK: bool>() -> Color {
    if BLACK {
        Color::Black
    } else {
        Color::White
    }
}

/// How a piece jumps: its directions and where it must stop (0 for a king: nowhere).
trait Jumper {
    const DIRS: &'static [Dir];
    const CROWN: u32;
}

struct KingJumps;
struct BlackManJumps;
struct WhiteManJumps;

impl Jumper for KingJumps {
    const DIRS: &'static [Dir] = &Dir::ALL;
    const CROWN: u32 = 0;
}

impl Jumper for BlackManJumps {
    const DIRS: &'static [Dir] = &forward(Color::Black);
    const CROWN: u32 = BLACK_CROWN_ROW;
}

impl Jumper for WhiteManJumps {
    const DIRS: &'static [Dir] = &forward(Color::White);
    const CROWN: u32 = WHITE_CROWN_ROW;
}

/// (number of jump sequences, most pieces taken) from `cur`, exactly as [`generate`] makes
/// them (taken pieces stay until the move ends, a man stops on its crowning row, a sequence is
/// cut at `MAX_JUMPS`), without storing them.
fn jump_stats<J: Jumper>(cur: u32, empty: u32, opp: u32, taken: u32, depth: u32) -> (u32, u32) {
    let mut count = 0;
    let mut longest = 0;
    for &d in J::DIRS {
        let mid = step(cur, d) & opp & !taken;
        let land = step(mid, d) & empty;
        if land == 0 {
            continue;
        }
        let (c, l) = if land & J::CROWN != 0 || depth + 1 >= MAX_JUMPS as u32 {
            (1, depth + 1)
        } else {
            jump_stats::<J>(land, empty, opp, taken | mid, depth + 1)
        };
        count += c;
        longest = longest.max(l);
    }
    if count == 0 {
        (1, depth)
    } else {
        (count, longest)
    }
}

/// (number of capture moves, most pieces taken) of side `us` whose pieces with a jump are
/// `jumpers` (from [`jumpers`]); used by perft's bulk count and by the evaluation.
pub(crate) fn capture_stats(
    us: Color,
    kings: u32,
    opp: u32,
    empty: u32,
    jumpers: u32,
) -> (u32, u32) {
    let mut count = 0;
    let mut longest = 0;
    let mut b = jumpers;
    while b != 0 {
        let bit = b & b.wrapping_neg();
        b &= b - 1;
        // The origin is vacated for the whole move (a king may pass over it again).
        let (c, l) = if kings & bit != 0 {
            jump_stats::<KingJumps>(bit, empty | bit, opp, 0, 0)
        } else if us == Color::Black {
            jump_stats::<BlackManJumps>(bit, empty | bit, opp, 0, 0)
        } else {
            jump_stats::<WhiteManJumps>(bit, empty | bit, opp, 0, 0)
        };
        count += c;
        longest = longest.max(l);
    }
    (count, longest)
}

fn perft_raw<const BLACK: bool>(own: u32, opp: u32, kings: u32, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let us = color_of::<BLACK>();
    let empty = !(own | opp);
    let men = own & !kings;
    let okings = own & kings;
    let j = jumpers(us, men, okings, opp, empty);
    if depth == 1 {
        return if j == 0 {
            count_quiet(us, men, okings, empty)
        } else {
            capture_stats(us, okings, opp, empty, j).0 as u64
        };
    }
    let mut total = 0;
    if j != 0 {
        let mut list = MoveList::new();
        generate_captures(us, men, okings, opp, empty, j, &mut list);
        for m in list.iter() {
            let from = 1u32 << (m.from() - 1);
            let to = 1u32 << (m.to() - 1);
            let cap = m.captured().0;
            let is_king = kings & from != 0 || to & crown_row(us) != 0;
            let own2 = (own & !from) | to;
            let opp2 = opp & !cap;
            let kings2 = (kings & !from & !cap) | if is_king { to } else { 0 };
            total += if BLACK {
                perft_raw::<false>(opp2, own2, kings2, depth - 1)
            } else {
                perft_raw::<true>(opp2, own2, kings2, depth - 1)
            };
        }
        return total;
    }
    let crown = crown_row(us);
    let mut each = |movers: u32, d: Dir| {
        let mut m = movers;
        while m != 0 {
            let from = m & m.wrapping_neg();
            m &= m - 1;
            let to = step(from, d);
            let own2 = own ^ from ^ to;
            let kings2 = if kings & from != 0 {
                kings ^ from ^ to
            } else if to & crown != 0 {
                kings | to
            } else {
                kings
            };
            total += if BLACK {
                perft_raw::<false>(opp, own2, kings2, depth - 1)
            } else {
                perft_raw::<true>(opp, own2, kings2, depth - 1)
            };
        }
    };
    for d in forward(us) {
        each(step(empty, d.reverse()) & own, d);
    }
    if okings != 0 {
        for d in forward(us.opposite()) {
            each(step(empty, d.reverse()) & okings, d);
        }
    }
    total
}

/// Perft split by root move: `(move, count)` in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(pos)
        .iter()
        .map(|m| (*m, perft(&pos.play(m), depth - 1)))
        .collect()
}
