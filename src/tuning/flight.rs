//! Games in flight: a tuner's steps played one after another ([`run_steps`]), as a stream when
//! the tuner keeps more than one batch in flight ([`Tuner::in_flight`]).
//!
//! A tuner whose steps are small (16 games a generation) leaves threads waiting at the end of
//! every step for its longest game. One that asks for the next batches before the last are told
//! keeps them busy: every thread takes the next game not started, in batch and job order, of
//! the batches asked for; once a batch's games are all in (and the batches before it told), the
//! thread that ended it tells the tuner, hands the step to the caller (a session saves its
//! checkpoint), and asks for the batch that fills the window again, while the other threads
//! play on.
//!
//! The results never depend on the threads or on the order games end: what each batch holds
//! is fixed by the tuner's state (it keeps what it drew for the batches asked for ahead), the
//! batches are told in the order they were asked for, and each game depends on its job alone.
//! Where batches go through another executor (the ranks of an MPI job,
//! [`crate::jobs::set_executor`]), the batches in flight are played as one merged batch and told
//! in turn: the same steps, the same results.

use crate::jobs::{self, Batch, Played};
use crate::schedule::{self, BatchLog};
use crate::tuner::Tuner;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// Plays `tuner`'s steps on the jobs executor until its budget is played, `stop` says yes
/// (asked before each game; the steps not whole are abandoned, [`Tuner::abandon`], and the
/// tuner is as its last whole step left it), or `after` says no. `after(tuner, step)` hears
/// of each whole step as it ends, the tuner as the step left it (on a pool thread while the
/// games of the batches in flight go on); `on_game` of every game as it ends.
pub fn run_steps<T: Tuner + Send + ?Sized>(
    tuner: &mut T,
    on_game: &(dyn Fn(&Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
    after: &mut (dyn FnMut(&T, &T::Step) -> bool + Send),
) {
    let flight = tuner.in_flight().max(1);
    if flight == 1 || jobs::remote() {
        in_windows(tuner, flight, on_game, stop, after);
    } else {
        stream(tuner, flight, on_game, stop, after);
    }
}

/// The batches in flight played together through [`jobs::run`] (merged into one batch), then
/// told in turn. Stopped, the batches at the window's front whose games all ended (up to the
/// first that has one missing) are told all the same, as a stream tells a batch once its games
/// are in, and the rest abandoned.
pub(crate) fn in_windows<T: Tuner + ?Sized>(
    tuner: &mut T,
    flight: usize,
    on_game: &(dyn Fn(&Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
    after: &mut (dyn FnMut(&T, &T::Step) -> bool + Send),
) {
    loop {
        let mut window: Vec<Batch> = (0..flight).map_while(|k| tuner.ask_ahead(k)).collect();
        let merged = match window.len() {
            0 => return,
            1 => None,
            _ => Batch::merge(&window),
        };
        if merged.is_none() {
            window.truncate(1);
        }
        let batch = merged.as_ref().unwrap_or(&window[0]);
        // Of a merged window, each game's result as it ends (for the whole batches of a stop).
        let ended: Vec<std::sync::OnceLock<Played>> = match merged {
            Some(_) => batch
                .jobs
                .iter()
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            None => Vec::new(),
        };
        let phase = tuner.phase().map(schedule::phase);
        let played = jobs::run(
            batch,
            &|k, p| {
                on_game(p);
                if let Some(slot) = ended.get(k) {
                    let _ = slot.set(p.clone());
                }
            },
            stop,
        );
        drop(phase);
        let (mut played, whole) = match played {
            Some(played) => (played, true),
            None => {
                let mut ended = ended.into_iter().map(std::sync::OnceLock::into_inner);
                let mut front = Vec::new();
                for b in &window {
                    let games: Option<Vec<Played>> = ended.by_ref().take(b.jobs.len()).collect();
                    match games {
                        Some(g) => front.extend(g),
                        None => break,
                    }
                }
                (front, false)
            }
        };
        for b in &window {
            if played.len() < b.jobs.len() {
                break;
            }
            let rest = played.split_off(b.jobs.len());
            if let Some(step) = tuner.tell(b, &played) {
                if !after(tuner, &step) {
                    if !whole {
                        tuner.abandon();
                    }
                    return;
                }
            }
            played = rest;
        }
        if !whole {
            tuner.abandon();
            return;
        }
    }
}

/// A batch in flight.
struct Flight {
    /// Its number in the stream, from 0.
    seq: u64,
    batch: Arc<Batch>,
    slots: Vec<Option<Played>>,
    /// Its next game not started.
    next: usize,
    /// Its games not yet in.
    left: usize,
    log: Option<BatchLog>,
    /// When its last game ended.
    ended: Option<Instant>,
}

/// The batches in flight, oldest first, and how the stream stands.
struct Queue {
    flights: VecDeque<Flight>,
    /// The number of the oldest batch in flight.
    front: u64,
    /// The number the next batch asked for gets.
    seq: u64,
    /// A thread is telling the tuner (one at a time, in order).
    telling: bool,
    /// No game is to start: the budget is played, `after` said no, or stopped.
    over: bool,
    /// A game was not played to its end: the steps not whole are abandoned.
    stopped: bool,
    threads: usize,
    flight: usize,
}

/// Ends the stream if a worker unwinds (a panic in a game or in what hears of it): the other
/// workers stop waiting, and the panic reaches the caller through the scope.
struct Unwind<'a>(&'a Mutex<Queue>, &'a Condvar, &'a AtomicBool);

impl Drop for Unwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut q = lock(self.0);
            q.over = true;
            q.stopped = true;
            self.2.store(true, Ordering::SeqCst);
            self.1.notify_all();
        }
    }
}

impl Queue {
    fn push(&mut self, batch: Batch) {
        let n = batch.jobs.len();
        let log = schedule::flight_batch(jobs::phase_of(&batch.jobs), n, self.threads, self.flight);
        self.flights.push_back(Flight {
            seq: self.seq,
            batch: Arc::new(batch),
            slots: (0..n).map(|_| None).collect(),
            next: 0,
            left: n,
            log,
            ended: None,
        });
        self.seq += 1;
    }

    /// Is the oldest batch's every game in?
    fn front_whole(&self) -> bool {
        !self.over && self.flights.front().is_some_and(|f| f.left == 0)
    }
}

/// The tuner and what hears of its steps, one thread at a time.
struct Coord<'a, T: ?Sized + Tuner> {
    tuner: &'a mut T,
    after: &'a mut (dyn FnMut(&T, &T::Step) -> bool + Send),
}

/// The mutex's guard, whether or not a thread panicked while holding it (what it guards is
/// kept consistent by its users).
pub(crate) fn lock<X>(m: &Mutex<X>) -> MutexGuard<'_, X> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The batches in flight played as a stream on the current rayon pool.
fn stream<T: Tuner + Send + ?Sized>(
    tuner: &mut T,
    flight: usize,
    on_game: &(dyn Fn(&Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
    after: &mut (dyn FnMut(&T, &T::Step) -> bool + Send),
) {
    let threads = rayon::current_num_threads();
    let mut queue = Queue {
        flights: VecDeque::new(),
        front: 0,
        seq: 0,
        telling: false,
        over: false,
        stopped: false,
        threads,
        flight,
    };
    let _phase = tuner.phase().map(schedule::phase);
    for b in (0..flight).map_while(|k| tuner.ask_ahead(k)) {
        queue.push(b);
    }
    if queue.flights.is_empty() {
        return;
    }
    // An outside engine's idle processes are kept for the next games while the stream runs.
    let _engines = queue.flights[0]
        .batch
        .engine
        .as_ref()
        .map(|_| crate::play::lease_engines());
    let queue = Mutex::new(queue);
    let wake = Condvar::new();
    let coord = Mutex::new(Coord { tuner, after });
    // Set once the stream is over before its budget: the games under way are abandoned too.
    let halt = AtomicBool::new(false);
    let halted = || stop() || halt.load(Ordering::SeqCst);
    rayon::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| worker(&queue, &wake, &coord, &halt, on_game, &halted));
        }
    });
    let mut q = lock(&queue);
    // The batches not told: their games in the schedule log all the same.
    for f in q.flights.drain(..) {
        if let Some(log) = f.log {
            log.end();
        }
    }
    if q.stopped {
        lock(&coord).tuner.abandon();
    }
}

/// One pool thread of a stream: plays the next game not started, and tells the tuner of the
/// batches whose games are all in, until the stream is over.
fn worker<T: Tuner + Send + ?Sized>(
    queue: &Mutex<Queue>,
    wake: &Condvar,
    coord: &Mutex<Coord<'_, T>>,
    halt: &AtomicBool,
    on_game: &(dyn Fn(&Played) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) {
    let _unwind = Unwind(queue, wake, halt);
    let mut q = lock(queue);
    loop {
        if q.over {
            wake.notify_all();
            return;
        }
        if q.front_whole() && !q.telling {
            // Batches whose games are all in (or that have none) are told first.
            q = tell_whole(q, queue, wake, coord, halt);
            continue;
        }
        let Some(at) = q.flights.iter().position(|f| f.next < f.batch.jobs.len()) else {
            if q.flights.is_empty() && !q.telling {
                q.over = true;
                continue;
            }
            q = wake.wait(q).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let f = &mut q.flights[at];
        let i = f.next;
        f.next += 1;
        if i == 0 {
            if let Some(log) = &mut f.log {
                log.begin();
            }
        }
        let (seq, batch) = (f.seq, Arc::clone(&f.batch));
        drop(q);
        let began = Instant::now();
        let played = jobs::play_job(&batch, &batch.jobs[i], stop);
        if let Some(p) = &played {
            on_game(p);
        }
        q = lock(queue);
        let front = q.front;
        let f = &mut q.flights[(seq - front) as usize];
        if let Some(log) = &f.log {
            log.job(i, began);
        }
        let Some(p) = played else {
            q.over = true;
            q.stopped = true;
            continue;
        };
        f.slots[i] = Some(p);
        f.left -= 1;
        if f.left == 0 {
            f.ended = Some(Instant::now());
        }
    }
}

/// Tells the tuner of the oldest batches while their games are all in, one after another, and
/// puts the batches it asks for in flight; `q` is the queue's guard, given back.
fn tell_whole<'q, T: Tuner + Send + ?Sized>(
    mut q: MutexGuard<'q, Queue>,
    queue: &'q Mutex<Queue>,
    wake: &Condvar,
    coord: &Mutex<Coord<'_, T>>,
    halt: &AtomicBool,
) -> MutexGuard<'q, Queue> {
    q.telling = true;
    while q.front_whole() {
        let Some(done) = q.flights.pop_front() else {
            break;
        };
        q.front += 1;
        let ahead = q.flights.len();
        drop(q);
        let (more, go) = tell(coord, done, ahead);
        q = lock(queue);
        for b in more {
            q.push(b);
        }
        if !go {
            q.over = true;
            halt.store(true, Ordering::SeqCst);
        } else if q.flights.is_empty() {
            q.over = true;
        }
        wake.notify_all();
    }
    q.telling = false;
    q
}

/// Tells the tuner of batch `done` (every game in), hands the step to `after`, and asks for the
/// batches that fill the window again (`ahead`: the batches still in flight); those batches, and
/// whether to go on.
fn tell<T: Tuner + Send + ?Sized>(
    coord: &Mutex<Coord<'_, T>>,
    done: Flight,
    ahead: usize,
) -> (Vec<Batch>, bool) {
    let began = Instant::now();
    let logged = done.log.as_ref().map(|l| (l.id(), l.phase()));
    if let Some(log) = done.log {
        log.end_at(done.ended.unwrap_or(began));
    }
    let played: Vec<Played> = done.slots.into_iter().flatten().collect();
    let mut c = lock(coord);
    let Coord { tuner, after } = &mut *c;
    let go = match tuner.tell(&done.batch, &played) {
        Some(step) => after(tuner, &step),
        None => true,
    };
    let flight = tuner.in_flight().max(1);
    let more = if go {
        (ahead..flight).map_while(|k| tuner.ask_ahead(k)).collect()
    } else {
        Vec::new()
    };
    drop(c);
    if let Some((id, phase)) = logged {
        schedule::tell(id, phase, began);
    }
    (more, go)
}
