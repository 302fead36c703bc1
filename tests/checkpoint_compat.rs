//! Checkpoints written before the GA options existed (format 1) still load, and a session
//! resumed from one continues exactly as the build that wrote it would have.
//!
//! `tests/data/checkpoint-v1-gen2.ckpt` and `-gen3.ckpt` are generations 2 and 3 of one session
//! (`new --population 8 --depth 1 --generations 3 --seed 11 --name v1fixture`) written by the
//! format-1 build.

mod common;

use checkers_ga::ga::GaOptions;
use common::{load, repo, resume_cmd, stdout_ok, Tmp};

#[test]
fn a_format_1_checkpoint_loads_with_the_original_operators() {
    let s = load(&repo("tests/data/checkpoint-v1-gen3.ckpt"));
    assert_eq!(s.name, "v1fixture");
    assert_eq!(s.generation, 3);
    assert_eq!(s.history.len(), 3);
    assert_eq!(s.population.len(), 8);
    assert_eq!(s.settings.seed, 11);
    assert_eq!(s.settings.search.depth, 1);
    assert_eq!(s.settings.ga, GaOptions::default());
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
