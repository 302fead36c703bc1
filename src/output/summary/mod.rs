//! What is shown of weights and sessions, for `show`, `export` and `history`. (Reading and
//! writing the files is [`crate::formats`].) Every item is reached here, at `summary::` (its
//! files are private).
//!
//! - The weights chosen from a file that holds weights, with a title saying what they are:
//!   [`select`] (file `pick`).
//! - What `show` prints of weights ([`weights_text`]): the parameter table, with a priority
//!   class per weight in the spirit of the original thesis (see [`Priority`]), its descriptions
//!   wrapped ([`show_table`]) or cut to a width ([`weights_table`]), the layers of a network
//!   ([`net_layers`]) and its hidden units summed up ([`hidden_units`]) (file `weights`); and of
//!   an outside engine's parameters ([`engine_table`]); lines cut and wrapped to a width:
//!   [`fit`], [`wrap`] (file `layout`).
//! - What `history` prints of a GA session ([`history_text`]: its head, the table, the legend),
//!   the per-generation history of a session as a table ([`history_table`]) and as an SVG chart
//!   of the yardstick Elo and the best and mean points ([`history_svg`], drawn by
//!   `crate::chart`), the strength from the first measurement to the last on one line
//!   ([`strength_span`]), what a generation's line counts (its games, [`generation_games`]) and
//!   the progress bar's newest measurement with its trend ([`elo_trend`]) (file `history`).
//! - An outside engine's parameters over a session, each one's place in its declared range:
//!   [`parameter_chart`], the chart of both tuners (file `params`); in a GA session of an
//!   outside engine, the answer's values by generation are columns of [`history_table`] and
//!   their chart is [`engine_history_svg`] ([`engine_answer_chart`] on the report's page).
//! - A one-file tuner's session (SPSA's θ over its steps, CMA-ES's answer over its
//!   generations), read into one view ([`crate::store::TunerHistory`]), as a table (and all
//!   `history` prints of it) and a chart of each parameter's place in its range (file `tuner`).
//! - The history of either tuner's session for programs, as `history --format csv|json` prints
//!   it: [`history_csv`], [`history_json`], [`tuner_history_csv`], [`tuner_history_json`], with
//!   the `--elo` reference ([`EloReference`]) (file `records`).
//!
//! Individuals of a population (checkpoint or original population file) are numbered from 1,
//! as the original tool did.
//!
//! Errors are [`ReportError`]: one line.
//!
//! Files, bottom up: `layout`, `weights`, `pick`, `params`, `history`, `tuner`, `records`.
//!
//! # Example
//!
//! ```
//! use checkers_ga::material;
//! use checkers_ga::summary::{weights_table, wrap, SortOrder};
//!
//! // The material weights as a table, largest magnitude first.
//! let table = weights_table(&material(), SortOrder::Abs, None);
//! assert!(table.lines().count() > 1);
//! assert_eq!(wrap("one two three", 8, "  "), vec!["one two", "  three"]);
//! ```

mod history;
mod layout;
mod params;
mod pick;
mod records;
mod tuner;
mod weights;

pub use crate::chart::{nice_step, tick_label, xml_escape};
pub(crate) use history::elo_series;
pub use history::{
    decided_pairs, duel_text, elo_generations, elo_text, elo_trend, engine_answer_chart,
    engine_history_svg, generation_draws, generation_games, history_svg, history_svg_title,
    history_table, history_text, strength_span, tournament_max_points,
};
pub use layout::{fit, wrap, TABLE_WIDTH};
pub use params::parameter_chart;
pub use pick::{select, standing_text, Picked};
pub use records::{
    history_csv, history_json, tuner_history_csv, tuner_history_json, EloReference,
    HISTORY_CSV_COLUMNS,
};
pub use weights::{
    class_counts, engine_table, hidden_units, is_hidden, man_line, net_layers, show_table,
    sorted_indices, weights_table, weights_text, HiddenUnit, Priority, SortOrder, HIGH_THRESHOLD,
    MEDIUM_THRESHOLD,
};

/// Why weights could not be picked out of an input, or a report not made: one line.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// `--individual K` that the input does not have, or does not apply to.
    #[error("{0}")]
    Individual(String),
    /// A session with nothing to show yet.
    #[error("{0}")]
    Empty(String),
    /// An option's value that is not one of its words.
    #[error("{0}")]
    Option(String),
    /// A session or checkpoint that could not be found or read.
    #[error(transparent)]
    Locate(#[from] crate::store::LocateError),
    /// A session, whichever tuner's, that could not be found or read.
    #[error(transparent)]
    Open(#[from] crate::store::OpenError),
    /// A file that could not be written.
    #[error("cannot write '{}': {source}", path.display())]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
