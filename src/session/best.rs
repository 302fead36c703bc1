//! The best-weights file of a session (`POPULATIONS/NAME/best.json`, or
//! `WEIGHTS_DIR/NAME-best.json` when the run names a weights folder) and its lineage: a run
//! writes it only when it holds nothing, or the best of this very session and branch.

use super::{io, SessionError, SessionOptions};
use crate::eval::Weights;
use crate::ga::{GaState, Stop};
use crate::genome::EngineSpec;
use crate::store;
use crate::weightfile::{Origin, WeightsError};
use std::path::{Path, PathBuf};

/// The name of a session's best-weights file in its folder, where a run writes it unless told
/// a weights folder ([`SessionOptions::weights_dir`]).
pub const BEST_FILE: &str = "best.json";

/// The name of the finals' winner in a session's folder (`checkers-ga finals`).
pub const FINALS_FILE: &str = "finals.json";

/// The best-weights file of session `name` in a weights folder: `WEIGHTS_DIR/NAME-best.json`.
pub fn best_path(weights_dir: &Path, name: &str) -> PathBuf {
    weights_dir.join(format!("{name}-best.json"))
}

/// The best-weights file a run writes: `DIR/best.json` in the session folder `dir`, or
/// `WEIGHTS_DIR/NAME-best.json` when the run names a weights folder.
pub fn best_file(run: &SessionOptions, dir: &Path, name: &str) -> PathBuf {
    match &run.weights_dir {
        Some(w) => best_path(w, name),
        None => dir.join(BEST_FILE),
    }
}

/// Why an answer file could not be written ([`write_answer_file`]).
#[derive(Debug, thiserror::Error)]
pub enum AnswerFileError {
    /// An outside engine's parameter file could not be written.
    #[error("cannot write '{}'", path.display())]
    Engine {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A weight file could not be written (the error names the file).
    #[error(transparent)]
    Weights(#[from] WeightsError),
}

impl From<AnswerFileError> for SessionError {
    fn from(e: AnswerFileError) -> SessionError {
        match e {
            AnswerFileError::Engine { path, source } => {
                io(format!("cannot write '{}'", path.display()))(source)
            }
            AnswerFileError::Weights(e) => SessionError::Weights(e),
        }
    }
}

/// Writes a session's answer `w` to `path` (atomically: temp name, sync, rename) in the file a
/// session of that kind answers with: an outside engine's parameter file, its values by the
/// engine's names, when the session tunes `engine`
/// ([`crate::formats::engine_params_json`]); else a weight file of our own evaluation
/// ([`crate::weightfile`]). Either names `origin` (the session, seed and generation) and
/// carries `comment` when given. A session's best-weights file, an SPSA session's `best.json`
/// and the finals' winner are written so.
pub fn write_answer_file(
    path: &Path,
    engine: Option<&EngineSpec>,
    w: &Weights,
    origin: Option<&Origin>,
    comment: Option<&str>,
) -> Result<(), AnswerFileError> {
    use crate::weightfile::{save_best_weights, save_best_weights_with_comment, save_weight_file};
    match (engine, origin, comment) {
        (Some(e), ..) => {
            let text = crate::formats::engine_params_json(e, w, origin, comment);
            crate::files::write_atomic(path, text.as_bytes()).map_err(|source| {
                AnswerFileError::Engine {
                    path: path.to_path_buf(),
                    source,
                }
            })?
        }
        (None, Some(o), Some(c)) => save_best_weights_with_comment(path, w, o, c)?,
        (None, Some(o), None) => save_best_weights(path, w, o)?,
        (None, None, c) => save_weight_file(path, w, c)?,
    }
    Ok(())
}

/// Checks before any work that the best-weights file of session `name` (whose folder is `dir`)
/// can be written: the file is not a folder, and a weights folder the run names exists (or is
/// made) and takes a new file. (The session folder is made and locked later.)
pub(super) fn check_weights_folder(
    run: &SessionOptions,
    dir: &Path,
    name: &str,
) -> Result<(), SessionError> {
    let path = best_file(run, dir, name);
    if path.is_dir() {
        return Err(SessionError::Input(format!(
            "the best-weights file '{}' is a folder",
            path.display()
        )));
    }
    let Some(dir) = &run.weights_dir else {
        return Ok(());
    };
    super::folder::ensure_folder(dir, "weights")?;
    let probe = crate::files::temp_name(&path);
    std::fs::File::create(&probe).map_err(io(format!(
        "cannot write into the weights folder '{}'",
        dir.display()
    )))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// What a best-weights file held when a run checked it.
#[derive(Clone, Debug, PartialEq)]
pub enum BestFile {
    /// No file.
    Absent,
    /// A file naming its session, seed and generation.
    Origin(Origin),
    /// A file that names no session or cannot be read.
    Unknown,
}

impl BestFile {
    /// What `path` holds now: absent, a weight file naming its origin, or anything else.
    pub fn read(path: &Path) -> BestFile {
        if !path.exists() {
            return BestFile::Absent;
        }
        let engine = std::fs::read_to_string(path)
            .ok()
            .filter(|t| crate::formats::is_engine_params(t));
        if let Some(text) = engine {
            return match crate::formats::parse_engine_params(&text).map(|p| p.origin) {
                Ok(Some(o)) => BestFile::Origin(o),
                _ => BestFile::Unknown,
            };
        }
        match crate::weightfile::load_weight_file(path).map(|f| f.origin) {
            Ok(Some(o)) => BestFile::Origin(o),
            _ => BestFile::Unknown,
        }
    }
}

/// The last generation a run can write: the limit of a generation count (at least the start),
/// or the start itself for a time limit (how far it gets is not known in advance).
pub(super) fn last_generation(s: &GaState) -> u64 {
    match s.settings.stop {
        Stop::Generations(n) => n.max(s.generation),
        Stop::Seconds(_) => s.generation,
    }
}

/// Refuses, unless `force`, to let this run replace a best-weights file of another lineage. The
/// file is this run's lineage when it names the same session and seed and a generation no
/// later than `until`, the last this run can write (a later one belongs to a branch that
/// resuming an older checkpoint abandons). A file that names no session or cannot be read, and
/// a session folder whose name is not the session's (a copy of another session's folder), are
/// refused too: the file may be another session's. Returns what the file held, for [`write`]
/// to check that no one else has written it meanwhile (None: `force`).
pub(super) fn check_lineage(
    run: &SessionOptions,
    name: &str,
    seed: u64,
    until: u64,
    dir: &Path,
) -> Result<Option<BestFile>, SessionError> {
    if run.force {
        return Ok(None);
    }
    let path = best_file(run, dir, name);
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
            // (A file in the session folder is that folder's, copied or not.)
            Some(f) if f != name && run.weights_dir.is_some() => format!(
                "this session folder '{}' is not named after its session '{name}' (a copy?), \
                 and the file may be the original's",
                dir.display()
            ),
            _ => return Ok(Some(seen)),
        },
    };
    Err(SessionError::Refused(format!(
        "will not overwrite the best-weights file '{}': {why}; move it away or give --force",
        path.display()
    )))
}

/// The comment of a GA session's answer file of outside engine `e`, as the one-file tuners'
/// say theirs: the session, its seed, where it stands, its depth or clock, and whether a stop
/// ended it before its generations (with the games they would have held) or, on a time limit,
/// before its time (`stopped`: the run was stopped; a time limit's last generation is abandoned,
/// so the seconds counted fall short of the limit however the run ended).
fn engine_comment(s: &GaState, e: &EngineSpec, stopped: bool) -> String {
    let why = match s.settings.stop {
        Stop::Generations(n) if s.generation < n => {
            let games = (n as f64 * s.settings.games_per_generation()).round();
            format!(" (stopped; about {games} games asked for)")
        }
        Stop::Seconds(t) if stopped && !s.finished() => {
            format!(" (stopped before its {t} s)")
        }
        _ => String::new(),
    };
    format!(
        "GA session '{}', seed {}: {}, {}{why}",
        s.name,
        s.settings.seed,
        s.progress(),
        e.level()
    )
}

/// Writes the best so far to the best-weights file, naming the session, seed and generation;
/// returns its path (None when there is no best so far yet). `dir` is the session folder;
/// `seen` what the file held when the run started or this run last wrote it (None: force),
/// which it must still hold, and which then holds what this write left.
pub(super) fn write(
    session: &GaState,
    run: &SessionOptions,
    dir: &Path,
    seen: &mut Option<BestFile>,
    stopped: bool,
) -> Result<Option<PathBuf>, SessionError> {
    let Some(best) = session.answer() else {
        return Ok(None);
    };
    let (name, seed, g) = (&session.name, session.settings.seed, session.generation);
    let path = best_file(run, dir, name);
    let folder = crate::files::folder_of(&path);
    super::folder::ensure_folder(&folder, "weights")?;
    if let Some(seen) = seen {
        if BestFile::read(&path) != *seen {
            return Err(SessionError::Refused(format!(
                "best weights not written: '{}' was changed by another process while this run \
                 went on; they are in the checkpoint '{}'",
                path.display(),
                store::checkpoint_path(dir, g).display()
            )));
        }
    }
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
    store::remove_stale_temp_files_of(&folder, &file.unwrap_or_default());
    let origin = Origin {
        session: name.clone(),
        seed,
        generation: g,
    };
    // An outside engine's values by its names, said as every tuner's answer file says them,
    // or our weights.
    let engine = session.settings.engine.as_ref();
    let comment = engine.map(|e| engine_comment(session, e, stopped));
    write_answer_file(&path, engine, &best, Some(&origin), comment.as_deref())?;
    if let Some(seen) = seen {
        // What the file holds now (read back, it names this origin).
        *seen = BestFile::Origin(origin);
    }
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_file_is_an_engines_parameter_file_or_a_weight_file() {
        let dir = std::env::temp_dir().join(format!("ckga-answer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let origin = Origin {
            session: "s".into(),
            seed: 7,
            generation: 3,
        };
        // An outside engine's session: its values by the engine's names.
        let spec = EngineSpec::simulated(&crate::SimModel::new(4, 1), 2);
        let path = dir.join("engine.json");
        let w = spec.defaults();
        write_answer_file(&path, Some(&spec), &w, Some(&origin), Some("c")).unwrap();
        assert_eq!(BestFile::read(&path), BestFile::Origin(origin.clone()));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            crate::formats::engine_params_json(&spec, &w, Some(&origin), Some("c"))
        );
        // Our weights: a weight file, with or without its origin and comment.
        let w = crate::material();
        for (origin, comment) in [(Some(&origin), Some("c")), (Some(&origin), None)] {
            let path = dir.join("weights.json");
            write_answer_file(&path, None, &w, origin, comment).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(
                text,
                crate::weightfile::weights_to_json_full(&w, comment, origin)
            );
        }
        let path = dir.join("plain.json");
        write_answer_file(&path, None, &w, None, None).unwrap();
        assert_eq!(BestFile::read(&path), BestFile::Unknown);
        // A file that cannot be written: the error names it.
        let bad = dir.join("no/such/folder/x.json");
        let e = write_answer_file(&bad, Some(&spec), &spec.defaults(), None, None).unwrap_err();
        assert!(e.to_string().starts_with("cannot write '"), "{e}");
        let e = SessionError::from(e);
        assert!(matches!(e, SessionError::Io { .. }), "{e}");
        let e = write_answer_file(&bad, None, &w, None, None).unwrap_err();
        assert!(matches!(SessionError::from(e), SessionError::Weights(_)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
