//! The manifest of a baked set: every file of the set and every setting the runtime
//! needs to draw it, without the graph.
//!
//! The type is plain serde; the baker writes it as RON (`manifest.ron`), and a game reads
//! it with the RON crate (or converts it to whatever it prefers).

use crate::cards::CardSettings;
use crate::levels::{LevelReport, LevelSettings};
use crate::mesh::Profile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The manifest format this build writes. 2: a layer's levels share one glTF file, level
/// `k` its node `k` (version 1 wrote one file a level, each level its file's node 0).
pub const MANIFEST_VERSION: u32 = 2;

/// A baked set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The manifest format version.
    pub version: u32,
    /// The material's name.
    pub name: String,
    /// The size of one repeat of the material, in metres.
    pub repeat_m: f32,
    /// PBR maps by role (`base_color`, `normal`, …) → file name.
    pub maps: BTreeMap<String, String>,
    /// Maps with a mip chain as KTX2 files, by map name (`base_color`, `normal`, `orm`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub textures_ktx2: BTreeMap<String, String>,
    /// How the KTX2 files store texels: `rgba8` (the mips as computed) or `bc7` (GPU
    /// blocks); sets baked before it say nothing: RGBA8.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ktx2_codec: String,
    /// The engine the set was baked for (`gltf`, `godot`, `unity`, `unreal`), which
    /// decides the maps beyond glTF's (sets baked before targets say nothing: glTF).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// How many metres a height of 1 in the height map stands for.
    pub height_range_m: f32,
    /// The normal map's tangent-space convention.
    pub normal_convention: String,
    /// The strand file's name.
    pub strands: String,
    /// How the strand file stores its fields: `stored` (exact) or `quantised` (scheme 1,
    /// within the bounds `tuft_strands::file::encoding` states; the meshes were built
    /// from the strands as the file gives them back). Sets baked before it: stored.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub strand_scheme: String,
    /// The ground mesh's file: one repeat wearing the PBR maps (sets baked before it
    /// have none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ground: String,
    /// The scene file (`.gltf`): the ground, every level and the cards at once, the
    /// levels as LOD nodes (sets baked before it have none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scene: String,
    /// The strand layers, in strand-file order.
    pub layers: Vec<LayerManifest>,
    /// Multiplies every switch distance of every layer ([`crate::switches::Switches`]):
    /// a game scales it as it scales its own level-of-detail bias (2 keeps each level
    /// twice as far; the set looks the same at any bias, only its cost changes). Sets
    /// baked before it say nothing: 1.
    #[serde(default = "unit_bias")]
    pub lod_bias: f32,
    /// How the set was made, and what its files hold beyond glTF's own conventions
    /// (sets baked before it say nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<Made>,
}

/// How a set was made and what a game must know of its files that the files do not say:
/// the options the bake took, the custom vertex attributes and what they mean, each
/// map's encoding, and the rules the card level follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Made {
    /// The tool that baked the set and its version (`Tuft 0.1.0`).
    pub generator: String,
    /// The maps' side in texels.
    pub map_resolution: u32,
    /// How the `.glb` meshes store vertices: `none` (32-bit floats), `quantize`
    /// (KHR_mesh_quantization), `meshopt` (EXT_meshopt_compression over the quantised
    /// bytes, which some importers refuse).
    pub mesh_compression: String,
    /// The Zstandard level of the KTX2 files' supercompression.
    pub ktx2_zstd_level: i32,
    /// The share of every layer's strands the bake kept (`tuft bake --keep`; 1 keeps
    /// the graph's).
    pub keep: f32,
    /// Whether every `.glb` carries its images in its binary chunk (the loose PNGs lie
    /// beside it all the same).
    pub images_in_glb: bool,
    /// The custom vertex attributes of the strand and card meshes, by name, with their
    /// type and meaning.
    pub attributes: BTreeMap<String, String>,
    /// Each map file's encoding and convention, by map name.
    pub maps: BTreeMap<String, String>,
    /// How the card level is drawn, as the preview draws it: what a game's shader must
    /// do for the cards to stand for their strands.
    pub cards: String,
}

impl Made {
    /// The attributes' and maps' descriptions and the card rules this build writes.
    #[must_use]
    pub fn conventions() -> (BTreeMap<String, String>, BTreeMap<String, String>, String) {
        let text = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        let attributes = text(&[
            (
                "_WIND",
                "float: 0 at a strand's root to 1 at its tip (cards: the same along the \
                 card's height); how far the vertex sways with the wind. Meshopt sets \
                 (mesh_compression \"meshopt\") leave it off the strand meshes, where it \
                 is TEXCOORD_0.x squared (within 1/255); cards always carry it",
            ),
            (
                "_RANK",
                "float in [0, 1): the strand's rank; level k of a layer keeps the strands \
                 with _RANK below the layer's levels.keep[k], so every level is a prefix \
                 of the finest and a switch drops the highest ranks first",
            ),
        ]);
        let maps = text(&[
            ("base_color", "8-bit sRGB albedo"),
            (
                "normal",
                "8-bit tangent-space normal, OpenGL convention (+Y up the image), as glTF's",
            ),
            ("roughness", "8-bit linear"),
            ("metallic", "8-bit linear"),
            ("occlusion", "8-bit linear ambient occlusion"),
            (
                "height",
                "16-bit linear; 1 stands for height_range_m metres above the lowest point",
            ),
            (
                "orm",
                "8-bit linear: R occlusion, G roughness, B metallic (glTF's packing)",
            ),
            (
                "unity_mask",
                "8-bit linear: R metallic, G occlusion, B detail mask (white), A smoothness \
                 (HDRP and URP Lit's mask map)",
            ),
            (
                "normal_directx",
                "8-bit tangent-space normal, DirectX convention (−Y: green flipped), as \
                 Unreal's",
            ),
        ]);
        let cards = "Each card is two crossed quads wearing its atlas cell, alpha-tested at \
            cards.settings.alpha_cutoff (never blended), double-sided; its vertex colour \
            is its tint, multiplied into the atlas, and its _RANK is its own hash in \
            [0, 1). Over the last strand level's fade band (switches.fade_band) the cards \
            come in through a dither: with the fade f going 0 to 1, a card is drawn while \
            its _RANK is below f. Past the card switch, over the next band, they leave \
            for the surface by sinking: every point's height above its card's root is \
            scaled by 1 - f. A layer whose switches name no card distance (its cards \
            are under a pixel where its last strand level leaves) draws no cards: over \
            its last level's fade band every strand of that level stays and sinks the \
            same way, each point's height above its strand's root scaled by 1 - f. The \
            atlas mips were rescaled so each keeps mip 0's alpha coverage (cards.atlas_coverage): the KTX2 holds that chain. The glTF wears \
            cards.atlas_color_gltf, mip 0 with its alpha redistributed so the chain an \
            engine builds from it by a 2x2 box filter keeps the same coverage down to 4x4 \
            texels a cell (cards.atlas_box_coverage); its texels pass the cutoff where \
            mip 0's do."
            .to_owned();
        (attributes, maps, cards)
    }
}

fn unit_bias() -> f32 {
    1.0
}

impl Manifest {
    /// Every file of the set the manifest names, once each, in the order it names them
    /// (`manifest.ron` and `manifest.json` themselves are not among them).
    #[must_use]
    pub fn files(&self) -> Vec<&str> {
        let mut named: Vec<&str> = self.maps.values().map(String::as_str).collect();
        named.push(&self.strands);
        named.push(&self.ground);
        named.push(&self.scene);
        named.extend(self.textures_ktx2.values().map(String::as_str));
        for layer in &self.layers {
            named.extend(layer.meshes.iter().map(String::as_str));
            named.push(&layer.cards.mesh);
            named.extend(layer.cards.atlas_color.iter().map(String::as_str));
            named.extend(layer.cards.atlas_normal.iter().map(String::as_str));
            named.push(&layer.cards.atlas_color_gltf);
            named.push(&layer.cards.atlas_color_ktx2);
            named.push(&layer.cards.atlas_normal_ktx2);
        }
        let mut seen = std::collections::BTreeSet::new();
        named.retain(|f| !f.is_empty() && seen.insert(*f));
        named
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// One strand layer of a baked set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerManifest {
    /// The layer's name (as in the strand file).
    pub name: String,
    /// How strands are meshed.
    pub profile: Profile,
    /// Rank-cut levels.
    pub levels: LevelSettings,
    /// Each level's counts and measured coverage relative to level 0.
    pub level_reports: Vec<LevelReport>,
    /// For each level, the glTF binary holding its mesh of one repeat laid on a plane:
    /// one file for all the layer's levels, level `k` its mesh and node named
    /// `<layer> level k` (sets baked before that hold one level a file).
    pub meshes: Vec<String>,
    /// The card level.
    pub cards: CardsManifest,
    /// Clump cells per side of the repeat: the lattice the strand file's `clump`
    /// indexes, which cards group by (sets baked before it say 0 and cannot be drawn
    /// without their graph).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub clump_lattice: u32,
    /// Where the layer switches representation with distance, and the figures to work
    /// it out for any view (sets baked before these were written have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches: Option<crate::switches::Switches>,
    /// Variation over the ground at a scale of metres: a game keeps or drops each
    /// placed strand, scales it and tints it, and tints the surface under the layer,
    /// from [`crate::macro_variation::MacroVariation`] of its world position.
    #[serde(
        default,
        skip_serializing_if = "crate::macro_variation::MacroVariation::is_off"
    )]
    pub macro_variation: crate::macro_variation::MacroVariation,
}

/// The card level of a layer in a baked set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardsManifest {
    /// Atlas size, cells and alpha cutoff.
    pub settings: CardSettings,
    /// How many cards one repeat holds.
    pub n_cards: usize,
    /// The cards of one repeat on a plane, as glTF binary.
    pub mesh: String,
    /// Colour + alpha atlas, one PNG per mip level (mip 0 first).
    pub atlas_color: Vec<String>,
    /// Normal atlas (alpha copied), one PNG per mip level.
    pub atlas_normal: Vec<String>,
    /// Fraction of texels passing the alpha cutoff at each mip.
    pub atlas_coverage: Vec<f32>,
    /// The colour atlas the glTF wears: mip 0 with its alpha redistributed so that the
    /// chain an engine builds by a 2×2 box filter keeps its coverage
    /// ([`crate::cards::box_proof`]); texels pass the cutoff where mip 0's do.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub atlas_color_gltf: String,
    /// Fraction of texels passing the alpha cutoff at each level of that box-filtered
    /// chain, down to 4×4 texels a cell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atlas_box_coverage: Vec<f32>,
    /// The colour atlas with its whole mip chain as one KTX2 file (sRGB, Zstandard).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub atlas_color_ktx2: String,
    /// The normal atlas with its whole mip chain as one KTX2 file (linear, Zstandard).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub atlas_normal_ktx2: String,
}
