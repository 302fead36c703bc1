//! File I/O at the bottom of the crate: every file the tool writes goes through
//! [`write_atomic`] (temp name, sync, rename), so a crash leaves either the old file or the new
//! one, never half of one; every file it reads goes through [`read_bounded`]. A file that grows
//! as a command runs (a match's PDN) grows by whole records, through [`AppendFile`].

use std::io::Write;
use std::path::{Path, PathBuf};

/// The largest file the tool reads (weights, checkpoints, populations): far above any real one,
/// and a clear error instead of reading `/dev/zero` until memory runs out.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Writes `bytes` to `path` through a temporary file in the same folder, synced, then renamed
/// over `path`. On error the temporary file is removed and `path` is untouched. A symbolic
/// link is followed (the file it names is written that way, the link stays); a device or a
/// pipe (`/dev/stdout`) is written into, never replaced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_followed(path, bytes, 0)
}

/// [`write_atomic`] of `path`, reached through `hops` links.
fn write_followed(path: &Path, bytes: &[u8], hops: u32) -> std::io::Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let kind = meta.file_type();
        if kind.is_symlink() {
            if hops >= 16 {
                return Err(std::io::Error::other(format!(
                    "'{}': too many links to follow",
                    path.display()
                )));
            }
            let to = std::fs::read_link(path)?;
            let to = match to.is_absolute() {
                true => to,
                false => folder_of(path).join(to),
            };
            return write_followed(&to, bytes, hops + 1);
        }
        if !kind.is_file() && !kind.is_dir() {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            f.write_all(bytes)?;
            return f.flush();
        }
    }
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("'{}' is not a file name", path.display()),
        ));
    }
    let dir = folder_of(path);
    let tmp = temp_name(path);
    let result = (|| {
        let mut f = UNFINISHED.create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    UNFINISHED.done(&tmp);
    result
}

/// The temporary files [`write_atomic`] has made and not yet renamed or removed, by the whole
/// process: what [`abandon_writes`] removes.
static UNFINISHED: Unfinished = Unfinished(std::sync::Mutex::new(Vec::new()));

/// A registry of temporary files being written.
struct Unfinished(std::sync::Mutex<Vec<PathBuf>>);

impl Unfinished {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates the temporary file `tmp` and records it, both under the registry's lock, so
    /// that a file is recorded exactly when it exists (until [`Unfinished::done`]).
    fn create(&self, tmp: &Path) -> std::io::Result<std::fs::File> {
        let mut open = self.lock();
        let f = std::fs::File::create(tmp)?;
        open.push(tmp.to_path_buf());
        Ok(f)
    }

    /// `tmp` is renamed or removed: no longer recorded.
    fn done(&self, tmp: &Path) {
        let mut open = self.lock();
        if let Some(i) = open.iter().position(|p| p == tmp) {
            open.swap_remove(i);
        }
    }

    /// Removes every recorded file; the guard holds off new ones.
    fn abandon(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        let mut open = self.lock();
        for tmp in open.drain(..) {
            let _ = std::fs::remove_file(tmp);
        }
        open
    }
}

/// Removes every temporary file a [`write_atomic`] of this process has made and not yet
/// renamed, and holds every other write from making one while the guard lives: what a
/// process about to exit at once (a second Ctrl-C) calls, so that it leaves no `.NAME.PID.tmp`
/// behind. The files being replaced are untouched: each is still the old one, or already the
/// new one.
pub fn abandon_writes() -> impl Sized {
    UNFINISHED.abandon()
}

/// The temporary name [`write_atomic`] writes `path` under before the rename:
/// `.NAME.PID.tmp` in the same folder.
pub fn temp_name(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    folder_of(path).join(format!(".{name}.{}.tmp", std::process::id()))
}

/// Reads a whole file of at most [`MAX_INPUT_BYTES`].
pub fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    if path.is_dir() {
        return Err(std::io::Error::other("it is a folder, not a file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, not a file this tool wrote",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// The folder a file is in (`.` for a bare file name).
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A file that grows by whole records (a match's games in PDN, appended as each is counted):
/// each [`AppendFile::append`] writes its record in one write and flushes it, and a record
/// written in part (a full disk) is cut off again, so the file holds whole records only.
#[derive(Debug)]
pub struct AppendFile {
    file: std::fs::File,
    path: PathBuf,
}

impl AppendFile {
    /// Opens `path` for appending, creating it when it does not exist.
    pub fn open(path: &Path) -> std::io::Result<AppendFile> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(AppendFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// The file's path, as it was opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` whole, or not at all: on an error what was written of it is cut off
    /// (where the file can be cut: a regular file), and the error is returned.
    pub fn append(&mut self, record: &[u8]) -> std::io::Result<()> {
        let before = self.file.metadata()?.len();
        let written = self.file.write_all(record).and_then(|_| self.file.flush());
        if written.is_err() {
            let _ = self.file.set_len(before);
        }
        written
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn abandoned_writes_leave_no_temporary_file_and_finished_ones_are_forgotten() {
        let dir = std::env::temp_dir().join(format!("ckga-abandon-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("gen-00001.ckpt");
        std::fs::write(&path, "old").unwrap();
        let open = Unfinished(std::sync::Mutex::new(Vec::new()));
        let tmp = temp_name(&path);
        let mut f = open.create(&tmp).unwrap();
        f.write_all(b"half of the n").unwrap();
        assert!(tmp.exists());
        let other = dir.join(".x.tmp");
        open.create(&other).unwrap();
        open.done(&other);
        drop(open.abandon());
        assert!(
            !tmp.exists(),
            "the unfinished write's temporary file is removed"
        );
        assert!(other.exists(), "a file no longer recorded is not touched");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"old",
            "the file replaced is untouched"
        );
        assert!(open.lock().is_empty());
        // A whole write through the process's registry leaves nothing recorded of its own.
        write_atomic(&path, b"new").unwrap();
        assert!(!UNFINISHED.lock().contains(&temp_name(&path)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_append_file_grows_by_whole_records_and_says_when_one_cannot_be_written() {
        let dir = std::env::temp_dir().join(format!("ckga-append-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pdn");
        std::fs::write(&path, "before\n").unwrap();
        let mut f = AppendFile::open(&path).unwrap();
        f.append(b"one\n").unwrap();
        f.append(b"two\n").unwrap();
        assert_eq!(f.path(), path);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "before\none\ntwo\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // A device that is always full: the record is refused with the system's error.
        let full = Path::new("/dev/full");
        if full.exists() {
            let e = AppendFile::open(full).unwrap().append(b"x").unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::ENOSPC), "{e}");
        }
    }

    #[test]
    fn a_link_is_followed_and_a_device_written_into() {
        let dir = std::env::temp_dir().join(format!("ckga-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.json");
        std::fs::write(&target, "old").unwrap();
        let link = dir.join("link.json");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("target.json", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // A pipe (as a device) is written into: it stays a pipe, its reader gets the bytes.
        let fifo = dir.join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a path we own, as a C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_atomic(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        assert!(!std::fs::symlink_metadata(&fifo).unwrap().is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
