//! The PBR bake: the material's surface evaluated on a grid and written as PNG maps.
//!
//! | map | format | content |
//! | --- | --- | --- |
//! | `base_color` | RGB8, sRGB | albedo |
//! | `normal` | RGB8, linear | tangent space, OpenGL (+Y up), `0.5 + 0.5·n` |
//! | `roughness`, `metallic`, `occlusion` | L8, linear | `[0, 1]` |
//! | `height` | L16, linear | `[0, 1]`, one unit = `pbr.height_range_m` metres |
//! | `orm` | RGB8, linear | occlusion, roughness, metallic (glTF's packing) |
//!
//! Texel `(x, y)` holds the field at `((x + ½)/n, (y + ½)/n)`, so the step from the last
//! column to the first is just another step between neighbours: maps of tiling fields
//! wrap seamlessly.

use super::{BakeError, MAX_RESOLUTION, write_into_set};
use std::path::{Path, PathBuf};
use tuft_graph::diag::Diagnostic;
use tuft_graph::eval::Evaluator;
use tuft_graph::field::Domain;
use tuft_graph::graph::{Input, MaterialGraph};
use tuft_graph::nodes::normals_from_height;
use tuft_graph::value::PortType;

/// Points evaluated at once; larger bakes go in bands of rows to bound memory.
const BAND_POINTS: usize = 1 << 20;

/// The surface maps of one repeat, linear floats, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct PbrMaps {
    /// Width and height in texels.
    pub resolution: usize,
    /// Linear RGB albedo.
    pub base_color: Vec<[f32; 3]>,
    /// Unit tangent-space normals.
    pub normal: Vec<[f32; 3]>,
    /// Roughness.
    pub roughness: Vec<f32>,
    /// Metalness.
    pub metallic: Vec<f32>,
    /// Ambient occlusion.
    pub occlusion: Vec<f32>,
    /// Height in `[0, 1]`.
    pub height: Vec<f32>,
}

/// Evaluates the PBR half of `graph` at `resolution²`, reporting each finished band of
/// rows to `progress` as a fraction in `[0, 1]`.
///
/// # Errors
/// A resolution outside `1..=MAX_RESOLUTION`.
pub fn bake_pbr(
    graph: &MaterialGraph,
    resolution: usize,
    progress: &mut dyn FnMut(f32),
) -> Result<(PbrMaps, Vec<Diagnostic>), BakeError> {
    let evaluator = Evaluator::new(graph);
    let maps = bake_pbr_with(&evaluator, resolution, progress)?;
    Ok((maps, evaluator.diagnostics()))
}

/// As [`bake_pbr`], with an evaluator the caller keeps (to share its strand sets and
/// rasters with the rest of a bake); diagnostics stay in the evaluator.
///
/// # Errors
/// A resolution outside `1..=MAX_RESOLUTION`.
pub fn bake_pbr_with(
    evaluator: &Evaluator<'_>,
    resolution: usize,
    progress: &mut dyn FnMut(f32),
) -> Result<PbrMaps, BakeError> {
    let graph = evaluator.graph();
    if resolution == 0 || resolution > MAX_RESOLUTION {
        return Err(BakeError::Resolution(resolution));
    }
    let n = resolution * resolution;
    let pbr = &graph.pbr;
    let mut wanted: Vec<(Input, PortType)> = vec![
        (pbr.base_color.clone(), PortType::Color),
        (pbr.roughness.clone(), PortType::Float),
        (pbr.metallic.clone(), PortType::Float),
        (pbr.occlusion.clone(), PortType::Float),
        (pbr.height.clone(), PortType::Float),
    ];
    if let Some(normal) = &pbr.normal {
        wanted.push((Input::Link(normal.clone()), PortType::Color));
    }
    let mut maps = PbrMaps {
        resolution,
        base_color: Vec::with_capacity(n),
        normal: Vec::with_capacity(n),
        roughness: Vec::with_capacity(n),
        metallic: Vec::with_capacity(n),
        occlusion: Vec::with_capacity(n),
        height: Vec::with_capacity(n),
    };
    let rows_per_band = (BAND_POINTS / resolution).clamp(1, resolution);
    let mut row = 0;
    while row < resolution {
        let rows = rows_per_band.min(resolution - row);
        let domain = Domain::grid_rows(resolution, resolution, row, rows);
        let fields = evaluator.eval_inputs(&wanted, &domain);
        let m = domain.len();
        // Every field comes back of the type asked for: the buffers are the planes.
        debug_assert!(fields.iter().zip(&wanted).all(|(f, (_, ty))| f.ty == *ty));
        maps.base_color
            .extend_from_slice(fields[0].data.as_chunks::<3>().0);
        for (plane, field) in [
            (&mut maps.roughness, &fields[1]),
            (&mut maps.metallic, &fields[2]),
            (&mut maps.occlusion, &fields[3]),
            (&mut maps.height, &fields[4]),
        ] {
            plane.extend_from_slice(&field.data);
        }
        if let Some(normal) = fields.get(5) {
            maps.normal.extend((0..m).map(|i| unit(normal.get(i))));
        }
        row += rows;
        progress(row as f32 / resolution as f32);
    }
    if pbr.normal.is_none() {
        let height: Vec<f32> = maps.height.iter().map(|h| h.clamp(0.0, 1.0)).collect();
        let normals = normals_from_height(
            &height,
            resolution,
            pbr.height_range_m,
            graph.repeat_m.max(1e-6),
        );
        maps.normal = normals.data.as_chunks::<3>().0.to_vec();
    }
    Ok(maps)
}

fn unit(n: [f32; 3]) -> [f32; 3] {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 1e-12 {
        [n[0] / len, n[1] / len, n[2] / len]
    } else {
        [0.0, 0.0, 1.0]
    }
}

pub use tuft_strands::num::linear_to_srgb;
use tuft_strands::num::linear_to_srgb8;

use tuft_graph::naming::MAP_NAMES;
use tuft_strands::num::to_unorm8;

/// The path map `map` of material `stem` is written to in `dir`.
#[must_use]
pub fn map_path(dir: &Path, stem: &str, map: &str) -> PathBuf {
    dir.join(format!("{stem}_{map}.png"))
}

/// `img` as PNG bytes at the encoder's highest deflate level with adaptive filtering:
/// the one PNG encoding of a set (a tenth smaller than the default level on the lawn's
/// maps, and a fifth on its base colour).
///
/// # Errors
/// When the image cannot be encoded.
pub fn png(img: &image::DynamicImage) -> image::ImageResult<Vec<u8>> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut out = Vec::new();
    img.write_with_encoder(PngEncoder::new_with_quality(
        &mut out,
        CompressionType::Best,
        FilterType::Adaptive,
    ))?;
    Ok(out)
}

/// The maps encoded as PNG, in [`MAP_NAMES`] order.
///
/// # Errors
/// When a map cannot be encoded.
pub fn encode_maps(maps: &PbrMaps) -> Result<Vec<Vec<u8>>, image::ImageError> {
    let size = maps.resolution as u32;
    // One map a thread at a time: each PNG's filtering and deflate are one stream.
    let encoded = tuft_strands::par::map("tuft png", MAP_NAMES.to_vec(), |map| match map {
        "base_color" => png(&rgb(size, &maps.base_color, linear_to_srgb8).into()),
        "normal" => png(&rgb(size, &maps.normal, |c| to_unorm8(0.5 + 0.5 * c)).into()),
        // Occlusion, roughness, metallic in R, G, B: glTF's packing.
        "orm" => {
            let mut data = vec![0u8; 3 * maps.occlusion.len()];
            let planes = maps
                .occlusion
                .iter()
                .zip(&maps.roughness)
                .zip(&maps.metallic);
            for (texel, ((&o, &r), &m)) in data.as_chunks_mut::<3>().0.iter_mut().zip(planes) {
                *texel = [o, r, m].map(to_unorm8);
            }
            let img = image::RgbImage::from_raw(size, size, data).expect("three per texel");
            png(&img.into())
        }
        "height" => {
            let data: Vec<u16> = maps
                .height
                .iter()
                .map(|h| (h.clamp(0.0, 1.0) * 65535.0 + 0.5) as u16)
                .collect();
            let img = image::ImageBuffer::<image::Luma<u16>, _>::from_raw(size, size, data)
                .expect("one value per texel");
            png(&img.into())
        }
        _ => {
            let values = match map {
                "roughness" => &maps.roughness,
                "metallic" => &maps.metallic,
                _ => &maps.occlusion,
            };
            let data: Vec<u8> = values.iter().map(|&x| to_unorm8(x)).collect();
            let img = image::GrayImage::from_raw(size, size, data).expect("one value per texel");
            png(&img.into())
        }
    });
    encoded.into_iter().collect()
}

/// Writes the maps into `dir` as `<stem>_<map>.png` (files of a set being written:
/// see [`write_into_set`]); returns their paths in [`MAP_NAMES`] order.
///
/// # Errors
/// When a file cannot be encoded or written.
pub fn write_maps(maps: &PbrMaps, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, BakeError> {
    let encoded = encode_maps(maps).map_err(|e| BakeError::Write {
        path: dir.to_owned(),
        message: e.to_string(),
    })?;
    let mut written = Vec::new();
    for (map, bytes) in MAP_NAMES.iter().zip(encoded) {
        let path = map_path(dir, stem, map);
        write_into_set(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
}

fn rgb(size: u32, texels: &[[f32; 3]], encode: impl Fn(f32) -> u8) -> image::RgbImage {
    let data: Vec<u8> = texels.as_flattened().iter().map(|&x| encode(x)).collect();
    image::RgbImage::from_raw(size, size, data).expect("three values per texel")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuft_graph::{Domain, Evaluator, InRef, OutRef, Sink};

    #[test]
    fn absurd_resolutions_are_refused() {
        let g = MaterialGraph::new("x");
        assert!(matches!(
            bake_pbr(&g, 0, &mut |_| {}),
            Err(BakeError::Resolution(0))
        ));
        assert!(bake_pbr(&g, 100_000, &mut |_| {}).is_err());
    }

    #[test]
    fn banded_bakes_match_a_single_pass() {
        // 1100² needs more than one band of BAND_POINTS.
        let mut g = MaterialGraph::new("x");
        let noise = g.add_node("Noise").unwrap();
        g.pbr.height = Input::Link(OutRef::new(noise, "out"));
        let (maps, _) = bake_pbr(&g, 1100, &mut |_| {}).unwrap();
        assert_eq!(maps.resolution, 1100);
        let ev = Evaluator::new(&g);
        let full = ev
            .eval_output(&OutRef::new(noise, "out"), &Domain::grid(1100, 1100))
            .unwrap();
        assert_eq!(maps.height, full.data);
    }

    #[test]
    fn srgb_encoding_hits_known_points() {
        assert_eq!(linear_to_srgb(0.0), 0.0);
        assert!((linear_to_srgb(1.0) - 1.0).abs() < 1e-6);
        assert!((linear_to_srgb(0.214_041) - 0.5).abs() < 1e-3);
    }

    #[test]
    fn a_float_feeds_a_colour_as_grey() {
        // As the peers do: a Float output wired where a Color is expected reads as grey.
        let mut g = MaterialGraph::new("grey");
        let noise = g.add_node("Noise").unwrap();
        g.connect(
            OutRef::new(noise, "out"),
            &InRef::Sink(Sink::Pbr("base_color".into())),
        )
        .expect("a Float into a Color is accepted");
        let report = tuft_graph::validate(&g);
        assert!(!report.has_errors(), "{:#?}", report.diagnostics);
        let (maps, _) = bake_pbr(&g, 8, &mut |_| {}).unwrap();
        let noise_field = Evaluator::new(&g)
            .eval_output(&OutRef::new(noise, "out"), &Domain::grid(8, 8))
            .unwrap();
        for (c, x) in maps.base_color.iter().zip(&noise_field.data) {
            assert_eq!(*c, [*x, *x, *x]);
        }
        // A Color into a Float is still refused.
        let ramp = g.add_node("ColorRamp").unwrap();
        assert!(
            g.connect(
                OutRef::new(ramp, "out"),
                &InRef::Sink(Sink::Pbr("roughness".into())),
            )
            .is_err()
        );
    }
}
