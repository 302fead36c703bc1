//! Whether two runs of a session gave the same result, wall clock aside: both folders hold the
//! same checkpoint files (`populations/NAME/gen-*.ckpt`), each equal to the other once its
//! wall-clock fields (seconds of evolution, per generation) are zeroed, as `tests/mpi.rs`
//! compares them, and the same best-weights file (`populations/NAME/best.json`), byte for byte.
//! `scripts/test-slurm.sh` compares sessions run under Slurm with one-process runs with it.
//!
//! Usage: `cargo run --example same_session -- DIR_A DIR_B NAME` (each DIR the folder the
//! session was run in). Prints what it compared and exits 0, or says what differs and exits 1.

use checkers_ga::store;
use checkers_ga::GaState;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The checkpoint file names in a session folder, sorted.
fn checkpoints(dir: &Path) -> Result<Vec<String>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("gen-") && name.ends_with(".ckpt") {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// A checkpoint with its wall-clock fields zeroed.
fn session(path: &Path) -> Result<GaState, String> {
    let mut s = store::load_checkpoint(path).map_err(|e| e.to_string())?;
    s.elapsed = 0.0;
    s.history.iter_mut().for_each(|h| h.seconds = 0.0);
    Ok(s)
}

fn compare(a: &Path, b: &Path, name: &str) -> Result<String, String> {
    let folder = |d: &Path| d.join("populations").join(name);
    let (fa, fb) = (folder(a), folder(b));
    let (ca, cb) = (checkpoints(&fa)?, checkpoints(&fb)?);
    if ca.is_empty() {
        return Err(format!("'{}' holds no checkpoint", fa.display()));
    }
    if ca != cb {
        return Err(format!(
            "different checkpoint files: '{}' holds {}, '{}' holds {}",
            fa.display(),
            ca.join(" "),
            fb.display(),
            cb.join(" ")
        ));
    }
    for c in &ca {
        if session(&fa.join(c))? != session(&fb.join(c))? {
            return Err(format!(
                "{c} differs (wall clock aside) between '{}' and '{}'",
                fa.display(),
                fb.display()
            ));
        }
    }
    let best = |d: &Path| -> Result<Vec<u8>, String> {
        let p: PathBuf = folder(d).join("best.json");
        std::fs::read(&p).map_err(|e| format!("cannot read '{}': {e}", p.display()))
    };
    if best(a)? != best(b)? {
        return Err(format!("populations/{name}/best.json differs"));
    }
    Ok(format!(
        "same session '{name}': {} checkpoints ({} .. {}, wall clock aside) and best weights",
        ca.len(),
        ca[0],
        ca[ca.len() - 1]
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, name] = args.as_slice() else {
        eprintln!("usage: same_session DIR_A DIR_B NAME");
        return ExitCode::from(2);
    };
    match compare(Path::new(a), Path::new(b), name) {
        Ok(msg) => {
            println!("{msg}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
