//! Stops never lose the result: a session stopped by SIGINT, SIGTERM or SIGHUP while its
//! standard output and error go to a pipe whose reader has exited (as `... 2>&1 | head -1`
//! leaves it) still writes its best weights, leaves whole checkpoints and exits with
//! 128 + the signal; a session that fills its disk says where it stands and how to continue,
//! and `resume` finishes it once there is space again.

#![cfg(unix)]

mod common;

use common::{load, new_cmd, resume_cmd, run_ok, text, Tmp};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SESSION: &[&str] = &[
    "--population",
    "8",
    "--depth",
    "2",
    "--generations",
    "1000000",
    "--measure-every",
    "0",
];

/// Waits until `dir` holds a checkpoint of generation 2 or later (at most 60 s).
fn wait_for_generations(dir: &Path) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(60) {
        let n = checkers_ga::store::list_checkpoints(dir)
            .iter()
            .filter_map(|p| checkers_ga::store::checkpoint_generation(p))
            .max()
            .unwrap_or(0);
        if n >= 2 {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no checkpoint within 60 s in {}", dir.display());
}

fn stop_with(signal: &str, number: i32) {
    let t = Tmp::new(&format!("stop-{signal}"));
    let (reader, writer) = std::io::pipe().expect("a pipe");
    // The reader is gone before the session writes its first line.
    drop(reader);
    let mut c = new_cmd(&t, 3, "s", false, SESSION);
    c.stdout(writer.try_clone().unwrap()).stderr(writer);
    let mut child = c.spawn().expect("spawn");
    wait_for_generations(&t.session("s"));
    let status = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let t0 = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "{signal}: the session did not stop within 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(code, Some(128 + number), "{signal}: exit status");
    let best = checkers_ga::load_weights(&t.best("s")).expect("best weights written");
    let checkpoints = checkers_ga::store::list_checkpoints(&t.session("s"));
    assert!(!checkpoints.is_empty());
    let newest = checkpoints
        .iter()
        .filter_map(|p| checkers_ga::store::checkpoint_generation(p))
        .max()
        .unwrap();
    for p in &checkpoints {
        load(p); // whole: every one loads
    }
    let s = load(&t.ckpt("s", newest));
    assert_eq!(
        Some(best),
        s.best_so_far,
        "{signal}: the best-weights file holds the newest checkpoint's best so far"
    );
}

#[test]
fn sigint_to_a_session_whose_output_pipe_is_closed_saves_and_exits_130() {
    stop_with("INT", 2);
}

#[test]
fn sigterm_to_a_session_whose_output_pipe_is_closed_saves_and_exits_143() {
    stop_with("TERM", 15);
}

#[test]
fn sighup_to_a_session_whose_output_pipe_is_closed_saves_and_exits_129() {
    stop_with("HUP", 1);
}

/// A small tmpfs, unmounted on drop.
struct Mount(std::path::PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// A tmpfs of `size` on `dir` (made), unmounted on drop; None, having said SKIPPED, where it
/// cannot be mounted (not root, or mount not allowed here).
fn small_disk(dir: &Path, size: &str) -> Option<Mount> {
    std::fs::create_dir_all(dir).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
        .arg(dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!(
            "SKIPPED: the full-disk tests need to mount a small tmpfs (root, and mount \
             allowed here); it could not"
        );
        return None;
    }
    Some(Mount(dir.to_path_buf()))
}

/// Space again on the small disk at `dir`: 16 MiB.
fn grow(dir: &Path) {
    let grown = Command::new("mount")
        .args(["-o", "remount,size=16m"])
        .arg(dir)
        .status()
        .unwrap();
    assert!(grown.success());
}

#[test]
fn a_full_disk_ends_with_a_continue_line_and_resume_finishes_once_there_is_space() {
    let t = Tmp::new("full");
    let pops = t.pops();
    let Some(_mount) = small_disk(&pops, "96k") else {
        return;
    };
    let args = [
        "--population",
        "8",
        "--depth",
        "1",
        "--generations",
        "60",
        "--measure-every",
        "0",
        "--keep",
        "0",
    ];
    let out = new_cmd(&t, 9, "f", false, &args).output().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("No space left on device") && stderr.contains("the session stands at"),
        "{stderr}"
    );
    assert!(
        stdout.contains("continue with, once there is space again: "),
        "{stdout}"
    );
    assert!(t.best("f").exists(), "best weights written on a full disk");
    // Space again: the session goes on to its end.
    grow(&pops);
    run_ok(resume_cmd(&t, None, true, &["--keep", "0"]));
    let s = load(&t.ckpt("f", 60));
    assert_eq!(s.generation, 60);
    // As if never stopped: the same as a session that had the space.
    let u = Tmp::new("full-ref");
    run_ok(new_cmd(&u, 9, "f", true, &args));
    let reference = load(&u.ckpt("f", 60));
    assert_eq!(s.population, reference.population);
    assert_eq!(s.best_so_far, reference.best_so_far);
}

/// A one-file tuner's session that fills its disk says where it stands as the GA's does (its
/// step and checkpoint), writes its answer, and `resume` finishes it once there is space, to
/// the checkpoint of a run that had the space.
#[test]
fn a_one_file_tuner_on_a_full_disk_says_where_it_stands_and_resumes() {
    let t = Tmp::new("full-tuner");
    let pops = t.pops();
    let Some(_mount) = small_disk(&pops, "48k") else {
        return;
    };
    // CMA-ES's checkpoint grows with its history: past about 20 KiB the new one and the old
    // no longer fit together.
    let args = [
        "cmaes", "--engine", "sim:4", "--games", "60000", "--seed", "2", "--name", "c",
    ];
    let out = t.cmd(&args).output().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let checkpoint = pops.join("c").join("cmaes.ckpt");
    let stands = "; the session stands at generation ";
    assert!(
        stderr.contains("No space left on device")
            && stderr.contains(stands)
            && stderr.contains(&format!("({})", checkpoint.display())),
        "{stderr}"
    );
    assert!(
        stdout.contains("continue with, once there is space again: "),
        "{stdout}"
    );
    assert!(
        pops.join("c").join("best.json").exists(),
        "the answer written"
    );
    grow(&pops);
    run_ok(t.cmd(&["resume", "c", "--quiet"]));
    let u = Tmp::new("full-tuner-ref");
    run_ok(u.cmd(&args));
    let end = |p: &Path| std::fs::read(p.join("c").join("cmaes.ckpt")).unwrap();
    assert!(
        end(&pops) == end(&u.pops()),
        "resumed, as if it never stopped"
    );
}

/// A session that cannot begin (a full disk: no room for its lock's process id, or room for
/// that alone and not for its first checkpoint), whichever tuner's, says why and leaves no
/// session folder behind, so the next run of that name starts afresh.
#[test]
fn a_tuner_session_that_cannot_begin_on_a_full_disk_leaves_no_folder() {
    let t = Tmp::new("full-begin");
    let pops = t.pops();
    let Some(_mount) = small_disk(&pops, "64k") else {
        return;
    };
    let engine = common::tunable_engine();
    let tuners = [
        ("spsa", "--games"),
        ("cmaes", "--games"),
        ("new", "--games-budget"),
    ];
    for room in [0, 4096] {
        // The disk filled but for `room` bytes (a write stops where the disk does).
        let filler = pops.join("filler");
        let _ = std::fs::remove_file(&filler);
        let _ = std::fs::write(&filler, vec![0u8; 64 * 1024 - room]);
        for (verb, games) in tuners {
            let out = common::bin()
                .arg(verb)
                .args(["--engine", &engine, "--tune", "kings,moves", "--depth", "1"])
                .args([games, "32", "--seed", "1", "--name", "s", "--populations"])
                .arg(&pops)
                .output()
                .unwrap();
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{verb}, {room}: {stderr}");
            assert!(
                stderr.contains("No space left on device"),
                "{verb}, {room}: {stderr}"
            );
            assert!(
                !pops.join("s").exists(),
                "{verb}, {room}: a session folder was left"
            );
        }
    }
}
