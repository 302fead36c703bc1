//! `history` of a one-file tuner's session (SPSA's, CMA-ES's): its answer at every step its
//! history kept (the start, every `history_every` steps, the last whole step) with the games
//! played by then and those lost by a fault since the point before, as a table, CSV or JSON,
//! or as an SVG chart of each parameter's place in its range; with `--elo`, the values the
//! answer rounds to at those steps played against a reference, as `match` plays them.

use super::history_args::{HistoryArgs, HistoryFormat};
use anyhow::Context;
use checkers_ga::matchplay::Wdl;
use checkers_ga::store::TunerHistory;
use checkers_ga::summary::{tuner_history_csv, tuner_history_json};
use std::io::Write;
use std::path::Path;

pub fn run(a: &HistoryArgs, file: &Path, h: &TunerHistory) -> anyhow::Result<()> {
    let measured = if a.elo {
        Some(super::history_elo::measure_tuner(a, h)?)
    } else {
        None
    };
    let results = measured.as_ref().map_or(&[][..], |m| &m.results[..]);
    let reference = measured.as_ref().map(|m| &m.reference);
    if let Some(svg) = &a.svg {
        checkers_ga::write_atomic(svg, h.chart(true).as_bytes())
            .with_context(|| format!("cannot write '{}'", svg.display()))?;
        if a.format == HistoryFormat::Table {
            println!("SVG chart written to {}", svg.display());
            return Ok(());
        }
    }
    let text = match a.format {
        HistoryFormat::Table => {
            let elo: Vec<(u64, Wdl)> = results.iter().map(|(g, r)| (*g, r.wdl)).collect();
            h.text(file, &elo, measured.as_ref().map(|m| m.line.as_str()))
        }
        HistoryFormat::Csv => tuner_history_csv(h, results),
        HistoryFormat::Json => tuner_history_json(h, file, results, reference),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")
}
