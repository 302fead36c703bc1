//! Who plays a side of a match, and a match between any two.
//!
//! A [`Contestant`] (`crate::side`) is our own engine, searched in this process, or an outside
//! Hub engine, a process spoken to through `crate::hub`. [`MatchRun::run_players`] plays any
//! two as [`MatchRun::run`] plays two of ours: one batch of game jobs (each side one of its
//! sides, an outside engine as what starts its process), on the current
//! rayon pool or the ranks of an MPI job, each game played by the one game loop
//! (`crate::play`) between the sides' players. An outside engine's process is taken from the
//! pool of idle processes (or started, when its engine is first to move) and given back; a
//! process that failed is killed, the next game starts another. An engine that fails (an
//! illegal move by our rules, an exit, a hang past its time and the margin, garbage, no
//! handshake) loses that game (the reason and what it said go into the PDN), and the match
//! goes on. Raising the interrupt flag abandons the games in progress and kills their
//! processes; when the match returns, no engine process it started is left.

use super::run::{MatchObserver, MatchResult, MatchRun};
use crate::side::Contestant;

/// Two contestants of one name (one engine under two settings) named apart by what differs:
/// an outside engine's differing options (`NAME (k=v, ...)`, or `NAME (declared values)` for a
/// side that sets none of them), else the depth (`NAME depth 6`). Sides whose names differ, or
/// whose settings are the same, keep their names.
pub fn tell_apart(a: &mut Contestant, b: &mut Contestant) {
    if a.name() != b.name() {
        return;
    }
    let options = |c: &Contestant| match c {
        Contestant::Ours(_) | Contestant::Genome { .. } | Contestant::Person(_) => Vec::new(),
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
    } else if a.depth() != b.depth() {
        [a.depth(), b.depth()].map(|d| d.map(|d| format!("depth {d}")))
    } else {
        [None, None]
    };
    for (c, s) in [a, b].into_iter().zip(suffix) {
        if let Some(s) = s {
            c.set_name(format!("{} {s}", c.name()));
        }
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
        self.run_batch(&self.batch_of(a, b), observer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, EngineFault};
    use crate::hub::Program;
    use crate::matchplay::{match_pdn, MatchEnd, MatchSettings, Unobserved};
    use crate::search::SearchConfig;
    use crate::side::{OurEngine, OutsideEngine, DEFAULT_MOVE_TIMEOUT};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
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
            move_timeout: Duration::from_secs(20),
        })
    }

    fn run(games: usize) -> MatchRun<'static> {
        let mut r = MatchRun::of(&MatchSettings::ballot(games, 7, Default::default()));
        r.first_ties = true;
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
            move_timeout: DEFAULT_MOVE_TIMEOUT,
        });
        let r = on(2, || run(4).run_players(&b, &a, &Unobserved).unwrap());
        assert_eq!((r.wdl.losses, r.losses[0].faults), (4, 4));
        assert!(r.games[0].game.note().unwrap().contains("cannot start"));
    }

    #[test]
    fn an_interrupt_abandons_the_games_and_stops_the_engines() {
        let flag = AtomicBool::new(false);
        let (a, mut b) = (ours(1), fake("hang", &[]));
        if let Contestant::Outside(h) = &mut b {
            h.move_timeout = Duration::from_secs(600);
        }
        let mut r = run(4);
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
