//! `checkers-ga report [SESSION]`: one self-contained HTML page of a session (the page is made
//! by [`checkers_ga::html`]); prints the path written.

use checkers_ga::html::{self, Options, REPORT_FILE};
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
    // Whichever tuner's session (the GA's page, or a one-file tuner's: its answer over the
    // steps, its values, its settings); says which session it took when none is named, and
    // what it passed over.
    let opened = super::history::open_session(a.session.as_deref(), &a.populations, "report")?;
    let out = a
        .output
        .unwrap_or_else(|| checkers_ga::folder_of(opened.checkpoint()).join(REPORT_FILE));
    let opts = Options {
        refresh: a.refresh,
        follow: None,
        rewrite_in: None,
    };
    html::write_opened(&opened, &out, &opts)?;
    println!("{}", out.display());
    Ok(())
}
