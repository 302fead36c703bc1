//! `checkers-ga report [SESSION]`: one self-contained HTML page of a session (the page is made
//! by [`checkers_ga::html`]); prints the path written.

use checkers_ga::html::{self, Options, REPORT_FILE};
use checkers_ga::store::Opened;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ReportArgs {
    /// A session name (a folder under --populations), a session folder or a checkpoint file
    /// [default: the newest session under --populations, whichever tuner's]
    pub session: Option<String>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// The page to write [default: report.html in the session folder]
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    pub output: Option<PathBuf>,
    /// Make the page reload itself every SECONDS, so that a browser left open follows a
    /// running session
    #[arg(long, value_name = "SECONDS")]
    pub refresh: Option<u32>,
}

pub fn run(a: ReportArgs) -> anyhow::Result<()> {
    if a.refresh == Some(0) {
        usage!("--refresh must be at least 1 second");
    }
    // A one-file tuner's page (SPSA, CMA-ES): its answer over the steps, its values, its
    // settings.
    // Says which session it took when none is named, and what it passed over.
    let found = match super::history::open_session(a.session.as_deref(), &a.populations, "report")?
    {
        Opened::Ga(found) => found,
        Opened::Tuner { path, session } => {
            return tuner_report(&a, &path, &|out, o| {
                html::write_tuner_report(&*session, &path, out, o)
            })
        }
    };
    let out = a
        .output
        .unwrap_or_else(|| checkers_ga::folder_of(&found.path).join(REPORT_FILE));
    let opts = Options {
        refresh: a.refresh,
        follow: None,
    };
    html::write_report(&found.session, &found.path, &out, &opts)?;
    println!("{}", out.display());
    Ok(())
}

/// Writes a one-file tuner's page with `write` (to `-o`, or its folder's `report.html`) and
/// prints where.
fn tuner_report(
    a: &ReportArgs,
    checkpoint: &std::path::Path,
    write: &dyn Fn(&std::path::Path, &Options) -> Result<(), checkers_ga::summary::ReportError>,
) -> anyhow::Result<()> {
    let out = a
        .output
        .clone()
        .unwrap_or_else(|| checkers_ga::folder_of(checkpoint).join(REPORT_FILE));
    let opts = Options {
        refresh: a.refresh,
        follow: None,
    };
    write(&out, &opts)?;
    println!("{}", out.display());
    Ok(())
}
