//! Who plays a side, described once, and the one builder of its player.
//!
//! A [`Contestant`] is a side as a person or a tuner names it: our engine ([`OurEngine`]: an
//! evaluation and search settings), an outside Hub engine ([`OutsideEngine`]: what starts it,
//! its options and values, its depth), a genome of the match's tuned engine
//! ([`Contestant::Genome`]: a tuner's candidate in its own games) or a person at the terminal.
//! A batch of game jobs
//! (`crate::jobs`) carries each of its sides as a [`Side`]: what plays ([`Plays`]: our
//! evaluation, an outside engine, a genome of the batch's tuned engine, or a person) and the
//! clock it plays on; `play`'s two sides are [`Side`]s too ([`Contestant::side`]). [`Side::player`]
//! makes the player of a game's side from it, for every game a batch plays and for `play`'s
//! sides ([`Side::alone`]), and its clock goes into the game's table
//! ([`Table::of`](crate::play::Table::of)).

use crate::clock::TimeControl;
use crate::eval::Weights;
use crate::genome::EngineSpec;
use crate::hub::ClientError;
pub use crate::hub::{HubProbe, OptionsError, OutsideEngine};
use crate::play::{Outside, Person, SidePlayer};
use crate::search::{SearchConfig, Searcher};
use crate::yardstick::Evaluator;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub use crate::play::DEFAULT_MOVE_TIMEOUT;

/// Our engine as a side: an evaluator (weights or a yardstick) and search settings, with a
/// name for reports.
#[derive(Clone, Debug)]
pub struct OurEngine {
    /// The name reports give it.
    pub name: String,
    /// How it evaluates positions: weights or a yardstick.
    pub eval: Evaluator,
    /// How deep it searches.
    pub config: SearchConfig,
}

impl OurEngine {
    /// A search value of this engine (from the side that moved) in hundredths of a man, the
    /// unit adjudication works in ([`crate::play::centi_men`]).
    pub fn centi_men(&self, value: i32) -> i32 {
        crate::play::centi_men(&self.eval, value)
    }
}

impl OutsideEngine {
    /// `spec`'s engine playing the values genome `w` stands for, named `name`: its fixed
    /// options, then a `set-param` for each tuned parameter; at its own level (no depth).
    pub fn with_genome(spec: &EngineSpec, w: &Weights, name: String) -> OutsideEngine {
        let mut e = OutsideEngine::declared(spec, name);
        e.program.options.extend(spec.set_params(w));
        e
    }

    /// `spec`'s engine with its declared values (only its fixed options are set), named
    /// `name`, at its own level, a move allowed [`DEFAULT_MOVE_TIMEOUT`]: as `match` plays
    /// `hub:CMD` (the session's own timeout was chosen for its depth, and this engine may
    /// play at another).
    pub fn declared(spec: &EngineSpec, name: String) -> OutsideEngine {
        OutsideEngine {
            name,
            depth: None,
            move_timeout: DEFAULT_MOVE_TIMEOUT,
            ..spec.engine.clone()
        }
    }

    /// Its player: asked for its depth without a clock (none: its own level), a move then
    /// allowed its move timeout.
    pub fn player(&self) -> Outside {
        Outside::new(self.program.clone(), self.depth, self.move_timeout)
    }

    /// Its handshake within `timeout` ([`OutsideEngine::handshake`]): its name, the options
    /// it does not know (for the report and a warning before a match), what it declared and
    /// what it refused. An engine that took every option is kept for the first game of this
    /// program while an [`EngineLease`](crate::play::EngineLease) is held (`play` holds one:
    /// its engine starts once); otherwise it is stopped.
    pub fn probe(&self, timeout: Duration) -> Result<HubProbe, ClientError> {
        self.handshake(timeout, crate::play::keep_started)
    }

    /// Its handshake and options checked ([`OutsideEngine::check_handshake`]), its process kept
    /// as [`OutsideEngine::probe`] keeps it: the options it does not declare, or why it cannot
    /// play with them. Unless `keep_name`, it takes the name the engine gives itself.
    pub fn check(
        &mut self,
        timeout: Duration,
        keep_name: bool,
    ) -> Result<Vec<String>, OptionsError> {
        self.check_handshake(timeout, keep_name, crate::play::keep_started)
    }
}

/// Who plays one side of a match or of `play`: our engine, searched in this process, an
/// outside Hub engine, a genome of the match's tuned engine, or a person at the terminal (each
/// game asks a [`Player`](crate::play::Player) of it for moves). Each plays as what it says it
/// is, in any match.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Contestant {
    /// Our engine: an evaluator and search settings (in the match of a tuned engine too).
    Ours(OurEngine),
    /// An outside engine speaking Hub, as it is described.
    Outside(OutsideEngine),
    /// A genome of the match's tuned outside engine
    /// ([`MatchRun::engine`](crate::matchplay::MatchRun::engine)): that engine playing the
    /// values `w` stands for (`Plays::Genome`: set before each game), at the engine's depth
    /// or on the match's clock. A tuner's candidate in its own games: SPSA's θ+ and θ-, the
    /// GA's challenger and holder, its best so far against the engine's declared values
    /// (`spec.defaults()`, the yardstick of an engine's session), the finals' past bests. It
    /// stands for nothing without the match's engine: a match of none refuses it
    /// ([`MatchRun::batch_of`](crate::matchplay::MatchRun::batch_of) panics), and it has no
    /// player of its own (`Side::alone`).
    Genome {
        /// The name reports give it.
        name: String,
        /// The genome: the values of the engine's tuned parameters ([`EngineSpec::values`]).
        w: Weights,
    },
    /// A person at the terminal ([`Person::terminal`]), by the name reports give them.
    Person(String),
}

impl Contestant {
    /// The name reports give it.
    pub fn name(&self) -> &str {
        match self {
            Contestant::Ours(e) => &e.name,
            Contestant::Outside(h) => &h.name,
            Contestant::Genome { name, .. } => name,
            Contestant::Person(n) => n,
        }
    }

    /// Renames it.
    pub fn set_name(&mut self, name: String) {
        match self {
            Contestant::Ours(e) => e.name = name,
            Contestant::Outside(h) => h.name = name,
            Contestant::Genome { name: n, .. } => *n = name,
            Contestant::Person(n) => *n = name,
        }
    }

    /// The depth it searches to without a clock (its maximum depth on one); None: an outside
    /// engine at its own level, a genome (at its match's engine's depth, which it does not
    /// know), or a person.
    pub fn depth(&self) -> Option<u32> {
        match self {
            Contestant::Ours(e) => Some(e.config.depth),
            Contestant::Outside(h) => h.depth,
            Contestant::Genome { .. } | Contestant::Person(_) => None,
        }
    }

    /// What plays genome `w` in a match at a fixed `depth`, named `name`: with `engine`, that
    /// outside engine with the values `w` stands for ([`OutsideEngine::with_genome`]); without,
    /// our engine with `w` as its weights and the default search settings. What `match` plays
    /// for a weight file, a checkpoint (its answer) or an engine's parameter file, and what
    /// `history --elo` plays for each generation's answer, so the two play the same games.
    ///
    /// Not a [`Contestant::Genome`]: those matches have no tuned engine of their own, and the
    /// engine plays at the depth asked and [`DEFAULT_MOVE_TIMEOUT`], its values sent with its
    /// options at the handshake, as an outside engine described in full; a genome plays at
    /// its session's depth and move timeout, its values set before each game. A tuner's own
    /// games: [`Contestant::genome_or_ours`].
    pub fn of_genome(engine: Option<&EngineSpec>, w: &Weights, name: String, depth: u32) -> Self {
        match engine {
            Some(spec) => Contestant::Outside(OutsideEngine {
                depth: Some(depth),
                ..OutsideEngine::with_genome(spec, w, name)
            }),
            None => Contestant::Ours(OurEngine {
                name,
                eval: (*w).into(),
                config: SearchConfig::with_depth(depth),
            }),
        }
    }

    /// Genome `w` as a side of a match whose tuned engine is `engine`
    /// ([`MatchRun::engine`](crate::matchplay::MatchRun::engine)), named `name`: with one, a
    /// genome of it ([`Contestant::Genome`]); without, our engine with `w` as its weights,
    /// searching with `config`. What a tuner's own matches play: the GA's duel and
    /// measurement, the finals.
    pub fn genome_or_ours(
        engine: Option<&EngineSpec>,
        w: &Weights,
        name: String,
        config: SearchConfig,
    ) -> Self {
        match engine {
            Some(_) => Contestant::Genome { name, w: *w },
            None => Contestant::Ours(OurEngine {
                name,
                eval: (*w).into(),
                config,
            }),
        }
    }

    /// The side as a batch of games carries it, on `clock` (None: to its depth), in a batch of
    /// tuned engine `engine` (a genome's: [`Side::genome`], on `clock`).
    ///
    /// # Panics
    ///
    /// When it is a genome and there is no `engine`: a genome stands for nothing without the
    /// engine it is a genome of.
    pub(crate) fn side(&self, engine: Option<&EngineSpec>, clock: Option<TimeControl>) -> Side {
        let plays = match self {
            Contestant::Ours(e) => Plays::Ours {
                eval: e.eval,
                config: e.config,
            },
            Contestant::Outside(h) => Plays::Outside(h.clone()),
            Contestant::Genome { name, w } => {
                let Some(spec) = engine else {
                    panic!("'{name}' is a genome of a tuned engine, in a match of none");
                };
                return Side {
                    clock,
                    ..Side::genome(spec, *w)
                };
            }
            // A person is not timed (its moves take no time on a clock).
            Contestant::Person(_) => {
                return Side {
                    plays: Plays::Person,
                    clock: None,
                }
            }
        };
        Side { plays, clock }
    }
}

/// One side of a batch's games, described once (not to be confused with `crate::Entrant`, a
/// player of a session's finals): what plays the sides that point at it
/// (`crate::jobs::Seat::side`) and the clock they play on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// What plays.
    pub plays: Plays,
    /// The clock it plays on (its depth, for ours, then the maximum); None: to its depth.
    /// Timed games are not reproducible.
    pub clock: Option<TimeControl>,
}

/// What plays a side of a batch's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)]
pub enum Plays {
    /// Our searcher with this evaluation and these search settings.
    Ours {
        /// How it evaluates positions: weights or a yardstick.
        eval: Evaluator,
        /// Its depth (on a clock, its maximum), transposition table and the rest.
        config: SearchConfig,
    },
    /// An outside engine as it is (what starts it, its options, depth and move timeout): a
    /// match's `hub:CMD` side.
    Outside(OutsideEngine),
    /// The batch's tuned engine (`crate::jobs::Batch::engine`) with the values this genome of
    /// its parameter set stands for, at the engine's depth or on the side's clock.
    Genome(Weights),
    /// A person at the terminal, not timed. A batch's games are played at once on every
    /// thread and sent to an MPI job's ranks, neither of which a person at one terminal can
    /// play: only a game of its own (`play`) has one. Never sent to a rank.
    #[serde(skip)]
    Person,
}

impl Side {
    /// Our engine with evaluation `eval`, searching with `config`, to its depth.
    pub fn ours(eval: impl Into<Evaluator>, config: SearchConfig) -> Side {
        Side {
            plays: Plays::Ours {
                eval: eval.into(),
                config,
            },
            clock: None,
        }
    }

    /// Genome `w` of tuned engine `engine`'s parameter set ([`Plays::Genome`]), on the
    /// engine's clock or at its depth.
    pub fn genome(engine: &EngineSpec, w: Weights) -> Side {
        Side {
            plays: Plays::Genome(w),
            clock: engine.tc,
        }
    }

    /// The genome this side stands for in a batch of tuned engine `spec`: its own, or for a
    /// side that is not a genome, the engine's declared values.
    pub fn genome_of(&self, spec: &EngineSpec) -> Weights {
        match self.plays {
            Plays::Genome(w) => w,
            _ => spec.defaults(),
        }
    }

    /// Its player for a game of its own, in no batch (`play`'s): what a batch's game makes of
    /// it ([`Side::player`]), our searcher made fresh with its settings. A genome has none (it
    /// panics): it plays only in its engine's batch.
    pub fn alone(&self) -> SidePlayer {
        let fresh = |config| Searcher::new(Weights::zero(), config);
        self.player(None, false, fresh)
    }

    /// The player of a game's side that points at this side: our searcher (from `searcher`
    /// for its settings, reset to the evaluation; root ties to the first best move when
    /// `first_ties`; on a clock a man's value the unit of its margins), the outside engine,
    /// or `engine` playing the genome's values (at its depth, each game setting them).
    pub fn player(
        &self,
        engine: Option<&EngineSpec>,
        first_ties: bool,
        searcher: impl FnOnce(SearchConfig) -> Searcher,
    ) -> SidePlayer {
        match &self.plays {
            Plays::Ours { eval, config } => {
                let mut s = searcher(*config);
                s.reset(*eval);
                s.set_first_ties(first_ties);
                if self.clock.is_some() {
                    s.set_man_value(crate::man::man_value(eval));
                }
                SidePlayer::Ours(Box::new(s))
            }
            Plays::Outside(engine) => SidePlayer::Outside(Box::new(engine.player())),
            Plays::Genome(w) => {
                // Refused by the batch's check: a genome names the batch's engine.
                let Some(spec) = engine else {
                    unreachable!("a genome's side in a batch of no engine");
                };
                // The engine at its depth, its genome's values set before the game.
                let at = OutsideEngine {
                    depth: Some(spec.depth()),
                    ..spec.engine.clone()
                };
                let player = at.player();
                SidePlayer::Outside(Box::new(player.tuned(spec.set_params(w))))
            }
            Plays::Person => SidePlayer::Person(Box::new(Person::terminal())),
        }
    }
}
