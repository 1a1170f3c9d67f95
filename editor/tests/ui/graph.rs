//! The graph: wiring, refusals, seams, placing nodes, the canvas menu, framing.

use super::*;
use tuft_editor::graph_view::ViewNode;

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
fn the_canvas_menu_searches_the_vocabulary_and_adds_at_the_pointer() {
    let mut harness = editor(bare(), None);
    let at = egui::pos2(400.0, 600.0);
    right_click_at(&mut harness, at);
    // The search box has the keys: typing narrows the list (the library lists both;
    // the menu only what matches).
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the menu's search box is focused")
        .type_text("vor");
    harness.run_steps(2);
    assert_eq!(harness.get_all_by_label("Noise").count(), 1);
    assert_eq!(harness.get_all_by_label("Voronoi").count(), 2);
    // Where the pointer was, not where the library's click puts a node.
    choose_in_canvas_menu(&mut harness, "o", "Voronoi", at);
}

#[test]
fn a_wire_dropped_on_the_canvas_offers_the_nodes_that_fit_and_wires_the_one_chosen() {
    let mut harness = editor(bare(), None);
    let noise = add_from_library(&mut harness, "Noise");
    settle(&mut harness); // the workers' results move the panels: before the pins are read
    harness.key_press(egui::Key::F);
    harness.run_steps(3);
    let from = harness
        .state()
        .graph_view()
        .pin_rect(&ViewNode::Node(noise), "out", false)
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
fn the_unlinked_normal_says_it_comes_from_the_height_and_offers_no_number() {
    let mut harness = editor(bare(), None);
    // The material output's row for the normal: a note, not a constant's editor (the
    // normal takes links alone, and a number typed there went nowhere).
    let note = harness.get_by_label("from height").rect();
    let normal = harness.get_by_label("normal").rect();
    assert!(
        (note.center().y - normal.center().y).abs() < 4.0,
        "{note:?} {normal:?}"
    );
    let id = add_from_library(&mut harness, "Noise");
    let normal_sink = InRef::Sink(Sink::Pbr("normal".into()));
    // A float into the colour port goes through the graph's own conversion.
    assert!(
        harness
            .state_mut()
            .connect(OutRef::new(id, "out"), &normal_sink)
    );
    settle(&mut harness);
    assert!(harness.query_by_label("from height").is_none());
}

/// The material's outputs: the PBR node and a node a strand layer.
fn outputs(doc: &Document) -> Vec<ViewNode> {
    std::iter::once(ViewNode::Pbr)
        .chain(
            doc.graph
                .strands
                .keys()
                .map(|name| ViewNode::Layer(name.clone())),
        )
        .collect()
}

#[test]
fn every_preset_opens_with_its_outputs_in_view() {
    // Regression: the lawn and the fur opened on their top left at a readable zoom, the
    // PBR and layer outputs cut off at the right edge.
    for (name, text) in tuft_editor::PRESETS {
        let doc = tuft_graph::io::from_str(text).unwrap();
        let harness = editor(doc.clone(), None);
        let view = harness.state().graph_view();
        let canvas = view.canvas();
        for node in outputs(&doc) {
            let at = view.screen_rect(&node).expect("drawn");
            assert!(
                canvas.expand(1.0).contains_rect(at),
                "{name}: {node:?} at {at:?} is outside the canvas {canvas:?}"
            );
        }
    }
}

/// Every pair of nodes on the canvas that overlap.
fn overlaps(harness: &Ui) -> Vec<(egui::Rect, egui::Rect)> {
    let rects = harness.state().graph_view().footprints();
    let mut found = Vec::new();
    for (i, a) in rects.iter().enumerate() {
        for b in &rects[i + 1..] {
            if a.intersects(*b) {
                found.push((*a, *b));
            }
        }
    }
    found
}

#[test]
fn adding_from_the_library_keeps_the_view_and_lands_in_it_on_free_ground() {
    // Regression: each add framed the new node, panning the outputs off-screen.
    let doc = tuft_graph::io::from_str(tuft_editor::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    let before = overlaps(&harness).len();
    let origin = harness.state().graph_view().to_screen(egui::Pos2::ZERO);
    let canvas = harness.state().graph_view().canvas();
    for kind in ["Noise", "Voronoi", "Wave", "ColorRamp", "Mix"] {
        let id = add_from_library(&mut harness, kind);
        harness.run_steps(2);
        let view = harness.state().graph_view();
        assert_eq!(view.to_screen(egui::Pos2::ZERO), origin, "the view stays");
        let at = view.screen_rect(&ViewNode::Node(id)).unwrap();
        assert!(canvas.contains_rect(at), "{kind} lands in view: {at:?}");
    }
    assert_eq!(overlaps(&harness).len(), before, "{:?}", overlaps(&harness));
}

#[test]
fn a_node_added_where_another_stands_moves_beside_it_and_a_duplicate_beside_its_original() {
    let (noise, ramp);
    let mut harness = editor(bare(), None);
    noise = add_from_library(&mut harness, "Noise");
    harness.run_steps(2);
    let at = harness.state().session().doc().layout[&noise];
    // As a wire dropped on the Noise asks: a node at the Noise's own place.
    ramp = harness
        .state_mut()
        .add_node_at("ColorRamp", at)
        .expect("added");
    harness.run_steps(2);
    assert_ne!(harness.state().session().doc().layout[&ramp], at);
    assert!(overlaps(&harness).is_empty(), "{:?}", overlaps(&harness));
    harness.state_mut().duplicate(&[noise, ramp]);
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().graph.nodes.len(), 4);
    assert!(overlaps(&harness).is_empty(), "{:?}", overlaps(&harness));
}

#[test]
fn escape_closes_the_canvas_menu() {
    // Regression: the editor's own Escape (clear the selection) took the key first, and
    // only a click elsewhere closed the menu.
    let mut harness = editor(bare(), None);
    right_click_at(&mut harness, egui::pos2(400.0, 600.0));
    assert_eq!(
        harness.get_all_by_label("Voronoi").count(),
        2,
        "the menu lists what the library lists"
    );
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert_eq!(
        harness.get_all_by_label("Voronoi").count(),
        1,
        "only the library's entry is left"
    );
}
