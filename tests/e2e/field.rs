//! The field to the horizon: tiles let go when the walker leaves them (past the frame
//! budget's bytes) and planted again, byte for byte, on the way back.

use tuft_render::{Camera, FrameBudget, Scene, SurfaceKind, View};
use tuft_tests::root;

fn walker(z: f32, yaw: f32) -> View {
    View {
        camera: Camera {
            walk_eye: Some([0.0, 1.6, z]),
            yaw,
            pitch: 0.05,
            ..Camera::default()
        },
        width: 320,
        height: 180,
        ..View::default()
    }
}

/// Plans `view` until nothing is left to plant.
fn settle(scene: &mut Scene, view: &View) {
    for _ in 0..200 {
        if scene.plan(view).stats.tiles_pending == 0 {
            return;
        }
    }
    panic!("planting never finished");
}

#[test]
fn walking_out_and_back_replants_the_very_same_tiles() {
    let doc = tuft_graph::io::load(&root().join("presets/moss.ron")).unwrap();
    let (material, _) = tuft_editor::material::from_graph(&doc.graph, 64).unwrap();
    let mut scene = Scene::new(material, SurfaceKind::Field);
    scene.set_budget(FrameBudget {
        bytes: 64 << 20,
        ..FrameBudget::default()
    });
    scene.set_plant_budget(Some(50_000));
    // At the middle, looking down the field (yaw 0 looks toward −z).
    let start = walker(0.0, 0.0);
    settle(&mut scene, &start);
    let tiles = (tuft_render::scene::FIELD_TILES * tuft_render::scene::FIELD_TILES) as usize;
    let held: Vec<(usize, Vec<u8>)> = (0..tiles)
        .filter_map(|t| {
            let mesh = scene.resident_mesh(0, t)?;
            (!mesh.vertices.is_empty()).then(|| (t, mesh.vertex_bytes().to_vec()))
        })
        .collect();
    assert!(!held.is_empty(), "the tiles in front are planted");
    // Walk 60 m the other way, facing away: what was held is let go once the new tiles
    // pass the budget.
    for step in 1..=30 {
        settle(&mut scene, &walker(2.0 * step as f32, 0.5));
    }
    assert!(
        scene.resident_bytes() <= 2 * (64 << 20),
        "{} bytes held",
        scene.resident_bytes()
    );
    let released = held
        .iter()
        .filter(|(t, _)| {
            scene
                .resident_mesh(0, *t)
                .is_none_or(|m| m.vertices.is_empty())
        })
        .count();
    assert!(released > 0, "walking away let go of the first tiles");
    // Back where it began: the same tiles, planted again to the same bytes.
    settle(&mut scene, &start);
    for (t, bytes) in &held {
        let again = scene.resident_mesh(0, *t).expect("a tile");
        assert!(
            again.vertex_bytes() == bytes.as_slice(),
            "tile {t} differs after the walk"
        );
    }
}
