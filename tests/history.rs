//! `checkers-ga history`: the per-generation table (one row per generation), the SVG chart
//! (well-formed XML, exactly one `<path>` per series), the Elo column of `--elo`, and one-line
//! errors for bad input.

mod common;

use checkers_ga::store;
use checkers_ga::DrawRules;
use checkers_ga::Weights;
use checkers_ga::{Duel, GaState, GenerationStats, Settings};
use common::{assert_error, run, stdout_ok, vector, Tmp};
use std::path::{Path, PathBuf};

/// A session of 4 individuals after `gens` generations, every number fixed: the best so far
/// changes in generations 1, 3 and 4 (recorded in `bests`).
fn session(name: &str, gens: u64) -> GaState {
    let settings = Settings {
        rules: DrawRules {
            max_plies: 100,
            ..DrawRules::default()
        },
        ..common::settings(4, gens.max(1), 1)
    };
    let pop: Vec<Weights> = (1..=4).map(vector).collect();
    let mut s = GaState::with_population(name, settings, pop);
    let mut best = vector(100);
    for g in 1..=gens {
        let duel = (g > 1).then(|| {
            let replaced = g == 3 || g == 4;
            Duel {
                challenger: if replaced { 3 } else { 1 },
                holder: if replaced { 1 } else { 3 },
                replaced,
            }
        });
        if duel.is_some_and(|d| d.replaced) {
            best = vector(100 + g as i32);
        }
        if duel.is_none_or(|d| d.replaced) {
            s.bests.record(g, best);
        }
        s.history.record(GenerationStats {
            generation: g,
            best: 6 + g as u32,
            mean: 6.0,
            min: 6 - g.min(6) as u32,
            diversity: 0.33 - 0.01 * g as f64,
            duel,
            games: 12,
            plies: 1200,
            seconds: 0.25 * g as f64,
            measure: None,
            faults: 0,
            time: None,
        });
    }
    s.generation = gens;
    s.best_so_far = (gens > 0).then_some(best);
    s
}

/// Saves the checkpoints of [`session`] for generations 1..=gens (just generation 0 when
/// `gens` is 0) under `root/name/` and returns the last one.
fn save(root: &Path, name: &str, gens: u64) -> PathBuf {
    let mut last = None;
    for g in gens.min(1)..=gens {
        last = Some(
            store::save_checkpoint(&root.join(name), &session(name, g), store::Keep::ALL)
                .expect("save checkpoint"),
        );
    }
    last.expect("at least one checkpoint")
}

/// The table rows: lines after the `---` rule up to the legend.
fn rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .skip_while(|l| !l.starts_with("---"))
        .skip(1)
        .take_while(|l| !l.starts_with("points:"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

// ----- a small XML well-formedness checker -----

fn check_entities(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        let after = &rest[i + 1..];
        let end = after
            .find(';')
            .ok_or_else(|| format!("unterminated entity in '{text}'"))?;
        let name = &after[..end];
        let ok = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos")
            || name
                .strip_prefix("#x")
                .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
            || name
                .strip_prefix('#')
                .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        if !ok {
            return Err(format!("bad entity '&{name};'"));
        }
        rest = &after[end + 1..];
    }
    Ok(())
}

fn is_name_char(c: char, first: bool) -> bool {
    c.is_ascii_alphabetic()
        || c == '_'
        || c == ':'
        || (!first && (c.is_ascii_digit() || c == '-' || c == '.'))
}

/// Reads `name="value" ...` of a start tag; returns an error on unquoted or duplicate attributes.
fn check_attributes(s: &str) -> Result<(), String> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut seen: Vec<String> = Vec::new();
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i == chars.len() {
            return Ok(());
        }
        let start = i;
        while i < chars.len() && is_name_char(chars[i], i == start) {
            i += 1;
        }
        if i == start {
            return Err(format!("bad attribute name at '{}'", &s[start..]));
        }
        let name: String = chars[start..i].iter().collect();
        if seen.contains(&name) {
            return Err(format!("duplicate attribute {name}"));
        }
        seen.push(name.clone());
        if chars.get(i) != Some(&'=') {
            return Err(format!("attribute {name} has no '='"));
        }
        i += 1;
        let q = *chars.get(i).ok_or("attribute without value")?;
        if q != '"' && q != '\'' {
            return Err(format!("attribute {name} is not quoted"));
        }
        i += 1;
        let vstart = i;
        while i < chars.len() && chars[i] != q {
            if chars[i] == '<' {
                return Err(format!("'<' in the value of {name}"));
            }
            i += 1;
        }
        if i == chars.len() {
            return Err(format!("unterminated value of {name}"));
        }
        let value: String = chars[vstart..i].iter().collect();
        check_entities(&value)?;
        i += 1;
        if i < chars.len() && !chars[i].is_whitespace() {
            return Err(format!("no space after attribute {name}"));
        }
    }
}

/// Balanced tags, one root element, quoted attributes, valid entities.
fn check_xml(s: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("<?") {
            let end = r.find("?>").ok_or("unterminated <?")?;
            rest = &r[end + 2..];
            continue;
        }
        if let Some(r) = rest.strip_prefix("<!--") {
            let end = r.find("-->").ok_or("unterminated comment")?;
            rest = &r[end + 3..];
            continue;
        }
        if let Some(r) = rest.strip_prefix('<') {
            // The tag ends at the first '>' outside quotes.
            let mut quote = None;
            let mut end = None;
            for (i, c) in r.char_indices() {
                match (quote, c) {
                    (None, '"') | (None, '\'') => quote = Some(c),
                    (Some(q), c) if c == q => quote = None,
                    (None, '>') => {
                        end = Some(i);
                        break;
                    }
                    (None, '<') => return Err("'<' inside a tag".into()),
                    _ => {}
                }
            }
            let end = end.ok_or("unterminated tag")?;
            let tag = &r[..end];
            rest = &r[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                let name = name.trim();
                match stack.pop() {
                    Some(open) if open == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
                continue;
            }
            let self_closing = tag.ends_with('/');
            let inner = tag.trim_end_matches('/');
            let name_end = inner
                .find(|c: char| c.is_whitespace())
                .unwrap_or(inner.len());
            let name = &inner[..name_end];
            if name.is_empty()
                || !name
                    .chars()
                    .enumerate()
                    .all(|(i, c)| is_name_char(c, i == 0))
            {
                return Err(format!("bad tag name in <{tag}>"));
            }
            check_attributes(&inner[name_end..])?;
            if stack.is_empty() {
                roots += 1;
            }
            if !self_closing {
                stack.push(name.to_string());
            }
            continue;
        }
        let end = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..end];
        if stack.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root: '{}'", text.trim()));
        }
        check_entities(text)?;
        if text.contains('>') && stack.is_empty() {
            return Err("stray '>'".into());
        }
        rest = &rest[end..];
    }
    if !stack.is_empty() {
        return Err(format!("unclosed tags {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(())
}

#[test]
fn the_xml_checker_rejects_broken_documents() {
    assert!(check_xml("<a x=\"1\"><b/></a>").is_ok());
    assert!(check_xml("<?xml version=\"1.0\"?>\n<a>&amp;</a>\n").is_ok());
    assert!(check_xml("<a><b></a></b>").is_err());
    assert!(check_xml("<a x=1/>").is_err());
    assert!(check_xml("<a x=\"1/>").is_err());
    assert!(check_xml("<a>&</a>").is_err());
    assert!(check_xml("<a/><b/>").is_err());
    assert!(check_xml("<a>").is_err());
    assert!(check_xml("<a x=\"1\" x=\"2\"/>").is_err());
}

// ----- the table -----

#[test]
fn table_has_one_row_per_generation() {
    let t = Tmp::new("table");
    let ck = save(&t.0, "five", 5);
    let out = stdout_ok(&run(&t.0, &["history", ck.to_str().unwrap()]));
    assert!(out.starts_with("session 'five' ("), "{out}");
    let head = out
        .lines()
        .find(|l| l.trim_start().starts_with("gen"))
        .unwrap();
    for col in ["gen", "best", "mean", "min", "diversity", "duel", "seconds"] {
        assert!(head.contains(col), "{head}");
    }
    assert!(!head.contains("Elo"));
    let r = rows(&out);
    assert_eq!(r.len(), 5, "{out}");
    for (i, row) in r.iter().enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
        assert_eq!(row[1], (7 + i).to_string(), "best");
        assert_eq!(row.len(), 7, "{row:?}");
    }
    let duels: Vec<&str> = r.iter().map(|row| row[5].as_str()).collect();
    assert_eq!(duels, ["-", "1-3", "3-1*", "3-1*", "1-3"]);
    assert_eq!(r[1][4], "0.310");
    assert_eq!(r[4][6], "1.2");
}

#[test]
fn session_by_name_folder_and_newest() {
    let t = Tmp::new("names");
    let pops = t.0.join("pops");
    save(&pops, "older", 2);
    std::thread::sleep(std::time::Duration::from_millis(20));
    save(&pops, "newer", 3);
    let by_name = stdout_ok(&run(&t.0, &["history", "older", "--populations", "pops"]));
    assert_eq!(rows(&by_name).len(), 2);
    let by_folder = stdout_ok(&run(&t.0, &["history", "pops/older"]));
    assert_eq!(rows(&by_folder).len(), 2);
    let newest = stdout_ok(&run(&t.0, &["history", "--populations", "pops"]));
    assert!(newest.starts_with("session 'newer'"), "{newest}");
    assert_eq!(rows(&newest).len(), 3);
}

// ----- the SVG -----

#[test]
fn svg_is_well_formed_with_one_path_per_series() {
    let t = Tmp::new("svg");
    let ck = save(&t.0, "a&b <chart>", 5);
    let out = stdout_ok(&run(
        &t.0,
        &["history", ck.to_str().unwrap(), "--svg", "chart.svg"],
    ));
    // The chart instead of the table: only its path is printed.
    assert_eq!(out, "SVG chart written to chart.svg\n");
    let svg = t.read("chart.svg");
    check_xml(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert!(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg.matches("<path").count(), 2, "{svg}");
    assert!(svg.contains("<path class=\"best\""));
    assert!(svg.contains("<path class=\"mean\""));
    // Each path visits every generation.
    for p in svg.lines().filter(|l| l.starts_with("<path")) {
        let d = p.split("d=\"").nth(1).unwrap().split('"').next().unwrap();
        assert_eq!(d.matches(['M', 'L']).count(), 5, "{d}");
    }
    assert!(svg.contains(">best points</text>") && svg.contains(">mean points</text>"));
    assert!(svg.contains(">generation</text>") && svg.contains(">points</text>"));
    assert!(svg.contains("a&amp;b &lt;chart&gt;"), "title escaped");
    // A true title: no measurement, so points only.
    assert!(
        svg.contains(
            "<title>Session &apos;a&amp;b &lt;chart&gt;&apos;: tournament points per generation</title>"
        ),
        "{svg}"
    );
    assert!(svg.matches("<text").count() >= 10, "tick labels");
}

#[test]
fn svg_of_a_single_generation() {
    let t = Tmp::new("svg1");
    let ck = save(&t.0, "one", 1);
    stdout_ok(&run(
        &t.0,
        &["history", ck.to_str().unwrap(), "--svg", "one.svg"],
    ));
    let svg = t.read("one.svg");
    check_xml(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(svg.matches("<path").count(), 2);
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
}

#[test]
fn real_session() {
    let t = Tmp::new("real");
    let out = run(
        &t.0,
        &[
            "new",
            "--population",
            "4",
            "--generations",
            "2",
            "--depth",
            "1",
            "--max-plies",
            "60",
            "--seed",
            "1",
            "--name",
            "snap",
            "--populations",
            "pops",
            "--weights-dir",
            "w",
            "--quiet",
        ],
    );
    stdout_ok(&out);
    let h = stdout_ok(&run(&t.0, &["history", "--populations", "pops"]));
    stdout_ok(&run(
        &t.0,
        &["history", "--populations", "pops", "--svg", "real.svg"],
    ));
    let r = rows(&h);
    assert_eq!(r.len(), 2, "{h}");
    assert_eq!(r[0][5], "-");
    let svg = t.read("real.svg");
    check_xml(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(svg.matches("<path").count(), 2);
}

// ----- Elo -----

#[test]
fn elo_column_for_every_kth_generation_and_the_last() {
    let t = Tmp::new("elo");
    save(&t.0, "elo", 5);
    std::fs::write(
        t.0.join("ref.json"),
        checkers_ga::weightfile::weights_to_json(&vector(7)),
    )
    .unwrap();
    let args = |threads: &'static str| {
        vec![
            "history",
            "elo/gen-00005.ckpt",
            "--elo",
            "--every",
            "2",
            "--games",
            "4",
            "--reference",
            "ref.json",
            "--seed",
            "9",
            "--threads",
            threads,
        ]
    };
    let out = stdout_ok(&run(&t.0, &args("1")));
    assert!(out.contains("Elo: best so far vs ref.json over 4 ballot games at depth 1, seed 9"));
    assert!(out.contains("Elo vs reference (W/D/L)"), "{out}");
    let r = rows(&out);
    assert_eq!(r.len(), 5);
    for (i, row) in r.iter().enumerate() {
        let g = i + 1;
        let has = row.iter().any(|c| c == "+/-");
        assert_eq!(has, g == 2 || g == 4 || g == 5, "generation {g}: {row:?}");
        if has {
            // Elo, +/-, margin, (w/d/l) with w+d+l = 4 games.
            let wdl = row.last().unwrap().trim_matches(['(', ')']);
            let n: u32 = wdl.split('/').map(|x| x.parse::<u32>().unwrap()).sum();
            assert_eq!(n, 4, "{row:?}");
        }
    }
    // The same seed gives the same result at any thread count.
    assert_eq!(stdout_ok(&run(&t.0, &args("3"))), out);
}

// ----- machine formats -----

#[test]
fn csv_and_json_have_one_record_per_generation() {
    let t = Tmp::new("formats");
    save(&t.0, "fmt", 4);
    std::fs::write(
        t.0.join("ref.json"),
        checkers_ga::weightfile::weights_to_json(&vector(7)),
    )
    .unwrap();
    let csv = stdout_ok(&run(
        &t.0,
        &["history", "fmt/gen-00004.ckpt", "--format", "csv"],
    ));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    let head: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(head[..3], ["generation", "best", "mean"]);
    for (i, l) in lines[1..].iter().enumerate() {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), head.len(), "{l}");
        assert_eq!(f[0], (i + 1).to_string());
        assert_eq!(f[1], (7 + i).to_string());
    }
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let second: Vec<&str> = lines[2].split(',').collect();
    assert_eq!(second[col("duel")], "played");
    assert_eq!(second[col("duel_challenger")], "1");
    assert_eq!(lines[1].split(',').nth(col("duel")), Some("first"));
    assert_eq!(lines[3].split(',').nth(col("duel_replaced")), Some("true"));

    let json = stdout_ok(&run(
        &t.0,
        &[
            "history",
            "fmt/gen-00004.ckpt",
            "--format",
            "json",
            "--elo",
            "--every",
            "2",
            "--games",
            "4",
            "--reference",
            "ref.json",
            "--seed",
            "3",
        ],
    ));
    let doc: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(doc["session"], "fmt");
    assert_eq!(doc["reference"]["games"], 4);
    let gens = doc["generations"].as_array().unwrap();
    assert_eq!(gens.len(), 4);
    assert_eq!(gens[0]["duel"], serde_json::Value::Null);
    assert_eq!(gens[1]["duel"]["challenger"], 1);
    for (i, g) in gens.iter().enumerate() {
        assert_eq!(g["generation"], i as u64 + 1);
        let measured = i == 1 || i == 3;
        assert_eq!(!g["reference"].is_null(), measured, "{g}");
        if measured {
            let r = &g["reference"];
            let n = r["wins"].as_u64().unwrap()
                + r["draws"].as_u64().unwrap()
                + r["losses"].as_u64().unwrap();
            assert_eq!(n, 4, "{r}");
        }
    }
    let out = run(&t.0, &["history", "fmt", "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2));
}

// ----- bad input: one line, exit 1 -----

#[test]
fn unknown_session() {
    let t = Tmp::new("unknown");
    assert_error(
        &run(&t.0, &["history", "nobody", "--populations", "pops"]),
        &["no checkpoint, session folder or session named 'nobody'"],
    );
}

#[test]
fn no_checkpoints_at_all() {
    let t = Tmp::new("none");
    std::fs::create_dir_all(t.0.join("pops")).unwrap();
    assert_error(
        &run(&t.0, &["history", "--populations", "pops"]),
        &["no checkpoint under 'pops'"],
    );
}

#[test]
fn checkpoint_of_a_newer_version() {
    let t = Tmp::new("newer");
    let ck = save(&t.0, "v", 2);
    let mut bytes = std::fs::read(&ck).unwrap();
    bytes[8..12].copy_from_slice(&99u32.to_le_bytes());
    std::fs::write(t.0.join("newer.ckpt"), bytes).unwrap();
    assert_error(
        &run(&t.0, &["history", "newer.ckpt"]),
        &["newer.ckpt", "version 99"],
    );
}

#[test]
fn not_a_checkpoint() {
    let t = Tmp::new("notck");
    std::fs::write(
        t.0.join("w.json"),
        checkers_ga::weightfile::weights_to_json(&vector(1)),
    )
    .unwrap();
    assert_error(
        &run(&t.0, &["history", "w.json"]),
        &["w.json", "not a checkpoint"],
    );
}

#[test]
fn session_without_generations() {
    let t = Tmp::new("empty");
    let ck = save(&t.0, "fresh", 0);
    assert_error(
        &run(&t.0, &["history", ck.to_str().unwrap()]),
        &["session 'fresh'", "has no generations yet"],
    );
}

#[test]
fn bad_elo_settings() {
    let t = Tmp::new("badelo");
    let ck = save(&t.0, "e", 2);
    let p = ck.to_str().unwrap();
    common::assert_usage_error(
        &run(
            &t.0,
            &["history", p, "--elo", "--every", "0", "--reference", "x"],
        ),
        &["--every must be at least 1"],
    );
    assert_error(
        &run(
            &t.0,
            &["history", p, "--elo", "--reference", "missing.json"],
        ),
        &["cannot read 'missing.json'"],
    );
    common::assert_usage_error(
        &run(
            &t.0,
            &["history", p, "--elo", "--depth", "0", "--reference", "x"],
        ),
        &["--depth 0 must be 1..30"],
    );
    // --svg replaces the table that --elo's column is in.
    common::assert_usage_error(
        &run(&t.0, &["history", p, "--elo", "--svg", "c.svg"]),
        &["--svg writes the chart instead of the table"],
    );
}

#[test]
fn svg_to_a_missing_folder() {
    let t = Tmp::new("svgdir");
    let ck = save(&t.0, "s", 2);
    assert_error(
        &run(
            &t.0,
            &[
                "history",
                ck.to_str().unwrap(),
                "--svg",
                "no/such/dir/c.svg",
            ],
        ),
        &["cannot write 'no/such/dir/c.svg'"],
    );
}

/// The history records the best so far each time it changes, so `--elo` measures every
/// generation even when the checkpoints before the last were pruned.
#[test]
fn elo_needs_no_checkpoint_but_the_last() {
    let t = Tmp::new("elopruned");
    save(&t.0, "p", 4);
    for g in 1..=3 {
        std::fs::remove_file(t.0.join(format!("p/gen-{g:05}.ckpt"))).unwrap();
    }
    std::fs::write(
        t.0.join("ref.json"),
        checkers_ga::weightfile::weights_to_json(&vector(7)),
    )
    .unwrap();
    let out = stdout_ok(&run(
        &t.0,
        &[
            "history",
            "p/gen-00004.ckpt",
            "--elo",
            "--games",
            "2",
            "--reference",
            "ref.json",
            "--seed",
            "1",
        ],
    ));
    assert!(!out.contains("left out"), "{out}");
    let r = rows(&out);
    let with_elo: Vec<bool> = r.iter().map(|row| row.iter().any(|c| c == "+/-")).collect();
    assert_eq!(with_elo, vec![true, true, true, true], "{out}");
    // Generations 1 and 2 share their best so far, and so their result.
    let elo_of = |row: &Vec<String>| row[row.len() - 4..].join(" ");
    assert_eq!(elo_of(&r[0]), elo_of(&r[1]), "{out}");
}

// ----- the end of a session -----

/// The end summary of a session with one measurement says it once, not as a change from
/// itself to itself (`+336 +/- 40 (gen 50) -> +336 +/- 40 (gen 50)`).
#[test]
fn a_single_measurement_is_said_once() {
    let t = Tmp::new("one-measure");
    let out = common::run_ok(common::new_cmd(
        &t,
        3,
        "once",
        false,
        &"--population 4 --depth 1 --generations 2 --measure-every 2 --measure-games 4 \
          --max-plies 60"
            .split_whitespace()
            .collect::<Vec<_>>(),
    ));
    let line = out
        .lines()
        .find(|l| l.starts_with("best so far vs material"))
        .unwrap_or_else(|| panic!("no strength line in\n{out}"));
    assert!(!line.contains("->"), "{line}");
    assert_eq!(line.matches("(gen 2)").count(), 1, "{line}");
    assert!(line.contains(" +/- "), "{line}");
}
