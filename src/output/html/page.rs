//! The page: its head, the sections in order, the game to step through; its style and script
//! are `page.css` and `page.js`, included at build time.

use super::charts::{diversity_chart, elo_chart, heatmap, speed_chart};
use super::gather::{board_string, ReportData, ShownGame};
use super::tables::{duels, duration_text, esc, settings_table, weights_table};
use super::{follow_seconds, Options};
use crate::board::Color;
use crate::game::GameOutcome;
use std::fmt::Write as _;

/// The page's style sheet.
pub(super) const STYLE: &str = include_str!("page.css");

/// The page's script: draws the board of the current ply and steps through the game. The URL
/// fragment `#ply=N` opens at ply N, and each step writes it (so a reload, as `--refresh`
/// makes, opens where the reader was); `#steps=...` replays button clicks and keys on load
/// (`n` next, `p` previous, `r` right arrow, `l` left arrow, `e` End, `h` Home), which is how
/// the browser test drives it.
const SCRIPT: &str = include_str!("page.js");

/// The game as JSON for the page's script: the start and every ply's move and position.
pub fn game_json(g: &ShownGame) -> String {
    let mut pos = *g.game.start();
    let mut plies = Vec::new();
    for (i, m) in g.game.moves().iter().enumerate() {
        let mover = pos.side_to_move();
        pos = pos.play(m);
        plies.push(serde_json::json!({
            "move": m.to_string(),
            "from": m.from(),
            "to": m.to(),
            "side": if mover == Color::Black { "b" } else { "w" },
            "opening": i < g.opening_plies,
            "pos": board_string(&pos),
        }));
    }
    let result = match g.game.result() {
        Some((o, why)) => {
            let who = match o {
                GameOutcome::BlackWin => format!("Black ({}) wins", g.black),
                GameOutcome::WhiteWin => format!("White ({}) wins", g.white),
                GameOutcome::Draw => "draw".to_string(),
            };
            format!("{}: {who} ({why})", o.pdn())
        }
        None => "unfinished".to_string(),
    };
    let doc = serde_json::json!({
        "start": board_string(g.game.start()),
        "plies": plies,
        "result": result,
    });
    // Safe inside a <script> element.
    serde_json::to_string(&doc)
        .unwrap_or_default()
        .replace("</", "<\\/")
}

/// The game's section: who played, the board, its controls and the move list.
pub fn game_section(g: &ShownGame) -> String {
    format!(
        "<p>{title}. Black: <b>{black}</b>; White: <b>{white}</b>. The first {op} plies are the \
         ballot opening. Step with the buttons, the arrow keys (Home and End for the ends) or a \
         click on a move.</p>\n\
         <div class=\"game\"><div class=\"board-wrap\">\
         <svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 400\" \
         data-ply=\"0\" role=\"img\" aria-label=\"board\"></svg>\
         <div class=\"controls\"><button id=\"first\" title=\"first (Home)\">&#xAB;</button>\
         <button id=\"prev\" title=\"previous (left arrow)\">&#x25C0;</button>\
         <span id=\"ply-label\">start</span>\
         <button id=\"next\" title=\"next (right arrow)\">&#x25B6;</button>\
         <button id=\"last\" title=\"last (End)\">&#xBB;</button></div></div>\
         <div class=\"moves-wrap\"><ol id=\"moves\"></ol><p id=\"result\"></p></div></div>\n\
         <script type=\"application/json\" id=\"game-data\">{json}</script>\n",
        title = esc(&g.title),
        black = esc(&g.black),
        white = esc(&g.white),
        op = g.opening_plies,
        json = game_json(g)
    )
}
/// A page's beginning up to its `<body>`: the title `title` (escaped here), the refresh of
/// `opts`, the style.
pub(super) fn head(title: &str, opts: &Options) -> String {
    let mut p = String::new();
    p.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    p.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    if let Some(r) = opts.refresh {
        let _ = writeln!(p, "<meta http-equiv=\"refresh\" content=\"{r}\">");
    }
    let _ = writeln!(p, "<title>{}</title>", esc(title));
    let _ = writeln!(p, "<style>\n{STYLE}</style>\n</head>\n<body>");
    p
}

/// The HTML page of `data`.
pub fn page(data: &ReportData, opts: &Options) -> String {
    let session = data.session;
    let s = &session.settings;
    let mut p = head(
        &format!("checkers-ga session '{}': report", session.name),
        opts,
    );
    let _ = writeln!(
        p,
        "<header><h1>checkers-ga session '{}'</h1><p>{} generation{}, {} of evolution; \
         population {}, depth {}, <code>{}</code> parameters, seed {}; read from {}</p></header>\n<main>",
        esc(&session.name),
        session.generation,
        if session.generation == 1 { "" } else { "s" },
        duration_text(session.elapsed),
        s.population,
        s.search.depth,
        s.ga.params,
        s.seed,
        esc(&data.source)
    );

    // Contents.
    let mut links = vec![("strength", "Strength")];
    if !session.history.is_empty() {
        links.push(("population", "Population"));
    }
    if data.bests.iter().any(|(_, w)| w.is_some()) {
        links.push(("weights-over-time", "Weights over time"));
    }
    if data.game.is_some() {
        links.push(("game", "Game"));
    }
    if session.best_so_far.is_some() {
        links.push(("final-weights", "Final weights"));
    }
    if !session.history.is_empty() {
        links.push(("duels", "Duels"));
    }
    links.push(("settings", "Settings"));
    p.push_str("<nav>");
    for (id, name) in links {
        let _ = write!(p, "<a href=\"#{id}\">{name}</a>");
    }
    p.push_str("</nav>\n");
    if let Some(every) = opts.follow {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let until = now + (follow_seconds(session, every) * 1000.0) as u64;
        let _ = writeln!(
            p,
            "<p id=\"follow\" class=\"note\" data-every=\"{every}\" data-written=\"{now}\" \
             data-until=\"{until}\">This page follows the running session: it reloads every \
             {every} s.</p>"
        );
    }

    // Key figures.
    p.push_str("<ul class=\"figures\">\n");
    let fig = |p: &mut String, v: String, what: &str| {
        let _ = writeln!(p, "<li><b>{}</b><span>{}</span></li>", esc(&v), esc(what));
    };
    fig(&mut p, session.generation.to_string(), "generations");
    if let Some((g, m)) = session.last_measure() {
        fig(
            &mut p,
            crate::summary::elo_text(&m),
            &format!("Elo vs {} after generation {g}", s.yardstick_name()),
        );
    }
    let changes = session
        .history
        .iter()
        .filter(|x| x.duel.is_some_and(|d| d.replaced))
        .count();
    fig(&mut p, changes.to_string(), "new bests so far by duel");
    if let Some(h) = session.history.last() {
        fig(
            &mut p,
            format!("{:.3}", h.diversity),
            "diversity, last generation",
        );
        let total: f64 = session.history.iter().map(|h| h.seconds).sum();
        let games: u64 = session.history.iter().map(|h| h.games as u64).sum();
        if total > 0.0 {
            fig(
                &mut p,
                format!("{:.0}", games as f64 / total),
                "tournament games per second",
            );
        }
    }
    p.push_str("</ul>\n");

    p.push_str("<section id=\"strength\"><h2>Strength</h2>\n");
    match elo_chart(session) {
        Some(c) => {
            p.push_str(&c);
            p.push_str(
                "<p class=\"note\">The best so far plays the yardstick over the first ballot \
                 openings with both colours at the session's depth; the band is the 95% interval \
                 (ends beyond +/-800 Elo are drawn at +/-800).</p>\n",
            );
        }
        None => p.push_str(
            "<p class=\"note\" id=\"no-elo\">No yardstick measurement yet (see \
             <code>--measure-every</code>).</p>\n",
        ),
    }
    p.push_str("</section>\n");

    if !session.history.is_empty() {
        p.push_str("<section id=\"population\"><h2>Population</h2><div class=\"pair\">\n");
        p.push_str(&diversity_chart(&session.history));
        p.push_str(&speed_chart(&session.history));
        p.push_str(
            "</div><p class=\"note\">Diversity: the mean absolute difference between two \
             individuals' weights, per weight, over the i16 range (about 0.33 for random \
             vectors, 0 when all are equal).</p></section>\n",
        );
    }

    // (An outside engine's parameters have no men weight to scale by: no heatmap.)
    if let Some(h) = heatmap(data).filter(|_| session.settings.engine.is_none()) {
        p.push_str("<section id=\"weights-over-time\"><h2>The best so far's weights over the generations</h2>\n<div class=\"heat-wrap\">");
        p.push_str(&h);
        p.push_str("</div><p class=\"note\">Each column is the best so far after that generation (from the history, or the kept checkpoints); each weight is divided by that vector's men weight, so columns compare as shapes. Hover a cell for its value.</p></section>\n");
    }

    if let Some(g) = &data.game {
        p.push_str("<section id=\"game\"><h2>A game of the last measurement</h2>\n");
        p.push_str(&game_section(g));
        p.push_str("</section>\n");
    }

    if let Some(w) = &session.best_so_far {
        p.push_str("<section id=\"final-weights\"><h2>Final weights: the best so far</h2>\n");
        match &session.settings.engine {
            Some(e) => p.push_str(&super::tables::engine_table(e, w)),
            None => p.push_str(&weights_table(w)),
        }
        p.push_str("</section>\n");
    }

    if !session.history.is_empty() {
        p.push_str("<section id=\"duels\"><h2>Duels of the best so far</h2>\n");
        p.push_str(&duels(session));
        p.push_str("</section>\n");
    }

    p.push_str("<section id=\"settings\"><h2>Settings</h2>\n");
    p.push_str(&settings_table(session));
    p.push_str("</section>\n");
    let _ = writeln!(
        p,
        "<footer>checkers-ga {} report{}</footer>\n</main>",
        env!("CARGO_PKG_VERSION"),
        match (opts.refresh, opts.follow) {
            (Some(r), _) => format!(", reloads every {r} s"),
            (None, Some(r)) => format!(", reloads every {r} s while the session runs"),
            (None, None) => String::new(),
        }
    );
    if data.game.is_some() || opts.follow.is_some() {
        let _ = writeln!(p, "<script>\n{SCRIPT}</script>");
    }
    p.push_str("</body>\n</html>\n");
    p
}
