//! `history` of an SPSA session: θ at every step its history kept (the start, every
//! `history_every` steps, the last whole step) with the games played by then and those lost by
//! a fault since the point before, as a table, CSV or JSON, or as an SVG chart of each
//! parameter's place in its range; with `--elo`, the values θ rounds to at those steps played
//! against a reference, as `match` plays them.

use super::history_args::{HistoryArgs, HistoryFormat};
use anyhow::Context;
use checkers_ga::matchplay::Wdl;
use checkers_ga::store::SpsaSession;
use checkers_ga::summary::{spsa_history_csv, spsa_history_json};
use std::io::Write;
use std::path::Path;

pub fn run(a: &HistoryArgs, file: &Path, s: &SpsaSession) -> anyhow::Result<()> {
    let st = &s.state;
    let measured = if a.elo {
        Some(super::history_elo::measure_spsa(a, s)?)
    } else {
        None
    };
    let results = measured.as_ref().map_or(&[][..], |m| &m.results[..]);
    let reference = measured.as_ref().map(|m| &m.reference);
    if let Some(svg) = &a.svg {
        if a.elo && a.format == HistoryFormat::Table {
            usage!(
                "--svg writes the chart instead of the table, where --elo shows its Elo: run them \
                 separately, or add --format csv or json"
            );
        }
        checkers_ga::write_atomic(svg, checkers_ga::summary::spsa_chart(s, true).as_bytes())
            .with_context(|| format!("cannot write '{}'", svg.display()))?;
        if a.format == HistoryFormat::Table {
            println!("SVG chart written to {}", svg.display());
            return Ok(());
        }
    }
    let tuned = &st.spec.tuned;
    let text = match a.format {
        HistoryFormat::Table => {
            let mut t = format!(
                "SPSA session '{}' ({}): engine {}, {}, {}, seed {}; {}\n",
                s.name,
                file.display(),
                st.spec.name,
                match tuned.len() {
                    1 => "1 parameter".to_string(),
                    n => format!("{n} parameters"),
                },
                st.spec.level(),
                st.settings.seed,
                st.progress()
            );
            if let Some(m) = &measured {
                t += &m.line;
                t.push('\n');
            }
            t.push('\n');
            let elo: Vec<(u64, Wdl)> = results.iter().map(|(g, r)| (*g, r.wdl)).collect();
            t += &checkers_ga::summary::spsa_history_table(s, &elo);
            t += &format!(
                "θ at the start, every {} steps and at the last whole step; games: played by \
                 then; faults: games lost by a fault since the row before (? where the history \
                 did not keep them)\n",
                st.settings.history_every
            );
            t
        }
        HistoryFormat::Csv => spsa_history_csv(s, results),
        HistoryFormat::Json => spsa_history_json(s, file, results, reference),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")
}

/// `history` of a CMA-ES session: its answer at every generation its history kept, as a table
/// or as an SVG chart of each parameter's place in its range (CSV, JSON and `--elo` are for the
/// GA's and SPSA's sessions so far: one line says so).
pub fn run_cmaes(
    a: &HistoryArgs,
    file: &Path,
    s: &checkers_ga::store::CmaesSession,
) -> anyhow::Result<()> {
    if a.elo || a.format != HistoryFormat::Table {
        usage!(
            "'{}' is a CMA-ES session: its history is a table or --svg (--elo and --format \
             are for GA and SPSA sessions so far)",
            file.display()
        );
    }
    if let Some(svg) = &a.svg {
        checkers_ga::write_atomic(svg, checkers_ga::summary::cmaes_chart(s, true).as_bytes())
            .with_context(|| format!("cannot write '{}'", svg.display()))?;
        println!("SVG chart written to {}", svg.display());
        return Ok(());
    }
    let st = &s.state;
    let mut t = format!(
        "CMA-ES session '{}' ({}): engine {}, {}, {}, seed {}; {}\n\n",
        s.name,
        file.display(),
        st.spec.name,
        match st.spec.tuned.len() {
            1 => "1 parameter".to_string(),
            n => format!("{n} parameters"),
        },
        st.spec.level(),
        st.settings.seed,
        st.progress()
    );
    t += &checkers_ga::summary::cmaes_history_table(s);
    t += &format!(
        "the answer (the average of the means) at the start, every {} generations and at the \
         last whole one; games: played by then; faults: games lost by a fault since the row \
         before\n",
        st.settings.history_every
    );
    std::io::stdout()
        .lock()
        .write_all(t.as_bytes())
        .context("cannot write to standard output")
}
