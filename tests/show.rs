//! `checkers-ga show`: snapshot tests of its output for every accepted input kind, and one
//! test per bad input (one line on stderr, `error: ...`, exit code 1, never a panic).
//!
//! The inputs are made by the test from fixed numbers (no engine run, no clock), so the
//! snapshots in tests/data/show/ only change when the table itself or the parameter names and
//! descriptions change. To regenerate them after an intended change, run
//! `UPDATE_SNAPSHOTS=1 cargo test --test show` and review the diff before committing.

mod common;

use checkers_ga::store;
use checkers_ga::Standing;
use checkers_ga::Weights;
use checkers_ga::{Duel, GaState, GenerationStats};
use common::{repo, run, settings, stdout_ok, vector, Tmp};
use std::path::{Path, PathBuf};
use std::process::Output;

fn standing(points: u32, black: (u32, u32, u32), white: (u32, u32, u32)) -> Standing {
    Standing {
        points,
        wins_black: black.0,
        draws_black: black.1,
        losses_black: black.2,
        wins_white: white.0,
        draws_white: white.1,
        losses_white: white.2,
    }
}

fn stats(g: u64, best: u32, duel: Option<Duel>) -> GenerationStats {
    GenerationStats {
        generation: g,
        best,
        mean: 6.0,
        min: 2,
        diversity: 0.3,
        duel,
        games: 12,
        plies: 600,
        seconds: 1.5,
        measure: None,
        faults: 0,
        time: None,
    }
}

/// A session after 2 generations of 4 individuals, every number fixed.
fn snap_session() -> GaState {
    let pop: Vec<Weights> = (1..=4).map(vector).collect();
    let mut s = GaState::with_population("snap", settings(4, 2, 1), pop.clone());
    s.generation = 2;
    s.last = vec![
        (pop[0], standing(8, (2, 1, 0), (1, 1, 1))),
        (pop[1], standing(4, (1, 0, 2), (0, 2, 1))),
        (pop[2], standing(9, (2, 0, 1), (2, 1, 0))),
        (pop[3], standing(3, (0, 1, 2), (1, 0, 2))),
    ];
    s.best_so_far = Some(pop[2]);
    s.history = vec![
        stats(1, 8, None),
        stats(
            2,
            9,
            Some(Duel {
                challenger: 3,
                holder: 1,
                replaced: true,
            }),
        ),
    ]
    .into();
    s
}

/// The checkpoint of [`snap_session`] at `dir/snap/gen-00002.ckpt`.
fn snap_checkpoint(dir: &Path) -> PathBuf {
    store::save_checkpoint(&dir.join("snap"), &snap_session(), store::Keep::ALL)
        .expect("save checkpoint")
}

/// Compares with tests/data/show/NAME, or writes it with UPDATE_SNAPSHOTS=1.
fn snapshot(name: &str, actual: &str) {
    let path = repo("tests/data/show").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (UPDATE_SNAPSHOTS=1 cargo test --test show writes it)",
            path.display()
        )
    });
    assert!(
        actual == expected,
        "show output differs from {}; if intended, regenerate with UPDATE_SNAPSHOTS=1 and review \
         the diff\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
    // Not on a terminal, descriptions are whole: no row is cut short with "...".
    for l in actual.lines() {
        assert!(!l.ends_with("..."), "a cut row: {l}");
    }
}

/// [`common::assert_error`], and no panic.
fn assert_error(out: &Output, needles: &[&str]) {
    common::assert_error(out, needles);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

fn original_population() -> String {
    let mut s = String::from("60 4 7 0 4 8 0.3 0 7 40\n");
    for k in 11..=14 {
        let v: Vec<String> = vector(k).values().iter().map(|x| x.to_string()).collect();
        s.push_str(&v.join(" "));
        s.push('\n');
    }
    s
}

#[test]
fn json_weight_file() {
    let t = Tmp::new("json");
    let text =
        checkers_ga::weightfile::weights_to_json_with_comment(&vector(5), Some("snapshot input"));
    t.write("weights.json", text.as_bytes());
    snapshot(
        "json.txt",
        &stdout_ok(&run(&t.0, &["show", "weights.json"])),
    );
}

#[test]
fn json_weight_file_sorted() {
    let t = Tmp::new("sorted");
    t.write(
        "weights.json",
        checkers_ga::weightfile::weights_to_json(&vector(5)).as_bytes(),
    );
    let by_abs = stdout_ok(&run(&t.0, &["show", "weights.json", "--sort", "abs"]));
    snapshot("json-sort-abs.txt", &by_abs);
    let by_weight = stdout_ok(&run(&t.0, &["show", "weights.json", "--sort", "weight"]));
    snapshot("json-sort-weight.txt", &by_weight);
}

#[test]
fn csv_weight_file() {
    let t = Tmp::new("csv");
    t.write(
        "weights.csv",
        checkers_ga::formats::to_csv(&vector(6)).as_bytes(),
    );
    snapshot("csv.txt", &stdout_ok(&run(&t.0, &["show", "weights.csv"])));
}

#[test]
fn checkpoint_best_so_far() {
    let t = Tmp::new("ckbest");
    snap_checkpoint(&t.0);
    let out = stdout_ok(&run(&t.0, &["show", "snap/gen-00002.ckpt"]));
    assert!(out.starts_with("snap/gen-00002.ckpt: checkpoint, session 'snap', generation 2"));
    snapshot("checkpoint-best.txt", &out);
}

#[test]
fn checkpoint_individual() {
    let t = Tmp::new("ckind");
    snap_checkpoint(&t.0);
    let out = stdout_ok(&run(
        &t.0,
        &["show", "snap/gen-00002.ckpt", "--individual", "2"],
    ));
    assert!(out.contains("individual 2 of 4"), "{out}");
    assert!(
        out.contains("W/D/L as Black 1/0/2, as White 0/2/1"),
        "{out}"
    );
    snapshot("checkpoint-individual-2.txt", &out);
    // Individuals are numbered from 1: the best so far is individual 3 of the population.
    let third = stdout_ok(&run(&t.0, &["show", "snap/gen-00002.ckpt", "-i", "3"]));
    let best = stdout_ok(&run(&t.0, &["show", "snap/gen-00002.ckpt"]));
    let table = |s: &str| s.split_once("\n\n").map(|x| x.1.to_string()).unwrap();
    assert_eq!(table(&third), table(&best));
}

#[test]
fn original_weight_file() {
    let t = Tmp::new("orig");
    t.write(
        "weights.txt",
        checkers_ga::weightfile::weights_to_original(&vector(7)).as_bytes(),
    );
    snapshot(
        "original-weights.txt",
        &stdout_ok(&run(&t.0, &["show", "weights.txt"])),
    );
}

#[test]
fn original_population_file() {
    let t = Tmp::new("pop");
    t.write("population.txt", original_population().as_bytes());
    let first = stdout_ok(&run(&t.0, &["show", "population.txt"]));
    assert!(first.contains("generation 7, individual 1 of 4"), "{first}");
    snapshot("original-population.txt", &first);
    let fourth = stdout_ok(&run(&t.0, &["show", "population.txt", "--individual", "4"]));
    snapshot("original-population-4.txt", &fourth);
}

#[test]
fn descriptions_are_whole_and_fit_100_columns() {
    // On a terminal or not, the table fits 100 columns: long descriptions wrap under
    // themselves, never cut; the class column is explained before the table.
    let t = Tmp::new("width");
    snap_checkpoint(&t.0);
    let out = stdout_ok(&run(&t.0, &["show", "snap/gen-00002.ckpt", "-i", "1"]));
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("own kings in own top rows (the 3 rows nearest the opponent)"),
        "{out}"
    );
    assert!(!out.contains("..."), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
    assert!(out.lines().any(|l| l.contains(" low ")), "{out}");
    let legend = out
        .find("class: |weight| 16384 or more is high")
        .expect("legend");
    let header = out.find("# name").expect("table header");
    assert!(legend < header, "{out}");
}

/// A network's 536 hidden-unit weights are one line per unit unless asked for (`--network`);
/// either way within 100 columns.
#[test]
fn a_network_is_summarised_unless_asked() {
    let t = Tmp::new("net");
    let hour = repo("weights/evolved-hour.json");
    let hour = hour.to_str().unwrap();
    let out = stdout_ok(&run(&t.0, &["show", hour]));
    assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
    assert!(out.lines().count() < 130, "{out}");
    assert!(!out.contains("hidden1.men"), "{out}");
    assert!(out.contains("\n 66 centre_kings"), "{out}");
    assert!(out.contains("\n603 out1"), "{out}");
    let units: Vec<&str> = out.lines().filter(|l| l.starts_with("hidden")).collect();
    assert_eq!(units.len(), 1 + 8, "{out}");
    assert!(units[1].starts_with("hidden1  out   5739  bias"), "{out}");
    let full = stdout_ok(&run(&t.0, &["show", hour, "--network"]));
    assert!(full.lines().all(|l| l.chars().count() <= 100), "{full}");
    assert!(full.contains(" hidden1.men "), "{full}");
    assert!(full.contains(" hidden8.bias "), "{full}");
}

#[test]
fn built_in_names_and_session_folders() {
    let t = Tmp::new("builtin");
    let out = stdout_ok(&run(&t.0, &["show", "material"]));
    assert!(
        out.starts_with("material: built-in weight set (weights/material.json)\n"),
        "{out}"
    );
    assert!(
        out.contains("\n 1 men                           100 low   own men\n"),
        "{out}"
    );
    let thesis = stdout_ok(&run(&t.0, &["show", "thesis"]));
    assert!(thesis.contains("weights/thesis-table-4-2.json"), "{thesis}");
    let r1 = stdout_ok(&run(&t.0, &["show", "random", "--seed", "4"]));
    let r2 = stdout_ok(&run(&t.0, &["show", "random", "--seed", "4"]));
    assert_eq!(r1, r2);
    assert!(r1.starts_with("random: random weights, seed 4\n"), "{r1}");
    assert_ne!(
        r1,
        stdout_ok(&run(&t.0, &["show", "random", "--seed", "5"]))
    );
    // A session folder: its newest checkpoint's best so far.
    snap_checkpoint(&t.0);
    let folder = stdout_ok(&run(&t.0, &["show", "snap"]));
    let file = stdout_ok(&run(&t.0, &["show", "snap/gen-00002.ckpt"]));
    assert_eq!(folder, file);
    // The yardsticks have no weights.
    assert_error(
        &run(&t.0, &["show", "hand"]),
        &["'hand' is a hand-written evaluation function, not a weight vector"],
    );
}

#[test]
fn a_session_name_is_its_folder_under_populations_as_for_resume_and_history() {
    let t = Tmp::new("session-name");
    let populations = t.0.join("populations");
    snap_checkpoint(&populations);
    let by_name = stdout_ok(&run(&t.0, &["show", "snap"]));
    let by_folder = stdout_ok(&run(&t.0, &["show", "populations/snap"]));
    assert_eq!(by_name, by_folder);
    assert!(
        by_name.starts_with("populations/snap/gen-00002.ckpt: checkpoint, session 'snap'"),
        "{by_name}"
    );
    // export takes it too, and match plays it.
    let csv = stdout_ok(&run(&t.0, &["export", "snap", "--format", "csv"]));
    let csv_folder = stdout_ok(&run(&t.0, &["export", "populations/snap", "-f", "csv"]));
    assert_eq!(csv, csv_folder);
    let m = stdout_ok(&run(
        &t.0,
        &[
            "match", "snap", "material", "--depth", "1", "--games", "2", "--quiet",
        ],
    ));
    assert!(m.contains("A: snap  B: material"), "{m}");
    // A file or folder of that name in the working folder comes first.
    std::fs::create_dir(t.0.join("snap")).unwrap();
    assert_error(
        &run(&t.0, &["show", "snap"]),
        &["no checkpoint under 'snap'"],
    );
    // Neither a file nor a session: the error says where it looked.
    assert_error(
        &run(&t.0, &["show", "nosuch"]),
        &["cannot read 'nosuch'", "nor a session under populations/"],
    );
}

// ----- bad input: one line, exit 1 -----

#[test]
fn missing_file() {
    let t = Tmp::new("missing");
    assert_error(
        &run(&t.0, &["show", "no-such-file.json"]),
        &["cannot read 'no-such-file.json'"],
    );
}

#[test]
fn unreadable_folder() {
    let t = Tmp::new("folder");
    std::fs::create_dir_all(t.0.join("sub")).unwrap();
    assert_error(&run(&t.0, &["show", "sub"]), &["no checkpoint under 'sub'"]);
}

#[test]
fn garbage_text_file() {
    let t = Tmp::new("garbage");
    t.write(
        "notes.txt",
        b"hello, this is not a weight file\nsecond line\n",
    );
    assert_error(
        &run(&t.0, &["show", "notes.txt"]),
        &[
            "notes.txt",
            "not a weight file, checkpoint or population file",
            "hello",
        ],
    );
}

#[test]
fn garbage_binary_file() {
    let t = Tmp::new("binary");
    t.write(
        "blob.bin",
        &[0xff, 0xfe, 0x00, 0x81, 0x13, 0x37, 0xc0, 0xde, 0x00],
    );
    assert_error(
        &run(&t.0, &["show", "blob.bin"]),
        &["blob.bin", "binary data"],
    );
}

#[test]
fn empty_file() {
    let t = Tmp::new("empty");
    t.write("empty.json", b"");
    assert_error(
        &run(&t.0, &["show", "empty.json"]),
        &["empty.json", "empty"],
    );
}

#[test]
fn checkpoint_of_a_newer_version() {
    let t = Tmp::new("newer");
    let path = snap_checkpoint(&t.0);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&99u32.to_le_bytes());
    t.write("newer.ckpt", &bytes);
    assert_error(
        &run(&t.0, &["show", "newer.ckpt"]),
        &["newer.ckpt", "version 99", "newer than this build"],
    );
}

#[test]
fn corrupted_checkpoint() {
    let t = Tmp::new("corrupt");
    let path = snap_checkpoint(&t.0);
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x55;
    t.write("bad.ckpt", &bytes);
    assert_error(&run(&t.0, &["show", "bad.ckpt"]), &["bad.ckpt", "checksum"]);
}

#[test]
fn checkpoint_individual_out_of_range() {
    let t = Tmp::new("range");
    snap_checkpoint(&t.0);
    assert_error(
        &run(&t.0, &["show", "snap/gen-00002.ckpt", "--individual", "5"]),
        &["--individual 5 is out of range", "4 individuals", "1..=4"],
    );
    assert_error(
        &run(&t.0, &["show", "snap/gen-00002.ckpt", "--individual", "0"]),
        &["--individual 0 is out of range", "numbered 1..=4"],
    );
}

#[test]
fn population_individual_out_of_range() {
    let t = Tmp::new("poprange");
    t.write("population.txt", original_population().as_bytes());
    assert_error(
        &run(&t.0, &["show", "population.txt", "--individual", "9"]),
        &["--individual 9 is out of range", "population file"],
    );
}

#[test]
fn individual_of_a_plain_weight_file() {
    let t = Tmp::new("plainind");
    t.write(
        "weights.json",
        checkers_ga::weightfile::weights_to_json(&vector(1)).as_bytes(),
    );
    assert_error(
        &run(&t.0, &["show", "weights.json", "--individual", "1"]),
        &["--individual applies to checkpoints and population files"],
    );
}

#[test]
fn malformed_original_files() {
    let t = Tmp::new("badorig");
    t.write("short.txt", b"60 1\n1 2 3\n");
    assert_error(
        &run(&t.0, &["show", "short.txt"]),
        &["short.txt", "expected 60 weights"],
    );
    let mut pop = original_population();
    pop = pop.replacen("60 4 ", "60 5 ", 1);
    t.write("pop.txt", pop.as_bytes());
    assert_error(
        &run(&t.0, &["show", "pop.txt"]),
        &["pop.txt", "header says 5 individuals, found 4"],
    );
    t.write("bad.json", b"{\"weights\": {\"men\": 1}}");
    assert_error(&run(&t.0, &["show", "bad.json"]), &["bad.json", "missing"]);
}

#[test]
fn unknown_sort_order() {
    let t = Tmp::new("sort");
    t.write(
        "weights.json",
        checkers_ga::weightfile::weights_to_json(&vector(1)).as_bytes(),
    );
    common::assert_usage_error(
        &run(&t.0, &["show", "weights.json", "--sort", "name"]),
        &["unknown sort order 'name'", "number, weight, abs or change"],
    );
}
