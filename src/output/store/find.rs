//! Finding a session, whichever tuner's: whose session a name, folder or checkpoint file is
//! ([`locate_any`], [`session_in`]; with no name, the newest session under the folder of
//! sessions, [`newest_session`]), the GA's newest loadable checkpoint ([`locate`]), and the one door every command
//! that takes a session goes through ([`open`]).

use super::{
    is_plain_name, list_checkpoints, load_checkpoint, load_checkpoint_recovering, one_file_tuners,
    resume_candidates, session_dir, sort_by_generation, CheckpointError, OneFileKind,
    OneFileSession, TunerKind, CHECKPOINT_MAGIC, ONE_FILE_TUNERS,
};
use crate::files::folder_of;
use crate::ga::GaState;
use std::path::{Path, PathBuf};

/// A session found on disk by [`session_in`] or [`locate_any`], nothing of it read but its
/// files' names (and a named file's first bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionFiles {
    /// Whose session it is.
    pub tuner: TunerKind,
    /// Its folder.
    pub dir: PathBuf,
    /// Its checkpoint: SPSA's one, the GA's newest by generation, or the file named.
    pub checkpoint: PathBuf,
}

/// The registered one-file tuner whose checkpoint these bytes start as, if any.
fn one_file_of(bytes: &[u8]) -> Option<&'static OneFileKind> {
    ONE_FILE_TUNERS.iter().find(|t| bytes.starts_with(t.magic))
}

/// The session folder `dir` holds, if any: a one-file tuner's session when it holds that
/// tuner's checkpoint ([`OneFileKind::file`]), else a session of the GA when it holds
/// a checkpoint. A folder taken by one tuner is taken for all (`new` and every tuner's command
/// refuse it).
pub fn session_in(dir: &Path) -> Option<SessionFiles> {
    let one_file = one_file_tuners()
        .into_iter()
        .map(|t| (TunerKind::OneFile(t), dir.join(t.file)))
        .find(|(_, p)| p.exists());
    let (tuner, checkpoint) = match one_file {
        Some(found) => found,
        None => {
            let mut all = list_checkpoints(dir);
            sort_by_generation(&mut all);
            (TunerKind::Ga, all.pop()?)
        }
    };
    Some(SessionFiles {
        tuner,
        dir: dir.to_path_buf(),
        checkpoint,
    })
}

/// The session an argument names, of whichever tuner: a checkpoint file (told by its magic), a
/// session folder ([`session_in`]), or a session's name whose folder under `root` holds one.
/// None for anything else (a weight file, a folder without a session, an empty name). It reads
/// no checkpoint: [`open`] does, and says what is wrong with one.
pub fn locate_any(arg: &str, root: &Path) -> Option<SessionFiles> {
    if arg.is_empty() {
        return None;
    }
    let p = Path::new(arg);
    if p.is_file() {
        let mut head = [0u8; 8];
        let n = std::fs::File::open(p)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .unwrap_or(0);
        let tuner = match one_file_of(&head[..n]) {
            Some(t) => TunerKind::OneFile(t),
            None if head[..n].starts_with(CHECKPOINT_MAGIC) => TunerKind::Ga,
            None => return None,
        };
        return Some(SessionFiles {
            tuner,
            dir: folder_of(p),
            checkpoint: p.to_path_buf(),
        });
    }
    if p.is_dir() {
        session_in(p)
    } else if is_plain_name(arg) {
        session_in(&session_dir(root, arg))
    } else {
        None
    }
}

/// The session under `root` (a folder of session folders, or a session's own folder) whose
/// checkpoint was written last, whichever tuner's: what a command that takes a session means
/// when none is named. None when there is none. Reads nothing but names and times.
pub fn newest_session(root: &Path) -> Option<SessionFiles> {
    if let Some(s) = session_in(root) {
        return Some(s);
    }
    let written = |s: &SessionFiles| {
        std::fs::metadata(&s.checkpoint)
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH)
    };
    std::fs::read_dir(root)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter_map(|d| session_in(&d))
        .max_by(|a, b| written(a).cmp(&written(b)).then(a.dir.cmp(&b.dir)))
}

/// `arg`, or with none the folder of the newest session under `root` ([`newest_session`]; None
/// when there is none, or its folder's name is not UTF-8): what a command that takes a session
/// reads it by, so that its tuner and its checkpoint are looked for in the same folder.
pub fn named_or_newest(arg: Option<&str>, root: &Path) -> Option<String> {
    match arg {
        Some(a) => Some(a.to_string()),
        None => newest_session(root)?.dir.to_str().map(str::to_string),
    }
}

/// Whose session an argument of `resume`, `show`, `export`, `history` or `report` names (with
/// no argument, the newest session under `root`, [`newest_session`]), and the checkpoint when
/// it is another tuner's than the GA's (a one-file tuner's; the GA's newest loadable checkpoint
/// is [`locate`]'s to find). Nothing is read but file names and times and a named file's first
/// bytes.
pub fn tuner_of(arg: Option<&str>, root: &Path) -> (TunerKind, Option<PathBuf>) {
    let found = match arg {
        Some(a) => locate_any(a, root),
        None => newest_session(root),
    };
    match found {
        Some(s) if s.tuner != TunerKind::Ga => (s.tuner, Some(s.checkpoint)),
        _ => (TunerKind::Ga, None),
    }
}

/// A session read from disk by [`open`], whichever tuner's.
pub enum Opened {
    /// The GA's: the checkpoint found and read, as [`locate`] finds it.
    Ga(Box<Located>),
    /// A one-file tuner's (SPSA's, CMA-ES's): its checkpoint and the session it holds.
    OneFile {
        /// The checkpoint read.
        path: PathBuf,
        /// The session.
        session: Box<dyn OneFileSession>,
    },
}

impl Opened {
    /// The tuner whose session it is.
    pub fn tuner(&self) -> TunerKind {
        match self {
            Opened::Ga(_) => TunerKind::Ga,
            Opened::OneFile { session, .. } => session.tuner(),
        }
    }

    /// The checkpoint read.
    pub fn checkpoint(&self) -> &Path {
        match self {
            Opened::Ga(found) => &found.path,
            Opened::OneFile { path, .. } => path,
        }
    }
}

/// Why [`open`] read no session.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// No session of the GA, or none loadable ([`locate`]).
    #[error(transparent)]
    Locate(#[from] LocateError),
    /// A one-file tuner's checkpoint that cannot be read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// Reads the session an argument names, whichever tuner's: a checkpoint file, a session
/// folder, or a session's name under `root` ([`tuner_of`]); with no argument, the newest
/// session under `root`, whichever tuner's. What is wrong, in one line, when none can be read.
pub fn open(arg: Option<&str>, root: &Path) -> Result<Opened, OpenError> {
    match tuner_of(arg, root) {
        (TunerKind::OneFile(t), Some(path)) => {
            // Read as the tuner its file's name or magic says, so a damaged file's error is
            // that tuner's (empty, wrong magic, a bad checksum).
            let bytes = super::read_checkpoint(&path)?;
            let session = Box::new((t.decode)(&path, &bytes)?);
            Ok(Opened::OneFile { path, session })
        }
        // The newest session's own folder, when none is named: the one `tuner_of` looked in.
        _ => {
            let arg = named_or_newest(arg, root);
            Ok(Opened::Ga(Box::new(locate(arg.as_deref(), root)?)))
        }
    }
}

/// The session a one-file tuner's checkpoint holds, read from its bytes (told by the magic);
/// None for any other bytes. `path` only names the file in errors.
pub fn decode_tuner_file(path: &Path, bytes: &[u8]) -> Option<Result<Opened, CheckpointError>> {
    let t = one_file_of(bytes)?;
    Some((t.decode)(path, bytes).map(|session| Opened::OneFile {
        path: path.to_path_buf(),
        session: Box::new(session),
    }))
}

/// A checkpoint found for `resume`, `history` or `show`.
pub struct Located {
    /// The checkpoint file that was read.
    pub path: PathBuf,
    /// The session it holds.
    pub session: GaState,
    /// Newer checkpoints that could not be read and were passed over.
    pub skipped: Vec<CheckpointError>,
    /// What was lost of a damaged history file (one line for the user), if anything.
    pub warning: Option<String>,
}

/// Finds the checkpoint a user means: a checkpoint file; a session folder (its newest loadable
/// checkpoint); a session name under `root`; or, with no argument, the newest of the GA's checkpoints under
/// `root`. Unreadable newer checkpoints are passed over and reported in `skipped`; when no
/// checkpoint fits its history file, the newest sound one is taken with what can be saved of
/// its history, and `warning` says what was lost.
pub fn locate(arg: Option<&str>, root: &Path) -> Result<Located, LocateError> {
    let dir = match arg {
        None => root.to_path_buf(),
        Some(f) => {
            let p = PathBuf::from(f);
            if p.is_file() {
                let (session, warning) = load_checkpoint_recovering(&p)?;
                return Ok(Located {
                    path: p,
                    session,
                    skipped: Vec::new(),
                    warning,
                });
            } else if p.is_dir() {
                p
            } else if !f.is_empty() && session_dir(root, f).is_dir() {
                session_dir(root, f)
            } else {
                return Err(LocateError::NoSuch {
                    name: f.to_string(),
                    root: root.to_path_buf(),
                });
            }
        }
    };
    let cands = resume_candidates(&dir);
    if cands.is_empty() {
        return Err(LocateError::Empty(dir));
    }
    // The newest checkpoint that loads with its history: a resume from it continues exactly
    // (a damaged record of a later generation is played again).
    let mut skipped = Vec::new();
    for c in &cands {
        match load_checkpoint(c) {
            Ok(session) => {
                return Ok(Located {
                    path: c.clone(),
                    session,
                    skipped,
                    warning: None,
                })
            }
            Err(e) => skipped.push(e),
        }
    }
    // None does (a history file damaged at its start, or gone): the newest sound checkpoint,
    // with what can be saved of its history.
    let mut unreadable = Vec::new();
    for c in cands {
        match load_checkpoint_recovering(&c) {
            Ok((session, warning)) => {
                return Ok(Located {
                    path: c,
                    session,
                    skipped: unreadable,
                    warning,
                })
            }
            Err(e) => unreadable.push(e),
        }
    }
    let newest = skipped.remove(0);
    Err(LocateError::Unloadable { dir, newest })
}

/// Why [`locate`] found no checkpoint.
#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error("no checkpoint, session folder or session named '{name}' (looked under '{}')", root.display())]
    /// The name is neither a checkpoint file, a session folder nor a session under the root.
    NoSuch {
        /// The name given.
        name: String,
        /// The folder sessions were looked for under.
        root: PathBuf,
    },
    #[error("no checkpoint under '{}': start a session with `checkers-ga new`", .0.display())]
    /// The folder holds no checkpoint.
    Empty(PathBuf),
    #[error("no loadable checkpoint under '{}' (newest: {newest})", dir.display())]
    /// The folder holds checkpoints, but none could be read.
    Unloadable {
        /// The folder.
        dir: PathBuf,
        /// Why its newest checkpoint could not be read.
        newest: CheckpointError,
    },
    /// The checkpoint file named could not be read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}
