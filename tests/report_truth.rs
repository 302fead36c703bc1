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

/// Checks the page of a GA session played by `player` with `tuner`.
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
}
