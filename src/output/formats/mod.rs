//! File formats: reading and writing the files that hold weights, for `show`, `export`,
//! `history` and every command that takes a weight file. Every item is reached here, at
//! `formats::` (its files are private):
//!
//! - any file that holds weights, told apart by its content (not its name): a checkpoint
//!   (magic `CKGACKPT`), a JSON weight file (`{`), a CSV export (`number,name,weight`) or a
//!   text file of the original tool: its weight file (`60 1` then 60 integers) or its
//!   population file (`60 POP GENERATION ...` then one line of 60 integers per individual).
//!   See [`load_input`]; what a WEIGHTS argument names ([`resolve_weights`],
//!   [`resolve_player`]; a session's name under another folder of sessions,
//!   [`in_populations`]) (file `input`).
//! - the CSV weight file, written by `export` and read back ([`to_csv`], [`parse_csv`]) (file
//!   `csv`).
//! - the export formats: JSON, CSV, Rust source, a C header and the original tool's text
//!   format ([`export()`]), the prefix of the exported names ([`prefix_from_name`],
//!   [`check_prefix`]; a session's answer's, [`answer_prefix`]) (file `export`); the Rust
//!   source and the C header ([`to_rust`], [`to_c_header`]) and the values they state
//!   ([`man_value`], [`StaticValues`]) (file `code`).
//! - an outside engine's parameter file: the values a session found for its tuned parameters,
//!   by the engine's names, with the engine ([`parse_engine_params`]) (file `engine`).
//!
//! The JSON weight file and the original tool's weight file are read and written by
//! [`crate::weightfile`]; checkpoints by [`crate::store`]. What is shown of them (tables, the
//! history, the chart) is [`crate::summary`].
//!
//! Errors are [`FormatError`]: one line, naming the file where there is one.
//!
//! Files, bottom up: `csv`, `engine`, `input`, `code`, `export`.
//!
//! # Example
//!
//! ```
//! use checkers_ga::material;
//! use checkers_ga::formats::{export, parse_csv, to_csv, ExportFormat};
//!
//! let w = material();
//! assert_eq!(parse_csv(&to_csv(&w)).unwrap(), w);
//! let code = export(&w, ExportFormat::Rust, "material", None, "material_").unwrap();
//! assert!(code.contains("pub fn evaluate"));
//! ```

mod code;
mod csv;
mod engine;
mod export;
mod input;

pub use code::{
    bitboards, evaluate_call, man_value, men_text, to_c_header, to_rust, StaticValues, CHECK_FEN,
};
pub use csv::{parse_csv, to_csv};
pub use engine::{
    engine_params_json, is_engine_params, parse_engine_params, save_engine_params,
    set_param_script, values_json, EngineParams, ENGINE_FORMAT_NAME,
};
pub use export::{answer_prefix, check_prefix, export, prefix_from_name, ExportFormat};
pub use input::{
    hub_player, in_populations, load_input, parse_input, parse_population, resolve_player,
    resolve_weights, shipped, Input, InputKind, PlayerArg, WeightsArg, HUB_PREFIX, PLAYER_NAMES,
    SESSIONS_ROOT, SHIPPED,
};

/// Why a file could not be read as weights, or an export not made: one line, naming the file
/// where there is one.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The content is not what the format says (the message names the line or field).
    #[error("{0}")]
    Invalid(String),
    /// The file could not be read.
    #[error("cannot read '{}': {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A yardstick named where weights are asked for.
    #[error(
        "'{0}' is a hand-written evaluation function, not a weight vector (see docs/engine.md); \
         it can play (match, play, history --reference, bench) but has no weights to show or \
         export"
    )]
    NotWeights(String),
    /// A WEIGHTS argument that names no file, folder, built-in name, session or shipped file:
    /// `error` is why it could not be read as a file.
    #[error(
        "{error} (and '{spec}' is not one of {}, a shipped weight file ({}), nor a session \
         under populations/)",
        input::PLAYER_NAMES,
        input::shipped_names()
    )]
    Unknown {
        /// The argument.
        spec: String,
        /// Why it could not be read as a file.
        error: Box<FormatError>,
    },
    /// A session's folder or name whose checkpoint could not be found or read.
    #[error(transparent)]
    Locate(#[from] crate::store::LocateError),
    #[error(transparent)]
    /// A checkpoint that could not be read.
    Checkpoint(#[from] crate::store::CheckpointError),
    #[error(transparent)]
    /// A weight file that could not be read.
    Weights(#[from] crate::weightfile::WeightsError),
}

impl From<crate::store::OpenError> for FormatError {
    fn from(e: crate::store::OpenError) -> FormatError {
        match e {
            crate::store::OpenError::Locate(e) => FormatError::Locate(e),
            crate::store::OpenError::Checkpoint(e) => FormatError::Checkpoint(e),
        }
    }
}

fn fail<T>(msg: impl Into<String>) -> Result<T, FormatError> {
    Err(FormatError::Invalid(msg.into()))
}
