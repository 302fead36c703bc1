//! Files and output: what a session writes and a person reads.
//!
//! Files, bottom up: `chart`, `weightfile`, `store`, `formats`, `summary`, `html`.
//!
//! - `chart`: SVG line charts; `weightfile`: weight files (JSON and the original text).
//! - `store`: checkpoints, the history file, an SPSA session's checkpoint.
//! - `formats`: reading any weights input, exports for engines.
//! - `summary`: what `show`, `export` and `history` print; `html`: the self-contained HTML
//!   report of a session.

pub(crate) mod chart;
pub mod formats;
pub mod html;
pub mod store;
pub mod summary;
pub mod weightfile;
