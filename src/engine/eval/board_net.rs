//! The network of the `board:H` sets: its inputs are the pieces on the board, and the hidden
//! units' sums of a position ([`Accumulator`]) are kept up to date as a search makes moves
//! (only the squares a move changes are added or taken away), so a leaf pays only for the
//! clipped activations and the output.
//!
//! Inputs, from the evaluated player's side: own men, own kings, opponent men, opponent kings
//! on each of the 32 squares (index `kind * 32 + square - 1`; for White the board is turned,
//! square `s` read as `33 - s`, so a side's men always advance towards square 32), and one
//! input, [`TO_MOVE`], present when the evaluated player is to move. The to-move input is
//! added at the leaf, not kept in the sums (it changes at every ply).

use super::names::{BOARD_INPUTS, MAX_HIDDEN, NUM_ALL};
use super::network::{NET_ACT_MAX, NET_SHIFT};
use crate::board::{Color, Position};

/// The input present when the evaluated player is to move.
pub const TO_MOVE: usize = 4 * 32;

/// The squares of the four kinds of piece, as input planes from `player`'s side: own men, own
/// kings, opponent men, opponent kings (bit `s` is square `s + 1` of the player's view).
#[inline(always)]
fn planes(pos: &Position, player: Color) -> [u32; 4] {
    let o = player.opposite();
    let p = [
        pos.men(player).0,
        pos.kings(player).0,
        pos.men(o).0,
        pos.kings(o).0,
    ];
    match player {
        Color::Black => p,
        // Turning the board maps bit s to bit 31 - s: the bits reversed.
        Color::White => p.map(u32::reverse_bits),
    }
}

/// Calls `f` with each input present in `pos` for `player` but [`TO_MOVE`], in index order.
#[inline]
pub fn for_each_piece_input(pos: &Position, player: Color, mut f: impl FnMut(usize)) {
    for (kind, mut bits) in planes(pos, player).into_iter().enumerate() {
        while bits != 0 {
            f(kind * 32 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// Every input present in `pos` for `player`, in index order ([`TO_MOVE`] last when the
/// player is to move), into `out` (cleared first).
pub fn board_inputs(pos: &Position, player: Color, out: &mut Vec<usize>) {
    out.clear();
    for_each_piece_input(pos, player, |i| out.push(i));
    if pos.side_to_move() == player {
        out.push(TO_MOVE);
    }
}

/// The weights of input `i` into the `h` units (a row of the input-major layout).
#[inline(always)]
fn row(w: &[i16], h: usize, i: usize) -> &[i16] {
    &w[NUM_ALL + i * h..][..h]
}

/// The hidden units' sums of a position without the to-move input: each unit's bias plus the
/// weights of the pieces present. `i32`: at most 24 pieces and a bias, each below 2^15.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// The sums of units 1..=H; the rest 0.
    pub sums: [i32; MAX_HIDDEN],
}

impl Accumulator {
    /// The sums of `pos` for `player` with `h` units of the weights `w`, from scratch.
    #[inline]
    pub fn new(pos: &Position, player: Color, w: &[i16], h: usize) -> Accumulator {
        let mut a = Accumulator {
            sums: [0; MAX_HIDDEN],
        };
        let bias = &w[NUM_ALL + BOARD_INPUTS * h..][..h];
        for (s, &b) in a.sums.iter_mut().zip(bias) {
            *s = b as i32;
        }
        for_each_piece_input(pos, player, |i| a.add(row(w, h, i)));
        a
    }

    /// Adds a row (of `h` weights; all [`MAX_HIDDEN`] of them a loop of fixed length, which
    /// the compiler unrolls into vector adds).
    #[inline(always)]
    fn add(&mut self, r: &[i16]) {
        if let Ok(r) = <&[i16; MAX_HIDDEN]>::try_from(r) {
            for (s, &x) in self.sums.iter_mut().zip(r) {
                *s += x as i32;
            }
            return;
        }
        for (s, &x) in self.sums.iter_mut().zip(r) {
            *s += x as i32;
        }
    }

    /// Takes a row away (as [`Self::add`] adds one).
    #[inline(always)]
    fn sub(&mut self, r: &[i16]) {
        if let Ok(r) = <&[i16; MAX_HIDDEN]>::try_from(r) {
            for (s, &x) in self.sums.iter_mut().zip(r) {
                *s -= x as i32;
            }
            return;
        }
        for (s, &x) in self.sums.iter_mut().zip(r) {
            *s -= x as i32;
        }
    }

    /// The sums of `child`, a position a move leads to from `parent` (whose sums these are):
    /// the rows of the pieces that left a square taken away, those of the pieces that arrived
    /// added (a move, its captures and a crowning change 2 to 13 squares).
    #[inline]
    pub fn child(
        &self,
        parent: &Position,
        child: &Position,
        player: Color,
        w: &[i16],
        h: usize,
    ) -> Accumulator {
        let mut a = *self;
        a.apply(parent, child, player, w, h);
        a
    }

    /// Changes these sums of `parent` into those of `child` ([`Self::child`] in place).
    #[inline]
    pub fn apply(
        &mut self,
        parent: &Position,
        child: &Position,
        player: Color,
        w: &[i16],
        h: usize,
    ) {
        let a = self;
        let (p, c) = (planes(parent, player), planes(child, player));
        for kind in 0..4 {
            let mut gone = p[kind] & !c[kind];
            while gone != 0 {
                a.sub(row(w, h, kind * 32 + gone.trailing_zeros() as usize));
                gone &= gone - 1;
            }
            let mut came = c[kind] & !p[kind];
            while came != 0 {
                a.add(row(w, h, kind * 32 + came.trailing_zeros() as usize));
                came &= came - 1;
            }
        }
    }

    /// The network's output: over the `h` units, the output weight times
    /// `clamp((sum + to-move weight when `to_move`) >> NET_SHIFT, 0, NET_ACT_MAX)`. At most
    /// 32 * 127 * 32768 in magnitude: an `i32`.
    #[inline]
    pub fn output(&self, to_move: bool, w: &[i16], h: usize) -> i32 {
        let tempo = row(w, h, TO_MOVE);
        let outs = &w[NUM_ALL + (BOARD_INPUTS + 1) * h..][..h];
        if let (Ok(tempo), Ok(outs)) = (
            <&[i16; MAX_HIDDEN]>::try_from(tempo),
            <&[i16; MAX_HIDDEN]>::try_from(outs),
        ) {
            // All units: loops of fixed length, vectorized.
            let t = if to_move { 1 } else { 0 };
            let mut out = 0i32;
            for j in 0..MAX_HIDDEN {
                let s = self.sums[j] + t * tempo[j] as i32;
                out += (s >> NET_SHIFT).clamp(0, NET_ACT_MAX) * outs[j] as i32;
            }
            return out;
        }
        let mut out = 0i32;
        for j in 0..h {
            let s = self.sums[j] + if to_move { tempo[j] as i32 } else { 0 };
            out += (s >> NET_SHIFT).clamp(0, NET_ACT_MAX) * outs[j] as i32;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{ParamSet, Weights};
    use crate::movegen::legal_moves;
    use rand::RngExt;
    use rand::SeedableRng;

    /// The network's output written plainly from the definition, every input looked up by
    /// square.
    fn plain_output(pos: &Position, player: Color, w: &[i16], h: usize) -> i64 {
        let mut x = [0i64; BOARD_INPUTS];
        for sq in 1..=32u8 {
            if let Some((c, king)) = pos.piece_at(sq) {
                let view = if player == Color::Black { sq } else { 33 - sq };
                let kind = 2 * (c != player) as usize + king as usize;
                x[kind * 32 + view as usize - 1] = 1;
            }
        }
        x[TO_MOVE] = (pos.side_to_move() == player) as i64;
        let mut out = 0i64;
        for j in 0..h {
            let mut s = w[NUM_ALL + BOARD_INPUTS * h + j] as i64;
            for (i, &xi) in x.iter().enumerate() {
                s += xi * w[NUM_ALL + i * h + j] as i64;
            }
            let act = (s >> NET_SHIFT).clamp(0, NET_ACT_MAX as i64);
            out += act * w[NUM_ALL + (BOARD_INPUTS + 1) * h + j] as i64;
        }
        out
    }

    /// What a move does that an incremental update could get wrong, counted over the random
    /// games so that a change of seed cannot lose a case unnoticed.
    #[derive(Debug, Default)]
    struct Seen {
        captures: u32,
        multi_jumps: u32,
        crownings: u32,
        crownings_by_capture: u32,
        kings_captured: u32,
    }

    impl Seen {
        fn count(&mut self, pos: &Position, m: &crate::board::Move, next: &Position) {
            let us = pos.side_to_move();
            let crowned = pos.is_man_move(m) && next.kings(us).contains(m.to());
            let kings_taken = m.captured().0 & pos.kings(us.opposite()).0;
            self.captures += m.is_capture() as u32;
            self.multi_jumps += (m.capture_count() > 1) as u32;
            self.crownings += crowned as u32;
            self.crownings_by_capture += (crowned && m.is_capture()) as u32;
            self.kings_captured += kings_taken.count_ones();
        }
    }

    #[test]
    fn sums_kept_through_random_games_equal_sums_from_scratch_and_the_definition() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut seen = Seen::default();
        for k in 0..60 {
            let h = [1, 7, 32][k % 3];
            let w = Weights::random_of(ParamSet::Board(h as u8), &mut r);
            let w = w.values();
            let player = [Color::Black, Color::White][k / 3 % 2];
            let mut pos = Position::start();
            let mut acc = Accumulator::new(&pos, player, w, h);
            for _ in 0..150 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves[r.random_range(0..moves.len())];
                let next = pos.play(&m);
                seen.count(&pos, &m, &next);
                acc = acc.child(&pos, &next, player, w, h);
                pos = next;
                assert_eq!(acc, Accumulator::new(&pos, player, w, h));
                let to_move = pos.side_to_move() == player;
                assert_eq!(
                    acc.output(to_move, w, h) as i64,
                    plain_output(&pos, player, w, h)
                );
            }
        }
        // The games went through every kind of change of the board the sums follow.
        eprintln!("random games: {seen:?}");
        assert!(seen.captures > 0, "{seen:?}");
        assert!(seen.multi_jumps > 0, "{seen:?}");
        assert!(seen.crownings > 0, "{seen:?}");
        assert!(seen.crownings_by_capture > 0, "{seen:?}");
        assert!(seen.kings_captured > 0, "{seen:?}");
    }

    /// Plays the move written `text` in the FEN position `fen` (asserting it is legal) and
    /// checks the child's sums, made from the parent's by [`Accumulator::child`] and by
    /// [`Accumulator::apply`], against those made from scratch, and the output against the
    /// definition: for both players and 1, 7 and 32 units of seeded random weights. Returns
    /// the move and both positions for the caller to check the case is the one meant.
    fn check_move(fen: &str, text: &str) -> (crate::board::Move, Position, Position) {
        let pos = crate::notation::parse_fen(fen).unwrap();
        let moves = legal_moves(&pos);
        let m = *moves
            .iter()
            .find(|m| m.to_string() == text)
            .unwrap_or_else(|| {
                let all: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                panic!("{fen}: no legal move {text} among {all:?}")
            });
        let next = pos.play(&m);
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for h in [1, 7, 32] {
            for player in [Color::Black, Color::White] {
                for _ in 0..4 {
                    let w = Weights::random_of(ParamSet::Board(h as u8), &mut r);
                    let w = w.values();
                    let parent = Accumulator::new(&pos, player, w, h);
                    let expected = Accumulator::new(&next, player, w, h);
                    let why = format!("{fen} {text} player {player:?} h {h}");
                    assert_eq!(parent.child(&pos, &next, player, w, h), expected, "{why}");
                    let mut a = parent;
                    a.apply(&pos, &next, player, w, h);
                    assert_eq!(a, expected, "{why}");
                    let to_move = next.side_to_move() == player;
                    assert_eq!(
                        a.output(to_move, w, h) as i64,
                        plain_output(&next, player, w, h),
                        "{why}"
                    );
                }
            }
        }
        (m, pos, next)
    }

    #[test]
    fn a_king_capturing_round_to_its_own_square() {
        // The king on 14 takes the four pieces around it and lands where it started: its own
        // square is unchanged, only the taken men and kings leave.
        for (fen, text) in [
            ("W:WK14:B10,11,K18,19", "14x23x16x7x14"),
            ("W:WK14:B10,11,K18,19", "14x7x16x23x14"),
            ("B:BK14:W10,K11,18,19", "14x23x16x7x14"),
        ] {
            let (m, pos, next) = check_move(fen, text);
            assert_eq!((m.from(), m.to(), m.capture_count()), (14, 14, 4));
            let us = pos.side_to_move();
            assert_eq!(next.pieces(us.opposite()).count(), 0);
            assert!(next.kings(us).contains(14));
        }
    }

    #[test]
    fn a_man_crowning_by_capture() {
        for (fen, text, taken) in [
            // One jump onto the crown row.
            ("W:W10:B6", "10x1", 1),
            // Two jumps, the second taking a king and crowning.
            ("W:W19:B15,K6", "19x10x1", 2),
            // Black's side: crowning on 32.
            ("B:B14,1:W18,K27,5", "14x23x32", 2),
        ] {
            let (m, pos, next) = check_move(fen, text);
            let us = pos.side_to_move();
            assert!(pos.is_man_move(&m), "{fen}");
            assert!(next.kings(us).contains(m.to()), "{fen}");
            assert_eq!(m.capture_count(), taken, "{fen}");
        }
    }

    #[test]
    fn a_king_being_captured() {
        for (fen, text) in [
            // A king takes a king.
            ("B:BK1,12:WK6,29", "1x10"),
            // A man takes a king, the other pieces standing.
            ("W:W22,K31:BK18,3", "22x15"),
        ] {
            let (m, pos, next) = check_move(fen, text);
            let them = pos.side_to_move().opposite();
            assert_eq!(m.captured().0 & pos.kings(them).0, m.captured().0, "{fen}");
            assert_eq!(next.kings(them).count() + 1, pos.kings(them).count());
        }
    }

    #[test]
    fn the_board_is_turned_for_white() {
        // A black man on 1 is White's opponent man on White's square 32.
        let pos = crate::notation::parse_fen("W:W32:B1").unwrap();
        let mut v = Vec::new();
        board_inputs(&pos, Color::Black, &mut v);
        assert_eq!(v, vec![0, 2 * 32 + 31]);
        board_inputs(&pos, Color::White, &mut v);
        assert_eq!(v, vec![0, 2 * 32 + 31, TO_MOVE]);
    }
}
