//! `checkers-ga play`: a game between humans and computers, the board drawn after every move.

use super::common::{evaluator_arg, search_config, EVALUATOR_NAMES};
use anyhow::Context;
use checkers_ga::formats::HUB_PREFIX;
use checkers_ga::matchplay::DEFAULT_MOVE_TIMEOUT;
use checkers_ga::{derive, fresh_seed, Purpose};
use checkers_ga::{parse_fen, parse_move, Color, Evaluator, Position};
use checkers_ga::{ClientError, HubLevel, HubProcess};
use checkers_ga::{Clock, TimeControl};
use checkers_ga::{DrawRules, Game, PdnTags};
use checkers_ga::{Searcher, MAX_TIMED_DEPTH};
use std::io::{BufRead, Write};

#[derive(clap::Args)]
pub struct PlayArgs {
    /// Black's player (Black moves first): `human` or `DEPTH:EVAL`, EVAL a weight file (or
    /// anything `show` reads), `material`, `thesis`, `random`, `hand` or `classic` (e.g.
    /// `6:classic`), or an outside Hub engine `hub:CMD` (at its own level, or `DEPTH:hub:CMD`;
    /// e.g. `hub:"./scan hub"`)
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

/// What a human can type at the prompt.
const HELP: &str = "Commands:
  a move    by square numbers (11-15, 15x24, 15x24x31; a capture may name only its first and
            last squares when no other capture joins them) or coordinates (Black's first
            move 11-15 is f6-e5)
  help      this list
  quit      resign the game (also `resign`; the end of input resigns too)";

enum Side {
    Human,
    /// A name for reports, the searcher, and what one man is worth in its evaluation (the unit
    /// of the values printed).
    Computer(String, Box<Searcher>, Option<f64>),
    /// An outside Hub engine: a name for reports, its process, the depth it is asked for
    /// (None: its own level).
    Hub(String, Box<HubProcess>, Option<u32>),
}

/// Starts the outside engine `cmd` (`hub:CMD` without its prefix) for a game, asked to search
/// to `depth` (None: its own level) unless there is a clock.
fn hub_side(cmd: &str, depth: Option<u32>, tc: Option<TimeControl>) -> anyhow::Result<Side> {
    let player = checkers_ga::formats::hub_player(cmd)?;
    let timeout = checkers_ga::handshake_timeout();
    let mut p = HubProcess::start(&player.command, None, &[], timeout, &|| false)
        .map_err(|e| anyhow::anyhow!("cannot start the engine hub:{cmd}: it {e}"))?;
    p.new_game()
        .map_err(|e| anyhow::anyhow!("the engine hub:{cmd} {e}"))?;
    let name = p.name().map(str::to_string).unwrap_or(player.name);
    let shown = match (tc, depth) {
        (Some(tc), _) => format!("{name} (tc {tc})"),
        (None, Some(d)) => format!("{name} (depth {d})"),
        (None, None) => format!("{name} (its own level)"),
    };
    Ok(Side::Hub(
        shown,
        Box::new(p),
        depth.filter(|_| tc.is_none()),
    ))
}

/// What one man is worth in `eval`'s values: [`checkers_ga::man_value`], the one definition of
/// a man (None when the evaluation does not value a man).
pub fn man_value(eval: &Evaluator) -> Option<f64> {
    checkers_ga::man_value(eval).map(f64::from)
}

/// A search value for the player who moved, in words: a forced win or loss in plies, or the
/// evaluation in men (`eval +0.37 men for Black`: see [`man_value`]), in the evaluation's own
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

fn parse_side(player: &str, seed: u64, slot: u64, tc: Option<TimeControl>) -> anyhow::Result<Side> {
    if player == "human" || player == "0" {
        return Ok(Side::Human);
    }
    if let Some(cmd) = player.strip_prefix(HUB_PREFIX) {
        return hub_side(cmd, None, tc);
    }
    let Some((d, w)) = player.split_once(':') else {
        usage!(
            "player '{player}' must be `human` or `DEPTH:EVAL`, EVAL a file or {EVALUATOR_NAMES}"
        );
    };
    let (max, with) = match tc {
        Some(_) => (MAX_TIMED_DEPTH, " with --tc"),
        None => (30, ""),
    };
    let Some(depth) = d.parse().ok().filter(|d| (1..=max).contains(d)) else {
        usage!("depth '{d}' in player '{player}' must be 1..{max}{with}");
    };
    if let Some(cmd) = w.strip_prefix(HUB_PREFIX) {
        return hub_side(cmd, Some(depth), tc);
    }
    let (name, eval) = evaluator_arg(w, seed, slot)?;
    let man = man_value(&eval);
    let s = Searcher::new(eval, search_config(depth, false, 20));
    let shown = match tc {
        None => format!("{name} (depth {depth})"),
        Some(tc) => format!("{name} (tc {tc}, max depth {depth})"),
    };
    Ok(Side::Computer(shown, Box::new(s), man))
}

pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    super::common::set_handshake_timeout(a.handshake_timeout)?;
    if let Some(p) = &a.pdn {
        super::common::check_output_file(p, "--pdn")?;
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut black = parse_side(&a.black, seed, 0, a.tc)?;
    let mut white = parse_side(&a.white, seed, 1, a.tc)?;
    let start = match &a.fen {
        Some(f) => parse_fen(f).map_err(|e| super::Usage(format!("bad --fen '{f}': {e}")))?,
        None => Position::start(),
    };
    let rules = DrawRules {
        max_plies: a.max_plies,
        ..DrawRules::default()
    };
    let mut game = Game::new(start, rules);
    let mut clock = a.tc.map(Clock::new);
    let mut rng = derive(seed, Purpose::Game, u64::MAX, 0);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = |s: &Side| match s {
        Side::Human => "human".to_string(),
        Side::Computer(n, _, _) | Side::Hub(n, _, _) => n.clone(),
    };
    writeln!(
        out,
        "Black: {}  White: {}  seed {seed}",
        name(&black),
        name(&white)
    )?;
    if matches!(black, Side::Human) || matches!(white, Side::Human) {
        writeln!(out, "Type a move (e.g. 11-15), help, or quit to resign.")?;
    }
    let mut last = String::new();
    loop {
        writeln!(out, "\n{}", game.position())?;
        if !last.is_empty() {
            writeln!(out, "Last move: {last}")?;
        }
        if game.is_over() {
            break;
        }
        let side = game.position().side_to_move();
        let player = match side {
            Color::Black => &mut black,
            Color::White => &mut white,
        };
        let mv = match player {
            Side::Computer(_, s, man) => {
                // With a clock: the depth reached before the nodes, the time after them.
                let (r, depth, time) = match &mut clock {
                    None => (
                        s.choose(game.position(), &mut rng),
                        String::new(),
                        String::new(),
                    ),
                    Some(c) => {
                        let start = std::time::Instant::now();
                        let r = s.choose_timed(game.position(), &mut rng, c.budget(side));
                        let used = start.elapsed();
                        let had = c.remaining(side);
                        if !c.spend(side, used) {
                            writeln!(
                                out,
                                "{} ran out of time ({:.3} s used, {:.3} s available)",
                                side.name(),
                                used.as_secs_f64(),
                                had.as_secs_f64()
                            )?;
                            game.lose_on_time();
                            break;
                        }
                        let left = match c.time_control() {
                            TimeControl::PerMove(_) => String::new(),
                            TimeControl::Game { .. } => {
                                format!(", {:.2} s left", c.remaining(side).as_secs_f64())
                            }
                        };
                        let time = format!(", {:.3} s{left}", used.as_secs_f64());
                        (r, format!("depth {}, ", r.depth), time)
                    }
                };
                match r.best {
                    Some(m) => {
                        let value = r
                            .value
                            .map(|v| format!(", {}", describe_value(v, side, *man)))
                            .unwrap_or_default();
                        writeln!(
                            out,
                            "{} plays {m} ({depth}{} nodes{time}{value})",
                            side.name(),
                            r.nodes
                        )?;
                        m
                    }
                    None => break,
                }
            }
            Side::Hub(_, p, depth) => {
                let (level, timeout) = match &clock {
                    None => (depth.map(HubLevel::Depth), DEFAULT_MOVE_TIMEOUT),
                    Some(c) => {
                        let left = c.remaining(side);
                        let level = match c.control(side) {
                            TimeControl::PerMove(_) => HubLevel::MoveTime(left),
                            TimeControl::Game { increment, .. } => HubLevel::Time {
                                time: left,
                                increment,
                            },
                        };
                        (Some(level), left + c.margin())
                    }
                };
                match p.go(game.start(), game.moves(), level, timeout, &|| false) {
                    Ok(r) => {
                        if let Some(c) = &mut clock {
                            if !c.spend(side, r.elapsed) {
                                writeln!(out, "{} ran out of time", side.name())?;
                                game.lose_on_time();
                                break;
                            }
                        }
                        let mut said = Vec::new();
                        if let Some(d) = r.depth {
                            said.push(format!("depth {d}"));
                        }
                        if let Some(n) = r.nodes {
                            said.push(format!("{n} nodes"));
                        }
                        said.push(format!("{:.3} s", r.elapsed.as_secs_f64()));
                        if let Some(s) = r.score {
                            said.push(format!("score {s:+.2} men for {}", side.name()));
                        }
                        writeln!(out, "{} plays {} ({})", side.name(), r.mv, said.join(", "))?;
                        r.mv
                    }
                    Err(ClientError::Fault(f, detail)) => {
                        writeln!(out, "{}'s engine {f}: {detail}", side.name())?;
                        game.forfeit(f, &detail);
                        break;
                    }
                    Err(ClientError::Stopped) => break,
                }
            }
            Side::Human => {
                let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
                writeln!(out, "Legal moves: {}", legal.join(" "))?;
                loop {
                    write!(out, "{} to move> ", side.name())?;
                    out.flush()?;
                    let mut raw = Vec::new();
                    // Bytes, decoded leniently: stray non-UTF-8 input is an illegal move, not
                    // the end of the game.
                    let n = input.read_until(b'\n', &mut raw)?;
                    let line = String::from_utf8_lossy(&raw);
                    if n == 0 {
                        writeln!(out)?;
                        writeln!(out, "End of input: {} resigns.", side.name())?;
                        game.resign();
                        break;
                    }
                    let t = line.trim();
                    if t.is_empty() {
                        continue;
                    }
                    if t == "help" || t == "?" {
                        writeln!(out, "{HELP}")?;
                        continue;
                    }
                    if t == "quit" || t == "resign" {
                        writeln!(out, "{} resigns.", side.name())?;
                        game.resign();
                        break;
                    }
                    match parse_move(game.position(), t) {
                        Ok(m) => {
                            game.play(m);
                            last = m.to_string();
                            break;
                        }
                        Err(e) => writeln!(out, "Illegal move: {e}. Try again.")?,
                    }
                }
                continue;
            }
        };
        game.play(mv);
        last = mv.to_string();
    }
    if let Some((outcome, reason)) = game.result() {
        writeln!(out, "Result: {} ({reason})", outcome.pdn())?;
    }
    if let Some(path) = &a.pdn {
        let tags = PdnTags {
            event: "checkers-ga play".to_string(),
            black: name(&black),
            white: name(&white),
        };
        checkers_ga::write_atomic(path, game.to_pdn(&tags).as_bytes())
            .with_context(|| format!("cannot write PDN '{}'", path.display()))?;
        writeln!(out, "PDN saved to {}", path.display())?;
    }
    Ok(())
}
