//! A baked set in the editor: opened from File › Open Baked Set… or dropped as a folder,
//! drawn from its own files, read-only, and closed back to the document.

use super::{answered, bare, drop_on_window, editor, file_menu, settle};
use egui_kittest::kittest::Queryable as _;
use std::path::Path;
use tuft_editor::command::Command;
use tuft_editor::file_dialogs::Dialogs;

/// Moss baked into `dir` (small maps: quick).
fn bake_moss(dir: &Path) {
    bake_moss_keeping(dir, 1.0);
}

/// Moss baked into `dir` keeping `keep` of its strands.
fn bake_moss_keeping(dir: &Path, keep: f32) {
    let graph = tuft_graph::io::load(&super::root().join("presets/moss.ron"))
        .unwrap()
        .graph;
    tuft_bake::bake_graph(
        &graph,
        dir,
        &tuft_bake::BakeOptions {
            resolution: 64,
            keep,
            ..Default::default()
        },
        &mut |_, _| {},
        &std::sync::atomic::AtomicBool::new(false),
    )
    .unwrap();
}

#[test]
fn a_baked_set_opens_read_only_and_closes_back_to_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("moss");
    bake_moss(&set);
    let mut harness = editor(bare(), None);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(set.clone())));
    file_menu(&mut harness, "Open Baked Set…");
    answered(&mut harness);
    let state = harness.state();
    assert_eq!(state.viewing(), Some(set.as_path()));
    assert!(
        state.window_title().contains("read-only"),
        "{}",
        state.window_title()
    );
    let shown = state
        .preview()
        .with_material(|m| (m.name.clone(), m.layers.len()));
    assert_eq!(
        shown,
        Some(("moss".to_owned(), 2)),
        "the set's material is drawn"
    );
    assert!(state.preview().stats.strands() > 0, "its strands are drawn");
    harness.get_by_label("Baked set (read-only)");
    harness.get_by_label("fronds"); // its layers listed
    // An edit is refused and the document is left as it was.
    let before = harness.state().session().doc().clone();
    let ctx = harness.ctx.clone();
    harness.state_mut().run(&ctx, Command::AddLayer);
    assert_eq!(harness.state().session().doc(), &before);
    let message = harness.state().message().unwrap_or_default().to_owned();
    assert!(message.contains("read-only"), "{message}");
    // Closing (the panel's button; File › Close Baked Set is the same command) goes
    // back to the document's own material.
    harness.get_by_label("Close Baked Set").click();
    harness.run_steps(2);
    settle(&mut harness);
    assert_eq!(harness.state().viewing(), None);
    let name = harness.state().preview().with_material(|m| m.name.clone());
    assert_eq!(name.as_deref(), Some("bare"));
    // File › Open on the set's manifest.ron (what a file dialog shows of a set) opens
    // the set; it was read as a graph and refused ("Unexpected field named `version`").
    let manifest = set.join("manifest.ron");
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(manifest.clone())));
    file_menu(&mut harness, "Open…");
    answered(&mut harness);
    assert_eq!(harness.state().viewing(), Some(set.as_path()));
    // Read as a graph anywhere else, it says what it is.
    let err = tuft_graph::io::load(&manifest).unwrap_err();
    assert!(
        matches!(err, tuft_graph::io::LoadError::BakedManifest),
        "{err}"
    );
    assert!(err.to_string().contains("tuft view"), "{err}");
}

#[test]
fn a_baked_sets_figures_are_its_own_not_the_graphs_behind_it() {
    // Regression: the status bar gave the set's strands with the coverage the
    // thumbnails had measured for the graph still open behind it.
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("thin moss");
    bake_moss_keeping(&set, 0.3);
    let doc = tuft_graph::io::load(&super::root().join("presets/moss.ron")).unwrap();
    let mut harness = editor(doc, None);
    let graphs = harness
        .state()
        .thumbnails()
        .level_reports("fronds")
        .expect("the graph's fronds measured")
        .to_vec();
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(set.clone())));
    file_menu(&mut harness, "Open Baked Set…");
    answered(&mut harness);
    harness.run_steps(2);
    let manifest: tuft_strands::manifest::Manifest =
        ron::from_str(&std::fs::read_to_string(set.join("manifest.ron")).unwrap()).unwrap();
    let fronds = manifest.layers.iter().find(|l| l.name == "fronds").unwrap();
    let text = tuft_editor::app::coverage_text;
    let (own, behind) = (text(&fronds.level_reports), text(&graphs));
    assert_ne!(own, behind, "the thinned set measures otherwise");
    let said = harness
        .get_by_label_contains("fronds: ")
        .value()
        .unwrap_or_default();
    assert!(said.contains(&format!("coverage {own})")), "{said} / {own}");
    // The table says how thin the set was baked, layer by layer.
    let keep = format!("{}", fronds.levels.layer_keep);
    assert_eq!(keep, "0.3");
    assert_eq!(
        harness.query_all_by_label(&keep).count(),
        manifest.layers.len()
    );
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_dropped_folder_opens_as_a_baked_set_and_a_damaged_one_draws_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("moss");
    bake_moss(&set);
    let strands = set.join("moss.strands");
    let mut bytes = std::fs::read(&strands).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&strands, &bytes).unwrap();
    let mut harness = editor(bare(), None);
    assert!(
        harness.state().preview().has_scene(),
        "the document is drawn first"
    );
    drop_on_window(&mut harness, &set);
    harness.run_steps(1);
    settle(&mut harness);
    let state = harness.state();
    assert_eq!(state.viewing(), Some(set.as_path()));
    assert!(
        !state.preview().has_scene(),
        "nothing is drawn rather than something wrong"
    );
    let error = state.preview().error.clone().unwrap_or_default();
    assert!(
        error.contains("moss.strands") && error.contains("corrupted"),
        "{error}"
    );
    harness.get_by_label_contains("Cannot draw this set");
    // A folder that is no set says so and changes nothing.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .run(&ctx, Command::OpenPath(empty.clone()));
    let message = harness.state().message().unwrap_or_default().to_owned();
    assert!(message.contains("not a baked set"), "{message}");
    assert_eq!(harness.state().viewing(), Some(set.as_path()));
}
