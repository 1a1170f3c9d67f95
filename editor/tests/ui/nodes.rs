//! Node kinds added from the library and edited in the inspector.

use super::*;

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

#[test]
fn output_names_line_up_at_the_node_edge() {
    // Regression: each output row was laid out a pin's width to the right of the one
    // above it, so on the Voronoi node "cell_random" lost its end under its pin,
    // "offset" showed as "of" and "edge" was cut off by the node's border.
    let mut harness = editor(bare(), None);
    add_from_library(&mut harness, "Voronoi");
    settle(&mut harness);
    let names = ["distance", "cell_random", "offset", "edge"];
    let rights: Vec<f32> = names
        .iter()
        .map(|name| harness.get_by_label(name).rect().right())
        .collect();
    for (name, right) in names.iter().zip(&rights) {
        assert!(
            (right - rights[0]).abs() < 1.0,
            "{name} ends at {right}: {rights:?}"
        );
    }
}

#[test]
fn a_math_node_is_titled_by_its_operation_on_the_canvas_and_in_the_inspector() {
    let mut harness = editor(bare(), None);
    let id = add_from_library(&mut harness, "Math");
    settle(&mut harness);
    assert_eq!(
        harness
            .get_all_by_label(&format!("Math#{id} · mul"))
            .count(),
        2
    );
    harness
        .state_mut()
        .set_param(id, "op", ParamValue::Choice("remap".into()));
    harness.run_steps(2);
    assert_eq!(
        harness
            .get_all_by_label(&format!("Math#{id} · remap"))
            .count(),
        2
    );
    assert!(
        harness
            .query_by_label(&format!("Math#{id} · mul"))
            .is_none()
    );
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn showing_a_node_leaves_its_parameters_as_the_file_holds_them() {
    // Regression: the lawn's colour ramp has a stop at 1.2; the stop's number field
    // clamped it to 0..=1 as it was shown and reported a change, so selecting the node
    // made an unsaved edit of the shipped preset.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lawn.ron");
    std::fs::write(&path, tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor_on(&path, &dir.path().join("autosave"));
    let ramp = tuft_graph::NodeId(5);
    let before = harness
        .state()
        .session()
        .doc()
        .graph
        .node(ramp)
        .unwrap()
        .clone();
    assert!(
        matches!(&before.params["stops"], ParamValue::Ramp(s) if s.iter().any(|s| s.pos > 1.0)),
        "the preset's ramp has a stop past 1"
    );
    harness.get_by_label("ColorRamp#5").click_accesskit();
    harness.run_steps(3);
    assert_eq!(harness.state().selected(), Some(ramp));
    harness.get_by_label("+ stop");
    let session = harness.state().session();
    assert_eq!(session.doc().graph.node(ramp), Some(&before));
    assert!(!session.is_dirty(), "showing the node changed it");
    // The first stop's position dragged right: that stop moves, every colour keeps its
    // bits (the colour button had written its round trip through HSV back every frame).
    let field = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| {
            egui_kittest::kittest::NodeT::accesskit_node(n)
                .numeric_value()
                .is_some_and(|v| (v - 0.4).abs() < 1e-6)
                && n.rect().min.x > 700.0
        })
        .expect("the first stop's position in the inspector")
        .rect()
        .center();
    drag_wire(&mut harness, field, field + egui::vec2(20.0, 0.0));
    harness.drop_at(field + egui::vec2(20.0, 0.0));
    harness.run_steps(2);
    let stops = |n: &tuft_graph::Node| match &n.params["stops"] {
        ParamValue::Ramp(s) => s.clone(),
        _ => unreachable!("a ramp"),
    };
    let after = stops(harness.state().session().doc().graph.node(ramp).unwrap());
    let was = stops(&before);
    assert!(after[0].pos > was[0].pos, "{after:?}");
    assert_eq!(after[1..], was[1..]);
    for (a, w) in after.iter().zip(&was) {
        assert_eq!(a.color.map(f32::to_bits), w.color.map(f32::to_bits));
    }
}

#[test]
fn a_parameters_value_slides_between_its_own_min_and_max_in_the_inspector() {
    // Regression: the inspector gave a Parameter's value the 0..1 slider of its kind,
    // so the lawn's grass height (0.3 to 2) could not be dragged past 1 there.
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    harness
        .get_by_label("Parameter#20 · grass height")
        .click_accesskit();
    harness.run_steps(3);
    assert_eq!(harness.state().selected(), Some(tuft_graph::NodeId(20)));
    let ranges: Vec<(f64, f64)> = harness
        .get_all_by_role(egui::accesskit::Role::Slider)
        .filter(|n| n.rect().min.x > 880.0 && n.rect().min.y > 400.0)
        .filter_map(|n| {
            let node = egui_kittest::kittest::NodeT::accesskit_node(&n);
            Some((node.min_numeric_value()?, node.max_numeric_value()?))
        })
        .collect();
    assert!(
        ranges
            .iter()
            .any(|&(lo, hi)| (lo - 0.3).abs() < 1e-6 && (hi - 2.0).abs() < 1e-6),
        "{ranges:?}"
    );
}

#[test]
fn a_new_parameter_takes_a_name_no_other_parameter_has() {
    // Each Parameter is a slider labelled by its name above the preview: two added from
    // the library were both "amount", two sliders no one could tell apart.
    let mut harness = editor(bare(), None);
    let first = add_from_library(&mut harness, "Parameter");
    let second = add_from_library(&mut harness, "Parameter");
    harness.state_mut().duplicate(&[second]);
    harness.run_steps(2);
    let graph = harness.state().session().doc().graph.clone();
    let names: Vec<&str> = graph
        .nodes
        .iter()
        .filter(|n| n.kind == "Parameter")
        .map(|n| n.params().text("name"))
        .collect();
    assert_eq!(names, ["amount", "amount 2", "amount 3"]);
    assert_eq!(graph.node(first).unwrap().params().text("name"), "amount");
    for name in names {
        assert!(harness.query_all_by_label(name).next().is_some(), "{name}");
    }
    // A name the author gives is theirs, even one another Parameter has.
    harness
        .state_mut()
        .set_param(second, "name", ParamValue::Text("amount".into()));
    let graph = &harness.state().session().doc().graph;
    assert_eq!(graph.node(second).unwrap().params().text("name"), "amount");
}

#[test]
fn a_number_on_a_node_is_typed_after_a_click_and_enter_commits_it() {
    // Regression: a node's inline number took no click, only a drag, so a blade length
    // could not be set to the value meant.
    let mut harness = editor(bare(), None);
    harness.run_steps(2);
    let roughness = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.value().as_deref() == Some("0.800"))
        .expect("the PBR output's roughness field");
    // The canvas is zoomed and panned: the field's rectangle is in graph space.
    let at = harness
        .state()
        .graph_view()
        .to_screen(roughness.rect().center());
    click_at(&mut harness, at);
    harness.run_steps(2);
    let editing = harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .find(|n| n.is_focused())
        .expect("the field takes text");
    editing.type_text("0.25");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert_eq!(
        harness
            .state()
            .session()
            .doc()
            .graph
            .sink_input(&roughness_sink()),
        Some(tuft_graph::Input::Const(Value::Float(0.25)))
    );
}

fn roughness_sink() -> Sink {
    Sink::Pbr("roughness".into())
}
