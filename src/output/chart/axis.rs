//! Axes: a "nice" range and its ticks.

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving at most about `target` ticks over
/// `range`.
pub fn nice_step(range: f64, target: usize) -> f64 {
    if range.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !range.is_finite() {
        return 1.0;
    }
    let raw = range / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Numbers for tick labels: no trailing `.0`, and at most 12 significant digits, so that a
/// multiple of a step that binary fractions cannot hold (3 x 0.05 is 0.15000000000000002)
/// reads as it should.
pub fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        return format!("{}", v.round() as i64);
    }
    let scale = 10f64.powf(11.0 - v.abs().log10().floor());
    let rounded = (v * scale).round() / scale;
    format!("{}", if rounded.is_finite() { rounded } else { v })
}

/// The most ticks an axis draws: odd data (an infinite mean, huge generation numbers in a
/// crafted checkpoint) must not make a tick loop run long.
pub const MAX_TICKS: usize = 100;

/// An axis's range, from `lo` to `hi`, with ticks every `step`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// The low end.
    pub lo: f64,
    /// The high end (above `lo`).
    pub hi: f64,
    /// The distance between ticks.
    pub step: f64,
}

impl Scale {
    /// A y scale over the values `lo..hi` (0 always in), widened to whole steps of about
    /// `target` ticks.
    pub fn values(lo: f64, hi: f64, target: usize) -> Scale {
        let (lo, hi) = (lo.min(0.0), hi.max(0.0));
        let hi = if hi > lo { hi } else { lo + 1.0 };
        let step = nice_step(hi - lo, target);
        let (a, b) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        Scale {
            lo: a,
            hi: if b > a { b } else { a + step },
            step,
        }
    }

    /// An x scale of generations `first..=last`, exact at the ends (one on each side of a single
    /// generation), ticks on whole steps of at least 1.
    pub fn generations(first: f64, last: f64, target: usize) -> Scale {
        let (lo, hi) = if last > first {
            (first, last)
        } else {
            (first - 1.0, first + 1.0)
        };
        Scale {
            lo,
            hi,
            step: nice_step(hi - lo, target).max(1.0),
        }
    }

    /// The tick values: multiples of the step from `lo` to `hi`, at most [`MAX_TICKS`].
    pub fn ticks(&self) -> Vec<f64> {
        let first = (self.lo / self.step - 1e-9).ceil();
        (0..MAX_TICKS)
            .map(|k| (first + k as f64) * self.step)
            .take_while(|&v| v <= self.hi + self.step * 1e-6)
            .collect()
    }

    /// Where `v` falls, 0 at `lo` and 1 at `hi`.
    pub fn fraction(&self, v: f64) -> f64 {
        (v - self.lo) / (self.hi - self.lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(10.0, 5), 2.0);
        assert_eq!(nice_step(100.0, 6), 20.0);
        assert_eq!(nice_step(7.0, 10), 1.0);
        assert_eq!(nice_step(0.0, 5), 1.0);
    }

    #[test]
    fn scales_and_ticks() {
        let s = Scale::values(-130.0, 410.0, 6);
        assert_eq!((s.lo, s.hi, s.step), (-200.0, 500.0, 100.0));
        assert_eq!(s.ticks().len(), 8);
        assert_eq!(Scale::values(0.0, 0.0, 6).ticks().len(), 6);
        let g = Scale::generations(3.0, 3.0, 10);
        assert_eq!((g.lo, g.hi), (2.0, 4.0));
        assert_eq!(g.ticks(), vec![2.0, 3.0, 4.0]);
        let huge = Scale::generations(0.0, 1e300, 10);
        assert!(huge.ticks().len() <= MAX_TICKS);
        assert_eq!(tick_label(2.0), "2");
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(3.0 * 0.05), "0.15");
        assert_eq!(tick_label(-0.1 - 0.2), "-0.3");
        assert_eq!(tick_label(0.1 + 0.2), "0.3");
        assert_eq!(tick_label(2.5e15 + 0.5), "2500000000000000");
    }
}
