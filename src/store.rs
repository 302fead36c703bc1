//! Files on disk: every file the tool writes goes through [`write_atomic`] (temp name, sync,
//! rename), so a crash leaves either the old file or the new one, never half of one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file in the same folder, synced, then renamed
/// over `path`. On error the temporary file is removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("'{}' is not a file name", path.display()),
        )
    })?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
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
    result
}

use crate::ga::Session;

/// The largest file the tool reads (weights, checkpoints, populations): far above any real one,
/// and a clear error instead of reading `/dev/zero` until memory runs out.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

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

/// The first bytes of every checkpoint file.
pub const CHECKPOINT_MAGIC: &[u8; 8] = b"CKGACKPT";
/// The checkpoint format this build writes. It also reads format 1 (before the GA options,
/// yardstick measurements and the hall of fame), as a session with the original operators.
pub const CHECKPOINT_VERSION: u32 = 2;
const HEADER_LEN: usize = 8 + 4 + 8 + 8;

/// Why a checkpoint could not be read or written: one line, naming the file.
#[derive(Debug)]
pub struct CheckpointError {
    pub path: PathBuf,
    pub problem: String,
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "checkpoint '{}': {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for CheckpointError {}

fn ck_err(path: &Path, problem: impl Into<String>) -> CheckpointError {
    CheckpointError {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

/// FNV-1a, 64 bits: any change of a single byte changes it.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The checkpoint bytes of a session: magic, format version, payload length, checksum, then
/// the session in bincode 2 (serde, standard configuration).
pub fn encode_checkpoint(session: &Session) -> Result<Vec<u8>, String> {
    let payload = bincode::serde::encode_to_vec(session, bincode::config::standard())
        .map_err(|e| format!("cannot encode the session: {e}"))?;
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(CHECKPOINT_MAGIC);
    out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Reads checkpoint bytes; `path` only names the file in errors.
pub fn decode_checkpoint(path: &Path, bytes: &[u8]) -> Result<Session, CheckpointError> {
    if bytes.is_empty() {
        return Err(ck_err(path, "the file is empty"));
    }
    if bytes.len() < 8 || &bytes[..8] != CHECKPOINT_MAGIC {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]).to_string();
        let t = head.trim_start();
        let what = if t.starts_with('{') && t.contains("weights") {
            " (it looks like a weight file)"
        } else if t.starts_with("60 ") {
            " (it looks like a file of the original tool)"
        } else {
            ""
        };
        return Err(ck_err(path, format!("not a checkpoint: wrong magic{what}")));
    }
    if bytes.len() < HEADER_LEN {
        return Err(ck_err(path, "truncated header"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
    if version > CHECKPOINT_VERSION {
        return Err(ck_err(
            path,
            format!(
                "format version {version} is newer than this build reads ({CHECKPOINT_VERSION}); \
                 upgrade checkers-ga"
            ),
        ));
    }
    if version != CHECKPOINT_VERSION && version != 1 {
        return Err(ck_err(path, format!("unknown format version {version}")));
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().unwrap_or_default());
    let sum = u64::from_le_bytes(bytes[20..28].try_into().unwrap_or_default());
    let payload = &bytes[HEADER_LEN..];
    if (payload.len() as u64) < len {
        return Err(ck_err(
            path,
            format!("truncated: {} of {len} payload bytes", payload.len()),
        ));
    }
    if payload.len() as u64 != len {
        return Err(ck_err(path, "trailing bytes after the payload"));
    }
    if checksum(payload) != sum {
        return Err(ck_err(path, "checksum mismatch: the file is corrupted"));
    }
    let decoded = if version == 1 {
        bincode::serde::decode_from_slice::<v1::Session, _>(payload, bincode::config::standard())
            .map(|(s, used)| (s.into(), used))
    } else {
        bincode::serde::decode_from_slice(payload, bincode::config::standard())
    };
    let (session, used): (Session, usize) =
        decoded.map_err(|e| ck_err(path, format!("cannot decode: {e}")))?;
    if used != payload.len() {
        return Err(ck_err(path, "cannot decode: unused bytes in the payload"));
    }
    if session.population.len() != session.settings.population {
        return Err(ck_err(path, "population size does not match its settings"));
    }
    let set = session.settings.ga.params;
    let all = session
        .population
        .iter()
        .chain(session.last.iter().map(|(w, _)| w))
        .chain(session.best_so_far.iter())
        .chain(session.hall.iter());
    if let Some(w) = all.into_iter().find(|w| w.set() != set) {
        return Err(ck_err(
            path,
            format!("holds {} weights in a {set} session", w.set()),
        ));
    }
    if !is_plain_name(&session.name) {
        return Err(ck_err(
            path,
            format!("session name '{}' is not a plain folder name", session.name),
        ));
    }
    Ok(session)
}

/// Is `name` usable as a session folder and weight file name (no path, not hidden)?
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && name.len() <= 200
}

/// Loads a checkpoint file.
pub fn load_checkpoint(path: &Path) -> Result<Session, CheckpointError> {
    let bytes = read_bounded(path).map_err(|e| ck_err(path, format!("cannot read: {e}")))?;
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

/// Writes the session's checkpoint into `dir` (temp, sync, rename) and, with `keep > 0`,
/// removes all but the newest `keep` checkpoints of the folder. Returns the file written.
pub fn save_checkpoint(
    dir: &Path,
    session: &Session,
    keep: usize,
) -> Result<PathBuf, CheckpointError> {
    std::fs::create_dir_all(dir).map_err(|e| ck_err(dir, format!("cannot create folder: {e}")))?;
    let path = checkpoint_path(dir, session.generation);
    let bytes = encode_checkpoint(session).map_err(|e| ck_err(&path, e))?;
    write_atomic(&path, &bytes).map_err(|e| ck_err(&path, format!("cannot write: {e}")))?;
    if keep > 0 {
        let mut all = list_checkpoints(dir);
        sort_by_generation(&mut all);
        if all.len() > keep {
            for old in &all[..all.len() - keep] {
                let _ = std::fs::remove_file(old);
            }
        }
    }
    Ok(path)
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
/// one's); returns them.
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

/// A checkpoint found for `resume`, `history` or `show`.
pub struct Located {
    pub path: PathBuf,
    pub session: Session,
    /// Newer checkpoints that could not be read and were passed over.
    pub skipped: Vec<CheckpointError>,
}

/// Finds the checkpoint a user means: a checkpoint file; a session folder (its newest loadable
/// checkpoint); a session name under `root`; or, with no argument, the newest checkpoint under
/// `root`. Unreadable newer checkpoints are passed over and reported in `skipped`.
pub fn locate(arg: Option<&str>, root: &Path) -> Result<Located, String> {
    let dir = match arg {
        None => root.to_path_buf(),
        Some(f) => {
            let p = PathBuf::from(f);
            if p.is_file() {
                let session = load_checkpoint(&p).map_err(|e| e.to_string())?;
                return Ok(Located {
                    path: p,
                    session,
                    skipped: Vec::new(),
                });
            } else if p.is_dir() {
                p
            } else if !f.is_empty() && session_dir(root, f).is_dir() {
                session_dir(root, f)
            } else {
                return Err(format!(
                    "no checkpoint, session folder or session named '{f}' (looked under '{}')",
                    root.display()
                ));
            }
        }
    };
    let cands = resume_candidates(&dir);
    if cands.is_empty() {
        return Err(format!(
            "no checkpoint under '{}': start a session with `checkers-ga new`",
            dir.display()
        ));
    }
    let mut skipped = Vec::new();
    for c in cands {
        match load_checkpoint(&c) {
            Ok(session) => {
                return Ok(Located {
                    path: c,
                    session,
                    skipped,
                })
            }
            Err(e) => skipped.push(e),
        }
    }
    let first = skipped.remove(0);
    Err(format!(
        "no loadable checkpoint under '{}' (newest: {first})",
        dir.display()
    ))
}

/// Checkpoint format 1: the session as it was before the GA options, yardstick measurements
/// and the hall of fame. Read as a session with the original operators, so it continues
/// exactly as the build that wrote it would have.
mod v1 {
    use crate::eval::Thesis60Tuple;
    use crate::ga::{self, Duel, GaOptions, Stop};
    use crate::game::DrawRules;
    use crate::matchplay::OpeningBook;
    use crate::search::SearchConfig;
    use crate::tournament::Standing;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Settings {
        population: usize,
        games: usize,
        search: SearchConfig,
        factor: u32,
        mutation: f64,
        stop: Stop,
        seed: u64,
        openings: OpeningBook,
        elite: usize,
        newcomers: usize,
        rules: DrawRules,
    }

    #[derive(Deserialize)]
    pub struct GenerationStats {
        generation: u64,
        best: u32,
        mean: f64,
        min: u32,
        diversity: f64,
        duel: Option<Duel>,
        games: u32,
        plies: u64,
        seconds: f64,
    }

    #[derive(Deserialize)]
    pub struct Session {
        name: String,
        settings: Settings,
        generation: u64,
        elapsed: f64,
        population: Vec<Thesis60Tuple>,
        last: Vec<(Thesis60Tuple, Standing)>,
        best_so_far: Option<Thesis60Tuple>,
        history: Vec<GenerationStats>,
    }

    impl From<Session> for ga::Session {
        fn from(s: Session) -> ga::Session {
            let t = s.settings;
            ga::Session {
                name: s.name,
                settings: ga::Settings {
                    population: t.population,
                    games: t.games,
                    search: t.search,
                    factor: t.factor,
                    mutation: t.mutation,
                    stop: t.stop,
                    seed: t.seed,
                    openings: t.openings,
                    elite: t.elite,
                    newcomers: t.newcomers,
                    rules: t.rules,
                    ga: GaOptions::default(),
                },
                generation: s.generation,
                elapsed: s.elapsed,
                population: s.population.into_iter().map(|w| w.0).collect(),
                last: s.last.into_iter().map(|(w, st)| (w.0, st)).collect(),
                best_so_far: s.best_so_far.map(|w| w.0),
                history: s
                    .history
                    .into_iter()
                    .map(|h| ga::GenerationStats {
                        generation: h.generation,
                        best: h.best,
                        mean: h.mean,
                        min: h.min,
                        diversity: h.diversity,
                        duel: h.duel,
                        games: h.games,
                        plies: h.plies,
                        seconds: h.seconds,
                        measure: None,
                    })
                    .collect(),
                hall: Vec::new(),
            }
        }
    }
}
