//! Sessions that cannot be mixed or lost: the session lock (two processes never write one
//! session folder), the best-weights file that records its session and is never overwritten by
//! another session or lineage without `--force`, and stops (Ctrl-C, `--time`) that leave a
//! session which resumes exactly as if it had never stopped.
//!
//! Like tests/session.rs, checkpoints are compared with their wall-clock fields zeroed.

mod common;

use checkers_ga::store;
use checkers_ga::GaState;
use common::{err_line, load, new_cmd, resume_cmd, run_err, run_ok, text, Tmp, BIN};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Small, fast settings: about 10 ms per generation (plus the checkpoint's sync).
const SMALL: &[&str] = &["--population", "8", "--depth", "2", "--max-plies", "120"];

/// Slower generations (about 0.2 s each on one core), for a session that must still be running
/// while other processes try the same folder.
const SLOW: &[&str] = &["--population", "8", "--depth", "4", "--max-plies", "120"];

fn small<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut v = SMALL.to_vec();
    v.extend_from_slice(more);
    v
}

fn slow<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut v = SLOW.to_vec();
    v.extend_from_slice(more);
    v
}

/// The session with its wall-clock fields zeroed.
fn normalized(mut s: GaState) -> GaState {
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
    let path = dir.join(checkers_ga::LOCK_FILE);
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

    // Every checkpoint kept (--keep 0), so the folder shows the whole lineage.
    let mut c = resume_cmd(&t, Some(&dir), true, &["--generations", TO, "--keep", "0"]);
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
            line.contains("in use by") || line.contains("already exists in"),
            "round {round}: {line}"
        );
        let gens = generations_in(&t.session("x"));
        assert_eq!(gens, (1..=5).collect::<Vec<_>>(), "round {round}");
        for g in gens {
            assert_eq!(load(&t.ckpt("x", g)).settings.seed, winners[0]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The best-weights file

/// The origin a best-weights file records (session, seed, generation), or None.
fn origin_of(p: &Path) -> Option<checkers_ga::weightfile::Origin> {
    checkers_ga::weightfile::load_weight_file(p)
        .unwrap_or_else(|e| panic!("{e}"))
        .origin
}

fn origin(session: &str, seed: u64, generation: u64) -> Option<checkers_ga::weightfile::Origin> {
    Some(checkers_ga::weightfile::Origin {
        session: session.to_string(),
        seed,
        generation,
    })
}

/// `NAME-best.json` records its session, seed, generation and parameter set; `show` prints
/// them; the three keys go together, and files without them load as before.
#[test]
fn the_best_weights_file_records_its_session() {
    let t = Tmp::new("origin");
    run_ok(new_cmd(&t, 5, "b", true, &small(&["--generations", "2"])));
    let best = t.best("b");
    assert_eq!(origin_of(&best), origin("b", 5, 2));
    let json = std::fs::read_to_string(&best).unwrap();
    assert!(json.contains("\"params\": \"net66:8\""), "{json}");
    assert_eq!(
        checkers_ga::load_weights(&best).ok(),
        load(&t.ckpt("b", 2)).best_so_far
    );
    let out = common::run(&t.0, &["show", best.to_str().unwrap()]);
    let shown = common::stdout_ok(&out);
    assert!(
        shown.contains("best so far of session 'b', seed 5, generation 2"),
        "{shown}"
    );

    // Without the keys: loads, no origin, show prints none.
    let material = common::repo("weights/material.json");
    assert_eq!(origin_of(&material), None);
    let shown = common::stdout_ok(&common::run(&t.0, &["show", material.to_str().unwrap()]));
    assert!(!shown.contains("best so far of"), "{shown}");
    // Only some of them: one clear error.
    let part = json.replace("  \"seed\": 5,\n", "");
    let p = t.write("part.json", part.as_bytes());
    let e = checkers_ga::weightfile::load_weight_file(&p).unwrap_err();
    assert!(e.to_string().contains("go together"), "{e}");
}

/// `new` refuses to replace another session's best weights (another seed under the same name,
/// e.g. from another populations folder; a file that names no session; another session's file)
/// without --force, before making anything; with --force it replaces them.
#[test]
fn new_refuses_another_sessions_best_weights_without_force() {
    let t = Tmp::new("best-new");
    run_ok(new_cmd(&t, 5, "s1", true, &small(&["--generations", "2"])));
    let before = std::fs::read(t.best("s1")).unwrap();
    let other = t.0.join("other");
    // `new --name s1 --populations OTHER` with the same weights folder.
    let with_other = |force: bool| {
        let mut c = common::bin();
        c.current_dir(&t.0)
            .arg("new")
            .args(small(&["--generations", "2"]));
        c.arg("--populations").arg(&other);
        c.arg("--weights-dir").arg(t.weights());
        c.args(["--quiet", "--seed", "6", "--name", "s1"]);
        if force {
            c.arg("--force");
        }
        c
    };
    let line = run_err(with_other(false));
    assert!(line.contains("seed 5"), "{line}");
    assert!(line.contains("--force"), "{line}");
    assert!(line.contains(&t.best("s1").display().to_string()), "{line}");
    assert!(!other.exists(), "a refused new made its session folder");
    assert_eq!(std::fs::read(t.best("s1")).unwrap(), before);
    run_ok(with_other(true));
    assert_eq!(origin_of(&t.best("s1")), origin("s1", 6, 2));

    // A file that names no session, and one of another session.
    std::fs::create_dir_all(t.weights()).unwrap();
    std::fs::copy(common::repo("weights/material.json"), t.best("s2")).unwrap();
    let line = run_err(new_cmd(&t, 7, "s2", true, &small(&["--generations", "1"])));
    assert!(line.contains("does not say which session"), "{line}");
    let foreign = std::fs::read_to_string(t.best("s1"))
        .unwrap()
        .replace("\"session\": \"s1\"", "\"session\": \"zz\"");
    std::fs::write(t.best("s3"), &foreign).unwrap();
    let line = run_err(new_cmd(&t, 7, "s3", true, &small(&["--generations", "1"])));
    assert!(line.contains("session 'zz'"), "{line}");
    assert!(!t.session("s2").exists() && !t.session("s3").exists());
    let mut c = new_cmd(&t, 7, "s3", true, &small(&["--generations", "1"]));
    c.arg("--force");
    run_ok(c);
    assert_eq!(origin_of(&t.best("s3")), origin("s3", 7, 1));
}

/// `resume` of an older checkpoint that cannot reach the file's generation (a new branch), and
/// of a copied session folder, is refused without --force; with it, the branch takes over the
/// file. Resuming an older checkpoint to the file's generation again is the same lineage and
/// gives the same file.
#[test]
fn resume_refuses_another_branch_or_a_copied_folder_without_force() {
    let t = Tmp::new("best-resume");
    run_ok(new_cmd(&t, 7, "b", true, &small(&["--generations", "4"])));
    let before = std::fs::read(t.best("b")).unwrap();
    let dir = t.session("b");
    let older = t.ckpt("b", 2);
    let branch = |force: bool| {
        let mut a = vec!["--generations", "3", "--mutation", "1"];
        if force {
            a.push("--force");
        }
        resume_cmd(&t, Some(&older), true, &a)
    };
    let line = run_err(branch(false));
    assert!(line.contains("generation 4"), "{line}");
    assert!(line.contains("another branch"), "{line}");
    assert_eq!(generations_in(&dir), vec![1, 2, 3, 4]);
    assert!(files_containing(&dir, "superseded").is_empty());
    assert_eq!(std::fs::read(t.best("b")).unwrap(), before);

    // To generation 4 again, same settings: the same lineage, the same file.
    run_ok(resume_cmd(&t, Some(&older), true, &["--generations", "4"]));
    assert_eq!(std::fs::read(t.best("b")).unwrap(), before);

    run_ok(branch(true));
    assert_eq!(origin_of(&t.best("b")), origin("b", 7, 3));
    assert_eq!(generations_in(&dir), vec![1, 2, 3]);

    // A copy of the folder under another name still holds session 'b'.
    let copy = t.session("c");
    std::fs::create_dir_all(&copy).unwrap();
    for g in 1..=3 {
        std::fs::copy(t.ckpt("b", g), store::checkpoint_path(&copy, g)).unwrap();
    }
    std::fs::copy(
        dir.join(store::HISTORY_FILE),
        copy.join(store::HISTORY_FILE),
    )
    .unwrap();
    let after_branch = std::fs::read(t.best("b")).unwrap();
    let line = run_err(resume_cmd(&t, Some(&copy), true, &["--generations", "5"]));
    assert!(line.contains("copy"), "{line}");
    assert_eq!(generations_in(&copy), vec![1, 2, 3]);
    assert_eq!(std::fs::read(t.best("b")).unwrap(), after_branch);
    run_ok(resume_cmd(
        &t,
        Some(&copy),
        true,
        &["--generations", "5", "--force"],
    ));
    assert_eq!(origin_of(&t.best("b")), origin("b", 7, 5));
}

/// A weights folder that cannot take the file is reported before any generation is played.
#[test]
fn an_unwritable_weights_folder_is_found_before_any_work() {
    let t = Tmp::new("best-folder");
    // The best-weights file's name is taken by a folder.
    std::fs::create_dir_all(t.best("w")).unwrap();
    let line = run_err(new_cmd(&t, 3, "w", true, &small(&["--generations", "1"])));
    assert!(line.contains("is a folder"), "{line}");
    assert!(!t.session("w").exists());
    // The weights folder is a file.
    let t2 = Tmp::new("best-folder-file");
    std::fs::write(t2.weights(), b"not a folder").unwrap();
    let line = run_err(new_cmd(&t2, 3, "w", true, &small(&["--generations", "1"])));
    assert!(line.contains("weights folder"), "{line}");
    assert!(!t2.session("w").exists());
    // A session to resume while the file's name is a folder: nothing is played.
    let t3 = Tmp::new("best-folder-resume");
    run_ok(new_cmd(&t3, 3, "w", true, &small(&["--generations", "1"])));
    std::fs::remove_file(t3.best("w")).unwrap();
    std::fs::create_dir_all(t3.best("w")).unwrap();
    let line = run_err(resume_cmd(
        &t3,
        Some(&t3.session("w")),
        true,
        &["--generations", "3"],
    ));
    assert!(line.contains("is a folder"), "{line}");
    assert_eq!(generations_in(&t3.session("w")), vec![1]);
    // A read-only weights folder (not for root, whom permissions do not stop).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let t4 = Tmp::new("best-folder-ro");
        std::fs::create_dir_all(t4.weights()).unwrap();
        std::fs::set_permissions(t4.weights(), std::fs::Permissions::from_mode(0o555)).unwrap();
        if std::fs::write(t4.weights().join("probe"), b"x").is_ok() {
            eprintln!("running as root: the read-only folder case is not checked");
        } else {
            let line = run_err(new_cmd(&t4, 3, "w", true, &small(&["--generations", "1"])));
            assert!(
                line.contains("cannot write into the weights folder"),
                "{line}"
            );
            assert!(!t4.session("w").exists());
        }
        std::fs::set_permissions(t4.weights(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// A best-weights file that another process writes while a session runs is not overwritten at
/// the end: the session says so in one line and its checkpoints hold the weights.
#[test]
fn a_best_weights_file_changed_meanwhile_is_not_overwritten() {
    let t = Tmp::new("best-race");
    let mut c = new_cmd(&t, 9, "r", true, &slow(&["--generations", "4"]));
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn");
    wait_for_lock(&mut child, &t.session("r"));
    let foreign = checkers_ga::weightfile::weights_to_json_full(
        &checkers_ga::material(),
        None,
        origin("r", 1, 1).as_ref(),
    );
    std::fs::write(t.best("r"), &foreign).unwrap();
    let out = child.wait_with_output().expect("wait");
    let line = err_line("the session", &out);
    assert!(line.contains("changed by another process"), "{line}");
    assert!(line.contains("gen-00004.ckpt"), "{line}");
    assert_eq!(std::fs::read_to_string(t.best("r")).unwrap(), foreign);
    assert_eq!(generations_in(&t.session("r")), vec![1, 2, 3, 4]);
}

// ---------------------------------------------------------------------------------------------
// Stops: Ctrl-C and --time

/// Sends SIGINT (what Ctrl-C sends) to a child process.
#[cfg(unix)]
fn sigint(child: &Child) {
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(st.success(), "kill -INT failed");
}

/// Waits until `path` exists; panics if the child exits first.
fn wait_for_file(child: &mut Child, path: &Path) {
    let t = Instant::now();
    while !path.exists() {
        if let Some(st) = child.try_wait().expect("try_wait") {
            panic!(
                "the session exited ({st}) before {} appeared",
                path.display()
            );
        }
        assert!(t.elapsed() < Duration::from_secs(300), "{}", path.display());
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Like [`assert_same_session`], but the stop condition may differ.
fn assert_same_evolution(a: &Path, b: &Path) {
    let (mut sa, sb) = (normalized(load(a)), normalized(load(b)));
    sa.settings.stop = sb.settings.stop;
    assert_eq!(
        store::encode_checkpoint(&sa).unwrap(),
        store::encode_checkpoint(&sb).unwrap(),
        "{} and {} differ",
        a.display(),
        b.display()
    );
}

/// Ctrl-C (SIGINT) during `new`: the session stops at the next game boundary, keeps the
/// checkpoint of every whole generation, writes the best weights of the newest one, says how to
/// continue and exits with 130; resumed, it ends exactly like an uninterrupted session.
#[test]
#[cfg(unix)]
fn ctrl_c_during_new_leaves_a_session_that_resumes_as_if_never_stopped() {
    let t = Tmp::new("ctrl-c");
    let mut c = new_cmd(&t, 61, "c", false, &slow(&["--generations", "6"]));
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn");
    wait_for_file(&mut child, &t.ckpt("c", 2));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the session ended before Ctrl-C (generations too fast?)"
    );
    sigint(&child);
    let out = child.wait_with_output().expect("wait");
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.contains("stopped by Ctrl-C"), "{stdout}");
    // The hint is the command as it was invoked (here the binary's path, which is not on the
    // PATH), ready to paste.
    assert!(
        stdout.contains(&format!("continue with: {BIN} resume c --populations")),
        "{stdout}"
    );
    assert!(
        !text(&out.stderr).contains("error"),
        "{}",
        text(&out.stderr)
    );
    let dir = t.session("c");
    let gens = generations_in(&dir);
    let g = *gens.last().unwrap();
    assert_eq!(gens, (1..=g).collect::<Vec<_>>());
    assert!((2..6).contains(&g), "stopped at generation {g}");
    assert!(files_containing(&dir, ".tmp").is_empty());
    // The best weights are those of the checkpoint `resume` continues.
    assert_eq!(origin_of(&t.best("c")), origin("c", 61, g));
    assert_eq!(
        checkers_ga::load_weights(&t.best("c")).ok(),
        load(&t.ckpt("c", g)).best_so_far
    );

    run_ok(resume_cmd(&t, Some(&dir), true, &["--threads", "1"]));
    let whole = Tmp::new("ctrl-c-whole");
    run_ok(new_cmd(
        &whole,
        61,
        "c",
        true,
        &slow(&["--generations", "6"]),
    ));
    assert_eq!(generations_in(&dir), (1..=6).collect::<Vec<_>>());
    for g in 1..=6 {
        assert_same_session(&whole.ckpt("c", g), &t.ckpt("c", g));
    }
    assert_eq!(
        std::fs::read(whole.best("c")).unwrap(),
        std::fs::read(t.best("c")).unwrap()
    );
}

/// Ctrl-C before the first generation ends: the first population is saved as generation 0 (no
/// best weights yet), and resuming it gives the uninterrupted session's first generation.
#[test]
#[cfg(unix)]
fn ctrl_c_in_the_first_generation_saves_generation_zero() {
    let args = ["--population", "48", "--depth", "2", "--generations", "1"];
    let t = Tmp::new("ctrl-c-0");
    let mut c = new_cmd(&t, 62, "z", true, &args);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn");
    wait_for_lock(&mut child, &t.session("z"));
    sigint(&child);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    // Under --quiet, standard output holds the answer's path alone (none yet): where the
    // session stands and how to continue go to standard error.
    assert_eq!(text(&out.stdout), "", "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("generation 0") && err.contains("continue with: "),
        "{err}"
    );
    assert_eq!(generations_in(&t.session("z")), vec![0]);
    assert!(!t.best("z").exists());

    run_ok(resume_cmd(&t, Some(&t.session("z")), true, &[]));
    let whole = Tmp::new("ctrl-c-0-whole");
    run_ok(new_cmd(&whole, 62, "z", true, &args));
    assert_same_session(&whole.ckpt("z", 1), &t.ckpt("z", 1));
}

/// Session `w` in `t` at depth 16 from the start position, its output piped, running a moment
/// after it holds its folder: every game takes seconds, so a first Ctrl-C has to wait.
#[cfg(unix)]
fn slow_session(t: &Tmp) -> Child {
    let args = [
        "--population",
        "4",
        "--depth",
        "16",
        "--openings",
        "start",
        "--generations",
        "1",
        "--threads",
        "1",
    ];
    let mut c = new_cmd(t, 63, "w", true, &args);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn");
    wait_for_lock(&mut child, &t.session("w"));
    std::thread::sleep(Duration::from_millis(200));
    child
}

/// A second Ctrl-C exits at once, while the games the first one waits for are still being
/// played; what is on disk stays whole.
#[test]
#[cfg(unix)]
fn a_second_ctrl_c_exits_at_once() {
    let t = Tmp::new("ctrl-c-twice");
    let mut child = slow_session(&t);
    sigint(&child);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first Ctrl-C did not have to wait (games too short?)"
    );
    let t2 = Instant::now();
    sigint(&child);
    let out = child.wait_with_output().expect("wait");
    assert!(t2.elapsed() < Duration::from_secs(30), "{:?}", t2.elapsed());
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("exiting now"),
        "{}",
        text(&out.stderr)
    );
    for p in store::list_checkpoints(&t.session("w")) {
        load(&p);
    }
}

/// The same stop delivered twice at once (`timeout -s INT` signals the command, then its own
/// process group) is one stop, which waits for the games under way; a Ctrl-C after it still
/// exits at once.
#[test]
#[cfg(unix)]
fn the_same_stop_delivered_twice_at_once_is_one_stop() {
    let t = Tmp::new("ctrl-c-doubled");
    let mut child = slow_session(&t);
    // One `kill` process, two signals back to back.
    let id = child.id().to_string();
    let st = Command::new("kill").args(["-INT", &id, &id]).status();
    assert!(st.expect("run kill").success());
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the doubled stop exited at once, or the games were too short"
    );
    sigint(&child);
    let out = child.wait_with_output().expect("wait");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert_eq!(err.matches("Ctrl-C: stopping").count(), 1, "{err}");
    assert_eq!(err.matches("again: exiting now").count(), 1, "{err}");
}

/// `--time` holds within a generation: a population of 256 (a generation takes far longer than
/// the limit) stops within seconds, saves its first population as generation 0, and resumes.
#[test]
fn time_limit_stops_within_a_generation() {
    let t = Tmp::new("time");
    let started = Instant::now();
    let out = run_ok(new_cmd(
        &t,
        64,
        "t",
        false,
        &["--population", "256", "--time", "2"],
    ));
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert!(out.contains("time limit reached"), "{out}");
    assert!(
        out.contains(&format!("continue with: {BIN} resume t")) && out.contains("--time 4 "),
        "{out}"
    );
    assert_eq!(generations_in(&t.session("t")), vec![0]);
    let s = load(&t.ckpt("t", 0));
    assert_eq!((s.generation, s.population.len()), (0, 256));
    let out = run_ok(resume_cmd(
        &t,
        Some(&t.session("t")),
        false,
        &["--time", "1"],
    ));
    assert!(out.contains("resuming 't'"), "{out}");
    assert!(out.contains("time limit reached"), "{out}");
    assert_eq!(generations_in(&t.session("t")), vec![0]);
}

/// A session stopped by `--time` part way through a generation keeps its whole generations and,
/// resumed, continues exactly as an uninterrupted session.
#[test]
fn a_session_cut_by_time_resumes_as_if_never_stopped() {
    let t = Tmp::new("time-cut");
    // --keep 0: every checkpoint stays, however many generations the two seconds hold.
    let out = run_ok(new_cmd(
        &t,
        65,
        "k",
        false,
        &slow(&["--time", "2", "--keep", "0"]),
    ));
    let dir = t.session("k");
    let gens = generations_in(&dir);
    let g = *gens.last().unwrap();
    if out.contains("was abandoned") {
        assert!(load(&t.ckpt("k", g)).elapsed < 2.0);
    }
    assert_eq!(origin_of(&t.best("k")), origin("k", 65, g));
    let to = (g + 2).to_string();
    // No --keep: resume keeps to the policy `new` set (every checkpoint).
    run_ok(resume_cmd(&t, Some(&dir), true, &["--generations", &to]));
    let whole = Tmp::new("time-cut-whole");
    run_ok(new_cmd(
        &whole,
        65,
        "k",
        true,
        &slow(&["--generations", &to, "--keep", "0"]),
    ));
    for k in 1..=g {
        assert_same_evolution(&t.ckpt("k", k), &whole.ckpt("k", k));
    }
    for k in g + 1..=g + 2 {
        assert_same_session(&t.ckpt("k", k), &whole.ckpt("k", k));
    }
}
