//! Unit tests of `run` (a file of their own beside it).

use super::*;
use crate::openings::OpeningBook;
use crate::search::SearchConfig;
use crate::yardstick::Evaluator;
use rand::RngExt;

fn run(pairs: usize, games: usize) -> MatchRun<'static> {
    let mut r = MatchRun::of(&MatchSettings {
        book: OpeningBook::Ballot,
        pairs: Some(pairs),
        seed: 9,
        rules: DrawRules::default(),
        engine: None,
    });
    r.games = games;
    r
}

#[test]
fn rounds_of_the_book_start_again_with_new_generators() {
    let (one, two) = (run(3, 6), run(3, 14));
    assert_eq!(two.round_of(5), 0);
    assert_eq!(two.round_of(6), 1);
    assert_eq!(two.round_of(13), 2);
    assert_eq!(two.start_of(7), two.start_of(1));
    assert_eq!(two.start_of(12), two.start_of(0));
    let draw = |r: &MatchRun, i| r.rng_of(i).random::<u64>();
    assert_eq!(draw(&two, 4), draw(&one, 4));
    assert_ne!(draw(&two, 6), draw(&two, 0));
    assert_eq!(
        draw(&two, 6),
        derive(9, Purpose::Game, 1, 6).random::<u64>()
    );
    // The first round's jobs are a one-round match's jobs.
    let e = OurEngine {
        name: "m".into(),
        eval: crate::eval::material().into(),
        config: SearchConfig::with_depth(1),
    };
    let (b1, b2) = (one.batch(&e, &e), two.batch(&e, &e));
    assert_eq!(b2.jobs.len(), 14);
    assert_eq!(b1.jobs[..], b2.jobs[..6]);
    assert_eq!(b2.jobs[7].start, b2.jobs[1].start);
    assert_eq!((b2.jobs[7].round, b2.jobs[7].index), (1, 7));
    assert_eq!(b1.openings, b2.openings);
}

/// A finished game `index` of a match: `a_result` 2 A wins, 1 draw, 0 A loses; `end` ends
/// it otherwise (a fault or an adjudication of the side to move, Black).
fn game(index: usize, a_result: usize, end: Option<&str>) -> MatchGame {
    let a_is_black = index.is_multiple_of(2);
    let mut game = Game::new(crate::board::Position::start(), DrawRules::default());
    match end {
        Some("fault") => game.forfeit(crate::game::EngineFault::Hung, "no answer"),
        Some("adjudicated") => game.adjudicate(Some(Color::Black)),
        _ => match a_result {
            1 => game.adjudicate(None),
            2 => game.adjudicate(Some(if a_is_black {
                Color::White
            } else {
                Color::Black
            })),
            _ => game.adjudicate(Some(if a_is_black {
                Color::Black
            } else {
                Color::White
            })),
        },
    }
    MatchGame {
        index,
        a_is_black,
        game,
        timing: None,
    }
}

/// Counts what it hears, to check the order.
struct Heard(Mutex<Vec<usize>>, Mutex<usize>);
impl MatchObserver for Heard {
    type Error = std::convert::Infallible;
    fn game_finished(&self, _: &MatchGame) {
        *self.1.lock().unwrap() += 1;
    }
    fn game_counted(&self, g: &MatchGame) -> Result<(), Self::Error> {
        self.0.lock().unwrap().push(g.index);
        Ok(())
    }
}

#[test]
fn the_tally_counts_in_index_order_and_knows_how_games_were_lost() {
    let r = run(2, 8);
    let heard = Heard(Mutex::new(Vec::new()), Mutex::new(0));
    let tally = Tally::new(&r, &heard);
    // Out of order: game 1 waits for game 0.
    assert!(!tally.add(game(1, 1, None)));
    assert!(heard.0.lock().unwrap().is_empty());
    assert!(!tally.add(game(0, 2, Some("fault")))); // A is Black: B wins by A's fault
    assert_eq!(*heard.0.lock().unwrap(), [0, 1]);
    assert!(!tally.add(game(2, 1, Some("adjudicated")))); // A (Black) adjudicated lost
    assert!(!tally.add(game(5, 1, None)));
    // Interrupted with game 3 and 4 missing: game 5 counts all the same.
    let result = tally.finish(true).unwrap();
    assert_eq!(result.end, MatchEnd::Interrupted);
    assert_eq!(*heard.0.lock().unwrap(), [0, 1, 2, 5]);
    assert_eq!(*heard.1.lock().unwrap(), 4);
    assert_eq!(
        result.wdl,
        Wdl {
            wins: 0,
            draws: 2,
            losses: 2
        }
    );
    assert_eq!(result.pentanomial.pairs(), 1);
    assert_eq!(result.losses[0].faults, 1);
    assert_eq!(result.losses[0].adjudicated, 1);
    assert_eq!(result.losses[1], EngineLosses::default());
    assert_eq!(result.adjudicated_draws, 2);

    // An SPRT that decides stops the match at its pair; the rest no longer count.
    let mut r = run(2, 400);
    r.sprt = Some(Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap());
    let tally = Tally::new(&r, &Unobserved);
    let mut stopped_at = None;
    for i in 0..400 {
        if tally.add(game(i, 0, None)) {
            stopped_at = Some(i);
            break;
        }
    }
    let i = stopped_at.expect("all losses decide H0");
    assert_eq!(i % 2, 1, "at the end of a pair");
    // A game that ends after the decision: still stop, and it does not count.
    assert!(tally.add(game(i + 1, 2, None)));
    let result = tally.finish(false).unwrap();
    assert_eq!(result.end, MatchEnd::Sprt(SprtVerdict::H0));
    assert_eq!(result.games.len(), i + 1);
    assert_eq!(result.wdl.losses as usize, i + 1);

    // Every game counted: complete.
    let r = run(1, 2);
    let tally = Tally::new(&r, &Unobserved);
    tally.add(game(0, 2, None));
    tally.add(game(1, 2, None));
    let result = tally.finish(false).unwrap();
    assert_eq!((result.end, result.wdl.wins), (MatchEnd::Complete, 2));
}

#[test]
fn centi_men_are_hundredths_of_the_evaluations_own_man() {
    let e = |eval: Evaluator| OurEngine {
        name: "x".into(),
        eval,
        config: SearchConfig::with_depth(1),
    };
    let hand = e(Evaluator::Hand);
    let m = f64::from(crate::man_value(&Evaluator::Hand).unwrap());
    assert_eq!(hand.centi_men(m.round() as i32), 100);
    assert_eq!(hand.centi_men(-(m * 2.5).round() as i32), -250);
    assert_eq!(hand.centi_men(0), 0);
    assert_eq!(
        hand.centi_men(crate::search::WIN - 3),
        crate::play::WIN_CENTI_MEN
    );
    assert_eq!(
        hand.centi_men(-crate::search::WIN + 3),
        -crate::play::WIN_CENTI_MEN
    );
    let material = e(crate::eval::material().into());
    let mm = crate::eval::material().into();
    let mv = f64::from(crate::man_value(&mm).unwrap());
    assert_eq!(material.centi_men((mv * 0.35).round() as i32), 35);
}

/// A tuned engine's match (`sim:4`, on a clock) and two sides of it: a genome and our engine.
fn engine_match() -> (EngineSpec, MatchRun<'static>, Contestant, Contestant) {
    let mut spec = EngineSpec::simulated(&crate::sim::SimModel::new(4, 1), 2);
    spec.tc = Some("10+0.1".parse().unwrap());
    let mut settings = MatchSettings::ballot(2, 1, DrawRules::default());
    settings.engine = Some(spec.clone());
    let genome = Contestant::Genome {
        name: "declared".into(),
        w: spec.defaults(),
    };
    let ours = Contestant::Ours(OurEngine {
        name: "material".into(),
        eval: crate::eval::material().into(),
        config: SearchConfig::with_depth(1),
    });
    (spec, MatchRun::of(&settings), genome, ours)
}

/// Each side plays as what it says it is: a genome as the match's engine with its values on
/// the engine's clock, our engine as ours (no longer made a genome of the engine).
#[test]
fn a_genome_plays_as_the_matchs_engine_and_ours_as_ours() {
    let (spec, run, genome, ours) = engine_match();
    let batch = run.batch_of(&genome, &ours);
    assert_eq!(
        batch.sides[0],
        crate::side::Side::genome(&spec, spec.defaults())
    );
    assert_eq!(batch.sides[0].clock, spec.tc);
    let ours_side = crate::side::Side {
        clock: spec.tc,
        ..crate::side::Side::ours(crate::eval::material(), SearchConfig::with_depth(1))
    };
    assert_eq!(batch.sides[1], ours_side);
    assert_eq!(batch.engine, Some(spec));
}

/// A genome stands for nothing in a match of no tuned engine.
#[test]
#[should_panic(expected = "'declared' is a genome of a tuned engine, in a match of none")]
fn a_genome_in_a_match_of_no_engine_is_refused() {
    let (_, mut run, genome, ours) = engine_match();
    run.engine = None;
    run.batch_of(&ours, &genome);
}
