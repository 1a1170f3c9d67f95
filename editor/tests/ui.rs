//! The editor driven as a user drives it, through egui_kittest: by labels, clicks and
//! keys, on a software wgpu adapter.

use egui_kittest::kittest::Queryable as _;
use egui_kittest::{Harness, SnapshotOptions};
use std::path::PathBuf;
use tuft_editor::app::Editor;
use tuft_editor::session::Session;
use tuft_graph::value::Value;
use tuft_graph::{Document, InRef, MaterialGraph, OutRef, ParamValue, Sink};

/// A material with a surface and no strands: quick to preview.
fn bare() -> Document {
    Document::new(MaterialGraph::new("bare"))
}

fn editor(doc: Document, autosave: Option<PathBuf>) -> Harness<'static, Editor> {
    let mut harness = Harness::builder()
        .with_size([1440.0, 900.0])
        .wgpu()
        .build_eframe(move |cc| Editor::new(cc, Session::new(doc, None), autosave));
    settle(&mut harness);
    harness
}

/// Lets the workers finish and the UI draw what they made, the preview's tiles planted
/// (the UI thread plants a budget per frame).
fn settle(harness: &mut Harness<'static, Editor>) {
    let ctx = harness.ctx.clone();
    harness.state_mut().wait_for_workers(&ctx);
    harness.run_steps(3);
    for _ in 0..500 {
        if harness.state().preview().stats.tiles_pending == 0 {
            break;
        }
        harness.step();
    }
    assert_eq!(
        harness.state().preview().stats.tiles_pending,
        0,
        "planting finished"
    );
}

fn base_color() -> InRef {
    InRef::Sink(Sink::Pbr("base_color".into()))
}

fn roughness() -> InRef {
    InRef::Sink(Sink::Pbr("roughness".into()))
}

/// Presses at `from` and moves the pointer to `to` in steps, a frame each, as a hand
/// drags a wire (the caller releases it).
fn drag_wire(harness: &mut Harness<'static, Editor>, from: egui::Pos2, to: egui::Pos2) {
    harness.hover_at(from);
    harness.run_steps(1);
    harness.drag_at(from);
    harness.run_steps(1);
    for k in 1..=8 {
        harness.hover_at(from + (to - from) * (k as f32 / 8.0));
        harness.run_steps(1);
    }
}

/// Clicks `kind` in the library; the new node is selected and of that kind.
fn add_from_library(harness: &mut Harness<'static, Editor>, kind: &str) -> tuft_graph::NodeId {
    harness.get_by_label(kind).click();
    harness.run_steps(2);
    let id = harness
        .state()
        .selected()
        .expect("the new node is selected");
    let added = harness
        .state()
        .session()
        .doc()
        .graph
        .node(id)
        .map(|n| n.kind.clone());
    assert_eq!(added.as_deref(), Some(kind));
    id
}

#[test]
fn a_node_added_from_the_library_is_wired_and_edited_and_everything_follows() {
    let mut harness = editor(bare(), None);
    let id = add_from_library(&mut harness, "Noise");
    // Wired into the roughness: the graph holds the link.
    assert!(
        harness
            .state_mut()
            .connect(OutRef::new(id, "out"), &roughness())
    );
    settle(&mut harness);
    let thumb_before = harness
        .state()
        .thumbnails()
        .textures()
        .get(&id)
        .map(egui::TextureHandle::id);
    assert!(thumb_before.is_some(), "the new node has a thumbnail");
    // Its inspector shows its parameters; an edit of the scale re-validates at once and
    // the thumbnail is redrawn.
    harness.get_by_label("scale");
    harness
        .state_mut()
        .set_param(id, "scale", ParamValue::Float(2.5));
    harness.run_steps(2);
    let report = harness.state().report();
    assert!(
        report.for_node(id).any(tuft_graph::Diagnostic::is_error),
        "a non-integer scale is a seam: {:?}",
        report.diagnostics
    );
    settle(&mut harness);
    let generation = harness.state().session().generation();
    assert_eq!(harness.state().thumbnails().shown, generation);
    assert_ne!(
        harness
            .state()
            .thumbnails()
            .textures()
            .get(&id)
            .map(egui::TextureHandle::id),
        thumb_before
    );
    // A constant edited inline: the base colour's constant changes.
    harness
        .state_mut()
        .set_constant(&base_color(), Value::Color([0.5, 0.2, 0.1]));
    harness.run_steps(1);
    assert_eq!(
        harness.state().session().doc().graph.pbr.base_color,
        tuft_graph::Input::Const(Value::Color([0.5, 0.2, 0.1]))
    );
}

#[test]
fn a_seam_names_its_node_in_the_diagnostics_and_undo_removes_it() {
    let mut harness = editor(bare(), None);
    let id = harness.state_mut().add_node("Noise").expect("Noise exists");
    harness
        .state_mut()
        .set_param(id, "scale", ParamValue::Float(2.5));
    harness
        .state_mut()
        .connect(OutRef::new(id, "out"), &roughness());
    harness.run_steps(2);
    let seam = harness
        .state()
        .report()
        .for_node(id)
        .find(|d| d.is_error())
        .map(ToString::to_string)
        .expect("a seam error on the node");
    assert!(seam.contains("Noise"), "the message names the node: {seam}");
    harness.get_by_label(&seam);
    // Ctrl+Z takes the link back out: the seam is gone.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert!(harness.query_by_label(&seam).is_none());
    assert!(!harness.state().report().has_errors());
    // And Ctrl+Shift+Z brings it back.
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.run_steps(2);
    assert!(harness.state().report().has_errors());
}

#[test]
fn a_mistyped_connection_is_refused_with_its_reason_shown() {
    let mut harness = editor(bare(), None);
    // A colour cannot feed a single number (a number may feed a colour, as grey).
    let id = harness
        .state_mut()
        .add_node("ColorRamp")
        .expect("ColorRamp exists");
    let before = harness.state().session().doc().clone();
    assert!(
        !harness
            .state_mut()
            .connect(OutRef::new(id, "out"), &roughness())
    );
    harness.run_steps(2);
    let shown = harness.state().refusal().expect("refused").to_owned();
    assert!(
        shown.contains("Float") && shown.contains("Color"),
        "{shown}"
    );
    harness.get_by_label(&shown);
    assert_eq!(harness.state().session().doc(), &before, "nothing changed");
}

#[test]
fn a_saved_graph_reopens_the_same_and_a_failed_save_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("meadow.ron");
    let mut harness = editor(bare(), None);
    let id = harness
        .state_mut()
        .add_node("Voronoi")
        .expect("Voronoi exists");
    assert!(harness.state_mut().save(Some(&path)));
    let reopened = Session::open(&path).expect("reopens");
    assert_eq!(reopened.doc(), harness.state().session().doc());
    assert!(!harness.state().session().is_dirty());
    // The next save cannot create its temporary file beside the target: it fails, says
    // so, and the file on disk is the one saved before.
    let old = std::fs::read(&path).unwrap();
    harness.state_mut().delete(&[id]);
    let tmp = dir
        .path()
        .join(format!(".meadow.ron.{}.tmp", std::process::id()));
    std::fs::create_dir(&tmp).unwrap();
    assert!(!harness.state_mut().save(None));
    harness.run_steps(1);
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.starts_with("Not saved"))
    );
    harness.get_by_label_contains("Not saved");
    assert_eq!(std::fs::read(&path).unwrap(), old);
    assert!(harness.state().session().is_dirty(), "the edit is not lost");
}

#[test]
fn work_autosaved_before_a_crash_is_offered_back() {
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosave");
    let edited = {
        let mut harness = editor(bare(), Some(autosave.clone()));
        harness.state_mut().add_node("Wave");
        harness.state_mut().autosave_now();
        // The process dies here: no on_exit, no save.
        harness.state().session().doc().clone()
    };
    let mut harness = editor(bare(), Some(autosave.clone()));
    assert!(harness.state().offers_recovery());
    harness.get_by_label("Recover").click();
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().graph, edited.graph);
    assert!(!harness.state().offers_recovery());
}

fn editor_on(path: &std::path::Path, autosave: &std::path::Path) -> Harness<'static, Editor> {
    let (path, autosave) = (path.to_owned(), autosave.to_owned());
    let mut harness = Harness::builder()
        .with_size([1440.0, 900.0])
        .wgpu()
        .build_eframe(move |cc| Editor::new(cc, Session::open(&path).unwrap(), Some(autosave)));
    settle(&mut harness);
    harness
}

#[test]
fn two_editors_killed_on_two_files_each_get_their_own_work_back() {
    // Regression: every window shared one autosave file, so a second editor offered the
    // first one's lawn while opening the fur, and Recover then Save wrote the lawn into
    // the fur's file.
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosave");
    let (lawn, fur) = (dir.path().join("lawn.ron"), dir.path().join("fur.ron"));
    tuft_graph::io::save(&Document::new(MaterialGraph::new("lawn")), &lawn).unwrap();
    tuft_graph::io::save(&Document::new(MaterialGraph::new("fur")), &fur).unwrap();
    let fur_on_disk = std::fs::read(&fur).unwrap();
    let mut a = editor_on(&lawn, &autosave);
    let mut b = editor_on(&fur, &autosave);
    a.state_mut().add_node("Wave");
    b.state_mut().add_node("Voronoi");
    b.state_mut().add_node("Noise");
    a.state_mut().autosave_now();
    b.state_mut().autosave_now();
    let (lawn_edit, fur_edit) = (
        a.state().session().doc().clone(),
        b.state().session().doc().clone(),
    );
    // Neither window offers the other's work while both live.
    assert!(!a.state().offers_recovery() && !b.state().offers_recovery());
    drop((a, b)); // both killed: no on_exit, no save
    let mut on_lawn = editor_on(&lawn, &autosave);
    let offered = on_lawn.state().offered();
    assert_eq!(offered.len(), 2, "{offered:?}");
    // The lawn's own work first, each with its own file.
    assert_eq!(offered[0].0, Some(lawn.as_path()));
    assert_eq!(offered[0].1, &lawn_edit);
    assert_eq!(offered[1].0, Some(fur.as_path()));
    assert_eq!(offered[1].1, &fur_edit);
    // A window opened meanwhile finds nothing to offer: the first holds both.
    assert!(!editor_on(&fur, &autosave).state().offers_recovery());
    on_lawn.state_mut().recover_at(0);
    assert_eq!(on_lawn.state().session().doc(), &lawn_edit);
    assert_eq!(on_lawn.state().session().path(), Some(lawn.as_path()));
    // The fur's work opens as the fur (after the lawn's unsaved work is dealt with).
    assert!(on_lawn.state_mut().save(None));
    on_lawn.state_mut().recover_at(0);
    assert_eq!(on_lawn.state().session().path(), Some(fur.as_path()));
    assert_eq!(on_lawn.state().session().doc(), &fur_edit);
    assert!(on_lawn.state().session().is_dirty());
    assert_eq!(
        std::fs::read(&fur).unwrap(),
        fur_on_disk,
        "nothing written yet"
    );
    assert_eq!(tuft_graph::io::load(&lawn).unwrap(), lawn_edit);
}

#[test]
fn unsaved_work_asks_for_the_autosave_frame_without_input() {
    // Regression: autosave ran only when a frame ran, so an edit sat unsaved until the
    // mouse moved. With unsaved work the editor asks for a frame when it falls due.
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(bare(), Some(dir.path().join("autosave")));
    harness.state_mut().add_node("Wave");
    let ctx = harness.ctx.clone();
    harness.state_mut().wait_for_workers(&ctx);
    harness.run_steps(3);
    assert!(harness.ctx.has_requested_repaint(), "no frame is due");
}

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
fn a_node_dragged_from_the_library_lands_where_it_is_dropped() {
    let mut harness = editor(bare(), None);
    let from = harness.get_by_label("Wave").rect().center();
    let to = egui::pos2(500.0, 450.0);
    harness.drag_at(from);
    harness.step();
    harness.hover_at(from + egui::vec2(30.0, 10.0));
    harness.step();
    harness.hover_at(to);
    harness.step();
    harness.drop_at(to);
    harness.run_steps(2);
    let id = harness
        .state()
        .selected()
        .expect("the dropped node is selected");
    let doc = harness.state().session().doc();
    assert_eq!(doc.graph.node(id).map(|n| n.kind.as_str()), Some("Wave"));
    // Dropped 100 pixels further right, a node lands at least 100 graph units further
    // right (the view is at most 1:1), at the same height.
    let at = doc.layout[&id];
    let second = {
        let mut h2 = editor(bare(), None);
        let from = h2.get_by_label("Wave").rect().center();
        let to = egui::pos2(600.0, 450.0);
        h2.drag_at(from);
        h2.step();
        h2.hover_at(to);
        h2.step();
        h2.drop_at(to);
        h2.run_steps(2);
        let id = h2.state().selected().expect("dropped");
        h2.state().session().doc().layout[&id]
    };
    assert!(second[0] - at[0] >= 99.0, "{at:?} then {second:?}");
    assert!((second[1] - at[1]).abs() < 1.0, "{at:?} then {second:?}");
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
    for name in ["lawn", "fur", "moss"] {
        let path = tuft_tests_root().join(format!("presets/{name}.ron"));
        let doc = tuft_graph::io::load(&path).unwrap();
        let mut harness = editor(doc, None);
        for (from, to) in [("sphere", "plane"), ("plane", "box"), ("box", "sphere")] {
            harness.get_by_value(from).click();
            harness.run_steps(2);
            harness.get_by_label(to).click();
            harness.run_steps(2);
            settle(&mut harness);
            let preview = harness.state().preview();
            assert_eq!(preview.kind.name(), to, "{name}");
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

fn tuft_tests_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

#[test]
fn a_strand_layer_is_authored_from_file_new_to_a_preview_through_the_ui_alone() {
    // Regression: File › New gave a lone PBR output and no way to add a strand layer.
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label_contains("New").click();
    harness.run_steps(2);
    settle(&mut harness);
    assert!(harness.state().session().doc().graph.strands.is_empty());
    harness.get_by_label_contains("No strand layers").hover();
    // The library's first entry adds a layer.
    harness.get_by_label("Strand layer").click();
    harness.run_steps(2);
    assert_eq!(
        harness
            .state()
            .session()
            .doc()
            .graph
            .strands
            .keys()
            .collect::<Vec<_>>(),
        ["strands"]
    );
    settle(&mut harness);
    let drawn = |h: &Harness<'static, Editor>, name: &str| {
        h.state()
            .preview()
            .stats
            .layers
            .iter()
            .find(|l| l.name == name)
            .map_or(0, |l| l.strands)
    };
    assert!(
        drawn(&harness, "strands") > 1000,
        "the new layer is previewed"
    );
    // Renamed in the inspector; an empty name is refused with its reason.
    let field = harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.value().as_deref() == Some("strands"))
        .expect("the layer's name field");
    field.click();
    field.type_text("grass");
    harness.run_steps(2);
    harness.get_by_label("Rename").click();
    harness.run_steps(2);
    let names: Vec<String> = harness
        .state()
        .session()
        .doc()
        .graph
        .strands
        .keys()
        .cloned()
        .collect();
    assert_eq!(names.len(), 1);
    assert_ne!(names[0], "strands", "renamed");
    settle(&mut harness);
    assert!(drawn(&harness, &names[0]) > 1000);
    // Duplicated, then the copy deleted, each one undoable step.
    harness.get_by_label("Duplicate").click();
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().graph.strands.len(), 2);
    harness.state_mut().undo();
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().graph.strands.len(), 1);
    // A field wired into the layer's density by dragging a wire from the Noise's pin to
    // the layer node's, as a pointer does.
    let noise = add_from_library(&mut harness, "Noise");
    harness.key_press(egui::Key::F); // frame the graph: every pin on screen
    harness.run_steps(3);
    let layer = tuft_editor::graph_view::ViewNode::Layer(names[0].clone());
    let view = harness.state().graph_view();
    let from = view
        .pin_rect(
            &tuft_editor::graph_view::ViewNode::Node(noise),
            "out",
            false,
        )
        .expect("the noise's output pin is drawn")
        .center();
    let to = view
        .pin_rect(&layer, "density", true)
        .expect("the layer's density pin is drawn")
        .center();
    drag_wire(&mut harness, from, to);
    harness.drop_at(to);
    harness.run_steps(2);
    assert_eq!(
        harness.state().session().doc().graph.strands[&names[0]].density,
        tuft_graph::Input::Link(OutRef::new(noise, "out")),
        "the wire reached the layer's density"
    );
    settle(&mut harness);
    let thinned = drawn(&harness, &names[0]);
    assert!(
        thinned > 100,
        "the noise still lets strands grow: {thinned}"
    );
    // A node selected shows its parameters; Esc goes back to the layers.
    harness.get_by_label("Noise").click();
    harness.run_steps(2);
    assert!(harness.state().selected().is_some());
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().selected().is_none());
    // The inspector shows the layer again (its Rename button is the layer view's own).
    harness.get_by_label("Rename");
}

#[test]
fn a_layer_name_that_collides_or_is_empty_is_refused_with_the_reason() {
    let mut harness = editor(bare(), None);
    let first = harness.state_mut().add_layer();
    let second = harness.state_mut().add_layer();
    assert_ne!(first, second);
    assert!(!harness.state_mut().rename_layer(&second, &first));
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.contains("already")),
        "{:?}",
        harness.state().message()
    );
    assert!(!harness.state_mut().rename_layer(&second, "   "));
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.contains("needs a name"))
    );
    harness.state_mut().delete_layer(&first);
    assert_eq!(harness.state().session().doc().graph.strands.len(), 1);
}

#[test]
fn the_levels_node_is_added_from_the_library_and_edited_in_the_inspector() {
    let mut harness = editor(bare(), None);
    let id = add_from_library(&mut harness, "Levels");
    for param in ["in_black", "in_white", "gamma", "out_black", "out_white"] {
        harness.get_by_label(param);
    }
    harness
        .state_mut()
        .set_param(id, "gamma", ParamValue::Float(2.0));
    harness.run_steps(2);
    assert_eq!(
        harness
            .state()
            .session()
            .doc()
            .graph
            .node(id)
            .unwrap()
            .params
            .get("gamma"),
        Some(&ParamValue::Float(2.0))
    );
}

#[test]
fn the_shape_node_is_added_from_the_library_with_its_parameters_and_thumbnail() {
    let mut harness = editor(bare(), None);
    let id = add_from_library(&mut harness, "Shape");
    for param in ["shape", "count", "sides", "size", "softness", "jitter"] {
        harness.get_by_label(param);
    }
    settle(&mut harness);
    assert!(harness.state().thumbnails().textures().contains_key(&id));
}

#[test]
fn the_image_node_reads_a_file_typed_in_the_inspector_relative_to_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("masks")).unwrap();
    image::GrayImage::from_fn(16, 16, |x, _| {
        image::Luma([if (4..12).contains(&x) { 255 } else { 0 }])
    })
    .save(dir.path().join("masks/painted.png"))
    .unwrap();
    let mut doc = bare();
    doc.graph.folder = tuft_graph::io::Folder::at(dir.path());
    let mut harness = editor(doc, None);
    let id = add_from_library(&mut harness, "Image");
    harness.get_by_label("Choose…");
    settle(&mut harness);
    let has_file_finding = |h: &Harness<'static, Editor>| {
        h.state()
            .report()
            .for_node(id)
            .any(|d| d.code == tuft_graph::Code::File)
    };
    assert!(has_file_finding(&harness), "no file chosen yet");
    harness.get_by_label_contains("has no file");
    // The inspector's path field is the last text field on screen (the library's search
    // box comes first).
    let field = harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .last()
        .expect("the file field");
    field.click();
    field.type_text("masks/painted.png");
    harness.run_steps(2);
    settle(&mut harness);
    let node = harness
        .state()
        .session()
        .doc()
        .graph
        .node(id)
        .cloned()
        .unwrap();
    assert_eq!(
        node.params.get("file"),
        Some(&ParamValue::Text("masks/painted.png".into()))
    );
    assert!(
        !has_file_finding(&harness),
        "{:#?}",
        harness.state().report()
    );
    assert!(harness.state().thumbnails().textures().contains_key(&id));
}

#[test]
fn the_curve_node_gets_a_point_from_the_inspector_and_the_gradient_its_parameters() {
    let mut harness = editor(bare(), None);
    let id = add_from_library(&mut harness, "Curve");
    // The inspector scrolls; bring the button into view as a user would.
    harness.get_by_label("+ point").scroll_to_me();
    harness.run_steps(30); // the scroll animates
    harness.get_by_label("+ point").click();
    harness.run_steps(2);
    let points = harness
        .state()
        .session()
        .doc()
        .graph
        .node(id)
        .unwrap()
        .params["points"]
        .clone();
    let ParamValue::Curve(points) = points else {
        panic!("{points:?}")
    };
    assert_eq!(points.len(), 3, "{points:?}");
    // The new point lies on the curve: the identity is unchanged by adding it.
    assert!((points[1][0] - 0.5).abs() < 1e-6 && (points[1][1] - 0.5).abs() < 1e-6);
    harness
        .get_all_by_label("Remove")
        .next()
        .unwrap()
        .scroll_to_me();
    harness.run_steps(30);
    harness.get_all_by_label("Remove").next().unwrap().click();
    harness.run_steps(2);
    let params = &harness
        .state()
        .session()
        .doc()
        .graph
        .node(id)
        .unwrap()
        .params;
    assert!(matches!(&params["points"], ParamValue::Curve(p) if p.len() == 2));

    let id = add_from_library(&mut harness, "Gradient");
    for param in ["kind", "direction", "tiles", "radius"] {
        harness.get_by_label(param);
    }
    settle(&mut harness);
    assert!(harness.state().thumbnails().textures().contains_key(&id));
}

/// Opens File and clicks New, declining to save the work before.
fn file_new(harness: &mut Harness<'static, Editor>) {
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label_contains("New").click();
    harness.run_steps(2);
    if harness.state().session().is_dirty() {
        harness.get_by_label("Don't Save").click();
        harness.run_steps(2);
    }
}

#[test]
fn thumbnails_follow_the_new_document_after_file_new() {
    // Regression: a new document's generations restarted at 1, below what the thumbnail
    // worker had seen, so its requests were dropped as stale and the new nodes kept no
    // thumbnail.
    let mut harness = editor(bare(), None);
    for _ in 0..4 {
        add_from_library(&mut harness, "Wave");
    }
    settle(&mut harness);
    let before = harness.state().session().generation();
    file_new(&mut harness);
    assert!(harness.state().session().doc().graph.nodes.is_empty());
    assert!(harness.state().session().generation() > before);
    let id = add_from_library(&mut harness, "Voronoi");
    settle(&mut harness);
    assert_eq!(
        harness.state().thumbnails().shown,
        harness.state().session().generation()
    );
    assert!(harness.state().thumbnails().textures().contains_key(&id));
}

#[test]
fn ctrl_y_redoes_like_ctrl_shift_z() {
    let mut harness = editor(bare(), None);
    add_from_library(&mut harness, "Wave");
    harness.key_press(egui::Key::Escape); // the canvas, not a text field, has the keys
    harness.run_steps(1);
    harness.state_mut().undo();
    harness.run_steps(1);
    assert!(harness.state().session().doc().graph.nodes.is_empty());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().graph.nodes.len(), 1);
}

#[test]
fn a_file_from_the_command_line_is_recent_and_named_in_the_title() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("meadow.ron");
    tuft_graph::io::save(&Document::new(MaterialGraph::new("meadow")), &path).unwrap();
    let mut harness = editor_on(&path, &dir.path().join("autosave"));
    assert_eq!(harness.state().recent().first(), Some(&path));
    assert_eq!(harness.state().window_title(), "meadow.ron — Tuft");
    harness.state_mut().add_node("Wave");
    assert_eq!(harness.state().window_title(), "meadow.ron • — Tuft");
    // The viewport is told on the next frame.
    let mut told = false;
    for _ in 0..3 {
        harness.step();
        told |= harness
            .output()
            .viewport_output
            .values()
            .flat_map(|v| &v.commands)
            .any(|c| matches!(c, egui::ViewportCommand::Title(t) if t == "meadow.ron • — Tuft"));
    }
    assert!(told, "the window title follows the unsaved mark");
}

#[test]
fn the_orbit_camera_stays_above_the_plane() {
    let mut harness = editor(bare(), None);
    harness.get_by_value("sphere").click();
    harness.run_steps(2);
    harness.get_by_label("plane").click();
    harness.run_steps(2);
    assert_eq!(
        harness.state().preview().kind,
        tuft_render::SurfaceKind::Plane
    );
    // Drag the preview far upward: on a sphere the camera would go below the equator.
    let centre = egui::pos2(1180.0, 350.0);
    harness.hover_at(centre);
    harness.run_steps(1);
    harness.drag_at(centre);
    harness.run_steps(1);
    for k in 1..=10 {
        harness.hover_at(centre - egui::vec2(0.0, 30.0 * k as f32));
        harness.run_steps(1);
    }
    harness.drop_at(centre - egui::vec2(0.0, 300.0));
    harness.run_steps(1);
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
fn the_canvas_menu_searches_the_vocabulary_and_adds_at_the_pointer() {
    let mut harness = editor(bare(), None);
    let at = egui::pos2(400.0, 600.0);
    harness.hover_at(at);
    harness.run_steps(1);
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run_steps(2);
    // The search box has the keys: typing narrows the list.
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the menu's search box is focused")
        .type_text("voro");
    harness.run_steps(2);
    // The library lists both; the menu only what matches.
    assert_eq!(harness.get_all_by_label("Noise").count(), 1);
    assert_eq!(harness.get_all_by_label("Voronoi").count(), 2);
    harness.get_all_by_label("Voronoi").last().unwrap().click();
    harness.run_steps(2);
    let doc = harness.state().session().doc();
    assert_eq!(doc.graph.nodes.len(), 1);
    assert_eq!(doc.graph.nodes[0].kind, "Voronoi");
    // Where the pointer was, not where the library's click puts a node.
    let p = doc.layout[&doc.graph.nodes[0].id];
    let on_screen = harness
        .state()
        .graph_view()
        .to_screen(egui::pos2(p[0], p[1]));
    assert!(on_screen.distance(at) < 12.0, "{on_screen:?} vs {at:?}");
}

#[test]
fn a_wire_dropped_on_the_canvas_offers_the_nodes_that_fit_and_wires_the_one_chosen() {
    let mut harness = editor(bare(), None);
    let noise = add_from_library(&mut harness, "Noise");
    harness.key_press(egui::Key::F);
    harness.run_steps(3);
    let from = harness
        .state()
        .graph_view()
        .pin_rect(
            &tuft_editor::graph_view::ViewNode::Node(noise),
            "out",
            false,
        )
        .expect("the noise's output pin is drawn")
        .center();
    let to = from + egui::vec2(140.0, 120.0);
    drag_wire(&mut harness, from, to);
    // Released over empty canvas (the pointer stays there, as a hand's does).
    harness.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run_steps(2);
    // Only nodes with an input for a number are offered: Levels (in the library and the
    // menu), not the Noise (in the library only).
    assert_eq!(harness.get_all_by_label("Levels").count(), 2);
    assert_eq!(harness.get_all_by_label("Noise").count(), 1);
    harness.get_all_by_label("Levels").last().unwrap().click();
    harness.run_steps(2);
    let graph = &harness.state().session().doc().graph;
    let levels = graph
        .nodes
        .iter()
        .find(|n| n.kind == "Levels")
        .expect("a Levels node was added");
    assert_eq!(
        levels.inputs.get("in"),
        Some(&tuft_graph::Input::Link(OutRef::new(noise, "out")))
    );
    // One edit: undo takes the node and its wire away together.
    harness.state_mut().undo();
    assert_eq!(harness.state().session().doc().graph.nodes.len(), 1);
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
fn the_status_bar_shows_the_interval_between_frames_not_only_the_ui_code() {
    // The harness steps its clock a quarter second a frame: that is the interval the
    // user would see, whatever the UI code itself took.
    let mut harness = editor(bare(), None);
    harness.run_steps(6);
    assert_eq!(harness.state().frame_interval_ms(), Some(250.0));
    harness.get_by_label_contains("frame 250 ms (UI ");
}
