//! `checkers-ga schedule`: what P threads make of a run's schedule log.

use anyhow::Context;
use checkers_ga::schedule::Schedule;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ScheduleArgs {
    /// A schedule log: the file the environment variable CHECKERS_GA_SCHEDULE_LOG named for a
    /// run of `new`, `resume`, `match` or `spsa` (best made with --threads 1)
    pub log: PathBuf,
    /// The thread counts to model
    #[arg(long, value_name = "N,...", value_delimiter = ',', default_value = "1,2,4,8,16,64",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub threads: Vec<u32>,
    /// The run's name in the output lines
    #[arg(long, default_value = "run")]
    pub run: String,
    /// Also model every batch's games started longest first (their recorded times known in
    /// advance): `longest-first RUN P EFFICIENCY  SECONDS s` lines
    #[arg(long)]
    pub longest_first: bool,
}

pub fn run(a: ScheduleArgs) -> anyhow::Result<()> {
    if a.run.is_empty() || a.run.contains(char::is_whitespace) {
        usage!("--run '{}' must be one word", a.run);
    }
    let text = std::fs::read_to_string(&a.log)
        .with_context(|| format!("cannot read {}", a.log.display()))?;
    let s = Schedule::parse(&text).with_context(|| format!("{}", a.log.display()))?;
    let jobs: usize = s.batches.iter().map(|b| b.jobs.len()).sum();
    println!(
        "log {}: {} batches, {jobs} jobs, {:.2} s, of which {:.2} s serial",
        a.log.display(),
        s.batches.len(),
        s.seconds,
        s.serial()
    );
    for &p in &a.threads {
        let m = s.predict(p as usize);
        let mut idle: Vec<(String, f64)> =
            m.idle.into_iter().filter(|(_, x)| *x >= 0.0005).collect();
        idle.sort_by(|x, y| y.1.total_cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
        let idle: Vec<String> = idle.iter().map(|(k, x)| format!("{k} {x:.3}")).collect();
        println!(
            "modelled {} {p} {:.3}  {:.2} s  idle: {}",
            a.run,
            m.efficiency,
            m.seconds,
            if idle.is_empty() {
                "none".into()
            } else {
                idle.join(", ")
            }
        );
        if a.longest_first {
            let f = s.predict_longest_first(p as usize);
            println!(
                "longest-first {} {p} {:.3}  {:.2} s",
                a.run, f.efficiency, f.seconds
            );
        }
    }
    Ok(())
}
