//! The fit's unit tests.

use super::*;
use crate::game::{DrawRules, Game};
use crate::rng::{derive, Purpose};
use crate::search::{SearchConfig, Searcher};

/// Games between `material` (men 100, kings 160) and a vector that values kings at 0.
fn games(set: ParamSet, n: u64) -> Positions {
    let mut good = Weights::zero_of(set);
    let mut bad = Weights::zero_of(set);
    // Parameters 0..4: own men, own kings, the opponent's men, the opponent's kings.
    good.values_mut()[..4].copy_from_slice(&[100, 160, -100, -160]);
    bad.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
    let mut data = Positions::new(set);
    for k in 0..n {
        let (b, w) = if k % 2 == 0 { (good, bad) } else { (bad, good) };
        let mut sb = Searcher::new(b, SearchConfig::with_depth(2));
        let mut sw = Searcher::new(w, SearchConfig::with_depth(2));
        let mut game = Game::new(Position::start(), DrawRules::default());
        let mut rng = derive(k, Purpose::Game, 0, k);
        crate::play::play_out(&mut game, &mut sb, &mut sw, &mut rng);
        let outcome = game.result().map(|r| r.0).unwrap_or(GameOutcome::Draw);
        data.add_game(game.start(), game.moves(), outcome);
    }
    data
}

#[test]
fn quiet_positions_only_with_the_result_for_the_side_to_move() {
    let data = games(ParamSet::Endgame66, 2);
    assert!(!data.is_empty());
    assert!(data.pos.iter().all(|p| !has_capture(p)));
    assert!(data.y.iter().all(|&y| y == 0.0 || y == 0.5 || y == 1.0));
    assert_eq!(data.x.len(), data.len() * NUM_ALL);
}

fn rng() -> rand_chacha::ChaCha8Rng {
    derive(1, Purpose::Fit, 10, 0)
}

/// A network vector: `material`-like sums and small varied network weights.
fn network(set: ParamSet) -> Weights {
    let mut w = Weights::zero_of(set);
    w.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
    for (i, v) in w.values_mut()[NUM_ALL..].iter_mut().enumerate() {
        *v = ((i * 37) % 101) as i16 - 50;
    }
    w
}

/// `f`'s answer on a pool of `t` threads (a fit that must not fail).
fn at_threads(t: usize, f: impl FnOnce() -> Option<Fitted> + Send) -> Fitted {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .unwrap();
    pool.install(f).unwrap()
}

#[test]
fn a_fit_lowers_the_error_and_is_the_same_at_any_thread_count() {
    let data = games(ParamSet::Endgame66, 24);
    assert!(data.len() >= MIN_POSITIONS, "{} positions", data.len());
    let mut start = Weights::zero_of(ParamSet::Endgame66);
    start.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
    let [one, two] =
        [1, 2].map(|t| at_threads(t, || fit_to(&start, &data, 5000, 4, None, &mut rng())));
    assert_eq!(one, two);
    assert!(one.after < one.before, "{} -> {}", one.before, one.after);
    assert!(one.positions <= 5000);
    assert_ne!(one.weights, start);
}

#[test]
fn a_blended_target_is_the_same_at_any_thread_count_and_moves_the_fit() {
    let data = games(ParamSet::Endgame66, 24);
    let mut start = Weights::zero_of(ParamSet::Endgame66);
    start.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
    let target = Some(SearchTarget {
        share: 0.5,
        depth: 2,
    });
    let [one, two] =
        [1, 2].map(|t| at_threads(t, || fit_to(&start, &data, 5000, 2, target, &mut rng())));
    assert_eq!(one, two);
    let plain = fit_to(&start, &data, 5000, 2, None, &mut rng()).unwrap();
    assert_eq!(one.scale, plain.scale);
    assert_ne!(one.weights, plain.weights);
    assert!(one.after < one.before, "{} -> {}", one.before, one.after);
}

#[test]
fn too_few_positions_or_another_set_give_no_fit() {
    let start = Weights::zero_of(ParamSet::Endgame66);
    let empty = Positions::new(ParamSet::Endgame66);
    assert!(fit_to(&start, &empty, 5000, 1, None, &mut rng()).is_none());
    let more = games(ParamSet::Endgame66, 24);
    assert!(fit_to(&start, &more, 5000, 1, None, &mut rng()).is_some());
    let thesis = Weights::zero_of(ParamSet::Thesis60);
    assert!(fit_to(&thesis, &more, 5000, 1, None, &mut rng()).is_none());
}

#[test]
fn the_model_is_the_evaluation_and_its_gradient_the_slope() {
    for set in [ParamSet::Net66(3), ParamSet::Board(3)] {
        let data = games(set, 2);
        let w = network(set);
        let model = Model::of(set);
        let wf: Vec<f64> = w.values().iter().map(|&v| v as f64).collect();
        let mut act = vec![0.0; 3];
        let mut active = 0;
        let mut inputs = Vec::new();
        for (r, (p, player, _)) in data.rows().enumerate().step_by(7) {
            let x = &data.x[r * NUM_ALL..][..NUM_ALL];
            if set.is_board() {
                board_inputs(p, player, &mut inputs);
            }
            let e = model.forward(&wf, x, &inputs, &mut act);
            active += act
                .iter()
                .filter(|&&h| h > 0.0 && h < NET_ACT_MAX as f64)
                .count();
            let exact = eval::evaluate(p, player, &w) as f64;
            // Only the integer evaluation's rounding down of each unit's sum differs.
            assert!(
                (e - exact).abs() <= 3.0 * 50.0 + 1e-9,
                "{set}: {e} against {exact}"
            );
            if act.iter().any(|&h| h == 0.0 || h == NET_ACT_MAX as f64) {
                // A unit exactly at a kink of the clipping has no slope to compare.
                continue;
            }
            let mut grad = vec![0.0; wf.len()];
            model.backward(&wf, x, &inputs, &act, 1.0, &mut grad);
            for j in (0..wf.len()).step_by(5) {
                let mut moved = wf.clone();
                moved[j] += 1e-3;
                let slope = (model.forward(&moved, x, &inputs, &mut act.clone()) - e) / 1e-3;
                assert!(
                    (slope - grad[j]).abs() < 1e-3 * (1.0 + slope.abs()),
                    "{set}: weight {j}"
                );
            }
        }
        assert!(
            active > 0,
            "{set}: no unit in its linear range: the slopes of the units untested"
        );
    }
}

#[test]
fn a_board_network_is_fitted_from_zero_and_learns_who_is_to_move() {
    let data = games(ParamSet::Endgame66, 24);
    let wide = games(ParamSet::Board(4), 24);
    // Each position twice, once for each side.
    assert_eq!(wide.len(), 2 * data.len());
    let mut start = Weights::zero_of(ParamSet::Endgame66);
    start.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
    let widened = start.widen(ParamSet::Board(4)).unwrap();
    let f = fit_to(&widened, &wide, 5000, 4, None, &mut rng()).unwrap();
    assert!(f.after < f.before, "{} -> {}", f.before, f.after);
    let net = &f.weights.values()[NUM_ALL..];
    assert!(net.iter().any(|&v| v != 0));
}

#[test]
fn a_network_is_fitted_too() {
    let set = ParamSet::Net66(2);
    let data = games(set, 24);
    let start = network(set);
    let f = fit_to(&start, &data, 5000, 4, None, &mut rng()).unwrap();
    assert_ne!(f.weights.values()[NUM_ALL..], start.values()[NUM_ALL..]);
    assert!(f.after < f.before, "{} -> {}", f.before, f.after);
}

#[test]
fn a_network_at_zero_is_started_without_changing_the_evaluation() {
    let data = games(ParamSet::Endgame66, 24);
    let wide = games(ParamSet::Net66(2), 24);
    let mut start = Weights::zero_of(ParamSet::Endgame66);
    start.values_mut()[..4].copy_from_slice(&[100, 0, -100, 0]);
    let alone = fit_to(&start, &data, 5000, 4, None, &mut rng()).unwrap();
    let widened = start.widen(ParamSet::Net66(2)).unwrap();
    let f = fit_to(&widened, &wide, 5000, 4, None, &mut rng()).unwrap();
    // The same start evaluation, so the same scale and error before.
    assert_eq!((f.scale, f.before), (alone.scale, alone.before));
    let outputs = &f.weights.values()[eval::net_len(2) - 2..];
    assert!(outputs.iter().any(|&o| o != 0), "{outputs:?}");
    assert!(f.after < f.before, "{} -> {}", f.before, f.after);
}

#[test]
fn a_sample_of_a_board_set_keeps_both_sides_of_each_position() {
    let wide = games(ParamSet::Board(2), 24);
    let n = wide.len();
    for max in [n, n / 2, n / 3, 2 * MIN_POSITIONS + 1] {
        let rows = sample_rows(&wide, max);
        assert!(
            rows.len() <= max.max(2 * MIN_POSITIONS),
            "{} of {max}",
            rows.len()
        );
        assert_eq!(rows.len() % 2, 0);
        for pair in rows.chunks(2) {
            assert_eq!((pair[0] % 2, pair[1]), (0, pair[0] + 1), "max {max}");
        }
        let to_move = rows
            .iter()
            .filter(|&&r| wide.player[r] == wide.pos[r].side_to_move())
            .count();
        assert_eq!(2 * to_move, rows.len(), "max {max}");
    }
    let plain = games(ParamSet::Endgame66, 24);
    let every_third = sample_rows(&plain, plain.len() / 3);
    assert_eq!(every_third[..3], [0, 3, 6]);
}

#[test]
fn a_unit_at_zero_in_a_widened_network_is_started_too() {
    let set = ParamSet::Board(2);
    let data = games(set, 24);
    let mut start = network(set);
    let model = Model::of(set);
    for i in model.unit_in(1) {
        start.values_mut()[i] = 0;
    }
    start.values_mut()[model.outs() + 1] = 0;
    let f = fit_to(&start, &data, 5000, 4, None, &mut rng()).unwrap();
    let fitted = f.weights.values();
    assert!(model.unit_in(1).iter().any(|&i| fitted[i] != 0));
    assert_ne!(fitted[model.outs() + 1], 0, "the unit's output learns");
    let set = ParamSet::Net66(2);
    let data = games(set, 24);
    let mut start = network(set);
    let model = Model::of(set);
    for i in model.unit_in(0) {
        start.values_mut()[i] = 0;
    }
    let f = fit_to(&start, &data, 5000, 4, None, &mut rng()).unwrap();
    assert!(model.unit_in(0).iter().any(|&i| f.weights.values()[i] != 0));
}

/// A batch's gradient as it was once summed: one part of [`BATCH_PART`] positions at a time,
/// each position's gradient by [`Model::backward`], the parts added in their order.
fn gradient_by_parts(
    model: &Model,
    w: &[f64],
    data: &Positions,
    rows: &[usize],
    y: &[f32],
    scale: f64,
    batch: &[usize],
) -> Vec<f64> {
    let d = model.d;
    let mut grad = vec![0.0; w.len()];
    for part in batch.chunks(BATCH_PART) {
        let mut sum = vec![0.0; w.len()];
        let mut act = vec![0.0; model.hidden];
        let mut inputs = Vec::new();
        for &i in part {
            let r = rows[i];
            let x = &data.x[r * d..][..d];
            if model.board {
                board_inputs(&data.pos[r], data.player[r], &mut inputs);
            }
            let e = model.forward(w, x, &inputs, &mut act);
            let p = sigmoid(scale * e);
            let k = 2.0 * (p - y[i] as f64) * p * (1.0 - p) * scale;
            model.backward(w, x, &inputs, &act, k, &mut sum);
        }
        for (g, s) in grad.iter_mut().zip(&sum) {
            *g += s;
        }
    }
    grad
}

#[test]
fn the_gradient_by_shares_is_the_gradient_by_parts_bit_for_bit_at_any_thread_count() {
    for set in [ParamSet::Endgame66, ParamSet::Net66(3), ParamSet::Board(3)] {
        let data = games(set, 12);
        assert!(data.len() >= BATCH + 150, "{set}: {} positions", data.len());
        let model = Model::of(set);
        let shares = model.shares();
        // Every weight is in exactly one share.
        let mut seen: Vec<usize> = shares.iter().flat_map(|s| s.entries.clone()).collect();
        seen.sort_unstable();
        let all = network(set).values().len();
        assert_eq!(seen, (0..all).collect::<Vec<_>>(), "{set}");
        let w: Vec<f64> = network(set).values().iter().map(|&v| v as f64).collect();
        let rows: Vec<usize> = (0..data.len()).collect();
        let y: Vec<f32> = rows.iter().map(|&r| data.y[r]).collect();
        // A full batch, a short last one, and one shuffled.
        let mut shuffled: Vec<usize> = (0..BATCH.min(rows.len())).rev().collect();
        shuffled.swap(3, 100);
        for batch in [&rows[..BATCH], &rows[BATCH..BATCH + 150], &shuffled[..]] {
            let want = gradient_by_parts(&model, &w, &data, &rows, &y, 0.01, batch);
            assert!(want.iter().any(|&g| g != 0.0), "{set}: a zero gradient");
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut got = vec![f64::NAN; w.len()];
                pool.install(|| {
                    let at = StepRows {
                        data: &data,
                        rows: &rows,
                        batch,
                    };
                    let ev = model.forward_batch(&w, at, &y, 0.01);
                    model.gradient(&w, at, &ev, &shares, &mut got);
                });
                let bits = |v: &[f64]| v.iter().map(|g| g.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "{set} at {threads} threads");
            }
        }
    }
}
