//! A session's files on disk, each written through [`crate::files::write_atomic`] but the one
//! file that grows in place, a session's history (appended, a record per generation; a
//! checkpoint names the bytes of it that belong to it, so a torn record is dropped).
//! docs/formats.md describes every file byte by byte.
//!
//! A session folder (`populations/NAME/`) holds the checkpoints `gen-NNNNN.ckpt`
//! ([`encode_checkpoint`]: the session after generation N, without its history) and the history
//! file `history.bin` ([`HISTORY_FILE`], [`decode_history`]: every generation's statistics,
//! written once). [`Checkpoints`] writes both as a session runs and prunes old checkpoints by a
//! [`Keep`] policy; [`load_checkpoint`] reads a checkpoint with its history.
//!
//! The session folder of a one-file tuner holds one checkpoint instead, written again after
//! every step: any registered tuner's (SPSA's `spsa.ckpt`, CMA-ES's `cmaes.ckpt`:
//! [`OneFileKind::file`], read by [`AnyTuner::load`]), each a [`TunerSession`] of its state.
//!
//! Every tuner's checkpoints are framed alike (file `frame`). [`locate_any`] says whose session a name,
//! folder or checkpoint file is ([`TunerKind`]) and where its checkpoint is, reading nothing but
//! names and a file's magic; [`open`] reads the session, whichever tuner's ([`Opened`]): the
//! one door every command that takes a session goes through.
//!
//! Every item is reached here, at `store::` (its files are private).
//!
//! Whichever tuner's, a session's state is the bytes of some files of its folder
//! ([`StateFiles`]: the GA's checkpoint and history file, [`ga_files`]; a one-file tuner's
//! checkpoint, [`AnyTuner::files`]), which it is read back from ([`ga_from_files`],
//! [`AnyTuner::from_files`]).
//!
//! Files, bottom up: `codec`, `frame`, `history`, `legacy`, `checkpoint`, `tuner_file`,
//! `one_file`, `state_files`, `find`.
//!
//! # Example
//!
//! ```
//! use checkers_ga::{GaState, Settings};
//! use checkers_ga::store::{load_checkpoint, session_dir, Checkpoints, Keep};
//!
//! let root = std::env::temp_dir().join(format!("ckga-doc-store-{}", std::process::id()));
//! let dir = session_dir(&root, "doc");
//! std::fs::create_dir_all(&dir).unwrap();
//! let session = GaState::new("doc", Settings::with_population(8));
//! let keep = Keep { newest: 0, every: 0 }; // keep every checkpoint
//! let mut checkpoints = Checkpoints::open(&dir, &session, keep).unwrap();
//! let path = checkpoints.save(&session).unwrap();
//! assert_eq!(load_checkpoint(&path).unwrap(), session);
//! std::fs::remove_dir_all(&root).unwrap();
//! ```

mod checkpoint;
mod codec;
mod find;
mod frame;
mod history;
mod legacy;
mod one_file;
mod state_files;
mod tuner_file;

pub use checkpoint::EncodeError;
pub use checkpoint::{
    check_checkpoint_size, decode_checkpoint, decode_checkpoint_parts, encode_checkpoint,
    largest_checkpoint, CHECKPOINT_CLOCK_VERSION, CHECKPOINT_FLIGHT_VERSION, CHECKPOINT_MAGIC,
    CHECKPOINT_VERSION,
};
pub use codec::MAX_CHECKPOINT_PAYLOAD;
pub use find::{
    decode_tuner_file, locate, locate_any, named_or_newest, newest_session, open, session_in,
    tuner_of, LocateError, Located, OpenError, Opened, SessionFiles,
};
pub use frame::{decode_frame, decode_payload, encode_parts, FrameError, FrameKind};
pub use history::{decode_history, HistoryError, HistoryLink, HistoryRecords, HISTORY_FILE};
pub use one_file::{one_file_tuner, one_file_tuners, ONE_FILE_TUNERS};
pub use one_file::{AnyTuner, FileTuner, OneFileKind, OneFileState, Start, StartFn, TunerOption};
pub use state_files::{ga_files, ga_from_files, StateFiles};
pub use tuner_file::TunerSession;
pub use tuner_file::{check_engine, ClockPart, OneFileSession, TunerHistory, TunerPoint};
/// The frame's parts, for the tests of a tuner's checkpoint that build one byte by byte.
#[cfg(test)]
pub(crate) use {
    codec::{fnv, FNV_START},
    frame::encode_frame,
};

use crate::files::{folder_of, read_bounded, write_atomic};
use std::path::{Path, PathBuf};

use crate::ga::GaState;

/// Why a checkpoint could not be read or written: one line, naming the file.
#[derive(Debug)]
pub struct CheckpointError {
    /// The checkpoint file.
    pub path: PathBuf,
    /// What is wrong with it (unreadable, truncated, wrong format or version...).
    pub problem: String,
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "checkpoint '{}': {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for CheckpointError {}

impl CheckpointError {
    /// `problem` with the file `path`.
    pub fn new(path: &Path, problem: impl Into<String>) -> CheckpointError {
        CheckpointError {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
}

/// Is `name` usable as a session folder and weight file name (no path, not hidden)?
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && name.len() <= 200
}

/// The bytes of a checkpoint file, read within the checkpoints' bound; one line naming the file
/// when it cannot be read.
pub fn read_checkpoint(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    read_bounded(path).map_err(|e| CheckpointError::new(path, format!("cannot read: {e}")))
}

/// Loads a checkpoint file with its history (from format 3 on, from the history file beside it).
pub fn load_checkpoint(path: &Path) -> Result<GaState, CheckpointError> {
    let bytes = read_checkpoint(path)?;
    let (mut session, link) = decode_checkpoint_parts(path, &bytes)?;
    if let Some(link) = link {
        let (h, b) = history::read_history(&folder_of(path), &session, link)
            .map_err(|e| CheckpointError::new(path, e.0))?;
        session.history = h.into();
        session.bests = b.into();
    }
    Ok(session)
}

/// [`load_checkpoint`], but a sound checkpoint whose history file is damaged, cut short or
/// missing still loads: with what can be saved of its history (its whole records that can
/// belong to the session) and a one-line warning that says what was lost. A checkpoint that
/// is itself unreadable is an error as before.
pub fn load_checkpoint_recovering(
    path: &Path,
) -> Result<(GaState, Option<String>), CheckpointError> {
    let bytes = read_checkpoint(path)?;
    let (mut session, link) = decode_checkpoint_parts(path, &bytes)?;
    let mut warning = None;
    if let Some(link) = link {
        let dir = folder_of(path);
        let (h, b) = match history::read_history(&dir, &session, link) {
            Ok(got) => got,
            Err(e) => {
                let (got, line) = history::recover_history(&dir, &session, &e);
                warning = Some(line);
                got
            }
        };
        session.history = h.into();
        session.bests = b.into();
    }
    Ok((session, warning))
}

/// Loads a checkpoint file without reading the history file (a checkpoint of format 3 or later comes
/// with an empty history): its population, results and best so far.
pub fn load_checkpoint_alone(path: &Path) -> Result<GaState, CheckpointError> {
    let bytes = read_checkpoint(path)?;
    decode_checkpoint(path, &bytes)
}

/// The folder of a session's checkpoints: `<root>/<name>`.
pub fn session_dir(root: &Path, name: &str) -> PathBuf {
    root.join(name)
}

/// The checkpoint file of generation `g`: `gen-NNNNN.ckpt`.
pub fn checkpoint_path(dir: &Path, g: u64) -> PathBuf {
    dir.join(format!("gen-{g:05}.ckpt"))
}

/// The file in a session folder that holds its keep policy once a run sets one (`--keep`,
/// `--keep-every`), so that a later `resume` keeps to it.
pub const KEEP_FILE: &str = "keep";

/// Which checkpoints a session folder keeps: the newest `newest` (by generation) and those of
/// every generation that is a multiple of `every` (0 = none of those); `newest` 0 keeps all.
/// The history file keeps every generation's statistics whatever is pruned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Keep the newest this many checkpoints (0 = all).
    pub newest: usize,
    /// Also keep those of generations that are a multiple of this (0 = none).
    pub every: u64,
}

impl Keep {
    /// Every checkpoint.
    pub const ALL: Keep = Keep {
        newest: 0,
        every: 0,
    };

    /// The default of `new` and `resume`: the newest 10 and every 100th generation, so a
    /// long session's folder grows by a checkpoint per 100 generations (README, "Files").
    pub const DEFAULT: Keep = Keep {
        newest: 10,
        every: 100,
    };

    /// The text of the session folder's [`KEEP_FILE`]: `NEWEST EVERY` and a newline.
    pub fn to_text(&self) -> String {
        format!("{} {}\n", self.newest, self.every)
    }

    /// Reads [`Keep::to_text`]'s form; None if it is not two numbers.
    pub fn parse(text: &str) -> Option<Keep> {
        let mut it = text.split_whitespace();
        let newest = it.next()?.parse().ok()?;
        let every = it.next()?.parse().ok()?;
        it.next().is_none().then_some(Keep { newest, every })
    }

    /// The checkpoints of `dir` this policy removes, `written` (just written) never among them.
    pub fn pruned(&self, dir: &Path, written: &Path) -> Vec<PathBuf> {
        if self.newest == 0 {
            return Vec::new();
        }
        let mut all = list_checkpoints(dir);
        sort_by_generation(&mut all);
        let old = all.len().saturating_sub(self.newest);
        all.truncate(old);
        all.retain(|p| {
            let g = checkpoint_generation(p);
            p != written && !(self.every > 0 && g.is_some_and(|g| g.is_multiple_of(self.every)))
        });
        all
    }
}

/// Writes a running session's files into its folder: each generation's history record, then its
/// checkpoint, then prunes old checkpoints.
pub struct Checkpoints {
    dir: PathBuf,
    history: history::HistoryWriter,
    keep: Keep,
}

impl Checkpoints {
    /// Opens the folder of a session that is at `session`'s generation: creates it, and makes
    /// its history file hold exactly `session`'s history: a file that holds more (records of
    /// generations whose checkpoint was never written, a torn record) is cut back; one that
    /// holds less is completed; one that holds another history is set aside as
    /// `history.bin.superseded-N` and written anew.
    pub fn open(dir: &Path, session: &GaState, keep: Keep) -> Result<Checkpoints, CheckpointError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CheckpointError::new(dir, format!("cannot create folder: {e}")))?;
        let history = history::HistoryWriter::open(dir, session).map_err(|e| {
            CheckpointError::new(
                &dir.join(HISTORY_FILE),
                format!("cannot write the history file: {e}"),
            )
        })?;
        Ok(Checkpoints {
            dir: dir.to_path_buf(),
            history,
            keep,
        })
    }

    /// Appends the generations of the history not yet written, then writes the session's
    /// checkpoint (temp, sync, rename) and removes the checkpoints the keep policy drops.
    /// Returns the checkpoint written.
    pub fn save(&mut self, session: &GaState) -> Result<PathBuf, CheckpointError> {
        let path = checkpoint_path(&self.dir, session.generation);
        self.history.append(session).map_err(|e| {
            CheckpointError::new(
                self.history.path(),
                format!("cannot write the history file: {e}"),
            )
        })?;
        let bytes = checkpoint::encode_with_link(session, self.history.link())
            .map_err(|e| CheckpointError::new(&path, e.0))?;
        write_atomic(&path, &bytes)
            .map_err(|e| CheckpointError::new(&path, format!("cannot write: {e}")))?;
        for old in self.keep.pruned(&self.dir, &path) {
            let _ = std::fs::remove_file(old);
        }
        Ok(path)
    }
}

/// Writes the session's checkpoint into `dir` with its history (the folder's history file is
/// made to hold exactly the session's history) and prunes by `keep`. Returns the file written.
pub fn save_checkpoint(
    dir: &Path,
    session: &GaState,
    keep: Keep,
) -> Result<PathBuf, CheckpointError> {
    Checkpoints::open(dir, session, keep)?.save(session)
}

/// The checkpoint files (`gen-*.ckpt`) of one session folder, in no particular order.
pub fn list_checkpoints(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("gen-") && n.ends_with(".ckpt"))
        })
        .collect()
}

/// Removes temporary files left by an interrupted write in a session folder.
pub fn remove_stale_temp_files(dir: &Path) {
    remove_temp_files(dir, ".");
}

/// Removes temporary files left by an interrupted [`write_atomic`] of `file` in `dir`.
pub fn remove_stale_temp_files_of(dir: &Path, file: &str) {
    remove_temp_files(dir, &format!(".{file}."));
}

/// Removes `dir`'s files named `PREFIX*.tmp` (the temporary names of [`write_atomic`]).
fn remove_temp_files(dir: &Path, prefix: &str) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.filter_map(|e| e.ok()) {
            let p = e.path();
            if p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".tmp"))
            {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// Sorts checkpoint paths by generation number (names alone misorder gen-100000 and up).
pub fn sort_by_generation(paths: &mut [PathBuf]) {
    paths.sort_by_key(|p| (checkpoint_generation(p), p.clone()));
}

/// The generation number in a checkpoint file name `gen-NNNNN.ckpt`.
pub fn checkpoint_generation(path: &Path) -> Option<u64> {
    path.file_name()?
        .to_str()?
        .strip_prefix("gen-")?
        .strip_suffix(".ckpt")?
        .parse()
        .ok()
}

/// Renames the checkpoints of `dir` beyond generation `g` to `*.ckpt.superseded-N`, N the
/// first number not yet used for that file (so a second branch never overwrites the first
/// one's), and copies the history file they go with to `history.bin.superseded-N`; returns the
/// checkpoints.
pub fn set_aside_newer(dir: &Path, g: u64) -> std::io::Result<Vec<PathBuf>> {
    let mut moved = Vec::new();
    for p in list_checkpoints(dir) {
        if checkpoint_generation(&p).is_some_and(|n| n > g) {
            let to = (1u32..)
                .map(|k| {
                    let mut t = p.clone().into_os_string();
                    t.push(format!(".superseded-{k}"));
                    PathBuf::from(t)
                })
                .find(|t| !t.exists())
                .unwrap_or_else(|| p.with_extension("superseded"));
            std::fs::rename(&p, &to)?;
            moved.push(p);
        }
    }
    if !moved.is_empty() {
        history::set_aside_copy(dir)?;
    }
    Ok(moved)
}

/// Candidate checkpoints to resume from, best first: in one session folder by generation
/// (highest first); under a root of several sessions, each session's newest by modification
/// time (newest first), then the older generations.
pub fn resume_candidates(dir_or_root: &Path) -> Vec<PathBuf> {
    let mut direct = list_checkpoints(dir_or_root);
    if !direct.is_empty() {
        sort_by_generation(&mut direct);
        direct.reverse();
        return direct;
    }
    let mut all: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir_or_root) {
        for e in rd.filter_map(|e| e.ok()) {
            if e.path().is_dir() {
                for p in list_checkpoints(&e.path()) {
                    let t = std::fs::metadata(&p)
                        .and_then(|m| m.modified())
                        .unwrap_or(std::time::UNIX_EPOCH);
                    all.push((t, p));
                }
            }
        }
    }
    all.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(checkpoint_generation(&b.1).cmp(&checkpoint_generation(&a.1)))
    });
    all.into_iter().map(|x| x.1).collect()
}

/// The tuner a session belongs to, told by its files: the GA's checkpoints `gen-NNNNN.ckpt`
/// (magic [`CHECKPOINT_MAGIC`]), or a registered one-file tuner's one checkpoint
/// ([`OneFileKind::file`], told by its [`OneFileKind::magic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TunerKind {
    /// `checkers-ga new`'s population tuners: the genetic algorithm (every selection), the
    /// fit alone and the mean ([`crate::ga::Method`]).
    Ga,
    /// A one-file tuner ([`one_file_tuners`]: `checkers-ga spsa`, `checkers-ga cmaes`).
    OneFile(&'static OneFileKind),
}

impl TunerKind {
    /// The tuner's name as sessions' lines give it: `GA`, `SPSA`, `CMA-ES`.
    pub fn name(self) -> &'static str {
        match self {
            TunerKind::Ga => "GA",
            TunerKind::OneFile(k) => k.label,
        }
    }

    /// Its name with its article, as a sentence says it: `a GA`, `an SPSA`, `a CMA-ES`.
    pub fn a_name(self) -> &'static str {
        match self {
            TunerKind::Ga => "a GA",
            TunerKind::OneFile(k) => k.a_label,
        }
    }

    /// Its command name, as `--tuner` and `tune-sim --tuner` take it: `ga`, `spsa`, `cmaes`.
    pub fn command(self) -> &'static str {
        match self {
            TunerKind::Ga => "ga",
            TunerKind::OneFile(k) => k.name,
        }
    }

    /// The registered one-file tuner of this command name (`spsa`, `cmaes`).
    ///
    /// # Panics
    /// When no tuner of that name is registered (a test's or a default's typo).
    pub fn one_file(name: &str) -> TunerKind {
        TunerKind::OneFile(one_file_tuner(name).expect("a registered one-file tuner"))
    }
}

/// By its command name ([`TunerKind::command`]), as the tuning simulator's lines and
/// `--tuner` give it.
impl std::fmt::Display for TunerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.command())
    }
}

#[cfg(test)]
mod tests {
    use super::{locate_any, newest_session, session_in, tuner_of, Keep, SessionFiles, TunerKind};
    use std::path::Path;

    #[test]
    fn a_session_of_either_tuner_is_found_by_name_folder_or_file() {
        let root = std::env::temp_dir().join(format!("ckga-locate-any-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (ga, spsa, empty) = (root.join("ga"), root.join("sp"), root.join("none"));
        for d in [&ga, &spsa, &empty] {
            std::fs::create_dir_all(d).unwrap();
        }
        for g in [2, 10, 9] {
            std::fs::write(ga.join(format!("gen-{g:05}.ckpt")), b"CKGACKPT").unwrap();
        }
        std::fs::write(spsa.join("spsa.ckpt"), b"CKGASPSA").unwrap();
        let weights = root.join("w.json");
        std::fs::write(&weights, b"{\"weights\": []}").unwrap();
        let at = |tuner, dir: &Path, file: &str| SessionFiles {
            tuner,
            dir: dir.to_path_buf(),
            checkpoint: dir.join(file),
        };
        let newest_ga = at(TunerKind::Ga, &ga, "gen-00010.ckpt");
        let the_spsa = at(TunerKind::one_file("spsa"), &spsa, "spsa.ckpt");
        let s = |p: &Path| p.to_str().unwrap().to_string();
        assert_eq!(session_in(&ga), Some(newest_ga.clone()));
        assert_eq!(session_in(&spsa), Some(the_spsa.clone()));
        assert_eq!(session_in(&empty), None);
        assert_eq!(locate_any("ga", &root), Some(newest_ga.clone()));
        assert_eq!(locate_any(&s(&ga), &root), Some(newest_ga));
        assert_eq!(locate_any("sp", &root), Some(the_spsa.clone()));
        assert_eq!(locate_any(&s(&spsa), &root), Some(the_spsa.clone()));
        let file = ga.join("gen-00002.ckpt");
        assert_eq!(
            locate_any(&s(&file), &root),
            Some(at(TunerKind::Ga, &ga, "gen-00002.ckpt"))
        );
        assert_eq!(
            locate_any(&s(&the_spsa.checkpoint), &root),
            Some(the_spsa.clone())
        );
        for nothing in ["none", "missing", "", "../ga", &s(&weights), &s(&empty)] {
            assert_eq!(locate_any(nothing, &root), None, "{nothing:?}");
        }
        // Whose session: the GA's unless it is SPSA's.
        assert_eq!(
            tuner_of(Some("sp"), &root),
            (
                TunerKind::one_file("spsa"),
                Some(the_spsa.checkpoint.clone())
            )
        );
        assert_eq!(tuner_of(Some("ga"), &root), (TunerKind::Ga, None));
        assert_eq!(tuner_of(Some("missing"), &root), (TunerKind::Ga, None));
        // With no name, the session written last, whichever tuner's.
        let written = |p: &Path, s: u64| {
            let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(s);
            let f = std::fs::File::options().write(true).open(p).unwrap();
            f.set_modified(t).unwrap();
        };
        written(&ga.join("gen-00010.ckpt"), 2_000_000);
        written(&the_spsa.checkpoint, 1_000_000);
        assert_eq!(newest_session(&root).map(|s| s.tuner), Some(TunerKind::Ga));
        assert_eq!(tuner_of(None, &root), (TunerKind::Ga, None));
        written(&the_spsa.checkpoint, 3_000_000);
        assert_eq!(newest_session(&root), Some(the_spsa.clone()));
        assert_eq!(
            tuner_of(None, &root),
            (
                TunerKind::one_file("spsa"),
                Some(the_spsa.checkpoint.clone())
            )
        );
        // A session's own folder is its own newest session.
        assert_eq!(newest_session(&spsa), Some(the_spsa));
        assert_eq!(newest_session(&empty), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn keep_policies_read_back_and_bad_text_is_refused() {
        for k in [
            Keep::ALL,
            Keep::DEFAULT,
            Keep {
                newest: 5,
                every: 0,
            },
        ] {
            assert_eq!(Keep::parse(&k.to_text()), Some(k));
        }
        for bad in ["", "10", "10 x", "-1 100", "10 100 3"] {
            assert_eq!(Keep::parse(bad), None, "{bad:?}");
        }
    }
}
