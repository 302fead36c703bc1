//! The export formats: weights for an engine.

use super::FormatError;
use crate::eval::{ParamSet, Weights, NET_ACT_MAX, NET_INPUT_CLAMP, NET_SHIFT};
use std::fmt::Write as _;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The JSON weight file of [`crate::weightfile`], keyed by parameter name.
    Json,
    /// `number,name,weight`, a header line and one line per parameter.
    Csv,
    /// Rust source: `pub const WEIGHTS: [i16; N]`, `pub const NAMES: [&str; N]` and the whole
    /// evaluation as code: `pub fn evaluate(black, white, kings, player_is_white) -> i32`.
    Rust,
    /// A C header: `static const int16_t CHECKERS_WEIGHTS[N]`, `CHECKERS_NAMES` and the whole
    /// evaluation as code: `checkers_evaluate(black, white, kings, player_is_white)`.
    C,
    /// The original tool's weight file: `60 1`, then the 60 weights on one line.
    Original,
}

impl ExportFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Json,
        ExportFormat::Csv,
        ExportFormat::Rust,
        ExportFormat::C,
        ExportFormat::Original,
    ];

    /// The format's name on the command line.
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
                FormatError::Invalid(format!(
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
            crate::weightfile::weights_to_json_with_comment(w, Some(&c))
        }
        ExportFormat::Csv => super::to_csv(w),
        ExportFormat::Rust => to_rust(w, source),
        ExportFormat::C => to_c_header(w, source),
        ExportFormat::Original => crate::weightfile::weights_to_original(w),
    }
}

/// `text` in lines of at most `width` characters (longer words alone on a line), for comments.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The set's evaluation after the values are computed, for the Rust export: `evaluate`.
fn rust_evaluate(set: ParamSet) -> String {
    let head = |what: &str| {
        let text = format!(
            "The evaluation of the position for the player: {what}, saturated to -2^30..=2^30."
        );
        let doc: String = wrap_words(&text, 96)
            .iter()
            .map(|l| format!("/// {l}\n"))
            .collect();
        format!(
            "{doc}\
             pub fn evaluate(black: u32, white: u32, kings: u32, player_is_white: bool) -> i32 {{\n"
        )
    };
    match set {
        ParamSet::Thesis60 => head("the weighted sum of the 60 values")
            + "    let v = features(black, white, kings, player_is_white, false);\n\
               \x20   saturate(weighted_sum(&v[..60], 0))\n}\n",
        ParamSet::Endgame66 => head("the weighted sum of the 66 values")
            + "    let v = features(black, white, kings, player_is_white, true);\n\
               \x20   saturate(weighted_sum(&v, 0))\n}\n",
        ParamSet::Phased132 => head(
            "the opening and endgame sums of the 66 values, mixed by the n pieces on the \
             board: (open * n + end * (24 - n)) / 24",
        ) + "    let v = features(black, white, kings, player_is_white, true);\n\
             \x20   let n = ((black | white).count_ones() as i64).min(24);\n\
             \x20   saturate((weighted_sum(&v, 0) * n + weighted_sum(&v, 66) * (24 - n)) / 24)\n}\n",
        ParamSet::Net66(h) => format!(
            "/// The network's hidden units.\n\
             pub const HIDDEN: usize = {h};\n\n"
        ) + &head(&net_description()) + &format!(
            "    let v = features(black, white, kings, player_is_white, true);\n\
             \x20   let x = v.map(|x| x.clamp(-{NET_INPUT_CLAMP}, {NET_INPUT_CLAMP}));\n\
             \x20   let outs = 66 + HIDDEN * 67;\n\
             \x20   let mut sum = weighted_sum(&v, 0);\n\
             \x20   for j in 0..HIDDEN {{\n\
             \x20       let unit = &WEIGHTS[66 + j * 67..66 + j * 67 + 67];\n\
             \x20       let dot: i32 = x.iter().zip(unit).map(|(&x, &w)| x * w as i32).sum();\n\
             \x20       let act = ((dot + unit[66] as i32) >> {NET_SHIFT}).clamp(0, {NET_ACT_MAX});\n\
             \x20       sum += (act * WEIGHTS[outs + j] as i32) as i64;\n\
             \x20   }}\n\
             \x20   saturate(sum)\n}}\n"
        ),
    }
}

/// The set's evaluation after the values are computed, for the C export: `checkers_evaluate`.
fn c_evaluate(set: ParamSet) -> String {
    let head = |what: &str| {
        let text = format!(
            "The evaluation of the position for the player: {what}, saturated to -2^30..=2^30."
        );
        let doc = wrap_words(&text, 93).join("\n * ");
        format!(
            "/* {doc} */\n\
             static inline int32_t checkers_evaluate(uint32_t black, uint32_t white, uint32_t kings,\n\
             \x20                                       int player_is_white) {{\n\
             \x20   int32_t v[66];\n"
        )
    };
    match set {
        ParamSet::Thesis60 => head("the weighted sum of the 60 values")
            + "    checkers_features(black, white, kings, player_is_white, 0, v);\n\
               \x20   return checkers_saturate(checkers_weighted_sum(v, 60, 0));\n}\n",
        ParamSet::Endgame66 => head("the weighted sum of the 66 values")
            + "    checkers_features(black, white, kings, player_is_white, 1, v);\n\
               \x20   return checkers_saturate(checkers_weighted_sum(v, 66, 0));\n}\n",
        ParamSet::Phased132 => head(
            "the opening and endgame sums of the 66 values, mixed by the n pieces on the \
             board: (open * n + end * (24 - n)) / 24",
        ) + "    int64_t n = checkers_pc(black | white);\n\
             \x20   if (n > 24) n = 24;\n\
             \x20   checkers_features(black, white, kings, player_is_white, 1, v);\n\
             \x20   return checkers_saturate((checkers_weighted_sum(v, 66, 0) * n\n\
             \x20                             + checkers_weighted_sum(v, 66, 66) * (24 - n)) / 24);\n}\n",
        ParamSet::Net66(h) => format!(
            "/* The network's hidden units. */\n#define CHECKERS_HIDDEN {h}\n\n"
        ) + &head(&net_description()) + &format!(
            "    int64_t sum;\n\
             \x20   int i, j;\n\
             \x20   checkers_features(black, white, kings, player_is_white, 1, v);\n\
             \x20   sum = checkers_weighted_sum(v, 66, 0);\n\
             \x20   for (i = 0; i < 66; i++) v[i] = v[i] > {c} ? {c} : v[i] < -{c} ? -{c} : v[i];\n\
             \x20   for (j = 0; j < CHECKERS_HIDDEN; j++) {{\n\
             \x20       const int16_t *unit = CHECKERS_WEIGHTS + 66 + j * 67;\n\
             \x20       int32_t dot = unit[66], act;\n\
             \x20       for (i = 0; i < 66; i++) dot += v[i] * unit[i];\n\
             \x20       /* dot >> {NET_SHIFT} clamped to 0..{NET_ACT_MAX} (no shift of a negative number) */\n\
             \x20       act = dot <= 0 ? 0 : (dot >> {NET_SHIFT}) > {NET_ACT_MAX} ? {NET_ACT_MAX} : dot >> {NET_SHIFT};\n\
             \x20       sum += (int64_t)act * CHECKERS_WEIGHTS[66 + CHECKERS_HIDDEN * 67 + j];\n\
             \x20   }}\n\
             \x20   return checkers_saturate(sum);\n}}\n",
            c = NET_INPUT_CLAMP
        ),
    }
}

/// Rust source: `WEIGHTS` (one weight per line, its number and name in a comment), `NAMES`, and
/// the evaluation as code: `features` (the values of a position given as three bitboards) and
/// `evaluate` (the set's sum, and for net66 the network).
pub fn to_rust(w: &Weights, source: &str) -> String {
    let mut s = String::new();
    s.push_str("// Evaluation weights exported by `checkers-ga export --format rust` from\n");
    let _ = writeln!(s, "// {}.", comment_text(source));
    s.push_str(
        "// Weight i multiplies parameter i of NAMES; each parameter is defined in docs/parameters.md\n",
    );
    s.push_str("// of the checkers-ga repository (file formats: docs/formats.md).\n");
    s.push_str(
        "// `evaluate(black, white, kings, player_is_white)` below is the whole evaluation with these\n\
         // weights, as checkers-ga computes it.\n\n",
    );
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
    s.push_str("];\n\n");
    s.push_str(include_str!("export_eval.rs.txt"));
    s.push('\n');
    s.push_str(&rust_evaluate(w.set()));
    s
}

/// A C header: include guard, `CHECKERS_WEIGHTS` (int16_t, one per line with its number and
/// name in a comment), `CHECKERS_NAMES`, and the evaluation as code (`static inline`):
/// `checkers_features` and `checkers_evaluate`.
pub fn to_c_header(w: &Weights, source: &str) -> String {
    let mut s = String::new();
    s.push_str("/* Evaluation weights exported by `checkers-ga export --format c` from\n");
    let _ = writeln!(s, " * {}.", comment_text(source));
    s.push_str(
        " * Weight i multiplies parameter i of CHECKERS_NAMES; each parameter is defined in\n",
    );
    s.push_str(
        " * docs/parameters.md of the checkers-ga repository (file formats: docs/formats.md).\n",
    );
    s.push_str(
        " * `checkers_evaluate(black, white, kings, player_is_white)` below is the whole evaluation\n\
         \x20* with these weights, as checkers-ga computes it (C99, one header, no other file). */\n",
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
    s.push_str("};\n\n");
    s.push_str(include_str!("export_eval.c.txt"));
    s.push('\n');
    s.push_str(&c_evaluate(w.set()));
    s.push_str("\n#endif /* CHECKERS_WEIGHTS_H */\n");
    s
}

/// What the network set's evaluation computes, for the Rust and the C export alike.
fn net_description() -> String {
    format!(
        "the weighted sum of the 66 values plus the network's output: the sum over the hidden \
         units of the output weight times clamp((bias + sum of input weight * value) >> \
         {NET_SHIFT}, 0, {NET_ACT_MAX}), each value first clamped to \
         -{NET_INPUT_CLAMP}..={NET_INPUT_CLAMP}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_parse() {
        for f in ExportFormat::ALL {
            assert_eq!(f.name().parse::<ExportFormat>().unwrap(), f);
        }
        let e = "xml".parse::<ExportFormat>().unwrap_err();
        assert!(
            e.to_string().contains("json, csv, rust, c, original"),
            "{e}"
        );
    }
}
