//! The headless command line: `validate`, `bake`, `render`, `inspect`, `bench`.

/// `println!` for the command line's results. A reader that stops early (`tuft render
/// … | head -1`) closes the pipe and the rest has nowhere to go: it is dropped, where
/// `println!` would panic, and the command still ends with its own status (`tuft
/// validate` with errors still exits 1).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if !$crate::cli::STDOUT_GONE.load(std::sync::atomic::Ordering::Relaxed)
            && writeln!(std::io::stdout().lock(), $($arg)*).is_err()
        {
            $crate::cli::STDOUT_GONE.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }};
}

/// Set once a write to standard output has failed: [`out!`] writes nothing more.
pub(crate) static STDOUT_GONE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

mod bake;
mod bench;
mod inspect;
mod nodes;
pub mod numbers;
pub mod render;
mod validate;
mod view;
pub mod walk;

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
        /// The folder to write: missing, empty, or an earlier baked set, which the new
        /// set replaces whole once it is written and read back.
        #[arg(long)]
        out: PathBuf,
        /// Map resolution in texels.
        #[arg(long, default_value_t = tuft_bake::DEFAULT_RESOLUTION, value_parser = numbers::resolution)]
        resolution: usize,
        /// How the glTF meshes store vertices: none (32-bit floats), quantize
        /// (KHR_mesh_quantization) or meshopt (quantised, then EXT_meshopt_compression).
        /// Default: quantize, or none for --target godot (Godot 3 misreads quantised
        /// meshes).
        #[arg(long, value_parser = tuft_bake::gltf::Encoding::from_name)]
        compress: Option<tuft_bake::gltf::Encoding>,
        /// The engine the set is going to: gltf, godot, unity (adds the HDRP/URP mask
        /// map) or unreal (adds a DirectX-style normal map).
        #[arg(long, default_value = "gltf", value_parser = tuft_bake::targets::Target::from_name)]
        target: tuft_bake::targets::Target,
        /// How the KTX2 textures store texels: rgba8 (the mips exactly as computed) or
        /// bc7 (GPU blocks desktop engines sample as they are; lossy).
        #[arg(long, default_value = "rgba8", value_parser = tuft_bake::ktx2::Codec::from_name)]
        ktx2: tuft_bake::ktx2::Codec,
        /// How the strand file stores its fields: stored (exact, 92 bytes a strand) or
        /// quantised (scheme 1: 16-bit and 8-bit encodings within stated bounds, about
        /// 28 bytes a strand for the lawn; the meshes are built from what it reads back).
        #[arg(long, default_value = "stored", value_parser = strand_scheme)]
        strands: tuft_strands::file::Scheme,
        /// Keep this share of every layer's strands (in (0, 1], on top of each layer's
        /// own `layer_keep`): the rank prefix, widened as the levels widen, so the same
        /// material, thinner and cheaper.
        #[arg(long, value_parser = numbers::keep)]
        keep: Option<f32>,
        /// Bake even when validation finds errors.
        #[arg(long)]
        force: bool,
    },
    /// Open a baked set in a window, read-only, drawn from its own files (manifest, maps,
    /// strand file) as a game reads them: the editor's preview controls, no graph.
    View {
        /// The baked set's folder (what `tuft bake --out` wrote), or its manifest.ron.
        dir: PathBuf,
        /// Multiplies every switch distance (the preview's LOD bias slider starts here).
        #[arg(long, default_value_t = 1.0, value_parser = numbers::lod_bias)]
        lod_bias: f32,
        /// Where the sun stands, AZIMUTH,ELEVATION in turns, as in `tuft render` (the
        /// preview's sun sliders start here).
        #[arg(long, value_parser = numbers::sun, allow_hyphen_values = true)]
        sun: Option<tuft_render::SunAngles>,
    },
    /// Draw one preview frame offscreen (any adapter wgpu finds, software included) and
    /// print what it drew: strands, triangles, and which levels were active.
    Render {
        /// The graph file (RON), or a baked set (its folder or manifest.ron, drawn from its
        /// own files).
        file: PathBuf,
        /// The PNG to write.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        options: render::Options,
    },
    /// List the vocabulary: every node kind with its doc, ports and parameters (with
    /// their ranges), and the strand layer's ports.
    Nodes {
        /// One JSON object per kind, one per line.
        #[arg(long)]
        json: bool,
    },
    /// Show a strand file's layers, counts, fields, value ranges and CRCs; exit 1 with the
    /// reason when the file is damaged.
    Inspect {
        /// The strand file, or a baked set's folder (its strand file is read).
        file: PathBuf,
    },
    /// Time the engine on the shipped presets (median of several runs); writes nothing.
    Bench {
        /// One JSON object per case, one per line.
        #[arg(long)]
        json: bool,
        /// Timed runs per case (after one warm-up run).
        #[arg(long, default_value_t = 5, value_parser = numbers::runs)]
        runs: usize,
        /// Only this shipped preset.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::PRESETS.map(|(name, _)| name)))]
        preset: Option<String>,
        /// Also (or, without --preset, only) time scattering this many candidates over a
        /// sphere and meshing them as ribbons.
        #[arg(long, num_args = 0..=1, default_missing_value = "250000", value_parser = numbers::candidates)]
        sphere: Option<u64>,
        /// Also (or, without --preset, only) time reading a mesh file, laying it out as a
        /// surface and planting the fur preset on it.
        #[arg(long, value_name = "PATH")]
        mesh: Option<PathBuf>,
        /// Instead of the cases, walk this many metres (default 100) over the field on the
        /// lawn at 1.5 m/s, 60 frames a second, and print the frames' planning time,
        /// planting, resident memory and triangles.
        #[arg(long, num_args = 0..=1, default_missing_value = "100", value_name = "METRES", value_parser = numbers::distance)]
        field: Option<f32>,
        /// With --field: multiplies every switch distance, as in `tuft render`.
        #[arg(long, default_value_t = 1.0, value_parser = numbers::lod_bias)]
        lod_bias: f32,
        /// Print each layer's level coverage (relative to level 0) for widening exponents
        /// ½ and 1 instead of timings.
        #[arg(long)]
        levels: bool,
        /// Print the colour each switch between a layer's representations moves, every
        /// layer of the presets forced before and after its switch on a 320×240 sphere,
        /// seen from this many sides (the default camera first), instead of timings.
        #[arg(long, num_args = 0..=1, default_missing_value = "1", value_name = "SIDES", value_parser = numbers::sides)]
        switches: Option<u32>,
        /// Instead of timings, draw each preset on the field from a walker's eye (1.7 m,
        /// looking 0.03 turns down, four yaws, 320×180) at LOD bias 1 and at 3, neither
        /// cut by the frame budget, and print how far apart they are: the largest move
        /// of a 20-row band's mean colour and the 8-pixel block luminance correlation.
        #[arg(long)]
        eye_height: bool,
        /// Instead of timings, each switch of each preset layer on the field seen from
        /// 2° to 85° over the ground and from a walker's eye (1.7 m) looking at it: the
        /// layer forced before and after the switch where it happens, and the mean colour
        /// move and 8-pixel block luminance correlation over the ground in its fade band.
        #[arg(long)]
        elevations: bool,
    },
}

fn strand_scheme(name: &str) -> Result<tuft_strands::file::Scheme, String> {
    tuft_strands::file::Scheme::from_name(name).ok_or_else(|| {
        format!(
            "`{name}` is not a strand scheme (one of: {})",
            tuft_strands::file::Scheme::NAMES.join(", ")
        )
    })
}

/// Loads and validates `file` for a command that `verb`s it, printing every diagnostic.
/// `Err` holds the exit status when it cannot go on: the file is unreadable, or it has
/// errors and `force` is not set.
pub(crate) fn load_checked(
    file: &std::path::Path,
    verb: &str,
    force: bool,
) -> Result<tuft_graph::Document, ExitCode> {
    let doc = tuft_graph::io::load(file).map_err(|e| {
        eprintln!("{}: error: {e}", file.display());
        ExitCode::from(EXIT_UNREADABLE)
    })?;
    let report = tuft_graph::validate(&doc.graph);
    for d in &report.diagnostics {
        eprintln!("{}: {d}", file.display());
    }
    if report.has_errors() && !force {
        let hint = if verb == "baked" {
            " or pass --force"
        } else {
            ""
        };
        eprintln!("{}: not {verb}: fix the errors above{hint}", file.display());
        return Err(ExitCode::from(EXIT_INVALID));
    }
    Ok(doc)
}

/// Runs one subcommand and returns its exit status.
pub fn run(command: Command) -> ExitCode {
    match command {
        Command::Validate { files, json } => validate::run(&files, json),
        Command::Nodes { json } => nodes::run(json),
        Command::Bake {
            file,
            out,
            resolution,
            compress,
            target,
            ktx2,
            strands,
            keep,
            force,
        } => {
            let options = tuft_bake::BakeOptions {
                resolution,
                encoding: compress.unwrap_or_else(|| target.default_encoding()),
                target,
                ktx2,
                strands,
                keep: keep.unwrap_or(1.0),
            };
            bake::run(&file, &out, &options, force)
        }
        Command::Bench {
            json,
            field: Some(metres),
            lod_bias,
            ..
        } => match walk::run(metres, json, lod_bias) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tuft bench --field: {e:#}");
                ExitCode::FAILURE
            }
        },
        Command::Bench {
            json,
            runs,
            preset,
            sphere,
            mesh,
            levels,
            switches,
            eye_height,
            elevations,
            field: None,
            lod_bias: _,
        } => bench::run(
            json,
            runs,
            preset.as_deref(),
            sphere,
            mesh.as_deref(),
            bench::Figures {
                levels,
                switches,
                eye_height,
                elevations,
            },
        ),
        Command::Inspect { file } => inspect::run(&file),
        Command::View { dir, lod_bias, sun } => view::run(&dir, lod_bias, sun),
        Command::Render { file, out, options } => render::run(&file, &out, &options),
    }
}
