//! The Tuft editor and command line, as a library so tests drive the same code the
//! `tuft` binary runs.
//!
//! - [`app`]: the eframe window.
//! - [`cli`]: the headless subcommands.
//! - [`material`]: a graph evaluated into what the preview renderer draws — the one
//!   place that knows both the graph and the renderer.

pub mod app;
pub mod cli;
pub mod material;
