//! `checkers-ga eval WEIGHTS [FEN]`: a position's static values with the given weights, as the
//! Rust and C exports' functions give them: both players' values, the leaf values for either
//! root player and the side to move's antisymmetric value, in the weights' units and in men.

use super::common::evaluator_arg;
use checkers_ga::formats::{bitboards, evaluate_call, men_text, StaticValues};
use checkers_ga::{fresh_seed, man_median, man_value, parse_fen, to_fen, Color, Evaluator};
use checkers_ga::{Position, Weights};
use std::io::Write;

#[derive(clap::Args)]
pub struct EvalArgs {
    /// The weights: a weight file (or anything `show` reads), a shipped weight set's name, the
    /// built-in `material`, `thesis` or `random`, or a yardstick (`hand`, `classic`)
    #[arg(value_name = "WEIGHTS")]
    pub weights: String,
    /// The position as PDN FEN, e.g. "W:W18,19,K7:B5,9,K28" (default: the start position)
    #[arg(value_name = "FEN")]
    pub fen: Option<String>,
    /// Seed of `random` weights (drawn when absent)
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn run(a: EvalArgs) -> anyhow::Result<()> {
    let pos = match &a.fen {
        Some(f) => parse_fen(f).map_err(|e| super::Usage(format!("bad FEN '{f}': {e}")))?,
        None => Position::start(),
    };
    let (name, eval) = evaluator_arg(&a.weights, a.seed.unwrap_or_else(fresh_seed), 0)?;
    let out = text(&name, &eval, &pos);
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// What `eval` prints: the position, its bitboards, the weights and their man, then one line
/// per value: its name, units, men and the export's call that gives it.
fn text(name: &str, eval: &Evaluator, pos: &Position) -> String {
    let stm = pos.side_to_move();
    let wtm = (stm == Color::White) as u8;
    let (b, w, k) = bitboards(pos);
    let v = StaticValues::of(eval, pos);
    let man = man_value(eval);
    let mut s = format!("position: {} ({} to move)\n", to_fen(pos), stm.name());
    s.push_str(&format!(
        "bitboards: black {b}, white {w}, kings {k} (bit i is square i + 1)\n"
    ));
    let what = match eval.weights() {
        Some(w) => w.set().to_string(),
        None => "a hand-written evaluation, no export".to_string(),
    };
    match man {
        Some(m) => s.push_str(&format!("weights: {name} ({what}); one man: {m} units\n")),
        None => s.push_str(&format!(
            "weights: {name} ({what}); one man: not valued (median {}): values in units only\n",
            man_median(eval)
        )),
    }
    let weights: Option<&Weights> = eval.weights();
    let call = |player: Color| match weights {
        Some(w) => evaluate_call("", w.set(), pos, player),
        None => String::new(),
    };
    let rows = [
        ("Black's value", v.black, call(Color::Black)),
        ("White's value", v.white, call(Color::White)),
        (
            "root player Black (leaf)",
            v.root_black,
            format!("evaluate_for_root(black, white, kings, {wtm}, 0)"),
        ),
        (
            "root player White (leaf)",
            v.root_white,
            format!("evaluate_for_root(black, white, kings, {wtm}, 1)"),
        ),
        (
            "side to move (antisymmetric)",
            v.side_to_move,
            format!("evaluate_side_to_move(black, white, kings, {wtm})"),
        ),
    ];
    let head = format!(
        "{:<29} {:>12} {:>8}  {}",
        "value",
        "units",
        "men",
        if weights.is_some() {
            "the export's function"
        } else {
            ""
        }
    );
    s.push_str(head.trim_end());
    s.push('\n');
    for (label, units, f) in rows {
        let men = man.map_or("-".to_string(), |m| men_text(units, m));
        let f = if weights.is_some() { f } else { String::new() };
        let line = format!("{label:<29} {units:>12} {men:>8}  {f}");
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}
