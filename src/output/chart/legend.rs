//! A chart's legend: items placed by their text's length, wrapped onto more rows when a row
//! is full, so nothing overlaps.

use super::svg::xml_escape;
use std::fmt::Write as _;

/// About how wide a character of 12 px text is.
pub const CHAR_WIDTH: f64 = 7.0;
/// The distance between two legend rows.
pub const ROW_HEIGHT: f64 = 18.0;

/// An item placed: its left end, its row (from 0), its label and colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// The left end of its line sample.
    pub x: f64,
    /// Its row, from 0.
    pub row: usize,
    /// Its text.
    pub label: String,
    /// The colour of its sample.
    pub colour: String,
}

/// A legend laid out from `left` within `width` pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    /// The items in order.
    pub items: Vec<Placed>,
}

impl Legend {
    /// Places `items` (label, colour) from `left`, each as wide as a 30 px sample and its text,
    /// wrapping to a new row where the next would pass `left + width`.
    pub fn place(items: &[(String, String)], left: f64, width: f64) -> Legend {
        let mut placed = Vec::new();
        let (mut x, mut row) = (left, 0);
        for (label, colour) in items {
            let w = 40.0 + CHAR_WIDTH * label.chars().count() as f64 + 24.0;
            if x > left && x + w > left + width {
                x = left;
                row += 1;
            }
            placed.push(Placed {
                x,
                row,
                label: label.clone(),
                colour: colour.clone(),
            });
            x += w;
        }
        Legend { items: placed }
    }

    /// The rows it takes (0 when empty).
    pub fn rows(&self) -> usize {
        self.items.last().map_or(0, |p| p.row + 1)
    }

    /// The legend as SVG, its first row's middle at `y`.
    pub fn svg(&self, y: f64) -> String {
        let mut s = String::from("<g class=\"legend\">\n");
        for p in &self.items {
            let y = y + ROW_HEIGHT * p.row as f64;
            let _ = writeln!(
                s,
                "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\" \
                 stroke-width=\"3\"/>",
                p.x,
                p.x + 30.0,
                p.colour
            );
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                p.x + 38.0,
                y + 4.0,
                xml_escape(&p.label)
            );
        }
        s.push_str("</g>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_items_wrap() {
        let items: Vec<(String, String)> = ["a".repeat(80), "best".into(), "mean".into()]
            .into_iter()
            .map(|l| (l, "red".to_string()))
            .collect();
        let l = Legend::place(&items, 70.0, 660.0);
        assert_eq!(l.rows(), 2);
        assert_eq!((l.items[1].x, l.items[1].row), (70.0, 1));
        assert!(l.items[2].x > l.items[1].x);
        assert_eq!(Legend::place(&[], 0.0, 100.0).rows(), 0);
    }
}
