//! The reader thread: the input passed on to the main loop, `ping` and `stop` taken at once
//! during a search.

use super::answers::say;
use super::{lock, Event, Shared};
use crate::hub::protocol::HubLine;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;

/// The reader thread: passes lines on to the main loop, in order, but while a search runs (a
/// `go` passed on is not answered yet) answers `ping`, takes `stop` (the search under way ends)
/// and `ponder-hit` (ignored) at once, and, when nothing waits, ends the session at `quit` or
/// the end of input.
pub(super) fn read_input<R: BufRead, W: Write>(
    mut input: R,
    shared: &Shared<W>,
    tx: &mpsc::Sender<Event>,
) {
    let mut text = String::new();
    loop {
        text.clear();
        let end = matches!(input.read_line(&mut text), Ok(0) | Err(_));
        if !end && text.trim().is_empty() {
            continue;
        }
        let line = (!end).then(|| HubLine::parse(&text).map_err(|e| format!("{e}")));
        let command = match &line {
            Some(Ok(l)) => Some(l.command.as_str()),
            _ => None,
        };
        let mut link = lock(&shared.link);
        if link.gos > 0 {
            if (end || command == Some("quit")) && link.waiting == 0 {
                // The search under way is stopped and its move not written.
                link.quit = true;
                shared.abort.store(true, Ordering::Relaxed);
                drop(link);
                let _ = tx.send(Event::End);
                return;
            }
            match command {
                Some("stop") => {
                    shared.abort.store(true, Ordering::Relaxed);
                    continue;
                }
                Some("ping") => {
                    drop(link);
                    // The main loop sees a failed write the next time it writes.
                    let _ = say(&mut *lock(&shared.out), &HubLine::new("pong"));
                    continue;
                }
                Some("ponder-hit") => continue,
                _ => {}
            }
        }
        if command == Some("go") {
            link.gos += 1;
        }
        link.waiting += 1;
        drop(link);
        let event = match line {
            Some(l) => Event::Line(l),
            None => Event::End,
        };
        if tx.send(event).is_err() || end {
            return;
        }
    }
}
