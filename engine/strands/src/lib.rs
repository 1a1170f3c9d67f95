//! # tuft-strands — the runtime half of Tuft
//!
//! Everything a game needs after a material's strands have been scattered: the
//! [`StrandSet`] (one layer's strands over one repeat, field-major, sorted by rank), the
//! strand file that carries sets to a game ([`file`]), the relief splat
//! ([`relief`]), the strand's shape ([`shape`]) and counter-based hashing ([`hash`]).
//! This crate depends on glam, serde, thiserror and bytemuck only; it never learns about
//! the material graph, egui or wgpu (see `ARCHITECTURE.md`).
//!
//! Conventions shared by every Tuft crate: UV coordinates lie in `[0, 1)` over one
//! repeat of the material, lengths are in metres, angles are in turns (1 turn = 360°).
//!
//! ```
//! use tuft_strands::file::{StrandFile, decode, encode};
//! use tuft_strands::StrandSet;
//!
//! let mut set = StrandSet::with_capacity(1);
//! set.root_uv.push([0.25, 0.5]);
//! set.rank.push(0.1);
//! set.clump.push(0);
//! set.length.push(0.06);
//! set.width.push(0.003);
//! set.lean.push([0.1, 0.0]);
//! set.bend.push(0.3);
//! set.root_color.push([0.03, 0.06, 0.01]);
//! set.tip_color.push([0.2, 0.3, 0.05]);
//! set.tip_pull.push([0.0, 0.0]);
//! set.id.push(7);
//! set.fill_neutral_groom(); // no curl or frizz, the default taper
//!
//! let file = StrandFile { repeat_m: 2.0, layers: vec![("blades".into(), set)] };
//! let bytes = encode(&file);
//! assert_eq!(decode(&bytes).unwrap(), file);
//! // A level keeping a quarter of the strands draws the prefix with rank < 0.25.
//! assert_eq!(file.layers[0].1.level_len(0.25), 1);
//! ```

pub mod buckets;
pub mod canopy;
pub mod cards;
pub mod cover;
pub mod crc;
#[cfg(target_arch = "x86_64")]
pub(crate) mod f8;
pub mod file;
pub mod hash;
pub mod levels;
pub mod macro_variation;
pub mod manifest;
pub mod mesh;
pub mod num;
pub mod par;
pub mod placement;
pub mod read;
pub mod relief;
pub mod set;
pub mod shape;
pub mod simd;
pub mod surface;
pub mod switches;

pub use set::StrandSet;

#[cfg(test)]
pub(crate) mod testing {
    //! Fixtures shared by the unit tests.
    use crate::StrandSet;
    use crate::hash::{hash, unit_f32};

    /// `n` strands with random roots over the repeat, ranks ascending, lengths 4–7 cm,
    /// width 3 mm, random leans, clumps on a `clumps × clumps` grid of the roots.
    pub fn random_set(n: usize, seed: u64, clumps: u32) -> StrandSet {
        let mut s = StrandSet::with_capacity(n);
        let c = clumps.max(1);
        for i in 0..n {
            let h = |k| unit_f32(hash(seed, i as u64, k));
            let root = [h(0), h(1)];
            s.root_uv.push(root);
            s.rank.push(i as f32 / n as f32);
            s.clump
                .push((root[1] * c as f32) as u32 * c + (root[0] * c as f32) as u32);
            s.length.push(0.04 + 0.03 * h(2));
            s.width.push(0.003);
            s.lean.push([h(3) - 0.5, h(4) - 0.5]);
            s.bend.push(0.4);
            s.root_color.push([0.02, 0.05, 0.01]);
            s.tip_color.push([0.2, 0.3, 0.05]);
            s.tip_pull.push([0.0; 2]);
            s.id.push(i as u32);
        }
        s.fill_neutral_groom();
        s
    }
}
