//! The baked set: glTF meshes that read back, and a runtime that meshes the manifest and
//! strand file to exactly the triangles the graph path wrote.

use tuft_graph::{Evaluator, bake};
use tuft_strands::manifest::Manifest;
use tuft_strands::mesh::{Profile, level_mesh, repeat_tiles};
use tuft_tests::root;

/// Bakes moss (the smallest preset) into a temporary folder.
fn baked_moss() -> (tempfile::TempDir, tuft_graph::MaterialGraph) {
    let graph = tuft_graph::io::load(&root().join("presets/moss.ron"))
        .unwrap()
        .graph;
    let dir = tempfile::tempdir().unwrap();
    bake::write_baked_set(&Evaluator::new(&graph), dir.path(), 64, &mut |_, _| {}).unwrap();
    (dir, graph)
}

fn manifest(dir: &std::path::Path) -> Manifest {
    ron::from_str(&std::fs::read_to_string(dir.join("manifest.ron")).unwrap()).unwrap()
}

#[test]
fn the_manifest_names_every_file_of_the_set() {
    let (dir, graph) = baked_moss();
    let m = manifest(dir.path());
    assert_eq!(m.repeat_m, graph.repeat_m);
    assert_eq!(m.maps.len(), 6);
    let mut named: Vec<String> = m.maps.values().cloned().collect();
    named.push(m.strands.clone());
    for layer in &m.layers {
        assert_eq!(layer.meshes.len(), layer.levels.keep.len());
        assert_eq!(layer.level_reports.len(), layer.levels.keep.len());
        assert_eq!(layer.profile, graph.strands[&layer.name].profile);
        named.extend(layer.meshes.iter().cloned());
        named.push(layer.cards.mesh.clone());
        named.extend(layer.cards.atlas_color.iter().cloned());
        named.extend(layer.cards.atlas_normal.iter().cloned());
        assert!(layer.cards.n_cards > 0);
        let cov = &layer.cards.atlas_coverage;
        for c in cov.iter().take(6) {
            assert!((c - cov[0]).abs() <= 0.02, "{}: {cov:?}", layer.name);
        }
    }
    named.push("manifest.ron".into());
    let mut present: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    present.sort();
    named.sort();
    assert_eq!(
        present, named,
        "the folder holds exactly what the manifest names"
    );
}

#[test]
fn the_gltf_meshes_read_back_with_their_counts() {
    let (dir, _) = baked_moss();
    let m = manifest(dir.path());
    for layer in &m.layers {
        for (level_idx, file) in layer.meshes.iter().enumerate() {
            let (doc, buffers, _) =
                gltf::import(dir.path().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let mesh = doc.meshes().next().unwrap();
            let prim = mesh.primitives().next().unwrap();
            assert_eq!(prim.mode(), gltf::mesh::Mode::Triangles);
            let reader = prim.reader(|b| Some(&buffers[b.index()]));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
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
            assert!(reader.read_normals().is_some() && reader.read_tex_coords(0).is_some());
            assert!(reader.read_colors(0).is_some());
            assert_eq!(
                doc.materials().next().unwrap().double_sided(),
                matches!(layer.profile, Profile::Ribbon { .. })
            );
        }
    }
}

#[test]
fn the_runtime_meshes_the_same_triangles_as_the_graph_path() {
    let (dir, graph) = baked_moss();
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
            );
            let graph_mesh = level_mesh(
                &graph_tiles,
                graph_layer.profile,
                keep,
                graph_layer.levels.widen(level_idx),
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
            // And the glTF the bake wrote holds those very positions.
            let (doc, buffers, _) =
                gltf::import(dir.path().join(&layer.meshes[level_idx])).unwrap();
            let prim = doc.meshes().next().unwrap().primitives().next().unwrap();
            let reader = prim.reader(|b| Some(&buffers[b.index()]));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let expected: Vec<[f32; 3]> = runtime.vertices.iter().map(|v| v.position).collect();
            assert!(
                positions == expected,
                "{} level {level_idx}: glTF positions differ",
                layer.name
            );
        }
    }
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
            .all(|k| k == "manifest.ron" || k.starts_with("moss_two"))
    );
    assert!(manifest(&dest).name == "moss two");
}
