//! One core a game. An outside engine's game to a fixed depth is our thread and two engine
//! processes answering each other over pipes, one of them running at a time. Where the three
//! share a core, each wakes the next on that core at once; spread over cores, each wake-up of
//! a process sends for another core (out of its idle state, or from whatever it runs), which
//! costs as much as a short search. So such a game holds a core ([`hold`]) for its length: the
//! thread that plays it and the engine processes it takes are pinned to that core (on Linux;
//! elsewhere nothing is pinned), and let go at its end, so that between games the operating
//! system places the threads as it likes. A core is chosen where the thread runs when no other
//! game of ours holds it, else the one the fewest of our games hold, among the cores the
//! process may use (what `taskset` or a cluster's launcher allowed it). Pinning is on by
//! default and [`set_pinning`] turns it off (an engine that searches on several threads wants
//! more than one core).

use std::sync::atomic::{AtomicBool, Ordering};

static PINNING: AtomicBool = AtomicBool::new(true);

/// Whether games of outside engines to a fixed depth hold a core each ([`hold`]); on by
/// default.
pub fn set_pinning(on: bool) {
    PINNING.store(on, Ordering::SeqCst);
}

/// Whether games hold a core each ([`set_pinning`]).
pub fn pinning() -> bool {
    PINNING.load(Ordering::SeqCst)
}

/// A core held by this thread's game: the thread runs on it until the last hold of the thread
/// is dropped (a game's two engine sides hold it once each).
#[derive(Debug)]
pub struct CoreHold {
    cpu: usize,
}

impl CoreHold {
    /// The core (the operating system's number of the CPU).
    pub fn cpu(&self) -> usize {
        self.cpu
    }
}

/// A core for this thread's game, the thread pinned to it (the one the thread's game holds
/// already, if it does); None where nothing is pinned: pinning is off, the process may use one
/// core only, or the system has no such thing.
pub fn hold() -> Option<CoreHold> {
    if !pinning() {
        return None;
    }
    imp::hold().map(|cpu| CoreHold { cpu })
}

impl Drop for CoreHold {
    fn drop(&mut self) {
        imp::release(self.cpu);
    }
}

/// Pins every thread of process `pid` to core `cpu`, or with None lets it run on any core the
/// process may use. Best effort: a process that has ended, or a system without pinning, is
/// left as it is.
pub(super) fn pin_process(pid: u32, cpu: Option<usize>) {
    imp::pin_process(pid, cpu);
}

#[cfg(target_os = "linux")]
mod imp {
    use std::cell::Cell;
    use std::sync::{Mutex, OnceLock};

    /// The cores the process may use, as it started (before any thread of ours was pinned).
    fn allowed() -> &'static [usize] {
        static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
        ALLOWED.get_or_init(|| {
            // SAFETY: cpu_set_t is plain data; sched_getaffinity fills the one we own.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0
                {
                    return Vec::new();
                }
                (0..libc::CPU_SETSIZE as usize)
                    .filter(|&c| libc::CPU_ISSET(c, &set))
                    .collect()
            }
        })
    }

    /// How many of our games hold each allowed core (by its place in [`allowed`]).
    static HELD: Mutex<Vec<usize>> = Mutex::new(Vec::new());

    thread_local! {
        /// This thread's core and how many holds it has on it.
        static MINE: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
    }

    /// Sets task `tid`'s cores (0: this thread) to `cpus`.
    fn set_affinity(tid: libc::pid_t, cpus: &[usize]) -> bool {
        // SAFETY: cpu_set_t is plain data we own, filled by CPU_SET within its size.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &c in cpus {
                if c < libc::CPU_SETSIZE as usize {
                    libc::CPU_SET(c, &mut set);
                }
            }
            libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        }
    }

    pub(super) fn hold() -> Option<usize> {
        if let Some((cpu, n)) = MINE.get() {
            MINE.set(Some((cpu, n + 1)));
            return Some(cpu);
        }
        let cores = allowed();
        if cores.len() < 2 {
            return None;
        }
        let place = {
            let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
            held.resize(cores.len(), 0);
            // SAFETY: sched_getcpu takes nothing and returns a number.
            let now = unsafe { libc::sched_getcpu() };
            let here = usize::try_from(now)
                .ok()
                .and_then(|c| cores.iter().position(|&a| a == c))
                .filter(|&i| held[i] == 0);
            let place = here.unwrap_or_else(|| {
                (0..cores.len())
                    .min_by_key(|&i| held[i])
                    .unwrap_or_default()
            });
            held[place] += 1;
            place
        };
        let cpu = cores[place];
        if !set_affinity(0, &[cpu]) {
            release_place(place);
            return None;
        }
        MINE.set(Some((cpu, 1)));
        Some(cpu)
    }

    /// How many of the allowed cores no game of ours holds.
    #[cfg(test)]
    pub(super) fn free() -> usize {
        let held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        allowed().len() - held.iter().filter(|&&n| n > 0).count()
    }

    fn release_place(place: usize) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = held.get_mut(place) {
            *n = n.saturating_sub(1);
        }
    }

    pub(super) fn release(cpu: usize) {
        match MINE.get() {
            Some((c, n)) if c == cpu && n > 1 => MINE.set(Some((c, n - 1))),
            Some((c, _)) if c == cpu => {
                MINE.set(None);
                set_affinity(0, allowed());
                if let Some(place) = allowed().iter().position(|&a| a == cpu) {
                    release_place(place);
                }
            }
            // A hold dropped on another thread than took it: the thread that took it keeps
            // its core until its own holds go.
            _ => {}
        }
    }

    pub(super) fn pin_process(pid: u32, cpu: Option<usize>) {
        let cpus = match cpu {
            Some(c) => vec![c],
            None => allowed().to_vec(),
        };
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return;
        };
        for task in tasks.flatten() {
            if let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) {
                set_affinity(tid, &cpus);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn hold() -> Option<usize> {
        None
    }
    pub(super) fn release(_cpu: usize) {}
    pub(super) fn pin_process(_pid: u32, _cpu: Option<usize>) {}
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// One test at a time holds cores (two at once could hold more than a small machine has).
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// The cores a task may run on, as /proc says.
    fn cores_of(path: &str) -> String {
        let status = std::fs::read_to_string(path).unwrap();
        let line = status
            .lines()
            .find(|l| l.starts_with("Cpus_allowed_list:"))
            .unwrap();
        line.split(':').nth(1).unwrap().trim().to_string()
    }

    fn this_thread() -> String {
        // SAFETY: gettid takes nothing.
        let tid = unsafe { libc::gettid() };
        cores_of(&format!("/proc/self/task/{tid}/status"))
    }

    #[test]
    fn a_hold_pins_the_thread_and_the_last_drop_lets_it_go() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let before = this_thread();
        let Some(first) = hold() else {
            // One core, or pinning refused: nothing to check.
            eprintln!("SKIPPED: this process may use one core only");
            return;
        };
        assert_eq!(this_thread(), first.cpu().to_string());
        let second = hold().unwrap();
        assert_eq!(second.cpu(), first.cpu(), "one game, one core");
        drop(first);
        assert_eq!(this_thread(), second.cpu().to_string(), "a hold is left");
        drop(second);
        assert_eq!(this_thread(), before);
    }

    #[test]
    fn two_games_at_once_hold_two_cores_and_an_engine_follows_its_game() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        // An engine started before (an idle one, or by the thread that starts them).
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let status = format!("/proc/{}/status", child.id());
        let anywhere = cores_of(&status);
        let (tx, rx) = std::sync::mpsc::channel();
        let (go_on, wait) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || {
            let h = hold();
            tx.send(h.as_ref().map(CoreHold::cpu)).unwrap();
            wait.recv().unwrap();
        });
        let theirs = rx.recv().unwrap();
        // (Another test's game may hold one too.)
        let free = imp::free();
        let mine = hold();
        if let (Some(a), Some(b), true) = (theirs, mine.as_ref().map(CoreHold::cpu), free > 0) {
            assert_ne!(a, b, "a core held by one game is not taken by another");
        }
        go_on.send(()).unwrap();
        other.join().unwrap();
        let Some(mine) = mine else {
            eprintln!("SKIPPED: this process may use one core only");
            child.kill().unwrap();
            child.wait().unwrap();
            return;
        };
        pin_process(child.id(), Some(mine.cpu()));
        assert_eq!(cores_of(&status), mine.cpu().to_string());
        pin_process(child.id(), None);
        assert_eq!(cores_of(&status), anywhere);
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
