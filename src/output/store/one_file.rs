//! The contract of a tuner whose session is one checkpoint file, and the list every such tuner
//! is registered in.
//!
//! A one-file tuner (SPSA, CMA-ES, any added later) is one module of its own: its state keeps
//! the tuner contract ([`crate::tuner::Tuner`]) and [`FileTuner`] (its checkpoint's bytes, its
//! budget, its answer's comment, how its history and steps read), and one [`OneFileKind`]
//! registers it in [`ONE_FILE_TUNERS`] from inside that module (`#[distributed_slice]`: the
//! list is gathered when the program is linked, so nothing outside the module names it).
//! Everything else is every tuner's: its command and flags (`checkers-ga NAME`, from
//! [`OneFileKind::options`]), `new --engine --tuner NAME`, its session ([`crate::SessionRun`]
//! of an [`AnyTuner`]), `resume`, `show`, `history`, `report`, `export`, `match` and the
//! tuning simulator.

use super::{CheckpointError, OneFileSession, TunerHistory, TunerKind, TunerSession};
use crate::eval::Weights;
use crate::genome::EngineSpec;
use crate::jobs::{Batch, Played};
use crate::tuner::{StepReport, Tuner};
use linkme::distributed_slice;
use std::path::Path;

/// How a registered tuner's run starts: on an engine, from a [`Start`]; one line when a
/// setting is wrong.
pub type StartFn = fn(&EngineSpec, &Start) -> Result<AnyTuner, String>;

/// Every registered one-file tuner, each by its own module; [`one_file_tuners`] lists them in
/// their order.
#[distributed_slice]
pub static ONE_FILE_TUNERS: [OneFileKind];

/// The registered one-file tuners, in their order ([`OneFileKind::order`]).
pub fn one_file_tuners() -> Vec<&'static OneFileKind> {
    let mut all: Vec<&'static OneFileKind> = ONE_FILE_TUNERS.iter().collect();
    all.sort_by_key(|k| (k.order, k.name));
    all
}

/// The registered one-file tuner of this name (its command: `spsa`, `cmaes`).
pub fn one_file_tuner(name: &str) -> Option<&'static OneFileKind> {
    ONE_FILE_TUNERS.iter().find(|k| k.name == name)
}

/// One of a tuner's own settings, as its command takes it: `--NAME VALUE`, its default when not
/// given. The tuner reads the values ([`Start::get`]) and says what is wrong with one.
#[derive(Debug)]
pub struct TunerOption {
    /// The flag without its dashes: `rate`, `in-flight`.
    pub name: &'static str,
    /// What its value is called in the help: `R`, `GENES`.
    pub value_name: &'static str,
    /// Its help, as `--help` prints it.
    pub help: &'static str,
    /// Its default, as text.
    pub default: fn() -> String,
    /// Also offered by the tuning simulator (`tune-sim --TUNER-NAME`).
    pub sim: bool,
    /// The flag `tune-sim` takes it by instead of `--TUNER-NAME`, if any (without dashes).
    pub sim_flag: Option<&'static str>,
}

/// What a tuner's session is started from: the run's seed and budget, and its own settings as
/// given (each of its [`OneFileKind::options`], by name, as text; its default when not given).
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The seed of every draw of the run.
    pub seed: u64,
    /// The games to play in all.
    pub games: u64,
    /// Its own settings, `(name, value)`.
    pub options: Vec<(&'static str, String)>,
}

impl Start {
    /// A start at every default of `kind`'s settings.
    pub fn defaults(kind: &OneFileKind, seed: u64, games: u64) -> Start {
        Start {
            seed,
            games,
            options: kind
                .options
                .iter()
                .map(|o| (o.name, (o.default)()))
                .collect(),
        }
    }

    /// A start at `kind`'s defaults but for the settings `given` (`(name, value)`).
    pub fn given<'a>(
        kind: &OneFileKind,
        seed: u64,
        games: u64,
        given: impl IntoIterator<Item = (&'static str, &'a str)>,
    ) -> Start {
        let mut start = Start::defaults(kind, seed, games);
        given
            .into_iter()
            .for_each(|(name, value)| start.set(name, value.to_string()));
        start
    }

    /// Setting `name` read as a `T`: `--NAME: 'TEXT' is not ...` when it does not read.
    pub fn get<T: std::str::FromStr>(&self, name: &str) -> Result<T, String> {
        let text = self
            .options
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, v)| v.as_str());
        text.trim()
            .parse()
            .map_err(|_| format!("--{name}: '{text}' is not a valid value"))
    }

    /// Sets `name` to `value` (a setting given another way, as `new --in-flight`).
    pub fn set(&mut self, name: &'static str, value: String) {
        match self.options.iter_mut().find(|(n, _)| *n == name) {
            Some(o) => o.1 = value,
            None => self.options.push((name, value)),
        }
    }
}

/// A registered one-file tuner: its names, its checkpoint file, how the file is read, its own
/// settings and how a run of it starts. Each tuner's module registers one in
/// [`ONE_FILE_TUNERS`].
pub struct OneFileKind {
    /// Its command and `--tuner` value: `spsa`, `cmaes`.
    pub name: &'static str,
    /// Its name in lines: `SPSA`, `CMA-ES`.
    pub label: &'static str,
    /// Its name with its article: `an SPSA`, `a CMA-ES`.
    pub a_label: &'static str,
    /// Its command's help, a sentence.
    pub about: &'static str,
    /// Its checkpoint in a session folder: `spsa.ckpt`, `cmaes.ckpt`.
    pub file: &'static str,
    /// The first 8 bytes of its checkpoint.
    pub magic: &'static [u8; 8],
    /// What one step is called: `step`, `generation`.
    pub step: &'static str,
    /// Where it comes in lists (help, `new --tuner`), lowest first.
    pub order: u32,
    /// Reads its checkpoint's bytes; the path only names the file in errors.
    pub decode: fn(&Path, &[u8]) -> Result<TunerSession<AnyTuner>, CheckpointError>,
    /// Its own settings, as its command takes them.
    pub options: &'static [TunerOption],
    /// Checks a start's settings before the engine is asked anything; one line when one is
    /// wrong.
    pub check: fn(&Start) -> Result<(), String>,
    /// A run at its start on `spec`; one line when a setting is wrong. None for a tuner whose
    /// command is its own.
    pub start: Option<StartFn>,
    /// `new --engine` tunes by it, when no tuner is named, an engine of more parameters than
    /// this (the lowest such bound wins); None: never by default.
    pub default_beyond: Option<usize>,
}

impl PartialEq for OneFileKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for OneFileKind {}

impl std::hash::Hash for OneFileKind {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.name.hash(h)
    }
}

impl PartialOrd for OneFileKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OneFileKind {
    /// By [`OneFileKind::order`], then name.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.order, self.name).cmp(&(other.order, other.name))
    }
}

impl std::fmt::Debug for OneFileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OneFileKind({})", self.name)
    }
}

/// A tuner state as its session needs it beyond the tuner contract, written for each tuner's
/// own types: what [`AnyTuner`] makes of it.
pub trait FileTuner: Tuner + Send + Sync + std::fmt::Debug + 'static {
    /// The tuner, as registered.
    const KIND: &'static OneFileKind;
    /// The bytes of a session's checkpoint; one line when it does not fit one.
    fn encode(session: &TunerSession<&Self>) -> Result<Vec<u8>, String>;
    /// The engine whose parameters it tunes.
    fn spec(&self) -> &EngineSpec;
    /// The games of its whole budget.
    fn budget(&self) -> u64;
    /// The games of one whole step.
    fn games_per_step(&self) -> u64;
    /// Its steps in all.
    fn steps(&self) -> u64;
    /// Whole steps played.
    fn steps_done(&self) -> u64;
    /// Has the whole budget been played?
    fn finished(&self) -> bool {
        self.games() >= FileTuner::budget(self)
    }
    /// Where it stands, in words: `step 75 of 500, 600 of 4000 games`.
    fn progress(&self) -> String {
        format!(
            "{} {} of {}, {} of {} games",
            Self::KIND.step,
            FileTuner::steps_done(self),
            FileTuner::steps(self),
            self.games(),
            FileTuner::budget(self)
        )
    }
    /// Its answer in the engine's units, unrounded (θ, or CMA-ES's average of the means).
    fn values(&self) -> Vec<f64>;
    /// The comment of the answer file of session `name`: the tuner, the session, what it
    /// played.
    fn comment(&self, name: &str) -> String;
    /// The line its command opens with: the engine, the seed, the budget, its own settings.
    fn opening(&self) -> String;
    /// How step `step` reads in progress lines.
    fn report(step: &Self::Step) -> StepReport;
    /// Its run as `history`, `report` and `show` read it, as session `name`.
    fn history(&self, name: &str) -> TunerHistory;
    /// Its own settings as a report lists them, after the engine, the clock and the games.
    fn settings(&self) -> Vec<(&'static str, String)>;
    /// Other genomes of its state worth scoring on the simulator besides its answer
    /// (CMA-ES's mean): `(what, genome)`.
    fn also(&self) -> Vec<(&'static str, Weights)> {
        Vec::new()
    }
}

/// [`FileTuner`] as one type for every tuner: what a session of [`AnyTuner`] calls.
pub trait OneFileState: Send + Sync + std::fmt::Debug {
    /// The tuner, as registered.
    fn kind(&self) -> &'static OneFileKind;
    /// [`Tuner::ask`].
    fn ask(&self) -> Option<Batch>;
    /// [`Tuner::tell`], the step as its report.
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<StepReport>;
    /// [`Tuner::abandon`].
    fn abandon(&mut self);
    /// [`Tuner::answer`].
    fn answer(&self) -> Weights;
    /// [`Tuner::games`].
    fn games(&self) -> u64;
    /// [`Tuner::phase`].
    fn phase(&self) -> Option<&'static str>;
    /// [`Tuner::in_flight`].
    fn in_flight(&self) -> usize;
    /// [`Tuner::ask_ahead`].
    fn ask_ahead(&self, k: usize) -> Option<Batch>;
    /// [`FileTuner::encode`] of session `name` whose answer is also written to `out`.
    fn encode(&self, name: &str, out: Option<&Path>) -> Result<Vec<u8>, String>;
    /// [`FileTuner::spec`].
    fn spec(&self) -> &EngineSpec;
    /// [`FileTuner::budget`].
    fn budget(&self) -> u64;
    /// [`FileTuner::games_per_step`].
    fn games_per_step(&self) -> u64;
    /// [`FileTuner::steps`].
    fn steps(&self) -> u64;
    /// [`FileTuner::steps_done`].
    fn steps_done(&self) -> u64;
    /// [`FileTuner::finished`].
    fn finished(&self) -> bool;
    /// [`FileTuner::progress`].
    fn progress(&self) -> String;
    /// [`FileTuner::values`].
    fn values(&self) -> Vec<f64>;
    /// [`FileTuner::comment`].
    fn comment(&self, name: &str) -> String;
    /// [`FileTuner::opening`].
    fn opening(&self) -> String;
    /// [`FileTuner::history`].
    fn history(&self, name: &str) -> TunerHistory;
    /// [`FileTuner::settings`].
    fn settings(&self) -> Vec<(&'static str, String)>;
    /// [`FileTuner::also`].
    fn also(&self) -> Vec<(&'static str, Weights)>;
}

impl<T: FileTuner> OneFileState for T {
    fn kind(&self) -> &'static OneFileKind {
        T::KIND
    }
    fn ask(&self) -> Option<Batch> {
        Tuner::ask(self)
    }
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<StepReport> {
        Tuner::tell(self, batch, played).map(|s| T::report(&s))
    }
    fn abandon(&mut self) {
        Tuner::abandon(self)
    }
    fn answer(&self) -> Weights {
        Tuner::answer(self)
    }
    fn games(&self) -> u64 {
        Tuner::games(self)
    }
    fn phase(&self) -> Option<&'static str> {
        Tuner::phase(self)
    }
    fn in_flight(&self) -> usize {
        Tuner::in_flight(self)
    }
    fn ask_ahead(&self, k: usize) -> Option<Batch> {
        Tuner::ask_ahead(self, k)
    }
    fn encode(&self, name: &str, out: Option<&Path>) -> Result<Vec<u8>, String> {
        T::encode(&TunerSession {
            name: name.to_string(),
            state: self,
            out: out.map(Path::to_path_buf),
        })
    }
    fn spec(&self) -> &EngineSpec {
        FileTuner::spec(self)
    }
    fn budget(&self) -> u64 {
        FileTuner::budget(self)
    }
    fn games_per_step(&self) -> u64 {
        FileTuner::games_per_step(self)
    }
    fn steps(&self) -> u64 {
        FileTuner::steps(self)
    }
    fn steps_done(&self) -> u64 {
        FileTuner::steps_done(self)
    }
    fn finished(&self) -> bool {
        FileTuner::finished(self)
    }
    fn progress(&self) -> String {
        FileTuner::progress(self)
    }
    fn values(&self) -> Vec<f64> {
        FileTuner::values(self)
    }
    fn comment(&self, name: &str) -> String {
        FileTuner::comment(self, name)
    }
    fn opening(&self) -> String {
        FileTuner::opening(self)
    }
    fn history(&self, name: &str) -> TunerHistory {
        FileTuner::history(self, name)
    }
    fn settings(&self) -> Vec<(&'static str, String)> {
        FileTuner::settings(self)
    }
    fn also(&self) -> Vec<(&'static str, Weights)> {
        FileTuner::also(self)
    }
}

/// A one-file tuner's state, whichever tuner's: what its session runs, saves and reads.
#[derive(Debug)]
pub struct AnyTuner(Box<dyn OneFileState>);

impl AnyTuner {
    /// `state` as every tuner's.
    pub fn new<T: FileTuner>(state: T) -> AnyTuner {
        AnyTuner(Box::new(state))
    }

    /// The state, as every tuner's.
    pub fn state(&self) -> &dyn OneFileState {
        &*self.0
    }

    /// The tuner, as registered.
    pub fn kind(&self) -> &'static OneFileKind {
        self.0.kind()
    }

    /// Reads the checkpoint at `path`, whichever registered tuner's its magic says, or else
    /// its file's name (so that a damaged file's error is that tuner's: empty, wrong magic).
    pub fn load(path: &Path) -> Result<TunerSession<AnyTuner>, CheckpointError> {
        AnyTuner::decode(path, &super::read_checkpoint(path)?)
    }

    /// The session checkpoint `bytes` hold, whichever registered tuner's (by their magic, or
    /// failing that by `path`'s name, which also names the file in errors).
    pub fn decode(path: &Path, bytes: &[u8]) -> Result<TunerSession<AnyTuner>, CheckpointError> {
        let named = |k: &&OneFileKind| path.file_name().is_some_and(|n| n == k.file);
        let by_magic = ONE_FILE_TUNERS.iter().find(|k| bytes.starts_with(k.magic));
        match by_magic.or_else(|| ONE_FILE_TUNERS.iter().find(named)) {
            Some(k) => (k.decode)(path, bytes),
            None => Err(CheckpointError::new(
                path,
                "is not the checkpoint of a one-file tuner (its first bytes are no tuner's)",
            )),
        }
    }
}

impl std::ops::Deref for AnyTuner {
    type Target = dyn OneFileState;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl Tuner for AnyTuner {
    type Step = StepReport;
    fn ask(&self) -> Option<Batch> {
        self.0.ask()
    }
    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<StepReport> {
        self.0.tell(batch, played)
    }
    fn abandon(&mut self) {
        self.0.abandon()
    }
    fn answer(&self) -> Weights {
        self.0.answer()
    }
    fn games(&self) -> u64 {
        self.0.games()
    }
    fn phase(&self) -> Option<&'static str> {
        self.0.phase()
    }
    fn in_flight(&self) -> usize {
        self.0.in_flight()
    }
    fn ask_ahead(&self, k: usize) -> Option<Batch> {
        self.0.ask_ahead(k)
    }
}

impl<T: FileTuner> TunerSession<T> {
    /// The session with its state as every tuner's.
    pub fn erased(self) -> TunerSession<AnyTuner> {
        TunerSession {
            name: self.name,
            state: AnyTuner::new(self.state),
            out: self.out,
        }
    }
}

impl OneFileSession for TunerSession<AnyTuner> {
    fn tuner(&self) -> TunerKind {
        TunerKind::OneFile(self.state.kind())
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn spec(&self) -> &EngineSpec {
        self.state.0.spec()
    }

    fn history(&self) -> TunerHistory {
        self.state.0.history(&self.name)
    }

    fn answer(&self) -> Weights {
        self.state.0.answer()
    }

    fn out(&self) -> Option<&Path> {
        self.out.as_deref()
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.state.0.settings()
    }
}
