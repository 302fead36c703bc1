//! Reading any file that holds weights; the kind is told by the content, not the name. And
//! what a WEIGHTS argument of the command line means ([`resolve_weights`], [`resolve_player`]):
//! a file or folder when one of that name exists, else a built-in name, a session's name or
//! the name of a weight file the repository ships ([`SHIPPED`]).

use super::{fail, FormatError};
use crate::eval::{ParamSet, Weights, NUM_PARAMS, PARAMS};
use crate::ga::GaState;
use crate::matchplay::OutsideEngine;
use crate::rng::{derive, Purpose};
use crate::store::CHECKPOINT_MAGIC;
use crate::yardstick::Evaluator;
use std::path::Path;

/// What kind of file an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A JSON weight file ([`crate::weightfile`]).
    Json,
    /// A CSV export (`number,name,weight`).
    Csv,
    /// The original tool's weight file (`60 1`, then 60 integers).
    OriginalWeights,
    /// The original tool's population file (`60 POP GENERATION ...`, one individual per line).
    OriginalPopulation,
    /// A checkpoint of a session ([`crate::store`]).
    Checkpoint,
    /// An outside engine's parameter file ([`super::parse_engine_params`]).
    EngineParams,
}

impl InputKind {
    /// The kind in words, for headers.
    pub fn description(self) -> &'static str {
        match self {
            InputKind::Json => "JSON weight file",
            InputKind::Csv => "CSV weight file",
            InputKind::OriginalWeights => "weight file of the original tool",
            InputKind::OriginalPopulation => "population file of the original tool",
            InputKind::Checkpoint => "checkpoint",
            InputKind::EngineParams => "outside engine's parameter file",
        }
    }
}

/// A file that holds weights, read. (Read once per command: the size of a weight vector
/// inline is no concern.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Input {
    /// One weight vector (JSON, CSV or the original weight file).
    Weights {
        /// Which format it was in.
        kind: InputKind,
        /// The weights.
        weights: Weights,
        /// A JSON file's comment.
        comment: Option<String>,
    },
    /// A population file of the original tool.
    Population {
        /// The GENERATION field of the header, when there is one.
        generation: Option<String>,
        /// The individuals, in file order.
        individuals: Vec<Weights>,
    },
    /// A session checkpoint.
    Checkpoint(Box<GaState>),
    /// An outside engine's parameter file ([`super::parse_engine_params`]).
    Engine(Box<super::EngineParams>),
}

impl Input {
    /// What kind of file it was.
    pub fn kind(&self) -> InputKind {
        match self {
            Input::Weights { kind, .. } => *kind,
            Input::Population { .. } => InputKind::OriginalPopulation,
            Input::Checkpoint(_) => InputKind::Checkpoint,
            Input::Engine(_) => InputKind::EngineParams,
        }
    }
}

/// The first characters of a text, on one line, for error messages.
fn starts_with_text(t: &str) -> String {
    let first = t.lines().next().unwrap_or("");
    let mut s: String = first.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 30 {
        s = s.chars().take(30).collect::<String>() + "...";
    }
    s
}

/// Reads a file that holds weights; the kind is detected from the content.
pub fn load_input(path: &Path) -> Result<Input, FormatError> {
    if path.is_dir() {
        return fail(format!("'{}' is a folder, not a file", path.display()));
    }
    let bytes = crate::files::read_bounded(path).map_err(|source| FormatError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_input(path, &bytes)
}

/// Reads the bytes of a file that holds weights; `path` only names the file in errors.
pub fn parse_input(path: &Path, bytes: &[u8]) -> Result<Input, FormatError> {
    let shown = path.display();
    if bytes.starts_with(CHECKPOINT_MAGIC) {
        let session = crate::store::decode_checkpoint(path, bytes)?;
        return Ok(Input::Checkpoint(Box::new(session)));
    }
    if let Some(opened) = crate::store::decode_tuner_file(path, bytes) {
        if let Some(arg) = tuner_arg(&opened?, true) {
            return Ok(arg.input);
        }
    }
    let what = "not a weight file, checkpoint or population file";
    let Ok(text) = std::str::from_utf8(bytes) else {
        return fail(format!("'{shown}': {what} (binary data)"));
    };
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.is_empty() {
        return fail(format!("'{shown}': the file is empty"));
    }
    if t.starts_with('{') && super::is_engine_params(t) {
        let p = super::parse_engine_params(t)
            .map_err(|e| FormatError::Invalid(format!("'{shown}': {e}")))?;
        return Ok(Input::Engine(Box::new(p)));
    }
    if t.starts_with(['{', '[']) {
        let f = crate::weightfile::parse_weight_file(t).map_err(|e| e.at(path))?;
        return Ok(Input::Weights {
            kind: InputKind::Json,
            weights: f.weights,
            comment: f.comment,
        });
    }
    if t.to_ascii_lowercase().starts_with("number,") {
        let weights =
            super::parse_csv(t).map_err(|e| FormatError::Invalid(format!("'{shown}': {e}")))?;
        return Ok(Input::Weights {
            kind: InputKind::Csv,
            weights,
            comment: None,
        });
    }
    let head: Vec<&str> = t.lines().next().unwrap_or("").split_whitespace().collect();
    // The larger sets in the original's weight-file form: `66 1`, `132 1` or a network's
    // `N 1` (the header line of every set but thesis60's).
    let larger = match head.as_slice() {
        [n, "1"] => n
            .parse()
            .ok()
            .and_then(crate::eval::ParamSet::from_len)
            .is_some_and(|s| s != crate::eval::ParamSet::Thesis60),
        _ => false,
    };
    if head.first() == Some(&"60") || larger {
        if head == ["60", "1"] || larger {
            let f = crate::weightfile::parse_weight_file(t).map_err(|e| e.at(path))?;
            return Ok(Input::Weights {
                kind: InputKind::OriginalWeights,
                weights: f.weights,
                comment: None,
            });
        }
        let (generation, individuals) =
            parse_population(t).map_err(|e| FormatError::Invalid(format!("'{shown}': {e}")))?;
        return Ok(Input::Population {
            generation,
            individuals,
        });
    }
    fail(format!(
        "'{shown}': {what} (expected JSON, CSV, a checkpoint or a text file of the original tool \
         starting with '60 '; it starts with '{}')",
        starts_with_text(t)
    ))
}

/// Reads a population file of the original tool: a line `60 POP GENERATION ...`, then one line
/// of 60 integers per individual. Returns the GENERATION field (if any) and the individuals.
pub fn parse_population(text: &str) -> Result<(Option<String>, Vec<Weights>), FormatError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let head: Vec<&str> = match lines.next() {
        Some((_, l)) => l.split_whitespace().collect(),
        None => return fail("population file: the file is empty"),
    };
    if head.len() < 2 || head[0] != "60" {
        return fail(format!(
            "population file: the first line must start with '60 POPULATION', found '{}'",
            head.join(" ")
        ));
    }
    let n: usize = head[1].parse().map_err(|_| {
        FormatError::Invalid(format!(
            "population file: population size '{}' is not a number",
            head[1]
        ))
    })?;
    let mut pop = Vec::new();
    for (lineno, line) in lines {
        let vals: Vec<&str> = line.split_whitespace().collect();
        if vals.len() != NUM_PARAMS {
            return fail(format!(
                "population file: line {} has {} weights, expected {NUM_PARAMS}",
                lineno + 1,
                vals.len()
            ));
        }
        let w = crate::weightfile::parse_weight_tokens(ParamSet::Thesis60, &vals).map_err(
            |(k, v, _)| {
                FormatError::Invalid(format!(
                    "population file: line {}, weight {} ({}) is '{v}', not an integer in \
                 -32768..=32767",
                    lineno + 1,
                    k + 1,
                    PARAMS[k].name
                ))
            },
        )?;
        pop.push(w);
    }
    if pop.len() != n {
        return fail(format!(
            "population file: the header says {n} individuals, found {}",
            pop.len()
        ));
    }
    Ok((head.get(2).map(|s| s.to_string()), pop))
}

/// The words a player argument accepts besides a file name, for messages.
pub const PLAYER_NAMES: &str = "material, thesis, random, hand or classic";

/// The folder whose session folders a bare session name means.
pub const SESSIONS_ROOT: &str = "populations";

/// The weight files the repository ships in `weights/`, built into the program so that a bare
/// name works from any folder (and after `cargo install`, with no repository at hand): each
/// file's stem, its file name and its text. `material` and `thesis` name two of them too.
pub const SHIPPED: [(&str, &str, &str); 4] = [
    (
        "evolved-hour",
        "evolved-hour.json",
        include_str!("../../../weights/evolved-hour.json"),
    ),
    (
        "evolved-seed1",
        "evolved-seed1.json",
        include_str!("../../../weights/evolved-seed1.json"),
    ),
    (
        "material",
        "material.json",
        include_str!("../../../weights/material.json"),
    ),
    (
        "thesis-table-4-2",
        "thesis-table-4-2.json",
        include_str!("../../../weights/thesis-table-4-2.json"),
    ),
];

/// The shipped weight file a bare name means (`material` and `thesis` included): its file name
/// and text.
pub fn shipped(name: &str) -> Option<(&'static str, &'static str)> {
    let stem = match name {
        "thesis" => "thesis-table-4-2",
        n => n,
    };
    SHIPPED
        .iter()
        .find(|(s, _, _)| *s == stem)
        .map(|(_, file, text)| (*file, *text))
}

/// A WEIGHTS argument, read: what it holds, and how to name it in reports.
#[derive(Clone, Debug)]
pub struct WeightsArg {
    /// The weights (or population, or session) it names.
    pub input: Input,
    /// A short name for reports (`material`, a file's stem, a session's name).
    pub name: String,
    /// What was read, for headers: the file, the checkpoint a session folder led to, or the
    /// built-in set.
    pub shown: String,
    /// Replaces the kind of file in headers (built-in and random weights are no file).
    pub title: Option<String>,
}

/// Reads a WEIGHTS argument: any file `show` reads (a weight file, CSV, a checkpoint, a file
/// of the original tool) or a session folder (its newest loadable checkpoint); when no file or
/// folder of that name exists, in this order: `random` weights (from `seed` and `slot`), the
/// built-in sets `material` and `thesis`, a session's name (its folder under
/// `populations`), or the stem of a shipped weight file ([`SHIPPED`]: `evolved-hour` is
/// `weights/evolved-hour.json`, built in). The yardsticks `hand` and `classic` are evaluation
/// functions, not weights: [`resolve_player`] takes them, this gives a one-line error.
pub fn resolve_weights(spec: &str, seed: u64, slot: u64) -> Result<WeightsArg, FormatError> {
    let path = Path::new(spec);
    let builtin = |input: Input, title: String| WeightsArg {
        input,
        name: spec.to_string(),
        shown: spec.to_string(),
        title: Some(title),
    };
    let shipped_arg = |(file, text): (&str, &str)| -> Result<WeightsArg, FormatError> {
        let f = crate::weightfile::parse_weight_file(text)?;
        let input = Input::Weights {
            kind: InputKind::Json,
            weights: f.weights,
            comment: f.comment,
        };
        Ok(builtin(
            input,
            format!("built-in weight set (weights/{file})"),
        ))
    };
    if !path.exists() {
        if spec == "random" {
            let mut rng = derive(seed, Purpose::Initial, u64::MAX, slot);
            let input = Input::Weights {
                kind: InputKind::Json,
                weights: Weights::random(&mut rng),
                comment: None,
            };
            return Ok(builtin(input, format!("random weights, seed {seed}")));
        }
        if Evaluator::yardstick(spec).is_some() {
            return Err(FormatError::NotWeights(spec.to_string()));
        }
        if let Some(found) = shipped(spec).filter(|_| matches!(spec, "material" | "thesis")) {
            return shipped_arg(found);
        }
    }
    // A session, whichever tuner's, as `history` and `resume` take it: a session folder, a
    // session's name (its folder under `populations/`), or SPSA's checkpoint (the GA's
    // checkpoint files are read below, as files). The GA's: the newest loadable checkpoint;
    // SPSA's: its values, θ rounded.
    let sessions = Path::new(SESSIONS_ROOT);
    let root = if path.exists() {
        Path::new(".")
    } else {
        sessions
    };
    let names_session = path.is_dir()
        || (!path.exists() && !spec.is_empty() && sessions.join(spec).is_dir())
        || crate::store::tuner_of(Some(spec), root).0 != crate::store::TunerKind::Ga;
    if names_session {
        let opened = crate::store::open(Some(spec), root)?;
        if let Some(arg) = tuner_arg(&opened, false) {
            return Ok(arg);
        }
        if let crate::store::Opened::Ga(found) = opened {
            return Ok(WeightsArg {
                name: found.session.name.clone(),
                shown: found.path.display().to_string(),
                input: Input::Checkpoint(Box::new(found.session)),
                title: None,
            });
        }
    }
    if !path.exists() {
        if let Some(found) = shipped(spec) {
            return shipped_arg(found);
        }
    }
    let input = match load_input(path) {
        Ok(i) => i,
        Err(e) if !path.exists() => {
            return Err(FormatError::Unknown {
                spec: spec.to_string(),
                error: Box::new(e),
            })
        }
        Err(e) => return Err(e),
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| spec.to_string());
    Ok(WeightsArg {
        input,
        name,
        shown: spec.to_string(),
        title: None,
    })
}

/// A WEIGHTS argument read with the session folders under `populations` instead of
/// [`SESSIONS_ROOT`] (the `--populations` of `show` and `export`): a session's name there
/// becomes its folder, which [`resolve_weights`] then reads. Any other argument (a file or
/// folder that exists here, a name with no session folder there, or any argument when
/// `populations` is [`SESSIONS_ROOT`], where [`resolve_weights`] looks itself) is as given.
pub fn in_populations(spec: &str, populations: &Path) -> String {
    let dir = crate::store::session_dir(populations, spec);
    let plain = crate::store::is_plain_name(spec) && !Path::new(spec).exists();
    if plain && populations != Path::new(SESSIONS_ROOT) && dir.is_dir() {
        dir.to_string_lossy().into_owned()
    } else {
        spec.to_string()
    }
}

/// A one-file tuner's session (SPSA's, CMA-ES's) as weights: its answer rounded (θ; the means'
/// average) as the parameter file of its engine would hold it, titled by the session, its
/// progress and seed (`SPSA session 'x', step 3 of 5, 24 of 40 games, seed 11: θ rounded`),
/// the title also the file's comment when `comment`. None for a session of the GA.
fn tuner_arg(opened: &crate::store::Opened, comment: bool) -> Option<WeightsArg> {
    let crate::store::Opened::OneFile { path, session } = opened else {
        return None;
    };
    let h = session.history();
    let (name, spec, weights) = (&h.name, &h.spec, session.answer());
    let title = format!(
        "{} session '{name}', {}, seed {}: {}",
        h.tuner.name(),
        h.progress,
        h.seed,
        h.rounded
    );
    Some(WeightsArg {
        input: Input::Engine(Box::new(super::EngineParams {
            spec: spec.clone(),
            weights,
            origin: None,
            comment: comment.then(|| title.clone()),
        })),
        name: name.clone(),
        shown: path.display().to_string(),
        // The title says what the comment would.
        title: (!comment).then_some(title),
    })
}

/// What a player argument means: a yardstick, weights, or an outside engine.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum PlayerArg {
    /// The hand-written evaluation `hand` or `classic` (named when no file of that name
    /// exists).
    Yardstick(Evaluator),
    /// Anything [`resolve_weights`] reads (a checkpoint or session plays its best so far).
    Weights(WeightsArg),
    /// `hub:CMD`: an outside engine speaking the Hub protocol, run as `CMD` (its program found
    /// now; named after the program until its `id name=` or the user says otherwise; no
    /// options, no depth).
    Hub(OutsideEngine),
}

/// The prefix of a player argument that is an outside Hub engine's command.
pub const HUB_PREFIX: &str = "hub:";

/// Reads a player argument: `hub:CMD` an outside engine ([`hub_player`]); the yardsticks
/// `hand` and `classic` when no file of that name exists; else what [`resolve_weights`] reads.
pub fn resolve_player(spec: &str, seed: u64, slot: u64) -> Result<PlayerArg, FormatError> {
    if let Some(cmd) = spec.strip_prefix(HUB_PREFIX) {
        return hub_player(cmd).map(PlayerArg::Hub);
    }
    if !Path::new(spec).exists() {
        if let Some(e) = Evaluator::yardstick(spec) {
            return Ok(PlayerArg::Yardstick(e));
        }
    }
    let weights = resolve_weights(spec, seed, slot)?;
    // An outside engine's parameters (its parameter file, or a session of it): the engine,
    // playing with them.
    let engine = match &weights.input {
        Input::Engine(p) => Some((p.spec.clone(), p.weights)),
        Input::Checkpoint(s) => s
            .settings
            .engine
            .clone()
            .and_then(|e| Some((e, s.answer()?))),
        _ => None,
    };
    if let Some((e, w)) = engine {
        let name = format!("{} ({})", e.engine.name, weights.name);
        return Ok(PlayerArg::Hub(OutsideEngine::with_genome(&e, &w, name)));
    }
    Ok(PlayerArg::Weights(weights))
}

/// An outside engine from its command line `cmd`: split into words as a shell does (quotes
/// `'...'` and `"..."`, backslash escapes; no variables or globs); a program given with a
/// folder (`./scan`, `bin/scan`) is taken from the current folder, a bare name from `PATH`
/// only (as a shell does: a program in the current folder is `./scan`), and either must exist
/// and be executable; when it is not, the error says where it was looked for. Named after the
/// program's file name.
pub fn hub_player(cmd: &str) -> Result<OutsideEngine, FormatError> {
    OutsideEngine::from_command(cmd)
        .map_err(|e| FormatError::Invalid(format!("{HUB_PREFIX}{cmd}: {e}")))
}

/// The stems of the shipped weight files, for messages: `evolved-hour, evolved-seed1, ...`.
pub fn shipped_names() -> String {
    SHIPPED.map(|(s, _, _)| s).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_name_under_other_populations_is_its_folder() {
        let root = std::env::temp_dir().join(format!("ckga-in-pops-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = crate::store::session_dir(&root, "ckga-no-such-file-here");
        std::fs::create_dir_all(&dir).unwrap();
        let name = "ckga-no-such-file-here";
        assert_eq!(in_populations(name, &root), dir.to_string_lossy());
        // No session folder of that name, a path, the default root: as given.
        assert_eq!(in_populations("ckga-other-name", &root), "ckga-other-name");
        assert_eq!(in_populations("src", &root), "src");
        assert_eq!(in_populations("a/b", &root), "a/b");
        assert_eq!(in_populations(name, Path::new(SESSIONS_ROOT)), name);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_hub_player_names_its_program_found_on_the_path_or_here() {
        let p = hub_player("python3 engine.py --fast").unwrap();
        assert_eq!(p.name, "python3");
        assert!(Path::new(&p.program.command[0]).is_absolute());
        assert_eq!(&p.program.command[1..], ["engine.py", "--fast"]);
        let e = hub_player("no-such-engine-anywhere hub")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no program 'no-such-engine-anywhere': none on PATH ("),
            "{e}"
        );
        let e = hub_player("./no-such-engine").unwrap_err().to_string();
        assert!(
            e.contains("no program './no-such-engine' (no such file)"),
            "{e}"
        );
        assert!(hub_player("  ").is_err());
        assert!(matches!(
            resolve_player("hub:python3", 0, 0),
            Ok(PlayerArg::Hub(_))
        ));
    }
}
