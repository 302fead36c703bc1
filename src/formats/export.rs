//! The export formats: weights for an engine.

use super::FormatError;
use crate::eval::Weights;
use std::fmt::Write as _;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The JSON weight file of [`crate::weights`], keyed by parameter name.
    Json,
    /// `number,name,weight`, a header line and one line per parameter.
    Csv,
    /// Rust source: `pub const WEIGHTS: [i16; 60]` and `pub const NAMES: [&str; 60]`.
    Rust,
    /// A C header: `static const int16_t CHECKERS_WEIGHTS[60]` and `CHECKERS_NAMES`.
    C,
    /// The original tool's weight file: `60 1`, then the 60 weights on one line.
    Original,
}

impl ExportFormat {
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Json,
        ExportFormat::Csv,
        ExportFormat::Rust,
        ExportFormat::C,
        ExportFormat::Original,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Csv => "csv",
            ExportFormat::Rust => "rust",
            ExportFormat::C => "c",
            ExportFormat::Original => "original",
        }
    }
}

impl std::str::FromStr for ExportFormat {
    type Err = FormatError;
    fn from_str(s: &str) -> Result<Self, FormatError> {
        let lower = s.to_ascii_lowercase();
        ExportFormat::ALL
            .into_iter()
            .find(|f| f.name() == lower)
            .ok_or_else(|| {
                let names: Vec<&str> = ExportFormat::ALL.iter().map(|f| f.name()).collect();
                FormatError(format!(
                    "unknown export format '{s}' (expected one of: {})",
                    names.join(", ")
                ))
            })
    }
}

/// `source` on one line, safe inside a `//` or `/* */` comment.
fn comment_text(source: &str) -> String {
    source
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("*/", "* /")
}

/// The weights in `format`; `source` says where they come from (it goes into a comment where
/// the format has one; JSON takes `comment` when given, else a line naming `source`).
pub fn export(w: &Weights, format: ExportFormat, source: &str, comment: Option<&str>) -> String {
    match format {
        ExportFormat::Json => {
            let c = match comment {
                Some(c) => c.to_string(),
                None => format!("exported from {}", comment_text(source)),
            };
            crate::weights::weights_to_json_with_comment(w, Some(&c))
        }
        ExportFormat::Csv => super::to_csv(w),
        ExportFormat::Rust => to_rust(w, source),
        ExportFormat::C => to_c_header(w, source),
        ExportFormat::Original => crate::weights::weights_to_original(w),
    }
}

/// Rust source: `WEIGHTS` (one weight per line, its number and name in a comment) and `NAMES`.
pub fn to_rust(w: &Weights, source: &str) -> String {
    let mut s = String::new();
    s.push_str("// Evaluation weights exported by `checkers-ga export --format rust` from\n");
    let _ = writeln!(s, "// {}.", comment_text(source));
    s.push_str(
        "// Weight i multiplies parameter i of NAMES; each parameter is defined in docs/parameters.md\n",
    );
    s.push_str("// of the checkers-ga repository (file formats: docs/formats.md).\n\n");
    let n = w.len();
    let params = w.set().params();
    s.push_str("/// The parameter set the weights are for.\n");
    let _ = writeln!(s, "pub const PARAMS: &str = \"{}\";\n", w.set());
    let _ = writeln!(s, "/// The {n} evaluation weights.");
    let _ = writeln!(s, "pub const WEIGHTS: [i16; {n}] = [");
    for (i, p) in params.iter().enumerate() {
        let v = format!("{},", w[i]);
        let _ = writeln!(s, "    {v:<7} // {} {}", i + 1, p.name);
    }
    s.push_str("];\n\n");
    s.push_str("/// The parameter names, in the same order.\n");
    let _ = writeln!(s, "pub const NAMES: [&str; {n}] = [");
    for p in params.iter() {
        let _ = writeln!(s, "    \"{}\",", p.name);
    }
    s.push_str("];\n");
    s
}

/// A C header: include guard, `CHECKERS_WEIGHTS` (int16_t, one per line with its number and
/// name in a comment) and `CHECKERS_NAMES`.
pub fn to_c_header(w: &Weights, source: &str) -> String {
    let mut s = String::new();
    s.push_str("/* Evaluation weights exported by `checkers-ga export --format c` from\n");
    let _ = writeln!(s, " * {}.", comment_text(source));
    s.push_str(
        " * Weight i multiplies parameter i of CHECKERS_NAMES; each parameter is defined in\n",
    );
    s.push_str(
        " * docs/parameters.md of the checkers-ga repository (file formats: docs/formats.md). */\n",
    );
    s.push_str("#ifndef CHECKERS_WEIGHTS_H\n#define CHECKERS_WEIGHTS_H\n\n");
    s.push_str("#include <stdint.h>\n\n");
    let params = w.set().params();
    let _ = writeln!(s, "#define CHECKERS_PARAMS \"{}\"", w.set());
    let _ = writeln!(s, "#define CHECKERS_NUM_WEIGHTS {}\n", w.len());
    s.push_str("static const int16_t CHECKERS_WEIGHTS[CHECKERS_NUM_WEIGHTS] = {\n");
    for (i, p) in params.iter().enumerate() {
        // -32768 is unary minus on the int 32768: the result fits an int16_t.
        let v = format!("{},", w[i]);
        let _ = writeln!(s, "    {v:<7} /* {} {} */", i + 1, p.name);
    }
    s.push_str("};\n\n");
    s.push_str("static const char *const CHECKERS_NAMES[CHECKERS_NUM_WEIGHTS] = {\n");
    for p in params.iter() {
        let _ = writeln!(s, "    \"{}\",", p.name);
    }
    s.push_str("};\n\n#endif /* CHECKERS_WEIGHTS_H */\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_parse() {
        for f in ExportFormat::ALL {
            assert_eq!(f.name().parse::<ExportFormat>(), Ok(f));
        }
        let e = "xml".parse::<ExportFormat>().unwrap_err();
        assert!(e.0.contains("json, csv, rust, c, original"), "{e}");
    }
}
