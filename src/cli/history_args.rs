//! The flags of `checkers-ga history` ([`HistoryArgs`]), which `history`, its SPSA side
//! (`history_spsa`) and its `--elo` measurement (`history_elo`) read.

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct HistoryArgs {
    /// A session name (a folder under --populations), a session folder or a checkpoint file
    /// [default: the newest session under --populations, whichever tuner's]
    pub session: Option<String>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// Write an SVG chart to this file instead of printing the table: the Elo of the best so
    /// far against the session's yardstick (when measured) and the best and mean points per
    /// generation (with --format csv or json the records are still printed)
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Play the answer (the best so far) of every K-th generation (and the last) against
    /// --reference, as `match` plays that generation's checkpoint, and add an Elo column
    #[arg(long)]
    pub elo: bool,
    /// With --elo: measure generations whose number is a multiple of K (and the last)
    #[arg(long, value_name = "K", default_value_t = checkers_ga::EloOptions::default().every, requires = "elo")]
    pub every: u64,
    /// With --elo: games per measured generation, the first N/2 ballot openings twice each
    #[arg(long, value_name = "N", default_value_t = checkers_ga::EloOptions::default().games, requires = "elo")]
    pub games: usize,
    /// With --elo: search depth of both sides [default: the session's depth; a session tuned
    /// on a clock is measured on that clock instead, unless a depth is given]
    #[arg(long, value_name = "D", requires = "elo")]
    pub depth: Option<u32>,
    /// With --elo: the fixed opponent, anything `match` plays: `material` (built in), the
    /// yardsticks `hand` and `classic`, `thesis`, any file `show` reads (a checkpoint gives its
    /// answer), or an outside engine `hub:CMD` [default: material; in an outside engine's
    /// session, that engine with its declared values]
    #[arg(long, value_name = "NAME|FILE|hub:CMD", requires = "elo")]
    pub reference: Option<String>,
    /// With --elo: worker threads (0 = one per core); results are the same at any count
    #[arg(long, value_name = "T", default_value_t = 0, requires = "elo")]
    pub threads: usize,
    /// With --elo: seed of the games' tie-breaks (drawn and printed when absent)
    #[arg(long, value_name = "S", requires = "elo")]
    pub seed: Option<u64>,
    /// Output: `table` (for people), or `csv` or `json` (one record per generation, for
    /// programs; the columns are described in docs/formats.md)
    #[arg(long, value_name = "FORMAT", default_value = "table")]
    pub format: HistoryFormat,
}

/// How `history` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HistoryFormat {
    Table,
    Csv,
    Json,
}
