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
