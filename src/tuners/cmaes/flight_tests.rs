//! The stream of batches in flight ([`crate::flight`]), tested on CMA-ES's generations.

use super::{CmaesSettings, CmaesState, CmaesStep};
use crate::flight::*;
use crate::genome::EngineSpec;
use crate::jobs::{self, Batch, Played};
use crate::sim::SimModel;
use crate::tuner::play_step;
use crate::tuner::Tuner;
use std::sync::atomic::{AtomicUsize, Ordering};

fn cmaes(in_flight: u32) -> CmaesState {
    let model = SimModel::new(6, 3);
    let settings = CmaesSettings {
        games: 400,
        seed: 9,
        in_flight,
        ..CmaesSettings::default()
    };
    CmaesState::new(&EngineSpec::simulated(&model, 2), &settings)
}

fn on_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    jobs::thread_pool(threads).unwrap().install(f)
}

/// Each step's generation and σ, one step at a time.
fn one_at_a_time(t: &mut CmaesState) -> Vec<(u64, f64)> {
    let mut out = Vec::new();
    on_pool(1, || {
        while let Some(s) = play_step(t, &|_, _| {}, &|| false) {
            out.push((s.generation, s.sigma));
        }
    });
    out
}

fn streamed(t: &mut CmaesState, threads: usize, stop_after: Option<usize>) -> Vec<(u64, f64)> {
    let games = AtomicUsize::new(0);
    let mut out = Vec::new();
    let stop = || stop_after.is_some_and(|n| games.load(Ordering::SeqCst) >= n);
    on_pool(threads, || {
        run_steps(
            t,
            &|_| {
                games.fetch_add(1, Ordering::SeqCst);
            },
            &stop,
            &mut |_: &CmaesState, s: &CmaesStep| {
                out.push((s.generation, s.sigma));
                true
            },
        )
    });
    out
}

#[test]
fn a_stream_tells_the_steps_of_one_batch_at_a_time_at_any_thread_count() {
    let mut alone = cmaes(3);
    let steps = one_at_a_time(&mut alone);
    assert_eq!(steps.len(), 40);
    for threads in [1, 2, 4] {
        let mut t = cmaes(3);
        assert_eq!(streamed(&mut t, threads, None), steps, "{threads} threads");
        assert_eq!(t, alone, "{threads} threads");
    }
    // Played together and told in turn (as through another executor): the same.
    let mut t = cmaes(3);
    let mut out = Vec::new();
    on_pool(2, || {
        in_windows(&mut t, 3, &|_| {}, &|| false, &mut |_, s: &CmaesStep| {
            out.push((s.generation, s.sigma));
            true
        })
    });
    assert_eq!((&out, &t), (&steps, &alone));
    // Generations drawn ahead are other generations than those drawn one at a time.
    let mut one = cmaes(1);
    one_at_a_time(&mut one);
    assert_ne!(one, alone);
}

#[test]
fn a_stopped_stream_keeps_its_last_whole_step_and_goes_on_as_if_never_stopped() {
    let mut whole = cmaes(3);
    let steps = one_at_a_time(&mut whole);
    let mut t = cmaes(3);
    let first = streamed(&mut t, 2, Some(150));
    assert!(
        !first.is_empty() && first.len() < steps.len(),
        "{}",
        first.len()
    );
    assert_eq!(first, steps[..first.len()]);
    assert_eq!(t.generation, first.last().unwrap().0);
    // What it drew for the generations asked for ahead is kept: it goes on from there.
    assert_eq!(t.ahead.len(), 2);
    let rest = streamed(&mut t, 3, None);
    assert_eq!([first, rest].concat(), steps);
    assert_eq!(t, whole);
}

#[test]
fn a_stopped_window_tells_its_whole_batches_and_goes_on_as_if_never_stopped() {
    // As through another executor (an MPI job's ranks): three generations merged at a time.
    let mut whole = cmaes(3);
    let steps = one_at_a_time(&mut whole);
    let windows = |t: &mut CmaesState, stop_after: Option<usize>| {
        let games = AtomicUsize::new(0);
        let stop = || stop_after.is_some_and(|n| games.load(Ordering::SeqCst) >= n);
        let mut out = Vec::new();
        on_pool(1, || {
            let count = |_: &Played| {
                games.fetch_add(1, Ordering::SeqCst);
            };
            in_windows(t, 3, &count, &stop, &mut |_, s: &CmaesStep| {
                out.push((s.generation, s.sigma));
                true
            })
        });
        out
    };
    // Stopped in the second window's second generation (10 games each): its first is whole.
    let mut t = cmaes(3);
    let first = windows(&mut t, Some(45));
    assert_eq!(first, steps[..4]);
    assert_eq!(t.generation, 4);
    let rest = windows(&mut t, None);
    assert_eq!([first, rest].concat(), steps);
    assert_eq!(t, whole);
}

#[test]
fn a_step_refused_ends_the_stream_there() {
    let mut t = cmaes(4);
    let mut seen = 0;
    on_pool(2, || {
        run_steps(&mut t, &|_| {}, &|| false, &mut |_, _| {
            seen += 1;
            seen < 3
        })
    });
    assert_eq!((seen, t.generation), (3, 3));
}

/// A tuner whose batches have no games: told at once, one after another.
struct Empty {
    told: u32,
    total: u32,
}

impl Tuner for Empty {
    type Step = u32;
    fn ask(&self) -> Option<Batch> {
        self.ask_ahead(0)
    }
    fn in_flight(&self) -> usize {
        3
    }
    fn ask_ahead(&self, k: usize) -> Option<Batch> {
        (k < 3 && self.told + (k as u32) < self.total)
            .then(|| Batch::new(Vec::new(), 1, crate::game::DrawRules::default()))
    }
    fn tell(&mut self, _: &Batch, _: &[Played]) -> Option<u32> {
        self.told += 1;
        Some(self.told)
    }
    fn answer(&self) -> crate::eval::Weights {
        crate::eval::Weights::zero()
    }
    fn games(&self) -> u64 {
        0
    }
}

#[test]
fn batches_without_games_are_told_and_a_panic_ends_the_stream() {
    let mut t = Empty { told: 0, total: 7 };
    let mut steps = Vec::new();
    on_pool(2, || {
        run_steps(&mut t, &|_| {}, &|| false, &mut |_, s: &u32| {
            steps.push(*s);
            true
        })
    });
    assert_eq!(steps, (1..=7).collect::<Vec<_>>());
    // A panic where a step is heard reaches the caller; no thread is left waiting.
    let mut t = cmaes(3);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        on_pool(3, || {
            run_steps(&mut t, &|_| {}, &|| false, &mut |_, s: &CmaesStep| {
                assert!(s.generation < 2, "heard generation {}", s.generation);
                true
            })
        })
    }));
    assert!(caught.is_err());
}
