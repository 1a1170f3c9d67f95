//! # tuft-strands — the runtime half of Tuft
//!
//! Everything a game needs after a material's strands have been scattered: counter-based
//! hashing today; the strand set, the strand file, levels, placement, meshes and cards as
//! they land. This crate depends on glam, serde, thiserror and bytemuck only; it never
//! learns about the material graph, egui or wgpu (see `ARCHITECTURE.md`).
//!
//! Conventions shared by every Tuft crate: UV coordinates lie in `[0, 1)` over one
//! repeat of the material, lengths are in metres, angles are in turns (1 turn = 360°).
//!
//! ```
//! use tuft_strands::hash::{hash, unit_f32};
//! // The same (seed, index, channel) always gives the same number in [0, 1).
//! let a = unit_f32(hash(42, 7, 0));
//! assert_eq!(a, unit_f32(hash(42, 7, 0)));
//! assert!((0.0..1.0).contains(&a));
//! ```

pub mod hash;
