//! `tuft`: the strand-material editor, and its headless command line.
//!
//! With no arguments it opens the editor on the lawn preset; each subcommand works
//! without a window (see `tuft --help`).

use clap::Parser as _;
use tuft_editor::{app, cli};

fn main() -> std::process::ExitCode {
    app::keep_freed_memory();
    let args = cli::Args::parse();
    match args.command {
        None => match app::run(args.file.as_deref()) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tuft: {e:#}");
                std::process::ExitCode::FAILURE
            }
        },
        Some(command) => cli::run(command),
    }
}
