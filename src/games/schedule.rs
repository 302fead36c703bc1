//! The schedule of a run's parallel work: an optional record of it (every game job's thread,
//! start and duration, every batch of jobs, the work between batches), and a model that says
//! from such a record what P threads would take, and where their idle time goes.
//!
//! # The record
//!
//! Off unless [`open`] is called (the binary calls it when the environment variable
//! [`LOG_ENV`] names a file); while off, a batch's record, [`phase`] and [`span`] cost one
//! atomic load and record nothing, and nothing a run computes depends on them. The file is CSV with the
//! header [`HEADER`]; one line per record, written as each batch or span ends:
//!
//! - `job,PHASE,BATCH,JOB,THREAD,START,SECONDS,1`: job `JOB` (its index in the batch's jobs) of
//!   batch `BATCH` (the batches numbered from 0 in the order they start), played on pool thread
//!   `THREAD`, started `START` seconds after the log was opened, taking `SECONDS`.
//! - `batch,PHASE,BATCH,JOBS,THREADS,START,SECONDS,FLIGHT`: the batch as a whole (its jobs,
//!   the pool's threads, its wall-clock time from the first job's start to the last one's end).
//!   `FLIGHT` is 0 for a batch played alone; a tuner that keeps batches in flight
//!   ([`crate::Tuner::in_flight`]) has its batches played as a stream, each asked for once the
//!   batch `FLIGHT` before it has been told, and their games overlap.
//! - `tell,PHASE,BATCH,0,THREAD,START,SECONDS,0`: in a stream, the tuner's work once batch
//!   `BATCH`'s games are all in (told their results, the step saved, the next batch asked for),
//!   on pool thread `THREAD` while the other threads play on.
//! - `span,NAME,0,0,0,START,SECONDS,WAYS`: work between batches that the model does not
//!   schedule job by job: `WAYS` threads can share it at most (0: any number, evenly; 1: it is
//!   serial). A span that starts within a tell is part of the tell (a stream's checkpoint): the
//!   model counts it there, on the telling thread.
//! - `end,,0,0,0,0,SECONDS,0`: the whole run, from the log's opening to its end.
//!
//! The spans a session records: `positions` (the tournament games' positions for the fit),
//! `fit-evals` (the fit's evaluations and searches, any number of threads), `fit-forward`
//! (each step's evaluations of its positions, in 16 chunks), `fit-gradient` (each step's
//! gradient, summed in shares of its weights: one per hidden unit and one for the rest, or
//! for a weighted sum pieces of 16 weights), `fit-step` (Adam's update, serial), `breed` and
//! `checkpoint` (serial).
//!
//! The phase of a batch is what it plays: `tournament`, `duel`, `measure` (a session's
//! yardstick measurement), `match`, `spsa`.
//!
//! # The model
//!
//! [`Schedule::predict`] replays the record with P threads as the executor plays it
//! (`jobs::play_range`): within a batch every thread takes the next job not started,
//! in job order, so a batch takes the makespan of greedy list scheduling in job order
//! ([`makespan`]); the batches and spans follow each other (a barrier between them); a span
//! takes its time divided by `min(P, WAYS)`; the rest of the run's time (start-up, breeding,
//! checkpoints, anything not in a batch or span) is serial. A stream (consecutive batches with
//! a `FLIGHT` of 2 or more) is replayed as the stream executor plays it: every thread takes
//! the next game not started, in batch and job order, of the batches asked for; a batch is
//! asked for once the one `FLIGHT` before it is told, and each tell keeps the thread that ended
//! that batch busy for its recorded time ([`stream_makespan`]). The time each thread waits is
//! put down to its cause: the end of a batch of each phase (the wait for its longest jobs, or
//! in a stream for the batch that lets the next be asked for), each span, and the serial rest.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The environment variable that names the schedule log of a run (`new`, `resume`, `match`,
/// `spsa`).
pub const LOG_ENV: &str = "CHECKERS_GA_SCHEDULE_LOG";

/// The first line of a schedule log.
pub const HEADER: &str = "kind,phase,batch,job,thread,start,seconds,ways";

/// The open log of this process.
struct Log {
    origin: Instant,
    out: Mutex<BufWriter<File>>,
    batches: AtomicU64,
    phases: Mutex<Vec<&'static str>>,
    ended: AtomicBool,
    failed: AtomicBool,
}

static LOG: OnceLock<Log> = OnceLock::new();

impl Log {
    fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }

    fn since(&self, t: Instant) -> f64 {
        t.duration_since(self.origin).as_secs_f64()
    }

    /// Writes `text` (whole lines) and flushes; a failure is remembered for [`finish`].
    fn write(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            self.failed.store(true, Ordering::Relaxed);
        }
    }
}

/// Starts recording this process's schedule into `path` (created or truncated). Once per
/// process: a second call is an error.
pub fn open(path: &Path) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    writeln!(out, "{HEADER}")?;
    out.flush()?;
    let log = Log {
        origin: Instant::now(),
        out: Mutex::new(out),
        batches: AtomicU64::new(0),
        phases: Mutex::new(Vec::new()),
        ended: AtomicBool::new(false),
        failed: AtomicBool::new(false),
    };
    LOG.set(log)
        .map_err(|_| std::io::Error::other("a schedule log is open already"))
}

/// Is this process recording its schedule?
pub fn recording() -> bool {
    LOG.get().is_some()
}

/// Ends the record: writes the `end` line (once). An error if any line could not be written.
pub fn finish() -> std::io::Result<()> {
    let Some(log) = LOG.get() else {
        return Ok(());
    };
    if !log.ended.swap(true, Ordering::SeqCst) {
        log.write(&format!("end,,0,0,0,0,{:.6},0\n", log.now()));
    }
    if log.failed.load(Ordering::Relaxed) {
        return Err(std::io::Error::other("cannot write the schedule log"));
    }
    Ok(())
}

/// While the guard lives, batches are recorded as phase `name` (phases nest: the innermost
/// counts).
#[must_use]
pub struct Phase(bool);

/// Names the phase of the batches played until the guard is dropped.
pub fn phase(name: &'static str) -> Phase {
    match LOG.get() {
        Some(log) => {
            log.phases
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(name);
            Phase(true)
        }
        None => Phase(false),
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        if let (true, Some(log)) = (self.0, LOG.get()) {
            log.phases.lock().unwrap_or_else(|e| e.into_inner()).pop();
        }
    }
}

/// Work between batches, recorded when the guard is dropped.
#[must_use]
pub struct Span {
    name: &'static str,
    ways: u32,
    start: Option<Instant>,
}

/// Records the work until the guard is dropped as span `name`, which `ways` threads can share
/// at most (0: any number; 1: serial work).
pub fn span(name: &'static str, ways: u32) -> Span {
    Span {
        name,
        ways,
        start: LOG.get().map(|_| Instant::now()),
    }
}

impl Drop for Span {
    fn drop(&mut self) {
        if let Some(t) = self.start {
            write_span(self.name, t, t.elapsed().as_secs_f64(), self.ways);
        }
    }
}

/// Writes a `span` line of work `name` that started at `start`, took `seconds` and `ways`
/// threads can share.
fn write_span(name: &str, start: Instant, seconds: f64, ways: u32) {
    if let Some(log) = LOG.get() {
        let line = format!(
            "span,{name},0,0,0,{:.6},{seconds:.6},{ways}\n",
            log.since(start)
        );
        log.write(&line);
    }
}

/// Work done in pieces (a fit's steps, each a few microseconds), recorded as one span when the
/// tally is dropped: the sum of the times [`Tally::time`] measured.
#[must_use]
pub struct Tally {
    name: &'static str,
    ways: u32,
    start: Option<Instant>,
    seconds: f64,
}

/// A [`Tally`] of span `name`, which `ways` threads can share at most (as [`span`]'s).
pub fn tally(name: &'static str, ways: u32) -> Tally {
    Tally {
        name,
        ways,
        start: LOG.get().map(|_| Instant::now()),
        seconds: 0.0,
    }
}

impl Tally {
    /// Runs `f`, adding its time to the tally when a log is being written.
    pub fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        if self.start.is_none() {
            return f();
        }
        let t = Instant::now();
        let out = f();
        self.seconds += t.elapsed().as_secs_f64();
        out
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        if let Some(t) = self.start {
            write_span(self.name, t, self.seconds, self.ways);
        }
    }
}

/// A batch being recorded ([`batch`]): its jobs' times, written when it ends.
pub(crate) struct BatchLog {
    id: u64,
    phase: &'static str,
    threads: usize,
    jobs: usize,
    /// The batches in flight with it (0: it is played alone).
    flight: usize,
    start: Instant,
    done: Mutex<Vec<(usize, usize, f64, f64)>>,
}

/// Starts the record of a batch of `jobs` jobs played on `threads` threads, as the current
/// phase or else `default_phase`; None while not recording.
pub(crate) fn batch(default_phase: &'static str, jobs: usize, threads: usize) -> Option<BatchLog> {
    let log = LOG.get()?;
    let phase = log
        .phases
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .last()
        .copied()
        .unwrap_or(default_phase);
    Some(BatchLog {
        id: log.batches.fetch_add(1, Ordering::Relaxed),
        phase,
        threads,
        jobs,
        flight: 0,
        start: Instant::now(),
        done: Mutex::new(Vec::with_capacity(jobs)),
    })
}

/// Starts the record of batch `jobs` of a stream that keeps `flight` batches in flight (its
/// number taken now, in the order the batches are asked for; its time from [`BatchLog::begin`]).
pub(crate) fn flight_batch(
    default_phase: &'static str,
    jobs: usize,
    threads: usize,
    flight: usize,
) -> Option<BatchLog> {
    batch(default_phase, jobs, threads).map(|b| BatchLog { flight, ..b })
}

/// Records the tuner's work on batch `id` (of phase `phase`) once its games are all in: told
/// their results, the step saved, the next batch asked for; begun at `began`, on this thread.
pub(crate) fn tell(id: u64, phase: &str, began: Instant) {
    if let Some(log) = LOG.get() {
        let thread = rayon::current_thread_index().unwrap_or(0);
        let line = format!(
            "tell,{phase},{id},0,{thread},{:.6},{:.6},0\n",
            log.since(began),
            began.elapsed().as_secs_f64()
        );
        log.write(&line);
    }
}

impl BatchLog {
    /// Its number in the log.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Its phase.
    pub(crate) fn phase(&self) -> &'static str {
        self.phase
    }

    /// Its first game starts now (a batch asked for ahead waits for its turn).
    pub(crate) fn begin(&mut self) {
        self.start = Instant::now();
    }

    /// Job `index` (in the batch), started at `began`, has ended (finished or abandoned).
    pub(crate) fn job(&self, index: usize, began: Instant) {
        let Some(log) = LOG.get() else {
            return;
        };
        let thread = rayon::current_thread_index().unwrap_or(0);
        let rec = (
            index,
            thread,
            log.since(began),
            began.elapsed().as_secs_f64(),
        );
        self.done
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(rec);
    }

    /// Writes the batch's lines: its jobs in job order, then the batch, ending now.
    pub(crate) fn end(self) {
        self.end_at(Instant::now());
    }

    /// Writes the batch's lines, the batch ending at `ended` (its last game's end).
    pub(crate) fn end_at(self, ended: Instant) {
        let Some(log) = LOG.get() else {
            return;
        };
        let mut done = self.done.into_inner().unwrap_or_else(|e| e.into_inner());
        done.sort_by_key(|r| r.0);
        let mut text = String::new();
        for (index, thread, start, seconds) in done {
            text.push_str(&format!(
                "job,{},{},{index},{thread},{start:.6},{seconds:.6},1\n",
                self.phase, self.id
            ));
        }
        text.push_str(&format!(
            "batch,{},{},{},{},{:.6},{:.6},{}\n",
            self.phase,
            self.id,
            self.jobs,
            self.threads,
            log.since(self.start),
            ended.saturating_duration_since(self.start).as_secs_f64(),
            self.flight
        ));
        log.write(&text);
    }
}

/// A schedule log that cannot be read: the line and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("schedule log line {line}: {what}")]
pub struct LogError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// One batch of a record: its phase and its jobs' durations in job order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchRun {
    /// What the batch plays.
    pub phase: String,
    /// When its first game started in the record (seconds after the log's opening).
    pub start: f64,
    /// Its wall-clock seconds in the record.
    pub seconds: f64,
    /// Every recorded job's seconds, in job order.
    pub jobs: Vec<f64>,
    /// The batches in flight with it (0: played alone).
    pub flight: u32,
    /// In a stream: the seconds of the tuner's work once its games were in (0 when none).
    pub tell: f64,
    /// In a stream: when that work ended in the record.
    pub tell_end: f64,
}

/// Work between batches: its name, seconds, and how many threads can share it (0: any).
#[derive(Clone, Debug, PartialEq)]
pub struct SpanRun {
    /// What the work is.
    pub name: String,
    /// Its seconds in the record.
    pub seconds: f64,
    /// How many threads can share it at most (0: any number).
    pub ways: u32,
}

/// A run's record, read back: its batches and spans, and its whole time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// The batches in the order they started.
    pub batches: Vec<BatchRun>,
    /// The spans between batches.
    pub spans: Vec<SpanRun>,
    /// The whole run's seconds (the `end` line; without one, the end of the last record).
    pub seconds: f64,
}

/// What P threads would take for a recorded run.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// P.
    pub threads: usize,
    /// The run's seconds with P threads.
    pub seconds: f64,
    /// The work's seconds (the run's at one thread) / (P x `seconds`).
    pub efficiency: f64,
    /// The threads' idle seconds by cause, as shares of P x `seconds`: `wait-PHASE` (the end
    /// of a batch of that phase), a span's name, `serial` (the rest of the run).
    pub idle: Vec<(String, f64)>,
}

/// The makespan of `jobs` (durations, in job order) on `threads` threads that each take the
/// next job not started as soon as they are free (greedy list scheduling in job order).
pub fn makespan(jobs: &[f64], threads: usize) -> f64 {
    let p = threads.max(1);
    let mut free = vec![0.0f64; p.min(jobs.len()).max(1)];
    for &d in jobs {
        // The thread free first (the lowest index among equals) takes the next job.
        let (k, _) =
            free.iter().enumerate().fold(
                (0, f64::INFINITY),
                |m, (k, &t)| if t < m.1 { (k, t) } else { m },
            );
        free[k] += d;
    }
    free.into_iter().fold(0.0, f64::max)
}

/// The makespan of a stream of batches (each its jobs' durations in job order, and its tell's
/// seconds) on `threads` threads, `flight` batches in flight: every thread takes the next job
/// not started, in batch and job order, of the batches asked for; batch `i` is asked for once
/// batch `i - flight` is told; a tell keeps the thread that ended the batch's last game busy for
/// its time, or, when the tell before is still under way, the thread telling that one (tells
/// are in order, one at a time).
pub fn stream_makespan(batches: &[Vec<f64>], tells: &[f64], flight: usize, threads: usize) -> f64 {
    let p = threads.max(1);
    let flight = flight.max(1);
    let mut free = vec![0.0f64; p];
    // When each batch was told (the batch `flight` after it is asked for then).
    let mut told: Vec<f64> = Vec::with_capacity(batches.len());
    let mut teller = 0;
    for (i, jobs) in batches.iter().enumerate() {
        let asked = if i >= flight { told[i - flight] } else { 0.0 };
        let mut last = (0usize, asked);
        for &d in jobs {
            let (k, _) =
                free.iter().enumerate().fold(
                    (0, f64::INFINITY),
                    |m, (k, &t)| if t < m.1 { (k, t) } else { m },
                );
            let end = free[k].max(asked) + d;
            free[k] = end;
            if end >= last.1 {
                last = (k, end);
            }
        }
        // The thread that ended the batch tells it, or, while the tell before is under way,
        // the thread telling that one goes on with this one.
        let (k, ended) = last;
        let before = told.last().copied().unwrap_or(0.0);
        if ended >= before {
            teller = k;
        }
        let end = ended.max(before) + tells.get(i).copied().unwrap_or(0.0);
        free[teller] = free[teller].max(end);
        told.push(end);
    }
    free.into_iter()
        .chain(told.last().copied())
        .fold(0.0, f64::max)
}

impl Schedule {
    /// Reads a schedule log ([`HEADER`] and its lines).
    pub fn parse(text: &str) -> Result<Schedule, LogError> {
        let err = |line: usize, what: String| LogError { line, what };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        match lines.next() {
            Some((_, h)) if h.trim() == HEADER => {}
            _ => {
                return Err(err(
                    1,
                    format!("not a schedule log (its header is `{HEADER}`)"),
                ))
            }
        }
        let mut out = Schedule::default();
        // Batch id -> (phase, jobs by index), and the batches' seconds, as they come.
        let mut jobs: BTreeMap<u64, (String, BTreeMap<u64, f64>)> = BTreeMap::new();
        // Batch id -> (start, seconds, flight); -> (its tell's seconds, the tell's end).
        let mut walls: BTreeMap<u64, (f64, f64, u32)> = BTreeMap::new();
        let mut tells: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
        let mut spans: Vec<(f64, SpanRun)> = Vec::new();
        let mut end = None;
        let mut last = 0.0f64;
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split(',').collect();
            if f.len() != 8 {
                return Err(err(n, format!("{} fields, not 8", f.len())));
            }
            let int = |i: usize| {
                f[i].trim().parse::<u64>().map_err(|_| {
                    err(
                        n,
                        format!("field {} `{}` is not a whole number", i + 1, f[i]),
                    )
                })
            };
            let real = |i: usize| match f[i].trim().parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(err(
                    n,
                    format!("field {} `{}` is not a number of seconds", i + 1, f[i]),
                )),
            };
            let (start, seconds) = (real(5)?, real(6)?);
            last = last.max(start + seconds);
            match f[0] {
                "job" => {
                    let e = jobs
                        .entry(int(2)?)
                        .or_insert_with(|| (f[1].to_string(), BTreeMap::new()));
                    e.1.insert(int(3)?, seconds);
                }
                "batch" => {
                    let id = int(2)?;
                    jobs.entry(id)
                        .or_insert_with(|| (f[1].to_string(), BTreeMap::new()));
                    let flight = u32::try_from(int(7)?)
                        .map_err(|_| err(n, format!("field 8 `{}` is too large", f[7])))?;
                    walls.insert(id, (start, seconds, flight));
                }
                "tell" => {
                    let t = tells.entry(int(2)?).or_default();
                    t.0 += seconds;
                    t.1 = t.1.max(start + seconds);
                }
                "span" => spans.push((
                    start,
                    SpanRun {
                        name: f[1].to_string(),
                        seconds,
                        ways: int(7)? as u32,
                    },
                )),
                "end" => end = Some(seconds),
                k => return Err(err(n, format!("unknown kind `{k}`"))),
            }
        }
        for (id, (phase, js)) in jobs {
            let run: Vec<f64> = js.into_values().collect();
            let (start, seconds, flight) = walls
                .get(&id)
                .copied()
                .unwrap_or_else(|| (0.0, run.iter().sum(), 0));
            let (tell, tell_end) = tells.get(&id).copied().unwrap_or_default();
            out.batches.push(BatchRun {
                phase,
                start,
                seconds,
                jobs: run,
                flight,
                tell,
                tell_end,
            });
        }
        // Work done while a stream's batch is told (its checkpoint, the breeding) is in the
        // tell's time already, on the telling thread while the others play on: not a span
        // that holds them all.
        let within = |t: f64| {
            tells
                .values()
                .any(|&(secs, end)| t + 1e-6 >= end - secs && t <= end + 1e-6)
        };
        out.spans = spans
            .into_iter()
            .filter(|(start, _)| !within(*start))
            .map(|(_, s)| s)
            .collect();
        out.seconds = end.unwrap_or(last);
        Ok(out)
    }

    /// The batches as the model replays them: runs of streamed batches (a `FLIGHT` of 2 or
    /// more, the same all along), and each other batch alone.
    fn runs(&self) -> Vec<&[BatchRun]> {
        let mut out = Vec::new();
        let mut rest = self.batches.as_slice();
        while let Some(first) = rest.first() {
            let n = if first.flight >= 2 {
                rest.iter().take_while(|b| b.flight == first.flight).count()
            } else {
                1
            };
            let (run, after) = rest.split_at(n);
            out.push(run);
            rest = after;
        }
        out
    }

    /// The run's seconds outside its batches and spans (serial work); a stream covers the time
    /// from its first game's start to the end of its last game or tell.
    pub fn serial(&self) -> f64 {
        let covered: f64 = self
            .runs()
            .iter()
            .map(|run| match run {
                [b] if b.flight < 2 => b.seconds,
                _ => {
                    let first = run.iter().map(|b| b.start).fold(f64::INFINITY, f64::min);
                    let last = run
                        .iter()
                        .map(|b| (b.start + b.seconds).max(b.tell_end))
                        .fold(0.0, f64::max);
                    (last - first).max(0.0)
                }
            })
            .sum::<f64>()
            + self.spans.iter().map(|s| s.seconds).sum::<f64>();
        (self.seconds - covered).max(0.0)
    }

    /// The work: every job's seconds, every tell's, every span's and the serial rest (the
    /// run's time at one thread, as the model has it).
    pub fn work(&self) -> f64 {
        self.batches
            .iter()
            .map(|b| b.jobs.iter().sum::<f64>() + b.tell)
            .sum::<f64>()
            + self.spans.iter().map(|s| s.seconds).sum::<f64>()
            + self.serial()
    }

    /// What `threads` threads would take, and where their idle time goes.
    pub fn predict(&self, threads: usize) -> Prediction {
        self.predict_with(threads, false)
    }

    /// [`Schedule::predict`] with every batch's games started longest first (each game's
    /// recorded time known in advance): the most that ordering the games by their expected
    /// length could gain.
    pub fn predict_longest_first(&self, threads: usize) -> Prediction {
        self.predict_with(threads, true)
    }

    fn predict_with(&self, threads: usize, longest_first: bool) -> Prediction {
        let p = threads.max(1);
        let pf = p as f64;
        let mut idle: BTreeMap<String, f64> = BTreeMap::new();
        let mut seconds = 0.0;
        let order = |b: &BatchRun| {
            let mut jobs = b.jobs.clone();
            if longest_first {
                jobs.sort_by(|x, y| y.total_cmp(x));
            }
            jobs
        };
        for run in self.runs() {
            let m = match run {
                [b] if b.flight < 2 => makespan(&order(b), p),
                _ => {
                    let jobs: Vec<Vec<f64>> = run.iter().map(order).collect();
                    let tells: Vec<f64> = run.iter().map(|b| b.tell).collect();
                    stream_makespan(&jobs, &tells, run[0].flight as usize, p)
                }
            };
            seconds += m;
            let sum: f64 = run
                .iter()
                .map(|b| b.jobs.iter().sum::<f64>() + b.tell)
                .sum();
            *idle.entry(format!("wait-{}", run[0].phase)).or_default() += pf * m - sum;
        }
        for s in &self.spans {
            let ways = if s.ways == 0 {
                p
            } else {
                p.min(s.ways as usize)
            };
            let t = s.seconds / ways as f64;
            seconds += t;
            *idle.entry(s.name.clone()).or_default() += pf * t - s.seconds;
        }
        let serial = self.serial();
        seconds += serial;
        *idle.entry("serial".into()).or_default() += (pf - 1.0) * serial;
        let total = pf * seconds;
        let share = |x: f64| if total > 0.0 { x / total } else { 0.0 };
        Prediction {
            threads: p,
            seconds,
            efficiency: if total > 0.0 {
                self.work() / total
            } else {
                1.0
            },
            idle: idle.into_iter().map(|(k, v)| (k, share(v))).collect(),
        }
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
