//! Board representation: bitboards, colours, squares, positions and moves.
//!
//! Squares are numbered 1..32 (row `r` holds squares `4r+1..4r+4`, rows
//! counted from Black's side). Internally bit `i` of a `u32` is square `i + 1`.
//! Black moves "up" (toward square 32), White moves "down" (toward square 1).
//!
//! # Example
//!
//! ```
//! use checkers_ga::{Color, Position};
//!
//! let pos = Position::start();
//! assert_eq!(pos.side_to_move(), Color::Black);
//! assert_eq!(pos.pieces(Color::Black).count(), 12);
//! assert!(pos.pieces(Color::Black).contains(1) && pos.pieces(Color::White).contains(32));
//! assert_eq!(pos.kings(Color::White).count(), 0);
//! assert_eq!(pos.empty().count(), 8);
//! ```

use std::fmt;

/// A set of squares: bit `i` is square `i + 1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// The set with no square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only square `sq` (1..=32).
    #[inline]
    pub const fn square(sq: u8) -> Bitboard {
        Bitboard(1 << (sq - 1))
    }

    #[inline]
    /// How many squares the set holds (0..=32).
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    /// Whether the set holds no square.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    /// Whether the set holds square `sq` (1..=32; 0 or above 32 is out of range).
    pub const fn contains(self, sq: u8) -> bool {
        self.0 & (1 << (sq - 1)) != 0
    }

    /// Square numbers in increasing order.
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.squares()).finish()
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterator over the square numbers of a [`Bitboard`].
pub struct Squares(u32);

impl Iterator for Squares {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(i as u8 + 1)
        }
    }
}

/// The two sides. Black starts on squares 1-12 and moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Color {
    /// The side that moves first, from squares 1-12.
    Black,
    /// The side that moves second, from squares 21-32.
    White,
}

impl Color {
    #[inline]
    /// The other side.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"Black"` or `"White"`, as shown to people.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The FEN letter, `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

/// Row (0..7, from Black's side) of a square 1..=32.
#[inline]
pub const fn row_of(sq: u8) -> u8 {
    (sq - 1) / 4
}

/// Column (0..7) of a square 1..=32.
#[inline]
pub const fn col_of(sq: u8) -> u8 {
    let r = row_of(sq);
    let k = (sq - 1) % 4;
    if r.is_multiple_of(2) {
        2 * k + 1
    } else {
        2 * k
    }
}

/// The square at (row, column), if that is a dark square on the board.
pub const fn square_at(row: i32, col: i32) -> Option<u8> {
    if row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 == 0 {
        return None;
    }
    Some((row * 4 + col / 2 + 1) as u8)
}

// Masks of the row-parity classes and edges used by the shift tables.
pub(crate) const EVEN_ROWS: u32 = 0x0F0F_0F0F;
pub(crate) const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// Squares 5, 13, 21, 29: column 0.
pub(crate) const LEFT_EDGE: u32 = 0x1010_1010;
/// Squares 4, 12, 20, 28: column 7.
pub(crate) const RIGHT_EDGE: u32 = 0x0808_0808;
/// Row 7 (squares 29-32), where Black crowns.
pub const BLACK_CROWN_ROW: u32 = 0xF000_0000;
/// Row 0 (squares 1-4), where White crowns.
pub const WHITE_CROWN_ROW: u32 = 0x0000_000F;

/// The four diagonal directions. "Up" is toward square 32 (Black's forward).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// Toward square 32 (Black's forward) and column 0.
    UpLeft = 0,
    /// Toward square 32 (Black's forward) and column 7.
    UpRight = 1,
    /// Toward square 1 (White's forward) and column 0.
    DownLeft = 2,
    /// Toward square 1 (White's forward) and column 7.
    DownRight = 3,
}

/// Moves every square of `b` one step in direction `d`; squares that would leave the board vanish.
#[inline(always)]
pub const fn step(b: u32, d: Dir) -> u32 {
    match d {
        Dir::UpLeft => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !LEFT_EDGE) << 3),
        Dir::UpRight => ((b & EVEN_ROWS & !RIGHT_EDGE) << 5) | ((b & ODD_ROWS) << 4),
        Dir::DownLeft => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !LEFT_EDGE) >> 5),
        Dir::DownRight => ((b & EVEN_ROWS & !RIGHT_EDGE) >> 3) | ((b & ODD_ROWS) >> 4),
    }
}

impl Dir {
    /// The four directions, in the order of their discriminants.
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

    /// The direction pointing back.
    #[inline(always)]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }
}

/// A legal move: origin, destination, captured squares and the landing squares in between.
///
/// Two jump paths that take the same pieces differ only in `path`, so they are two moves.
/// (Serialisable for the opening moves of a match's game jobs; a move from elsewhere is played
/// only once found among the legal moves.)
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Move {
    /// Origin square bit index (0..31).
    from: u8,
    /// Destination square bit index (0..31).
    to: u8,
    /// Number of jumps (0 for a simple move).
    jumps: u8,
    /// Squares taken (bits), empty for a simple move.
    captured: u32,
    /// Intermediate landing squares (bit indices), 5 bits each, first landing in the low bits.
    path: u64,
}

/// The most jumps a move can hold in its packed path (12 opponent pieces at most).
pub const MAX_JUMPS: usize = 12;

impl Move {
    /// A simple (non-capturing) move between two squares (1..=32).
    pub fn simple(from: u8, to: u8) -> Move {
        Move {
            from: from - 1,
            to: to - 1,
            ..Move::default()
        }
    }

    #[inline]
    pub(crate) fn from_parts(from: u8, to: u8, jumps: u8, captured: u32, path: u64) -> Move {
        Move {
            from,
            to,
            jumps,
            captured,
            path,
        }
    }

    /// Origin square (1..=32).
    #[inline]
    pub fn from(&self) -> u8 {
        self.from + 1
    }

    /// Destination square (1..=32).
    #[inline]
    pub fn to(&self) -> u8 {
        self.to + 1
    }

    /// The squares whose pieces this move takes.
    #[inline]
    pub fn captured(&self) -> Bitboard {
        Bitboard(self.captured)
    }

    #[inline]
    /// Whether the move jumps at least one piece.
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// Number of pieces taken.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.jumps as u32
    }

    /// Every square the piece stands on: origin, each landing square, destination.
    pub fn squares(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.jumps as usize + 2);
        v.push(self.from + 1);
        if self.jumps > 1 {
            for k in 0..(self.jumps as usize - 1) {
                v.push(((self.path >> (5 * k)) & 31) as u8 + 1);
            }
        }
        v.push(self.to + 1);
        v
    }
}

/// The standard move text: `11-15`, `15x24`, `15x24x31` (every landing square).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        let sq = self.squares();
        for (i, s) in sq.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// A fixed-capacity list of moves, filled by the move generator without allocating.
pub struct MoveList {
    moves: [std::mem::MaybeUninit<Move>; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// More than any reachable position needs (the widest known have well under 100 moves).
    pub const CAPACITY: usize = 256;

    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            // SAFETY: an array of `MaybeUninit` needs no initialisation. (Written this way,
            // not as `[MaybeUninit::uninit(); N]`, which the compiler was seen to zero-fill:
            // a 4 KiB memset at every search node.)
            moves: unsafe {
                std::mem::MaybeUninit::<[std::mem::MaybeUninit<Move>; MoveList::CAPACITY]>::uninit()
                    .assume_init()
            },
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if self.len < Self::CAPACITY {
            self.moves[self.len] = std::mem::MaybeUninit::new(m);
            self.len += 1;
        }
    }

    #[inline]
    /// Removes every move (the capacity stays).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    /// How many moves the list holds.
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    /// Whether the list holds no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    /// The moves, in the order they were pushed.
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push` and `Move` is `Copy`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    #[inline]
    /// The moves, mutable (to reorder them, e.g. for move ordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    /// Iterates over the moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

// Zobrist keys, made at compile time with splitmix64 so hashes are stable across builds.
const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Keys indexed by `[kind][square]`, kind = 0 black man, 1 white man, 2 black king, 3 white king.
const ZOBRIST: [[u64; 32]; 4] = {
    let mut t = [[0u64; 32]; 4];
    let mut k = 0;
    while k < 4 {
        let mut s = 0;
        while s < 32 {
            t[k][s] = splitmix((k * 32 + s) as u64 * 0x1234_5679 + 77);
            s += 1;
        }
        k += 1;
    }
    t
};
const ZOBRIST_WHITE_TO_MOVE: u64 = splitmix(0xDEAD_BEEF);

#[inline(always)]
fn zkey(color: Color, king: bool, bit: u32) -> u64 {
    ZOBRIST[color as usize + 2 * king as usize][bit as usize]
}

/// A position: who stands where and who is to move, plus its 64-bit hash.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pieces: [u32; 2],
    kings: u32,
    side: Color,
    hash: u64,
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The starting position: Black on 1-12, White on 21-32, Black to move.
    pub fn start() -> Position {
        Position::from_parts(0x0000_0FFF, 0xFFF0_0000, 0, Color::Black)
    }

    /// A position from raw bitboards. The caller keeps the sets disjoint and `kings` within them.
    pub fn from_parts(black: u32, white: u32, kings: u32, side: Color) -> Position {
        let mut p = Position {
            pieces: [black, white],
            kings: kings & (black | white),
            side,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// Hash from scratch (the incremental one must always equal this).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::White {
            ZOBRIST_WHITE_TO_MOVE
        } else {
            0
        };
        for c in [Color::Black, Color::White] {
            let mut b = self.pieces[c as usize];
            while b != 0 {
                let i = b.trailing_zeros();
                b &= b - 1;
                h ^= zkey(c, self.kings & (1 << i) != 0, i);
            }
        }
        h
    }

    #[inline]
    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    /// The Zobrist hash of the pieces and the side to move (kept up to date by each move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// All pieces (men and kings) of a colour.
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        Bitboard(self.pieces[c as usize])
    }

    #[inline]
    /// The uncrowned pieces of side `c`.
    pub fn men(&self, c: Color) -> Bitboard {
        Bitboard(self.pieces[c as usize] & !self.kings)
    }

    #[inline]
    /// The kings of side `c`.
    pub fn kings(&self, c: Color) -> Bitboard {
        Bitboard(self.pieces[c as usize] & self.kings)
    }

    #[inline]
    /// Every square holding a piece of either side.
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.pieces[0] | self.pieces[1])
    }

    #[inline]
    /// The complement of [`Position::occupied`], as a 32-bit set (every bit is a playable square).
    pub fn empty(&self) -> Bitboard {
        Bitboard(!(self.pieces[0] | self.pieces[1]))
    }

    #[inline]
    pub(crate) fn raw(&self) -> (u32, u32, u32) {
        (self.pieces[0], self.pieces[1], self.kings)
    }

    /// What stands on a square (1..=32).
    pub fn piece_at(&self, sq: u8) -> Option<(Color, bool)> {
        let bit = 1u32 << (sq - 1);
        let king = self.kings & bit != 0;
        if self.pieces[0] & bit != 0 {
            Some((Color::Black, king))
        } else if self.pieces[1] & bit != 0 {
            Some((Color::White, king))
        } else {
            None
        }
    }

    /// The same pieces with the other side to move.
    pub fn with_side(&self, side: Color) -> Position {
        Position::from_parts(self.pieces[0], self.pieces[1], self.kings, side)
    }

    /// The colour-swapped position rotated by 180 degrees (square `s` becomes `33 - s`).
    pub fn flipped(&self) -> Position {
        let b = self.pieces[0].reverse_bits();
        let w = self.pieces[1].reverse_bits();
        let k = self.kings.reverse_bits();
        Position::from_parts(w, b, k, self.side.opposite())
    }

    /// Plays a legal move of the side to move and returns the new position.
    #[inline]
    pub fn play(&self, m: &Move) -> Position {
        let us = self.side as usize;
        let them = 1 - us;
        let from = 1u32 << m.from;
        let to = 1u32 << m.to;
        let was_king = self.kings & from != 0;
        let crown = if self.side == Color::Black {
            BLACK_CROWN_ROW
        } else {
            WHITE_CROWN_ROW
        };
        let is_king = was_king || to & crown != 0;
        let mut p = *self;
        p.pieces[us] = (p.pieces[us] & !from) | to;
        p.kings &= !from;
        if is_king {
            p.kings |= to;
        }
        let mut h = p.hash ^ ZOBRIST_WHITE_TO_MOVE;
        h ^= zkey(self.side, was_king, m.from as u32) ^ zkey(self.side, is_king, m.to as u32);
        if m.captured != 0 {
            let other = self.side.opposite();
            let mut c = m.captured;
            while c != 0 {
                let i = c.trailing_zeros();
                c &= c - 1;
                h ^= zkey(other, self.kings & (1 << i) != 0, i);
            }
            p.pieces[them] &= !m.captured;
            p.kings &= !m.captured;
        }
        p.hash = h;
        p.side = self.side.opposite();
        p
    }

    /// True when a move is a man moving (not a king): used by the 40-move rule.
    #[inline]
    pub fn is_man_move(&self, m: &Move) -> bool {
        self.kings & (1 << m.from) == 0
    }
}

impl fmt::Display for Position {
    /// A text diagram with White at the bottom (square 29 = a1), as the `play` command shows it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            write!(f, "{}  ", 8 - row)?;
            for col in 0..8 {
                match square_at(row, col) {
                    None => f.write_str(" . ")?,
                    Some(sq) => {
                        let c = match self.piece_at(sq) {
                            Some((Color::Black, false)) => " b ".to_string(),
                            Some((Color::Black, true)) => " B ".to_string(),
                            Some((Color::White, false)) => " w ".to_string(),
                            Some((Color::White, true)) => " W ".to_string(),
                            None => format!("{sq:>2} "),
                        };
                        f.write_str(&c)?;
                    }
                }
            }
            writeln!(f)?;
        }
        writeln!(f, "    a  b  c  d  e  f  g  h")?;
        write!(f, "{} to move", self.side.name())
    }
}
