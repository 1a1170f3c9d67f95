//! An author's mesh as the preview's surface: glTF and OBJ read with their UVs, the
//! sample creature as its script makes it, strands planted on both, and every bad file
//! named.

use std::sync::Arc;
use tuft_render::mesh_file;
use tuft_render::{Offscreen, Reuse, Scene};
use tuft_strands::surface::Surface;
use tuft_tests::root;

fn material(preset: &str) -> tuft_render::Material {
    let graph = tuft_graph::io::load(&root().join(format!("presets/{preset}.ron")))
        .unwrap()
        .graph;
    tuft_editor::material::from_graph(&graph, 64).unwrap().0
}

/// Strands drawn of `material` on `mesh` (measured UV scale), seen from 1 m.
fn strands_drawn(material: tuft_render::Material, mesh: &tuft_strands::surface::MeshData) -> u64 {
    let scale = mesh.repeats_per_uv(material.repeat_m);
    let surface = Arc::new(Surface::from_mesh(mesh, scale).unwrap());
    let mut scene = Scene::on_mesh(material, surface, &Reuse::default());
    let view = crate::render::view(0.5, (320, 240), tuft_render::LevelMode::Auto, false);
    let frame = Offscreen::new().unwrap().render(&mut scene, &view).unwrap();
    assert!(frame.image.coverage() > 0.05, "the mesh is on screen");
    let strands = frame.stats.strands();
    println!(
        "{strands} strands drawn, coverage {:.3}",
        frame.image.coverage()
    );
    strands
}

#[test]
fn the_sample_creature_is_what_its_script_makes_and_wears_the_fur() {
    let committed = std::fs::read_to_string(root().join("assets/creature.obj")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let made = dir.path().join("creature.obj");
    let status = std::process::Command::new("python3")
        .arg(root().join("scripts/make-creature.py"))
        .arg(&made)
        .status()
        .expect("python3 runs the script");
    assert!(status.success());
    assert!(
        std::fs::read_to_string(&made).unwrap() == committed,
        "assets/creature.obj is not what scripts/make-creature.py writes"
    );
    let mesh = mesh_file::load(&root().join("assets/creature.obj")).unwrap();
    assert_eq!(mesh.triangles.len(), 6464);
    // Centred, about 1.5 m from muzzle to tail, UVs in metres of surface.
    let (lo, hi) = mesh
        .positions
        .iter()
        .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
                [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
            )
        });
    assert!(
        (0..3).all(|k| (lo[k] + hi[k]).abs() < 1e-3),
        "centred: {lo:?} {hi:?}"
    );
    assert!((1.4..1.7).contains(&(hi[2] - lo[2])), "{lo:?} {hi:?}");
    assert!(
        (0.8..1.25).contains(&mesh.metres_per_uv()),
        "{}",
        mesh.metres_per_uv()
    );
    assert!(strands_drawn(material("fur"), &mesh) > 5_000);
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_gltf_mesh_reads_with_its_uvs_and_node_transform() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ground.glb");
    let glb = tuft_bake::gltf::encode_ground(
        2.0,
        8,
        "ground",
        &tuft_bake::gltf::GroundMaps {
            base_color: "b.png".into(),
            normal: "n.png".into(),
            orm: "o.png".into(),
        },
        &tuft_bake::gltf::Pngs::new(),
    );
    std::fs::write(&path, glb).unwrap();
    let mesh = mesh_file::load(&path).unwrap();
    assert_eq!(mesh.triangles.len(), 8 * 8 * 2);
    assert_eq!(mesh.uvs.len(), mesh.positions.len());
    // One repeat: its UVs span one unit over 2 m.
    assert!(
        (mesh.metres_per_uv() - 2.0).abs() < 1e-3,
        "{}",
        mesh.metres_per_uv()
    );
    assert!(strands_drawn(material("moss"), &mesh) > 1000);
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_bad_mesh_file_is_named_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let cases = [
        (dir.path().join("missing.glb"), "cannot read"),
        (
            write("garbage.glb", b"not a mesh at all"),
            "not a glTF file",
        ),
        (write("model.fbx", b"x"), "not a mesh file this build reads"),
        (
            write("flat.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"),
            "no UVs",
        ),
        (
            write(
                "point.obj",
                b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.5 0.5\nf 1/1 2/1 3/1\n",
            ),
            "one point",
        ),
        (write("nothing.obj", b"# empty\n"), "no triangles"),
    ];
    for (path, says) in cases {
        let e = mesh_file::load(&path).unwrap_err();
        assert_eq!(e.path, path);
        assert!(e.message.contains(says), "{}: {e}", path.display());
    }
}
