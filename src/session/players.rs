//! A player as a person names one, read in one place: [`PlayerRequest`] (our engine from
//! weights or a yardstick, or an outside engine with its options, checked at its handshake
//! before any game) is every player of a match, of a measurement's reference and of a game at
//! the terminal; [`SideRequest`] is only the grammar of the last (`human`, `DEPTH:EVAL`,
//! `hub:CMD`), read into a [`PlayerRequest`].

use crate::clock::TimeControl;
use crate::formats::{resolve_player, FormatError, PlayerArg, HUB_PREFIX, PLAYER_NAMES};
use crate::play::{lease_engines, EngineLease, SidePlayer};
use crate::search::SearchConfig;
use crate::side::{Contestant, OptionsError, OurEngine, Plays, Side};
use crate::summary::ReportError;
use crate::yardstick::Evaluator;

/// Why a player argument gives no player: one line. [`PlayerError::is_usage`] tells a bad
/// argument (the command line's fault) from a failure to read a file or start an engine.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// A file that cannot be read as weights, a session that cannot be opened, a `hub:`
    /// command that names no program.
    #[error(transparent)]
    Read(#[from] FormatError),
    /// Weights that cannot be chosen from what was read (a session with no generation yet).
    #[error(transparent)]
    Pick(#[from] ReportError),
    /// Options given to a player that is not an outside engine: the flag and option, and the
    /// argument.
    #[error("{option}: options are for an outside engine (hub:CMD), not '{arg}'")]
    NotOutside {
        /// The flag and the first option (`--option-a depth=3`).
        option: String,
        /// The player argument.
        arg: String,
    },
    /// An option that is not `NAME=VALUE`: the flag and the option as given.
    #[error("{0} must be NAME=VALUE")]
    Option(String),
    /// The outside engine cannot play with its options: it did not start or answer its
    /// handshake (`ARG: the engine ...`), an option's value its declaration rules out (`FLAG
    /// NAME=VALUE: ...`), or options it answered with `error` (`FLAG K=V ...: ARG refused:
    /// ...`).
    #[error("{}", .error.line(.flag, .arg))]
    Engine {
        /// The player argument.
        arg: String,
        /// The flag the options came by.
        flag: String,
        /// What went wrong.
        error: Box<OptionsError>,
    },
    /// Our engine named without the depth it is to search to.
    #[error("'{0}': our engine needs a depth")]
    NoDepth(String),
    /// An outside engine where only our own can play.
    #[error("'{0}': an outside engine cannot play here, only our own")]
    NotOurs(String),
    /// A side of a game that is none of `human`, `DEPTH:EVAL`, `hub:CMD`.
    #[error("player '{0}' must be `human` or `DEPTH:EVAL`, EVAL a file or {PLAYER_NAMES}")]
    Side(String),
    /// The depth of a side out of range: the depth as given, the side, and the limit.
    #[error("depth '{depth}' in player '{arg}' must be 1..{max}{with}")]
    Depth {
        /// The depth as given.
        depth: String,
        /// The side as given.
        arg: String,
        /// The deepest allowed.
        max: u32,
        /// ` with --tc` when the limit is a clock's.
        with: &'static str,
    },
}

impl PlayerError {
    /// Is it the command line's fault (exit status 2), not a file's or an engine's?
    pub fn is_usage(&self) -> bool {
        match self {
            PlayerError::Read(_) | PlayerError::Pick(_) => false,
            PlayerError::Engine { error, .. } => !matches!(**error, OptionsError::Start(_)),
            _ => true,
        }
    }
}

/// Our engine's evaluator from a player argument resolved as `player`, with the name reports
/// give it (the argument for a yardstick, the file's name for weights; a checkpoint or
/// session gives its answer); an outside engine is [`PlayerError::NotOurs`].
pub fn evaluator_of(arg: &str, player: PlayerArg) -> Result<(String, Evaluator), PlayerError> {
    match player {
        PlayerArg::Yardstick(e) => Ok((arg.to_string(), e)),
        PlayerArg::Weights(w) => Ok((
            w.name,
            crate::summary::select(&w.input, None)?.weights.into(),
        )),
        PlayerArg::Hub(_) => Err(PlayerError::NotOurs(arg.to_string())),
    }
}

/// Our engine's evaluator from player argument `arg` ([`resolve_player`], `random` drawn from
/// `seed` for side `slot`), with the name reports give it ([`evaluator_of`]).
pub fn evaluator_arg(arg: &str, seed: u64, slot: u64) -> Result<(String, Evaluator), PlayerError> {
    evaluator_of(arg, resolve_player(arg, seed, slot)?)
}

/// A side of a match, or the fixed reference `history --elo` measures against, as a person
/// names it: anything [`resolve_player`] reads (weights, a yardstick, a session's answer, an
/// engine's parameter file, `hub:CMD`), with the outside engine's options, at a depth.
#[derive(Clone, Debug, Default)]
pub struct PlayerRequest {
    /// The argument (`material`, `best.json`, `hub:./scan hub`, a session's name).
    pub arg: String,
    /// Which side it is (0 for A, 1 for B): `random` draws other weights for each.
    pub slot: u64,
    /// The seed `random` draws from.
    pub seed: u64,
    /// The depth it searches to without a clock (its maximum depth on one); an outside
    /// engine is asked for it, and plays at its own level without one. Our engine needs one
    /// ([`PlayerError::NoDepth`]).
    pub depth: Option<u32>,
    /// An outside engine's options, `NAME=VALUE`, sent as `set-param` after those its
    /// argument carries.
    pub options: Vec<String>,
    /// The flag the options came by, for messages (`--option-a`).
    pub options_flag: String,
    /// An outside engine's move timeout without a clock (None: the default,
    /// [`crate::hub::DEFAULT_MOVE_TIMEOUT`]).
    pub move_timeout: Option<std::time::Duration>,
    /// The name reports give it [default: an outside engine's `id name=`, else the
    /// argument's name].
    pub name: Option<String>,
}

/// A [`PlayerRequest`]'s side, checked, with the options the outside engine does not declare
/// (sent all the same: for a warning).
#[derive(Clone, Debug)]
pub struct CheckedPlayer {
    /// The side.
    pub contestant: Contestant,
    /// Options the engine did not declare as parameters.
    pub undeclared: Vec<String>,
    /// What to warn of, one line each: `warning: ARG declares no parameter 'x' (it is sent
    /// all the same)` for each of `undeclared`.
    pub warnings: Vec<String>,
}

impl PlayerRequest {
    /// The side: our engine (weights play as `history --elo` plays them:
    /// [`Contestant::of_genome`]), or the outside engine with its options, started once now to
    /// make its handshake within the handshake timeout ([`crate::handshake_timeout`]; an engine that cannot start, or that refuses or
    /// rules out an option, is an error before any game) and named by its `id name=` unless a
    /// name is given or the argument is a parameter file (whose name says the values).
    pub fn player(&self) -> Result<CheckedPlayer, PlayerError> {
        let (arg, flag) = (&self.arg, &self.options_flag);
        let (mut h, from_file) = match resolve_player(arg, self.seed, self.slot)? {
            PlayerArg::Hub(h) => (h, !arg.starts_with(HUB_PREFIX)),
            ours => {
                if let Some(o) = self.options.first() {
                    return Err(PlayerError::NotOutside {
                        option: format!("{flag} {o}"),
                        arg: arg.clone(),
                    });
                }
                let (n, eval) = evaluator_of(arg, ours)?;
                let name = self.name.clone().unwrap_or(n);
                let depth = self
                    .depth
                    .ok_or_else(|| PlayerError::NoDepth(arg.clone()))?;
                let contestant = match eval.weights() {
                    Some(w) => Contestant::of_genome(None, w, name, depth),
                    None => Contestant::Ours(OurEngine {
                        name,
                        eval,
                        config: SearchConfig::with_depth(depth),
                    }),
                };
                return Ok(CheckedPlayer {
                    contestant,
                    undeclared: Vec::new(),
                    warnings: Vec::new(),
                });
            }
        };
        let options = crate::hub::parse_options(&self.options)
            .map_err(|o| PlayerError::Option(format!("{flag} '{o}'")))?;
        h.program.options.extend(options);
        h.depth = self.depth;
        if let Some(t) = self.move_timeout {
            h.move_timeout = t;
        }
        let undeclared = h
            .check(crate::hub::handshake_timeout(), from_file)
            .map_err(|error| PlayerError::Engine {
                arg: arg.clone(),
                flag: flag.clone(),
                error: Box::new(error),
            })?;
        if let Some(n) = &self.name {
            h.name = n.clone();
        }
        let warnings = (undeclared.iter())
            .map(|u| {
                format!("warning: {arg} declares no parameter '{u}' (it is sent all the same)")
            })
            .collect();
        Ok(CheckedPlayer {
            contestant: Contestant::Outside(h),
            undeclared,
            warnings,
        })
    }
}

/// A side of a game at the terminal as a person names it: `human` (or `0`), `DEPTH:EVAL` (our
/// engine with EVAL, anything [`evaluator_of`] reads, searched to DEPTH), `hub:CMD` (an
/// outside engine at its own level) or `DEPTH:hub:CMD`; on a clock, DEPTH is a maximum.
#[derive(Clone, Debug)]
pub struct SideRequest {
    /// The side as given.
    pub arg: String,
    /// Which side it is (0 for Black, 1 for White): `random` draws other weights for each.
    pub slot: u64,
    /// The seed `random` draws from.
    pub seed: u64,
    /// The clock of the computer sides (None: to their depth).
    pub tc: Option<TimeControl>,
}

/// A side of a game, ready: how it is shown (`classic (depth 6)`, `scan (tc 0.5 s/move)`),
/// the side itself as a batch's games describe theirs (`crate::side::Side`: what plays and
/// the clock it plays on), and its player, made from it.
pub struct GameSide {
    /// How the side is shown.
    pub shown: String,
    /// What plays and its clock, described once.
    side: Side,
    /// Its player (`Side::alone`).
    pub player: SidePlayer,
    /// Keeps the outside engine started to read its name for the game.
    _engines: EngineLease,
}

impl GameSide {
    /// `side`, shown as `shown`, its player made now, `engines` held for the game.
    fn new(shown: String, side: Side, engines: EngineLease) -> GameSide {
        GameSide {
            shown,
            player: side.alone(),
            side,
            _engines: engines,
        }
    }

    /// The clock it plays on (None: to its depth, or a person, who is not timed): its part of
    /// the game's table ([`Table::of`](crate::play::Table::of)).
    pub fn clock(&self) -> Option<TimeControl> {
        self.side.clock
    }

    /// For our engine, what one man is worth in its evaluation (the unit of the values it
    /// reports); None for others, or an evaluation that values no man.
    pub fn man(&self) -> Option<f64> {
        match &self.side.plays {
            Plays::Ours { eval, .. } => crate::man::man_value(eval).map(f64::from),
            _ => None,
        }
    }

    /// Whether a person plays it.
    pub fn is_person(&self) -> bool {
        matches!(self.side.plays, Plays::Person)
    }

    /// Whether an outside engine plays it.
    pub fn is_outside(&self) -> bool {
        matches!(self.side.plays, Plays::Outside(_))
    }
}

/// Our engine's table for a side of a game: 2^20 entries (16 MiB), where a search has a
/// person's time.
const PLAY_TT_LOG2: u8 = 20;

impl SideRequest {
    /// The side, ready to play: read as the [`PlayerRequest`] it names (an outside engine is
    /// started once now, within the handshake timeout ([`crate::handshake_timeout`]), to read
    /// its name), our engine with a table for a person's time, an outside engine on a clock
    /// not asked for a depth.
    pub fn side(&self) -> Result<GameSide, PlayerError> {
        let (arg, tc) = (self.arg.as_str(), self.tc);
        if arg == "human" || arg == "0" {
            let person = Contestant::Person("human".into()).side(None, tc);
            return Ok(GameSide::new("human".to_string(), person, lease_engines()));
        }
        let (depth, named) = match arg.starts_with(HUB_PREFIX) {
            true => (None, arg),
            false => {
                let Some((d, named)) = arg.split_once(':') else {
                    return Err(PlayerError::Side(arg.to_string()));
                };
                let (max, with) = crate::matchplay::depth_limit(tc);
                let Some(depth) = d.parse().ok().filter(|d| (1..=max).contains(d)) else {
                    return Err(PlayerError::Depth {
                        depth: d.to_string(),
                        arg: arg.to_string(),
                        max,
                        with,
                    });
                };
                (Some(depth), named)
            }
        };
        // Held from before the engine's handshake to the end of the game: the process started
        // for it plays the game.
        let engines = lease_engines();
        let mut contestant = PlayerRequest {
            arg: named.to_string(),
            slot: self.slot,
            seed: self.seed,
            depth,
            ..PlayerRequest::default()
        }
        .player()?
        .contestant;
        match &mut contestant {
            Contestant::Ours(e) => e.config.tt_log2 = PLAY_TT_LOG2,
            Contestant::Outside(h) if tc.is_some() => h.depth = None,
            _ => {}
        }
        let name = contestant.name();
        let shown = match (tc, contestant.depth()) {
            (Some(tc), Some(d)) => format!("{name} (tc {tc}, max depth {d})"),
            (Some(tc), None) => format!("{name} (tc {tc})"),
            (None, Some(d)) => format!("{name} (depth {d})"),
            (None, None) => format!("{name} (its own level)"),
        };
        Ok(GameSide::new(shown, contestant.side(None, tc), engines))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::is_bad_input;

    fn good() -> String {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines");
        format!("hub:python3 {dir}/good.py")
    }

    fn request(arg: &str, options: &[&str]) -> PlayerRequest {
        PlayerRequest {
            arg: arg.to_string(),
            seed: 3,
            depth: Some(5),
            options: options.iter().map(|o| o.to_string()).collect(),
            options_flag: "--option-b".into(),
            ..PlayerRequest::default()
        }
    }

    #[test]
    fn a_match_player_is_ours_or_an_outside_engine_checked_at_its_handshake() {
        let p = request("material", &[]).player().unwrap();
        assert_eq!(
            (p.contestant.name(), p.contestant.depth()),
            ("material", Some(5))
        );
        let p = request("classic", &[]).player().unwrap();
        assert!(matches!(p.contestant, Contestant::Ours(ref e) if e.eval.weights().is_none()));
        let e = request("material", &["level=3"]).player().unwrap_err();
        assert_eq!(
            e.to_string(),
            "--option-b level=3: options are for an outside engine (hub:CMD), not 'material'"
        );
        assert!(e.is_usage());
        let e = request(&good(), &["level"]).player().unwrap_err();
        assert_eq!(e.to_string(), "--option-b 'level' must be NAME=VALUE");
        // The engine's own name, its depth, and an option it does not declare.
        let p = request(&good(), &["level=2", "hash=8"]).player().unwrap();
        assert_eq!(
            (p.contestant.name(), p.contestant.depth()),
            ("good", Some(5))
        );
        assert_eq!(p.undeclared, ["hash"]);
        assert!(p.warnings[0].ends_with(" declares no parameter 'hash' (it is sent all the same)"));
        let named = PlayerRequest {
            name: Some("mine".into()),
            ..request(&good(), &[])
        };
        assert_eq!(named.player().unwrap().contestant.name(), "mine");
        let slow = PlayerRequest {
            move_timeout: Some(std::time::Duration::from_secs(3)),
            ..request(&good(), &[])
        };
        match slow.player().unwrap().contestant {
            Contestant::Outside(h) => assert_eq!(h.move_timeout.as_secs(), 3),
            other => panic!("{other:?}"),
        }
        let e = request(&good(), &["level=12"]).player().unwrap_err();
        assert!(e.to_string().starts_with("--option-b level=12: "), "{e}");
        assert!(e.is_usage() && is_bad_input(&e));
        // A file that is not there is not the command line's fault.
        let e = request("no-such-weights.json", &[]).player().unwrap_err();
        assert!(!e.is_usage() && !is_bad_input(&e), "{e}");
    }

    #[test]
    fn a_side_of_a_game_is_human_depth_and_eval_or_an_outside_engine() {
        let side = |arg: &str, tc: Option<&str>| {
            SideRequest {
                arg: arg.into(),
                slot: 0,
                seed: 1,
                tc: tc.map(|t| t.parse().unwrap()),
            }
            .side()
        };
        let human = side("human", None).unwrap();
        assert_eq!(human.shown, "human");
        assert!(matches!(human.player, SidePlayer::Person(_)));
        let ours = side("6:material", None).unwrap();
        assert_eq!(ours.shown, "material (depth 6)");
        assert!(ours.man().is_some() && ours.clock().is_none());
        let timed = side("40:classic", Some("0.5")).unwrap();
        assert!(timed.shown.starts_with("classic (tc "), "{}", timed.shown);
        assert_eq!(timed.clock(), Some("0.5".parse().unwrap()));
        // A person is not timed, whatever the clock of the computer sides.
        assert_eq!(side("human", Some("0.5")).unwrap().clock(), None);
        let e = side("40:classic", None).err().unwrap();
        assert_eq!(
            e.to_string(),
            "depth '40' in player '40:classic' must be 1..30"
        );
        let e = side("material", None).err().unwrap();
        assert!(e
            .to_string()
            .starts_with("player 'material' must be `human` or `DEPTH:EVAL`"));
        assert!(is_bad_input(&e));
        let outside = side(&format!("3:{}", good()), None).unwrap();
        assert_eq!(outside.shown, "good (depth 3)");
        assert!(matches!(outside.player, SidePlayer::Outside(_)));
        assert_eq!(side(&good(), None).unwrap().shown, "good (its own level)");
        let e = side("hub:./no-such-engine", None).err().unwrap();
        assert!(!e.is_usage(), "{e}");
    }
}
