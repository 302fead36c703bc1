//! The HTML report of a session (`checkers-ga report`): one self-contained page, nothing
//! fetched from the network (CSS, SVG charts and the script that steps through a game are
//! inline), written atomically.
//!
//! What it holds: the yardstick Elo of the best so far (under the mean, "the answer": the
//! centres' average) over the generations with its 95% band, the population's diversity and
//! the tournament games per second, the best so far's weights over the generations as a heatmap
//! (scaled to the men weight), the final weights with their descriptions, a game of the last
//! measurement to step through on a board, the duels of the best so far, and the settings that
//! applied ([`crate::ga::Settings::applied`]). Only the sections the session has something for
//! are there, and the contents link to those: no duels and no diversity under the mean (its
//! pairs' spread is fixed), no game of the simulator's. Of an outside engine's session, the
//! answer over the generations is the chart SPSA draws of θ
//! ([`crate::summary::engine_answer_chart`]) instead of the heatmap, and its values are named
//! as SPSA's ("Values: the answer (...)").
//!
//! - [`gather()`] (file `gather`) collects what the page shows from a session (the best so far
//!   of past generations from the history, or from the kept checkpoints where the history does
//!   not have it; the game replayed with the library's game and search code);
//! - [`page()`] (file `page`, with its style sheet `page.css` and script `page.js`) makes the
//!   HTML text of that, with its charts (file `charts`) and tables (file `tables`);
//! - [`write_report`] does both and writes the file; [`write_opened`] writes the page of a
//!   session read from disk, whichever tuner's; [`write_session_report`] does it all for a
//!   session folder (its newest checkpoint) or a checkpoint of any tuner, in one call.
//!
//! The game: no game's moves are recorded in a session, but the yardstick measurement of a
//! generation is a seeded match ([`crate::ga::measure_match`]), so its first game (the best so
//! far with Black, from the first ballot opening) is played again here move for move. A session
//! with no measurement yet shows the game a measurement of its last generation would play. Of an
//! outside engine's session the engine plays that game again, the answer's values set as its
//! parameters against its declared ones, as the measurement and `match` play it.
//!
//! The page of a one-file tuner's session (SPSA's, CMA-ES's) is [`tuner_page`] (file `tuner`,
//! one page for every such tuner): the answer over the steps, the values, the settings;
//! [`write_tuner_report`] writes it.
//!
//! Every item is reached here, at `html::` (its files are private).
//!
//! Files, bottom up: `gather`, `tables`, `charts`, `page`, `tuner`.
//!
//! # Example
//!
//! ```
//! use checkers_ga::{GaState, Settings};
//! use checkers_ga::html::{write_report, Options};
//! use checkers_ga::SearchConfig;
//!
//! let mut settings = Settings::with_population(4);
//! settings.search = SearchConfig::with_depth(1);
//! settings.ga.duel_games = 2;
//! settings.ga.measure_every = 0;
//! settings.ga.fit_every = 0;
//! let mut session = GaState::new("doc", settings);
//! session.run_generation(&|_| {});
//!
//! let dir = std::env::temp_dir().join(format!("ckga-doc-html-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let out = dir.join("report.html");
//! write_report(&session, &dir.join("gen-00001.ckpt"), &out, &Options::default()).unwrap();
//! assert!(std::fs::read_to_string(&out).unwrap().contains("<svg"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod charts;
mod gather;
mod page;
mod tables;
mod tuner;

pub use gather::{board_string, gather, measurement_game, sample, ReportData, ShownGame};
pub use page::page;
pub use tables::duration_text;
pub use tuner::{tuner_page, write_tuner_report};

use crate::ga::GaState;
use crate::store;
use crate::summary::ReportError;
use std::path::{Path, PathBuf};

/// The report file's name in a session folder when no other is given.
pub const REPORT_FILE: &str = "report.html";

/// The most columns of the weight heatmap (generations sampled evenly, the last always in).
pub const HEATMAP_COLUMNS: usize = 48;

/// The most points of a per-generation line (longer histories are sampled evenly).
pub const MAX_LINE_POINTS: usize = 600;

/// Every how many seconds the page of a running session (`--report`) reloads itself, whichever
/// tuner's ([`Options::follow`]).
pub const FOLLOW_EVERY: u32 = 15;

/// How the page is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Reload the page every this many seconds (`<meta http-equiv="refresh">`), so that a
    /// browser left open follows a running session; None: no reload.
    pub refresh: Option<u32>,
    /// The page of a running session (`--report` of any tuner's run): reload every this many
    /// seconds while
    /// the session should still be running (judged from its pace: a page much older than the
    /// next rewrite was due stops reloading and says so, so a page left behind by a killed
    /// session does not reload forever); None: no reload.
    pub follow: Option<u32>,
    /// With `follow`, the seconds until the running session writes the page again, as its
    /// writer reckons by its pace (an engine session's run, whichever tuner's); None: the
    /// page's own reckoning (a GA session's, from its history; a one-file tuner's, a minute).
    pub rewrite_in: Option<u32>,
}

/// How long after it is written the page of a running session keeps reloading itself
/// ([`Options::follow`], every `every` seconds): three times the time until its next rewrite
/// (the next measurement, or the session's end) at the pace of its recent generations, plus a
/// minute and a few reloads.
pub fn follow_seconds(session: &GaState, every: u32) -> f64 {
    follow_for(gap_seconds(session), every)
}

/// How long a running session's page keeps reloading (every `every` seconds) when its next
/// rewrite is `gap` seconds away: three times that, a minute, and a few reloads.
fn follow_for(gap: f64, every: u32) -> f64 {
    3.0 * gap + 60.0 + 4.0 * every as f64
}

/// The paragraph of a running session's page that makes it follow the session
/// ([`Options::follow`]: reload every `every` seconds until `seconds` after now; the script
/// says when it has stopped).
fn follow_note(every: u32, seconds: f64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let until = now + (seconds * 1000.0) as u64;
    format!(
        "<p id=\"follow\" class=\"note\" data-every=\"{every}\" data-written=\"{now}\" \
         data-until=\"{until}\">This page follows the running session: it reloads every \
         {every} s.</p>\n"
    )
}

/// The seconds until a GA session writes its page again: its next measurement (or its end) at
/// the pace of its recent generations.
fn gap_seconds(session: &GaState) -> f64 {
    let h = &session.history;
    let recent = &h[h.len().saturating_sub(10)..];
    let per_gen = if recent.is_empty() {
        60.0
    } else {
        recent.iter().map(|x| x.seconds).sum::<f64>() / recent.len() as f64
    };
    let per_gen = if per_gen.is_finite() {
        per_gen.max(0.0)
    } else {
        60.0
    };
    let g = session.generation;
    let m = session.settings.ga.measure_every;
    let to_measure = if m > 0 { m - g % m } else { u64::MAX };
    let to_end = match session.settings.stop {
        crate::ga::Stop::Generations(n) => n.saturating_sub(g),
        crate::ga::Stop::Seconds(t) => {
            ((t - session.elapsed).max(0.0) / per_gen.max(1e-3)).ceil() as u64
        }
    };
    let gens = to_measure.min(to_end).max(1) as f64;
    gens * per_gen
}

/// Makes the page of `session` (read from `checkpoint`) and writes it to `out` atomically (temp
/// name, sync, rename). The page of a running session ([`Options::follow`]) that measures
/// nothing has no game: a game for it would hold up the run at every rewrite.
pub fn write_report(
    session: &GaState,
    checkpoint: &Path,
    out: &Path,
    opts: &Options,
) -> Result<(), ReportError> {
    // A running page of a session that measures nothing plays no game for it: it is written
    // every 5% of the run, and each game would be one the run waits for.
    let running = opts.follow.is_some() && session.settings.ga.measure_every == 0;
    let data = gather::collect(session, checkpoint, !running);
    crate::files::write_atomic(out, page(&data, opts).as_bytes()).map_err(|source| {
        ReportError::Write {
            path: out.to_path_buf(),
            source,
        }
    })
}

/// The page of a session read from disk, whichever tuner's ([`store::open`]): the GA's
/// ([`write_report`]) or a one-file tuner's ([`write_tuner_report`]), written to `out`.
pub fn write_opened(opened: &store::Opened, out: &Path, opts: &Options) -> Result<(), ReportError> {
    match opened {
        store::Opened::Ga(found) => write_report(&found.session, &found.path, out, opts),
        store::Opened::OneFile { path, session } => write_tuner_report(&**session, path, out, opts),
    }
}

/// The whole report of a session in one call, whichever tuner's: reads the session of
/// `session` (its folder, whose newest loadable checkpoint is read, or a checkpoint file) and
/// writes its page to `out` (default: `report.html` in its folder). Returns the file written.
/// This is what a running session calls after a checkpoint (`--report`).
pub fn write_session_report(
    session: &Path,
    out: Option<&Path>,
    opts: &Options,
) -> Result<PathBuf, ReportError> {
    let opened = store::open(Some(&session.to_string_lossy()), Path::new("."))?;
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| crate::files::folder_of(opened.checkpoint()).join(REPORT_FILE));
    write_opened(&opened, &out, opts)?;
    Ok(out)
}

/// The page a running session of any tuner keeps (`--report FILE`): written again as the run
/// goes and at its end; a page that could not be written is said once, and the run goes on
/// without it.
#[derive(Clone, Debug, Default)]
pub struct RunPage(Option<PathBuf>);

impl RunPage {
    /// The page at `path` (None: the run keeps none).
    pub fn new(path: Option<PathBuf>) -> RunPage {
        RunPage(path)
    }

    /// Where it is written, while it is.
    pub fn path(&self) -> Option<&Path> {
        self.0.as_deref()
    }

    /// Writes the page with `write` (its path given): the warning to say when that failed,
    /// after which the page is no longer written.
    pub fn write<E: std::fmt::Display>(
        &mut self,
        write: impl FnOnce(&Path) -> Result<(), E>,
    ) -> Option<String> {
        let e = write(self.0.as_deref()?).err()?;
        self.0 = None;
        Some(format!("warning: report not written: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::RunPage;

    #[test]
    fn a_run_page_that_fails_says_so_once_and_is_not_written_again() {
        let mut none = RunPage::new(None);
        assert_eq!(
            none.write(|_| -> Result<(), String> { panic!("no page") }),
            None
        );
        let mut page = RunPage::new(Some("p.html".into()));
        let mut writes = 0;
        assert_eq!(
            page.write(|_| -> Result<(), String> {
                writes += 1;
                Ok(())
            }),
            None
        );
        let failed = page.write(|p| Err(format!("cannot write '{}'", p.display())));
        assert_eq!(
            failed.as_deref(),
            Some("warning: report not written: cannot write 'p.html'")
        );
        assert_eq!(page.path(), None);
        assert_eq!(
            page.write(|_| -> Result<(), String> {
                writes += 1;
                Ok(())
            }),
            None
        );
        assert_eq!(writes, 1);
    }
}
