//! The handshake with an outside engine as the client makes it (`match`, `play`, `new
//! --engine`, `spsa`): one time limit, `--handshake-timeout` (10 s by default), and an engine
//! that does not finish its handshake at the start of a command fails the command once, in one
//! line, before any game; a match reports its wall time, the handshakes included. The fakes are
//! Python's (tests/fake_engines); without `python3` the tests say `SKIPPED` and pass.

mod common;

use common::{bin, manifest_dir, text, Tmp};
use std::process::{Command, Output};

/// Is there a `python3` to run the fake engines? Says `SKIPPED` (past the harness's capture)
/// when there is none.
fn python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: no python3, and the outside engines of this test are Python"
        );
    }
    ok
}

/// `checkers-ga ARGS`, run in the repository (the fakes' paths are relative to it).
fn run(args: &[&str]) -> Output {
    bin()
        .current_dir(manifest_dir())
        .args(args)
        .output()
        .expect("run checkers-ga")
}

/// The command failed with exactly one line on standard error holding every needle, and
/// printed nothing of a match or a game on standard output.
fn assert_one_line_failure(what: &str, out: &Output, needles: &[&str]) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{what}: {stdout}{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{what}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{what}: no '{n}' in {stderr}");
    }
    assert!(!stdout.contains("W/D/L"), "{what}: {stdout}");
}

const SILENT: &str = "python3 tests/fake_engines/silent.py";

/// An engine that never answers `hub`: every command that starts one fails once, in one line
/// naming the time limit it was given, before any game.
#[test]
fn an_engine_that_never_answers_fails_the_command_once_within_the_handshake_timeout() {
    if !python() {
        return;
    }
    let t = Tmp::new("handshake-silent");
    let hub = format!("hub:{SILENT}");
    let limit = ["--handshake-timeout", "1"];
    let said = [
        "never answered the handshake",
        "no 'wait' after 'hub' within 1 s",
    ];
    let out = run(&[&["match", "material", &hub, "--games", "2"][..], &limit].concat());
    assert_one_line_failure("match", &out, &said);
    let pops = t.0.join("pops");
    let pops = pops.to_str().unwrap();
    let out = run(&[
        &["new", "--engine", SILENT, "--populations", pops, "--quiet"][..],
        &limit,
    ]
    .concat());
    assert_one_line_failure("new --engine", &out, &said);
    let spsa_out = t.0.join("spsa.json");
    let out = run(&[
        &["spsa", "--engine", SILENT, "--games", "4", "--out"][..],
        &[spsa_out.to_str().unwrap()],
        &limit,
    ]
    .concat());
    assert_one_line_failure("spsa", &out, &said);
    let out = run(&[&["play", "--black", &hub, "--white", "random"][..], &limit].concat());
    assert_one_line_failure("play", &out, &said);
}

/// `--handshake-timeout` takes seconds above 0.
#[test]
fn a_bad_handshake_timeout_is_a_usage_error() {
    for bad in ["0", "-1", "nan", "100000"] {
        let flag = format!("--handshake-timeout={bad}");
        let out = run(&["match", "material", "hand", &flag]);
        common::assert_usage_error(&out, &["--handshake-timeout"]);
    }
}

/// A match's reported time is its wall time: an engine whose first start (the handshake tried
/// before the games) takes 2 s makes the match report at least 2 s.
#[test]
fn a_match_reports_its_wall_time_handshakes_included() {
    if !python() {
        return;
    }
    let t = Tmp::new("handshake-slow");
    let flag = t.0.join("started");
    let engine = format!(
        "hub:python3 tests/fake_engines/slow_first.py 2 {}",
        flag.display()
    );
    let out = run(&[
        "match",
        "material",
        &engine,
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "10",
        "--threads",
        "1",
        "--quiet",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let secs: f64 = stdout
        .split("time ")
        .nth(1)
        .and_then(|r| r.split(" s").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no time in {stdout}"));
    assert!(secs >= 2.0, "reported {secs} s: {stdout}");
}

const EXAMPLE: &str = "python3 examples/hub_engine.py";

/// A value the engine's declaration rules out (not an integer, outside the range), one it
/// answers with `error`, or an `--engine-option` naming a tuned or undeclared parameter stops
/// the command with one line before any game: `match` (`--option-a/-b`), `new --engine` and
/// `spsa` (`--engine-option`). The names are the example engine's (`king` is an int
/// 100..300).
#[test]
fn options_an_engine_cannot_take_stop_the_command_before_any_game() {
    if !python() {
        return;
    }
    let t = Tmp::new("handshake-options");
    let hub = format!("hub:{EXAMPLE}");
    for (option, said) in [
        (
            "king=abc",
            "--option-b king=abc: 'abc' is not an integer (king is declared int 100..300)",
        ),
        (
            "king=1000",
            "--option-b king=1000: 1000 is outside the range",
        ),
    ] {
        let out = run(&[
            "match",
            "classic",
            &hub,
            "--games",
            "2",
            "--option-b",
            option,
        ]);
        assert_one_line_failure(option, &out, &[said]);
    }
    // Our own engine refuses weights it cannot read: it answers `error`, and the match stops.
    let ours = format!("hub:{} hub", common::BIN);
    let out = run(&[
        "match",
        "material",
        &ours,
        "--games",
        "2",
        "--option-b",
        "weights=no-such-weights",
    ]);
    assert_one_line_failure(
        "refused",
        &out,
        &[
            "--option-b weights=no-such-weights: ",
            " refused: ",
            "cannot read 'no-such-weights'",
        ],
    );
    let pops = t.0.join("pops");
    let pops = pops.to_str().unwrap();
    for (more, said) in [
        (
            vec!["--engine-option", "king=140"],
            "--engine-option king=140 sets a parameter that is tuned; to keep it fixed, tune the others: --tune centre,edge,",
        ),
        (
            vec!["--engine-option", "man=abc"],
            "--engine-option man=abc: the engine declares no parameter 'man' (its parameters: king, centre,",
        ),
        (
            vec!["--tune", "centre", "--engine-option", "king=abc"],
            "--engine-option king=abc: 'abc' is not an integer",
        ),
        (
            vec!["--tune", "centre", "--engine-option", "king=99"],
            "--engine-option king=99: 99 is outside the range",
        ),
    ] {
        let out = run(&[&["new", "--engine", EXAMPLE, "--populations", pops, "--quiet"][..], &more].concat());
        assert_one_line_failure(&format!("new {more:?}"), &out, &[said]);
    }
    assert!(
        !t.0.join("pops").exists()
            || std::fs::read_dir(t.0.join("pops"))
                .unwrap()
                .next()
                .is_none()
    );
    let engine = format!("{} hub --tunable material", common::BIN);
    let out = run(&[
        "new",
        "--engine",
        &engine,
        "--tune",
        "kings",
        "--engine-option",
        "weights=no-such-weights",
        "--populations",
        pops,
        "--quiet",
    ]);
    assert_one_line_failure(
        "new, refused",
        &out,
        &[
            "--engine-option weights=no-such-weights: the engine refused: ",
            "cannot read",
        ],
    );
    let spsa_out = t.0.join("spsa.json");
    let out = run(&[
        "spsa",
        "--engine",
        EXAMPLE,
        "--games",
        "4",
        "--engine-option",
        "mobility=abc",
        "--tune",
        "king",
        "--out",
        spsa_out.to_str().unwrap(),
    ]);
    assert_one_line_failure(
        "spsa",
        &out,
        &["--engine-option mobility=abc: 'abc' is not an integer"],
    );
    assert!(!spsa_out.exists());
}

// ---------------------------------------------------------------------------------------------
// The order of what is sent, as docs/engines.md states it

/// A part of the docs' grammar of what is sent: a command, or a group, once, any number of
/// times (`*`) or at least once (`+`).
enum Item {
    Word(String),
    Group(Vec<Node>),
}

struct Node {
    item: Item,
    rep: char,
}

/// Reads the grammar's words (`hub set-param* init (new-game (pos level go)+)* quit`).
fn grammar(text: &str) -> Vec<Node> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let mut words = spaced.split_whitespace().peekable();
    fn seq<'a>(words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>) -> Vec<Node> {
        let mut out = Vec::new();
        while let Some(w) = words.next() {
            let item = match w {
                "(" => Item::Group(seq(words)),
                ")" => return out,
                w => Item::Word(w.trim_end_matches(['*', '+']).to_string()),
            };
            // A group's repetition is the word after its `)`, a word's its last character.
            let rep = match &item {
                Item::Group(_) => match words.peek() {
                    Some(&r @ ("*" | "+")) => {
                        words.next();
                        r.chars().next().unwrap()
                    }
                    _ => '1',
                },
                Item::Word(_) => ['*', '+']
                    .into_iter()
                    .find(|c| w.ends_with(*c))
                    .unwrap_or('1'),
            };
            out.push(Node { item, rep });
        }
        out
    }
    seq(&mut words)
}

/// Whether `nodes` match `toks[j..]`, then `k` the rest (backtracking).
fn matches(nodes: &[Node], toks: &[String], j: usize, k: &dyn Fn(usize) -> bool) -> bool {
    let Some((n, rest)) = nodes.split_first() else {
        return k(j);
    };
    let then = |j2: usize| matches(rest, toks, j2, k);
    fn one(item: &Item, toks: &[String], j: usize, k: &dyn Fn(usize) -> bool) -> bool {
        match item {
            Item::Word(w) => j < toks.len() && &toks[j] == w && k(j + 1),
            Item::Group(g) => matches(g, toks, j, k),
        }
    }
    fn many(item: &Item, min: usize, toks: &[String], j: usize, k: &dyn Fn(usize) -> bool) -> bool {
        one(item, toks, j, &|j2| {
            j2 > j && many(item, min.saturating_sub(1), toks, j2, k)
        }) || (min == 0 && k(j))
    }
    match n.rep {
        '*' => many(&n.item, 0, toks, j, &then),
        '+' => many(&n.item, 1, toks, j, &then),
        _ => one(&n.item, toks, j, &then),
    }
}

/// The grammar line of docs/engines.md that starts with `label` (`a match:`).
fn documented(label: &str) -> String {
    let doc = std::fs::read_to_string(manifest_dir().join("docs/engines.md")).unwrap();
    doc.lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("docs/engines.md states no order for '{label}'"))
        .trim()
        .to_string()
}

/// The lines each process received, by process, in the order of their first line (the fakes'
/// `--log=FILE`: `PID LINE`).
fn received(log: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(log).unwrap();
    let mut by: Vec<(String, Vec<String>)> = Vec::new();
    for l in text.lines() {
        let (pid, line) = l.split_once(' ').unwrap();
        match by.iter_mut().find(|(p, _)| p == pid) {
            Some((_, v)) => v.push(line.to_string()),
            None => by.push((pid.to_string(), vec![line.to_string()])),
        }
    }
    by.into_iter().map(|(_, v)| v).collect()
}

/// Every process received what the docs' `label` line says (its commands; a last `quit` may
/// be missing: a process that has not read it within 200 ms is killed). Returns the processes'
/// lines.
fn assert_sent_as_documented(label: &str, log: &std::path::Path) -> Vec<Vec<String>> {
    let mut text = documented(label);
    let procs = received(log);
    assert!(!procs.is_empty(), "nothing was sent");
    if let Some(t) = text.strip_suffix(" quit") {
        text = format!("{t} quit*");
    }
    let nodes = grammar(&text);
    for lines in &procs {
        let toks: Vec<String> = lines
            .iter()
            .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
            .collect();
        let n = toks.len();
        // Deep recursion over a long game: a thread with a stack to match.
        let ok = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(s, || matches(&nodes, &toks, 0, &|j| j == n))
                .unwrap()
                .join()
                .unwrap()
        });
        assert!(
            ok,
            "{label} {text}: not what was sent:\n{}",
            lines.join("\n")
        );
    }
    procs
}

/// The names of `set-param` lines in `lines`.
fn param_names(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("set-param name="))
        .map(|r| r.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// A match sends each process of an outside engine exactly what docs/engines.md says: the
/// options before `init`, then `new-game` and each move's `pos`, `level`, `go`.
#[test]
fn a_match_sends_what_the_docs_say_in_their_order() {
    if !python() {
        return;
    }
    let t = Tmp::new("order-match");
    let log = t.0.join("sent.log");
    let engine = format!(
        "hub:python3 tests/fake_engines/good.py --log={}",
        log.display()
    );
    let out = run(&[
        "match",
        "material",
        &engine,
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "12",
        "--threads",
        "1",
        "--quiet",
        "--option-b",
        "level=3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let procs = assert_sent_as_documented("a match:", &log);
    // The handshake's process is the one that played both games.
    assert_eq!(procs.len(), 1, "{procs:?}");
    for p in &procs {
        assert_eq!(
            p[..3],
            ["hub", "set-param name=level value=3", "init"],
            "{p:?}"
        );
        assert_eq!(param_names(p), ["level"], "{p:?}");
    }
    assert_eq!(procs[0].iter().filter(|l| *l == "new-game").count(), 2);
    assert!(
        procs[0].iter().any(|l| l == "level depth=1"),
        "{:?}",
        procs[0]
    );
}

/// A tuning session sends what docs/engines.md says: the option once at the start, then before
/// each game every tuned parameter, `init` and `new-game`.
#[test]
fn a_tuning_session_sends_what_the_docs_say_in_their_order() {
    if !python() {
        return;
    }
    let t = Tmp::new("order-session");
    let log = t.0.join("sent.log");
    let decl = t.write("params.txt", b"a 0 -50 50\nb 3 0 9\nc 1 0 5\n");
    let engine = format!(
        "python3 tests/fake_engines/declares.py {} --log={}",
        decl.display(),
        log.display()
    );
    let mut c = common::new_cmd(
        &t,
        3,
        "order",
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
            "--generations",
            "1",
            "--threads",
            "1",
            "--max-plies",
            "12",
        ],
    );
    c.current_dir(manifest_dir()).args([
        "--engine",
        &engine,
        "--tune",
        "a,b",
        "--engine-option",
        "c=2",
    ]);
    common::run_ok(c);
    let procs = assert_sent_as_documented("a tuning session:", &log);
    let mut games = 0;
    for p in &procs {
        assert_eq!(p[..3], ["hub", "set-param name=c value=2", "init"], "{p:?}");
        // Each game's values: the tuned parameters, each once.
        let mut block = Vec::new();
        for l in &p[3..] {
            if l == "new-game" {
                assert_eq!(param_names(&block), ["a", "b"], "{p:?}");
                assert_eq!(block.last().map(String::as_str), Some("init"), "{p:?}");
                block.clear();
                games += 1;
            } else if l.starts_with("set-param") || l == "init" {
                block.push(l.clone());
            }
        }
    }
    assert!(games >= 2, "{games} games");
}

/// The example engine takes `set-param` between games, as a tuning session sends it: its
/// search after `set-param`s and a second `init` is the search of an engine given those values
/// before its first `init`, and not the one with its defaults.
#[test]
fn the_example_engine_takes_values_between_games() {
    if !python() {
        return;
    }
    let search = "new-game\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\nlevel depth=2\ngo think\n";
    let values = "set-param name=mobility value=10\nset-param name=king value=300\n";
    // What it says of its searches, without their times.
    let said = |script: String| {
        let mut c = Command::new("python3")
            .arg(manifest_dir().join("examples/hub_engine.py"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut w = c.stdin.take().unwrap();
        let mut r = std::io::BufReader::new(c.stdout.take().unwrap());
        let mut searches = Vec::new();
        // One search at a time: a `go` is answered before the next lines are sent.
        for part in script.split_inclusive("go think\n") {
            use std::io::{BufRead, Write};
            w.write_all(part.as_bytes()).unwrap();
            w.flush().unwrap();
            if !part.ends_with("go think\n") {
                continue;
            }
            let mut lines = Vec::new();
            loop {
                let mut l = String::new();
                assert!(r.read_line(&mut l).unwrap() > 0, "the engine ended");
                if l.starts_with("info") {
                    let kept: Vec<&str> = l
                        .split_whitespace()
                        .filter(|w| !w.starts_with("time=") && !w.starts_with("nps="))
                        .collect();
                    lines.push(kept.join(" "));
                } else if l.starts_with("done") {
                    lines.push(l.trim().to_string());
                    break;
                }
            }
            searches.push(lines);
        }
        drop(w);
        c.wait().unwrap();
        searches
    };
    let tuned = said(format!("hub\ninit\n{search}{values}init\n{search}"));
    let fresh = said(format!("hub\n{values}init\n{search}"));
    assert_eq!(tuned.len(), 2);
    assert_eq!(tuned[1], fresh[0]);
    assert_ne!(tuned[0], tuned[1], "the values changed nothing");
}

// ---------------------------------------------------------------------------------------------
// Finding the program

/// `hub:NAME` looks NAME up on the PATH only, as a shell does: an engine in the current folder
/// is `hub:./NAME`, and the error for `hub:NAME` says so; a program that is nowhere gets
/// another message.
#[cfg(unix)]
#[test]
fn a_bare_name_is_found_on_the_path_and_a_program_here_needs_dot_slash() {
    use std::os::unix::fs::PermissionsExt;
    if !python() {
        return;
    }
    let t = Tmp::new("find-engine");
    let good = manifest_dir().join("tests/fake_engines/good.py");
    let exe = t.write(
        "myeng",
        format!("#!/bin/sh\nexec python3 {} \"$@\"\n", good.display()).as_bytes(),
    );
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let in_tmp = |engine: &str| {
        bin()
            .current_dir(&t.0)
            .args([
                "match",
                "material",
                engine,
                "--games",
                "2",
                "--depth",
                "1",
                "--max-plies",
                "10",
                "--quiet",
            ])
            .output()
            .unwrap()
    };
    let out = in_tmp("hub:myeng");
    assert_one_line_failure(
        "here",
        &out,
        &[
            "hub:myeng: no program 'myeng': none on PATH (",
            "the 'myeng' in the current folder runs as ./myeng, as in a shell (hub:./myeng)",
        ],
    );
    let out = in_tmp("hub:no-such-engine-anywhere");
    assert_one_line_failure(
        "nowhere",
        &out,
        &[
            "no program 'no-such-engine-anywhere': none on PATH (",
            "and none in the current folder",
        ],
    );
    let out = in_tmp("hub:./myeng");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("B: good"),
        "{}",
        text(&out.stdout)
    );
}
