//! No outside engine's process is left after a command ends, fails or is stopped: `spsa`,
//! `play`, `new --engine` and `resume` of such a session, and `match`. The engines are the
//! Python fakes of tests/fake_engines, most of them with `--linger`: such an engine starts a
//! child of its own and neither it nor its child ends at `quit` or at the end of its input,
//! so only a kill of the engine's process group leaves nothing (a fake that simply exited
//! when its input closes would hide a process the command forgot). Each engine carries a
//! marker on its command line, by which the test finds what is left, and a `--log` of what it
//! was sent, by which the test sees that it was started and played (so that "nothing left" is
//! not said of an engine that never ran). Without `python3` the tests fail in CI and elsewhere
//! say `SKIPPED`.

mod common;

use common::{assert_none_left, bin, manifest_dir, new_cmd, resume_cmd, text, with_marker, Tmp};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Is there a `python3` for the fake engines? Says `SKIPPED` when there is none (outside CI).
fn python() -> bool {
    common::have_python()
}

/// A fake engine of one test: its command line (run in the repository), its marker and its log.
struct Engine {
    cmd: String,
    marker: String,
    log: PathBuf,
}

impl Engine {
    /// `python3 tests/fake_engines/FAKE.py ARGS --marker=... --log=T/TAG.log` (ARGS may be
    /// empty), the marker unique to this test process and tag.
    fn new(t: &Tmp, fake: &str, args: &str, tag: &str) -> Engine {
        let marker = format!(
            "--marker=engines-left-{tag}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        );
        let log = t.0.join(format!("{tag}.log"));
        let cmd = format!(
            "python3 tests/fake_engines/{fake}.py {args} {marker} --log={}",
            log.display()
        );
        Engine { cmd, marker, log }
    }

    /// The `go` commands the engines of this marker were sent, in all.
    fn goes(&self) -> usize {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.split_whitespace().nth(1) == Some("go"))
            .count()
    }

    /// How many engine processes of this marker were started (the process ids in the log: each
    /// logs its handshake).
    fn processes(&self) -> usize {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let pids: std::collections::HashSet<&str> = log
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        pids.len()
    }

    /// The most `go` commands one engine process of this marker was sent (by the process
    /// ids in the log): 3 when a `hang.py` thinks for ever.
    fn most_goes_of_one(&self) -> usize {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let mut by_pid = std::collections::HashMap::new();
        for l in log.lines() {
            let mut w = l.split_whitespace();
            if let (Some(pid), Some("go")) = (w.next(), w.next()) {
                *by_pid.entry(pid.to_string()).or_insert(0) += 1;
            }
        }
        by_pid.into_values().max().unwrap_or(0)
    }

    /// Asserts that the engine was asked for moves, then that none of its processes (nor
    /// their children) is left.
    fn played_and_none_left(&self) {
        assert!(self.goes() > 0, "the engine was never asked for a move");
        assert_none_left(&self.marker);
    }
}

/// Starts `c` in the repository, its output to files in `t` (no pipe to fill and block it).
fn spawn(t: &Tmp, mut c: Command, tag: &str) -> Child {
    let file = |ext: &str| std::fs::File::create(t.0.join(format!("{tag}.{ext}"))).unwrap();
    c.current_dir(manifest_dir())
        .stdin(Stdio::null())
        .stdout(file("out"))
        .stderr(file("err"))
        .spawn()
        .expect("run checkers-ga")
}

/// Waits until `ready()` (at most two minutes), the child still running.
fn wait_until(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let t = Instant::now();
    while !ready() {
        if let Some(st) = child.try_wait().unwrap() {
            panic!("the command ended ({st}) before {what}");
        }
        if t.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("no {what} within 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends SIGINT `times` times to the child (a moment between), then [`end_of`] it.
fn interrupt(t: &Tmp, child: Child, tag: &str, times: usize) -> (ExitStatus, String, String) {
    for _ in 0..times {
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        std::thread::sleep(Duration::from_millis(100));
    }
    end_of(t, child, tag)
}

/// Waits for the end of the child started by [`spawn`] with `tag` (a generous bound, far
/// beyond what a stop takes, that only a command deaf to its signal reaches); returns its
/// status, stdout and stderr.
fn end_of(t: &Tmp, mut child: Child, tag: &str) -> (ExitStatus, String, String) {
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "still running after 30 s; stderr:\n{}",
                t.read(&format!("{tag}.err"))
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status,
        t.read(&format!("{tag}.out")),
        t.read(&format!("{tag}.err")),
    )
}

/// Exit status 130, as after Ctrl-C.
fn assert_130(st: ExitStatus, out: &str, err: &str) {
    assert_eq!(st.code(), Some(130), "{st}\nstdout:\n{out}\nstderr:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// spsa

/// `spsa --engine CMD --games GAMES` at depth 1, 2 pairs a step, 2 threads, seed 1, session
/// `name` under T/populations, its values to T/NAME.json, quiet, run in the repository.
fn spsa(t: &Tmp, engine: &Engine, games: &str, name: &str) -> Command {
    let mut c = bin();
    c.current_dir(manifest_dir())
        .args(["spsa", "--engine", &engine.cmd, "--games", games])
        .args([
            "--depth",
            "1",
            "--pairs",
            "2",
            "--threads",
            "2",
            "--seed",
            "1",
        ])
        .args(["--quiet", "--name", name, "--populations"])
        .arg(t.pops())
        .arg("--out")
        .arg(t.0.join(format!("{name}.json")));
    c
}

#[test]
fn spsa_that_ends_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("spsa-end");
    let e = Engine::new(&t, "good", "--linger", "spsa-end");
    let out = spsa(&t, &e, "8", "s").output().unwrap();
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    // --quiet: the answer's path alone, once the run has ended.
    let best = t.session("s").join("best.json");
    assert_eq!(said, format!("{}\n", best.display()));
    e.played_and_none_left();
}

/// Engines that fault in every game (an illegal move; an exit mid-game, its child left to us;
/// a hang past `--move-timeout`, with a child): the run loses those games and ends, and
/// leaves none of them.
#[test]
fn spsa_whose_engine_faults_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("spsa-faults");
    for (fake, args) in [("illegal", "--linger"), ("exit", "--linger"), ("hang", "")] {
        let e = Engine::new(&t, fake, args, &format!("spsa-{fake}"));
        let mut c = spsa(&t, &e, "4", fake);
        c.args(["--move-timeout", "1"]);
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{fake}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        e.played_and_none_left();
    }
}

/// A run that fails: mid-run, when its checkpoint can no longer be written (the session's
/// folder is replaced by a file once games are under way), and at the start, after the engine's
/// handshake (a parameter it does not declare). Exit status 1; no engine left.
#[test]
fn spsa_that_fails_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("spsa-fail");
    let e = Engine::new(&t, "good", "--linger", "spsa-fail");
    let mut child = spawn(&t, spsa(&t, &e, "100000", "s"), "spsa-fail");
    let ckpt = t.session("s").join("spsa.ckpt");
    // The checkpoint is written at the start too: the games under way, the next one fails.
    wait_until(&mut child, "a checkpoint and a game", || {
        ckpt.exists() && e.goes() > 0
    });
    std::fs::rename(t.session("s"), t.0.join("s-gone")).unwrap();
    std::fs::write(t.session("s"), "not a folder").unwrap();
    let (st, out, err) = end_of(&t, child, "spsa-fail");
    assert_eq!(st.code(), Some(1), "{st}\nstdout:\n{out}\nstderr:\n{err}");
    assert!(err.contains("cannot write"), "{err}");
    e.played_and_none_left();

    let e = Engine::new(&t, "good", "--linger", "spsa-queen");
    let mut c = spsa(&t, &e, "8", "q");
    c.args(["--tune", "queen"]);
    let out = c.output().unwrap();
    common::assert_error_exit(&out, 1, &["no parameter 'queen'"]);
    let log = std::fs::read_to_string(&e.log).unwrap_or_default();
    assert!(log.contains(" hub"), "the engine was not started: {log:?}");
    assert_none_left(&e.marker);
}

/// Ctrl-C once while the games are under way, once while an engine thinks for ever
/// (`hang.py`, no move timeout), and twice (exit at once): exit status 130 and no engine left,
/// nor an engine's child.
#[test]
fn spsa_stopped_by_ctrl_c_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("spsa-stop");
    let e = Engine::new(&t, "good", "--linger", "spsa-stop");
    let mut child = spawn(&t, spsa(&t, &e, "100000", "s"), "spsa-stop");
    let ckpt = t.session("s").join("spsa.ckpt");
    wait_until(&mut child, "a checkpoint and a game", || {
        ckpt.exists() && e.goes() > 0
    });
    let (st, out, err) = interrupt(&t, child, "spsa-stop", 1);
    assert_130(st, &out, &err);
    // --quiet: how to continue is on standard error.
    assert!(err.contains("continue with:"), "{out}{err}");
    e.played_and_none_left();

    for times in [1, 2] {
        let tag = format!("spsa-hang{times}");
        let e = Engine::new(&t, "hang", "", &tag);
        let name = format!("h{times}");
        let mut child = spawn(&t, spsa(&t, &e, "100000", &name), &tag);
        // An engine at its third move, which never comes (spsa, the engine and its child at
        // least; how many games are under way is the pool's business).
        wait_until(&mut child, "an engine thinking for ever", || {
            e.most_goes_of_one() >= 3 && with_marker(&e.marker).len() >= 3
        });
        let (st, out, err) = interrupt(&t, child, &tag, times);
        assert_130(st, &out, &err);
        e.played_and_none_left();
    }
}

// ---------------------------------------------------------------------------------------------
// play

/// `play --black hub:CMD --white WHITE --seed 1`, run in the repository.
fn play(engine: &Engine, white: &str) -> Command {
    let mut c = bin();
    c.current_dir(manifest_dir())
        .args(["play", "--black", &format!("hub:{}", engine.cmd)])
        .args(["--white", white, "--seed", "1"]);
    c
}

#[test]
fn play_to_the_end_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("play-end");
    let e = Engine::new(&t, "good", "--linger", "play-end");
    let out = play(&e, "2:material")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains("\nResult: "), "{said}");
    // The engine started to read its name is the one that plays.
    assert_eq!(e.processes(), 1, "{said}");
    e.played_and_none_left();
}

#[test]
fn play_against_a_faulting_engine_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("play-fault");
    let e = Engine::new(&t, "illegal", "--linger", "play-fault");
    let out = play(&e, "2:material")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(
        said.contains("Result: 0-1 (Black's engine played an illegal move)"),
        "{said}"
    );
    e.played_and_none_left();
}

/// The human side resigns, by `quit` or by the end of its input, after the engine's first
/// move.
#[test]
fn play_that_the_human_quits_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("play-quit");
    for (tag, input) in [("quit", &b"quit\n"[..]), ("eof", &b""[..])] {
        let e = Engine::new(&t, "good", "--linger", &format!("play-{tag}"));
        let mut child = play(&e, "human")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut w = child.stdin.take().unwrap();
            w.write_all(input).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        let said = text(&out.stdout);
        assert!(out.status.success(), "{tag}: {said}{}", text(&out.stderr));
        assert!(
            said.contains("Result: 1-0 (White resigned)"),
            "{tag}: {said}"
        );
        e.played_and_none_left();
    }
}

/// Ctrl-C while the engine thinks for ever (`hang.py`, which started a child): the game stops
/// (exit status 130; within a generous bound, far below the
/// 60 s an engine has for a move) and neither process is left.
#[test]
fn play_stopped_by_ctrl_c_while_the_engine_thinks_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("play-stop");
    let e = Engine::new(&t, "hang", "", "play-stop");
    let mut child = spawn(&t, play(&e, "2:material"), "play-stop");
    // play, the engine and its child; the engine at its third move, which never comes.
    wait_until(&mut child, "the engine thinking for ever", || {
        e.most_goes_of_one() >= 3 && with_marker(&e.marker).len() >= 3
    });
    let (st, out, err) = interrupt(&t, child, "play-stop", 1);
    assert!(
        st.code() == Some(130),
        "{st}\nstdout:\n{out}\nstderr:\n{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    e.played_and_none_left();
}

// ---------------------------------------------------------------------------------------------
// new --engine, resume

/// `new --engine CMD` at population 4, 2 duel games, a measure every 3 generations of 4 games,
/// depth 1, 2 threads, for `generations`, session `n` under T, quiet, run in the repository.
fn engine_new(t: &Tmp, engine: &Engine, generations: &str) -> Command {
    let mut c = new_cmd(
        t,
        5,
        "n",
        true,
        &[
            "--population",
            "4",
            "--duel-games",
            "2",
            "--measure-every",
            "3",
            "--measure-games",
            "4",
            "--depth",
            "1",
            "--threads",
            "2",
        ],
    );
    c.current_dir(manifest_dir())
        .args(["--engine", &engine.cmd, "--generations", generations]);
    c
}

/// `declares.py` of two int parameters, lingering.
fn declaring(t: &Tmp, tag: &str) -> Engine {
    let decl = t.write("params.txt", b"a 0 -50 50\nb 3 0 9\n");
    Engine::new(t, "declares", &format!("{} --linger", decl.display()), tag)
}

#[test]
fn an_engine_session_that_ends_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("new-end");
    let e = declaring(&t, "new-end");
    let out = engine_new(&t, &e, "1").output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(t.ckpt("n", 1).exists());
    e.played_and_none_left();
}

/// `new --engine` stopped by Ctrl-C in its second generation's games, then `resume` stopped
/// the same way in the games it plays: each exits 130, says how to continue and leaves no
/// engine.
#[test]
fn an_engine_session_stopped_and_its_resume_stopped_leave_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("new-stop");
    let e = declaring(&t, "new-stop");
    let mut child = spawn(&t, engine_new(&t, &e, "1000"), "new");
    let first = t.ckpt("n", 1);
    wait_until(&mut child, "generation 1's checkpoint", || first.exists());
    let so_far = e.goes();
    wait_until(&mut child, "a move of generation 2", || e.goes() > so_far);
    let (st, out, err) = interrupt(&t, child, "new", 1);
    assert_130(st, &out, &err);
    // --quiet: how to continue is on standard error.
    assert!(err.contains("continue with:"), "{out}{err}");
    e.played_and_none_left();

    let so_far = e.goes();
    let mut child = spawn(
        &t,
        resume_cmd(&t, Some(&t.session("n")), true, &[]),
        "resume",
    );
    wait_until(&mut child, "a move of the resumed session", || {
        e.goes() > so_far
    });
    let (st, out, err) = interrupt(&t, child, "resume", 1);
    assert_130(st, &out, &err);
    // --quiet: how to continue is on standard error.
    assert!(err.contains("continue with:"), "{out}{err}");
    assert_none_left(&e.marker);
}

// ---------------------------------------------------------------------------------------------
// match

/// A match that ends (tests/hub_faults.rs has the faults and Ctrl-C) against a lingering
/// engine.
#[test]
fn a_match_that_ends_leaves_no_engine() {
    if !python() {
        return;
    }
    let t = Tmp::new("match-end");
    let e = Engine::new(&t, "good", "--linger", "match-end");
    let out = bin()
        .current_dir(manifest_dir())
        .args(["match", "material", &format!("hub:{}", e.cmd)])
        .args(["--games", "4", "--depth", "2", "--threads", "2", "--quiet"])
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains("W/D/L for A: "), "{said}");
    // Two games at a time: at most two processes, the one that made the handshake before the
    // match among them.
    assert!((1..=2).contains(&e.processes()), "{}", e.processes());
    e.played_and_none_left();
}
