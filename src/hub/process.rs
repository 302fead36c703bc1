//! An outside engine's process as the operating system sees it: started in a process group of
//! its own (on Linux also killed when the thread that started it ends) from one thread kept
//! for the purpose, its pid in a registry of live engines that [`kill_all_engines`] empties,
//! its exit status read without reaping it, its process group killed, and its standard error
//! drained, the last lines kept for the report of a fault. Speaking the protocol to it is
//! file `client`.

use super::output::read_line;
use std::collections::VecDeque;
use std::io::BufReader;
use std::process::{Child, Command};
use std::sync::{Condvar, Mutex};
use std::thread;
use std::time::Instant;

/// The lines of its standard error kept for the report of a fault.
pub(super) const STDERR_KEPT: usize = 5;

/// The pids (each also its process group) of the engine processes alive.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

pub(super) fn live() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills (SIGKILL) the process group of every outside engine still alive, at once and without
/// waiting: for a process about to exit (a second Ctrl-C), so that no engine outlives it.
pub fn kill_all_engines() {
    for pid in live().drain(..) {
        kill_group(pid);
    }
}

#[cfg(unix)]
pub(super) fn kill_group(pid: u32) {
    // SAFETY: kill(2) with a negative pid signals the process group; no memory is involved.
    unsafe {
        libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
    }
}

#[cfg(not(unix))]
pub(super) fn kill_group(_pid: u32) {}

/// An engine's standard error as read so far: its last lines, and whether it has ended.
#[derive(Default)]
pub(super) struct Stderr {
    tail: Mutex<StderrTail>,
    /// Signalled when it ends.
    ended: Condvar,
}

#[derive(Default)]
pub(super) struct StderrTail {
    pub(super) lines: VecDeque<String>,
    ended: bool,
}

impl Stderr {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, StderrTail> {
        self.tail.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads `pipe` to its end, keeping the last [`STDERR_KEPT`] lines that are not blank.
    pub(super) fn read(&self, pipe: impl std::io::Read) {
        let mut r = BufReader::new(pipe);
        while let Some(line) = read_line(&mut r) {
            if line.trim().is_empty() {
                continue;
            }
            let mut t = self.lock();
            if t.lines.len() == STDERR_KEPT {
                t.lines.pop_front();
            }
            t.lines.push_back(line);
        }
        self.lock().ended = true;
        self.ended.notify_all();
    }

    /// Waits until it has ended or `until` passed.
    pub(super) fn wait_end(&self, until: Instant) {
        let mut t = self.lock();
        while !t.ended {
            let now = Instant::now();
            if now >= until {
                return;
            }
            t = self
                .ended
                .wait_timeout(t, until - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Whether the process has exited, without reaping it (its pid stays reserved).
pub(super) fn has_exited(child: &mut Child) -> bool {
    exit_status(child).is_some()
}

/// How the process ended (`exit status 1`, `killed by signal 9`), None while it runs; it is
/// not reaped, so its pid, the id of its process group, is not reused before we kill the group.
#[cfg(unix)]
pub(super) fn exit_status(child: &mut Child) -> Option<String> {
    // SAFETY: waitid fills `info`, a plain struct we own; WNOWAIT leaves the child waitable.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            child.id() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        if r != 0 || info.si_pid() == 0 {
            return None;
        }
        let code = info.si_status();
        Some(match info.si_code {
            libc::CLD_EXITED => format!("exit status {code}"),
            _ => format!("killed by signal {code}"),
        })
    }
}

#[cfg(not(unix))]
pub(super) fn exit_status(child: &mut Child) -> Option<String> {
    match child.try_wait() {
        Ok(Some(s)) => Some(s.to_string()),
        _ => None,
    }
}

/// The engine in a process group of its own (killed as one, and not hit by the terminal's
/// Ctrl-C, which is ours to handle), and on Linux killed when the thread that started it ends.
#[cfg(unix)]
pub(super) fn own_group(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getpid() is async-signal-safe; called before the fork.
        let parent = unsafe { libc::getpid() };
        // SAFETY: between fork and exec only async-signal-safe calls: prctl and getppid.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                ) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent died before the call: nothing would kill us.
                if libc::getppid() != parent {
                    return Err(std::io::Error::other("parent gone"));
                }
                Ok(())
            });
        }
    }
}

#[cfg(not(unix))]
pub(super) fn own_group(_cmd: &mut Command) {}

/// The environment an MPI launcher gives its ranks (Open MPI's, PMIx's, PMI's, and Slurm's
/// rank): an engine started by a rank is a process of its own, not one more rank (an MPI
/// build of ours, `checkers-ga hub` among them, would otherwise join or abort the job).
fn is_launcher_variable(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    ["OMPI_", "PMIX_", "PMI_"]
        .iter()
        .any(|p| name.starts_with(p))
        || name == "SLURM_PROCID"
        || name == "SLURM_STEP_NUM_TASKS"
}

/// Starts `cmd` from one thread kept for the purpose for the life of the process, without the
/// MPI launcher's variables. An engine dies with the thread that started it
/// (`PR_SET_PDEATHSIG` is the starting thread's, not the process's): started from a worker of a
/// thread pool that ends, an engine kept idle for later games would be killed with that worker.
pub(super) fn spawn(mut cmd: Command) -> std::io::Result<Child> {
    for (name, _) in std::env::vars_os() {
        if is_launcher_variable(&name) {
            cmd.env_remove(name);
        }
    }
    type Request = (Command, std::sync::mpsc::Sender<std::io::Result<Child>>);
    static STARTER: std::sync::OnceLock<Mutex<std::sync::mpsc::Sender<Request>>> =
        std::sync::OnceLock::new();
    let starter = STARTER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<Request>();
        thread::Builder::new()
            .name("engine-starter".into())
            .spawn(move || {
                // Started by whichever thread first starts an engine, perhaps one whose game
                // holds a core: the engines it starts run anywhere until a game pins them.
                super::cores::free_this_thread();
                for (mut cmd, answer) in rx {
                    let _ = answer.send(cmd.spawn());
                }
            })
            .expect("a thread to start engines");
        Mutex::new(tx)
    });
    let (tx, rx) = std::sync::mpsc::channel();
    let sent = starter
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, tx));
    if sent.is_err() {
        return Err(std::io::Error::other("the engine starter thread is gone"));
    }
    rx.recv()
        .unwrap_or_else(|_| Err(std::io::Error::other("the engine starter thread is gone")))
}
