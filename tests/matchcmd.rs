//! `match`: ballot openings twice with colours swapped, W/D/L, score, the Elo line and the
//! pentanomial counts; the same seed gives the same games at any thread count; an SPRT stops
//! early on a lopsided pair and not on identical engines; `--openings FILE`; Ctrl-C keeps the
//! finished games; bad input is a one-line error.

mod common;

use common::{assert_error, bin, repo, run, stdout_ok, Tmp};
use std::time::{Duration, Instant};

fn match_args<'a>(threads: &'a str, pdn: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "material.json",
        "thesis.json",
        "--depth",
        "2",
        "--games",
        "12",
        "--seed",
        "5",
        "--threads",
        threads,
        "--pdn",
        pdn,
        "--quiet",
    ]
}

fn setup(tag: &str) -> Tmp {
    let t = Tmp::new(tag);
    for (from, to) in [
        ("weights/material.json", "material.json"),
        ("weights/thesis-table-4-2.json", "thesis.json"),
    ] {
        std::fs::copy(repo(from), t.0.join(to)).unwrap();
    }
    t
}

/// Everything but the wall-clock line.
fn without_time(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("time "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn prints_wdl_score_and_elo_and_is_the_same_at_any_thread_count() {
    let t = setup("match");
    let one = stdout_ok(&run(&t.0, &match_args("1", "one.pdn")));
    let wdl = one
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L for A: "))
        .unwrap_or_else(|| panic!("{one}"));
    let n: u32 = wdl.split('/').map(|x| x.parse::<u32>().unwrap()).sum();
    assert_eq!(n, 12, "{one}");
    assert!(one.lines().any(|l| l.starts_with("Score: ")), "{one}");
    let elo = one
        .lines()
        .find(|l| l.starts_with("Elo difference: "))
        .unwrap_or_else(|| panic!("{one}"));
    assert!(elo.contains(" +/- ") && elo.contains(", LOS: ") && elo.ends_with(" %"));

    // Pentanomial counts: 6 pairs, and their points are the games' points.
    let penta = pentanomial(&one);
    assert_eq!(penta.iter().sum::<u32>(), 6, "{one}");
    let half_points: u32 = penta.iter().enumerate().map(|(k, c)| k as u32 * c).sum();
    let w: Vec<u32> = wdl.split('/').map(|x| x.parse().unwrap()).collect();
    assert_eq!(half_points, 2 * w[0] + w[1], "{one}");

    let two = stdout_ok(&run(&t.0, &match_args("2", "two.pdn")));
    assert_eq!(
        without_time(&one).replace("one.pdn", "X"),
        without_time(&two).replace("two.pdn", "X")
    );
    let (p1, p2) = (t.read("one.pdn"), t.read("two.pdn"));
    assert_eq!(p1, p2);
    // 12 games: 6 ballot openings, each twice with colours swapped, recorded from the start.
    assert_eq!(p1.matches("[Event ").count(), 12);
    assert_eq!(p1.matches("[Black \"material\"]").count(), 6);
    assert_eq!(p1.matches("[White \"material\"]").count(), 6);
    assert!(
        p1.contains("1. 9-13 21-17 2. 5-9"),
        "the first ballot opening"
    );
}

#[test]
fn material_beats_the_thesis_set_read_with_this_tools_parameter_definitions() {
    let t = setup("strength");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match",
            "material.json",
            "thesis.json",
            "--depth",
            "3",
            "--games",
            "40",
            "--seed",
            "1",
            "--quiet",
        ],
    ));
    let wdl: Vec<u32> = out
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L for A: "))
        .unwrap()
        .split('/')
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(wdl[0] > 30 && wdl[2] == 0, "{out}");
}

#[test]
fn bad_input_is_a_one_line_error() {
    let t = setup("badmatch");
    assert_error(
        &run(&t.0, &["match", "material.json", "missing.json"]),
        &["missing.json"],
    );
    common::assert_usage_error(
        &run(
            &t.0,
            &["match", "material.json", "thesis.json", "--depth", "0"],
        ),
        &["--depth 0"],
    );
    t.write("garbage.json", b"{ not json");
    assert_error(
        &run(&t.0, &["match", "garbage.json", "thesis.json"]),
        &["garbage.json"],
    );
    assert_error(
        &run(
            &t.0,
            &[
                "match",
                "material.json",
                "thesis.json",
                "--openings",
                "book",
            ],
        ),
        &["--openings 'book'", "not ballot or start"],
    );
    t.write("bad.txt", b"B:W21-32:B1-12\nB:W21-32:B1-12,40\n");
    assert_error(
        &run(
            &t.0,
            &[
                "match",
                "material.json",
                "thesis.json",
                "--openings",
                "bad.txt",
            ],
        ),
        &["bad.txt", "line 2", "40"],
    );
    t.write("bad.pdn", b"[Event \"x\"]\n1. 9-13 22-18 2. 13-18 *\n");
    assert_error(
        &run(
            &t.0,
            &[
                "match",
                "material.json",
                "thesis.json",
                "--openings",
                "bad.pdn",
            ],
        ),
        &["bad.pdn", "line 2", "13-18"],
    );
    for bad in ["10,0", "0", "0,10,0.5,0.6", "a,b"] {
        let out = run(
            &t.0,
            &["match", "material.json", "thesis.json", "--sprt", bad],
        );
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--sprt") && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn shipped_weight_files_play_by_their_bare_name_from_any_folder() {
    // A folder without a weights/ folder: the shipped files are built in. (This failed with
    // "cannot read 'evolved-hour'" before.)
    let t = Tmp::new("shipped");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match",
            "evolved-hour",
            "classic",
            "--depth",
            "1",
            "--games",
            "2",
            "--seed",
            "3",
            "--quiet",
        ],
    ));
    assert!(
        out.starts_with("A: evolved-hour  B: classic  depth 1/1  2 games  seed 3\n"),
        "{out}"
    );
    assert!(out.contains("W/D/L for A: "), "{out}");
    // An unknown bare name says what it is not, the shipped names among them.
    assert_error(
        &run(&t.0, &["match", "evolved-day", "classic"]),
        &["cannot read 'evolved-day'", "evolved-hour", "nor a session"],
    );
}

/// The five counts of the `Pentanomial [0, 0.5, 1, 1.5, 2]: a, b, c, d, e` line.
fn pentanomial(out: &str) -> Vec<u32> {
    out.lines()
        .find_map(|l| l.strip_prefix("Pentanomial [0, 0.5, 1, 1.5, 2]: "))
        .unwrap_or_else(|| panic!("no pentanomial line: {out}"))
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect()
}

/// The text after `prefix` on its line.
fn line_after<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' line: {out}"))
}

fn sprt_match(t: &Tmp, a: &str, b: &str, seed: &str, threads: &str, games: &str) -> String {
    stdout_ok(&run(
        &t.0,
        &[
            "match",
            a,
            b,
            "--depth",
            "2",
            "--sprt",
            "0,50",
            "--seed",
            seed,
            "--threads",
            threads,
            "--games",
            games,
            "--quiet",
        ],
    ))
}

#[test]
fn sprt_stops_early_on_a_lopsided_pair_at_the_same_game_at_any_thread_count() {
    let t = setup("sprt");
    let one = sprt_match(&t, "material", "random", "1", "1", "312");
    let two = sprt_match(&t, "material", "random", "1", "2", "312");
    assert_eq!(without_time(&one), without_time(&two));
    let pairs = line_after(&one, "SPRT result: H1 accepted after ")
        .strip_suffix(" pairs")
        .unwrap()
        .parse::<u32>()
        .unwrap();
    assert!(pairs < 60, "{one}");
    assert_eq!(pentanomial(&one).iter().sum::<u32>(), pairs);
    let wdl: u32 = line_after(&one, "W/D/L for A: ")
        .split('/')
        .map(|x| x.parse::<u32>().unwrap())
        .sum();
    assert_eq!(
        wdl,
        2 * pairs,
        "only the games up to the deciding pair count"
    );
    let llr: Vec<f64> = line_after(&one, "LLR: ")
        .split([' ', '(', ')', ','])
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(llr[0] >= llr[2] && llr[2] > 2.9 && llr[1] < -2.9, "{one}");
}

#[test]
fn sprt_on_identical_engines_does_not_accept_h1_over_a_fixed_seed_set() {
    // Equal engines: H0 (elo 0) is true, so H1 (elo 50) may be accepted at most alpha = 5% of
    // the time: over these 8 seeds, never. Each run ends at H0 or at the game limit.
    let t = setup("sprt-equal");
    let mut at_limit = 0;
    for seed in 1..=8 {
        let out = sprt_match(&t, "material", "material", &seed.to_string(), "2", "40");
        let verdict = line_after(&out, "SPRT result: ");
        let pairs = pentanomial(&out).iter().sum::<u32>();
        if verdict == "inconclusive at the game limit (20 pairs)" {
            assert_eq!(pairs, 20);
            at_limit += 1;
        } else {
            assert!(verdict.starts_with("H0 accepted"), "seed {seed}: {out}");
            assert!(pairs <= 20, "{out}");
        }
    }
    assert!(at_limit >= 4, "most runs go to the game limit");
}

#[test]
fn openings_from_a_fen_file_or_pdn_games_are_played_twice_each() {
    let t = setup("openfile");
    t.write(
        "positions.txt",
        b"# two positions\nB:W21-32:B1-12\nW:W18,22,25,K30:B2,5,14\n",
    );
    t.write(
        "games.pdn",
        b"[Event \"book\"]\n1. 11-15 23-19 2. 8-11 *\n\n[Event \"two\"]\n[FEN \"W:W18,22,25,K30:B2,5,14\"]\n1... 18x9 *\n",
    );
    for (file, needle) in [
        ("positions.txt", "[FEN \"W:W18,22,25,K30:B2,5,14\"]"),
        ("games.pdn", "1. 11-15 23-19 2. 8-11"),
    ] {
        let pdn = format!("{file}.out.pdn");
        let out = stdout_ok(&run(
            &t.0,
            &[
                "match",
                "material",
                "classic",
                "--depth",
                "2",
                "--openings",
                file,
                "--seed",
                "3",
                "--pdn",
                &pdn,
                "--quiet",
            ],
        ));
        assert!(
            out.starts_with("A: material  B: classic  depth 2/2  4 games"),
            "{out}"
        );
        let n: u32 = line_after(&out, "W/D/L for A: ")
            .split('/')
            .map(|x| x.parse::<u32>().unwrap())
            .sum();
        assert_eq!(n, 4, "{out}");
        assert_eq!(pentanomial(&out).iter().sum::<u32>(), 2);
        let text = t.read(&pdn);
        assert_eq!(text.matches("[Event ").count(), 4);
        assert_eq!(text.matches(needle).count(), 2, "{text}");
    }
    // --games takes the first positions of the file.
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match",
            "material",
            "classic",
            "--depth",
            "2",
            "--openings",
            "games.pdn",
            "--games",
            "2",
            "--quiet",
        ],
    ));
    assert!(out.contains("  2 games  "), "{out}");
}

#[test]
fn pdn_is_appended_game_by_game() {
    let t = setup("append");
    let args = |pdn: &'static str| {
        [
            "match", "material", "hand", "--depth", "2", "--games", "6", "--seed", "2", "--pdn",
            pdn, "--quiet",
        ]
    };
    t.write("old.pdn", b"[Event \"an earlier game\"]\n1-0\n\n");
    let out = stdout_ok(&run(&t.0, &args("old.pdn")));
    assert!(out.contains("PDN: 6 games appended to old.pdn"), "{out}");
    let text = t.read("old.pdn");
    assert!(
        text.starts_with("[Event \"an earlier game\"]"),
        "kept: {text}"
    );
    assert_eq!(text.matches("[Event ").count(), 7);
    stdout_ok(&run(&t.0, &args("old.pdn")));
    assert_eq!(t.read("old.pdn").matches("[Event ").count(), 13);
}

#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_partial_result_and_keeps_the_finished_games() {
    let t = setup("sigint");
    let child = bin()
        .current_dir(&t.0)
        .args([
            "match",
            "material",
            "classic",
            "--depth",
            "9",
            "--games",
            "200",
            "--threads",
            "2",
            "--seed",
            "4",
            "--pdn",
            "part.pdn",
            "--quiet",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start match");
    // Wait for two finished games, then interrupt.
    let pdn = t.0.join("part.pdn");
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&pdn)
        .map(|s| s.matches("[Event ").count())
        .unwrap_or(0)
        < 2
    {
        assert!(Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait for match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stdout} {stderr}");
    let finished: u32 = line_after(&stdout, "Interrupted: the result of the ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((2..200).contains(&finished), "{stdout}");
    let wdl: u32 = line_after(&stdout, "W/D/L for A: ")
        .split('/')
        .map(|x| x.parse::<u32>().unwrap())
        .sum();
    assert_eq!(wdl, finished, "{stdout}");
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    assert!(pentanomial(&stdout).iter().sum::<u32>() * 2 <= finished);
    // The PDN holds exactly the finished games, each complete with its result.
    let text = t.read("part.pdn");
    assert_eq!(text.matches("[Event ").count() as u32, finished, "{text}");
    assert_eq!(text.matches("[Result \"*\"]").count(), 0);
    assert!(stdout.contains(&format!("PDN: {finished} games appended to part.pdn")));
}

#[test]
fn equal_time_matches_print_the_time_control_depths_speeds_and_time_losses() {
    let t = setup("tc");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "classic", "material", "--tc", "0.02", "--games", "4", "--seed", "1", "--pdn",
            "tc.pdn", "--quiet",
        ],
    ));
    assert!(
        out.starts_with("A: classic  B: material  tc 0.02 s/move  max depth 64/64  4 games"),
        "{out}"
    );
    let n: u32 = line_after(&out, "W/D/L for A: ")
        .split('/')
        .map(|x| x.parse::<u32>().unwrap())
        .sum();
    assert_eq!(n, 4, "{out}");
    assert!(line_after(&out, "Elo difference: ").contains(", LOS: "));
    // `Mean depth: A 9.9, B 11.6`, `Nodes/s: A 3.50 M, B 2.39 M`, `Time losses: A 0, B 1`.
    let depth = numbers_in(&out, "Mean depth: ");
    assert!(depth.len() == 2 && depth.iter().all(|d| *d >= 1.0), "{out}");
    let speed = numbers_in(&out, "Nodes/s: ");
    assert!(speed.len() == 2 && speed.iter().all(|s| *s > 0.0), "{out}");
    let losses = numbers_in(&out, "Time losses: ");
    assert!(losses.len() == 2 && losses[0] + losses[1] <= 4.0, "{out}");
    // A time loss is in the PDN as the result and its reason.
    let pdn = t.read("tc.pdn");
    assert_eq!(pdn.matches("[Event ").count(), 4);
    // (Each with how long its move took and what its clock had.)
    assert_eq!(
        pdn.matches("ran out of time: its move took ").count() as f64,
        losses[0] + losses[1],
        "{pdn}"
    );
    // A game clock with an increment, and a maximum depth.
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "classic", "hand", "--tc", "0.5+0.01", "--depth", "6", "--games", "2",
            "--quiet",
        ],
    ));
    assert!(
        out.contains("  tc 0.5+0.01 s  max depth 6/6  2 games  "),
        "{out}"
    );
    let depth = numbers_in(&out, "Mean depth: ");
    assert!(depth.iter().all(|d| *d <= 6.0), "{out}");
}

/// The numbers of an `X: A 1.5, B 2` line (`M` units dropped).
fn numbers_in(out: &str, prefix: &str) -> Vec<f64> {
    line_after(out, prefix)
        .split(['A', 'B', 'M', ',', ' '])
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap_or_else(|_| panic!("'{x}' in {out}")))
        .collect()
}

#[test]
fn a_bad_time_control_is_a_one_line_error() {
    let t = setup("badtc");
    for bad in ["abc", "0", "-1", "1+", "10+x", "40/60", "1e9"] {
        let out = run(&t.0, &["match", "material", "classic", "--tc", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains("--tc") && err.lines().count() == 1,
            "{bad}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
    common::assert_usage_error(
        &run(
            &t.0,
            &[
                "match", "material", "classic", "--tc", "0.1", "--depth", "65",
            ],
        ),
        &["--depth 65", "1..64 with --tc"],
    );
}

/// The games of a PDN text, each without its Event tag (which numbers it).
fn pdn_games(text: &str) -> Vec<String> {
    text.split("[Event ")
        .skip(1)
        .map(|g| g.split_once('\n').map_or("", |(_, rest)| rest).to_string())
        .collect()
}

fn args_of<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

#[test]
fn more_games_than_the_book_are_played_in_rounds_with_new_tie_breaks() {
    let t = setup("rounds");
    t.write(
        "three.txt",
        b"B:W21-32:B1-12\nW:W18,22,25,K30:B2,5,14\nB:W17,21-32:B1-11\n",
    );
    // Equal engines at depth 1: many root ties, broken by each game's generator.
    let base = [
        "match",
        "material",
        "material",
        "--depth",
        "1",
        "--openings",
        "three.txt",
        "--seed",
        "3",
        "--quiet",
    ];
    let one = stdout_ok(&run(
        &t.0,
        &args_of(&base, &["--games", "6", "--pdn", "one.pdn"]),
    ));
    let two = stdout_ok(&run(
        &t.0,
        &args_of(
            &base,
            &["--games", "12", "--pdn", "two.pdn", "--json", "two.json"],
        ),
    ));
    assert!(!one.contains("Rounds:"), "{one}");
    assert!(
        two.contains("  12 games  seed 3\nRounds: 2 of the 3 openings, ties broken anew"),
        "{two}"
    );
    let n: u32 = line_after(&two, "W/D/L for A: ")
        .split('/')
        .map(|x| x.parse::<u32>().unwrap())
        .sum();
    assert_eq!(n, 12, "{two}");
    assert_eq!(pentanomial(&two).iter().sum::<u32>(), 6, "{two}");
    // The first round is the one-round match, byte for byte; the second starts from the same
    // positions with the same colours but breaks its ties anew.
    let (p1, p2) = (t.read("one.pdn"), t.read("two.pdn"));
    assert!(
        p2.starts_with(&p1),
        "the first round is the match of one round"
    );
    let g = pdn_games(&p2);
    assert_eq!(g.len(), 12);
    let differ = (0..6).filter(|&i| g[i] != g[i + 6]).count();
    assert!(differ > 0, "the second round replays the first: {p2}");
    let json: serde_json::Value = serde_json::from_str(&t.read("two.json")).unwrap();
    let games = json["games"].as_array().unwrap();
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game["index"], i);
        assert_eq!(game["round"], i / 6);
        assert_eq!(game["opening"], (i / 2) % 3 + 1);
        assert_eq!(game["fen"], games[i % 6]["fen"]);
        assert_eq!(game["a_color"], if i % 2 == 0 { "black" } else { "white" });
    }

    // --games beyond the ballot plays that many, no longer capped at 312.
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "material", "hand", "--depth", "1", "--games", "400", "--seed", "2", "--quiet",
        ],
    ));
    assert!(
        out.contains("  400 games  seed 2\nRounds: 2 of the 156 openings"),
        "{out}"
    );
    assert_eq!(pentanomial(&out).iter().sum::<u32>(), 200, "{out}");
}

#[test]
fn an_sprt_without_a_game_limit_runs_past_the_book_until_it_decides() {
    // `hand` is some 20 Elo above `material` at depth 1: neither 0 nor 10 is far off, so the
    // test needs more pairs than the ballot's 156 (this seed: several hundred). Before rounds
    // of the book it ended "inconclusive at the game limit (156 pairs)".
    let t = setup("sprt-rounds");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "hand", "material", "--depth", "1", "--sprt", "0,10", "--seed", "1", "--json",
            "r.json", "--quiet",
        ],
    ));
    assert!(
        out.starts_with("A: hand  B: material  depth 1/1  up to 100000 games  seed 1\n"),
        "{out}"
    );
    assert!(out.contains("Rounds: as many as the SPRT needs of the 156 openings"));
    let verdict = line_after(&out, "SPRT result: ");
    assert!(
        verdict.starts_with("H0 accepted after ") || verdict.starts_with("H1 accepted after "),
        "{out}"
    );
    let pairs: u32 = verdict
        .split(' ')
        .nth(3)
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(pairs > 156, "decided within the book: {out}");
    assert_eq!(pentanomial(&out).iter().sum::<u32>(), pairs);
    let json: serde_json::Value = serde_json::from_str(&t.read("r.json")).unwrap();
    assert_eq!(json["end"], "sprt");
    assert_eq!(json["sprt"]["verdict"], &verdict[..2]);
    assert_eq!(json["games"].as_array().unwrap().len() as u32, 2 * pairs);
    let llr = json["sprt"]["llr"].as_f64().unwrap();
    let (lower, upper) = (
        json["sprt"]["lower"].as_f64().unwrap(),
        json["sprt"]["upper"].as_f64().unwrap(),
    );
    assert!(llr <= lower || llr >= upper, "{json}");
}

#[test]
fn json_result_holds_what_a_script_reads() {
    let t = setup("json");
    let out = stdout_ok(&run(
        &t.0,
        &[
            "match", "material", "classic", "--depth", "2", "--games", "10", "--seed", "4",
            "--sprt", "-20,20", "--json", "r.json", "--pdn", "r.pdn", "--quiet",
        ],
    ));
    assert!(out.ends_with("JSON: r.json\n"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&t.read("r.json")).unwrap();
    assert_eq!(json["format"], "checkers-ga match");
    assert_eq!(json["version"], 1);
    assert_eq!(json["engines"]["a"]["name"], "material");
    assert_eq!(json["engines"]["b"]["name"], "classic");
    assert_eq!(json["engines"]["a"]["depth"], 2);
    assert!(json["engines"]["a"]["tc"].is_null());
    assert_eq!(json["settings"]["seed"], 4);
    assert_eq!(json["settings"]["games"], 10);
    assert_eq!(json["settings"]["openings"], "ballot");
    assert_eq!(json["settings"]["book_size"], 5);
    assert!(json["settings"]["draw_adjudication"].is_null());
    // The same figures as the text.
    let wdl = format!(
        "{}/{}/{}",
        json["wdl"]["wins"], json["wdl"]["draws"], json["wdl"]["losses"]
    );
    assert_eq!(line_after(&out, "W/D/L for A: "), wdl);
    let penta: Vec<u32> = json["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(penta, pentanomial(&out));
    let elo = line_after(&out, "Elo difference: ");
    match json["elo"]["diff"].as_f64() {
        Some(d) => assert!(elo.starts_with(&format!("{d:.1} +/- ")), "{elo} {d}"),
        None => assert!(elo.contains("inf"), "{elo}"),
    }
    let llr = line_after(&out, "LLR: ");
    let j = json["sprt"]["llr"].as_f64().unwrap();
    assert!(llr.starts_with(&format!("{j:.2} (")), "{llr} {j}");
    let counted = json["games_counted"].as_u64().unwrap() as usize;
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), counted);
    let pdn = t.read("r.pdn");
    assert_eq!(pdn.matches("[Event ").count(), counted);
    let mut score = 0.0;
    for g in games {
        let result = g["result"].as_str().unwrap();
        assert!(pdn.contains(&format!("[Result \"{result}\"]")), "{result}");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result));
        assert!(g["reason"].is_string() && g["reason_code"].is_string());
        let a_black = g["a_color"] == "black";
        let (mine, theirs) = if a_black {
            ("black", "white")
        } else {
            ("white", "black")
        };
        assert_eq!(g[mine], "material");
        assert_eq!(g[theirs], "classic");
        let s = g["score_a"].as_f64().unwrap();
        let expect = match (result, a_black) {
            ("1/2-1/2", _) => 0.5,
            ("1-0", true) | ("0-1", false) => 1.0,
            _ => 0.0,
        };
        assert_eq!(s, expect, "{g}");
        score += s;
    }
    assert_eq!(score, json["score"].as_f64().unwrap());
    assert!(json["seconds"].as_f64().unwrap() >= 0.0);
    // Written whole, by a rename: no temporary file left beside it.
    let left: Vec<_> = std::fs::read_dir(&t.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("r.json") && n != "r.json")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn the_running_score_is_printed_every_n_games_and_on_the_progress_bar() {
    let t = setup("running");
    let out = run(
        &t.0,
        &[
            "match",
            "material",
            "hand",
            "--depth",
            "2",
            "--games",
            "12",
            "--seed",
            "6",
            "--sprt",
            "0,50",
            "--rating-interval",
            "4",
            "--quiet",
        ],
    );
    let stdout = stdout_ok(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (k, l) in lines.iter().enumerate() {
        assert!(
            l.starts_with(&format!("{} games: W/D/L ", 4 * (k + 1))),
            "{l}"
        );
        assert!(l.contains("  Elo ") && l.contains(" +/- "), "{l}");
        assert!(l.contains("  LLR ") && l.ends_with("(-2.94, 2.94)"), "{l}");
    }
    // The last one is the final score.
    let wdl = line_after(&stdout, "W/D/L for A: ");
    assert!(
        lines[2].starts_with(&format!("12 games: W/D/L {wdl}  ")),
        "{stderr}"
    );
    let llr = line_after(&stdout, "LLR: ");
    assert!(lines[2].ends_with(&format!("LLR {llr}")), "{stderr} {llr}");

    // Without --rating-interval nothing is printed off a terminal, as before.
    let out = run(
        &t.0,
        &["match", "material", "hand", "--depth", "1", "--games", "4"],
    );
    stdout_ok(&out);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // On a terminal the progress bar carries it. `script` gives the match one.
    let exe = env!("CARGO_BIN_EXE_checkers-ga");
    let cmd = format!(
        "cd '{}' && '{exe}' match material classic --depth 5 --games 24 --seed 1 --threads 1 --sprt 0,10",
        t.0.display()
    );
    let pty = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("TERM", "xterm")
        .output();
    let Ok(pty) = pty else {
        common::can_run(false, "no `script` to give the match a terminal");
        return;
    };
    let text = String::from_utf8_lossy(&pty.stdout);
    assert!(pty.status.success(), "{text}");
    let bar_lines: Vec<&str> = text
        .split(['\r', '\n'])
        .filter(|l| l.contains(" games ") && l.contains("W/D/L "))
        .collect();
    assert!(!bar_lines.is_empty(), "no running score on the bar: {text}");
    assert!(
        bar_lines
            .iter()
            .all(|l| l.contains("  Elo ") && l.contains("  LLR ")),
        "{bar_lines:?}"
    );
}

#[test]
fn adjudication_and_per_engine_clocks_are_checked_and_played() {
    let t = setup("adjflags");
    let bad: &[(&[&str], &str)] = &[
        (&["--draw-adjudication", "0,8,10"], "--draw-adjudication"),
        (
            &["--draw-adjudication", "40,8"],
            "MOVENUMBER,MOVECOUNT,SCORE",
        ),
        (&["--draw-adjudication", "40,8,-1"], "SCORE -1"),
        (&["--resign-adjudication", "4"], "MOVECOUNT,SCORE"),
        (&["--resign-adjudication", "4,x"], "SCORE 'x'"),
        (&["--resign-adjudication", "0,400"], "MOVECOUNT 0"),
        (&["--time-margin", "-5"], "--time-margin"),
        (&["--time-margin", "99999999"], "--time-margin 99999999"),
        (&["--move-timeout", "0"], "--move-timeout 0"),
        (&["--move-timeout", "x"], "--move-timeout"),
        (&["--tc-a", "abc"], "--tc-a"),
        (&["--tc-b", "0"], "--tc-b"),
        (&["--games", "100001"], "--games 100001"),
        (&["--rating-interval", "-1"], "--rating-interval"),
        (&["--tc-b", "0.1", "--depth-b", "65"], "--depth-b 65"),
    ];
    for (flags, needle) in bad {
        let args = args_of(&["match", "material", "classic"], flags);
        let out = run(&t.0, &args);
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(needle) && err.lines().count() == 1,
            "{flags:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{flags:?}");
    }
    // Good values: played.
    for flags in [
        &["--tc-a", "0.1"][..],
        &["--draw-adjudication", "30,6,5"],
        &["--resign-adjudication", "4,400"],
        &["--tc", "0.1", "--time-margin", "50"],
    ] {
        let args = args_of(&["match", "material", "classic", "--games", "2"], flags);
        let out = run(&t.0, &args);
        assert_eq!(out.status.code(), Some(0), "{flags:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("W/D/L for A: "), "{flags:?}: {stdout}");
    }
}

/// Adjudication between two of our engines travels with the match's game jobs: the same games,
/// adjudications included, at one thread and at two.
#[test]
fn an_adjudicated_match_is_the_same_at_any_thread_count() {
    let t = setup("adjthreads");
    let played = |threads: &str| {
        let pdn = format!("adj{threads}.pdn");
        let args = [
            "match",
            "material",
            "hand",
            "--depth",
            "3",
            "--games",
            "20",
            "--seed",
            "5",
            "--draw-adjudication",
            "20,4,30",
            "--resign-adjudication",
            "4,300",
            "--quiet",
            "--threads",
            threads,
            "--pdn",
            &pdn,
        ];
        let out = run(&t.0, &args);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let text = std::fs::read_to_string(t.0.join(&pdn)).unwrap();
        let games: Vec<String> = text
            .lines()
            .filter(|l| !l.starts_with("[Date"))
            .map(str::to_string)
            .collect();
        let lines: Vec<String> = stdout
            .lines()
            .filter(|l| !l.starts_with("time ") && !l.starts_with("PDN"))
            .map(str::to_string)
            .collect();
        (lines, games)
    };
    let (one, two) = (played("1"), played("2"));
    assert_eq!(one, two);
    let adjudicated = one.0.iter().find(|l| l.starts_with("Adjudicated: "));
    assert!(
        adjudicated.is_some_and(|l| l != "Adjudicated: 0 draws, losses A 0, B 0"),
        "{:?}",
        one.0
    );
}
