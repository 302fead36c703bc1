//! The mean with generations in flight: asked for one at a time, played as a stream at any
//! thread count, or stopped and played on, a session ends the same.

use super::generation::GaState;
use super::mean::engine_mean;
use super::settings::*;
use crate::flight::run_steps;
use crate::genome::EngineSpec;
use crate::jobs;
use crate::sim::SimModel;
use crate::tuner::Tuner;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A mean session of `sim:6`, population 8, 9 generations, `flight` in flight.
fn session(flight: u32) -> GaState {
    let spec = EngineSpec::simulated(&SimModel::new(6, 1), 1);
    let mut s = Settings {
        population: 8,
        elite: 2,
        newcomers: 2,
        seed: 4,
        stop: Stop::Generations(9),
        ..Settings::default()
    };
    s.ga.params = spec.params();
    s.ga.fit_every = 0;
    s.ga.fit_top = 0;
    s.ga.measure_every = 0;
    s.ga.method = engine_mean(6);
    s.ga.in_flight = flight;
    s.engine = Some(spec);
    s.validate().unwrap();
    GaState::new("flight", s)
}

/// What a session's generations decided: its centre (with the pairs drawn ahead), the next
/// pairs, the answer and every generation's games.
fn decided(s: &GaState) -> impl PartialEq + std::fmt::Debug {
    let games: Vec<(u64, u32, u32)> = s
        .history
        .iter()
        .map(|h| (h.generation, h.games, h.best))
        .collect();
    (
        s.generation,
        s.centre.clone(),
        s.population.clone(),
        s.best_so_far,
        games,
    )
}

fn on_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    jobs::thread_pool(threads).unwrap().install(f)
}

/// Plays `s` as a stream on `threads` threads until `stop_after` games have started; the
/// generations told.
fn streamed(s: &mut GaState, threads: usize, stop_after: Option<usize>) -> Vec<u64> {
    let games = AtomicUsize::new(0);
    let mut told = Vec::new();
    let stop = || stop_after.is_some_and(|n| games.fetch_add(1, Ordering::SeqCst) >= n);
    on_pool(threads, || {
        run_steps(s, &|_| {}, &stop, &mut |_: &GaState, st| {
            told.push(st.generation);
            true
        })
    });
    told
}

#[test]
fn a_stream_at_any_thread_count_is_one_generation_at_a_time() {
    let mut alone = session(3);
    assert_eq!(alone.in_flight(), 3);
    on_pool(1, || {
        while !alone.finished() {
            alone.run_generation(&|_| {});
        }
    });
    assert_eq!(alone.generation, 9);
    for threads in [1, 2, 4] {
        let mut s = session(3);
        assert_eq!(streamed(&mut s, threads, None), (1..=9).collect::<Vec<_>>());
        assert_eq!(decided(&s), decided(&alone), "{threads} threads");
    }
    // Past the limit nothing is asked for ahead.
    assert!(alone.ask_ahead(0).is_none() && alone.ask_ahead(1).is_none());
    // Other pairs than with one in flight, from the second generation on.
    let mut one = session(1);
    on_pool(1, || one.run_generation(&|_| {}));
    let mut three = session(3);
    on_pool(1, || three.run_generation(&|_| {}));
    assert_eq!(one.history[0].best, three.history[0].best);
    assert_ne!(one.population, three.population);
}

#[test]
fn a_stopped_stream_keeps_its_last_whole_generation_and_goes_on_exactly() {
    let mut whole = session(3);
    streamed(&mut whole, 2, None);
    let mut s = session(3);
    let told = streamed(&mut s, 2, Some(40));
    assert!(!told.is_empty() && s.generation < 9, "{told:?}");
    assert_eq!(s.generation, *told.last().unwrap());
    assert!(s.pending.is_empty());
    // The batch asked for next is the one the stream had in flight for that generation.
    let ahead = s.ask_ahead(1).unwrap();
    assert_eq!(ahead.jobs.len(), 8);
    streamed(&mut s, 2, None);
    assert_eq!(decided(&s), decided(&whole));
}

#[test]
fn generations_in_flight_are_checked() {
    let mut s = session(3).settings;
    s.ga.in_flight = 0;
    assert!(s.validate().is_err());
    s.ga.in_flight = 65;
    assert!(s.validate().is_err());
    s.ga.in_flight = 2;
    s.ga.measure_every = 10;
    assert!(s.validate().unwrap_err().0.contains("no measurement"));
    let mut ga = Settings::default();
    ga.ga.in_flight = 2;
    assert!(ga
        .validate()
        .unwrap_err()
        .0
        .contains("need --selection mean"));
}
