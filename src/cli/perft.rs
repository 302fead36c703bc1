use checkers_ga::{parse_fen, perft, perft_divide, Position};
use std::time::Instant;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Depth in plies (0..=40)
    #[arg(value_parser = clap::value_parser!(u32).range(0..=40))]
    pub depth: u32,
    /// Start from this PDN FEN instead of the initial position
    #[arg(long)]
    pub fen: Option<String>,
    /// First print one `MOVE COUNT` line per root move
    #[arg(long)]
    pub divide: bool,
}

pub fn run(a: PerftArgs) -> anyhow::Result<()> {
    let pos = match &a.fen {
        Some(f) => parse_fen(f).map_err(|e| super::Usage(format!("bad --fen '{f}': {e}")))?,
        None => Position::start(),
    };
    let t = Instant::now();
    let nodes = if a.divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, a.depth) {
            println!("{m} {n}");
            total += n;
        }
        total
    } else {
        perft(&pos, a.depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("time {secs:.3} s");
    println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}
