//! `checkers-ga play`: a game between humans and computers, the board drawn after every move.

use anyhow::Context;
use checkers_ga::play::{play_game, Adjudication, Event, Table};
use checkers_ga::SideRequest;
use checkers_ga::TimeControl;
use checkers_ga::{derive, fresh_seed, Purpose};
use checkers_ga::{parse_fen, Color, Position};
use checkers_ga::{DrawRules, EndReason, Game, PdnTags};
use std::io::Write;

#[derive(clap::Args)]
pub struct PlayArgs {
    /// Black's player (Black moves first): `human` or `DEPTH:EVAL`, EVAL any player `match`
    /// takes: a weight file (or anything `show` reads), `material`, `thesis`, `random`, `hand`
    /// or `classic` (e.g. `6:classic`), a tuned engine's parameter file or session (that engine
    /// with those values), or an outside Hub engine `hub:CMD` (at its own level, or
    /// `DEPTH:hub:CMD`; e.g. `hub:"./scan hub"`)
    #[arg(long, default_value = "human")]
    pub black: String,
    /// White's player, as Black's. The default, `6:random`, is random weights (from --seed)
    /// searched to depth 6: an easy opponent; `6:classic` is a strong one
    #[arg(long, default_value = "6:random")]
    pub white: String,
    /// Start from this PDN FEN instead of the initial position
    #[arg(long)]
    pub fen: Option<String>,
    /// Save the game as PDN to this file
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// Seed for random weights and tie-breaks (drawn and printed when absent)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Game length cap in plies (0 = none), as in new and match
    #[arg(long, default_value_t = DrawRules::default().max_plies)]
    pub max_plies: u32,
    /// A clock for the computer sides, as in match: SECONDS per move (e.g. 0.5) or GAME+INC
    /// (e.g. 60+1); DEPTH in DEPTH:EVAL is then the maximum depth (up to 64), and a computer
    /// side that runs out of time loses. Humans are not timed
    #[arg(long, value_name = "SECONDS|GAME+INC")]
    pub tc: Option<TimeControl>,
    /// Seconds an outside engine has for its handshake (`hub` ... `wait`, `init` ... `ready`)
    /// before it counts as never having answered [default: 10]
    #[arg(long, value_name = "S")]
    pub handshake_timeout: Option<f64>,
}

/// A search value for the player who moved, in words: a forced win or loss in plies, or the
/// evaluation in men (`eval +0.37 men for Black`: see [`checkers_ga::man_value`]), in the evaluation's own
/// units when a man is worth nothing in them.
fn describe_value(v: i32, side: Color, man: Option<f64>) -> String {
    let bound = checkers_ga::WIN_BOUND;
    let plies = |v: i32| checkers_ga::WIN - v.abs();
    if v > bound {
        format!("{} wins within {} plies", side.name(), plies(v))
    } else if v < -bound {
        format!("{} loses within {} plies", side.name(), plies(v))
    } else {
        match man {
            Some(m) => format!("eval {:+.2} men for {}", f64::from(v) / m, side.name()),
            None => format!("eval {v:+} for {} (units of the weights)", side.name()),
        }
    }
}

pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    super::common::set_handshake_timeout(a.handshake_timeout)?;
    // Ctrl-C ends the game at once, and no outside engine outlives it.
    super::common::exit_on_interrupt()?;
    if let Some(p) = &a.pdn {
        super::common::check_output_file(p, "--pdn")?;
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let side = |arg: &str, slot| {
        SideRequest {
            arg: arg.to_string(),
            slot,
            seed,
            tc: a.tc,
        }
        .side()
    };
    let mut black = side(&a.black, 0)?;
    let mut white = side(&a.white, 1)?;
    let start = match &a.fen {
        Some(f) => parse_fen(f).map_err(|e| super::Usage(format!("bad --fen '{f}': {e}")))?,
        None => Position::start(),
    };
    let rules = DrawRules {
        max_plies: a.max_plies,
        ..DrawRules::default()
    };
    let mut game = Game::new(start, rules);
    let mut rng = derive(seed, Purpose::Game, u64::MAX, 0);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Black: {}  White: {}  seed {seed}",
        black.shown, white.shown
    )?;
    if black.is_person() || white.is_person() {
        writeln!(out, "Type a move (e.g. 11-15), help, or quit to resign.")?;
    }
    drop(out);
    let names = [black.shown.clone(), white.shown.clone()];
    let mans = [black.man(), white.man()];
    let humans = [black.is_person(), white.is_person()];
    let outside = [black.is_outside(), white.is_outside()];
    // Each side on its own clock (a person on none), no margin, no adjudication.
    let clocks = [black.clock(), white.clock()];
    let table = Table::of(clocks, std::time::Duration::ZERO, Adjudication::default());
    let mut last = String::new();
    let mut on = |e: Event<'_>| {
        let mut out = std::io::stdout().lock();
        let _ = show(&mut out, e, &mut last, &mans, &humans, &outside);
    };
    play_game(
        &mut game,
        [&mut black.player, &mut white.player],
        &table,
        &mut rng,
        &super::common::abandoned,
        &mut on,
    );
    super::common::wait_if_abandoned();
    let mut out = std::io::stdout().lock();
    // The board as the game ended, unless a side lost on time or by its engine's fault.
    if !matches!(
        game.result(),
        Some((_, EndReason::Time(_) | EndReason::Fault(..)))
    ) {
        writeln!(out, "\n{}", game.position())?;
        if !last.is_empty() {
            writeln!(out, "Last move: {last}")?;
        }
    }
    if let Some((outcome, reason)) = game.result() {
        writeln!(out, "Result: {} ({reason})", outcome.pdn())?;
    }
    if let Some(path) = &a.pdn {
        let tags = PdnTags {
            event: "checkers-ga play".to_string(),
            black: names[0].clone(),
            white: names[1].clone(),
        };
        checkers_ga::write_atomic(path, game.to_pdn(&tags).as_bytes())
            .with_context(|| format!("cannot write PDN '{}'", path.display()))?;
        writeln!(out, "PDN saved to {}", path.display())?;
    }
    Ok(())
}

/// Prints what happened in the game: the board before each move, each computer's move with
/// what its search said, a loss on time, an engine's fault.
fn show(
    out: &mut impl Write,
    e: Event<'_>,
    last: &mut String,
    mans: &[Option<f64>; 2],
    humans: &[bool; 2],
    outside: &[bool; 2],
) -> std::io::Result<()> {
    let k = |c: Color| usize::from(c == Color::White);
    match e {
        Event::ToMove(_, game) => {
            writeln!(out, "\n{}", game.position())?;
            if !last.is_empty() {
                writeln!(out, "Last move: {last}")?;
            }
        }
        Event::Moved {
            side,
            mv,
            thought,
            used,
            clock,
        } => {
            *last = mv.to_string();
            if humans[k(side)] {
                return Ok(());
            }
            if outside[k(side)] {
                let mut said = Vec::new();
                if let Some(d) = thought.depth {
                    said.push(format!("depth {d}"));
                }
                if let Some(n) = thought.nodes {
                    said.push(format!("{n} nodes"));
                }
                said.push(format!("{:.3} s", used.as_secs_f64()));
                if let Some(s) = thought.score {
                    said.push(format!(
                        "score {:+.2} men for {}",
                        f64::from(s) / 100.0,
                        side.name()
                    ));
                }
                return writeln!(out, "{} plays {mv} ({})", side.name(), said.join(", "));
            }
            // With a clock: the depth reached before the nodes, the time after them.
            let (depth, time) = match clock {
                None => (String::new(), String::new()),
                Some(c) => {
                    let left = match c.control(side) {
                        TimeControl::PerMove(_) => String::new(),
                        TimeControl::Game { .. } => {
                            format!(", {:.2} s left", c.remaining(side).as_secs_f64())
                        }
                    };
                    (
                        format!("depth {}, ", thought.depth.unwrap_or(0)),
                        format!(", {:.3} s{left}", used.as_secs_f64()),
                    )
                }
            };
            let value = thought
                .value
                .map(|v| format!(", {}", describe_value(v, side, mans[k(side)])))
                .unwrap_or_default();
            writeln!(
                out,
                "{} plays {mv} ({depth}{} nodes{time}{value})",
                side.name(),
                thought.nodes.unwrap_or(0)
            )?;
        }
        Event::OutOfTime { side, used, had } => writeln!(
            out,
            "{} ran out of time ({:.3} s used, {:.3} s available)",
            side.name(),
            used.as_secs_f64(),
            had.as_secs_f64()
        )?,
        Event::Fault(side, f, detail) => writeln!(out, "{}'s engine {f}: {detail}", side.name())?,
        Event::Resigned(_) => {}
    }
    Ok(())
}
