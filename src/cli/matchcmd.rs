//! `checkers-ga match A B`: two engines (weights or yardsticks) play every opening twice,
//! colours swapped; W/D/L, Elo, the pentanomial counts of the pairs and an optional SPRT.

use super::common::{
    catch_interrupt, evaluator_arg, pool, progress_style, search_config, show_progress, Interrupted,
};
use anyhow::Context;
use checkers_ga::fresh_seed;
use checkers_ga::load_openings;
use checkers_ga::matchplay::{
    match_pdn, Engine, MatchEnd, MatchGame, MatchHeader, MatchObserver, MatchReport, MatchRun, Sprt,
};
use checkers_ga::DrawRules;
use checkers_ga::TimeControl;
use checkers_ga::MAX_TIMED_DEPTH;
use indicatif::ProgressBar;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(clap::Args)]
pub struct MatchArgs {
    /// Engine A: a weight file (anything `show` reads), `material`, `thesis`, `random`, or the
    /// yardsticks `hand` and `classic`
    pub a: String,
    /// Engine B: as A
    pub b: String,
    /// Search depth of both engines (default 4); with --tc their maximum depth (default 64)
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search depth of B when it differs from A's (with --tc, B's maximum depth)
    #[arg(long)]
    pub depth_b: Option<u32>,
    /// Equal-time games instead of fixed depth: SECONDS per move (e.g. 0.1) or GAME+INC,
    /// seconds for the whole game plus an increment per move (e.g. 10+0.1); the engines search
    /// by iterative deepening, and a side that runs out of time loses. Not reproducible
    #[arg(long, value_name = "SECONDS|GAME+INC")]
    pub tc: Option<TimeControl>,
    /// Where games start: `ballot` (156 openings), `start`, or a file of positions (a FEN per
    /// line, or PDN games: each game's FEN tag or the start position, then its moves); each
    /// position is played twice with colours swapped
    #[arg(long, default_value = "ballot")]
    pub openings: String,
    /// Number of games (rounded up to an even number): the first N/2 openings, each twice
    #[arg(long)]
    pub games: Option<usize>,
    /// Stop as soon as a sequential probability ratio test decides between H0 "A is elo0
    /// stronger" and H1 "A is elo1 stronger" (logistic Elo; pentanomial GSPRT; alpha and beta
    /// default to 0.05); the game limit is --games or the whole book
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    pub sprt: Option<Sprt>,
    /// Worker threads (0 = one per core)
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Seed for tie-breaks and random weights (drawn and printed when absent)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append every game as PDN to this file (created if absent) as soon as it and the games
    /// before it have ended, so an interrupted match keeps its finished games
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// Game length cap in plies (0 = none), as in new and play
    #[arg(long, default_value_t = DrawRules::default().max_plies)]
    pub max_plies: u32,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
}

/// What the command does as games end: advances the progress bar; appends each counted game
/// to the PDN file (the whole game in one write, then a flush) and tells an MPI job's rank 0
/// how far the match got, in case it is ended from outside.
struct Watcher<'a> {
    bar: ProgressBar,
    pdn: Option<(Mutex<std::fs::File>, &'a Path)>,
    a: &'a Engine,
    b: &'a Engine,
    total: usize,
    counted: AtomicUsize,
}

impl Watcher<'_> {
    /// What rank 0 says when the job is ended from outside (SIGTERM: Ctrl-C at mpirun, a rank
    /// lost): how far the match got, and where its games are.
    fn note(&self, counted: usize) -> String {
        let kept = match &self.pdn {
            Some((_, p)) => format!(", each appended to {} as it ended", p.display()),
            None => String::new(),
        };
        format!(
            "the match was not finished ({counted} of {} games counted{kept})",
            self.total
        )
    }
}

impl MatchObserver for Watcher<'_> {
    type Error = std::io::Error;
    fn game_finished(&self, _: &MatchGame) {
        self.bar.inc(1);
    }
    fn game_counted(&self, g: &MatchGame) -> std::io::Result<()> {
        let counted = self.counted.fetch_add(1, Ordering::SeqCst) + 1;
        checkers_ga::set_stop_note(self.note(counted));
        match &self.pdn {
            Some((file, _)) => {
                let text = match_pdn(self.a, self.b, std::slice::from_ref(g));
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                file.write_all(text.as_bytes())?;
                file.flush()
            }
            None => Ok(()),
        }
    }
}

pub fn run(a: MatchArgs) -> anyhow::Result<()> {
    // With a clock the depth is a maximum, and deeper ones make sense.
    let (max, with) = match a.tc {
        Some(_) => (MAX_TIMED_DEPTH, " with --tc"),
        None => (checkers_ga::MAX_DEPTH, ""),
    };
    let depth = a.depth.unwrap_or(if a.tc.is_some() { max } else { 4 });
    if depth == 0 || depth > max {
        usage!("--depth {depth} must be 1..{max}{with}");
    }
    if let Some(d) = a.depth_b.filter(|d| *d == 0 || *d > max) {
        usage!("--depth-b {d} must be 1..{max}{with}");
    }
    if let Some(g) = a.games.filter(|g| *g == 0 || *g > 100_000) {
        usage!("--games {g} must be 1..100000");
    }
    if let Some(p) = &a.pdn {
        super::common::check_output_file(p, "--pdn")?;
    }
    let starts = load_openings(&a.openings, a.games.map(|g| g.div_ceil(2)))?;
    let pool = pool(a.threads)?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let (name_a, eval_a) = evaluator_arg(&a.a, seed, 0)?;
    let (name_b, eval_b) = evaluator_arg(&a.b, seed, 1)?;
    let ea = Engine {
        name: name_a,
        eval: eval_a,
        config: search_config(depth, false, 16),
    };
    let eb = Engine {
        name: name_b,
        eval: eval_b,
        config: search_config(a.depth_b.unwrap_or(depth), false, 16),
    };
    let pdn = match &a.pdn {
        Some(path) => Some((
            Mutex::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| {
                        format!("cannot open PDN '{}' for appending", path.display())
                    })?,
            ),
            path.as_path(),
        )),
        None => None,
    };
    let interrupted = catch_interrupt(
        "stopping the match; the result of the finished games follows (the same signal again \
         exits at once)",
    )?;
    let total = starts.len() * 2;
    let run = MatchRun {
        games: total,
        starts,
        seed,
        rules: DrawRules {
            max_plies: a.max_plies,
            ..DrawRules::default()
        },
        sprt: a.sprt,
        interrupt: Some(interrupted),
        tc: [a.tc; 2],
        time_margin: std::time::Duration::ZERO,
        move_timeout: None,
        adjudication: Default::default(),
        first_ties: false,
    };
    let mut out = std::io::stdout().lock();
    write!(
        out,
        "{}",
        MatchHeader {
            run: &run,
            a: &ea,
            b: &eb
        }
    )?;
    let bar = if show_progress(a.quiet) {
        let b = ProgressBar::new(total as u64);
        b.set_style(progress_style(
            "{bar:40} {pos}/{len} games {rate} eta {eta}",
        ));
        b
    } else {
        ProgressBar::hidden()
    };
    let t = Instant::now();
    let watcher = Watcher {
        bar,
        pdn,
        a: &ea,
        b: &eb,
        total,
        counted: AtomicUsize::new(0),
    };
    checkers_ga::set_stop_note(watcher.note(0));
    let result = pool
        .install(|| run.run(&ea, &eb, &watcher))
        .with_context(|| {
            format!(
                "cannot append to PDN '{}'",
                a.pdn.as_deref().unwrap_or(Path::new("")).display()
            )
        })?;
    watcher.bar.finish_and_clear();
    let report = MatchReport {
        run: &run,
        result: &result,
        seconds: t.elapsed().as_secs_f64(),
        pdn: a.pdn.as_deref(),
    };
    write!(out, "{report}")?;
    if result.end == MatchEnd::Interrupted {
        // Exit status 130, as after SIGINT; everything is printed and written already.
        out.flush()?;
        return Err(Interrupted.into());
    }
    Ok(())
}
