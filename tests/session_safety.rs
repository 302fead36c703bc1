//! Sessions that cannot be mixed or lost: the session lock (two processes never write one
//! session folder), the best-weights file that records its session and is never overwritten by
//! another session or lineage without `--force`, and stops (Ctrl-C, `--time`) that leave a
//! session which resumes exactly as if it had never stopped.
//!
//! Like tests/session.rs, checkpoints are compared with their wall-clock fields zeroed.

mod common;

use checkers_ga::ga::Session;
use checkers_ga::store;
use common::{load, new_cmd, resume_cmd, Tmp};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Small, fast settings: about 10 ms per generation (plus the checkpoint's sync).
const SMALL: &[&str] = &["--population", "8", "--depth", "2", "--max-plies", "120"];

/// Slower generations (about 0.2 s each on one core), for a session that must still be running
/// while other processes try the same folder.
const SLOW: &[&str] = &["--population", "8", "--depth", "4", "--max-plies", "120"];

fn small(more: &[&'static str]) -> Vec<&'static str> {
    let mut v = SMALL.to_vec();
    v.extend_from_slice(more);
    v
}

fn slow(more: &[&'static str]) -> Vec<&'static str> {
    let mut v = SLOW.to_vec();
    v.extend_from_slice(more);
    v
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn run(mut c: Command) -> Output {
    c.output().expect("run checkers-ga")
}

/// Runs and asserts success; returns stdout.
fn run_ok(c: Command) -> String {
    let desc = format!("{c:?}");
    let out = run(c);
    assert!(
        out.status.success(),
        "{desc} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Asserts exit code 1 with one `error:` line on stderr and no panic; returns the line.
fn run_err(c: Command) -> String {
    let desc = format!("{c:?}");
    let out = run(c);
    err_line(&desc, &out)
}

fn err_line(desc: &str, out: &Output) -> String {
    let err = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{desc}: expected exit code 1\nstdout:\n{}\nstderr:\n{err}",
        text(&out.stdout)
    );
    assert!(!err.contains("panicked"), "{desc} panicked:\n{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{desc}: expected one error line:\n{err}");
    assert!(lines[0].starts_with("error:"), "{desc}: {err}");
    lines[0].to_string()
}

/// The session with its wall-clock fields zeroed.
fn normalized(mut s: Session) -> Session {
    s.elapsed = 0.0;
    for h in &mut s.history {
        h.seconds = 0.0;
    }
    s
}

/// Asserts two checkpoints hold the same session, wall-clock fields aside.
fn assert_same_session(a: &Path, b: &Path) {
    let (sa, sb) = (normalized(load(a)), normalized(load(b)));
    assert_eq!(
        store::encode_checkpoint(&sa).unwrap(),
        store::encode_checkpoint(&sb).unwrap(),
        "{} and {} differ",
        a.display(),
        b.display()
    );
}

/// The generations of the `gen-*.ckpt` files in a folder, sorted.
fn generations_in(dir: &Path) -> Vec<u64> {
    let mut g: Vec<u64> = store::list_checkpoints(dir)
        .iter()
        .map(|p| store::checkpoint_generation(p).expect("checkpoint name"))
        .collect();
    g.sort();
    g
}

/// File names in a folder that contain `part`.
fn files_containing(dir: &Path, part: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .filter(|n| n.contains(part))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until the lock file of session folder `dir` holds `child`'s process id (the child has
/// taken the lock); panics if the child exits first.
fn wait_for_lock(child: &mut Child, dir: &Path) {
    let path = dir.join(checkers_ga::lock::LOCK_FILE);
    let want = child.id().to_string();
    let t = Instant::now();
    loop {
        let held = std::fs::read_to_string(&path).unwrap_or_default();
        if held.trim() == want {
            return;
        }
        if let Some(st) = child.try_wait().expect("try_wait") {
            panic!("the session exited ({st}) before it took the lock");
        }
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "no lock within 2 minutes"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

// ---------------------------------------------------------------------------------------------
// The session lock

/// While a `resume` runs, a second `resume` of the same session (by folder, by name, or from an
/// older checkpoint) and a `new` of the same name are each refused with one line naming the
/// running process; nothing is set aside, the running session ends normally, and the folder
/// holds one lineage: every checkpoint equals an uninterrupted run's.
#[test]
fn a_second_process_on_a_running_session_is_refused_and_harms_nothing() {
    const TO: &str = "12";
    let t = Tmp::new("two-resumes");
    run_ok(new_cmd(&t, 21, "r", true, &slow(&["--generations", "2"])));
    let dir = t.session("r");

    let mut c = resume_cmd(&t, Some(&dir), true, &["--generations", TO]);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut first = c.spawn().expect("spawn");
    wait_for_lock(&mut first, &dir);
    let pid = first.id().to_string();

    let older = t.ckpt("r", 1);
    let targets = [dir.clone(), "r".into(), older.clone()];
    for target in &targets {
        let line = run_err(resume_cmd(&t, Some(target), true, &["--generations", "3"]));
        assert!(line.contains(&format!("process {pid}")), "{line}");
        assert!(line.contains("in use"), "{line}");
    }
    let line = run_err(new_cmd(&t, 22, "r", true, &small(&["--generations", "3"])));
    assert!(line.contains(&format!("process {pid}")), "{line}");
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first resume ended before the others were refused: raise its generations"
    );
    assert!(files_containing(&dir, "superseded").is_empty());

    let out = first.wait_with_output().expect("wait");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "the running session was harmed ({}): {}",
        out.status,
        text(&out.stderr)
    );
    let to: u64 = TO.parse().unwrap();
    assert_eq!(generations_in(&dir), (1..=to).collect::<Vec<_>>());
    assert!(files_containing(&dir, ".tmp").is_empty());

    let whole = Tmp::new("two-resumes-whole");
    run_ok(new_cmd(
        &whole,
        21,
        "r",
        true,
        &slow(&["--generations", TO]),
    ));
    for g in 3..=to {
        assert_same_session(&whole.ckpt("r", g), &t.ckpt("r", g));
    }
}

/// Two `new --name x` with different seeds: the one started second is refused with the first
/// one's process id while the first runs, and every checkpoint is of the first one's seed.
#[test]
fn two_new_sessions_of_one_name_never_mix() {
    let t = Tmp::new("two-new");
    let mut c = new_cmd(&t, 31, "x", true, &slow(&["--generations", "10"]));
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut first = c.spawn().expect("spawn");
    wait_for_lock(&mut first, &t.session("x"));
    let line = run_err(new_cmd(&t, 32, "x", true, &small(&["--generations", "5"])));
    assert!(line.contains(&format!("process {}", first.id())), "{line}");
    assert!(first.try_wait().unwrap().is_none(), "raise the generations");
    let out = first.wait_with_output().expect("wait");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let gens = generations_in(&t.session("x"));
    assert_eq!(gens, (1..=10).collect::<Vec<_>>());
    for g in gens {
        assert_eq!(load(&t.ckpt("x", g)).settings.seed, 31, "generation {g}");
    }

    // Started at the same moment: exactly one runs, the other is refused (by the lock, or by
    // the checkpoints the first has written), and the folder holds one seed.
    for round in 0..3u64 {
        let t = Tmp::new("two-new-race");
        let children: Vec<Child> = [41, 42]
            .iter()
            .map(|&seed| {
                let mut c = new_cmd(&t, seed, "x", true, &small(&["--generations", "5"]));
                c.stdout(Stdio::piped()).stderr(Stdio::piped());
                c.spawn().expect("spawn")
            })
            .collect();
        let outs: Vec<Output> = children
            .into_iter()
            .map(|c| c.wait_with_output().expect("wait"))
            .collect();
        let winners: Vec<u64> = [41, 42]
            .into_iter()
            .zip(&outs)
            .filter(|(_, o)| o.status.success())
            .map(|(s, _)| s)
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {winners:?} succeeded");
        let loser = outs.iter().find(|o| !o.status.success()).unwrap();
        let line = err_line("the second new", loser);
        assert!(
            line.contains("in use by") || line.contains("already has checkpoints"),
            "round {round}: {line}"
        );
        let gens = generations_in(&t.session("x"));
        assert_eq!(gens, (1..=5).collect::<Vec<_>>(), "round {round}");
        for g in gens {
            assert_eq!(load(&t.ckpt("x", g)).settings.seed, winners[0]);
        }
    }
}
