//! Weight files: reading, writing and checking them (described for users in docs/formats.md).
//!
//! Two formats load, told apart by their first non-blank character:
//!
//! **JSON** (what this tool writes), keyed by the stable parameter names of the set it holds
//! ([`ParamSet::params`]), one parameter per line in weight order:
//!
//! ```text
//! {
//!   "format": "checkers-ga weights",
//!   "version": 1,
//!   "params": "thesis60",
//!   "session": "2026-05-01-101500",
//!   "seed": 1234,
//!   "generation": 2000,
//!   "comment": "optional free text",
//!   "weights": {
//!     "men": 100,
//!     "kings": 160,
//!     ...
//!     "opp_longest_block_line": 0
//!   }
//! }
//! ```
//!
//! `params` names the parameter set: `thesis60` (the thesis's 60, the default when the key is
//! absent), `endgame66`, `phased132` or `net66:H` (a network with H hidden units, `net66` alone
//! for 8). `weights` is required and must name every parameter of
//! that set exactly once, each with an integer in -32768..=32767 (the order inside the object
//! does not matter). `format` (if present) must be `"checkers-ga weights"`, `version` (if
//! present) must be 1, `comment` (if present) is a string. `session` (a string), `seed` and
//! `generation` (integers) say which session's best so far the file holds, after which
//! generation; they are written into a session's `NAME-best.json` and go together (all three or
//! none; files without them load as before). No other top-level keys are accepted, so a misspelt
//! key is reported rather than ignored.
//!
//! **The original tool's text format**: a first line `60 1`, then the 60 weights as integers
//! (normally on one line; any whitespace separates them). The larger sets are written the same
//! way with `66 1` or `132 1`.
//!
//! Errors are one line, name the file (when there is one) and the problem: unknown parameter
//! names, missing names, duplicated names, values outside `i16` (with the parameter), not JSON.
//!
//! # Example
//!
//! ```
//! use checkers_ga::material;
//! use checkers_ga::weightfile::{load_weights, parse_weights, save_weights, weights_to_json};
//!
//! let w = material();
//! assert_eq!(parse_weights(&weights_to_json(&w)).unwrap(), w);
//! let path = std::env::temp_dir().join(format!("ckga-doc-weights-{}.json", std::process::id()));
//! save_weights(&path, &w).unwrap();
//! assert_eq!(load_weights(&path).unwrap(), w);
//! std::fs::remove_file(&path).unwrap();
//! assert!(parse_weights("{}").is_err()); // `weights` is required
//! ```

use crate::eval::{ParamSet, Weights, MAX_WEIGHTS};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::path::{Path, PathBuf};

/// The value of the `format` key of a JSON weight file.
pub const FORMAT_NAME: &str = "checkers-ga weights";
/// The `version` this tool writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// A weight file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightFile {
    /// The weights read.
    pub weights: Weights,
    /// The JSON `comment`, if any (the original format has none).
    pub comment: Option<String>,
    /// The session whose best so far the file holds, if it says (JSON only).
    pub origin: Option<Origin>,
}

/// Where a session's best-weights file comes from: the JSON keys `session`, `seed` and
/// `generation`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The session's name.
    pub session: String,
    /// The session's seed.
    pub seed: u64,
    /// The generations the session had played when the file was written (the weights are its
    /// best so far then).
    pub generation: u64,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "session '{}', seed {}, generation {}",
            self.session, self.seed, self.generation
        )
    }
}

/// What is wrong with a weight file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsErrorKind {
    /// The file could not be read or written.
    Io(String),
    /// Neither JSON nor the original text format, or JSON that does not parse.
    NotJson(String),
    /// JSON of the wrong shape (top-level keys, format, version, comment).
    Format(String),
    /// Parameter names that do not exist.
    UnknownNames(Vec<String>),
    /// Parameter names that are absent.
    MissingNames(Vec<String>),
    /// A parameter given more than once.
    Duplicate(String),
    /// A value that is not an integer in the `i16` range (the text of the value as written).
    BadValue {
        /// The parameter's name.
        name: String,
        /// The value as written.
        value: String,
    },
    /// The original text format, malformed.
    Original(String),
}

impl fmt::Display for WeightsErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsErrorKind::Io(m) => f.write_str(m),
            WeightsErrorKind::NotJson(m) => write!(f, "not a weight file: {m}"),
            WeightsErrorKind::Format(m) => f.write_str(m),
            WeightsErrorKind::UnknownNames(v) => {
                let s = if v.len() == 1 { "" } else { "s" };
                write!(f, "unknown parameter name{s}: {}", v.join(", "))
            }
            WeightsErrorKind::MissingNames(v) => {
                let s = if v.len() == 1 { "" } else { "s" };
                write!(f, "missing parameter{s}: {}", v.join(", "))
            }
            WeightsErrorKind::Duplicate(n) => write!(f, "parameter {n} is given more than once"),
            WeightsErrorKind::BadValue { name, value } => write!(
                f,
                "weight of {name} is {value}, not an integer in -32768..=32767"
            ),
            WeightsErrorKind::Original(m) => write!(f, "original-format weight file: {m}"),
        }
    }
}

/// A weight file problem; its message is one line naming the file (when known) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The file, when the weights came from one.
    pub path: Option<PathBuf>,
    /// What is wrong.
    pub kind: WeightsErrorKind,
}

impl WeightsError {
    fn new(kind: WeightsErrorKind) -> WeightsError {
        WeightsError { path: None, kind }
    }

    /// The same error, naming the file `path`.
    pub fn at(mut self, path: &Path) -> WeightsError {
        self.path = Some(path.to_path_buf());
        self
    }
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "weight file {}: {}", p.display(), self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for WeightsError {}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A JSON object read as its entries in order, duplicates kept (so they can be reported).
struct Entries(Vec<(String, serde_json::Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entries, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of parameter names to integers")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Entries, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = m.next_entry::<String, serde_json::Value>()? {
                    v.push((k, val));
                }
                Ok(Entries(v))
            }
        }
        d.deserialize_map(V)
    }
}

/// The top-level object: its entries in order, `weights` read as [`Entries`].
struct Top(Vec<(String, TopValue)>);

enum TopValue {
    Weights(Entries),
    Other(serde_json::Value),
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object with a \"weights\" object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Top, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    let val = if k == "weights" {
                        TopValue::Weights(m.next_value()?)
                    } else {
                        TopValue::Other(m.next_value()?)
                    };
                    v.push((k, val));
                }
                Ok(Top(v))
            }
        }
        d.deserialize_map(V)
    }
}

fn format_err<T>(msg: String) -> Result<T, WeightsError> {
    Err(WeightsError::new(WeightsErrorKind::Format(msg)))
}

fn parse_json(text: &str) -> Result<WeightFile, WeightsError> {
    let top: Top = serde_json::from_str(text).map_err(|e| {
        let msg = one_line(&e.to_string());
        WeightsError::new(match e.classify() {
            serde_json::error::Category::Data => WeightsErrorKind::Format(msg),
            _ => WeightsErrorKind::NotJson(format!("invalid JSON: {msg}")),
        })
    })?;
    let mut entries = None;
    let mut comment = None;
    let (mut session, mut seed, mut generation) = (None, None, None);
    let mut set = ParamSet::Thesis60;
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in &top.0 {
        if seen.contains(&key.as_str()) {
            return format_err(format!("key \"{key}\" is given more than once"));
        }
        seen.push(key);
        let value = match value {
            TopValue::Weights(e) => {
                entries = Some(e);
                continue;
            }
            TopValue::Other(v) => v,
        };
        match key.as_str() {
            "format" => {
                if value.as_str() != Some(FORMAT_NAME) {
                    return format_err(format!(
                        "\"format\" is {value}, expected \"{FORMAT_NAME}\""
                    ));
                }
            }
            "version" => {
                if value.as_u64() != Some(FORMAT_VERSION) {
                    return format_err(format!(
                        "unsupported \"version\" {value} (this tool reads version {FORMAT_VERSION})"
                    ));
                }
            }
            "comment" => match value.as_str() {
                Some(s) => comment = Some(s.to_string()),
                None => return format_err(format!("\"comment\" is {value}, not a string")),
            },
            "params" => match value.as_str().and_then(ParamSet::from_name) {
                Some(p) => set = p,
                None => {
                    return format_err(format!(
                    "\"params\" is {value}, expected \"thesis60\", \"endgame66\", \"phased132\" or \"net66:H\""
                ))
                }
            },
            "session" => match value.as_str() {
                Some(s) => session = Some(s.to_string()),
                None => return format_err(format!("\"session\" is {value}, not a string")),
            },
            "seed" | "generation" => {
                let Some(n) = value.as_u64() else {
                    return format_err(format!(
                        "\"{key}\" is {value}, not an integer in 0..=18446744073709551615"
                    ));
                };
                if key == "seed" {
                    seed = Some(n);
                } else {
                    generation = Some(n);
                }
            }
            _ => {
                return format_err(format!(
                    "unknown key \"{key}\" (expected format, version, params, session, seed, \
                     generation, comment, weights)"
                ))
            }
        }
    }
    let origin = match (session, seed, generation) {
        (None, None, None) => None,
        (Some(session), Some(seed), Some(generation)) => Some(Origin {
            session,
            seed,
            generation,
        }),
        _ => {
            return format_err(
                "\"session\", \"seed\" and \"generation\" go together: give all three or none"
                    .to_string(),
            )
        }
    };
    let Some(entries) = entries else {
        return format_err("no \"weights\" object".to_string());
    };
    let n = set.len();
    let mut values: [Option<i16>; MAX_WEIGHTS] = [None; MAX_WEIGHTS];
    let mut unknown = Vec::new();
    for (name, value) in &entries.0 {
        let Some(i) = set.index_of(name) else {
            unknown.push(name.clone());
            continue;
        };
        if values[i].is_some() {
            return Err(WeightsError::new(WeightsErrorKind::Duplicate(name.clone())));
        }
        let v = value
            .as_i64()
            .and_then(|x| i16::try_from(x).ok())
            .ok_or_else(|| {
                WeightsError::new(WeightsErrorKind::BadValue {
                    name: name.clone(),
                    value: one_line(&value.to_string()),
                })
            })?;
        values[i] = Some(v);
    }
    if !unknown.is_empty() {
        if set == ParamSet::Thesis60 {
            // Names of a larger set without its "params" key: say which set they belong to.
            if let Some(other) =
                ParamSet::every().find(|o| unknown.iter().all(|u| o.index_of(u).is_some()))
            {
                return format_err(format!(
                    "parameters of the {other} set ({}) in a file without \"params\": \"{other}\"",
                    unknown[0]
                ));
            }
        }
        return Err(WeightsError::new(WeightsErrorKind::UnknownNames(unknown)));
    }
    let params = set.params();
    let missing: Vec<String> = (0..n)
        .filter(|&i| values[i].is_none())
        .map(|i| params[i].name.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(WeightsError::new(WeightsErrorKind::MissingNames(missing)));
    }
    let w: Vec<i16> = values[..n].iter().map(|v| v.unwrap_or(0)).collect();
    Ok(WeightFile {
        weights: Weights::new(set, &w).expect("one value per parameter"),
        comment,
        origin,
    })
}

fn parse_original(text: &str) -> Result<WeightFile, WeightsError> {
    let bad = |m: String| WeightsError::new(WeightsErrorKind::Original(m));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    // `60 1` is the original tool's; `66 1` and `132 1` are the larger sets in the same form.
    let set = match header.as_slice() {
        [n, "1"] => n.parse().ok().and_then(ParamSet::from_len),
        _ => None,
    };
    let Some(set) = set else {
        return Err(bad(format!(
            "first line is '{}', expected '60 1' (or '66 1', '132 1' for the larger sets)",
            header.join(" ")
        )));
    };
    let tokens: Vec<&str> = lines.flat_map(|l| l.split_whitespace()).collect();
    if tokens.len() != set.len() {
        return Err(bad(format!(
            "expected {} weights after the header, found {}",
            set.len(),
            tokens.len()
        )));
    }
    let params = set.params();
    let weights = parse_weight_tokens(set, &tokens).map_err(|(i, tok, e)| match e {
        TokenError::OutOfRange => WeightsError::new(WeightsErrorKind::BadValue {
            name: format!("{} (parameter {})", params[i].name, i + 1),
            value: tok.to_string(),
        }),
        TokenError::NotInteger => bad(format!(
            "weight {} ({}) is '{tok}', not an integer",
            i + 1,
            params[i].name
        )),
    })?;
    Ok(WeightFile {
        weights,
        comment: None,
        origin: None,
    })
}

/// Why a token of the original text formats is not a weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// Not an integer at all.
    NotInteger,
    /// An integer outside the `i16` range.
    OutOfRange,
}

/// Reads the whitespace-separated weights of `set` (the original tool's text formats). The
/// caller has checked the count; an error gives the index and text of the bad token.
pub fn parse_weight_tokens<'a>(
    set: ParamSet,
    tokens: &[&'a str],
) -> Result<Weights, (usize, &'a str, TokenError)> {
    let mut w = Weights::zero_of(set);
    for (i, (slot, tok)) in w.values_mut().iter_mut().zip(tokens).enumerate() {
        *slot = match tok.parse::<i64>() {
            Ok(x) => i16::try_from(x).map_err(|_| (i, *tok, TokenError::OutOfRange))?,
            Err(_) => return Err((i, *tok, TokenError::NotInteger)),
        };
    }
    Ok(w)
}

/// Reads a weight file's text, JSON or the original format (detected by the first character).
pub fn parse_weight_file(text: &str) -> Result<WeightFile, WeightsError> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    match t.chars().next() {
        Some('{' | '[') => parse_json(t),
        Some(c) if c.is_ascii_digit() || c == '-' || c == '+' => parse_original(t),
        None => Err(WeightsError::new(WeightsErrorKind::NotJson(
            "the file is empty".to_string(),
        ))),
        Some(_) => {
            let first: String = one_line(t.lines().next().unwrap_or(""))
                .chars()
                .take(40)
                .collect();
            Err(WeightsError::new(WeightsErrorKind::NotJson(format!(
                "neither JSON nor the original '60 1' text format (starts with '{first}')"
            ))))
        }
    }
}

/// Reads weights from text, JSON or the original format.
pub fn parse_weights(text: &str) -> Result<Weights, WeightsError> {
    parse_weight_file(text).map(|f| f.weights)
}

/// Reads a weight file (weights and comment).
pub fn load_weight_file(path: &Path) -> Result<WeightFile, WeightsError> {
    let io = |e: String| WeightsError::new(WeightsErrorKind::Io(e)).at(path);
    let bytes = crate::files::read_bounded(path).map_err(|e| io(format!("cannot read it: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| io("it is not UTF-8 text".to_string()))?;
    parse_weight_file(&text).map_err(|e| e.at(path))
}

/// Reads the weights of a weight file.
pub fn load_weights(path: &Path) -> Result<Weights, WeightsError> {
    load_weight_file(path).map(|f| f.weights)
}

/// The JSON form (no comment): one parameter per line, in weight order.
pub fn weights_to_json(w: &Weights) -> String {
    weights_to_json_with_comment(w, None)
}

/// The JSON form with an optional `comment` line.
pub fn weights_to_json_with_comment(w: &Weights, comment: Option<&str>) -> String {
    weights_to_json_full(w, comment, None)
}

/// The JSON form with an optional origin (`session`, `seed`, `generation`) and `comment`.
pub fn weights_to_json_full(w: &Weights, comment: Option<&str>, origin: Option<&Origin>) -> String {
    let quote = |t: &str| serde_json::to_string(t).expect("a string always serializes");
    let mut s = String::new();
    s.push_str("{\n");
    s.push_str(&format!("  \"format\": \"{FORMAT_NAME}\",\n"));
    s.push_str(&format!("  \"version\": {FORMAT_VERSION},\n"));
    s.push_str(&format!("  \"params\": \"{}\",\n", w.set()));
    if let Some(o) = origin {
        s.push_str(&format!("  \"session\": {},\n", quote(&o.session)));
        s.push_str(&format!("  \"seed\": {},\n", o.seed));
        s.push_str(&format!("  \"generation\": {},\n", o.generation));
    }
    if let Some(c) = comment {
        s.push_str(&format!("  \"comment\": {},\n", quote(c)));
    }
    s.push_str("  \"weights\": {\n");
    let n = w.len();
    for (i, (p, v)) in w.set().params().iter().zip(w.values()).enumerate() {
        let comma = if i + 1 < n { "," } else { "" };
        s.push_str(&format!("    \"{}\": {v}{comma}\n", p.name));
    }
    s.push_str("  }\n}\n");
    s
}

/// The original tool's text format: `60 1`, then the 60 weights on one line (for the larger
/// sets `66 1` or `132 1` and their weights, which the original tool cannot read).
pub fn weights_to_original(w: &Weights) -> String {
    let vals: Vec<String> = w.values().iter().map(|v| v.to_string()).collect();
    format!("{} 1\n{}\n", w.len(), vals.join(" "))
}

/// Saves weights as a JSON weight file, atomically: a temporary file in the same directory is
/// written and synced, then renamed over `path` ([`crate::files::write_atomic`]), so a reader
/// never sees a half-written file.
pub fn save_weights(path: &Path, w: &Weights) -> Result<(), WeightsError> {
    save_weight_file(path, w, None)
}

/// Saves weights as a JSON weight file with an optional comment (atomically).
pub fn save_weight_file(
    path: &Path,
    w: &Weights,
    comment: Option<&str>,
) -> Result<(), WeightsError> {
    write_json(path, &weights_to_json_with_comment(w, comment))
}

/// Saves a session's best so far as a JSON weight file that names its origin (atomically).
pub fn save_best_weights(path: &Path, w: &Weights, origin: &Origin) -> Result<(), WeightsError> {
    write_json(path, &weights_to_json_full(w, None, Some(origin)))
}

/// Saves a session's weights with their origin and a comment (atomically).
pub fn save_best_weights_with_comment(
    path: &Path,
    w: &Weights,
    origin: &Origin,
    comment: &str,
) -> Result<(), WeightsError> {
    write_json(path, &weights_to_json_full(w, Some(comment), Some(origin)))
}

fn write_json(path: &Path, text: &str) -> Result<(), WeightsError> {
    crate::files::write_atomic(path, text.as_bytes()).map_err(|e| {
        WeightsError::new(WeightsErrorKind::Io(format!("cannot write it: {e}"))).at(path)
    })
}
