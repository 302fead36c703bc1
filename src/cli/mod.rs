//! Command-line definitions and dispatch. Each subcommand's reporting lives in its own file.

mod perft;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "checkers-ga",
    version,
    about = "Evolve English draughts evaluation weights with a genetic algorithm, and play with them"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the move tree (move generator check and speed test)
    Perft(perft::PerftArgs),
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Perft(a) => perft::run(a),
    }
}
