//! A session's state as the files of its folder hold it ([`StateFiles`]), whichever tuner's:
//! what a session's tuner encodes its state to and decodes it from (`crate::SessionTuner`'s
//! `encode` and `decode`). The GA's are two files, the checkpoint of its generation and the
//! history file whose bytes that checkpoint names ([`ga_files`], [`ga_from_files`]); a one-file
//! tuner's is one, its checkpoint ([`AnyTuner::files`], [`AnyTuner::from_files`]).

use super::checkpoint::{decode_checkpoint_parts, encode_with_link};
use super::history::{decode_history, history_bytes, validate_history, HISTORY_FILE};
use super::{checkpoint_path, AnyTuner, CheckpointError, HistoryLink, TunerSession};
use crate::files::write_atomic;
use crate::ga::GaState;
use std::path::{Path, PathBuf};

/// A session's state as the files of its folder hold it: each file (its name in the folder,
/// or a path) and its bytes, the checkpoint first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateFiles(Vec<(PathBuf, Vec<u8>)>);

impl StateFiles {
    /// The checkpoint `checkpoint` and the files `with` it (`(file, bytes)`).
    pub fn new(checkpoint: (PathBuf, Vec<u8>), with: Vec<(PathBuf, Vec<u8>)>) -> StateFiles {
        StateFiles(std::iter::once(checkpoint).chain(with).collect())
    }

    /// The checkpoint at `path` and the files of these `names` beside it, as they are on
    /// disk (a file that cannot be read is left out); one line when the checkpoint cannot be
    /// read.
    pub fn read(path: &Path, names: &[&str]) -> Result<StateFiles, CheckpointError> {
        let bytes = super::read_checkpoint(path)?;
        let dir = crate::files::folder_of(path);
        let with = (names.iter())
            .map(|n| dir.join(n))
            .filter_map(|p| Some((p.clone(), std::fs::read(&p).ok()?)))
            .collect();
        Ok(StateFiles::new((path.to_path_buf(), bytes), with))
    }

    /// The checkpoint: its file and bytes.
    pub fn checkpoint(&self) -> (&Path, &[u8]) {
        let (p, b) = &self.0[0];
        (p, b)
    }

    /// The bytes of the file whose name is `name`, if it is one of them.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        (self.0.iter())
            .find(|(p, _)| p.file_name().is_some_and(|n| n == name))
            .map(|(_, b)| b.as_slice())
    }

    /// Every file and its bytes, the checkpoint first.
    pub fn iter(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        self.0.iter().map(|(p, b)| (p.as_path(), b.as_slice()))
    }

    /// Writes every file into folder `dir` by its name (temp name, sync, rename), the
    /// checkpoint last, so that it never names bytes not yet written; the checkpoint's path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, CheckpointError> {
        let at = |p: &Path| dir.join(p.file_name().unwrap_or(p.as_os_str()));
        for (p, b) in self.0.iter().skip(1).chain(self.0.first()) {
            let path = at(p);
            write_atomic(&path, b)
                .map_err(|e| CheckpointError::new(&path, format!("cannot write: {e}")))?;
        }
        Ok(at(&self.0[0].0))
    }
}

/// A GA session as its folder holds it after its generation: that generation's checkpoint and
/// the history file, the checkpoint naming all of it (the bytes a running session's
/// [`super::Checkpoints`] leaves, appending to the history file a record at a time); one line
/// when it does not fit a checkpoint.
pub fn ga_files(session: &GaState) -> Result<StateFiles, String> {
    let history = history_bytes(&session.history, &session.bests);
    let checkpoint = encode_with_link(session, HistoryLink::of(&history)).map_err(|e| e.0)?;
    let file = checkpoint_path(Path::new(""), session.generation);
    Ok(StateFiles::new(
        (file, checkpoint),
        vec![(PathBuf::from(HISTORY_FILE), history)],
    ))
}

/// The GA session that `files` hold ([`ga_files`]): the checkpoint, with the history its
/// link names read from the history file among them (a checkpoint of formats 1 and 2 holds its
/// own). One line naming the file that is not sound: the checkpoint, or a history file that is
/// missing, holds other bytes than the checkpoint names or does not fit the session.
pub fn ga_from_files(files: &StateFiles) -> Result<GaState, CheckpointError> {
    let (path, bytes) = files.checkpoint();
    let (mut session, link) = decode_checkpoint_parts(path, bytes)?;
    let Some(link) = link else {
        return Ok(session);
    };
    let history = crate::files::folder_of(path).join(HISTORY_FILE);
    let fail = |why: String| CheckpointError::new(path, format!("history file: {why}"));
    let all = (files.get(HISTORY_FILE)).ok_or_else(|| fail("missing".into()))?;
    let part = usize::try_from(link.len)
        .ok()
        .and_then(|n| all.get(..n))
        .filter(|part| HistoryLink::of(part) == link)
        .ok_or_else(|| fail("does not hold the bytes this checkpoint names".into()))?;
    let (h, b) = decode_history(part, &history.display().to_string()).map_err(|e| fail(e.0))?;
    validate_history(&session, &h, &b).map_err(fail)?;
    session.history = h.into();
    session.bests = b.into();
    Ok(session)
}

impl AnyTuner {
    /// Session `name`'s checkpoint, whose answer is also written to `out`: its one file; one
    /// line when the state does not fit a checkpoint.
    pub fn files(&self, name: &str, out: Option<&Path>) -> Result<StateFiles, String> {
        let bytes = self.encode(name, out)?;
        Ok(StateFiles::new(
            (self.kind().file.into(), bytes),
            Vec::new(),
        ))
    }

    /// The session that `files` hold ([`AnyTuner::files`]), read as [`AnyTuner::load`] reads
    /// its checkpoint.
    pub fn from_files(files: &StateFiles) -> Result<TunerSession<AnyTuner>, CheckpointError> {
        let (path, bytes) = files.checkpoint();
        AnyTuner::decode(path, bytes)
    }
}
