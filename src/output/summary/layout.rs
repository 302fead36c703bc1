//! Text laid out in columns: lines cut or wrapped to a width.

/// Every line of the parameter table fits in this many columns.
pub const TABLE_WIDTH: usize = 100;

/// `s` cut to `width` characters, ending in `...` when cut.
pub fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    if width <= 3 {
        return s.chars().take(width).collect();
    }
    let cut: String = s.chars().take(width - 3).collect();
    format!("{}...", cut.trim_end())
}

/// `text` on one or more lines of at most `width` characters, broken at spaces (a word longer
/// than a line, such as a long path, stays whole on its own line); lines after the first start
/// with `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut fresh = true;
    for word in text.split_whitespace() {
        if !fresh && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::replace(&mut line, indent.to_string()));
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    if !fresh || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping() {
        assert_eq!(wrap("a bb ccc dd", 6, "  "), vec!["a bb", "  ccc", "  dd"]);
        assert_eq!(wrap("short", 10, "  "), vec!["short"]);
        assert_eq!(wrap("", 10, "  "), vec![""]);
        for l in wrap(&"word ".repeat(100), 20, "  ") {
            assert!(l.len() <= 20, "{l}");
        }
        let long = "x".repeat(30);
        assert_eq!(wrap(&format!("a {long} b"), 20, ""), vec!["a", &long, "b"]);
    }
}
