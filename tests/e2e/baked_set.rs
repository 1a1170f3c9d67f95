//! The baked set: glTF meshes that read back, and a runtime that meshes the manifest and
//! strand file to exactly the triangles the graph path wrote.

use tuft_bake as bake;
use tuft_bake::gltf::{Encoding, level_grid_m};
use tuft_graph::Evaluator;
use tuft_strands::manifest::Manifest;
use tuft_strands::mesh::{Profile, level_mesh, repeat_tiles};
use tuft_tests::glb::Glb;
use tuft_tests::root;

/// Bakes moss (the smallest preset) into a temporary folder.
pub(crate) fn baked_moss() -> (tempfile::TempDir, tuft_graph::MaterialGraph) {
    baked_moss_as(Encoding::default())
}

/// Bakes moss with its meshes stored as `encoding` says.
pub(crate) fn baked_moss_as(encoding: Encoding) -> (tempfile::TempDir, tuft_graph::MaterialGraph) {
    baked_moss_with(&bake::BakeOptions {
        resolution: 64,
        encoding,
        ..bake::BakeOptions::default()
    })
}

/// Bakes moss as `options` say.
fn baked_moss_with(options: &bake::BakeOptions) -> (tempfile::TempDir, tuft_graph::MaterialGraph) {
    let graph = tuft_graph::io::load(&root().join("presets/moss.ron"))
        .unwrap()
        .graph;
    let dir = tempfile::tempdir().unwrap();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    bake::write_baked_set_with(
        &Evaluator::new(&graph),
        dir.path(),
        options,
        &mut |_, _| {},
        &cancel,
    )
    .unwrap();
    (dir, graph)
}

pub(crate) fn manifest(dir: &std::path::Path) -> Manifest {
    ron::from_str(&std::fs::read_to_string(dir.join("manifest.ron")).unwrap()).unwrap()
}

#[test]
fn the_manifest_names_every_file_of_the_set() {
    let (dir, graph) = baked_moss();
    let m = manifest(dir.path());
    assert_eq!(m.repeat_m, graph.repeat_m);
    assert_eq!(m.maps.len(), 7);
    let mut named: Vec<String> = m.maps.values().cloned().collect();
    named.push(m.strands.clone());
    named.push(m.ground.clone());
    named.push(m.scene.clone());
    named.extend(m.textures_ktx2.values().cloned());
    for layer in &m.layers {
        assert_eq!(layer.meshes.len(), layer.levels.keep.len());
        assert_eq!(layer.level_reports.len(), layer.levels.keep.len());
        assert_eq!(layer.profile, graph.strands[&layer.name].profile);
        named.extend(layer.meshes.iter().cloned());
        named.push(layer.cards.mesh.clone());
        named.extend(layer.cards.atlas_color.iter().cloned());
        named.extend(layer.cards.atlas_normal.iter().cloned());
        named.push(layer.cards.atlas_color_ktx2.clone());
        named.push(layer.cards.atlas_normal_ktx2.clone());
        named.push(layer.cards.atlas_color_gltf.clone());
        assert!(layer.cards.n_cards > 0);
        let cov = &layer.cards.atlas_coverage;
        for c in cov.iter().take(6) {
            assert!((c - cov[0]).abs() <= 0.02, "{}: {cov:?}", layer.name);
        }
    }
    named.push("manifest.ron".into());
    named.push("manifest.json".into());
    // The JSON manifest says what the RON one says.
    let json: Manifest =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(json, m);
    let mut present: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    present.sort();
    named.sort();
    // A layer's levels share one file.
    named.dedup();
    assert_eq!(
        present, named,
        "the folder holds exactly what the manifest names"
    );
}

#[test]
fn the_gltf_meshes_read_back_with_their_counts_and_materials() {
    let (dir, _) = baked_moss();
    let m = manifest(dir.path());
    for layer in &m.layers {
        for (level_idx, file) in layer.meshes.iter().enumerate() {
            let glb = Glb::read(&dir.path().join(file));
            assert_eq!(glb.json["extensionsRequired"][0], "KHR_mesh_quantization");
            let positions = glb.positions(level_idx);
            let indices = glb.indices(level_idx);
            // Primitives of at most 2^16 vertices, so every index is 16-bit.
            let mesh = &glb.json["meshes"]
                [glb.json["nodes"][level_idx]["mesh"].as_u64().unwrap() as usize]["primitives"];
            for p in mesh.as_array().unwrap() {
                let k = p["indices"].as_u64().unwrap() as usize;
                assert_eq!(glb.json["accessors"][k]["componentType"], 5123, "{file}");
                // 0xFFFF restarts a strip; glTF forbids it in indices.
                assert!(glb.accessor(k).iter().all(|i| i[0] < 65535.0), "{file}");
            }
            assert!(
                glb.primitive_count(level_idx) >= positions.len().div_ceil(65535),
                "{file}"
            );
            let strands = layer.level_reports[level_idx].strands;
            assert_eq!(
                positions.len(),
                strands * layer.profile.vertices_per_strand(),
                "{file}"
            );
            assert_eq!(
                indices.len(),
                strands * layer.profile.indices_per_strand(),
                "{file}"
            );
            assert!(indices.iter().all(|&i| (i as usize) < positions.len()));
            for attribute in ["NORMAL", "TEXCOORD_0", "COLOR_0", "_WIND", "_RANK"] {
                let values = glb
                    .attribute(level_idx, attribute)
                    .unwrap_or_else(|| panic!("{attribute}"));
                assert_eq!(values.len(), positions.len(), "{file} {attribute}");
            }
            // Custom attributes as floats, the type every importer keeps (Blender drops
            // 16-bit ones and fails on 8-bit normalised scalars).
            for attribute in ["_WIND", "_RANK"] {
                for p in mesh.as_array().unwrap() {
                    let k = p["attributes"][attribute].as_u64().unwrap() as usize;
                    assert_eq!(
                        glb.json["accessors"][k]["componentType"], 5126,
                        "{file} {attribute}"
                    );
                }
            }
            // One file for the layer's levels; a coarser level stores its positions
            // alone, reading every other attribute and its indices from level 0's views.
            assert!(layer.meshes.iter().all(|f| f == file), "{file}");
            let views_of = |node: usize| -> Vec<(String, u64)> {
                let m = glb.json["nodes"][node]["mesh"].as_u64().unwrap() as usize;
                let mut views = Vec::new();
                for p in glb.json["meshes"][m]["primitives"].as_array().unwrap() {
                    let mut accessors: Vec<(String, u64)> = p["attributes"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(name, a)| (name.clone(), a.as_u64().unwrap()))
                        .collect();
                    accessors.push(("indices".into(), p["indices"].as_u64().unwrap()));
                    views.extend(accessors.into_iter().map(|(name, a)| {
                        let view = glb.json["accessors"][a as usize]["bufferView"].as_u64();
                        (name, view.unwrap())
                    }));
                }
                views.sort();
                views.dedup();
                views
            };
            if level_idx > 0 && !positions.is_empty() {
                let (finest, this) = (views_of(0), views_of(level_idx));
                for (name, view) in &this {
                    let shared = finest.contains(&(name.clone(), *view));
                    assert_eq!(
                        shared,
                        name != "POSITION",
                        "{file} level {level_idx} {name}"
                    );
                }
            }
            let material = glb.material(level_idx);
            assert_eq!(
                material["doubleSided"].as_bool(),
                Some(matches!(layer.profile, Profile::Ribbon { .. }))
            );
        }
        // Cards wear their atlas, alpha-masked at the layer's cutoff; the textures exist
        // and decode.
        let glb = Glb::read(&dir.path().join(&layer.cards.mesh));
        assert!(glb.attribute(0, "_WIND").is_some() && glb.attribute(0, "_RANK").is_some());
        // Each card wears its tint, within glTF's [0, 1]: not one colour for all.
        let tints = glb.attribute(0, "COLOR_0").unwrap();
        assert!(tints.iter().flatten().all(|x| (0.0..=1.0).contains(x)));
        assert!(
            tints.iter().any(|t| t != &tints[0]),
            "{}: untinted",
            layer.name
        );
        let material = glb.material(0);
        assert_eq!(material["alphaMode"], "MASK");
        let cutoff = material["alphaCutoff"].as_f64().unwrap() as f32;
        assert!((cutoff - layer.cards.settings.alpha_cutoff).abs() < 1e-6);
        let color = glb.texture_uri(&material["pbrMetallicRoughness"]["baseColorTexture"]);
        let normal = glb.texture_uri(&material["normalTexture"]);
        assert_eq!(color, layer.cards.atlas_color_gltf);
        assert_eq!(normal, layer.cards.atlas_normal[0]);
        for uri in [color, normal] {
            image::open(dir.path().join(&uri)).unwrap_or_else(|e| panic!("{uri}: {e}"));
        }
    }
    // The ground wears the maps, occlusion-roughness-metallic packed in one texture.
    let glb = Glb::read(&dir.path().join(&m.ground));
    let material = glb.material(0);
    let pbr = &material["pbrMetallicRoughness"];
    assert_eq!(
        glb.texture_uri(&pbr["baseColorTexture"]),
        m.maps["base_color"]
    );
    assert_eq!(
        glb.texture_uri(&material["normalTexture"]),
        m.maps["normal"]
    );
    let orm = glb.texture_uri(&pbr["metallicRoughnessTexture"]);
    assert_eq!(orm, m.maps["orm"]);
    assert_eq!(glb.texture_uri(&material["occlusionTexture"]), orm);
    let packed = image::open(dir.path().join(&orm)).unwrap().to_rgb8();
    let grey = |map: &str| {
        image::open(dir.path().join(&m.maps[map]))
            .unwrap()
            .to_luma8()
    };
    let (occlusion, roughness, metallic) = (grey("occlusion"), grey("roughness"), grey("metallic"));
    for (x, y, p) in packed.enumerate_pixels().step_by(97) {
        assert_eq!(
            p.0,
            [
                occlusion.get_pixel(x, y).0[0],
                roughness.get_pixel(x, y).0[0],
                metallic.get_pixel(x, y).0[0]
            ],
            "ORM at ({x}, {y})"
        );
    }
    // One repeat, flat, as wide as the material's repeat.
    let ground = glb.positions(0);
    let span = ground
        .iter()
        .map(|p| p[0])
        .fold(f32::NEG_INFINITY, f32::max)
        - ground.iter().map(|p| p[0]).fold(f32::INFINITY, f32::min);
    assert!((span - m.repeat_m).abs() < 1e-4, "{span}");
}

#[test]
fn the_runtime_meshes_the_same_triangles_as_the_graph_path() {
    for encoding in [Encoding::Quantized, Encoding::Meshopt] {
        runtime_matches_the_graph_path(encoding);
    }
}

/// The parity test for meshes stored as `encoding` says.
fn runtime_matches_the_graph_path(encoding: Encoding) {
    let (dir, graph) = baked_moss_as(encoding);
    let m = manifest(dir.path());
    // The runtime: the manifest and the strand file, no graph.
    let file =
        tuft_strands::file::decode(&std::fs::read(dir.path().join(&m.strands)).unwrap()).unwrap();
    // The graph path: scatter in memory.
    let ev = Evaluator::new(&graph);
    for layer in &m.layers {
        let runtime_set = &file
            .layers
            .iter()
            .find(|(n, _)| *n == layer.name)
            .unwrap()
            .1;
        let graph_set = ev.strand_set(&layer.name).unwrap();
        let runtime_tiles = repeat_tiles(runtime_set, file.repeat_m, layer.profile);
        let graph_layer = &graph.strands[&layer.name];
        let graph_tiles = repeat_tiles(&graph_set, graph.repeat_m, graph_layer.profile);
        for (level_idx, &keep) in layer.levels.keep.iter().enumerate() {
            let runtime = level_mesh(
                &runtime_tiles,
                layer.profile,
                keep,
                layer.levels.widen(level_idx),
                &layer.levels.keep,
            );
            let graph_mesh = level_mesh(
                &graph_tiles,
                graph_layer.profile,
                keep,
                graph_layer.levels.widen(level_idx),
                &graph_layer.levels.keep,
            );
            assert!(
                runtime.vertex_bytes() == graph_mesh.vertex_bytes(),
                "{} level {level_idx}: vertices differ",
                layer.name
            );
            assert!(
                runtime.index_bytes() == graph_mesh.index_bytes(),
                "{} level {level_idx}: indices differ",
                layer.name
            );
            // And the glTF the bake wrote holds those positions, quantised: within
            // 0.1 mm of the floats (meshopt: within half its level's grid, 1/64 of the
            // narrowest strand's widened width), its indices and ranks exactly.
            let glb = Glb::read(&dir.path().join(&layer.meshes[level_idx]));
            let positions = glb.positions(level_idx);
            assert_eq!(positions.len(), runtime.vertices.len());
            let worst = largest_gap(positions.iter().map(|p| &p[..]), &runtime.vertices, |v| {
                v.position
            });
            let narrowest = runtime_set
                .width
                .iter()
                .copied()
                .fold(f32::INFINITY, f32::min);
            let grid = level_grid_m(narrowest, layer.levels.widen(level_idx));
            let bound = match encoding {
                Encoding::Meshopt => 1e-4f32.max(0.5 * grid * 1.001),
                _ => 1e-4,
            };
            assert!(
                worst < bound,
                "{} level {level_idx} ({encoding:?}): a position is {worst} m off",
                layer.name
            );
            // Normals within 8-bit steps (meshoptimizer stores them through its
            // octahedral filter), the wind as it was.
            let normals = glb.attribute(level_idx, "NORMAL").unwrap();
            let worst = largest_gap(normals.iter().map(Vec::as_slice), &runtime.vertices, |v| {
                v.normal
            });
            assert!(
                worst < 0.03,
                "{} level {level_idx} ({encoding:?}): a normal is {worst} off",
                layer.name
            );
            // Meshopt sets leave the strands' `_WIND` out: it is TEXCOORD_0.x squared.
            if let Some(wind) = glb.attribute(level_idx, "_WIND") {
                assert_ne!(encoding, Encoding::Meshopt, "{}: a _WIND", layer.name);
                assert!(
                    wind.iter()
                        .map(|w| w[0])
                        .eq(runtime.vertices.iter().map(|v| v.wind)),
                    "{} level {level_idx}: the wind differs",
                    layer.name
                );
            } else {
                assert_eq!(encoding, Encoding::Meshopt, "{}: no _WIND", layer.name);
                let uv = glb.attribute(level_idx, "TEXCOORD_0").unwrap();
                let worst = uv
                    .iter()
                    .zip(&runtime.vertices)
                    .map(|(uv, v)| (uv[0] * uv[0] - v.wind).abs())
                    .fold(0.0, f32::max);
                assert!(
                    worst <= 1.0 / 255.0,
                    "{} level {level_idx}: TEXCOORD_0.x squared is {worst} off the wind",
                    layer.name
                );
            }
            // The same triangles, each with its winding (meshoptimizer's index codec may
            // start a triangle at another of its corners).
            assert!(
                triangles(&glb.indices(level_idx)) == triangles(&runtime.indices),
                "{} level {level_idx} ({encoding:?}): triangles",
                layer.name
            );
            let ranks: Vec<f32> = glb
                .attribute(level_idx, "_RANK")
                .unwrap()
                .iter()
                .map(|r| r[0])
                .collect();
            let expected: Vec<f32> = runtime.vertices.iter().map(|v| v.rank).collect();
            assert!(ranks == expected, "{} level {level_idx}: ranks", layer.name);
        }
    }
}

/// Each triangle turned to start at its smallest index, keeping its winding.
/// The largest difference of any component between the rows read from a glTF and the
/// field `of` each of `vertices` holds, row by row.
fn largest_gap<'a>(
    rows: impl Iterator<Item = &'a [f32]>,
    vertices: &[tuft_strands::mesh::StrandVertex],
    of: impl Fn(&tuft_strands::mesh::StrandVertex) -> [f32; 3],
) -> f32 {
    rows.zip(vertices)
        .flat_map(|(row, v)| row.iter().zip(of(v)).map(|(a, b)| (a - b).abs()))
        .fold(0.0f32, f32::max)
}

fn triangles(indices: &[u32]) -> Vec<[u32; 3]> {
    indices
        .chunks_exact(3)
        .map(|t| {
            let k = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
            [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
        })
        .collect()
}

#[test]
fn a_cancelled_export_stops_and_leaves_no_manifest() {
    let doc = tuft_graph::io::load(&root().join("presets/moss.ron")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut stages = Vec::new();
    let result = bake::write_baked_set_cancellable(
        &Evaluator::new(&doc.graph),
        dir.path(),
        32,
        &mut |stage, _| {
            stages.push(stage.to_owned());
            // The user presses Cancel while the maps are being baked.
            if stage == "maps" {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        },
        &cancel,
    );
    assert!(
        matches!(result, Err(bake::BakeError::Cancelled)),
        "{result:?}"
    );
    assert!(
        !stages.iter().any(|s| s == "meshes"),
        "stopped before the meshes: {stages:?}"
    );
    assert!(!dir.path().join("manifest.ron").exists());
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_bake_over_an_earlier_set_replaces_it_whole_or_not_at_all() {
    // Regression: killed mid-bake over an earlier set, the old manifest stayed beside new
    // meshes and a new strand file (their card counts no longer matched), and temporary
    // files stayed for good. Sets are now written beside and swapped in whole.
    let mut graph = tuft_graph::io::load(&root().join("presets/moss.ron"))
        .unwrap()
        .graph;
    let root_dir = tempfile::tempdir().unwrap();
    let dest = root_dir.path().join("set");
    bake::write_baked_set(&Evaluator::new(&graph), &dest, 32, &mut |_, _| {}).unwrap();
    let before = snapshot(&dest);
    // A second bake of another material, stopped while it writes meshes.
    graph.name = "moss two".into();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let result = bake::write_baked_set_cancellable(
        &Evaluator::new(&graph),
        &dest,
        32,
        &mut |stage, _| {
            if stage == "meshes" {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        },
        &cancel,
    );
    assert!(
        matches!(result, Err(bake::BakeError::Cancelled)),
        "{result:?}"
    );
    assert!(snapshot(&dest) == before, "the earlier set changed");
    let beside: Vec<_> = std::fs::read_dir(root_dir.path()).unwrap().collect();
    assert_eq!(beside.len(), 1, "something was left beside the set");
    // Finished, the new set is all there is: none of the earlier set's files remain.
    let written =
        bake::write_baked_set(&Evaluator::new(&graph), &dest, 32, &mut |_, _| {}).unwrap();
    let after = snapshot(&dest);
    assert_eq!(after.len(), written.len());
    assert!(written.iter().all(|p| p.parent() == Some(dest.as_path())));
    assert!(
        after
            .keys()
            .all(|k| k.starts_with("manifest.") || k.starts_with("moss_two"))
    );
    assert!(manifest(&dest).name == "moss two");
}

#[test]
fn the_manifest_carries_the_switches_the_preview_uses() {
    use tuft_strands::switches::{REFERENCE_FOV_TURNS, REFERENCE_HEIGHT_PX};
    let (dir, _) = baked_moss();
    let m = manifest(dir.path());
    let scene = crate::render::scene("moss", 64);
    let camera = tuft_render::Camera {
        fov_y: REFERENCE_FOV_TURNS,
        ..tuft_render::Camera::default()
    };
    for layer in &m.layers {
        let switches = layer
            .switches
            .as_ref()
            .expect("a new set carries its switches");
        let k = scene
            .material()
            .layers
            .iter()
            .position(|l| l.name == layer.name)
            .unwrap();
        let preview: Vec<f32> = scene
            .switches(k, &camera, REFERENCE_HEIGHT_PX)
            .iter()
            .map(|s| s.2)
            .collect();
        assert_eq!(preview.len(), switches.reference_distances_m.len());
        for (a, b) in preview.iter().zip(&switches.reference_distances_m) {
            assert!(
                (a - b).abs() <= 1e-4 * a.abs(),
                "{}: {a} vs {b}",
                layer.name
            );
        }
        assert_eq!(switches.widen.len(), layer.levels.keep.len());
    }
}

#[test]
fn textures_larger_than_the_target_takes_are_refused_before_any_work() {
    use tuft_bake::targets::Target;
    let graph = tuft_graph::io::load(&root().join("presets/moss.ron"))
        .unwrap()
        .graph;
    let root_dir = tempfile::tempdir().unwrap();
    let dest = root_dir.path().join("set");
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut stages = Vec::new();
    let err = bake::write_baked_set_with(
        &Evaluator::new(&graph),
        &dest,
        &bake::BakeOptions {
            resolution: 16384,
            target: Target::Unreal,
            ..bake::BakeOptions::default()
        },
        &mut |stage, _| stages.push(stage.to_owned()),
        &cancel,
    )
    .unwrap_err();
    assert!(
        matches!(err, bake::BakeError::TooLarge { limit: 8192, .. }),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.contains("unreal") && message.contains("8192"),
        "{message}"
    );
    assert!(
        stages.is_empty() && !dest.exists(),
        "work began: {stages:?}"
    );
}

#[test]
fn a_target_adds_the_maps_its_engine_wants_in_its_conventions() {
    use tuft_bake::targets::Target;
    for target in [Target::Unity, Target::Unreal] {
        let (dir, _) = baked_moss_with(&bake::BakeOptions {
            resolution: 32,
            target,
            ..bake::BakeOptions::default()
        });
        let m = manifest(dir.path());
        assert_eq!(m.target, target.name());
        let open = |map: &str| {
            image::open(dir.path().join(&m.maps[map])).unwrap_or_else(|e| panic!("{map}: {e}"))
        };
        match target {
            Target::Unity => {
                let mask = open("unity_mask").to_rgba8();
                let (metallic, occlusion, roughness) = (
                    open("metallic").to_luma8(),
                    open("occlusion").to_luma8(),
                    open("roughness").to_luma8(),
                );
                for (x, y, p) in mask.enumerate_pixels().step_by(37) {
                    let r = roughness.get_pixel(x, y).0[0];
                    assert_eq!(p.0[0], metallic.get_pixel(x, y).0[0]);
                    assert_eq!(p.0[1], occlusion.get_pixel(x, y).0[0]);
                    assert_eq!(p.0[2], 255, "no detail mask");
                    // Smoothness is one minus roughness (each rounded once).
                    assert!((i32::from(p.0[3]) - (255 - i32::from(r))).abs() <= 1);
                }
            }
            _ => {
                let (dx, gl) = (open("normal_directx").to_rgb8(), open("normal").to_rgb8());
                for (x, y, p) in dx.enumerate_pixels().step_by(37) {
                    let q = gl.get_pixel(x, y).0;
                    assert_eq!(p.0[0], q[0]);
                    assert!((i32::from(p.0[1]) - (255 - i32::from(q[1]))).abs() <= 1);
                    assert_eq!(p.0[2], q[2]);
                }
            }
        }
    }
}

#[test]
fn bc7_textures_keep_the_cards_coverage_down_the_chain() {
    use tuft_bake::ktx2::{Codec, VK_BC7_SRGB, VK_BC7_UNORM};
    use tuft_tests::ktx2::Ktx2;
    let (dir, _) = baked_moss_with(&bake::BakeOptions {
        resolution: 64,
        ktx2: Codec::Bc7,
        ..bake::BakeOptions::default()
    });
    let m = manifest(dir.path());
    assert_eq!(m.ktx2_codec, "bc7");
    let coverage = |rgba: &[u8], cutoff: u8| {
        rgba.chunks_exact(4).filter(|t| t[3] >= cutoff).count() as f32 / (rgba.len() / 4) as f32
    };
    for layer in &m.layers {
        let cards = &layer.cards;
        let ktx = Ktx2::read(&dir.path().join(&cards.atlas_color_ktx2));
        assert_eq!(ktx.vk_format, VK_BC7_SRGB);
        assert_eq!(ktx.mips.len(), cards.atlas_color.len(), "the whole chain");
        let cutoff = (cards.settings.alpha_cutoff * 255.0) as u8;
        // As decoded by an engine, every mip down to 8 × 8 keeps mip 0's coverage.
        let decoded: Vec<f32> = (0..ktx.mips.len())
            .map(|k| coverage(&ktx.rgba(k), cutoff))
            .collect();
        println!("{}: coverage by mip after BC7 {decoded:.3?}", layer.name);
        for (k, c) in decoded.iter().enumerate().take(6) {
            assert!(
                (c - decoded[0]).abs() <= 0.02,
                "{} mip {k}: {decoded:?}",
                layer.name
            );
        }
        // And mip 0 is the PNG within BC7's loss.
        let png = image::open(dir.path().join(&cards.atlas_color[0]))
            .unwrap()
            .to_rgba8();
        let off = ktx
            .rgba(0)
            .iter()
            .zip(png.as_raw())
            .map(|(a, b)| f64::from(a.abs_diff(*b)))
            .sum::<f64>()
            / png.as_raw().len() as f64;
        assert!(off < 2.0, "{}: mean difference {off:.2} codes", layer.name);
        let normal = Ktx2::read(&dir.path().join(&cards.atlas_normal_ktx2));
        assert_eq!(normal.vk_format, VK_BC7_UNORM);
    }
    for (map, file) in &m.textures_ktx2 {
        let ktx = Ktx2::read(&dir.path().join(file));
        assert!(ktx.is_bc7(), "{map}");
        assert_eq!(ktx.mips.len() as u32, ktx.side.ilog2() + 1, "{map}");
    }
}

#[test]
fn ktx2_textures_hold_the_mip_chains_tuft_computed() {
    use tuft_bake::ktx2::{VK_R8G8B8A8_SRGB, VK_R8G8B8A8_UNORM};
    use tuft_tests::ktx2::Ktx2;
    let (dir, _) = baked_moss();
    let m = manifest(dir.path());
    for layer in &m.layers {
        let cards = &layer.cards;
        for (file, pngs, format) in [
            (
                &cards.atlas_color_ktx2,
                &cards.atlas_color,
                VK_R8G8B8A8_SRGB,
            ),
            (
                &cards.atlas_normal_ktx2,
                &cards.atlas_normal,
                VK_R8G8B8A8_UNORM,
            ),
        ] {
            let ktx = Ktx2::read(&dir.path().join(file));
            assert_eq!(ktx.vk_format, format, "{file}");
            assert_eq!(ktx.mips.len(), pngs.len(), "{file}: the whole chain");
            for (k, (mip, png)) in ktx.mips.iter().zip(pngs).enumerate() {
                let img = image::open(dir.path().join(png)).unwrap().to_rgba8();
                assert!(mip == img.as_raw(), "{file} mip {k} differs from {png}");
            }
        }
        // The coverage the chain was built to keep, read from the KTX2 as an engine would.
        let ktx = Ktx2::read(&dir.path().join(&cards.atlas_color_ktx2));
        let cutoff = (cards.settings.alpha_cutoff * 255.0) as u8;
        let coverage: Vec<f32> = ktx
            .mips
            .iter()
            .map(|mip| {
                let n = mip.len() / 4;
                mip.chunks_exact(4).filter(|t| t[3] >= cutoff).count() as f32 / n as f32
            })
            .collect();
        for (k, c) in coverage.iter().enumerate().take(6) {
            assert!(
                (c - coverage[0]).abs() <= 0.02,
                "{} mip {k}: {coverage:?}",
                layer.name
            );
        }
    }
    // The maps' mip 0 is the PNG, and the chain runs to one texel.
    for (map, file) in &m.textures_ktx2 {
        let ktx = Ktx2::read(&dir.path().join(file));
        let png = image::open(dir.path().join(&m.maps[map]))
            .unwrap()
            .to_rgba8();
        assert!(&ktx.mips[0] == png.as_raw(), "{map}");
        assert_eq!(ktx.mips.len() as u32, ktx.side.ilog2() + 1, "{map}");
    }
}
