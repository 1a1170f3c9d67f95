//! The far levels stand for the strands: a material built from nothing, its relief never
//! wired into its surface, looks from far away as its strands look near, because the
//! surface shows the canopy a ray meets (`tuft_strands::canopy`) and not only its maps.

use crate::render::mean_codes;
use tuft_render::compare::largest_change;
use tuft_render::parity::{Seen, SwitchSeen, switch_seen, switches_seen_through};
use tuft_render::{Camera, LevelMode, Offscreen, Rep, Scene, SurfaceKind, View};

/// File › New, one strand layer with a noise density and every other setting its
/// default, and the brown base colour the README's walkthrough gives the soil.
const FROM_NOTHING: &str = r#"(
    graph: (
        version: 1,
        name: "from nothing",
        repeat_m: 1.0,
        nodes: [
            (id: 1, kind: "Noise", params: {"kind": Choice("fbm"), "scale": Float(8.0), "seed": Int(1), "octaves": Int(4), "gain": Float(0.5)}),
        ],
        pbr: (base_color: Const(Color((0.12, 0.07, 0.035)))),
        strands: {"layer": (density: Link((node: 1, port: "out")))},
    ),
)"#;

const FRAME: (u32, u32) = (320, 240);

/// The mean colour of `scene` seen from the default camera at `distance_m`, sRGB codes.
fn mean_at(
    offscreen: &mut Offscreen,
    scene: &mut Scene,
    distance_m: f32,
    level: LevelMode,
) -> [f64; 3] {
    let view = View {
        camera: Camera {
            distance_m,
            ..Camera::default()
        },
        width: FRAME.0,
        height: FRAME.1,
        level,
        ..View::default()
    };
    mean_codes(&offscreen.render(scene, &view).expect("a frame").image)
}

/// The material of the graph document `text`, its maps at 256².
fn material_of(text: &str) -> tuft_render::Material {
    let doc = tuft_graph::io::from_str(text).expect("the graph reads");
    let (material, _) =
        tuft_editor::material::from_graph(&doc.graph, 256).expect("the graph evaluates");
    material
}

#[test]
fn a_material_built_from_nothing_looks_far_away_as_its_strands_look_near() {
    let material = material_of(FROM_NOTHING);
    let mut scene = Scene::new(material.clone(), SurfaceKind::Sphere);
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut frame = |scene: &mut Scene, distance_m: f32, level: LevelMode| {
        mean_at(&mut offscreen, scene, distance_m, level)
    };
    let near = frame(&mut scene, 2.0, LevelMode::Auto);
    // The control: the maps alone are bare soil, far from what the strands show.
    let maps = frame(&mut scene, 2.0, LevelMode::Forced(Rep::Relief));
    assert!(
        largest_change([near, maps]) > 20.0,
        "the strands at 2 m {near:?} against the bare maps {maps:?}"
    );
    let mut field = Scene::new(material, SurfaceKind::Field);
    let field_near = frame(&mut field, 2.0, LevelMode::Auto);
    // Each far frame against the same surface's at 2 m, within its bound in codes.
    let mut holds = |scene: &mut Scene, near: [f64; 3], bounds: &[(f32, f64)]| {
        for &(distance_m, bound) in bounds {
            let far = frame(scene, distance_m, LevelMode::Auto);
            let change = largest_change([near, far]);
            assert!(
                change < bound,
                "{:?} at {distance_m} m {far:?} against {near:?} at 2 m: {change:.2} codes",
                scene.kind()
            );
        }
    };
    // Measured 3.2, 0.8 and 1.1 codes (the green channel) on llvmpipe; before the
    // canopy, 38 and 39 at 25 and 60 m; before it fanned out over the sphere, 7.2, 3.9
    // and 3.3. At 12 m the frame is the strands' and cards' own: drawn whole at 12 m
    // they read 2.7 codes off their look at 2 m, for the outline's share of the frame
    // grows with distance (BENCHMARKS.md, "The canopy over curved ground").
    holds(&mut scene, near, &[(12.0, 3.5), (25.0, 2.0), (60.0, 2.0)]);
    // On the field, seen from the same angle (the frame reaching the horizon): measured
    // 0.9 and 1.7 codes. At 60 m on the field it is 4.0.
    holds(&mut field, field_near, &[(12.0, 2.0), (25.0, 2.5)]);
}

/// On black soil the maps' mean colour is 0, and the canopy's pattern (a texel over
/// that mean) has nothing to divide: the far levels must still show the strands, not
/// a black ground. (Read as 0 / 0 = 0, the canopy seen from above on the plane was 7.6
/// codes against its strands' 116.7; measured now, 1.2 codes at 25 m.)
#[test]
fn on_black_soil_the_far_levels_still_show_the_strands() {
    let black = FROM_NOTHING.replace("(0.12, 0.07, 0.035)", "(0.0, 0.0, 0.0)");
    let mut scene = Scene::new(material_of(&black), SurfaceKind::Sphere);
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let near = mean_at(&mut offscreen, &mut scene, 2.0, LevelMode::Auto);
    let far = mean_at(&mut offscreen, &mut scene, 25.0, LevelMode::Auto);
    let change = largest_change([near, far]);
    assert!(
        change < 4.5,
        "at 25 m {far:?} against {near:?} at 2 m: {change:.2} codes"
    );
}

/// Past its blend a strand or card shows the surface its ray meets behind it, so on
/// flat ground a far switch is no switch at all: the carpet's pile leaving its last
/// level for the relief, forced before and after on the field (160 × 180 through
/// `tuft_render::parity`'s narrow lens), draws the same ground from 2° and from a
/// walker's eye (4.7° there). Before, the search for that surface stopped 8 strand heights from the
/// root (a grazing ray meets flat ground 30 heights out) and started from the
/// fragment's centroid (whose UV derivatives picked too fine a mip level): this test read
/// 1.69 codes and a block correlation of −0.14 at 2°.
#[test]
fn on_flat_ground_a_blended_level_leaves_for_the_relief_without_a_trace() {
    let views = [Seen::Above(2.0 / 360.0), Seen::EyeAt(1.7)];
    let (_, last, seen) = first_layers_last_switch("carpet", "pile", &views);
    assert_eq!((last.0, last.1), (Rep::Strands(2), Rep::Relief));
    for (view, s) in views.iter().zip(seen) {
        assert!(s.rows > 20 && s.coverage > 0.5, "{view:?}: {s}");
        // The forcing took: the pile's tiles round the switch drew its last level, then
        // nothing (nearer tiles draw finer levels in both frames).
        assert!(s.triangles[0] > s.triangles[1], "{:?}", s.triangles);
        assert!(s.colour < 0.05 && s.pattern > 0.99, "{view:?}: {s}");
    }
}

/// On flat ground the surface behind a far blade takes the tint of the patch it lies
/// in, not the blade's root's: the lawn's blades leaving their cards for the relief,
/// forced before and after on the field, draw the same ground from a walker's eye.
/// There the ray meets the ground metres past the root, often in another of the lawn's
/// 3 m patches; read with the root's tint (and the relief with the tint its vertices,
/// 2 m apart, interpolate) this test read 1.37 codes and a block correlation of 0.79.
#[test]
fn on_flat_ground_a_far_level_shows_the_tint_of_the_patch_behind_it() {
    let (material, last, seen) = first_layers_last_switch("lawn", "blades", &[Seen::EyeAt(1.7)]);
    assert_ne!(
        material.layers[0].macro_variation.tint, [1.0; 3],
        "the lawn's patches tint its blades"
    );
    assert_eq!((last.0, last.1), (Rep::Cards, Rep::Relief));
    let s = &seen[0];
    assert!(s.rows > 12 && s.coverage > 0.5, "{s}");
    assert!(s.triangles[0] > s.triangles[1], "{:?}", s.triangles);
    assert!(s.colour < 0.05 && s.pattern > 0.99, "{s}");
}

/// The first layer of `preset` (named `layer`) on the field, forced before and after
/// its last switch and seen from each of `views` (160 × 180 through
/// `tuft_render::parity`'s lens, a scene of its own for each: an unlimited frame's
/// planting is held until its scene goes): the material, the switch, each view's figures.
fn first_layers_last_switch(
    preset: &str,
    layer: &str,
    views: &[Seen],
) -> (tuft_render::Material, (Rep, Rep, f32), Vec<SwitchSeen>) {
    let size = (160, 180);
    let mut offscreen = Offscreen::new().expect("an adapter");
    let material = crate::render::scene(preset, 512).material().clone();
    let first = Scene::new(material.clone(), SurfaceKind::Field);
    assert_eq!(first.material().layers[0].name, layer);
    let reuse = first.reuse();
    let last = *switches_seen_through(&first, 0, size.1)
        .last()
        .expect("the layer switches");
    drop(first);
    let seen = views
        .iter()
        .map(|&view| {
            let mut scene = Scene::reusing(material.clone(), SurfaceKind::Field, &reuse);
            let s = switch_seen(&mut offscreen, &mut scene, 0, last, view, 0.08, size)
                .expect("the frames");
            println!("{preset}/{layer} {view:?}: {s}");
            s
        })
        .collect();
    (material, last, seen)
}
