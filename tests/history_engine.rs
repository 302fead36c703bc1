//! `history` of sessions that tune an outside engine (`new --engine`, `spsa --engine`): what
//! `--elo` measures is what `match` of the same checkpoint plays, game for game, against the
//! reference it names; the faults of each generation and the answer's values by the engine's
//! names are in every format. The engine is ours through the protocol (`checkers-ga hub
//! --tunable`, ties to the first move), so the games are fast and do not depend on the
//! thread count.

mod common;

use common::{bin, new_cmd, run_ok, Tmp, BIN};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Our engine through the protocol, tuning three of material's weights.
fn engine() -> String {
    format!("{BIN} hub --tunable --tunable-range 1000 --tie-break first material")
}

/// A GA session `name` of [`engine`] (the mean) of `gens` generations at depth 1, every
/// checkpoint kept.
fn engine_session(t: &Tmp, name: &str, gens: u64) {
    let gens = gens.to_string();
    run_ok(new_cmd(
        t,
        5,
        name,
        true,
        &[
            "--engine",
            &engine(),
            "--tune",
            "kings,opp_kings,moves",
            "--generations",
            &gens,
            "--depth",
            "1",
            "--keep",
            "0",
        ],
    ));
}

/// `checkers-ga ARGS` in `dir`.
fn cmd(dir: &Path, args: &[&str]) -> Command {
    let mut c = bin();
    c.current_dir(dir).args(args);
    c
}

/// A JSON document printed by a command.
fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `match A B --depth D --games N --seed S --json` in `dir`: its W/D/L and A's score in each
/// game, in game order.
fn match_result(dir: &Path, a: &Path, b: &str, depth: &str, games: &str, seed: &str) -> Value {
    let out = dir.join("match.json");
    run_ok(cmd(
        dir,
        &[
            "match",
            a.to_str().unwrap(),
            b,
            "--depth",
            depth,
            "--games",
            games,
            "--seed",
            seed,
            "--quiet",
            "--json",
            out.to_str().unwrap(),
        ],
    ));
    let doc = json_of(&std::fs::read_to_string(&out).unwrap());
    let scores: Vec<Value> = doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["score_a"].clone())
        .collect();
    serde_json::json!({
        "wins": doc["wdl"]["wins"],
        "draws": doc["wdl"]["draws"],
        "losses": doc["wdl"]["losses"],
        "scores": scores,
    })
}

/// `history NAME --elo --every 2 --games 8 --seed 1 --depth 2 --format json` (with `more`):
/// each measured generation with its W/D/L and the answer's score in each game.
fn history_elo(t: &Tmp, name: &str, more: &[&str]) -> (Value, Vec<(u64, Value)>) {
    let pops = t.pops();
    let mut args = vec![
        "history",
        name,
        "--populations",
        pops.to_str().unwrap(),
        "--elo",
        "--every",
        "2",
        "--games",
        "8",
        "--seed",
        "1",
        "--depth",
        "2",
        "--format",
        "json",
    ];
    args.extend_from_slice(more);
    let doc = json_of(&run_ok(cmd(&t.0, &args)));
    let measured = doc["generations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["reference"].is_null())
        .map(|g| {
            let r = &g["reference"];
            let result = serde_json::json!({
                "wins": r["wins"],
                "draws": r["draws"],
                "losses": r["losses"],
                "scores": r["scores"],
            });
            (g["generation"].as_u64().unwrap(), result)
        })
        .collect();
    (doc["reference"].clone(), measured)
}

/// `history --elo` of an outside engine's session measures the engine with each generation's
/// answer, as `match` of that generation's checkpoint plays it: against the engine with its
/// declared values by default, and against `--reference material`, game for game.
#[test]
fn elo_of_an_engine_session_is_what_match_of_its_checkpoints_gives() {
    let t = Tmp::new("engine-elo");
    engine_session(&t, "e", 6);
    let hub = format!("hub:{}", engine());
    for (reference, more) in [
        (hub.as_str(), &[][..]),
        ("material", &["--reference", "material"][..]),
    ] {
        let (named, measured) = history_elo(&t, "e", more);
        let gens: Vec<u64> = measured.iter().map(|(g, _)| *g).collect();
        assert_eq!(gens, [2, 4, 6], "{reference}");
        // The header names the true reference.
        let name = named["name"].as_str().unwrap();
        if reference == "material" {
            assert_eq!(name, "material");
        } else {
            assert!(name.contains("declared values"), "{named}");
        }
        for (g, result) in &measured {
            let m = match_result(&t.0, &t.ckpt("e", *g), reference, "2", "8", "1");
            assert_eq!(result, &m, "generation {g} against {reference}");
        }
    }
}

/// `history --elo` of our own weights' session plays each generation's best so far as
/// `match` of its checkpoint does, game for game.
#[test]
fn elo_of_our_session_is_what_match_of_its_checkpoints_gives() {
    let t = Tmp::new("own-elo");
    run_ok(new_cmd(
        &t,
        3,
        "own",
        true,
        &[
            "--population",
            "4",
            "--generations",
            "4",
            "--depth",
            "1",
            "--duel-games",
            "2",
            "--keep",
            "0",
        ],
    ));
    let (named, measured) = history_elo(&t, "own", &["--reference", "classic"]);
    assert_eq!(named["name"], "classic");
    assert_eq!(measured.len(), 2, "{measured:?}");
    for (g, result) in &measured {
        let m = match_result(&t.0, &t.ckpt("own", *g), "classic", "2", "8", "1");
        assert_eq!(result, &m, "generation {g}");
    }
}

/// `history NAME ARGS` of the sessions under `t`.
fn history(t: &Tmp, name: &str, args: &[&str]) -> String {
    let pops = t.pops();
    let mut all = vec!["history", name, "--populations", pops.to_str().unwrap()];
    all.extend_from_slice(args);
    run_ok(cmd(&t.0, &all))
}

/// The CSV records of `history --format csv` as (header, rows).
fn csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect());
    let head: Vec<String> = lines.next().expect("a header");
    (head, lines.collect())
}

/// The table's rows (the lines between the `---` rule and the first blank or legend line),
/// split at whitespace, with its header.
fn table(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let lines: Vec<&str> = text.lines().collect();
    let rule = lines
        .iter()
        .position(|l| l.starts_with("---"))
        .unwrap_or_else(|| panic!("no table in\n{text}"));
    let words = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let rows = lines[rule + 1..]
        .iter()
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| words(l))
        .collect();
    (words(lines[rule - 1]), rows)
}

/// The crashing fake engine (one game in every 2 a process plays), with a marker.
fn crashing() -> String {
    format!(
        "python3 {}/tests/fake_engines/crash_every.py 2",
        common::manifest_dir().display()
    )
}

/// The faults of each generation (from `faults.log`) are in the history's table, CSV and JSON;
/// an SPSA session of the same engine has them per kept step range in the same formats.
#[test]
fn faults_are_in_every_history_format_of_both_tuners() {
    if !common::have_python() {
        return;
    }
    let t = Tmp::new("engine-faults");
    run_ok(new_cmd(
        &t,
        5,
        "c",
        true,
        &[
            "--engine",
            &crashing(),
            "--generations",
            "2",
            "--depth",
            "1",
        ],
    ));
    let log = std::fs::read_to_string(t.session("c").join("faults.log")).unwrap();
    let logged: Vec<u64> = (1..=2)
        .map(|g| {
            let at = format!("generation {g},");
            log.lines().filter(|l| l.starts_with(&at)).count() as u64
        })
        .collect();
    assert!(logged.iter().sum::<u64>() > 0, "{log}");
    let (head, rows) = csv(&history(&t, "c", &["--format", "csv"]));
    let col = head
        .iter()
        .position(|h| h == "faults")
        .expect("a faults column");
    let from_csv: Vec<u64> = rows.iter().map(|r| r[col].parse().unwrap()).collect();
    assert_eq!(from_csv, logged);
    let doc = json_of(&history(&t, "c", &["--format", "json"]));
    let from_json: Vec<u64> = doc["generations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["faults"].as_u64().unwrap())
        .collect();
    assert_eq!(from_json, logged);
    let (head, rows) = table(&history(&t, "c", &[]));
    let col = head
        .iter()
        .position(|h| h == "faults")
        .expect("a faults column");
    let from_table: Vec<u64> = rows.iter().map(|r| r[col].parse().unwrap()).collect();
    assert_eq!(from_table, logged);

    // SPSA: 10 steps of 2 pairs, θ kept at steps 0 and 10; the faults of steps 1..10 in the
    // second record, as many in every format, and at most the games those steps played.
    let mut spsa = bin();
    spsa.current_dir(&t.0)
        .args(["spsa", "--engine", &crashing()])
        .args([
            "--games", "40", "--pairs", "2", "--depth", "1", "--seed", "5",
        ])
        .args(["--threads", "1", "--quiet", "--name", "sc", "--populations"])
        .arg(t.pops())
        .arg("--out")
        .arg(t.0.join("sc.json"));
    run_ok(spsa);
    let (head, rows) = csv(&history(&t, "sc", &["--format", "csv"]));
    let col = head
        .iter()
        .position(|h| h == "faults")
        .expect("a faults column");
    let from_csv: Vec<u64> = rows.iter().map(|r| r[col].parse().unwrap()).collect();
    assert_eq!(from_csv.len(), 2, "{rows:?}");
    assert_eq!(from_csv[0], 0);
    assert!((1..=40).contains(&from_csv[1]), "{from_csv:?}");
    let doc = json_of(&history(&t, "sc", &["--format", "json"]));
    let from_json: Vec<u64> = doc["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["faults"].as_u64().unwrap())
        .collect();
    assert_eq!(from_json, from_csv);
    let (head, rows) = table(&history(&t, "sc", &[]));
    let col = head
        .iter()
        .position(|h| h == "faults")
        .expect("a faults column");
    let from_table: Vec<u64> = rows.iter().map(|r| r[col].parse().unwrap()).collect();
    assert_eq!(from_table, from_csv);
}

/// The history of an outside engine's GA session shows the answer's values after each
/// generation by the engine's names, in the engine's units, as its checkpoints hold them, in
/// the table, CSV and JSON, and `--svg` draws each parameter's place in its range, as for SPSA.
/// Columns that mean nothing under the mean (its points, the duel) are not in the table.
#[test]
fn the_answers_values_are_in_every_history_format_of_an_engine_session() {
    let t = Tmp::new("engine-values");
    engine_session(&t, "e", 4);
    let names = ["kings", "opp_kings", "moves"];
    let answers: Vec<Vec<i64>> = (1..=4)
        .map(|g| {
            let s = common::load(&t.ckpt("e", g));
            let spec = s.settings.engine.as_ref().unwrap();
            spec.values(&s.answer().unwrap())
        })
        .collect();
    assert!(answers.windows(2).any(|w| w[0] != w[1]), "{answers:?}");

    let (head, rows) = csv(&history(&t, "e", &["--format", "csv"]));
    assert_eq!(head[head.len() - 3..], names.map(String::from));
    for (row, want) in rows.iter().zip(&answers) {
        let got: Vec<i64> = row[row.len() - 3..]
            .iter()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(&got, want, "{row:?}");
    }

    let doc = json_of(&history(&t, "e", &["--format", "json"]));
    assert_eq!(doc["tuner"], "ga");
    let declared: Vec<&str> = doc["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(declared, names);
    for (g, want) in doc["generations"].as_array().unwrap().iter().zip(&answers) {
        let got: Vec<i64> = names
            .iter()
            .map(|n| g["values"][n].as_i64().unwrap())
            .collect();
        assert_eq!(&got, want, "{g}");
    }

    let (head, rows) = table(&history(&t, "e", &[]));
    for n in names {
        assert!(head.iter().any(|h| h == n), "{head:?}");
    }
    assert!(!head.iter().any(|h| h == "mean" || h == "duel"), "{head:?}");
    for (row, want) in rows.iter().zip(&answers) {
        let got: Vec<i64> = names
            .iter()
            .map(|n| {
                let i = head.iter().position(|h| h == n).unwrap();
                row[i].parse().unwrap()
            })
            .collect();
        assert_eq!(&got, want, "{row:?}");
    }

    let svg = t.0.join("e.svg");
    let said = history(&t, "e", &["--svg", svg.to_str().unwrap()]);
    assert!(said.contains("SVG chart written"), "{said}");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("place in its declared range"), "{svg}");
    for (i, n) in names.iter().enumerate() {
        assert!(
            svg.contains(&format!("theta-{i}")) && svg.contains(n),
            "{n}"
        );
    }
}

/// The histories of both tuners of the same engine have the same shape: each record has its
/// games, its faults and the answer's values by the engine's names, and with `--elo` its
/// result against the same reference (SPSA's values played as `match` plays them).
#[test]
fn both_tuners_histories_of_an_engine_have_the_same_fields() {
    let t = Tmp::new("engine-shape");
    engine_session(&t, "ga", 2);
    let mut spsa = bin();
    spsa.current_dir(&t.0)
        .args(["spsa", "--engine", &engine()])
        .args(["--tune", "kings,opp_kings,moves"])
        .args([
            "--games", "8", "--pairs", "2", "--depth", "1", "--seed", "5",
        ])
        .args(["--quiet", "--name", "sp", "--populations"])
        .arg(t.pops())
        .arg("--out")
        .arg(t.0.join("sp.json"));
    run_ok(spsa);
    let ga = json_of(&history(&t, "ga", &["--format", "json"]));
    let sp = json_of(&history(&t, "sp", &["--format", "json"]));
    for key in ["tuner", "engine", "parameters"] {
        assert!(!ga[key].is_null() && !sp[key].is_null(), "{key}");
    }
    let ga_rec = &ga["generations"][0];
    let sp_rec = &sp["history"][0];
    for key in ["games", "games_played", "faults"] {
        assert!(
            ga_rec[key].is_u64() && sp_rec[key].is_u64(),
            "{key}: {ga_rec} {sp_rec}"
        );
    }
    // `games_played` is the running total in both: the last record's is the session's games.
    let last = |doc: &serde_json::Value, list: &str| {
        let records = doc[list].as_array().unwrap();
        records.last().unwrap()["games_played"].as_u64().unwrap()
    };
    assert_eq!(last(&sp, "history"), sp["games_played"].as_u64().unwrap());
    let ga_games: u64 = history(&t, "ga", &[])
        .lines()
        .rev()
        .find_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap();
    assert_eq!(
        last(&ga, "generations"),
        ga_games,
        "the table's games column"
    );
    for n in ["kings", "opp_kings", "moves"] {
        assert!(
            ga_rec["values"][n].is_i64() && sp_rec["values"][n].is_i64(),
            "{n}"
        );
    }
    // --elo: each record's result against the engine with its declared values; SPSA's last
    // is what `match` of its checkpoint gives, game for game.
    let elo = ["--elo", "--games", "4", "--seed", "2", "--format", "json"];
    let ga = json_of(&history(&t, "ga", &elo));
    let sp = json_of(&history(&t, "sp", &elo));
    assert_eq!(ga["reference"]["name"], sp["reference"]["name"]);
    let ga_last = ga["generations"].as_array().unwrap().last().unwrap();
    let sp_last = sp["history"].as_array().unwrap().last().unwrap();
    for r in [&ga_last["reference"], &sp_last["reference"]] {
        assert_eq!(r["scores"].as_array().map(Vec::len), Some(4), "{r}");
    }
    let hub = format!("hub:{}", engine());
    let ckpt = t.session("sp").join("spsa.ckpt");
    let m = match_result(&t.0, &ckpt, &hub, "1", "4", "2");
    for k in ["wins", "draws", "losses", "scores"] {
        assert_eq!(sp_last["reference"][k], m[k], "{k}");
    }
    let (ga_head, _) = csv(&history(&t, "ga", &["--format", "csv"]));
    let (sp_head, _) = csv(&history(&t, "sp", &["--format", "csv"]));
    for h in ["games", "faults", "kings", "opp_kings", "moves"] {
        assert!(ga_head.iter().any(|x| x == h), "{h}: {ga_head:?}");
        assert!(sp_head.iter().any(|x| x == h), "{h}: {sp_head:?}");
    }
}
