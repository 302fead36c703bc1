//! The history file, `history.bin` in a session folder: every generation's statistics written
//! once, appended as the session runs, so the disk a session uses grows linearly with its
//! length (checkpoints of format 2 repeated the whole history in every file).
//!
//! Layout: magic `CKGAHIST`, format version (u32 LE), then one record per generation: its
//! length (u32 LE, at most [`MAX_RECORD`]) and the record in bincode 2 (standard
//! configuration): the generation's [`GenerationStats`] and, when the best so far changed in
//! that generation, its weights; then, when the tournament had faults or a clock, the
//! faults (a varint), and with a clock what its games did with it ([`crate::TimeUse`]).
//!
//! Recovery rules. A checkpoint names the bytes of the history file that belong to it (their
//! length and FNV-1a checksum), so bytes after them are ignored when it is read. A session
//! appends a generation's record (written, then synced) before it writes that generation's
//! checkpoint (temp name, synced, renamed), and a session that continues from a checkpoint first
//! cuts the file back to that checkpoint's bytes: a record torn by a crash, or written for a
//! generation whose checkpoint never appeared, is dropped. Bytes that belong to a checkpoint are
//! never rewritten in place: a file that does not continue the session being written is set
//! aside as `history.bin.superseded-N` and a new one is written (temp, sync, rename); so is a
//! copy when `resume` sets aside newer checkpoints, so each can still be read. A file damaged
//! past those rules does not strand a sound checkpoint: [`recover_history`] keeps its whole
//! records that can belong to the session and says what was lost.

pub use super::codec::HistoryLink;
use super::codec::{decode_config, fnv, FNV_START};
use crate::clock::TimeUse;
use crate::eval::{Weights, MAX_WEIGHTS};
use crate::ga::{GaState, GenerationStats};
use crate::matchplay::Wdl;
use crate::openings::ballot;
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The history file's name in a session folder.
pub const HISTORY_FILE: &str = "history.bin";
/// The first bytes of a history file.
pub const HISTORY_MAGIC: &[u8; 8] = b"CKGAHIST";
/// The history file format this build writes and reads.
pub const HISTORY_VERSION: u32 = 1;
/// Magic and version.
pub const HISTORY_HEADER_LEN: usize = 12;
/// The longest record: the statistics (under 100 bytes) and a best so far's weights, each
/// weight at most 3 bytes (a varint), the largest set (`board:32`, 4,258 weights) included.
pub const MAX_RECORD: usize = 1024 + 3 * MAX_WEIGHTS;

/// A session's history as read: the statistics of every generation, and the best so far each
/// time it changed (see [`GaState::bests`]).
pub type HistoryRecords = (Vec<GenerationStats>, Vec<(u64, Weights)>);

#[derive(Serialize)]
struct RecordRef<'a> {
    stats: &'a GenerationStats,
    best: Option<&'a Weights>,
}

#[derive(Deserialize)]
struct Record {
    stats: GenerationStats,
    best: Option<Weights>,
}

fn header() -> [u8; HISTORY_HEADER_LEN] {
    let mut h = [0u8; HISTORY_HEADER_LEN];
    h[..8].copy_from_slice(HISTORY_MAGIC);
    h[8..].copy_from_slice(&HISTORY_VERSION.to_le_bytes());
    h
}

/// One record with its length in front.
fn record_bytes(stats: &GenerationStats, best: Option<&Weights>) -> Vec<u8> {
    let r = RecordRef { stats, best };
    let mut payload = bincode::serde::encode_to_vec(&r, bincode::config::standard())
        .expect("a history record always encodes");
    if stats.faults > 0 || stats.time.is_some() {
        payload.extend(
            bincode::serde::encode_to_vec(stats.faults, bincode::config::standard())
                .expect("a count always encodes"),
        );
    }
    if let Some(t) = &stats.time {
        payload.extend(
            bincode::serde::encode_to_vec(t, bincode::config::standard())
                .expect("counts always encode"),
        );
    }
    debug_assert!(payload.len() <= MAX_RECORD, "{} bytes", payload.len());
    let mut out = Vec::with_capacity(4 + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The weights of `bests` changed in `generation`, if any (`bests` rising by generation; `from`
/// is where to look from, moved past what was looked at).
fn best_of(bests: &[(u64, Weights)], from: &mut usize, generation: u64) -> Option<Weights> {
    while *from < bests.len() && bests[*from].0 < generation {
        *from += 1;
    }
    let hit = bests.get(*from).filter(|(g, _)| *g == generation);
    hit.map(|(_, w)| *w)
}

/// The history file as it is after `history` (with the best-so-far changes of `bests`).
pub fn history_bytes(history: &[GenerationStats], bests: &[(u64, Weights)]) -> Vec<u8> {
    let mut out = header().to_vec();
    let mut at = 0;
    for h in history {
        let best = best_of(bests, &mut at, h.generation);
        out.extend_from_slice(&record_bytes(h, best.as_ref()));
    }
    out
}

/// The history file of `dir` and the copies set aside from it, the file itself first.
fn candidates(dir: &Path) -> Vec<PathBuf> {
    let mut aside: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let n = e.file_name().to_str()?.to_string();
                    let k = n
                        .strip_prefix(HISTORY_FILE)?
                        .strip_prefix(".superseded-")?
                        .parse()
                        .ok()?;
                    Some((k, e.path()))
                })
                .collect()
        })
        .unwrap_or_default();
    aside.sort();
    std::iter::once(dir.join(HISTORY_FILE))
        .chain(aside.into_iter().map(|(_, p)| p))
        .collect()
}

/// Does the file at `p` start with the bytes of `link`?
fn matches(p: &Path, link: HistoryLink) -> std::io::Result<bool> {
    let f = std::fs::File::open(p)?;
    if f.metadata()?.len() < link.len {
        return Ok(false);
    }
    let mut r = std::io::BufReader::new(f).take(link.len);
    let mut sum = FNV_START;
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        sum = fnv(sum, &buf[..n]);
    }
    Ok(sum == link.sum)
}

/// Reads the records of the first `len` bytes of the file at `p`.
fn read_records(p: &Path, len: u64) -> Result<HistoryRecords, String> {
    let f = std::fs::File::open(p).map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
    parse_records(std::io::BufReader::new(f), len, &p.display().to_string())
}

/// Reads the records of a whole history file held in `bytes` (the part a checkpoint goes with);
/// `name` names it in errors. Records are not checked against a session (as
/// [`super::load_checkpoint`] checks them).
pub fn decode_history(bytes: &[u8], name: &str) -> Result<HistoryRecords, HistoryError> {
    decode_history_text(bytes, name).map_err(HistoryError)
}

/// Why a history file could not be read or does not fit its checkpoint: one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HistoryError(pub String);

fn decode_history_text(bytes: &[u8], name: &str) -> Result<HistoryRecords, String> {
    parse_records(bytes, bytes.len() as u64, name)
}

/// Reads the records of the first `len` bytes of `r`: each record's length is checked before
/// its bytes are read, and each record is decoded with the size-limited configuration.
fn parse_records<R: Read>(r: R, len: u64, shown: &str) -> Result<HistoryRecords, String> {
    let mut history = (Vec::new(), Vec::new());
    parse_into(r, len, shown, &mut history)?;
    Ok(history)
}

/// [`parse_records`] into `out`, which keeps every whole record read before an error.
fn parse_into<R: Read>(
    r: R,
    len: u64,
    shown: &str,
    out: &mut HistoryRecords,
) -> Result<(), String> {
    let (history, bests) = out;
    let mut r = r.take(len);
    if len < HISTORY_HEADER_LEN as u64 {
        return Err(format!("history file '{shown}': truncated header"));
    }
    let mut head = [0u8; HISTORY_HEADER_LEN];
    r.read_exact(&mut head)
        .map_err(|_| format!("history file '{shown}': truncated header"))?;
    if &head[..8] != HISTORY_MAGIC {
        return Err(format!("history file '{shown}': wrong magic"));
    }
    let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    if version != HISTORY_VERSION {
        return Err(format!(
            "history file '{shown}': format version {version}, this build reads {HISTORY_VERSION}"
        ));
    }
    let mut left = len - HISTORY_HEADER_LEN as u64;
    let mut buf = Vec::with_capacity(MAX_RECORD);
    while left > 0 {
        let n = history.len() + 1;
        let mut l = [0u8; 4];
        r.read_exact(&mut l)
            .map_err(|_| format!("history file '{shown}': record {n} is torn"))?;
        let l = u32::from_le_bytes(l) as usize;
        if l > MAX_RECORD {
            return Err(format!(
                "history file '{shown}': record {n} has a bad length ({l})"
            ));
        }
        if l as u64 + 4 > left {
            return Err(format!(
                "history file '{shown}': record {n} is torn ({l} bytes, {} left)",
                left - 4
            ));
        }
        buf.resize(l, 0);
        r.read_exact(&mut buf)
            .map_err(|_| format!("history file '{shown}': record {n} is torn"))?;
        let (mut rec, mut used): (Record, usize) =
            bincode::serde::decode_from_slice(&buf, decode_config())
                .map_err(|e| format!("history file '{shown}': record {n}: {e}"))?;
        if used < l {
            // An outside engine's faults in the generation.
            let (faults, more): (u32, usize) =
                bincode::serde::decode_from_slice(&buf[used..], decode_config())
                    .map_err(|e| format!("history file '{shown}': record {n}: {e}"))?;
            rec.stats.faults = faults;
            used += more;
        }
        if used < l {
            // On a clock: what the generation's games did with it.
            let (time, more): (TimeUse, usize) =
                bincode::serde::decode_from_slice(&buf[used..], decode_config())
                    .map_err(|e| format!("history file '{shown}': record {n}: {e}"))?;
            rec.stats.time = Some(time);
            used += more;
        }
        if used != l {
            return Err(format!(
                "history file '{shown}': record {n} has unused bytes"
            ));
        }
        if let Some(w) = rec.best {
            bests.push((rec.stats.generation, w));
        }
        history.push(rec.stats);
        left -= l as u64 + 4;
    }
    Ok(())
}

/// Reads the history a checkpoint of `session` goes with from the history file of `dir` (or a
/// copy set aside from it), and checks it.
pub fn read_history(
    dir: &Path,
    session: &GaState,
    link: HistoryLink,
) -> Result<HistoryRecords, HistoryError> {
    read_history_text(dir, session, link).map_err(HistoryError)
}

fn read_history_text(
    dir: &Path,
    session: &GaState,
    link: HistoryLink,
) -> Result<HistoryRecords, String> {
    let main = dir.join(HISTORY_FILE);
    if link.len < HISTORY_HEADER_LEN as u64 {
        return Err(format!(
            "names {} bytes of its history file, less than its header",
            link.len
        ));
    }
    for p in candidates(dir) {
        if matches(&p, link).unwrap_or(false) {
            let (history, bests) = read_records(&p, link.len)?;
            validate_history(session, &history, &bests)
                .map_err(|e| format!("history file '{}': {e}", p.display()))?;
            return Ok((history, bests));
        }
    }
    let why = match std::fs::metadata(&main) {
        Err(_) => "is missing (a checkpoint of format 3 keeps its history there)".to_string(),
        Ok(m) if m.len() < link.len => format!(
            "holds {} bytes, fewer than the {} this checkpoint goes with",
            m.len(),
            link.len
        ),
        Ok(_) => "does not match this checkpoint (it holds another run's history)".to_string(),
    };
    Err(format!("history file '{}' {why}", main.display()))
}

/// What can be saved of the history file of `dir` when it does not fit a sound checkpoint of
/// `session` (`why`: the reason, from [`read_history`]): its whole records from the start that
/// continue `session` (generations rising, none past the session's), with one line for the
/// user that says what was lost. Nothing is written: a session that goes on from here sets the
/// file aside and writes the history anew ([`HistoryWriter::open`]).
pub fn recover_history(
    dir: &Path,
    session: &GaState,
    why: &HistoryError,
) -> (HistoryRecords, String) {
    let main = dir.join(HISTORY_FILE);
    let mut got: HistoryRecords = (Vec::new(), Vec::new());
    if let Ok(f) = std::fs::File::open(&main) {
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = parse_into(std::io::BufReader::new(f), len, "", &mut got);
    }
    let (mut history, mut bests) = got;
    // Only a prefix that could belong to this session: generations rising, none past it.
    let mut keep = 0;
    let mut last = 0;
    for h in &history {
        if h.generation <= last || h.generation > session.generation {
            break;
        }
        last = h.generation;
        keep += 1;
    }
    history.truncate(keep);
    // And of those, the longest prefix whose records a run could have written.
    while validate_history(session, &history, &bests).is_err() {
        if history.is_empty() {
            bests.clear();
            break;
        }
        history.pop();
        let last = history.last().map_or(0, |h| h.generation);
        bests.retain(|(g, _)| *g <= last);
    }
    let kept = match history.last() {
        Some(h) => format!("generations 1 to {} kept", h.generation),
        None => "nothing kept".to_string(),
    };
    let lost = session.generation - history.last().map_or(0, |h| h.generation);
    let line = format!(
        "warning: {why}: the statistics of {lost} generation(s) are lost ({kept}); the \
         checkpoint itself is sound and the session goes on from it"
    );
    ((history, bests), line)
}

/// The first name `history.bin.superseded-N` not yet used in `dir`.
fn aside_name(dir: &Path) -> PathBuf {
    (1u32..)
        .map(|k| dir.join(format!("{HISTORY_FILE}.superseded-{k}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{HISTORY_FILE}.superseded")))
}

/// Copies the history file of `dir` (if there is one) to `history.bin.superseded-N`.
pub fn set_aside_copy(dir: &Path) -> std::io::Result<Option<PathBuf>> {
    let main = dir.join(HISTORY_FILE);
    let bytes = match std::fs::read(&main) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let to = aside_name(dir);
    crate::files::write_atomic(&to, &bytes)?;
    Ok(Some(to))
}

/// Appends a session's generations to the history file of its folder.
pub struct HistoryWriter {
    path: PathBuf,
    file: std::fs::File,
    len: u64,
    sum: u64,
    /// History entries of the session in the file.
    records: usize,
}

impl HistoryWriter {
    /// Makes the history file of `dir` hold exactly `session`'s history and opens it for
    /// appending: a file that holds more (records of generations whose checkpoint was never
    /// written, a torn record) is cut back; one that holds less is completed; one that holds
    /// another history is set aside as `history.bin.superseded-N` and written anew.
    pub fn open(dir: &Path, session: &GaState) -> std::io::Result<HistoryWriter> {
        let want = history_bytes(&session.history, &session.bests);
        let path = dir.join(HISTORY_FILE);
        let have = match std::fs::File::open(&path) {
            Ok(f) => {
                let size = f.metadata()?.len();
                let mut head = Vec::new();
                f.take(want.len() as u64).read_to_end(&mut head)?;
                Some((size, head))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let agrees = |head: &[u8]| want.starts_with(head);
        match have {
            Some((size, head)) if agrees(&head) && size > 0 => {
                // The file continues this history: cut it back or complete it.
                let mut f = std::fs::OpenOptions::new().write(true).open(&path)?;
                if size as usize > want.len() || (head.len() as u64) < size {
                    f.set_len(want.len() as u64)?;
                }
                if head.len() < want.len() {
                    f.seek(SeekFrom::Start(head.len() as u64))?;
                    f.write_all(&want[head.len()..])?;
                    f.set_len(want.len() as u64)?;
                }
                f.sync_all()?;
            }
            Some((size, _)) => {
                if size > 0 {
                    set_aside_copy(dir)?;
                }
                crate::files::write_atomic(&path, &want)?;
            }
            None => crate::files::write_atomic(&path, &want)?,
        }
        let mut file = std::fs::OpenOptions::new().write(true).open(&path)?;
        file.seek(SeekFrom::Start(want.len() as u64))?;
        let link = HistoryLink::of(&want);
        Ok(HistoryWriter {
            path,
            file,
            len: link.len,
            sum: link.sum,
            records: session.history.len(),
        })
    }

    /// Appends the generations of `session`'s history not yet in the file, and syncs it.
    pub fn append(&mut self, session: &GaState) -> std::io::Result<()> {
        let new = session.history.get(self.records..).unwrap_or_default();
        if new.is_empty() {
            return Ok(());
        }
        let first = new[0].generation;
        let from = session.bests.partition_point(|(g, _)| *g < first);
        let mut at = 0;
        let bests = &session.bests[from..];
        let mut bytes = Vec::new();
        for h in new {
            let best = best_of(bests, &mut at, h.generation);
            bytes.extend_from_slice(&record_bytes(h, best.as_ref()));
        }
        self.file.write_all(&bytes)?;
        self.file.sync_data()?;
        self.len += bytes.len() as u64;
        self.sum = fnv(self.sum, &bytes);
        self.records = session.history.len();
        Ok(())
    }

    /// The bytes written so far: what a checkpoint of the session goes with.
    pub fn link(&self) -> HistoryLink {
        HistoryLink {
            len: self.len,
            sum: self.sum,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Checks a session's history and best-so-far changes: generations rising, none beyond the
/// session's; measurements no longer than a measurement can be; the changes' weights in the
/// session's parameter set or one it widened from.
pub(super) fn validate_history(
    s: &GaState,
    history: &[GenerationStats],
    bests: &[(u64, Weights)],
) -> Result<(), String> {
    let most = 2 * ballot().len() as u64;
    let mut prev = 0u64;
    for h in history {
        if h.generation <= prev || h.generation > s.generation {
            return Err(format!(
                "history entry of generation {} is out of order (session at generation {})",
                h.generation, s.generation
            ));
        }
        prev = h.generation;
        if let Some(m) = h.measure {
            if Wdl::games(&m) > most {
                return Err(format!(
                    "the measurement of generation {} counts more than {most} games",
                    h.generation
                ));
            }
        }
    }
    let mut prev = 0u64;
    let set = s.settings.ga.params;
    for (g, w) in bests {
        if *g <= prev || *g > s.generation {
            return Err(format!(
                "best so far of generation {g} is out of order (session at generation {})",
                s.generation
            ));
        }
        prev = *g;
        if w.widen(set).is_none() {
            return Err(format!(
                "best so far of generation {g} holds {} weights in a {set} session",
                w.set()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::ParamSet;

    /// A best so far of the largest set with every weight at its widest encoding (a session of
    /// `board:32` wrote 4,433-byte records that the old 4,096-byte bound refused to read back).
    #[test]
    fn the_largest_best_so_far_reads_back() {
        let set: ParamSet = "board:32".parse().unwrap();
        assert_eq!(set.len(), MAX_WEIGHTS);
        let mut w = Weights::zero_of(set);
        w.values_mut().fill(i16::MIN);
        let stats = GenerationStats {
            generation: u64::MAX,
            best: u32::MAX,
            mean: f64::MAX,
            min: u32::MAX,
            diversity: 1.0,
            duel: Some(crate::ga::Duel {
                challenger: u32::MAX,
                holder: u32::MAX,
                replaced: true,
            }),
            games: u32::MAX,
            plies: u64::MAX,
            seconds: f64::MAX,
            measure: Some(Wdl {
                wins: u32::MAX,
                draws: u32::MAX,
                losses: u32::MAX,
            }),
            faults: u32::MAX,
            time: Some(TimeUse {
                games: u32::MAX,
                sides: crate::clock::SearchStats {
                    searches: u32::MAX,
                    depth_sum: u64::MAX,
                    nodes: u64::MAX,
                    nanos: u64::MAX,
                    moves: u32::MAX,
                    left_nanos: u64::MAX,
                },
                lost_on_time: u32::MAX,
            }),
        };
        let bytes = history_bytes(std::slice::from_ref(&stats), &[(u64::MAX, w)]);
        assert!(bytes.len() > 4096 + HISTORY_HEADER_LEN);
        let (history, bests) = decode_history(&bytes, "h").unwrap();
        assert_eq!(history, vec![stats]);
        assert_eq!(bests, vec![(u64::MAX, w)]);
    }
}
