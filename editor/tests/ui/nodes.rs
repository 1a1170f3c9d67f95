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
