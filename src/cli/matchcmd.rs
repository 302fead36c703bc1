//! `checkers-ga match A B`: two engines (weights or yardsticks) play every ballot opening twice,
//! colours swapped.

use super::common::{evaluator_arg, pool, search_config, show_progress};
use anyhow::Context;
use checkers_ga::game::DrawRules;
use checkers_ga::matchplay::{
    elo, elo_number, match_pdn, play_match, Engine, MatchSettings, OpeningBook,
};
use checkers_ga::rng::fresh_seed;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::time::Instant;

#[derive(clap::Args)]
pub struct MatchArgs {
    /// Engine A: a weight file (anything `show` reads), `material`, `thesis`, `random`, or the
    /// yardsticks `hand` and `classic`
    pub a: String,
    /// Engine B: as A
    pub b: String,
    /// Search depth of both engines
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Search depth of B when it differs from A's
    #[arg(long)]
    pub depth_b: Option<u32>,
    /// Where games start: `ballot` (156 openings, each twice) or `start`
    #[arg(long, default_value = "ballot")]
    pub openings: OpeningBook,
    /// Number of games (rounded up to an even number): the first N/2 openings, each twice
    #[arg(long)]
    pub games: Option<usize>,
    /// Worker threads (0 = one per core)
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Seed for tie-breaks and random weights (drawn and printed when absent)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Save every game as PDN to this file
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// Game length cap in plies
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(a: MatchArgs) -> anyhow::Result<()> {
    if a.depth == 0 || a.depth > 30 {
        anyhow::bail!("--depth {} must be 1..30", a.depth);
    }
    if let Some(d) = a.depth_b.filter(|d| *d == 0 || *d > 30) {
        anyhow::bail!("--depth-b {d} must be 1..30");
    }
    if let Some(g) = a.games.filter(|g| *g == 0 || *g > 100_000) {
        anyhow::bail!("--games {g} must be 1..100000");
    }
    if let Some(p) = &a.pdn {
        super::common::check_output_file(p, "--pdn")?;
    }
    let pool = pool(a.threads)?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let (name_a, eval_a) = evaluator_arg(&a.a, seed, 0)?;
    let (name_b, eval_b) = evaluator_arg(&a.b, seed, 1)?;
    let ea = Engine {
        name: name_a,
        eval: eval_a,
        config: search_config(a.depth, false, 16),
    };
    let eb = Engine {
        name: name_b,
        eval: eval_b,
        config: search_config(a.depth_b.unwrap_or(a.depth), false, 16),
    };
    let settings = MatchSettings {
        book: a.openings,
        pairs: a.games.map(|g| g.div_ceil(2)),
        seed,
        rules: DrawRules {
            max_plies: a.max_plies,
            ..DrawRules::default()
        },
    };
    let total = checkers_ga::matchplay::start_positions(settings.book, settings.pairs).len() * 2;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "A: {}  B: {}  depth {}/{}  {} games  seed {seed}",
        ea.name, eb.name, ea.config.depth, eb.config.depth, total
    )?;
    let bar = if show_progress(a.quiet) {
        let b = ProgressBar::new(total as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let t = Instant::now();
    let (wdl, games) = pool.install(|| play_match(&ea, &eb, &settings, &|_| bar.inc(1)));
    bar.finish_and_clear();
    let secs = t.elapsed().as_secs_f64();
    let plies: usize = games.iter().map(|g| g.game.plies()).sum();
    writeln!(
        out,
        "W/D/L for A: {}/{}/{}",
        wdl.wins, wdl.draws, wdl.losses
    )?;
    writeln!(
        out,
        "Score: {:.1}/{} ({:.1} %)",
        wdl.score(),
        wdl.games(),
        100.0 * wdl.score() / wdl.games().max(1) as f64
    )?;
    let e = elo(&wdl);
    writeln!(out, "Elo difference: {e}")?;
    writeln!(
        out,
        "95% interval: {} .. {}",
        elo_number(e.low),
        elo_number(e.high)
    )?;
    writeln!(
        out,
        "time {secs:.1} s, {:.1} games/s, {:.1} plies/game",
        wdl.games() as f64 / secs.max(1e-9),
        plies as f64 / games.len().max(1) as f64
    )?;
    if let Some(path) = &a.pdn {
        checkers_ga::store::write_atomic(path, match_pdn(&ea, &eb, &games).as_bytes())
            .with_context(|| format!("cannot write PDN '{}'", path.display()))?;
        writeln!(out, "PDN saved to {}", path.display())?;
    }
    Ok(())
}
