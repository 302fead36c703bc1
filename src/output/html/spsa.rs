//! The page of an SPSA session (`checkers-ga report NAME` on a folder of `checkers-ga spsa`):
//! the figures of the run, θ over the steps as a chart of each parameter's place in its range
//! ([`crate::summary::spsa_chart`]), the values θ rounds to beside the declared ones, and the
//! settings; in the style of a session's page.

use super::tables::{engine_table, esc};
use super::Options;
use crate::store::SpsaSession;
use crate::summary::{spsa_chart, spsa_points, ReportError};
use std::fmt::Write as _;
use std::path::Path;

/// The HTML page of SPSA session `s`, read from `checkpoint`.
pub fn spsa_page(s: &SpsaSession, checkpoint: &Path, opts: &Options) -> String {
    let st = &s.state;
    let spec = &st.spec;
    let set = &st.settings;
    let mut p = super::page::head(
        &format!("checkers-ga SPSA session '{}': report", s.name),
        opts,
    );
    // The simulator's games are decided by its model: it searches nothing.
    let depth = match spec.sim_model() {
        Some(_) => None,
        None => Some(spec.depth),
    };
    let _ = writeln!(
        p,
        "<header><h1>checkers-ga SPSA session '{}'</h1><p>SPSA over {} of the \
         outside engine <code>{}</code>{}: {}; seed {}; read from {}</p></header>\n<main>",
        esc(&s.name),
        crate::text::count(spec.tuned.len(), "parameter", "parameters"),
        esc(&spec.name),
        match (spec.tc, depth) {
            (Some(tc), _) => format!(", clock {tc}"),
            (None, d) => d.map_or(String::new(), |d| format!(", depth {d}")),
        },
        st.progress(),
        set.seed,
        esc(&checkpoint.display().to_string())
    );
    let _ = writeln!(
        p,
        "<nav><a href=\"#theta\">θ over the steps</a>{}<a href=\"#final-values\">Values</a>\
         <a href=\"#settings\">Settings</a></nav>",
        if spec.tc.is_some() {
            "<a href=\"#clock\">Clock</a>"
        } else {
            ""
        }
    );
    p.push_str("<ul class=\"figures\">\n");
    let fig = |p: &mut String, v: String, what: &str| {
        let _ = writeln!(p, "<li><b>{}</b><span>{}</span></li>", esc(&v), esc(what));
    };
    fig(
        &mut p,
        format!("{} / {}", st.step, set.steps()),
        "steps done / in the budget",
    );
    fig(
        &mut p,
        format!("{} / {}", st.games(), 2 * set.pairs()),
        "games played / in the budget",
    );
    let moved = spec
        .tuned
        .iter()
        .zip(spec.values(&st.weights()))
        .filter(|(t, v)| *v != t.default)
        .count();
    fig(&mut p, moved.to_string(), "values away from the default");
    p.push_str("</ul>\n");

    p.push_str("<section id=\"theta\"><h2>θ over the steps</h2>\n");
    p.push_str(&spsa_chart(s, false));
    let kept = match set.history_every {
        0 => "the start and the last whole step".to_string(),
        1 => "the start and every step".to_string(),
        k => format!("the start, every {k} steps, the last whole step"),
    };
    let _ = writeln!(
        p,
        "<p class=\"note\">θ of each parameter at the steps the history kept ({kept}), as its \
         place in the parameter's declared range: 0% its minimum, 100% its maximum.</p></section>"
    );

    if let Some(tc) = spec.tc {
        // What the games of the steps between two kept points did with the clock.
        let rows: Vec<_> = spsa_points(s)
            .into_iter()
            .filter(|p| p.step > 0)
            .map(|p| (p.step.to_string(), p.time))
            .collect();
        let game_clock = matches!(tc, crate::clock::TimeControl::Game { .. });
        let _ = writeln!(
            p,
            "<section id=\"clock\"><h2>The clock: {tc}</h2>\n{}<p class=\"note\">Every game is \
             played on a clock of {tc}. For the steps up to each kept step since the one before: \
             the mean depth the engine said its searches reached, the mean time a move took, \
             and the games lost on time (each a loss).</p></section>",
            super::tables::time_table("up to step", &rows, game_clock)
        );
    }
    p.push_str("<section id=\"final-values\"><h2>Values: θ rounded</h2>\n");
    p.push_str(&engine_table(spec, &st.weights()));
    p.push_str("</section>\n");

    p.push_str("<section id=\"settings\"><h2>Settings</h2>\n");
    let mut rows: Vec<(&str, String)> = vec![("engine", spec.command.join(" "))];
    match spec.tc {
        Some(tc) => rows.push(("clock", format!("{tc}, every game"))),
        None => rows.extend(depth.map(|d| ("search depth", d.to_string()))),
    }
    rows.extend([
        (
            "games",
            format!("{} (game pairs, colours swapped)", 2 * set.pairs()),
        ),
        (
            "steps",
            format!("{} of {} game pairs", set.steps(), set.pairs_per_step),
        ),
        ("c_end", format!("{} of each range (at least 1)", set.c_end)),
        ("r_end", set.r_end.to_string()),
        ("θ kept", kept),
        (
            "values also written to",
            s.out
                .as_ref()
                .map_or("-".to_string(), |o| o.display().to_string()),
        ),
        ("seed", set.seed.to_string()),
    ]);
    p.push_str("<table id=\"settings-table\" class=\"settings\"><tbody>\n");
    for (k, v) in rows {
        let _ = writeln!(p, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
    }
    p.push_str("</tbody></table>\n</section>\n");
    let _ = writeln!(
        p,
        "<footer>checkers-ga {} report{}</footer>\n</main>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION"),
        match opts.refresh {
            Some(r) => format!(", reloads every {r} s"),
            None => String::new(),
        }
    );
    p
}

/// Makes the page of SPSA session `s` (read from `checkpoint`) and writes it to `out`
/// atomically (temp name, sync, rename).
pub fn write_spsa_report(
    s: &SpsaSession,
    checkpoint: &Path,
    out: &Path,
    opts: &Options,
) -> Result<(), ReportError> {
    crate::files::write_atomic(out, spsa_page(s, checkpoint, opts).as_bytes()).map_err(|source| {
        ReportError::Write {
            path: out.to_path_buf(),
            source,
        }
    })
}
