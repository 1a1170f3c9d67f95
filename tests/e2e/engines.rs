//! What engines and DCC tools read of a baked set, checked for every preset and target:
//! each material's name stands for one material only (importers keep one material per
//! name), every texture a material wears is inside its `.glb` and the same as the loose
//! PNG beside it, the custom attributes are floats and present where the manifest says,
//! the cards' colour keeps its coverage down the chain an engine builds from it, and
//! every KTX2 descriptor is the byte sequence the Khronos Data Format Specification gives
//! for its format.

use std::collections::BTreeMap;
use tuft_bake::{self as bake, targets::Target};
use tuft_graph::Evaluator;
use tuft_tests::glb::Glb;
use tuft_tests::ktx2::Ktx2;
use tuft_tests::root;

/// The descriptor of an RGBA8 texture, written out from the specification (KDFS 1.3,
/// section 5): total size 92; vendor 0, type 0; version 2, block size 88; model RGBSDA
/// (1), primaries BT.709 (1), transfer sRGB (2) or linear (1), flags 0; 1 × 1 texels;
/// 4 bytes in plane 0; then R, G, B at bit offsets 0, 8, 16 and A at 24, each 8 bits,
/// 0 to 255, A marked linear (0x10) in an sRGB texture.
fn rgba8_descriptor(srgb: bool) -> Vec<u8> {
    let mut d = vec![92, 0, 0, 0, 0, 0, 0, 0, 2, 0, 88, 0];
    d.extend([1, 1, if srgb { 2 } else { 1 }, 0, 0, 0, 0, 0]);
    d.extend([4, 0, 0, 0, 0, 0, 0, 0]);
    for (offset, channel) in [
        (0u8, 0u8),
        (8, 1),
        (16, 2),
        (24, if srgb { 0x1f } else { 0x0f }),
    ] {
        d.extend([offset, 0, 7, channel, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0]);
    }
    d
}

/// The descriptor of a BC7 texture: total 44; block size 40; model BC7 (134); 4 × 4
/// texels (stored as 3, 3); 16 bytes in plane 0; one sample, the 128-bit block,
/// channel 0, 0 to 2³² − 1.
fn bc7_descriptor(srgb: bool) -> Vec<u8> {
    let mut d = vec![44, 0, 0, 0, 0, 0, 0, 0, 2, 0, 40, 0];
    d.extend([134, 1, if srgb { 2 } else { 1 }, 0, 3, 3, 0, 0]);
    d.extend([16, 0, 0, 0, 0, 0, 0, 0]);
    d.extend([0, 0, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255]);
    d
}

/// Checks the set in `dir`; what is wrong, each a line.
fn check_set(dir: &std::path::Path, label: &str, bc7: bool, compression: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let manifest = crate::baked_set::manifest(dir);
    // What the manifest says of the set is what the set holds.
    let Some(made) = &manifest.made else {
        return vec![format!(
            "{label}: the manifest says nothing of how the set was made"
        )];
    };
    if !made.images_in_glb
        || made.ktx2_zstd_level != tuft_bake::ktx2::ZSTD_LEVEL
        || made.map_resolution != 32
        || made.mesh_compression != compression
        || !made.generator.starts_with("Tuft ")
    {
        wrong.push(format!(
            "{label}: the manifest's record of the bake: {made:?}"
        ));
    }
    for attribute in ["_WIND", "_RANK"] {
        if !made.attributes.contains_key(attribute) {
            wrong.push(format!(
                "{label}: the manifest does not describe {attribute}"
            ));
        }
    }
    for map in manifest.maps.keys() {
        if !made.maps.contains_key(map) {
            wrong.push(format!(
                "{label}: the manifest does not say how {map} is encoded"
            ));
        }
    }
    // Every .glb of the set: the ground, every level, every layer's cards.
    let mut glbs = vec![manifest.ground.clone()];
    for layer in &manifest.layers {
        glbs.extend(layer.meshes.iter().cloned());
        glbs.push(layer.cards.mesh.clone());
    }
    let mut named: BTreeMap<String, (String, serde_json::Value)> = BTreeMap::new();
    for file in &glbs {
        let glb = Glb::read(&dir.join(file));
        for material in glb.json["materials"].as_array().into_iter().flatten() {
            let name = material["name"].as_str().unwrap_or_default().to_owned();
            if let Some((first, seen)) = named.get(&name)
                && seen != material
            {
                wrong.push(format!(
                    "{label}: material {name:?} of {file} is another than {first}'s"
                ));
            }
            named
                .entry(name)
                .or_insert_with(|| (file.clone(), material.clone()));
            for key in ["normalTexture", "occlusionTexture"]
                .into_iter()
                .map(|k| &material[k])
                .chain([
                    &material["pbrMetallicRoughness"]["baseColorTexture"],
                    &material["pbrMetallicRoughness"]["metallicRoughnessTexture"],
                ])
                .filter(|t| t.get("index").is_some())
            {
                let uri = glb.texture_uri(key);
                let loose = std::fs::read(dir.join(&uri));
                match (glb.texture_bytes(key), loose) {
                    (Some(inside), Ok(loose)) if inside == loose => {
                        if image::load_from_memory(&inside).is_err() {
                            wrong.push(format!("{label}: {file}'s {uri} does not decode"));
                        }
                    }
                    (None, _) => wrong.push(format!("{label}: {file} names {uri} outside itself")),
                    (Some(_), Err(e)) => wrong.push(format!("{label}: {uri} beside {file}: {e}")),
                    (Some(_), Ok(_)) => {
                        wrong.push(format!(
                            "{label}: {file}'s {uri} differs from the loose file"
                        ));
                    }
                }
            }
        }
        // `_RANK` on every strand and card mesh, `_WIND` too but where the manifest
        // says a meshopt set leaves it off the strands; floats, which every importer keeps.
        let strand_levels = manifest.layers.iter().any(|l| l.meshes.contains(file));
        let no_wind = made.mesh_compression == "meshopt" && strand_levels;
        let checked = if file == &manifest.ground || glb.json.get("meshes").is_none() {
            Vec::new()
        } else {
            vec![("_WIND", !no_wind), ("_RANK", true)]
        };
        for (attribute, wanted) in checked {
            // Every mesh of the file: a layer's levels share one.
            let as_said = glb.json["meshes"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|m| m["primitives"].as_array().unwrap())
                .all(|p| match p["attributes"][attribute].as_u64() {
                    Some(k) => wanted && glb.json["accessors"][k as usize]["componentType"] == 5126,
                    None => !wanted,
                });
            if !as_said {
                let should = if wanted { "a float" } else { "no" };
                wrong.push(format!("{label}: {file} should have {should} {attribute}"));
            }
        }
    }
    // The cards' colour as an engine samples it: the chain it builds from the glTF's
    // image by a 2×2 box filter keeps mip 0's coverage down to 4×4 texels a cell.
    for layer in &manifest.layers {
        let cards = &layer.cards;
        let glb = Glb::read(&dir.join(&cards.mesh));
        let texture = glb.material(0)["pbrMetallicRoughness"]["baseColorTexture"]["index"]
            .as_u64()
            .unwrap() as usize;
        let image = glb.json["textures"][texture]["source"].as_u64().unwrap() as usize;
        if glb.json["images"][image]["name"] != cards.atlas_color_gltf.as_str() {
            wrong.push(format!("{label}: {} wears another atlas", cards.mesh));
        }
        let png = image::open(dir.join(&cards.atlas_color_gltf))
            .unwrap()
            .to_rgba8();
        let cell = png.width() / cards.settings.atlas_cells;
        let levels = (cell / 4).ilog2() as usize;
        let coverage = box_chain(&png, cards.settings.alpha_cutoff, levels);
        for (k, (&c, side)) in coverage
            .iter()
            .zip((0..).map(|k| png.width() >> k))
            .enumerate()
        {
            // Within 2% of mip 0's share, or one texel of the level where that is less.
            let texel = 1.0 / f64::from(side * side);
            if (c - coverage[0]).abs() > (0.02 * coverage[0]).max(texel) {
                wrong.push(format!(
                    "{label}: {}'s box-filtered level {k} covers {c}, mip 0 {}",
                    layer.name, coverage[0]
                ));
            }
        }
    }
    // Every KTX2 file, its descriptor against the specification's bytes.
    let mut ktx2: Vec<(String, bool)> = manifest
        .textures_ktx2
        .iter()
        .map(|(map, file)| (file.clone(), map == "base_color"))
        .collect();
    for layer in &manifest.layers {
        ktx2.push((layer.cards.atlas_color_ktx2.clone(), true));
        ktx2.push((layer.cards.atlas_normal_ktx2.clone(), false));
    }
    for (file, srgb) in ktx2 {
        let expected = if bc7 {
            bc7_descriptor(srgb)
        } else {
            rgba8_descriptor(srgb)
        };
        if Ktx2::read(&dir.join(&file)).dfd != expected {
            wrong.push(format!("{label}: {file}'s data format descriptor"));
        }
    }
    wrong
}

/// The share of texels passing `cutoff` at each level of the chain a renderer builds
/// from `png` by a 2×2 box filter, each level from the one before rounded to 8 bits
/// (what `glGenerateMipmap` and engines' importers do): mip 0 first, `levels` below.
/// Written here again, not `tuft_strands::cards::box_chain_coverage`: the bake measures
/// its own proofing with that, and this test reads the PNG as an engine would.
fn box_chain(png: &image::RgbaImage, cutoff: f32, levels: usize) -> Vec<f64> {
    let mut side = png.width() as usize;
    let mut alpha: Vec<u32> = png.pixels().map(|p| u32::from(p[3])).collect();
    let mut out = Vec::new();
    for k in 0..=levels {
        let passing = alpha
            .iter()
            .filter(|&&a| a as f32 / 255.0 >= cutoff)
            .count();
        out.push(passing as f64 / alpha.len() as f64);
        if k == levels {
            break;
        }
        let half = side / 2;
        let at = |x: usize, y: usize| alpha[y * side + x];
        alpha = (0..half * half)
            .map(|i| {
                let (x, y) = (2 * (i % half), 2 * (i / half));
                (at(x, y) + at(x + 1, y) + at(x, y + 1) + at(x + 1, y + 1) + 2) / 4
            })
            .collect();
        side = half;
    }
    out
}

#[test]
fn every_preset_for_every_target_lands_as_engines_read_it() {
    let mut wrong = Vec::new();
    for (preset, _) in tuft_editor::PRESETS {
        let graph = tuft_graph::io::load(&root().join(format!("presets/{preset}.ron")))
            .unwrap()
            .graph;
        let evaluator = Evaluator::new(&graph);
        for (target_name, target) in Target::NAMES {
            // One codec a preset: the BC7 blocks on the moss, RGBA8 elsewhere; and meshopt
            // on the carpet's glTF (the strands without `_WIND`, as its manifest says).
            let bc7 = preset == "moss" && target == Target::Gltf;
            let meshopt = preset == "carpet" && target == Target::Gltf;
            let options = bake::BakeOptions {
                resolution: 32,
                target,
                ktx2: if bc7 {
                    tuft_bake::ktx2::Codec::Bc7
                } else {
                    tuft_bake::ktx2::Codec::Rgba8
                },
                encoding: if meshopt {
                    tuft_bake::gltf::Encoding::Meshopt
                } else {
                    bake::BakeOptions::default().encoding
                },
                ..bake::BakeOptions::default()
            };
            let dir = tempfile::tempdir().unwrap();
            bake::write_baked_set_with(
                &evaluator,
                dir.path(),
                &options,
                &mut |_, _| {},
                &std::sync::atomic::AtomicBool::new(false),
            )
            .unwrap();
            wrong.extend(check_set(
                dir.path(),
                &format!("{preset} {target_name}"),
                bc7,
                if meshopt { "meshopt" } else { "quantize" },
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
