//! The headless command line: `validate`, `bake`, `inspect`, `bench`.

mod bake;
mod bench;
mod inspect;
mod validate;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status when the material has errors.
pub const EXIT_INVALID: u8 = 1;
/// Exit status when a file cannot be read or parsed.
pub const EXIT_UNREADABLE: u8 = 2;

/// Tuft: author strand materials (lawns, fur, moss) as node graphs.
#[derive(Debug, Parser)]
#[command(name = "tuft", version, about)]
pub struct Args {
    /// A graph to open in the editor (the lawn preset when omitted).
    pub file: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Headless subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check graphs for seams, refused paths, bad input; exit 1 on errors, 2 when a file
    /// cannot be read.
    Validate {
        /// Graph files (RON).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object per file, one per line.
        #[arg(long)]
        json: bool,
    },
    /// Bake a graph into a folder of maps a game can load.
    Bake {
        /// The graph file (RON).
        file: PathBuf,
        /// The folder to write (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Map resolution in texels.
        #[arg(long, default_value_t = tuft_graph::bake::DEFAULT_RESOLUTION)]
        resolution: usize,
        /// Bake even when validation finds errors.
        #[arg(long)]
        force: bool,
    },
    /// Show a strand file's layers, counts, fields, value ranges and CRCs; exit 1 with the
    /// reason when the file is damaged.
    Inspect {
        /// The strand file.
        file: PathBuf,
    },
    /// Time the engine on the shipped presets (median of several runs); writes nothing.
    Bench {
        /// One JSON object per case, one per line.
        #[arg(long)]
        json: bool,
        /// Timed runs per case (after one warm-up run).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Only this preset (lawn, fur or moss).
        #[arg(long)]
        preset: Option<String>,
        /// Also (or, without --preset, only) time scattering this many candidates over a
        /// sphere and meshing them as ribbons.
        #[arg(long, num_args = 0..=1, default_missing_value = "250000")]
        sphere: Option<u64>,
        /// Print each layer's level coverage (relative to level 0) for widening exponents
        /// ½ and 1 instead of timings.
        #[arg(long)]
        levels: bool,
    },
}

/// Runs one subcommand and returns its exit status.
pub fn run(command: Command) -> ExitCode {
    match command {
        Command::Validate { files, json } => validate::run(&files, json),
        Command::Bake {
            file,
            out,
            resolution,
            force,
        } => bake::run(&file, &out, resolution, force),
        Command::Bench {
            json,
            runs,
            preset,
            sphere,
            levels,
        } => bench::run(json, runs, preset.as_deref(), sphere, levels),
        Command::Inspect { file } => inspect::run(&file),
    }
}
