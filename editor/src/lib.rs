//! The Tuft editor and command line, as a library so tests drive the same code the
//! `tuft` binary runs.
//!
//! - [`app`]: the eframe window; [`session`] (document, file, undo), [`graph_view`]
//!   (the egui-snarl graph), [`preview`] (rebuild worker and paint callback),
//!   [`thumbs`] (per-node thumbnails on a worker).
//! - [`cli`]: the headless subcommands.
//! - [`material`]: a graph evaluated into what the preview renderer draws — the one
//!   place that knows both the graph and the renderer.

/// The presets that ship, by name, built in so the editor offers them (File › New from
/// Preset) and `tuft bench` times them from any working directory.
pub const PRESETS: [Preset; 4] = [
    ("lawn", include_str!("../../presets/lawn.ron")),
    ("fur", include_str!("../../presets/fur.ron")),
    ("moss", include_str!("../../presets/moss.ron")),
    ("carpet", include_str!("../../presets/carpet.ron")),
];

/// A shipped preset: its name and its graph file's text.
pub type Preset = (&'static str, &'static str);

/// The lawn preset, which the editor opens on.
pub const LAWN_PRESET: &str = PRESETS[0].1;

pub mod app;
pub mod autosave;
pub mod cli;
pub mod command;
pub mod file_dialogs;
pub mod frame_file;
pub mod graph_view;
pub mod material;
pub mod preview;
pub mod session;
pub mod thumbs;
pub mod words;
pub mod workers;
