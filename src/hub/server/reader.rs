//! The reader thread: the input passed on to the main loop; `stop`, `quit`, `ping` and the end
//! of input taken at once during a search.

use super::answers::say;
use super::{lock, Event, Shared};
use crate::hub::protocol::HubLine;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;

/// The reader thread: passes lines on to the main loop, in order, but takes some at once:
/// - `stop` stops every search asked for before it: the one under way now, and those still
///   waiting, which answer at once (a search asked for after it is not stopped);
/// - `ponder-hit` is ignored;
/// - `ping`, while a search runs and nothing waits, is answered at once (else in order);
/// - `quit`, while a search runs and nothing waits, ends the session at once: the search is
///   stopped and its move not written;
/// - at the end of input, or `quit` behind lines that wait, the lines read are still carried
///   out, in order, and then the session ends; a search without an end of its own (`level
///   infinite`) is stopped, as `stop` stops it, its move written.
pub(super) fn read_input<R: BufRead, W: Write>(
    mut input: R,
    shared: &Shared<W>,
    tx: &mpsc::Sender<Event>,
) {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let end = matches!(input.read_until(b'\n', &mut bytes), Ok(0) | Err(_));
        // A line that is not UTF-8 is an error line, not the end of the input.
        let text = std::str::from_utf8(&bytes);
        if !end && text.is_ok_and(|t| t.trim().is_empty()) {
            continue;
        }
        let line = (!end).then(|| match text {
            Ok(t) => HubLine::parse(t).map_err(|e| format!("{e}")),
            Err(_) => Err("a line that is not UTF-8 text".to_string()),
        });
        let command = match &line {
            Some(Ok(l)) => Some(l.command.as_str()),
            _ => None,
        };
        let mut link = lock(&shared.link);
        match command {
            Some("stop") => {
                link.stop_upto = link.gos_read;
                if link.running {
                    shared.abort.store(true, Ordering::Relaxed);
                }
                continue;
            }
            Some("ponder-hit") => continue,
            Some("ping") if link.running && link.waiting == 0 => {
                drop(link);
                // The main loop sees a failed write the next time it writes.
                let _ = say(&mut *lock(&shared.out), &HubLine::new("pong"));
                continue;
            }
            Some("quit") if link.running && link.waiting == 0 => {
                link.quit = true;
                shared.abort.store(true, Ordering::Relaxed);
                drop(link);
                let _ = tx.send(Event::End);
                return;
            }
            Some("go") => link.gos_read += 1,
            _ => {}
        }
        if end || command == Some("quit") {
            link.ended = true;
            if link.running && link.endless {
                shared.abort.store(true, Ordering::Relaxed);
            }
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
