//! Weight files: JSON round trip, the original text format, every error class, shipped files.

mod common;

use checkers_ga::weightfile::{
    load_weight_file, load_weights, parse_weight_file, parse_weights, save_weight_file,
    save_weights, weights_to_json, weights_to_json_with_comment, weights_to_original,
    WeightsErrorKind,
};
use checkers_ga::{Weights, NUM_PARAMS, PARAMS};
use common::{repo, Tmp, Xs};

fn sample() -> Weights {
    let mut w = [0i16; NUM_PARAMS];
    for (i, x) in w.iter_mut().enumerate() {
        *x = ((i as i32 * 7919 + 13) % 65536 - 32768) as i16;
    }
    w[0] = i16::MIN;
    w[59] = i16::MAX;
    Weights::thesis(w)
}

/// The JSON of `sample()` with one line of the weights object replaced.
fn json_with(edit: impl Fn(&str) -> String) -> String {
    weights_to_json(&sample())
        .lines()
        .map(|l| edit(l) + "\n")
        .collect()
}

fn err_of(text: &str) -> (WeightsErrorKind, String) {
    let e = parse_weights(text).expect_err("should not load");
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "message is one line: {msg}");
    (e.kind, msg)
}

#[test]
fn json_round_trip() {
    let w = sample();
    let text = weights_to_json(&w);
    assert_eq!(parse_weights(&text).unwrap(), w);
    // One parameter per line, in weight order.
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("    \"")).collect();
    assert_eq!(lines.len(), NUM_PARAMS);
    for ((line, p), v) in lines
        .iter()
        .zip(PARAMS.iter())
        .zip(w.values().iter().copied())
    {
        assert_eq!(
            line.trim().trim_end_matches(','),
            format!("\"{}\": {v}", p.name)
        );
    }
    // Key order (inside "weights" and at the top level) does not matter.
    let body: Vec<String> = PARAMS
        .iter()
        .zip(w.values().iter().copied())
        .rev()
        .map(|(p, v)| format!("\"{}\": {v}", p.name))
        .collect();
    let reordered = format!(
        "{{\"version\": 1, \"weights\": {{{}}}, \"format\": \"checkers-ga weights\"}}",
        body.join(",\n")
    );
    assert_eq!(parse_weights(&reordered).unwrap(), w);
}

#[test]
fn json_comment_round_trip_and_minimal_form() {
    let w = sample();
    let c = "tuned \"by hand\"\n on a Tuesday";
    let f = parse_weight_file(&weights_to_json_with_comment(&w, Some(c))).unwrap();
    assert_eq!((f.weights, f.comment.as_deref()), (w, Some(c)));
    // Only "weights" is required.
    let body: Vec<String> = PARAMS
        .iter()
        .zip(w.values().iter().copied())
        .map(|(p, v)| format!("\"{}\":{v}", p.name))
        .collect();
    let minimal = format!("{{\"weights\":{{{}}}}}", body.join(","));
    assert_eq!(parse_weights(&minimal).unwrap(), w);
}

#[test]
fn original_format_loads() {
    let w = sample();
    let text = weights_to_original(&w);
    assert!(text.starts_with("60 1\n"));
    assert_eq!(text.lines().count(), 2);
    assert_eq!(parse_weights(&text).unwrap(), w);
    // Whitespace tolerant: tabs, extra blanks, numbers spread over lines, CRLF.
    let vals: Vec<String> = w.values().iter().map(|v| v.to_string()).collect();
    let messy = format!(
        "\n  60\t1  \r\n{}\r\n{}\n\n",
        vals[..30].join("\t "),
        vals[30..].join("   ")
    );
    assert_eq!(parse_weights(&messy).unwrap(), w);
    assert_eq!(parse_weight_file(&messy).unwrap().comment, None);
}

#[test]
fn original_format_errors() {
    let w = sample();
    let text = weights_to_original(&w);
    let (k, m) = err_of(&text.replacen("60 1", "60 2", 1));
    assert!(matches!(k, WeightsErrorKind::Original(_)), "{m}");
    assert!(m.contains("60 2"), "{m}");
    let short = text.rsplit_once(' ').unwrap().0.to_string();
    let (_, m) = err_of(&short);
    assert!(m.contains("found 59"), "{m}");
    let big = text.replacen(&w[4].to_string(), "40000", 1);
    let (k, m) = err_of(&big);
    assert!(matches!(k, WeightsErrorKind::BadValue { .. }), "{m}");
    assert!(m.contains("40000") && m.contains("wall_men"), "{m}");
    let (_, m) = err_of(&text.replacen(&w[2].to_string(), "x7", 1));
    assert!(m.contains("x7") && m.contains("opp_men"), "{m}");
}

#[test]
fn unknown_names_are_named() {
    let text = json_with(|l| {
        l.replace("\"kings\":", "\"kingz\":")
            .replace("\"oreo\":", "\"cookie\":")
    });
    let (k, m) = err_of(&text);
    assert_eq!(
        k,
        WeightsErrorKind::UnknownNames(vec!["kingz".into(), "cookie".into()])
    );
    assert!(
        m.contains("unknown") && m.contains("kingz") && m.contains("cookie"),
        "{m}"
    );
}

#[test]
fn missing_names_are_named() {
    let text = json_with(|l| {
        if l.contains("\"dog\":") || l.contains("\"opp_moves\":") {
            String::new()
        } else {
            l.to_string()
        }
    });
    let (k, m) = err_of(&text);
    assert_eq!(
        k,
        WeightsErrorKind::MissingNames(vec!["opp_moves".into(), "dog".into()])
    );
    assert!(
        m.contains("missing") && m.contains("opp_moves") && m.contains("dog"),
        "{m}"
    );
}

#[test]
fn duplicate_names_are_named() {
    let text = json_with(|l| {
        if l.contains("\"bridge\":") {
            format!("{l}\n    \"bridge\": 5,")
        } else {
            l.to_string()
        }
    });
    let (k, m) = err_of(&text);
    assert_eq!(k, WeightsErrorKind::Duplicate("bridge".into()));
    assert!(m.contains("bridge"), "{m}");
}

#[test]
fn out_of_range_values_are_named() {
    for (bad, shown) in [
        ("32768", "32768"),
        ("-32769", "-32769"),
        ("1.5", "1.5"),
        ("\"7\"", "\"7\""),
    ] {
        let text = json_with(|l| {
            if l.contains("\"triangle\":") {
                format!("    \"triangle\": {bad},")
            } else {
                l.to_string()
            }
        });
        let (k, m) = err_of(&text);
        assert_eq!(
            k,
            WeightsErrorKind::BadValue {
                name: "triangle".into(),
                value: shown.into()
            }
        );
        assert!(m.contains("triangle") && m.contains(shown), "{m}");
    }
}

#[test]
fn garbage_is_rejected() {
    for text in [
        "",
        "   \n",
        "hello world",
        "{ not json",
        "{\"weights\": {\"men\": 1,}}",
        "[1, 2, 3]",
        "\u{1F600}",
    ] {
        let e = parse_weights(text).expect_err(text);
        let m = e.to_string();
        assert!(!m.contains('\n'), "{m}");
        assert!(
            matches!(
                e.kind,
                WeightsErrorKind::NotJson(_) | WeightsErrorKind::Format(_)
            ),
            "{text:?}: {m}"
        );
    }
    let (k, m) = err_of("hello world");
    assert!(matches!(k, WeightsErrorKind::NotJson(_)) && m.contains("not a weight file"));
    let (k, m) = err_of("{ not json");
    assert!(
        matches!(k, WeightsErrorKind::NotJson(_)) && m.contains("JSON"),
        "{m}"
    );
    // Well-formed JSON of the wrong shape.
    for (text, needle) in [
        ("{}", "no \"weights\""),
        ("{\"weights\": 5}", "object"),
        ("{\"weights\": {}, \"extra\": 1}", "extra"),
        ("{\"format\": \"other\", \"weights\": {}}", "format"),
        ("{\"version\": 2, \"weights\": {}}", "version"),
    ] {
        let (k, m) = err_of(text);
        assert!(matches!(k, WeightsErrorKind::Format(_)), "{text}: {m}");
        assert!(m.contains(needle), "{text}: {m}");
    }
}

#[test]
fn files_save_atomically_and_errors_name_the_file() {
    let t = Tmp::new("save");
    let dir = &t.0;
    let path = dir.join("best.json");
    let w = sample();
    save_weights(&path, &w).unwrap();
    assert_eq!(load_weights(&path).unwrap(), w);
    save_weight_file(&path, &Weights::zero(), Some("zero")).unwrap();
    let f = load_weight_file(&path).unwrap();
    assert_eq!(
        (f.weights, f.comment.as_deref()),
        (Weights::zero(), Some("zero"))
    );
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("best.json")]);

    let orig = dir.join("orig.txt");
    std::fs::write(&orig, weights_to_original(&w)).unwrap();
    assert_eq!(load_weights(&orig).unwrap(), w);

    let missing = dir.join("nope.json");
    let m = load_weights(&missing).unwrap_err().to_string();
    assert!(m.contains("nope.json") && m.contains("cannot read"), "{m}");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"weights\": {\"men\": 1}}").unwrap();
    let m = load_weights(&bad).unwrap_err().to_string();
    assert!(m.contains("bad.json") && m.contains("missing"), "{m}");
    let m = save_weights(&dir.join("no/such/dir/w.json"), &w)
        .unwrap_err()
        .to_string();
    assert!(m.contains("w.json") && m.contains("cannot write"), "{m}");
}

#[test]
fn thesis_table_4_2_matches_the_published_table() {
    let f = load_weight_file(&repo("weights/thesis-table-4-2.json")).unwrap();
    let published: [(usize, i16); 29] = [
        (1, -27848),
        (3, 22520),
        (4, -24912),
        (5, 25644),
        (8, 27337),
        (10, 4708),
        (11, 6119),
        (13, 21613),
        (16, -28692),
        (17, -20989),
        (18, -20551),
        (20, -13876),
        (22, -24871),
        (24, -30665),
        (29, -24696),
        (30, 26462),
        (31, -32375),
        (34, 27159),
        (38, -20871),
        (40, 11132),
        (41, -25605),
        (42, -32651),
        (46, 25836),
        (47, -25839),
        (48, 1326),
        (52, -618),
        (54, 14026),
        (58, 32446),
        (59, -28419),
    ];
    let mut expected = [0i16; NUM_PARAMS];
    for (n, v) in published {
        expected[n - 1] = v;
    }
    assert_eq!(f.weights, Weights::thesis(expected));
    assert!(f.comment.is_some());
    // The shipped file is exactly what the writer produces (canonical form).
    let text = std::fs::read_to_string(repo("weights/thesis-table-4-2.json")).unwrap();
    assert_eq!(
        weights_to_json_with_comment(&f.weights, f.comment.as_deref()),
        text
    );
}

#[test]
fn material_file_is_material_only() {
    let f = load_weight_file(&repo("weights/material.json")).unwrap();
    let mut expected = [0i16; NUM_PARAMS];
    expected[..4].copy_from_slice(&[100, 160, -100, -160]);
    assert_eq!(f.weights, Weights::thesis(expected));
    // The session yardstick's built-in copy is the same set.
    assert_eq!(f.weights, checkers_ga::material());
    let text = std::fs::read_to_string(repo("weights/material.json")).unwrap();
    assert_eq!(
        weights_to_json_with_comment(&f.weights, f.comment.as_deref()),
        text
    );
}

#[test]
fn every_shipped_weight_file_loads() {
    for e in std::fs::read_dir(repo("weights")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            load_weights(&p).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn every_shipped_weight_file_is_built_in_by_its_stem() {
    // The committed files of weights/ (a session's own outputs there are not shipped).
    let shipped: Vec<String> = checkers_ga::formats::SHIPPED
        .iter()
        .map(|(stem, file, text)| {
            assert_eq!(format!("{stem}.json"), *file);
            let on_disk = std::fs::read_to_string(repo(&format!("weights/{file}"))).unwrap();
            assert_eq!(on_disk, *text, "{file}");
            stem.to_string()
        })
        .collect();
    let tracked = std::process::Command::new("git")
        .args(["ls-files", "weights/*.json"])
        .current_dir(repo("."))
        .output();
    if let Some(o) = tracked
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty())
    {
        let mut committed: Vec<String> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| {
                Some(
                    l.strip_prefix("weights/")?
                        .strip_suffix(".json")?
                        .to_string(),
                )
            })
            .collect();
        committed.sort();
        assert_eq!(shipped, committed, "weights/*.json and formats::SHIPPED");
    }
    // A bare stem reads the built-in copy (tests/matchcmd.rs plays one from a folder without
    // weights/).
    let arg = checkers_ga::formats::resolve_weights("evolved-hour", 1, 0).unwrap();
    let missing = checkers_ga::formats::resolve_weights("evolved-day", 1, 0);
    assert_eq!(arg.name, "evolved-hour");
    assert_eq!(
        arg.title.as_deref(),
        Some("built-in weight set (weights/evolved-hour.json)")
    );
    let on_disk = load_weights(&repo("weights/evolved-hour.json")).unwrap();
    match arg.input {
        checkers_ga::formats::Input::Weights { weights, .. } => assert_eq!(weights, on_disk),
        other => panic!("{other:?}"),
    }
    let e = missing.unwrap_err().to_string();
    assert!(e.starts_with("cannot read 'evolved-day'"), "{e}");
    assert!(
        e.contains("evolved-hour") && e.contains("nor a session"),
        "{e}"
    );
}

/// `Weights` through serde: bincode and JSON round trips; a wrong length or an out-of-range
/// value is refused.
#[test]
fn serde_round_trips() {
    let mut r = Xs(7);
    let mut w = [0i16; NUM_PARAMS];
    for x in w.iter_mut() {
        *x = r.next() as i16;
    }
    w[0] = i16::MIN;
    w[1] = i16::MAX;
    let w = Weights::thesis(w);
    let cfg = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(w, cfg).unwrap();
    let (back, n): (Weights, usize) = bincode::serde::decode_from_slice(&bytes, cfg).unwrap();
    assert_eq!((back, n), (w, bytes.len()));
    let json = serde_json::to_string(&w).unwrap();
    assert_eq!(serde_json::from_str::<Weights>(&json).unwrap(), w);
    let short = format!("[{}]", vec!["1"; 59].join(","));
    assert!(serde_json::from_str::<Weights>(&short).is_err());
    let long = format!("[{}]", vec!["1"; 61].join(","));
    assert!(serde_json::from_str::<Weights>(&long).is_err());
    assert!(serde_json::from_str::<Weights>(&json.replace('[', "[40000,")).is_err());
}

/// A session's best-weights file names its session, seed and generation; they round-trip
/// (also a seed above 2^53), go together, and are checked like every other key.
#[test]
fn origin_keys_round_trip_and_are_checked() {
    use checkers_ga::weightfile::{weights_to_json_full, Origin};
    let o = Origin {
        session: "a \"quoted\" name".to_string(),
        seed: u64::MAX - 1,
        generation: 2000,
    };
    let text = weights_to_json_full(&sample(), Some("c"), Some(&o));
    let f = parse_weight_file(&text).unwrap();
    assert_eq!(f.origin, Some(o));
    assert_eq!(f.weights, sample());
    assert_eq!(f.comment.as_deref(), Some("c"));
    assert_eq!(
        parse_weight_file(&weights_to_json(&sample()))
            .unwrap()
            .origin,
        None
    );
    let edit = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        text.replace(from, to)
    };
    for (bad, needle) in [
        (edit("  \"generation\": 2000,\n", ""), "go together"),
        (
            edit("\"generation\": 2000", "\"generation\": -1"),
            "\"generation\" is -1",
        ),
        (
            edit("\"generation\": 2000", "\"generation\": 1.5"),
            "\"generation\" is 1.5",
        ),
        (
            edit("\"session\":", "\"sesion\": 1, \"session\":"),
            "unknown key",
        ),
    ] {
        let (kind, msg) = err_of(&bad);
        assert!(matches!(kind, WeightsErrorKind::Format(_)), "{msg}");
        assert!(msg.contains(needle), "{msg}");
    }
    let (_, msg) = err_of(&edit(
        "\"session\": \"a \\\"quoted\\\" name\"",
        "\"session\": 7",
    ));
    assert!(msg.contains("\"session\" is 7, not a string"), "{msg}");
}
