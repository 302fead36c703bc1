//! `checkers-ga bench`: evaluation and search speed on a fixed position set (single thread).

use super::common::evaluator_arg;
use checkers_ga::bench;
use checkers_ga::{SearchConfig, SearchParams};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Evaluator: a weight file, `thesis` or `material` (built in), `random`, or the yardsticks
    /// `hand` and `classic`
    #[arg(long, default_value = "thesis")]
    pub weights: String,
    /// Passes over the position set when timing the evaluation
    #[arg(long, default_value_t = 2000)]
    pub rounds: usize,
    /// Turn the transposition table off
    #[arg(long)]
    pub no_tt: bool,
    /// Timings per parameter set (the median is shown)
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Turn the capture extension off
    #[arg(long)]
    pub no_extension: bool,
    /// The search's reductions and pruning: `neutral` (none: the plain alpha-beta of a
    /// fixed-depth search), `default` (the tuned defaults of a search on a clock), or either
    /// followed by `,NAME=VALUE` items (`default,lmr-reduction=2`; names as `hub
    /// --tunable-search` declares them)
    #[arg(long, default_value = "neutral", value_name = "PARAMS")]
    pub search_params: String,
}

pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    let params = match SearchParams::parse(&a.search_params) {
        Ok(p) => p,
        Err(e) => usage!("--search-params: {e}"),
    };
    checkers_ga::check_depth(a.depth, "--depth")?;
    let (_, w) = evaluator_arg(&a.weights, 1, 0)?;
    let positions = bench::positions();
    println!("positions {}", positions.len());
    let ns = bench::eval_ns(&positions, &w, a.rounds);
    println!("eval_ns {ns:.1}");
    // Every parameter set's cost, against endgame66's (the weights for their own set, random
    // weights of the others).
    let given = match &w {
        checkers_ga::Evaluator::Weighted(w) => Some(w),
        _ => None,
    };
    let costs = bench::set_costs(
        &positions,
        given,
        a.rounds.div_ceil(a.repeats.max(1)),
        a.repeats,
    );
    let base = costs
        .iter()
        .find(|(s, _)| *s == checkers_ga::ParamSet::Endgame66)
        .map_or(1.0, |c| c.1);
    for (set, ns) in &costs {
        println!("set_eval_ns {set} {ns:.1} x{:.2}", ns / base);
    }
    let config = SearchConfig {
        depth: a.depth,
        capture_extension: !a.no_extension,
        tt_log2: if a.no_tt { 0 } else { 20 },
    };
    let (nodes, secs) = bench::search_speed_with(&positions, &w, config, params);
    println!("search_params {}", a.search_params);
    println!("search_depth {}", a.depth);
    println!("search_nodes {nodes}");
    println!("search_seconds {secs:.3}");
    println!("search_nps {:.0}", nodes as f64 / secs.max(1e-9));
    // Iterative deepening to the same depth, aspiration windows included.
    let (nodes, secs) = bench::time_to_depth(&positions, &w, config, params);
    println!("depth_time_nodes {nodes}");
    println!("depth_time_seconds {secs:.3}");
    println!("depth_time_nps {:.0}", nodes as f64 / secs.max(1e-9));
    // Each kind of set's search speed against endgame66's, on the same positions and depth.
    let speeds = bench::set_search_speeds(&positions, config, a.repeats);
    let base = speeds.first().map_or(1.0, |s| s.1);
    for (set, nps) in &speeds {
        println!("search_set_nps {set} {nps:.0} x{:.2}", nps / base);
    }
    Ok(())
}
