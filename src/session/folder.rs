//! A session's folder, whichever tuner's session it holds: claimed for a new session
//! ([`claim`]) or entered to continue one ([`enter`]), and held, locked ([`crate::lock`]), for
//! as long as the run lives, so no other run writes into it meanwhile; its stale temporary
//! files are removed only under the lock, when no one else can be writing them. A folder that
//! holds a session of any tuner is taken for every tuner (`new`, `spsa` and `cmaes` refuse it).

use super::SessionError;
use crate::lock::{lock_session, SessionLock};
use crate::store;
use std::path::{Path, PathBuf};

/// A session's folder, locked while this lives.
pub(crate) struct Held {
    /// The folder.
    pub dir: PathBuf,
    /// Its lock.
    pub lock: SessionLock,
    /// The folder was made for this run ([`claim`]): it goes when the run leaves it empty
    /// (a session that could not write anything, e.g. on a full disk).
    pub made: bool,
}

/// Claims the folder of new session `name` under `populations`: locks it (a folder that exists
/// is locked before it is looked at, so a running session is reported as such), removes stale
/// temporary files, and refuses it when it holds a session of any tuner. `check` says whether
/// the session may start there; it runs before a folder is made, so a refusal leaves nothing
/// behind. What `check` gave, with the folder.
pub(crate) fn claim<R>(
    populations: &Path,
    name: &str,
    check: impl FnOnce(&Path) -> Result<R, SessionError>,
) -> Result<(Held, R), SessionError> {
    let dir = store::session_dir(populations, name);
    let take = |dir: &Path| -> Result<SessionLock, SessionError> {
        let lock = lock_session(dir)?;
        store::remove_stale_temp_files(dir);
        refuse_taken(populations, name)?;
        Ok(lock)
    };
    let made = !dir.is_dir();
    let (lock, checked) = if !made {
        let lock = take(&dir)?;
        (lock, check(&dir)?)
    } else {
        let checked = check(&dir)?;
        ensure_folder(&dir, "session")?;
        match take(&dir) {
            Ok(lock) => (lock, checked),
            Err(e) => {
                // Not taken (a full disk): the folder made for it goes (if it is empty).
                let _ = std::fs::remove_dir(&dir);
                return Err(e);
            }
        }
    };
    Ok((Held { dir, lock, made }, checked))
}

/// Enters the folder of a session to continue: locks it and removes stale temporary files.
pub(crate) fn enter(dir: &Path) -> Result<Held, SessionError> {
    let lock = lock_session(dir)?;
    store::remove_stale_temp_files(dir);
    Ok(Held {
        dir: dir.to_path_buf(),
        lock,
        made: false,
    })
}

/// How `resume`, `report`, `history` and `finals` find session `name` in folder `dir`, as a
/// shell's words: its name (with `--populations` when `populations`, the folder of session
/// folders, is not the default), or the folder itself when it is not named after the session
/// (a copy).
pub fn session_arg(dir: &Path, name: &str, populations: &Path) -> String {
    let word = |p: &Path| crate::text::shell_word(&p.to_string_lossy());
    if dir == store::session_dir(populations, name) {
        let mut c = crate::text::shell_word(name);
        if populations != Path::new(crate::formats::SESSIONS_ROOT) {
            c += &format!(" --populations {}", word(populations));
        }
        c
    } else {
        word(dir)
    }
}

/// Refuses session name `name` when its folder under `populations` holds a session of any
/// tuner: one line, saying how to continue that one.
pub(crate) fn refuse_taken(populations: &Path, name: &str) -> Result<(), SessionError> {
    let dir = store::session_dir(populations, name);
    if store::session_in(&dir).is_none() {
        return Ok(());
    }
    let resume = session_arg(&dir, name, populations);
    Err(SessionError::Taken {
        name: name.to_string(),
        dir,
        resume,
    })
}

/// Makes folder `dir` (and its parents) if missing; `what` names it in the error.
pub(crate) fn ensure_folder(dir: &Path, what: &str) -> Result<(), SessionError> {
    std::fs::create_dir_all(dir).map_err(super::io(format!(
        "cannot create the {what} folder '{}'",
        dir.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name taken says how to continue that session in words a shell takes as they are: a
    /// folder of sessions with a space in its name is quoted.
    #[test]
    fn a_taken_name_says_how_to_continue_it_in_a_shells_words() {
        let root = std::env::temp_dir().join(format!("ckga folder {}", std::process::id()));
        let dir = store::session_dir(&root, "s");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("spsa.ckpt"), b"").unwrap();
        let e = refuse_taken(&root, "s").unwrap_err().to_string();
        let quoted = format!("resume s --populations '{}'`", root.display());
        assert!(e.contains(&quoted), "{e}");
        assert!(refuse_taken(&root, "free").is_ok());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
