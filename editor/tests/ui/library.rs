//! A library of one's own: a group saved from one document, used in another, and that
//! other document's life after the library file changes or goes.

use super::*;
use tuft_graph::library::Library;
use tuft_graph::{Evaluator, NodeId};

/// A document whose group "Mottle" (a noise into a ramp) gives the base colour.
fn mottled() -> Document {
    let mut doc = bare();
    let noise = doc.graph.add_node("Noise").unwrap();
    let ramp = doc.graph.add_node("ColorRamp").unwrap();
    doc.graph
        .connect(
            OutRef::new(noise, "out"),
            &InRef::Node {
                node: ramp,
                port: "t".into(),
            },
        )
        .unwrap();
    doc.graph
        .connect(OutRef::new(ramp, "out"), &base_color())
        .unwrap();
    doc.layout.insert(noise, [0.0, 0.0]);
    doc.layout.insert(ramp, [220.0, 0.0]);
    doc.make_group(&[noise, ramp], "Mottle").unwrap();
    doc
}

/// Bakes the graph in `path` into `out` (small maps) and returns every file's bytes.
fn baked(path: &std::path::Path, out: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let doc = tuft_graph::io::load(path).unwrap();
    tuft_bake::write_baked_set(&Evaluator::new(&doc.graph), out, 32, &mut |_, _| {}).unwrap();
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The one group's ramp in `doc`: the node whose output the group shows.
fn group_output(doc: &Document) -> NodeId {
    doc.groups[0].outputs[0].node
}

#[test]
fn a_library_node_made_in_one_document_is_used_in_another_that_opens_and_bakes_the_same_without_it()
{
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("library");
    let mut harness = editor(mottled(), None);
    harness.state_mut().set_library_folder(&folder);
    // Saved from inside the group, by its bar's button.
    click_in_graph(&mut harness, "Open");
    harness.get_by_label("Save to Library").click();
    harness.run_steps(2);
    let file = folder.join("Mottle.ron");
    assert!(file.is_file(), "{:?}", harness.state().message());
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.contains("Saved “Mottle” in the library"))
    );
    assert_eq!(
        harness.state().session().doc().groups[0]
            .library
            .as_ref()
            .map(|l| l.name.as_str()),
        Some("Mottle"),
        "the saved group is that library node's copy"
    );

    // A second document, from File › New: the Library panel offers it.
    file_new(&mut harness);
    assert!(harness.state().session().doc().groups.is_empty());
    harness.run_steps(2);
    harness.get_by_label("My library");
    harness.get_by_label("Mottle").click();
    harness.run_steps(2);
    let doc = harness.state().session().doc().clone();
    assert_eq!(doc.groups.len(), 1, "{:?}", harness.state().message());
    assert_eq!(doc.groups[0].name, "Mottle");
    assert_eq!(doc.groups[0].members.len(), 2);
    assert_eq!(
        doc.groups[0].library.as_ref().map(|l| l.name.as_str()),
        Some("Mottle")
    );
    harness.get_by_label("from the library");
    // Its output drives the second document's base colour; saved.
    assert!(
        harness
            .state_mut()
            .connect(OutRef::new(group_output(&doc), "out"), &base_color())
    );
    let second = dir.path().join("second.ron");
    assert!(harness.state_mut().save(Some(&second)));
    drop(harness);
    let before = baked(&second, &dir.path().join("before"));

    // The library file goes: the document still opens, says so, and bakes the same.
    std::fs::remove_file(&file).unwrap();
    let mut harness = editor_on(&second, &dir.path().join("autosave"));
    harness.state_mut().set_library_folder(&folder);
    harness.run_steps(2);
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.contains("the library no longer holds \"Mottle\"")),
        "{:?}",
        harness.state().message()
    );
    harness.get_by_label("no longer in the library");
    assert_eq!(harness.state().session().doc().graph.nodes.len(), 2);
    drop(harness);
    let after = baked(&second, &dir.path().join("after"));
    assert!(before.len() > 3, "{:?}", before.iter().map(|f| &f.0));
    assert_eq!(before, after);
}

#[test]
fn the_canvas_menu_offers_the_library_and_a_changed_library_node_is_said_to_differ() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("library");
    let source = mottled();
    let mut library = Library::read(&folder);
    let node = source.library_node(source.groups[0].id).unwrap();
    library.save(&node).unwrap();

    let mut harness = editor(bare(), None);
    harness.state_mut().set_library_folder(&folder);
    let at = egui::pos2(420.0, 560.0);
    right_click_at(&mut harness, at);
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the menu's search box is focused")
        .type_text("mott");
    harness.run_steps(2);
    // The Library panel lists it too; the menu's entry is the last.
    harness.get_all_by_label("Mottle").last().unwrap().click();
    harness.run_steps(2);
    let doc = harness.state().session().doc().clone();
    assert_eq!(doc.groups.len(), 1, "{:?}", harness.state().message());
    let g = &doc.groups[0];
    let on_screen = harness
        .state()
        .graph_view()
        .to_screen(egui::pos2(g.pos[0], g.pos[1]));
    assert!(on_screen.distance(at) < 12.0, "{on_screen:?} vs {at:?}");
    harness.get_by_label("from the library");

    // The library's copy changes (a ramp stop moved): the group says it differs.
    let mut changed = node.clone();
    changed.nodes.layout[0].1[0] -= 80.0;
    library.save(&changed).unwrap();
    harness.state_mut().set_library_folder(&folder);
    harness.run_steps(2);
    harness.get_by_label("the library's copy differs");
    assert!(
        harness
            .state()
            .message()
            .is_some_and(|m| m.contains("has changed since it was added")),
        "{:?}",
        harness.state().message()
    );
}
