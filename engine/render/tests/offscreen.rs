//! Frames drawn offscreen on whatever adapter wgpu finds (llvmpipe or lavapipe here).

use tuft_render::offscreen::srgb_codes;
use tuft_render::{
    Camera, FrameBudget, Layer, LevelMode, Light, Material, Offscreen, Rep, Scene, SunAngles,
    SurfaceKind, SurfaceMaps, View, Wind,
};
use tuft_strands::StrandSet;
use tuft_strands::cards::CardSettings;
use tuft_strands::levels::LevelSettings;
use tuft_strands::mesh::Profile;

/// A small meadow: `n` strands over a 1 m repeat, roots and ranks from a fixed mix.
fn meadow(n: usize) -> Material {
    let mut set = StrandSet::with_capacity(n);
    let mix = |i: u64, c: u32| tuft_strands::hash::unit_f32(tuft_strands::hash::hash(7, i, c));
    for i in 0..n as u64 {
        set.root_uv.push([mix(i, 1), mix(i, 2)]);
        set.rank.push(mix(i, 3));
        set.clump.push((mix(i, 4) * 64.0) as u32);
        set.length.push(0.04 + 0.05 * mix(i, 5));
        set.width.push(0.004);
        set.lean
            .push([0.3 * (mix(i, 6) - 0.5), 0.3 * (mix(i, 7) - 0.5)]);
        set.bend.push(0.3);
        set.root_color.push([0.03, 0.08, 0.02]);
        set.tip_color.push([0.2, 0.35, 0.08]);
        set.tip_pull.push([0.0; 2]);
        set.id.push(i as u32);
    }
    set.fill_neutral_groom();
    // Sorted by rank, as every set is.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| set.rank[a].total_cmp(&set.rank[b]));
    fn pick<T: Copy>(order: &[usize], v: &[T]) -> Vec<T> {
        order.iter().map(|&i| v[i]).collect()
    }
    let set = StrandSet {
        root_uv: pick(&order, &set.root_uv),
        rank: pick(&order, &set.rank),
        clump: pick(&order, &set.clump),
        length: pick(&order, &set.length),
        width: pick(&order, &set.width),
        lean: pick(&order, &set.lean),
        bend: pick(&order, &set.bend),
        root_color: pick(&order, &set.root_color),
        tip_color: pick(&order, &set.tip_color),
        tip_pull: pick(&order, &set.tip_pull),
        id: pick(&order, &set.id),
        curl: pick(&order, &set.curl),
        frizz: pick(&order, &set.frizz),
        taper: pick(&order, &set.taper),
    };
    Material {
        name: "meadow".into(),
        repeat_m: 1.0,
        maps: SurfaceMaps::flat([70, 60, 40]),
        layers: vec![Layer {
            name: "blades".into(),
            set: set.into(),
            profile: Profile::Ribbon { segments: 3 },
            levels: LevelSettings::default(),
            cards: CardSettings::default(),
            clump_lattice: 8,
            macro_variation: tuft_strands::macro_variation::MacroVariation::OFF,
            level_reports: Vec::new(),
        }],
    }
}

fn view(distance_m: f32, wind: Option<Wind>) -> View {
    View {
        camera: Camera {
            distance_m,
            ..Camera::default()
        },
        width: 128,
        height: 96,
        level: LevelMode::Auto,
        overlay: false,
        wind,
        blend_to_surface: true,
        level_layer: None,
        level_within_m: None,
        farthest_m: None,
        lod_bias: 1.0,
        sun: None,
        exposure_ev: 0.0,
    }
}

#[test]
fn zero_wind_draws_the_frame_no_wind_draws() {
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let still = offscreen
        .render(&mut scene, &view(0.6, None))
        .expect("a frame");
    let calm = Wind {
        strength: 0.0,
        direction: 0.3,
        time_s: 1.7,
    };
    let at_rest = offscreen
        .render(&mut scene, &view(0.6, Some(calm)))
        .expect("a frame");
    assert!(
        still.stats.strands() > 1000,
        "strands were drawn: {:?}",
        still.stats
    );
    assert!(
        still.image == at_rest.image,
        "the wind stage at zero strength changed pixels"
    );
    // And the stage does something when it blows (so the comparison above could fail).
    let breeze = Wind {
        strength: 1.0,
        ..calm
    };
    let windy = offscreen
        .render(&mut scene, &view(0.6, Some(breeze)))
        .expect("a frame");
    let changed = still
        .image
        .rgba
        .iter()
        .zip(&windy.image.rgba)
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed > 100, "wind moved {changed} bytes only");
}

/// The sun put where the shipped light has it draws the frame no sun draws; moved round
/// to the other side and lowered it lights the meadow otherwise, and overhead the
/// ground between the blades is brighter than with the sun low.
#[test]
fn the_sun_stands_where_the_view_puts_it() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let mut frame = |sun: Option<SunAngles>| {
        let v = View {
            sun,
            ..view(1.0, None)
        };
        let image = offscreen.render(&mut scene, &v).expect("a frame").image;
        let mean = image.mean_color().expect("the meadow is in view");
        (image, srgb_codes(mean))
    };
    let (plain, plain_mean) = frame(None);
    let shipped = SunAngles::of(Light::default().sun());
    let (same, _) = frame(Some(shipped));
    let largest = plain
        .rgba
        .iter()
        .zip(&same.rgba)
        .map(|(a, b)| a.abs_diff(*b))
        .max();
    assert!(
        largest <= Some(1),
        "the shipped sun as angles moved a pixel by {largest:?}"
    );
    let low_behind = SunAngles {
        azimuth: shipped.azimuth + 0.5,
        elevation: 0.02,
    };
    let (_, behind_mean) = frame(Some(low_behind));
    let overhead = SunAngles {
        azimuth: 0.0,
        elevation: 0.25,
    };
    let (_, overhead_mean) = frame(Some(overhead));
    let luma = |c: [f64; 3]| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    println!(
        "luma: shipped {:.1}, low behind {:.1}, overhead {:.1}",
        luma(plain_mean),
        luma(behind_mean),
        luma(overhead_mean)
    );
    assert!(
        luma(plain_mean) - luma(behind_mean) > 5.0,
        "shipped {plain_mean:?}, low behind {behind_mean:?}"
    );
    assert!(
        luma(overhead_mean) > luma(behind_mean) + 5.0,
        "overhead {overhead_mean:?}, low behind {behind_mean:?}"
    );
}

/// A stop of exposure doubles the light a frame shows below the display's shoulder and
/// one down halves it; none draws the frame as lit. The meadow's lit tips pass the
/// shoulder at +1 EV, so its mean gains a little under twice (1.94 measured).
#[test]
fn exposure_multiplies_the_light_by_stops() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let mut mean = |exposure_ev: f32| {
        let v = View {
            exposure_ev,
            ..view(1.0, None)
        };
        let image = offscreen.render(&mut scene, &v).expect("a frame").image;
        let [r, g, b] = image.mean_color().expect("the meadow is in view");
        0.2126 * r + 0.7152 * g + 0.0722 * b
    };
    let (lit, up, down) = (mean(0.0), mean(1.0), mean(-1.0));
    println!("linear luminance: -1 EV {down:.4}, 0 EV {lit:.4}, +1 EV {up:.4}");
    assert!(
        up / lit > 1.85 && up / lit <= 2.0,
        "+1 EV: {up} against {lit}"
    );
    assert!(
        (down / lit - 0.5).abs() < 0.02,
        "-1 EV: {down} against {lit}"
    );
}

#[test]
fn forced_levels_draw_nested_prefixes() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let mut strands = Vec::new();
    for rep in [
        Rep::Strands(0),
        Rep::Strands(1),
        Rep::Strands(2),
        Rep::Cards,
        Rep::Relief,
    ] {
        let mut v = view(1.0, None);
        v.level = LevelMode::Forced(rep);
        let frame = offscreen.render(&mut scene, &v).expect("a frame");
        strands.push((frame.stats.strands(), frame.stats.layers[0].cards));
    }
    // Each cut keeps about its fraction of the one before; cards and relief no strands.
    let (s0, s1, s2) = (
        strands[0].0 as f64,
        strands[1].0 as f64,
        strands[2].0 as f64,
    );
    assert!((s1 / s0 - 0.25).abs() < 0.03, "{strands:?}");
    assert!((s2 / s0 - 0.0625).abs() < 0.02, "{strands:?}");
    assert_eq!(strands[3].0, 0);
    assert!(strands[3].1 > 0, "the card level draws cards");
    assert_eq!(strands[4], (0, 0));
}

/// Near the sphere the tiles round its far side are left undrawn: the frame is the one
/// drawn with every tile the frustum and the facing test keep, pixel for pixel, with
/// fewer triangles.
#[test]
fn tiles_the_sphere_hides_are_left_undrawn_and_the_frame_stays_the_same() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Sphere);
    for distance in [0.2, 0.6] {
        let mut v = view(distance, None);
        v.level = LevelMode::Forced(Rep::Strands(0));
        let culled = offscreen.render(&mut scene, &v).expect("a frame");
        scene.set_surface_occludes(false);
        let every = offscreen.render(&mut scene, &v).expect("a frame");
        scene.set_surface_occludes(true);
        assert_eq!(every.stats.tiles_hidden, 0);
        assert!(
            culled.stats.tiles_hidden > 0,
            "{distance} m: {:?}",
            culled.stats
        );
        assert!(
            culled.stats.triangles() < every.stats.triangles(),
            "{distance} m: {} against {}",
            culled.stats.triangles(),
            every.stats.triangles()
        );
        println!("{distance} m: {:?}", culled.stats);
        assert!(
            culled.image.rgba == every.image.rgba,
            "{distance} m: the frames differ"
        );
    }
}

#[test]
fn a_bad_size_is_an_error_not_a_panic() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let mut scene = Scene::new(meadow(100), SurfaceKind::Sphere);
    let mut v = view(1.0, None);
    v.width = 0;
    let err = offscreen.render(&mut scene, &v).expect_err("zero width");
    assert!(err.to_string().contains("0×96"), "{err}");
}

#[test]
fn a_planting_budget_spreads_the_work_over_frames_and_ends_where_one_frame_would() {
    let whole = {
        let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
        scene.plan(&view(0.5, None)).stats
    };
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    scene.set_plant_budget(Some(2_000));
    let first = scene.plan(&view(0.5, None)).stats;
    assert!(first.tiles_pending > 0, "{first:?}");
    assert!(first.strands() < whole.strands(), "coarser while planting");
    let mut frames = 1;
    let mut last = first;
    while last.tiles_pending > 0 {
        last = scene.plan(&view(0.5, None)).stats;
        frames += 1;
        assert!(frames < 100, "planting never finishes");
    }
    assert!(frames > 2);
    assert_eq!(last.layers, whole.layers, "the same frame once planted");
}

#[test]
fn deferred_planting_runs_off_the_scene_and_ends_where_one_frame_would() {
    let whole = {
        let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
        scene.plan(&view(0.5, None)).stats
    };
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    scene.set_deferred_planting(true);
    let first = scene.plan(&view(0.5, None)).stats;
    assert_eq!(first.tiles_rebuilt, 0, "plan plants nothing itself");
    assert!(first.tiles_pending > 0);
    let mut rounds = 0;
    while let Some(work) = scene.planting(3_000) {
        // The work holds what it needs: it runs with the scene free to draw.
        let planted = work.run();
        scene.install(planted);
        let _ = scene.plan(&view(0.5, None));
        rounds += 1;
        assert!(rounds < 100, "planting never finishes");
    }
    assert!(rounds > 1);
    let last = scene.plan(&view(0.5, None)).stats;
    assert_eq!(last.tiles_pending, 0);
    assert_eq!(last.layers, whole.layers, "the same frame once planted");
    // Work planted for one scene is not taken by another.
    let mut other = Scene::new(meadow(20_000), SurfaceKind::Plane);
    other.set_deferred_planting(true);
    let _ = other.plan(&view(0.5, None));
    let work = other.planting(usize::MAX).expect("work");
    let mut third = Scene::new(meadow(20_000), SurfaceKind::Plane);
    third.set_deferred_planting(true);
    let before = third.plan(&view(0.5, None)).stats;
    third.install(work.run());
    assert_eq!(third.plan(&view(0.5, None)).stats, before);
}

#[test]
fn a_scene_reusing_its_unchanged_layers_draws_what_a_fresh_one_draws() {
    let mut material = meadow(8_000);
    let mut second = meadow(3_000).layers.remove(0);
    second.name = "moss".into();
    material.layers.push(second);
    let first = Scene::new(material.clone(), SurfaceKind::Plane);
    // An edit to the second layer: a new set; the first layer's set is untouched.
    let mut edited = material.clone();
    edited.layers[1].set = meadow(4_000).layers.remove(0).set;
    let reuse = first.reuse();
    assert_eq!(reuse.covers(&edited, SurfaceKind::Plane), [true, false]);
    // An equal set in a new allocation is not taken for the same one, nor is another
    // surface.
    let mut copied = material.clone();
    copied.layers[0].set = std::sync::Arc::new((*material.layers[0].set).clone());
    assert_eq!(reuse.covers(&copied, SurfaceKind::Plane), [false, true]);
    assert_eq!(reuse.covers(&material, SurfaceKind::Box), [false, false]);
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    for distance in [0.3, 2.0, 12.0] {
        let mut fresh = Scene::new(edited.clone(), SurfaceKind::Plane);
        let mut reused = Scene::reusing(edited.clone(), SurfaceKind::Plane, &reuse);
        let a = offscreen
            .render(&mut fresh, &view(distance, None))
            .expect("a frame");
        let b = offscreen
            .render(&mut reused, &view(distance, None))
            .expect("a frame");
        assert_eq!(a.stats, b.stats, "at {distance} m");
        assert!(a.image == b.image, "a different frame at {distance} m");
    }
}

#[test]
fn a_scene_taking_over_the_bins_of_an_edit_that_moved_no_root_draws_what_a_fresh_one_draws() {
    let material = meadow(8_000);
    let first = Scene::new(material.clone(), SurfaceKind::Plane);
    let reuse = first.reuse();
    // Longer, leaning, recoloured strands at the very same roots: the bins and the
    // grouping are taken over, the cards made again from the new lengths and colours.
    let mut edited = material.clone();
    let mut set = (*material.layers[0].set).clone();
    for (l, c) in set.length.iter_mut().zip(&mut set.tip_color) {
        *l *= 1.6;
        *c = [0.3, 0.2, 0.05];
    }
    set.lean.iter_mut().for_each(|x| x[0] += 0.2);
    edited.layers[0].set = std::sync::Arc::new(set.clone());
    assert_eq!(reuse.covers(&edited, SurfaceKind::Plane), [false]);
    assert_eq!(reuse.covers_roots(&edited, SurfaceKind::Plane), [true]);
    // One root a bit away, or another surface, and nothing is taken over.
    let mut moved = edited.clone();
    set.root_uv[4_000][0] = f32::from_bits(set.root_uv[4_000][0].to_bits() + 1);
    moved.layers[0].set = std::sync::Arc::new(set);
    assert_eq!(reuse.covers_roots(&moved, SurfaceKind::Plane), [false]);
    assert_eq!(reuse.covers_roots(&edited, SurfaceKind::Box), [false]);
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let cards = View {
        level: LevelMode::Forced(Rep::Cards),
        ..view(3.0, None)
    };
    for view in [view(0.3, None), view(2.0, None), view(12.0, None), cards] {
        let mut fresh = Scene::new(edited.clone(), SurfaceKind::Plane);
        let mut reused = Scene::reusing(edited.clone(), SurfaceKind::Plane, &reuse);
        let a = offscreen.render(&mut fresh, &view).expect("a frame");
        let b = offscreen.render(&mut reused, &view).expect("a frame");
        assert_eq!(a.stats, b.stats, "{view:?}");
        assert!(a.image == b.image, "a different frame: {view:?}");
    }
}

#[test]
fn cards_are_planted_when_a_frame_first_wants_them_and_draw_as_if_planted_at_once() {
    let card_level = View {
        level: LevelMode::Forced(Rep::Cards),
        ..view(3.0, None)
    };
    let cards = |stats: &tuft_render::FrameStats| stats.layers[0].cards;
    // Planted inline by the frame that wants them.
    let mut eager = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let near = eager.plan(&view(0.3, None)).stats;
    assert_eq!(cards(&near), 0, "no cards near");
    let whole = eager.plan(&card_level).stats;
    assert!(cards(&whole) > 0, "cards at the card level: {whole:?}");
    // Deferred: the first frame at the card level finds none and waits; the planting work
    // builds them.
    let mut deferred = Scene::new(meadow(20_000), SurfaceKind::Plane);
    deferred.set_deferred_planting(true);
    let first = deferred.plan(&card_level).stats;
    assert_eq!(cards(&first), 0);
    assert!(first.tiles_pending > 0);
    let mut rounds = 0;
    while let Some(work) = deferred.planting(usize::MAX) {
        deferred.install(work.run());
        let _ = deferred.plan(&card_level);
        rounds += 1;
        assert!(rounds < 100, "planting never finishes");
    }
    let last = deferred.plan(&card_level).stats;
    assert_eq!(last.tiles_pending, 0);
    assert_eq!(last.layers, whole.layers, "the same frame once planted");
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let a = offscreen.render(&mut eager, &card_level).expect("a frame");
    let b = offscreen
        .render(&mut deferred, &card_level)
        .expect("a frame");
    assert!(a.image == b.image, "cards planted later draw differently");
}

/// A scene is uploaded before its atlas is drawn when its first frames want no cards
/// (an edit's first landing): the atlas is drawn with the first card tile, and the
/// renderer binds it then, so the cards draw as a scene that wanted them at once.
#[test]
fn cards_wanted_after_the_upload_draw_with_their_atlas() {
    let card_level = View {
        level: LevelMode::Forced(Rep::Cards),
        ..view(3.0, None)
    };
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut near_first = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let near = offscreen
        .render(&mut near_first, &view(0.3, None))
        .expect("a frame");
    assert_eq!(near.stats.layers[0].cards, 0, "no cards near");
    let later = offscreen
        .render(&mut near_first, &card_level)
        .expect("a frame");
    let mut at_once = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let wanted = offscreen
        .render(&mut at_once, &card_level)
        .expect("a frame");
    assert!(later.stats.layers[0].cards > 0, "{:?}", later.stats);
    assert!(
        later.image == wanted.image,
        "cards bound late draw differently"
    );
    // Without its atlas a card draws nothing (every texel fails the alpha test): the
    // frame would be the bare surface.
    let mut bare = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let relief = View {
        level: LevelMode::Forced(Rep::Relief),
        ..card_level
    };
    let surface = offscreen.render(&mut bare, &relief).expect("a frame");
    assert!(later.image != surface.image, "the cards drew nothing");
}

/// Strands nearer than the blend's start keep their own colour, pixel for pixel; far
/// away they become the surface behind them: a meadow on a flat brown surface, seen
/// through the last strand level, turns from green blades to that brown.
#[test]
fn strands_blend_toward_the_surface_only_far_away() {
    let mut offscreen = Offscreen::new().expect("an adapter (software is fine)");
    let mut scene = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let own = |v: View| View {
        blend_to_surface: false,
        ..v
    };
    // Looking down, so nothing in the frame is far.
    let mut near = view(0.6, None);
    near.camera.pitch = 0.24;
    let [start, end] = scene.blend_distances(0, &near.camera, near.height as f32);
    assert!(0.6 < start && start < end, "{start} {end}");
    let blended = offscreen.render(&mut scene, &near).expect("a frame");
    let plain = offscreen.render(&mut scene, &own(near)).expect("a frame");
    assert!(blended.image == plain.image, "a near frame changed");

    let last = LevelMode::Forced(Rep::Strands(2));
    let mut far = View {
        level: last,
        ..view(end * 1.2, None)
    };
    far.camera.pitch = 0.24;
    let surface = View {
        level: LevelMode::Forced(Rep::Relief),
        ..far
    };
    let blended = offscreen.render(&mut scene, &far).expect("a frame");
    let plain = offscreen.render(&mut scene, &own(far)).expect("a frame");
    let bare = offscreen.render(&mut scene, &surface).expect("a frame");
    let (inside, bare_inside) = blended
        .image
        .mean_colors_inside(&bare.image, &bare.image)
        .expect("the surface fills the frame");
    let (own_inside, _) = plain
        .image
        .mean_colors_inside(&bare.image, &bare.image)
        .expect("the surface fills the frame");
    let gap = |a: [f64; 3], b: [f64; 3]| (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f64::max);
    assert!(
        plain.stats.strands() > 0,
        "strands were drawn: {:?}",
        plain.stats
    );
    assert!(
        gap(own_inside, bare_inside) > 0.01,
        "the blades' own colour differs from the surface: {own_inside:?} {bare_inside:?}"
    );
    assert!(
        gap(inside, bare_inside) < 0.002,
        "blended blades show the surface: {inside:?} vs {bare_inside:?}"
    );
}

#[test]
fn tiles_split_to_a_small_buffer_limit_draw_the_frame_one_buffer_draws() {
    // Regression: the fur on the plane made one tile's vertex buffer larger than the
    // device allows (276 MB against 256 MB) and wgpu panicked. Buffers are now split to
    // whatever the device's limit is; at 64 KB every tile here is cut in several chunks.
    let mut whole = Offscreen::new().expect("an adapter");
    let mut split = Offscreen::with_limits(|own| wgpu::Limits {
        max_buffer_size: 64 << 10,
        ..own
    })
    .expect("an adapter with a lower limit");
    assert_eq!(split.limits().max_buffer_size, 64 << 10);
    let v = view(0.6, None);
    let a = whole
        .render(&mut Scene::new(meadow(20_000), SurfaceKind::Plane), &v)
        .expect("a frame");
    let b = split
        .render(&mut Scene::new(meadow(20_000), SurfaceKind::Plane), &v)
        .expect("a frame");
    assert!(a.stats.strands() > 1000, "{:?}", a.stats);
    assert_eq!(whole.max_tile_chunks(), 1);
    assert!(split.max_tile_chunks() > 2, "{}", split.max_tile_chunks());
    assert!(a.image == b.image, "a split tile drew other pixels");
}

#[test]
fn the_frame_budget_draws_the_farthest_tiles_coarser_until_the_frame_fits() {
    let mut offscreen = Offscreen::new().expect("an adapter");
    let v = view(0.6, None);
    let mut free = Scene::new(meadow(20_000), SurfaceKind::Plane);
    let whole = offscreen.render(&mut free, &v).expect("a frame").stats;
    assert!(!whole.budget_limited, "{whole:?}");
    let triangles = whole.triangles();
    assert!(triangles > 10_000, "{whole:?}");
    // A quarter of those triangles: the frame fits by taking tiles coarser.
    let mut tight = Scene::new(meadow(20_000), SurfaceKind::Plane);
    tight.set_budget(FrameBudget {
        triangles: triangles / 4,
        bytes: u64::MAX,
    });
    let cut = offscreen.render(&mut tight, &v).expect("a frame").stats;
    assert!(cut.budget_limited && cut.tiles_coarsened > 0, "{cut:?}");
    assert!(
        cut.triangles() <= triangles / 4,
        "{} > {}",
        cut.triangles(),
        triangles / 4
    );
    assert!(cut.triangles() > 0, "something is still drawn");
    // Every switch came nearer, each with its fade, as a smaller level-of-detail bias
    // would: the budget's frame is the free frame at that bias, draw for draw, the
    // blend toward the surface included. Forcing the farthest tiles coarser instead
    // cut every fade at one distance, a hard edge across a field seen from eye height.
    assert!(cut.budget_scale > 0.0 && cut.budget_scale < 1.0, "{cut:?}");
    let draws = |plan: &tuft_render::scene::FramePlan| -> Vec<_> {
        plan.draws
            .iter()
            .map(|d| {
                let blend = d.params.blend_m.map(f32::to_bits);
                (d.target, d.index_count, d.params.fade.to_bits(), blend)
            })
            .collect()
    };
    let at_bias = |scale: f32| {
        let scaled = View {
            lod_bias: scale,
            ..v
        };
        draws(&Scene::new(meadow(20_000), SurfaceKind::Plane).plan(&scaled))
    };
    // The next frame's search starts about this one's scale: it finds the same scale
    // to the search's precision (1.7 %), and its frame is that bias's too.
    let next = tight.plan(&v);
    let ratio = next.stats.budget_scale / cut.budget_scale;
    assert!(
        (1.0 / 1.0165..=1.0165).contains(&ratio),
        "{} then {}",
        cut.budget_scale,
        next.stats.budget_scale
    );
    assert!(next.stats.triangles() <= triangles / 4, "{:?}", next.stats);
    assert_eq!(draws(&next), at_bias(next.stats.budget_scale));
    let mut cold = Scene::new(meadow(20_000), SurfaceKind::Plane);
    cold.set_budget(tight.budget());
    let first = cold.plan(&v);
    assert_eq!(
        first.stats.budget_scale, cut.budget_scale,
        "a fresh scene searches afresh"
    );
    assert_eq!(draws(&first), at_bias(cut.budget_scale));
    // The bytes held count too.
    let mut small = Scene::new(meadow(20_000), SurfaceKind::Plane);
    small.set_budget(FrameBudget {
        triangles: u64::MAX,
        bytes: 1 << 20,
    });
    let held = offscreen.render(&mut small, &v).expect("a frame").stats;
    assert!(held.budget_limited, "{held:?}");
    assert!(held.triangles() < triangles);
}

#[test]
fn a_switch_is_measured_on_the_ground_of_its_fade_band_from_grazing_to_overhead() {
    use tuft_render::parity::{Seen, switch_seen, switches_seen_through};
    let mut offscreen = Offscreen::new().expect("an adapter");
    let first = Scene::new(meadow(4_000), SurfaceKind::Field);
    let reuse = first.reuse();
    let switches = switches_seen_through(&first, 0, 96);
    let &(from, to, d) = switches.first().expect("the meadow switches");
    assert_eq!((from, to), (Rep::Strands(0), Rep::Strands(1)));
    for (seen, degrees) in [
        (Seen::Above(2.0 / 360.0), Some(2.0)),
        (Seen::Above(85.0 / 360.0), Some(85.0)),
        (Seen::EyeAt(1.7), None),
    ] {
        let mut scene = Scene::reusing(meadow(4_000), SurfaceKind::Field, &reuse);
        let s = switch_seen(
            &mut offscreen,
            &mut scene,
            0,
            (from, to, d),
            seen,
            0.08,
            (128, 96),
        )
        .expect("two frames");
        // The band's ground fills rows of the frame, at the elevation asked for (a
        // walker's eye sees the switch from the elevation its height gives there).
        assert!(s.rows >= 8 && s.coverage > 0.9, "{s}");
        let want = degrees.unwrap_or_else(|| (1.7 / d).min(1.0).asin().to_degrees());
        assert!((s.elevation_deg - want).abs() < 0.5, "{s}: want {want}°");
        assert!(s.colour.is_finite() && s.colour < 5.0, "{s}");
        assert!(s.pattern.is_finite(), "{s}");
    }
    // The measure tells a switch from none: a representation against itself is the
    // same picture, and the switch moves some of the band's pixels.
    let seen = Seen::Above(25.0 / 360.0);
    let mut measure = |switch| {
        let mut scene = Scene::reusing(meadow(4_000), SurfaceKind::Field, &reuse);
        switch_seen(&mut offscreen, &mut scene, 0, switch, seen, 0.08, (128, 96))
            .expect("two frames")
    };
    let none = measure((from, from, d));
    assert!(none.colour == 0.0 && none.pattern == 1.0, "{none}");
    let switch = measure((from, to, d));
    assert!(switch.colour > 0.0 && switch.pattern < 1.0, "{switch}");
    // A level forced within a band reaches no tile outside it, and nothing past the
    // farthest distance is drawn.
    let mut scene = Scene::reusing(meadow(4_000), SurfaceKind::Field, &reuse);
    let base = View {
        camera: Camera {
            walk_eye: Some([0.0, 1.7, 0.0]),
            pitch: 0.03,
            ..Camera::default()
        },
        ..view(2.0, None)
    };
    let draws = |scene: &mut Scene, view: &View| -> Vec<_> {
        let plan = scene.plan(view);
        plan.draws
            .iter()
            .map(|d| (d.target, d.index_count))
            .collect()
    };
    let auto = draws(&mut scene, &base);
    let forced_nowhere = View {
        level: LevelMode::Forced(Rep::Relief),
        level_within_m: Some([-2.0, -1.0]),
        ..base
    };
    assert_eq!(draws(&mut scene, &forced_nowhere), auto);
    let forced_near = View {
        level_within_m: Some([0.0, 4.0]),
        ..forced_nowhere
    };
    assert_ne!(draws(&mut scene, &forced_near), auto);
    let near_only = View {
        farthest_m: Some(4.0),
        ..base
    };
    let fewer = draws(&mut scene, &near_only);
    assert!(
        !fewer.is_empty() && fewer.len() < auto.len(),
        "{} of {}",
        fewer.len(),
        auto.len()
    );
}
