//! What `history` prints of a GA session ([`history_text`]: its head, the table and the legend).
//! The per-generation history of a session as a table ([`history_table`]) and as an SVG chart
//! of the yardstick Elo and the best and mean points ([`history_svg`]), and the session's
//! strength from its first measurement to its last in one line ([`strength_span`]); what a
//! generation's line counts: the tournament's maximum points ([`tournament_max_points`]), the
//! mean's decided pairs ([`decided_pairs`]), the generation's draws ([`generation_draws`]) and
//! its games ([`generation_games`]); the newest measurement and its trend, as the progress bar
//! shows it ([`elo_trend`]).

use crate::chart::{Axis, AxisSide, LineChart, Series};
use crate::eval::Weights;
use crate::ga::{GaState, GenerationStats};
use crate::matchplay::{elo, Wdl};
use crate::text::{EloFigure, EloMargin};
use std::path::Path;

/// The duel column: `challenger-holder` points, `*` when the challenger became the best so far,
/// `-` in the first generation, `same` when the generation's best was the best so far itself.
pub fn duel_text(s: &GenerationStats) -> String {
    match s.duel {
        None => "-".to_string(),
        Some(d) if d.is_same() => "same".to_string(),
        Some(d) => format!(
            "{}-{}{}",
            d.challenger,
            d.holder,
            if d.replaced { "*" } else { "" }
        ),
    }
}

/// Indices into `history` of the generations to measure: every generation whose number is a
/// multiple of `every` (1 = all), and always the last.
pub fn elo_generations(history: &[GenerationStats], every: u64) -> Vec<usize> {
    let every = every.max(1);
    let last = history.len().saturating_sub(1);
    (0..history.len())
        .filter(|&i| history[i].generation.is_multiple_of(every) || i == last)
        .collect()
}

/// `Elo +/- margin (w/d/l)` of a match result, rounded to whole Elo.
pub fn elo_text(w: &Wdl) -> String {
    let e = elo(w);
    format!("{:+} ({w})", EloMargin::new(e.diff, e.margin))
}

/// The best so far's strength against the yardstick at its first measurement and at its
/// last, on one line: `best so far vs material (depth 2, 8 games): +12 +/- 40 (gen 2) -> +80
/// +/- 38 (gen 50)`; with a single measurement, that one alone. None before the first.
pub fn strength_span(s: &GaState) -> Option<String> {
    let measured: Vec<(u64, Wdl)> = s
        .history
        .iter()
        .filter_map(|h| h.measure.map(|m| (h.generation, m)))
        .collect();
    let (first, last) = (measured.first()?, measured.last()?);
    let e = |(g, m): &(u64, Wdl)| {
        let e = elo(m);
        format!("{:+} (gen {g})", EloMargin::new(e.diff, e.margin))
    };
    let span = if first.0 == last.0 {
        e(last)
    } else {
        format!("{} -> {}", e(first), e(last))
    };
    Some(format!(
        "best so far vs {} (depth {}, {} games): {span}",
        s.settings.yardstick_name(),
        s.settings.search.depth,
        last.1.games()
    ))
}

/// The most points a player can score in session `s`'s tournament, as a generation's line
/// says it (`top 54 of 124 points`): 4 (two games, 2 points a win) against every other member
/// of the population and every hall of fame member that plays.
pub fn tournament_max_points(s: &GaState) -> u64 {
    4 * (s.settings.population as u64 - 1) + 4 * s.hall_players().len() as u64
}

/// The mean's last generation: its mirrored pairs and how many of them their games decided
/// (the rest drew, and moved the centre nothing). None for another method.
pub fn decided_pairs(s: &GaState) -> Option<(u64, u64)> {
    s.settings.ga.method.mean()?;
    let pairs = s.last.chunks(2).filter(|p| p.len() == 2);
    let decided = pairs
        .clone()
        .filter(|p| p[0].1.points != p[1].1.points)
        .count();
    Some((pairs.count() as u64, decided as u64))
}

/// The draws among generation `st`'s games, from the last standings of session `s`: the
/// standings count a game once for every side of it in them, so their share of draws is the
/// generation's (what [`crate::Signal::add`] is told).
pub fn generation_draws(st: &GenerationStats, s: &GaState) -> u64 {
    let (sides, drawn) = crate::signal::standings_draws(s.last.iter().map(|(_, x)| x));
    (drawn * u64::from(st.games))
        .checked_div(sides)
        .unwrap_or(0)
}

/// `material +201±34 ↑`: the newest yardstick measurement of session `s` and how it moved
/// since the one before (`↑`, `↓`, `→`; nothing with a single one); empty before the first.
pub fn elo_trend(s: &GaState) -> String {
    let measured: Vec<f64> = s
        .history
        .iter()
        .filter_map(|h| h.measure)
        .map(|m| elo(&m).diff)
        .collect();
    let Some((_, m)) = s.last_measure() else {
        return String::new();
    };
    let e = elo(&m);
    let trend = match measured.len() {
        0 | 1 => "",
        n if measured[n - 1] > measured[n - 2] => " ↑",
        n if measured[n - 1] < measured[n - 2] => " ↓",
        _ => " →",
    };
    format!(
        "{} {:+}±{}{trend}",
        s.settings.yardstick_name(),
        EloFigure(e.diff),
        EloFigure(e.margin)
    )
}

/// Generation `st`'s games as its line counts them: the tournament's, and the duel's and the
/// measurement's when there were any (`56+32 duel+16 measured`); the duel's are what session
/// `s` counts for the generation ([`GaState::record_games`]) less the others.
pub fn generation_games(st: &GenerationStats, s: &GaState) -> String {
    let mut t = st.games.to_string();
    let measured = st.measure.map_or(0, |m| m.games());
    let duel = s.record_games(st) - st.games as u64 - measured;
    if duel > 0 {
        t += &format!("+{duel} duel");
    }
    if st.measure.is_some() {
        t += &format!("+{measured} measured");
    }
    t
}

/// What `history` prints of GA session `session` read from checkpoint `path`: its head (for a
/// session of an outside engine, as every tuner's session of one is headed), `elo_line` (the
/// `--elo` measurement's line) when there is one, a note when a damaged history file lost the
/// first generations, the table ([`history_table`] of `answers` and `elo`) and the legend of
/// its columns.
pub fn history_text(
    session: &GaState,
    path: &Path,
    answers: &[Option<Weights>],
    elo: &[(u64, Wdl)],
    elo_line: Option<&str>,
) -> String {
    let s = &session.settings;
    let engine = s.engine.as_ref();
    let mut text = match engine {
        Some(e) => format!(
            "{}, population {}\n",
            super::params::engine_session_head(
                crate::store::TunerKind::Ga.name(),
                &session.name,
                path,
                e,
                s.seed,
                &session.progress()
            ),
            s.population
        ),
        None => our_head(session, path),
    };
    if let Some(l) = elo_line {
        text.push_str(l);
        text.push('\n');
    }
    text.push('\n');
    let first = session
        .history
        .first()
        .map_or(session.generation + 1, |h| h.generation);
    if first > 1 {
        // A damaged history file was cut back (as its reading warned).
        text.push_str(&format!(
            "(no statistics of generations 1 to {}: its history file lost them)\n",
            first - 1
        ));
    }
    text.push_str(&history_table(session, answers, elo));
    if engine.is_none() || s.ga.method.mean().is_none() {
        text.push_str(
            "points: 2 per win, 1 per draw, within each generation's own tournament (relative: \
             they fall as the population gets stronger); duel: challenger-holder points, * = new \
             best so far\n",
        );
    }
    if let Some(e) = engine {
        text.push_str(&format!(
            "games: played by then; faults: those {} lost by a fault in the generation \
             (faults.log says which); then the answer after the generation ({}), in the engine's units, ? where \
             it cannot be told\n",
            e.engine.name,
            if s.ga.method.mean().is_some() {
                "the centres' average"
            } else {
                "the best so far"
            }
        ));
    }
    if session.history.iter().any(|h| h.measure.is_some()) {
        let g = &s.ga;
        text.push_str(&format!(
            "vs yardstick: the best so far against {} over {} ballot games at depth {}, Elo +/- 95% \
             margin (W/D/L), every {} generations\n",
            s.yardstick_name(),
            g.measure_games.div_ceil(2).saturating_mul(2),
            s.search.depth,
            g.measure_every
        ));
    }
    text
}

/// The head line of the history of a session of our weights.
fn our_head(session: &GaState, path: &Path) -> String {
    let s = &session.settings;
    format!(
        "session '{}' ({}): {} generation{}, population {}, depth {}, seed {}\n",
        session.name,
        path.display(),
        session.history.len(),
        if session.history.len() == 1 { "" } else { "s" },
        s.population,
        s.search.depth,
        s.seed
    )
}

/// The per-generation table: generation, best/mean/min points, diversity, duel (not in an
/// outside engine's session under the mean, where they say nothing: its pairs share their
/// points, their spread is fixed, and it has no duel), in a
/// session of an outside engine the games played by then and the faults, seconds, in a session of an outside
/// engine the answer's values after each generation (by the engine's names and in its units;
/// `answers` holds the answer of each history record, None where it cannot be told), the
/// yardstick measurement, and (when `elo` names any generation) an Elo column against a
/// reference. `elo` pairs a generation number with the match result of its best so far.
pub fn history_table(session: &GaState, answers: &[Option<Weights>], elo: &[(u64, Wdl)]) -> String {
    let history = &session.history;
    let engine = session.settings.engine.as_ref();
    let points = engine.is_none() || session.settings.ga.method.mean().is_none();
    let gw = history
        .iter()
        .map(|s| s.generation.to_string().len())
        .max()
        .unwrap_or(0)
        .max(3);
    let dw = history
        .iter()
        .map(|s| duel_text(s).len())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut lines = Vec::new();
    let measured = history.iter().any(|s| s.measure.is_some());
    let mw = history
        .iter()
        .filter_map(|s| s.measure.map(|m| elo_text(&m).len()))
        .max()
        .unwrap_or(0)
        .max(14);
    let names: Vec<&str> = engine.map_or(Vec::new(), |e| {
        e.tuned.iter().map(|t| t.name.as_str()).collect()
    });
    let widths: Vec<usize> = names.iter().map(|n| n.len().max(7)).collect();
    let mut head = format!("{:>gw$}", "gen");
    if points {
        head += &format!(
            " {:>5} {:>8} {:>5} {:>9}  {:<dw$}",
            "best", "mean", "min", "diversity", "duel"
        );
    }
    if engine.is_some() {
        head += &format!(" {:>6} {:>6}", "games", "faults");
    }
    // On a clock: what the games did with it.
    let clock = engine.and_then(|e| e.tc);
    let game_clock = matches!(clock, Some(crate::clock::TimeControl::Game { .. }));
    if clock.is_some() {
        head += &time_head(game_clock);
    }
    head += &format!(" {:>8}", "seconds");
    for (n, w) in names.iter().zip(&widths) {
        head += &format!(" {n:>w$}");
    }
    if measured {
        head.push_str(&format!("  {:<mw$}", "vs yardstick"));
    }
    if !elo.is_empty() {
        head.push_str("  Elo vs reference (W/D/L)");
    }
    lines.push(head);
    // Games played by each record's end, as every tuner's table counts them (unknown when the
    // history does not start at the first generation).
    let whole = history.first().is_some_and(|h| h.generation == 1);
    let mut played = 0;
    for (i, s) in history.iter().enumerate() {
        played += session.record_games(s);
        let mut row = format!("{:>gw$}", s.generation);
        if points {
            row += &format!(
                " {:>5} {:>8.2} {:>5} {:>9.3}  {:<dw$}",
                s.best,
                s.mean,
                s.min,
                s.diversity,
                duel_text(s)
            );
        }
        if engine.is_some() {
            let games = if whole {
                played.to_string()
            } else {
                "?".to_string()
            };
            row += &format!(" {games:>6} {:>6}", s.faults);
        }
        if clock.is_some() {
            row += &time_cells(s.time.as_ref(), game_clock);
        }
        row += &format!(" {:>8.1}", s.seconds);
        if let Some(e) = engine {
            let values = answers.get(i).copied().flatten().map(|w| e.values(&w));
            for (k, w) in widths.iter().enumerate() {
                match &values {
                    Some(v) => row += &format!(" {:>w$}", v[k]),
                    None => row += &format!(" {:>w$}", "?"),
                }
            }
        }
        if measured {
            let m = s.measure.map(|m| elo_text(&m)).unwrap_or_default();
            row.push_str(&format!("  {m:<mw$}"));
        }
        if let Some((_, w)) = elo.iter().find(|(g, _)| *g == s.generation) {
            row.push_str("  ");
            row.push_str(&elo_text(w));
        }
        lines.push(row.trim_end().to_string());
    }
    let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    lines.insert(1, "-".repeat(width));
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// The heads of the clock's columns of a history table ([`time_cells`]).
pub fn time_head(game_clock: bool) -> String {
    let left = if game_clock {
        format!(" {:>6}", "left s")
    } else {
        String::new()
    };
    format!(" {:>5} {:>7}{left} {:>9}", "depth", "ms/move", "time-lost")
}

/// The clock's cells of a history row: mean depth, ms a move, (under a game clock) the mean
/// time left at the end in seconds, and the games lost on time; `?` for a record without them
/// (a generation played before the session had a clock).
pub fn time_cells(t: Option<&crate::clock::TimeUse>, game_clock: bool) -> String {
    let Some(t) = t else {
        let left = if game_clock {
            format!(" {:>6}", "?")
        } else {
            String::new()
        };
        return format!(" {:>5} {:>7}{left} {:>9}", "?", "?", "?");
    };
    let left = if game_clock {
        format!(" {:>6.2}", t.mean_left().as_secs_f64())
    } else {
        String::new()
    };
    format!(
        " {:>5.1} {:>7}{left} {:>9}",
        t.mean_depth(),
        t.mean_move().as_millis(),
        t.lost_on_time
    )
}

/// The title of a session's chart: what it shows, the yardstick and its depth included.
pub fn history_svg_title(session: &GaState) -> String {
    if session.history.iter().any(|h| h.measure.is_some()) {
        format!(
            "Session '{}': Elo of the best so far vs {}, and tournament points",
            session.name,
            yardstick_words(session)
        )
    } else {
        format!(
            "Session '{}': tournament points per generation",
            session.name
        )
    }
}

/// `material at depth 2, 312 games`: the session's yardstick measurement in words.
fn yardstick_words(session: &GaState) -> String {
    let s = &session.settings;
    format!(
        "{} at depth {}, {} games",
        s.yardstick_name(),
        s.search.depth,
        s.ga.measure_games.div_ceil(2).saturating_mul(2)
    )
}

/// An SVG chart (800 pixels wide) of a session: the Elo of the best so far against the
/// yardstick with its 95% band first (left axis, when the session has measurements), then
/// the best and mean tournament points per generation (right axis; the left one when there is
/// no measurement). The title ([`history_svg_title`]) and a legend that names the yardstick and
/// its depth sit above the plot (see `crate::chart`).
pub fn history_svg(session: &GaState) -> String {
    const ELO: &str = "#2ca02c";
    let history = &session.history;
    let mut chart = LineChart::new(&history_svg_title(session), 800.0, 0.0);
    chart.plot_height = 312.0;
    chart.standalone = true;
    let measured: Vec<(f64, Wdl)> = history
        .iter()
        .filter_map(|st| st.measure.map(|m| (st.generation as f64, m)))
        .collect();
    let points_side = if measured.is_empty() {
        AxisSide::Left
    } else {
        chart.left = Axis {
            label: format!("Elo vs {}", session.settings.yardstick_name()),
            colour: Some(ELO.to_string()),
        };
        chart.right = Some(Axis {
            label: "points".to_string(),
            colour: None,
        });
        chart.series.push(elo_series(
            &measured,
            &format!(
                "Elo of the best so far vs {} (band: 95%)",
                yardstick_words(session)
            ),
            ELO,
        ));
        AxisSide::Right
    };
    if measured.is_empty() {
        chart.left.label = "points".to_string();
    }
    type Value = fn(&GenerationStats) -> f64;
    let series: [(&str, &str, Value); 2] = [
        ("best", "#d62728", |st| st.best as f64),
        ("mean", "#1f77b4", |st| st.mean),
    ];
    for (class, colour, value) in series {
        let points = history
            .iter()
            .map(|st| (st.generation as f64, value(st)))
            .collect();
        let mut se = Series::line(&format!("{class} points"), class, colour, points);
        se.side = points_side;
        se.dots = 2.5;
        se.width = if measured.is_empty() { 2.0 } else { 1.5 };
        chart.series.push(se);
    }
    chart.svg()
}

/// The chart of a GA session of an outside engine ([`super::parameter_chart`], as SPSA's
/// history draws θ): each tuned parameter's place in its declared range in the answer after
/// each generation (`answers`, one for each history record; those that cannot be told are
/// left out). None in a session of our own weights. An SVG file ([`engine_answer_chart`]
/// standalone).
pub fn engine_history_svg(session: &GaState, answers: &[Option<Weights>]) -> Option<String> {
    engine_answer_chart(session, answers, true)
}

/// The chart of [`engine_history_svg`]; `standalone`: an SVG file (`history --svg`), else an
/// element of the report's page (as [`crate::store::TunerHistory::chart`]).
pub fn engine_answer_chart(
    session: &GaState,
    answers: &[Option<Weights>],
    standalone: bool,
) -> Option<String> {
    let spec = session.settings.engine.as_ref()?;
    let title = format!(
        "GA session '{}' of {}: each parameter's place in its declared range",
        session.name, spec.engine.name
    );
    let points: Vec<(f64, Vec<f64>)> = session
        .history
        .iter()
        .zip(answers)
        .filter_map(|(h, w)| {
            let values = spec.values(w.as_ref()?);
            Some((
                h.generation as f64,
                values.iter().map(|&v| v as f64).collect(),
            ))
        })
        .collect();
    Some(super::parameter_chart(
        &title,
        spec,
        "generation",
        &points,
        standalone,
    ))
}

/// The Elo of the best so far at each measurement with its 95% band and a tooltip per point
/// (ends beyond +/-800 Elo, a perfect score's infinite ones included, are drawn at +/-800).
pub fn elo_series(measured: &[(f64, Wdl)], name: &str, colour: &str) -> Series {
    let clamp = |v: f64| {
        if v.is_nan() {
            0.0
        } else {
            v.clamp(-800.0, 800.0)
        }
    };
    let mut se = Series::line(name, "elo", colour, Vec::new());
    for (g, m) in measured {
        let e = elo(m);
        se.points.push((*g, clamp(e.diff)));
        se.band.push((*g, clamp(e.low), clamp(e.high)));
        se.tips.push(format!(
            "generation {g}: {} (W/D/L {m}; 95%: {:+} .. {:+})",
            elo_text(m),
            EloFigure(e.low),
            EloFigure(e.high)
        ));
    }
    se.dots = 3.5;
    se.width = 2.5;
    se
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::{Method, Selection, Settings};
    use crate::tournament::Standing;

    /// A session of 4 whose last generation's standings give these points and draws.
    fn session(method: Method, last: &[(u32, u32)]) -> GaState {
        let mut settings = Settings {
            population: 4,
            ..Settings::default()
        };
        settings.ga.method = method;
        let mut s = GaState::new("t", settings);
        s.last = last
            .iter()
            .map(|&(points, draws)| {
                let st = Standing {
                    points,
                    draws_black: draws,
                    ..Standing::default()
                };
                (crate::material(), st)
            })
            .collect();
        s
    }

    #[test]
    fn a_generation_line_counts_the_tournaments_points_and_the_means_pairs() {
        let s = session(
            Method::Ga(Selection::Truncation),
            &[(6, 0), (4, 0), (2, 0), (0, 0)],
        );
        // 4 points against each of the 3 others; no hall of fame has played yet.
        assert_eq!(tournament_max_points(&s), 12);
        assert_eq!(decided_pairs(&s), None);
        let mean = Method::Mean {
            spread: 100,
            rate: 100,
        };
        let s = session(mean, &[(2, 0), (0, 0), (1, 1), (1, 1)]);
        assert_eq!(decided_pairs(&s), Some((2, 1)));
    }

    /// A generation's record, read as a history record is (fields it does not keep at their
    /// defaults), with `duel` and `measure`.
    fn record(
        generation: u64,
        duel: Option<(u32, u32)>,
        measure: Option<(u32, u32, u32)>,
    ) -> GenerationStats {
        let duel =
            duel.map(|(c, h)| serde_json::json!({"challenger": c, "holder": h, "replaced": c > h}));
        let measure =
            measure.map(|(w, d, l)| serde_json::json!({"wins": w, "draws": d, "losses": l}));
        serde_json::from_value(serde_json::json!({
            "generation": generation, "best": 2, "mean": 1.0, "min": 0, "diversity": 0.0,
            "duel": duel, "games": 56, "plies": 0, "seconds": 1.0, "measure": measure
        }))
        .unwrap()
    }

    #[test]
    fn a_generations_games_add_the_duels_and_the_measurements() {
        let mut s = session(Method::Ga(Selection::Truncation), &[]);
        s.settings.ga.duel_games = 32;
        assert_eq!(generation_games(&record(1, None, None), &s), "56");
        assert_eq!(generation_games(&record(2, Some((0, 0)), None), &s), "56");
        assert_eq!(
            generation_games(&record(2, Some((40, 24)), None), &s),
            "56+32 duel"
        );
        let both = record(3, Some((30, 34)), Some((5, 6, 5)));
        assert_eq!(generation_games(&both, &s), "56+32 duel+16 measured");
    }

    #[test]
    fn the_elo_trend_is_the_newest_measurement_and_its_move() {
        let mut s = session(Method::Ga(Selection::Truncation), &[]);
        assert_eq!(elo_trend(&s), "");
        let name = s.settings.yardstick_name();
        s.history.record(record(1, None, Some((5, 6, 5))));
        s.history.record(record(2, None, None));
        let even = elo_trend(&s);
        assert!(
            even.starts_with(&format!("{name} 0±")) && !even.contains(['↑', '↓', '→']),
            "{even}"
        );
        let mut trend = |m| {
            s.history
                .record(record(s.history.len() as u64 + 1, None, Some(m)));
            elo_trend(&s)
        };
        assert!(trend((9, 4, 3)).ends_with(" ↑"));
        assert!(trend((3, 4, 9)).ends_with(" ↓"));
        assert!(trend((3, 4, 9)).ends_with(" →"));
    }

    #[test]
    fn the_history_text_heads_notes_and_explains_its_table() {
        let mut s = session(Method::Ga(Selection::Truncation), &[]);
        let path = Path::new("p/t/gen-00004.ckpt");
        // The history file lost generations 1 and 2.
        s.history.record(record(3, None, None));
        s.history.record(record(4, Some((40, 24)), None));
        s.generation = 4;
        let t = history_text(&s, path, &[], &[], Some("ELO LINE"));
        let lines: Vec<&str> = t.lines().collect();
        let seed = s.settings.seed;
        assert!(lines[0]
            .starts_with("session 't' (p/t/gen-00004.ckpt): 2 generations, population 4, depth "));
        assert!(
            lines[0].ends_with(&format!(", seed {seed}")),
            "{}",
            lines[0]
        );
        assert_eq!(lines[1..3], ["ELO LINE", ""]);
        assert_eq!(
            lines[3],
            "(no statistics of generations 1 to 2: its history file lost them)"
        );
        assert!(
            t.contains("\npoints: 2 per win") && !t.contains("vs yardstick:"),
            "{t}"
        );
        // A whole history, one measurement: no note, the yardstick's line.
        let mut s = session(Method::Ga(Selection::Truncation), &[]);
        s.history.record(record(1, None, Some((5, 6, 5))));
        s.generation = 1;
        let t = history_text(&s, path, &[], &[], None);
        assert!(
            t.contains(" 1 generation, ") && t.lines().nth(1) == Some(""),
            "{t}"
        );
        assert!(!t.contains("no statistics") && t.contains("\nvs yardstick: the best so far"));
        // An outside engine's session under the mean: headed as every tuner's, no points.
        let mut s = session(
            Method::Mean {
                spread: 100,
                rate: 100,
            },
            &[],
        );
        let model = crate::sim::SimModel::new(2, 1);
        s.settings.engine = Some(crate::genome::EngineSpec::simulated(&model, 3));
        s.history.record(record(1, None, None));
        s.generation = 1;
        let t = history_text(&s, path, &[None], &[], None);
        let head = format!(
            "GA session 't' (p/t/gen-00004.ckpt): engine sim:2:1, 2 parameters, depth 3, seed {}; {}, population 4\n\n",
            s.settings.seed,
            s.progress()
        );
        assert!(t.starts_with(&head), "{t}");
        assert!(
            !t.contains("points: 2 per win") && t.contains("(the centres' average)"),
            "{t}"
        );
    }

    #[test]
    fn a_generations_draws_are_its_standings_share() {
        // The standings saw 2 games (a side's each), both drawn: all 8 of the generation's.
        let s = session(
            Method::Ga(Selection::Truncation),
            &[(2, 0), (0, 0), (1, 1), (1, 1)],
        );
        let (sides, drawn) = crate::signal::standings_draws(s.last.iter().map(|(_, x)| x));
        assert_eq!((sides, drawn), (2, 2));
        // (Read as a history record is, so that fields a record does not keep take their
        // defaults.)
        let stats: GenerationStats = serde_json::from_value(serde_json::json!({
            "generation": 1, "best": 2, "mean": 1.0, "min": 0, "diversity": 0.0,
            "duel": null, "games": 8, "plies": 0, "seconds": 1.0, "measure": null
        }))
        .unwrap();
        assert_eq!(generation_draws(&stats, &s), 8);
    }
}
