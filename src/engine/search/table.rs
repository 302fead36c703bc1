//! The transposition table's entries, and win/loss scores stored relative to the node.

use super::WIN_BOUND;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A table entry (16 bytes). `best_from`/`best_to` name the best move for ordering; an entry
/// belongs to the current search session only when its `epoch` matches, so clearing is O(1).
#[derive(Clone, Copy)]
pub(super) struct TtEntry {
    pub(super) key: u64,
    pub(super) value: i32,
    pub(super) best_from: u8,
    pub(super) best_to: u8,
    pub(super) depth: u8,
    pub(super) bound: Bound,
    pub(super) epoch: u8,
}

pub(super) const EMPTY_ENTRY: TtEntry = TtEntry {
    key: 0,
    value: 0,
    best_from: 0,
    best_to: 0,
    depth: 0,
    bound: Bound::Exact,
    epoch: 0,
};

/// Win/loss scores are stored relative to the node, not the root.
pub(super) fn to_tt(v: i32, ply: u32) -> i32 {
    if v > WIN_BOUND {
        v + ply as i32
    } else if v < -WIN_BOUND {
        v - ply as i32
    } else {
        v
    }
}

pub(super) fn from_tt(v: i32, ply: u32) -> i32 {
    if v > WIN_BOUND {
        v - ply as i32
    } else if v < -WIN_BOUND {
        v + ply as i32
    } else {
        v
    }
}
