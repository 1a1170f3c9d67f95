//! Files: saving, autosave and recovery, New, recent files and the window title.

use super::*;
use tuft_editor::file_dialogs::Dialogs;

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
fn a_window_that_draws_no_more_frames_still_autosaves_on_its_timer() {
    // Regression: autosave ran only when the window drew, so a window covered by
    // another (which draws nothing) never autosaved, and a crash lost its work.
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosave");
    let edited = {
        let mut harness = editor(bare(), Some(autosave.clone()));
        harness
            .state_mut()
            .set_autosave_every(std::time::Duration::from_millis(50));
        harness.state_mut().add_node("Wave");
        harness.run_steps(1); // the frame that showed the edit; none after it
        assert!(
            harness
                .state()
                .wait_autosaved(std::time::Duration::from_secs(60)),
            "the timer wrote the work without another frame"
        );
        harness.state().session().doc().clone()
        // The process dies here: no on_exit, no save.
    };
    let harness = editor(bare(), Some(autosave));
    let offered = harness.state().offered();
    assert_eq!(offered.len(), 1, "{offered:?}");
    assert_eq!(offered[0].1.graph, edited.graph);
}

/// A document in `dir` named `name`, saved, with one node of `kind`.
fn saved(dir: &std::path::Path, name: &str, kind: &str) -> PathBuf {
    let path = dir.join(format!("{name}.ron"));
    let mut doc = Document::new(MaterialGraph::new(name));
    doc.graph.add_node(kind).unwrap();
    tuft_graph::io::save(&doc, &path).unwrap();
    path
}

/// Saves with Ctrl+S, the dialog (if one is asked) answering `answer`.
fn ctrl_s(harness: &mut Ui, answer: &std::path::Path) {
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(answer.to_owned())));
    harness.key_press(egui::Key::Escape);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    for _ in 0..200 {
        harness.step();
        if !harness.state().choosing() {
            break;
        }
    }
    harness.run_steps(1);
}

#[test]
fn work_recovered_for_a_file_that_changed_since_is_saved_where_the_author_says() {
    // Regression: recovered work went back to whatever file now stood at its path, so
    // Recover then Save overwrote another document.
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosave");
    let lawn = saved(dir.path(), "lawn", "Noise");
    {
        let mut harness = editor_on(&lawn, &autosave);
        harness.state_mut().add_node("Wave");
        harness.state_mut().autosave_now();
    }
    // Meanwhile another document is written at the same path.
    saved(dir.path(), "lawn", "Voronoi");
    let other = std::fs::read(&lawn).unwrap();
    let mut harness = editor(bare(), Some(autosave));
    harness.state_mut().recover_at(0);
    harness.run_steps(1);
    let said = harness.state().message().unwrap_or_default().to_owned();
    assert!(
        said.contains("has changed since the work was autosaved: Save asks where"),
        "{said}"
    );
    assert_eq!(harness.state().session().path(), None);
    assert!(harness.state().session().is_dirty());
    let elsewhere = dir.path().join("recovered.ron");
    ctrl_s(&mut harness, &elsewhere);
    assert_eq!(
        std::fs::read(&lawn).unwrap(),
        other,
        "the other document is untouched"
    );
    let back = tuft_graph::io::load(&elsewhere).unwrap();
    assert_eq!(
        back.graph.nodes.len(),
        2,
        "the recovered work, Noise and Wave"
    );
}

#[test]
fn work_recovered_for_its_unchanged_file_goes_back_to_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosave");
    let lawn = saved(dir.path(), "lawn", "Noise");
    {
        // Opened by a path through `..`: known by its canonical path all the same.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let roundabout = dir.path().join("sub/../lawn.ron");
        let mut harness = editor_on(&roundabout, &autosave);
        assert_eq!(harness.state().session().path(), Some(lawn.as_path()));
        harness.state_mut().add_node("Wave");
        harness.state_mut().autosave_now();
    }
    let mut harness = editor(bare(), Some(autosave));
    harness.state_mut().recover_at(0);
    assert_eq!(harness.state().session().path(), Some(lawn.as_path()));
    let unused = dir.path().join("unused.ron");
    ctrl_s(&mut harness, &unused);
    assert!(!unused.exists(), "no dialog asked where");
    assert_eq!(tuft_graph::io::load(&lawn).unwrap().graph.nodes.len(), 2);
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn an_older_autosave_naming_its_file_by_a_relative_path_asks_where_to_save() {
    // Autosaves of older builds hold the path the document was opened by, relative to
    // a working folder nobody knows now.
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosave");
    std::fs::create_dir(&autosave).unwrap();
    let mut doc = Document::new(MaterialGraph::new("lawn"));
    doc.graph.add_node("Wave").unwrap();
    let record = format!(
        "(source: Some(\"lawn.ron\"), document: {})",
        ron::to_string(&doc).unwrap()
    );
    std::fs::write(autosave.join("lawn-0000000000000000.ron"), record).unwrap();
    let mut harness = editor(bare(), Some(autosave));
    assert!(harness.state().offers_recovery());
    harness.state_mut().recover_at(0);
    assert_eq!(harness.state().session().path(), None);
    assert_eq!(harness.state().session().doc().graph, doc.graph);
    let said = harness.state().message().unwrap_or_default().to_owned();
    assert!(said.contains("by an older Tuft"), "{said}");
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
fn every_shipped_preset_starts_an_untitled_document_from_the_file_menu() {
    // Only the lawn was reachable without the repository's presets folder at hand.
    let mut harness = editor(bare(), None);
    add_from_library(&mut harness, "Wave");
    for (name, text) in tuft_editor::PRESETS {
        harness.get_by_label("File").click();
        harness.run_steps(2);
        // The submenu opens on its button; an entry's label ends with its (empty)
        // shortcut text.
        harness.get_by_label("New from Preset ⏵").click();
        harness.run_steps(3);
        let mut label = name.to_owned();
        label[..1].make_ascii_uppercase();
        harness.get_by_label(&format!("{label} ")).click();
        harness.run_steps(2);
        if harness.state().session().is_dirty() {
            harness.get_by_label("Don't Save").click();
            harness.run_steps(2);
        }
        settle(&mut harness);
        let session = harness.state().session();
        assert_eq!(session.doc(), &tuft_graph::io::from_str(text).unwrap());
        assert_eq!(
            session.path(),
            None,
            "Save asks where: the preset is not overwritten"
        );
        let layers = &harness.state().preview().stats.layers;
        assert_eq!(
            layers.len(),
            session.doc().graph.strands.len(),
            "{name} previews"
        );
        let title = harness.state().window_title();
        assert!(title.starts_with(name), "{title}");
    }
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

/// Clicks `item` in the File menu.
#[test]
fn open_runs_its_dialog_off_the_ui_thread_and_opens_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("moss.ron");
    let mut doc = bare();
    doc.graph.name = "moss".into();
    tuft_graph::io::save(&doc, &path).unwrap();
    let mut harness = editor(bare(), None);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(path.clone())));
    file_menu(&mut harness, "Open…");
    // The dialog's answer arrives from its worker on a later frame; the window draws on.
    for _ in 0..200 {
        if !harness.state().choosing() {
            break;
        }
        harness.step();
    }
    assert!(!harness.state().choosing());
    assert_eq!(harness.state().session().path(), Some(path.as_path()));
    assert_eq!(harness.state().session().doc().graph.name, "moss");
}

/// Save As where no dialog can be shown: the status bar says why, and `path` is typed
/// over the name the prompt suggests; `confirm` then answers the prompt, and the
/// document must be saved there.
fn save_as_typing(path: &std::path::Path, confirm: impl FnOnce(&mut Ui)) {
    let mut harness = editor(bare(), None);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Unavailable("no desktop portal".into()));
    file_menu(&mut harness, "Save As…");
    harness.run_steps(1);
    let message = harness.state().message().unwrap_or_default().to_owned();
    assert!(message.contains("no desktop portal"), "{message}");
    assert!(harness.state().prompting());
    let field = harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.value().is_some_and(|v| v.ends_with(".ron")))
        .unwrap();
    field.click();
    harness.run_steps(1);
    type_over(&mut harness, &path.display().to_string());
    confirm(&mut harness);
    harness.run_steps(2);
    assert!(!harness.state().prompting());
    assert!(path.is_file(), "saved where typed");
    assert_eq!(harness.state().session().path(), Some(path));
}

#[test]
fn where_no_dialog_can_be_shown_the_status_bar_says_so_and_a_typed_path_saves() {
    let dir = tempfile::tempdir().unwrap();
    save_as_typing(&dir.path().join("typed.ron"), |harness| {
        harness.get_by_label("OK").click();
    });
}

#[test]
fn enter_answers_the_path_prompt() {
    // Regression: the prompt took its focus back before it looked for Enter, so Enter
    // did nothing and only OK answered.
    let dir = tempfile::tempdir().unwrap();
    save_as_typing(&dir.path().join("entered.ron"), |harness| {
        harness.key_press(egui::Key::Enter);
    });
}

#[test]
fn help_about_shows_the_licence_and_the_third_party_notices() {
    let mut harness = editor(bare(), None);
    harness.get_by_label("Help").click();
    harness.run_steps(2);
    harness.get_by_label_contains("About Tuft").click();
    harness.run_steps(2);
    assert!(harness.state().showing_about());
    harness.get_by_label("Third-party notices");
    harness.get_by_label_contains("Licensed under MIT OR Apache-2.0");
    harness.get_by_label("# Third-party notices");
}

#[test]
fn a_click_spread_over_slow_frames_still_clicks() {
    // Frames a second apart, as a heavy preview can make them: the press lands in one,
    // the release in a later one, two seconds on.
    let mut harness = Ui::new(|| {
        window()
            .with_step_dt(1.0)
            .build_eframe(|cc| Editor::new(cc, Session::new(bare(), None), None))
    });
    harness.run_steps(3);
    let at = harness.get_by_label("Noise").rect().center();
    harness.hover_at(at);
    harness.run_steps(1);
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        harness.run_steps(1);
    }
    harness.run_steps(1);
    let graph = &harness.state().session().doc().graph;
    assert_eq!(graph.nodes.len(), 1, "the library's button took the click");
    assert_eq!(graph.nodes[0].kind, "Noise");
}

#[test]
fn the_export_dialog_takes_folder_resolution_compression_target_codec_and_keep() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set");
    let doc = tuft_graph::io::load(&root().join("presets/moss.ron")).unwrap();
    let mut harness = editor(doc, None);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(out.clone())));
    file_menu(&mut harness, "Export Baked Set…");
    harness.run_steps(2);
    assert!(harness.state().exporter().dialog_open());
    // The folder comes from the dialog, on its worker.
    harness.get_by_label("Choose…").click();
    for _ in 0..200 {
        harness.step();
        if !harness.state().choosing() {
            break;
        }
    }
    harness.run_steps(1);
    assert_eq!(
        harness.state().exporter().settings().folder,
        out.display().to_string()
    );
    for (combo, option) in [
        ("gltf", "unity"),
        ("1024 × 1024", "256 × 256"),
        ("rgba8", "bc7"),
    ] {
        harness.get_by_value(combo).click();
        harness.run_steps(2);
        harness.get_by_label(option).click();
        harness.run_steps(2);
    }
    // About half the strands of every layer: the Keep slider's handle dragged from its
    // right end (1) to the middle of its track.
    let row = harness.get_by_label("Keep").rect().center().y;
    let track = harness
        .get_all_by_role(egui::accesskit::Role::Slider)
        .find(|n| (n.rect().center().y - row).abs() < 8.0)
        .expect("the Keep slider")
        .rect();
    let from = egui::pos2(track.right() - 2.0, track.center().y);
    drag_wire(&mut harness, from, track.center());
    harness.drop_at(track.center());
    harness.run_steps(2);
    let keep = harness.state().exporter().settings().keep;
    assert!(keep > 0.3 && keep < 0.7, "{keep}");
    harness.get_by_label("Export").click();
    harness.run_steps(1);
    for _ in 0..2000 {
        harness.step();
        if harness
            .state()
            .message()
            .is_some_and(|m| m.starts_with("Exported"))
        {
            break;
        }
    }
    let message = harness.state().message().unwrap_or_default().to_owned();
    assert!(message.starts_with("Exported"), "{message}");
    let manifest: tuft_strands::manifest::Manifest =
        ron::from_str(&std::fs::read_to_string(out.join("manifest.ron")).unwrap()).unwrap();
    assert_eq!(manifest.target, "unity");
    assert_eq!(manifest.ktx2_codec, "bc7");
    assert!(out.join(&manifest.maps["unity_mask"]).is_file());
    let base = image::open(out.join(&manifest.maps["base_color"])).unwrap();
    assert_eq!(base.width(), 256);
    let graph = &harness.state().session().doc().graph;
    for layer in &manifest.layers {
        let own = graph.strands[&layer.name].levels.layer_keep;
        assert_eq!(layer.levels.layer_keep, own * keep, "{}", layer.name);
    }
    // Remembered for the next export.
    assert_eq!(harness.state().exporter().settings().target, "unity");
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn an_autosave_that_cannot_be_read_is_named_at_start_and_left_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("untitled.ron");
    std::fs::write(&broken, "(source: None, document: ").unwrap();
    let harness = editor(bare(), Some(dir.path().to_owned()));
    let said = harness.state().message().unwrap_or_default().to_owned();
    assert!(said.contains("could not be read"), "{said}");
    assert!(said.contains("untitled.ron: "), "{said}");
    harness.get_by_label_contains("could not be read");
    assert!(broken.exists(), "the record is left for the author");
}

#[test]
fn help_lists_the_shortcuts_and_the_canvas_gestures() {
    let mut harness = editor(bare(), None);
    harness.get_by_label("Help").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Keyboard and Mouse").click();
    harness.run_steps(2);
    assert!(harness.state().showing_help());
    harness.get_by_label("Ctrl+Z");
    harness.get_by_label("Ctrl+Shift+Z or Ctrl+Y");
    harness.get_by_label("Space, Tab or right-click");
    harness.get_by_label("Add a node where the pointer is");
}

#[test]
fn a_graph_written_without_a_layout_opens_unchanged() {
    // Regression: the canvas placed every node the file gave no position, and that
    // placing made the document differ from its file, so a graph written by a script
    // opened unsaved and asked to be saved on closing though nothing was done to it.
    let mut doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    doc.layout.clear();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scripted.ron");
    tuft_graph::io::save(&doc, &path).unwrap();
    let harness = editor_on(&path, &dir.path().join("autosave"));
    let session = harness.state().session();
    assert_eq!(
        session.doc().layout.len(),
        session.doc().graph.nodes.len(),
        "every node placed"
    );
    assert!(!session.is_dirty(), "opening changed nothing");
    assert!(!harness.state().window_title().contains('•'));
}

#[test]
fn a_file_that_cannot_be_opened_at_start_leaves_the_editor_open_saying_why() {
    // Regression: `tuft broken.ron` printed the reason to a terminal and exited, so a
    // file opened from a file manager showed nothing at all.
    let malformed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/malformed.ron");
    let (session, said) = tuft_editor::app::startup_session(Some(&malformed)).unwrap();
    let said = said.expect("the reason");
    assert!(
        said.contains("malformed.ron") && said.contains("line 5"),
        "{said}"
    );
    assert_eq!(session.doc().graph.name, "untitled");
    assert!(session.path().is_none(), "never saved over the broken file");
    let missing = std::path::Path::new("no/such/material.ron");
    let (_, said) = tuft_editor::app::startup_session(Some(missing)).unwrap();
    assert!(said.is_some_and(|s| s.contains("no/such/material.ron")));
    let (session, said) = tuft_editor::app::startup_session(None).unwrap();
    assert!(said.is_none());
    assert_eq!(session.doc().graph.name, "lawn");
}

#[test]
fn save_as_under_a_new_name_offers_to_name_the_material_after_the_file() {
    // Regression: saved as `mygrass.ron`, the material was still “untitled” and its bake
    // wrote `untitled_*` files.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mygrass.ron");
    let mut harness = editor(bare(), None);
    assert_ne!(harness.state().session().doc().graph.name, "mygrass");
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(path.clone())));
    file_menu(&mut harness, "Save As…");
    answered(&mut harness);
    harness.run_steps(1);
    harness.get_by_label_contains("its file is not");
    harness.get_by_label("Rename").click();
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().graph.name, "mygrass");
    assert!(
        !harness.state().session().is_dirty(),
        "the file took the name too"
    );
    assert_eq!(tuft_graph::io::load(&path).unwrap().graph.name, "mygrass");
    assert!(harness.query_by_label_contains("its file is not").is_none());
    // Saved again under the same name, nothing is offered.
    ctrl_s(&mut harness, &path);
    assert!(harness.query_by_label_contains("its file is not").is_none());
}

#[test]
fn rename_material_names_it_and_an_empty_name_is_refused() {
    let mut harness = editor(bare(), None);
    let before = harness.state().session().doc().graph.name.clone();
    file_menu(&mut harness, "Rename Material…");
    harness.run_steps(1);
    let retype = |harness: &mut Ui, from: &str, to: &str| {
        harness
            .get_all_by_role(egui::accesskit::Role::TextInput)
            .find(|n| n.value().as_deref() == Some(from))
            .expect("the window's name field")
            .click();
        harness.run_steps(1);
        type_over(harness, to);
        harness.get_by_label("Rename").click();
        harness.run_steps(2);
    };
    // Blank is no name: refused, said, and the window stays open.
    retype(&mut harness, &before, "   ");
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.contains("needs a name"))
    );
    assert_eq!(harness.state().session().doc().graph.name, before);
    retype(&mut harness, "   ", "meadow");
    assert_eq!(harness.state().session().doc().graph.name, "meadow");
    assert!(harness.state().session().is_dirty(), "a rename is an edit");
    assert!(
        harness.query_by_label("Rename").is_none(),
        "the window closed"
    );
    harness.state_mut().undo();
    assert_eq!(harness.state().session().doc().graph.name, before);
}

/// Types `text` into the spin button showing `shown` (a click starts its text).
fn type_into(harness: &mut Harness<'static, Editor>, shown: &str, text: &str) {
    harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.value().as_deref() == Some(shown))
        .unwrap_or_else(|| panic!("a field showing {shown}"))
        .click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.is_focused())
        .expect("the field takes text")
        .type_text(text);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
}

#[test]
fn render_image_writes_the_previews_picture_at_the_size_asked_and_refuses_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lawn.png");
    // The lawn: more strands in view than a preview scene plants before it lands.
    let doc = tuft_graph::io::load(&root().join("presets/lawn.ron")).unwrap();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(out.clone())));
    file_menu(&mut harness, "Render Image…");
    harness.run_steps(2);
    assert!(harness.state().image_renderer().dialog_open());
    harness.get_by_label("Choose…").click();
    answered(&mut harness);
    type_into(&mut harness, "1920", "480");
    type_into(&mut harness, "1080", "320");
    harness.get_by_label("Render").click();
    harness.run_steps(1);
    assert!(!harness.state().image_renderer().dialog_open());
    harness.state_mut().wait_for_image();
    let message = harness.state().message().unwrap_or_default().to_owned();
    assert!(message.starts_with("Rendered"), "{message}");
    let image = image::open(&out).expect("the PNG").to_rgba8();
    assert_eq!(image.dimensions(), (480, 320));
    // The picture the preview's view draws of the whole material, every tile planted
    // (a preview scene plants a slice a frame, and a render of it drew bare tiles).
    let graph = harness.state().session().doc().graph.clone();
    let (material, _) =
        tuft_editor::material::from_graph(&graph, tuft_editor::material::PREVIEW_RESOLUTION)
            .unwrap();
    let mut scene = tuft_render::Scene::new(material, tuft_render::SurfaceKind::Sphere);
    let view = tuft_render::View {
        width: 480,
        height: 320,
        ..harness.state().preview().view
    };
    let mut offscreen = tuft_render::Offscreen::new().expect("an adapter");
    let whole = offscreen.render(&mut scene, &view).expect("a frame").image;
    let whole = whole.over(tuft_editor::frame_file::BACKGROUND);
    let largest = image
        .as_raw()
        .chunks_exact(4)
        .zip(whole.chunks_exact(4))
        .flat_map(|(a, b)| (0..3).map(move |c| a[c].abs_diff(b[c])))
        .max();
    assert!(
        largest <= Some(2),
        "the render differs from the whole frame by {largest:?}"
    );
    // A file that is no PNG is refused before anything is built, and nothing written.
    let jpeg = dir.path().join("lawn.jpg");
    harness
        .state_mut()
        .set_dialogs(Dialogs::Answer(Some(jpeg.clone())));
    file_menu(&mut harness, "Render Image…");
    harness.run_steps(2);
    harness.get_by_label("Choose…").click();
    answered(&mut harness);
    harness.get_by_label("Render").click();
    harness.run_steps(2);
    assert!(!harness.state().image_renderer().busy());
    let message = harness.state().message().unwrap_or_default().to_owned();
    assert!(message.contains("frames are written as PNG"), "{message}");
    assert!(!jpeg.exists());
}
