//! `checkers-ga report`: the HTML page of a session is self-contained (nothing to fetch), holds
//! the Elo points, the weight table and a game whose moves are legal and are the first game of
//! the session's last measurement, reloads itself only when asked, and is written atomically.
//! (tests/report_browser.rs opens it in a real browser.)

mod common;

use checkers_ga::ballot;
use checkers_ga::html::{self, board_string, Options};
use checkers_ga::matchplay::play_match;
use checkers_ga::measure_match;
use checkers_ga::{parse_move, store, Position};
use common::{new_cmd, run_err, run_ok, Tmp};
use std::path::Path;

/// A small session: population 8, depth 1, 6 generations, measured every 2 (8 games).
fn small_session(t: &Tmp, name: &str, extra: &[&str]) {
    let mut args = vec![
        "--population",
        "8",
        "--depth",
        "1",
        "--generations",
        "6",
        "--measure-every",
        "2",
        "--measure-games",
        "8",
        "--params",
        "endgame66",
    ];
    args.extend_from_slice(extra);
    run_ok(new_cmd(t, 5, name, true, &args));
}

/// A tiny session without measurements: population 4, depth 1, games of at most 60 plies,
/// and `extra`.
fn tiny_session(t: &Tmp, seed: u64, name: &str, extra: &[&str]) -> std::process::Command {
    let mut args = vec!["--population", "4", "--depth", "1", "--max-plies", "60"];
    args.extend_from_slice(&["--measure-every", "0"]);
    args.extend_from_slice(extra);
    new_cmd(t, seed, name, true, &args)
}

fn report(t: &Tmp, args: &[&str]) -> String {
    let mut c = common::bin();
    c.current_dir(&t.0)
        .arg("report")
        .args(args)
        .arg("--populations")
        .arg(t.pops());
    run_ok(c)
}

/// The game data the page's script reads.
pub fn game_data(page: &str) -> serde_json::Value {
    let start = "<script type=\"application/json\" id=\"game-data\">";
    let from = page.find(start).expect("game data") + start.len();
    let len = page[from..].find("</script>").expect("end of game data");
    serde_json::from_str(&page[from..from + len]).expect("game data is JSON")
}

/// Checks that every ply of the page's game is a legal move of the position before it and
/// leads to the position the page shows; returns the number of plies.
pub fn check_game(data: &serde_json::Value) -> usize {
    let mut pos = Position::start();
    assert_eq!(data["start"], board_string(&pos));
    let plies = data["plies"].as_array().expect("plies");
    for (i, p) in plies.iter().enumerate() {
        let m = parse_move(&pos, p["move"].as_str().unwrap())
            .unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
        pos = pos.play(&m);
        assert_eq!(p["pos"], board_string(&pos), "ply {}", i + 1);
    }
    plies.len()
}

#[test]
fn page_of_a_small_session() {
    let t = Tmp::new("page");
    small_session(&t, "web", &[]);
    let out = report(&t, &["web"]);
    let path = t.session("web").join("report.html");
    assert_eq!(out.trim(), path.display().to_string());
    let page = std::fs::read_to_string(&path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(
        !page.contains("http-equiv=\"refresh\""),
        "no reload unless asked"
    );
    // Self-contained: the only URL is the SVG namespace; nothing is loaded.
    assert_eq!(
        page.matches("http").count(),
        page.matches("http://www.w3.org/2000/svg").count()
    );
    for fetch in ["<link", " src=", "url(", "@import"] {
        assert!(!page.contains(fetch), "{fetch}");
    }
    // The Elo chart: one point per measurement (generations 2, 4 and 6), and its yardstick.
    let elo = page
        .split("<g class=\"elo-points\"")
        .nth(1)
        .expect("Elo points");
    let elo = elo.split("</g>").next().unwrap();
    assert_eq!(elo.matches("<circle").count(), 3, "{elo}");
    // The chart's title names the yardstick, the depth and the games of a measurement.
    assert!(page.contains("Elo of the best so far vs material ("));
    assert!(page.contains("depth 1, 8 games each"));
    // The final weights: one row per parameter of endgame66, with descriptions.
    let table = page.split("id=\"weights-table\"").nth(1).unwrap();
    let table = table.split("</table>").next().unwrap();
    assert_eq!(table.matches("<tr>").count(), 1 + 66);
    assert!(table.contains("<code>men</code>") && table.contains("own men"));
    // The heatmap has a column per generation (6) with a cell per weight.
    assert_eq!(page.matches("<g class=\"heat-col\"").count(), 6);
    assert!(page.contains("id=\"diversity-chart\"") && page.contains("id=\"speed-chart\""));
    assert!(page.contains("id=\"duels-table\"") && page.contains("id=\"settings-table\""));
    // The game: legal moves from the first ballot opening.
    let data = game_data(&page);
    let n = check_game(&data);
    assert!(n > ballot()[0].moves.len(), "{n} plies");
    for (i, m) in ballot()[0].moves.iter().enumerate() {
        assert_eq!(data["plies"][i]["move"], m.to_string());
        assert_eq!(data["plies"][i]["opening"], true);
    }
    // No temporary file left beside it.
    let names: Vec<String> = std::fs::read_dir(t.session("web"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
}

#[test]
fn the_game_is_the_first_game_of_the_last_measurement() {
    let t = Tmp::new("same-game");
    small_session(&t, "m", &[]);
    let ck = t.ckpt("m", 6);
    let session = store::load_checkpoint(&ck).unwrap();
    let best = session.bests_by_generation()[5].expect("best so far of generation 6");
    // measure_match is the session's measurement: the same W/D/L as recorded.
    let (a, b, settings) = measure_match(&best, &session.settings, 6);
    let (wdl, games) = play_match(&a, &b, &settings, &|_| {});
    assert_eq!(Some(wdl), session.history[5].measure);
    // And the page shows its first game, move for move.
    let data = html::gather(&session, &ck);
    let shown = data.game.expect("a game");
    assert_eq!(shown.game.moves(), games[0].game.moves());
    assert_eq!(shown.game.result(), games[0].game.result());
    assert!(shown.title.contains("generation 6"), "{}", shown.title);
}

#[test]
fn refresh_and_output_file() {
    let t = Tmp::new("refresh");
    small_session(&t, "r", &[]);
    let out = report(&t, &["r", "--refresh", "30", "-o", "page.html"]);
    assert_eq!(out.trim(), "page.html");
    let page = t.read("page.html");
    assert_eq!(
        page.matches("<meta http-equiv=\"refresh\" content=\"30\">")
            .count(),
        1
    );
    let mut c = common::bin();
    c.current_dir(&t.0)
        .args(["report", "r", "--refresh", "0", "--populations"])
        .arg(t.pops());
    let out = c.output().unwrap();
    common::assert_usage_error(&out, &["--refresh must be at least 1"]);
    let mut c = common::bin();
    c.current_dir(&t.0)
        .args(["report", "nosuch", "--populations"])
        .arg(t.pops());
    assert!(run_err(c).contains("nosuch"));
}

#[test]
fn session_without_measurements_and_the_library_call() {
    let t = Tmp::new("nomeasure");
    run_ok(tiny_session(&t, 9, "quiet", &["--generations", "2"]));
    let written = html::write_session_report(
        &t.session("quiet"),
        None,
        &Options {
            refresh: Some(5),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(written, t.session("quiet").join("report.html"));
    let page = std::fs::read_to_string(&written).unwrap();
    assert!(page.contains("id=\"no-elo\""));
    assert!(page.contains("<meta http-equiv=\"refresh\" content=\"5\">"));
    // It measures nothing, and says so; the page shows the game a measurement would play.
    assert!(page.contains("This session measures nothing"));
    assert!(page.contains("would play first (the session measures nothing)"));
    check_game(&game_data(&page));
    // Its running page (rewritten as the run goes) plays no game for it: the run would wait.
    let running = t.0.join("running.html");
    let follow = Options {
        follow: Some(html::FOLLOW_EVERY),
        ..Options::default()
    };
    let ckpt = t.ckpt("quiet", 2);
    html::write_report(&common::load(&ckpt), &ckpt, &running, &follow).unwrap();
    let page = std::fs::read_to_string(&running).unwrap();
    assert!(page.contains("This session measures nothing"));
    assert!(
        !page.contains("id=\"game-data\""),
        "no game on a running page"
    );
    // A folder that is not a session is a one-line error.
    let e = html::write_session_report(Path::new(&t.0.join("nothing")), None, &Options::default())
        .unwrap_err();
    assert!(e.to_string().contains("nothing"), "{e}");
    // The same call writes the page of any tuner's session, by its folder or its checkpoint:
    // an SPSA session's (the tuning simulator's engine, no process).
    let mut c = common::bin();
    c.current_dir(&t.0)
        .args([
            "spsa", "--engine", "sim:4", "--games", "16", "--name", "s", "--quiet",
        ])
        .arg("--populations")
        .arg(t.pops());
    run_ok(c);
    let folder = t.session("s");
    for at in [folder.clone(), folder.join("spsa.ckpt")] {
        let written = html::write_session_report(&at, None, &Options::default()).unwrap();
        assert_eq!(written, folder.join("report.html"));
        let page = std::fs::read_to_string(&written).unwrap();
        assert!(page.contains("SPSA session 's'"), "{page}");
        assert!(!page.contains("id=\"follow\""), "{page}");
        std::fs::remove_file(written).unwrap();
    }
    // A running session's page follows it whichever tuner's: it reloads every 15 s until a few
    // times the gap to its next rewrite, the script that does it in the page.
    let running = Options {
        follow: Some(html::FOLLOW_EVERY),
        rewrite_in: Some(100),
        ..Options::default()
    };
    let written = html::write_session_report(&folder, None, &running).unwrap();
    let page = std::fs::read_to_string(&written).unwrap();
    let note = page
        .lines()
        .find(|l| l.contains("id=\"follow\""))
        .unwrap_or_else(|| panic!("{page}"));
    let attr = |name: &str| -> u64 {
        let at = note.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        note[at..].split('"').next().unwrap().parse().unwrap()
    };
    assert_eq!(attr("data-every"), 15);
    // 3 x 100 s, a minute and four reloads.
    assert_eq!(attr("data-until") - attr("data-written"), 420_000);
    assert!(page.contains("window.location.reload()"));
    assert!(page.contains("reloads every 15 s while the session runs"));
}

/// The heatmap of a network session: a row per value and per output weight (not the 610
/// weights of net66:8, most of them blank), labels no bigger than their rows (a size the page's
/// style sheet does not override), and a key that names the scale the cells are divided by.
#[test]
fn heatmap_of_a_network_is_small_and_says_its_scale() {
    let t = Tmp::new("heat-net");
    let net = ["--generations", "3", "--params", "net66"];
    run_ok(tiny_session(&t, 4, "net", &net));
    let ck = t.ckpt("net", 3);
    let session = store::load_checkpoint(&ck).unwrap();
    let mut data = html::gather(&session, &ck);
    let heat = |page: &str| {
        let from = page.find("id=\"weights-heatmap\"").expect("heatmap");
        page[from..from + page[from..].find("</svg>").unwrap()].to_string()
    };
    let page = html::page(&data, &Options::default());
    let map = heat(&page);
    let labels: Vec<&str> = map
        .split("<text class=\"row-label\"")
        .skip(1)
        .map(|l| l.split('>').next().unwrap())
        .collect();
    assert_eq!(labels.len(), 66 + 8, "values and output weights only");
    assert!(
        map.contains(">out8</text>") && !map.contains(">hidden1."),
        "rows"
    );
    // Each label's size is set where no style sheet overrides it, and fits its row.
    let ys: Vec<f64> = labels
        .iter()
        .map(|l| {
            let y = l.split(" y=\"").nth(1).unwrap().split('"').next().unwrap();
            y.parse().unwrap()
        })
        .collect();
    for (l, w) in labels.iter().zip(ys.windows(2)) {
        let size: f64 = l
            .split("style=\"font-size:")
            .nth(1)
            .unwrap_or_else(|| panic!("no size of its own: {l}"))
            .split("px")
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            size <= w[1] - w[0],
            "a label of {size} px in a row of {}",
            w[1] - w[0]
        );
    }
    assert!(map.len() < 200_000, "{} bytes for 3 columns", map.len());
    // Where the men weight is not positive the cells are divided by the largest |weight|, and
    // the key says so.
    let men = session.best_so_far.unwrap().set().index_of("men").unwrap();
    for w in data.bests.iter_mut().filter_map(|(_, w)| w.as_mut()) {
        w.values_mut()[men] = -5;
    }
    let map = heat(&html::page(&data, &Options::default()));
    assert!(
        !map.contains(" x men</text>"),
        "the key names the men weight"
    );
    assert!(
        map.contains(" x largest |weight|</text>"),
        "the key's scale"
    );
}

/// The page a session writes with `--report` reloads itself only while the session should still
/// be running: a session killed before it could write its last page (a second Ctrl-C, `kill
/// -9`) leaves a page with a deadline, not one that reloads every 15 s forever.
#[test]
fn a_running_session_page_stops_reloading_by_itself() {
    let t = Tmp::new("follow");
    let page = t.0.join("live.html");
    let page_arg = page.to_str().unwrap();
    let mut c = tiny_session(
        &t,
        6,
        "live",
        &["--generations", "5000", "--report", page_arg],
    );
    c.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = c.spawn().unwrap();
    let start = std::time::Instant::now();
    while !page.exists() && start.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Only the process this test started, by its id.
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&page).expect("the page of the running session");
    assert!(
        !text.contains("http-equiv=\"refresh\""),
        "a reload the page cannot stop"
    );
    let attr = |name: &str| -> u64 {
        let key = format!(" {name}=\"");
        let at = text.find(&key).unwrap_or_else(|| panic!("{name}")) + key.len();
        text[at..at + text[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    assert_eq!(attr("data-every"), 15);
    let (written, until) = (attr("data-written"), attr("data-until"));
    assert!(
        until > written + 60_000,
        "follows a while: {written} {until}"
    );
    assert!(
        until < written + 3_600_000,
        "not forever: {written} {until}"
    );
    assert!(text.contains("window.location.reload()"));
}

// ----- in a real browser -----

/// The headless Chromium to test with: `$CHROMIUM`, else `chromium`, `chromium-browser` or
/// `google-chrome` on the PATH.
fn find_chromium() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium on `url` with `args`, at most 120 s; returns stdout and stderr.
fn chromium(exe: &Path, profile: &Path, args: &[&str], url: &str) -> (String, String) {
    use std::process::{Command, Stdio};
    let mut c = Command::new(exe);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .args(args)
    .arg(url)
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let child = c.spawn().expect("start chromium");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(std::time::Duration::from_secs(120)) {
        Ok(o) => o.expect("chromium output"),
        Err(_) => {
            // Only the process this test started, by its id.
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("chromium took over 120 s on {url}");
        }
    };
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The console messages Chromium logged (the page itself logs none: any is an error).
fn console_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect()
}

/// The board element of a dumped DOM: its ply, position and pieces drawn.
fn board_state(dom: &str) -> (usize, String, usize) {
    let from = dom.find("<svg id=\"board\"").expect("board in the DOM");
    let board = &dom[from..from + dom[from..].find("</svg>").expect("end of board")];
    let attr = |name: &str| {
        let key = format!(" {name}=\"");
        let at = board
            .find(&key)
            .unwrap_or_else(|| panic!("{name} in {board}"))
            + key.len();
        board[at..at + board[at..].find('"').unwrap()].to_string()
    };
    let pieces = board.matches("class=\"piece ").count();
    (
        attr("data-ply").parse().unwrap(),
        attr("data-position"),
        pieces,
    )
}

/// Opens the page of a small session in headless Chromium: no console error, the Elo points
/// and the weight table are in the rendered page, and the board steps through the game's
/// moves by button clicks and keys (the page's `#steps=` fragment replays them on load). Saves
/// a screenshot as target/report-screenshot.png. Without Chromium the test fails in CI
/// (`CI=true`) and is skipped, saying so, elsewhere.
#[test]
fn browser_renders_the_page_and_steps_through_the_game() {
    let Some(exe) = find_chromium() else {
        common::can_run(
            false,
            "chromium is not installed (Debian: apt-get install chromium; or set CHROMIUM)",
        );
        return;
    };
    let started = std::time::Instant::now();
    let t = Tmp::new("browser");
    small_session(&t, "web", &[]);
    report(&t, &["web", "-o", "report.html"]);
    let file = t.0.join("report.html");
    let page = std::fs::read_to_string(&file).unwrap();
    let data = game_data(&page);
    let n = check_game(&data);
    let pos_at = |k: usize| -> String {
        if k == 0 {
            data["start"].as_str().unwrap().to_string()
        } else {
            data["plies"][k - 1]["pos"].as_str().unwrap().to_string()
        }
    };
    let url = format!("file://{}", file.display());
    let profile = t.0.join("chromium-profile");

    // (fragment, ply the board must show): clicks on next/prev, the arrow keys, End and Home.
    let cases = [
        (String::new(), 0),
        ("#steps=nnnnnp".to_string(), 4),
        ("#steps=nnrrrl".to_string(), 4),
        ("#steps=e".to_string(), n),
        ("#steps=enph".to_string(), 0),
        ("#ply=7&steps=rr".to_string(), 9),
    ];
    let mut first_dom = String::new();
    for (fragment, want) in &cases {
        let (dom, err) = chromium(&exe, &profile, &["--dump-dom"], &format!("{url}{fragment}"));
        let console = console_lines(&err);
        assert!(
            console.is_empty(),
            "console messages at {fragment}: {console:#?}"
        );
        let (ply, position, pieces) = board_state(&dom);
        assert_eq!(ply, *want, "ply at '{fragment}'");
        assert_eq!(position, pos_at(*want), "position at '{fragment}'");
        assert_eq!(
            pieces,
            position.chars().filter(|&c| c != '.').count(),
            "pieces drawn at '{fragment}'"
        );
        if first_dom.is_empty() {
            first_dom = dom;
        }
    }
    // The rendered page: the Elo chart's points, the weight table, the move list.
    let elo = first_dom
        .split("class=\"elo-points\"")
        .nth(1)
        .expect("Elo points");
    let elo = elo.split("</g>").next().unwrap();
    assert_eq!(elo.matches("<circle").count(), 3, "{elo}");
    let table = first_dom.split("id=\"weights-table\"").nth(1).unwrap();
    let table = table.split("</table>").next().unwrap();
    assert_eq!(table.matches("<tr>").count(), 1 + 66);
    assert_eq!(
        first_dom.matches("class=\"mv").count(),
        n,
        "one entry per ply"
    );
    assert!(first_dom.contains("Result: "), "the result is shown");

    // A screenshot to look at.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    let shot = target.join("report-screenshot.png");
    let _ = std::fs::remove_file(&shot);
    let (_, err) = chromium(
        &exe,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1100,6000",
        ],
        &format!("{url}#ply=12"),
    );
    assert!(console_lines(&err).is_empty(), "{err}");
    assert!(
        std::fs::metadata(&shot)
            .map(|m| m.len() > 10_000)
            .unwrap_or(false),
        "screenshot {} written",
        shot.display()
    );
    eprintln!(
        "browser test: {} plies stepped through, screenshot {}, {:.1} s",
        n,
        shot.display(),
        started.elapsed().as_secs_f64()
    );
}
