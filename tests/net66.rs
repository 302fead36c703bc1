//! The network parameter set `net66:H`: its weights' layout and names, its evaluation (the
//! endgame66 sum plus the network's output, the sum alone when the network's weights are 0), and
//! every file, command and session that carries a parameter set.

mod common;

use checkers_ga::weightfile::{parse_weight_file, weights_to_json, weights_to_original};
use checkers_ga::GaState;
use checkers_ga::Standing;
use checkers_ga::{all_features, evaluate, net_len, ParamSet, DEFAULT_HIDDEN, MAX_HIDDEN, NUM_ALL};
use checkers_ga::{formats, parse_fen, store, Color, Weights};
use common::{assert_error, new_cmd, run, stdout_ok, Tmp, Xs};

const NET8: ParamSet = ParamSet::Net66(DEFAULT_HIDDEN);

/// A weight vector of `set` with varied weights, scaled by `scale` percent.
fn sample(set: ParamSet, seed: u64, scale: i64) -> Weights {
    let mut r = Xs(seed);
    let v: Vec<i16> = (0..set.len())
        .map(|_| ((r.next() % 60001) as i64 - 30000).saturating_mul(scale) / 100)
        .map(|x| x as i16)
        .collect();
    Weights::new(set, &v).unwrap()
}

/// The index of hidden unit `j`'s (from 1) input weight of parameter `p` (its bias: `p` = 66),
/// and of its output weight in `net66:h`.
fn unit(j: usize, p: usize) -> usize {
    NUM_ALL + (j - 1) * (NUM_ALL + 1) + p
}
fn out(h: usize, j: usize) -> usize {
    NUM_ALL + h * (NUM_ALL + 1) + j - 1
}

#[test]
fn layout_names_and_parsing() {
    assert_eq!(NET8.len(), 66 + 8 * 66 + 8 + 8);
    assert_eq!(net_len(1), 66 + 68);
    assert_eq!("net66".parse::<ParamSet>(), Ok(NET8));
    assert_eq!("net66:3".parse::<ParamSet>(), Ok(ParamSet::Net66(3)));
    assert_eq!(ParamSet::Net66(3).name(), "net66:3");
    assert_eq!(NET8.to_string(), "net66:8");
    for bad in [
        "net66:0", "net66:33", "net66:03", "net66:", "net66:+4", "net",
    ] {
        let e = bad.parse::<ParamSet>().unwrap_err().to_string();
        assert!(e.contains("net66[:H]") && !e.contains('\n'), "{bad}: {e}");
    }
    for h in 1..=MAX_HIDDEN {
        let set = ParamSet::Net66(h as u8);
        assert_eq!(ParamSet::from_len(set.len()), Some(set));
        assert_eq!(ParamSet::from_name(set.name()), Some(set));
        let params = set.params();
        assert_eq!(params.len(), set.len());
        for (i, p) in params.iter().enumerate() {
            assert_eq!(set.index_of(p.name), Some(i), "{}", p.name);
        }
    }
    let p = NET8.params();
    assert_eq!(p[0].name, "men");
    assert_eq!(p[65].name, "centre_kings");
    assert_eq!(p[unit(1, 0)].name, "hidden1.men");
    assert_eq!(p[unit(3, 65)].name, "hidden3.centre_kings");
    assert_eq!(p[unit(3, 66)].name, "hidden3.bias");
    assert_eq!(p[out(8, 1)].name, "out1");
    assert_eq!(p[out(8, 8)].name, "out8");
    for bad in [
        "hidden9.men",
        "hidden0.men",
        "hidden1.nothing",
        "out9",
        "out0",
        "hidden01.men",
    ] {
        assert_eq!(NET8.index_of(bad), None, "{bad}");
    }
}

#[test]
fn network_weights_zero_evaluate_as_endgame66() {
    let mut r = Xs(7);
    for k in 0..400 {
        let pos = common::random_position_both_sides(&mut r);
        let w66 = sample(ParamSet::Endgame66, k, 100);
        for h in [1u8, 8, 32] {
            let set = ParamSet::Net66(h);
            let h = h as usize;
            let wide = w66.widen(set).unwrap();
            assert!(wide.values()[NUM_ALL..].iter().all(|&x| x == 0));
            // Hidden weights random, output weights 0; and the other way round.
            let mut no_out = sample(set, k + 1000, 100);
            no_out.values_mut()[..NUM_ALL].copy_from_slice(w66.values());
            for j in 1..=h {
                no_out[out(h, j)] = 0;
            }
            let mut no_hidden = sample(set, k + 2000, 100);
            no_hidden.values_mut()[..out(h, 1)].fill(0);
            no_hidden.values_mut()[..NUM_ALL].copy_from_slice(w66.values());
            for player in [Color::Black, Color::White] {
                let want = evaluate(&pos, player, &w66);
                assert_eq!(evaluate(&pos, player, &wide), want);
                assert_eq!(evaluate(&pos, player, &no_out), want);
                assert_eq!(evaluate(&pos, player, &no_hidden), want);
            }
        }
        // The thesis's 60 widen too and keep endgame66's value of them (king-ending rule).
        let w60 = Weights::thesis(w66.values()[..60].try_into().unwrap());
        let via66 = w60.widen(ParamSet::Endgame66).unwrap();
        let net = w60.widen(NET8).unwrap();
        assert_eq!(
            evaluate(&pos, Color::Black, &net),
            evaluate(&pos, Color::Black, &via66)
        );
    }
}

#[test]
fn a_hand_set_hidden_unit_adds_what_it_should() {
    // Start position, Black: 12 men each, 7 movable men... read the values, then set unit 2.
    let pos =
        parse_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12").unwrap();
    let f = all_features(&pos, Color::Black);
    assert_eq!((f[0], f[2]), (12, 12));
    let mut w = Weights::new(ParamSet::Net66(2), &vec![0; net_len(2)]).unwrap();
    w[0] = 100; // men
    w[2] = -100; // opp_men
    let base = evaluate(&pos, Color::Black, &w);
    assert_eq!(base, 0);
    // Unit 2: 300 * men - 40 * opp_men + 1000 = 3600 - 480 + 1000 = 4120; >> 8 = 16 (in 0..127);
    // times output weight -25 = -400.
    w[unit(2, 0)] = 300;
    w[unit(2, 2)] = -40;
    w[unit(2, 66)] = 1000;
    w[out(2, 2)] = -25;
    assert_eq!(evaluate(&pos, Color::Black, &w), -400);
    // Seen from White the unit's inputs are White's: the same counts here, the same value.
    assert_eq!(evaluate(&pos, Color::White, &w), -400);
    // Clipped at 127: a large bias.
    w[unit(2, 66)] = 32000;
    // (3600 - 480 + 32000) >> 8 = 137 -> 127; * -25.
    assert_eq!(evaluate(&pos, Color::Black, &w), -127 * 25);
    // Clipped at 0: negative sums give nothing.
    w[unit(2, 66)] = -32000;
    assert_eq!(evaluate(&pos, Color::Black, &w), 0);
    // Rounding down: a sum of -1 is -1 >> 8 = -1 -> 0; a sum of 255 is 0; 256 is 1.
    w[unit(2, 0)] = 0;
    w[unit(2, 2)] = 0;
    for (bias, act) in [(-1, 0), (255, 0), (256, 1), (511, 1), (512, 2)] {
        w[unit(2, 66)] = bias;
        assert_eq!(evaluate(&pos, Color::Black, &w), -25 * act, "bias {bias}");
    }
    // Both units add up, with the linear sum.
    w[unit(1, 66)] = 256 * 10;
    w[out(2, 1)] = 7;
    w[unit(2, 66)] = 512;
    w[1] = 5; // kings: none on the board
    assert_eq!(evaluate(&pos, Color::Black, &w), 70 - 50);
    // The side's view: a position where Black is a man up.
    let up = parse_fen("B:W21,22:B1,2,3").unwrap();
    let mut v = Weights::new(ParamSet::Net66(1), &vec![0; net_len(1)]).unwrap();
    v[unit(1, 0)] = 256; // men
    v[unit(1, 2)] = -256; // opp_men
    v[out(1, 1)] = 10;
    assert_eq!(evaluate(&up, Color::Black, &v), 10);
    assert_eq!(evaluate(&up, Color::White, &v), 0);
}

#[test]
fn widening_into_more_units_keeps_the_value() {
    let mut r = Xs(3);
    let w3 = sample(ParamSet::Net66(3), 5, 10);
    let w5 = w3.widen(ParamSet::Net66(5)).unwrap();
    assert_eq!(w5[out(5, 3)], w3[out(3, 3)]);
    assert_eq!(w5[unit(3, 66)], w3[unit(3, 66)]);
    assert!(w3.widen(ParamSet::Net66(2)).is_none());
    assert!(w3.widen(ParamSet::Endgame66).is_none());
    assert!(w3.widen(ParamSet::Phased132).is_none());
    assert!(sample(ParamSet::Phased132, 1, 100).widen(NET8).is_none());
    for _ in 0..200 {
        let pos = common::random_position_both_sides(&mut r);
        assert_eq!(
            evaluate(&pos, Color::White, &w3),
            evaluate(&pos, Color::White, &w5)
        );
    }
}

#[test]
fn weight_files_csv_and_checkpoints_round_trip() {
    for set in [NET8, ParamSet::Net66(1), ParamSet::Net66(32)] {
        let w = sample(set, 11, 100);
        let json = weights_to_json(&w);
        assert!(json.contains(&format!("\"params\": \"{set}\"")));
        assert!(json.contains("\"hidden1.bias\": "));
        assert_eq!(parse_weight_file(&json).unwrap().weights, w);
        let orig = weights_to_original(&w);
        assert!(orig.starts_with(&format!("{} 1\n", set.len())));
        assert_eq!(parse_weight_file(&orig).unwrap().weights, w);
        assert_eq!(formats::parse_csv(&formats::to_csv(&w)).unwrap(), w);
    }
    // "net66" alone in a file is net66:8.
    let json = weights_to_json(&sample(NET8, 1, 100)).replace("net66:8", "net66");
    assert_eq!(parse_weight_file(&json).unwrap().weights.set(), NET8);
    // Network names without "params" say which set they belong to.
    let json = weights_to_json(&sample(NET8, 1, 100)).replace("  \"params\": \"net66:8\",\n", "");
    let e = parse_weight_file(&json).unwrap_err().to_string();
    assert!(e.contains("net66:8"), "{e}");

    // A checkpoint of a net66:4 session loads back as it was.
    let t = Tmp::new("net-ckpt");
    let set = ParamSet::Net66(4);
    let pop: Vec<Weights> = (0..4).map(|k| sample(set, k, 100)).collect();
    let mut settings = common::settings(4, 1, 3);
    settings.ga.params = set;
    let mut s = GaState::with_population("net", settings, pop.clone());
    s.generation = 1;
    s.last = pop.iter().map(|w| (*w, Standing::default())).collect();
    s.best_so_far = Some(pop[1]);
    let path = store::save_checkpoint(&t.0, &s, store::Keep::ALL).unwrap();
    let back = common::load(&path);
    assert_eq!(back.settings.ga.params, set);
    assert_eq!(back.population, pop);
    assert_eq!(back.best_so_far, Some(pop[1]));
    let csv = stdout_ok(&run(
        &t.0,
        &["export", path.to_str().unwrap(), "--format", "csv"],
    ));
    assert_eq!(formats::parse_csv(&csv).unwrap(), pop[1]);
}

#[test]
fn show_features_and_exports_name_the_layers() {
    let t = Tmp::new("net-show");
    let w = sample(ParamSet::Net66(3), 2, 100);
    t.write("w.json", weights_to_json(&w).as_bytes());
    // Each weight of the hidden units with --network (without it, one line per unit).
    let shown = stdout_ok(&run(&t.0, &["show", "w.json", "--network"]));
    assert!(
        shown.contains("parameters: net66:3 (270 weights)"),
        "{shown}"
    );
    assert!(shown.contains("layers: "), "{shown}");
    assert!(shown.contains("3 hidden units"), "{shown}");
    let row = |name: &str, i: usize| format!("\n{:>3} {name} ", i + 1);
    for (name, i) in [
        ("hidden2.men", unit(2, 0)),
        ("hidden3.bias", unit(3, 66)),
        ("out3", out(3, 3)),
    ] {
        assert!(shown.contains(&row(name, i)), "{name}: {shown}");
        assert!(shown.contains(&format!(" {} ", w[i])), "{name}");
    }
    for (format, needle) in [
        ("json", "\"params\": \"net66:3\""),
        ("csv", "270,out3,"),
        ("rust", "pub const PARAMS: &str = \"net66:3\";"),
        ("c", "#define W_PARAMS \"net66:3\""),
        ("original", "270 1\n"),
    ] {
        let text = stdout_ok(&run(&t.0, &["export", "w.json", "--format", format]));
        assert!(text.contains(needle), "{format}");
        if format != "rust" && format != "c" {
            let file = format!("w.{format}");
            t.write(&file, text.as_bytes());
            let back = stdout_ok(&run(&t.0, &["show", &file]));
            assert!(back.contains("parameters: net66:3"), "{format}: {back}");
            assert!(back.contains(&row("out3", out(3, 3))), "{format}");
        }
    }
    // features: the network's inputs are the 66 values.
    let f = stdout_ok(&run(
        &t.0,
        &["features", "--fen", "W:WK10,K14:BK1", "--params", "net66"],
    ));
    let f66 = stdout_ok(&run(
        &t.0,
        &[
            "features",
            "--fen",
            "W:WK10,K14:BK1",
            "--params",
            "endgame66",
        ],
    ));
    assert_eq!(f, f66);
    assert_eq!(f.lines().count(), 66);
}

#[test]
fn sessions_evolve_the_network_and_widen_into_it() {
    let t = Tmp::new("net-session");
    let small = ["--population", "8", "--depth", "1", "--generations", "1"];
    // thesis60 material widens into net66:2 with --include.
    let include = format!(
        "--include={}",
        common::repo("weights/material.json").display()
    );
    let mut args = small.to_vec();
    args.extend(["--params", "net66:2", &include]);
    stdout_ok(&new_cmd(&t, 5, "n2", true, &args).output().unwrap());
    let s = common::load(&t.ckpt("n2", 1));
    assert_eq!(s.settings.ga.params, ParamSet::Net66(2));
    assert!(s.population.iter().all(|w| w.set() == ParamSet::Net66(2)));
    let material = s
        .last
        .iter()
        .find(|(w, _)| w.values()[..4] == [100, 160, -100, -160]);
    assert!(material.is_some_and(|(w, _)| w.values()[4..].iter().all(|&x| x == 0)));
    let best = checkers_ga::load_weights(&t.best("n2")).unwrap();
    assert_eq!(best.set(), ParamSet::Net66(2));
    // An endgame66 session continues as net66 (8 units), then as net66:9.
    let mut args = small.to_vec();
    args.extend(["--params", "endgame66"]);
    stdout_ok(&new_cmd(&t, 6, "eg", true, &args).output().unwrap());
    let before = common::load(&t.ckpt("eg", 1));
    assert_eq!(before.settings.ga.params, ParamSet::Endgame66);
    stdout_ok(
        &common::resume_cmd(
            &t,
            Some(&t.session("eg")),
            true,
            &["--generations", "2", "--params", "net66"],
        )
        .output()
        .unwrap(),
    );
    let s = common::load(&t.ckpt("eg", 2));
    assert_eq!(s.settings.ga.params, NET8);
    assert!(s.population.iter().all(|w| w.set() == NET8));
    stdout_ok(
        &common::resume_cmd(
            &t,
            Some(&t.session("eg")),
            true,
            &["--generations", "3", "--params", "net66:9"],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(
        common::load(&t.ckpt("eg", 3)).settings.ga.params,
        ParamSet::Net66(9)
    );
    // The original tool's population widens into net66 with `new --from`.
    let from = common::repo("tests/data/session-original-pop8.txt");
    let from = from.to_str().unwrap();
    let mut args = small.to_vec();
    args.extend(["--from", from, "--params", "net66:1"]);
    stdout_ok(&new_cmd(&t, 7, "fr", true, &args).output().unwrap());
    let s = common::load(&t.ckpt("fr", 1));
    assert_eq!(s.settings.ga.params, ParamSet::Net66(1));
    for (w, _) in &s.last {
        assert_eq!(w.set(), ParamSet::Net66(1));
        assert!(w.values()[60..].iter().all(|&x| x == 0));
    }
    // Fewer units: refused.
    let out = common::resume_cmd(
        &t,
        Some(&t.session("eg")),
        true,
        &["--generations", "4", "--params", "net66:2"],
    )
    .output()
    .unwrap();
    assert_error(&out, &["net66:9", "net66:2"]);
}

#[test]
fn the_network_sees_the_board_from_the_player_as_the_sum_does() {
    // A position seen by White is the colour-swapped, rotated position seen by Black: the
    // network's inputs are the player's values, so its output follows them.
    let mut r = Xs(0x5EED_0066);
    let w = sample(NET8, 9, 2);
    let mut differs = 0;
    for _ in 0..1000 {
        let pos = common::random_position_both_sides(&mut r);
        let flipped = pos.flipped();
        for c in [Color::Black, Color::White] {
            let v = evaluate(&pos, c, &w);
            assert_eq!(v, evaluate(&flipped, c.opposite(), &w), "{pos:?}");
            let mut sum_only = w;
            sum_only.values_mut()[NUM_ALL..].fill(0);
            differs += (v != evaluate(&pos, c, &sum_only)) as u32;
        }
    }
    // The network is not silent with these weights.
    assert!(differs > 1000, "{differs}");
}
