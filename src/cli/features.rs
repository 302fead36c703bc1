use checkers_ga::{all_features, ParamSet, ALL_PARAMS, NUM_ALL};
use checkers_ga::{features, parse_fen, Color, Position, PARAMS};
use std::io::Write;

#[derive(clap::Args)]
pub struct FeaturesArgs {
    /// The position as PDN FEN, e.g. "B:W21,22,K30:B1,2,3" (default: the start position)
    #[arg(long)]
    pub fen: Option<String>,
    /// The player the parameters are counted for: black or white (default: the side to move)
    #[arg(long)]
    pub side: Option<String>,
    /// Which parameters: thesis60 (the 60), or endgame66 / phased132 / net66[:H] (the 60 and
    /// the six endgame parameters; the phased set weighs these same 66 twice, the network set
    /// sums them and feeds them to its hidden units), or board[:H] (the 66, then the board
    /// network's inputs present: the pieces from the player's side, and to_move)
    #[arg(long, default_value = "thesis60")]
    pub params: ParamSet,
}

/// The board network's inputs present in `pos` for `player`, in input order: a piece of each
/// kind (0 own man, 1 own king, 2 opponent man, 3 opponent king) on square s of the player's
/// side of the board (for White the board is turned: square s is its square 33 - s) is input
/// `kind * 32 + s - 1`; the last, 128 (`to_move`), when the player is to move.
fn board_inputs(pos: &Position, player: Color) -> Vec<usize> {
    let mut v: Vec<usize> = (1..=32u8)
        .filter_map(|sq| {
            let (c, king) = pos.piece_at(sq)?;
            let view = if player == Color::Black { sq } else { 33 - sq };
            let kind = 2 * usize::from(c != player) + usize::from(king);
            Some(kind * 32 + view as usize - 1)
        })
        .collect();
    v.sort_unstable();
    if pos.side_to_move() == player {
        v.push(4 * 32);
    }
    v
}

/// The name of board input `i` (`own_man@5`, `to_move`): the parameter name of its weight
/// into the first unit without the unit.
fn board_input_name(i: usize) -> &'static str {
    let name = ParamSet::Board(1).params()[NUM_ALL + i].name;
    name.strip_suffix(">1").unwrap_or(name)
}

fn parse_side(s: &str) -> anyhow::Result<Color> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" | "red" | "r" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => usage!("bad --side '{s}' (expected black or white)"),
    }
}

/// Prints one `NUMBER NAME VALUE` line per parameter of the set (60 or 66), in the thesis's
/// order; for a board set then a line saying so and one `NUMBER NAME` line per board input
/// present (numbered 1-129 as the inputs are).
pub fn run(a: FeaturesArgs) -> anyhow::Result<()> {
    let pos = match &a.fen {
        Some(f) => parse_fen(f).map_err(|e| super::Usage(format!("bad --fen '{f}': {e}")))?,
        None => Position::start(),
    };
    let side = match &a.side {
        Some(s) => parse_side(s)?,
        None => pos.side_to_move(),
    };
    let (params, values): (&[_], Vec<i32>) = match a.params {
        ParamSet::Thesis60 => (&PARAMS, features(&pos, side).to_vec()),
        _ => (&ALL_PARAMS, all_features(&pos, side).to_vec()),
    };
    let mut out = String::new();
    for (i, (p, v)) in params.iter().zip(values).enumerate() {
        out.push_str(&format!("{:>2} {:<26} {v}\n", i + 1, p.name));
    }
    if a.params.is_board() {
        let present = board_inputs(&pos, side);
        let side_name = if side == Color::Black {
            "black"
        } else {
            "white"
        };
        out.push_str(&format!(
            "board inputs present ({} of 129, squares numbered from {side_name}'s side):\n",
            present.len()
        ));
        for i in present {
            out.push_str(&format!("{:>3} {}\n", i + 1, board_input_name(i)));
        }
    }
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
