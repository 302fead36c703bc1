//! `checkers-ga hub` driven through pipes as a Hub client drives it: the handshake, parameters,
//! positions with moves, every level, `stop` and `ping` during a search, garbage answered with
//! `error` lines, the end of input; and the fixed-depth move is the library's
//! `Searcher::choose` at that depth. With `--tunable`, the weights as parameters: declared,
//! set (a weight file's all set plays as that file), refused for an evaluation that is not
//! linear.

mod common;

use checkers_ga::{derive, legal_moves, load_weights, parse_fen, Purpose};
use checkers_ga::{hub_move, hub_position, parse_hub_move, HubLine};
use checkers_ga::{Evaluator, Position, SearchConfig, Searcher};
use common::{repo, BIN};
use rand::RngExt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running `checkers-ga hub`, its output lines read on a thread.
struct Hub {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

const LONG: Duration = Duration::from_secs(60);

impl Hub {
    fn start(args: &[&str]) -> Hub {
        let mut child = Command::new(BIN)
            .arg("hub")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start checkers-ga hub");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Hub {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let s = self.stdin.as_mut().expect("stdin open");
        writeln!(s, "{line}").unwrap();
        s.flush().unwrap();
    }

    /// The next line within `within`, or None.
    fn next_within(&mut self, within: Duration) -> Option<String> {
        match self.lines.recv_timeout(within) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    fn next(&mut self) -> String {
        self.next_within(LONG).expect("a line from the engine")
    }

    /// The next line that is not an `info` line, within `within` (a search under way says what
    /// each iteration found).
    fn answer_within(&mut self, within: Duration) -> Option<String> {
        let t = Instant::now();
        loop {
            let left = within.saturating_sub(t.elapsed());
            let l = self.next_within(left)?;
            if !l.starts_with("info ") {
                return Some(l);
            }
        }
    }

    fn answer(&mut self) -> String {
        self.answer_within(LONG).expect("an answer from the engine")
    }

    /// Lines up to and including the first whose command is `command`.
    fn until(&mut self, command: &str) -> Vec<HubLine> {
        let mut out = Vec::new();
        loop {
            let l = self.next();
            let parsed = HubLine::parse(&l).unwrap_or_else(|e| panic!("'{l}': {e}"));
            let done = parsed.command == command;
            out.push(parsed);
            if done {
                return out;
            }
        }
    }

    /// The handshake: `hub` ... `wait`, `init` ... `ready`.
    fn handshake(&mut self) -> Vec<HubLine> {
        self.send("hub");
        let lines = self.until("wait");
        self.send("init");
        assert_eq!(self.until("ready").len(), 1);
        lines
    }

    /// `go think` at the current position: the `info` lines and the move of `done`.
    fn go(&mut self) -> (Vec<HubLine>, String) {
        self.send("go think");
        let lines = self.until("done");
        let done = lines.last().unwrap();
        let m = done.get("move").expect("done move=").to_string();
        (lines, m)
    }

    /// Asserts the next line is `pong` after a `ping` (nothing else was said before it).
    fn assert_quiet(&mut self) {
        self.send("ping");
        assert_eq!(self.next(), "pong");
    }

    fn error(&mut self) -> String {
        let l = self.next();
        let parsed = HubLine::parse(&l).unwrap();
        assert_eq!(parsed.command, "error", "{l}");
        parsed.get("message").expect("message=").to_string()
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

#[test]
fn the_handshake_names_the_engine_and_every_parameter_with_a_value() {
    let mut hub = Hub::start(&[]);
    let lines = hub.handshake();
    assert_eq!(lines[0].command, "id");
    assert_eq!(lines[0].get("name"), Some("checkers-ga"));
    assert!(lines[0].get("version").is_some() && lines[0].get("author").is_some());
    let params: Vec<&HubLine> = lines.iter().filter(|l| l.command == "param").collect();
    let names: Vec<&str> = params.iter().map(|p| p.get("name").unwrap()).collect();
    for want in [
        "weights",
        "depth",
        "tie-break",
        "seed",
        "repetition-draws",
        "hash",
    ] {
        assert!(names.contains(&want), "{want} not in {names:?}");
    }
    // pydraughts splits every argument of `id` and `param` at `=`: each has a value.
    for l in lines.iter().filter(|l| l.command != "wait") {
        assert!(l.args.iter().all(|(_, v)| v.is_some()), "{l}");
    }
    assert_eq!(
        params
            .iter()
            .find(|p| p.get("name") == Some("weights"))
            .unwrap()
            .get("value"),
        Some("evolved-hour")
    );
    assert_eq!(lines.last().unwrap().command, "wait");
    hub.assert_quiet();
}

#[test]
fn parameters_are_checked_and_bad_values_are_error_lines() {
    let mut hub = Hub::start(&["classic", "--depth", "4"]);
    hub.handshake();
    for good in [
        "set-param name=depth value=5",
        "set-param name=tie-break value=first",
        "set-param name=seed value=7",
        "set-param name=repetition-draws value=true",
        "set-param name=hash value=12",
        "set-param name=weights value=material",
        "set-param name=no-such-param value=1",
    ] {
        hub.send(good);
        hub.assert_quiet();
    }
    for (bad, says) in [
        ("set-param name=depth value=0", "depth"),
        ("set-param name=depth value=31", "depth"),
        ("set-param name=tie-break value=last", "tie-break"),
        ("set-param name=seed value=-1", "seed"),
        (
            "set-param name=repetition-draws value=maybe",
            "repetition-draws",
        ),
        ("set-param name=hash value=21", "hash"),
        ("set-param name=weights value=/no/such/file.json", "weights"),
        ("set-param value=3", "name"),
        ("set-param name=depth", "value"),
    ] {
        hub.send(bad);
        let message = hub.error();
        assert!(message.contains(says), "{bad}: {message}");
    }
    // The engine still plays, with the last good values.
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=2");
    let (_, m) = hub.go();
    assert!(parse_hub_move(&Position::start(), &m).is_ok(), "{m}");
}

#[test]
fn positions_with_moves_and_every_level_give_legal_moves() {
    let mut hub = Hub::start(&["classic"]);
    hub.handshake();
    hub.send("new-game");
    let played = ["11-15", "23-19", "8-11", "22-17"];
    let mut pos = Position::start();
    for t in played {
        pos = pos.play(&parse_hub_move(&pos, t).unwrap());
    }
    let pos_line = format!("pos pos={START} moves=\"{}\"", played.join(" "));
    for (level, within) in [
        ("level depth=1", 20.0),
        ("level depth=6", 20.0),
        ("level move-time=0.3", 2.0),
        ("level time=2 inc=0.1", 2.5),
        ("level moves=20 time=3", 2.0),
        ("level time=0.05", 1.0),
    ] {
        hub.send(&pos_line);
        hub.send(level);
        let t = Instant::now();
        let (lines, m) = hub.go();
        let took = t.elapsed().as_secs_f64();
        assert!(took < within, "{level}: {took:.2}s");
        let legal = parse_hub_move(&pos, &m).unwrap_or_else(|e| panic!("{level}: {m}: {e}"));
        assert_eq!(hub_move(&pos, &legal), m, "written as Hub writes it");
        let infos: Vec<&HubLine> = lines.iter().filter(|l| l.command == "info").collect();
        let info = infos.last().expect("an info line");
        // Timed levels say what each iteration found, deeper and deeper.
        let depths: Vec<u32> = infos
            .iter()
            .map(|i| i.get("depth").unwrap().parse().unwrap())
            .collect();
        if level.starts_with("level depth") {
            assert_eq!(infos.len(), 1, "{level}");
        } else {
            assert!(
                depths.windows(2).all(|w| w[0] <= w[1]),
                "{level}: {depths:?}"
            );
            assert_eq!(depths[0], 1, "{level}: {depths:?}");
        }
        for key in ["depth", "mean-depth", "score", "nodes", "time", "nps", "pv"] {
            assert!(info.get(key).is_some(), "{level}: no {key} in {info}");
        }
        let depth: u32 = info.get("depth").unwrap().parse().unwrap();
        if let Some(d) = level.strip_prefix("level depth=") {
            assert_eq!(depth.to_string(), d);
        } else {
            assert!(depth >= 1, "{info}");
        }
        let score: f64 = info.get("score").unwrap().parse().unwrap();
        assert!(score.abs() < 100.0, "{info}");
        // The PV starts with the move and goes on with legal moves.
        let pv: Vec<&str> = info.get("pv").unwrap().split_whitespace().collect();
        assert_eq!(pv[0], m);
        let mut p = pos;
        for t in &pv {
            p = p.play(&parse_hub_move(&p, t).unwrap_or_else(|e| panic!("{level}: {pv:?}: {e}")));
        }
        if level == "level depth=6" {
            assert!(pv.len() >= 3, "{level}: {pv:?}");
        }
    }
    // A single legal move is played at once (depth 0, no score).
    let forced = parse_fen("B:W18:B14,1").unwrap();
    hub.send(&format!("pos pos={}", hub_position(&forced)));
    hub.send("level depth=20");
    let (lines, m) = hub.go();
    assert_eq!(m, "14x23x18");
    assert_eq!(lines[0].get("depth"), Some("0"));
    assert_eq!(lines[0].get("score"), None);
}

#[test]
fn stop_and_ping_are_answered_during_an_infinite_search() {
    let mut hub = Hub::start(&[]);
    hub.handshake();
    hub.send(&format!("pos pos={START} moves=\"11-15\""));
    hub.send("level infinite");
    hub.send("go analyze");
    // Still searching: nothing said for a while, then `ping` is answered during the search.
    assert_eq!(hub.answer_within(Duration::from_millis(500)), None);
    let t = Instant::now();
    hub.send("ping");
    assert_eq!(hub.answer(), "pong");
    assert!(t.elapsed() < Duration::from_secs(20));
    assert_eq!(
        hub.answer_within(Duration::from_millis(200)),
        None,
        "still searching"
    );
    let t = Instant::now();
    hub.send("stop");
    let lines = hub.until("done");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let m = lines.last().unwrap().get("move").unwrap().to_string();
    let after = Position::start().play(&parse_hub_move(&Position::start(), "11-15").unwrap());
    assert!(parse_hub_move(&after, &m).is_ok(), "{m}");
    // A fixed-depth search that would take very long is stopped as well.
    hub.send("level depth=30");
    hub.send("go think");
    assert_eq!(hub.answer_within(Duration::from_millis(300)), None);
    hub.send("stop");
    let t = Instant::now();
    let lines = hub.until("done");
    assert!(t.elapsed() < Duration::from_secs(20));
    let m = lines.last().unwrap().get("move").unwrap();
    assert!(parse_hub_move(&after, m).is_ok(), "{m}");
    // Commands sent during a search without a stop wait for its answer, in order.
    hub.send("level infinite");
    hub.send("go think");
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=1");
    hub.send("go think");
    assert_eq!(hub.answer_within(Duration::from_millis(300)), None);
    hub.send("stop");
    let first = hub.until("done");
    let m = first.last().unwrap().get("move").unwrap();
    assert!(
        parse_hub_move(&after, m).is_ok(),
        "the first search's move: {m}"
    );
    let second = hub.until("done");
    let m = second.last().unwrap().get("move").unwrap();
    assert!(
        parse_hub_move(&Position::start(), m).is_ok(),
        "the second's: {m}"
    );
    hub.assert_quiet();
}

#[test]
fn garbage_gets_error_lines_and_the_engine_keeps_working() {
    let mut hub = Hub::start(&["classic"]);
    hub.handshake();
    for (bad, says) in [
        ("pos moves=\"11-15", "quote"),
        ("=x", "command"),
        ("pos pos=Xbbbb", "position"),
        ("pos pos=WbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwQ", "Q"),
        (&format!("pos pos={START} moves=\"11-15 11-15\""), "move 2"),
        (
            &format!("pos pos={START} moves=\"23-19\""),
            "not a legal move",
        ),
        ("pos", "pos="),
        ("level depth=abc", "depth"),
        ("level depth=0", "depth"),
        ("level move-time=-1", "move-time"),
        ("level time=1 moves=0", "moves"),
        ("go think", "position"),
    ] {
        hub.send(bad);
        let message = hub.error();
        assert!(message.contains(says), "{bad}: {message}");
    }
    // Unknown commands and arguments are ignored.
    hub.send("xyzzy a=1 b");
    hub.send("level depth=2 colour=blue");
    hub.assert_quiet();
    hub.send(&format!("pos pos={START} moves=\"11-15\" extra=1"));
    let (_, m) = hub.go();
    let after = Position::start().play(&parse_hub_move(&Position::start(), "11-15").unwrap());
    assert!(parse_hub_move(&after, &m).is_ok());
    // Binary noise is a line like any other.
    hub.send("\u{1}\u{7f}garbage\u{7}");
    hub.assert_quiet();
}

#[test]
fn a_closed_input_ends_the_engine_quickly_even_during_a_search() {
    for searching in [false, true] {
        let mut hub = Hub::start(&[]);
        hub.handshake();
        if searching {
            hub.send(&format!("pos pos={START}"));
            hub.send("level infinite");
            hub.send("go think");
            assert_eq!(hub.answer_within(Duration::from_millis(300)), None);
        }
        hub.stdin = None;
        let t = Instant::now();
        loop {
            if let Some(status) = hub.child.try_wait().unwrap() {
                assert!(status.success(), "{status:?}");
                break;
            }
            assert!(t.elapsed() < Duration::from_secs(30), "still running");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    // `quit` too.
    let mut hub = Hub::start(&[]);
    hub.send("quit");
    let status = hub.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn a_bad_player_is_a_usage_error_before_any_protocol() {
    let out = Command::new(BIN)
        .args(["hub", "/no/such/weights.json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::assert_error_exit(&out, 2, &["/no/such/weights.json"]);
    let out = Command::new(BIN)
        .args(["hub", "--depth", "0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::assert_error_exit(&out, 2, &["--depth"]);
    let out = Command::new(BIN)
        .args(["hub", "--search-params", "neutral,futility=600"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::assert_error_exit(&out, 2, &["--search-params", "futility=600", "0..500"]);
}

#[test]
fn search_params_set_the_values_tunable_search_declares() {
    let mut hub = Hub::start(&["--tunable-search", "material"]);
    assert_eq!(declared(&mut hub, "futility"), "84");
    let mut hub = Hub::start(&[
        "--tunable-search",
        "--search-params",
        "neutral,futility=60",
        "material",
    ]);
    assert_eq!(declared(&mut hub, "futility"), "60");
    assert_eq!(declared(&mut hub, "aspiration"), "0");
}

/// Positions from seeded random games, with a choice of moves.
fn positions(n: usize, seed: u64) -> Vec<(Vec<String>, Position)> {
    let mut rng = derive(seed, Purpose::Game, 0, 0);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        let plies = rng.random_range(0..40);
        for _ in 0..plies {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            moves.push(hub_move(&pos, &m));
            pos = pos.play(&m);
        }
        if legal_moves(&pos).len() > 1 {
            out.push((moves, pos));
        }
    }
    out
}

#[test]
fn the_fixed_depth_move_is_the_library_searchers_move() {
    let evolved = load_weights(&repo("weights/evolved-hour.json")).unwrap();
    for (player, eval, depth) in [
        ("evolved-hour", Evaluator::from(evolved), 5),
        ("classic", Evaluator::yardstick("classic").unwrap(), 4),
    ] {
        let mut hub = Hub::start(&[player, "--tie-break", "first"]);
        hub.handshake();
        hub.send("new-game");
        hub.send(&format!("level depth={depth}"));
        let mut ours = Searcher::new(eval, SearchConfig::with_depth(depth));
        ours.set_first_ties(true);
        let mut rng = derive(1, Purpose::Game, 0, 0);
        for (moves, pos) in positions(25, depth as u64) {
            hub.send(&format!("pos pos={START} moves=\"{}\"", moves.join(" ")));
            let (lines, m) = hub.go();
            let want = ours.choose(&pos, &mut rng);
            assert_eq!(
                m,
                hub_move(&pos, &want.best.unwrap()),
                "{player} after {moves:?}"
            );
            let info = &lines[0];
            assert_eq!(info.get("nodes").unwrap(), want.nodes.to_string());
        }
    }
}

#[test]
fn an_abortable_search_is_the_fixed_depth_search_and_the_flag_stops_it() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let eval = Evaluator::yardstick("classic").unwrap();
    for (_, pos) in positions(20, 3) {
        let mut a = Searcher::new(eval, SearchConfig::with_depth(5));
        let mut b = Searcher::new(eval, SearchConfig::with_depth(5));
        let flag = Arc::new(AtomicBool::new(false));
        b.set_abort(Some(flag.clone()));
        let (mut ra, mut rb) = (
            derive(2, Purpose::Game, 0, 0),
            derive(2, Purpose::Game, 0, 0),
        );
        let x = a.choose(&pos, &mut ra);
        let y = b.choose_abortable(&pos, &mut rb).expect("not stopped");
        assert_eq!(
            (x.best, x.value, x.nodes, x.depth),
            (y.best, y.value, y.nodes, y.depth)
        );
        flag.store(true, Ordering::Relaxed);
        let mut deep = Searcher::new(eval, SearchConfig::with_depth(30));
        deep.set_abort(Some(flag.clone()));
        let t = Instant::now();
        assert!(deep.choose_abortable(&pos, &mut rb).is_none());
        let timed = deep.choose_timed(&pos, &mut rb, Duration::from_secs(100));
        assert!(timed.best.is_some() && timed.depth >= 1);
        assert!(t.elapsed() < Duration::from_secs(20));
    }
}

#[test]
fn a_forced_win_is_scored_as_scan_does_and_repetition_draws_take_the_draw_when_worse() {
    let mut hub = Hub::start(&["classic"]);
    hub.handshake();
    // Black's kings on 23 and 24 take White's last man on 32 within 3 plies: 100 - 3/100.
    let win = parse_fen("B:W32:BK23,K24").unwrap();
    hub.send(&format!("pos pos={}", hub_position(&win)));
    hub.send("level depth=8");
    let (lines, _) = hub.go();
    assert_eq!(lines[0].get("score"), Some("99.97"), "{}", lines[0]);
    // White's king shuffles 25-29-25 and Black's 4-8-4: Black's 8-4 makes the position after
    // it the third time. Black, a king against three, is worse: with repetition-draws it
    // takes the draw.
    let start = parse_fen("W:WK25,K30,K31:BK4").unwrap();
    let moves = "25-29 4-8 29-25 8-4 25-29 4-8 29-25";
    hub.send(&format!(
        "pos pos={} moves=\"{moves}\"",
        hub_position(&start)
    ));
    hub.send("level depth=6");
    let (lines, m) = hub.go();
    let score: f64 = lines[0].get("score").unwrap().parse().unwrap();
    assert!(score < -1.0, "{}", lines[0]);
    assert_ne!(m, "8-4");
    hub.send("set-param name=repetition-draws value=true");
    let (lines, m) = hub.go();
    assert_eq!(m, "8-4");
    assert_eq!(lines[0].get("score"), Some("0.00"));
    // Without the history the same position has no repetition to take.
    let mut pos = start;
    for t in moves.split_whitespace() {
        pos = pos.play(&parse_hub_move(&pos, t).unwrap());
    }
    hub.send(&format!("pos pos={}", hub_position(&pos)));
    let (_, m) = hub.go();
    assert_ne!(m, "8-4");
}

#[test]
fn a_script_sent_at_once_is_answered_in_order_before_quit() {
    let mut script = String::from("hub\ninit\nlevel depth=3\n");
    let line = ["11-15", "23-19", "8-11", "22-17", "4-8"];
    for k in 0..line.len() {
        script.push_str(&format!(
            "pos pos={START} moves=\"{}\"\ngo think\nping\n",
            line[..k].join(" ")
        ));
    }
    script.push_str("quit\n");
    let out = Command::new(BIN)
        .args(["hub", "classic"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(script.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // A `ping` during a search is answered at once, so pongs may come before a `done`.
    assert_eq!(
        text.lines().filter(|l| *l == "pong").count(),
        line.len(),
        "{text}"
    );
    let dones: Vec<&str> = text.lines().filter(|l| l.starts_with("done")).collect();
    assert_eq!(dones.len(), line.len(), "{text}");
    let mut pos = Position::start();
    for (k, done) in dones.iter().enumerate() {
        let m = HubLine::parse(done)
            .unwrap()
            .get("move")
            .unwrap()
            .to_string();
        assert!(parse_hub_move(&pos, &m).is_ok(), "search {k}: {m}");
        if k < line.len() - 1 {
            pos = pos.play(&parse_hub_move(&pos, line[k]).unwrap());
        }
    }
}

/// A client sends the whole game before every search; the engine plays only the moves a `pos`
/// adds to the last one, and reads a `pos` that does not extend it (a shorter game, another
/// line, another start) from the start: every answer is still the searcher's move there.
#[test]
fn a_pos_that_extends_the_last_or_departs_from_it_is_the_position_it_says() {
    let depth = 3;
    let mut hub = Hub::start(&["classic", "--tie-break", "first"]);
    hub.handshake();
    hub.send("new-game");
    hub.send(&format!("level depth={depth}"));
    let mut ours = Searcher::new(
        Evaluator::yardstick("classic").unwrap(),
        SearchConfig::with_depth(depth),
    );
    ours.set_first_ties(true);
    let mut rng = derive(1, Purpose::Game, 0, 0);
    let (game, _) = positions(1, 9)
        .into_iter()
        .max_by_key(|(m, _)| m.len())
        .unwrap();
    // Every prefix in turn, then back to a shorter one, then a line that leaves the game.
    let mut asks: Vec<Vec<String>> = (0..=game.len()).map(|k| game[..k].to_vec()).collect();
    asks.push(game[..game.len() / 2].to_vec());
    let mut other = game[..game.len() / 2].to_vec();
    let mut pos = Position::start();
    for t in &other {
        pos = pos.play(&parse_hub_move(&pos, t).unwrap());
    }
    let legal = legal_moves(&pos);
    other.push(hub_move(&pos, &legal.as_slice()[legal.len() - 1]));
    asks.push(other);
    for moves in asks {
        let mut pos = Position::start();
        for t in &moves {
            pos = pos.play(&parse_hub_move(&pos, t).unwrap());
        }
        if legal_moves(&pos).len() < 2 {
            continue;
        }
        hub.send(&format!("pos pos={START} moves=\"{}\"", moves.join(" ")));
        let (_, m) = hub.go();
        let want = ours.choose(&pos, &mut rng);
        assert_eq!(m, hub_move(&pos, &want.best.unwrap()), "after {moves:?}");
    }
}

/// The `param` lines of the handshake, by name: (value, the whole line).
fn params_of(lines: &[HubLine]) -> Vec<(String, HubLine)> {
    lines
        .iter()
        .filter(|l| l.command == "param")
        .map(|l| (l.get("name").unwrap().to_string(), l.clone()))
        .collect()
}

/// The value the engine declares for parameter `name` (a `hub` sent again).
fn declared(hub: &mut Hub, name: &str) -> String {
    hub.send("hub");
    let lines = hub.until("wait");
    let (_, l) = params_of(&lines)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no param {name}"));
    l.get("value").unwrap().to_string()
}

/// `material` widened to endgame66, and the hour's 66 linear weights as an endgame66 set, as
/// weight files in `t`.
fn endgame66_files(t: &common::Tmp) -> (std::path::PathBuf, std::path::PathBuf) {
    use checkers_ga::{material, save_weights, ParamSet, Weights, NUM_ALL};
    let m66 = t.0.join("material66.json");
    save_weights(&m66, &material().widen(ParamSet::Endgame66).unwrap()).unwrap();
    let net = load_weights(&repo("weights/evolved-hour.json")).unwrap();
    let e66 = t.0.join("endgame66.json");
    let w = Weights::new(ParamSet::Endgame66, &net.values()[..NUM_ALL]).unwrap();
    save_weights(&e66, &w).unwrap();
    (m66, e66)
}

#[test]
fn tunable_declares_one_int_param_per_weight_after_the_others() {
    use checkers_ga::{material, ParamSet};
    let t = common::Tmp::new("tunable");
    let (m66, _) = endgame66_files(&t);
    for (player, set) in [
        ("material".to_string(), ParamSet::Thesis60),
        (m66.display().to_string(), ParamSet::Endgame66),
    ] {
        let mut hub = Hub::start(&["--tunable", &player]);
        let lines = hub.handshake();
        assert_eq!(lines.last().unwrap().command, "wait");
        let params = params_of(&lines);
        assert_eq!(params.len(), 6 + set.len(), "{player}");
        // The usual six first, then the weights in weight order, named as `show` names them.
        assert_eq!(params[5].0, "hash");
        let want = material().widen(set).unwrap();
        for (i, (name, l)) in params[6..].iter().enumerate() {
            assert_eq!(name, set.params()[i].name);
            assert!(!name.contains([' ', '"', '=']), "{name}");
            assert_eq!(l.get("type"), Some("int"), "{l}");
            assert_eq!(l.get("min"), Some("-32768"), "{l}");
            assert_eq!(l.get("max"), Some("32767"), "{l}");
            assert_eq!(l.get("value"), Some(want[i].to_string().as_str()), "{l}");
        }
        hub.assert_quiet();
    }
    // Without --tunable: the usual six only.
    let mut hub = Hub::start(&["material"]);
    assert_eq!(params_of(&hub.handshake()).len(), 6);
}

#[test]
fn tunable_refuses_a_player_that_is_not_a_linear_weighted_sum() {
    for (player, says) in [("evolved-hour", "net66:8"), ("classic", "classic")] {
        let out = Command::new(BIN)
            .args(["hub", "--tunable", player])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        common::assert_error_exit(&out, 2, &["--tunable", player, says, "linear"]);
        assert!(out.stdout.is_empty(), "nothing but the protocol on stdout");
    }
}

#[test]
fn a_weight_set_by_set_param_changes_the_search_and_bad_values_keep_the_old_one() {
    // Black, to move, a man up, nothing to take within two plies.
    let up = parse_fen("B:W29:B1,2").unwrap();
    let score = |hub: &mut Hub| -> f64 {
        hub.send(&format!("pos pos={}", hub_position(&up)));
        let (lines, _) = hub.go();
        lines[0].get("score").unwrap().parse().unwrap()
    };
    let mut hub = Hub::start(&["material", "--tunable", "--tie-break", "first"]);
    hub.handshake();
    hub.send("level depth=2");
    assert_eq!(score(&mut hub), 1.0);
    // Material reversed: the same position is a man down, after `init` as between games too.
    for (name, v) in [("men", -100), ("kings", -160), ("opp_men", 100)] {
        hub.send(&format!("set-param name={name} value={v}"));
    }
    hub.send("set-param name=opp_kings value=160");
    hub.send("init");
    assert_eq!(hub.answer(), "ready");
    hub.send("new-game");
    assert!(score(&mut hub) < 0.0);
    assert_eq!(declared(&mut hub, "men"), "-100");
    // Reversed material gives pieces away: the moves change where that matters.
    let moves = |hub: &mut Hub| -> Vec<String> {
        positions(12, 4)
            .iter()
            .map(|(moves, _)| {
                hub.send(&format!("pos pos={START} moves=\"{}\"", moves.join(" ")));
                hub.go().1
            })
            .collect()
    };
    hub.send("level depth=3");
    let reversed = moves(&mut hub);
    for (name, v) in [("men", 100), ("kings", 160), ("opp_men", -100)] {
        hub.send(&format!("set-param name={name} value={v}"));
    }
    hub.send("set-param name=opp_kings value=-160");
    hub.send("new-game");
    let normal = moves(&mut hub);
    assert_ne!(reversed, normal);
    // Bad values: an error line each, the weight kept.
    for bad in ["32768", "-32769", "1.5", "abc", "\"\""] {
        hub.send(&format!("set-param name=men value={bad}"));
        let message = hub.error();
        assert!(
            message.contains("men") && message.contains("-32768"),
            "{message}"
        );
    }
    assert_eq!(declared(&mut hub, "men"), "100");
    hub.send("level depth=2");
    assert_eq!(score(&mut hub), 1.0);
    // Weights with no weight of that name: an error line; the names stay declared.
    hub.send("set-param name=weights value=classic");
    hub.send("set-param name=men value=5");
    assert!(hub.error().contains("classic"));
    assert_eq!(declared(&mut hub, "men"), "0");
    // Without --tunable a weight's name is an unknown parameter, ignored.
    let mut plain = Hub::start(&["material", "--tie-break", "first"]);
    plain.handshake();
    plain.send("set-param name=men value=-100");
    plain.assert_quiet();
    plain.send("level depth=2");
    assert_eq!(score(&mut plain), 1.0);
}

/// An engine started with `start` and given every weight of `file` by `set-param` (after a
/// search with its own, then `init` and `new-game`, as a tuner does between games) plays as an
/// engine started with `file`: the same moves, scores and node counts at a fixed depth.
fn tuned_plays_as_the_file(start: &str, file: &std::path::Path) {
    let w = load_weights(file).unwrap();
    let file = file.display().to_string();
    let mut tuned = Hub::start(&[start, "--tunable", "--tie-break", "first"]);
    let mut direct = Hub::start(&[&file, "--tie-break", "first"]);
    tuned.handshake();
    direct.handshake();
    tuned.send(&format!("pos pos={START}"));
    tuned.go();
    for (p, v) in w.set().params().iter().zip(w.values()) {
        tuned.send(&format!("set-param name={} value={v}", p.name));
    }
    tuned.send("init");
    assert_eq!(tuned.answer(), "ready");
    for hub in [&mut tuned, &mut direct] {
        hub.send("new-game");
        hub.send("level depth=5");
    }
    for (moves, _) in positions(12, 6) {
        let pos = format!("pos pos={START} moves=\"{}\"", moves.join(" "));
        let mut said = Vec::new();
        for hub in [&mut tuned, &mut direct] {
            hub.send(&pos);
            let (lines, m) = hub.go();
            let info = &lines[lines.len() - 2];
            said.push((
                m,
                info.get("score").map(str::to_string),
                info.get("nodes").unwrap().to_string(),
            ));
        }
        assert_eq!(said[0], said[1], "{file} after {moves:?}");
    }
}

#[test]
fn weights_set_by_set_param_play_as_the_weight_file_itself() {
    tuned_plays_as_the_file("material", &repo("weights/thesis-table-4-2.json"));
    let t = common::Tmp::new("tuned");
    let (m66, e66) = endgame66_files(&t);
    tuned_plays_as_the_file(&m66.display().to_string(), &e66);
}
