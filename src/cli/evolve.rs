//! `checkers-ga new` and `checkers-ga resume`: evolution sessions with a checkpoint per generation.

use super::common::{catch_interrupt, progress_style, show_progress, weights_arg, Interrupted};
use anyhow::Context;
use checkers_ga::eval::ParamSet;
use checkers_ga::ga::{GenerationStats, Mutation, Selection, Session, Stop, Yardstick};
use checkers_ga::matchplay::{OpeningBook, Wdl};
use checkers_ga::report::elo_text;
use checkers_ga::rng::fresh_seed;
use checkers_ga::session::{self, End, NewSession, Observer, Overrides, Run};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

/// Settings of a session. With `new`, an absent option takes its default; with `resume`, it
/// keeps the checkpoint's value.
#[derive(clap::Args, Default)]
pub struct SessionOptions {
    /// Individuals per generation, a multiple of 4 [new: 32]
    #[arg(long)]
    pub population: Option<usize>,
    /// Games per individual per generation, 0 = all against all twice [new: 0]
    #[arg(long)]
    pub games: Option<usize>,
    /// Search depth of the tournament games [new: 2]
    #[arg(long)]
    pub depth: Option<u32>,
    /// Selection noise: a random integer in [0, F) added to each total before ranking
    /// (truncation selection and the elite) [new: 8]
    #[arg(long)]
    pub factor: Option<u32>,
    /// Chance that a child is mutated, 0..1 [new: 0.9]
    #[arg(long)]
    pub mutation: Option<f64>,
    /// Stop after this many generations in all [new: 2000]
    #[arg(long, conflicts_with = "time")]
    pub generations: Option<u64>,
    /// Stop once this many seconds of evolution in all have passed (a generation still under
    /// way then is abandoned at a game boundary and not saved)
    #[arg(long)]
    pub time: Option<f64>,
    /// Where games start: ballot or start [new: ballot]
    #[arg(long)]
    pub openings: Option<OpeningBook>,
    /// Parents kept into the next generation, the best so far among them [new: population/4]
    #[arg(long)]
    pub elite: Option<usize>,
    /// Fresh random individuals per generation [new: population/4]
    #[arg(long)]
    pub newcomers: Option<usize>,
    /// Game length cap in plies [new: 300, as match and play]
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Plies without capture or man move that draw, 0 = off [new: 80, the 40-move rule]
    #[arg(long)]
    pub quiet_plies: Option<u32>,
    /// The parameters the weights weigh: thesis60, endgame66, phased132 or net66[:H] (a
    /// network of H hidden units, 1..=32, 8 when not given) [new: endgame66;
    /// with --from, thesis60 unless given]
    #[arg(long, value_name = "SET")]
    pub params: Option<ParamSet>,
    /// Parent selection: truncation (the original: points plus noise, top half), roulette
    /// (fitness-proportionate) or tournament:K [new: truncation]
    #[arg(long)]
    pub selection: Option<Selection>,
    /// Mutation: replace (one weight replaced by a random i16, the original) or
    /// gauss:SIGMA[:GENES] (GENES weights moved by Gaussian steps) [new: gauss:800:4]
    #[arg(long = "mutation-kind", value_name = "KIND")]
    pub mutation_kind: Option<Mutation>,
    /// Random weights are drawn uniformly from -R..R (32767 = the whole i16 range) [new: 4000]
    #[arg(long, value_name = "R")]
    pub init_range: Option<u16>,
    /// Past bests that play in every tournament as extra opponents, 0 = none [new: 0]
    #[arg(long, value_name = "H")]
    pub hall_of_fame: Option<u32>,
    /// A depth schedule: from generation G on, games search to depth D (G:D; 0:0 = never)
    /// [new: never]
    #[arg(long, value_name = "G:D", value_parser = parse_deepen)]
    pub deepen: Option<(u64, u32)>,
    /// Endgame pairs per individual: each also plays its next E ring neighbours from a
    /// kings-only ending drawn for the pair (2 or 3 kings against 1), both sides [new: 0]
    #[arg(long, value_name = "E")]
    pub endgame_pairs: Option<u32>,
    /// Games of the duel that decides the best so far (even; 2 = the original, a tie goes to the
    /// challenger; more: distinct ballot openings, a tie keeps the holder) [new: 32]
    #[arg(long, value_name = "N")]
    pub duel_games: Option<u32>,
    /// Measure the best so far against the yardstick every K generations, 0 = never [new: 50]
    #[arg(long, value_name = "K")]
    pub measure_every: Option<u64>,
    /// Games of each measurement (the first N/2 ballot openings, both colours) [new: 312]
    #[arg(long, value_name = "N")]
    pub measure_games: Option<u32>,
    /// The fixed opponent of the measurements: material, hand or classic [new: material]
    #[arg(long, value_name = "NAME")]
    pub yardstick: Option<Yardstick>,
}

/// Options of a run that are not part of the session's identity.
#[derive(clap::Args)]
pub struct RunOptions {
    /// Worker threads (0 = one per core); results are the same at any count
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Keep the newest K checkpoints and those of every --keep-every'th generation; 0 keeps
    /// every checkpoint (the history file holds every generation either way) [new: 10; resume:
    /// the session's]
    #[arg(long, value_name = "K")]
    pub keep: Option<usize>,
    /// With --keep K: also keep the checkpoint of every M-th generation (0 = only the newest K)
    /// [new: 100; resume: the session's]
    #[arg(long, value_name = "M")]
    pub keep_every: Option<u64>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// Folder where the best weights are written when the session stops
    #[arg(long, default_value = "weights")]
    pub weights_dir: PathBuf,
    /// No progress bar and no per-generation lines
    #[arg(long)]
    pub quiet: bool,
    /// Overwrite WEIGHTS_DIR/NAME-best.json even when it holds the best of another session, of
    /// another seed, or of a later generation than this run starts from (another branch)
    #[arg(long)]
    pub force: bool,
}

#[derive(clap::Args)]
pub struct NewArgs {
    #[command(flatten)]
    pub session: SessionOptions,
    #[command(flatten)]
    pub run: RunOptions,
    /// Seed of every random choice (drawn, printed and stored when absent)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Session name: its checkpoints go to POPULATIONS/NAME/ [default: date and time]
    #[arg(long)]
    pub name: Option<String>,
    /// Start from a population file of the original tool
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Put these weights into the first population (repeatable), replacing random ones: any
    /// file `show` reads, a session folder (its best so far), or `material`, `thesis`, `random`
    #[arg(long, value_name = "FILE|FOLDER|NAME")]
    pub include: Vec<String>,
}

#[derive(clap::Args)]
pub struct ResumeArgs {
    /// A checkpoint file, a session folder or a session name (default: the newest checkpoint
    /// under the populations folder)
    pub file: Option<String>,
    #[command(flatten)]
    pub session: SessionOptions,
    #[command(flatten)]
    pub run: RunOptions,
}

/// `G:D` of `--deepen`.
fn parse_deepen(s: &str) -> Result<(u64, u32), String> {
    let bad = || format!("'{s}' is not G:D (a generation and a depth, e.g. 1500:3)");
    let (g, d) = s.split_once(':').ok_or_else(bad)?;
    Ok((g.parse().map_err(|_| bad())?, d.parse().map_err(|_| bad())?))
}

impl SessionOptions {
    fn overrides(&self) -> Overrides {
        Overrides {
            population: self.population,
            games: self.games,
            depth: self.depth,
            factor: self.factor,
            mutation: self.mutation,
            generations: self.generations,
            time: self.time,
            openings: self.openings,
            elite: self.elite,
            newcomers: self.newcomers,
            max_plies: self.max_plies,
            quiet_plies: self.quiet_plies,
            params: self.params,
            selection: self.selection,
            mutation_kind: self.mutation_kind,
            init_range: self.init_range,
            hall_of_fame: self.hall_of_fame,
            deepen: self.deepen,
            endgame_pairs: self.endgame_pairs,
            duel_games: self.duel_games,
            measure_every: self.measure_every,
            measure_games: self.measure_games,
            yardstick: self.yardstick,
        }
    }
}

impl RunOptions {
    fn library(&self) -> session::RunOptions {
        session::RunOptions {
            threads: self.threads,
            keep: self.keep,
            keep_every: self.keep_every,
            populations: self.populations.clone(),
            weights_dir: self.weights_dir.clone(),
            force: self.force,
        }
    }
}

/// What the first Ctrl-C of a session says.
const CTRL_C: &str = "Ctrl-C: stopping at the next game boundary to save the session (Ctrl-C \
                      again exits at once; the checkpoints written so far stay)";

pub fn run_new(a: NewArgs) -> anyhow::Result<()> {
    let stop = catch_interrupt(CTRL_C)?;
    let from = match &a.from {
        Some(p) => Some(load_original_population(p)?),
        None => None,
    };
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut include = Vec::new();
    for (slot, spec) in a.include.iter().enumerate() {
        let arg =
            weights_arg(spec, seed, slot as u64).with_context(|| format!("--include '{spec}'"))?;
        let w = checkers_ga::report::select(&arg.input, None)?.weights;
        include.push((spec.clone(), w));
    }
    let spec = NewSession {
        name: a.name.clone(),
        seed: Some(seed),
        settings: a.session.overrides(),
        from,
        include,
    };
    let run = Run::start(spec, a.run.library())?;
    let s = &run.session;
    if a.run.quiet && a.seed.is_none() {
        // A drawn seed is always shown: it is the only way to repeat the session.
        eprintln!("new session '{}': seed {seed}", s.name);
    }
    if !a.run.quiet {
        println!(
            "new session '{}': seed {seed}, population {}, depth {}, {}",
            s.name, s.settings.population, s.settings.search.depth, s.settings.stop
        );
    }
    evolve(run, &a.run, stop)
}

/// Reads a population file of the original tool (its individuals; the other header fields
/// are the original's session arguments, which our options replace).
fn load_original_population(path: &Path) -> anyhow::Result<Vec<checkers_ga::Weights>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read population file '{}'", path.display()))?;
    let (_, pop) = checkers_ga::formats::parse_population(&text)
        .map_err(|e| anyhow::anyhow!("'{}': {e}", path.display()))?;
    Ok(pop)
}

pub fn run_resume(a: ResumeArgs) -> anyhow::Result<()> {
    let stop = catch_interrupt(CTRL_C)?;
    let run = Run::resume(a.file.as_deref(), &a.session.overrides(), a.run.library())?;
    for e in &run.skipped {
        eprintln!("warning: skipping {e}");
    }
    if run.set_aside > 0 && !a.run.quiet {
        println!(
            "set aside {} newer checkpoint(s) of the earlier run as *.ckpt.superseded-N",
            run.set_aside
        );
    }
    let s = &run.session;
    if !a.run.quiet {
        let from = run.resumed_from.as_deref().unwrap_or(Path::new("?"));
        println!(
            "resuming '{}' from {} (generation {}, {})",
            s.name,
            from.display(),
            s.generation,
            s.settings.stop
        );
        for change in &run.changes {
            println!("new setting: {change}");
        }
    }
    if s.finished() {
        println!(
            "session '{}' already reached its limit ({}); give a larger --generations or --time",
            s.name, s.settings.stop
        );
    }
    evolve(run, &a.run, stop)
}

/// A word for a shell command line, quoted when it needs to be.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+@%,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command that continues the session in `dir`: `checkers-ga resume NAME` (with the folders
/// when they are not the defaults), or the folder when it is not `POPULATIONS/NAME`.
fn resume_command(dir: &Path, name: &str, run: &RunOptions) -> String {
    let word = |p: &Path| shell_word(&p.to_string_lossy());
    let mut c = if dir == checkers_ga::store::session_dir(&run.populations, name) {
        let mut c = format!("checkers-ga resume {}", shell_word(name));
        if run.populations != Path::new("populations") {
            c += &format!(" --populations {}", word(&run.populations));
        }
        c
    } else {
        format!("checkers-ga resume {}", word(dir))
    };
    if run.weights_dir != Path::new("weights") {
        c += &format!(" --weights-dir {}", word(&run.weights_dir));
    }
    c
}

/// What rank 0 of an MPI job says if the job is ended under it (a rank died, mpirun stopped):
/// the generation under way is lost, the session stands at its last checkpoint.
fn set_stop_note(session: &Session, ckpt: &Path, resume: &str) {
    checkers_ga::cluster::set_stop_note(format!(
        "generation {} was not finished; the session stands at generation {} ({}); continue \
         with: {resume} (under mpirun or srun with any number of ranks, or without MPI)",
        session.generation + 1,
        session.generation,
        ckpt.display()
    ));
}

/// The session's reporter: a progress bar per generation on a terminal, a summary line and the
/// checkpoint's path per generation (unless quiet), the best-weights file at the end.
struct Printer {
    quiet: bool,
    progress: bool,
    bar: ProgressBar,
    resume: String,
}

impl Observer for Printer {
    fn generation_started(&mut self, s: &Session, games: usize) {
        if !self.progress {
            return;
        }
        let b = ProgressBar::new(games as u64);
        b.set_style(progress_style(
            "gen {prefix} {bar:30} {pos}/{len} games {rate} eta {eta}  {msg}",
        ));
        b.set_prefix((s.generation + 1).to_string());
        // Shown while the generation runs, so it is on screen when the user presses Ctrl-C.
        let elo = match s.last_measure() {
            Some((g, m)) => format!(
                "best vs {} (gen {g}): {}  ",
                s.settings.ga.yardstick,
                elo_text(&m)
            ),
            None => String::new(),
        };
        b.set_message(format!(
            "{elo}Ctrl-C stops and saves; then `{}`",
            self.resume
        ));
        self.bar = b;
    }

    fn game_done(&self) {
        self.bar.inc(1);
    }

    fn generation_done(&mut self, _: &GenerationStats, _: &Session) {
        self.bar.finish_and_clear();
    }

    fn checkpoint_written(&mut self, path: &Path, s: &Session) {
        set_stop_note(s, path, &self.resume);
        if !self.quiet {
            if let Some(st) = s.history.last() {
                println!("{}", summary_line(st, s));
            }
            println!("checkpoint {}", path.display());
        }
    }

    fn best_weights_written(&mut self, path: &Path) {
        println!("best weights: {}", path.display());
    }

    fn stopped(&mut self, _: End, _: &Session, _: &Path) {
        self.bar.finish_and_clear();
    }
}

fn evolve(run: Run, opts: &RunOptions, stop: &std::sync::atomic::AtomicBool) -> anyhow::Result<()> {
    let resume = resume_command(&run.dir, &run.session.name, opts);
    if !opts.quiet && !run.session.finished() {
        println!(
            "checkpoints in {}/ (Ctrl-C stops at the next game boundary and saves; continue with \
             `{resume}`)",
            run.dir.display()
        );
    }
    let start = run.start_checkpoint();
    if start.exists() {
        set_stop_note(&run.session, &start, &resume);
    } else {
        checkers_ga::cluster::set_stop_note(format!(
            "no generation of session '{}' was finished, nothing was saved",
            run.session.name
        ));
    }
    let stop_text = run.session.settings.stop.to_string();
    let mut printer = Printer {
        quiet: opts.quiet,
        progress: show_progress(opts.quiet),
        bar: ProgressBar::hidden(),
        resume,
    };
    let out = run.evolve(&mut printer, stop)?;
    let why = match out.end {
        End::Finished => return Ok(()),
        End::Stopped => "stopped by Ctrl-C".to_string(),
        End::TimeLimit => format!("time limit reached ({stop_text})"),
    };
    let g = out.generation;
    println!(
        "{why}: generation {} was abandoned and not saved; the session stands at generation {g} \
         ({})",
        g + 1,
        out.checkpoint.display()
    );
    if out.end == End::Stopped {
        println!("continue with: {}", printer.resume);
        return Err(Interrupted.into());
    }
    println!("continue with: {} --time MORE_SECONDS", printer.resume);
    Ok(())
}

fn summary_line(st: &GenerationStats, s: &Session) -> String {
    let duel = match st.duel {
        None => "first best".to_string(),
        Some(d) if d.is_same() => "best so far again".to_string(),
        Some(d) => format!(
            "duel {}-{}{}",
            d.challenger,
            d.holder,
            if d.replaced { " new best" } else { "" }
        ),
    };
    let limit = match s.settings.stop {
        Stop::Generations(g) => format!("/{g}"),
        Stop::Seconds(_) => String::new(),
    };
    let measured = match st.measure {
        Some(m) => measured_text(s, &m),
        None => String::new(),
    };
    format!(
        "gen {}{limit}  points (relative) best {} mean {:.1} min {}  diversity {:.3}  {duel}{measured}  {} games {:.1}/s  {:.1} plies/game  {:.1} s",
        st.generation,
        st.best,
        st.mean,
        st.min,
        st.diversity,
        st.games,
        st.games as f64 / st.seconds.max(1e-9),
        st.plies as f64 / st.games.max(1) as f64,
        st.seconds
    )
}

fn measured_text(s: &Session, m: &Wdl) -> String {
    format!("  vs {}: {}", s.settings.ga.yardstick, elo_text(m))
}
