//! File formats: reading and writing the files that hold weights, for `show`, `export`,
//! `history` and every command that takes a weight file.
//!
//! - [`input`]: any file that holds weights, told apart by its content (not its name): a
//!   checkpoint (magic `CKGACKPT`), a JSON weight file (`{`), a CSV export (`number,name,weight`)
//!   or a text file of the original tool: its weight file (`60 1` then 60 integers) or its
//!   population file (`60 POP GENERATION ...` then one line of 60 integers per individual).
//!   See [`load_input`].
//! - [`csv`]: the CSV weight file, written by `export` and read back ([`to_csv`], [`parse_csv`]).
//! - [`mod@export`]: the export formats: JSON, CSV, Rust source, a C header and the original tool's
//!   text format ([`export()`]).
//!
//! The JSON weight file and the original tool's weight file are read and written by
//! [`crate::weightfile`]; checkpoints by [`crate::store`]. What is shown of them (tables, the
//! history, the chart) is [`crate::report`].
//!
//! Errors are [`FormatError`]: one line, naming the file where there is one.
//!
//! Files, bottom up: `csv`, `input`, `export`.

pub mod csv;
pub mod export;
pub mod input;

pub use csv::{parse_csv, to_csv};
pub use export::{
    check_prefix, export, man_value, prefix_from_name, to_c_header, to_rust, ExportFormat,
};
pub use input::{load_input, parse_input, parse_population, Input, InputKind};

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
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Checkpoint(#[from] crate::store::CheckpointError),
    #[error(transparent)]
    Weights(#[from] crate::weightfile::WeightsError),
}

fn fail<T>(msg: impl Into<String>) -> Result<T, FormatError> {
    Err(FormatError::Invalid(msg.into()))
}
