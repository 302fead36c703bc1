//! `play` works with piped standard input: bad moves are answered with the reason and a new
//! prompt, and the game ends with a result line.

mod common;

use common::{bin, Tmp};
use std::io::{Read, Write};
use std::process::Stdio;

#[test]
fn bad_moves_get_the_reason_and_a_new_prompt_then_the_game_ends() {
    // Black man on 14 must take the last White piece on 18, landing on 23.
    let mut child = bin()
        .args([
            "play", "--black", "human", "--white", "2:random", "--seed", "1",
        ])
        .args(["--fen", "B:W18:B14,1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hello\nxyz\n14-17\n14x23\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Legal moves: 14x23"), "{text}");
    for bad in ["hello", "xyz"] {
        let said = format!("Illegal move: '{bad}' is not a move (write a move like 11-15,");
        assert!(text.contains(&said), "{text}");
    }
    assert!(
        text.contains("Illegal move: '14-17' is not a legal move (a capture is mandatory)"),
        "{text}"
    );
    assert_eq!(text.matches("Black to move>").count(), 4, "{text}");
    assert!(
        text.trim_end()
            .ends_with("Result: 1-0 (White has no moves)"),
        "{text}"
    );
}

/// Reads from the child's output until the prompt `> ` (which has no newline) or the end.
fn read_until_prompt(r: &mut impl Read) -> (String, bool) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        match r.read(&mut byte) {
            Ok(0) | Err(_) => return (String::from_utf8_lossy(&buf).into_owned(), false),
            Ok(_) => {
                buf.push(byte[0]);
                if buf.ends_with(b"> ") {
                    return (String::from_utf8_lossy(&buf).into_owned(), true);
                }
            }
        }
    }
}

#[test]
fn a_scripted_human_plays_a_whole_game_against_the_computer_and_saves_pdn() {
    let t = Tmp::new("pdn");
    let pdn = t.0.join("game.pdn");
    let mut child = bin()
        .args([
            "play", "--black", "human", "--white", "3:random", "--seed", "9",
        ])
        .arg("--pdn")
        .arg(&pdn)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut transcript = String::new();
    let mut moves_sent = 0;
    loop {
        let (chunk, prompted) = read_until_prompt(&mut stdout);
        transcript += &chunk;
        if !prompted {
            break;
        }
        // Always answer with the last legal move listed, once with a wrong one first.
        let legal = chunk
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("Legal moves: "))
            .expect("legal moves are listed before the prompt");
        if moves_sent == 3 {
            writeln!(stdin, "32-28").unwrap();
            let (again, prompted) = read_until_prompt(&mut stdout);
            assert!(prompted && again.contains("Illegal move:"), "{again}");
            transcript += &again;
        }
        let mv = legal.split_whitespace().last().unwrap();
        writeln!(stdin, "{mv}").unwrap();
        moves_sent += 1;
        assert!(moves_sent < 400, "game did not end");
    }
    let status = child.wait().unwrap();
    assert!(status.success());
    let result = transcript
        .lines()
        .find(|l| l.starts_with("Result: "))
        .unwrap_or_else(|| panic!("no result line in:\n{transcript}"));
    assert!(
        result.starts_with("Result: 1-0 (")
            || result.starts_with("Result: 0-1 (")
            || result.starts_with("Result: 1/2-1/2 ("),
        "{result}"
    );
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[GameType \"21\"]"));
    assert!(text.contains("[Black \"human\"]"));
    assert!(text.starts_with("[Event "));
    let tag = result.split_whitespace().nth(1).unwrap();
    assert!(text.contains(&format!("[Result \"{tag}\"]")), "{text}");
}

#[test]
fn end_of_input_resigns_and_bad_players_are_errors() {
    let out = bin()
        .args(["play", "--white", "2:random", "--seed", "3"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("Result: 0-1 (Black resigned)"), "{text}");

    for bad in ["robot", "0:random", "x:random", "3:/no/such/file.json"] {
        let out = bin().args(["play", "--black", bad]).output().unwrap();
        // A bad player is a bad command line (2); a file that cannot be read, a failure (1).
        let code = if bad.contains('/') { 1 } else { 2 };
        assert_eq!(out.status.code(), Some(code), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
        assert!(err.starts_with("error: "), "{bad}: {err}");
        assert!(!err.contains("panicked"));
    }
    let out = bin().args(["play", "--fen", "B:W33:B1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("33"));
}

#[test]
fn help_lists_the_commands_and_quit_says_it_resigns() {
    let mut child = bin()
        .args(["play", "--white", "2:random", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Type a move (e.g. 11-15), help, or quit to resign."));
    for line in ["Commands:", "  help ", "  quit      resign the game"] {
        assert!(text.contains(line), "'{line}' not in {text}");
    }
    assert_eq!(
        text.matches("Black to move>").count(),
        2,
        "help asks again: {text}"
    );
    assert!(text.contains("Black resigns.\n"), "{text}");
    assert!(
        text.trim_end().ends_with("Result: 0-1 (Black resigned)"),
        "{text}"
    );
}

#[test]
fn a_computer_move_says_what_its_value_is_and_in_which_unit() {
    let out = bin()
        .args(["play", "--black", "2:material", "--white", "2:classic"])
        .args(["--max-plies", "2", "--seed", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let black = text
        .lines()
        .find(|l| l.starts_with("Black plays "))
        .unwrap();
    let white = text
        .lines()
        .find(|l| l.starts_with("White plays "))
        .unwrap();
    // In men, as the evaluation itself values a man.
    assert!(black.contains(" men for Black)"), "{black}");
    assert!(white.contains(" men for White)"), "{white}");
    assert!(black.contains(", eval "), "{black}");
    assert!(!text.contains("value "), "{text}");
    // A forced win is said in plies.
    let out = bin()
        .args(["play", "--black", "6:classic", "--white", "6:classic"])
        .args(["--fen", "B:W22:B9,10", "--seed", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Black plays 10-14 (60 nodes, Black wins within 3 plies)"),
        "{text}"
    );
    assert!(text.contains(", White loses within 2 plies)"), "{text}");
}

#[test]
fn help_says_what_white_plays_by_default_with_a_black_example() {
    let out = bin().args(["play", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("[default: 6:random]"), "{help}");
    assert!(help.contains("random weights"), "{help}");
    let mut child = bin()
        .args(["play", "--white", "2:random", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nf6-e5\nquit\n")
        .unwrap();
    let text = String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned();
    // The coordinate example of the help is a Black move: Black moves first, and it plays.
    assert!(text.contains("11-15 is f6-e5"), "{text}");
    assert!(!text.contains("c3-d4"), "{text}");
    assert!(text.contains("Last move: 11-15"), "{text}");
}

#[test]
fn a_clock_times_the_computer_from_piped_input() {
    // Human Black plays 11-15; the computer answers within its 0.05 s per move, its line naming
    // the depth reached and the time it took; the end of input resigns.
    let mut child = bin()
        .args([
            "play",
            "--black",
            "human",
            "--white",
            "40:classic",
            "--tc",
            "0.05",
            "--seed",
            "2",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"11-15\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("White: classic (tc 0.05 s/move, max depth 40)"),
        "{text}"
    );
    let result = text
        .lines()
        .find(|l| l.starts_with("Result: "))
        .unwrap_or_else(|| panic!("no result: {text}"));
    if result == "Result: 1-0 (White ran out of time)" {
        // A machine too busy for 0.05 s: the loss is reported, not a crash.
        assert!(text.contains("White ran out of time ("), "{text}");
    } else {
        assert_eq!(result, "Result: 0-1 (Black resigned)", "{text}");
        let reply = text
            .lines()
            .find(|l| l.starts_with("White plays "))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            reply.contains(" (depth ") && reply.contains(" s, eval "),
            "{reply}"
        );
    }

    // Two computers on a game clock, to the move cap or an end.
    let out = bin()
        .args(["play", "--black", "8:material", "--white", "8:hand"])
        .args(["--tc", "1+0.01", "--max-plies", "8", "--seed", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(" s left"), "{text}");
    assert!(text.contains("\nResult: "), "{text}");

    // A bad clock is one line (as every bad flag value: exit 2); a depth beyond 64 too.
    let out = bin().args(["play", "--tc", "fast"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.lines().count() == 1 && err.contains("--tc"), "{err}");
    let out = bin()
        .args(["play", "--black", "65:classic", "--tc", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("1..64 with --tc"),
        "{err}"
    );
}

/// Evolved weights may weigh the side's own men below 0 (the hour's: `men` -393, `opp_men`
/// +4416): the value is said in men all the same, as the weights value a man (the start
/// position a man up against a man down), not in raw units beside a meaningless `men` weight.
#[test]
fn a_value_is_said_in_men_whatever_the_men_weight() {
    let hour = common::repo("weights/evolved-hour.json");
    let out = bin()
        .args(["play", "--black", &format!("2:{}", hour.display())])
        .args(["--white", "2:material", "--max-plies", "4", "--seed", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("weighs"), "{text}");
    for l in text.lines().filter(|l| l.contains(" plays ")) {
        let v: f64 = l
            .split("eval ")
            .nth(1)
            .and_then(|r| r.split(" men for ").next())
            .unwrap_or_else(|| panic!("not in men: {l}"))
            .parse()
            .unwrap();
        // Four plies into the game, nobody is more than a few men ahead.
        assert!(v.abs() < 5.0, "{l}");
    }
}

/// `play` with `args`, its input typed after `pause` (then closed): its exit status and what it
/// printed.
fn play_typed(args: &[&str], pause: std::time::Duration, typed: &[u8]) -> (bool, String) {
    let mut child = bin()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    std::thread::sleep(pause);
    input.write_all(typed).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Two people at one terminal take turns reading the same input, each reading only its own
/// line: the moves all written at once are played in order, to the end of the input, which
/// resigns for the side to move.
#[test]
fn two_people_at_one_terminal_read_their_own_lines() {
    let args = ["--black", "human", "--white", "human", "--seed", "1"];
    let typed = b"11-15\n23-19\n8-11\n22-17\n";
    let (ok, text) = play_typed(&args, std::time::Duration::ZERO, typed);
    assert!(ok, "{text}");
    assert!(text.contains("Black: human  White: human"), "{text}");
    assert_eq!(text.matches("Black to move>").count(), 3, "{text}");
    assert_eq!(text.matches("White to move>").count(), 2, "{text}");
    assert!(!text.contains("Illegal move"), "{text}");
    assert!(text.contains("End of input: Black resigns."), "{text}");
    assert!(text.contains("Result: 0-1 (Black resigned)"), "{text}");
}

/// A person is not timed on a clock (`--tc` times the computer sides): a move typed after
/// longer than the clock allows still stands.
#[test]
fn a_person_slower_than_the_clock_does_not_lose_on_time() {
    let args = ["--black", "human", "--white", "2:random", "--seed", "1"];
    let late = std::time::Duration::from_millis(300);
    let (ok, text) = play_typed(&[&args[..], &["--tc", "0.05"]].concat(), late, b"11-15\n");
    assert!(ok, "{text}");
    assert!(!text.contains("ran out of time"), "{text}");
    assert!(text.contains("Result: 0-1 (Black resigned)"), "{text}");
}

#[test]
fn a_tuned_engines_parameter_file_plays_as_that_engine() {
    // What `spsa` (or any tuner of an outside engine) writes: the engine and its values.
    let t = Tmp::new("play-params");
    let engine = format!(
        "python3 {}/examples/hub_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let params = t.0.join("tuned.json");
    let out = bin()
        .args(["spsa", "--engine", &engine, "--games", "4", "--depth", "1"])
        .args(["--seed", "1", "--threads", "1", "--quiet", "--populations"])
        .arg(t.0.join("populations"))
        .arg("--out")
        .arg(&params)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let side = format!("2:{}", params.display());
    let out = bin()
        .args([
            "play",
            "--black",
            &side,
            "--white",
            "2:material",
            "--seed",
            "1",
        ])
        .args(["--max-plies", "20"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The engine by its name and the file's, asked for the depth given.
    assert!(
        text.starts_with("Black: hub_engine.py (tuned) (depth 2)  White: material (depth 2)"),
        "{text}"
    );
    assert!(text.contains("Black plays "), "{text}");
    assert!(
        text.trim_end()
            .ends_with("Result: 1/2-1/2 (move limit reached)"),
        "{text}"
    );
}
