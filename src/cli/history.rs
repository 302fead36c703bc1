//! `checkers-ga history [SESSION]`: a session's per-generation statistics as a table, an SVG
//! chart, and (with `--elo`) the strength of its best so far against a fixed reference.

use anyhow::{bail, Context};
use checkers_ga::matchplay::Wdl;
use checkers_ga::store::{self, Opened};
use checkers_ga::summary::{
    engine_history_svg, history_csv, history_json, history_svg, history_text,
};
use checkers_ga::GaState;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use super::history_args::{HistoryArgs, HistoryFormat};

/// The session `arg` names under `root`, whichever tuner's ([`store::open`]; the newest when
/// None, and `command` says so on stderr).
pub(super) fn open_session(
    arg: Option<&str>,
    root: &Path,
    command: &str,
) -> anyhow::Result<Opened> {
    let opened = store::open(arg, root)?;
    match &opened {
        Opened::Ga(found) => say_found(found, arg, command, "the newest one"),
        Opened::OneFile { path, session } if arg.is_none() => eprintln!(
            "{command}: no session named, so using the newest one: '{}' ({})",
            session.name(),
            path.display()
        ),
        Opened::OneFile { .. } => {}
    }
    Ok(opened)
}

/// The session of the GA `arg` names under `root` (the newest of the GA's when None; `command`
/// says so on stderr); another tuner's session is refused: `command` is the GA's alone.
pub(super) fn find_session(
    arg: Option<&str>,
    root: &Path,
    command: &str,
) -> anyhow::Result<(PathBuf, GaState)> {
    if arg.is_none() {
        // Another tuner's newer session is passed over: said so.
        let found = store::locate(None, root)?;
        say_found(&found, arg, command, "the newest session of the GA");
        return Ok((found.path, found.session));
    }
    match open_session(arg, root, command)? {
        Opened::Ga(found) => Ok((found.path, found.session)),
        Opened::OneFile { path, session } => {
            bail!(
                "'{}' is {} session: {command} takes a session of the GA",
                path.display(),
                session.tuner().a_name()
            )
        }
    }
}

/// Says on stderr which checkpoint was taken when none was named (`newest`: which newest it
/// is), and what was passed over.
fn say_found(found: &store::Located, arg: Option<&str>, command: &str, newest: &str) {
    if arg.is_none() {
        eprintln!(
            "{command}: no session named, so using {newest}: '{}' ({})",
            found.session.name,
            found.path.display()
        );
    }
    if !found.skipped.is_empty() {
        eprintln!(
            "warning: newer checkpoints could not be read; using {}",
            found.path.display()
        );
    }
    if let Some(line) = &found.warning {
        eprintln!("{line}");
    }
}

pub fn run(a: HistoryArgs) -> anyhow::Result<()> {
    // Refused before any session is read or any --elo game played, whichever tuner's.
    if a.svg.is_some() && a.elo && a.format == HistoryFormat::Table {
        usage!(
            "--svg writes the chart instead of the table, where --elo shows its Elo: run them \
             separately, or add --format csv or json"
        );
    }
    let (path, session) = match open_session(a.session.as_deref(), &a.populations, "history")? {
        Opened::OneFile { path, session } => {
            return super::history_tuner::run(&a, &path, &session.history());
        }
        Opened::Ga(found) => (found.path, found.session),
    };
    if session.history.is_empty() && session.generation == 0 {
        bail!(
            "session '{}' ({}) has no generations yet",
            session.name,
            path.display()
        );
    }
    let (elo_line, reference, results) = if a.elo {
        let dir = checkers_ga::folder_of(&path);
        let m = super::history_elo::measure(&a, &session, &dir)?;
        (Some(m.line), Some(m.reference), m.results)
    } else {
        (None, None, Vec::new())
    };
    let elo: Vec<(u64, Wdl)> = results.iter().map(|(g, r)| (*g, r.wdl)).collect();
    let engine = session.settings.engine.as_ref();
    // The answer after each generation: its values are shown in a session of an outside
    // engine.
    let answers = match engine {
        Some(_) => checkers_ga::answers_by_generation(&session, &checkers_ga::folder_of(&path)),
        None => Vec::new(),
    };
    if let Some(svg) = &a.svg {
        let chart = engine_history_svg(&session, &answers).unwrap_or_else(|| history_svg(&session));
        checkers_ga::write_atomic(svg, chart.as_bytes())
            .with_context(|| format!("cannot write '{}'", svg.display()))?;
        if a.format == HistoryFormat::Table {
            // The chart is what was asked for: its path, not the table.
            println!("SVG chart written to {}", svg.display());
            return Ok(());
        }
    }
    if a.format != HistoryFormat::Table {
        let text = match a.format {
            HistoryFormat::Csv => history_csv(&session, &answers, &results),
            _ => history_json(&session, &path, &answers, &results, reference.as_ref()),
        };
        return std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .context("cannot write to standard output");
    }
    let text = history_text(&session, &path, &answers, &elo, elo_line.as_deref());
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(())
}
