//! The schedule log and its model, tested: known makespans, logs read and predicted.

use super::*;

#[test]
fn list_scheduling_in_job_order_has_the_known_makespans() {
    // Graham's example: in order, 2 threads put the long job last on its own.
    assert_eq!(makespan(&[1.0, 1.0, 2.0], 2), 3.0);
    assert_eq!(makespan(&[2.0, 1.0, 1.0], 2), 2.0);
    // Three threads, jobs 3 3 2 2 2: the threads end at 3 + 2, 3, 2 + 2.
    assert_eq!(makespan(&[3.0, 3.0, 2.0, 2.0, 2.0], 3), 5.0);
    assert_eq!(makespan(&[2.0, 2.0, 2.0, 3.0, 3.0], 3), 5.0);
    // One thread: the sum; more threads than jobs: the longest job.
    assert_eq!(makespan(&[1.0, 2.0, 3.5], 1), 6.5);
    assert_eq!(makespan(&[1.0, 2.0, 3.5], 64), 3.5);
    assert_eq!(makespan(&[], 4), 0.0);
    // A long job at the end of a batch: every other thread waits for it.
    let mut jobs = vec![1.0; 15];
    jobs.push(8.0);
    assert_eq!(makespan(&jobs, 4), 3.0 + 8.0);
    jobs.rotate_right(1);
    assert_eq!(makespan(&jobs, 4), 8.0);
}

fn log(lines: &[&str]) -> String {
    std::iter::once(HEADER)
        .chain(lines.iter().copied())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_log_predicts_its_threads_time_and_where_the_idle_time_goes() {
    let text = log(&[
        "job,tournament,0,1,0,0.5,2.0,1",
        "job,tournament,0,0,0,0.0,1.0,1",
        "job,tournament,0,2,0,2.5,1.0,1",
        "batch,tournament,0,3,1,0.0,4.0,0",
        "span,fit,0,0,0,4.0,2.0,2",
        "job,duel,1,0,0,6.0,1.0,1",
        "batch,duel,1,1,1,6.0,1.0,0",
        "end,,0,0,0,0,8.0,0",
    ]);
    let s = Schedule::parse(&text).unwrap();
    assert_eq!(s.batches[0].jobs, vec![1.0, 2.0, 1.0]);
    assert_eq!(s.batches[0].phase, "tournament");
    // 8 s in all: 4 + 1 in batches, 2 of fit, 1 serial.
    assert!((s.serial() - 1.0).abs() < 1e-9);
    assert!((s.work() - 8.0).abs() < 1e-9);
    let one = s.predict(1);
    assert!((one.seconds - 8.0).abs() < 1e-9 && (one.efficiency - 1.0).abs() < 1e-9);
    // Two threads: tournament 1 | 2, then the third job on the first thread -> 2; fit 1;
    // duel 1; serial 1: 5 s, efficiency 8 / 10.
    let two = s.predict(2);
    assert!((two.seconds - 5.0).abs() < 1e-9, "{two:?}");
    assert!((two.efficiency - 0.8).abs() < 1e-9);
    let idle: BTreeMap<_, _> = two.idle.iter().cloned().collect();
    assert!((idle["wait-duel"] - 0.1).abs() < 1e-9);
    assert!(idle["wait-tournament"].abs() < 1e-9);
    assert!(idle["fit"].abs() < 1e-9);
    assert!((idle["serial"] - 0.1).abs() < 1e-9);
    // Longest first: the 2 s job first, the two others beside it.
    let first = s.predict_longest_first(2);
    assert!((first.seconds - 5.0).abs() < 1e-9);
    let late = Schedule::parse(&text.replace(
        "job,tournament,0,1,0,0.5,2.0,1",
        "job,tournament,0,1,0,0.5,0.5,1",
    ))
    .unwrap();
    // 1, 0.5, 1 on 2 threads: 1 | 0.5 + 1 = 1.5 in order, 1 | 1 + 0.5 = 1.5 longest
    // first; 3 threads: 1 either way.
    assert!((late.predict(2).seconds - late.predict_longest_first(2).seconds).abs() < 1e-9);
    let tail = Schedule::parse(&log(&[
        "job,match,0,0,0,0,1,1",
        "job,match,0,1,0,0,1,1",
        "job,match,0,2,0,0,2,1",
        "end,,0,0,0,0,4,0",
    ]))
    .unwrap();
    assert!((tail.predict(2).seconds - 3.0).abs() < 1e-9);
    assert!((tail.predict_longest_first(2).seconds - 2.0).abs() < 1e-9);
    // Eight threads: the fit is shared by 2 at most.
    let eight = s.predict(8);
    assert!((eight.seconds - (2.0 + 1.0 + 1.0 + 1.0)).abs() < 1e-9);
    // The work is the jobs' time, not the batches' wall clock (at one thread the rest is
    // the executor's own, which more threads do not lengthen).
    let slow = Schedule::parse(&text.replace(
        "batch,tournament,0,3,1,0.0,4.0,0",
        "batch,tournament,0,3,1,0.0,4.5,0",
    ))
    .unwrap();
    assert!((slow.serial() - 0.5).abs() < 1e-9 && (slow.work() - 7.5).abs() < 1e-9);
    let total: f64 = eight.idle.iter().map(|(_, x)| x).sum::<f64>() + eight.efficiency;
    assert!((total - 1.0).abs() < 1e-9, "idle and work are the whole");
}

#[test]
fn bad_logs_say_which_line() {
    assert_eq!(Schedule::parse("kind,x").unwrap_err().line, 1);
    let e = Schedule::parse(&log(&["job,t,0,1,0,0.5,2.0"])).unwrap_err();
    assert_eq!((e.line, e.what.as_str()), (2, "7 fields, not 8"));
    let e = Schedule::parse(&log(&["end,,0,0,0,0,1,0", "job,t,x,1,0,0,1,1"])).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.what.contains("field 3"), "{e}");
    let e = Schedule::parse(&log(&["job,t,0,1,0,0,-1,1"])).unwrap_err();
    assert!(e.what.contains("seconds"), "{e}");
    assert!(Schedule::parse(&log(&["jobs,t,0,1,0,0,1,1"]))
        .unwrap_err()
        .what
        .contains("unknown kind"));
    // Without an end line the run ends with its last record.
    let s = Schedule::parse(&log(&["job,t,0,0,0,1.5,2.0,1"])).unwrap();
    assert_eq!(s.seconds, 3.5);
}

#[test]
fn a_stream_lets_the_next_batches_fill_the_threads_a_long_game_leaves() {
    // Two threads, batches [3, 1] and [1, 1]: one at a time the second waits for the 3 s
    // game (3 + 1); in flight together, its games go beside it (3).
    let batches = vec![vec![3.0, 1.0], vec![1.0, 1.0]];
    assert_eq!(stream_makespan(&batches, &[0.0, 0.0], 1, 2), 4.0);
    assert_eq!(stream_makespan(&batches, &[0.0, 0.0], 2, 2), 3.0);
    // A tell keeps its thread busy, and the next tell waits for it: batch 0 is told from 3 to
    // 3.5, batch 1 (its games over at 3) from 3.5 to 4.
    assert_eq!(stream_makespan(&batches, &[0.5, 0.5], 2, 2), 4.0);
    // Batch 2 waits for batch 0's tell before it is asked for: 2 in flight, its 1 s game on
    // the thread the tell left at 3.5.
    let three = vec![vec![3.0, 1.0], vec![1.0, 1.0], vec![1.0]];
    assert_eq!(stream_makespan(&three, &[0.5, 0.0, 0.0], 2, 2), 4.5);
    assert_eq!(stream_makespan(&three, &[0.5, 0.0, 0.0], 3, 2), 4.0);
    // One thread: the sum of everything, whatever is in flight.
    assert_eq!(stream_makespan(&three, &[0.5, 0.0, 0.0], 3, 1), 7.5);
}

#[test]
fn a_streamed_log_is_replayed_as_a_stream() {
    let text = log(&[
        "job,cmaes,0,0,0,0.0,3.0,1",
        "job,cmaes,0,1,1,0.0,1.0,1",
        "batch,cmaes,0,2,2,0.0,3.0,2",
        "job,cmaes,1,0,1,1.0,1.0,1",
        "job,cmaes,1,1,1,2.0,1.0,1",
        "batch,cmaes,1,2,2,1.0,2.0,2",
        "tell,cmaes,0,0,0,3.0,0.5,0",
        "tell,cmaes,1,0,0,3.5,0.5,0",
        // A checkpoint written within batch 1's tell is the tell's; one after the stream a
        // span of its own.
        "span,checkpoint,0,0,0,3.6,0.2,1",
        "span,checkpoint,0,0,0,4.1,0.2,1",
        "end,,0,0,0,0,4.5,0",
    ]);
    let s = Schedule::parse(&text).unwrap();
    assert_eq!((s.batches[0].flight, s.batches[1].tell), (2, 0.5));
    assert_eq!(s.spans.len(), 1);
    // The stream covers 0 .. 4 (its last tell's end); the span 0.2 s; the rest, 0.3 s, is
    // serial.
    assert!((s.serial() - 0.3).abs() < 1e-9, "{}", s.serial());
    assert!((s.work() - (6.0 + 1.0 + 0.5)).abs() < 1e-9);
    let two = s.predict(2);
    assert!((two.seconds - 4.5).abs() < 1e-9, "{two:?}");
    let total: f64 = two.idle.iter().map(|(_, x)| x).sum::<f64>() + two.efficiency;
    assert!((total - 1.0).abs() < 1e-9, "idle and work are the whole");
}
