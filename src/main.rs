//! The `checkers-ga` command: parses arguments and reports; the work lives in the library.

mod cli;

use clap::Parser;

fn main() {
    // `checkers-ga perft 12 --divide | head` closes the pipe early: that is not an error to
    // report, so leave quietly instead of printing a panic.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        if std::env::var_os("RUST_BACKTRACE").is_some() {
            default_hook(info);
        } else {
            // Should never happen; if it does, still one line.
            let at = info
                .location()
                .map(|l| format!(" at {l}"))
                .unwrap_or_default();
            eprintln!("error: internal error{at}: {msg}");
        }
        std::process::exit(101);
    }));
    #[cfg(feature = "mpi")]
    let launched = checkers_ga::cluster::launcher_ranks().is_some();
    #[cfg(feature = "mpi")]
    if launched {
        checkers_ga::cluster::block_termination();
    }
    #[cfg(feature = "mpi")]
    let cluster = match checkers_ga::cluster::init() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: cannot start MPI: {e}");
            std::process::exit(1);
        }
    };
    #[cfg(feature = "mpi")]
    if launched {
        // The launcher ends every rank with SIGTERM when one dies (or it is stopped): rank 0
        // says so, and where the session stands; the others leave quietly.
        let speak = cluster.as_ref().is_none_or(|c| c.rank() == 0);
        checkers_ga::cluster::on_termination(move || {
            if speak {
                let note = checkers_ga::cluster::stop_note();
                eprintln!(
                    "error: the MPI job is being ended (SIGTERM: a rank died, or mpirun or srun \
                     was stopped){}{note}",
                    if note.is_empty() { "" } else { "; " }
                );
            }
        });
    }
    #[cfg(not(feature = "mpi"))]
    refuse_mpi_launch();
    // Under MPI only rank 0 runs the command and prints; the others play the games it hands out.
    #[cfg(feature = "mpi")]
    let lead = cluster.as_ref().is_none_or(|c| c.rank() == 0);
    #[cfg(not(feature = "mpi"))]
    let lead = true;
    let code = match cli::Cli::try_parse() {
        Err(e) if lead => parse_error(e),
        Err(_) => 2,
        Ok(args) => {
            #[cfg(feature = "mpi")]
            let started = match &cluster {
                Some(c) if c.rank() != 0 => {
                    // Ctrl-C is rank 0's to handle: it stops the session at a game boundary.
                    let _ = ctrlc::set_handler(|| {});
                    c.serve(cli::threads(&args));
                    Ok(false)
                }
                Some(c) => c.lead(cli::threads(&args)).map(|_| true),
                None => Ok(true),
            };
            #[cfg(not(feature = "mpi"))]
            let started: Result<bool, String> = Ok(true);
            match started {
                Ok(true) => run_command(args),
                Ok(false) => 0,
                Err(e) => {
                    eprintln!("error: {e}");
                    1
                }
            }
        }
    };
    #[cfg(feature = "mpi")]
    if let Some(c) = cluster {
        if c.rank() == 0 {
            c.finish();
        }
        drop(c);
    }
    std::process::exit(code);
}

/// A bad command line: help and version as clap prints them, anything else as one line.
fn parse_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return e.exit_code();
    }
    // A bad flag is one line, like every other error: clap's first line names it.
    let text = e.render().to_string();
    let first: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
        .map(str::trim)
        .collect();
    eprintln!("{} (see --help)", first.join(" "));
    2
}

/// Runs the command; the exit code.
fn run_command(args: cli::Cli) -> i32 {
    match cli::run(args) {
        Ok(()) => 0,
        Err(e) => {
            if e.downcast_ref::<cli::AlreadySaid>().is_some() {
                return 1;
            }
            if let Some(i) = e.downcast_ref::<cli::Interrupted>() {
                // Stopped by a signal; what was saved and how to go on is printed already.
                return i.exit_code();
            }
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                if io.kind() == std::io::ErrorKind::BrokenPipe {
                    return 0;
                }
            }
            // One line: the error and its causes, joined.
            let text = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {text}");
            1
        }
    }
}

/// A build without the `mpi` feature started as several processes by `mpirun` or `srun` would
/// run the command that many times: it refuses, once (on the launcher's first process).
#[cfg(not(feature = "mpi"))]
fn refuse_mpi_launch() {
    if let Some(n) = checkers_ga::cluster::launcher_ranks().filter(|&n| n > 1) {
        let first = [
            "OMPI_COMM_WORLD_RANK",
            "PMIX_RANK",
            "PMI_RANK",
            "SLURM_PROCID",
        ]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .is_none_or(|r| r.trim() == "0");
        if first {
            eprintln!(
                "error: started as one of {n} processes by an MPI launcher, but this build has no \
                 MPI support: build with `cargo build --release --features mpi` (README, \
                 \"Clusters: MPI\")"
            );
        }
        std::process::exit(1);
    }
}
