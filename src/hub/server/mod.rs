//! Our engine as a Hub engine: reads commands, searches, answers.
//!
//! [`serve_hub`] speaks Hub (version 2) over any reader and writer (standard input and output
//! for `checkers-ga hub`; pipes or buffers in tests). A reader thread passes input lines on to
//! the calling thread, which searches; while a search runs the reader answers `ping` and takes
//! `stop` itself, so both are answered during a search; the end of input (or `quit`) ends it.
//!
//! What it answers:
//! - `hub`: `id name=... version=... author=...`, one `param` line per parameter, `wait`.
//! - `set-param name=N value=V`: a bad name or value is an `error` line, the value kept.
//!   Parameters: `weights` (string: any weights or player the command line takes, e.g.
//!   `evolved-hour`, `classic`, a weight file), `depth` (int 1..30: the depth searched when no
//!   `level` was given), `tie-break` (enum `random first`: how ties among the best root moves
//!   are broken; `first` makes a fixed-depth move a function of the position), `seed` (int: the
//!   generator of random tie-breaks, drawn again at every `new-game`), `repetition-draws`
//!   (bool, default false: see below), `hash` (int 0..20: the table holds 2^hash entries).
//!   With [`HubEngineOptions::tunable`], also one `int` parameter per weight of the starting
//!   evaluation (a linear set, thesis60 or endgame66: [`tunable_params`]), named as `show`
//!   names it (`men`, `opp_kings`...), `min=-32768 max=32767`, after the others: setting one
//!   changes that weight of the weights in effect (an `error` line when they have no weight of
//!   that name, e.g. after `weights` was set to `classic`). The names are those of the starting
//!   weights for the whole session; `weights` only changes what they apply to.
//!   With [`HubEngineOptions::tunable_search`], also one `int` parameter per constant of the
//!   search's reductions and pruning ([`SearchParams::declared`]: `lmr-depth`, `lmr-moves`,
//!   `lmr-reduction`, `aspiration`, `futility`, `futility-depth`), declared at the tuned
//!   defaults ([`SearchParams::DEFAULT`]; [`HubEngineOptions::search_params`] when given),
//!   after the settings and before any weights; the values in effect apply at every level,
//!   fixed depths included. Without it, [`HubEngineOptions::search_params`] at every level
//!   when given, else [`SearchParams::NEUTRAL`] at `level depth` (exactly
//!   [`Searcher::choose`]'s search) and the tuned defaults at timed levels.
//! - `init`: `ready`. `new-game`: the searcher's table, killers and history are cleared and
//!   the tie-break generator moves on to the next game.
//! - `pos pos=P [moves="..."]`: the position ([`super::parse_hub_position`]) and the moves
//!   played since, each checked by our rules ([`super::parse_hub_move`]; a bad one is an
//!   `error` line and the position is left unset) and played through a [`Game`], which knows
//!   the repetitions.
//! - `level depth=D` (the same search as [`Searcher::choose`] with
//!   [`SearchConfig::with_depth`]`(D)`: the same move as an in-process player of depth D);
//!   `level move-time=S` (seconds per move); `level [moves=N] time=T [inc=I]` (the time left,
//!   the increment added before this move as the protocol says: the move gets `(T + I) / N + I`,
//!   N = 30 when not given, at most the time left less a fifth of it (at most 50 ms));
//!   `level infinite` (until `stop`, or a forced win is found, or depth 64). Timed levels
//!   deepen one ply at a time ([`Searcher::choose_timed`]).
//! - `go think` (and `go ponder`, `go analyze`, searched alike): `info depth= mean-depth=
//!   score= nodes= time= nps= pv=` (at timed levels also after each completed iteration, as it
//!   completes), then `done move=...`. The score is in men for the side to
//!   move (the evaluation's value of one man, given with it); a forced win in `p` plies is
//!   `100 - p/100` (and a loss its negation), as Scan writes it, which pydraughts reads as a win.
//!   `nps` is in millions of nodes per second, as Scan writes it; `mean-depth` is the depth.
//!   A move forced (the only legal one) is played at once with `depth=0` and no score.
//! - During a search: `stop` ends it with the best move so far (a fixed-depth search stopped
//!   before it finished plays the depth-1 choice); a `go` that waits behind it is stopped too,
//!   and answers at once (a `stop` stops every search asked for before it, none asked for
//!   after). `ping` is answered `pong` at once when nothing waits, `ponder-hit` is ignored;
//!   other commands wait, in order, until the search has answered.
//! - `ping`: `pong`. `quit` during a search with nothing waiting: the end, at once (the search
//!   is stopped, its move not written). The end of input, or `quit` behind lines that wait:
//!   the lines read are carried out, in order, then the end; a search with no end of its own
//!   (`level infinite`) is stopped then, as `stop` stops it, its move written.
//!
//! Unknown commands and arguments are ignored, as the protocol says; a line that cannot be
//! read, a missing or bad argument is an `error message="..."` line, and the engine goes on.
//!
//! With `repetition-draws=true`, the game's repetitions count at the root: when the search
//! values the position below a draw and a root move completes a draw by repetition under the
//! game's rules (the same position for the third time), that move is played, valued as a
//! draw. Off by default, so a fixed-depth move is exactly [`Searcher::choose`]'s.
//!
//! Files, bottom up: `answers`, `reader`, `commands`, `go`.
//!
//! `answers` writes the lines, `reader` is the reader thread, `commands` answers every command
//! but `go`, and `go` searches and answers; this file holds the options, the state shared by
//! the two threads and the main loop.

mod answers;
mod commands;
mod go;
mod reader;

use super::protocol::HubLine;
use crate::eval::{Param, ParamSet};
use crate::game::Game;
use crate::rng::{derive, ChaCha8Rng, Purpose};
use crate::search::{SearchConfig, SearchParams, Searcher};
use crate::yardstick::Evaluator;
use answers::say_error;
use reader::read_input;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Turns a `weights` value into an evaluator and what one man is worth in its values (None
/// when it does not value a man: scores are then written in its own units over 100), or a
/// one-line error. The command line passes one that reads any player it takes.
pub type LoadEvaluator<'a> = dyn Fn(&str) -> Result<(Evaluator, Option<f64>), String> + 'a;

/// What the engine calls itself and the starting values of its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct HubEngineOptions {
    /// `id name=`.
    pub name: String,
    /// `id version=`.
    pub version: String,
    /// `id author=`.
    pub author: String,
    /// The `weights` parameter: what [`LoadEvaluator`] reads.
    pub weights: String,
    /// The `depth` parameter: the depth searched when no `level` was given (1..=30).
    pub depth: u32,
    /// The `tie-break` parameter: `true` for `first`, `false` for `random`.
    pub first_ties: bool,
    /// The `seed` parameter: random tie-breaks.
    pub seed: u64,
    /// The `repetition-draws` parameter.
    pub repetition_draws: bool,
    /// The `hash` parameter: log2 of the table's entries (0..=20).
    pub hash: u8,
    /// One `int` parameter per weight of the starting evaluation, which must then be a linear
    /// weighted sum ([`tunable_params`]).
    pub tunable: bool,
    /// The range those parameters declare: `-tunable_range..=tunable_range` (1..=32767; the
    /// whole `i16` range for 32767). A tuner spreads its steps over the declared range, so a
    /// narrower one suits weights near material's, a man 100.
    pub tunable_range: i16,
    /// One `int` parameter per constant of the search's reductions and pruning
    /// ([`SearchParams::declared`]), starting at [`SearchParams::DEFAULT`] (or
    /// `search_params`) and applied at every level; without it, `search_params` at every
    /// level when given, else [`SearchParams::NEUTRAL`] at fixed depths and the defaults on a
    /// clock.
    pub tunable_search: bool,
    /// The search's reductions and pruning at every level, fixed depths included (with
    /// `tunable_search`, the values its parameters start at, in place of the defaults); None:
    /// as `tunable_search` says.
    pub search_params: Option<SearchParams>,
}

/// The least value of a tunable weight with range `r`: `-r`, or the whole `i16` range's
/// -32768 for 32767.
fn tunable_min(r: i16) -> i16 {
    match r {
        i16::MAX => i16::MIN,
        r => -r.max(1),
    }
}

/// An evaluation whose weights `--tunable` cannot declare as parameters: it is not a linear
/// weighted sum. What it is, e.g. `the hand yardstick`, `a phased132 evaluation`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0} is not a linear weighted sum (thesis60 or endgame66): its weights cannot be parameters"
)]
pub struct NotTunable(pub String);

/// The weights `--tunable` declares as parameters for `eval`, in weight order: those of a
/// linear weighted sum (thesis60 or endgame66), or [`NotTunable`] saying what `eval` is.
pub fn tunable_params(eval: &Evaluator) -> Result<&'static [Param], NotTunable> {
    let not = |what: String| Err(NotTunable(what));
    match eval {
        Evaluator::Weighted(w) => match w.set() {
            s @ (ParamSet::Thesis60 | ParamSet::Endgame66) => Ok(s.params()),
            s => not(format!("a {s} evaluation")),
        },
        Evaluator::Hand => not("the hand yardstick".into()),
        Evaluator::Classic => not("the classic yardstick".into()),
    }
}

impl Default for HubEngineOptions {
    /// `checkers-ga` by `checkers-ga authors`, `evolved-hour` weights, depth 10, random ties
    /// from seed 1, no repetition draws, the table of [`SearchConfig::default`] (2^16
    /// entries, as in-process players have by default).
    fn default() -> Self {
        HubEngineOptions {
            name: "checkers-ga".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            author: "checkers-ga authors".into(),
            weights: "evolved-hour".into(),
            depth: 10,
            first_ties: false,
            seed: 1,
            repetition_draws: false,
            hash: SearchConfig::default().tt_log2,
            tunable: false,
            tunable_range: i16::MAX,
            tunable_search: false,
            search_params: None,
        }
    }
}

/// The search limit of the next `go`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Level {
    Depth(u32),
    MoveTime(Duration),
    Time {
        moves: Option<u32>,
        time: Duration,
        inc: Duration,
    },
    Infinite,
}

/// What the reader thread passes on to the main loop.
enum Event {
    /// A line read (or why it cannot be read).
    Line(Result<HubLine, String>),
    /// The input ended (or could not be read), or `quit` came while a search ran and nothing
    /// waited.
    End,
}

/// What the reader thread and the main loop share, under one lock.
#[derive(Default)]
struct Link {
    /// The lines passed on that the main loop has not taken.
    waiting: usize,
    /// The `go`s read, and how many of the first of them a `stop` stopped.
    gos_read: u64,
    stop_upto: u64,
    /// The `go`s the main loop started.
    gos_started: u64,
    /// A search runs, and has no end of its own (`level infinite`).
    running: bool,
    endless: bool,
    /// `quit` came while a search ran and nothing waited: no move is written, the session
    /// ends.
    quit: bool,
    /// The input ended, or `quit` came behind lines that wait: the session ends after them.
    ended: bool,
}

impl Link {
    /// The main loop starts a search (`endless`: it has no end of its own): whether it is
    /// stopped before it starts (a `stop` or `quit` read after its `go`, or, for an endless
    /// one, the end of input).
    fn start(&mut self, endless: bool) -> bool {
        self.gos_started += 1;
        self.running = true;
        self.endless = endless;
        self.quit || self.gos_started <= self.stop_upto || (endless && self.ended)
    }
}

/// The output, the link and the abort flag of the search, shared by the two threads.
struct Shared<W> {
    out: Mutex<W>,
    link: Mutex<Link>,
    abort: Arc<AtomicBool>,
}

/// A lock that a panic elsewhere did not spoil (the data stays usable).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The engine's state between commands.
struct State<'a> {
    opts: HubEngineOptions,
    load: &'a LoadEvaluator<'a>,
    eval: Evaluator,
    /// What one man is worth in `eval`'s values ([`crate::man_value`]), for the scores.
    man: Option<f64>,
    /// `man` is to be measured again before the next search (a weight was set).
    man_stale: bool,
    /// The weights declared as parameters (none without `tunable`), fixed at the start.
    tunable: &'static [Param],
    /// `eval` changed since the searcher last had it (it is given the new one, and forgets its
    /// table, before the next search: no new table).
    eval_changed: bool,
    /// The searcher (None while a search has it, or before the first search after a change
    /// of table size).
    searcher: Option<Box<Searcher>>,
    rng: Option<ChaCha8Rng>,
    games: u64,
    game: Option<Game>,
    /// The `pos` and `moves` texts `game` was made from: a client sends the whole game before
    /// every search, and a `pos` that extends the last one plays only the new moves.
    game_text: (String, Vec<String>),
    level: Option<Level>,
    /// The search's reductions and pruning given to the searcher at every search (declared
    /// as parameters with `tunable_search`); None without them or `search_params`.
    search: Option<SearchParams>,
}

/// Serves the Hub protocol on `input` and `output` until `quit` or the end of input. The
/// evaluation is whatever `load` makes of the `weights` parameter (`options.weights` at the
/// start). Searches run on the calling thread; a reader thread passes the input on and, while
/// a search runs, answers `ping` and takes `stop` itself (so it writes to `output` too). Errors:
/// the starting weights cannot be loaded (their message), `tunable` weights that are not a
/// linear weighted sum ([`tunable_params`]), or the output cannot be written.
pub fn serve_hub<R, W>(
    input: R,
    output: W,
    options: HubEngineOptions,
    load: &LoadEvaluator<'_>,
) -> anyhow::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (eval, man) = load(&options.weights).map_err(anyhow::Error::msg)?;
    let tunable = if options.tunable {
        tunable_params(&eval)
            .map_err(|e| anyhow::anyhow!("tunable weights '{}': {e}", options.weights))?
    } else {
        &[]
    };
    let (tx, rx) = mpsc::channel::<Event>();
    let shared = Arc::new(Shared {
        out: Mutex::new(output),
        link: Mutex::new(Link::default()),
        abort: Arc::new(AtomicBool::new(false)),
    });
    let reader_shared = shared.clone();
    // The reader stays blocked on input after `quit`; it ends with the process (or when the
    // input closes).
    std::thread::spawn(move || read_input(input, &reader_shared, &tx));
    let search = options
        .search_params
        .or(options.tunable_search.then_some(SearchParams::DEFAULT));
    let mut st = State {
        rng: Some(derive(options.seed, Purpose::Game, u64::MAX, 0)),
        opts: options,
        load,
        eval,
        man,
        man_stale: false,
        tunable,
        eval_changed: false,
        searcher: None,
        games: 0,
        game: None,
        game_text: (String::new(), Vec::new()),
        level: None,
        search,
    };
    loop {
        // The channel never closes while the reader runs, and it sends End before it ends.
        let event = rx.recv().unwrap_or(Event::End);
        {
            let mut link = lock(&shared.link);
            link.waiting = link.waiting.saturating_sub(1);
            if let Event::Line(Ok(l)) = &event {
                if l.command == "go" {
                    // Under the lock: a `stop` read from now on stops this search.
                    let stopped = link.start(matches!(st.level, Some(Level::Infinite)));
                    shared.abort.store(stopped, Ordering::Relaxed);
                }
            }
        }
        let line = match event {
            Event::End => {
                shared.abort.store(true, Ordering::Relaxed);
                return Ok(());
            }
            Event::Line(Err(message)) => {
                say_error(&mut *lock(&shared.out), &message)?;
                continue;
            }
            Event::Line(Ok(line)) => line,
        };
        match line.command.as_str() {
            "quit" => return Ok(()),
            "go" => {
                let answer = st.go(&shared);
                let quit = {
                    let mut link = lock(&shared.link);
                    // A `stop` that came after the search ended stops nothing.
                    shared.abort.store(false, Ordering::Relaxed);
                    link.running = false;
                    link.quit
                };
                if quit {
                    return Ok(());
                }
                let mut out = lock(&shared.out);
                out.write_all(answer?.as_bytes())?;
                out.flush()?;
            }
            _ => st.command(&line, &mut *lock(&shared.out))?,
        }
    }
}

#[cfg(test)]
mod tests;
