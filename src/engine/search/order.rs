//! Move ordering: crowning moves, then killers, then history scores.

use super::{Searcher, MAX_PLY};
use crate::board::Move;
use crate::board::{Color, MoveList, Position, BLACK_CROWN_ROW, WHITE_CROWN_ROW};

/// The squares where `side`'s men crown.
#[inline]
fn crown_row(side: Color) -> u32 {
    match side {
        Color::Black => BLACK_CROWN_ROW,
        Color::White => WHITE_CROWN_ROW,
    }
}

/// Move lists up to this length are ordered with scores kept on the stack.
const ORDER_BUF: usize = 48;

impl Searcher {
    /// Whether `m`, a move of `pos`, crowns a man.
    #[inline]
    pub(super) fn crowns(&self, pos: &Position, m: &Move) -> bool {
        pos.is_man_move(m) && crown_row(pos.side_to_move()) & (1 << (m.to() - 1)) != 0
    }

    /// Orders moves: crowning moves, then killers, then by history score (stable).
    pub(super) fn order(&self, pos: &Position, list: &mut MoveList, ply: usize) {
        if list.len() < 2 {
            return;
        }
        let crown = crown_row(pos.side_to_move());
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let score = |m: &Move| -> u32 {
            let mut s = self.history[m.from() as usize - 1][m.to() as usize - 1].min(1 << 20);
            if m.is_capture() {
                s += m.capture_count() << 22;
            }
            if pos.is_man_move(m) && crown & (1 << (m.to() - 1)) != 0 {
                s += 1 << 28;
            }
            if *m == killers[0] {
                s += 1 << 26;
            } else if *m == killers[1] {
                s += 1 << 25;
            }
            s
        };
        let moves = list.as_mut_slice();
        if moves.len() > ORDER_BUF {
            moves.sort_by_cached_key(|m| std::cmp::Reverse(score(m)));
            return;
        }
        // Scores computed once, then a stable insertion sort, best first (lists are short).
        // The buffer is not zeroed first: this runs at every node, and zeroing it cost more
        // than the sort.
        let mut buf = [std::mem::MaybeUninit::<u32>::uninit(); ORDER_BUF];
        for (k, m) in buf.iter_mut().zip(moves.iter()) {
            k.write(score(m));
        }
        // SAFETY: the first `moves.len()` entries were written just above.
        let keys: &mut [u32] =
            unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr() as *mut u32, moves.len()) };
        for i in 1..moves.len() {
            let (k, m) = (keys[i], moves[i]);
            let mut j = i;
            while j > 0 && keys[j - 1] < k {
                keys[j] = keys[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            keys[j] = k;
            moves[j] = m;
        }
    }
}
