//! `checkers-ga tuners-chart ELO_FILE --svg OUT`: the chart of a real-games tuner comparison
//! (`scripts/compare-tuners.sh`'s `elo ...` lines): each tuner's mean Elo against the games
//! played, at each depth, with 95% bands.

use checkers_ga::tuner_chart;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct TunersChartArgs {
    /// The `elo TUNER PROBLEM GAMES SEED DEPTH ELO MARGIN` lines (other lines are ignored)
    pub file: PathBuf,
    /// Where to write the SVG chart
    #[arg(long, value_name = "OUT.svg")]
    pub svg: PathBuf,
    /// The chart's title
    #[arg(
        long,
        default_value = "Tuners at equal games: Elo against the declared values"
    )]
    pub title: String,
}

pub fn run(a: TunersChartArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| anyhow::anyhow!("cannot read '{}': {e}", a.file.display()))?;
    let svg =
        tuner_chart(&text, &a.title).map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    checkers_ga::write_atomic(&a.svg, svg.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write '{}': {e}", a.svg.display()))?;
    println!("chart: {}", a.svg.display());
    Ok(())
}
