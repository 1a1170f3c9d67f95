//! Arranging the graph as users of node editors do without thinking: Select All, frames
//! that carry their nodes, groups collapsed and opened, the canvas menu from the keyboard.

use super::*;
use tuft_editor::graph_view::ViewNode;
use tuft_graph::NodeId;
use tuft_graph::groups::Frame;

/// Noise → ColorRamp → base colour, laid out left to right.
fn chain() -> (Document, NodeId, NodeId) {
    let mut g = MaterialGraph::new("chain");
    let noise = g.add_node("Noise").unwrap();
    let ramp = g.add_node("ColorRamp").unwrap();
    g.connect(
        OutRef::new(noise, "out"),
        &InRef::Node {
            node: ramp,
            port: "t".into(),
        },
    )
    .unwrap();
    g.connect(OutRef::new(ramp, "out"), &base_color()).unwrap();
    let mut doc = Document::new(g);
    doc.layout.insert(noise, [0.0, 0.0]);
    doc.layout.insert(ramp, [320.0, 0.0]);
    (doc, noise, ramp)
}

/// Drags from graph position `from` by `by` screen points, a frame a step, once the
/// workers' results (which move the panels) have landed.
fn drag_title(harness: &mut Harness<'static, Editor>, from: [f32; 2], by: egui::Vec2) {
    settle(harness);
    let start = harness
        .state()
        .graph_view()
        .to_screen(egui::pos2(from[0] + 30.0, from[1] + 12.0));
    drag_wire(harness, start, start + by);
    harness.event(egui::Event::PointerButton {
        pos: start + by,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run_steps(3);
}

/// Clicks the widget labelled `label` inside the graph (whose layer is zoomed and
/// panned: the widget's rectangle is in graph space).
fn moved(before: &Document, after: &Document, id: NodeId) -> [f32; 2] {
    let (a, b) = (before.layout[&id], after.layout[&id]);
    [b[0] - a[0], b[1] - a[1]]
}

#[test]
fn select_all_takes_every_node_and_a_drag_moves_them_together() {
    let (doc, noise, ramp) = chain();
    let mut harness = editor(doc, None);
    let before = harness.state().session().doc().clone();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(2);
    drag_title(&mut harness, before.layout[&noise], egui::vec2(0.0, 80.0));
    let after = harness.state().session().doc().clone();
    let (a, b) = (moved(&before, &after, noise), moved(&before, &after, ramp));
    assert!(a[1] > 20.0, "the dragged node moved: {a:?}");
    assert_eq!(a, b, "the other selected node moved with it");
    // And Delete takes them all.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(1);
    harness.key_press(egui::Key::Delete);
    harness.run_steps(2);
    assert!(harness.state().session().doc().graph.nodes.is_empty());
}

#[test]
fn a_frame_moves_the_nodes_inside_it_and_not_the_others() {
    let (mut doc, noise, ramp) = chain();
    doc.frames.push(Frame {
        title: "Source".into(),
        pos: [-40.0, -80.0],
        size: [300.0, 260.0],
        group: None,
    });
    let mut harness = editor(doc, None);
    let before = harness.state().session().doc().clone();
    drag_title(&mut harness, [-40.0, -80.0], egui::vec2(60.0, 0.0));
    let after = harness.state().session().doc().clone();
    let frame = [
        after.frames[0].pos[0] - before.frames[0].pos[0],
        after.frames[0].pos[1] - before.frames[0].pos[1],
    ];
    assert!(frame[0] > 20.0, "the frame moved: {frame:?}");
    assert_eq!(moved(&before, &after, noise), frame, "its node with it");
    assert_eq!(
        moved(&before, &after, ramp),
        [0.0, 0.0],
        "the node outside stays"
    );
}

#[test]
fn shift_f_frames_the_selection_and_undo_takes_the_frame_away() {
    let (doc, noise, _) = chain();
    let mut harness = editor(doc, None);
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .run(&ctx, tuft_editor::command::Command::Select(noise));
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F);
    harness.run_steps(2);
    let doc = harness.state().session().doc();
    assert_eq!(doc.frames.len(), 1);
    let (f, p) = (&doc.frames[0], doc.layout[&noise]);
    assert!(
        f.pos[0] < p[0] && f.pos[1] < p[1] && f.pos[0] + f.size[0] > p[0] + 100.0,
        "{f:?} holds the noise at {p:?}"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert!(harness.state().session().doc().frames.is_empty());
}

#[test]
fn a_group_collapses_opens_round_trips_and_undoes() {
    let (doc, noise, ramp) = chain();
    let graph_before = doc.graph.clone();
    let mut harness = editor(doc, None);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::G);
    harness.run_steps(3);
    let doc = harness.state().session().doc().clone();
    assert_eq!(doc.groups.len(), 1, "{:?}", harness.state().message());
    let group = doc.groups[0].clone();
    assert_eq!(group.members, [noise, ramp].into());
    assert_eq!(
        doc.graph, graph_before,
        "grouping leaves the material alone"
    );
    // Collapsed: one node whose output pin carries the ramp's link to the surface.
    let view = harness.state().graph_view();
    assert!(
        view.pin_rect(&ViewNode::Group(group.id), "ColorRamp#2.out", false)
            .is_some(),
        "the group node shows the ramp's output"
    );
    assert!(
        view.positions().is_empty(),
        "the members are inside: {:?}",
        view.positions()
    );
    // Saved and read back: the same document.
    let text = tuft_graph::io::to_string(&doc).unwrap();
    assert_eq!(tuft_graph::io::from_str(&text).unwrap(), doc);
    // Opened: the members are on the canvas, and a node added there joins the group.
    click_in_graph(&mut harness, "Open");
    assert_eq!(harness.state().graph_view().open_group(), Some(group.id));
    let inside: Vec<NodeId> = harness
        .state()
        .graph_view()
        .positions()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert!(
        inside.contains(&noise) && inside.contains(&ramp),
        "{inside:?}"
    );
    let levels = add_from_library(&mut harness, "Levels");
    assert!(
        harness.state().session().doc().groups[0]
            .members
            .contains(&levels)
    );
    harness.get_by_label("⏴ Top level").click();
    harness.run_steps(2);
    assert_eq!(harness.state().graph_view().open_group(), None);
    // Undo the added node, then the grouping; redo brings the group back.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert!(harness.state().session().doc().groups.is_empty());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc().groups.len(), 1);
    // Ungrouped from its inside: the nodes are back at the top level.
    click_in_graph(&mut harness, "Open");
    harness.get_by_label("Ungroup").click();
    harness.run_steps(2);
    assert!(harness.state().session().doc().groups.is_empty());
    assert_eq!(harness.state().graph_view().open_group(), None);
    assert_eq!(harness.state().session().doc().graph, graph_before);
}

#[test]
fn space_opens_the_canvas_menu_at_the_pointer_and_escape_closes_it() {
    let mut harness = editor(bare(), None);
    let at = egui::pos2(420.0, 560.0);
    harness.hover_at(at);
    harness.run_steps(1);
    harness.key_press(egui::Key::Tab);
    harness.run_steps(2);
    assert!(harness.state().graph_view().menu_open(), "Tab opens it");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(
        !harness.state().graph_view().menu_open(),
        "Escape closes it"
    );
    harness.key_press(egui::Key::Space);
    harness.run_steps(2);
    choose_in_canvas_menu(&mut harness, "wave", "Wave", at);
    assert!(!harness.state().graph_view().menu_open());
}

#[test]
fn a_reroute_dot_passes_a_wire_through_and_takes_its_type() {
    let (doc, _, ramp) = chain();
    let mut harness = editor(doc, None);
    let dot = add_from_library(&mut harness, "Reroute");
    let ctx = harness.ctx.clone();
    harness.state_mut().run(
        &ctx,
        tuft_editor::command::Command::Connect(
            OutRef::new(ramp, "out"),
            InRef::Node {
                node: dot,
                port: "in".into(),
            },
        ),
    );
    harness.state_mut().run(
        &ctx,
        tuft_editor::command::Command::Connect(OutRef::new(dot, "out"), base_color()),
    );
    harness.run_steps(2);
    assert_eq!(harness.state().refusal(), None);
    let report = harness.state().report();
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    let graph = &harness.state().session().doc().graph;
    assert_eq!(
        graph.output_type(&OutRef::new(dot, "out")),
        Some(tuft_graph::PortType::Color)
    );
}

#[test]
fn the_first_view_of_a_large_graph_is_readable_and_f_shows_it_all() {
    let doc = tuft_graph::io::from_str(tuft_editor::app::LAWN_PRESET).unwrap();
    let mut harness = editor(doc, None);
    let view = harness.state().graph_view();
    let a = view.to_screen(egui::pos2(0.0, 0.0));
    let b = view.to_screen(egui::pos2(100.0, 0.0));
    let zoom = (b.x - a.x) / 100.0;
    // Readable, zoomed out from the usual 0.6 only as far as the outputs need to fit.
    assert!(zoom >= 0.5, "opened at zoom {zoom}");
    harness.key_press(egui::Key::F);
    harness.run_steps(3);
    let view = harness.state().graph_view();
    let zoom_all =
        (view.to_screen(egui::pos2(100.0, 0.0)).x - view.to_screen(egui::pos2(0.0, 0.0)).x) / 100.0;
    assert!(
        zoom_all < zoom,
        "F shows the whole lawn: {zoom_all} < {zoom}"
    );
    // Every node whole on the canvas, the rightmost (the layers' outputs) included.
    for rect in view.footprints() {
        for corner in [rect.left_top(), rect.right_bottom()] {
            let on_screen = view.to_screen(corner);
            assert!(view.canvas_contains(on_screen), "{rect:?} is cut off");
        }
    }
}

#[test]
fn a_group_node_says_what_it_holds_on_one_line() {
    // Regression: the group node's body took the width its own wrapped text measured
    // the frame before, so "2 nodes inside" and its Open button stood a letter or two a
    // line in a column beside the outputs.
    let (doc, _, _) = chain();
    let mut harness = editor(doc, None);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::G);
    settle(&mut harness);
    let line = harness
        .get_all_by_label("Group: Group 1")
        .map(|title| title.rect().height())
        .fold(f32::INFINITY, f32::min);
    for text in ["2 nodes inside", "Open"] {
        let rect = harness.get_by_label(text).rect();
        assert!(
            rect.height() < 1.6 * line,
            "{text}: {rect:?}, a line {line}"
        );
    }
}

/// The text the last frames put on the clipboard, stepping until one does.
fn copied(harness: &mut Harness<'static, Editor>) -> String {
    for _ in 0..4 {
        harness.step();
        let commands = &harness.output().platform_output.commands;
        if let Some(egui::OutputCommand::CopyText(text)) = commands.first() {
            return text.clone();
        }
    }
    panic!("nothing was put on the clipboard")
}

#[test]
fn cut_and_paste_carry_nodes_to_the_pointer_in_another_document_without_stray_links() {
    let (doc, noise, ramp) = chain();
    let mut harness = editor(doc, None);
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .run(&ctx, tuft_editor::command::Command::Select(ramp));
    harness.event(egui::Event::Cut);
    let text = copied(&mut harness);
    harness.run_steps(1);
    let doc = harness.state().session().doc();
    assert!(doc.graph.node(ramp).is_none(), "Cut takes the node away");
    // Pasted back into its own document (off the canvas: at the middle of the view),
    // the ramp still reads the noise it was cut from.
    harness.hover_at(egui::pos2(2.0, 2.0));
    harness.event(egui::Event::Paste(text.clone()));
    harness.run_steps(2);
    let doc = harness.state().session().doc().clone();
    let back = harness
        .state()
        .selected()
        .expect("the pasted node is selected");
    assert_eq!(doc.graph.node(back).unwrap().kind, "ColorRamp");
    assert_eq!(
        doc.graph.node(back).unwrap().inputs["t"],
        tuft_graph::Input::Link(OutRef::new(noise, "out"))
    );
    let centre = harness.state().graph_view().centre;
    assert_eq!(doc.layout[&back], [centre.x, centre.y]);
    drop(harness);

    // Another document, whose node of the noise's id is a Wave: the paste must not wire
    // the ramp to it, and says what it left behind.
    let mut g = MaterialGraph::new("other");
    assert_eq!(g.add_node("Wave"), Some(noise));
    let mut harness = editor(Document::new(g), None);
    let canvas = harness.state().graph_view().to_screen(egui::pos2(0.0, 0.0));
    // Below every node (a paste onto a node moves aside).
    let view = harness.state().graph_view();
    let below = view
        .footprints()
        .iter()
        .map(|r| r.max.y)
        .fold(0.0, f32::max);
    let at = egui::pos2(canvas.x, view.to_screen(egui::pos2(0.0, below + 40.0)).y);
    harness.hover_at(at);
    harness.run_steps(1);
    harness.event(egui::Event::Paste(text));
    harness.run_steps(2);
    let doc = harness.state().session().doc().clone();
    let copy = harness
        .state()
        .selected()
        .expect("the pasted node is selected");
    assert_eq!(doc.graph.node(copy).unwrap().kind, "ColorRamp");
    assert_eq!(doc.graph.node(copy).unwrap().inputs.get("t"), None);
    let landed = harness
        .state()
        .graph_view()
        .to_screen(egui::pos2(doc.layout[&copy][0], doc.layout[&copy][1]));
    assert!(
        (landed - at).length() < 1.0,
        "{landed:?} is at the pointer {at:?}"
    );
    let said = harness.state().message().unwrap_or_default();
    assert!(said.contains("lost its link"), "{said}");
    // One undo takes the paste away.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert!(harness.state().session().doc().graph.node(copy).is_none());
    // A clip of more nodes than one paste adds changes nothing and says so.
    let before = harness.state().session().doc().clone();
    let many: Vec<String> = (0..=tuft_graph::clip::MAX_CLIP_NODES)
        .map(|k| format!("(id: {k}, kind: \"UV\")"))
        .collect();
    harness.event(egui::Event::Paste(format!("(nodes: [{}])", many.join(","))));
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc(), &before);
    let said = harness.state().message().unwrap_or_default();
    assert!(
        said.contains("4097 nodes") && said.contains("at most 4096"),
        "{said}"
    );
    // Text that is not a clip changes nothing and says so.
    let before = harness.state().session().doc().clone();
    harness.event(egui::Event::Paste("(nodes: [(id: 1, kind: 3)])".into()));
    harness.run_steps(2);
    assert_eq!(harness.state().session().doc(), &before);
    assert_eq!(
        harness.state().message(),
        Some("The clipboard holds no Tuft nodes")
    );
}

/// Clicks at screen position `at` with `modifiers` held over the frames before and after,
/// as a hand holds Shift and then clicks.
fn click_holding(
    harness: &mut Harness<'static, Editor>,
    at: egui::Pos2,
    modifiers: egui::Modifiers,
) {
    harness.event(egui::Event::ModifiersChanged(modifiers));
    press_at(harness, at, egui::PointerButton::Primary, modifiers);
    harness.run_steps(1);
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    harness.run_steps(1);
}

/// Where node `id`'s title stands on screen (past the collapse arrow).
fn title_of(harness: &Harness<'static, Editor>, id: NodeId) -> egui::Pos2 {
    let at = harness.state().session().doc().layout[&id];
    harness
        .state()
        .graph_view()
        .to_screen(egui::pos2(at[0] + 60.0, at[1] + 9.0))
}

/// Ctrl+G, and what the status bar said.
fn group_selection(harness: &mut Harness<'static, Editor>) -> String {
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::G);
    harness.run_steps(2);
    harness.state().message().unwrap_or_default().to_owned()
}

#[test]
fn shift_click_on_two_titles_selects_both_and_group_takes_both() {
    // Regression: the title took the click for the inspector, so Shift+click on a title
    // replaced what was shown and Ctrl+G said "Grouped 1 node" with two nodes outlined.
    let (doc, noise, ramp) = chain();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    let (at_noise, at_ramp) = (title_of(&harness, noise), title_of(&harness, ramp));
    click_at(&mut harness, at_noise);
    harness.run_steps(2);
    assert_eq!(harness.state().selected(), Some(noise), "a click inspects");
    click_holding(&mut harness, at_noise, egui::Modifiers::SHIFT);
    click_holding(&mut harness, at_ramp, egui::Modifiers::SHIFT);
    let said = group_selection(&mut harness);
    assert!(said.starts_with("Grouped 2 nodes"), "{said}");
    let doc = harness.state().session().doc();
    assert_eq!(doc.groups.len(), 1);
    assert!(doc.group_of(noise).is_some() && doc.group_of(ramp).is_some());
}

#[test]
fn shift_drag_on_empty_canvas_draws_a_box_that_selects_what_it_holds() {
    let (doc, noise, ramp) = chain();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    let view = |h: &Harness<'static, Editor>, p: [f32; 2]| {
        h.state().graph_view().to_screen(egui::pos2(p[0], p[1]))
    };
    let from = view(&harness, [-30.0, -40.0]);
    assert!(harness.state().graph_view().canvas_contains(from));
    let to = view(&harness, [900.0, 400.0]);
    let panned_from = harness.state().graph_view().to_screen(egui::Pos2::ZERO);
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::SHIFT));
    harness.run_steps(1);
    drag_wire(&mut harness, from, to);
    harness.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::SHIFT,
    });
    harness.run_steps(1);
    harness.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    harness.run_steps(1);
    assert_eq!(
        harness.state().graph_view().to_screen(egui::Pos2::ZERO),
        panned_from,
        "Shift+drag does not pan"
    );
    harness.event(egui::Event::Copy);
    harness.run_steps(2);
    assert_eq!(harness.state().message(), Some("Copied 2 nodes"));
    let said = group_selection(&mut harness);
    assert!(said.starts_with("Grouped 2 nodes"), "{said}");
    let doc = harness.state().session().doc();
    assert!(doc.group_of(noise).is_some() && doc.group_of(ramp).is_some());
}

#[test]
fn a_frame_is_drawn_as_a_frame_with_its_title_band_across_the_top() {
    // Regression: a frame drew as a title node and a tiny empty node whose collapse
    // arrow was its resize corner.
    let (mut doc, _, _) = chain();
    doc.frames.push(Frame {
        title: "Source".into(),
        pos: [-40.0, -80.0],
        size: [300.0, 300.0],
        group: None,
    });
    let mut harness = editor(doc, None);
    harness.run_steps(3);
    let image = harness.render().unwrap();
    let view = harness.state().graph_view();
    let ppp = harness.ctx.pixels_per_point();
    let pixel = |x: f32, y: f32| {
        let p = view.to_screen(egui::pos2(x, y)) * ppp;
        image.get_pixel(p.x as u32, p.y as u32).0
    };
    let band = [52, 72, 105];
    let near = |c: [u8; 4], want: [u8; 3]| (0..3).all(|k| c[k].abs_diff(want[k]) <= 12);
    // Across the top, past the title, to the far end: the band.
    for x in [150.0, 200.0, 250.0] {
        let c = pixel(x, -74.0);
        assert!(near(c, band), "the band at x = {x}: {c:?}");
    }
    // Below the band, inside the frame: the translucent fill, not a node's grey.
    let inside = pixel(200.0, 40.0);
    assert!(inside[2] > inside[0] + 4, "a blue tint inside: {inside:?}");
}

/// The chain, and a Levels node standing apart below it.
fn chain_and_one_more() -> (Document, NodeId, NodeId, NodeId) {
    let (mut doc, noise, ramp) = chain();
    let levels = doc.graph.add_node("Levels").unwrap();
    doc.layout.insert(levels, [0.0, 320.0]);
    (doc, noise, ramp, levels)
}

/// The graph nodes the selection holds now.
fn selection_of(harness: &Harness<'static, Editor>) -> Vec<NodeId> {
    let doc = harness.state().session().doc();
    harness.state().graph_view().selected(&harness.ctx, doc)
}

#[test]
fn grouping_leaves_nothing_else_selected() {
    // Regression: after Ctrl+G the nodes given the grouped ones' widget ids stood
    // selected (outlined blue), and a second Ctrl+G would have grouped them.
    let (doc, noise, ramp, levels) = chain_and_one_more();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    let (at_noise, at_ramp) = (title_of(&harness, noise), title_of(&harness, ramp));
    click_holding(&mut harness, at_noise, egui::Modifiers::SHIFT);
    click_holding(&mut harness, at_ramp, egui::Modifiers::SHIFT);
    assert_eq!(selection_of(&harness), vec![noise, ramp]);
    let said = group_selection(&mut harness);
    assert!(said.starts_with("Grouped 2 nodes"), "{said}");
    harness.run_steps(2);
    assert_eq!(selection_of(&harness), Vec::<NodeId>::new());
    group_selection(&mut harness);
    let doc = harness.state().session().doc();
    assert_eq!(doc.groups.len(), 1, "a second Ctrl+G had nothing to take");
    assert!(doc.group_of(levels).is_none());
}

#[test]
fn escape_and_a_click_on_empty_canvas_clear_the_selection() {
    // Regression: both cleared only the inspected node; the blue selection stayed.
    let (doc, noise, ramp, _) = chain_and_one_more();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    let (at_noise, at_ramp) = (title_of(&harness, noise), title_of(&harness, ramp));
    let select_both = |harness: &mut Ui| {
        click_holding(harness, at_noise, egui::Modifiers::SHIFT);
        click_holding(harness, at_ramp, egui::Modifiers::SHIFT);
        assert_eq!(selection_of(harness), vec![noise, ramp]);
    };
    let view_before = harness.state().graph_view().to_screen(egui::Pos2::ZERO);
    select_both(&mut harness);
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert_eq!(selection_of(&harness), Vec::<NodeId>::new(), "Escape");
    assert_eq!(
        harness.state().graph_view().to_screen(egui::Pos2::ZERO),
        view_before,
        "the view stays where it was"
    );
    select_both(&mut harness);
    let canvas = harness.state().graph_view().canvas();
    let empty = canvas.left_bottom() + egui::vec2(20.0, -20.0);
    let at = harness.state().graph_view().to_graph(empty);
    assert!(
        at.y > 420.0 || at.x < -100.0,
        "below or left of every node: {at:?}"
    );
    click_at(&mut harness, empty);
    harness.run_steps(2);
    assert_eq!(
        selection_of(&harness),
        Vec::<NodeId>::new(),
        "a canvas click"
    );
    // And a selection made afresh works as before.
    select_both(&mut harness);
}

#[test]
fn a_group_is_renamed_from_its_titles_menu_in_a_window_that_takes_clicks_and_keys() {
    // Regressions: a right-click on a title's text opened no menu, and the menu's name
    // field closed the menu when clicked.
    let (mut doc, noise, ramp) = chain();
    let g = doc.make_group(&[noise, ramp], "Group 1").unwrap();
    let mut harness = editor(doc, None);
    settle(&mut harness);
    let title = harness.get_by_label("Group: Group 1").rect().center();
    let at = harness.state().graph_view().to_screen(title);
    right_click_at(&mut harness, at);
    harness.get_by_label("Save to Library");
    harness.get_by_label("Rename…").click();
    harness.run_steps(2);
    assert!(harness.state().graph_view().renaming());
    // The field has the keys: the old name selected… typed over, Enter.
    type_over(&mut harness, "Mottle");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert!(!harness.state().graph_view().renaming());
    assert_eq!(
        harness.state().session().doc().group(g).unwrap().name,
        "Mottle"
    );
    // Esc leaves the name as it was.
    let title = harness.get_by_label("Group: Mottle").rect().center();
    let at = harness.state().graph_view().to_screen(title);
    right_click_at(&mut harness, at);
    harness.get_by_label("Rename…").click();
    harness.run_steps(2);
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the name field has the keys")
        .type_text("xyz");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(!harness.state().graph_view().renaming());
    assert_eq!(
        harness.state().session().doc().group(g).unwrap().name,
        "Mottle"
    );
}
