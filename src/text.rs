//! How figures are written for people, the same in every table, line and chart: an Elo
//! difference ([`EloFigure`]), an Elo difference with its margin ([`EloMargin`]), a duration
//! ([`short_time`]), a rate ([`per_time`]) and a count ([`grouped`]).
//!
//! ```
//! use checkers_ga::{EloFigure, EloMargin};
//! assert_eq!(format!("{:+}", EloFigure(41.6)), "+42");
//! assert_eq!(format!("{:+}", EloFigure(-0.3)), "0"); // rounds to zero: no sign
//! assert_eq!(format!("{:.1}", EloFigure(-12.34)), "-12.3");
//! assert_eq!(format!("{:+}", EloFigure(f64::INFINITY)), "+inf");
//! assert_eq!(format!("{}", EloFigure(f64::NAN)), "?");
//! assert_eq!(format!("{:+}", EloMargin::new(336.2, 40.4)), "+336 +/- 40");
//! ```

use std::fmt;

/// An Elo difference as text. Whole by default, with the precision asked for (`{:.1}`); a
/// `+` before a positive value with `{:+}`; a value that rounds to zero at that precision is
/// written without a sign (`0`, `0.0`, never `-0` or `+0`); an infinite value (one side scored
/// everything) is `inf` (`+inf` with `{:+}`) or `-inf`; NaN (no estimate) is `?`. A width
/// (`{:>8}`) pads it like a string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloFigure(pub f64);

impl fmt::Display for EloFigure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let text = if v.is_nan() {
            "?".to_string()
        } else if v.is_infinite() {
            match (v > 0.0, f.sign_plus()) {
                (true, true) => "+inf".to_string(),
                (true, false) => "inf".to_string(),
                (false, _) => "-inf".to_string(),
            }
        } else {
            let digits = format!("{:.*}", f.precision().unwrap_or(0), v.abs());
            if digits.bytes().all(|b| b == b'0' || b == b'.') {
                digits
            } else if v < 0.0 {
                format!("-{digits}")
            } else if f.sign_plus() {
                format!("+{digits}")
            } else {
                digits
            }
        };
        pad(f, &text)
    }
}

/// `text` padded to the formatter's width and alignment (left by default, as a string).
fn pad(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    let Some(width) = f.width() else {
        return f.write_str(text);
    };
    match f.align() {
        Some(fmt::Alignment::Right) => write!(f, "{text:>width$}"),
        Some(fmt::Alignment::Center) => write!(f, "{text:^width$}"),
        _ => write!(f, "{text:<width$}"),
    }
}

/// An Elo difference and the half-width of its 95% interval: `+336 +/- 40`. The flags and the
/// precision apply as to [`EloFigure`] (the `+` to the difference only): `{:+}` for the
/// whole-Elo form of tables and progress lines, `{:.1}` for a match's one-decimal form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloMargin {
    /// The Elo difference.
    pub diff: f64,
    /// The half-width of its 95% interval.
    pub margin: f64,
}

impl EloMargin {
    /// The difference `diff` with its margin `margin`.
    pub fn new(diff: f64, margin: f64) -> EloMargin {
        EloMargin { diff, margin }
    }
}

impl fmt::Display for EloMargin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = f.precision().unwrap_or(0);
        let diff = if f.sign_plus() {
            format!("{:+.*}", p, EloFigure(self.diff))
        } else {
            format!("{:.*}", p, EloFigure(self.diff))
        };
        let text = format!("{diff} +/- {:.*}", p, EloFigure(self.margin));
        pad(f, &text)
    }
}

/// A duration as `45s`, `2m14s` or `1h02m` (rounded to the second; never negative).
pub fn short_time(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

/// A rate of `unit` as `12.5 games/s` from one a second up, else per minute, else per hour
/// (never `0.0/s`); with no unit, `12.5/s`.
pub fn per_time(per_second: f64, unit: &str) -> String {
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    if per_second >= 0.95 {
        format!("{per_second:.1}{unit}/s")
    } else if per_second * 60.0 >= 0.95 {
        format!("{:.1}{unit}/min", per_second * 60.0)
    } else {
        format!("{:.1}{unit}/h", per_second * 3600.0)
    }
}

/// A whole number with its thousands separated: `204,800`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A word for a shell command line, quoted when it needs to be (`'it'\''s'`).
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+@%,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Names as a sentence offers them: `a, b or c`.
pub(crate) fn one_of(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_below_one_a_second_is_given_per_minute_or_per_hour() {
        assert_eq!(per_time(2.34, "gen"), "2.3 gen/s");
        assert_eq!(per_time(0.5, "gen"), "30.0 gen/min");
        assert_eq!(per_time(0.001, "gen"), "3.6 gen/h");
        assert_eq!(per_time(12.0, ""), "12.0/s");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(204800), "204,800");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn durations_in_seconds_minutes_or_hours() {
        assert_eq!(short_time(-3.0), "0s");
        assert_eq!(short_time(59.4), "59s");
        assert_eq!(short_time(134.0), "2m14s");
        assert_eq!(short_time(3600.0 + 125.0), "1h02m");
    }

    #[test]
    fn zero_has_no_sign_at_any_precision() {
        for v in [0.0, -0.0, -0.3, 0.4, -0.04] {
            assert_eq!(format!("{:+}", EloFigure(v)), "0", "{v}");
        }
        assert_eq!(format!("{:.1}", EloFigure(-0.04)), "0.0");
        assert_eq!(format!("{:+.1}", EloFigure(-0.06)), "-0.1");
    }

    #[test]
    fn signs_infinities_and_nan() {
        assert_eq!(format!("{:+}", EloFigure(12.4)), "+12");
        assert_eq!(format!("{}", EloFigure(12.4)), "12");
        assert_eq!(format!("{:+}", EloFigure(-7.0)), "-7");
        assert_eq!(format!("{}", EloFigure(f64::INFINITY)), "inf");
        assert_eq!(format!("{:+}", EloFigure(f64::NEG_INFINITY)), "-inf");
        assert_eq!(format!("{:+}", EloFigure(f64::NAN)), "?");
        assert_eq!(format!("[{:>5}]", EloFigure(3.0)), "[    3]");
        assert_eq!(format!("[{:<5}]", EloFigure(3.0)), "[3    ]");
    }

    #[test]
    fn with_a_margin() {
        let e = EloMargin::new(-0.2, f64::INFINITY);
        assert_eq!(format!("{e:+}"), "0 +/- inf");
        assert_eq!(
            format!("{:.1}", EloMargin::new(147.19, 80.04)),
            "147.2 +/- 80.0"
        );
        assert_eq!(format!("{:+}", EloMargin::new(336.2, 40.4)), "+336 +/- 40");
    }
}

/// A count with its noun, singular for one: `count(1, "parameter", "parameters")` is
/// `1 parameter`, `count(5, ...)` is `5 parameters`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1, "game", "games"), "1 game");
        assert_eq!(super::count(0, "game", "games"), "0 games");
        assert_eq!(super::count(2, "game", "games"), "2 games");
    }
}
