//! Pieces shared by the subcommands: reading players (weights or yardsticks), thread pools,
//! output, the commands a run prints to go on with.

use anyhow::Context;
use checkers_ga::formats::resolve_weights;
use checkers_ga::Evaluator;
use checkers_ga::{session_arg, shell_word};
use std::io::IsTerminal;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

pub use checkers_ga::formats::WeightsArg;

/// Reads a weights argument: [`checkers_ga::formats::resolve_weights`].
pub fn weights_arg(spec: &str, seed: u64, slot: u64) -> anyhow::Result<WeightsArg> {
    Ok(resolve_weights(spec, seed, slot)?)
}

/// Resolves a player's evaluator ([`checkers_ga::evaluator_arg`]; a checkpoint or session
/// folder gives its answer). Returns a name for reports and the evaluator.
pub fn evaluator_arg(spec: &str, seed: u64, slot: u64) -> anyhow::Result<(String, Evaluator)> {
    Ok(checkers_ga::evaluator_arg(spec, seed, slot)?)
}

/// A rayon pool with `threads` workers (0 = one per core).
pub fn pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    Ok(checkers_ga::thread_pool(threads)?)
}

/// Should progress bars be drawn? Only on a terminal.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// Checks, before any work, that a file can be written at `path`: not a folder, and its folder
/// exists. (The write itself goes through a temporary file and a rename.)
pub fn check_output_file(path: &std::path::Path, what: &str) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("{what} '{}' is a folder, not a file", path.display());
    }
    let parent = checkers_ga::folder_of(path);
    if !parent.is_dir() {
        anyhow::bail!(
            "{what} '{}': no folder '{}'",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// `--handshake-timeout S` of a command that starts outside engines: the one time limit of
/// their handshakes ([`checkers_ga::DEFAULT_HANDSHAKE_TIMEOUT`] when absent).
pub fn set_handshake_timeout(seconds: Option<f64>) -> anyhow::Result<()> {
    if let Some(s) = seconds {
        checkers_ga::set_handshake_timeout(checkers_ga::check_timeout("--handshake-timeout", s)?);
    }
    Ok(())
}

/// The outside engine a tuning session's flags name, checked and asked what it declares
/// ([`checkers_ga::EngineRequest::spec`]: a flag that cannot hold is a usage error); on a
/// clock, a note when `threads` crowd the cores.
pub fn engine_of(
    request: &checkers_ga::EngineRequest,
    threads: usize,
) -> anyhow::Result<checkers_ga::EngineSpec> {
    let spec = request.spec()?;
    if spec.tc.is_some() {
        if let Some(note) = checkers_ga::crowd_note(threads) {
            warn(&note);
        }
    }
    Ok(spec)
}

/// Set by the first stop signal (see [`catch_interrupt`]); what a running command checks.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The number of the first stop signal received (SIGINT, SIGTERM or SIGHUP; 0 = none).
static STOP_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// How a stop signal is named to the user.
fn signal_name(sig: i32) -> &'static str {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGTERM};
        match sig {
            SIGTERM => return "SIGTERM",
            SIGHUP => return "SIGHUP (the terminal was closed)",
            _ => {}
        }
    }
    let _ = sig;
    "Ctrl-C"
}

/// The signal that stopped the command, as [`signal_name`] names it.
pub fn stop_signal_name() -> &'static str {
    signal_name(STOP_SIGNAL.load(Ordering::SeqCst))
}

/// SIGINT's number (what Ctrl-C sends).
const SIGINT: i32 = 2;

/// A second stop signal this soon after the first is the same stop, delivered twice; a person
/// pressing Ctrl-C again is slower.
const SAME_STOP: std::time::Duration = std::time::Duration::from_millis(50);

/// Installs the handler of a long command's stop signals: Ctrl-C (SIGINT), SIGTERM (a batch
/// system ending the job, `kill`) and SIGHUP (the terminal closed). The first sets
/// [`INTERRUPTED`] and says `what` (what the command will do); the second (unless it comes
/// within [`SAME_STOP`] of the first: the same stop delivered twice) exits at once with
/// 128 + the signal, which loses nothing: every file is written to a temporary name and
/// renamed, so each is complete or absent, and the temporary file of a write cut short is
/// removed. The handler runs on a thread of its own and never
/// fails on a closed stderr.
pub fn catch_interrupt(what: &'static str) -> anyhow::Result<&'static AtomicBool> {
    static FIRST_AT: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let first = move |sig: i32| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // The same stop delivered twice (`timeout -s INT` signals the command and then
            // its own process group; a batch system may signal every process of the job):
            // not a person asking again.
            if FIRST_AT.get().is_some_and(|t| t.elapsed() < SAME_STOP) {
                return;
            }
            warn(&format!("\n{} again: exiting now", signal_name(sig)));
            // No outside engine outlives us, and no temporary file of a write cut short.
            checkers_ga::kill_all_engines();
            let _held = checkers_ga::abandon_writes();
            std::process::exit(128 + sig);
        }
        let _ = FIRST_AT.set(std::time::Instant::now());
        STOP_SIGNAL.store(sig, Ordering::SeqCst);
        warn(&format!("\n{}: {what}", signal_name(sig)));
    };
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            .context("cannot install the stop-signal handler")?;
        std::thread::spawn(move || {
            for sig in signals.forever() {
                first(sig);
            }
        });
    }
    #[cfg(not(unix))]
    ctrlc::set_handler(move || first(SIGINT)).context("cannot install the Ctrl-C handler")?;
    Ok(&INTERRUPTED)
}

/// Installs the stop-signal handler of a command with nothing to save (`play`): the first
/// Ctrl-C, SIGTERM or SIGHUP says so, stops every outside engine (and what it started) and
/// exits with 128 + the signal.
pub fn exit_on_interrupt() -> anyhow::Result<()> {
    let now = |sig: i32| {
        // Said before the engines are stopped: the game sees its engine end as the stop it
        // is, not as the engine's fault ([`abandoned`], [`wait_if_abandoned`]).
        ABANDONED.store(true, Ordering::SeqCst);
        warn(&format!("\n{}: the game is abandoned", signal_name(sig)));
        checkers_ga::kill_all_engines();
        let _held = checkers_ga::abandon_writes();
        std::process::exit(128 + sig);
    };
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            .context("cannot install the stop-signal handler")?;
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                now(sig);
            }
        });
    }
    #[cfg(not(unix))]
    ctrlc::set_handler(move || now(SIGINT)).context("cannot install the Ctrl-C handler")?;
    Ok(())
}

/// Set by the stop signal of a command with nothing to save, before its engines are stopped.
static ABANDONED: AtomicBool = AtomicBool::new(false);

/// Has a stop signal abandoned the game ([`exit_on_interrupt`])? What `play`'s game asks before
/// each move and while an engine thinks.
pub fn abandoned() -> bool {
    ABANDONED.load(Ordering::SeqCst)
}

/// Once a stop signal abandoned the game, waits for the signal's handler to end the process
/// (with 128 + the signal), so that the game's end prints nothing and exits with nothing else.
pub fn wait_if_abandoned() {
    while abandoned() {
        std::thread::park();
    }
}

/// Has standard output failed (a closed pipe, a full disk)? Then [`say`] writes no more there.
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
static STDERR_GONE: AtomicBool = AtomicBool::new(false);

/// Prints a line on standard output. A failed write (the reader of a pipe has exited) stops
/// the printing, never the work: the caller goes on and saves what it has. False once
/// standard output is gone.
pub fn say(line: &str) -> bool {
    write_line(&mut std::io::stdout().lock(), &STDOUT_GONE, line)
}

/// [`say`] on standard error.
pub fn warn(line: &str) -> bool {
    write_line(&mut std::io::stderr().lock(), &STDERR_GONE, line)
}

/// Standard output holds the answer's path alone (`--quiet`): [`say_somewhere`] writes on
/// standard error.
static PATH_ONLY: AtomicBool = AtomicBool::new(false);

/// Keeps standard output for the answer's path alone from now on (a session run with
/// `--quiet`, whose output a script reads).
pub fn path_only(on: bool) {
    PATH_ONLY.store(on, Ordering::Relaxed);
}

/// A line that must reach the user wherever it still can: standard output, else standard
/// error (standard error first under [`path_only`]).
pub fn say_somewhere(line: &str) {
    if PATH_ONLY.load(Ordering::Relaxed) {
        if !warn(line) {
            say(line);
        }
    } else if !say(line) {
        warn(line);
    }
}

fn write_line(w: &mut dyn Write, gone: &AtomicBool, line: &str) -> bool {
    if gone.load(Ordering::Relaxed) {
        return false;
    }
    let ok = writeln!(w, "{line}").and_then(|_| w.flush()).is_ok();
    if !ok {
        gone.store(true, Ordering::Relaxed);
    }
    ok
}

/// The error of a command that has said what went wrong already (its `error:` line and what
/// to do): it exits with 1 and prints nothing more.
#[derive(Debug)]
pub struct AlreadySaid;

impl std::fmt::Display for AlreadySaid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("(said)")
    }
}

impl std::error::Error for AlreadySaid {}

/// How the user can run this program again, as a command to paste: as this run was started.
/// Through `cargo run` (cargo sets `CARGO` and `CARGO_PKG_NAME` for what it runs, and on Unix
/// replaces itself with the program, whose parent is then whatever started cargo):
/// `cargo run --release --`, `cargo run --` or `cargo run --profile P --`, after the folder of
/// the binary. Otherwise the program as given (`argv[0]`): `checkers-ga` when it was found on
/// the PATH, `./target/release/checkers-ga` when started by that path.
pub fn command_prefix() -> String {
    let exe = std::env::current_exe().ok();
    if let Some(profile) = exe.as_deref().and_then(cargo_profile) {
        return match profile.as_str() {
            "release" => "cargo run --release --".to_string(),
            "debug" => "cargo run --".to_string(),
            p => format!("cargo run --profile {p} --"),
        };
    }
    let started = std::env::args_os()
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| "checkers-ga".to_string());
    if started
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    {
        started
    } else {
        format!("'{}'", started.replace('\'', "'\\''"))
    }
}

/// The command that continues the session in `dir` (of either tuner), as this one was invoked
/// (see [`command_prefix`]): `... resume NAME` (with the folders when they are not the
/// defaults, see [`session_arg`]), then `--weights-dir` and `--handshake-timeout` when this run
/// was given them.
pub fn resume_command(
    dir: &Path,
    name: &str,
    populations: &Path,
    weights_dir: Option<&Path>,
    handshake_timeout: Option<f64>,
) -> String {
    let me = command_prefix();
    let mut c = format!("{me} resume {}", session_arg(dir, name, populations));
    if let Some(w) = weights_dir {
        c += &format!(" --weights-dir {}", shell_word(&w.to_string_lossy()));
    }
    if let Some(t) = handshake_timeout {
        c += &format!(" --handshake-timeout {t}");
    }
    c
}

/// The cargo profile (`release`, `debug`, ...) when this run was started by `cargo run` of this
/// package: cargo's variables say this package, and no ancestor process is a program built in
/// the same folder (a test of this package, which inherits cargo's variables, runs the binary
/// as its child or through `mpirun`). The profile is the name of the binary's folder.
fn cargo_profile(exe: &Path) -> Option<String> {
    std::env::var_os("CARGO")?;
    if std::env::var_os("CARGO_PKG_NAME")? != env!("CARGO_PKG_NAME") {
        return None;
    }
    let folder = exe.parent()?;
    if parent_built_in(folder) {
        return None;
    }
    Some(folder.file_name()?.to_str()?.to_string())
}

/// Is one of this process's ancestors a program under `folder` (a test binary in its `deps/`,
/// which may have started us through others: `mpirun`, a shell)? On Linux their executables
/// say; elsewhere it cannot be told, so no.
fn parent_built_in(folder: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        let mut pid = std::os::unix::process::parent_id();
        for _ in 0..32 {
            if pid <= 1 {
                break;
            }
            if std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|e| e.starts_with(&folder))
            {
                return true;
            }
            // The parent's id: the field after the name in parentheses in /proc/PID/stat.
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            match after.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
                Some(p) => pid = p,
                None => break,
            }
        }
    }
    let _ = folder;
    false
}

/// The error of a run that a stop signal stopped after saving its work and saying how to
/// continue: the command exits with 128 + the signal (130 for Ctrl-C, 143 for SIGTERM, 129 for
/// SIGHUP) and prints nothing more.
#[derive(Debug)]
pub struct Interrupted;

impl Interrupted {
    /// The exit status: 128 + the signal that stopped the command.
    pub fn exit_code(&self) -> i32 {
        match STOP_SIGNAL.load(Ordering::SeqCst) {
            0 => 128 + SIGINT,
            s => 128 + s,
        }
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// A progress bar style from `template`, whose `{rate}` is the games (or items) per second with
/// one decimal (indicatif's own `{per_sec}` prints four).
pub fn progress_style(template: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}/s", s.per_sec());
            },
        )
}

#[cfg(test)]
mod tests {
    use super::{progress_style, resume_command, session_arg};
    use std::path::Path;

    #[test]
    fn a_session_is_named_as_resume_finds_it() {
        let default = Path::new("populations");
        let dir = checkers_ga::store::session_dir(default, "amber-otter");
        assert_eq!(session_arg(&dir, "amber-otter", default), "amber-otter");
        let other = Path::new("my pops");
        let dir = checkers_ga::store::session_dir(other, "s");
        assert_eq!(session_arg(&dir, "s", other), "s --populations 'my pops'");
        // A copy of the folder under another name: the folder itself.
        assert_eq!(
            session_arg(Path::new("/tmp/copy"), "s", default),
            "/tmp/copy"
        );
        let c = resume_command(&dir, "s", other, Some(Path::new("w")), Some(2.5));
        assert!(
            c.ends_with(
                " resume s --populations 'my pops' --weights-dir w --handshake-timeout 2.5"
            ),
            "{c}"
        );
        let c = resume_command(&dir, "s", other, None, None);
        assert!(c.ends_with(" resume s --populations 'my pops'"), "{c}");
    }

    use indicatif::{ProgressBar, ProgressDrawTarget, TermLike};
    use std::sync::{Arc, Mutex};

    /// A terminal that records what is drawn.
    #[derive(Debug, Clone, Default)]
    struct Recorder(Arc<Mutex<String>>);

    impl TermLike for Recorder {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn rates_have_one_decimal() {
        let term = Recorder::default();
        let bar = ProgressBar::with_draw_target(
            Some(100),
            ProgressDrawTarget::term_like(Box::new(term.clone())),
        );
        bar.set_style(progress_style("{pos}/{len} games {rate} eta {eta}"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        bar.inc(7);
        bar.tick();
        let text = term.0.lock().unwrap().clone();
        let rate = text
            .split_whitespace()
            .find(|w| w.ends_with("/s"))
            .unwrap_or_else(|| panic!("no rate in {text:?}"));
        let number = rate.trim_end_matches("/s");
        let decimals = number.split('.').nth(1).unwrap_or_else(|| panic!("{rate}"));
        assert_eq!(decimals.len(), 1, "{rate}");
        assert!(number.parse::<f64>().unwrap() > 0.0, "{rate}");
    }
}
