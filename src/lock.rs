//! The session lock: `new`, `spsa` and `resume` hold an exclusive OS file lock on
//! `session.lock` in the session folder for as long as they run, so two processes never write
//! one session's checkpoints. The operating system releases the lock when the process ends,
//! however it ends, so a crash never leaves a stale lock behind. The holder writes its process
//! id into the file, and a second process names it in its error.
//!
//! The holder removes the file when it lets go (while it still holds the lock), so a folder
//! left by a clean exit holds no lock file; one left by a crash means nothing. A process that
//! locked the file just as its holder removed it finds, on checking, that the name no longer
//! leads to what it locked, and locks the name again: two processes never both hold the lock
//! of one folder.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The lock file's name inside a session folder.
pub const LOCK_FILE: &str = "session.lock";

/// A held session lock; dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct SessionLock {
    _file: File,
    #[cfg_attr(not(test), allow(dead_code))] // read by the unit tests
    path: PathBuf,
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        // Removed while still locked (the lock goes with the file, closed after this), so a
        // process that opened the old file sees it gone and locks the name anew.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Does `path` still name the file `file` (not removed, nor replaced)?
fn still_named(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

impl SessionLock {
    /// The lock file.
    #[cfg_attr(not(test), allow(dead_code))] // used by the unit tests
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Why a session folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error(
        "session folder '{}' is in use by {holder} (a running `new`, a tuner's command or `resume`; lock file \
         '{}'): wait for it to end or stop it first",
        dir.display(),
        path.display()
    )]
    Busy {
        /// The session folder.
        dir: PathBuf,
        /// `process N` or `another process`.
        holder: String,
        /// The lock file in it.
        path: PathBuf,
    },
    #[error("cannot lock '{}': {source}", path.display())]
    /// The lock file could not be created or locked (an I/O error other than "held").
    Io {
        /// The lock file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// Takes the lock of session folder `dir` (which must exist) without waiting. When another
/// process holds it, the error names that process's id.
pub fn lock_session(dir: &Path) -> Result<SessionLock, LockError> {
    let path = dir.join(LOCK_FILE);
    // A lock taken on a file its holder removed meanwhile is taken again on the name's file.
    let mut tries = 0;
    loop {
        match try_lock_once(dir, &path)? {
            Some(lock) => return Ok(lock),
            None if tries < 100 => tries += 1,
            None => {
                return Err(LockError::Io {
                    path,
                    source: std::io::Error::other("the lock file keeps being replaced"),
                })
            }
        }
    }
}

/// One try of [`lock_session`]: None when the file locked was removed or replaced meanwhile.
fn try_lock_once(dir: &Path, path: &Path) -> Result<Option<SessionLock>, LockError> {
    let path = path.to_path_buf();
    let cannot = |e: std::io::Error| LockError::Io {
        path: path.clone(),
        source: e,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(cannot)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let holder = match holder_pid(&path) {
                Some(pid) => format!("process {pid}"),
                None => "another process".to_string(),
            };
            return Err(LockError::Busy {
                dir: dir.to_path_buf(),
                holder,
                path: path.clone(),
            });
        }
        Err(TryLockError::Error(e)) => return Err(cannot(e)),
    }
    if !still_named(&file, &path) {
        return Ok(None);
    }
    let pid = std::process::id();
    let written = (|| {
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(format!("{pid}\n").as_bytes())?;
        file.flush()
    })();
    let lock = SessionLock { _file: file, path };
    // Not written (a full disk): the lock is let go as a held one is, its file removed.
    written.map_err(|e| LockError::Io {
        path: lock.path.clone(),
        source: e,
    })?;
    Ok(Some(lock))
}

/// The process id written in a lock file. The holder writes it just after taking the lock, so
/// an empty file is read again for a moment before giving up.
fn holder_pid(path: &Path) -> Option<u32> {
    let t = Instant::now();
    loop {
        let mut text = String::new();
        let read = File::open(path).and_then(|mut f| f.read_to_string(&mut text));
        if read.is_ok() {
            if let Ok(pid) = text.trim().parse() {
                return Some(pid);
            }
        }
        if t.elapsed() > Duration::from_millis(500) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holders_pid_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("ckga-lock-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = lock_session(&dir).expect("first lock");
        assert_eq!(first.path(), dir.join(LOCK_FILE));
        let text = std::fs::read_to_string(first.path()).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
        // Another open file description of the same file conflicts, even in one process.
        let err = lock_session(&dir).expect_err("second lock").to_string();
        assert!(
            err.contains(&format!("process {}", std::process::id())),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
        drop(first);
        assert!(!dir.join(LOCK_FILE).exists(), "the lock file is removed");
        let again = lock_session(&dir).expect("lock after release");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_on_a_removed_file_is_taken_again_on_the_new_one() {
        let dir = std::env::temp_dir().join(format!("ckga-lock-gone-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(LOCK_FILE);
        // A file opened (as a second process would) before its holder removed it.
        let old = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(!still_named(&old, &path));
        let lock = lock_session(&dir).expect("a lock on the name's new file");
        assert!(still_named(&lock._file, &path));
        drop(lock);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
