//! `checkers-ga pdn FILE`: reads PDN games back (ours, pydraughts', any PDN of English
//! draughts), every move checked by our rules, and prints each game's start, moves, result
//! and final position.

use anyhow::Context;
use checkers_ga::{hub_move, read_pdn_games, to_fen};

#[derive(clap::Args)]
pub struct PdnArgs {
    /// The PDN file
    pub file: std::path::PathBuf,
    /// How moves are written: `pdn` (standard notation, a capture with every landing square:
    /// 15x24x31) or `hub` (the Hub protocol's: 15x31x19x27, destination then captured squares)
    #[arg(long, default_value = "pdn", value_parser = ["pdn", "hub"])]
    pub notation: String,
}

pub fn run(a: PdnArgs) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", a.file.display()))?;
    let games = read_pdn_games(&text).with_context(|| format!("{}", a.file.display()))?;
    if games.is_empty() {
        anyhow::bail!("{} holds no PDN game", a.file.display());
    }
    for (i, g) in games.iter().enumerate() {
        let r = g.replay();
        let moves: Vec<String> = (g.start.moves.iter().zip(&r.before))
            .map(|(m, pos)| match a.notation.as_str() {
                "hub" => hub_move(pos, m),
                _ => m.to_string(),
            })
            .collect();
        let ours = match r.ended {
            Some((outcome, reason, plies)) if plies == moves.len() => {
                format!("{} ({reason})", outcome.pdn())
            }
            // The game went on after our rules would have ended it (other draw rules).
            Some((outcome, reason, plies)) => format!(
                "{} ({reason} after {plies} plies; the game went on)",
                outcome.pdn()
            ),
            None => "not over".to_string(),
        };
        println!("game {}", i + 1);
        println!("start: {}", to_fen(&g.start.setup));
        println!("plies: {}", moves.len());
        println!("moves: {}", moves.join(" "));
        println!("result: {}", g.result.as_deref().unwrap_or("none"));
        println!("our rules: {ours}");
        println!("final: {}", to_fen(&r.last));
    }
    Ok(())
}
