//! The window and the preview: surfaces, levels, the camera, the overlay, the status bar.

use super::*;

#[test]
fn the_main_window_on_the_lawn() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    harness.run_steps(3);
    // With nothing selected the inspector shows the layers, each with its survivor view.
    assert_eq!(
        harness.get_all_by_label_contains("Survivors:").count(),
        3,
        "one per layer"
    );
    assert!(
        harness
            .state()
            .thumbnails()
            .survivors()
            .contains_key("blades")
    );
    // Software adapters differ a little between GL/llvmpipe and Vulkan/lavapipe, and the
    // preview's strands are a pixel wide: compare with a tolerance.
    harness.snapshot_options(
        "main_window_lawn",
        &SnapshotOptions::new()
            .threshold(4.0)
            .max_failed_pixels(25_000),
    );
}

#[test]
fn the_readme_shows_the_main_window_the_snapshot_test_renders() {
    // Regression: the README's picture showed an older editor. It is now the snapshot
    // `the_main_window_on_the_lawn` compares today's window with, so it cannot age.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let first = readme
        .lines()
        .find_map(|l| l.strip_prefix("![").and_then(|l| l.split_once("](")))
        .map(|(_, rest)| rest.trim_end_matches(')'))
        .expect("the README opens with a picture");
    assert_eq!(first, "editor/tests/snapshots/main_window_lawn.png");
    assert!(root().join(first).is_file());
}

#[test]
fn the_levels_side_by_side_draw_every_representation() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    harness.get_by_label("Levels side by side").click();
    settle(&mut harness);
    // Every layer of the lawn has three levels: five views (three levels, cards, relief),
    // the first of them at level 0 everywhere it is planted.
    assert!(harness.state().preview().side_by_side);
    let stats = &harness.state().preview().stats;
    assert!(
        stats.layers.iter().all(|l| l
            .reps
            .iter()
            .all(|(r, _)| *r == tuft_render::Rep::Strands(0))),
        "{stats:?}"
    );
}

#[test]
fn every_preset_survives_every_surface_chosen_in_the_preview() {
    // Regression: the fur on the plane or the box crashed the editor (one tile's buffer
    // was larger than the device allows).
    for (name, _) in tuft_editor::PRESETS {
        let path = root().join(format!("presets/{name}.ron"));
        let doc = tuft_graph::io::load(&path).unwrap();
        let mut harness = editor(doc, None);
        for (from, to) in [("sphere", "plane"), ("plane", "box"), ("box", "sphere")] {
            harness.get_by_value(from).click();
            harness.run_steps(2);
            harness.get_by_label(to).click();
            harness.run_steps(2);
            settle(&mut harness);
            assert_eq!(harness.state().surface().kind().name(), to, "{name}");
            let preview = harness.state().preview();
            assert!(
                preview.error.is_none(),
                "{name} on {to}: {:?}",
                preview.error
            );
            assert!(
                preview.stats.tiles_visible > 0 && preview.stats.triangles() > 0,
                "{name} on {to}: {:?}",
                preview.stats
            );
            let budget = tuft_render::FrameBudget::default();
            assert!(
                preview.stats.triangles() <= budget.triangles,
                "{name} on {to}"
            );
        }
    }
}

#[test]
fn the_orbit_camera_stays_above_the_plane() {
    let mut harness = editor(bare(), None);
    harness.get_by_value("sphere").click();
    harness.run_steps(2);
    harness.get_by_label("plane").click();
    harness.run_steps(2);
    assert_eq!(
        harness.state().surface().kind(),
        tuft_render::SurfaceKind::Plane
    );
    // Drag the preview far upward: on a sphere the camera would go below the equator.
    drag_by(
        &mut harness,
        egui::pos2(1180.0, 350.0),
        egui::vec2(0.0, -300.0),
        10,
    );
    // The drag took the camera all the way down (it acted), and no lower than the plane
    // allows.
    let pitch = harness.state().preview().view.camera.pitch;
    assert_eq!(
        pitch,
        tuft_render::SurfaceKind::Plane.min_pitch(),
        "pitch {pitch}"
    );
}

#[test]
fn the_ui_font_draws_the_arrows_the_diagnostics_and_tooltips_use() {
    // Regression: ← and → rendered as empty boxes (Ubuntu Light has neither).
    let mut harness = editor(bare(), None);
    harness.run_steps(1);
    let font = egui::FontId::proportional(14.0);
    assert!(harness.ctx.fonts_mut(|f| f.has_glyphs(&font, "← → × …")));
}

#[test]
fn the_level_overlay_has_a_legend() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    assert!(harness.query_by_label("relief").is_none(), "no legend yet");
    harness.get_by_label("Level overlay").click();
    harness.run_steps(2);
    // The lawn's layers have three levels each: every colour of the overlay is named.
    for name in ["level 0", "level 1", "level 2", "cards", "relief"] {
        harness.get_by_label(name);
    }
    harness.get_by_label("Level overlay").click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label("relief").is_none(),
        "the legend goes with it"
    );
}

#[test]
fn a_material_that_cannot_be_drawn_says_why_where_the_picture_would_be() {
    // Regression: the preview read "Building the preview…" for good, the reason only in
    // the status bar.
    let mut doc = bare();
    doc.graph.strands.insert(
        "meadow".into(),
        tuft_graph::StrandLayer {
            lattice: 7072,
            ..Default::default()
        },
    );
    let harness = editor(doc, None);
    assert!(harness.query_by_label("Building the preview…").is_none());
    let said = harness.get_by_label_contains("Nothing drawn: strand layer \"meadow\"");
    let text = said.value().unwrap_or_default();
    assert!(text.contains("50013184 candidates"), "{text}");
}

#[test]
fn the_status_bar_shows_the_interval_between_frames_not_only_the_ui_code() {
    let mut harness = editor(bare(), None);
    // Each frame at a time of the test's choosing: egui reads the interval from it.
    let mut now = harness.ctx.input(|i| i.time);
    let mut frame_after = |harness: &mut Ui, seconds: f64| {
        now += seconds;
        harness.input_mut().time = Some(now);
        harness.step();
    };
    // An author's pause: frames two seconds apart that nothing asked for are waits,
    // not frames, and the figure does not take them in.
    for _ in 0..8 {
        frame_after(&mut harness, 2.0);
    }
    assert!(
        harness
            .state()
            .frame_interval_ms()
            .is_none_or(|ms| ms < 1_000.0),
        "{:?}",
        harness.state().frame_interval_ms()
    );
    // A button held over the canvas (an orbit, a drag) draws frame after frame: that
    // interval is what the user sees, whatever the UI code itself took.
    let at = harness.get_by_label("Library").rect().center() + egui::vec2(400.0, 300.0);
    harness.event(egui::Event::PointerMoved(at));
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    for _ in 0..70 {
        frame_after(&mut harness, 0.1);
    }
    let ms = harness
        .state()
        .frame_interval_ms()
        .expect("frames measured");
    assert!((ms - 100.0).abs() < 0.01, "{ms}");
    harness.get_by_label_contains("frame 100 ms (UI ");
    // Another document's frames say nothing of this one's: File › New starts afresh.
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    frame_after(&mut harness, 0.5);
    assert_ne!(
        harness.state().session().doc().graph.name,
        "bare",
        "a new document"
    );
    let after = harness.state().frame_interval_ms();
    assert!(after.is_none_or(|ms| (ms - 100.0).abs() > 1.0), "{after:?}");
}

/// An edit that reaches a strand layer lands in two steps (its strands on the last
/// maps, then its own maps): once both are in, the preview holds what a whole build of
/// the edited graph gives, maps and layers alike, and the maps are not the ones before.
#[test]
fn an_edit_to_a_layer_ends_with_the_maps_and_strands_of_the_edited_graph() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    let maps_before = harness
        .state()
        .preview()
        .with_material(|m| m.maps.clone())
        .expect("the lawn is shown");
    let parameter = harness
        .state()
        .session()
        .doc()
        .graph
        .first_of_kind("Parameter")
        .expect("the lawn has a Parameter");
    harness
        .state_mut()
        .set_param(parameter, "value", ParamValue::Float(0.6));
    settle(&mut harness);
    assert!(!harness.state().rebuilding());
    let graph = harness.state().session().doc().graph.clone();
    let (whole, _) =
        tuft_editor::material::from_graph(&graph, tuft_editor::preview::PREVIEW_MAPS).unwrap();
    harness
        .state()
        .preview()
        .with_material(|shown| {
            assert!(shown.maps == whole.maps, "the edited graph's maps");
            assert!(shown.maps != maps_before, "the grass height moves the maps");
            assert!(shown.layers == whole.layers, "the edited graph's strands");
        })
        .expect("the edited lawn is shown");
}

/// The status bar is laid out before the preview plans its frame, so the frame that
/// draws the last tile the planting thread planted shows the figures of the frame
/// before it (the far tiles on a coarser level while they waited). Once the editor
/// stops asking for frames, the figures are those of the frame on screen.
#[test]
fn the_status_bar_settles_on_the_figures_of_the_frame_drawn() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    // Another surface: the preview plants its nearest tiles first, the rest on the
    // planting thread.
    harness.get_by_value("sphere").click();
    harness.run_steps(2);
    harness.get_by_label("plane").click();
    // Frames as a window draws them: each one the editor asks for within a second, until
    // it asks for none (the autosave's timer is further off).
    let mut waited = false;
    for frame in 0.. {
        assert!(frame < 100_000, "the editor settles");
        harness.step();
        waited |= harness.state().preview().stats.tiles_pending > 0;
        let asks = harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        if asks > std::time::Duration::from_secs(1) {
            break;
        }
    }
    assert!(waited, "the farther tiles waited for the planting thread");
    let stats = harness.state().preview().stats.clone();
    assert_eq!(stats.tiles_pending, 0);
    for layer in &stats.layers {
        harness.get_by_label_contains(&format!(
            "{}: {}, {} ({}",
            layer.name,
            tuft_editor::words::counted(layer.strands, "strand"),
            tuft_editor::words::counted(layer.triangles, "triangle"),
            layer.reps_text()
        ));
    }
}

#[test]
fn an_adapter_the_preview_cannot_draw_on_is_named_where_the_picture_would_be() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    let why = "the graphics adapter Old Card (Gl) cannot read storage buffers in vertex \
               shaders, which drawing strands needs";
    harness.state_mut().preview_cannot_draw(why.to_owned());
    harness.run_steps(2);
    harness.get_by_label(&format!("Nothing drawn: {why}."));
    // The rest of the editor works on: the graph, the library and the inspector.
    harness.get_by_label("Library");
    harness.get_by_label("Inspector");
}

/// The preview's slider labelled `label`.
fn sun_slider<'a>(harness: &'a Harness<'_, Editor>, label: &'a str) -> egui_kittest::Node<'a> {
    harness
        .get_all_by_label(label)
        .find(|n| {
            egui_kittest::kittest::NodeT::accesskit_node(n).role() == egui::accesskit::Role::Slider
        })
        .unwrap_or_else(|| panic!("the sun's {label} slider"))
}

#[test]
fn the_sun_sliders_move_the_previews_sun_and_reset_puts_the_shipped_one_back() {
    let mut harness = editor(bare(), None);
    harness.run_steps(2);
    assert_eq!(harness.state().preview().view.sun, None);
    assert!(harness.query_by_label("reset sun").is_none());
    let shipped = tuft_render::SunAngles::of(tuft_render::Light::default().sun());
    sun_slider(&harness, "azimuth").focus();
    harness.run_steps(1);
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    let moved = harness.state().preview().view.sun.expect("the sun moved");
    assert!(
        moved.azimuth > shipped.azimuth,
        "{moved:?} from {shipped:?}"
    );
    assert!(
        (moved.elevation - shipped.elevation).abs() < 1e-6,
        "{moved:?}"
    );
    sun_slider(&harness, "elevation").focus();
    harness.run_steps(1);
    harness.key_press(egui::Key::ArrowLeft);
    harness.run_steps(2);
    let lowered = harness.state().preview().view.sun.expect("the sun moved");
    assert!(lowered.elevation < shipped.elevation, "{lowered:?}");
    harness.get_by_label("reset sun").click();
    harness.run_steps(2);
    assert_eq!(harness.state().preview().view.sun, None);
    // The exposure and the lens on the same row.
    assert_eq!(harness.state().preview().view.exposure_ev, 0.0);
    sun_slider(&harness, "exposure, EV").focus();
    harness.run_steps(1);
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    assert!(harness.state().preview().view.exposure_ev > 0.0);
    let fov = harness.state().preview().view.camera.fov_y;
    sun_slider(&harness, "field of view").focus();
    harness.run_steps(1);
    harness.key_press(egui::Key::ArrowLeft);
    harness.run_steps(2);
    assert!(harness.state().preview().view.camera.fov_y < fov);
    // The turntable turns the orbit while it is on, and leaves it where it stopped.
    let yaw = harness.state().preview().view.camera.yaw;
    harness.get_by_label("turntable").click();
    harness.run_steps(10);
    let turned = harness.state().preview().view.camera.yaw;
    assert!((turned - yaw).rem_euclid(1.0) > 0.001, "{yaw} → {turned}");
    harness.get_by_label("turntable").click();
    harness.run_steps(2);
    let stopped = harness.state().preview().view.camera.yaw;
    harness.run_steps(10);
    assert_eq!(harness.state().preview().view.camera.yaw, stopped);
}
