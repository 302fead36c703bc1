//! `history` of an SPSA session: θ at every step its history kept (the start, every
//! `history_every` steps, the last whole step) with the games played by then and those lost by
//! a fault since the point before, as a table, CSV or JSON, or as an SVG chart of each
//! parameter's place in its range; with `--elo`, the values θ rounds to at those steps played
//! against a reference, as `match` plays them.

use super::history::{reference_json, wdl_fields, HistoryArgs, HistoryFormat};
use anyhow::Context;
use checkers_ga::matchplay::Wdl;
use checkers_ga::store::SpsaSession;
use checkers_ga::summary::{spsa_faults, spsa_points};
use checkers_ga::SpsaPoint;
use std::io::Write;
use std::path::Path;

/// The CSV columns after `step,games`, before the engine's names (θ in full): the `--elo`
/// measurement, empty where there is none, and the faults since the row before, as the GA's
/// history ends.
const CSV_MIDDLE: &str =
    "reference_wins,reference_draws,reference_losses,reference_elo,reference_margin,faults";

pub fn run(a: &HistoryArgs, file: &Path) -> anyhow::Result<()> {
    let s = super::spsa::load(file)?;
    let st = &s.state;
    let points = spsa_points(&s);
    let measured = if a.elo {
        Some(super::history_elo::measure_spsa(a, &s, &points)?)
    } else {
        None
    };
    let results = measured.as_ref().map_or(&[][..], |m| &m.results[..]);
    let result = |step: u64| results.iter().find(|(x, _)| *x == step).map(|(_, r)| r);
    if let Some(svg) = &a.svg {
        if a.elo && a.format == HistoryFormat::Table {
            usage!(
                "--svg writes the chart instead of the table, where --elo shows its Elo: run them \
                 separately, or add --format csv or json"
            );
        }
        checkers_ga::write_atomic(svg, checkers_ga::summary::spsa_chart(&s, true).as_bytes())
            .with_context(|| format!("cannot write '{}'", svg.display()))?;
        if a.format == HistoryFormat::Table {
            println!("SVG chart written to {}", svg.display());
            return Ok(());
        }
    }
    let tuned = &st.spec.tuned;
    let faults = spsa_faults(&points);
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
            t += &checkers_ga::summary::spsa_history_table(&s, &elo);
            t += &format!(
                "θ at the start, every {} steps and at the last whole step; games: played by \
                 then; faults: games lost by a fault since the row before (? where the history \
                 did not keep them)\n",
                st.settings.history_every
            );
            t
        }
        HistoryFormat::Csv => {
            let mut t = format!("step,games,{CSV_MIDDLE}");
            for x in tuned {
                t += &format!(",{}", x.name);
            }
            t.push('\n');
            for (p, f) in points.iter().zip(&faults) {
                let f = f.map(|f| f.to_string()).unwrap_or_default();
                let wdl: Option<&Wdl> = result(p.step).map(|r| &r.wdl);
                t += &format!("{},{},{},{f}", p.step, p.games, wdl_fields(wdl));
                for x in &p.theta {
                    t += &format!(",{x}");
                }
                t.push('\n');
            }
            t
        }
        HistoryFormat::Json => json(&s, file, &points, &faults, measured.as_ref()),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")
}

/// The JSON document of an SPSA session's history.
fn json(
    s: &SpsaSession,
    file: &Path,
    points: &[SpsaPoint],
    faults: &[Option<u64>],
    measured: Option<&super::history_elo::Measured>,
) -> String {
    let results = measured.map_or(&[][..], |m| &m.results[..]);
    let result = |step: u64| results.iter().find(|(x, _)| *x == step).map(|(_, r)| r);
    let st = &s.state;
    let tuned = &st.spec.tuned;
    let parameters: Vec<serde_json::Value> = tuned
        .iter()
        .map(|t| {
            serde_json::json!({
                "name": t.name, "min": t.min, "max": t.max, "default": t.default
            })
        })
        .collect();
    let history: Vec<serde_json::Value> = points
        .iter()
        .zip(faults)
        .map(|(p, f)| {
            let theta: serde_json::Map<String, serde_json::Value> = tuned
                .iter()
                .zip(&p.theta)
                .map(|(t, x)| (t.name.clone(), serde_json::json!(x)))
                .collect();
            let values: serde_json::Map<String, serde_json::Value> = tuned
                .iter()
                .zip(st.spec.values(&st.weights_at(&p.theta)))
                .map(|(t, x)| (t.name.clone(), serde_json::json!(x)))
                .collect();
            serde_json::json!({
                "step": p.step,
                "games": p.games,
                "faults": f,
                "theta": theta,
                "values": values,
                "reference": reference_json(result(p.step)),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "session": s.name,
        "checkpoint": file.display().to_string(),
        "tuner": "spsa",
        "engine": st.spec.name,
        "depth": st.spec.depth,
        "seed": st.settings.seed,
        "games": 2 * st.settings.pairs(),
        "steps": st.settings.steps(),
        "games_played": st.games(),
        "steps_done": st.step,
        "parameters": parameters,
        "reference": measured.map(|m| &m.reference),
        "history": history,
    });
    let mut t = serde_json::to_string_pretty(&doc).unwrap_or_default();
    t.push('\n');
    t
}
