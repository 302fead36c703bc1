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
//!   before it finished plays the depth-1 choice), `ping` is answered `pong`, `ponder-hit` is
//!   ignored, all at once; other commands wait, in order, until the search has answered (a
//!   `stop` stops the search under way, not one that waits; `quit` or the end of input after
//!   waiting commands comes after them).
//! - `ping`: `pong`. `quit` or the end of input: the end (a search under way is stopped, its
//!   move not written).
//!
//! Unknown commands and arguments are ignored, as the protocol says; a line that cannot be
//! read, a missing or bad argument is an `error message="..."` line, and the engine goes on.
//!
//! With `repetition-draws=true`, the game's repetitions count at the root: when the search
//! values the position below a draw and a root move completes a draw by repetition under the
//! game's rules (the same position for the third time), that move is played, valued as a
//! draw. Off by default, so a fixed-depth move is exactly [`Searcher::choose`]'s.

use super::protocol::{hub_move, parse_hub_move, parse_hub_position, HubLine};
use crate::board::{Move, Position};
use crate::eval::{Param, ParamSet};
use crate::game::{DrawRules, EndReason, Game, GameOutcome};
use crate::rng::{derive, ChaCha8Rng, Purpose};
use crate::search::{
    SearchConfig, SearchResult, Searcher, MAX_DEPTH, MAX_TIMED_DEPTH, WIN, WIN_BOUND,
};
use crate::yardstick::Evaluator;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

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
}

/// The least value of a tunable weight with range `r`: `-r`, or the whole `i16` range's
/// -32768 for 32767.
fn tunable_min(r: i16) -> i16 {
    match r {
        i16::MAX => i16::MIN,
        r => -r.max(1),
    }
}

/// The weights `--tunable` declares as parameters for `eval`, in weight order: those of a
/// linear weighted sum (thesis60 or endgame66), or a one-line error saying what `eval` is.
pub fn tunable_params(eval: &Evaluator) -> Result<&'static [Param], String> {
    let not = |what: String| {
        Err(format!(
            "{what} is not a linear weighted sum (thesis60 or endgame66): its weights cannot \
             be parameters"
        ))
    };
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
    /// The input ended (or could not be read), or `quit` or the end of input came during a
    /// search with nothing waiting.
    End,
}

/// What the reader thread and the main loop share, under one lock: the `go`s the reader passed
/// on that are not answered yet (while there is one, a search runs or is about to, and the
/// reader takes `stop`, `ping` and `ponder-hit` itself), the lines passed on that the main loop
/// has not taken, and whether `quit` (or the end of input) came during a search with nothing
/// waiting (its move is then not written).
#[derive(Default)]
struct Link {
    gos: usize,
    waiting: usize,
    quit: bool,
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
    man: Option<f64>,
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
    let mut st = State {
        rng: Some(derive(options.seed, Purpose::Game, u64::MAX, 0)),
        opts: options,
        load,
        eval,
        man,
        tunable,
        eval_changed: false,
        searcher: None,
        games: 0,
        game: None,
        game_text: (String::new(), Vec::new()),
        level: None,
    };
    loop {
        // The channel never closes while the reader runs, and it sends End before it ends.
        let event = rx.recv().unwrap_or(Event::End);
        {
            let mut link = lock(&shared.link);
            link.waiting = link.waiting.saturating_sub(1);
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
                    link.gos = link.gos.saturating_sub(1);
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

/// The reader thread: passes lines on to the main loop, in order, but while a search runs (a
/// `go` passed on is not answered yet) answers `ping`, takes `stop` (the search under way ends)
/// and `ponder-hit` (ignored) at once, and, when nothing waits, ends the session at `quit` or
/// the end of input.
fn read_input<R: BufRead, W: Write>(mut input: R, shared: &Shared<W>, tx: &mpsc::Sender<Event>) {
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

fn say<W: Write>(out: &mut W, line: &HubLine) -> anyhow::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

fn say_error<W: Write>(out: &mut W, message: &str) -> anyhow::Result<()> {
    say(out, &HubLine::new("error").arg("message", message))
}

/// A number of seconds (a real number, not negative).
fn seconds(line: &HubLine, key: &str) -> Result<Option<Duration>, String> {
    let Some(v) = line.get(key) else {
        return Ok(None);
    };
    match v.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        _ => Err(format!("{key}={v} must be a number of seconds, 0 or more")),
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "1" | "on" | "yes" => Some(true),
        "false" | "0" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// A fifth of the time available, at most 50 ms: what a timed search keeps back.
fn margin(d: Duration) -> Duration {
    (d / 5).min(Duration::from_millis(50))
}

impl State<'_> {
    /// Every command but `go` and `quit`, outside a search.
    fn command<W: Write>(&mut self, line: &HubLine, out: &mut W) -> anyhow::Result<()> {
        let result = match line.command.as_str() {
            "hub" => {
                for l in self.identify() {
                    say(out, &l)?;
                }
                Ok(())
            }
            "set-param" => self.set_param(line),
            "init" => {
                say(out, &HubLine::new("ready"))?;
                Ok(())
            }
            "new-game" => {
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.games += 1;
                self.rng = Some(derive(self.opts.seed, Purpose::Game, u64::MAX, self.games));
                Ok(())
            }
            "pos" => self.set_position(line),
            "level" => self.set_level(line),
            "ping" => {
                say(out, &HubLine::new("pong"))?;
                Ok(())
            }
            // Outside a search there is nothing to stop.
            "stop" | "ponder-hit" => Ok(()),
            _ => Ok(()),
        };
        if let Err(message) = result {
            say_error(out, &message)?;
        }
        Ok(())
    }

    fn identify(&self) -> Vec<HubLine> {
        let o = &self.opts;
        let id = HubLine::new("id")
            .arg("name", &o.name)
            .arg("version", &o.version)
            .arg("author", &o.author);
        let tie = if o.first_ties { "first" } else { "random" };
        let mut lines = vec![
            id,
            HubLine::new("param")
                .arg("name", "weights")
                .arg("value", &o.weights)
                .arg("type", "string"),
            HubLine::new("param")
                .arg("name", "depth")
                .arg("value", o.depth)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_DEPTH),
            HubLine::new("param")
                .arg("name", "tie-break")
                .arg("value", tie)
                .arg("type", "enum")
                .arg("values", "random first"),
            HubLine::new("param")
                .arg("name", "seed")
                .arg("value", o.seed)
                .arg("type", "int")
                .arg("min", 0)
                .arg("max", u64::MAX),
            HubLine::new("param")
                .arg("name", "repetition-draws")
                .arg("value", o.repetition_draws)
                .arg("type", "bool"),
            HubLine::new("param")
                .arg("name", "hash")
                .arg("value", o.hash)
                .arg("type", "int")
                .arg("min", 0)
                .arg("max", crate::search::MAX_TT_LOG2),
        ];
        let weights = self.eval.weights();
        for p in self.tunable {
            // The weight of that name in the weights in effect (0 when they have none).
            let value = weights
                .and_then(|w| Some(w[w.set().index_of(p.name)?]))
                .unwrap_or(0);
            lines.push(
                HubLine::new("param")
                    .arg("name", p.name)
                    .arg("value", value)
                    .arg("type", "int")
                    .arg("min", tunable_min(self.opts.tunable_range))
                    .arg("max", self.opts.tunable_range.max(1)),
            );
        }
        lines.push(HubLine::new("wait"));
        lines
    }

    /// `set-param` of a weight declared by `tunable`: a whole number in the `i16` range, set in
    /// the weights in effect (which must have a weight of that name).
    fn set_weight(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v: i16 = value.parse().map_err(|_| {
            format!(
                "{name}={value} must be a whole number {}..{}",
                i16::MIN,
                i16::MAX
            )
        })?;
        let what = &self.opts.weights;
        let Evaluator::Weighted(w) = &mut self.eval else {
            return Err(format!(
                "{name}: the evaluation in effect ({what}) has no weights"
            ));
        };
        let Some(i) = w.set().index_of(name) else {
            let set = w.set();
            return Err(format!(
                "{name}: the weights in effect ({what}, {set}) have no weight of that name"
            ));
        };
        if w[i] != v {
            w[i] = v;
            self.man = self.eval.man_value();
            self.eval_changed = true;
        }
        Ok(())
    }

    fn set_param(&mut self, line: &HubLine) -> Result<(), String> {
        let Some(name) = line.get("name") else {
            return Err("set-param needs name=...".into());
        };
        let Some(value) = line.get("value") else {
            return Err(format!("set-param name={name} needs value=..."));
        };
        let int = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| format!("{name}={value} must be a whole number 0..{max}"))
        };
        match name {
            "weights" => {
                let (eval, man) =
                    (self.load)(value).map_err(|e| format!("weights={value}: {e}"))?;
                self.eval = eval;
                self.man = man;
                self.opts.weights = value.to_string();
                self.eval_changed = true;
            }
            "depth" => {
                let d = int(MAX_DEPTH as u64)?;
                if d == 0 {
                    return Err(format!("depth={value} must be 1..{MAX_DEPTH}"));
                }
                self.opts.depth = d as u32;
            }
            "tie-break" => {
                self.opts.first_ties = match value {
                    "first" => true,
                    "random" => false,
                    _ => return Err(format!("tie-break={value} must be random or first")),
                };
            }
            "seed" => {
                self.opts.seed = int(u64::MAX)?;
                self.rng = Some(derive(self.opts.seed, Purpose::Game, u64::MAX, self.games));
            }
            "repetition-draws" => {
                self.opts.repetition_draws = parse_bool(value)
                    .ok_or_else(|| format!("repetition-draws={value} must be true or false"))?;
            }
            "hash" => {
                self.opts.hash = int(crate::search::MAX_TT_LOG2 as u64)? as u8;
                self.searcher = None;
            }
            _ if self.tunable.iter().any(|p| p.name == name) => self.set_weight(name, value)?,
            // Unknown parameters are ignored, as the protocol says of unknown arguments.
            _ => {}
        }
        Ok(())
    }

    fn set_position(&mut self, line: &HubLine) -> Result<(), String> {
        let game = self.game.take();
        let Some(text) = line.get("pos") else {
            return Err("pos needs pos=...".into());
        };
        let moves: Vec<&str> = line.get("moves").unwrap_or("").split_whitespace().collect();
        let (last_text, last_moves) = &self.game_text;
        // The last game, when this one only adds moves to it.
        let extends = text == last_text
            && last_moves.len() <= moves.len()
            && last_moves.iter().zip(&moves).all(|(a, b)| a == b);
        let (mut game, done) = match game {
            Some(g) if extends => (g, last_moves.len()),
            _ => {
                let start = parse_hub_position(text).map_err(|e| e.0)?;
                (Game::new(start, Self::rules()), 0)
            }
        };
        for (i, text) in moves.iter().enumerate().skip(done) {
            let pos = *game.position();
            let m = parse_hub_move(&pos, text)
                .map_err(|e| format!("moves: move {} ({text}): {e}", i + 1))?;
            if game.is_over() {
                game = Game::new(pos, Self::rules());
            }
            game.play(m);
        }
        self.game = Some(game);
        self.game_text = (
            text.to_string(),
            moves.iter().map(|m| m.to_string()).collect(),
        );
        Ok(())
    }

    /// The rules a `pos` game is played under: only repetitions end it here; a game the
    /// rules ended goes on from where it is (the client decides when its game is over).
    fn rules() -> DrawRules {
        DrawRules {
            quiet_plies: 0,
            repetitions: DrawRules::default().repetitions,
            max_plies: 0,
        }
    }

    fn set_level(&mut self, line: &HubLine) -> Result<(), String> {
        let level = if line.has("infinite") {
            Level::Infinite
        } else if let Some(d) = line.get("depth") {
            match d.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => Level::Depth(d),
                _ => return Err(format!("depth={d} must be 1..{MAX_DEPTH}")),
            }
        } else if let Some(t) = seconds(line, "move-time")? {
            Level::MoveTime(t)
        } else if let Some(time) = seconds(line, "time")? {
            let moves = match line.get("moves") {
                None => None,
                Some(m) => match m.parse::<u32>() {
                    Ok(n) if n > 0 => Some(n),
                    _ => return Err(format!("moves={m} must be a whole number 1 or more")),
                },
            };
            let inc = seconds(line, "inc")?.unwrap_or_default();
            Level::Time { moves, time, inc }
        } else {
            // Unknown forms (`level nodes=...`) are ignored, the level kept.
            return Ok(());
        };
        self.level = Some(level);
        Ok(())
    }

    /// `go`: searches (on this thread; the `info` lines of timed levels are written as the
    /// iterations complete) and gives the final `info` and `done` lines, to be written in one
    /// write (or the error and `done` when there is no move to search).
    fn go<W: Write>(&mut self, shared: &Shared<W>) -> anyhow::Result<String> {
        let Some(game) = self.game.as_ref() else {
            return Ok(error_text("go without a position: send pos pos=... first"));
        };
        let pos = *game.position();
        if crate::movegen::legal_moves(&pos).is_empty() {
            return Ok(error_text("the position has no legal move") + "done\n");
        }
        let level = self.level.unwrap_or(Level::Depth(self.opts.depth));
        let depth = match level {
            Level::Depth(d) => d,
            _ => MAX_TIMED_DEPTH,
        };
        // One searcher for the game; made again only when the depth or table change, given the
        // evaluation (and cleared) when it changed.
        let changed = std::mem::take(&mut self.eval_changed);
        let mut searcher = match self.searcher.take() {
            Some(mut s) if s.config().depth == depth => {
                if changed {
                    s.reset(self.eval);
                }
                s
            }
            _ => {
                let config = SearchConfig {
                    depth,
                    tt_log2: self.opts.hash,
                    ..SearchConfig::default()
                };
                Box::new(Searcher::new(self.eval, config))
            }
        };
        searcher.set_first_ties(self.opts.first_ties);
        searcher.set_abort(Some(shared.abort.clone()));
        let rng = self
            .rng
            .as_mut()
            .ok_or_else(|| anyhow::anyhow!("the tie-break generator is missing"))?;
        let man = self.man;
        let start = Instant::now();
        let mut failed = None;
        let mut report = |r: &SearchResult| {
            if let Some(m) = r.best {
                let line = info_line(r, m, &pos, start.elapsed(), man);
                if let Err(e) = say(&mut *lock(&shared.out), &line) {
                    failed = Some(e);
                }
            }
        };
        let result = match level {
            Level::Depth(_) => match searcher.choose_abortable(&pos, rng) {
                Some(r) => r,
                None => {
                    // Stopped before the search finished: the depth-1 choice.
                    let mut quick =
                        Searcher::new(*searcher.evaluator(), SearchConfig::with_depth(1));
                    quick.set_first_ties(searcher.first_ties());
                    let mut r = quick.choose(&pos, rng);
                    r.depth = 1;
                    r
                }
            },
            Level::MoveTime(t) => {
                searcher.choose_timed_reporting(&pos, rng, t - margin(t), &mut report)
            }
            Level::Time { moves, time, inc } => {
                let left = time + inc;
                let share = left / moves.unwrap_or(30) + inc;
                let budget = share.min(left - margin(left));
                searcher.choose_timed_reporting(&pos, rng, budget, &mut report)
            }
            Level::Infinite => searcher.choose_timed_reporting(
                &pos,
                rng,
                Duration::from_secs(1_000_000_000),
                &mut report,
            ),
        };
        let elapsed = start.elapsed();
        let draw = if self.opts.repetition_draws {
            repetition_draw(game, &result)
        } else {
            None
        };
        self.searcher = Some(searcher);
        if let Some(e) = failed {
            return Err(e);
        }
        let (best, value) = match draw {
            Some(m) => (Some(m), Some(0)),
            None => (result.best, result.value),
        };
        let Some(best) = best else {
            return Ok(error_text("the position has no legal move") + "done\n");
        };
        let shown = SearchResult { value, ..result };
        let mut info = info_line(&shown, best, &pos, elapsed, self.man);
        // The final line's PV: the searcher's table, a few moves deep.
        if draw.is_none() {
            if let Some(s) = self.searcher.as_ref() {
                let mut p = pos;
                let line: Vec<String> = s
                    .principal_variation(&pos, best, 12)
                    .iter()
                    .map(|m| {
                        let t = hub_move(&p, m);
                        p = p.play(m);
                        t
                    })
                    .collect();
                info.args.retain(|(k, _)| k != "pv");
                info = info.arg("pv", line.join(" "));
            }
        }
        let done = HubLine::new("done").arg("move", hub_move(&pos, &best));
        Ok(format!("{info}\n{done}\n"))
    }
}

/// An `error` line, as text.
fn error_text(message: &str) -> String {
    format!("{}\n", HubLine::new("error").arg("message", message))
}

/// A search value as Hub's score in men: a forced win in `p` plies is `100 - p / 100`, an
/// evaluation its value over what one man is worth (`man`; 100 units when None).
fn score(v: i32, man: Option<f64>) -> String {
    if v.abs() > WIN_BOUND {
        let plies = f64::from(WIN - v.abs());
        let s = 100.0 - plies / 100.0;
        return format!("{:.2}", if v > 0 { s } else { -s });
    }
    let men = f64::from(v) / man.unwrap_or(100.0);
    // Evaluations stay below the scores of wins.
    format!("{:.2}", men.clamp(-89.0, 89.0))
}

/// The `info` line of a search: depth (and mean depth, the same), score (when the move was
/// searched), nodes, time, speed in millions of nodes per second, and the move as the PV.
fn info_line(
    r: &SearchResult,
    best: Move,
    pos: &Position,
    elapsed: Duration,
    man: Option<f64>,
) -> HubLine {
    let secs = elapsed.as_secs_f64();
    let mut info = HubLine::new("info")
        .arg("depth", r.depth)
        .arg("mean-depth", format!("{:.1}", r.depth as f64));
    if let Some(v) = r.value {
        info = info.arg("score", score(v, man));
    }
    let mnps = if secs > 0.0 {
        r.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    info.arg("nodes", r.nodes)
        .arg("time", format!("{secs:.3}"))
        .arg("nps", format!("{mnps:.2}"))
        .arg("pv", hub_move(pos, &best))
}

/// The repetition rule of `repetition-draws`: when `result` values the position below a draw,
/// a root move that completes a draw by repetition in `game`.
fn repetition_draw(game: &Game, result: &SearchResult) -> Option<Move> {
    if result.value.is_none_or(|v| v >= 0) {
        return None;
    }
    game.legal_moves().into_iter().find(|m| {
        let mut g = game.clone();
        g.play(*m);
        g.result() == Some((GameOutcome::Draw, EndReason::Repetition))
    })
}

#[cfg(test)]
mod tests;
