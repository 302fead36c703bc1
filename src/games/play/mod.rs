//! A game played to its end, for every caller: the one game loop ([`play_game`]) and the
//! [`Player`]s it asks for moves.
//!
//! A player is anything that answers "your move in this game, with this clock, unless
//! stopped": our searcher ([`Searching`]), an outside Hub engine's process taken from the pool
//! of idle processes ([`Outside`]), or a person ([`Person`]: at the terminal, as `play` has one). It
//! reports an outside engine's failure as a value ([`ClientError::Fault`]), never a panic. The
//! loop keeps everything a game has besides its players once: the clocks and their margin,
//! adjudication, faults (a side whose engine fails loses, [`Game::forfeit`]), the stop flag
//! (the game is abandoned) and the search statistics.
//!
//! Tournament games, duels, SPSA's steps and the measurements (as game jobs), matches in and
//! out of process, `finals` and `play` all play their games through [`play_game`].
//!
//! Files, bottom up: `adjudicate`, `searching`, `outside`, `person`, `side`.
//!
//! `adjudicate` is draw and resign adjudication; `searching` our searcher as a player;
//! `outside` an outside engine as a player, and the pool of its processes; `person` a person
//! who types moves; `side` a side's player, whichever kind, owned ([`SidePlayer`]).
//!
//! # Example
//!
//! ```
//! use checkers_ga::{material, DrawRules, Game, Position, SearchConfig, Searcher};
//! use checkers_ga::play::{play_game, Searching, Table};
//! use checkers_ga::{derive, Purpose};
//!
//! let mut black = Searcher::new(material(), SearchConfig::with_depth(2));
//! let mut white = Searcher::new(material(), SearchConfig::with_depth(2));
//! let mut game = Game::new(Position::start(), DrawRules::default());
//! let mut rng = derive(1, Purpose::Game, 0, 0);
//! let played = play_game(
//!     &mut game,
//!     [&mut Searching::new(&mut black), &mut Searching::new(&mut white)],
//!     &Table::default(),
//!     &mut rng,
//!     &|| false,
//!     &mut |_| {},
//! );
//! assert!(played.is_some() && game.is_over());
//! ```

mod adjudicate;
mod outside;
mod person;
mod searching;
mod side;

pub use adjudicate::{
    Adjudication, AdjudicationError, Adjudicator, DrawAdjudication, ResignAdjudication,
};
pub(crate) use outside::keep_started;
pub use outside::{lease_engines, EngineLease, Outside, DEFAULT_MOVE_TIMEOUT};
pub use person::{Person, PERSON_HELP};
pub use searching::{centi_men, Searching, WIN_CENTI_MEN};
pub use side::SidePlayer;

use crate::board::{Color, Move};
use crate::clock::{Clock, SearchStats, TimeControl};
use crate::game::{EndReason, EngineFault, Game};
use crate::hub::ClientError;
use crate::rng::ChaCha8Rng;
use crate::search::Searcher;
use std::time::{Duration, Instant};

/// What a player says it did to find a move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thought {
    /// The depth its search reached (0 or None: the move was not searched).
    pub depth: Option<u32>,
    /// The nodes it searched.
    pub nodes: Option<u64>,
    /// Our searcher's value of the move, in its evaluation's units, for the side that moved.
    pub value: Option<i32>,
    /// The move's score in hundredths of a man for the side that moved, as adjudication counts
    /// (an outside engine's `info score=`; ours, [`centi_men`] of `value`, when the game is
    /// adjudicated).
    pub score: Option<i32>,
    /// How long the move took by the player's own measure (an outside engine's, from our `go`
    /// to its `done`); None: the loop's.
    pub elapsed: Option<Duration>,
}

/// A player's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    /// This move (legal in the position: a player checks it, or makes it by our rules).
    Move(Move, Thought),
    /// The side gives up ([`Game::resign`]).
    Resign,
}

/// What a player is told with the game when asked for a move.
pub struct Turn<'a> {
    /// The side to move.
    pub side: Color,
    /// Its clock, when it plays with one.
    pub clock: Option<&'a Clock>,
    /// The game's generator (our searcher's tie-breaks).
    pub rng: &'a mut ChaCha8Rng,
    /// Asked while the player thinks: yes abandons the game.
    pub stop: &'a dyn Fn() -> bool,
    /// The game is adjudicated: the answer's [`Thought::score`] counts.
    pub scored: bool,
}

/// One side of a game: asked for its moves by [`play_game`].
pub trait Player {
    /// Its move in `game` (not over), `turn.side` to move. [`ClientError::Fault`]: its engine
    /// failed (it loses the game); [`ClientError::Stopped`]: `turn.stop` said yes.
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError>;

    /// The game is over (or was abandoned: `abandoned`): an outside engine's process goes back
    /// to its pool, or is killed when the game was abandoned.
    fn game_over(&mut self, _abandoned: bool) {}
}

impl<P: Player + ?Sized> Player for &mut P {
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError> {
        (**self).go(game, turn)
    }

    fn game_over(&mut self, abandoned: bool) {
        (**self).game_over(abandoned)
    }
}

/// What a game has besides its players: Black's and White's clocks, if any (each side may
/// have its own, or none: a search to its depth), and adjudication.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Black's clock, then White's (only its own side of each runs).
    pub clocks: [Option<Clock>; 2],
    /// Draw and resign adjudication on the players' scores (off by default).
    pub adjudication: Adjudication,
}

impl Table {
    /// The table of a game between two sides, Black's then White's, each on its own clock
    /// (`clocks`, as each side describes it: `crate::side::Side::clock`; None: to its depth),
    /// a move counting up to `margin` past its side's time, with `adjudication`. The one
    /// table builder: a batch's games (`crate::jobs`) and `play`'s game are made by it.
    pub fn of(
        clocks: [Option<TimeControl>; 2],
        margin: Duration,
        adjudication: Adjudication,
    ) -> Table {
        Table {
            clocks: clocks.map(|tc| tc.map(|tc| Clock::new(tc).with_margin(margin))),
            adjudication,
        }
    }
}

/// What happens in a game as [`play_game`] plays it, for a caller that shows it.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// `side` is to move in the game as it stands (before it is asked).
    ToMove(Color, &'a Game),
    /// `side` played `mv`, thinking as `thought` says, in `used`; `clock` is its clock after
    /// the move.
    Moved {
        /// The side that moved.
        side: Color,
        /// Its move.
        mv: Move,
        /// What its player said of it.
        thought: Thought,
        /// The time the move took.
        used: Duration,
        /// The side's clock after the move, if it has one.
        clock: Option<&'a Clock>,
    },
    /// `side` resigned.
    Resigned(Color),
    /// `side` used `used` with `had` on its clock: it lost on time.
    OutOfTime {
        /// The side that lost.
        side: Color,
        /// The time its move took.
        used: Duration,
        /// The time its clock had (the margin not included).
        had: Duration,
    },
    /// `side`'s engine failed: it lost the game.
    Fault(Color, EngineFault, &'a str),
}

fn slot(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Plays `game` to its end: Black's player `players[0]`, White's `players[1]`, under `table`'s
/// clocks and adjudication, `rng` the game's generator, `stop` asked before every move (and by
/// a player while it thinks). `on` hears what happens. Returns what each side's searches did
/// (Black's, then White's: the moves searched, their depths, nodes and time), or None when
/// `stop` said yes first: the game is then abandoned, unfinished. Whatever happens, each player
/// hears that the game is over ([`Player::game_over`]).
pub fn play_game(
    game: &mut Game,
    mut players: [&mut dyn Player; 2],
    table: &Table,
    rng: &mut ChaCha8Rng,
    stop: &dyn Fn() -> bool,
    on: &mut dyn FnMut(Event<'_>),
) -> Option<[SearchStats; 2]> {
    let mut clocks = table.clocks;
    let mut stats = [SearchStats::default(); 2];
    let mut adjudicator =
        (!table.adjudication.is_off()).then(|| Adjudicator::new(&table.adjudication));
    let mut abandoned = false;
    while !game.is_over() {
        if stop() {
            abandoned = true;
            break;
        }
        let side = game.position().side_to_move();
        let k = slot(side);
        on(Event::ToMove(side, game));
        let clock = clocks[k].as_mut();
        let started = Instant::now();
        let turn = Turn {
            side,
            clock: clock.as_deref(),
            rng: &mut *rng,
            stop,
            scored: adjudicator.is_some(),
        };
        let (mv, thought) = match players[k].go(game, turn) {
            Ok(Answer::Move(mv, t)) => (mv, t),
            Ok(Answer::Resign) => {
                on(Event::Resigned(side));
                game.resign();
                break;
            }
            Err(ClientError::Stopped) => {
                abandoned = true;
                break;
            }
            Err(ClientError::Fault(f, detail)) => {
                on(Event::Fault(side, f, &detail));
                game.forfeit(f, &detail);
                break;
            }
        };
        let used = thought.elapsed.unwrap_or_else(|| started.elapsed());
        let st = &mut stats[k];
        st.nanos += used.as_nanos() as u64;
        st.moves += 1;
        let depth = thought.depth.unwrap_or(0);
        if depth > 0 {
            st.searches += 1;
            st.depth_sum += depth as u64;
            st.nodes += thought.nodes.unwrap_or(0);
        }
        // Within the margin past its time, a move stands and the clock is empty.
        if let Some(c) = clock {
            let had = c.remaining(side);
            if !c.spend(side, used) {
                on(Event::OutOfTime { side, used, had });
                let margin = match c.margin() {
                    m if m.is_zero() => String::new(),
                    m => format!(" and a margin of {}", ms(m)),
                };
                game.lose_on_time_noted(&format!(
                    "its move took {}, with {} on its clock{margin}",
                    ms(used),
                    ms(had)
                ));
                break;
            }
        }
        let full_move = (game.plies() / 2 + 1) as u32;
        game.play(mv);
        on(Event::Moved {
            side,
            mv,
            thought,
            used,
            clock: clocks[k].as_ref(),
        });
        if let Some(a) = adjudicator.as_mut() {
            if !game.is_over() {
                if let Some(verdict) = a.record(side, full_move, thought.score) {
                    game.adjudicate(verdict);
                }
            }
        }
    }
    for p in players.iter_mut() {
        p.game_over(abandoned);
    }
    for (st, (c, side)) in stats
        .iter_mut()
        .zip(clocks.iter().zip([Color::Black, Color::White]))
    {
        let flagged = matches!(game.result(), Some((_, EndReason::Time(c))) if c == side);
        if let Some(c) = c.filter(|_| !flagged) {
            st.left_nanos = c.remaining(side).as_nanos() as u64;
        }
    }
    (!abandoned).then_some(stats)
}

/// Plays `game` to its end between two of our searchers, each to its depth (`rng` breaks root
/// ties): [`play_game`] with no clock and no stop.
pub fn play_out(game: &mut Game, black: &mut Searcher, white: &mut Searcher, rng: &mut ChaCha8Rng) {
    play_game(
        game,
        [&mut Searching::new(black), &mut Searching::new(white)],
        &Table::default(),
        rng,
        &|| false,
        &mut |_| {},
    );
}

/// A time in milliseconds, to the tenth: a move over its time by less than a millisecond
/// still reads as over it.
fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}
