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
            let mut t = format!(
                "{} session '{}' ({}): engine {}, {}, {}, seed {}; {}\n",
                h.tuner.name(),
                h.name,
                file.display(),
                h.spec.engine.name,
                checkers_ga::count(h.spec.tuned.len(), "parameter", "parameters"),
                h.spec.level(),
                h.seed,
                h.progress
            );
            if let Some(m) = &measured {
                t += &m.line;
                t.push('\n');
            }
            t.push('\n');
            let elo: Vec<(u64, Wdl)> = results.iter().map(|(g, r)| (*g, r.wdl)).collect();
            t += &h.table(&elo);
            let (answer, step) = (h.answer.0, h.step);
            let mut answer = answer.to_string();
            if let Some(first) = answer.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            t += &format!(
                "{answer} at the start, every {} {step}s and at the last whole {step}; games: \
                 played by then; faults: games lost by a fault since the row before (faults.log \
                 says which; ? where the history did not keep them)\n",
                h.every
            );
            t
        }
        HistoryFormat::Csv => tuner_history_csv(h, results),
        HistoryFormat::Json => tuner_history_json(h, file, results, reference),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")
}
