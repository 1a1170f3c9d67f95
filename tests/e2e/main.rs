//! End-to-end tests across Tuft's crates, built as one test binary. Fixtures live in
//! `tests/data`.

mod bake;
mod baked_scene;
mod baked_set;
mod boundaries;
mod engines;
mod far;
mod field;
mod files;
mod game;
mod golden;
mod hostile;
mod meshes;
mod render;
mod strands;
