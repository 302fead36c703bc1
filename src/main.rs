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
    let args = match cli::Cli::try_parse() {
        Ok(a) => a,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            // A bad flag is one line, like every other error: clap's first line names it.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                .map(str::trim)
                .collect();
            eprintln!("{} (see --help)", first.join(" "));
            std::process::exit(2);
        }
    };
    if let Err(e) = cli::run(args) {
        if e.downcast_ref::<cli::Interrupted>().is_some() {
            // Stopped by Ctrl-C; what was saved and how to go on is printed already.
            std::process::exit(130);
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
        // One line: the error and its causes, joined.
        let text = format!("{e:#}").replace('\n', " ");
        eprintln!("error: {text}");
        std::process::exit(1);
    }
}
