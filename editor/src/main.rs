//! `tuft`: the strand-material editor, and its headless command line.
//!
//! With no arguments it opens the editor on the lawn preset; each subcommand works
//! without a window (see `tuft --help`).

use clap::Parser as _;
use tuft_editor::{app, cli, workers};

fn main() -> std::process::ExitCode {
    app::keep_freed_memory();
    let args = cli::Args::parse();
    // One pool for the process, started before anything splits work: below the UI
    // thread where a window opens, at the shell's priority for a headless command.
    let windowed = matches!(args.command, None | Some(cli::Command::View { .. }));
    let priority = windowed.then_some(workers::Priority::Below);
    workers::start_pool(priority);
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
