//! An outside engine's own parameters as the genome of a session: which engine, what it
//! declared, which of its `int` parameters are tuned ([`EngineSpec`]), and its games played
//! through the protocol with each side's values set before the game.
//!
//! A gene is an `i16` like every other weight, so the GA's operators work unchanged: gene `g`
//! stands for the value `min + (g + 32768) * (max - min) / 65535` (rounded) of its parameter,
//! its whole declared range spread over the `i16` range. A Gaussian step of `sigma` moves a
//! parameter by about `sigma / 65535` of its range, whatever the range.
//!
//! Its games are played by the game loop, each side an outside player with the side's values
//! set before the game (`crate::play`, whose pool keeps the idle processes).

use crate::clock::TimeControl;
use crate::eval::{ParamSet, Weights, MAX_WEIGHTS};
use crate::hub::{ClientError, HubParam, HubProbe, OptionsError, OutsideEngine, Program};
use crate::sim::{self, SimModel, SIM_PREFIX};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// A parameter as the engine declared it (`param name= value= type= min= max=`), kept as text
/// so that any change of a declaration is seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declared {
    /// Its name.
    pub name: String,
    /// Its type (`int`, `bool`, ...; empty when not given).
    pub kind: String,
    /// Its default value (empty when not given).
    pub value: String,
    /// Its least value (empty when not given).
    pub min: String,
    /// Its greatest value (empty when not given).
    pub max: String,
}

impl std::fmt::Display for Declared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (type {}, value {}, min {}, max {})",
            self.name,
            or_none(&self.kind),
            or_none(&self.value),
            or_none(&self.min),
            or_none(&self.max)
        )
    }
}

impl Declared {
    /// The declaration as the client reads it.
    fn as_param(&self) -> HubParam {
        let text = |s: &String| Some(s.clone()).filter(|s| !s.is_empty());
        HubParam {
            name: self.name.clone(),
            value: text(&self.value),
            kind: text(&self.kind),
            min: text(&self.min),
            max: text(&self.max),
        }
    }
}

/// Why an outside engine cannot be tuned, or no longer matches its session: one variant per
/// kind of failure, each one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The engine could not be started, or failed its handshake.
    #[error("the engine '{command}' could not be used: {error}")]
    CannotStart {
        /// Its command line, its words joined by spaces.
        command: String,
        /// What went wrong.
        error: ClientError,
    },
    /// `--tune` names a parameter the engine does not declare.
    #[error("the engine declares no parameter '{name}' (its int parameters: {})", .ints.join(", "))]
    UnknownParameter {
        /// The name given.
        name: String,
        /// The names of its declared `int` parameters.
        ints: Vec<String>,
    },
    /// `--tune` names a parameter twice.
    #[error("--tune names '{0}' twice")]
    TunedTwice(String),
    /// A parameter to tune is not an `int`.
    #[error(
        "the engine's parameter {name} is of type {}, only int parameters are tuned",
        or_none(.kind)
    )]
    NotInt {
        /// Its name.
        name: String,
        /// Its declared type (empty when none).
        kind: String,
    },
    /// A parameter to tune has a bound or default that is not a whole number.
    #[error("the engine's parameter {name} has no whole-number {what} ('{value}')")]
    NotWhole {
        /// Its name.
        name: String,
        /// Which figure: `min`, `max` or `value`.
        what: &'static str,
        /// What it declared.
        value: String,
    },
    /// A parameter to tune has no range (`min >= max`).
    #[error("the engine's parameter {name} has min {min} and max {max}: nothing to tune")]
    NoRange {
        /// Its name.
        name: String,
        /// Its least value.
        min: i64,
        /// Its greatest value.
        max: i64,
    },
    /// The engine declares no `int` parameter with a range (and `--tune` named none).
    #[error("the engine '{0}' declares no int parameter with a range (min < max) to tune")]
    NothingToTune(String),
    /// More parameters to tune than a genome holds.
    #[error("{0} parameters to tune; at most {MAX_WEIGHTS}")]
    TooMany(usize),
    /// An option (`--engine-option`) sets a tuned parameter.
    #[error(
        "--engine-option {name}={value} sets a parameter that is tuned; {}",
        tuned_fix(.others)
    )]
    OptionTuned {
        /// The parameter's name.
        name: String,
        /// The value given.
        value: String,
        /// The tuned parameters no option sets.
        others: Vec<String>,
    },
    /// An option names a parameter the engine does not declare
    /// ([`OptionsError::Unknown`]), has a value its declaration rules out
    /// ([`OptionsError::Misfit`]), or the engine answered one with `error`
    /// ([`OptionsError::Refused`]): the checks every outside engine's options get, said of
    /// `--engine-option`.
    #[error("{}", .0.line("--engine-option", "the engine"))]
    Option(OptionsError),
    /// The engine's name is not the session's.
    #[error("the engine now calls itself '{now}', the session's was '{was}'")]
    Renamed {
        /// Its name now.
        now: String,
        /// Its name when the session began.
        was: String,
    },
    /// A parameter the engine declared is gone.
    #[error("the engine no longer declares the parameter {0}")]
    ParameterGone(String),
    /// A parameter's declaration changed.
    #[error("the engine's parameter {} changed: it was {was}, it is {now}", .was.name)]
    ParameterChanged {
        /// The declaration when the session began.
        was: Box<Declared>,
        /// The declaration now.
        now: Box<Declared>,
    },
    /// The engine declares a parameter it did not.
    #[error("the engine declares a new parameter {0}")]
    ParameterNew(Box<Declared>),
}

impl From<OptionsError> for EngineError {
    fn from(e: OptionsError) -> EngineError {
        EngineError::Option(e)
    }
}

/// What an option that sets a tuned parameter should do instead, `others` being the tuned
/// parameters no option sets.
fn tuned_fix(others: &[String]) -> String {
    if others.is_empty() {
        "leave it out".to_string()
    } else {
        format!(
            "to keep it fixed, tune the others: --tune {}",
            others.join(",")
        )
    }
}

fn or_none(s: &str) -> &str {
    if s.is_empty() {
        "none"
    } else {
        s
    }
}

/// The names of an engine's settings (compared without case, `_` as `-`): what it is told
/// about the machine, the time or its output rather than how it plays. A session given no
/// `--tune` leaves them out, though they are `int`s with a range; `--tune NAME` tunes one.
pub const SETTING_NAMES: [&str; 22] = [
    "depth",
    "max-depth",
    "hash",
    "hash-size",
    "hashsize",
    "tt",
    "tt-size",
    "bb-size",
    "threads",
    "cores",
    "memory",
    "seed",
    "ponder",
    "book",
    "book-ply",
    "book-margin",
    "time",
    "movetime",
    "nodes",
    "log",
    "verbose",
    "multipv",
];

/// Whether a declared parameter's name is that of an engine setting ([`SETTING_NAMES`]).
pub fn is_setting(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('_', "-");
    SETTING_NAMES.contains(&n.as_str())
}

/// A tuned parameter: an `int` the engine declared with its range and default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tuned {
    /// Its name, as the engine names it.
    pub name: String,
    /// Its least value.
    pub min: i64,
    /// Its greatest value (more than `min`).
    pub max: i64,
    /// The value the engine declared (within `min..=max`).
    pub default: i64,
}

impl Tuned {
    /// The value gene `g` stands for.
    pub fn value(&self, g: i16) -> i64 {
        let span = (self.max - self.min) as i128;
        let at = (g as i128 + 32768) * span;
        self.min + ((at + 32767) / 65535) as i64
    }

    /// The gene whose value is nearest `v` (clamped into the range).
    pub fn gene(&self, v: i64) -> i16 {
        let v = v.clamp(self.min, self.max);
        let span = (self.max - self.min) as i128;
        let g = ((v - self.min) as i128 * 65535 + span / 2) / span - 32768;
        g.clamp(i16::MIN as i128, i16::MAX as i128) as i16
    }
}

/// An outside engine whose parameters a session tunes: the engine itself, as every outside
/// engine is described ([`OutsideEngine`]: its name, what starts it, the depth its games ask
/// for), the clock its games are played on, what it declared and which of its `int`
/// parameters are the genome. A genome plays as this engine with its values added to the
/// engine's options. Its encoding (in checkpoints) is its program's command, folder and
/// options, then the rest, as it has always been.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SpecRecord", into = "SpecRecord")]
pub struct EngineSpec {
    /// The engine: its `id name=` (the program's name when it gave none); what starts its
    /// processes (the program and its arguments, the folder it runs in (the folder the
    /// session was started from), and the parameters set once, the same for every individual
    /// (`set-param`)); the depth every game asks for (`level depth=`) when it has no clock,
    /// always set ([`EngineSpec::depth`]).
    pub engine: OutsideEngine,
    /// The clock every tuning game is played on (`level move-time=` or `level time= inc=`,
    /// with the side's time left), None: a fixed depth. Kept in a checkpoint after the rest
    /// (GA format 9, SPSA format 3), not in this struct's encoding; a batch of game jobs
    /// carries it in its own `tc`.
    #[serde(skip)]
    pub tc: Option<TimeControl>,
    /// On a clock, how far past its time a move may end and still count (`--time-margin`: a
    /// move crosses a pipe, and a busy machine delays it). Kept beside [`EngineSpec::tc`].
    #[serde(skip)]
    pub time_margin: Duration,
    /// Every parameter it declared, in its order.
    pub declared: Vec<Declared>,
    /// The tuned parameters, the genes in this order.
    pub tuned: Vec<Tuned>,
}

/// A duration in whole milliseconds, as a checkpoint keeps a move timeout.
fn millis(d: Duration) -> u64 {
    d.as_millis().min(u64::MAX as u128) as u64
}

/// An [`EngineSpec`] as checkpoints keep it: its program's parts first, in their order of old.
#[derive(Clone, Serialize, Deserialize)]
struct SpecRecord {
    command: Vec<String>,
    dir: Option<PathBuf>,
    options: Vec<(String, String)>,
    depth: u32,
    move_timeout_ms: u64,
    name: String,
    declared: Vec<Declared>,
    tuned: Vec<Tuned>,
}

impl From<SpecRecord> for EngineSpec {
    fn from(r: SpecRecord) -> EngineSpec {
        EngineSpec {
            engine: OutsideEngine {
                name: r.name,
                program: Program {
                    command: r.command,
                    dir: r.dir,
                    options: r.options,
                },
                depth: Some(r.depth),
                move_timeout: Duration::from_millis(r.move_timeout_ms),
            },
            tc: None,
            time_margin: Duration::ZERO,
            declared: r.declared,
            tuned: r.tuned,
        }
    }
}

impl From<EngineSpec> for SpecRecord {
    fn from(s: EngineSpec) -> SpecRecord {
        let (depth, move_timeout_ms) = (s.depth(), millis(s.move_timeout()));
        let OutsideEngine { name, program, .. } = s.engine;
        SpecRecord {
            command: program.command,
            dir: program.dir,
            options: program.options,
            depth,
            move_timeout_ms,
            name,
            declared: s.declared,
            tuned: s.tuned,
        }
    }
}

impl EngineSpec {
    /// Starts `engine` once (its command, folder, options, depth and move timeout as the
    /// session keeps them) and reads its declarations: the tuned parameters are `tune` (each a
    /// declared `int` with a range), or every declared `int` with a range when `tune` is
    /// empty. An [`EngineError`] when the engine cannot be started, a name is not tunable, or
    /// an option (`--engine-option`) names a tuned parameter or one it does not declare, has
    /// a value its declaration rules out, or is refused by the engine (`error`).
    pub fn probe(engine: OutsideEngine, tune: &[String]) -> Result<EngineSpec, EngineError> {
        let mut spec = EngineSpec {
            engine: OutsideEngine {
                // Whole milliseconds, as a checkpoint keeps it.
                move_timeout: Duration::from_millis(millis(engine.move_timeout)),
                ..engine
            },
            tc: None,
            time_margin: Duration::ZERO,
            declared: Vec::new(),
            tuned: Vec::new(),
        };
        let (name, declared, refused) = spec.declarations()?;
        spec.engine.name = name;
        spec.declared = declared;
        let ints: Vec<&Declared> = spec.declared.iter().filter(|d| d.kind == "int").collect();
        let tuned: Vec<Tuned> = if tune.is_empty() {
            ints.iter()
                .filter(|d| !is_setting(&d.name))
                .filter_map(|d| tuned_of(d).ok())
                .collect()
        } else {
            let mut out = Vec::new();
            for t in tune {
                let Some(d) = spec.declared.iter().find(|d| &d.name == t) else {
                    return Err(EngineError::UnknownParameter {
                        name: t.clone(),
                        ints: ints.iter().map(|d| d.name.clone()).collect(),
                    });
                };
                if out.iter().any(|x: &Tuned| &x.name == t) {
                    return Err(EngineError::TunedTwice(t.clone()));
                }
                out.push(tuned_of(d)?);
            }
            out
        };
        if tuned.is_empty() {
            return Err(EngineError::NothingToTune(spec.engine.name));
        }
        if tuned.len() > MAX_WEIGHTS {
            return Err(EngineError::TooMany(tuned.len()));
        }
        spec.tuned = tuned;
        spec.check_options(&refused)?;
        Ok(spec)
    }

    /// The options (`--engine-option`) against the declarations and what the engine `refused`
    /// of them, as every outside engine's ([`HubProbe::check`], only declared parameters
    /// set), a tuned parameter first refused for each ([`EngineError::OptionTuned`]).
    fn check_options(&self, refused: &[String]) -> Result<(), EngineError> {
        let options = &self.engine.program.options;
        let said = HubProbe {
            name: None,
            unknown_options: Vec::new(),
            params: self.declared.iter().map(Declared::as_param).collect(),
            refused: refused.to_vec(),
        };
        let tuned = |k: &str, v: &str| {
            self.tuned
                .iter()
                .any(|t| t.name == k)
                .then(|| EngineError::OptionTuned {
                    name: k.to_string(),
                    value: v.to_string(),
                    others: (self.tuned.iter())
                        .map(|t| t.name.clone())
                        .filter(|n| !options.iter().any(|(o, _)| o == n))
                        .collect(),
                })
        };
        said.check(options, true, tuned)
    }

    /// The tuning simulator `model` as an engine searching to `depth` (which the model
    /// ignores): command and name `sim:N:SEED`, no folder, no options, every parameter of the
    /// model declared and tuned. Its games are decided by the model
    /// ([`EngineSpec::sim_model`]), without a process.
    pub fn simulated(model: &SimModel, depth: u32) -> EngineSpec {
        let declared: Vec<Declared> = model
            .params()
            .iter()
            .map(|p| Declared {
                name: p.name.clone(),
                kind: "int".into(),
                value: p.default.to_string(),
                min: p.min.to_string(),
                max: p.max.to_string(),
            })
            .collect();
        let tuned = model
            .params()
            .iter()
            .map(|p| Tuned {
                name: p.name.clone(),
                min: p.min,
                max: p.max,
                default: p.default,
            })
            .collect();
        EngineSpec {
            engine: OutsideEngine {
                name: model.name(),
                program: Program::new(vec![model.name()]),
                depth: Some(depth),
                move_timeout: crate::hub::DEFAULT_MOVE_TIMEOUT,
            },
            tc: None,
            time_margin: Duration::ZERO,
            declared,
            tuned,
        }
    }

    /// The simulator's model when this is the simulator (its command the one word
    /// `sim:N[:SEED]`, no folder and no options, as [`EngineSpec::simulated`] makes it; an
    /// outside engine is always started in a folder); None for an outside engine.
    pub fn sim_model(&self) -> Option<std::sync::Arc<SimModel>> {
        if self.engine.program.dir.is_some() || !self.engine.program.options.is_empty() {
            return None;
        }
        let [word] = self.engine.program.command.as_slice() else {
            return None;
        };
        if !word.starts_with(SIM_PREFIX) {
            return None;
        }
        let (n, seed) = SimModel::parse(word).ok()?;
        Some(sim::cached(n, seed))
    }

    /// Starts the engine and reads its name and declarations, and what it refused of the
    /// options (the messages of its `error` lines). The simulator's come from its model.
    #[allow(clippy::type_complexity)]
    fn declarations(&self) -> Result<(String, Vec<Declared>, Vec<String>), EngineError> {
        if let Some(m) = self.sim_model() {
            let now = EngineSpec::simulated(&m, self.depth());
            return Ok((now.engine.name, now.declared, Vec::new()));
        }
        // Read and stopped: a session's games set their values in processes of their own.
        let p = (self.engine)
            .handshake(crate::hub::handshake_timeout(), |_, p| drop(p))
            .map_err(|error| EngineError::CannotStart {
                command: self.engine.program.command.join(" "),
                error,
            })?;
        let name = p.name.unwrap_or_else(|| {
            self.engine
                .program
                .command
                .first()
                .cloned()
                .unwrap_or_default()
        });
        let declared = p
            .params
            .iter()
            .map(|q| Declared {
                name: q.name.clone(),
                kind: q.kind.clone().unwrap_or_default(),
                value: q.value.clone().unwrap_or_default(),
                min: q.min.clone().unwrap_or_default(),
                max: q.max.clone().unwrap_or_default(),
            })
            .collect();
        Ok((name, declared, p.refused))
    }

    /// Starts the engine again and checks that it declares what it declared when the session
    /// began; the first difference ([`EngineError::Renamed`], `ParameterGone`,
    /// `ParameterChanged`, `ParameterNew`) when it does not, or why it could not be started.
    /// A tuned parameter's declared value may change (a new default of the engine's): the
    /// session sets every tuned value before each game and keeps its own start
    /// ([`Tuned::default`]), so only its name, kind and range must stay. Not so for the
    /// simulator, whose declared values are its model's: another value is another model.
    pub fn check_unchanged(&self) -> Result<(), EngineError> {
        let sim = self.sim_model().is_some();
        let (name, now, _) = self.declarations()?;
        if name != self.engine.name {
            return Err(EngineError::Renamed {
                now: name,
                was: self.engine.name.clone(),
            });
        }
        for d in &self.declared {
            let tuned = !sim && self.tuned.iter().any(|t| t.name == d.name);
            let same = |n: &Declared| {
                if tuned {
                    Declared {
                        value: d.value.clone(),
                        ..n.clone()
                    } == *d
                } else {
                    n == d
                }
            };
            match now.iter().find(|n| n.name == d.name) {
                None => return Err(EngineError::ParameterGone(d.name.clone())),
                Some(n) if !same(n) => {
                    return Err(EngineError::ParameterChanged {
                        was: Box::new(d.clone()),
                        now: Box::new(n.clone()),
                    })
                }
                _ => {}
            }
        }
        if let Some(n) = now
            .iter()
            .find(|n| !self.declared.iter().any(|d| d.name == n.name))
        {
            return Err(EngineError::ParameterNew(Box::new(n.clone())));
        }
        Ok(())
    }

    /// The parameter set of its genomes.
    pub fn params(&self) -> ParamSet {
        ParamSet::Engine(self.tuned.len() as u16)
    }

    /// The genome of the engine's declared values.
    pub fn defaults(&self) -> Weights {
        let mut w = Weights::zero_of(self.params());
        for (x, t) in w.values_mut().iter_mut().zip(&self.tuned) {
            *x = t.gene(t.default);
        }
        w
    }

    /// The values genome `w` stands for, in the order of [`EngineSpec::tuned`].
    pub fn values(&self, w: &Weights) -> Vec<i64> {
        self.tuned
            .iter()
            .zip(w.values())
            .map(|(t, &g)| t.value(g))
            .collect()
    }

    /// The declared `int` parameters with a range that are not tuned because they are engine
    /// settings ([`is_setting`]): what `--tune` would have to name.
    pub fn settings_left_out(&self) -> Vec<&str> {
        self.declared
            .iter()
            .filter(|d| d.kind == "int" && is_setting(&d.name))
            .filter(|d| !self.tuned.iter().any(|t| t.name == d.name))
            .filter(|d| tuned_of(d).is_ok())
            .map(|d| d.name.as_str())
            .collect()
    }

    /// What a session of this engine tunes, in one line: `tuning 5 parameters of NAME: a, b,
    /// c, d, e`, then the settings left out and how to tune one.
    pub fn tuning_line(&self) -> String {
        let names: Vec<&str> = self.tuned.iter().map(|t| t.name.as_str()).collect();
        let shown = if names.len() > 12 {
            format!(
                "{}, ... ({} more)",
                names[..10].join(", "),
                names.len() - 10
            )
        } else {
            names.join(", ")
        };
        let mut line = format!(
            "tuning {} of {}: {shown}",
            crate::text::count(names.len(), "parameter", "parameters"),
            self.engine.name
        );
        if let Some(note) = self.settings_note() {
            line += "; ";
            line += &note;
        }
        line
    }

    /// `left out as engine settings: depth, hash (--tune NAME tunes one)`, when the engine
    /// declares settings that are not tuned ([`EngineSpec::settings_left_out`]).
    pub fn settings_note(&self) -> Option<String> {
        let left = self.settings_left_out();
        (!left.is_empty()).then(|| {
            format!(
                "left out as engine settings: {} (--tune NAME tunes one)",
                left.join(", ")
            )
        })
    }

    /// The `set-param` pairs of genome `w`.
    pub fn set_params(&self, w: &Weights) -> Vec<(String, String)> {
        self.tuned
            .iter()
            .zip(self.values(w))
            .map(|(t, v)| (t.name.clone(), v.to_string()))
            .collect()
    }

    /// The genome with these values (missing names keep the defaults).
    pub fn genome(&self, values: &[(String, i64)]) -> Weights {
        let mut w = self.defaults();
        for (x, t) in w.values_mut().iter_mut().zip(&self.tuned) {
            if let Some((_, v)) = values.iter().find(|(n, _)| n == &t.name) {
                *x = t.gene(*v);
            }
        }
        w
    }

    /// How every tuning game is played: `depth 4`, `clock 0.1 s/move`, or with a margin
    /// `clock 0.1 s/move (margin 50 ms)`.
    pub fn level(&self) -> String {
        match self.tc {
            Some(tc) if !self.time_margin.is_zero() => {
                format!("clock {tc} (margin {} ms)", self.time_margin.as_millis())
            }
            Some(tc) => format!("clock {tc}"),
            None => format!("depth {}", self.depth()),
        }
    }

    /// How every tuning game is played, as `match` takes it: `--depth 4`, `--tc 0.1`.
    pub fn level_flag(&self) -> String {
        match self.tc {
            Some(tc) if !self.time_margin.is_zero() => format!(
                "--tc {} --time-margin {}",
                tc.flag(),
                self.time_margin.as_millis()
            ),
            Some(tc) => format!("--tc {}", tc.flag()),
            None => format!("--depth {}", self.depth()),
        }
    }

    /// The depth every game asks for without a clock (set by every way a spec is made; 1 were
    /// it cleared).
    pub fn depth(&self) -> u32 {
        self.engine.depth.unwrap_or(1)
    }

    /// How long a move may take before the engine counts as hung: its engine's.
    pub fn move_timeout(&self) -> Duration {
        self.engine.move_timeout
    }
}

/// The tuned form of a declared parameter: an `int` with `min < max` and a default.
fn tuned_of(d: &Declared) -> Result<Tuned, EngineError> {
    if d.kind != "int" {
        return Err(EngineError::NotInt {
            name: d.name.clone(),
            kind: d.kind.clone(),
        });
    }
    let num = |what: &'static str, v: &str| {
        v.parse::<i64>().map_err(|_| EngineError::NotWhole {
            name: d.name.clone(),
            what,
            value: v.to_string(),
        })
    };
    let (min, max) = (num("min", &d.min)?, num("max", &d.max)?);
    if min >= max {
        return Err(EngineError::NoRange {
            name: d.name.clone(),
            min,
            max,
        });
    }
    let default = num("value", &d.value)?.clamp(min, max);
    Ok(Tuned {
        name: d.name.clone(),
        min,
        max,
        default,
    })
}

#[cfg(test)]
#[path = "genome_tests.rs"]
mod tests;
