//! Broken checkpoints: `checkers-ga resume FILE` must fail with exit code 1 and one line on
//! stderr, `error: ...`, naming the file and the problem, never a panic; and
//! `store::decode_checkpoint` must return the matching error for the same bytes. Among them,
//! crafted checkpoints with a valid checksum: a huge session-name length (the decoder must not
//! allocate it), settings no user could give (a transposition table of 2^30 entries), counts
//! that overflow.
//!
//! Checkpoint layout (src/output/store/checkpoint.rs): magic `CKGACKPT` (0..8), format version u32 LE
//! (8..12), payload length u64 LE (12..20), FNV-1a checksum u64 LE (20..28), bincode payload
//! (28..), which starts with the session name (a varint length, then the bytes).

mod common;

use checkers_ga::store;
use checkers_ga::GaState;
use common::{load, new_cmd, repo, resume_cmd, Tmp};
use std::path::{Path, PathBuf};

const HEADER: usize = 28;

/// A real checkpoint (generation 2 of a tiny session) made by the binary.
fn real_checkpoint(t: &Tmp) -> PathBuf {
    let args = [
        "--population",
        "4",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--generations",
        "2",
    ];
    let out = new_cmd(t, 7, "real", true, &args)
        .output()
        .expect("run checkers-ga");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let p = t.ckpt("real", 2);
    load(&p); // a fresh checkpoint loads
    p
}

fn real_bytes() -> Vec<u8> {
    let t = Tmp::new("real");
    std::fs::read(real_checkpoint(&t)).unwrap()
}

fn weight_file_text() -> String {
    checkers_ga::weightfile::weights_to_json(&checkers_ga::Weights::thesis([100; 60]))
}

/// FNV-1a 64, as in the checkpoint header (to forge payloads with a valid checksum).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Replaces the payload of checkpoint bytes, with matching length and checksum.
fn with_payload(real: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut b = real[..HEADER].to_vec();
    b[12..20].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    b[20..28].copy_from_slice(&fnv(payload).to_le_bytes());
    b.extend_from_slice(payload);
    b
}

/// The broken files: (name, file name, bytes, what the message must say).
fn cases() -> Vec<(&'static str, &'static str, Vec<u8>, &'static str)> {
    let real = real_bytes();
    assert_eq!(&real[..8], b"CKGACKPT");
    assert_eq!(
        u32::from_le_bytes(real[8..12].try_into().unwrap()),
        store::CHECKPOINT_VERSION
    );
    assert_eq!(
        u64::from_le_bytes(real[12..20].try_into().unwrap()) as usize,
        real.len() - HEADER
    );

    let truncated = real[..real.len() / 2].to_vec();
    let mut flipped = real.clone();
    flipped[HEADER + (real.len() - HEADER) / 2] ^= 0x08;
    let mut magic = real.clone();
    magic[..8].copy_from_slice(b"CKGACKPX");
    let mut newer = real.clone();
    newer[8..12].copy_from_slice(&99u32.to_le_bytes());
    let mut older = real.clone();
    older[8..12].copy_from_slice(&0u32.to_le_bytes());
    let mut trailing = real.clone();
    trailing.extend_from_slice(b"extra");
    let mut long_len = real.clone();
    long_len[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
    let mut bad_sum = real.clone();
    bad_sum[20] ^= 0x01;
    let garbage = with_payload(&real, &[0xff; 64]);
    let short_payload = with_payload(&real, &real[HEADER..real.len() - 10]);
    // A valid session whose population does not match its settings.
    let session = store::decode_checkpoint(Path::new("real"), &real).unwrap();
    let crafted = |edit: &dyn Fn(&mut GaState)| {
        let mut s = session.clone();
        edit(&mut s);
        store::encode_checkpoint(&s).unwrap()
    };
    let mismatch = crafted(&|s| {
        s.population.pop();
    });
    // The name's length as a bincode varint: 253, then a u64 LE.
    let name_len = |n: u64| {
        let payload = &real[HEADER..];
        assert_eq!(payload[0] as usize, "real".len());
        let mut p = vec![253];
        p.extend_from_slice(&n.to_le_bytes());
        p.extend_from_slice(&payload[1..]);
        with_payload(&real, &p)
    };
    let table30 = crafted(&|s| s.settings.search.tt_log2 = 30);
    let count_overflow = crafted(&|s| {
        s.last[1].1.wins_black = u32::MAX;
        s.last[1].1.draws_white = 1;
    });
    let generation = crafted(&|s| s.generation = u64::MAX);
    let elapsed = crafted(&|s| s.elapsed = f64::NAN);
    let population = crafted(&|s| s.settings.population = 1 << 40);
    let hall = crafted(&|s| s.hall = vec![s.population[0]; 5000].into());

    vec![
        ("empty", "gen-00001.ckpt", Vec::new(), "the file is empty"),
        ("truncated", "gen-00002.ckpt", truncated, "truncated"),
        (
            "bit-flipped",
            "gen-00003.ckpt",
            flipped,
            "checksum mismatch",
        ),
        ("wrong magic", "gen-00004.ckpt", magic, "wrong magic"),
        (
            "newer version",
            "gen-00005.ckpt",
            newer,
            "format version 99 is newer",
        ),
        (
            "weight file",
            "material.json",
            weight_file_text().into_bytes(),
            "looks like a weight file",
        ),
        // More of the same family.
        (
            "truncated header",
            "gen-00006.ckpt",
            real[..12].to_vec(),
            "truncated header",
        ),
        (
            "magic only",
            "gen-00007.ckpt",
            b"CKGACKPT".to_vec(),
            "truncated header",
        ),
        (
            "old version",
            "gen-00008.ckpt",
            older,
            "unknown format version 0",
        ),
        (
            "trailing bytes",
            "gen-00009.ckpt",
            trailing,
            "trailing bytes",
        ),
        ("length field", "gen-00010.ckpt", long_len, "truncated"),
        (
            "checksum field",
            "gen-00011.ckpt",
            bad_sum,
            "checksum mismatch",
        ),
        (
            "garbage payload",
            "gen-00012.ckpt",
            garbage,
            "cannot decode",
        ),
        (
            "short payload",
            "gen-00013.ckpt",
            short_payload,
            "cannot decode",
        ),
        (
            "population mismatch",
            "gen-00014.ckpt",
            mismatch,
            "population size",
        ),
        (
            "huge name length",
            "gen-00015.ckpt",
            name_len(68_719_476_736),
            "cannot decode",
        ),
        (
            "name length u64::MAX",
            "gen-00016.ckpt",
            name_len(u64::MAX),
            "cannot decode",
        ),
        (
            "table size 30",
            "gen-00017.ckpt",
            table30,
            "transposition table of 2^30 entries",
        ),
        (
            "count overflow",
            "gen-00018.ckpt",
            count_overflow,
            "game counts of individual 2 add up to more than 4294967295",
        ),
        (
            "generation overflow",
            "gen-00019.ckpt",
            generation,
            "beyond any session",
        ),
        ("elapsed NaN", "gen-00020.ckpt", elapsed, "elapsed time NaN"),
        (
            "population setting",
            "gen-00021.ckpt",
            population,
            "population 1099511627776 must be",
        ),
        (
            "hall of fame",
            "gen-00022.ckpt",
            hall,
            "hall of fame has 5000",
        ),
        (
            "original population file",
            "pop.txt",
            b"60 4 1 0 4 8 0.3 0 1 40\n1 2 3\n".to_vec(),
            "looks like a file of the original tool",
        ),
        ("text", "notes.txt", b"hello\n".to_vec(), "wrong magic"),
    ]
}

/// Runs `checkers-ga resume FILE` and checks the failure; returns the error line.
fn resume_fails(t: &Tmp, file: &Path, expect: &str, case: &str) -> String {
    let out = resume_cmd(t, Some(file), true, &[])
        .output()
        .expect("run checkers-ga");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!err.contains("panicked"), "{case}: panic:\n{err}");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{case}: exit code\nstdout:\n{stdout}\nstderr:\n{err}"
    );
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "{case}: expected one line on stderr:\n{err}"
    );
    let line = lines[0];
    assert!(line.starts_with("error:"), "{case}: {line}");
    assert!(
        line.contains(&file.display().to_string()),
        "{case}: the message does not name {}: {line}",
        file.display()
    );
    assert!(
        line.contains(expect),
        "{case}: expected '{expect}' in: {line}"
    );
    line.to_string()
}

#[test]
fn resume_of_a_broken_checkpoint_fails_with_one_line() {
    let t = Tmp::new("cli");
    let dir = t.0.join("broken");
    std::fs::create_dir_all(&dir).unwrap();
    for (case, file, bytes, expect) in cases() {
        let p = dir.join(file);
        std::fs::write(&p, &bytes).unwrap();
        resume_fails(&t, &p, expect, case);
        // The broken file is left as it was and nothing new is written next to it.
        assert_eq!(std::fs::read(&p).unwrap(), bytes, "{case}: file changed");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec![file.to_string()], "{case}: files written");
        std::fs::remove_file(&p).unwrap();
    }
    assert!(!t.weights().exists(), "no weights written");
}

/// The weight file the repository ships is recognised as such.
#[test]
fn resume_of_the_shipped_material_weights_fails_with_one_line() {
    // A committed file: its absence is a failure, not a reason to skip.
    let p = repo("weights/material.json");
    assert!(p.exists(), "{} is missing", p.display());
    let t = Tmp::new("material");
    let line = resume_fails(&t, &p, "wrong magic", "weights/material.json");
    assert!(line.contains("weight file"), "{line}");
}

/// A path that does not exist.
#[test]
fn resume_of_a_missing_file_fails_with_one_line() {
    let t = Tmp::new("missing");
    let p = t.0.join("nowhere").join("gen-00001.ckpt");
    resume_fails(&t, &p, "gen-00001.ckpt", "missing file");
}

#[test]
fn decode_checkpoint_reports_each_problem() {
    for (case, file, bytes, expect) in cases() {
        let path = PathBuf::from("some/folder").join(file);
        let e = match store::decode_checkpoint(&path, &bytes) {
            Ok(_) => panic!("{case}: decoded"),
            Err(e) => e,
        };
        assert_eq!(e.path, path, "{case}");
        assert!(e.problem.contains(expect), "{case}: '{}'", e.problem);
        let msg = e.to_string();
        assert!(msg.contains("some/folder"), "{case}: {msg}");
        assert!(msg.contains(file), "{case}: {msg}");
        assert!(!msg.contains('\n'), "{case}: more than one line: {msg}");
    }
}

#[test]
fn load_checkpoint_reports_each_problem_with_the_path() {
    let t = Tmp::new("load");
    for (case, file, bytes, expect) in cases() {
        let p = t.0.join(file);
        std::fs::write(&p, &bytes).unwrap();
        let e = store::load_checkpoint(&p)
            .err()
            .unwrap_or_else(|| panic!("{case}: loaded"));
        assert_eq!(e.path, p, "{case}");
        assert!(e.problem.contains(expect), "{case}: '{}'", e.problem);
        assert!(e.to_string().contains(&p.display().to_string()), "{case}");
    }
    let e = store::load_checkpoint(&t.0.join("absent.ckpt")).unwrap_err();
    assert!(e.problem.contains("cannot read"), "{}", e.problem);
}

/// Every single-bit flip anywhere in a (small) checkpoint, header or payload, is rejected.
#[test]
fn every_bit_flip_is_detected() {
    let real = real_bytes();
    let path = Path::new("flip.ckpt");
    for i in 0..real.len() {
        for bit in 0..8 {
            let mut b = real.clone();
            b[i] ^= 1 << bit;
            assert!(
                store::decode_checkpoint(path, &b).is_err(),
                "flipping bit {bit} of byte {i} went unnoticed"
            );
        }
    }
}

/// Round trip: a checkpoint loaded with its history re-encodes to the same bytes; decoded
/// alone, it holds the same session without the history.
#[test]
fn a_good_checkpoint_round_trips() {
    let t = Tmp::new("roundtrip");
    let p = real_checkpoint(&t);
    let real = std::fs::read(&p).unwrap();
    let s = load(&p);
    assert_eq!(store::encode_checkpoint(&s).unwrap(), real);
    assert_eq!(s.generation, 2);
    assert_eq!(s.population.len(), 4);
    assert_eq!(s.history.len(), 2);
    let alone = store::decode_checkpoint(Path::new("x"), &real).expect("decodes");
    assert!(alone.history.is_empty());
    assert_eq!(
        GaState {
            history: s.history.clone(),
            bests: s.bests.clone(),
            ..alone
        },
        s
    );
}

/// The bound `new` and `resume` check against (`largest_checkpoint`) holds for the largest
/// checkpoint of its settings: every weight at the end of the range, a full hall of fame.
#[test]
fn no_checkpoint_is_larger_than_its_settings_allow() {
    let t = Tmp::new("largest");
    let s = load(&real_checkpoint(&t));
    for set in ["net66:8", "board:4", "thesis60"] {
        let set: checkers_ga::ParamSet = set.parse().unwrap();
        let mut w = checkers_ga::Weights::zero_of(set);
        w.values_mut().fill(i16::MIN);
        let mut big = s.clone();
        big.settings.ga.params = set;
        big.settings.ga.hall_of_fame = 3;
        big.population.fill(w);
        for l in &mut big.last {
            l.0 = w;
        }
        big.best_so_far = Some(w);
        for _ in 0..3 {
            big.hall.update(w, 3);
        }
        let bytes = store::encode_checkpoint(&big).unwrap().len();
        let most = store::largest_checkpoint(&big.settings);
        assert!(bytes <= most, "{set}: {bytes} bytes, bound {most}");
        assert!(
            most < 4 * bytes + (100 << 10),
            "{set}: bound {most} far above {bytes}"
        );
    }
}

/// `show` and `history` read checkpoints too: the same one-line errors for every broken
/// checkpoint (the cases that start with the checkpoint magic).
#[test]
fn show_and_history_of_a_broken_checkpoint_fail_with_one_line() {
    let t = Tmp::new("show");
    for (case, file, bytes, expect) in cases() {
        if !bytes.starts_with(b"CKGACKPT") {
            continue;
        }
        let p = t.0.join(file);
        std::fs::write(&p, &bytes).unwrap();
        for cmd in ["show", "history"] {
            let out = common::run(&t.0, &[cmd, p.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.contains("panicked"), "{cmd} {case}: {err}");
            common::assert_error(&out, &[file, expect]);
        }
        std::fs::remove_file(&p).unwrap();
    }
}

/// A history file record no run could write (a measurement of 2^33 games): the checkpoint that
/// goes with it fails to load with one line naming both files; `resume` goes on from the sound
/// checkpoint with the records before it, and says in one line what was lost.
#[test]
fn a_crafted_history_record_is_a_one_line_error() {
    let t = Tmp::new("histrec");
    let p = real_checkpoint(&t);
    let mut s = load(&p);
    s.history[1].measure = Some(checkers_ga::matchplay::Wdl {
        wins: u32::MAX,
        draws: u32::MAX,
        losses: 2,
    });
    let dir = t.session("crafted");
    let written = store::save_checkpoint(&dir, &s, store::Keep::ALL).unwrap();
    let e = store::load_checkpoint(&written).unwrap_err();
    assert!(e.problem.contains("more than 312 games"), "{e}");
    assert!(e.problem.contains("history.bin"), "{e}");
    let out = resume_cmd(&t, Some(&written), true, &["--force"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let err = common::text(&out.stderr);
    let warned: Vec<&str> = err.lines().filter(|l| l.contains("history.bin")).collect();
    assert_eq!(warned.len(), 1, "{err}");
    for needle in [
        "warning: ",
        "more than 312 games",
        "generations 1 to 1 kept",
    ] {
        assert!(warned[0].contains(needle), "{needle}: {err}");
    }
}

/// The history file decoder, on every truncation of a real history file and every single-byte
/// edit of its first records: an error or a decoded history, never a panic.
#[test]
fn the_history_decoder_survives_truncation_and_edits() {
    let t = Tmp::new("histdec");
    let p = real_checkpoint(&t);
    let bytes = std::fs::read(t.session("real").join(store::HISTORY_FILE)).unwrap();
    let (h, _) = store::decode_history(&bytes, "h").unwrap();
    assert_eq!(h.len(), load(&p).history.len());
    // A cut inside the header or inside a record is an error; at a record boundary, fewer
    // records.
    let mut whole_records = 0;
    for n in 0..bytes.len() {
        match store::decode_history(&bytes[..n], "h") {
            Ok((fewer, _)) => {
                assert!(n >= 12 && fewer.len() < h.len(), "cut at {n}");
                whole_records += 1;
            }
            Err(e) => assert!(e.0.contains("truncated") || e.0.contains("torn"), "{e}"),
        }
    }
    assert_eq!(whole_records, h.len(), "one clean cut per record boundary");
    for i in 0..bytes.len() {
        for v in [0u8, 1, 0x7f, 0xfb, 0xfc, 0xfd, 0xfe, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            if let Err(e) = store::decode_history(&b, "h") {
                assert!(!e.0.contains('\n'), "{e}");
            }
        }
    }
}
