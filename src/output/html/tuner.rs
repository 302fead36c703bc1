//! The page of a one-file tuner's session (`checkers-ga report NAME` on a folder of
//! `checkers-ga spsa` or `checkers-ga cmaes`): the figures of the run, its answer over the steps
//! as a chart of each parameter's place in its range ([`TunerHistory::chart`]), the values
//! beside the declared ones, and the settings; in the style of a session's page. One page for
//! every one-file tuner ([`tuner_page`]): what differs by tuner is its history's words and its
//! own settings, as its session gives them ([`OneFileSession`]).

use super::tables::{engine_table, esc};
use super::Options;
use crate::store::{OneFileSession, TunerHistory};
use crate::summary::ReportError;
use std::fmt::Write as _;
use std::path::Path;

/// What a tuner's page shows: its history ([`TunerHistory`]), its own settings, its copy.
struct TunerPage<'a> {
    h: TunerHistory,
    /// The tuner's own settings, after the engine, the clock and the games.
    settings: Vec<(&'static str, String)>,
    out: Option<&'a Path>,
}

/// The HTML page of one-file tuner session `s` (SPSA's, CMA-ES's), read from `checkpoint`.
pub fn tuner_page(s: &dyn OneFileSession, checkpoint: &Path, opts: &Options) -> String {
    page_of(
        &TunerPage {
            h: s.history(),
            settings: s.settings(),
            out: s.out(),
        },
        checkpoint,
        opts,
    )
}

/// The page of tuner session `t`, read from `checkpoint`.
fn page_of(page: &TunerPage, checkpoint: &Path, opts: &Options) -> String {
    let t = &page.h;
    let spec = &t.spec;
    let weights = t
        .points
        .last()
        .map_or_else(|| spec.defaults(), |p| p.weights);
    let mut p = super::page::head(
        &format!(
            "checkers-ga {} session '{}': report",
            t.tuner.name(),
            t.name
        ),
        opts,
    );
    // The simulator's games are decided by its model: it searches nothing.
    let depth = match spec.sim_model() {
        Some(_) => None,
        None => Some(spec.depth()),
    };
    let _ = writeln!(
        p,
        "<header><h1>checkers-ga {tuner} session '{}'</h1><p>{tuner} over {} of the \
         outside engine <code>{}</code>{}: {}; seed {}; read from {}</p></header>\n<main>",
        esc(&t.name),
        crate::text::count(spec.tuned.len(), "parameter", "parameters"),
        esc(&spec.engine.name),
        match (spec.tc, depth) {
            (Some(tc), _) => format!(", clock {tc}"),
            (None, d) => d.map_or(String::new(), |d| format!(", depth {d}")),
        },
        t.progress,
        t.seed,
        esc(&checkpoint.display().to_string()),
        tuner = t.tuner.name(),
    );
    let _ = writeln!(
        p,
        "<nav><a href=\"#theta\">{} over the {}s</a>{}<a href=\"#final-values\">Values</a>\
         <a href=\"#settings\">Settings</a></nav>",
        capital(t.answer.0),
        t.step,
        if spec.tc.is_some() {
            "<a href=\"#clock\">Clock</a>"
        } else {
            ""
        }
    );
    // A running session's page follows it, as the GA's does: until a few times the gap to
    // its next rewrite its writer reckons (a minute when it gives none).
    if let Some(every) = opts.follow {
        let gap = opts.rewrite_in.unwrap_or(60) as f64;
        p.push_str(&super::follow_note(every, super::follow_for(gap, every)));
    }
    p.push_str("<ul class=\"figures\">\n");
    let fig = |p: &mut String, v: String, what: &str| {
        let _ = writeln!(p, "<li><b>{}</b><span>{}</span></li>", esc(&v), esc(what));
    };
    fig(
        &mut p,
        format!("{} / {}", t.done.1, t.budget.1),
        &format!("{}s done / in the budget", t.step),
    );
    fig(
        &mut p,
        format!("{} / {}", t.done.0, t.budget.0),
        "games played / in the budget",
    );
    let moved = spec
        .tuned
        .iter()
        .zip(spec.values(&weights))
        .filter(|(t, v)| *v != t.default)
        .count();
    fig(&mut p, moved.to_string(), "values away from the default");
    p.push_str("</ul>\n");

    let (answer, step) = (t.answer.0, t.step);
    let _ = writeln!(
        p,
        "<section id=\"theta\"><h2>{} over the {step}s</h2>",
        capital(answer)
    );
    p.push_str(&t.chart(false));
    let kept = match t.every {
        0 => format!("the start and the last whole {step}"),
        1 => format!("the start and every {step}"),
        k => format!("the start, every {k} {step}s, the last whole {step}"),
    };
    let _ = writeln!(
        p,
        "<p class=\"note\">{} of each parameter at the {step}s the history kept ({kept}), as \
         its place in the parameter's declared range: 0% its minimum, 100% its \
         maximum.</p></section>",
        capital(answer)
    );

    if let Some(tc) = spec.tc {
        // What the games of the steps between two kept points did with the clock.
        let rows: Vec<_> = t
            .points
            .iter()
            .filter(|p| p.step > 0)
            .map(|p| (p.step.to_string(), p.time))
            .collect();
        let game_clock = matches!(tc, crate::clock::TimeControl::Game { .. });
        let _ = writeln!(
            p,
            "<section id=\"clock\"><h2>The clock: {tc}</h2>\n{}<p class=\"note\">Every game is \
             played on a clock of {tc}. For the {step}s up to each kept {step} since the one before: \
             the mean depth the engine said its searches reached, the mean time a move took, \
             and the games lost on time (each a loss).</p></section>",
            super::tables::time_table(&format!("up to {step}"), &rows, game_clock)
        );
    }
    let _ = writeln!(
        p,
        "<section id=\"final-values\"><h2>Values: {}</h2>",
        t.rounded
    );
    p.push_str(&engine_table(spec, &weights));
    p.push_str("</section>\n");

    p.push_str("<section id=\"settings\"><h2>Settings</h2>\n");
    let mut rows: Vec<(&str, String)> = vec![("engine", spec.engine.program.command.join(" "))];
    match spec.tc {
        Some(tc) => rows.push(("clock", format!("{tc}, every game"))),
        None => rows.extend(depth.map(|d| ("search depth", d.to_string()))),
    }
    rows.push((
        "games",
        format!("{} (game pairs, colours swapped)", t.budget.0),
    ));
    rows.extend(page.settings.iter().cloned());
    let kept_row = format!("{answer} kept");
    rows.extend([
        (kept_row.as_str(), kept),
        (
            "values also written to",
            page.out
                .map_or("no other file (no --out)".to_string(), |o| {
                    o.display().to_string()
                }),
        ),
        ("seed", t.seed.to_string()),
    ]);
    p.push_str("<table id=\"settings-table\" class=\"settings\"><tbody>\n");
    for (k, v) in rows {
        let _ = writeln!(p, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
    }
    p.push_str("</tbody></table>\n</section>\n");
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
    if opts.follow.is_some() {
        let _ = writeln!(p, "<script>\n{}</script>", super::page::SCRIPT);
    }
    p.push_str("</body>\n</html>\n");
    p
}

/// Makes the page of one-file tuner session `s` (read from `checkpoint`) and writes it to
/// `out` atomically (temp name, sync, rename).
pub fn write_tuner_report(
    s: &dyn OneFileSession,
    checkpoint: &Path,
    out: &Path,
    opts: &Options,
) -> Result<(), ReportError> {
    write_page(out, &tuner_page(s, checkpoint, opts))
}

fn write_page(out: &Path, page: &str) -> Result<(), ReportError> {
    crate::files::write_atomic(out, page.as_bytes()).map_err(|source| ReportError::Write {
        path: out.to_path_buf(),
        source,
    })
}

/// A name at the start of a heading: `the answer` as `The answer` (a Greek letter stays as it
/// is: θ is θ).
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_ascii_uppercase().to_string() + c.as_str()
    })
}
