//! An outside engine's output read line by line with deadlines: where `poll` exists the
//! thread that waits reads (the lines of one write come in one read, and no other thread has to
//! wake for them); elsewhere a thread of its own reads into a channel. Lines are lossy UTF-8,
//! without their end of line, at most [`MAX_LINE`] bytes.

use std::io::BufRead;
#[cfg(not(unix))]
use std::io::BufReader;
#[cfg(not(unix))]
use std::thread;
use std::time::{Duration, Instant};

/// The longest line of an engine's output kept (the rest of a longer line is dropped).
pub(super) const MAX_LINE: usize = 64 * 1024;

/// Lines of output read ahead of the reader (then the engine blocks on its output), where a
/// thread reads them.
#[cfg(not(unix))]
const CHANNEL_LINES: usize = 1024;

/// What waiting for the engine's output gave.
pub(super) enum Next {
    /// A line (without its end of line) and when it was read.
    Line(String, Instant),
    /// Nothing within the wait.
    Timeout,
    /// Its output ended.
    End,
}

/// The engine's standard output, read by the thread that waits for it: `poll` with a
/// timeout, then whatever is there, so the lines of one write come in one read and no other
/// thread has to wake for them (a move is a round trip on a busy machine).
#[cfg(unix)]
pub(super) struct Output {
    pipe: std::process::ChildStdout,
    buf: Vec<u8>,
    /// The rest of a line longer than [`MAX_LINE`] is being dropped.
    skipping: bool,
    ended: bool,
}

#[cfg(unix)]
impl Output {
    pub(super) fn new(pipe: std::process::ChildStdout) -> Output {
        Output {
            pipe,
            buf: Vec::new(),
            skipping: false,
            ended: false,
        }
    }

    /// The next line, waiting at most `wait` for it.
    pub(super) fn next(&mut self, wait: Duration) -> Next {
        use std::os::unix::io::AsRawFd;
        let until = Instant::now() + wait;
        loop {
            if let Some(line) = self.take_line() {
                return Next::Line(line, Instant::now());
            }
            if self.ended {
                return Next::End;
            }
            let left = until.saturating_duration_since(Instant::now());
            let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            let mut fds = libc::pollfd {
                fd: self.pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one pollfd we own, for the duration of the call.
            let r = unsafe { libc::poll(&mut fds, 1, ms) };
            if r < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                self.ended = true;
                continue;
            }
            if r == 0 {
                return Next::Timeout;
            }
            let mut chunk = [0u8; 8192];
            match std::io::Read::read(&mut self.pipe, &mut chunk) {
                Ok(0) => self.ended = true,
                Ok(n) => self.push(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => self.ended = true,
            }
        }
    }

    fn push(&mut self, mut data: &[u8]) {
        if self.skipping {
            match data.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.skipping = false;
                    data = &data[i + 1..];
                }
                None => return,
            }
        }
        self.buf.extend_from_slice(data);
    }

    /// A whole line from the buffer (or a cut one, or the last one once the output ended).
    fn take_line(&mut self) -> Option<String> {
        if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let rest = self.buf.split_off(i + 1);
            let line = std::mem::replace(&mut self.buf, rest);
            return Some(finish_line(line.into_iter().take(MAX_LINE).collect()));
        }
        if self.buf.len() >= MAX_LINE {
            let line: Vec<u8> = self.buf.drain(..).take(MAX_LINE).collect();
            self.skipping = true;
            return Some(finish_line(line));
        }
        if self.ended && !self.buf.is_empty() {
            return Some(finish_line(std::mem::take(&mut self.buf)));
        }
        None
    }
}

/// The engine's standard output, read by a thread of its own into a channel (where there is
/// no `poll`).
#[cfg(not(unix))]
pub(super) struct Output {
    rx: std::sync::mpsc::Receiver<Next>,
    ended: bool,
}

#[cfg(not(unix))]
impl Output {
    pub(super) fn new(pipe: std::process::ChildStdout) -> Output {
        let (tx, rx) = std::sync::mpsc::sync_channel(CHANNEL_LINES);
        thread::spawn(move || {
            let mut r = BufReader::new(pipe);
            while let Some(line) = read_line(&mut r) {
                if tx.send(Next::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
            let _ = tx.send(Next::End);
        });
        Output { rx, ended: false }
    }

    pub(super) fn next(&mut self, wait: Duration) -> Next {
        use std::sync::mpsc::RecvTimeoutError;
        if self.ended {
            return Next::End;
        }
        match self.rx.recv_timeout(wait) {
            Ok(Next::End) | Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Next::End
            }
            Ok(n) => n,
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
        }
    }
}

/// One line of output (without its end of line, lossy UTF-8, at most [`MAX_LINE`] bytes
/// kept), or None at the end.
pub(super) fn read_line(r: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return if buf.is_empty() {
                None
            } else {
                Some(finish_line(buf))
            };
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        r.consume(take);
        if done {
            return Some(finish_line(buf));
        }
    }
}

fn finish_line(mut buf: Vec<u8>) -> String {
    while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        buf.pop();
    }
    String::from_utf8_lossy(&buf).into_owned()
}
