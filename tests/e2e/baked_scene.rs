//! The set's scene (`.gltf`): every part shown once from the set's own `.glb` files, each
//! level where its layer's file holds it, and parts without strands as named nodes.

use crate::baked_set::{baked_moss_as, manifest};
use tuft_bake as bake;
use tuft_bake::gltf::Encoding;
use tuft_graph::Evaluator;
use tuft_tests::glb::Glb;

#[test]
fn the_scene_shows_every_part_without_a_second_copy() {
    for encoding in [Encoding::Quantized, Encoding::Meshopt] {
        let (dir, _) = baked_moss_as(encoding);
        let m = manifest(dir.path());
        let scene = Glb::read_gltf(&dir.path().join(&m.scene));
        // Its buffers are the set's own .glb files: nothing is stored twice.
        let size = std::fs::metadata(dir.path().join(&m.scene)).unwrap().len();
        assert!(size < 200_000, "the scene is {size} bytes of JSON");
        let ground = Glb::read(&dir.path().join(&m.ground));
        assert_eq!(
            scene.positions(scene.node_named("ground")),
            ground.positions(0)
        );
        for layer in &m.layers {
            let files: Vec<&String> = layer
                .meshes
                .iter()
                .chain(std::iter::once(&layer.cards.mesh))
                .collect();
            let mut ids = Vec::new();
            for (k, file) in files.iter().enumerate() {
                let node = scene.node_named(&format!("{}_LOD{k}", layer.name));
                ids.push(node);
                let part = Glb::read(&dir.path().join(file));
                // Level k is its file's node k; the cards are their file's only node.
                let own = if k < layer.meshes.len() { k } else { 0 };
                assert!(
                    scene.positions(node) == part.positions(own),
                    "{file} ({encoding:?})"
                );
                assert!(scene.attribute(node, "_RANK") == part.attribute(own, "_RANK"));
                assert_eq!(
                    with_uris(&scene, scene.material(node)),
                    with_uris(&part, part.material(own)),
                    "{file}"
                );
            }
            // Each level says where it is left for the next, nearest first, and how much
            // of the reference view a repeat covers there: falling. No MSFT_lod: every
            // part is the layer's child, drawn.
            let coverage: Vec<f64> = ids
                .iter()
                .map(|&id| {
                    let node = &scene.json["nodes"][id];
                    assert!(node.get("extensions").is_none(), "{node}");
                    node["extras"]["screen_coverage_on_reference_view"]
                        .as_f64()
                        .unwrap()
                })
                .collect();
            assert!(coverage.windows(2).all(|w| w[0] >= w[1]), "{coverage:?}");
        }
        // One material a name: the levels of a layer share their strands' material.
        let names: Vec<&str> = scene.json["materials"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert_eq!(names.len(), 1 + 2 * m.layers.len(), "{names:?}");
    }
}

#[test]
fn a_layer_or_level_without_strands_bakes_a_valid_empty_part() {
    // Regression: a layer whose density kept nothing, or a level of a sparse layer that
    // kept no strand, baked accessors of count 0 and empty buffers, which glTF forbids
    // (the Khronos validator: VALUE_NOT_IN_RANGE), and the scene carried them along.
    let graph = tuft_graph::io::load(&tuft_tests::data("sparse_layers.ron"))
        .unwrap()
        .graph;
    for encoding in [Encoding::Quantized, Encoding::Meshopt, Encoding::Float] {
        let dir = tempfile::tempdir().unwrap();
        bake::write_baked_set_with(
            &Evaluator::new(&graph),
            dir.path(),
            &bake::BakeOptions {
                resolution: 32,
                encoding,
                ..bake::BakeOptions::default()
            },
            &mut |_, _| {},
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap();
        let m = manifest(dir.path());
        let scene = Glb::read_gltf(&dir.path().join(&m.scene));
        let mut empty = 0;
        for layer in &m.layers {
            for (k, (file, level)) in layer.meshes.iter().zip(&layer.level_reports).enumerate() {
                let part = Glb::read(&dir.path().join(file));
                let node = scene.node_named(&format!("{}_LOD{k}", layer.name));
                if level.strands == 0 {
                    empty += 1;
                    // A named node alone: no mesh; and where the whole layer keeps
                    // nothing, no accessor, no buffer, no data in its file.
                    assert!(part.json["nodes"][k]["name"].as_str().is_some());
                    assert!(part.json["nodes"][k].get("mesh").is_none(), "{file}");
                    if layer.level_reports.iter().all(|l| l.strands == 0) {
                        for key in ["meshes", "accessors", "bufferViews", "buffers"] {
                            assert!(part.json.get(key).is_none(), "{file}: {key}");
                        }
                    }
                    assert!(scene.json["nodes"][node].get("mesh").is_none(), "{file}");
                } else {
                    assert_eq!(scene.positions(node), part.positions(k), "{file}");
                }
            }
        }
        // The graph holds both cases: a layer that keeps nothing (four parts with its
        // cards' level among them) and a coarse level of one that keeps a few.
        assert!(empty >= 4, "{empty} empty levels ({encoding:?})");
        let none = m.layers.iter().find(|l| l.name == "none").unwrap();
        let cards = Glb::read(&dir.path().join(&none.cards.mesh));
        assert!(cards.json.get("meshes").is_none());
    }
}

/// `material` with each texture reference's index replaced by the image's URI (indices
/// differ between files that show the same pictures).
fn with_uris(glb: &Glb, material: &serde_json::Value) -> serde_json::Value {
    let mut out = material.clone();
    if let Some(map) = out.as_object_mut() {
        for (key, v) in map.iter_mut() {
            if key.ends_with("Texture") {
                *v = serde_json::json!(glb.texture_uri(v));
            } else if v.is_object() {
                *v = with_uris(glb, v);
            }
        }
    }
    out
}
