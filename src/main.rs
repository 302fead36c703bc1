//! The `checkers-ga` command: parses arguments and reports; the work lives in the library.

mod cli;

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
    let launch = match checkers_ga::Launch::begin() {
        Ok(l) => l,
        Err(e) => {
            if checkers_ga::Launch::is_first_of_launch() {
                eprintln!("error: {e}");
            }
            std::process::exit(1);
        }
    };
    // Under MPI only rank 0 runs the command and prints; the others play the games it hands out.
    let code = match cli::parse() {
        Err(e) if launch.leads() => parse_error(e),
        Err(_) => 2,
        Ok(args) => {
            // Every rank plays games, so every rank hears whether they hold a core each.
            checkers_ga::set_pinning(!args.no_pin);
            match launch.start(cli::threads(&args)) {
                Ok(true) => run_command(args),
                Ok(false) => 0,
                Err(e) => {
                    eprintln!("error: {e}");
                    1
                }
            }
        }
    };
    launch.finish();
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
fn run_command(args: cli::Invocation) -> i32 {
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
            // One line: the error and its causes, joined; a cause that the message before it
            // says already (an error that writes its source into its own text) is not said
            // again.
            let mut text = String::new();
            let said = |c: &(dyn std::error::Error + 'static)| match c
                .downcast_ref::<checkers_ga::SessionError>()
            {
                // How to continue a session, as this program was started.
                Some(s) => s.said_by(&cli::command_prefix()),
                None => c.to_string(),
            };
            for cause in e.chain().map(|c| said(c).replace('\n', " ")) {
                if text.is_empty() {
                    text = cause;
                } else if !text.ends_with(&cause) {
                    text = format!("{text}: {cause}");
                }
            }
            if cli::is_usage_error(&e) {
                // A bad command line, found after parsing: said as clap says its own.
                eprintln!("error: {text} (see --help)");
                return 2;
            }
            eprintln!("error: {text}");
            1
        }
    }
}
