//! What a report shows is true, whatever the tuner: for a session of every tuner and selection
//! (our weights with truncation, roulette, tournament selection, fit-only and the mean; an
//! outside engine, the simulator and our own engine through the protocol, with the mean and
//! with roulette; SPSA) the page is read back: every link of its contents leads to a section
//! that is there, every section there is in the contents and has something in it, the duels
//! appear only where duels were played, and the settings table lists the settings that applied
//! to that session and none that did not.

mod common;

use common::{bin, new_cmd, run_ok, Tmp};

/// How a session tunes, as far as what its report may show.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tuner {
    /// Selection that breeds children (truncation, roulette, tournament).
    Breeds,
    /// `--selection fit-only`: no breeding, the fitted vector copied.
    FitOnly,
    /// `--selection mean`: mirrored pairs, no duel.
    Mean,
}

/// Who plays the session's games.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Player {
    /// Our engine with the evolved weights.
    Ours,
    /// The tuning simulator (`sim:N`): no process, no moves.
    Sim,
    /// An outside engine's process (our own engine through the Hub protocol).
    Outside,
}

/// Our engine through the protocol, three of its weights tuned.
fn hub_engine() -> String {
    format!(
        "{} hub --tunable --tunable-range 1000 --tie-break first material",
        common::BIN
    )
}

/// Runs session `name` (small, three generations, measured after the third) with `extra`.
fn session(t: &Tmp, name: &str, player: Player, extra: &[&str]) {
    let mut args = vec![
        "--population",
        "4",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--generations",
        "3",
        "--measure-every",
        "3",
        "--measure-games",
        "2",
    ];
    let engine = hub_engine();
    match player {
        Player::Ours => args.extend(["--params", "endgame66", "--duel-games", "4"]),
        Player::Sim => args.extend(["--engine", "sim:4"]),
        Player::Outside => args.extend(["--engine", &engine, "--tune", "kings,opp_kings,moves"]),
    }
    args.extend_from_slice(extra);
    run_ok(new_cmd(t, 3, name, true, &args));
}

/// Writes the report of session `name` and returns its text.
fn report(t: &Tmp, name: &str) -> String {
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["report", name, "--populations"])
        .arg(t.pops());
    let path = run_ok(c);
    std::fs::read_to_string(path.trim()).expect("the report")
}

/// The ids the page's contents link to, in order.
fn nav_links(page: &str) -> Vec<String> {
    let nav = page.split("<nav>").nth(1).expect("contents");
    let nav = nav.split("</nav>").next().unwrap();
    nav.split("href=\"#")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_string())
        .collect()
}

/// The page's sections: id and what follows its heading.
fn sections(page: &str) -> Vec<(String, String)> {
    page.split("<section id=\"")
        .skip(1)
        .map(|s| {
            let id = s.split('"').next().unwrap().to_string();
            let body = s.split("</section>").next().unwrap();
            let body = body.split_once("</h2>").map_or(body, |(_, b)| b);
            (id, body.to_string())
        })
        .collect()
}

/// Text without its tags.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// The settings table: (label, value) rows.
fn settings(page: &str) -> Vec<(String, String)> {
    let table = page
        .split("id=\"settings-table\"")
        .nth(1)
        .expect("settings table");
    let table = table.split("</table>").next().unwrap();
    table
        .split("<tr><th>")
        .skip(1)
        .map(|row| {
            let (label, rest) = row.split_once("</th><td>").expect("a row");
            let value = rest.split("</td>").next().unwrap();
            (label.to_string(), value.to_string())
        })
        .collect()
}

/// The checks every page passes: the contents and the sections are the same, in order; every
/// section has text, and every table in it a row.
fn check_page(what: &str, page: &str) -> Vec<String> {
    let links = nav_links(page);
    let found = sections(page);
    let ids: Vec<String> = found.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(links, ids, "{what}: the contents against the sections");
    for (id, body) in &found {
        assert!(
            !text_of(body).trim().is_empty() || body.contains("<svg"),
            "{what}: section {id} is empty"
        );
        for table in body.split("<tbody>").skip(1) {
            let rows = table.split("</tbody>").next().unwrap();
            assert!(rows.contains("<tr>"), "{what}: a table of {id} has no rows");
        }
    }
    ids
}

/// The heading of section `id`.
fn heading_of(page: &str, id: &str) -> String {
    let at = page
        .split(&format!("<section id=\"{id}\"><h2>"))
        .nth(1)
        .unwrap_or_else(|| panic!("no section {id}"));
    at.split("</h2>").next().unwrap().to_string()
}

/// The names of the values table's rows (an outside engine's tuned parameters).
fn value_names(page: &str) -> Vec<String> {
    let table = page.split("id=\"weights-table\"").nth(1).expect("values");
    let table = table.split("</table>").next().unwrap();
    table
        .split("<td><code>")
        .skip(1)
        .map(|r| r.split("</code>").next().unwrap().to_string())
        .collect()
}

/// Checks the chart of the answer over the generations (the chart of SPSA's θ): a line for
/// each tuned parameter of the values table, in its order, named in the legend, with a point
/// for each of `generations`.
fn check_answer_chart(what: &str, page: &str, generations: usize) {
    let (_, chart) = sections(page)
        .into_iter()
        .find(|(id, _)| id == "answer")
        .expect("the answer's section");
    assert!(chart.contains("id=\"theta-chart\""), "{what}: {chart}");
    assert!(chart.contains("place in its declared range"), "{what}");
    let names = value_names(page);
    assert!(!names.is_empty(), "{what}");
    let legend = chart.split("<g class=\"legend\">").nth(1).expect("legend");
    let legend = legend.split("</g>").next().unwrap();
    let shown: Vec<&str> = legend
        .split("<text")
        .skip(1)
        .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap())
        .collect();
    assert_eq!(shown, names, "{what}: the legend");
    for i in 0..names.len() {
        let line = chart
            .split(&format!("<path class=\"theta-{i}\" d=\""))
            .nth(1)
            .unwrap_or_else(|| panic!("{what}: no line {i}"));
        let d = line.split('"').next().unwrap();
        assert_eq!(d.matches(['M', 'L']).count(), generations, "{what}: {d}");
    }
    let lines = names.len();
    assert!(!chart.contains(&format!("theta-{lines}")), "{what}");
}

/// Checks the page of a GA session played by `player` with `tuner`.
/// The value of the header's figure named `name` (`games played`), if there is one.
fn figure(page: &str, name: &str) -> Option<String> {
    let at = page.find(&format!("<span>{name}</span>"))?;
    let value = page[..at].rsplit("<b>").next()?;
    Some(value.trim_end_matches("</b>").to_string())
}

fn check_ga(what: &str, page: &str, tuner: Tuner, player: Player) {
    let ids = check_page(what, page);
    let has = |id: &str| ids.iter().any(|x| x == id);
    let rows = settings(page);
    let labels: Vec<&str> = rows.iter().map(|(l, _)| l.as_str()).collect();
    let shown = |label: &str| labels.contains(&label);
    let value = |label: &str| {
        rows.iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{what}: no {label} in {labels:?}"))
    };
    // What every session shows.
    for label in ["population", "selection", "measurement", "stop", "seed"] {
        assert!(shown(label), "{what}: no {label} in {labels:?}");
    }
    assert!(has("strength") && has("settings"), "{what}: {ids:?}");
    // The games played, as every tuner's report says them: these sessions measure, so the
    // games in all are not known before.
    let games = figure(page, "games played").unwrap_or_else(|| panic!("{what}: no games"));
    assert!(games.parse::<u64>().is_ok_and(|g| g > 0), "{what}: {games}");
    // Our searcher's settings only where our searcher plays; the depth the games searched to.
    let ours = player == Player::Ours;
    for label in ["capture extension", "transposition table", "deepen"] {
        assert_eq!(shown(label), ours, "{what}: {label} in {labels:?}");
    }
    // The simulator's model decides its games: no depth, opening or draw rule.
    let board = player != Player::Sim;
    for label in ["search depth", "openings", "draw rules"] {
        assert_eq!(shown(label), board, "{what}: {label} in {labels:?}");
    }
    assert_eq!(shown("engine"), !ours, "{what}: {labels:?}");
    if player == Player::Outside {
        assert_eq!(value("search depth"), "1", "{what}");
        assert!(value("engine").contains("hub --tunable"), "{what}");
    }
    // The heat map is of our weights only (an engine's parameters have no men weight).
    assert_eq!(has("weights-over-time"), ours, "{what}: {ids:?}");
    // An outside engine's answer over the generations, as SPSA's θ over the steps: a line
    // per tuned parameter, named by the engine's names, a point per generation.
    assert_eq!(has("answer"), !ours, "{what}: {ids:?}");
    if !ours {
        check_answer_chart(what, page, 3);
    }
    // Under the mean the pairs are drawn at a fixed spread: their diversity says nothing.
    let mean = tuner == Tuner::Mean;
    assert_eq!(page.contains("id=\"diversity-chart\""), !mean, "{what}");
    assert_eq!(page.contains("diversity, last generation"), !mean, "{what}");
    assert!(page.contains("id=\"speed-chart\""), "{what}");
    // The values are the answer: under the mean the centres' average, else the best so far.
    let (id, heading) = match (ours, mean) {
        (true, false) => ("final-weights", "Final weights: the best so far"),
        (true, true) => (
            "final-weights",
            "Final weights: the answer (the centres&apos; average)",
        ),
        (false, false) => ("final-values", "Values: the answer (the best so far)"),
        (false, true) => (
            "final-values",
            "Values: the answer (the centres&apos; average)",
        ),
    };
    assert_eq!(heading_of(page, id), heading, "{what}");
    // An outside engine's depth; the simulator searches to none.
    if !ours {
        let (_, values) = sections(page).into_iter().find(|(x, _)| x == id).unwrap();
        assert_eq!(
            values.contains("depth"),
            player == Player::Outside,
            "{what}"
        );
    }
    // The game's Black is the answer, named as the values are.
    if let Some((_, game)) = sections(page).into_iter().find(|(id, _)| id == "game") {
        let black = if mean { "the answer" } else { "best so far" };
        assert!(
            game.contains(&format!("Black: <b>{black} (depth 1)</b>")),
            "{what}: {game}"
        );
    }
    // The simulator's games have no moves: no game to step through.
    assert_eq!(has("game"), player != Player::Sim, "{what}: {ids:?}");
    // Breeding's settings only where children are bred.
    let breeds = tuner == Tuner::Breeds;
    for label in ["elite", "newcomers", "mutation", "mutation chance"] {
        assert_eq!(shown(label), breeds, "{what}: {label} in {labels:?}");
    }
    assert_eq!(
        labels.iter().any(|l| l.contains("noise")),
        breeds,
        "{what}: {labels:?}"
    );
    // The fit only where our weights are fitted.
    let fits = ours && tuner != Tuner::Mean;
    for label in ["fit to the games", "widen"] {
        assert_eq!(shown(label), fits, "{what}: {label} in {labels:?}");
    }
    // The duels, the hall of fame and the endgame games only where the population plays a
    // tournament: the mean's pairs play only themselves.
    let duels = tuner != Tuner::Mean;
    for label in ["duel games", "hall of fame", "endgame pairs"] {
        assert_eq!(shown(label), duels, "{what}: {label} in {labels:?}");
    }
    assert_eq!(has("duels"), duels, "{what}: {ids:?}");
    assert_eq!(page.contains("by duel"), duels, "{what}: the duels' figure");
    if duels {
        // Only generation 1 has no duel (it crowns the first best so far).
        let table = page
            .split("id=\"duels-table\"")
            .nth(1)
            .expect("duels table");
        let table = table.split("</table>").next().unwrap();
        let firsts: Vec<&str> = table
            .split("<tr>")
            .filter(|r| r.contains("first generation"))
            .collect();
        assert!(
            firsts.len() <= 1 && firsts.iter().all(|r| r.contains(">1</td>")),
            "{what}: {table}"
        );
    }
    let games = value("tournament games");
    if tuner == Tuner::Mean {
        assert!(
            games.contains("pair") && !games.contains("all against all"),
            "{what}: {games}"
        );
    } else {
        assert_eq!(games, "all against all, twice", "{what}");
    }
}

#[test]
fn every_ga_sessions_report_shows_what_exists_and_applied() {
    let t = Tmp::new("ga");
    let cases: [(&str, Tuner, Player, &[&str]); 8] = [
        ("truncation", Tuner::Breeds, Player::Ours, &[]),
        (
            "roulette",
            Tuner::Breeds,
            Player::Ours,
            &["--selection", "roulette"],
        ),
        (
            "tournament",
            Tuner::Breeds,
            Player::Ours,
            &["--selection", "tournament:2"],
        ),
        (
            "fit-only",
            Tuner::FitOnly,
            Player::Ours,
            &["--selection", "fit-only"],
        ),
        (
            "mean",
            Tuner::Mean,
            Player::Ours,
            &["--selection", "mean", "--fit-every", "0"],
        ),
        ("sim-mean", Tuner::Mean, Player::Sim, &[]),
        (
            "sim-roulette",
            Tuner::Breeds,
            Player::Sim,
            &["--selection", "roulette"],
        ),
        ("hub-mean", Tuner::Mean, Player::Outside, &[]),
    ];
    for (name, tuner, player, extra) in cases {
        session(&t, name, player, extra);
        check_ga(name, &report(&t, name), tuner, player);
    }
}

#[test]
fn an_spsa_sessions_report_shows_what_exists() {
    let t = Tmp::new("spsa");
    let mut c = bin();
    c.current_dir(&t.0)
        .args(["spsa", "--engine", "sim:4", "--games", "40", "--pairs", "2"])
        .args(["--seed", "3", "--quiet", "--name", "s", "--populations"])
        .arg(t.pops());
    run_ok(c);
    let page = report(&t, "s");
    let ids = check_page("spsa", &page);
    assert_eq!(ids, ["theta", "final-values", "settings"]);
    let rows = settings(&page);
    let labels: Vec<&str> = rows.iter().map(|(l, _)| l.as_str()).collect();
    // The simulator's model decides its games: it searches to no depth.
    assert!(!labels.contains(&"search depth"), "{labels:?}");
    let header = page.split("</header>").next().unwrap();
    assert!(!header.contains("depth"), "{header}");
    let (_, values) = sections(&page).into_iter().nth(1).unwrap();
    assert!(!values.contains("depth"), "{values}");
}

/// The game on the page of an outside engine's session is the engine's: `report` has the
/// engine play it, the answer's values set on the side with Black, the declared ones on the
/// other, and asks it for every move after the opening (the engine's log says what it was
/// sent). `declares.py` picks its move by its parameters' values.
#[test]
fn an_engine_sessions_game_is_played_by_the_engine() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("engine-game");
    let decl = t.write("decl.txt", b"a 3 0 9\nb 5 0 9\n");
    let log = t.0.join("engine.log");
    let engine = format!(
        "python3 {}/tests/fake_engines/declares.py {} --log={}",
        common::manifest_dir().display(),
        decl.display(),
        log.display()
    );
    let args = ["--engine", &engine, "--population", "4", "--depth", "1"];
    let more = ["--max-plies", "60", "--generations", "3"];
    run_ok(new_cmd(&t, 3, "e", true, &[&args[..], &more].concat()));
    let before = std::fs::read_to_string(&log).unwrap().lines().count();
    let page = report(&t, "e");
    check_answer_chart("declares", &page, 3);
    // A session of the mean that measures nothing knows its games, as SPSA's and CMA-ES's do:
    // 2 pairs of 2 games a generation, 3 generations, all played.
    assert_eq!(
        figure(&page, "games played / in the budget").as_deref(),
        Some("12 / 12")
    );
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .skip(before)
        .map(str::to_string)
        .collect();
    let data: serde_json::Value = {
        let start = "<script type=\"application/json\" id=\"game-data\">";
        let from = page.find(start).expect("a game") + start.len();
        let len = page[from..].find("</script>").unwrap();
        serde_json::from_str(&page[from..from + len]).unwrap()
    };
    let plies = data["plies"].as_array().unwrap();
    let opening = plies.iter().filter(|p| p["opening"] == true).count();
    let is_go = |l: &&String| l.split(' ').nth(1) == Some("go");
    let goes = sent.iter().filter(is_go);
    assert_eq!(goes.count(), plies.len() - opening, "{sent:?}");
    // Black's process got the answer's values (the values table), White's the declared ones.
    let table = page.split("id=\"weights-table\"").nth(1).unwrap();
    let cells = |row: &str, k: usize| {
        row.split("<td")
            .nth(k)
            .and_then(|c| c.split('>').nth(1))
            .map(|c| c.split('<').next().unwrap().to_string())
            .unwrap()
    };
    let rows: Vec<&str> = table
        .split("</table>")
        .next()
        .unwrap()
        .split("<tr>")
        .collect();
    let values = |k: usize| -> Vec<String> {
        rows.iter()
            .filter(|r| r.contains("<code>"))
            .map(|r| {
                let name = r.split("<code>").nth(1).unwrap().split('<').next().unwrap();
                format!("set-param name={name} value={}", cells(r, k))
            })
            .collect()
    };
    let set_by = |pid: &str| -> Vec<String> {
        sent.iter()
            .filter_map(|l| l.strip_prefix(pid)?.strip_prefix(" set-param"))
            .map(|l| format!("set-param{l}"))
            .collect()
    };
    // One process a side; the first asked to move is the side to move after the opening.
    let pid = |l: &String| l.split(' ').next().unwrap().to_string();
    let pids: Vec<String> = sent
        .iter()
        .filter(|l| l.ends_with(" new-game"))
        .map(pid)
        .collect();
    assert_eq!(pids.len(), 2, "{sent:?}");
    let first = sent.iter().find(is_go).map(pid).unwrap();
    let other = pids.iter().find(|p| **p != first).unwrap().clone();
    let (black, white) = if opening % 2 == 0 {
        (first, other)
    } else {
        (other, first)
    };
    assert_eq!(set_by(&black), values(3), "{sent:?}");
    assert_eq!(set_by(&white), values(4), "{sent:?}");
    assert!(
        page.contains("Black: <b>the answer (depth 1)</b>"),
        "the answer plays Black"
    );
}

#[test]
fn a_simulated_sessions_measurements_count_the_models_games() {
    // The simulator plays no moves: its games' results are the model's, and the measurement
    // counts them as they were drawn (it once counted every one a draw).
    let t = Tmp::new("sim-measure");
    let args = [
        "--engine",
        "sim:4",
        "--generations",
        "2",
        "--measure-every",
        "1",
        "--measure-games",
        "40",
    ];
    run_ok(new_cmd(&t, 5, "s", true, &args));
    let s = common::load(&t.ckpt("s", 2));
    assert_eq!(s.history.len(), 2);
    for h in s.history.iter() {
        let m = h.measure.expect("measured every generation");
        assert_eq!(m.games(), 40, "generation {}", h.generation);
        assert!(
            m.wins + m.losses > 0,
            "generation {}: {m}, every game a draw",
            h.generation
        );
    }
}
