//! `checkers-ga match A B`: two engines (weights or yardsticks) play every opening twice,
//! colours swapped, in rounds of the book when more games are asked for; W/D/L, Elo, the
//! pentanomial counts of the pairs and an optional SPRT, with the running score on the
//! progress line and the result as JSON (`--json`). Per-engine clocks, a time margin and
//! adjudication, as engine testers set them.

use super::common::{catch_interrupt, pool, progress_style, show_progress, warn, Interrupted};
use anyhow::Context;
use checkers_ga::fresh_seed;
use checkers_ga::load_openings;
use checkers_ga::matchplay::{
    match_pdn, Adjudication, DrawAdjudication, MatchEnd, MatchGame, MatchHeader, MatchJson,
    MatchObserver, MatchReport, MatchResult, MatchRun, ResignAdjudication, RunningScore, Score,
    Sprt,
};
use checkers_ga::matchplay::{Contestant, MatchRequest};
use checkers_ga::AppendFile;
use checkers_ga::DrawRules;
use checkers_ga::PdnTags;
use checkers_ga::PlayerRequest;
use checkers_ga::TimeControl;
use indicatif::ProgressBar;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(clap::Args)]
pub struct MatchArgs {
    /// Engine A: a weight file (anything `show` reads), `material`, `thesis`, `random`, the
    /// yardsticks `hand` and `classic`, or an outside Hub engine `hub:CMD` (e.g.
    /// `hub:"./scan hub"`)
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
    /// A's time control when it differs from --tc (the same forms)
    #[arg(long, value_name = "SECONDS|GAME+INC")]
    pub tc_a: Option<TimeControl>,
    /// B's time control when it differs from --tc (the same forms)
    #[arg(long, value_name = "SECONDS|GAME+INC")]
    pub tc_b: Option<TimeControl>,
    /// How far past its clock a move may end before the side loses on time, in milliseconds
    /// (for outside engines, whose moves cross a pipe)
    #[arg(long, value_name = "MS")]
    pub time_margin: Option<u64>,
    /// The longest an outside engine may take for one move without a clock, in seconds,
    /// before it is scored as hung [default: 60]
    #[arg(long, value_name = "S")]
    pub move_timeout: Option<f64>,
    /// Seconds an outside engine has for its handshake (`hub` ... `wait`, `init` ... `ready`)
    /// before it counts as never having answered [default: 10]
    #[arg(long, value_name = "S")]
    pub handshake_timeout: Option<f64>,
    /// Adjudicate a draw from full move MOVENUMBER on once both engines' scores have stayed
    /// within +/-SCORE hundredths of a man for MOVECOUNT consecutive moves each (as
    /// cutechess-cli's -draw, its cp as centi-men)
    #[arg(long, value_name = "MOVENUMBER,MOVECOUNT,SCORE")]
    pub draw_adjudication: Option<DrawAdjudication>,
    /// Adjudicate a loss once an engine's score has stayed at or below -SCORE hundredths of a
    /// man for MOVECOUNT consecutive moves, its opponent's at or above +SCORE in between (as
    /// cutechess-cli's -resign, two-sided)
    #[arg(long, value_name = "MOVECOUNT,SCORE")]
    pub resign_adjudication: Option<ResignAdjudication>,
    /// Where games start: `ballot` (156 openings), `start`, or a file of positions (a FEN per
    /// line, or PDN games: each game's FEN tag or the start position, then its moves); each
    /// position is played twice with colours swapped
    #[arg(long, default_value = "ballot")]
    pub openings: String,
    /// Number of games (rounded up to an even number): the first N/2 openings, each twice;
    /// beyond the book, rounds of it, ties broken anew each round [default: the whole book
    /// once; with --sprt, until the test decides (at most 100000)]
    #[arg(long)]
    pub games: Option<usize>,
    /// Stop as soon as a sequential probability ratio test decides between H0 "A is elo0
    /// stronger" and H1 "A is elo1 stronger" (logistic Elo; pentanomial GSPRT; alpha and beta
    /// default to 0.05); the game limit is --games, else rounds of the book until it decides
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
    /// Write the result as JSON to this file (replaced atomically when the match ends; the
    /// fields are in docs/formats.md)
    #[arg(long, value_name = "FILE")]
    pub json: Option<std::path::PathBuf>,
    /// Print the running score (W/D/L, Elo, LLR) to stderr every N counted games, as
    /// cutechess-cli's -ratinginterval (0 = only on the progress bar)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub rating_interval: usize,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
    /// A parameter of an outside engine A (hub:CMD), sent as `set-param` (repeatable)
    #[arg(long, value_name = "NAME=VALUE")]
    pub option_a: Vec<String>,
    /// A parameter of an outside engine B, as --option-a
    #[arg(long, value_name = "NAME=VALUE")]
    pub option_b: Vec<String>,
    /// The name reports and the PDN give A [default: an outside engine's `id name=`, else the
    /// argument's name]
    #[arg(long)]
    pub name_a: Option<String>,
    /// The name of B, as --name-a
    #[arg(long)]
    pub name_b: Option<String>,
    /// Ties among the best root moves go to the first in generation order, not to the seed:
    /// our engine then plays as `checkers-ga hub --tie-break first` does
    #[arg(long)]
    pub first_ties: bool,
}

/// What the command does as games end: advances the progress bar; appends each counted game
/// to the PDN file (the whole game in one write, then a flush) and tells an MPI job's rank 0
/// how far the match got, in case it is ended from outside.
struct Watcher<'a> {
    bar: ProgressBar,
    pdn: Option<Mutex<AppendFile>>,
    /// A's name, then B's.
    names: [&'a str; 2],
    total: usize,
    counted: AtomicUsize,
    /// The running score of the counted games, for the progress line.
    score: Mutex<Score>,
    sprt: Option<Sprt>,
    /// Print the running score every this many counted games (0: never).
    interval: usize,
}

impl Watcher<'_> {
    /// What rank 0 says when the job is ended from outside (SIGTERM: Ctrl-C at mpirun, a rank
    /// lost): how far the match got, and where its games are.
    fn note(&self, counted: usize) -> String {
        let kept = match &self.pdn {
            Some(f) => {
                let f = f.lock().unwrap_or_else(|e| e.into_inner());
                format!(", each appended to {} as it ended", f.path().display())
            }
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
        {
            let mut score = self.score.lock().unwrap_or_else(|e| e.into_inner());
            score.add(g);
            let line = RunningScore {
                score: &score,
                sprt: self.sprt.as_ref(),
            }
            .to_string();
            if self.interval > 0 && counted.is_multiple_of(self.interval) {
                let line = format!("{counted} games: {line}");
                if self.bar.is_hidden() {
                    eprintln!("{line}");
                } else {
                    self.bar.println(line);
                }
            }
            self.bar.set_message(line);
        }
        match &self.pdn {
            Some(file) => {
                let text = match_pdn(self.names, std::slice::from_ref(g));
                // The file keeps whole games only.
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                file.append(text.as_bytes())
            }
            None => Ok(()),
        }
    }
}

/// The levels the flags ask for.
fn request(a: &MatchArgs) -> MatchRequest {
    MatchRequest {
        depth: a.depth,
        depth_b: a.depth_b,
        tc: [a.tc_a.or(a.tc), a.tc_b.or(a.tc)],
        games: a.games,
        time_margin_ms: a.time_margin,
        move_timeout_s: a.move_timeout,
    }
}

/// Plays the match as jobs (the pool, or the ranks of an MPI job), each engine on its own clock
/// or to its depth, with the adjudication.
fn play<O: MatchObserver + ?Sized>(
    run: &MatchRun,
    a: &Contestant,
    b: &Contestant,
    observer: &O,
) -> Result<MatchResult, O::Error> {
    run.run_players(a, b, observer)
}

/// A player of the match ([`PlayerRequest::player`]): its handshake tried once now, within
/// `--handshake-timeout` (an engine that fails it fails the command, in one line, before any
/// game); a warning for each option it does not declare.
fn match_player(request: PlayerRequest) -> anyhow::Result<Contestant> {
    let player = request.player()?;
    for w in &player.warnings {
        warn(w);
    }
    Ok(player.contestant)
}

pub fn run(a: MatchArgs) -> anyhow::Result<()> {
    // The reported time is the command's wall time, the engines' handshakes included.
    let t = Instant::now();
    let request = request(&a);
    let c = request.check()?;
    super::common::set_handshake_timeout(a.handshake_timeout)?;
    if let Some(p) = &a.pdn {
        super::common::check_output_file(p, "--pdn")?;
    }
    for (flag, name) in [("--name-a", &a.name_a), ("--name-b", &a.name_b)] {
        // A name is a PDN tag's value, one line in quotes.
        if let Some(n) = name.as_deref().filter(|n| !PdnTags::is_tag_value(n)) {
            usage!("{flag} {n:?} must be a name on one line, without quotes or backslashes");
        }
    }
    if let Some(p) = &a.json {
        super::common::check_output_file(p, "--json")?;
    }
    let pairs = request.pairs();
    let starts = load_openings(&a.openings, pairs)?;
    if starts.is_empty() {
        anyhow::bail!("--openings '{}' has no positions", a.openings);
    }
    // Beyond the book: rounds of it. An SPRT without --games runs until it decides.
    let total = request.games(starts.len(), a.sprt.is_some());
    let pool = pool(a.threads)?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    // Before any engine starts (the players' handshakes below): a signal from then on stops
    // the match, and the engines with it.
    let interrupted = catch_interrupt(
        "stopping the match; the result of the finished games follows (the same signal again \
         exits at once)",
    )?;
    // Held from the players' handshakes to the match's end: an engine started to check its
    // options plays the first games.
    let _engines = checkers_ga::play::lease_engines();
    let (opts, names) = ([&a.option_a, &a.option_b], [&a.name_a, &a.name_b]);
    let [pa, pb] = [0, 1].map(|k| {
        match_player(PlayerRequest {
            arg: [&a.a, &a.b][k].clone(),
            slot: k as u64,
            seed,
            depth: Some(c.depths[k]),
            options: opts[k].clone(),
            options_flag: ["--option-a", "--option-b"][k].to_string(),
            move_timeout: c.move_timeout,
            name: names[k].clone(),
        })
    });
    let (mut pa, mut pb) = (pa?, pb?);
    if a.name_a.is_none() && a.name_b.is_none() {
        // One engine under two settings: names that tell the sides apart.
        checkers_ga::matchplay::tell_apart(&mut pa, &mut pb);
    }
    let pdn = match &a.pdn {
        Some(path) => Some(Mutex::new(AppendFile::open(path).with_context(|| {
            format!("cannot open PDN '{}' for appending", path.display())
        })?)),
        None => None,
    };
    let mut run = MatchRun {
        rules: DrawRules {
            max_plies: a.max_plies,
            ..DrawRules::default()
        },
        sprt: a.sprt,
        interrupt: Some(interrupted),
        adjudication: Adjudication {
            draw: a.draw_adjudication,
            resign: a.resign_adjudication,
        },
        first_ties: a.first_ties,
        ..MatchRun::new(total, starts, seed)
    };
    c.apply(&mut run);
    let mut out = std::io::stdout().lock();
    write!(
        out,
        "{}",
        MatchHeader {
            run: &run,
            a: &pa,
            b: &pb
        }
    )?;
    let bar = if show_progress(a.quiet) {
        let b = ProgressBar::new(total as u64);
        // Until the SPRT decides, the cap says nothing of the time left.
        b.set_style(progress_style(if pairs.is_none() && a.sprt.is_some() {
            "{pos} games {rate}  {msg}"
        } else {
            "{bar:40} {pos}/{len} games {rate} eta {eta}  {msg}"
        }));
        b
    } else {
        ProgressBar::hidden()
    };
    let watcher = Watcher {
        bar,
        pdn,
        names: [pa.name(), pb.name()],
        total,
        counted: AtomicUsize::new(0),
        score: Mutex::new(Score::default()),
        sprt: a.sprt,
        interval: a.rating_interval,
    };
    checkers_ga::set_stop_note(watcher.note(0));
    let result = pool
        .install(|| play(&run, &pa, &pb, &watcher))
        .with_context(|| {
            format!(
                "cannot append to PDN '{}'",
                a.pdn.as_deref().unwrap_or(Path::new("")).display()
            )
        })?;
    watcher.bar.finish_and_clear();
    let seconds = t.elapsed().as_secs_f64();
    let report = MatchReport {
        run: &run,
        result: &result,
        seconds,
        pdn: a.pdn.as_deref(),
    };
    write!(out, "{report}")?;
    if let Some(path) = &a.json {
        MatchJson {
            run: &run,
            sides: [&pa, &pb],
            openings: &a.openings,
            result: &result,
            seconds,
        }
        .write(path)
        .with_context(|| format!("cannot write JSON '{}'", path.display()))?;
        writeln!(out, "JSON: {}", path.display())?;
    }
    if result.end == MatchEnd::Interrupted {
        // Exit status 130, as after SIGINT; everything is printed and written already.
        out.flush()?;
        return Err(Interrupted.into());
    }
    Ok(())
}
