//! `checkers-ga history [SESSION]`: a session's per-generation statistics as a table, an SVG
//! chart, and (with `--elo`) the strength of its best so far against a fixed reference.

use super::common::{evaluator_arg, pool, show_progress};
use anyhow::{bail, Context};
use checkers_ga::ga::Session;
use checkers_ga::matchplay::{
    play_match, start_positions, Engine, MatchSettings, OpeningBook, Wdl,
};
use checkers_ga::report::{elo_generations, history_svg, history_table};
use checkers_ga::rng::fresh_seed;
use checkers_ga::store;
use checkers_ga::Weights;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct HistoryArgs {
    /// A session name (a folder under --populations), a session folder or a checkpoint file
    /// [default: the newest checkpoint under --populations]
    pub session: Option<String>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// Also write an SVG chart of best and mean points per generation to this file
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Play the best so far of every K-th generation (and the last) against --reference and
    /// add an Elo column
    #[arg(long)]
    pub elo: bool,
    /// With --elo: measure generations whose number is a multiple of K (and the last)
    #[arg(long, value_name = "K", default_value_t = 1, requires = "elo")]
    pub every: u64,
    /// With --elo: games per measured generation, the first N/2 ballot openings twice each
    #[arg(long, value_name = "N", default_value_t = 40, requires = "elo")]
    pub games: usize,
    /// With --elo: search depth of both sides [default: the session's depth]
    #[arg(long, value_name = "D", requires = "elo")]
    pub depth: Option<u32>,
    /// With --elo: the fixed opponent: `material` (built in), the yardsticks `hand` and
    /// `classic`, `thesis`, or any file `show` reads (a checkpoint gives its best so far)
    #[arg(
        long,
        value_name = "NAME|FILE",
        default_value = "material",
        requires = "elo"
    )]
    pub reference: String,
    /// With --elo: worker threads (0 = one per core); results are the same at any count
    #[arg(long, value_name = "T", default_value_t = 0, requires = "elo")]
    pub threads: usize,
    /// With --elo: seed of the games' tie-breaks (drawn and printed when absent)
    #[arg(long, value_name = "S", requires = "elo")]
    pub seed: Option<u64>,
}

fn find_session(arg: Option<&str>, root: &Path) -> anyhow::Result<(PathBuf, Session)> {
    let found = store::locate(arg, root).map_err(anyhow::Error::msg)?;
    if !found.skipped.is_empty() {
        eprintln!(
            "warning: newer checkpoints could not be read; using {}",
            found.path.display()
        );
    }
    Ok((found.path, found.session))
}

/// Plays the best so far of the chosen generations against the reference; a weight vector that
/// stays the best so far over several generations is played once.
///
/// The best so far of generation `g` comes from the history (which records it each time it
/// changes), or where the history does not have it (the part of a session played before
/// checkpoint format 3) from that generation's checkpoint in the session folder; generations
/// with neither are left out and counted in the header line.
fn measure(
    a: &HistoryArgs,
    session: &Session,
    dir: &Path,
) -> anyhow::Result<(String, Vec<(u64, Wdl)>)> {
    if a.every == 0 {
        bail!("--every must be at least 1");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let depth = a.depth.unwrap_or(session.settings.search.depth);
    if depth == 0 || depth > 30 {
        bail!("--depth {depth} must be 1..30");
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let (_, reference) = evaluator_arg(&a.reference, seed, 1)?;
    let config = checkers_ga::search::SearchConfig {
        depth,
        ..session.settings.search
    };
    let settings = MatchSettings {
        book: OpeningBook::Ballot,
        pairs: Some(a.games.div_ceil(2)),
        seed,
        rules: session.settings.rules,
    };
    let per_match = start_positions(settings.book, settings.pairs).len() * 2;
    let reference = Engine {
        name: a.reference.clone(),
        eval: reference,
        config,
    };
    let wanted = elo_generations(&session.history, a.every);
    let known = session.bests_at(&wanted, |g| {
        store::load_checkpoint_alone(&store::checkpoint_path(dir, g))
            .ok()
            .and_then(|s| s.best_so_far)
    });
    let best_at: HashMap<usize, Weights> = wanted
        .iter()
        .filter_map(|&i| known[i].map(|w| (i, w)))
        .collect();
    let chosen: Vec<usize> = wanted
        .iter()
        .copied()
        .filter(|i| best_at.contains_key(i))
        .collect();
    let missing = wanted.len() - chosen.len();
    let mut distinct: Vec<Weights> = Vec::new();
    for &i in &chosen {
        let w = best_at[&i];
        if !distinct.contains(&w) {
            distinct.push(w);
        }
    }
    let bar = if show_progress(false) {
        let b = ProgressBar::new((distinct.len() * per_match) as u64);
        b.set_style(
            ProgressStyle::with_template("Elo {bar:40} {pos}/{len} games {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let p = pool(a.threads)?;
    let mut results: HashMap<Weights, Wdl> = HashMap::new();
    for w in distinct {
        let engine = Engine {
            name: "best so far".to_string(),
            eval: w.into(),
            config,
        };
        let (wdl, _) = p.install(|| play_match(&engine, &reference, &settings, &|_| bar.inc(1)));
        results.insert(w, wdl);
    }
    bar.finish_and_clear();
    let elo: Vec<(u64, Wdl)> = chosen
        .iter()
        .map(|&i| {
            let st = &session.history[i];
            (st.generation, results[&best_at[&i]])
        })
        .collect();
    let mut what = format!(
        "Elo: best so far vs {} over {per_match} ballot games at depth {depth}, seed {seed}",
        a.reference
    );
    if missing > 0 {
        what += &format!(
            " ({missing} generation(s) left out: played before checkpoint format 3, and their \
             checkpoints were pruned)"
        );
    }
    Ok((what, elo))
}

pub fn run(a: HistoryArgs) -> anyhow::Result<()> {
    let (path, session) = find_session(a.session.as_deref(), &a.populations)?;
    if session.history.is_empty() {
        bail!(
            "session '{}' ({}) has no generations yet",
            session.name,
            path.display()
        );
    }
    let (elo_line, elo) = if a.elo {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let (l, e) = measure(&a, &session, dir)?;
        (Some(l), e)
    } else {
        (None, Vec::new())
    };
    let s = &session.settings;
    let mut text = format!(
        "session '{}' ({}): {} generation{}, population {}, depth {}, seed {}\n",
        session.name,
        path.display(),
        session.history.len(),
        if session.history.len() == 1 { "" } else { "s" },
        s.population,
        s.search.depth,
        s.seed
    );
    if let Some(l) = elo_line {
        text.push_str(&l);
        text.push('\n');
    }
    text.push('\n');
    text.push_str(&history_table(&session.history, &elo));
    text.push_str(
        "points: 2 per win, 1 per draw, within each generation's own tournament (relative: they \
         fall as the population gets stronger); duel: challenger-holder points, * = new best so far\n",
    );
    if session.history.iter().any(|h| h.measure.is_some()) {
        let g = &s.ga;
        text.push_str(&format!(
            "vs yardstick: the best so far against {} over {} ballot games at depth {}, Elo +/- 95% \
             margin (W-D-L), every {} generations\n",
            g.yardstick,
            g.measure_games.div_ceil(2).saturating_mul(2),
            s.search.depth,
            g.measure_every
        ));
    }
    if let Some(svg) = &a.svg {
        let title = format!(
            "checkers-ga session '{}': points per generation",
            session.name
        );
        store::write_atomic(svg, history_svg(&session.history, &title).as_bytes())
            .with_context(|| format!("cannot write '{}'", svg.display()))?;
        text.push_str(&format!("SVG chart written to {}\n", svg.display()));
    }
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(())
}
