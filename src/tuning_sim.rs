//! The tuning simulator's runs (`checkers-ga tune-sim`): a tuner run on the synthetic engine
//! `sim:N` ([`SimModel`]) through its normal code, scored by its regret, the Elo its answer
//! plays below the model's optimum.
//!
//! - The GA: a session with exactly the settings `checkers-ga new --engine sim:N
//!   --games-budget G --seed S` gives it ([`NewSession::settings_with`]: the defaults of an
//!   outside engine's session, the budget turned into generations by
//!   [`crate::Settings::generations_for_games`]), played generation by generation as a
//!   session run plays it, without its folder (no checkpoint, no best-weights file); its
//!   answer is [`GaState::answer`], what `export` gives for a session.
//! - A one-file tuner (SPSA, ...): its registered start with the settings of `checkers-ga NAME
//!   --engine sim:N --games G --seed S`, played step by step; its answer (SPSA's final θ
//!   rounded), and what else it names.
//!
//! Runs are spread over worker threads, each playing its runs one at a time on a pool of one
//! thread: every run is the same at any thread count. The figures of many seeds are summed up
//! by [`Interval`]: their mean and its 95% interval (Student's t). Every setting of the runs is
//! checked before any is played ([`check_sims`]). A session of `sim:N` is scored the same way
//! at its end ([`answer_regret`]).

use crate::eval::Weights;
use crate::ga::{GaState, DEFAULT_DEPTH};
use crate::genome::EngineSpec;
use crate::jobs::PoolError;
use crate::session::{NewSession, Overrides, SessionError};
use crate::sim::SimModel;
use crate::store::{one_file_tuner, OneFileKind, Start, TunerKind};
use crate::tuner::{play_step, Tuner};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A tuner's name that is not `ga` nor a registered tuner's that starts on its own.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tuner '{0}' (expected {names})", names = crate::text::one_of(&sim_tuner_names()))]
pub struct UnknownTuner(pub String);

/// The names [`TunerKind`] reads, in order: `ga`, then every registered tuner that starts on
/// its own.
pub fn sim_tuner_names() -> Vec<&'static str> {
    let tuners = crate::store::one_file_tuners().into_iter();
    let others = tuners.filter(|k| k.start.is_some());
    let others = others.map(|k| k.name);
    std::iter::once("ga").chain(others).collect()
}

/// A tuner the simulator runs, by its command name: `ga` (the GA of `new --engine`) or a
/// registered one-file tuner that starts on its own (at its defaults but for
/// [`SimSetup::options`]).
impl std::str::FromStr for TunerKind {
    type Err = UnknownTuner;
    fn from_str(s: &str) -> Result<TunerKind, UnknownTuner> {
        match s {
            "ga" => Ok(TunerKind::Ga),
            _ => match one_file_tuner(s) {
                Some(k) if k.start.is_some() => Ok(TunerKind::OneFile(k)),
                _ => Err(UnknownTuner(s.to_string())),
            },
        }
    }
}

/// Why the simulator's runs cannot be played: one variant per kind of failure, each one line.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A run's budget is below 2 games or above [`crate::MAX_TUNER_GAMES`].
    #[error("{0} games: a run's budget is 2..{max}", max = crate::tuner::MAX_TUNER_GAMES)]
    Games(u64),
    /// A run's model has no parameter or more than the simulator makes.
    #[error("{0} parameters: the simulator has 1..{max}", max = crate::sim::MAX_SIM_PARAMS)]
    Params(usize),
    /// A registered tuner's settings in [`SimSetup::options`] are bad, whether or not it runs:
    /// the tuner, and what is wrong in one line.
    #[error("{}: {}", .tuner.label, .why)]
    Setting {
        /// The tuner.
        tuner: &'static OneFileKind,
        /// What is wrong.
        why: String,
    },
    /// The GA's settings make no session.
    #[error("{0}")]
    Ga(SessionError),
    /// A one-file tuner's settings are bad for a run (its budget): what is wrong, in one line.
    #[error("{0}")]
    OneFile(String),
    /// A worker's thread pool could not be started.
    #[error("{0}")]
    Pool(PoolError),
    /// A run was not played (a worker ended before it).
    #[error("a run of the simulator was not played")]
    NotPlayed,
}

/// Why the chart of tuner comparisons cannot be drawn ([`tuner_chart`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TunerChartError {
    /// A line that starts with `elo` is not of the form (its number, from 1).
    #[error("line {0}: not `elo TUNER PROBLEM GAMES SEED DEPTH ELO MARGIN`")]
    BadLine(usize),
    /// No line is of the form.
    #[error("no `elo TUNER PROBLEM GAMES SEED DEPTH ELO MARGIN` line")]
    NoLine,
}

/// One run: a tuner over `sim:PARAMS` for a budget of games, with its own seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimRun {
    /// The tuner.
    pub tuner: TunerKind,
    /// The parameters of the model (`sim:PARAMS`).
    pub params: usize,
    /// The budget in games (the GA's `--games-budget`, SPSA's `--games`).
    pub games: u64,
    /// The tuner's seed (the session's `--seed`, SPSA's `--seed`).
    pub seed: u64,
}

/// What every run shares: the model's seed and the tuners' settings.
#[derive(Clone, Debug)]
pub struct SimSetup {
    /// The model's seed (`sim:N:SEED`): the landscape every run of `N` parameters meets.
    pub model_seed: u64,
    /// The GA's settings over the defaults of `new --engine` (its budget, generations and time
    /// are the run's: those given here are ignored).
    pub ga: Overrides,
    /// The other one-file tuners' own settings, by tuner and setting (`("cmaes", "rate",
    /// "0.5")`); a setting not given is at its default. Their games and seed are the run's.
    pub options: Vec<(&'static str, &'static str, String)>,
}

impl Default for SimSetup {
    /// Model seed 1, every tuner as its command's defaults.
    fn default() -> SimSetup {
        SimSetup {
            model_seed: crate::sim::DEFAULT_MODEL_SEED,
            ga: Overrides::default(),
            options: Vec::new(),
        }
    }
}

/// What a run gave.
#[derive(Clone, Debug, PartialEq)]
pub struct SimResult {
    /// Elo of the model's optimum over the tuner's answer.
    pub regret: f64,
    /// Games the run played (the GA's budget buys whole generations).
    pub games_played: u64,
    /// The GA's generations (0 for SPSA).
    pub generations: u64,
    /// Other regrets, for a look at why a tuner does what it does: `defaults` (the declared
    /// values, where every run starts), and for the GA `pop-mean` (the mean of the last
    /// population played), `pop-best` (its best by the model, which no tuner can see),
    /// `elite-mean` (the mean of its best quarter by tournament points) and `winner` (the last
    /// tournament's winner).
    pub details: Vec<(&'static str, f64)>,
}

/// The engine form of `sim:params:model_seed` as a session's `--depth` gives it.
fn sim_engine(params: usize, setup: &SimSetup) -> (SimModel, EngineSpec) {
    let model = SimModel::new(params, setup.model_seed);
    let depth = setup.ga.depth.unwrap_or(DEFAULT_DEPTH);
    let spec = EngineSpec::simulated(&model, depth);
    (model, spec)
}

/// The new session of a GA run: `new --engine sim:N --games-budget G --seed S` with the
/// setup's settings.
fn ga_session(run: &SimRun, spec: &EngineSpec, setup: &SimSetup) -> Result<GaState, SimError> {
    let settings = Overrides {
        games_budget: Some(run.games),
        generations: None,
        time: None,
        ..setup.ga.clone()
    };
    let new = NewSession {
        name: Some("tune-sim".into()),
        seed: Some(run.seed),
        settings,
        engine: Some(spec.clone()),
        ..NewSession::default()
    };
    let settings = new.settings_with(run.seed).map_err(SimError::Ga)?;
    Ok(GaState::new("tune-sim", settings))
}

/// The mean of some genomes' values, rounded.
fn mean_values(spec: &EngineSpec, genomes: &[Weights]) -> Vec<i64> {
    let n = genomes.len().max(1) as f64;
    let mut sum = vec![0.0; spec.tuned.len()];
    for w in genomes {
        for (s, v) in sum.iter_mut().zip(spec.values(w)) {
            *s += v as f64;
        }
    }
    sum.iter().map(|s| (s / n).round() as i64).collect()
}

/// The start of `run` of one-file tuner `k`: its games and seed, its settings as `setup` says.
fn start(k: &OneFileKind, run: &SimRun, setup: &SimSetup) -> Start {
    let mine = setup.options.iter().filter(|(t, _, _)| *t == k.name);
    let given = mine.map(|(_, o, v)| (*o, v.as_str()));
    Start::given(k, run.seed, run.games, given)
}

/// Checks `runs` and `setup` before any run is played, the first failure in this order: a
/// budget out of 2..=[`crate::MAX_TUNER_GAMES`] ([`SimError::Games`]), a parameter count the
/// simulator does not make ([`SimError::Params`]), the settings `setup` gives any registered
/// tuner that starts on its own, whether or not it runs ([`SimError::Setting`]), then the
/// settings of every kind of run among `runs` ([`SimError::Ga`], [`SimError::OneFile`]).
pub fn check_sims(runs: &[SimRun], setup: &SimSetup) -> Result<(), SimError> {
    let games = crate::tuner::MAX_TUNER_GAMES;
    if let Some(run) = runs.iter().find(|r| !(2..=games).contains(&r.games)) {
        return Err(SimError::Games(run.games));
    }
    let params = crate::sim::MAX_SIM_PARAMS;
    if let Some(run) = runs.iter().find(|r| !(1..=params).contains(&r.params)) {
        return Err(SimError::Params(run.params));
    }
    let tuners = crate::store::one_file_tuners().into_iter();
    for k in tuners.filter(|k| k.start.is_some()) {
        let run = SimRun {
            tuner: TunerKind::OneFile(k),
            params: 1,
            games: crate::tuner::TUNER_GAMES,
            seed: 1,
        };
        (k.check)(&start(k, &run, setup)).map_err(|why| SimError::Setting { tuner: k, why })?;
    }
    for run in runs {
        match run.tuner {
            TunerKind::Ga => {
                let (_, spec) = sim_engine(run.params, setup);
                ga_session(run, &spec, setup)?;
            }
            TunerKind::OneFile(k) => (k.check)(&start(k, run, setup)).map_err(SimError::OneFile)?,
        }
    }
    Ok(())
}

/// Plays one run on the current rayon pool.
pub fn run_sim(run: &SimRun, setup: &SimSetup) -> Result<SimResult, SimError> {
    let (model, spec) = sim_engine(run.params, setup);
    let regret = |values: &[i64]| model.regret(values);
    let defaults = regret(&model.defaults());
    match run.tuner {
        TunerKind::Ga => {
            let mut session = ga_session(run, &spec, setup)?;
            while !session.finished() {
                session.run_generation(&|_| {});
            }
            let answer = session.answer().unwrap_or_else(|| spec.defaults());
            let last: Vec<Weights> = session.last.iter().map(|(w, _)| *w).collect();
            let mut ranked: Vec<&(Weights, crate::tournament::Standing)> =
                session.last.iter().collect();
            ranked.sort_by_key(|(_, st)| std::cmp::Reverse(st.points));
            let elite: Vec<Weights> = ranked
                .iter()
                .take((ranked.len() / 4).max(1))
                .map(|(w, _)| *w)
                .collect();
            let pop_best = last
                .iter()
                .map(|w| regret(&spec.values(w)))
                .fold(f64::INFINITY, f64::min);
            let games = session.games_played();
            Ok(SimResult {
                regret: regret(&spec.values(&answer)),
                games_played: games,
                generations: session.generation,
                details: vec![
                    ("defaults", defaults),
                    ("pop-mean", regret(&mean_values(&spec, &last))),
                    ("pop-best", pop_best),
                    ("elite-mean", regret(&mean_values(&spec, &elite))),
                    (
                        "winner",
                        ranked
                            .first()
                            .map_or(defaults, |(w, _)| regret(&spec.values(w))),
                    ),
                ],
            })
        }
        TunerKind::OneFile(k) => {
            let begin = k.start.ok_or(SimError::NotPlayed)?;
            let mut state = begin(&spec, &start(k, run, setup)).map_err(SimError::OneFile)?;
            while play_step(&mut state, &|_, _| {}, &|| false).is_some() {}
            let also = state.also().into_iter();
            let also = also.map(|(what, w)| (what, regret(&spec.values(&w))));
            let details = std::iter::once(("defaults", defaults)).chain(also);
            Ok(SimResult {
                regret: regret(&spec.values(&state.answer())),
                games_played: state.games(),
                generations: state.steps_done(),
                details: details.collect(),
            })
        }
    }
}

/// On the simulator (`spec` of `sim:N`, [`EngineSpec::sim_model`]), how many Elo genome
/// `answer` plays below the model's optimum, and how many the declared values play (where
/// every run starts): `(answer, declared)`. None for any other engine.
pub fn answer_regret(spec: &EngineSpec, answer: &Weights) -> Option<(f64, f64)> {
    let model = spec.sim_model()?;
    let regret = |w: &Weights| model.regret(&spec.values(w));
    Some((regret(answer), regret(&spec.defaults())))
}

/// Plays `runs` on `threads` worker threads (0 = one per core), each run on a pool of one
/// thread (the largest budgets first); the results in the order of `runs`, the same at any
/// thread count. The settings are checked first ([`check_sims`]).
pub fn run_sims(
    runs: &[SimRun],
    setup: &SimSetup,
    threads: usize,
) -> Result<Vec<SimResult>, SimError> {
    check_sims(runs, setup)?;
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .clamp(1, runs.len().max(1));
    // The longest runs first, so that the last to finish are short ones.
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(runs[i].games));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<SimResult, SimError>>>> =
        runs.iter().map(|_| Mutex::new(None)).collect();
    let failed = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let pool = match crate::jobs::thread_pool(1) {
                    Ok(p) => p,
                    Err(e) => {
                        failed.store(true, Ordering::SeqCst);
                        if let Some(slot) = slots.first() {
                            *slot.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(Err(SimError::Pool(e)));
                        }
                        return;
                    }
                };
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = order.get(k) else {
                        return;
                    };
                    if failed.load(Ordering::SeqCst) {
                        return;
                    }
                    let r = pool.install(|| run_sim(&runs[i], setup));
                    if r.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                }
            });
        }
    });
    let mut out = Vec::with_capacity(runs.len());
    let mut first_error = None;
    for slot in slots {
        match slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Ok(r)) => out.push(r),
            Some(Err(e)) => {
                first_error.get_or_insert(e);
            }
            None => {}
        }
    }
    match first_error {
        Some(e) => Err(e),
        None if out.len() == runs.len() => Ok(out),
        None => Err(SimError::NotPlayed),
    }
}

/// One line of a comparison of tuners: a tuner, a model's parameter count and a budget, run
/// with several seeds (`tune-sim`'s `regret TUNER PARAMS GAMES ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimLine {
    /// The tuner.
    pub tuner: TunerKind,
    /// The parameters of the model.
    pub params: usize,
    /// The budget in games.
    pub games: u64,
}

impl SimLine {
    /// Every line of `tuners` x `params` x `games`, in that order, each once.
    pub fn grid(tuners: &[TunerKind], params: &[usize], games: &[u64]) -> Vec<SimLine> {
        let mut lines = Vec::new();
        for &tuner in tuners {
            for &params in params {
                for &games in games {
                    let line = SimLine {
                        tuner,
                        params,
                        games,
                    };
                    if !lines.contains(&line) {
                        lines.push(line);
                    }
                }
            }
        }
        lines
    }

    /// Its runs, one for each tuner seed of `seeds`.
    pub fn runs(self, seeds: std::ops::Range<u64>) -> impl Iterator<Item = SimRun> {
        seeds.map(move |seed| SimRun {
            tuner: self.tuner,
            params: self.params,
            games: self.games,
            seed,
        })
    }

    /// What its runs' `results` (one for each seed) give, each figure a mean with its
    /// interval: the regret, then the details ([`SimResult::details`], and for the GA its
    /// generations) and the games played, by name.
    pub fn summary(self, results: &[SimResult]) -> (Interval, Vec<(&'static str, Interval)>) {
        let of = |f: &dyn Fn(&SimResult) -> f64| {
            Interval::of(&results.iter().map(f).collect::<Vec<f64>>())
        };
        let mut details: Vec<(&'static str, Interval)> = match results.first() {
            Some(r) => (0..r.details.len())
                .map(|i| (r.details[i].0, of(&|r| r.details[i].1)))
                .collect(),
            None => Vec::new(),
        };
        if self.tuner == TunerKind::Ga {
            details.push(("generations", of(&|r| r.generations as f64)));
        }
        details.push(("games-played", of(&|r| r.games_played as f64)));
        (of(&|r| r.regret), details)
    }
}

/// A mean and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The mean.
    pub mean: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (at least 1): a table to
/// 10, then the Cornish-Fisher expansion (within 0.001 of the exact value from 11 on).
fn t975(df: usize) -> f64 {
    const TABLE: [f64; 10] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    ];
    if let Some(&t) = TABLE.get(df.max(1) - 1) {
        return t;
    }
    let z: f64 = 1.959_963_984_540_054;
    let v = df as f64;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * v.powi(4))
}

impl Interval {
    /// The mean of `xs` and its 95% interval, `mean ± t * sd / sqrt(n)` (Student's t with
    /// `n - 1` degrees of freedom); with fewer than two figures, the mean alone (0 for none).
    pub fn of(xs: &[f64]) -> Interval {
        let n = xs.len();
        let mean = if n == 0 {
            0.0
        } else {
            xs.iter().sum::<f64>() / n as f64
        };
        if n < 2 {
            return Interval {
                mean,
                low: mean,
                high: mean,
            };
        }
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let half = t975(n - 1) * (var / n as f64).sqrt();
        Interval {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }
}

/// The chart of real games' tuner comparisons (`scripts/compare-tuners.sh`'s `elo TUNER
/// PROBLEM GAMES SEED DEPTH ELO MARGIN` lines, other lines ignored): for each tuner and depth,
/// the mean Elo over the seeds against the games played, with its 95% band. One line when no
/// line is of that form or a figure does not read.
pub fn tuner_chart(text: &str, title: &str) -> Result<String, TunerChartError> {
    use crate::chart::{LineChart, Series};
    use std::collections::BTreeMap;
    let mut runs: BTreeMap<(String, u32), BTreeMap<u64, Vec<f64>>> = BTreeMap::new();
    for (k, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.first() != Some(&"elo") {
            continue;
        }
        let bad = || TunerChartError::BadLine(k + 1);
        if f.len() != 8 {
            return Err(bad());
        }
        let games: u64 = f[3].parse().map_err(|_| bad())?;
        let depth: u32 = f[5].parse().map_err(|_| bad())?;
        let elo: f64 = f[6].parse().map_err(|_| bad())?;
        if !elo.is_finite() {
            continue;
        }
        runs.entry((f[1].to_string(), depth))
            .or_default()
            .entry(games)
            .or_default()
            .push(elo);
    }
    if runs.is_empty() {
        return Err(TunerChartError::NoLine);
    }
    let mut chart = LineChart::new(title, 720.0, 400.0);
    chart.standalone = true;
    chart.x_label = "games played".into();
    chart.left.label = "Elo against the declared values".into();
    const COLOURS: [&str; 6] = [
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    ];
    for (i, ((tuner, depth), by_games)) in runs.iter().enumerate() {
        let mut s = Series::line(
            &format!("{tuner}, depth {depth}"),
            &format!("s{i}"),
            COLOURS[i % COLOURS.len()],
            Vec::new(),
        );
        for (&g, elos) in by_games {
            let iv = Interval::of(elos);
            s.points.push((g as f64, iv.mean));
            s.band.push((g as f64, iv.low, iv.high));
        }
        s.dots = 3.0;
        chart.series.push(s);
    }
    Ok(chart.svg())
}

#[cfg(test)]
#[path = "tuning_sim_tests.rs"]
mod tests;
