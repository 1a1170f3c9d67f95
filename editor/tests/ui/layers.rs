//! Strand layers authored and named through the UI.

use super::*;

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
    // The workers' results (the preview, the layer's survivor thumbnails) change the
    // panels' sizes and so where the graph is drawn: let them land before the pins are
    // read and the pointer drags between them.
    settle(&mut harness);
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
