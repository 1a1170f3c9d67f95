//! The shaders and the structs the CPU writes for them, side by side: the WGSL sources
//! (`common.wgsl` first in every module), and each uniform as the shaders declare it,
//! held to naga's reading of the WGSL by the tests in `layouts.rs`.

use bytemuck::{Pod, Zeroable};

/// The WGSL every pass starts with.
pub const COMMON_WGSL: &str = include_str!("common.wgsl");
/// The surface pass.
pub const SURFACE_WGSL: &str = include_str!("surface.wgsl");
/// Strands and cards.
pub const STRANDS_WGSL: &str = include_str!("strands.wgsl");

/// Each shader module's full source: the common part, then the pass's own.
#[must_use]
pub fn shader_sources() -> [(&'static str, String); 2] {
    [
        ("surface", format!("{COMMON_WGSL}\n{SURFACE_WGSL}")),
        ("strands", format!("{COMMON_WGSL}\n{STRANDS_WGSL}")),
    ]
}

/// The shaders' `Frame` struct.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct FrameUniform {
    pub(crate) view_proj: [[f32; 4]; 4],
    pub(crate) eye: [f32; 4],
    pub(crate) sun_dir: [f32; 4],
    pub(crate) sun_color: [f32; 4],
    pub(crate) sky_color: [f32; 4],
    pub(crate) ground_color: [f32; 4],
    pub(crate) wind: [f32; 4],
    pub(crate) options: [f32; 4],
    /// The first layer's tint at a full patch (rgb) and its patch size in metres (w);
    /// then per octave, the lattice point (x, z) the ground's lattice map starts at
    /// (`scene::GroundTint`; read where `options.w` is 1).
    pub(crate) ground_tint: [f32; 4],
    pub(crate) ground_lattice: [f32; 4],
    pub(crate) canopy: CanopyUniform,
}

/// The canopy as the shaders' `Frame` holds it (`common.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct CanopyUniform {
    /// Each slice's face area per tilt class, top first.
    area: [[f32; 4]; CANOPY_SLICES],
    /// Slice `k`, class `c` at `k · 4 + c`: its mean colour (rgb, 0) and its mean of
    /// colour times place along the strands.
    color: [[f32; 4]; CANOPY_SLICES * 4],
    color_along: [[f32; 4]; CANOPY_SLICES * 4],
    /// The maps' mean linear base colour (rgb), and the canopy's height in metres.
    ground: [f32; 4],
    /// Each tilt class's mean normal height.
    tilt: [f32; 4],
    /// Class `c`'s share of faces in azimuth bin `i` at `[4c + i / 4][i % 4]`.
    azimuth: [[f32; 4]; 16],
}

use tuft_strands::canopy::SLICES as CANOPY_SLICES;

// The shaders hold the tilt classes in one `vec4`.
const _: () = assert!(tuft_strands::canopy::TILTS == 4 && tuft_strands::canopy::AZIMUTHS == 16);

impl CanopyUniform {
    pub(crate) fn new(canopy: &tuft_strands::canopy::Canopy, ground: glam::Vec3) -> Self {
        let mut out = Self::zeroed();
        for (k, slice) in canopy.slices.iter().enumerate() {
            out.area[k] = slice.area;
            for c in 0..tuft_strands::canopy::TILTS {
                let [r, g, b] = slice.color[c];
                out.color[k * 4 + c] = [r, g, b, 0.0];
                let [r, g, b] = slice.color_along[c];
                out.color_along[k * 4 + c] = [r, g, b, 0.0];
            }
        }
        out.ground = ground.extend(canopy.height_m).to_array();
        out.tilt = canopy.tilt;
        for (c, bins) in canopy.azimuth.iter().enumerate() {
            for (i, share) in bins.iter().enumerate() {
                out.azimuth[4 * c + i / 4][i % 4] = *share;
            }
        }
        out
    }
}

/// Per-draw parameters, as the shaders' `Draw` struct (96 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct DrawParams {
    /// Width factor of the level drawn.
    pub widen_cur: f32,
    /// Width factor of the next level.
    pub widen_next: f32,
    /// Transition to the next representation, 0..1 (for cards: how far they have sunk
    /// on their way to the relief).
    pub fade: f32,
    /// Rank cut of the level drawn.
    pub keep_cur: f32,
    /// Rank cut of the next level (0 when the next is the cards).
    pub keep_next: f32,
    /// Cards whose hash is below this are drawn.
    pub card_visible: f32,
    /// The atlas's alpha-test cutoff.
    pub alpha_cutoff: f32,
    /// Vertices per strand or card: a vertex's strand in its tile is its index divided
    /// by this.
    pub verts_per_strand: u32,
    /// Overlay colour (linear RGB, a = 1).
    pub overlay: [f32; 4],
    /// From how far (metres from the eye) strands and cards begin to blend toward the
    /// surface behind them, and where they have become it (`f32::MAX` twice: never); for
    /// the surface, where the ground between the strands turns to the canopy.
    pub blend_m: [f32; 2],
    /// Cards: how far along its strands a point of the picture is, on average, per unit
    /// of its height in the picture (strands: 1).
    pub along_scale: f32,
    /// 1 where each stored vertex is drawn as two, its sides (a paired
    /// [`tuft_strands::mesh::TileMesh`]: ribbons); 0 for tubes and cards.
    pub paired: u32,
    /// The layer's macro tint at a full patch (the surface's: its first layer's);
    /// each root carries its patch value.
    pub macro_tint: [f32; 3],
    /// How much shorter the layer's strands are in a full patch.
    pub macro_length: f32,
    /// How far the strands have sunk toward their roots (0: standing, 1: flat on the
    /// ground): the last level of a layer without cards, over its fade to the relief.
    pub sink: f32,
    /// Pads the struct to the uniform's 16-byte stride.
    pub pad: [f32; 3],
}

/// The shaders' `Tile`: the box a tile's positions are 16-bit fractions of.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct TileUniform {
    /// xyz: the box's corner, metres.
    pub(crate) origin: [f32; 4],
    /// xyz: the box's size, metres.
    pub(crate) extent: [f32; 4],
}

#[cfg(test)]
mod layouts;
#[cfg(test)]
mod shader_validation;
