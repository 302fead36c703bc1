//! What one man is worth in an evaluation's values ([`man_value`]): the one definition of a man
//! that every score in men uses, measured over the ballot's positions.
//!
//! The measure takes about 4,000 evaluations. An engine asks it whenever its weights change:
//! the `hub` engine of a tuning session at every game, where it was a tenth of the engine's
//! time. For the linear parameter sets (the 60, the 66, the phased 132) a position's value is a
//! weighted sum of its parameters' values, so these values are read off the ballot once
//! ([`Drops`]) and each measure after is a few dot products, with the very values the
//! evaluation gives; the other evaluations are evaluated position by position.

use crate::board::{Color, Position};
use crate::eval::{all_trace, eval_trace, ParamSet, Trace};
use crate::eval::{MAX_EVAL, NUM_ALL, NUM_PARAMS, PHASE_PIECES};
use crate::openings::ballot;
use crate::yardstick::Evaluator;
use std::sync::{Mutex, OnceLock};

/// What one man is worth in `eval`'s values: THE definition of a man, which every score in men
/// uses (`play`'s `eval +0.37 men`, the `hub` engine's `score=`, `show`'s and `eval`'s men,
/// the exports' `MAN_VALUE`, a match's adjudication in centi-men, the search's margins). It is
/// measured by the evaluation itself, since a single weight says little (evolved weights may
/// weigh the side's own men below 0 and the opponent's far below): [`man_median`], when it is
/// at least 1; None when the evaluation does not value a man (its values are then shown in its
/// own units).
pub fn man_value(eval: &Evaluator) -> Option<i32> {
    let m = man_median(eval);
    (m >= 1).then(|| m.min(i32::MAX as i64) as i32)
}

/// The median, over the positions of the 156 ballot openings in use (after their three moves),
/// both players, and each man of the player, of the player's value minus its value with that
/// man taken off the board (the side to move unchanged): what [`man_value`] is when it is at
/// least 1. The last few evaluations asked about are remembered, so a caller may ask at every
/// move.
pub fn man_median(eval: &Evaluator) -> i64 {
    /// The evaluations last measured, newest last.
    static SEEN: Mutex<Vec<(Evaluator, i64)>> = Mutex::new(Vec::new());
    const KEPT: usize = 8;
    let seen = |e: &Evaluator| {
        let list = SEEN.lock().unwrap_or_else(|p| p.into_inner());
        list.iter().find(|(x, _)| x == e).map(|&(_, m)| m)
    };
    if let Some(m) = seen(eval) {
        return m;
    }
    let mut drops = match eval {
        Evaluator::Weighted(w) => match w.set() {
            ParamSet::Thesis60 => Drops::thesis().linear(w.values()),
            ParamSet::Endgame66 => Drops::all().linear(w.values()),
            ParamSet::Phased132 => Drops::all().phased(w.values()),
            _ => evaluated_drops(eval),
        },
        _ => evaluated_drops(eval),
    };
    let m = median(&mut drops).unwrap_or(1);
    let mut list = SEEN.lock().unwrap_or_else(|p| p.into_inner());
    if list.len() >= KEPT {
        list.remove(0);
    }
    list.push((*eval, m));
    m
}

/// The middle one of `values` in order (the upper of the two middle ones of an even count);
/// None when there are none.
fn median(values: &mut [i64]) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    Some(*values.select_nth_unstable(mid).1)
}

/// Each position the measure takes: every ballot opening's position, and each player.
fn measured_positions() -> impl Iterator<Item = (Position, Color)> {
    ballot()
        .iter()
        .flat_map(|o| [Color::Black, Color::White].map(|c| (o.position, c)))
}

/// `pos` with the man on square `sq` taken off (the side to move unchanged).
fn without(pos: &Position, sq: u8) -> Position {
    let (b, w) = (pos.pieces(Color::Black).0, pos.pieces(Color::White).0);
    let k = pos.kings(Color::Black).0 | pos.kings(Color::White).0;
    let bit = 1u32 << (sq - 1);
    Position::from_parts(b & !bit, w & !bit, k, pos.side_to_move())
}

/// The measure's drops (a position's value for the player minus its value without one of the
/// player's men), each position evaluated: for any evaluation.
fn evaluated_drops(eval: &Evaluator) -> Vec<i64> {
    let mut drops = Vec::with_capacity(4096);
    for (p, c) in measured_positions() {
        let base = eval.evaluate(&p, c) as i64;
        for sq in p.men(c).squares() {
            drops.push(base - eval.evaluate(&without(&p, sq), c) as i64);
        }
    }
    drops
}

/// A position's parameters' values, as the evaluation's trace gives them.
struct Values(Vec<i64>);

impl Trace for Values {
    #[inline]
    fn add(&mut self, param: usize, value: i32) {
        if let Some(v) = self.0.get_mut(param) {
            *v += value as i64;
        }
    }
}

/// The measured positions' parameters' values, and for each man taken off what changed: what
/// the measure of a linear set needs, read once a trace.
struct Drops {
    /// Parameters a position (the trace's).
    width: usize,
    /// Each measured position's values, `width` a position.
    bases: Vec<i64>,
    /// Each measured position's pieces.
    pieces: Vec<i64>,
    /// Each man taken off: its position's place in `bases`, and the range of `changes` that
    /// position less the man differs by.
    men: Vec<(usize, usize, usize)>,
    /// A parameter and its value in the position minus its value without the man.
    changes: Vec<(usize, i64)>,
}

impl Drops {
    /// The table of the 60's trace.
    fn thesis() -> &'static Drops {
        static D: OnceLock<Drops> = OnceLock::new();
        D.get_or_init(|| Drops::read(NUM_PARAMS, eval_trace))
    }

    /// The table of the 66's trace (the phased set reads it twice).
    fn all() -> &'static Drops {
        static D: OnceLock<Drops> = OnceLock::new();
        D.get_or_init(|| Drops::read(NUM_ALL, all_trace))
    }

    fn read(width: usize, trace: fn(&Position, Color, &mut Values)) -> Drops {
        let values = |p: &Position, c: Color| {
            let mut v = Values(vec![0; width]);
            trace(p, c, &mut v);
            v.0
        };
        let mut d = Drops {
            width,
            bases: Vec::new(),
            pieces: Vec::new(),
            men: Vec::new(),
            changes: Vec::new(),
        };
        for (i, (p, c)) in measured_positions().enumerate() {
            let base = values(&p, c);
            for sq in p.men(c).squares() {
                let start = d.changes.len();
                let less = values(&without(&p, sq), c);
                d.changes.extend(
                    base.iter()
                        .zip(&less)
                        .enumerate()
                        .filter(|(_, (a, b))| a != b)
                        .map(|(k, (a, b))| (k, a - b)),
                );
                d.men.push((i, start, d.changes.len()));
            }
            d.bases.extend(base);
            d.pieces.push(p.occupied().count() as i64);
        }
        d
    }

    /// Each position's weighted sum by `w` (the first `width` of them).
    fn sums(&self, w: &[i16]) -> Vec<i64> {
        self.bases
            .chunks(self.width)
            .map(|b| b.iter().zip(w).map(|(&v, &w)| v * w as i64).sum())
            .collect()
    }

    /// The weighted sum `w` gives what a man changed.
    fn change(&self, from: usize, to: usize, w: &[i16]) -> i64 {
        self.changes[from..to]
            .iter()
            .map(|&(k, d)| d * w[k] as i64)
            .sum()
    }

    /// The drops of a set whose value is the weighted sum (clamped as the evaluation does).
    fn linear(&self, w: &[i16]) -> Vec<i64> {
        let sums = self.sums(w);
        self.men
            .iter()
            .map(|&(i, from, to)| clamp(sums[i]) - clamp(sums[i] - self.change(from, to, w)))
            .collect()
    }

    /// The drops of the phased set: opening and endgame sums mixed by the pieces on the
    /// board, as the evaluation mixes them.
    fn phased(&self, w: &[i16]) -> Vec<i64> {
        let (open_w, end_w) = w.split_at(NUM_ALL);
        let (open, end) = (self.sums(open_w), self.sums(end_w));
        let mix = |o: i64, e: i64, pieces: i64| {
            let n = pieces.min(PHASE_PIECES);
            clamp((o * n + e * (PHASE_PIECES - n)) / PHASE_PIECES)
        };
        self.men
            .iter()
            .map(|&(i, from, to)| {
                let pieces = self.pieces[i];
                let less_open = open[i] - self.change(from, to, open_w);
                let less_end = end[i] - self.change(from, to, end_w);
                mix(open[i], end[i], pieces) - mix(less_open, less_end, pieces - 1)
            })
            .collect()
    }
}

/// A sum as the evaluation bounds it.
fn clamp(sum: i64) -> i64 {
    sum.clamp(-(MAX_EVAL as i64), MAX_EVAL as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn a_man_is_measured_over_the_ballot() {
        // Material: a man is 100, whatever the position.
        let material = Evaluator::from(crate::eval::material());
        assert_eq!(man_median(&material), 100);
        assert_eq!(man_value(&material), Some(100));
        // Asked again (remembered), the same.
        assert_eq!(man_value(&material), Some(100));
        // Weights that prefer fewer men value no man.
        let mut fewer = crate::eval::material();
        for i in 0..fewer.len() {
            fewer[i] = -fewer[i];
        }
        let fewer = Evaluator::from(fewer);
        assert_eq!(man_median(&fewer), -100);
        assert_eq!(man_value(&fewer), None);
        // The yardsticks value men too.
        for e in [Evaluator::Hand, Evaluator::Classic] {
            assert!(man_value(&e).is_some_and(|m| m > 0), "{e:?}");
        }
    }

    /// The drops read off the table are the evaluated ones, drop for drop, for every linear
    /// set: random weights over the whole range, small ones, material.
    #[test]
    fn the_linear_sets_drops_are_the_evaluated_ones() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for set in [ParamSet::Thesis60, ParamSet::Endgame66, ParamSet::Phased132] {
            for round in 0..12 {
                let mut w = Weights::random_of(set, &mut rng);
                if round % 2 == 1 {
                    for x in w.values_mut() {
                        *x = rng.random_range(-40..=40);
                    }
                }
                let drops = match set {
                    ParamSet::Phased132 => Drops::all().phased(w.values()),
                    ParamSet::Thesis60 => Drops::thesis().linear(w.values()),
                    _ => Drops::all().linear(w.values()),
                };
                let eval = Evaluator::from(w);
                assert_eq!(drops, evaluated_drops(&eval), "{set:?}, round {round}");
            }
        }
        let material = crate::eval::material();
        assert_eq!(
            Drops::thesis().linear(material.values()),
            evaluated_drops(&Evaluator::from(material))
        );
    }

    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [5]), Some(5));
        assert_eq!(median(&mut [9, 1, 5]), Some(5));
        assert_eq!(median(&mut [4, 1, 3, 2]), Some(3));
    }
}
