//! A small Rust lexer, enough to read paths exactly: comments (line, block, nested, doc) are
//! dropped, strings (plain, raw `r#"..."#`, byte, C) and char literals (`'"'`, `'\''`) are
//! single tokens told apart from lifetimes (`'a`), `::` is one token wherever the spaces are,
//! and `$crate` reads as `crate`. Then the tokens that only a test build compiles are marked:
//! the item after `#[cfg(test)]` or `#[test]`, wherever it is, braces matched.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    /// `::` or one punctuation character.
    Punct,
    /// A string literal (its text is what is between the quotes, escapes left as written).
    Str,
    /// A number or a char literal.
    Lit,
    Lifetime,
}

/// One token, its line (from 1), and whether only a test build compiles it.
#[derive(Clone, Debug)]
pub struct Tok {
    pub kind: Kind,
    pub text: String,
    pub line: usize,
    pub test: bool,
}

impl Tok {
    pub fn is(&self, text: &str) -> bool {
        self.kind != Kind::Str && self.text == text
    }
}

fn ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of `src`.
pub fn lex(src: &str) -> Vec<Tok> {
    let s: Vec<char> = src.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let mut push = |kind, text: String, line| {
        out.push(Tok {
            kind,
            text,
            line,
            test: false,
        })
    };
    // The end (exclusive) of a raw string whose `r` is at `r`, if it is one.
    let raw_end = |r: usize| -> Option<(usize, usize)> {
        let mut j = r + 1;
        while at(j) == '#' {
            j += 1;
        }
        if at(j) != '"' {
            return None;
        }
        let hashes = j - r - 1;
        let start = j + 1;
        let mut k = start;
        while k < s.len() {
            if s[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                return Some((start, k));
            }
            k += 1;
        }
        Some((start, s.len()))
    };
    while i < s.len() {
        let c = s[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if s[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some(r) = [i, i + 1]
            .into_iter()
            .find(|&r| at(r) == 'r' && (r == i || matches!(c, 'b' | 'c')))
            .filter(|&r| at(r + 1) == '"' || (at(r + 1) == '#' && raw_end(r).is_some()))
        {
            let (a, b) = raw_end(r).expect("a raw string");
            let text: String = s[a..b].iter().collect();
            line += text.matches('\n').count();
            push(Kind::Str, text, start_line);
            i = (b + 1 + (a - r - 2)).min(s.len());
        } else if c == '"' || (matches!(c, 'b' | 'c') && at(i + 1) == '"') {
            let mut j = if c == '"' { i + 1 } else { i + 2 };
            let a = j;
            while j < s.len() && s[j] != '"' {
                if s[j] == '\\' {
                    j += 1;
                }
                if at(j) == '\n' {
                    line += 1;
                }
                j += 1;
            }
            push(Kind::Str, s[a..j.min(s.len())].iter().collect(), start_line);
            i = j + 1;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let q = if c == '\'' { i } else { i + 1 };
            if at(q + 1) == '\\' {
                // An escaped char: `'\''`, `'\\'`, `'\u{1F600}'`.
                let mut j = q + 3;
                while j < s.len() && s[j] != '\'' {
                    j += 1;
                }
                push(Kind::Lit, s[i..=j.min(s.len() - 1)].iter().collect(), line);
                i = j + 1;
            } else if at(q + 2) == '\'' {
                push(Kind::Lit, s[i..q + 3].iter().collect(), line);
                i = q + 3;
            } else {
                let mut j = q + 1;
                while j < s.len() && ident_char(s[j]) {
                    j += 1;
                }
                push(Kind::Lifetime, s[q..j].iter().collect(), line);
                i = j;
            }
        } else if c == 'r' && at(i + 1) == '#' && ident_start(at(i + 2)) {
            let mut j = i + 2;
            while j < s.len() && ident_char(s[j]) {
                j += 1;
            }
            push(Kind::Ident, s[i + 2..j].iter().collect(), line);
            i = j;
        } else if ident_start(c) {
            let mut j = i;
            while j < s.len() && ident_char(s[j]) {
                j += 1;
            }
            push(Kind::Ident, s[i..j].iter().collect(), line);
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < s.len() && (ident_char(s[j]) || (s[j] == '.' && at(j + 1).is_ascii_digit())) {
                j += 1;
            }
            push(Kind::Lit, s[i..j].iter().collect(), line);
            i = j;
        } else if c == '$' && s[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e']) {
            push(Kind::Ident, "crate".into(), line);
            i += 6;
        } else if c == ':' && at(i + 1) == ':' {
            push(Kind::Punct, "::".into(), line);
            i += 2;
        } else {
            push(Kind::Punct, c.to_string(), line);
            i += 1;
        }
    }
    out
}

fn opens(t: &Tok) -> bool {
    t.kind == Kind::Punct && matches!(t.text.as_str(), "(" | "[" | "{")
}

fn closes(t: &Tok) -> bool {
    t.kind == Kind::Punct && matches!(t.text.as_str(), ")" | "]" | "}")
}

/// The index of the bracket that closes the one at `open` (or the last token).
pub fn matching(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    toks.len().saturating_sub(1)
}

/// Whether an attribute's tokens (between `[` and `]`) compile it only in a test build:
/// `test`, `cfg(test)`, `cfg(all(.., test, ..))`.
fn test_only(attr: &[Tok]) -> bool {
    let text: String = attr.iter().map(|t| t.text.as_str()).collect();
    if text == "test" || text == "cfg(test)" {
        return true;
    }
    text.starts_with("cfg(all(")
        && (4..attr.len().saturating_sub(2)).any(|k| {
            attr[k].is("test")
                && (attr[k - 1].is("(") || attr[k - 1].is(","))
                && (attr[k + 1].is(",") || attr[k + 1].is(")"))
                && attr[..k].iter().filter(|t| opens(t)).count()
                    - attr[..k].iter().filter(|t| closes(t)).count()
                    == 2
        })
}

/// The last index of the item (or statement, field, arm) that starts at `j`.
fn item_end(toks: &[Tok], j: usize) -> usize {
    const BRACED: [&str; 8] = [
        "fn",
        "mod",
        "impl",
        "trait",
        "struct",
        "enum",
        "union",
        "macro_rules",
    ];
    let mut braced = toks.get(j).is_some_and(|t| t.is("{"));
    let mut depth = 0i32;
    let mut k = j;
    while k < toks.len() {
        let t = &toks[k];
        if depth == 0 {
            if t.kind == Kind::Ident && BRACED.contains(&t.text.as_str()) {
                braced = true;
            }
            if t.is(";") || t.is(",") {
                return k;
            }
        }
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth -= 1;
            if depth < 0 {
                return k - 1;
            }
            if depth == 0 && t.is("}") && braced {
                return k;
            }
        }
        k += 1;
    }
    toks.len() - 1
}

/// Marks what only a test build compiles: the item after an outer test attribute (its other
/// attributes included), and the rest of the module after an inner one (`#![cfg(test)]`).
pub fn mark_tests(toks: &mut [Tok]) {
    let mut i = 0;
    while i < toks.len() {
        if !toks[i].is("#") {
            i += 1;
            continue;
        }
        let inner = toks.get(i + 1).is_some_and(|t| t.is("!"));
        let open = if inner { i + 2 } else { i + 1 };
        if !toks.get(open).is_some_and(|t| t.is("[")) {
            i += 1;
            continue;
        }
        let close = matching(toks, open);
        if !test_only(&toks[open + 1..close]) {
            i = close + 1;
            continue;
        }
        let end = if inner {
            // To the bracket that closes the enclosing module, or the end of the file.
            let mut depth = 0i32;
            let mut k = close + 1;
            while k < toks.len() {
                if opens(&toks[k]) {
                    depth += 1;
                } else if closes(&toks[k]) {
                    depth -= 1;
                    if depth < 0 {
                        break;
                    }
                }
                k += 1;
            }
            k - 1
        } else {
            let mut j = close + 1;
            while toks.get(j).is_some_and(|t| t.is("#"))
                && toks.get(j + 1).is_some_and(|t| t.is("["))
            {
                j = matching(toks, j + 1) + 1;
            }
            item_end(toks, j)
        };
        let last = end.min(toks.len() - 1);
        for t in &mut toks[i..=last] {
            t.test = true;
        }
        i = end + 1;
    }
}
