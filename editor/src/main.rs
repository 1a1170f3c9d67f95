//! `tuft`: the strand-material editor, and its headless command line.
//!
//! With no arguments it opens the editor on the lawn preset; each subcommand works
//! without a window (see `tuft --help`).

use clap::Parser as _;
use tuft_editor::{app, cli};

fn main() -> std::process::ExitCode {
    keep_freed_memory();
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

/// Tells the C allocator to keep freed memory in the process instead of handing it back
/// to the kernel. A rebuild allocates and frees the same hundred-odd megabytes on every
/// edit (candidates, fields, the set, placed tiles); returned to the kernel, every
/// rebuild paid for it again in page faults — about a fifth of the sphere benchmark
/// (`tuft bench --sphere`: 319k minor faults over 16 runs before, 65k after). Blocks up
/// to 32 MiB (glibc's largest threshold) come from the heap; the heap is never trimmed.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes two of the allocator's tuning numbers; it is called
    // before any other thread exists.
    #[allow(unsafe_code)]
    unsafe {
        let _ = libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        let _ = libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}
