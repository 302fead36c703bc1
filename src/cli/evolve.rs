//! `checkers-ga new` and `checkers-ga resume`: evolution sessions with a checkpoint per generation.

use super::common::{ensure_folder, pool, progress_style, show_progress, weights_arg, Interrupted};
use anyhow::{bail, Context};
use checkers_ga::eval::ParamSet;
use checkers_ga::ga::{
    GaOptions, GenerationStats, Mutation, Selection, Session, Settings, Stop, Yardstick,
};
use checkers_ga::game::DrawRules;
use checkers_ga::lock::lock_session;
use checkers_ga::matchplay::OpeningBook;
use checkers_ga::rng::fresh_seed;
use checkers_ga::search::SearchConfig;
use checkers_ga::store;
use checkers_ga::weights::Origin;
use indicatif::ProgressBar;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

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
    /// Roulette random factor: noise in [0, F) added to each total [new: 8]
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

fn default_name() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let day = checkers_ga::game::today().replace('.', "-");
    let t = secs % 86_400;
    format!("{day}-{:02}{:02}{:02}", t / 3600, t / 60 % 60, t % 60)
}

/// Generations of a session started without --generations or --time: about 3.5 minutes on 2
/// cores.
const DEFAULT_GENERATIONS: u64 = 2000;

/// The defaults of `new`, each chosen by measurement on this project's 2-core machine (README,
/// "Choosing the defaults"; `scripts/bench-strength.sh`): population 32 at depth 2 for 2000
/// generations; the endgame66 parameters; a first population drawn from -4000..4000 (so the
/// weights can learn their scale) refined by Gaussian steps (4 genes, sigma 800, 90% of
/// children); the original's truncation selection; a 32-game duel for the best so far; the best
/// so far measured against material over the whole ballot every 50 generations.
fn new_settings(o: &SessionOptions, seed: u64, population: usize) -> Settings {
    let stop = match (o.generations, o.time) {
        (_, Some(t)) => Stop::Seconds(t),
        (Some(g), None) => Stop::Generations(g),
        (None, None) => Stop::Generations(DEFAULT_GENERATIONS),
    };
    let d = DrawRules::default();
    let mut s = Settings {
        population,
        games: o.games.unwrap_or(0),
        search: SearchConfig {
            depth: o.depth.unwrap_or(2),
            capture_extension: true,
            tt_log2: 14,
        },
        factor: o.factor.unwrap_or(8),
        mutation: o.mutation.unwrap_or(0.9),
        stop,
        seed,
        openings: o.openings.unwrap_or(OpeningBook::Ballot),
        elite: o.elite.unwrap_or(population / 4),
        newcomers: o.newcomers.unwrap_or(population / 4),
        rules: DrawRules {
            max_plies: o.max_plies.unwrap_or(DrawRules::default().max_plies),
            quiet_plies: o.quiet_plies.unwrap_or(d.quiet_plies),
            ..d
        },
        ga: GaOptions {
            params: ParamSet::Endgame66,
            selection: Selection::Truncation,
            mutation: Mutation::Gauss {
                sigma: 800,
                genes: 4,
            },
            init_range: 4000,
            hall_of_fame: 0,
            deepen_at: 0,
            deepen_to: 0,
            endgame_pairs: 0,
            duel_games: 32,
            measure_every: 50,
            measure_games: 312,
            yardstick: Yardstick::Material,
        },
    };
    override_ga(&mut s.ga, o);
    s
}

/// `G:D` of `--deepen`.
fn parse_deepen(s: &str) -> Result<(u64, u32), String> {
    let bad = || format!("'{s}' is not G:D (a generation and a depth, e.g. 1500:3)");
    let (g, d) = s.split_once(':').ok_or_else(bad)?;
    Ok((g.parse().map_err(|_| bad())?, d.parse().map_err(|_| bad())?))
}

/// The GA options given on the command line, over `g`.
fn override_ga(g: &mut GaOptions, o: &SessionOptions) {
    if let Some(x) = o.params {
        g.params = x;
    }
    if let Some(x) = o.selection {
        g.selection = x;
    }
    if let Some(x) = o.mutation_kind {
        g.mutation = x;
    }
    if let Some(x) = o.init_range {
        g.init_range = x;
    }
    if let Some(x) = o.hall_of_fame {
        g.hall_of_fame = x;
    }
    if let Some((at, to)) = o.deepen {
        g.deepen_at = at;
        g.deepen_to = to;
    }
    if let Some(x) = o.endgame_pairs {
        g.endgame_pairs = x;
    }
    if let Some(x) = o.duel_games {
        g.duel_games = x;
    }
    if let Some(x) = o.measure_every {
        g.measure_every = x;
    }
    if let Some(x) = o.measure_games {
        g.measure_games = x;
    }
    if let Some(x) = o.yardstick {
        g.yardstick = x;
    }
}

/// Applies the options given on `resume` over the checkpoint's settings.
fn override_settings(s: &mut Settings, o: &SessionOptions) {
    if let Some(p) = o.population {
        s.population = p;
    }
    if let Some(g) = o.games {
        s.games = g;
    }
    if let Some(d) = o.depth {
        s.search.depth = d;
    }
    if let Some(f) = o.factor {
        s.factor = f;
    }
    if let Some(m) = o.mutation {
        s.mutation = m;
    }
    if let Some(g) = o.generations {
        s.stop = Stop::Generations(g);
    }
    if let Some(t) = o.time {
        s.stop = Stop::Seconds(t);
    }
    if let Some(b) = o.openings {
        s.openings = b;
    }
    if let Some(e) = o.elite {
        s.elite = e;
    }
    if let Some(n) = o.newcomers {
        s.newcomers = n;
    }
    if let Some(m) = o.max_plies {
        s.rules.max_plies = m;
    }
    if let Some(q) = o.quiet_plies {
        s.rules.quiet_plies = q;
    }
    override_ga(&mut s.ga, o);
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

pub fn run_new(a: NewArgs) -> anyhow::Result<()> {
    catch_ctrl_c()?;
    // Bad input is refused before any folder is touched.
    let pool = pool(a.run.threads)?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let from = match &a.from {
        Some(p) => Some(load_original_population(p)?),
        None => None,
    };
    let population = match (&from, a.session.population) {
        (Some(pop), Some(p)) if p != pop.len() => {
            bail!(
                "--population {p} differs from the {} individuals of --from",
                pop.len()
            )
        }
        (Some(pop), _) => pop.len(),
        (None, p) => p.unwrap_or(32),
    };
    let mut settings = new_settings(&a.session, seed, population);
    if from.is_some() && a.session.params.is_none() {
        // The original tool's population continues in its own 60 parameters unless told.
        settings.ga.params = ParamSet::Thesis60;
    }
    settings.validate().map_err(anyhow::Error::msg)?;
    let name = a.name.clone().unwrap_or_else(default_name);
    if !store::is_plain_name(&name) {
        bail!("session name '{name}' must be a plain folder name");
    }
    let mut session = match from {
        Some(pop) => {
            // Into a larger set (--params): the new weights start at 0.
            let set = settings.ga.params;
            let pop = pop
                .iter()
                .map(|w| w.widen(set).expect("60 weights widen into every set"))
                .collect();
            Session::with_population(&name, settings, pop)
        }
        None => Session::new(&name, settings),
    };
    if a.include.len() > session.population.len() {
        bail!(
            "{} --include files do not fit a population of {}",
            a.include.len(),
            session.population.len()
        );
    }
    let set = session.settings.ga.params;
    for (slot, spec) in a.include.iter().enumerate() {
        let arg =
            weights_arg(spec, seed, slot as u64).with_context(|| format!("--include '{spec}'"))?;
        let w = checkers_ga::report::select(&arg.input, None)?.weights;
        session.population[slot] = w.widen(set).ok_or_else(|| {
            anyhow::anyhow!(
                "--include '{spec}' holds {} weights; this session evolves {} (--params)",
                w.set(),
                set
            )
        })?;
    }
    // The input holds; now the folders.
    let dir = store::session_dir(&a.run.populations, &name);
    check_weights_folder(&a.run, &name)?;
    let has_checkpoints = |dir: &Path| -> anyhow::Result<()> {
        if !store::list_checkpoints(dir).is_empty() {
            bail!(
                "session '{name}' already has checkpoints in '{}': resume it with `checkers-ga resume {}` or pick another --name",
                dir.display(),
                dir.display()
            );
        }
        Ok(())
    };
    // The lock is held until the session ends: no other `new` or `resume` writes into this
    // folder meanwhile, and temp files are removed only while no one else can be writing them.
    // A folder that exists is locked before it is looked at, so a running session is reported
    // as such.
    let take = |dir: &Path| -> anyhow::Result<checkers_ga::lock::SessionLock> {
        let lock = lock_session(dir).map_err(anyhow::Error::msg)?;
        store::remove_stale_temp_files(dir);
        has_checkpoints(dir)?;
        Ok(lock)
    };
    let mut lock = if dir.is_dir() {
        Some(take(&dir)?)
    } else {
        None
    };
    // Checked before a new folder is made, so a refusal leaves nothing behind.
    let best_seen = check_best_lineage(&a.run, &name, seed, last_generation(&session), &dir)?;
    if lock.is_none() {
        ensure_folder(&dir, "session")?;
        lock = Some(take(&dir)?);
    }
    let _lock = lock;
    if a.run.quiet && a.seed.is_none() {
        // A drawn seed is always shown: it is the only way to repeat the session.
        eprintln!("new session '{name}': seed {seed}");
    }
    if !a.run.quiet {
        println!(
            "new session '{name}': seed {seed}, population {}, depth {}, {}",
            session.settings.population,
            session.settings.search.depth,
            describe_stop(&session.settings.stop)
        );
    }
    evolve(session, &dir, &a.run, &pool, &best_seen)
}

/// The folder of a checkpoint file (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub fn run_resume(a: ResumeArgs) -> anyhow::Result<()> {
    catch_ctrl_c()?;
    let pool = pool(a.run.threads)?;
    let root = &a.run.populations;
    let found = store::locate(a.file.as_deref(), root).map_err(anyhow::Error::msg)?;
    let dir = folder_of(&found.path);
    check_weights_folder(&a.run, &found.session.name)?;
    // Held until the session ends. Temp-file cleanup and the set-aside of newer checkpoints
    // below happen only under it, so they never touch the files of a running session.
    let _lock = lock_session(&dir).map_err(anyhow::Error::msg)?;
    // Look again now that no one else writes here: a session that held the folder until just
    // now may have written newer checkpoints. A checkpoint named on the command line is read
    // again (it may have been set aside meanwhile).
    let named_file = a.file.as_deref().is_some_and(|f| Path::new(f).is_file());
    let found = match dir.to_str() {
        Some(d) if !named_file => store::locate(Some(d), root).map_err(anyhow::Error::msg)?,
        _ => store::Located {
            session: store::load_checkpoint(&found.path)?,
            path: found.path,
            skipped: found.skipped,
        },
    };
    for e in &found.skipped {
        eprintln!("warning: skipping {e}");
    }
    let (path, mut session) = (found.path, found.session);
    store::remove_stale_temp_files(&dir);
    let before = session.settings.clone();
    override_settings(&mut session.settings, &a.session);
    let n = session.settings.population;
    if n != before.population {
        // Elite and newcomers that were the default quarter follow the new size, unless given.
        if a.session.elite.is_none() && before.elite == before.population / 4 {
            session.settings.elite = n / 4;
        }
        if a.session.newcomers.is_none() && before.newcomers == before.population / 4 {
            session.settings.newcomers = n / 4;
        }
    }
    session.settings.validate().map_err(anyhow::Error::msg)?;
    if session.settings.ga.params != before.ga.params {
        widen_session(&mut session, before.ga.params)?;
    }
    if n != before.population {
        resize_population(&mut session, &before);
    }
    let best_seen = check_best_lineage(
        &a.run,
        &session.name,
        session.settings.seed,
        last_generation(&session),
        &dir,
    )?;
    // The settings hold, so the run goes ahead. Continuing from an older checkpoint starts a new
    // branch: the newer checkpoints of the old one are set aside so that neither pruning nor a
    // later `resume` mixes the two.
    let moved = store::set_aside_newer(&dir, session.generation)
        .with_context(|| format!("cannot set aside newer checkpoints in '{}'", dir.display()))?;
    if !moved.is_empty() && !a.run.quiet {
        println!(
            "set aside {} newer checkpoint(s) of the earlier run as *.ckpt.superseded-N",
            moved.len()
        );
    }
    if !a.run.quiet {
        println!(
            "resuming '{}' from {} (generation {}, {})",
            session.name,
            path.display(),
            session.generation,
            describe_stop(&session.settings.stop)
        );
        for change in setting_changes(&before, &session.settings) {
            println!("new setting: {change}");
        }
    }
    if session.finished() {
        println!(
            "session '{}' already reached its limit ({}); give a larger --generations or --time",
            session.name,
            describe_stop(&session.settings.stop)
        );
        return finish(&session, &a.run, &dir, &best_seen);
    }
    evolve(session, &dir, &a.run, &pool, &best_seen)
}

/// `resume --params` with a larger set: every weight vector of the session carries over (the
/// new parameters start at 0; into the phased set, opening and endgame weights start equal).
fn widen_session(s: &mut Session, from: ParamSet) -> anyhow::Result<()> {
    let to = s.settings.ga.params;
    let widen = |w: &checkers_ga::Weights| {
        w.widen(to).ok_or_else(|| {
            anyhow::anyhow!(
                "cannot continue a {from} session as {to}: only thesis60 -> endgame66 -> phased132, \
                 thesis60 or endgame66 -> net66, net66:H -> net66 with more units"
            )
        })
    };
    s.population = s.population.iter().map(widen).collect::<Result<_, _>>()?;
    s.hall = s.hall.iter().map(widen).collect::<Result<_, _>>()?;
    s.best_so_far = s.best_so_far.as_ref().map(widen).transpose()?;
    for (w, _) in s.last.iter_mut() {
        *w = widen(w)?;
    }
    Ok(())
}

/// A new population size on resume. The next population is stored as children, elite (the
/// best so far first), newcomers: a smaller one keeps the elite first, then children, then
/// newcomers; a larger one is filled with random newcomers drawn from the session's generator
/// for this generation.
fn resize_population(s: &mut Session, before: &Settings) {
    let n = s.settings.population;
    let children = before.population - before.elite - before.newcomers;
    let old = std::mem::take(&mut s.population);
    let (kids, rest) = old.split_at(children.min(old.len()));
    let (elite, newcomers) = rest.split_at(before.elite.min(rest.len()));
    s.population = elite
        .iter()
        .chain(kids)
        .chain(newcomers)
        .copied()
        .take(n)
        .collect();
    let mut rng = checkers_ga::rng::derive(
        s.settings.seed,
        checkers_ga::rng::Purpose::Initial,
        s.generation + 1,
        n as u64,
    );
    while s.population.len() < n {
        s.population.push(checkers_ga::ga::random_weights(
            s.settings.ga.params,
            s.settings.ga.init_range,
            &mut rng,
        ));
    }
}

/// The settings `resume` changed, one `name old -> new` each, in the order of `--help`.
fn setting_changes(before: &Settings, after: &Settings) -> Vec<String> {
    fn deepen(g: &GaOptions) -> String {
        match g.deepen_at {
            0 => "never".to_string(),
            at => format!("{at}:{}", g.deepen_to),
        }
    }
    fn openings(o: OpeningBook) -> &'static str {
        match o {
            OpeningBook::Ballot => "ballot",
            OpeningBook::Start => "start",
        }
    }
    type Show = fn(&Settings) -> String;
    let fields: [(&str, Show); 23] = [
        ("population", |s| s.population.to_string()),
        ("games", |s| s.games.to_string()),
        ("depth", |s| s.search.depth.to_string()),
        ("factor", |s| s.factor.to_string()),
        ("mutation", |s| s.mutation.to_string()),
        ("stop", |s| describe_stop(&s.stop)[5..].to_string()),
        ("openings", |s| openings(s.openings).into()),
        ("elite", |s| s.elite.to_string()),
        ("newcomers", |s| s.newcomers.to_string()),
        ("max-plies", |s| s.rules.max_plies.to_string()),
        ("quiet-plies", |s| s.rules.quiet_plies.to_string()),
        ("params", |s| s.ga.params.to_string()),
        ("selection", |s| s.ga.selection.to_string()),
        ("mutation-kind", |s| s.ga.mutation.to_string()),
        ("init-range", |s| s.ga.init_range.to_string()),
        ("hall-of-fame", |s| s.ga.hall_of_fame.to_string()),
        ("deepen", |s| deepen(&s.ga)),
        ("endgame-pairs", |s| s.ga.endgame_pairs.to_string()),
        ("duel-games", |s| s.ga.duel_games.to_string()),
        ("measure-every", |s| s.ga.measure_every.to_string()),
        ("measure-games", |s| s.ga.measure_games.to_string()),
        ("yardstick", |s| s.ga.yardstick.to_string()),
        ("seed", |s| s.seed.to_string()),
    ];
    fields
        .into_iter()
        .map(|(name, show)| (name, show(before), show(after)))
        .filter(|(_, old, new)| old != new)
        .map(|(name, old, new)| format!("{name} {old} -> {new}"))
        .collect()
}

fn describe_stop(s: &Stop) -> String {
    match s {
        Stop::Generations(g) => format!("stop after generation {g}"),
        Stop::Seconds(t) => format!("stop after {t} s"),
    }
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
        Some(m) => format!(
            "  vs {}: {}",
            s.settings.ga.yardstick,
            checkers_ga::report::elo_text(&m)
        ),
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

/// Ctrl-C presses seen since [`catch_ctrl_c`]: the first asks the session to stop at the next
/// game boundary, the second exits at once.
static CTRL_C: AtomicU32 = AtomicU32::new(0);

/// Has Ctrl-C been pressed?
fn ctrl_c_pressed() -> bool {
    CTRL_C.load(Ordering::SeqCst) > 0
}

/// Installs the Ctrl-C (SIGINT) handler of `new` and `resume`. The `ctrlc` crate runs it on a
/// thread of its own, so it may print and exit. The first press only sets a flag that the
/// games check; the second exits with 130 at once, which loses nothing: every checkpoint and
/// weight file is written to a temporary name and renamed, so each is complete or absent.
fn catch_ctrl_c() -> anyhow::Result<()> {
    ctrlc::set_handler(|| {
        if CTRL_C.fetch_add(1, Ordering::SeqCst) == 0 {
            eprintln!(
                "\nCtrl-C: stopping at the next game boundary to save the session (Ctrl-C again \
                 exits at once; the checkpoints written so far stay)"
            );
        } else {
            eprintln!("\nCtrl-C again: exiting now");
            std::process::exit(130);
        }
    })
    .context("cannot install the Ctrl-C handler")
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
    let mut c = if dir == store::session_dir(&run.populations, name) {
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

/// Why a run stopped before its limit.
#[derive(Clone, Copy, PartialEq)]
enum Cut {
    CtrlC,
    Time,
}

fn evolve(
    mut session: Session,
    dir: &Path,
    run: &RunOptions,
    p: &rayon::ThreadPool,
    best_seen: &Option<BestFile>,
) -> anyhow::Result<()> {
    let progress = show_progress(run.quiet);
    let resume = resume_command(dir, &session.name, run);
    if !run.quiet {
        println!(
            "checkpoints in {}/ (Ctrl-C stops at the next game boundary and saves; continue with \
             `{resume}`)",
            dir.display()
        );
    }
    let keep = keep_policy(dir, run)?;
    let mut files = store::Checkpoints::open(dir, &session, keep)?;
    let mut out = std::io::stdout();
    let mut cut = None;
    let start = store::checkpoint_path(dir, session.generation);
    if start.exists() {
        set_stop_note(&session, &start, &resume);
    } else {
        checkers_ga::cluster::set_stop_note(format!(
            "no generation of session '{}' was finished, nothing was saved",
            session.name
        ));
    }
    while !session.finished() {
        if ctrl_c_pressed() {
            cut = Some(Cut::CtrlC);
            break;
        }
        // A time limit holds within a generation too: past it no game starts, and the
        // generation under way is abandoned (its time is not counted, as it is not saved).
        let deadline = match session.settings.stop {
            Stop::Seconds(t) => Duration::try_from_secs_f64((t - session.elapsed).max(0.0))
                .ok()
                .and_then(|d| Instant::now().checked_add(d)),
            Stop::Generations(_) => None,
        };
        let stop = || ctrl_c_pressed() || deadline.is_some_and(|d| Instant::now() >= d);
        let bar = if progress {
            let b = ProgressBar::new(session.games_per_generation() as u64);
            b.set_style(progress_style(
                "gen {prefix} {bar:30} {pos}/{len} games {rate} eta {eta}  {msg}",
            ));
            b.set_prefix((session.generation + 1).to_string());
            // Shown while the generation runs, so it is on screen when the user presses Ctrl-C.
            let elo = match session.last_measure() {
                Some((g, m)) => format!(
                    "best vs {} (gen {g}): {}  ",
                    session.settings.ga.yardstick,
                    checkers_ga::report::elo_text(&m)
                ),
                None => String::new(),
            };
            b.set_message(format!("{elo}Ctrl-C stops and saves; then `{resume}`"));
            b
        } else {
            ProgressBar::hidden()
        };
        let stats = p.install(|| session.run_generation_until(&|_| bar.inc(1), &stop));
        bar.finish_and_clear();
        let Some(stats) = stats else {
            cut = Some(if ctrl_c_pressed() {
                Cut::CtrlC
            } else {
                Cut::Time
            });
            break;
        };
        let path = files.save(&session)?;
        set_stop_note(&session, &path, &resume);
        if !run.quiet {
            writeln!(out, "{}", summary_line(&stats, &session))?;
            writeln!(out, "checkpoint {}", path.display())?;
        }
    }
    let Some(cut) = cut else {
        return finish(&session, run, dir, best_seen);
    };
    // Stopped early. Every finished generation has its checkpoint already; a session stopped
    // before its first one gets the checkpoint of generation 0 (its first population), so that
    // it can be resumed.
    let g = session.generation;
    let ckpt = store::checkpoint_path(dir, g);
    if !ckpt.exists() {
        files.save(&session)?;
    }
    finish(&session, run, dir, best_seen)?;
    let why = match cut {
        Cut::CtrlC => "stopped by Ctrl-C".to_string(),
        Cut::Time => format!(
            "time limit reached ({})",
            describe_stop(&session.settings.stop)
        ),
    };
    writeln!(
        out,
        "{why}: generation {} was abandoned and not saved; the session stands at generation {g} \
         ({})",
        g + 1,
        ckpt.display()
    )?;
    match cut {
        Cut::CtrlC => {
            writeln!(out, "continue with: {resume}")?;
            out.flush()?;
            Err(Interrupted.into())
        }
        Cut::Time => {
            writeln!(out, "continue with: {resume} --time MORE_SECONDS")?;
            Ok(())
        }
    }
}

/// The best-weights file of session `name`: WEIGHTS_DIR/NAME-best.json.
fn best_path(run: &RunOptions, name: &str) -> PathBuf {
    run.weights_dir.join(format!("{name}-best.json"))
}

/// Checks before any work that the best-weights file of session `name` can be written: the
/// weights folder exists (or is made) and takes a new file, and the file is not a folder.
fn check_weights_folder(run: &RunOptions, name: &str) -> anyhow::Result<()> {
    let dir = &run.weights_dir;
    ensure_folder(dir, "weights")?;
    let path = best_path(run, name);
    if path.is_dir() {
        bail!("the best-weights file '{}' is a folder", path.display());
    }
    // The name write_atomic would give its temporary file: made and removed at once.
    let probe = dir.join(format!(".{name}-best.json.{}.tmp", std::process::id()));
    std::fs::File::create(&probe)
        .with_context(|| format!("cannot write into the weights folder '{}'", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// What a best-weights file held when a run checked it: nothing (no file), or a file of the
/// run's own lineage. `None` of [`check_best_lineage`]: not checked (`--force`).
#[derive(Clone, Debug, PartialEq)]
enum BestFile {
    Absent,
    Origin(Origin),
    /// A file that names no session or cannot be read.
    Unknown,
}

impl BestFile {
    fn read(path: &Path) -> BestFile {
        if !path.exists() {
            return BestFile::Absent;
        }
        match checkers_ga::weights::load_weight_file(path).map(|f| f.origin) {
            Ok(Some(o)) => BestFile::Origin(o),
            _ => BestFile::Unknown,
        }
    }
}

/// The last generation a run can write: the limit of `--generations` (at least the start), or
/// the start itself for a time limit (how far it gets is not known in advance).
fn last_generation(s: &Session) -> u64 {
    match s.settings.stop {
        Stop::Generations(n) => n.max(s.generation),
        Stop::Seconds(_) => s.generation,
    }
}

/// Refuses, unless --force, to let this run replace a best-weights file of another lineage. The
/// file is this run's lineage when it names the same session and seed and a generation no
/// later than `until`, the last this run can write (a later one belongs to a branch that
/// resuming an older checkpoint abandons). A file that names no session or cannot be read, and
/// a session folder whose name is not the session's (a copy of another session's folder), are
/// refused too: the file may be another session's. Returns what the file held, for
/// [`finish`] to check that no one else has written it meanwhile.
fn check_best_lineage(
    run: &RunOptions,
    name: &str,
    seed: u64,
    until: u64,
    dir: &Path,
) -> anyhow::Result<Option<BestFile>> {
    if run.force {
        return Ok(None);
    }
    let path = best_path(run, name);
    let seen = BestFile::read(&path);
    let folder = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    let why = match &seen {
        BestFile::Absent => return Ok(Some(seen)),
        BestFile::Unknown => {
            "it does not say which session it comes from (or cannot be read)".to_string()
        }
        BestFile::Origin(o) if o.session != name => {
            format!("it holds the best of session '{}'", o.session)
        }
        BestFile::Origin(o) if o.seed != seed => format!(
            "it holds the best of another session named '{name}' (seed {}; this one's is {seed})",
            o.seed
        ),
        BestFile::Origin(o) if o.generation > until => format!(
            "it holds generation {} of session '{name}', later than this run can reach \
             ({until}): another branch",
            o.generation
        ),
        BestFile::Origin(_) => match folder {
            Some(f) if f != name => format!(
                "this session folder '{}' is not named after its session '{name}' (a copy?), \
                 and the file may be the original's",
                dir.display()
            ),
            _ => return Ok(Some(seen)),
        },
    };
    bail!(
        "will not overwrite the best-weights file '{}': {why}; move it away or give --force",
        path.display()
    )
}

/// Writes the best so far to WEIGHTS_DIR/NAME-best.json, naming the session, seed and
/// generation, and prints its path. `dir` is the session folder; `seen` what the file held when
/// the run started (None: --force), which it must still hold.
fn finish(
    session: &Session,
    run: &RunOptions,
    dir: &Path,
    seen: &Option<BestFile>,
) -> anyhow::Result<()> {
    let Some(best) = session.best_so_far else {
        return Ok(());
    };
    std::fs::create_dir_all(&run.weights_dir)
        .with_context(|| format!("cannot create '{}'", run.weights_dir.display()))?;
    let (name, seed, g) = (&session.name, session.settings.seed, session.generation);
    let path = best_path(run, name);
    if let Some(seen) = seen {
        if BestFile::read(&path) != *seen {
            bail!(
                "best weights not written: '{}' was changed by another process while this run \
                 went on; they are in the checkpoint '{}'",
                path.display(),
                store::checkpoint_path(dir, g).display()
            );
        }
    }
    store::remove_stale_temp_files_of(&run.weights_dir, &format!("{name}-best.json"));
    let origin = Origin {
        session: name.clone(),
        seed,
        generation: g,
    };
    checkers_ga::weights::save_best_weights(&path, &best, &origin)?;
    println!("best weights: {}", path.display());
    Ok(())
}

/// The session's keep policy: `--keep` and `--keep-every` where given, else what the session
/// folder's `keep` file says (written by the run that last set them), else the default. A run
/// that sets either writes the file, so a `resume` keeps what `new --keep 0` asked for.
fn keep_policy(dir: &Path, run: &RunOptions) -> anyhow::Result<store::Keep> {
    let file = dir.join(store::KEEP_FILE);
    let given = run.keep.is_some() || run.keep_every.is_some();
    let saved = if run.keep.is_some() && run.keep_every.is_some() {
        store::Keep::DEFAULT // both given: the file is not needed
    } else {
        match std::fs::read_to_string(&file) {
            Ok(text) => store::Keep::parse(&text).ok_or_else(|| {
                anyhow::anyhow!(
                    "'{}': not a keep policy (expected 'NEWEST EVERY'); remove it or give --keep",
                    file.display()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => store::Keep::DEFAULT,
            Err(e) => anyhow::bail!("cannot read '{}': {e}", file.display()),
        }
    };
    let keep = store::Keep {
        newest: run.keep.unwrap_or(saved.newest),
        every: run.keep_every.unwrap_or(saved.every),
    };
    if given {
        store::write_atomic(&file, keep.to_text().as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write '{}': {e}", file.display()))?;
    }
    Ok(keep)
}
