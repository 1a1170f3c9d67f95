//! The crate boundaries of ARCHITECTURE.md, checked on the manifests.

use tuft_tests::root;

/// The names under `[dependencies]` (normal dependencies only) of a crate's manifest.
fn normal_dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            deps.push(name.to_owned());
        }
    }
    deps
}

#[test]
fn the_runtime_crate_links_only_glam_serde_thiserror_bytemuck_and_crc32fast() {
    let deps = normal_dependencies("engine/strands/Cargo.toml");
    for d in &deps {
        assert!(
            ["glam", "serde", "thiserror", "bytemuck", "crc32fast"].contains(&d.as_str()),
            "tuft-strands depends on {d}"
        );
    }
}

#[test]
fn the_graph_engine_knows_no_ui_and_no_gpu() {
    for d in normal_dependencies("engine/graph/Cargo.toml") {
        assert!(
            ![
                "egui",
                "eframe",
                "egui-wgpu",
                "wgpu",
                "egui-snarl",
                "tuft-render"
            ]
            .contains(&d.as_str()),
            "tuft-graph depends on {d}"
        );
    }
}

/// The graph engine knows nothing of the files a baked set holds: the encoders are the
/// bake's (`tuft-bake`), and the graph does not depend on it.
#[test]
fn the_graph_engine_writes_no_baked_set() {
    for d in normal_dependencies("engine/graph/Cargo.toml") {
        assert!(
            ![
                "tuft-bake",
                "gltf",
                "meshopt",
                "intel_tex_2",
                "zstd",
                "ruzstd",
                "serde_json"
            ]
            .contains(&d.as_str()),
            "tuft-graph depends on {d}"
        );
    }
}

#[test]
fn the_renderer_knows_neither_the_graph_nor_egui() {
    for d in normal_dependencies("engine/render/Cargo.toml") {
        assert!(
            !["egui", "eframe", "egui-wgpu", "egui-snarl", "tuft-graph"].contains(&d.as_str()),
            "tuft-render depends on {d}"
        );
    }
}

/// A baked set is drawn without the graph engine: the renderer's whole tree (not only its
/// own manifest) lacks tuft-graph, and the viewer's code (`tuft view`, the editor's
/// read-only baked set) goes through `tuft_render::baked` alone.
#[test]
fn the_viewer_path_has_no_graph_engine() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .args([
            "tree",
            "-p",
            "tuft-render",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    assert!(
        tree.lines().any(|l| l.starts_with("tuft-strands")),
        "{tree}"
    );
    assert!(tree.lines().any(|l| l.starts_with("image")), "{tree}");
    assert!(!tree.lines().any(|l| l.starts_with("tuft-graph")), "{tree}");
    let reader = std::fs::read_to_string(root().join("engine/render/src/baked.rs")).unwrap();
    assert!(
        !reader.contains("tuft_graph"),
        "the set's reader names tuft_graph"
    );
    for file in ["editor/src/cli/view.rs", "editor/src/app/baked.rs"] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(!text.contains("tuft_graph"), "{file} names tuft_graph");
        assert!(
            text.contains("tuft_render::baked") || text.contains("Source::Baked"),
            "{file} does not read the set through tuft_render::baked"
        );
    }
}
