//! A session's history for programs, as `history --format csv|json` prints it (the columns and
//! fields are described in docs/formats.md): a GA session's generations ([`history_csv`],
//! [`history_json`]) and a one-file tuner's kept steps (SPSA's, CMA-ES's:
//! [`tuner_history_csv`], [`tuner_history_json`]), each with the `--elo` measurement of its answers when there is one
//! ([`EloReference`]).

use crate::clock::{TimeControl, TimeUse};
use crate::eval::Weights;
use crate::ga::GaState;
use crate::matchplay::{elo, MatchResult, Wdl};
use serde_json::{json, Value};
use std::path::Path;

/// The columns of a GA session's CSV history, in order (in a session of an outside engine,
/// the engine's names of its tuned parameters follow: the answer's values).
pub const HISTORY_CSV_COLUMNS: &str = "generation,best,mean,min,diversity,duel,duel_challenger,\
duel_holder,duel_replaced,games,plies,seconds,yardstick_wins,yardstick_draws,yardstick_losses,yardstick_elo,\
yardstick_margin,reference_wins,reference_draws,reference_losses,reference_elo,reference_margin,faults";

/// The columns that follow the faults in the CSV history of a session on a clock (both
/// tuners): what the games did with it (`seconds_left` only under a game clock).
pub const CLOCK_CSV_COLUMNS: &str = "mean_depth,ms_per_move,seconds_left,lost_on_time";

/// The clock's CSV fields of a record (`,` first), empty fields for a record without them.
fn time_fields(t: Option<&TimeUse>, game_clock: bool) -> String {
    match t {
        Some(t) => format!(
            ",{:.2},{:.1},{},{}",
            t.mean_depth(),
            t.mean_move().as_secs_f64() * 1000.0,
            if game_clock {
                format!("{:.3}", t.mean_left().as_secs_f64())
            } else {
                String::new()
            },
            t.lost_on_time
        ),
        None => ",,,,".to_string(),
    }
}

/// The clock's JSON record: games, mean depth, ms a move, seconds left at the end (under a
/// game clock), games lost on time; null without one.
fn time_json(t: Option<&TimeUse>, game_clock: bool) -> Value {
    match t {
        Some(t) => json!({
            "games": t.games,
            "mean_depth": t.mean_depth(),
            "ms_per_move": t.mean_move().as_secs_f64() * 1000.0,
            "seconds_left": game_clock.then(|| t.mean_left().as_secs_f64()),
            "lost_on_time": t.lost_on_time,
        }),
        None => Value::Null,
    }
}

/// Whether `tc` is a game clock (the time left at the end says something).
fn is_game_clock(tc: Option<TimeControl>) -> bool {
    matches!(tc, Some(TimeControl::Game { .. }))
}

/// The columns of a one-file tuner's CSV history after `step,games` (or `generation,games`),
/// before the engine's names (the answer in full): the `--elo` measurement, empty where there is none, and the faults since the
/// row before, as the GA's history ends.
const TUNER_CSV_MIDDLE: &str =
    "reference_wins,reference_draws,reference_losses,reference_elo,reference_margin,faults";

/// The reference the answers of a history were played against (`history --elo`), as the JSON
/// history names it.
#[derive(Clone, Debug, PartialEq)]
pub struct EloReference {
    /// The reference, as the command line named it.
    pub name: String,
    /// Games of each measured answer.
    pub games: usize,
    /// The search depth of both sides (with a clock, their maximum depth).
    pub depth: u32,
    /// The clock both sides played on, as `--tc` takes it (`0.1`, `10+0.1`), and its margin in
    /// milliseconds: a session tuned on a clock is measured on it. None: at `depth`.
    pub clock: Option<(String, u64)>,
    /// The seed of the games' tie-breaks.
    pub seed: u64,
    /// Of a GA session: generations that could not be measured (their answer is in neither
    /// the history nor a checkpoint); None for an SPSA session, where every kept step can be.
    pub generations_left_out: Option<usize>,
}

impl EloReference {
    fn json(&self) -> Value {
        let mut v = json!({
            "name": self.name,
            "games": self.games,
            "depth": self.depth,
            "seed": self.seed,
        });
        if let Some(n) = self.generations_left_out {
            v["generations_left_out"] = json!(n);
        }
        if let Some((tc, margin)) = &self.clock {
            v["clock"] = json!(tc);
            v["time_margin_ms"] = json!(margin);
        }
        v
    }
}

/// An Elo figure for machine output: a number with one decimal, or null (JSON) / empty (CSV)
/// when a side scored everything.
fn elo_value(v: f64) -> Option<f64> {
    v.is_finite().then(|| ((v * 10.0).round() / 10.0) + 0.0)
}

/// W/D/L and Elo as CSV fields (5, empty when absent).
fn wdl_fields(w: Option<&Wdl>) -> String {
    match w {
        None => ",,,,".to_string(),
        Some(w) => {
            let e = elo(w);
            let f = |v: f64| elo_value(v).map(|x| format!("{x:.1}")).unwrap_or_default();
            format!(
                "{},{},{},{},{}",
                w.wins,
                w.draws,
                w.losses,
                f(e.diff),
                f(e.margin)
            )
        }
    }
}

fn wdl_json(w: Option<&Wdl>) -> Value {
    match w {
        None => Value::Null,
        Some(w) => {
            let e = elo(w);
            json!({
                "wins": w.wins,
                "draws": w.draws,
                "losses": w.losses,
                "elo": elo_value(e.diff),
                "margin": elo_value(e.margin),
            })
        }
    }
}

/// A generation's (or step's) `--elo` result for JSON: W/D/L, Elo and margin, and the answer's
/// score in each game in game order (1, 0.5 or 0, as `match --json` gives `score_a`); null when
/// not measured.
fn reference_json(r: Option<&MatchResult>) -> Value {
    let Some(r) = r else {
        return Value::Null;
    };
    let mut v = wdl_json(Some(&r.wdl));
    let scores: Vec<f64> = r
        .games
        .iter()
        .map(|g| g.half_points_for_a() as f64 / 2.0)
        .collect();
    v["scores"] = json!(scores);
    v
}

/// The result of the measurement of `at` (a generation or a step) among `elo`.
fn result_at(elo: &[(u64, MatchResult)], at: u64) -> Option<&MatchResult> {
    elo.iter().find(|(x, _)| *x == at).map(|(_, r)| r)
}

/// A JSON document as printed: pretty, with a final newline.
fn pretty(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_default();
    text.push('\n');
    text
}

/// The answer's values after the generation at history index `i`, in a session of an outside
/// engine (None where it cannot be told, or in a session of our own weights).
fn values_at(session: &GaState, answers: &[Option<Weights>], i: usize) -> Option<Vec<i64>> {
    let engine = session.settings.engine.as_ref()?;
    Some(engine.values(answers.get(i).copied().flatten().as_ref()?))
}

/// A GA session's history as CSV: [`HISTORY_CSV_COLUMNS`] (then, in a session of an outside
/// engine, its tuned parameters' names) and a row per generation. `answers` holds the answer
/// after each history record (None where it cannot be told; its values are columns in a
/// session of an outside engine), `elo` pairs a generation with its answer's `--elo` match.
pub fn history_csv(
    session: &GaState,
    answers: &[Option<Weights>],
    elo: &[(u64, MatchResult)],
) -> String {
    let engine = session.settings.engine.as_ref();
    let of = |g: u64| result_at(elo, g).map(|r| &r.wdl);
    let clock = engine.and_then(|e| e.tc);
    let mut out = HISTORY_CSV_COLUMNS.to_string();
    if clock.is_some() {
        out += &format!(",{CLOCK_CSV_COLUMNS}");
    }
    for t in engine.iter().flat_map(|e| &e.tuned) {
        out += &format!(",{}", t.name);
    }
    out.push('\n');
    for (i, h) in session.history.iter().enumerate() {
        // duel: `first` (no best so far yet), `none` (a later generation of the mean, which has
        // no duel), `same` (the best so far won its own generation: no duel) or `played`.
        let (kind, c, ho, r) = match h.duel {
            None if h.generation > 1 => ("none", String::new(), String::new(), String::new()),
            None => ("first", String::new(), String::new(), String::new()),
            Some(d) if d.is_same() => ("same", String::new(), String::new(), String::new()),
            Some(d) => (
                "played",
                d.challenger.to_string(),
                d.holder.to_string(),
                d.replaced.to_string(),
            ),
        };
        out += &format!(
            "{},{},{:.2},{},{:.4},{kind},{c},{ho},{r},{},{},{:.3},{},{},{}",
            h.generation,
            h.best,
            h.mean,
            h.min,
            h.diversity,
            h.games,
            h.plies,
            h.seconds,
            wdl_fields(h.measure.as_ref()),
            wdl_fields(of(h.generation)),
            h.faults
        );
        if clock.is_some() {
            out += &time_fields(h.time.as_ref(), is_game_clock(clock));
        }
        if let Some(e) = engine {
            match values_at(session, answers, i) {
                Some(v) => v.iter().for_each(|x| out += &format!(",{x}")),
                None => out += &",".repeat(e.tuned.len()),
            }
        }
        out.push('\n');
    }
    out
}

/// A GA session's history as one JSON document: the session (read from `path`, its
/// checkpoint), its settings, the `--elo` reference when measured, and a record per
/// generation; `answers` and `elo` as for [`history_csv`].
pub fn history_json(
    session: &GaState,
    path: &Path,
    answers: &[Option<Weights>],
    elo: &[(u64, MatchResult)],
    reference: Option<&EloReference>,
) -> String {
    let engine = session.settings.engine.as_ref();
    let s = &session.settings;
    let clock = engine.and_then(|e| e.tc);
    // The games played by each record's end, duels and measurements included, as every tuner's
    // records count them (`games_played`; null when the history does not start at generation 1).
    let whole = session.history.first().is_some_and(|h| h.generation == 1);
    let mut played = 0;
    let generations: Vec<Value> = session
        .history
        .iter()
        .enumerate()
        .map(|(i, h)| {
            played += session.record_games(h);
            let duel = match h.duel {
                None => Value::Null,
                Some(d) if d.is_same() => json!("same"),
                Some(d) => json!({
                    "challenger": d.challenger,
                    "holder": d.holder,
                    "replaced": d.replaced,
                }),
            };
            let values = match (engine, values_at(session, answers, i)) {
                (Some(e), Some(v)) => Value::Object(
                    e.tuned
                        .iter()
                        .zip(v)
                        .map(|(t, x)| (t.name.clone(), json!(x)))
                        .collect(),
                ),
                _ => Value::Null,
            };
            json!({
                "generation": h.generation,
                "best": h.best,
                "mean": h.mean,
                "min": h.min,
                "diversity": h.diversity,
                "duel": duel,
                "games": h.games,
                "games_played": whole.then_some(played),
                "plies": h.plies,
                "seconds": h.seconds,
                "yardstick": wdl_json(h.measure.as_ref()),
                "reference": reference_json(result_at(elo, h.generation)),
                "faults": h.faults,
                "time": time_json(h.time.as_ref(), is_game_clock(clock)),
                "values": values,
            })
        })
        .collect();
    let parameters = engine.map(|e| {
        e.tuned
            .iter()
            .map(|t| json!({ "name": t.name, "min": t.min, "max": t.max, "default": t.default }))
            .collect::<Vec<_>>()
    });
    pretty(&json!({
        "session": session.name,
        "checkpoint": path.display().to_string(),
        "tuner": "ga",
        "engine": engine.map(|e| &e.engine.name),
        "parameters": parameters,
        "seed": s.seed,
        "population": s.population,
        "depth": s.search.depth,
        "clock": clock.map(|tc| tc.flag()),
        "time_margin_ms": engine.filter(|e| e.tc.is_some()).map(|e| e.time_margin.as_millis() as u64),
        "params": s.ga.params.to_string(),
        "yardstick": s.yardstick_name(),
        "reference": reference.map(EloReference::json),
        "generations": generations,
    }))
}

/// A one-file tuner's history as CSV ([`crate::store::TunerHistory`]): `step,games` (SPSA;
/// `generation,games` for CMA-ES), the `--elo` measurement and the faults since the row before,
/// then the answer in full by the engine's names (on a clock, what the games did with it
/// first); a row per kept step. `elo` pairs a step with the `--elo` match of its values.
pub fn tuner_history_csv(h: &crate::store::TunerHistory, elo: &[(u64, MatchResult)]) -> String {
    let faults = h.faults();
    let clock = h.spec.tc;
    let mut t = format!("{},games,{TUNER_CSV_MIDDLE}", h.step);
    if clock.is_some() {
        t += &format!(",{CLOCK_CSV_COLUMNS}");
    }
    for x in &h.spec.tuned {
        t += &format!(",{}", x.name);
    }
    // The tuner's own figures at each point (CMA-ES's step size), after the parameters (their
    // columns stay where every tuner's are), in the order they first come.
    let mut extra: Vec<&str> = Vec::new();
    for (name, _) in h.points.iter().flat_map(|p| &p.extra) {
        if !extra.contains(name) {
            extra.push(name);
        }
    }
    for name in &extra {
        t += &format!(",{name}");
    }
    t.push('\n');
    for (p, f) in h.points.iter().zip(&faults) {
        let f = f.map(|f| f.to_string()).unwrap_or_default();
        let wdl: Option<&Wdl> = result_at(elo, p.step).map(|r| &r.wdl);
        t += &format!("{},{},{},{f}", p.step, p.games, wdl_fields(wdl));
        if clock.is_some() {
            t += &time_fields(p.time.as_ref(), is_game_clock(clock));
        }
        for x in &p.values {
            t += &format!(",{x}");
        }
        for name in &extra {
            let x = p.extra.iter().find(|(n, _)| n == name);
            t += &format!(",{}", x.map(|(_, x)| x.to_string()).unwrap_or_default());
        }
        t.push('\n');
    }
    t
}

/// A one-file tuner's history as one JSON document: the session (read from `file`, its
/// checkpoint), its run, its parameters, the `--elo` reference when measured, and a record per
/// kept step (the answer unrounded, the values it rounds to, the faults since the step
/// before); `elo` as for [`tuner_history_csv`]. The words are the tuner's: SPSA's records have
/// `step` and `theta`, and the run `steps` and `steps_done`; CMA-ES's `generation`, `answer`,
/// `generations` and `generations_done`.
pub fn tuner_history_json(
    h: &crate::store::TunerHistory,
    file: &Path,
    elo: &[(u64, MatchResult)],
    reference: Option<&EloReference>,
) -> String {
    let faults = h.faults();
    let spec = &h.spec;
    let tuned = &spec.tuned;
    let (step, answer) = (h.step, h.answer.1);
    let parameters: Vec<Value> = tuned
        .iter()
        .map(|t| json!({ "name": t.name, "min": t.min, "max": t.max, "default": t.default }))
        .collect();
    let history: Vec<Value> = h
        .points
        .iter()
        .zip(&faults)
        .map(|(p, f)| {
            let unrounded: serde_json::Map<String, Value> = tuned
                .iter()
                .zip(&p.values)
                .map(|(t, x)| (t.name.clone(), json!(x)))
                .collect();
            let values: serde_json::Map<String, Value> = tuned
                .iter()
                .zip(spec.values(&p.weights))
                .map(|(t, x)| (t.name.clone(), json!(x)))
                .collect();
            let mut r = serde_json::Map::new();
            r.insert(step.into(), json!(p.step));
            r.insert("games".into(), json!(p.games));
            // (Every tuner's records have the running total under this name: the GA's `games`
            // is a generation's tournament.)
            r.insert("games_played".into(), json!(p.games));
            r.insert("faults".into(), json!(f));
            r.insert(
                "time".into(),
                time_json(p.time.as_ref(), is_game_clock(spec.tc)),
            );
            r.insert(answer.into(), Value::Object(unrounded));
            r.insert("values".into(), Value::Object(values));
            for (name, x) in &p.extra {
                r.insert((*name).into(), json!(x));
            }
            r.insert("reference".into(), reference_json(result_at(elo, p.step)));
            Value::Object(r)
        })
        .collect();
    let mut doc = serde_json::Map::new();
    for (k, v) in [
        ("session", json!(h.name)),
        ("checkpoint", json!(file.display().to_string())),
        (
            "tuner",
            json!(h.tuner.name().to_lowercase().replace('-', "")),
        ),
        ("engine", json!(spec.engine.name)),
        ("depth", json!(spec.depth())),
        ("clock", json!(spec.tc.map(|tc| tc.flag()))),
        (
            "time_margin_ms",
            json!(spec.tc.map(|_| spec.time_margin.as_millis() as u64)),
        ),
        ("seed", json!(h.seed)),
        ("games", json!(h.budget.0)),
    ] {
        doc.insert(k.into(), v);
    }
    doc.insert(format!("{step}s"), json!(h.budget.1));
    doc.insert("games_played".into(), json!(h.done.0));
    doc.insert(format!("{step}s_done"), json!(h.done.1));
    doc.insert("parameters".into(), json!(parameters));
    doc.insert("reference".into(), json!(reference.map(EloReference::json)));
    doc.insert("history".into(), json!(history));
    pretty(&Value::Object(doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_figures_have_one_decimal_and_none_when_a_side_scored_everything() {
        let w = Wdl {
            wins: 3,
            draws: 1,
            losses: 0,
        };
        let fields = wdl_fields(Some(&w));
        assert!(fields.starts_with("3,1,0,"), "{fields}");
        let elo_field = fields.split(',').nth(3).unwrap();
        assert_eq!(
            elo_field.split('.').nth(1).map(str::len),
            Some(1),
            "{fields}"
        );
        assert_eq!(wdl_fields(None), ",,,,");
        let all = Wdl {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        assert_eq!(wdl_json(Some(&all))["elo"], Value::Null);
        assert!(wdl_fields(Some(&all)).starts_with("4,0,0,,"));
        assert_eq!(elo_value(-0.01), Some(0.0));
        assert!(elo_value(-0.01).unwrap().is_sign_positive());
    }

    #[test]
    fn a_ga_history_has_a_row_and_a_record_per_generation() {
        let mut s = GaState::new("t", crate::ga::Settings::default());
        // (Read as a history record is, so that fields a record does not keep take their
        // defaults.)
        let stats: crate::ga::GenerationStats = serde_json::from_value(serde_json::json!({
            "generation": 1, "best": 6, "mean": 3.0, "min": 0, "diversity": 0.5,
            "duel": null, "games": 12, "plies": 800, "seconds": 1.5, "measure": null
        }))
        .unwrap();
        s.history.record(stats);
        let csv = history_csv(&s, &[], &[]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], HISTORY_CSV_COLUMNS);
        assert_eq!(
            lines[1],
            "1,6,3.00,0,0.5000,first,,,,12,800,1.500,,,,,,,,,,,0"
        );
        let reference = EloReference {
            name: "material".into(),
            games: 2,
            depth: 3,
            clock: None,
            seed: 9,
            generations_left_out: Some(0),
        };
        let doc: Value = serde_json::from_str(&history_json(
            &s,
            Path::new("c"),
            &[],
            &[],
            Some(&reference),
        ))
        .unwrap();
        assert_eq!(doc["tuner"], "ga");
        assert_eq!(doc["reference"]["generations_left_out"], 0);
        assert_eq!(doc["generations"][0]["games"], 12);
        assert_eq!(doc["generations"][0]["reference"], Value::Null);
        // `games` is a generation's tournament, `games_played` the running total, as in every
        // tuner's records; unknown where the history does not start at generation 1.
        let mut next = s.history.last().unwrap().clone();
        next.generation = 2;
        s.history.record(next);
        let doc = |s: &GaState| -> Value {
            serde_json::from_str(&history_json(s, Path::new("c"), &[], &[], None)).unwrap()
        };
        let both = doc(&s);
        assert_eq!(both["generations"][1]["games"], 12);
        assert_eq!(both["generations"][0]["games_played"], 12);
        assert_eq!(both["generations"][1]["games_played"], 24);
        let mut late = s.history[0].clone();
        late.generation = 3;
        s.history = Default::default();
        s.history.record(late);
        assert_eq!(doc(&s)["generations"][0]["games_played"], Value::Null);
    }
}
