//! Unit tests of `client` (a file of their own beside it).

use super::*;
use crate::notation::parse_move;
use std::io::BufReader;

/// A time limit for an engine that works (a handshake, a move): generous, as a loaded machine
/// needs; a test never waits for it to pass.
const LONG: Duration = Duration::from_secs(60);

/// A command running fake engine `name` of tests/fake_engines with `args`.
fn fake(name: &str, args: &[&str]) -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines");
    let mut v = vec!["python3".to_string(), format!("{dir}/{name}.py")];
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

/// `command` with `options` set at its handshake.
fn with_options(command: Vec<String>, options: &[(String, String)]) -> Program {
    Program {
        options: options.to_vec(),
        ..Program::new(command)
    }
}

fn start(name: &str, args: &[&str]) -> Result<HubProcess, ClientError> {
    HubProcess::start(&Program::new(fake(name, args)), LONG, &|| false)
}

/// A marker no other process has on its command line.
fn marker(tag: &str) -> String {
    format!(
        "--marker=client-{tag}-{}-{:?}",
        std::process::id(),
        Instant::now()
    )
}

/// The processes whose command line holds `marker`.
fn with_marker(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmd).contains(marker) {
            found.push(pid);
        }
    }
    found
}

/// No process with `marker` is left: the engine's process group was killed when it was dropped,
/// and a killed process may take a moment to go on a loaded machine (the grandchild is reaped
/// by init, not by us): a generous bound, which a process that was not killed reaches.
fn assert_none_left(marker: &str) {
    let t = std::time::Instant::now();
    while !with_marker(marker).is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "left: {:?}",
            with_marker(marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Plays the engine's moves from the start until it fails (at most `n` moves).
fn play(p: &mut HubProcess, n: usize) -> Result<Vec<Move>, ClientError> {
    let start = Position::start();
    let mut moves = Vec::new();
    let mut pos = start;
    for _ in 0..n {
        let r = p.go(&start, &moves, Some(HubLevel::Depth(2)), LONG, &|| false)?;
        pos = pos.play(&r.mv);
        moves.push(r.mv);
    }
    let _ = pos;
    Ok(moves)
}

#[test]
fn a_good_engine_is_named_and_plays_the_moves_it_says() {
    let opts = [
        ("level".to_string(), "3".to_string()),
        ("bogus".to_string(), "1".to_string()),
    ];
    let mut p =
        HubProcess::start(&with_options(fake("good", &[]), &opts), LONG, &|| false).unwrap();
    assert_eq!(p.name(), Some("good"));
    assert_eq!(p.params()[0].name, "level");
    assert_eq!(p.params()[0].kind.as_deref(), Some("int"));
    assert_eq!(p.unknown_options(), ["bogus".to_string()]);
    p.new_game().unwrap();
    let start = Position::start();
    // After 11-15 22-18 Black must take: 15x22.
    let opening = [parse_move(&start, "11-15").unwrap()];
    let after = start.play(&opening[0]);
    let moves = [opening[0], parse_move(&after, "22-18").unwrap()];
    let r = p
        .go(
            &start,
            &moves,
            Some(HubLevel::MoveTime(Duration::from_millis(100))),
            LONG,
            &|| false,
        )
        .unwrap();
    assert_eq!(r.text, "15x22x18");
    assert_eq!(r.mv.to_string(), "15x22");
    assert_eq!((r.score, r.depth, r.nodes), (Some(0.0), Some(1), Some(1)));
    assert_eq!(r.centi_men(), Some(0));
    assert_eq!(play(&mut p, 6).unwrap().len(), 6);
}

#[test]
fn an_illegal_move_is_caught_by_our_rules() {
    let mut p = start("illegal", &["11-16"]).unwrap();
    match play(&mut p, 10) {
        Err(ClientError::Fault(EngineFault::IllegalMove, d)) => {
            assert!(d.starts_with("11-16"), "{d}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_exit_mid_game_says_how_and_its_last_words() {
    let mut p = start("exit", &[]).unwrap();
    match play(&mut p, 10) {
        Err(e @ ClientError::Fault(EngineFault::Exited, _)) => {
            // The fault's word once: not `exited: exited (exit status 3)`.
            assert_eq!(
                e.to_string(),
                "exited: exit status 3; its last words: fake engine: giving up"
            )
        }
        other => panic!("{other:?}"),
    }
    // Once ended, every later request fails the same way, at once.
    assert!(matches!(
        p.new_game().and_then(|_| play(&mut p, 1).map(|_| ())),
        Err(ClientError::Fault(EngineFault::Exited, _))
    ));
}

#[test]
fn a_hung_engine_times_out_and_dies_with_its_children() {
    let m = marker("hang");
    let mut p = start("hang", &[&m]).unwrap();
    let start_pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..2 {
        let r = p
            .go(&start_pos, &moves, Some(HubLevel::Depth(1)), LONG, &|| {
                false
            })
            .unwrap();
        moves.push(r.mv);
    }
    let t = Instant::now();
    let e = p
        .go(
            &start_pos,
            &moves,
            Some(HubLevel::Depth(1)),
            Duration::from_millis(300),
            &|| false,
        )
        .unwrap_err();
    // The engine sleeps for an hour: the fault is our timeout's (no upper bound on the time,
    // which a loaded machine could break).
    assert!(t.elapsed() >= Duration::from_millis(300));
    match e {
        ClientError::Fault(EngineFault::Hung, d) => {
            assert!(
                d.contains("no move after 0.3 s") && d.contains("thinking forever"),
                "{d}"
            )
        }
        other => panic!("{other:?}"),
    }
    // The engine and the child it started.
    assert_eq!(with_marker(&m).len(), 2);
    drop(p);
    assert_none_left(&m);
}

#[test]
fn garbage_instead_of_a_move() {
    let mut p = start("garbage", &[]).unwrap();
    match play(&mut p, 10) {
        Err(ClientError::Fault(EngineFault::Garbage, d)) => {
            assert!(d.contains("garbage"), "{d}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_answer_to_hub_is_no_handshake() {
    let t = Instant::now();
    let r = HubProcess::start(
        &Program::new(fake("silent", &[])),
        Duration::from_millis(300),
        &|| false,
    );
    assert!(
        matches!(r, Err(ClientError::Fault(EngineFault::NoHandshake, _))),
        "{:?}",
        r.err()
    );
    // The engine never answers: the fault is the timeout's.
    assert!(t.elapsed() >= Duration::from_millis(300));
}

#[test]
fn a_program_that_cannot_start_exits() {
    let cmd = ["/nonexistent/engine".to_string()];
    match HubProcess::start(&Program::new(cmd.to_vec()), Duration::from_secs(1), &|| {
        false
    }) {
        Err(ClientError::Fault(EngineFault::Exited, d)) => {
            assert!(d.contains("cannot start"), "{d}")
        }
        other => panic!("{:?}", other.err()),
    }
    // A script that dies at once: its words on standard error are the reason.
    let cmd = ["python3", "-c", "import sys; sys.exit('no such weights')"].map(String::from);
    match HubProcess::start(&Program::new(cmd.to_vec()), Duration::from_secs(5), &|| {
        false
    }) {
        Err(ClientError::Fault(EngineFault::Exited, d)) => {
            assert!(
                d.contains("exit status 1") && d.contains("no such weights"),
                "{d}"
            )
        }
        other => panic!("{:?}", other.err()),
    }
}

/// An engine's last words longer than a report's line keep their end, where the reason is.
#[test]
fn long_last_words_keep_their_reason() {
    let cmd = [
        "python3",
        "-c",
        "import sys; sys.exit(\"python3: can't open file '\" + '/deep' * 80 + \"/nosuch.py': [Errno 2] No such file or directory\")",
    ]
    .map(String::from);
    match HubProcess::start(&Program::new(cmd.to_vec()), LONG, &|| false) {
        Err(ClientError::Fault(EngineFault::Exited, d)) => {
            assert!(
                d.contains("its last words: python3: can't open file '/deep/deep"),
                "{d}"
            );
            assert!(
                d.ends_with("/deep/nosuch.py': [Errno 2] No such file or directory"),
                "{d}"
            );
            assert!(d.contains("..."), "{d}");
            let words = d.split("its last words: ").nth(1).unwrap();
            assert_eq!(words.chars().count(), ONE_LINE, "{words}");
        }
        other => panic!("{:?}", other.err()),
    }
    assert_eq!(one_line(" short \n line "), "short   line");
}

/// An engine whose output ends well before it exits and says why (as on a loaded machine,
/// where its exit and its standard error come late): both are waited for, not a moment.
#[test]
fn last_words_that_come_late_are_in_the_fault() {
    let cmd = [
        "python3",
        "-c",
        "import os, sys, time; os.close(1); time.sleep(0.5); sys.exit('no such weights')",
    ]
    .map(String::from);
    match HubProcess::start(
        &Program::new(cmd.to_vec()),
        Duration::from_secs(30),
        &|| false,
    ) {
        Err(ClientError::Fault(EngineFault::Exited, d)) => {
            assert!(
                d.contains("exit status 1") && d.contains("its last words: no such weights"),
                "{d}"
            )
        }
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn noise_on_stderr_does_not_matter() {
    let mut p = start("noisy", &[]).unwrap();
    assert_eq!(play(&mut p, 8).unwrap().len(), 8);
    // Standard error is read by a thread of its own, which may lag behind the moves on a
    // loaded machine: its last line is waited for (a generous bound).
    let t = Instant::now();
    while !p
        .stderr_tail()
        .last()
        .is_some_and(|l| l.starts_with("noise 8.1999:"))
    {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{:?}",
            p.stderr_tail()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(p.stderr_tail().len() <= STDERR_KEPT);
}

#[test]
fn a_stop_ends_the_wait() {
    let m = marker("stop");
    let mut p = start("hang", &[&m]).unwrap();
    let start_pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..2 {
        moves.push(
            p.go(&start_pos, &moves, Some(HubLevel::Depth(1)), LONG, &|| {
                false
            })
            .unwrap()
            .mv,
        );
    }
    let t = Instant::now();
    let r = p.go(
        &start_pos,
        &moves,
        Some(HubLevel::Depth(1)),
        Duration::from_secs(60),
        &|| t.elapsed() >= Duration::from_millis(100),
    );
    // Stopped, not hung: the timeout (60 s) is not what ended the wait.
    assert_eq!(r.unwrap_err(), ClientError::Stopped);
    drop(p);
    assert_none_left(&m);
}

#[test]
fn the_output_is_read_in_lines_long_ones_cut() {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import sys; sys.stdout.write('a' * 70000 + 'b\\r\\nnext\\n\\nlast')",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = Output::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    loop {
        match out.next(LONG) {
            Next::Line(l, _) => lines.push(l),
            Next::End => break,
            Next::Timeout => panic!("no output"),
        }
    }
    let _ = child.wait();
    assert_eq!(
        lines.len(),
        4,
        "{:?}",
        lines.iter().map(|l| l.len()).collect::<Vec<_>>()
    );
    assert_eq!(lines[0], "a".repeat(MAX_LINE));
    assert_eq!(lines[1..], ["next", "", "last"]);
    assert!(matches!(out.next(Duration::ZERO), Next::End));
}

#[test]
fn long_lines_are_cut_and_ends_of_line_dropped() {
    let mut text = vec![b'a'; MAX_LINE + 10];
    text.extend_from_slice(b"\r\nnext\n\nlast");
    let mut r = BufReader::with_capacity(1000, &text[..]);
    assert_eq!(read_line(&mut r).unwrap().len(), MAX_LINE);
    assert_eq!(read_line(&mut r).unwrap(), "next");
    assert_eq!(read_line(&mut r).unwrap(), "");
    assert_eq!(read_line(&mut r).unwrap(), "last");
    assert_eq!(read_line(&mut r), None);
    assert_eq!(seconds(Duration::from_millis(1500)), "1.5");
    assert_eq!(seconds(Duration::from_secs(2)), "2");
    assert_eq!(seconds(Duration::ZERO), "0");
}

#[test]
fn values_are_checked_against_the_declaration() {
    let p = |kind: &str, min: Option<&str>, max: Option<&str>| HubParam {
        name: "x".to_string(),
        value: None,
        kind: Some(kind.to_string()),
        min: min.map(str::to_string),
        max: max.map(str::to_string),
    };
    let int = p("int", Some("1"), Some("9"));
    assert_eq!(misfit(&int, "5"), None);
    assert_eq!(misfit(&int, " 9"), None);
    assert_eq!(
        misfit(&int, "abc").as_deref(),
        Some("'abc' is not an integer (x is declared int 1..9)")
    );
    assert_eq!(
        misfit(&int, "10").as_deref(),
        Some("10 is outside the range (x is declared int 1..9)")
    );
    assert!(misfit(&int, "0").is_some() && misfit(&int, "1.5").is_some());
    assert_eq!(misfit(&p("int", None, None), "-123456789012"), None);
    let real = p("real", Some("0"), Some("1"));
    assert_eq!(misfit(&real, "0.5"), None);
    assert!(misfit(&real, "1.5").is_some() && misfit(&real, "nan").is_some());
    assert_eq!(misfit(&p("bool", None, None), "true"), None);
    assert!(misfit(&p("bool", None, None), "yes").is_some());
    assert_eq!(misfit(&p("string", None, None), "anything"), None);
}

/// The `error` lines an engine answers to `set-param` before `ready` are what it refused.
#[test]
fn values_an_engine_refuses_are_kept() {
    let opts = [
        ("level".to_string(), "high".to_string()),
        ("level".to_string(), "3".to_string()),
    ];
    let p = HubProcess::start(&with_options(fake("good", &[]), &opts), LONG, &|| false).unwrap();
    assert_eq!(p.refused(), ["set-param level: 'high' is not an integer"]);
    let p = HubProcess::start(&with_options(fake("good", &[]), &opts[1..]), LONG, &|| {
        false
    })
    .unwrap();
    assert!(p.refused().is_empty());
}

#[test]
fn a_parameter_declared_twice_is_one_parameter_as_last_declared() {
    let file = std::env::temp_dir().join(format!("ckga-declared-twice-{}", std::process::id()));
    std::fs::write(&file, "a 1 0 10\nb 2 0 10\na 5 0 20\n").unwrap();
    let p = start("declares", &[file.to_str().unwrap()]);
    let _ = std::fs::remove_file(&file);
    let p = p.unwrap();
    let declared: Vec<(&str, Option<&str>, Option<&str>)> = p
        .params()
        .iter()
        .map(|q| (q.name.as_str(), q.value.as_deref(), q.max.as_deref()))
        .collect();
    assert_eq!(
        declared,
        [("a", Some("5"), Some("20")), ("b", Some("2"), Some("10"))]
    );
}
