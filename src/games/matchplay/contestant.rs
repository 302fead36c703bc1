//! Who plays a side of a match, and a match between any two.
//!
//! A [`Contestant`] is our own engine ([`OurEngine`], searched in this process) or an outside Hub
//! engine ([`OutsideEngine`], a process spoken to through `crate::hub`). [`MatchRun::run_players`]
//! plays any two as [`MatchRun::run`] plays two of ours: one batch of game jobs (an outside
//! side travels in it as what starts its process, `crate::jobs::OutsideSide`), on the current
//! rayon pool or the ranks of an MPI job, each game played by the one game loop
//! (`crate::play`) between the sides' players. An outside engine's process is taken from the
//! pool of idle processes (or started, when its engine is first to move) and given back; a
//! process that failed is killed, the next game starts another. An engine that fails (an
//! illegal move by our rules, an exit, a hang past its time and the margin, garbage, no
//! handshake) loses that game (the reason and what it said go into the PDN), and the match
//! goes on. Raising the interrupt flag abandons the games in progress and kills their
//! processes; when the match returns, no engine process it started is left.

use super::run::{MatchObserver, MatchResult, MatchRun, OurEngine};
use crate::eval::Weights;
use crate::genome::EngineSpec;
use crate::hub::{ClientError, Program};
use crate::jobs::OutsideSide;
use crate::play::Outside;
use std::time::Duration;

pub use crate::play::DEFAULT_MOVE_TIMEOUT;

/// Who plays one side of a match: our engine, searched in this process, or an outside Hub
/// engine (each game asks a [`Player`](crate::play::Player) of it for moves).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Contestant {
    /// Our engine: an evaluator and search settings.
    Ours(OurEngine),
    /// An outside engine speaking Hub.
    Outside(OutsideEngine),
}

impl Contestant {
    /// The name reports give it.
    pub fn name(&self) -> &str {
        match self {
            Contestant::Ours(e) => &e.name,
            Contestant::Outside(h) => &h.name,
        }
    }

    /// The depth it searches to without a clock (its maximum depth on one); None: an outside
    /// engine at its own level.
    pub fn depth(&self) -> Option<u32> {
        match self {
            Contestant::Ours(e) => Some(e.config.depth),
            Contestant::Outside(h) => h.depth,
        }
    }

    /// What plays genome `w` in a match at a fixed `depth`, named `name`: with `engine`, that
    /// outside engine with the values `w` stands for ([`OutsideEngine::with_genome`]); without,
    /// our engine with `w` as its weights and the default search settings. What `match` plays
    /// for a weight file, a checkpoint (its answer) or an engine's parameter file, and what
    /// `history --elo` plays for each generation's answer, so the two play the same games.
    pub fn of_genome(engine: Option<&EngineSpec>, w: &Weights, name: String, depth: u32) -> Self {
        match engine {
            Some(spec) => Contestant::Outside(OutsideEngine {
                depth: Some(depth),
                ..OutsideEngine::with_genome(spec, w, name)
            }),
            None => Contestant::Ours(OurEngine {
                name,
                eval: (*w).into(),
                config: crate::search::SearchConfig::with_depth(depth),
            }),
        }
    }
}

/// Two contestants of one name (one engine under two settings) named apart by what differs:
/// an outside engine's differing options (`NAME (k=v, ...)`, or `NAME (declared values)` for a
/// side that sets none of them), else the depth (`NAME depth 6`). Sides whose names differ, or
/// whose settings are the same, keep their names.
pub fn tell_apart(a: &mut Contestant, b: &mut Contestant) {
    if a.name() != b.name() {
        return;
    }
    let depth = |c: &Contestant| match c {
        Contestant::Ours(e) => Some(e.config.depth),
        Contestant::Outside(h) => h.depth,
    };
    let options = |c: &Contestant| match c {
        Contestant::Ours(_) => Vec::new(),
        Contestant::Outside(h) => h.program.options.clone(),
    };
    let (oa, ob) = (options(a), options(b));
    let differing = |mine: &[(String, String)], other: &[(String, String)]| -> Vec<String> {
        mine.iter()
            .filter(|o| !other.contains(o))
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    };
    let (da, db) = (differing(&oa, &ob), differing(&ob, &oa));
    let suffix: [Option<String>; 2] = if !da.is_empty() || !db.is_empty() {
        [da, db].map(|d| {
            Some(match d.len() {
                0 => "(declared values)".to_string(),
                1..=3 => format!("({})", d.join(", ")),
                n => format!("({}, {} more)", d[..2].join(", "), n - 2),
            })
        })
    } else if depth(a) != depth(b) {
        [depth(a), depth(b)].map(|d| d.map(|d| format!("depth {d}")))
    } else {
        [None, None]
    };
    for (c, s) in [a, b].into_iter().zip(suffix) {
        if let Some(s) = s {
            let name = format!("{} {s}", c.name());
            match c {
                Contestant::Ours(e) => e.name = name,
                Contestant::Outside(h) => h.name = name,
            }
        }
    }
}

/// An outside engine speaking the Hub protocol: how to start it and what to tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutsideEngine {
    /// The name reports give it.
    pub name: String,
    /// What starts its processes: its command, its folder, its parameters (`set-param name=
    /// value=`, in order).
    pub program: Program,
    /// The depth it is asked to search (`level depth=`) in a game without a clock; None: its
    /// own level (no `level` is sent).
    pub depth: Option<u32>,
}

/// What an outside engine says of itself at its handshake ([`OutsideEngine::probe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubProbe {
    /// Its `id name=`.
    pub name: Option<String>,
    /// Options of the [`OutsideEngine`] it did not declare as parameters.
    pub unknown_options: Vec<String>,
    /// The parameters it declared.
    pub params: Vec<crate::hub::HubParam>,
    /// What it answered with `error` to the options (`set-param`) before `ready`.
    pub refused: Vec<String>,
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
    /// `name`, at its own level: as `match` plays `hub:CMD`.
    pub fn declared(spec: &EngineSpec, name: String) -> OutsideEngine {
        OutsideEngine {
            name,
            program: spec.program(),
            depth: None,
        }
    }

    /// Its player: asked for its depth without a clock (none: its own level), a move then
    /// allowed `move_timeout`.
    pub fn player(&self, move_timeout: Duration) -> Outside {
        Outside::new(self.program.clone(), self.depth, move_timeout)
    }

    /// Starts the engine, makes its handshake within `timeout` and stops it again: its name,
    /// the options it does not know (for the report and a warning before a match), what it
    /// declared and what it refused (to check the options before a match).
    pub fn probe(&self, timeout: Duration) -> Result<HubProbe, ClientError> {
        let p = self.program.start(timeout, &|| false)?;
        Ok(HubProbe {
            name: p.name().map(str::to_string),
            unknown_options: p.unknown_options().to_vec(),
            params: p.params().to_vec(),
            refused: p.refused().to_vec(),
        })
    }
}

impl MatchRun<'_> {
    /// Plays A against B, whoever they are, as [`MatchRun::run`] plays two of our engines: a
    /// batch of game jobs on the current rayon pool or the ranks of an MPI job, each game
    /// played by the one game loop between the sides' players (an outside engine's process
    /// taken from the pool of idle processes, or started, and given back). The observer hears
    /// of the games as [`MatchRun::run`] says.
    pub fn run_players<O: MatchObserver + ?Sized>(
        &self,
        a: &Contestant,
        b: &Contestant,
        observer: &O,
    ) -> Result<MatchResult, O::Error> {
        let move_timeout = self.move_timeout.unwrap_or(DEFAULT_MOVE_TIMEOUT);
        // An outside engine's evaluator and search settings stand in its place and are unused.
        let ours = |c: &Contestant| match c {
            Contestant::Ours(e) => e.clone(),
            Contestant::Outside(h) => OurEngine {
                name: h.name.clone(),
                eval: crate::eval::material().into(),
                config: crate::search::SearchConfig::with_depth(h.depth.unwrap_or(1)),
            },
        };
        let outside = |c: &Contestant| match c {
            Contestant::Ours(_) => None,
            Contestant::Outside(h) => Some(OutsideSide {
                program: h.program.clone(),
                depth: h.depth,
                move_timeout,
            }),
        };
        let mut batch = self.batch(&ours(a), &ours(b));
        if matches!(a, Contestant::Outside(_)) || matches!(b, Contestant::Outside(_)) {
            // A tuned engine's match ([`MatchRun::engine`]) has no side of another engine.
            debug_assert!(
                self.engine.is_none(),
                "an outside contestant in an engine's match"
            );
            batch.outside = vec![outside(a), outside(b)];
        }
        self.run_batch(&batch, observer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, EngineFault};
    use crate::matchplay::{match_pdn, MatchEnd, MatchSettings, Unobserved};
    use crate::search::SearchConfig;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    fn ours(depth: u32) -> Contestant {
        Contestant::Ours(OurEngine {
            name: "material".into(),
            eval: crate::eval::material().into(),
            config: SearchConfig::with_depth(depth),
        })
    }

    fn fake(name: &str, args: &[&str]) -> Contestant {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines");
        let mut command = vec!["python3".to_string(), format!("{dir}/{name}.py")];
        command.extend(args.iter().map(|s| s.to_string()));
        Contestant::Outside(OutsideEngine {
            name: name.into(),
            program: Program::new(command),
            depth: Some(2),
        })
    }

    fn run(games: usize) -> MatchRun<'static> {
        let mut r = MatchRun::of(&MatchSettings::ballot(games, 7, Default::default()));
        r.first_ties = true;
        r.move_timeout = Some(Duration::from_secs(20));
        r
    }

    fn on(threads: usize, f: impl FnOnce() -> MatchResult + Send) -> MatchResult {
        crate::jobs::thread_pool(threads).unwrap().install(f)
    }

    #[test]
    fn an_outside_engine_plays_whole_games_the_same_at_any_thread_count() {
        let (a, b) = (ours(2), fake("good", &[]));
        let r = run(6);
        let one = on(1, || r.run_players(&a, &b, &Unobserved).unwrap());
        let two = on(2, || r.run_players(&a, &b, &Unobserved).unwrap());
        assert_eq!(one.end, MatchEnd::Complete);
        assert_eq!(one.games.len(), 6);
        assert!(one.games.iter().all(|g| g.game.is_over()));
        assert_eq!(one.losses[1].faults, 0);
        let strip = |s: String| {
            s.lines()
                .filter(|l| !l.starts_with("[Date"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            strip(match_pdn([a.name(), "good"], &one.games)),
            strip(match_pdn([a.name(), "good"], &two.games))
        );
    }

    #[test]
    fn a_faulty_engine_loses_each_game_with_the_reason() {
        let (a, b) = (ours(2), fake("illegal", &["11-16"]));
        let r = on(2, || run(4).run_players(&a, &b, &Unobserved).unwrap());
        assert_eq!(r.games.len(), 4);
        assert_eq!((r.wdl.wins, r.losses[1].faults), (4, 4));
        for g in &r.games {
            let b_colour = if g.a_is_black {
                crate::board::Color::White
            } else {
                crate::board::Color::Black
            };
            assert_eq!(
                g.game.result().unwrap().1,
                EndReason::Fault(b_colour, EngineFault::IllegalMove)
            );
            assert!(g.game.note().unwrap().starts_with("11-16"));
        }
    }

    #[test]
    fn an_engine_that_cannot_start_loses_its_games_and_the_match_goes_on() {
        let a = ours(1);
        let b = Contestant::Outside(OutsideEngine {
            name: "nothing".into(),
            program: Program::new(vec!["/nonexistent/engine".into()]),
            depth: None,
        });
        let r = on(2, || run(4).run_players(&b, &a, &Unobserved).unwrap());
        assert_eq!((r.wdl.losses, r.losses[0].faults), (4, 4));
        assert!(r.games[0].game.note().unwrap().contains("cannot start"));
    }

    #[test]
    fn an_interrupt_abandons_the_games_and_stops_the_engines() {
        let flag = AtomicBool::new(false);
        let (a, b) = (ours(1), fake("hang", &[]));
        let mut r = run(4);
        r.move_timeout = Some(Duration::from_secs(600));
        r.interrupt = Some(&flag);
        let t = Instant::now();
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(1500));
                flag.store(true, Ordering::SeqCst);
            });
            on(2, || r.run_players(&a, &b, &Unobserved).unwrap())
        });
        assert_eq!(result.end, MatchEnd::Interrupted);
        assert!(t.elapsed() < Duration::from_secs(30));
    }
}
