//! Checkpoints of older formats still load, and a session resumed from one continues exactly as
//! the build that wrote it would have: format 1 (before the GA options) and format 2 (the whole
//! history in every checkpoint, before the history file), and formats 3 to 7 (below); and the
//! one-file tuners' older formats, SPSA's first and CMA-ES's first and second
//! (`tests/data/spsa-v1/`, `tests/data/cmaes-v1/`, `tests/data/cmaes-v2/`: a session on the
//! simulator stopped partway and resumed to its end by the build that wrote them, as their tests
//! say).
//!
//! `tests/data/checkpoint-v1-gen2.ckpt` and `-gen3.ckpt` are generations 2 and 3 of one session
//! (`new --population 8 --depth 1 --generations 3 --seed 11 --name v1fixture`) written by the
//! format-1 build. `tests/data/checkpoint-v2-gen2.ckpt` and `-gen3.ckpt` are generations 2 and 3
//! of `new --population 8 --depth 1 --max-plies 60 --generations 3 --seed 17 --name v2fixture
//! --hall-of-fame 2 --measure-every 1 --measure-games 4 --duel-games 4 --selection tournament:3
//! --mutation-kind gauss:800:3 --endgame-pairs 1 --params thesis60` (the best so far changes in
//! generation 3) written by the format-2 build. (thesis60, whose evaluation has not changed since:
//! endgame66 weighs king endings differently now.) `tests/data/checkpoint-v3/` holds generations
//! 2 and 3 of `new --population 8 --depth 1 --max-plies 60 --generations 3 --seed 23 --name
//! v3fixture --hall-of-fame 2 --measure-every 1 --measure-games 4 --duel-games 4
//! --endgame-pairs 1 --params net66:2 --mutation-kind layered:800:3 --keep 0` and its history
//! file, written by the format-3 build (before `--fit-every`). `tests/data/checkpoint-v4/` holds
//! generations 2 and 3 of `new --population 8 --depth 1 --max-plies 60 --generations 3 --seed 29
//! --name v4fixture --measure-every 1 --measure-games 4 --duel-games 4 --params net66:2
//! --mutation-kind adaptive:800:3 --keep 0` and its history file, written by the format-4 build
//! (before `--fit-top`: its fits learned from every game). `tests/data/checkpoint-v5/` holds
//! generations 2 and 3 of `new --population 8 --depth 2 --generations 3 --seed 31 --keep 0
//! --name v5fixture --duel-games 4 --measure-every 1 --measure-games 8 --hall-of-fame 1` and
//! its history file, written by the format-5 build (before sessions of outside engines).
//! `tests/data/checkpoint-v6/` holds generations 2 and 3 of `new --population 8 --depth 2
//! --generations 3 --seed 37 --keep 0 --name v6fixture --duel-games 4 --measure-every 1
//! --measure-games 8` and its history file, written by the format-6 build (before the fit's
//! replay). `tests/data/checkpoint-v7/` holds generations 2 and 3 of `new --population 8
//! --depth 2 --generations 3 --seed 43 --keep 0 --name v7fixture --duel-games 4 --measure-every
//! 1 --measure-games 8 --fit-replay 2` and its history file, written by the format-7 build
//! (before `--selection mean` and its centre).

mod common;

use checkers_ga::store;
use checkers_ga::{GaOptions, Method, Mutation, Selection};
use common::{load, repo, resume_cmd, run, stdout_ok, Tmp};
use std::path::Path;

#[test]
fn a_format_1_checkpoint_loads_with_the_original_operators() {
    let s = load(&repo("tests/data/checkpoint-v1-gen3.ckpt"));
    assert_eq!(s.name, "v1fixture");
    assert_eq!(s.generation, 3);
    assert_eq!(s.history.len(), 3);
    assert_eq!(s.population.len(), 8);
    assert_eq!(s.settings.seed, 11);
    assert_eq!(s.settings.search.depth, 1);
    assert_eq!(s.settings.ga, GaOptions::ORIGINAL);
    assert!(s.history.iter().all(|h| h.measure.is_none()));
    assert!(s.best_so_far.is_some());
    assert!(s.hall.is_empty());
}

#[test]
fn resuming_a_format_1_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat");
    let dir = t.session("v1fixture");
    std::fs::create_dir_all(&dir).unwrap();
    let from = dir.join("gen-00002.ckpt");
    std::fs::copy(repo("tests/data/checkpoint-v1-gen2.ckpt"), &from).unwrap();
    stdout_ok(
        &resume_cmd(&t, Some(&from), true, &["--generations", "3"])
            .output()
            .unwrap(),
    );
    let ours = load(&dir.join("gen-00003.ckpt"));
    let theirs = load(&repo("tests/data/checkpoint-v1-gen3.ckpt"));
    assert_eq!(ours.generation, 3);
    assert_eq!(ours.population, theirs.population, "next population");
    assert_eq!(ours.last, theirs.last, "generation 3's results");
    assert_eq!(ours.best_so_far, theirs.best_so_far, "best so far");
    // The new file is written in the current format and reads back the same.
    let bytes = std::fs::read(dir.join("gen-00003.ckpt")).unwrap();
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        checkers_ga::store::CHECKPOINT_VERSION
    );
}

#[test]
fn a_format_2_checkpoint_loads_with_its_history() {
    let s = load(&repo("tests/data/checkpoint-v2-gen3.ckpt"));
    assert_eq!(s.name, "v2fixture");
    assert_eq!(s.generation, 3);
    assert_eq!(s.population.len(), 8);
    assert_eq!(s.settings.seed, 17);
    assert_eq!(s.settings.ga.method, Method::Ga(Selection::Tournament(3)));
    assert_eq!(
        s.settings.ga.mutation,
        Mutation::Gauss {
            sigma: 800,
            genes: 3
        }
    );
    assert_eq!(s.settings.ga.hall_of_fame, 2);
    let gens: Vec<u64> = s.history.iter().map(|h| h.generation).collect();
    assert_eq!(gens, [1, 2, 3]);
    assert!(s.history.iter().all(|h| h.measure.is_some()));
    assert!(s.history[2].duel.is_some_and(|d| d.replaced));
    assert_eq!(s.hall.len(), 2);
    // Format 2 did not record the best so far's changes: only the last is known.
    assert!(s.bests.is_empty());
    assert_eq!(s.bests_by_generation(), vec![None, None, s.best_so_far]);
}

/// Resumes the format-2 generation 2 in a session folder; returns the folder.
fn resume_format_2(t: &Tmp) -> std::path::PathBuf {
    let dir = t.session("v2fixture");
    std::fs::create_dir_all(&dir).unwrap();
    let from = dir.join("gen-00002.ckpt");
    std::fs::copy(repo("tests/data/checkpoint-v2-gen2.ckpt"), &from).unwrap();
    stdout_ok(
        &resume_cmd(t, Some(&from), true, &["--generations", "3"])
            .output()
            .unwrap(),
    );
    dir
}

#[test]
fn resuming_a_format_2_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat2");
    let dir = resume_format_2(&t);
    let ours = load(&dir.join("gen-00003.ckpt"));
    let theirs = load(&repo("tests/data/checkpoint-v2-gen3.ckpt"));
    assert_eq!(ours.generation, 3);
    assert_eq!(ours.settings, theirs.settings, "settings");
    assert_eq!(ours.population, theirs.population, "next population");
    assert_eq!(ours.last, theirs.last, "generation 3's results");
    assert_eq!(ours.best_so_far, theirs.best_so_far, "best so far");
    assert_eq!(ours.hall, theirs.hall, "hall of fame");
    assert_eq!(ours.history.len(), 3);
    for (a, b) in ours.history.iter().zip(&theirs.history) {
        let (mut a, mut b) = (a.clone(), b.clone());
        a.seconds = 0.0;
        b.seconds = 0.0;
        assert_eq!(a, b, "history of generation {}", a.generation);
    }
    // Generation 3 was played by this build: its change of the best so far is recorded.
    assert_eq!(ours.bests, vec![(3, ours.best_so_far.unwrap())]);
    // The new checkpoint is of the current format, its history in the folder's history file
    // (the two generations of the format-2 checkpoint, then generation 3).
    let bytes = std::fs::read(dir.join("gen-00003.ckpt")).unwrap();
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        store::CHECKPOINT_VERSION
    );
    let alone = store::decode_checkpoint(Path::new("x"), &bytes).unwrap();
    assert!(alone.history.is_empty());
    assert!(dir.join(store::HISTORY_FILE).is_file());
    // The format-2 checkpoint still loads, with its own history.
    assert_eq!(load(&dir.join("gen-00002.ckpt")).history.len(), 2);
}

/// `history --elo` of a session continued from format 2: the generations before the change of
/// format take their best so far from their checkpoints, so a pruned one is left out.
#[test]
fn history_elo_of_a_session_continued_from_format_2() {
    let t = Tmp::new("compat2elo");
    let dir = resume_format_2(&t);
    std::fs::write(
        t.0.join("ref.json"),
        checkers_ga::weightfile::weights_to_json(&checkers_ga::Weights::thesis([50; 60])),
    )
    .unwrap();
    let elo = |t: &Tmp| {
        stdout_ok(&run(
            &t.0,
            &[
                "history",
                dir.to_str().unwrap(),
                "--elo",
                "--games",
                "2",
                "--reference",
                "ref.json",
                "--seed",
                "1",
            ],
        ))
    };
    // Per table row: whether it has an Elo against the reference (a second `+/-` after the
    // yardstick's).
    let measured = |out: &str| -> Vec<bool> {
        out.lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.matches("+/-").count() == 2)
            .collect()
    };
    // Generation 2 from its checkpoint; generation 1 (whose checkpoint was never in the folder)
    // from generation 2, which did not change the best so far; generation 3 from the history.
    let out = elo(&t);
    assert!(!out.contains("left out"), "{out}");
    assert_eq!(measured(&out), [true, true, true], "{out}");
    // Without generation 2's checkpoint neither 1 nor 2 can be told.
    std::fs::remove_file(dir.join("gen-00002.ckpt")).unwrap();
    let out = elo(&t);
    assert!(out.contains("(2 generation(s) left out"), "{out}");
    assert_eq!(measured(&out), [false, false, true], "{out}");
}

/// Copies generation 2 of the session `name` in `tests/data/FOLDER/` (and its history file,
/// which runs on to generation 3) into a session folder of `t`; returns the folder.
fn fixture_folder(t: &Tmp, name: &str, folder: &str) -> std::path::PathBuf {
    let dir = t.session(name);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["gen-00002.ckpt", store::HISTORY_FILE] {
        std::fs::copy(repo(&format!("tests/data/{folder}/{f}")), dir.join(f)).unwrap();
    }
    dir
}

/// Resumes the fixture session of `tests/data/FOLDER/` (as [`fixture_folder`] puts it) from
/// generation 2 to 3 and asserts that generation 3 is the one its build wrote, now in the
/// current format; returns the session folder.
fn resumed_as_its_build(t: &Tmp, name: &str, folder: &str) -> std::path::PathBuf {
    let dir = fixture_folder(t, name, folder);
    stdout_ok(
        &resume_cmd(
            t,
            Some(&dir.join("gen-00002.ckpt")),
            true,
            &["--generations", "3"],
        )
        .output()
        .unwrap(),
    );
    let ours = load(&dir.join("gen-00003.ckpt"));
    let theirs = load(&repo(&format!("tests/data/{folder}/gen-00003.ckpt")));
    assert_eq!(ours.settings, theirs.settings, "settings");
    assert_eq!(ours.population, theirs.population, "next population");
    assert_eq!(ours.steps, theirs.steps, "step sizes");
    assert_eq!(ours.last, theirs.last, "generation 3's results");
    assert_eq!(ours.best_so_far, theirs.best_so_far, "best so far");
    assert_eq!(ours.hall, theirs.hall, "hall of fame");
    assert_eq!(ours.bests, theirs.bests, "changes of the best so far");
    for (a, b) in ours.history.iter().zip(&theirs.history) {
        let (mut a, mut b) = (a.clone(), b.clone());
        a.seconds = 0.0;
        b.seconds = 0.0;
        assert_eq!(a, b, "history of generation {}", a.generation);
    }
    let bytes = std::fs::read(dir.join("gen-00003.ckpt")).unwrap();
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        store::CHECKPOINT_VERSION
    );
    dir
}

#[test]
fn a_format_3_checkpoint_loads_as_a_session_that_never_fits() {
    let s = load(&repo("tests/data/checkpoint-v3/gen-00003.ckpt"));
    assert_eq!(s.name, "v3fixture");
    assert_eq!(s.generation, 3);
    assert_eq!(s.settings.seed, 23);
    assert_eq!(s.settings.ga.params.to_string(), "net66:2");
    assert_eq!(
        s.settings.ga.mutation,
        Mutation::Layered {
            sigma: 800,
            genes: 3
        }
    );
    assert_eq!(s.settings.ga.fit_every, 0);
    assert_eq!(s.history.len(), 3);
    assert!(s.history.iter().all(|h| h.measure.is_some()));
    assert_eq!(s.hall.len(), 2);
}

#[test]
fn resuming_a_format_3_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat3");
    let dir = resumed_as_its_build(&t, "v3fixture", "checkpoint-v3");
    // The format-3 checkpoint still loads beside the new one.
    assert_eq!(load(&dir.join("gen-00002.ckpt")).generation, 2);
}

#[test]
fn a_format_4_checkpoint_loads_as_a_session_that_fits_to_every_game() {
    let s = load(&repo("tests/data/checkpoint-v4/gen-00003.ckpt"));
    assert_eq!(s.name, "v4fixture");
    assert_eq!(s.generation, 3);
    assert_eq!(s.settings.seed, 29);
    assert_eq!(s.settings.ga.params.to_string(), "net66:2");
    assert_eq!(s.settings.ga.fit_every, 1);
    assert_eq!(s.settings.ga.fit_top, 0);
    assert_eq!(s.steps.len(), 8, "the adaptive steps");
    assert_eq!(s.history.len(), 3);
}

#[test]
fn resuming_a_format_4_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat4");
    let dir = resumed_as_its_build(&t, "v4fixture", "checkpoint-v4");
    // The format-4 checkpoint still loads beside the new one.
    assert_eq!(load(&dir.join("gen-00002.ckpt")).generation, 2);
}

#[test]
fn resuming_a_format_5_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat5");
    let dir = resumed_as_its_build(&t, "v5fixture", "checkpoint-v5");
    // Format 5 is a session of our own engine; it still loads beside the new one.
    let old = load(&dir.join("gen-00002.ckpt"));
    assert_eq!((old.generation, old.settings.engine.is_none()), (2, true));
}

#[test]
fn resuming_a_format_6_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat6");
    let dir = resumed_as_its_build(&t, "v6fixture", "checkpoint-v6");
    // Format 6 had no replay: it loads as a session whose fit learns from its own games.
    let old = load(&dir.join("gen-00002.ckpt"));
    assert_eq!(old.generation, 2);
    assert_eq!(old.settings.ga.fit_replay, 0);
    assert!(old.replay.is_empty());
}

#[test]
fn resuming_a_format_7_checkpoint_gives_what_its_build_gave() {
    let t = Tmp::new("compat7");
    let dir = resumed_as_its_build(&t, "v7fixture", "checkpoint-v7");
    // Format 7 had no centre: it loads as a session of another selection than the mean.
    let old = load(&dir.join("gen-00002.ckpt"));
    assert_eq!(old.generation, 2);
    assert_eq!(old.settings.ga.fit_replay, 2);
    assert!(!old.replay.is_empty());
    assert!(old.centre.is_none());
    assert!(load(&dir.join("gen-00003.ckpt")).centre.is_none());
}

/// A one-file tuner's session on the simulator in `tests/data/FOLDER/`: `mid.ckpt`, its
/// checkpoint partway (the run stopped by Ctrl-C), and `end.ckpt`, where its build's `resume`
/// took it. Resumed here from `mid.ckpt` (as checkpoint `file` of session `name`), it ends where
/// its build ended: the same answer, and the same points in its history.
fn one_file_resumed_as_its_build(folder: &str, name: &str, file: &str) {
    let t = Tmp::new(folder);
    let dir = t.session(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mid = repo(&format!("tests/data/{folder}/mid.ckpt"));
    std::fs::copy(&mid, dir.join(file)).unwrap();
    let open = |path: &Path| match store::open(path.to_str(), &t.pops()).unwrap() {
        store::Opened::OneFile { session, .. } => session,
        store::Opened::Ga(_) => panic!("{}: a GA checkpoint", path.display()),
    };
    let before = open(&mid);
    let theirs = open(&repo(&format!("tests/data/{folder}/end.ckpt")));
    assert!(
        before.history().points.len() < theirs.history().points.len(),
        "the fixture's run stopped partway"
    );
    stdout_ok(&t.cmd(&["resume", name, "--threads", "1"]).output().unwrap());
    let ours = open(&dir.join(file));
    assert_eq!(ours.answer(), theirs.answer(), "the answer");
    type Point = (u64, u64, Vec<f64>, Vec<(&'static str, f64)>);
    let points = |s: &dyn store::OneFileSession| -> Vec<Point> {
        let h = s.history();
        h.points
            .iter()
            .map(|p| (p.step, p.games, p.values.clone(), p.extra.clone()))
            .collect()
    };
    assert_eq!(points(&*ours), points(&*theirs), "the history");
}

/// SPSA's format 1 (before the faults were counted): `spsa --engine sim:6 --games 200000
/// --pairs 4 --seed 7 --name spsa1fixture`, stopped by Ctrl-C and resumed, by its build.
#[test]
fn resuming_a_format_1_spsa_checkpoint_gives_what_its_build_gave() {
    one_file_resumed_as_its_build("spsa-v1", "spsa1fixture", checkers_ga::SPSA_FILE);
}

/// CMA-ES's format 1 (before generations in flight): `cmaes --engine sim:12 --games 200000
/// --seed 7 --name cmaes1fixture`, stopped by Ctrl-C and resumed, by its build.
#[test]
fn resuming_a_format_1_cmaes_checkpoint_gives_what_its_build_gave() {
    one_file_resumed_as_its_build("cmaes-v1", "cmaes1fixture", checkers_ga::CMAES_FILE);
}

/// CMA-ES's format 2 (before uncertainty handling; 3 generations in flight, 2 of them asked for
/// ahead in the stopped checkpoint): `cmaes --engine sim:12 --games 40000 --seed 7 --name
/// cmaes2fixture`, stopped by Ctrl-C and resumed, by its build (813b5e1).
#[test]
fn resuming_a_format_2_cmaes_checkpoint_gives_what_its_build_gave() {
    one_file_resumed_as_its_build("cmaes-v2", "cmaes2fixture", checkers_ga::CMAES_FILE);
}
