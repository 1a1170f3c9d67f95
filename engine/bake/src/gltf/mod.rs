//! glTF binary (`.glb`) files of a baked set: each layer's strand levels (one file, the
//! coarser levels sharing the finest's data), each layer's cards and the ground, every
//! one with a glTF 2.0 material.
//!
//! Strand and card meshes are triangles with `POSITION`, `NORMAL`, `TEXCOORD_0` (along
//! the strand, across it), `COLOR_0` (linear RGB), and the custom `_WIND` (0 at the root,
//! 1 at the tip) and `_RANK`; a mesh is cut between strands into primitives of at most
//! 65 535 vertices, so its indices are 16-bit. By default ([`Encoding::Quantized`]) the
//! attributes are stored as KHR_mesh_quantization allows: positions as 16-bit integers
//! across the mesh's bounds (the node's scale and translation restore metres), normals as
//! 8-bit, texture coordinates as 16-bit and colours as 8-bit normalised integers; `_RANK`
//! stays a float, so a level's cut lands on the same strands, and `_WIND` too, so
//! importers that keep only float custom attributes (Blender) keep it.
//! [`Encoding::Meshopt`] compresses those bytes and makes the smallest set (strand meshes
//! without `_WIND`, positions on a grid set by the strands' width);
//! [`Encoding::Float`] writes 32-bit floats.
//!
//! Materials: strands wear their vertex colour, double-sided for ribbons; cards wear the
//! layer's atlas (colour and normal), alpha-masked at the card settings' cutoff; the ground
//! wears the PBR maps, with occlusion, roughness and metallic packed into one ORM texture
//! (R, G, B) as glTF defines it. Textures are the set's own PNGs, stored in each `.glb`'s
//! binary chunk (named by the loose file's relative URI, which the `.gltf` scene uses).
//! Every material's name is unique in its set (`<material>_<layer>_cards`, …).

mod builder;
mod scene;
mod strands;
mod streams;

pub use builder::Glb;
pub use scene::{LayerParts, Part, encode_scene, scene_of_set};
pub use strands::{Encoding, GRID_STEPS_PER_WIDTH, StrandLevel, StrandMaterial, level_grid_m};

use tuft_strands::mesh::LevelMesh;

/// The PNG bytes of the textures a material names, by their relative URIs: stored in
/// the `.glb` itself.
pub type Pngs = std::collections::BTreeMap<String, Vec<u8>>;

/// Encodes `mesh` as a glTF binary on its own, wearing `material`, whose textures' PNGs
/// `pngs` holds (the file carries them).
#[must_use]
pub fn encode_glb(
    mesh: &LevelMesh,
    name: &str,
    material: &StrandMaterial,
    encoding: Encoding,
    pngs: &Pngs,
) -> Vec<u8> {
    let mut glb = Glb::default();
    for (uri, png) in pngs {
        glb.embed(uri, png.clone());
    }
    if mesh.indices.is_empty() || mesh.vertices.is_empty() {
        // A level or card set without strands: glTF has no empty accessor, buffer or
        // mesh, so the file holds a named node alone (and the scene shows nothing there).
        let node = glb.node(serde_json::json!({ "name": name }));
        return glb.finish(&[node]);
    }
    let m = glb.material(material);
    let tangents = matches!(material, StrandMaterial::Cards { .. });
    let node = glb.strand_node(mesh, name, m, encoding, tangents, 0.0);
    glb.finish(&[node])
}

/// Encodes a layer's strand levels, finest first, as one glTF binary wearing `material`:
/// every level a mesh and a node of its own, the coarser ones sharing the finest's
/// attributes and indices where they are its first strands (see [`Glb::strand_levels`]).
#[must_use]
pub fn encode_levels_glb(
    levels: &[StrandLevel<'_>],
    material: &StrandMaterial,
    encoding: Encoding,
) -> Vec<u8> {
    let mut glb = Glb::default();
    let drawn = levels
        .iter()
        .any(|l| !l.mesh.indices.is_empty() && !l.mesh.vertices.is_empty());
    // A layer without strands: named nodes alone (a material nothing wears is left out).
    let m = if drawn { glb.material(material) } else { 0 };
    let nodes = glb.strand_levels(levels, m, encoding);
    glb.finish(&nodes)
}

/// The ground: one repeat of the material, `cells × cells` quads centred on the origin
/// (Y up, as the strand meshes), wearing the PBR maps named by `maps` (relative URIs of
/// the base colour, normal and ORM textures) as the material `name`.
#[must_use]
pub fn encode_ground(
    repeat_m: f32,
    cells: u32,
    name: &str,
    maps: &GroundMaps,
    pngs: &Pngs,
) -> Vec<u8> {
    let mut glb = Glb::default();
    for (uri, png) in pngs {
        glb.embed(uri, png.clone());
    }
    let material = glb.material(&StrandMaterial::Ground {
        name: name.to_owned(),
        maps: maps.clone(),
    });
    let node = glb.grid_node(repeat_m, cells.max(1), material);
    glb.finish(&[node])
}

/// The relative URIs of the textures the ground wears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroundMaps {
    /// sRGB base colour.
    pub base_color: String,
    /// Tangent-space normal, OpenGL convention (+Y up the image), as glTF's.
    pub normal: String,
    /// Occlusion (R), roughness (G), metallic (B).
    pub orm: String,
}
