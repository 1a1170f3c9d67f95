//! A graph evaluated into what the preview renderer draws: the surface maps of one repeat
//! (8-bit, as a baked set holds them) and each strand layer's set and settings.

use tuft_bake::{PbrMaps, bake_pbr_with};
use tuft_graph::MaterialGraph;
use tuft_graph::diag::Diagnostic;
use tuft_graph::eval::Evaluator;
use tuft_render::{Layer, Material, SurfaceMaps};
use tuft_strands::num::linear_to_srgb8;

/// The preview's map resolution: enough for a 2 m repeat seen from a metre away.
pub const PREVIEW_RESOLUTION: usize = 512;

/// Evaluates `graph`: its PBR maps at `resolution²` and every strand layer's set.
///
/// # Errors
/// A resolution out of range, or a layer that cannot be scattered (the message names
/// it).
pub fn from_graph(
    graph: &MaterialGraph,
    resolution: usize,
) -> anyhow::Result<(Material, Vec<Diagnostic>)> {
    from_evaluator(&Evaluator::new(graph), resolution)
}

/// As [`from_graph`], through `evaluator` (which may share a cache of strand sets with
/// other evaluators: [`Evaluator::with_cache`]).
///
/// # Errors
/// As [`from_graph`].
pub fn from_evaluator(
    evaluator: &Evaluator<'_>,
    resolution: usize,
) -> anyhow::Result<(Material, Vec<Diagnostic>)> {
    let maps = maps_of(evaluator, resolution)?;
    // The evaluator's own sets: a layer whose relief the maps read was scattered for
    // them already.
    Ok((wearing(evaluator, maps)?, evaluator.diagnostics()))
}

/// The graph's surface maps at `resolution`², as 8-bit textures.
///
/// # Errors
/// As [`from_graph`].
pub fn maps_of(evaluator: &Evaluator<'_>, resolution: usize) -> anyhow::Result<SurfaceMaps> {
    Ok(surface_maps(&bake_pbr_with(
        evaluator,
        resolution,
        &mut |_| {},
    )?))
}

/// The graph's material wearing `maps`: every strand layer with the set `evaluator`
/// scatters (or has cached).
///
/// # Errors
/// A layer that cannot be scattered.
pub fn wearing(evaluator: &Evaluator<'_>, maps: SurfaceMaps) -> anyhow::Result<Material> {
    let graph = evaluator.graph();
    let mut layers = Vec::with_capacity(graph.strands.len());
    for (name, layer) in &graph.strands {
        // Every scatter error names its layer.
        let set = evaluator.strand_set(name)?;
        layers.push(Layer {
            name: name.clone(),
            set,
            profile: layer.profile,
            levels: layer.levels.clone(),
            cards: layer.cards.clone(),
            clump_lattice: layer.clump_lattice,
            macro_variation: layer.macro_variation,
            level_reports: Vec::new(),
        });
    }
    Ok(Material {
        name: graph.name.clone(),
        repeat_m: graph.repeat_m,
        maps,
        layers,
    })
}

/// The maps as 8-bit textures: base colour sRGB, normal `0.5 + 0.5·n`, and occlusion,
/// roughness, metallic packed in one.
#[must_use]
pub fn surface_maps(maps: &PbrMaps) -> SurfaceMaps {
    let unit = tuft_strands::num::to_unorm8;
    let n = maps.resolution * maps.resolution;
    SurfaceMaps {
        size: maps.resolution as u32,
        base_color: maps
            .base_color
            .iter()
            .map(|c| {
                [
                    linear_to_srgb8(c[0]),
                    linear_to_srgb8(c[1]),
                    linear_to_srgb8(c[2]),
                    255,
                ]
            })
            .collect(),
        normal: maps
            .normal
            .iter()
            .map(|v| {
                [
                    unit(0.5 + 0.5 * v[0]),
                    unit(0.5 + 0.5 * v[1]),
                    unit(0.5 + 0.5 * v[2]),
                    255,
                ]
            })
            .collect(),
        orm: (0..n)
            .map(|i| {
                [
                    unit(maps.occlusion[i]),
                    unit(maps.roughness[i]),
                    unit(maps.metallic[i]),
                    255,
                ]
            })
            .collect(),
    }
}
