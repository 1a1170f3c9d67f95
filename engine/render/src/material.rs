//! What the renderer draws: a material as a game holds it once baked — the surface maps
//! of one repeat and the strand layers with their settings.

use std::sync::Arc;
use tuft_strands::StrandSet;
use tuft_strands::cards::CardSettings;
use tuft_strands::levels::LevelSettings;
use tuft_strands::macro_variation::MacroVariation;
use tuft_strands::mesh::Profile;

/// The surface maps of one repeat, square, row-major, 8 bits per channel.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceMaps {
    /// Side in texels.
    pub size: u32,
    /// Base colour, sRGB, alpha unused.
    pub base_color: Vec<[u8; 4]>,
    /// Tangent-space normal (`0.5 + 0.5·n`, OpenGL convention, +y along +v).
    pub normal: Vec<[u8; 4]>,
    /// Ambient occlusion, roughness, metallic in r, g, b (linear).
    pub orm: Vec<[u8; 4]>,
}

impl SurfaceMaps {
    /// A single-texel surface of one colour (sRGB), flat, fully rough, not metallic.
    #[must_use]
    pub fn flat(srgb: [u8; 3]) -> Self {
        Self {
            size: 1,
            base_color: vec![[srgb[0], srgb[1], srgb[2], 255]],
            normal: vec![[128, 128, 255, 255]],
            orm: vec![[255, 255, 0, 255]],
        }
    }

    /// The mean linear base colour over the map's texels.
    #[must_use]
    pub fn mean_base_linear(&self) -> [f32; 3] {
        let n = self.base_color.len().max(1) as f32;
        let mut sum = [0.0f32; 3];
        for p in &self.base_color {
            for (s, &c) in sum.iter_mut().zip(p) {
                *s += tuft_strands::num::srgb8_to_linear(c);
            }
        }
        sum.map(|s| s / n)
    }

    /// Whether every map holds `size²` texels.
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        let n = (self.size as usize).pow(2);
        self.size > 0 && self.base_color.len() == n && self.normal.len() == n && self.orm.len() == n
    }
}

/// One strand layer: its set over one repeat and what the runtime needs to draw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The layer's name.
    pub name: String,
    /// The strands of one repeat, sorted by rank (shared: an editor keeps the sets it
    /// scattered, and a scene rebuilt around an unchanged set reuses its cards).
    pub set: Arc<StrandSet>,
    /// How strands are meshed.
    pub profile: Profile,
    /// Rank-cut levels.
    pub levels: LevelSettings,
    /// The card level.
    pub cards: CardSettings,
    /// Clump cells per side of the repeat (cards group by clump).
    pub clump_lattice: u32,
    /// Variation over the ground at a scale of metres.
    pub macro_variation: MacroVariation,
    /// The coverage of each level as the set was baked (its manifest's figures); empty
    /// for a material made from a graph, whose figures the editor measures itself.
    pub level_reports: Vec<tuft_strands::levels::LevelReport>,
}

impl Material {
    /// The macro variation the surface follows: its first layer's (the ground's main
    /// cover), whose tint it takes so strands, cards and relief agree.
    #[must_use]
    pub fn ground_variation(&self) -> MacroVariation {
        self.layers
            .first()
            .map_or(MacroVariation::OFF, |l| l.macro_variation)
    }
}

/// A material ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// The material's name.
    pub name: String,
    /// The size of one repeat in metres.
    pub repeat_m: f32,
    /// The surface maps.
    pub maps: SurfaceMaps,
    /// The strand layers.
    pub layers: Vec<Layer>,
}
