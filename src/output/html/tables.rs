//! The page's tables: the final weights, the settings, the duels; and the scale the weights
//! are shown in.

use crate::chart::xml_escape;
use crate::eval::Weights;
use crate::ga::{GaState, GenerationStats};
use crate::summary::{duel_text, Priority};
use std::fmt::Write as _;

/// The index of the men weight (what the heatmap and the weight table are scaled to).
pub fn men_index(w: &Weights) -> Option<usize> {
    let set = w.set();
    set.index_of("men").or_else(|| set.index_of("men@open"))
}

/// The scale of a weight vector: its men weight when positive, else its largest |weight|
/// (at least 1); and what it is, in words.
pub fn scale_of(w: &Weights) -> (f64, &'static str) {
    match men_index(w).map(|i| w[i]) {
        Some(m) if m > 0 => (m as f64, "the men weight"),
        _ => (
            w.values()
                .iter()
                .map(|&x| (x as i32).abs())
                .max()
                .unwrap_or(1)
                .max(1) as f64,
            "the largest |weight| (the men weight is not positive)",
        ),
    }
}

/// Text made safe for HTML.
pub fn esc(s: &str) -> String {
    xml_escape(s)
}

/// An outside engine's parameters: number, the engine's name, the value, its declared
/// default and range.
pub fn engine_table(e: &crate::genome::EngineSpec, w: &Weights) -> String {
    let mut s = format!(
        "<p class=\"note\">{} of the outside engine <code>{}</code> \
         (<code>{}</code>{}).</p>\n<table id=\"weights-table\" class=\"weights\">\
         <thead><tr><th>#</th><th>name</th><th>value</th><th>default</th><th>change</th>\
         <th>range</th></tr></thead><tbody>\n",
        crate::text::count(e.tuned.len(), "parameter", "parameters"),
        esc(&e.engine.name),
        esc(&e.engine.program.command.join(" ")),
        // The simulator's model decides its games: it searches to no depth.
        match e.sim_model() {
            Some(_) => String::new(),
            None => format!(", depth {}", e.depth()),
        }
    );
    for (i, (t, v)) in e.tuned.iter().zip(e.values(w)).enumerate() {
        let _ = writeln!(
            s,
            "<tr><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{v}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{:+}</td><td>{}..{}</td></tr>",
            i + 1,
            esc(&t.name),
            t.default,
            v - t.default,
            t.min,
            t.max
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

/// The final weights: number, name, weight, the weight over the scale with a bar, the
/// priority class and the description of each.
pub fn weights_table(w: &Weights) -> String {
    let (scale, what) = scale_of(w);
    let params = w.set().params();
    // A board network's thousands of input weights are the heat map's; the table lists the
    // weighted sum, the biases and the output weights.
    let shown = |i: usize| {
        !w.set().is_board()
            || i < crate::eval::NUM_ALL
            || params[i].name.starts_with("hidden")
            || params[i].name.starts_with("out")
    };
    let listed = (0..w.len()).filter(|&i| shown(i)).count();
    let mut s = format!(
        "<p class=\"note\">{} weights of the <code>{}</code> set{}; \"x men\" is each weight divided \
         by {what} ({scale}).</p>\n<table id=\"weights-table\" class=\"weights\"><thead><tr><th>#</th>\
         <th>name</th><th>weight</th><th>x men</th><th class=\"bar-col\"></th><th>class</th>\
         <th>description</th></tr></thead><tbody>\n",
        w.len(),
        w.set(),
        if listed < w.len() {
            format!(" ({listed} listed: the network's input weights are in its heat map)")
        } else {
            String::new()
        }
    );
    for (i, (&v, p)) in w.values().iter().zip(params).enumerate() {
        if !shown(i) {
            continue;
        }
        let r = v as f64 / scale;
        let pct = (r.abs().min(4.0) / 4.0 * 50.0).max(if v != 0 { 0.5 } else { 0.0 });
        let bar = if r >= 0.0 {
            format!("left:50%;width:{pct:.1}%")
        } else {
            format!("left:{:.1}%;width:{pct:.1}%", 50.0 - pct)
        };
        let _ = writeln!(
            s,
            "<tr><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{v}</td>\
             <td class=\"num\">{r:.2}</td><td class=\"bar-col\"><div class=\"bar\"><span class=\"{}\" \
             style=\"{bar}\"></span></div></td><td>{}</td><td>{}</td></tr>",
            i + 1,
            esc(p.name),
            if r >= 0.0 { "pos" } else { "neg" },
            Priority::of(v).label(),
            esc(p.description)
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

/// The session's settings that applied to it, one row each ([`Settings::applied`]).
///
/// [`Settings::applied`]: crate::ga::Settings::applied
pub fn settings_table(session: &GaState) -> String {
    let mut out = String::from("<table id=\"settings-table\" class=\"settings\"><tbody>\n");
    for (k, v) in session.settings.applied() {
        let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
    }
    out.push_str("</tbody></table>\n");
    out
}

/// What the games on a clock did with it, one row per `(label, time)` (a generation, or SPSA's
/// steps since the row before): games, mean depth, time a move, time left at the end (under a
/// game clock), games lost on time; `?` where a row has none.
pub fn time_table(
    first: &str,
    rows: &[(String, Option<crate::clock::TimeUse>)],
    game_clock: bool,
) -> String {
    let mut out = format!(
        "<table id=\"clock-table\"><thead><tr><th>{}</th><th>games</th><th>mean depth</th>\
         <th>ms a move</th>{}<th>lost on time</th></tr></thead><tbody>\n",
        esc(first),
        if game_clock {
            "<th>s left at the end</th>"
        } else {
            ""
        }
    );
    for (label, t) in rows {
        let cells: Vec<String> = match t {
            Some(t) => {
                let mut c = vec![
                    t.games.to_string(),
                    format!("{:.1}", t.mean_depth()),
                    t.mean_move().as_millis().to_string(),
                ];
                if game_clock {
                    c.push(format!("{:.2}", t.mean_left().as_secs_f64()));
                }
                c.push(t.lost_on_time.to_string());
                c
            }
            None => vec!["?".to_string(); if game_clock { 5 } else { 4 }],
        };
        let _ = write!(out, "<tr><td>{}</td>", esc(label));
        for c in cells {
            let _ = write!(out, "<td>{c}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The duels: counts, and the generations where the best so far changed.
pub fn duels(session: &GaState) -> String {
    let h = &session.history;
    let played = h
        .iter()
        .filter(|x| x.duel.is_some_and(|d| !d.is_same()))
        .count();
    let replaced = h
        .iter()
        .filter(|x| x.duel.is_some_and(|d| d.replaced))
        .count();
    let same = h
        .iter()
        .filter(|x| x.duel.is_some_and(|d| d.is_same()))
        .count();
    let mut s = format!(
        "<p>Each generation's best plays the best so far over {} ballot games (points: 2 a win, 1 a \
         draw); it takes the title when it scores more{}. <b>{played}</b> duels played, \
         <b>{replaced}</b> won by the challenger; in <b>{same}</b> generations the best so far \
         won its own tournament (no duel).</p>\n",
        session.settings.ga.duel_games,
        if session.settings.ga.duel_games == 2 {
            " (with 2 games a tie goes to the challenger)"
        } else {
            ""
        }
    );
    let changes: Vec<&GenerationStats> = h
        .iter()
        .filter(|x| x.duel.is_none_or(|d| d.replaced))
        .collect();
    const SHOWN: usize = 40;
    if changes.len() > SHOWN {
        let _ = writeln!(
            s,
            "<p class=\"note\">The newest {SHOWN} of the {} changes of the best so far:</p>",
            changes.len()
        );
    }
    s.push_str(
        "<table id=\"duels-table\" class=\"duels\"><thead><tr><th>generation</th><th>duel \
         (challenger-holder)</th><th>the generation's best: points</th><th>mean</th></tr></thead><tbody>\n",
    );
    for x in changes
        .iter()
        .skip(changes.len().saturating_sub(SHOWN))
        .rev()
    {
        // Only the first generation crowns its best without a duel.
        let d = match x.duel {
            None if x.generation == 1 => "first generation".to_string(),
            None => "no duel".to_string(),
            Some(_) => duel_text(x),
        };
        let _ = writeln!(
            s,
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td></tr>",
            x.generation,
            esc(&d),
            x.best,
            x.mean
        );
    }
    s.push_str("</tbody></table>\n");
    s
}
/// Seconds as people read them: `4.2 s`, `3 min 20 s`, `2 h 05 min`.
pub fn duration_text(s: f64) -> String {
    if !s.is_finite() || s < 0.0 {
        return "?".to_string();
    }
    if s < 60.0 {
        return format!("{s:.1} s");
    }
    let t = s.round() as u64;
    if t < 3600 {
        format!("{} min {:02} s", t / 60, t % 60)
    } else {
        format!("{} h {:02} min", t / 3600, (t % 3600) / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration_text(4.24), "4.2 s");
        assert_eq!(duration_text(200.0), "3 min 20 s");
        assert_eq!(duration_text(7500.0), "2 h 05 min");
        assert_eq!(duration_text(f64::NAN), "?");
    }
}
