//! Unit tests of `jobs` (a file of their own beside it).

use super::*;
use crate::yardstick::Evaluator;

fn material() -> Weights {
    crate::eval::material()
}

#[test]
fn a_job_plays_as_fresh_searchers_do_whatever_the_thread_played_before() {
    let depth = |d| SearchConfig {
        tt_log2: 10,
        ..SearchConfig::with_depth(d)
    };
    let mut rng = derive(5, Purpose::Initial, 0, 0);
    let other = crate::ga::random_weights(crate::eval::ParamSet::Endgame66, 3000, &mut rng);
    // One evaluation at two depths is two sides.
    let mut batch = Batch::new(
        vec![
            Side::ours(material(), depth(3)),
            Side::ours(other, depth(2)),
            Side::ours(Evaluator::Classic, depth(2)),
            Side::ours(Evaluator::Classic, depth(1)),
            Side::ours(other, depth(3)),
        ],
        9,
        DrawRules::default(),
    );
    batch.record_moves = true;
    for (k, (b, w)) in [(0, 1), (1, 2), (3, 0), (4, 0)].into_iter().enumerate() {
        batch.jobs.push(GameJob {
            black: Seat::new(b),
            white: Seat::new(w),
            start: Start::Ballot(k as u32 * 7),
            purpose: Purpose::Game,
            round: 1,
            index: k as u64,
        });
    }
    // A match's start: a position (here the one after two ballot moves) and more moves.
    let b = &ballot()[11];
    let setup = b.moves[..2]
        .iter()
        .fold(Position::start(), |p, m| p.play(m));
    batch.openings.push(Opening::of(&StartPosition {
        setup,
        moves: b.moves[2..].to_vec(),
    }));
    batch.jobs.push(GameJob {
        start: Start::Opening(0),
        index: 4,
        ..batch.jobs[0]
    });
    batch.check().expect("a good batch");
    // Played twice in a row on this thread (warm searchers, other settings in between).
    let play = |j| play_job(&batch, j, &|| false).expect("never stopped");
    let first: Vec<Played> = batch.jobs.iter().map(play).collect();
    let again: Vec<Played> = batch.jobs.iter().rev().map(play).collect();
    assert!(first.iter().eq(again.iter().rev()));
    for (job, p) in batch.jobs.iter().zip(&first) {
        let fresh = |seat: &Seat| match batch.sides[seat.side as usize].plays {
            Plays::Ours { eval, config } => Searcher::new(eval, config),
            _ => unreachable!("our engine's sides"),
        };
        let (mut sb, mut sw) = (fresh(&job.black), fresh(&job.white));
        let mut game = batch.game(&job.start);
        let mut rng = derive(9, Purpose::Game, 1, job.index);
        crate::play::play_out(&mut game, &mut sb, &mut sw, &mut rng);
        assert_eq!(p.result, game.result());
        assert_eq!(p.plies as usize, game.plies());
        let replayed = p.replay(&batch, &job.start);
        assert_eq!(replayed.moves(), game.moves());
        assert_eq!(replayed.result(), game.result());
        let (from, moves) = p.moves_from(&batch, &job.start);
        assert_eq!(from, *game.start());
        assert!(moves.eq(game.moves().iter().copied()));
    }
    assert!(first.iter().any(|p| p.plies > 20));
    let opened = batch.game(&Start::Opening(0));
    assert_eq!(*opened.start(), setup);
    assert_eq!(opened.moves(), &b.moves[2..]);
    // A batch from elsewhere naming a missing opening, or an illegal opening move.
    let mut bad = batch.clone();
    bad.jobs[4].start = Start::Opening(1);
    assert!(bad.check().unwrap_err().0.contains("job 4"));
    let mut bad = batch.clone();
    bad.openings[0].moves.push(b.moves[0]);
    assert!(bad.check().unwrap_err().0.contains("illegal move"));
}

#[test]
fn local_play_keeps_job_order_and_stops_before_a_game() {
    let one = SearchConfig::with_depth(1);
    let mut batch = Batch::of_weights(&[material(), material()], one, 3, DrawRules::default());
    for k in 0..6 {
        batch.jobs.push(GameJob {
            black: Seat::new(k % 2),
            white: Seat::new((k + 1) % 2),
            start: Start::Ballot(k as u32),
            purpose: Purpose::Game,
            round: 0,
            index: k as u64,
        });
    }
    let seen = std::sync::Mutex::new(Vec::new());
    let all =
        play_local(&batch, &|k, _| seen.lock().unwrap().push(k), &|| false).expect("not stopped");
    let one_by_one: Vec<Played> = batch
        .jobs
        .iter()
        .map(|j| play_job(&batch, j, &|| false).expect("never stopped"))
        .collect();
    assert_eq!(all, one_by_one);
    assert_eq!(seen.lock().unwrap().len(), 6);
    assert!(play_local(&batch, &|_, _| {}, &|| true).is_none());
    // A batch that abandons its games stops them mid-game; one that does not plays them out.
    let moves = std::sync::atomic::AtomicUsize::new(0);
    let stop = || moves.fetch_add(1, Ordering::SeqCst) >= 5;
    assert_eq!(
        play_job(&batch, &batch.jobs[0], &stop),
        Some(all[0].clone())
    );
    batch.abandon = true;
    moves.store(0, Ordering::SeqCst);
    assert_eq!(play_job(&batch, &batch.jobs[0], &stop), None);
    assert!(moves.load(Ordering::SeqCst) == 6 && all[0].plies > 10);
    batch.jobs[2].white.side = 7;
    assert!(batch.check().unwrap_err().0.contains("job 2"));
}

#[test]
fn a_timed_batch_plays_to_an_end_and_a_time_loss_survives_the_replay() {
    let deepest = SearchConfig::with_depth(crate::search::MAX_TIMED_DEPTH);
    let mut batch = Batch::new(
        vec![
            Side::ours(material(), deepest),
            Side::ours(Evaluator::Classic, deepest),
        ],
        4,
        DrawRules::default(),
    );
    batch.record_moves = true;
    batch.on_clock(Some("0.2+0.005".parse().unwrap()));
    let side = Seat::new;
    let job = GameJob {
        black: side(0),
        white: side(1),
        start: Start::Ballot(3),
        purpose: Purpose::Game,
        round: 0,
        index: 0,
    };
    let p = play_job(&batch, &job, &|| false).expect("never stopped");
    assert!(p.result.is_some() && p.plies > 7, "{p:?}");
    let [b, w] = p.timing.expect("a timed game has statistics");
    assert!(b.searches > 0 && w.searches > 0 && b.depth_sum >= b.searches as u64);
    assert_eq!(p.replay(&batch, &job.start).result(), p.result);
    // A game lost on time: its replay and its PDN say so. (Without a note: the game played
    // above may itself have been lost on time on a loaded machine, and its note would be
    // written into the PDN's comment.)
    let mut lost = p.clone();
    lost.plies = 7;
    lost.moves.truncate(7);
    lost.result = Some((GameOutcome::BlackWin, EndReason::Time(Color::White)));
    lost.note = None;
    let game = lost.replay(&batch, &job.start);
    assert_eq!(game.result(), lost.result);
    let pdn = game.to_pdn(&crate::game::PdnTags::default());
    assert!(pdn.contains("{White ran out of time}") && pdn.contains("[Result \"1-0\"]"));
    // So do an outside engine's fault (with what it said), a resignation and an
    // adjudication: a match counts the game as it ended, not as a game cut short.
    let fault = crate::game::EngineFault::Exited;
    for end in [
        EndReason::Fault(Color::White, fault),
        EndReason::Resigned(Color::White),
        EndReason::AdjudicatedLoss(Color::White),
    ] {
        lost.result = Some((GameOutcome::BlackWin, end));
        lost.note = Some("segmentation fault".into());
        let game = lost.replay(&batch, &job.start);
        assert_eq!(game.result(), lost.result, "{end:?}");
        if matches!(end, EndReason::Fault(..)) {
            assert_eq!(game.note(), Some("segmentation fault"));
        }
    }
    lost.result = Some((GameOutcome::Draw, EndReason::AdjudicatedDraw));
    assert_eq!(lost.replay(&batch, &job.start).result(), lost.result);
    // A fixed-depth batch has none.
    batch.on_clock(None);
    batch.sides[0] = Side::ours(material(), SearchConfig::with_depth(2));
    let job = GameJob {
        black: Seat::new(0),
        white: Seat::new(0),
        ..job
    };
    assert_eq!(play_job(&batch, &job, &|| false).unwrap().timing, None);
}

#[test]
fn batches_merge_with_their_sides_moved_up_each_with_its_own_clock() {
    let one = |seed| {
        let one = SearchConfig::with_depth(1);
        let mut b = Batch::of_weights(&[material(), material()], one, seed, DrawRules::default());
        b.jobs.push(GameJob::new(
            Seat::new(0),
            Seat::new(1),
            Start::Ballot(3),
            Purpose::Game,
            0,
            0,
        ));
        b
    };
    let merged = Batch::merge(&[one(1), one(1)]).expect("two batches that differ in no setting");
    assert_eq!(merged.sides.len(), 4);
    assert_eq!(merged.jobs[1].black.side, 2);
    assert!(Batch::merge(&[one(1), one(2)]).is_none(), "another seed");
    // A side's own clock goes with it: the merged batch plays each on its clock.
    let mut timed = one(1);
    timed.sides[0].clock = Some("0.1".parse().unwrap());
    let merged = Batch::merge(&[one(1), timed]).expect("clocks are the sides'");
    let clocks: Vec<bool> = merged
        .jobs
        .iter()
        .map(|j| merged.clock_of(&j.black).is_some())
        .collect();
    assert_eq!(clocks, [false, true]);
    assert!(merged.timed());
    // A genome needs the batch's engine.
    let mut genome = one(1);
    genome.sides[1].plays = Plays::Genome(material());
    assert!(genome.check().unwrap_err().0.contains("genome"));
    // The simulator decides games between genomes only.
    let spec = EngineSpec::simulated(&crate::sim::SimModel::new(4, 1), 2);
    let mut sim = Batch::of_genomes(&spec, &[spec.defaults(); 2], 1, DrawRules::default());
    sim.jobs = one(1).jobs;
    sim.check().expect("genomes of the simulator");
    sim.sides[0] = Side::ours(material(), SearchConfig::with_depth(1));
    assert!(sim
        .check()
        .unwrap_err()
        .0
        .contains("side 0 is not a genome"));
}

#[test]
fn a_game_whose_moves_were_not_kept_replays_to_its_result() {
    let spec = crate::genome::EngineSpec::simulated(&crate::sim::SimModel::new(3, 1), 1);
    let mut rng = derive(3, Purpose::Initial, 0, 0);
    let far = crate::ga::random_weights(spec.defaults().set(), 3000, &mut rng);
    let sides = vec![
        Side::genome(&spec, spec.defaults()),
        Side::genome(&spec, far),
    ];
    let mut batch = Batch::new(sides, 4, DrawRules::default());
    batch.engine = Some(spec);
    batch.record_moves = true;
    for k in 0..24u64 {
        batch.jobs.push(GameJob {
            black: Seat::new((k % 2) as usize),
            white: Seat::new(1 - (k % 2) as usize),
            start: Start::Ballot(k as u32),
            purpose: Purpose::Game,
            round: 1,
            index: k,
        });
    }
    batch.check().expect("a good batch");
    let played: Vec<Played> = (batch.jobs.iter())
        .map(|j| play_job(&batch, j, &|| false).expect("never stopped"))
        .collect();
    // The simulator's games have results and no moves: a match's replay (its tally, its
    // report) keeps each result, not a draw for a game that never ended.
    assert!(played
        .iter()
        .any(|p| p.result.is_some_and(|r| r.0 != GameOutcome::Draw)));
    for (job, p) in batch.jobs.iter().zip(&played) {
        assert!(p.moves.is_empty());
        assert_eq!(p.replay(&batch, &job.start).result(), p.result);
    }
}
