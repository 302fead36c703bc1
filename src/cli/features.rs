use checkers_ga::{all_features, board_input_name, board_inputs, ParamSet, ALL_PARAMS};
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
        let mut present = Vec::new();
        board_inputs(&pos, side, &mut present);
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
