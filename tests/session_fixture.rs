//! A seeded session's checkpoints and best weights are those a committed fixture holds, byte for
//! byte (the wall-clock seconds zeroed): the session code can be rearranged, but what it
//! computes may not change unnoticed.
//!
//! `tests/data/session-fixture/` holds generations 1 to 4 of
//! `new --population 8 --depth 2 --generations 4 --seed 41 --hall-of-fame 2 --endgame-pairs 1
//! --duel-games 4 --measure-every 2 --measure-games 8` (the defaults otherwise: net66, a fit in
//! every generation to the games among the better half), each
//! encoded in the current format with its times zeroed, and the best-weights file. Regenerate
//! them (only when a change of results is intended) with
//! `CHECKERS_GA_BLESS=1 cargo test --test session_fixture`.

mod common;

use checkers_ga::store;
use common::{new_cmd, repo, run_ok, Tmp};

const ARGS: &[&str] = &[
    "--population",
    "8",
    "--depth",
    "2",
    "--generations",
    "4",
    "--hall-of-fame",
    "2",
    "--endgame-pairs",
    "1",
    "--duel-games",
    "4",
    "--measure-every",
    "2",
    "--measure-games",
    "8",
];

#[test]
fn a_seeded_session_writes_the_fixture_checkpoints_and_best_weights() {
    let t = Tmp::new("fixture");
    run_ok(new_cmd(&t, 41, "fixture", true, ARGS));
    let bless = std::env::var_os("CHECKERS_GA_BLESS").is_some();
    let dir = repo("tests/data/session-fixture");
    let mut files = Vec::new();
    for g in 1..=4u64 {
        let mut s = store::load_checkpoint(&t.ckpt("fixture", g)).unwrap_or_else(|e| panic!("{e}"));
        s.elapsed = 0.0;
        s.history.iter_mut().for_each(|h| h.seconds = 0.0);
        let bytes = store::encode_checkpoint(&s).expect("encode");
        files.push((format!("gen-{g:05}.ckpt"), bytes));
    }
    files.push((
        "fixture-best.json".to_string(),
        std::fs::read(t.best("fixture")).expect("best weights"),
    ));
    for (name, bytes) in files {
        let path = dir.join(&name);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let want = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(bytes == want, "{name} differs from the fixture");
    }
}
