//! The parameter file of an outside engine: the values a session (or a tuner) found for the
//! engine's tuned `int` parameters, by the engine's names, with the engine itself (how to start
//! it, what it declared), so the file can be shown, exported, and played again.
//!
//! ```text
//! {
//!   "format": "checkers-ga engine parameters",
//!   "version": 1,
//!   "session": "e", "seed": 3, "generation": 40,
//!   "values": {
//!     "king": 141,
//!     "centre": 9
//!   },
//!   "engine": { "command": ["python3", "/path/hub_engine.py"], "name": "hub_engine.py", ... }
//! }
//! ```
//!
//! `values` names each tuned parameter once with a whole number within its declared range;
//! `session`, `seed` and `generation` say which session's best so far it holds (all three or
//! none); `comment` is optional. `engine` is the session's engine as its checkpoint keeps it.
//! A session whose games were played on a clock also writes `clock` (as `--tc` takes it:
//! `"0.1"`, `"10+0.1"`) and, when it had one, `time_margin_ms`: the level its values were
//! tuned at, which `show` says in place of the depth.

use crate::eval::Weights;
use crate::genome::EngineSpec;
use crate::weightfile::Origin;
use serde::Deserialize;
use std::path::Path;

/// The value of the `format` key of an engine's parameter file.
pub const ENGINE_FORMAT_NAME: &str = "checkers-ga engine parameters";

/// An engine's parameter file as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineParams {
    /// The engine, as the session that wrote the file kept it.
    pub spec: EngineSpec,
    /// The values as a genome of the engine's set ([`EngineSpec::genome`]).
    pub weights: Weights,
    /// The session whose best so far it holds, if it says.
    pub origin: Option<Origin>,
    /// A free-text comment, if any.
    pub comment: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Repr {
    format: String,
    version: u64,
    #[serde(default)]
    session: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    generation: Option<u64>,
    #[serde(default)]
    comment: Option<String>,
    #[serde(default)]
    clock: Option<String>,
    #[serde(default)]
    time_margin_ms: Option<u64>,
    values: serde_json::Map<String, serde_json::Value>,
    engine: EngineSpec,
}

/// Does this JSON text say it is an engine's parameter file?
pub fn is_engine_params(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Head {
        format: Option<String>,
    }
    serde_json::from_str::<Head>(text)
        .is_ok_and(|h| h.format.as_deref() == Some(ENGINE_FORMAT_NAME))
}

/// The text of an engine's parameter file: genome `w`'s values by the engine's names.
pub fn engine_params_json(
    spec: &EngineSpec,
    w: &Weights,
    origin: Option<&Origin>,
    comment: Option<&str>,
) -> String {
    let q = |s: &str| serde_json::to_string(s).expect("a string serializes");
    let mut out = String::from("{\n");
    out += &format!(
        "  \"format\": {},\n  \"version\": 1,\n",
        q(ENGINE_FORMAT_NAME)
    );
    if let Some(o) = origin {
        out += &format!(
            "  \"session\": {},\n  \"seed\": {},\n  \"generation\": {},\n",
            q(&o.session),
            o.seed,
            o.generation
        );
    }
    if let Some(c) = comment {
        out += &format!("  \"comment\": {},\n", q(c));
    }
    if let Some(tc) = spec.tc {
        out += &format!("  \"clock\": {},\n", q(&tc.flag()));
        if !spec.time_margin.is_zero() {
            out += &format!("  \"time_margin_ms\": {},\n", spec.time_margin.as_millis());
        }
    }
    out += "  \"values\": {\n";
    let values = spec.values(w);
    let lines: Vec<String> = spec
        .tuned
        .iter()
        .zip(&values)
        .map(|(t, v)| format!("    {}: {v}", q(&t.name)))
        .collect();
    out += &lines.join(",\n");
    out += "\n  },\n  \"engine\": ";
    let engine = serde_json::to_string_pretty(spec).expect("an engine serializes");
    out += &engine.replace('\n', "\n  ");
    out += "\n}\n";
    out
}

/// Reads an engine's parameter file; one line when it is not one.
pub fn parse_engine_params(text: &str) -> Result<EngineParams, String> {
    let r: Repr =
        serde_json::from_str(text).map_err(|e| format!("not an engine's parameter file: {e}"))?;
    if r.format != ENGINE_FORMAT_NAME {
        return Err(format!(
            "\"format\" is \"{}\", expected \"{ENGINE_FORMAT_NAME}\"",
            r.format
        ));
    }
    if r.version != 1 {
        return Err(format!("version {} (this build reads 1)", r.version));
    }
    let mut spec = r.engine;
    if let Some(tc) = &r.clock {
        spec.tc = Some(
            tc.parse()
                .map_err(|e| format!("\"clock\": \"{tc}\": {e}"))?,
        );
    }
    match (r.time_margin_ms, spec.tc) {
        (Some(_), None) => return Err("\"time_margin_ms\" without \"clock\"".into()),
        (Some(ms), Some(_)) => spec.time_margin = std::time::Duration::from_millis(ms),
        (None, _) => {}
    }
    if spec.tuned.is_empty() || spec.tuned.len() > crate::eval::MAX_WEIGHTS {
        return Err(format!(
            "the engine has {} tuned parameters (expected 1..={})",
            spec.tuned.len(),
            crate::eval::MAX_WEIGHTS
        ));
    }
    if let Some(t) = spec.tuned.iter().find(|t| t.min >= t.max) {
        return Err(format!(
            "parameter {}: min {} is not below max {}",
            t.name, t.min, t.max
        ));
    }
    let mut values = Vec::with_capacity(spec.tuned.len());
    for t in &spec.tuned {
        let Some(v) = r.values.get(&t.name) else {
            return Err(format!("\"values\" has no {}", t.name));
        };
        let Some(v) = v.as_i64() else {
            return Err(format!("{}: {v} is not a whole number", t.name));
        };
        if !(t.min..=t.max).contains(&v) {
            return Err(format!("{}: {v} is outside {}..={}", t.name, t.min, t.max));
        }
        values.push((t.name.clone(), v));
    }
    if let Some(k) = r
        .values
        .keys()
        .find(|k| !spec.tuned.iter().any(|t| &t.name == *k))
    {
        return Err(format!(
            "\"values\" names {k}, which the engine does not tune"
        ));
    }
    let origin = match (r.session, r.seed, r.generation) {
        (Some(session), Some(seed), Some(generation)) => Some(Origin {
            session,
            seed,
            generation,
        }),
        (None, None, None) => None,
        _ => return Err("\"session\", \"seed\" and \"generation\" go together".into()),
    };
    let weights = spec.genome(&values);
    Ok(EngineParams {
        spec,
        weights,
        origin,
        comment: r.comment,
    })
}

/// Writes an engine's parameter file (atomically: temp name, sync, rename).
pub fn save_engine_params(
    path: &Path,
    spec: &EngineSpec,
    w: &Weights,
    origin: Option<&Origin>,
) -> std::io::Result<()> {
    crate::files::write_atomic(path, engine_params_json(spec, w, origin, None).as_bytes())
}

/// The engine's `set-param` lines for genome `w`: what a Hub client sends before `init` to
/// play with these values.
pub fn set_param_script(spec: &EngineSpec, w: &Weights) -> String {
    spec.set_params(w)
        .iter()
        .map(|(n, v)| format!("set-param name={n} value={v}\n"))
        .collect()
}

/// The values as a JSON object by the engine's names, in its order.
pub fn values_json(spec: &EngineSpec, w: &Weights) -> String {
    let lines: Vec<String> = spec
        .tuned
        .iter()
        .zip(spec.values(w))
        .map(|(t, v)| {
            format!(
                "  {}: {v}",
                serde_json::to_string(&t.name).expect("a string")
            )
        })
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::Tuned;

    fn spec() -> EngineSpec {
        EngineSpec {
            engine: crate::hub::OutsideEngine {
                name: "e".into(),
                program: crate::hub::Program::new(vec!["python3".into(), "e.py".into()]),
                depth: Some(2),
                move_timeout: std::time::Duration::from_secs(1),
            },
            tc: None,
            time_margin: std::time::Duration::ZERO,
            declared: vec![],
            tuned: vec![
                Tuned {
                    name: "king".into(),
                    min: 100,
                    max: 300,
                    default: 130,
                },
                Tuned {
                    name: "edge".into(),
                    min: -30,
                    max: 30,
                    default: -4,
                },
            ],
        }
    }

    #[test]
    fn a_file_reads_back_as_written_and_bad_values_are_refused() {
        let s = spec();
        let w = s.genome(&[("king".into(), 211), ("edge".into(), 7)]);
        let o = Origin {
            session: "e".into(),
            seed: 3,
            generation: 9,
        };
        let text = engine_params_json(&s, &w, Some(&o), None);
        assert!(is_engine_params(&text));
        let back = parse_engine_params(&text).unwrap();
        assert_eq!(
            (back.spec, back.weights, back.origin),
            (s.clone(), w, Some(o))
        );
        assert_eq!(s.values(&w), vec![211, 7]);
        let bad = text.replace("\"king\": 211", "\"king\": 400");
        assert!(parse_engine_params(&bad)
            .unwrap_err()
            .contains("outside 100..=300"));
        let bad = text.replace("\"king\": 211", "\"queen\": 211");
        assert!(parse_engine_params(&bad).unwrap_err().contains("no king"));
        assert_eq!(
            set_param_script(&s, &w),
            "set-param name=king value=211\nset-param name=edge value=7\n"
        );
        assert!(!is_engine_params("{\"format\": \"checkers-ga weights\"}"));
        // Without a clock the file says none.
        assert!(!text.contains("clock"), "{text}");
    }

    #[test]
    fn a_session_on_a_clock_writes_its_clock_and_show_says_it() {
        let mut s = spec();
        s.tc = Some("10+0.1".parse().unwrap());
        s.time_margin = std::time::Duration::from_millis(30);
        let w = s.defaults();
        let text = engine_params_json(&s, &w, None, None);
        assert!(text.contains("\"clock\": \"10+0.1\""), "{text}");
        assert!(text.contains("\"time_margin_ms\": 30"), "{text}");
        let back = parse_engine_params(&text).unwrap();
        assert_eq!(back.spec, s);
        assert_eq!(back.spec.level(), "clock 10+0.1 s (margin 30 ms)");
        s.time_margin = std::time::Duration::ZERO;
        let text = engine_params_json(&s, &w, None, None);
        assert!(!text.contains("time_margin_ms"), "{text}");
        assert_eq!(parse_engine_params(&text).unwrap().spec, s);
        let bad = text.replace("\"10+0.1\"", "\"fast\"");
        let e = parse_engine_params(&bad).unwrap_err();
        assert!(e.starts_with("\"clock\": \"fast\""), "{e}");
        let bad = text.replace("\"clock\": \"10+0.1\",", "\"time_margin_ms\": 5,");
        let e = parse_engine_params(&bad).unwrap_err();
        assert!(e.contains("without \"clock\""), "{e}");
    }
}
