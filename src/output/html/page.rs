//! The page: its head, the sections in order, the game to step through; its style and script
//! are `page.css` and `page.js`, included at build time.

use super::charts::{diversity_chart, elo_chart, heatmap, speed_chart};
use super::gather::{answer_name, board_string, ReportData, ShownGame};
use super::tables::{duels, duration_text, esc, settings_table, weights_table};
use super::{follow_seconds, Options};
use crate::board::Color;
use crate::game::GameOutcome;
use crate::summary::engine_answer_chart;
use std::fmt::Write as _;

/// The page's style sheet.
pub(super) const STYLE: &str = include_str!("page.css");

/// The page's script: draws the board of the current ply and steps through the game. The URL
/// fragment `#ply=N` opens at ply N, and each step writes it (so a reload, as `--refresh`
/// makes, opens where the reader was); `#steps=...` replays button clicks and keys on load
/// (`n` next, `p` previous, `r` right arrow, `l` left arrow, `e` End, `h` Home), which is how
/// the browser test drives it.
pub(super) const SCRIPT: &str = include_str!("page.js");

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

/// A section of the page: its id, its name in the contents, its heading and what it holds.
struct Section {
    id: &'static str,
    name: &'static str,
    heading: String,
    content: String,
}

/// What the answer of a session is: under the mean the centres' average, else the best so far.
fn answer_is(mean: bool) -> &'static str {
    match mean {
        true => "the centres' average",
        false => "the best so far",
    }
}

/// `text` with a capital first letter.
fn capital(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// The page's sections that have something to show of `data`, in order. The contents link to
/// these and no others.
fn sections(data: &ReportData) -> Vec<Section> {
    let session = data.session;
    let s = &session.settings;
    let who = answer_name(s);
    let mean = s.ga.method.mean().is_some();
    let mut out = Vec::new();
    let strength = match elo_chart(session) {
        Some(c) => {
            let how = match (s.games_depth(), s.ga.measure_games.div_ceil(2)) {
                (Some(d), 1) => {
                    format!(" from the first ballot opening with both colours at depth {d}")
                }
                (Some(d), n) => {
                    format!(" over the first {n} ballot openings with both colours at depth {d}")
                }
                (None, _) => " in the simulator's model".to_string(),
            };
            format!(
                "{c}<p class=\"note\">{} plays {}{how}; the band is the 95% interval (ends \
                 beyond +/-800 Elo are drawn at +/-800).</p>\n",
                capital(who),
                esc(&s.yardstick_text())
            )
        }
        // A session that measures nothing (an outside engine's, by default) will not: its
        // games go to the tuning.
        None if s.ga.measure_every == 0 => "<p class=\"note\" id=\"no-elo\">This session \
             measures nothing: its games all go to the tuning (<code>--measure-every K</code> \
             plays the answer against the yardstick every K generations; <code>history --elo\
             </code> measures the answers afterwards).</p>\n"
            .to_string(),
        None => "<p class=\"note\" id=\"no-elo\">No yardstick measurement yet (see \
                 <code>--measure-every</code>).</p>\n"
            .to_string(),
    };
    out.push(Section {
        id: "strength",
        name: "Strength",
        heading: "Strength".to_string(),
        content: strength,
    });
    // An outside engine's answer over the generations: the chart of SPSA's θ over the steps.
    if data.answers.iter().any(Option::is_some) {
        if let Some(chart) = engine_answer_chart(session, &data.answers, false) {
            out.push(Section {
                id: "answer",
                name: "Answer over the generations",
                heading: "The answer over the generations".to_string(),
                content: format!(
                    "{chart}<p class=\"note\">The answer ({}) after each generation: each \
                     parameter's value as its place in the parameter's declared range, 0% its \
                     minimum, 100% its maximum. <code>history</code> lists the values.</p>\n",
                    answer_is(mean)
                ),
            });
        }
    }
    if !session.history.is_empty() {
        // The mean's pairs are drawn a fixed spread either way of the centre: their diversity
        // says nothing.
        let content = match mean {
            true => format!(
                "<div class=\"pair\">\n{}</div>\n",
                speed_chart(&session.history)
            ),
            false => format!(
                "<div class=\"pair\">\n{}{}</div><p class=\"note\">Diversity: the mean \
                 absolute difference between two individuals' weights, per weight, over the i16 \
                 range (about 0.33 for random vectors, 0 when all are equal).</p>\n",
                diversity_chart(&session.history),
                speed_chart(&session.history)
            ),
        };
        let name = if mean { "Speed" } else { "Population" };
        out.push(Section {
            id: "population",
            name,
            heading: name.to_string(),
            content,
        });
    }
    // On a clock: what the tournament's games did with it, generation by generation.
    if let Some(tc) = s.engine.as_ref().and_then(|e| e.tc) {
        let rows: Vec<_> = session
            .history
            .iter()
            .map(|h| (h.generation.to_string(), h.time))
            .collect();
        let game_clock = matches!(tc, crate::clock::TimeControl::Game { .. });
        out.push(Section {
            id: "clock",
            name: "Clock",
            heading: format!("The clock: {tc}"),
            content: format!(
                "{}<p class=\"note\">Every tuning game is played on a clock of {tc}. Per \
                 generation: the mean depth the engine said its searches reached, the mean time \
                 a move took{}, and the games lost on time (each a loss, logged in \
                 <code>faults.log</code>).</p>\n",
                super::tables::time_table("generation", &rows, game_clock),
                if game_clock {
                    ", the mean time left on a side's clock at the end"
                } else {
                    ""
                }
            ),
        });
    }
    // (An outside engine's parameters have no men weight to scale by: no heatmap.)
    if let Some(h) = heatmap(data).filter(|_| s.our_search()) {
        out.push(Section {
            id: "weights-over-time",
            name: "Weights over time",
            heading: format!("{}'s weights over the generations", capital(who)),
            content: format!(
                "<div class=\"heat-wrap\">{h}</div><p class=\"note\">Each column is {who} \
                 after that generation (from the history, or the kept checkpoints); each weight \
                 is divided by that vector's men weight, so columns compare as shapes. Hover a \
                 cell for its value.</p>\n"
            ),
        });
    }
    if let Some(g) = &data.game {
        out.push(Section {
            id: "game",
            name: "Game",
            heading: match session.last_measure() {
                Some(_) => "A game of the last measurement",
                None => "A game against the yardstick",
            }
            .to_string(),
            content: game_section(g),
        });
    }
    if let Some(w) = &session.best_so_far {
        // An outside engine's values are named as SPSA's; ours are weights.
        out.push(match &s.engine {
            Some(e) => Section {
                id: "final-values",
                name: "Values",
                heading: format!("Values: the answer ({})", answer_is(mean)),
                content: super::tables::engine_table(e, w),
            },
            None => Section {
                id: "final-weights",
                name: "Final weights",
                heading: match mean {
                    true => format!("Final weights: the answer ({})", answer_is(mean)),
                    false => "Final weights: the best so far".to_string(),
                },
                content: weights_table(w),
            },
        });
    }
    // The mean plays no duel: its best so far is the centres' average.
    if s.duels() && !session.history.is_empty() {
        out.push(Section {
            id: "duels",
            name: "Duels",
            heading: "Duels of the best so far".to_string(),
            content: duels(session),
        });
    }
    out.push(Section {
        id: "settings",
        name: "Settings",
        heading: "Settings".to_string(),
        content: settings_table(session),
    });
    out
}

/// The HTML page of `data`.
pub fn page(data: &ReportData, opts: &Options) -> String {
    let session = data.session;
    let s = &session.settings;
    // A session of an outside engine is named by its tuner, as every tuner's is.
    let whose = match s.engine {
        Some(_) => "GA session",
        None => "session",
    };
    let mut p = head(
        &format!("checkers-ga {whose} '{}': report", session.name),
        opts,
    );
    let depth = match s.games_depth() {
        Some(d) => format!(", depth {d}"),
        None => String::new(),
    };
    let params = match &s.engine {
        Some(e) => format!(
            "{} parameters of the engine <code>{}</code>",
            e.tuned.len(),
            esc(&e.engine.name)
        ),
        None => format!("<code>{}</code> parameters", s.ga.params),
    };
    let _ = writeln!(
        p,
        "<header><h1>checkers-ga {whose} '{}'</h1><p>{} generation{}, {} of evolution; \
         population {}{depth}, {params}, seed {}; read from {}</p></header>\n<main>",
        esc(&session.name),
        session.generation,
        if session.generation == 1 { "" } else { "s" },
        duration_text(session.elapsed),
        s.population,
        s.seed,
        esc(&data.source)
    );

    // Contents: the sections there are.
    let sections = sections(data);
    p.push_str("<nav>");
    for x in &sections {
        let _ = write!(p, "<a href=\"#{}\">{}</a>", x.id, x.name);
    }
    p.push_str("</nav>\n");
    if let Some(every) = opts.follow {
        let seconds = match opts.rewrite_in {
            Some(gap) => super::follow_for(gap as f64, every),
            None => follow_seconds(session, every),
        };
        p.push_str(&super::follow_note(every, seconds));
    }

    // Key figures.
    p.push_str("<ul class=\"figures\">\n");
    let fig = |p: &mut String, v: String, what: &str| {
        let _ = writeln!(p, "<li><b>{}</b><span>{}</span></li>", esc(&v), esc(what));
    };
    fig(&mut p, session.generation.to_string(), "generations");
    // The games, as every tuner's report gives them (with the whole session's, where known).
    let played = session.games_played();
    match session.games_planned() {
        Some(all) => fig(
            &mut p,
            format!("{played} / {all}"),
            "games played / in the budget",
        ),
        None => fig(&mut p, played.to_string(), "games played"),
    }
    if let Some((g, m)) = session.last_measure() {
        fig(
            &mut p,
            crate::summary::elo_text(&m),
            &format!("Elo vs {} after generation {g}", s.yardstick_name()),
        );
    }
    if s.duels() {
        let changes = session
            .history
            .iter()
            .filter(|x| x.duel.is_some_and(|d| d.replaced))
            .count();
        fig(&mut p, changes.to_string(), "new bests so far by duel");
    }
    if let (Some(e), Some(w)) = (&s.engine, &session.best_so_far) {
        let moved = e
            .tuned
            .iter()
            .zip(e.values(w))
            .filter(|(t, v)| *v != t.default)
            .count();
        fig(&mut p, moved.to_string(), "values away from the default");
    }
    if let Some(h) = session.history.last() {
        // Under the mean the pairs' diversity is fixed by their spread: it says nothing.
        if s.ga.method.mean().is_none() {
            fig(
                &mut p,
                format!("{:.3}", h.diversity),
                "diversity, last generation",
            );
        }
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

    for x in &sections {
        let _ = write!(
            p,
            "<section id=\"{}\"><h2>{}</h2>\n{}</section>\n",
            x.id,
            esc(&x.heading),
            x.content
        );
    }
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
