//! An outside Hub engine as a process: started, spoken to, timed, stopped; and [`Program`],
//! what starts one.
//!
//! [`HubProcess::start`] runs the command in a process group of its own (on Linux it is also
//! killed when the thread that started it ends, so a crash of ours leaves no engine behind),
//! makes the handshake (`hub` ... `wait`, `set-param` for the user's options, `init` ...
//! `ready`) and keeps the process's pid in a registry of live engines that
//! [`kill_all_engines`](super::kill_all_engines) empties on any exit path (the process itself,
//! its group, its exit status and its standard error are file `process`). Its standard output
//! is read with a deadline on every read (`poll` by the thread that waits for the answer;
//! where there is no `poll`, a reader thread and a channel); a thread drains its standard error (whatever it says there never matters),
//! keeping the last lines for the report of a fault: when the output ends, the fault waits
//! (at most [`LAST_WORDS_WAIT`]) for the exit status and the end of standard error, so an
//! engine's last words are in its report however loaded the machine is. Where a reply is expected,
//! [`GARBAGE_LINES`] lines in a row that are not the protocol (or a `done` without a move)
//! are garbage; `pong`, `id`, `param`, `wait` and `ready` out of place are ignored. [`HubProcess::go`] asks for a move in a
//! game (its start position and every move since, so the engine knows the repetitions) at a
//! level, and checks the answer with our own rules. Every failure is an [`EngineFault`] with
//! what the engine said or did. Dropping the process sends `quit`, waits a moment, then kills
//! its whole process group and reaps it.

#[cfg(test)]
use super::output::{read_line, MAX_LINE};
use super::output::{Next, Output};
#[cfg(unix)]
use super::process::kill_group;
#[cfg(test)]
use super::process::STDERR_KEPT;
use super::process::{exit_status, has_exited, live, own_group, spawn, Stderr};
use super::protocol::{hub_move, hub_position, parse_hub_move, HubLine};
use crate::board::{Move, Position};
use crate::game::EngineFault;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Lines of non-protocol text in a row, where a reply is expected, that make an engine's output
/// garbage.
pub const GARBAGE_LINES: usize = 3;

/// The time an engine has for its handshake (`hub` ... `wait`, then `init` ... `ready`, in
/// all) when the command does not say otherwise (`--handshake-timeout`).
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The handshake's time limit of this process's engines, in milliseconds.
static HANDSHAKE_MS: AtomicU64 = AtomicU64::new(DEFAULT_HANDSHAKE_TIMEOUT.as_millis() as u64);

/// The time every outside engine this process starts has for its handshake
/// ([`DEFAULT_HANDSHAKE_TIMEOUT`] unless [`set_handshake_timeout`] said otherwise): one limit
/// for a match, `play`, a session of an outside engine and `spsa` alike.
pub fn handshake_timeout() -> Duration {
    Duration::from_millis(HANDSHAKE_MS.load(Ordering::Relaxed))
}

/// Sets [`handshake_timeout`] (a command's `--handshake-timeout`), at least a millisecond.
pub fn set_handshake_timeout(t: Duration) {
    let ms = t.as_millis().clamp(1, u64::MAX as u128) as u64;
    HANDSHAKE_MS.store(ms, Ordering::Relaxed);
}

/// How long a dropped engine has to quit on its own before its process group is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(200);

/// How long an engine whose output ended is given to show its exit status and close its
/// standard error (its last words read to the end) before its fault is reported without them.
/// An engine that exits is done in milliseconds; the bound is for a loaded machine, and for an
/// engine that left a child holding its standard error open.
pub const LAST_WORDS_WAIT: Duration = Duration::from_secs(5);

/// How often a wait for the engine looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);

/// The most lines the handshake reads before `wait` or `ready` (a talkative engine's `id` and
/// `param` lines are far fewer).
const HANDSHAKE_LINES: usize = 10_000;

/// How far talking to an engine got: the engine failed, or we were asked to stop.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The engine failed ([`EngineFault`]); the text says what it said or did (its illegal
    /// move, the garbage line, its last words on standard error).
    #[error("{}", fault_text(*.0, .1))]
    Fault(EngineFault, String),
    /// The stop flag was raised while we waited for it.
    #[error("stopped")]
    Stopped,
}

fn fault_text(f: EngineFault, detail: &str) -> String {
    if detail.is_empty() {
        f.to_string()
    } else {
        format!("{f}: {detail}")
    }
}

impl ClientError {
    fn fault(f: EngineFault, detail: impl Into<String>) -> ClientError {
        ClientError::Fault(f, detail.into())
    }
}

/// A parameter an engine declared (`param name= value= type= ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubParam {
    /// Its name.
    pub name: String,
    /// Its default value.
    pub value: Option<String>,
    /// Its type: `int`, `real`, `bool`, `string` or `enum`.
    pub kind: Option<String>,
    /// Its least value (`min=`, an `int` or `real` parameter).
    pub min: Option<String>,
    /// Its greatest value (`max=`).
    pub max: Option<String>,
}

/// Why `value` does not fit parameter `p` as the engine declared it: not an integer for an
/// `int` (or outside its `min`..`max`), not a number for a `real` (or outside its range), not
/// `true` or `false` for a `bool`. None when it fits, or the type says nothing to check.
pub fn misfit(p: &HubParam, value: &str) -> Option<String> {
    let kind = p.kind.as_deref().unwrap_or("");
    let range = match (&p.min, &p.max) {
        (Some(lo), Some(hi)) => format!(" {lo}..{hi}"),
        _ => String::new(),
    };
    let declared = format!("{} is declared {kind}{range}", p.name);
    let v = value.trim();
    match kind {
        "int" => {
            let Ok(x) = v.parse::<i128>() else {
                return Some(format!("'{value}' is not an integer ({declared})"));
            };
            let bound =
                |b: &Option<String>| b.as_deref().and_then(|t| t.trim().parse::<i128>().ok());
            let out =
                bound(&p.min).is_some_and(|lo| x < lo) || bound(&p.max).is_some_and(|hi| x > hi);
            out.then(|| format!("{value} is outside the range ({declared})"))
        }
        "real" => {
            let Some(x) = v.parse::<f64>().ok().filter(|x| x.is_finite()) else {
                return Some(format!("'{value}' is not a number ({declared})"));
            };
            let bound =
                |b: &Option<String>| b.as_deref().and_then(|t| t.trim().parse::<f64>().ok());
            let out =
                bound(&p.min).is_some_and(|lo| x < lo) || bound(&p.max).is_some_and(|hi| x > hi);
            out.then(|| format!("{value} is outside the range ({declared})"))
        }
        "bool" if v != "true" && v != "false" => {
            Some(format!("'{value}' is not true or false ({declared})"))
        }
        _ => None,
    }
}

/// How long the engine may think about a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HubLevel {
    /// To this depth (`level depth=`).
    Depth(u32),
    /// For this long (`level move-time=`, seconds).
    MoveTime(Duration),
    /// From a game clock: the time left and the increment (`level time= inc=`).
    Time {
        /// The time left on its clock.
        time: Duration,
        /// What is added after each move.
        increment: Duration,
    },
}

/// An engine's move and what it said of it.
#[derive(Clone, Debug, PartialEq)]
pub struct HubReply {
    /// The move, legal in the position it was asked about.
    pub mv: Move,
    /// The move as the engine wrote it.
    pub text: String,
    /// Its last `info score=`, in men (the side to move's point of view).
    pub score: Option<f64>,
    /// Its last `info depth=`.
    pub depth: Option<u32>,
    /// Its last `info nodes=`.
    pub nodes: Option<u64>,
    /// From our `go` to its `done`.
    pub elapsed: Duration,
}

impl HubReply {
    /// The score in hundredths of a man, as adjudication counts.
    pub fn centi_men(&self) -> Option<i32> {
        self.score
            .filter(|s| s.is_finite())
            .map(|s| (s * 100.0).round().clamp(-1e6, 1e6) as i32)
    }
}

/// What starts an outside engine's process: the program and its arguments, the folder it runs
/// in, and the parameters set once at its handshake. One description for every outside
/// engine we start: a match's side, `play`'s, a tuning session's, a probe's.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Program {
    /// The program (a path) and its arguments.
    pub command: Vec<String>,
    /// The folder it runs in (None: ours).
    pub dir: Option<PathBuf>,
    /// Parameters set at the handshake (`set-param name= value=`), in order.
    pub options: Vec<(String, String)>,
}

impl Program {
    /// `command` (the program, then its arguments) run in our folder, with no options.
    pub fn new(command: Vec<String>) -> Program {
        Program {
            command,
            ..Program::default()
        }
    }

    /// Starts a process of the program and makes its handshake within `timeout`
    /// ([`HubProcess::start`]).
    pub fn start(
        &self,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<HubProcess, ClientError> {
        HubProcess::start(self, timeout, stop)
    }
}

/// An outside Hub engine running as a process, its handshake made.
pub struct HubProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Output,
    /// Its output has ended.
    ended: bool,
    stderr: Arc<Stderr>,
    name: Option<String>,
    params: Vec<HubParam>,
    unknown: Vec<String>,
    /// The messages of the `error` lines it answered while we waited for `ready`.
    refused: Vec<String>,
    /// The game of the last `go`: its start, its moves, their Hub text and the position after
    /// them, so the next `go` of the game encodes only the moves added since.
    sent: Option<Box<Sent>>,
    /// The core it is pinned to (None: any the process may use).
    core: Option<usize>,
}

/// The game of a `go`, as sent.
struct Sent {
    start: Position,
    moves: Vec<Move>,
    text: String,
    pos: Position,
}

impl HubProcess {
    /// Starts `program` (its command in its folder, or the current one), makes the handshake
    /// within `timeout` (`hub` ... `wait`; `set-param` for each of its options; `init` ...
    /// `ready`) and returns the engine ready for a game. Options the engine did not declare
    /// are sent all the same and listed by [`HubProcess::unknown_options`]. `stop` is asked
    /// while we wait. Every outside engine process is started here.
    pub fn start(
        program: &Program,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<HubProcess, ClientError> {
        let (command, options) = (&program.command, &program.options);
        let Some(program_path) = command.first() else {
            return Err(ClientError::fault(EngineFault::Exited, "no command"));
        };
        let mut cmd = Command::new(program_path);
        cmd.args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &program.dir {
            cmd.current_dir(d);
        }
        own_group(&mut cmd);
        // Registered before it runs, so no exit path misses it.
        let mut registry = live();
        let mut child = spawn(cmd).map_err(|e| {
            ClientError::fault(
                EngineFault::Exited,
                format!("cannot start '{program_path}': {e}"),
            )
        })?;
        registry.push(child.id());
        drop(registry);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let tail = Arc::new(Stderr::default());
        let kept = Arc::clone(&tail);
        thread::spawn(move || {
            // (Started by the thread that starts the engine, which a game may have pinned.)
            super::cores::free_this_thread();
            kept.read(stderr)
        });
        let mut p = HubProcess {
            child,
            stdin,
            out: Output::new(stdout),
            ended: false,
            stderr: tail,
            name: None,
            params: Vec::new(),
            unknown: Vec::new(),
            refused: Vec::new(),
            sent: None,
            core: None,
        };
        let deadline = Instant::now() + timeout;
        p.send(&HubLine::new("hub"))?;
        p.handshake("wait", deadline, timeout, stop)?;
        for (name, value) in options {
            if !p.params.iter().any(|q| &q.name == name) {
                p.unknown.push(name.clone());
            }
            p.send(
                &HubLine::new("set-param")
                    .arg("name", name)
                    .arg("value", value),
            )?;
        }
        p.send(&HubLine::new("init"))?;
        p.handshake("ready", deadline, timeout, stop)?;
        Ok(p)
    }

    /// Runs the engine (every thread of it) on `core` from now on, or with None on any core the
    /// process may use ([`crate::hub::hold_core`]).
    pub fn pin(&mut self, core: Option<usize>) {
        if self.core != core {
            super::cores::pin_process(self.child.id(), core);
            self.core = core;
        }
    }

    /// The name the engine gave (`id name=`).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The parameters the engine declared.
    pub fn params(&self) -> &[HubParam] {
        &self.params
    }

    /// The options given to [`HubProcess::start`] that the engine did not declare.
    pub fn unknown_options(&self) -> &[String] {
        &self.unknown
    }

    /// What the engine answered with `error` (each line's message, or the line) while we
    /// waited for `ready`: the `set-param` values it refused (at the start, `options`).
    pub fn refused(&self) -> &[String] {
        &self.refused
    }

    /// The process's id (and its process group's).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines of its standard error, oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lock().lines.iter().cloned().collect()
    }

    /// Sets parameters again (`set-param` for each of `params`, then `init` ... `ready` within
    /// `timeout`): the same process with other values, between games. `stop` is asked while
    /// we wait.
    pub fn configure(
        &mut self,
        params: &[(String, String)],
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), ClientError> {
        self.drain()?;
        self.sent = None;
        let mut lines: Vec<HubLine> = params
            .iter()
            .map(|(name, value)| {
                HubLine::new("set-param")
                    .arg("name", name)
                    .arg("value", value)
            })
            .collect();
        lines.push(HubLine::new("init"));
        self.send_all(&lines)?;
        self.handshake("ready", Instant::now() + timeout, timeout, stop)
    }

    /// Tells the engine a new game starts (`new-game`).
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send(&HubLine::new("new-game"))
    }

    /// Asks for a move in the position after `moves` from `start` (`pos`, `level` unless
    /// `level` is None and the engine keeps its own, `go think`) and waits for it at most
    /// `timeout` (then the engine hung). The move must be legal there by our rules. `stop` is
    /// asked while we wait.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        level: Option<HubLevel>,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<HubReply, ClientError> {
        // What it said since its last move (late `info` lines) is of no interest.
        self.drain()?;
        // The last game's text, when this one only adds moves to it.
        let mut sent = match self.sent.take() {
            Some(s) if s.start == *start && moves.starts_with(&s.moves) => s,
            _ => Box::new(Sent {
                start: *start,
                moves: Vec::new(),
                text: String::new(),
                pos: *start,
            }),
        };
        for m in &moves[sent.moves.len()..] {
            if !sent.text.is_empty() {
                sent.text.push(' ');
            }
            sent.text.push_str(&hub_move(&sent.pos, m));
            sent.pos = sent.pos.play(m);
            sent.moves.push(*m);
        }
        let pos = sent.pos;
        let mut line = HubLine::new("pos").arg("pos", hub_position(start));
        if !sent.text.is_empty() {
            line = line.arg("moves", &sent.text);
        }
        self.sent = Some(sent);
        let mut lines = vec![line];
        let level = match level {
            None => None,
            Some(HubLevel::Depth(d)) => Some(HubLine::new("level").arg("depth", d)),
            Some(HubLevel::MoveTime(t)) => Some(HubLine::new("level").arg("move-time", seconds(t))),
            Some(HubLevel::Time { time, increment }) => Some(
                HubLine::new("level")
                    .arg("time", seconds(time))
                    .arg("inc", seconds(increment)),
            ),
        };
        lines.extend(level);
        lines.push(HubLine::new("go").flag("think"));
        // In one write: the engine reads them at once.
        self.send_all(&lines)?;
        let sent = Instant::now();
        let deadline = sent + timeout;
        let (mut score, mut depth, mut nodes) = (None, None, None);
        let mut strikes = 0;
        loop {
            let (text, at) = match self.next_line(deadline, stop)? {
                Some(l) => l,
                None => {
                    return Err(self.with_stderr(
                        EngineFault::Hung,
                        format!("no move after {} s", seconds(timeout)),
                    ))
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            let parsed = HubLine::parse(&text).ok();
            match parsed.as_ref().map(|l| l.command.as_str()) {
                Some("info") => {
                    let l = parsed.as_ref().expect("parsed");
                    score = l.get("score").and_then(|s| s.parse().ok()).or(score);
                    depth = l.get("depth").and_then(|s| s.parse().ok()).or(depth);
                    nodes = l.get("nodes").and_then(|s| s.parse().ok()).or(nodes);
                    strikes = 0;
                }
                Some("done") => {
                    let l = parsed.as_ref().expect("parsed");
                    let Some(mv) = l.get("move").filter(|m| !m.is_empty()) else {
                        return Err(ClientError::fault(
                            EngineFault::Garbage,
                            format!("'{}' without a move", one_line(&text)),
                        ));
                    };
                    return match parse_hub_move(&pos, mv) {
                        Ok(m) => Ok(HubReply {
                            mv: m,
                            text: mv.to_string(),
                            score,
                            depth,
                            nodes,
                            elapsed: at.saturating_duration_since(sent),
                        }),
                        Err(e) => Err(ClientError::fault(
                            EngineFault::IllegalMove,
                            format!("{} ({e})", one_line(mv)),
                        )),
                    };
                }
                // Protocol, if out of place: not garbage.
                Some("pong" | "id" | "param" | "wait" | "ready") => {}
                _ => {
                    strikes += 1;
                    if strikes >= GARBAGE_LINES {
                        return Err(ClientError::fault(EngineFault::Garbage, one_line(&text)));
                    }
                }
            }
        }
    }

    /// Reads until `want` (`wait` or `ready`), taking the `id` and `param` lines on the way;
    /// `deadline` is the end of the handshake's time limit `timeout`.
    fn handshake(
        &mut self,
        want: &str,
        deadline: Instant,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), ClientError> {
        for _ in 0..HANDSHAKE_LINES {
            let Some((text, _)) = self.next_line(deadline, stop)? else {
                break;
            };
            let Ok(l) = HubLine::parse(&text) else {
                continue;
            };
            match l.command.as_str() {
                c if c == want => return Ok(()),
                "error" if want == "ready" => self
                    .refused
                    .push(one_line(l.get("message").unwrap_or(&text))),
                "id" => {
                    if let Some(n) = l.get("name") {
                        self.name = Some(n.to_string());
                    }
                }
                "param" => {
                    if let Some(n) = l.get("name") {
                        let p = HubParam {
                            name: n.to_string(),
                            value: l.get("value").map(str::to_string),
                            kind: l.get("type").map(str::to_string),
                            min: l.get("min").map(str::to_string),
                            max: l.get("max").map(str::to_string),
                        };
                        // Declared again: the last declaration is the parameter, in the
                        // first one's place (one name, one parameter to set or tune).
                        match self.params.iter_mut().find(|q| q.name == p.name) {
                            Some(q) => *q = p,
                            None => self.params.push(p),
                        }
                    }
                }
                _ => {}
            }
        }
        Err(self.with_stderr(
            EngineFault::NoHandshake,
            format!(
                "no '{want}' after '{}' within {} s",
                if want == "wait" { "hub" } else { "init" },
                seconds(timeout)
            ),
        ))
    }

    /// The next line before `deadline` (None: none came), an error once the output ended or
    /// `stop` said yes.
    fn next_line(
        &mut self,
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<(String, Instant)>, ClientError> {
        if self.ended {
            return Err(self.exited());
        }
        loop {
            if stop() {
                return Err(ClientError::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            match self.out.next((deadline - now).min(STOP_POLL)) {
                Next::Line(l, at) => return Ok(Some((l, at))),
                Next::End => {
                    self.ended = true;
                    // Stopped meanwhile (its processes killed by the stop): not a fault.
                    if stop() {
                        return Err(ClientError::Stopped);
                    }
                    return Err(self.exited());
                }
                Next::Timeout => {}
            }
        }
    }

    /// Drops the lines read so far; an error when the output has ended.
    fn drain(&mut self) -> Result<(), ClientError> {
        loop {
            match self.out.next(Duration::ZERO) {
                Next::Line(..) => {}
                Next::End => {
                    self.ended = true;
                    return Err(self.exited());
                }
                Next::Timeout => return Ok(()),
            }
        }
    }

    /// Writes a line to the engine.
    fn send(&mut self, line: &HubLine) -> Result<(), ClientError> {
        self.send_all(std::slice::from_ref(line))
    }

    /// Writes lines to the engine, in one write.
    fn send_all(&mut self, lines: &[HubLine]) -> Result<(), ClientError> {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let ok = match self.stdin.as_mut() {
            Some(w) => w.write_all(text.as_bytes()).and_then(|_| w.flush()).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            self.stdin = None;
            Err(self.exited())
        }
    }

    /// The fault of an engine whose output ended: its exit status and its last words (both
    /// waited for, at most [`LAST_WORDS_WAIT`]).
    fn exited(&mut self) -> ClientError {
        let until = Instant::now() + LAST_WORDS_WAIT;
        let status = loop {
            match exit_status(&mut self.child) {
                Some(s) => break Some(s),
                None if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                None => break None,
            }
        };
        // The fault's own word (`exited`) comes first: the text says only how.
        let what = match status {
            Some(s) => s,
            None => "closed its output".to_string(),
        };
        // Its standard error may still be on its way: read to its end.
        self.stderr.wait_end(until);
        self.with_stderr(EngineFault::Exited, what)
    }

    /// A fault whose text ends with the engine's last line on standard error, if any.
    fn with_stderr(&self, fault: EngineFault, what: String) -> ClientError {
        match self.stderr_tail().last() {
            Some(l) => {
                ClientError::fault(fault, format!("{what}; its last words: {}", one_line(l)))
            }
            None => ClientError::fault(fault, what),
        }
    }
}

impl Drop for HubProcess {
    /// `quit`, a moment's grace, then SIGKILL to its process group (what it started too), and
    /// the process reaped.
    fn drop(&mut self) {
        if let Some(mut w) = self.stdin.take() {
            let _ = w.write_all(b"quit\n");
            let _ = w.flush();
        }
        let pid = self.child.id();
        let until = Instant::now() + QUIT_GRACE;
        while !has_exited(&mut self.child) && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        // The leader is not reaped yet, so its pid (the group's id) is not reused.
        #[cfg(unix)]
        kill_group(pid);
        #[cfg(not(unix))]
        let _ = self.child.kill();
        let _ = self.child.wait();
        live().retain(|p| *p != pid);
    }
}

/// The most characters of a text [`one_line`] keeps.
const ONE_LINE: usize = 300;

/// The characters of a cut text's start [`one_line`] keeps (the rest of what it keeps is the
/// end).
const ONE_LINE_HEAD: usize = 100;

/// A text on one line, for a report: at most [`ONE_LINE`] characters; a longer one keeps its
/// start and its end (where an error's reason is), `...` between.
fn one_line(s: &str) -> String {
    let s = s.trim().replace(['\n', '\r'], " ");
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= ONE_LINE {
        return s;
    }
    let head: String = chars[..ONE_LINE_HEAD].iter().collect();
    let tail: String = chars[chars.len() - (ONE_LINE - ONE_LINE_HEAD - 3)..]
        .iter()
        .collect();
    format!("{head}...{tail}")
}

/// A duration as seconds, as the protocol writes them (`0.5`).
fn seconds(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
#[path = "client_tests.rs"]
mod tests;
