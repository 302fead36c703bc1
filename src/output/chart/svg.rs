//! SVG text: escaping, path data.

use std::fmt::Write as _;

/// Text made safe for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The path data of a polyline through `points` (already in pixels): `M x y L x y ...`.
pub fn path_d(points: impl IntoIterator<Item = (f64, f64)>) -> String {
    let mut d = String::new();
    for (i, (x, y)) in points.into_iter().enumerate() {
        let _ = write!(d, "{}{x:.1} {y:.1}", if i == 0 { "M" } else { " L" });
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_paths() {
        assert_eq!(xml_escape("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;&quot;&apos; ");
        assert_eq!(path_d([(1.0, 2.0), (3.25, 4.0)]), "M1.0 2.0 L3.2 4.0");
        assert_eq!(path_d([]), "");
    }
}
