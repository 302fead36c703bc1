//! Yardsticks: two fixed evaluations written by hand, to measure evolved weights against
//! opponents that nobody tuned on the same games, and [`Evaluator`], which lets the search use
//! them (or a weight vector) at its leaves.
//!
//! Both are frozen: changing a value would change every measurement made against them.
//!
//! Values are from `player`'s point of view (positive = good for `player`), whoever is to move,
//! in points where a man is worth 100. Both are colour-symmetric: rotating the board by 180
//! degrees and swapping the colours and the side to move gives the same value for the other
//! player. Each costs a few tens of nanoseconds (bitboard masks and popcounts).
//!
//! Board geometry: square `s` (1..32) stands on row `(s - 1) / 4`, counted from Black's back row
//! (squares 1-4, row 0) to White's (29-32, row 7); its column (0..7 = files a..h, with White at
//! the bottom square 29 is a1) is `2 * ((s - 1) % 4) + 1` on even rows and `2 * ((s - 1) % 4)`
//! on odd rows. The single corners are 4 and 29, the double corners 1, 5 and 28, 32.
//!
//! # `hand`
//!
//! A value function from a student report on the two-kings-against-one ending, with its
//! weaknesses (no mobility, no structure, the same weights in every phase). Each side scores its
//! own pieces and the value is the player's score minus the opponent's, plus the chase:
//! - man 100, king 300;
//! - +5 for a piece (man or king) on the four centre columns c-f (columns 2-5: the 16 squares
//!   2, 3, 6, 7, 10, 11, ..., 30, 31, those with `(s - 1) % 4` equal to 1 or 2);
//! - +10 for a man on the a- or h-file (columns 0 and 7: squares 4, 5, 12, 13, 20, 21, 28, 29);
//! - +15 for a man on 1, 4, 29 or 32, the squares the report calls its double corners (the ends
//!   of both back rows; a man stands only on its own back row, so these are Black men on 1 and 4
//!   and White men on 29 and 32);
//! - -25 for a king on a corner square: the single corners 4 and 29 (the two dark squares in a
//!   corner of the board) and the double corners 1, 5 and 28, 32 (the two squares at each light
//!   corner);
//! - -8 for a king on any edge: the 14 border squares 1-4, 29-32, 5, 13, 21, 12, 20, 28 (a king
//!   on a corner square is on an edge too and loses both);
//! - the chase: when both sides have kings and one has more, that side gets `10 * (14 - d)`,
//!   where `d` is the average Manhattan distance (rows apart plus columns apart) over all pairs
//!   of one of its kings and one of the other side's kings, the product rounded toward zero. A
//!   side without kings gives no pair and no chase.
//!
//! # `classic`
//!
//! The classical terms of hand-written checkers evaluations (Samuel's and later engines'):
//! material, trading when ahead, back-rank guard, centre, tempo, cramp, edge men, double corner,
//! turn, king mobility and the endgame chase. Every term and its value is described at
//! [`Classic`]; the values are [`CLASSIC`], tuned by hand with depth-6 matches over the ballot
//! against `material` and `hand`, then frozen.
//!
//! # Example
//!
//! ```
//! use checkers_ga::Color;
//! use checkers_ga::material;
//! use checkers_ga::parse_fen;
//! use checkers_ga::Evaluator;
//!
//! let hand = Evaluator::yardstick("hand").unwrap();
//! assert!(Evaluator::yardstick("nobody").is_none());
//! assert!(hand.weights().is_none());
//! let pos = parse_fen("W:W32:B1,2").unwrap();
//! assert!(hand.evaluate(&pos, Color::Black) > 0);
//! let weighted = Evaluator::from(material());
//! assert_eq!(weighted.weights(), Some(&material()));
//! ```

use crate::board::{col_of, row_of, step, Color, Dir, Position};
use crate::eval::{self, Weights};

// ---------------------------------------------------------------------------------------------
// Board geometry. Bit i = square i + 1.

/// Squares whose column lies in `lo..=hi`.
const fn columns(lo: u8, hi: u8) -> u32 {
    let mut m = 0;
    let mut s = 1;
    while s <= 32 {
        let c = col_of(s);
        if c >= lo && c <= hi {
            m |= 1 << (s - 1);
        }
        s += 1;
    }
    m
}

/// Squares whose row lies in `lo..=hi`.
const fn rows(lo: u8, hi: u8) -> u32 {
    let mut m = 0;
    let mut s = 1;
    while s <= 32 {
        let r = row_of(s);
        if r >= lo && r <= hi {
            m |= 1 << (s - 1);
        }
        s += 1;
    }
    m
}

/// The set of the listed squares.
const fn squares(list: &[u8]) -> u32 {
    let mut m = 0;
    let mut i = 0;
    while i < list.len() {
        m |= 1 << (list[i] - 1);
        i += 1;
    }
    m
}

/// Row (0..7) and column (0..7) of each square, by bit index.
const ROW: [i32; 32] = {
    let mut t = [0; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = row_of(i as u8 + 1) as i32;
        i += 1;
    }
    t
};
const COL: [i32; 32] = {
    let mut t = [0; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = col_of(i as u8 + 1) as i32;
        i += 1;
    }
    t
};

/// Columns c-f.
const CENTRE_COLUMNS: u32 = columns(2, 5);
/// Files a and h.
const SIDE_FILES: u32 = columns(0, 0) | columns(7, 7);
/// The 14 border squares.
const EDGE: u32 = rows(0, 0) | rows(7, 7) | SIDE_FILES;
/// The single corners (4, 29) and the double corners (1, 5 and 28, 32).
const CORNERS: u32 = squares(&[1, 4, 5, 28, 29, 32]);
/// The two double corners.
const DOUBLE_CORNERS: u32 = squares(&[1, 5, 28, 32]);
/// The squares `hand` rewards a man for: the ends of both back rows.
const HAND_MAN_CORNERS: u32 = squares(&[1, 4, 29, 32]);

const _: () = assert!(CENTRE_COLUMNS.count_ones() == 16 && SIDE_FILES.count_ones() == 8);
const _: () = assert!(EDGE.count_ones() == 14);

#[inline(always)]
fn pc(b: u32) -> i32 {
    b.count_ones() as i32
}

/// Squares of `b` whose neighbour in direction `d` is in `set`.
#[inline(always)]
fn facing(b: u32, d: Dir, set: u32) -> u32 {
    b & step(set, d.reverse())
}

/// Defines `pub fn $name(pos, player) -> i32` running `$body`, which is compiled a second time
/// with the `popcnt` instruction and chosen at run time when the CPU has it (as
/// [`eval::eval_trace`] does): the baseline x86-64 target counts bits with a dozen instructions
/// each.
macro_rules! with_popcnt {
    ($(#[$doc:meta])* $name:ident, $fast:ident, $body:ident) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(pos: &Position, player: Color) -> i32 {
            #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
            {
                if std::arch::is_x86_feature_detected!("popcnt") {
                    // SAFETY: the CPU supports the only feature the function enables.
                    return unsafe { $fast(pos, player) };
                }
            }
            $body(pos, player)
        }

        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        #[target_feature(enable = "popcnt")]
        unsafe fn $fast(pos: &Position, player: Color) -> i32 {
            $body(pos, player)
        }
    };
}

// ---------------------------------------------------------------------------------------------
// hand

/// One side's score in `hand`, without the chase.
#[inline(always)]
fn hand_side(men: u32, kings: u32) -> i32 {
    100 * pc(men)
        + 300 * pc(kings)
        + 5 * pc((men | kings) & CENTRE_COLUMNS)
        + 10 * pc(men & SIDE_FILES)
        + 15 * pc(men & HAND_MAN_CORNERS)
        - 25 * pc(kings & CORNERS)
        - 8 * pc(kings & EDGE)
}

/// `10 * (14 - average Manhattan distance)` over all pairs of a king of `strong` and a king of
/// `weak` (both non-empty), rounded toward zero.
fn hand_chase(strong: u32, weak: u32) -> i32 {
    let (mut sum, mut pairs) = (0, 0);
    let mut s = strong;
    while s != 0 {
        let i = s.trailing_zeros() as usize;
        s &= s - 1;
        let mut w = weak;
        while w != 0 {
            let j = w.trailing_zeros() as usize;
            w &= w - 1;
            sum += (ROW[i] - ROW[j]).abs() + (COL[i] - COL[j]).abs();
            pairs += 1;
        }
    }
    10 * (14 * pairs - sum) / pairs
}

#[inline(always)]
fn hand_body(pos: &Position, player: Color) -> i32 {
    let opp = player.opposite();
    let (pm, pk) = (pos.men(player).0, pos.kings(player).0);
    let (om, ok) = (pos.men(opp).0, pos.kings(opp).0);
    let mut v = hand_side(pm, pk) - hand_side(om, ok);
    let (np, no) = (pc(pk), pc(ok));
    if np > no && no > 0 {
        v += hand_chase(pk, ok);
    } else if no > np && np > 0 {
        v -= hand_chase(ok, pk);
    }
    v
}

with_popcnt!(
    /// The `hand` yardstick (see the module documentation): the value of `pos` for `player`,
    /// whoever is to move.
    hand,
    hand_popcnt,
    hand_body
);

// ---------------------------------------------------------------------------------------------
// classic

/// The values of [`classic`], in points (a man is 100).
///
/// Every term is counted for each side as seen from its own back row (its men move away from
/// it: for White the board is turned by 180 degrees, square `s` read as `33 - s`), and the value
/// is the player's terms minus the opponent's, plus the shared terms (trade, turn). Terms with an
/// opening and an endgame value are mixed by the number of pieces on the board `n` (24 at the
/// start): `(open * n + end * (24 - n)) / 24`, applied to the difference between the two sides
/// and rounded toward zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classic {
    /// Material: a man.
    pub man: i32,
    /// Material: a king.
    pub king: i32,
    /// Trade when ahead: `trade * (own material - opponent material) / (all material)`, with
    /// material counted as above and the quotient rounded toward zero, so the side ahead gains
    /// by exchanging pieces and the side behind by avoiding it.
    pub trade: i32,
    /// Back-rank guard: each own man on the own back row (Black 1-4, White 29-32), opening and
    /// endgame values...
    pub back_open: i32,
    /// The guard's endgame value.
    pub back_end: i32,
    /// ...and, opening only, the extra for holding both bridge squares (Black 1 and 3, White 30
    /// and 32).
    pub bridge: i32,
    /// The guard (both values) is divided by this, rounded toward zero, while the opponent has
    /// a king.
    pub back_king_divisor: i32,
    /// Centre control: a man, and a king, on the 8 central squares 10, 11, 14, 15, 18, 19, 22,
    /// 23.
    pub centre_man: i32,
    /// Centre control: a king.
    pub centre_king: i32,
    /// Tempo: per row advanced (0 on the own back row, 6 one row short of crowning), summed
    /// over the own men, opening and endgame values.
    pub tempo_open: i32,
    /// Tempo's endgame value.
    pub tempo_end: i32,
    /// Cramp: an own man in the opponent's half (Black rows 4-6, squares 17-28; White squares
    /// 5-16) with an opponent piece on a square in front of it that cannot jump it (neither
    /// square behind the man is empty).
    pub cramp: i32,
    /// Men on the side edges: a man on the a- or h-file off the back rows (squares 5, 12, 13,
    /// 20, 21, 28).
    pub edge_man: i32,
    /// Intact double corner: own men on both squares of the own double corner (Black 1 and 5,
    /// White 28 and 32).
    pub double_corner: i32,
    /// Side to move: for the side to move, against the other.
    pub turn: i32,
    /// King mobility: each empty square next to an own king (counted once per king)...
    pub king_mobility: i32,
    /// ...and each own king with none.
    pub trapped_king: i32,
    /// The chase, for the side with more kings when the other side has at least one and the
    /// stronger side has no less material: each king of the weaker side on the border (the 14
    /// edge squares) is worth `chase_edge` to it, each in a double corner (1, 5, 28, 32)
    /// `chase_double`, and each king of the stronger side `chase_near` per king step (the larger
    /// of rows and columns apart) to the nearest king of the weaker side.
    pub chase_edge: i32,
    /// The chase: a weaker king in a double corner.
    pub chase_double: i32,
    /// The chase: per king step from a stronger king to the nearest weaker king.
    pub chase_near: i32,
}

/// The frozen values of [`classic`].
pub const CLASSIC: Classic = Classic {
    man: 100,
    king: 150,
    trade: 1200,
    back_open: 24,
    back_end: 8,
    bridge: 15,
    back_king_divisor: 2,
    centre_man: 2,
    centre_king: 8,
    tempo_open: -2,
    tempo_end: 2,
    cramp: 6,
    edge_man: -2,
    double_corner: 6,
    turn: 3,
    king_mobility: 2,
    trapped_king: -10,
    chase_edge: 10,
    chase_double: -25,
    chase_near: -6,
};

/// One side's pieces and the opponent's, turned so that the side's men move up (toward row 7),
/// as Black's do: White's are rotated by 180 degrees (bit `i` to bit `31 - i`).
#[derive(Clone, Copy)]
struct View {
    men: u32,
    kings: u32,
    opp_men: u32,
    opp_kings: u32,
}

impl View {
    #[inline(always)]
    fn of(pos: &Position, c: Color) -> View {
        let o = c.opposite();
        let v = View {
            men: pos.men(c).0,
            kings: pos.kings(c).0,
            opp_men: pos.men(o).0,
            opp_kings: pos.kings(o).0,
        };
        match c {
            Color::Black => v,
            Color::White => View {
                men: v.men.reverse_bits(),
                kings: v.kings.reverse_bits(),
                opp_men: v.opp_men.reverse_bits(),
                opp_kings: v.opp_kings.reverse_bits(),
            },
        }
    }
}

/// The own back row, the bridge squares, the own double corner, the opponent's half (rows 4-6)
/// and the central squares, for a side whose men move up.
const BACK_ROW: u32 = rows(0, 0);
const BRIDGE: u32 = squares(&[1, 3]);
const OWN_DOUBLE_CORNER: u32 = squares(&[1, 5]);
const OPP_HALF: u32 = rows(4, 6);
const CENTRE: u32 = squares(&[10, 11, 14, 15, 18, 19, 22, 23]);
/// Squares of rows 4-7, rows 2,3,6,7 and rows 1,3,5,7: the three bits of a square's row number.
const ROW_BIT2: u32 = rows(4, 7);
const ROW_BIT1: u32 = rows(2, 3) | rows(6, 7);
const ROW_BIT0: u32 = rows(1, 1) | rows(3, 3) | rows(5, 5) | rows(7, 7);

/// Sum of the row numbers of the squares of `b`.
#[inline(always)]
fn row_sum(b: u32) -> i32 {
    4 * pc(b & ROW_BIT2) + 2 * pc(b & ROW_BIT1) + pc(b & ROW_BIT0)
}

/// One side's tapered (opening, endgame) and plain terms in `classic`.
#[inline(always)]
fn classic_side(v: &View, c: &Classic) -> (i32, i32, i32) {
    let own = v.men | v.kings;
    let opp = v.opp_men | v.opp_kings;
    let empty = !(own | opp);
    let mut open = 0;
    let mut end = 0;
    let mut plain = c.man * pc(v.men) + c.king * pc(v.kings);

    // Back-rank guard.
    let back = pc(v.men & BACK_ROW);
    let bridge = (v.men & BRIDGE == BRIDGE) as i32;
    let (mut bo, mut be) = (c.back_open * back + c.bridge * bridge, c.back_end * back);
    if v.opp_kings != 0 && c.back_king_divisor > 1 {
        bo /= c.back_king_divisor;
        be /= c.back_king_divisor;
    }
    open += bo;
    end += be;

    // Tempo.
    let tempo = row_sum(v.men);
    open += c.tempo_open * tempo;
    end += c.tempo_end * tempo;

    plain += c.centre_man * pc(v.men & CENTRE) + c.centre_king * pc(v.kings & CENTRE);
    plain += c.edge_man * pc(v.men & SIDE_FILES & !BACK_ROW);
    plain += c.double_corner * (v.men & OWN_DOUBLE_CORNER == OWN_DOUBLE_CORNER) as i32;

    // Cramp: in the opponent's half, an opponent piece in front, both squares behind not empty.
    let faced = facing(v.men, Dir::UpLeft, opp) | facing(v.men, Dir::UpRight, opp);
    let open_behind = facing(v.men, Dir::DownLeft, empty) | facing(v.men, Dir::DownRight, empty);
    plain += c.cramp * pc(v.men & OPP_HALF & faced & !open_behind);

    // King mobility.
    if v.kings != 0 {
        let mut free = 0;
        let mut any = 0;
        for d in Dir::ALL {
            let f = facing(v.kings, d, empty);
            free += pc(f);
            any |= f;
        }
        plain += c.king_mobility * free + c.trapped_king * pc(v.kings & !any);
    }
    (open, end, plain)
}

/// The chase for the side of `v` (it has more kings and no less material).
#[inline(always)]
fn classic_chase(v: &View, c: &Classic) -> i32 {
    let weak = v.opp_kings;
    let mut s = c.chase_edge * pc(weak & EDGE) + c.chase_double * pc(weak & DOUBLE_CORNERS);
    let mut k = v.kings;
    while k != 0 {
        let i = k.trailing_zeros() as usize;
        k &= k - 1;
        let mut near = 7;
        let mut w = weak;
        while w != 0 {
            let j = w.trailing_zeros() as usize;
            w &= w - 1;
            near = near.min((ROW[i] - ROW[j]).abs().max((COL[i] - COL[j]).abs()));
        }
        s += c.chase_near * near;
    }
    s
}

#[inline(always)]
fn classic_body(pos: &Position, player: Color) -> i32 {
    let c = &CLASSIC;
    let me = View::of(pos, player);
    let them = View::of(pos, player.opposite());
    let (o1, e1, p1) = classic_side(&me, c);
    let (o2, e2, p2) = classic_side(&them, c);
    let n = pc(me.men | me.kings | them.men | them.kings).min(24);
    let mut v = p1 - p2 + ((o1 - o2) * n + (e1 - e2) * (24 - n)) / 24;

    let m1 = c.man * pc(me.men) + c.king * pc(me.kings);
    let m2 = c.man * pc(them.men) + c.king * pc(them.kings);
    if m1 + m2 > 0 {
        v += c.trade * (m1 - m2) / (m1 + m2);
    }
    v += if pos.side_to_move() == player {
        c.turn
    } else {
        -c.turn
    };

    let (k1, k2) = (pc(me.kings), pc(them.kings));
    if k1 > k2 && k2 > 0 && m1 >= m2 {
        v += classic_chase(&me, c);
    } else if k2 > k1 && k1 > 0 && m2 >= m1 {
        v -= classic_chase(&them, c);
    }
    v
}

with_popcnt!(
    /// The `classic` yardstick with the values of [`CLASSIC`]: the value of `pos` for `player`,
    /// whoever is to move.
    classic,
    classic_popcnt,
    classic_body
);

// ---------------------------------------------------------------------------------------------
// Evaluator

/// What a search evaluates its leaves with: a weight vector (the weighted sum of its parameter
/// set) or one of the yardsticks.
///
/// Weights are held by value so an evaluator is `Copy` like them: a few hundred bytes, copied
/// once per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[allow(clippy::large_enum_variant)]
pub enum Evaluator {
    /// The weighted sum of a parameter set ([`eval::evaluate`]).
    Weighted(Weights),
    /// The [`hand`] yardstick.
    Hand,
    /// The [`classic`] yardstick.
    Classic,
}

impl Evaluator {
    /// Value of `pos` for `player` (whoever is to move); |value| <= [`eval::MAX_EVAL`].
    #[inline]
    pub fn evaluate(&self, pos: &Position, player: Color) -> i32 {
        match self {
            Evaluator::Weighted(w) => eval::evaluate(pos, player, w),
            Evaluator::Hand => hand(pos, player),
            Evaluator::Classic => classic(pos, player),
        }
    }

    /// The built-in yardstick of this name (`hand`, `classic`).
    pub fn yardstick(name: &str) -> Option<Evaluator> {
        match name {
            "hand" => Some(Evaluator::Hand),
            "classic" => Some(Evaluator::Classic),
            _ => None,
        }
    }

    /// The weights, for a weighted evaluator.
    pub fn weights(&self) -> Option<&Weights> {
        match self {
            Evaluator::Weighted(w) => Some(w),
            _ => None,
        }
    }
}

impl From<Weights> for Evaluator {
    fn from(w: Weights) -> Evaluator {
        Evaluator::Weighted(w)
    }
}
