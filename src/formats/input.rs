//! Reading any file that holds weights; the kind is told by the content, not the name.

use super::{fail, FormatError};
use crate::eval::{ParamSet, Weights, NUM_PARAMS, PARAMS};
use crate::ga::Session;
use crate::store::CHECKPOINT_MAGIC;
use std::path::Path;

/// What kind of file an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A JSON weight file ([`crate::weightfile`]).
    Json,
    /// A CSV export (`number,name,weight`).
    Csv,
    /// The original tool's weight file (`60 1`, then 60 integers).
    OriginalWeights,
    /// The original tool's population file (`60 POP GENERATION ...`, one individual per line).
    OriginalPopulation,
    /// A checkpoint of a session ([`crate::store`]).
    Checkpoint,
}

impl InputKind {
    /// The kind in words, for headers.
    pub fn description(self) -> &'static str {
        match self {
            InputKind::Json => "JSON weight file",
            InputKind::Csv => "CSV weight file",
            InputKind::OriginalWeights => "weight file of the original tool",
            InputKind::OriginalPopulation => "population file of the original tool",
            InputKind::Checkpoint => "checkpoint",
        }
    }
}

/// A file that holds weights, read. (Read once per command: the size of a weight vector
/// inline is no concern.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Input {
    /// One weight vector (JSON, CSV or the original weight file).
    Weights {
        kind: InputKind,
        weights: Weights,
        comment: Option<String>,
    },
    /// A population file of the original tool.
    Population {
        /// The GENERATION field of the header, when there is one.
        generation: Option<String>,
        individuals: Vec<Weights>,
    },
    /// A session checkpoint.
    Checkpoint(Box<Session>),
}

impl Input {
    pub fn kind(&self) -> InputKind {
        match self {
            Input::Weights { kind, .. } => *kind,
            Input::Population { .. } => InputKind::OriginalPopulation,
            Input::Checkpoint(_) => InputKind::Checkpoint,
        }
    }
}

/// The first characters of a text, on one line, for error messages.
fn starts_with_text(t: &str) -> String {
    let first = t.lines().next().unwrap_or("");
    let mut s: String = first.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 30 {
        s = s.chars().take(30).collect::<String>() + "...";
    }
    s
}

/// Reads a file that holds weights; the kind is detected from the content.
pub fn load_input(path: &Path) -> Result<Input, FormatError> {
    if path.is_dir() {
        return fail(format!("'{}' is a folder, not a file", path.display()));
    }
    let bytes = crate::files::read_bounded(path).map_err(|source| FormatError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_input(path, &bytes)
}

/// Reads the bytes of a file that holds weights; `path` only names the file in errors.
pub fn parse_input(path: &Path, bytes: &[u8]) -> Result<Input, FormatError> {
    let shown = path.display();
    if bytes.starts_with(CHECKPOINT_MAGIC) {
        let session = crate::store::decode_checkpoint(path, bytes)?;
        return Ok(Input::Checkpoint(Box::new(session)));
    }
    let what = "not a weight file, checkpoint or population file";
    let Ok(text) = std::str::from_utf8(bytes) else {
        return fail(format!("'{shown}': {what} (binary data)"));
    };
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.is_empty() {
        return fail(format!("'{shown}': the file is empty"));
    }
    if t.starts_with(['{', '[']) {
        let f = crate::weightfile::parse_weight_file(t).map_err(|e| e.at(path))?;
        return Ok(Input::Weights {
            kind: InputKind::Json,
            weights: f.weights,
            comment: f.comment,
        });
    }
    if t.to_ascii_lowercase().starts_with("number,") {
        let weights =
            super::parse_csv(t).map_err(|e| FormatError::Invalid(format!("'{shown}': {e}")))?;
        return Ok(Input::Weights {
            kind: InputKind::Csv,
            weights,
            comment: None,
        });
    }
    let head: Vec<&str> = t.lines().next().unwrap_or("").split_whitespace().collect();
    // The larger sets in the original's weight-file form: `66 1`, `132 1` or a network's
    // `N 1` (the header line of every set but thesis60's).
    let larger = match head.as_slice() {
        [n, "1"] => n
            .parse()
            .ok()
            .and_then(crate::eval::ParamSet::from_len)
            .is_some_and(|s| s != crate::eval::ParamSet::Thesis60),
        _ => false,
    };
    if head.first() == Some(&"60") || larger {
        if head == ["60", "1"] || larger {
            let f = crate::weightfile::parse_weight_file(t).map_err(|e| e.at(path))?;
            return Ok(Input::Weights {
                kind: InputKind::OriginalWeights,
                weights: f.weights,
                comment: None,
            });
        }
        let (generation, individuals) =
            parse_population(t).map_err(|e| FormatError::Invalid(format!("'{shown}': {e}")))?;
        return Ok(Input::Population {
            generation,
            individuals,
        });
    }
    fail(format!(
        "'{shown}': {what} (expected JSON, CSV, a checkpoint or a text file of the original tool \
         starting with '60 '; it starts with '{}')",
        starts_with_text(t)
    ))
}

/// Reads a population file of the original tool: a line `60 POP GENERATION ...`, then one line
/// of 60 integers per individual. Returns the GENERATION field (if any) and the individuals.
pub fn parse_population(text: &str) -> Result<(Option<String>, Vec<Weights>), FormatError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let head: Vec<&str> = match lines.next() {
        Some((_, l)) => l.split_whitespace().collect(),
        None => return fail("population file: the file is empty"),
    };
    if head.len() < 2 || head[0] != "60" {
        return fail(format!(
            "population file: the first line must start with '60 POPULATION', found '{}'",
            head.join(" ")
        ));
    }
    let n: usize = head[1].parse().map_err(|_| {
        FormatError::Invalid(format!(
            "population file: population size '{}' is not a number",
            head[1]
        ))
    })?;
    let mut pop = Vec::new();
    for (lineno, line) in lines {
        let vals: Vec<&str> = line.split_whitespace().collect();
        if vals.len() != NUM_PARAMS {
            return fail(format!(
                "population file: line {} has {} weights, expected {NUM_PARAMS}",
                lineno + 1,
                vals.len()
            ));
        }
        let w = crate::weightfile::parse_weight_tokens(ParamSet::Thesis60, &vals).map_err(
            |(k, v, _)| {
                FormatError::Invalid(format!(
                    "population file: line {}, weight {} ({}) is '{v}', not an integer in \
                 -32768..=32767",
                    lineno + 1,
                    k + 1,
                    PARAMS[k].name
                ))
            },
        )?;
        pop.push(w);
    }
    if pop.len() != n {
        return fail(format!(
            "population file: the header says {n} individuals, found {}",
            pop.len()
        ));
    }
    Ok((head.get(2).map(|s| s.to_string()), pop))
}
