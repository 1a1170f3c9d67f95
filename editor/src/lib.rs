//! The Tuft editor and command line, as a library so tests drive the same code the
//! `tuft` binary runs.
//!
//! - [`app`]: the eframe window; [`session`] (document, file, undo), [`graph_view`]
//!   (the egui-snarl graph), [`preview`] (rebuild worker and paint callback),
//!   [`thumbs`] (per-node thumbnails on a worker).
//! - [`cli`]: the headless subcommands.
//! - [`material`]: a graph evaluated into what the preview renderer draws — the one
//!   place that knows both the graph and the renderer.

/// The lawn preset, built in so the editor opens on it from any working directory.
pub const LAWN_PRESET: &str = include_str!("../../presets/lawn.ron");

pub mod app;
pub mod autosave;
pub mod cli;
pub mod command;
pub mod file_dialogs;
pub mod graph_view;
pub mod material;
pub mod preview;
pub mod session;
pub mod thumbs;
pub mod words;
pub mod workers;
