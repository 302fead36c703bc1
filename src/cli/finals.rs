//! `checkers-ga finals [SESSION]`: a round robin at a deeper search among a session's past bests,
//! whose winner is written as a weight file.

use super::common::{check_output_file, pool, progress_style, show_progress};
use super::history::find_session;
use anyhow::bail;
use checkers_ga::{FinalsOptions, FinalsPlan};
use indicatif::ProgressBar;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct FinalsArgs {
    /// A session name (a folder under --populations), a session folder or a checkpoint file
    /// [default: the newest session of the GA under --populations]
    pub session: Option<String>,
    /// Folder of session folders
    #[arg(long, default_value = "populations")]
    pub populations: PathBuf,
    /// How many past bests play: the best so far after N generations spread evenly from --from
    /// to the last (the last among them; by default after every eighth of the session); a best
    /// that held over several of them plays once
    #[arg(long, value_name = "N", default_value_t = FinalsOptions::default().entrants)]
    pub entrants: usize,
    /// Entrants come from after this generation
    #[arg(long, value_name = "G", default_value_t = FinalsOptions::default().from)]
    pub from: u64,
    /// Search depth of the finals' games
    #[arg(long, value_name = "D", default_value_t = FinalsOptions::default().depth)]
    pub depth: u32,
    /// Games of each pair of entrants: the first N/2 ballot openings, each with both colours
    #[arg(long, value_name = "N", default_value_t = FinalsOptions::default().games)]
    pub games: usize,
    /// Worker threads (0 = one per core); the results are the same at any count
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Seed of the games' tie-breaks [default: the session's seed]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Where the winner's weights go [default: finals.json in the session folder,
    /// POPULATIONS/NAME/finals.json]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn run(a: FinalsArgs) -> anyhow::Result<()> {
    let options = FinalsOptions {
        entrants: a.entrants,
        from: a.from,
        depth: a.depth,
        games: a.games,
        seed: a.seed,
        out: a.out.clone(),
    };
    // The flags first, then the session (the GA's alone).
    FinalsPlan::check(&options)?;
    let (path, session) = find_session(a.session.as_deref(), &a.populations, "finals")?;
    let plan = FinalsPlan::new(&session, &path, &options)?;
    check_output_file(&plan.out, "--out")?;
    let n = plan.past.distinct.len();
    println!(
        "finals of session '{}': {n} distinct bests so far of {} chosen after generations {}..{}, \
         every pair {} ballot games at depth {}, seed {}",
        plan.name,
        plan.past.chosen.len(),
        plan.from + 1,
        plan.last,
        plan.per_pair(),
        plan.depth,
        plan.seed
    );
    if plan.past.left_out > 0 {
        println!(
            "({} generation(s) left out: played before checkpoint format 3, and their checkpoints \
             were pruned)",
            plan.past.left_out
        );
    }
    let bar = if show_progress(false) {
        let b = ProgressBar::new(plan.games());
        b.set_style(progress_style(
            "finals {bar:40} {pos}/{len} games {rate} eta {eta}",
        ));
        b
    } else {
        ProgressBar::hidden()
    };
    let p = pool(a.threads)?;
    let finals = p.install(|| plan.play(&|_| bar.inc(1)));
    bar.finish_and_clear();
    println!();
    println!("rank  best so far after   points        score   Elo vs the field");
    for (rank, &i) in finals.ranking().iter().enumerate() {
        let e = &finals.entrants[i];
        let gens = if e.first == e.last {
            format!("{}", e.first)
        } else {
            format!("{}..{}", e.first, e.last)
        };
        let elo = field_elo(e.elo_vs_field());
        println!(
            "{:>4}  {gens:<18}  {:>6.1}/{:<6}  {:>5.1}%  {}",
            rank + 1,
            e.points as f64 / 2.0,
            e.games,
            100.0 * e.score(),
            if n > 1 { elo } else { "-".to_string() }
        );
    }
    let Some(w) = plan.write_winner(&finals)? else {
        bail!("the finals had no entrants");
    };
    println!();
    println!(
        "winner: the best so far after generation {} -> {}",
        w.first,
        plan.out.display()
    );
    Ok(())
}

/// The Elo difference against the field ([`checkers_ga::Entrant::elo_vs_field`]) as the table
/// writes it: with its sign and one decimal, `+inf`/`-inf` at a score of 1 and 0, `0.0` for
/// an even score.
fn field_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else {
        match format!("{elo:+.1}") {
            z if z == "+0.0" || z == "-0.0" => "0.0".to_string(),
            t => t,
        }
    }
}
