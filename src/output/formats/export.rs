//! The export formats: weights for an engine. The list of formats, the export in each, and the
//! prefix of the exported names (a session's answer's by its session); the Rust and the C source are file `code`.

use super::code::{comment_text, to_c_header, to_rust};
use super::FormatError;
use crate::eval::Weights;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The JSON weight file of [`crate::weightfile`], keyed by parameter name.
    Json,
    /// `number,name,weight`, a header line and one line per parameter.
    Csv,
    /// Rust source for a module of its own: `pub const WEIGHTS: [i16; N]`, `NAMES`,
    /// `MAN_VALUE` and the whole evaluation as code: `evaluate(black, white, kings,
    /// player_is_white)`, `evaluate_for_root` (what a negamax search calls at its leaves),
    /// `evaluate_side_to_move` and `to_centimen`.
    Rust,
    /// A C header, every name prefixed (`PREFIX_WEIGHTS`, `prefix_evaluate`, ...): the weights,
    /// names, `PREFIX_MAN_VALUE` and the same functions as [`ExportFormat::Rust`].
    C,
    /// The original tool's weight file: `60 1`, then the 60 weights on one line.
    Original,
    /// An outside engine's parameters as the Hub commands that set them (`set-param` lines);
    /// [`export`] refuses it for weights ([`ExportFormat::for_weights`]).
    Hub,
}

impl ExportFormat {
    /// Every format, in the order `--help` lists them: the one list of formats, from which
    /// every list of names in a message is made.
    pub const ALL: [ExportFormat; 6] = [
        ExportFormat::Json,
        ExportFormat::Csv,
        ExportFormat::Rust,
        ExportFormat::C,
        ExportFormat::Original,
        ExportFormat::Hub,
    ];

    /// Whether weights (of any parameter set) export in this format: all but `hub`.
    pub fn for_weights(self) -> bool {
        self != ExportFormat::Hub
    }

    /// Whether an outside engine's parameters export in this format: `hub` and `json`.
    pub fn for_engine(self) -> bool {
        matches!(self, ExportFormat::Hub | ExportFormat::Json)
    }

    /// The names of the formats `keep` keeps, in [`ExportFormat::ALL`]'s order, joined by
    /// `, ` (`json, csv, rust, c, original, hub` for all).
    pub fn names(keep: impl Fn(ExportFormat) -> bool) -> String {
        let names: Vec<&str> = ExportFormat::ALL
            .into_iter()
            .filter(|&f| keep(f))
            .map(ExportFormat::name)
            .collect();
        names.join(", ")
    }

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Csv => "csv",
            ExportFormat::Rust => "rust",
            ExportFormat::C => "c",
            ExportFormat::Original => "original",
            ExportFormat::Hub => "hub",
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
                FormatError::Invalid(format!(
                    "unknown export format '{s}' (expected one of: {}; {} only for an outside \
                     engine's parameters)",
                    ExportFormat::names(|_| true),
                    ExportFormat::names(|f| !f.for_weights())
                ))
            })
    }
}

/// The weights in `format`; `source` says where they come from (it goes into a comment where
/// the format has one; JSON takes `comment` when given, else a line naming `source`). `prefix`
/// (see [`prefix_from_name`] and [`check_prefix`]) names the C export's symbols and the Rust
/// export's suggested module. `hub` is refused: it is the format of an outside engine's
/// parameters ([`super::set_param_script`]), not of weights.
pub fn export(
    w: &Weights,
    format: ExportFormat,
    source: &str,
    comment: Option<&str>,
    prefix: &str,
) -> Result<String, FormatError> {
    Ok(match format {
        ExportFormat::Json => {
            let c = match comment {
                Some(c) => c.to_string(),
                None => format!("exported from {}", comment_text(source)),
            };
            crate::weightfile::weights_to_json_with_comment(w, Some(&c))
        }
        ExportFormat::Csv => super::to_csv(w),
        ExportFormat::Rust => to_rust(w, source, prefix),
        ExportFormat::C => to_c_header(w, source, prefix),
        ExportFormat::Original => crate::weightfile::weights_to_original(w),
        ExportFormat::Hub => {
            return Err(FormatError::Invalid(format!(
                "--format hub: only an outside engine's parameters export as hub (its set-param \
                 lines); weights export as {}",
                ExportFormat::names(ExportFormat::for_weights)
            )))
        }
    })
}

/// The prefix a file name gives the exported symbols: the name without its folder and last
/// extension, lower case, every run of characters other than ASCII letters and digits made one
/// `_`, leading and trailing `_` dropped, `w` put before a leading digit, and `_` added:
/// `weights/evolved-hour.json` gives `evolved_hour_`. A name with no letter or digit gives
/// `checkers_`.
pub fn prefix_from_name(name: &str) -> String {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = match file.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => file,
    };
    let mut out = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_');
    if out.is_empty() {
        return "checkers_".into();
    }
    let lead = if out.starts_with(|c: char| c.is_ascii_digit()) {
        "w"
    } else {
        ""
    };
    format!("{lead}{out}_")
}

/// The prefix of an export of a session's answer, the file `answer_file` (the name a session
/// gives its answer, `best.json`) in its folder `NAME/`: `NAME_best_`, so that two sessions'
/// answers exported side by side get two prefixes, not `best_` twice. None for any other
/// `path`, whose prefix is its file name's ([`prefix_from_name`]).
pub fn answer_prefix(path: &std::path::Path, answer_file: &str) -> Option<String> {
    if path.file_name()? != answer_file {
        return None;
    }
    let session = path.parent()?.file_name()?.to_string_lossy();
    Some(prefix_from_name(&format!("{session}-best")))
}

/// A prefix given by a user (`--prefix`): a C identifier (ASCII letters, digits and `_`, not
/// starting with a digit), with `_` added when it does not end with one. Names starting with
/// `_` are refused (C reserves many of them).
pub fn check_prefix(p: &str) -> Result<String, FormatError> {
    let ok = p.starts_with(|c: char| c.is_ascii_alphabetic())
        && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(FormatError::Invalid(format!(
            "prefix '{p}' is not a C identifier (letters, digits and _, starting with a letter)"
        )));
    }
    Ok(if p.ends_with('_') {
        p.to_string()
    } else {
        format!("{p}_")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_parse() {
        for f in ExportFormat::ALL {
            assert_eq!(f.name().parse::<ExportFormat>().unwrap(), f);
        }
        let e = "xml".parse::<ExportFormat>().unwrap_err().to_string();
        // Every format is named, from the one list.
        for f in ExportFormat::ALL {
            assert!(
                e.contains(&format!(" {},", f.name())) || e.contains(&format!(" {};", f.name())),
                "{e}"
            );
        }
        assert!(e.contains("json, csv, rust, c, original, hub;"), "{e}");
    }

    #[test]
    fn prefixes_from_names() {
        for (name, want) in [
            ("weights/evolved-hour.json", "evolved_hour_"),
            ("evolved-hour.json", "evolved_hour_"),
            ("a\\b\\Thesis Table 4.2.csv", "thesis_table_4_2_"),
            ("gen-00012.ckpt", "gen_00012_"),
            ("2024-best.json", "w2024_best_"),
            ("thesis", "thesis_"),
            ("--.json", "checkers_"),
            (".hidden", "hidden_"),
        ] {
            assert_eq!(prefix_from_name(name), want, "{name}");
        }
        assert_eq!(check_prefix("net66").unwrap(), "net66_");
        assert_eq!(check_prefix("Net_").unwrap(), "Net_");
        for bad in ["", "_a", "9a", "a b", "a-b", "é"] {
            assert!(check_prefix(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_sessions_answer_is_prefixed_by_its_session() {
        let of = |p: &str| answer_prefix(std::path::Path::new(p), "best.json");
        assert_eq!(
            of("populations/amber-otter/best.json").as_deref(),
            Some("amber_otter_best_")
        );
        assert_eq!(of("2024/best.json").as_deref(), Some("w2024_best_"));
        for other in [
            "best.json",
            "populations/s/gen-00002.ckpt",
            "weights/evolved-hour.json",
        ] {
            assert_eq!(of(other), None, "{other}");
        }
    }
}
