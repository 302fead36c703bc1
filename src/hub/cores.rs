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

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};

static PINNING: AtomicBool = AtomicBool::new(true);

/// Whether games of outside engines to a fixed depth hold a core each ([`hold`]); on by
/// default.
pub fn set_pinning(on: bool) {
    PINNING.store(on, Ordering::SeqCst);
}

/// Whether games hold a core each as [`set_pinning`] says (see [`pins`] for whether they can).
pub fn pinning() -> bool {
    PINNING.load(Ordering::SeqCst)
}

/// Whether games of outside engines to a fixed depth are pinned here: pinning is on, the
/// system pins (Linux) and the process may use more than one core.
pub fn pins() -> bool {
    pinning() && imp::can_pin()
}

/// A core held by this thread's game: the thread runs on it until the last hold of the thread
/// is dropped (a game's two engine sides hold it once each), then on the cores it could use
/// before. It stays on the thread that took it (it is not `Send`).
#[derive(Debug)]
pub struct CoreHold {
    cpu: usize,
    _thread: PhantomData<*const ()>,
}

impl CoreHold {
    /// The core (the operating system's number of the CPU).
    pub fn cpu(&self) -> usize {
        self.cpu
    }
}

/// A core for this thread's game, the thread pinned to it (the one the thread's game holds
/// already, if it does); None where nothing is pinned: pinning is off, the process may use one
/// core only, the system has no such thing or refused it.
pub fn hold() -> Option<CoreHold> {
    if !pinning() {
        return None;
    }
    imp::hold().map(|cpu| CoreHold {
        cpu,
        _thread: PhantomData,
    })
}

impl Drop for CoreHold {
    fn drop(&mut self) {
        imp::release(self.cpu);
    }
}

/// Pins process `pid` to core `cpu`, or with None lets it run on any core the process may
/// use: every thread of it, and the processes it started (and theirs: an engine started by a
/// script). Best effort: a process that has ended, or a system without pinning, is left as it
/// is.
pub(super) fn pin_process(pid: u32, cpu: Option<usize>) {
    imp::pin_process(pid, cpu);
}

/// Lets this thread run on any core the process may use: for a thread started by one that
/// may hold a core (the thread that starts engines, an engine's standard error reader), which
/// would otherwise keep that core for good.
pub(super) fn free_this_thread() {
    imp::free_this_thread();
}

/// Which of the cores (their places, `held` counting the games that hold each) a new game
/// holds: the one its thread runs on (`here`) when no game holds it, else the first of those
/// the fewest hold.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn choose(held: &[usize], here: Option<usize>) -> usize {
    match here {
        Some(i) if held.get(i) == Some(&0) => i,
        _ => (0..held.len()).min_by_key(|&i| held[i]).unwrap_or_default(),
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use std::cell::RefCell;
    use std::sync::{Mutex, OnceLock};

    /// The cores task `tid` (0: this thread) may use (empty when they cannot be read).
    fn affinity(tid: libc::pid_t) -> Vec<usize> {
        // SAFETY: cpu_set_t is plain data; sched_getaffinity fills the one we own.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect()
        }
    }

    /// The cores the process may use: its main thread's, read once, before any game holds
    /// one (the main thread holds one only in its own game, after this is read).
    fn allowed() -> &'static [usize] {
        static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
        // SAFETY: getpid takes nothing.
        ALLOWED.get_or_init(|| affinity(unsafe { libc::getpid() }))
    }

    pub(super) fn can_pin() -> bool {
        allowed().len() >= 2
    }

    /// How many of our games hold each allowed core (by its place in [`allowed`]).
    static HELD: Mutex<Vec<usize>> = Mutex::new(Vec::new());

    /// This thread's hold: its core's place, how many holds it has, and the cores it could use
    /// before.
    struct Mine {
        place: usize,
        holds: usize,
        before: Vec<usize>,
    }

    thread_local! {
        static MINE: RefCell<Option<Mine>> = const { RefCell::new(None) };
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

    fn held() -> std::sync::MutexGuard<'static, Vec<usize>> {
        HELD.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn hold() -> Option<usize> {
        let cores = allowed();
        let again = MINE.with_borrow_mut(|m| {
            m.as_mut().map(|m| {
                m.holds += 1;
                cores[m.place]
            })
        });
        if again.is_some() {
            return again;
        }
        if cores.len() < 2 {
            return None;
        }
        let before = affinity(0);
        let place = {
            let mut held = held();
            held.resize(cores.len(), 0);
            // SAFETY: sched_getcpu takes nothing and returns a number.
            let now = unsafe { libc::sched_getcpu() };
            let here = usize::try_from(now)
                .ok()
                .and_then(|c| cores.iter().position(|&a| a == c));
            let place = super::choose(&held, here);
            held[place] += 1;
            place
        };
        if !set_affinity(0, &[cores[place]]) {
            release_place(place);
            return None;
        }
        MINE.set(Some(Mine {
            place,
            holds: 1,
            before,
        }));
        Some(cores[place])
    }

    fn release_place(place: usize) {
        if let Some(n) = held().get_mut(place) {
            *n = n.saturating_sub(1);
        }
    }

    pub(super) fn release(_cpu: usize) {
        let last = MINE.with_borrow_mut(|m| match m {
            Some(mine) if mine.holds > 1 => {
                mine.holds -= 1;
                None
            }
            _ => m.take(),
        });
        if let Some(mine) = last {
            let before = match mine.before.is_empty() {
                true => allowed(),
                false => &mine.before,
            };
            set_affinity(0, before);
            release_place(mine.place);
        }
    }

    pub(super) fn free_this_thread() {
        set_affinity(0, allowed());
    }

    /// The process that started process `pid`, as the kernel says now.
    fn parent_of(pid: u32) -> Option<u32> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("PPid:"))
            .and_then(|p| p.trim().parse().ok())
    }

    /// At most this many processes are pinned with an engine (it and those it started).
    const MAX_PROCESSES: usize = 64;

    pub(super) fn pin_process(pid: u32, cpu: Option<usize>) {
        let cpus = match cpu {
            Some(c) => vec![c],
            None => allowed().to_vec(),
        };
        // Each process with the one that started it (none for the engine itself).
        let mut todo = vec![(pid, None)];
        let mut seen = 0;
        while let Some((p, parent)) = todo.pop() {
            seen += 1;
            if seen > MAX_PROCESSES {
                return;
            }
            // A child that ended since it was listed, its number taken by another process,
            // is not ours to pin.
            if parent.is_some_and(|parent| parent_of(p) != Some(parent)) {
                continue;
            }
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
                continue;
            };
            for task in tasks.flatten() {
                let Some(tid) = task.file_name().to_str().and_then(|t| t.parse().ok()) else {
                    continue;
                };
                set_affinity(tid, &cpus);
                // The processes this thread started (where the kernel lists them).
                if let Ok(children) = std::fs::read_to_string(task.path().join("children")) {
                    todo.extend(
                        children
                            .split_whitespace()
                            .filter_map(|c| c.parse::<u32>().ok())
                            .map(|c| (c, Some(p))),
                    );
                }
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn can_pin() -> bool {
        false
    }
    pub(super) fn hold() -> Option<usize> {
        None
    }
    pub(super) fn release(_cpu: usize) {}
    pub(super) fn free_this_thread() {}
    pub(super) fn pin_process(_pid: u32, _cpu: Option<usize>) {}
}

#[cfg(test)]
mod choice_tests {
    use super::choose;

    #[test]
    fn a_game_holds_its_own_core_when_free_else_the_least_held() {
        assert_eq!(choose(&[0, 0], Some(1)), 1);
        assert_eq!(choose(&[0, 1], Some(1)), 0, "core 1 is held: the free one");
        assert_eq!(
            choose(&[2, 1, 1], Some(0)),
            1,
            "all held: the first of the least held"
        );
        assert_eq!(choose(&[1, 0, 0], None), 1);
        assert_eq!(choose(&[1, 1], Some(5)), 0, "a core outside the list");
    }
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
    fn an_engine_and_the_processes_it_started_follow_its_game() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        // An engine started before the game (an idle one, or by the thread that starts them)
        // through a script, which started the process that plays.
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & echo $!; wait"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let statuses = [
            format!("/proc/{}/status", child.id()),
            format!("/proc/{}/status", line.trim()),
        ];
        let anywhere = cores_of(&statuses[0]);
        let done = |mut child: std::process::Child| {
            let _ = std::process::Command::new("kill").arg(line.trim()).status();
            child.kill().unwrap();
            child.wait().unwrap();
        };
        let Some(game) = hold() else {
            eprintln!("SKIPPED: this process may use one core only");
            return done(child);
        };
        // (Where the kernel does not list a thread's children, only the script is pinned.)
        // SAFETY: gettid takes nothing.
        let listed = std::path::Path::new(&format!("/proc/self/task/{}/children", unsafe {
            libc::gettid()
        }))
        .exists();
        let statuses = &statuses[..if listed { 2 } else { 1 }];
        pin_process(child.id(), Some(game.cpu()));
        for s in statuses {
            assert_eq!(cores_of(s), game.cpu().to_string(), "{s}");
        }
        pin_process(child.id(), None);
        for s in statuses {
            assert_eq!(cores_of(s), anywhere, "{s}");
        }
        drop(game);
        done(child);
    }

    #[test]
    fn a_thread_started_by_a_pinned_one_is_freed() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let before = this_thread();
        let Some(_game) = hold() else {
            eprintln!("SKIPPED: this process may use one core only");
            return;
        };
        let freed = std::thread::spawn(|| {
            let inherited = this_thread();
            free_this_thread();
            (inherited, this_thread())
        });
        let (inherited, freed) = freed.join().unwrap();
        assert_ne!(inherited, before, "a new thread takes its starter's core");
        assert_eq!(freed, before);
    }
}
