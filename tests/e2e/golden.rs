//! Golden frames of the shipped presets at a near, a middle and a far distance and in
//! the level overlay, with a comparison strict enough to fail — and controls that show
//! it does.
//!
//! The comparison holds between GL on llvmpipe and Vulkan on lavapipe, the two software
//! adapters wgpu finds without a GPU (they agree within 0.01 codes on these frames; a
//! hardware adapter is not what the goldens are for). A frame is judged as the material
//! shows it: the mean absolute difference and the share of 4 × 4 blocks far off (the
//! picture as a whole), the material's own mean colour and coverage (alpha is the
//! material's coverage), and the correlation of 8 × 8 block luminance (its pattern).
//! The controls — a frame 5 codes brighter, a blank frame, another preset, and the lawn
//! without one of its layers — must each fail. `UPDATE_GOLDEN=1 cargo test` rewrites
//! the goldens; any other value compares.

use crate::render::{scene, view};
use std::path::PathBuf;
use tuft_render::compare::{block_luminance, correlation};
use tuft_render::offscreen::srgb_codes;
use tuft_render::{Image, LevelMode, Offscreen, Scene, View};
use tuft_tests::root;

/// Frame size of the goldens: small, so a software rasteriser draws them quickly, and
/// level choice follows this height as it would a window's.
const GOLDEN: (u32, u32) = (160, 120);

/// The goldens: name, camera distance, level overlay.
const CASES: [(&str, f32, bool); 4] = [
    ("near", 0.6, false),
    ("middle", 3.0, false),
    ("far", 15.0, false),
    ("levels", 3.0, true),
];

/// The most the mean absolute difference may be, codes.
const MEAN_ABS: f32 = 0.5;
/// The most 4 × 4 blocks that may differ by more than 24 codes.
const BLOCKS_OFF: f32 = 0.005;
/// The most the material's mean colour may move, in sRGB codes (largest channel).
const COLOUR_CODES: f64 = 0.25;
/// The most the material's coverage of the frame may move.
const COVERAGE: f64 = 0.002;
/// The least 8 × 8 block luminance correlation.
const CORRELATION: f64 = 0.998;

fn golden_path(name: &str) -> PathBuf {
    root().join("tests/data/golden").join(format!("{name}.png"))
}

fn load_golden(name: &str) -> Image {
    let path = golden_path(name);
    let golden = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()))
        .to_rgba8();
    Image {
        width: golden.width(),
        height: golden.height(),
        rgba: golden.into_raw(),
    }
}

/// Mean of each `n × n` block, per channel, over the frame composed on black.
fn blocks(image: &Image, n: u32) -> Vec<[f32; 4]> {
    let (bw, bh) = (image.width / n, image.height / n);
    let mut out = vec![[0.0f32; 4]; (bw * bh) as usize];
    for y in 0..bh * n {
        for x in 0..bw * n {
            let p = &image.rgba[((y * image.width + x) * 4) as usize..][..4];
            let b = &mut out[((y / n) * bw + x / n) as usize];
            for c in 0..4 {
                b[c] += f32::from(p[c]) / (n * n) as f32;
            }
        }
    }
    out
}

/// How a frame compares with its golden.
#[derive(Debug)]
struct Verdict {
    /// Mean absolute difference over every byte, codes.
    mean_abs: f32,
    /// Share of 4 × 4 blocks differing by more than 24 codes in some channel.
    blocks_off: f32,
    /// Largest channel change of the material's mean colour, codes (infinite when
    /// either frame shows no material).
    colour: f64,
    /// Change of the material's coverage of the frame.
    coverage: f64,
    /// Correlation of 8 × 8 block luminance.
    pattern: f64,
}

impl Verdict {
    fn of(frame: &Image, golden: &Image) -> Self {
        assert_eq!(
            (frame.width, frame.height),
            (golden.width, golden.height),
            "frame size"
        );
        let mean_abs = frame
            .rgba
            .iter()
            .zip(&golden.rgba)
            .map(|(a, b)| f32::from(a.abs_diff(*b)))
            .sum::<f32>()
            / frame.rgba.len() as f32;
        let (a, b) = (blocks(frame, 4), blocks(golden, 4));
        let off = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| (0..4).any(|c| (x[c] - y[c]).abs() > 24.0))
            .count();
        let colour = match (frame.mean_color(), golden.mean_color()) {
            (Some(x), Some(y)) => {
                let (x, y) = (srgb_codes(x), srgb_codes(y));
                (0..3).map(|c| (x[c] - y[c]).abs()).fold(0.0, f64::max)
            }
            _ => f64::INFINITY,
        };
        Self {
            mean_abs,
            blocks_off: off as f32 / a.len() as f32,
            colour,
            coverage: (frame.coverage() - golden.coverage()).abs(),
            pattern: correlation(&block_luminance(frame), &block_luminance(golden)),
        }
    }

    fn holds(&self) -> bool {
        self.mean_abs <= MEAN_ABS
            && self.blocks_off <= BLOCKS_OFF
            && self.colour <= COLOUR_CODES
            && self.coverage <= COVERAGE
            && self.pattern >= CORRELATION
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "mean difference {:.2} codes, {:.1}% blocks off, material colour {:.2} codes, \
             coverage {:.4}, pattern {:.3}",
            self.mean_abs,
            100.0 * self.blocks_off,
            self.colour,
            self.coverage,
            self.pattern
        )
    }
}

fn render(offscreen: &mut Offscreen, scene: &mut Scene, distance: f32, overlay: bool) -> Image {
    offscreen
        .render(scene, &view(distance, GOLDEN, LevelMode::Auto, overlay))
        .expect("a frame")
        .image
}

/// Whether this run writes the goldens (`UPDATE_GOLDEN=1`) instead of comparing.
fn updating() -> bool {
    std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1")
}

/// Fails with every frame that missed its golden, naming the adapter.
fn all_held(offscreen: &Offscreen, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "adapter {}:\n{}",
        offscreen.adapter(),
        failures.join("\n")
    );
}

/// `frame` against golden `id` (or written as it, with `update`): what is wrong, if
/// anything, with the frame saved beside the golden as `id.new.png` to look at.
fn against_golden(id: &str, frame: &Image, update: bool) -> Option<String> {
    let path = golden_path(id);
    let save = |path: &std::path::Path| {
        image::save_buffer(
            path,
            &frame.rgba,
            frame.width,
            frame.height,
            image::ExtendedColorType::Rgba8,
        )
        .expect("frame written");
    };
    if update {
        save(&path);
        return None;
    }
    let verdict = Verdict::of(frame, &load_golden(id));
    println!("{id}: {verdict}");
    if verdict.holds() {
        return None;
    }
    let seen = path.with_extension("new.png");
    save(&seen);
    Some(format!("{id}: {verdict} (frame in {})", seen.display()))
}

#[test]
fn presets_match_their_golden_frames() {
    let update = updating();
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut failures = Vec::new();
    for (preset, _) in tuft_editor::PRESETS {
        let mut scene = scene(preset, 256);
        for (name, distance, overlay) in CASES {
            let frame = render(&mut offscreen, &mut scene, distance, overlay);
            failures.extend(against_golden(&format!("{preset}_{name}"), &frame, update));
        }
    }
    all_held(&offscreen, &failures);
}

/// A control: `frame` 5 codes brighter wherever the material is.
fn brighter(frame: &Image) -> Image {
    let mut shifted = frame.clone();
    for p in shifted.rgba.chunks_exact_mut(4).filter(|p| p[3] > 0) {
        for c in &mut p[..3] {
            *c = c.saturating_add(5);
        }
    }
    shifted
}

/// A control: sky only, every pixel as `frame`'s sky (a pixel without material).
fn blank(frame: &Image) -> Image {
    let sky = frame
        .rgba
        .chunks_exact(4)
        .find(|p| p[3] == 0)
        .map_or([0; 4], |p| [p[0], p[1], p[2], p[3]]);
    Image {
        rgba: sky.repeat(frame.rgba.len() / 4),
        ..frame.clone()
    }
}

/// The comparison above is only worth something if it fails on frames that are wrong.
/// Regression: it passed a frame 5 codes brighter at every distance (and about 20 at the
/// middle one), a blank frame and each other's presets at the far distance, and the lawn
/// without its fibres or its stragglers near, in the middle and far.
#[test]
fn the_golden_comparison_rejects_a_shift_a_blank_frame_another_preset_and_a_missing_layer() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut passed = Vec::new();
    let mut check = |what: String, frame: &Image, golden: &str| {
        let verdict = Verdict::of(frame, &load_golden(golden));
        println!("{what} against {golden}: {verdict}");
        if verdict.holds() {
            passed.push(format!("{what} passed as {golden}: {verdict}"));
        }
    };
    let mut frames = Vec::new();
    for (preset, _) in tuft_editor::PRESETS {
        let mut scene = scene(preset, 256);
        for (name, distance, overlay) in CASES {
            let frame = render(&mut offscreen, &mut scene, distance, overlay);
            let golden = format!("{preset}_{name}");
            check(format!("{golden} + 5 codes"), &brighter(&frame), &golden);
            check(format!("{golden} blank"), &blank(&frame), &golden);
            frames.push((preset, name, frame));
        }
    }
    for (preset, name, frame) in &frames {
        for (other, _) in tuft_editor::PRESETS.iter().filter(|o| o.0 != *preset) {
            check(
                format!("{preset}_{name}"),
                frame,
                &format!("{other}_{name}"),
            );
        }
    }
    for missing in ["fibres", "stragglers", "blades"] {
        // The layer gone from the material: its strands, and its relief in the maps.
        let mut doc = tuft_graph::io::load(&root().join("presets/lawn.ron")).expect("the lawn");
        doc.graph.strands.remove(missing);
        let (material, _) =
            tuft_editor::material::from_graph(&doc.graph, 256).expect("the lawn evaluates");
        let mut scene = Scene::new(material, tuft_render::SurfaceKind::Sphere);
        for (name, distance, overlay) in CASES.into_iter().filter(|c| !c.2) {
            let frame = render(&mut offscreen, &mut scene, distance, overlay);
            let golden = format!("lawn_{name}");
            if missing == "fibres" && name != "near" {
                // From 3 m the fibres are drawn fully blended toward what the surface
                // shows, and the surface shows the canopy of every layer: without them
                // the frame is the same picture within a third of a code (0.20
                // measured), which no comparison can tell apart. (The stragglers stand
                // taller than the blades, and the canopy a ray meets changes without
                // them.)
                let same = Verdict::of(&frame, &load_golden(&golden));
                assert!(
                    same.mean_abs < 0.3 && same.colour < 0.3,
                    "{missing} {name}: {same}"
                );
                continue;
            }
            check(format!("lawn without {missing}"), &frame, &golden);
        }
    }
    assert!(passed.is_empty(), "{}", passed.join("\n"));
}

/// The walker's frames: the lawn on the field from eye height (1.7 m, looking 0.03
/// turns down), along these yaws. Wider than the other goldens, so that the horizon
/// and the switches between are in the picture; drawn under the frame budget a window
/// of this size has, as a player would see them.
const WALKER_YAWS: [f32; 2] = [0.0, 0.25];
const WALKER: (u32, u32) = (320, 180);

fn walker_frames(offscreen: &mut Offscreen, material: tuft_render::Material) -> Vec<Image> {
    let mut scene = Scene::new(material, tuft_render::SurfaceKind::Field);
    WALKER_YAWS
        .iter()
        .map(|&yaw| {
            let view = View {
                camera: tuft_render::Camera {
                    walk_eye: Some([0.0, 1.7, 0.0]),
                    yaw,
                    pitch: 0.03,
                    ..tuft_render::Camera::default()
                },
                width: WALKER.0,
                height: WALKER.1,
                ..View::default()
            };
            offscreen.render(&mut scene, &view).expect("a frame").image
        })
        .collect()
}

fn lawn_material(without: Option<&str>) -> tuft_render::Material {
    let mut doc = tuft_graph::io::load(&root().join("presets/lawn.ron")).expect("the lawn");
    if let Some(layer) = without {
        doc.graph.strands.remove(layer);
    }
    tuft_editor::material::from_graph(&doc.graph, 256)
        .expect("the lawn evaluates")
        .0
}

/// The lawn from a player's eye, with the controls the other goldens have: a frame 5
/// codes brighter, a blank frame and the lawn without each of its layers must fail.
#[test]
fn the_lawn_at_a_walkers_eye_matches_its_goldens_and_a_shift_a_blank_or_a_missing_layer_does_not() {
    let update = updating();
    let mut offscreen = Offscreen::new().expect("an adapter");
    let frames = walker_frames(&mut offscreen, lawn_material(None));
    let ids: Vec<String> = WALKER_YAWS
        .iter()
        .map(|yaw| format!("lawn_walker_yaw{:03}", (yaw * 100.0).round() as u32))
        .collect();
    let failures: Vec<String> = ids
        .iter()
        .zip(&frames)
        .filter_map(|(id, frame)| against_golden(id, frame, update))
        .collect();
    all_held(&offscreen, &failures);
    let mut passed = Vec::new();
    let mut check = |what: &str, frame: &Image, id: &str| {
        let verdict = Verdict::of(frame, &load_golden(id));
        println!("{what} against {id}: {verdict}");
        if verdict.holds() {
            passed.push(format!("{what} passed as {id}: {verdict}"));
        }
    };
    for (id, frame) in ids.iter().zip(&frames) {
        check("+ 5 codes", &brighter(frame), id);
        check("blank", &blank(frame), id);
    }
    for missing in ["blades", "fibres", "stragglers"] {
        let without = walker_frames(&mut offscreen, lawn_material(Some(missing)));
        for (id, frame) in ids.iter().zip(&without) {
            if missing == "fibres" {
                // The nearest ground in these frames is 2.6 m off, where a fibre is a
                // twentieth of a pixel wide and drawn fully blended toward the canopy,
                // to which the fibres add about a tenth of a code (0.10 measured, with
                // the canopy's cover counted over every layer): the same picture.
                let same = Verdict::of(frame, &load_golden(id));
                assert!(
                    same.mean_abs < 0.15 && same.colour < 0.15,
                    "{missing}: {same}"
                );
                continue;
            }
            check(&format!("without {missing}"), frame, id);
        }
    }
    assert!(passed.is_empty(), "{}", passed.join("\n"));
}

/// Bakes `preset` with its maps at `resolution` and strands as `scheme` says, and reads
/// the set back as a viewer does: manifest, maps and strand file, no graph.
fn baked_scene(
    preset: &str,
    resolution: usize,
    scheme: tuft_strands::file::Scheme,
) -> (tempfile::TempDir, Scene) {
    let graph = tuft_graph::io::load(&root().join(format!("presets/{preset}.ron")))
        .expect("preset loads")
        .graph;
    let dir = tempfile::tempdir().expect("a temporary folder");
    tuft_bake::write_baked_set_with(
        &tuft_graph::Evaluator::new(&graph),
        dir.path(),
        &tuft_bake::BakeOptions {
            resolution,
            strands: scheme,
            ..Default::default()
        },
        &mut |_, _| {},
        &std::sync::atomic::AtomicBool::new(false),
    )
    .expect("the preset bakes");
    let material = tuft_render::baked::load(dir.path()).expect("the set reads back");
    (dir, Scene::new(material, tuft_render::SurfaceKind::Sphere))
}

/// The cameras a baked set is compared at: near, middle, far and the card level forced.
const PARITY: [(&str, f32, LevelMode); 4] = [
    ("near", 0.6, LevelMode::Auto),
    ("middle", 3.0, LevelMode::Auto),
    ("far", 15.0, LevelMode::Auto),
    ("cards", 3.0, LevelMode::Forced(tuft_render::Rep::Cards)),
];

#[test]
fn baked_sets_draw_what_their_graphs_draw() {
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut failures = Vec::new();
    for (preset, _) in tuft_editor::PRESETS {
        let mut from_graph = scene(preset, 256);
        // The graph's frames, drawn once for both schemes.
        let graph_frames: Vec<Image> = PARITY
            .iter()
            .map(|&(_, distance, level)| {
                let v = view(distance, GOLDEN, level, false);
                offscreen
                    .render(&mut from_graph, &v)
                    .expect("a frame")
                    .image
            })
            .collect();
        for scheme in [
            tuft_strands::file::Scheme::Stored,
            tuft_strands::file::Scheme::Quantised,
        ] {
            let (_dir, mut from_set) = baked_scene(preset, 256, scheme);
            for ((name, distance, level), a) in PARITY.into_iter().zip(&graph_frames) {
                let v = view(distance, GOLDEN, level, false);
                let b = offscreen.render(&mut from_set, &v).expect("a frame").image;
                let verdict = Verdict::of(&b, a);
                println!("{preset} {name} {scheme:?}: {verdict}");
                if scheme == tuft_strands::file::Scheme::Stored && a.rgba != b.rgba {
                    // Stored strands and the same 8-bit maps: the very same frame.
                    failures.push(format!("{preset} {name} stored: not identical ({verdict})"));
                } else if !verdict.holds() {
                    failures.push(format!("{preset} {name} {scheme:?}: {verdict}"));
                }
            }
        }
    }
    all_held(&offscreen, &failures);
}

/// A set that cannot be read draws nothing and says which file and why.
#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_damaged_baked_set_names_the_file_at_fault() {
    let (dir, _) = baked_scene("moss", 64, tuft_strands::file::Scheme::Stored);
    let set = dir.path();
    let load = || tuft_render::baked::load(set).map(|_| ()).unwrap_err();
    // Each damage, then the file put back.
    let strands = set.join("moss.strands");
    let bytes = std::fs::read(&strands).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    std::fs::write(&strands, &flipped).unwrap();
    let e = load();
    assert_eq!(e.path, strands);
    assert!(e.message.contains("corrupted"), "{e}");
    std::fs::remove_file(&strands).unwrap();
    let e = load();
    assert_eq!(e.path, strands);
    assert!(e.message.contains("cannot read"), "{e}");
    std::fs::write(&strands, &bytes).unwrap();
    let normal = set.join("moss_normal.png");
    let png = std::fs::read(&normal).unwrap();
    std::fs::write(&normal, &png[..png.len() / 2]).unwrap();
    let e = load();
    assert_eq!(e.path, normal);
    assert!(e.message.contains("PNG"), "{e}");
    std::fs::write(&normal, &png).unwrap();
    // Regression: a map that is a link to an endless device grew memory until the
    // process died.
    #[cfg(unix)]
    {
        std::fs::remove_file(&normal).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &normal).unwrap();
        let e = load();
        assert_eq!(e.path, normal);
        assert!(e.message.contains("a device, not a regular file"), "{e}");
        std::fs::remove_file(&normal).unwrap();
        std::fs::write(&normal, &png).unwrap();
    }
    let manifest = set.join("manifest.ron");
    let text = std::fs::read_to_string(&manifest).unwrap();
    // The first level's keep made 0.
    let at = text.find("keep: [").unwrap();
    let one = at + text[at..].find("1.0").unwrap();
    let no_keep = format!("{}0.0{}", &text[..one], &text[one + 3..]);
    let at = text.find("clump_lattice: ").unwrap();
    let comma = at + text[at..].find(',').unwrap();
    let no_lattice = format!("{}{}", &text[..at], &text[comma + 1..]);
    for (damaged, says) in [
        (
            text.replacen(
                "strands: \"moss.strands\"",
                "strands: \"../moss.strands\"",
                1,
            ),
            "inside the set's folder",
        ),
        (no_keep, "levels.keep"),
        (no_lattice, "clump_lattice"),
        (text.replacen("repeat_m: ", "repeat_m: -", 1), "repeat_m"),
        (text[..text.len() / 2].to_owned(), "not a manifest"),
        // Regression: a newer manifest was read as this version, and an absurd clump
        // lattice was obeyed.
        (
            text.replacen(
                &format!("version: {},", tuft_strands::manifest::MANIFEST_VERSION),
                "version: 99,",
                1,
            ),
            "manifest version 99 is newer than this build reads",
        ),
        (
            format!(
                "{}clump_lattice: 4294967295,{}",
                &text[..at],
                &text[comma + 1..]
            ),
            "clump_lattice 4294967295 is past the 2048",
        ),
    ] {
        assert_ne!(damaged, text);
        std::fs::write(&manifest, damaged).unwrap();
        let e = load();
        assert_eq!(e.path, manifest, "{e}");
        assert!(e.message.contains(says), "{says}: {e}");
    }
    std::fs::write(&manifest, &text).unwrap();
    assert!(
        tuft_render::baked::load(set).is_ok(),
        "the set put back reads"
    );
    let e = tuft_render::baked::load(&set.join("nowhere")).unwrap_err();
    assert!(e.message.contains("not a folder"), "{e}");
}

/// `doc` on the sample creature, the UV scale measured.
fn creature_scene(doc: &tuft_graph::Document) -> Scene {
    let mesh = tuft_render::mesh_file::load(&root().join("assets/creature.obj")).unwrap();
    let (material, _) = tuft_editor::material::from_graph(&doc.graph, 256).unwrap();
    let scale = mesh.repeats_per_uv(material.repeat_m);
    let surface = tuft_strands::surface::Surface::from_mesh(&mesh, scale).unwrap();
    Scene::on_mesh(
        material,
        std::sync::Arc::new(surface),
        &tuft_render::Reuse::default(),
    )
}

/// The creature's golden views: from the side near, and from above farther.
fn creature_views() -> [(&'static str, View); 2] {
    [("side", 0.5, 0.22, 0.03), ("above", 1.5, 0.1, 0.15)].map(|(name, distance, yaw, pitch)| {
        let mut v = view(distance, GOLDEN, LevelMode::Auto, false);
        v.camera.yaw = yaw;
        v.camera.pitch = pitch;
        (name, v)
    })
}

/// The fur preset on the sample creature, from the side near and from above farther:
/// the mesh's seams, thin legs and tail as the goldens hold them.
#[test]
fn the_fur_on_the_sample_creature_matches_its_golden_frames() {
    let update = updating();
    let doc = tuft_graph::io::load(&root().join("presets/fur.ron")).unwrap();
    let mut scene = creature_scene(&doc);
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut failures = Vec::new();
    for (name, v) in creature_views() {
        let frame = offscreen.render(&mut scene, &v).expect("a frame").image;
        failures.extend(against_golden(
            &format!("fur_creature_{name}"),
            &frame,
            update,
        ));
    }
    all_held(&offscreen, &failures);
}

/// `frame` 5 codes brighter wherever the material is, and a frame of its sky alone:
/// two frames no golden of `frame`'s view may pass.
fn shifted_and_blank(frame: &Image) -> [Image; 2] {
    let mut shifted = frame.clone();
    for p in shifted.rgba.chunks_exact_mut(4).filter(|p| p[3] > 0) {
        for c in &mut p[..3] {
            *c = c.saturating_add(5);
        }
    }
    let sky = frame
        .rgba
        .chunks_exact(4)
        .find(|p| p[3] == 0)
        .map_or([0; 4], |p| [p[0], p[1], p[2], p[3]]);
    let blank = Image {
        rgba: sky.repeat(frame.rgba.len() / 4),
        ..frame.clone()
    };
    [shifted, blank]
}

/// The creature's and the field's goldens are worth as much as the presets': each
/// fails a frame 5 codes brighter, a blank frame, and the material without a layer.
#[test]
fn the_creature_and_field_goldens_reject_a_shift_a_blank_frame_and_a_missing_layer() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut passed = Vec::new();
    let mut check = |what: String, frame: &Image, golden: &str| {
        let verdict = Verdict::of(frame, &load_golden(golden));
        println!("{what} against {golden}: {verdict}");
        if verdict.holds() {
            passed.push(format!("{what} passed as {golden}: {verdict}"));
        }
    };
    let fur = tuft_graph::io::load(&root().join("presets/fur.ron")).unwrap();
    let lawn = tuft_graph::io::load(&root().join("presets/lawn.ron")).unwrap();
    let without = |doc: &tuft_graph::Document, layer: &str| {
        let mut doc = doc.clone();
        assert!(doc.graph.strands.remove(layer).is_some(), "{layer}");
        doc
    };
    for (doc, label) in [
        (fur.clone(), "fur"),
        (without(&fur, "guard"), "fur without guard"),
        (without(&fur, "undercoat"), "fur without undercoat"),
    ] {
        let mut scene = creature_scene(&doc);
        for (name, v) in creature_views() {
            let frame = offscreen.render(&mut scene, &v).expect("a frame").image;
            let golden = format!("fur_creature_{name}");
            if label == "fur" {
                for (control, bad) in ["+ 5 codes", "blank"].iter().zip(shifted_and_blank(&frame)) {
                    check(format!("{golden} {control}"), &bad, &golden);
                }
            } else {
                check(format!("{label} {name}"), &frame, &golden);
            }
        }
    }
    for (doc, label) in [
        (lawn.clone(), "lawn"),
        (without(&lawn, "blades"), "lawn without blades"),
    ] {
        let mut scene = field_scene(&doc);
        for (name, v) in field_views() {
            let frame = offscreen.render(&mut scene, &v).expect("a frame").image;
            let golden = format!("lawn_field_{name}");
            if label == "lawn" {
                for (control, bad) in ["+ 5 codes", "blank"].iter().zip(shifted_and_blank(&frame)) {
                    check(format!("{golden} {control}"), &bad, &golden);
                }
            } else {
                check(format!("{label} {name}"), &frame, &golden);
            }
        }
    }
    assert!(passed.is_empty(), "{}", passed.join("\n"));
}

/// `doc` on the field.
fn field_scene(doc: &tuft_graph::Document) -> Scene {
    let (material, _) = tuft_editor::material::from_graph(&doc.graph, 256).unwrap();
    Scene::new(material, tuft_render::SurfaceKind::Field)
}

/// A walker's view of the field from `eye`, looking `pitch` turns down, due north.
fn walker(eye: [f32; 3], pitch: f32, overlay: bool) -> View {
    let mut v = view(2.0, GOLDEN, LevelMode::Auto, overlay);
    v.camera.walk_eye = Some(eye);
    v.camera.pitch = pitch;
    v.camera.yaw = 0.0;
    v
}

/// The field's golden views: at eye height, and from 12 m up.
fn field_views() -> [(&'static str, View); 2] {
    [
        ("eye", walker([0.0, 1.6, 0.0], 0.03, false)),
        ("above", walker([0.0, 12.0, 0.0], 0.12, false)),
    ]
}

/// The lawn on the field from a walker's eye: every representation at once, nearest
/// first, and two golden frames (eye height, and from 12 m up).
#[test]
fn the_field_shows_every_representation_at_once_and_matches_its_golden_frames() {
    let update = updating();
    let doc = tuft_graph::io::load(&root().join("presets/lawn.ron")).unwrap();
    let mut scene = field_scene(&doc);
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let frame = offscreen
        .render(&mut scene, &walker([0.0, 1.6, 0.0], 0.03, true))
        .expect("a frame");
    let blades = &frame.stats.layers[0];
    let reps: Vec<tuft_render::Rep> = blades.reps.iter().map(|(r, _)| *r).collect();
    assert!(
        reps.iter()
            .any(|r| matches!(r, tuft_render::Rep::Strands(_)))
            && reps.contains(&tuft_render::Rep::Cards)
            && reps.contains(&tuft_render::Rep::Relief),
        "{reps:?}"
    );
    assert!(
        frame.image.coverage() > 0.5,
        "the ground reaches the horizon"
    );
    let mut failures = Vec::new();
    for (name, v) in field_views() {
        let frame = offscreen.render(&mut scene, &v).expect("a frame").image;
        failures.extend(against_golden(
            &format!("lawn_field_{name}"),
            &frame,
            update,
        ));
    }
    all_held(&offscreen, &failures);
}
