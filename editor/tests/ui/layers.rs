//! Strand layers authored and named through the UI.

use super::*;

#[test]
fn a_strand_layer_is_authored_from_file_new_to_a_preview_through_the_ui_alone() {
    // Regression: File › New gave a lone PBR output and no way to add a strand layer.
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    harness.get_by_label("File").click();
    harness.run_steps(2);
    click_new(&mut harness);
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

/// Where the inspector's column starts, on the screen.
fn inspector_column(harness: &Harness<'static, Editor>) -> f32 {
    harness
        .get_all_by_label_contains("Inspector")
        .find(|n| n.value().as_deref() == Some("Inspector"))
        .expect("the inspector's heading")
        .rect()
        .min
        .x
}

/// The inspector's layer headings ("Strand layer NAME"), top to bottom: those that
/// stand in the inspector's column (the canvas's node titles read the same).
fn inspector_layers(harness: &Harness<'static, Editor>) -> Vec<String> {
    let column = inspector_column(harness);
    let mut headings: Vec<(f32, String)> = harness
        .get_all_by_label_contains("Strand layer ")
        .filter(|n| (n.rect().min.x - column).abs() < 1.0)
        .filter_map(|n| Some((n.rect().min.y, n.value()?)))
        .collect();
    headings.sort_by(|a, b| a.0.total_cmp(&b.0));
    headings.into_iter().map(|(_, label)| label).collect()
}

#[test]
fn a_layer_added_copied_or_clicked_shows_its_settings_first_and_its_node_on_the_canvas() {
    // Regression: a layer added from the library was listed after the others (by name)
    // in the inspector and its node stood below theirs, out of the canvas's view, so on
    // the lawn the author saw neither.
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    assert_eq!(inspector_layers(&harness)[0], "Strand layer blades");
    harness.get_by_label("Strand layer").click();
    harness.run_steps(3);
    assert_eq!(harness.state().layer_focus(), Some("strands"));
    assert_eq!(inspector_layers(&harness)[0], "Strand layer strands");
    let on_canvas = |h: &Harness<'static, Editor>, layer: &str| {
        let view = h.state().graph_view();
        view.pin_rect(
            &tuft_editor::graph_view::ViewNode::Layer(layer.to_owned()),
            "density",
            true,
        )
        .is_some_and(|r| view.canvas_contains(r.center()))
    };
    assert!(
        on_canvas(&harness, "strands"),
        "the new layer's node is in view"
    );
    // The first Duplicate is the focused layer's; the copy comes first in turn.
    harness
        .get_all_by_label("Duplicate")
        .next()
        .unwrap()
        .click();
    harness.run_steps(3);
    let copy = harness.state().layer_focus().unwrap().to_owned();
    assert!(copy.starts_with("strands") && copy != "strands", "{copy}");
    assert_eq!(
        inspector_layers(&harness)[0],
        format!("Strand layer {copy}")
    );
    assert!(on_canvas(&harness, &copy), "the copy's node is in view");
    // A layer node's title clicked on the canvas puts that layer first.
    harness.get_by_label("Edit").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Frame All").click();
    harness.run_steps(3);
    // The canvas's labels lie in the graph's own coordinates; its transform takes them
    // to the screen.
    let column = inspector_column(&harness);
    let view = harness.state().graph_view();
    let title = harness
        .get_all_by_label_contains("Strand layer fibres")
        .filter(|n| (n.rect().min.x - column).abs() >= 1.0)
        .map(|n| view.to_screen(n.rect().center()))
        .find(|&at| view.canvas_contains(at))
        .expect("the fibres' node title on the canvas");
    click_at(&mut harness, title);
    harness.run_steps(3);
    assert_eq!(harness.state().layer_focus(), Some("fibres"));
    assert_eq!(inspector_layers(&harness)[0], "Strand layer fibres");
    // Renamed, it stays first under its new name; deleted, the order is by name again.
    assert!(harness.state_mut().rename_layer("fibres", "wisps"));
    harness.run_steps(2);
    assert_eq!(inspector_layers(&harness)[0], "Strand layer wisps");
    harness.state_mut().delete_layer("wisps");
    harness.run_steps(2);
    assert_eq!(harness.state().layer_focus(), None);
    assert_eq!(inspector_layers(&harness)[0], "Strand layer blades");
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
fn showing_a_layer_leaves_its_values_as_the_file_holds_them() {
    // Regression: the inspector commits any difference its widgets make, and a slider
    // clamps the value it shows to its own range. A layer keep of 0.005, a macro scale of
    // a kilometre or an alpha cutoff of 0.02 (each valid) became an unsaved edit to 0.01,
    // 200 m and 0.05 just by opening the file.
    let mut doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let blades = doc.graph.strands.get_mut("blades").unwrap();
    blades.levels.keep = vec![1.0, 0.25];
    blades.levels.widen_p = 0.5;
    blades.levels.layer_keep = 0.005;
    blades.macro_variation.scale_m = 1000.0;
    blades.cards.alpha_cutoff = 0.02;
    assert!(
        blades.check_settings().is_empty(),
        "{:?}",
        blades.check_settings()
    );
    let want = blades.clone();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("outside.ron");
    tuft_graph::io::save(&doc, &path).unwrap();
    let mut harness = editor_on(&path, &dir.path().join("autosave"));
    harness.run_steps(3);
    // The inspector shows the layers' settings (nothing is selected).
    assert_eq!(harness.get_all_by_label("layer keep").count(), 3);
    let session = harness.state().session();
    assert_eq!(session.doc().graph.strands["blades"], want);
    assert!(!session.is_dirty(), "opening the file changed it");
}

#[test]
fn a_level_is_added_only_while_its_widening_stays_inside_the_limit() {
    let mut doc = bare();
    doc.graph
        .strands
        .insert("grass".into(), tuft_graph::StrandLayer::default());
    let mut harness = editor(doc, None);
    let keeps = |h: &Harness<'static, Editor>| {
        h.state().session().doc().graph.strands["grass"]
            .levels
            .keep
            .clone()
    };
    // The default keeps 1, 1/4 and 1/16 at widening p 1: room for 1/64 and 1/256 (which
    // widens exactly 256 times), then no more.
    for _ in 0..4 {
        harness.get_by_label("+").click();
        harness.run_steps(2);
    }
    assert_eq!(keeps(&harness), [1.0, 0.25, 0.0625, 0.015625, 0.00390625]);
    let layer = &harness.state().session().doc().graph.strands["grass"];
    assert!(
        layer.check_settings().is_empty(),
        "{:?}",
        layer.check_settings()
    );
    // One removed, one added again: the button works again below the limit.
    harness.get_by_label("−").click();
    harness.run_steps(2);
    harness.get_by_label("+").click();
    harness.run_steps(2);
    assert_eq!(keeps(&harness).len(), 5);
}

#[test]
fn a_layer_switched_to_tubes_and_back_draws_each_profile_in_the_preview() {
    // The preview draws a ribbon's tiles from one stored vertex a centreline point and a
    // tube's from every vertex: switching one layer between them in the inspector must
    // draw each with its own triangles, and switching back must draw what was drawn.
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    // Each layer's strands, cards and triangles as the last frame drew them.
    let drawn = |h: &Harness<'static, Editor>| -> Vec<(String, u64, u64, u64)> {
        h.state()
            .preview()
            .stats
            .layers
            .iter()
            .map(|l| (l.name.clone(), l.strands, l.cards, l.triangles))
            .collect()
    };
    let blades = |d: &[(String, u64, u64, u64)]| d.iter().find(|l| l.0 == "blades").cloned();
    let ribbons = drawn(&harness);
    let (_, strands, _, ribbon_triangles) = blades(&ribbons).expect("the lawn has blades");
    assert!(strands > 0);
    harness.get_all_by_label("tube").next().unwrap().click();
    harness.run_steps(2);
    settle(&mut harness);
    let tube = harness.state().session().doc().graph.strands["blades"].profile;
    assert!(matches!(tube, tuft_graph::Profile::Tube { .. }), "{tube:?}");
    let tubes = drawn(&harness);
    let (_, tube_strands, cards, tube_triangles) = blades(&tubes).expect("blades");
    assert!(tube_strands > 0);
    // The cards and the strands each draw their own pattern's triangles.
    let per_card = (tuft_strands::cards::INDICES_PER_CARD / 3) as u64;
    assert_eq!(
        tube_triangles,
        tube_strands * (tube.indices_per_strand() / 3) as u64 + per_card * cards,
        "{tubes:?}"
    );
    assert_ne!(tube_triangles, ribbon_triangles);
    harness.get_all_by_label("ribbon").next().unwrap().click();
    harness.run_steps(2);
    settle(&mut harness);
    assert_eq!(
        drawn(&harness),
        ribbons,
        "back to the ribbons the lawn drew"
    );
}

/// Regression: "Added strand layer" stayed on the status bar through a dozen edits.
/// What was said of an action goes with the next one.
#[test]
fn a_status_message_goes_with_the_next_action() {
    let mut harness = editor(bare(), None);
    harness.get_by_label("Strand layer").click();
    harness.run_steps(2);
    let said = harness.state().message().unwrap_or_default().to_owned();
    assert!(said.starts_with("Added strand layer"), "{said}");
    add_from_library(&mut harness, "Wave");
    harness.run_steps(1);
    assert!(
        !harness
            .state()
            .message()
            .is_some_and(|m| m.starts_with("Added strand layer")),
        "{:?}",
        harness.state().message()
    );
}

#[test]
fn every_unwired_port_of_a_layer_is_typed_in_the_inspector_and_a_wired_one_names_its_source() {
    // Regression: the inspector showed only the groom ports; a layer's length, width and
    // colours could be set only on the node.
    let mut doc = bare();
    let mut layer = tuft_graph::StrandLayer::default();
    let noise = doc.graph.add_node("Noise").unwrap();
    layer.density = tuft_graph::Input::Link(OutRef::new(noise, "out"));
    doc.graph.strands.insert("grass".into(), layer);
    let mut harness = editor(doc, None);
    harness.run_steps(2);
    let column = inspector_column(&harness);
    for port in [
        "length",
        "width",
        "lean",
        "bend",
        "root color",
        "tip color",
        "clump offset",
    ] {
        assert!(
            harness
                .get_all_by_label(port)
                .any(|n| n.rect().left() >= column),
            "{port} in the inspector"
        );
    }
    harness.get_by_label_contains("from Noise");
    // The length's field, in metres: clicked, typed, Enter. In edit mode the field
    // holds the bare number, selected; typing replaces it.
    let shown = type_into(&mut harness, default_length, "0.12");
    assert_eq!(shown.as_deref(), Some("0.0600"));
    let layer = &harness.state().session().doc().graph.strands["grass"];
    assert_eq!(layer.length, tuft_graph::Input::Const(Value::Float(0.12)));
}

/// Whether `n` is a layer's length field holding the default length.
fn default_length(n: &egui_kittest::Node<'_>) -> bool {
    n.value()
        .is_some_and(|v| v.ends_with(" m") && v.starts_with("0.06"))
}

/// Clicks the inspector's number field that `is` finds, types `text` over it and presses
/// Enter; returns what the field held when it took the keys.
fn type_into(
    harness: &mut Harness<'static, Editor>,
    is: impl Fn(&egui_kittest::Node<'_>) -> bool,
    text: &str,
) -> Option<String> {
    harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(&is)
        .expect("the field")
        .scroll_to_me();
    harness.run_steps(3);
    let at = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(&is)
        .expect("the field")
        .rect()
        .center();
    click_at(harness, at);
    harness.run_steps(2);
    let editing = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.is_focused())
        .expect("the field takes text");
    let shown = editing.value();
    editing.type_text(text);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    shown
}

#[test]
fn a_number_typed_outside_its_range_is_refused_and_the_range_named() {
    // Regression: a typed number was clamped to the range in silence.
    let mut doc = bare();
    doc.graph
        .strands
        .insert("grass".into(), tuft_graph::StrandLayer::default());
    let mut harness = editor(doc, None);
    harness.run_steps(2);
    let lattice = |n: &egui_kittest::Node<'_>| n.value().as_deref() == Some("256");
    type_into(&mut harness, lattice, "5000");
    let layer = &harness.state().session().doc().graph.strands["grass"];
    assert_eq!(layer.lattice, 256, "refused, not clamped to 2048");
    assert_eq!(
        harness.state().message(),
        Some("Not set: 5000 is outside 1 to 2048, the range it can take")
    );
    // A length below nothing names the least it can be.
    type_into(&mut harness, default_length, "-0.5");
    let layer = &harness.state().session().doc().graph.strands["grass"];
    assert_eq!(
        layer.length,
        tuft_graph::StrandLayer::default().length,
        "refused, not clamped to 0"
    );
    assert_eq!(
        harness.state().message(),
        Some("Not set: -0.5 is below 0, the least it can be")
    );
    // Inside the range, it is set.
    type_into(&mut harness, lattice, "300");
    let layer = &harness.state().session().doc().graph.strands["grass"];
    assert_eq!(layer.lattice, 300);
}
