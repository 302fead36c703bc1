//! A pass over the root moves at one depth, and the aspiration windows of a timed search
//! around it.

use super::{Searcher, INF, WIN_BOUND};
use crate::board::{Move, Position};
use rand::RngExt;

/// One pass over the root moves at one depth.
pub(super) struct RootPass {
    /// The best value.
    pub(super) best: i32,
    /// The moves that have it, in search order.
    pub(super) ties: Vec<Move>,
    /// Each move's value (exact for the best ones, an upper bound for the others), in search
    /// order.
    pub(super) values: Vec<i32>,
}

impl RootPass {
    /// One of the best moves: the only one, the first in `generated` (the generation order)
    /// when `first`, or else one picked uniformly at random with `rng` over that order.
    pub(super) fn pick<R: rand::Rng + ?Sized>(
        mut self,
        generated: &[Move],
        rng: &mut R,
        first: bool,
    ) -> Move {
        self.ties
            .sort_by_key(|t| generated.iter().position(|g| g == t));
        if self.ties.len() > 1 && !first {
            self.ties[rng.random_range(0..self.ties.len())]
        } else {
            self.ties[0]
        }
    }
}

impl Searcher {
    /// Searches each root move of `moves`, in that order, to `depth` plies, with the window
    /// (max(best so far - 1, lo), hi) of `window` = (lo, hi): a move equal to the best so far
    /// gets its exact value, a worse one an upper bound. The full window (-INF, INF) never
    /// fails; otherwise a best value at most lo or at least hi is a bound (the pass ends at the
    /// first value at least hi). `timed`: the instance that reads the clock; None when the
    /// deadline cut the pass short.
    pub(super) fn root_pass(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
        timed: bool,
        (lo, hi): (i32, i32),
    ) -> Option<RootPass> {
        let mut best = -INF;
        let mut ties: Vec<Move> = Vec::with_capacity(moves.len());
        let mut values: Vec<i32> = Vec::with_capacity(moves.len());
        for m in moves {
            let child = pos.play(m);
            let beta = -(best - 1).max(lo);
            let v = if timed {
                -self.search::<true>(&child, depth - 1, 1, -hi, beta)
            } else {
                -self.search::<false>(&child, depth - 1, 1, -hi, beta)
            };
            if self.stopped {
                return None;
            }
            values.push(v);
            if v > best {
                best = v;
                ties.clear();
                ties.push(*m);
            } else if v == best {
                ties.push(*m);
            }
            if v >= hi {
                break;
            }
        }
        Some(RootPass { best, ties, values })
    }

    /// The timed search's pass at `depth` (the clock read from depth 2 on): with aspiration
    /// windows on and the previous iteration's value `last` an evaluation, first within
    /// `last` ± the window, searched again four times as wide on the side it fails (then
    /// with that side open once it would reach the scores of wins), until the value lies
    /// inside; otherwise with the full window. None when the deadline cut it short.
    pub(super) fn aspiring_pass(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
        last: Option<i32>,
    ) -> Option<RootPass> {
        let timed = depth > 1;
        let width = self.aspiration_units;
        let last = match last {
            Some(v) if width > 0 && v.abs() < WIN_BOUND => v,
            _ => return self.root_pass(pos, moves, depth, timed, (-INF, INF)),
        };
        // A side of the window at `last` ± `w`: open when that reaches the scores of wins.
        let side = |w: i64, sign: i64| -> i32 {
            let edge = i64::from(last) + sign * w;
            if edge.abs() >= i64::from(WIN_BOUND) {
                (sign * i64::from(INF)) as i32
            } else {
                edge as i32
            }
        };
        let (mut below, mut above) = (i64::from(width), i64::from(width));
        loop {
            let (lo, hi) = (side(below, -1), side(above, 1));
            let pass = self.root_pass(pos, moves, depth, timed, (lo, hi))?;
            if pass.best <= lo && lo > -INF {
                below *= 4;
            } else if pass.best >= hi && hi < INF {
                above *= 4;
            } else {
                return Some(pass);
            }
        }
    }
}
