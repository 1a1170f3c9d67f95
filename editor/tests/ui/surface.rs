//! A mesh of the author's as the preview's surface: chosen, dropped, kept in the
//! document's layout with its UV scale, and refused without harm when it cannot be read.

use super::{answered, bare, drop_on_window, editor, settle};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::PathBuf;
use tuft_editor::app::Editor;
use tuft_editor::command::Command;
use tuft_editor::file_dialogs::Dialogs;
use tuft_render::SurfaceKind;

fn creature() -> PathBuf {
    super::root().join("assets/creature.obj")
}

/// Runs `command` and lets the mesh be read and the preview land.
fn run(harness: &mut Harness<'static, Editor>, command: Command) {
    let ctx = harness.ctx.clone();
    harness.state_mut().run(&ctx, command);
    answered(harness);
    harness.state_mut().wait_for_mesh();
    settle(harness);
}

#[test]
fn a_chosen_mesh_becomes_the_surface_and_the_document_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(bare(), None);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(creature())));
    run(&mut harness, Command::ChooseMesh);
    let state = harness.state();
    assert_eq!(state.surface().kind(), SurfaceKind::Mesh);
    assert!(state.preview().has_scene(), "{:?}", state.preview().error);
    let kept = state
        .session()
        .doc()
        .preview_mesh
        .clone()
        .expect("the layout names it");
    assert!(kept.path.ends_with("creature.obj"), "{kept:?}");
    assert_eq!(kept.repeats_per_uv, None, "measured by default");
    // Saved: the layout names the mesh; a document naming it with a scale of its own
    // opens on it at that scale.
    let file = dir.path().join("bare.ron");
    assert!(harness.state_mut().save(Some(&file)));
    let saved = tuft_graph::io::load(&file).unwrap();
    assert_eq!(saved.preview_mesh, Some(kept.clone()));
    let mut doc = bare();
    doc.preview_mesh = Some(tuft_graph::io::PreviewMesh {
        path: creature().display().to_string(),
        repeats_per_uv: Some(3.5),
    });
    let scaled = dir.path().join("scaled.ron");
    tuft_graph::io::save(&doc, &scaled).unwrap();
    assert_eq!(
        tuft_graph::io::load(&scaled).unwrap().preview_mesh,
        doc.preview_mesh
    );
    let mut again = editor(bare(), None);
    run(&mut again, Command::OpenPath(scaled));
    assert_eq!(again.state().surface().kind(), SurfaceKind::Mesh);
    assert_eq!(
        again.state().surface().mesh().and_then(|m| m.uv_scale),
        Some(3.5)
    );
    assert!(!again.state().session().is_dirty());
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_mesh_that_cannot_be_read_leaves_the_surface_and_the_document_alone() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let mut harness = editor(bare(), None);
    let before = harness.state().session().doc().clone();
    harness.state_mut().set_dialogs(Dialogs::Answer(Some(bad)));
    run(&mut harness, Command::ChooseMesh);
    let state = harness.state();
    assert_eq!(state.surface().kind(), SurfaceKind::Sphere);
    assert_eq!(state.session().doc(), &before);
    let message = state.message().unwrap_or_default();
    assert!(
        message.contains("broken.obj") && message.contains("no UVs"),
        "{message}"
    );
    // A document naming a mesh that is gone opens on the sphere, unchanged, and says so.
    let mut doc = bare();
    doc.preview_mesh = Some(tuft_graph::io::PreviewMesh {
        path: "gone.glb".into(),
        repeats_per_uv: None,
    });
    let file = dir.path().join("names_a_gone_mesh.ron");
    tuft_graph::io::save(&doc, &file).unwrap();
    let mut harness = editor(bare(), None);
    run(&mut harness, Command::OpenPath(file.clone()));
    let state = harness.state();
    assert_eq!(state.surface().kind(), SurfaceKind::Sphere);
    assert!(
        !state.session().is_dirty(),
        "the document is as it was read"
    );
    let message = state.message().unwrap_or_default();
    assert!(
        message.contains("gone.glb") && message.contains("cannot read"),
        "{message}"
    );
}

#[test]
fn a_dropped_mesh_becomes_the_surface() {
    let mut harness = editor(bare(), None);
    drop_on_window(&mut harness, &creature());
    harness.state_mut().wait_for_mesh();
    settle(&mut harness);
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Mesh);
    assert!(harness.state().preview().has_scene());
}

fn preview_menu(harness: &mut Harness<'static, Editor>, item: &str) {
    use egui_kittest::kittest::Queryable as _;
    harness.get_by_label("Preview").click();
    harness.run_steps(2);
    // The submenu opens on its button.
    harness.get_by_label("Surface ⏵").click();
    harness.run_steps(3);
    // A menu entry's label ends with its (here empty) shortcut text.
    harness.get_by_label(&format!("{item} ")).click();
    harness.run_steps(1);
}

/// Regression: Preview › Surface › Mesh… then File › Open of another graph left the
/// surface list saying sphere while the preview drew the mesh still.
#[test]
fn opening_a_document_shows_it_on_its_own_surface_and_the_list_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.ron");
    tuft_graph::io::save(&bare(), &other).unwrap();
    let mut harness = editor(bare(), None);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(creature())));
    preview_menu(&mut harness, "Mesh…");
    answered(&mut harness);
    harness.state_mut().wait_for_mesh();
    settle(&mut harness);
    assert_eq!(
        harness.state().preview().scene_kind(),
        Some(SurfaceKind::Mesh)
    );
    // The mesh is in the document's layout, unsaved: Open asks first.
    harness.state_mut().open(&other);
    harness.run_steps(2);
    harness.get_by_label("Don't Save").click();
    harness.run_steps(2);
    settle(&mut harness);
    assert_eq!(harness.state().session().path(), Some(other.as_path()));
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Sphere);
    assert_eq!(
        harness.state().preview().scene_kind(),
        Some(SurfaceKind::Sphere),
        "the picture is the list's surface"
    );
    harness.get_by_value("sphere");
}

#[test]
fn preview_surface_menu_switches_between_the_kinds_and_the_mesh() {
    let mut harness = editor(bare(), None);
    choose_the_creature(&mut harness);
    preview_menu(&mut harness, "plane");
    settle(&mut harness);
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Plane);
    assert_eq!(
        harness.state().session().doc().preview_mesh,
        None,
        "the layout follows"
    );
    preview_menu(&mut harness, "mesh");
    settle(&mut harness);
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Mesh);
    assert!(harness.state().session().doc().preview_mesh.is_some());
    assert!(harness.state().preview().has_scene());
}

#[test]
fn on_the_field_the_camera_walks_with_the_keys() {
    use egui_kittest::kittest::Queryable as _;
    let mut harness = editor(bare(), None);
    preview_menu(&mut harness, "field");
    settle(&mut harness);
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Field);
    harness.get_by_label("walk").click();
    harness.run_steps(2);
    let start = harness
        .state()
        .preview()
        .view
        .camera
        .walk_eye
        .expect("walking");
    assert_eq!(start, [0.0, 1.6, 0.0]);
    // W with the pointer over the preview: the eye goes the way it looks, at eye height.
    harness.hover_at(egui::pos2(1180.0, 300.0));
    harness.key_down(egui::Key::W);
    harness.run_steps(10);
    harness.key_up(egui::Key::W);
    harness.run_steps(1);
    let cam = harness.state().preview().view.camera;
    let eye = cam.walk_eye.expect("still walking");
    let d = cam.direction();
    let moved = [eye[0] - start[0], eye[2] - start[2]];
    assert!(moved[0].hypot(moved[1]) > 0.01, "{eye:?}");
    assert!(
        moved[0] * -d.x + moved[1] * -d.z > 0.0,
        "walked ahead: {moved:?}"
    );
    assert_eq!(eye[1], 1.6);
    // Back to the sphere: the orbit again.
    preview_menu(&mut harness, "sphere");
    settle(&mut harness);
    assert_eq!(harness.state().preview().view.camera.walk_eye, None);
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_mesh_facing_away_from_the_camera_says_so_in_the_status_bar() {
    // Regression: a mesh wound the other way drew nothing from the camera's side and the
    // editor gave no hint why.
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("down.obj");
    std::fs::write(
        &obj,
        "v -1 0 -1\nv 1 0 -1\nv 0 0 1\nvt 0 0\nvt 1 0\nvt 0.5 1\nf 1/1 2/2 3/3\n",
    )
    .unwrap();
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    harness.state_mut().set_dialogs(Dialogs::Answer(Some(obj)));
    run(&mut harness, Command::ChooseMesh);
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Mesh);
    harness.run_steps(2);
    // The default view looks at it from a grazing 25°, where its tile may still show
    // strands standing past its edge; dragging down looks from higher above.
    super::drag_by(
        &mut harness,
        egui::pos2(1180.0, 300.0),
        egui::vec2(0.0, 105.0),
        7,
    );
    settle(&mut harness);
    let pitch = harness.state().preview().view.camera.pitch;
    assert!(pitch > 0.2, "pitch {pitch}");
    harness.run_steps(2);
    harness.get_by_label_contains("Nothing drawn: the surface in view faces away");
}

#[test]
fn a_mesh_wound_inside_out_is_shown_with_a_note_saying_so() {
    let obj = super::root().join("tests/data/inside_out_cube.obj");
    let mut harness = editor(bare(), None);
    harness.state_mut().set_dialogs(Dialogs::Answer(Some(obj)));
    run(&mut harness, Command::ChooseMesh);
    // Shown all the same, so the author sees what the note means.
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Mesh);
    let said = harness.state().message().unwrap_or_default();
    assert!(said.contains("is closed and wound inside out"), "{said}");
}

/// Regression: an editor left alone on the field kept both cores busy (174% of one core
/// over 10 s with no input): the lawn on the field from the default walk, its frames
/// driven as a window drives them, must come to a frame that asks for no other within a
/// second, and stay there.
#[test]
fn an_editor_left_alone_on_the_field_comes_to_rest() {
    use egui_kittest::kittest::Queryable as _;
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    preview_menu(&mut harness, "field");
    settle(&mut harness);
    harness.get_by_label("walk").click();
    let mut rested = None;
    let mut reasons = Vec::new();
    for frame in 0..3000 {
        harness.step();
        let asks = harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        if asks > std::time::Duration::from_secs(1) {
            rested = Some(frame);
            break;
        }
        if frame > 2900 {
            let st = &harness.state().preview().stats;
            reasons.push(format!("{st:?} {:?}", harness.ctx.repaint_causes()));
        }
    }
    let Some(frame) = rested else {
        panic!(
            "the editor never rests on the field: {}",
            reasons.join("\n")
        );
    };
    println!("at rest after {frame} frames");
    // At rest it stays at rest: the next frames ask for nothing either.
    for _ in 0..5 {
        harness.step();
        let asks = harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        assert!(
            asks > std::time::Duration::from_secs(1),
            "woke again: {asks:?}"
        );
    }
}

#[test]
fn the_side_panel_keeps_its_width_when_the_surface_becomes_a_mesh() {
    let mut harness = editor(bare(), None);
    let canvas = harness.state().graph_view().canvas();
    choose_the_creature(&mut harness);
    harness.run_steps(3);
    assert_eq!(harness.state().graph_view().canvas(), canvas);
}

/// Preview › Mesh… answered with the sample creature: the preview draws on it.
fn choose_the_creature(harness: &mut Harness<'static, Editor>) {
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(creature())));
    preview_menu(harness, "Mesh…");
    answered(harness);
    harness.state_mut().wait_for_mesh();
    settle(harness);
    assert_eq!(harness.state().surface().kind(), SurfaceKind::Mesh);
}
