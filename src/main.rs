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
        default_hook(info);
    }));
    let args = cli::Cli::parse();
    if let Err(e) = cli::run(args) {
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
