//! Period inference agrees with the numbers, for every node kind.
//!
//! Each kind with inputs is fed by fields that tile (a whole-number noise scale) and by
//! fields that do not (scale 2.5); the inferred period must say so, blame the right node,
//! and agree with the measured gap between opposite edges of the evaluated output.

use tuft_graph::nodes::ALL;
use tuft_graph::{
    Domain, Evaluator, InRef, MaterialGraph, NodeId, OutRef, ParamValue, Period, PortType, Sink,
};

/// Adds a node producing a field of type `ty` from a noise of `scale`; returns the
/// noise and the output to link.
fn source(g: &mut MaterialGraph, ty: PortType, scale: f32, seed: i64) -> (NodeId, OutRef) {
    let noise = g.add_node("Noise").unwrap();
    let n = g.node_mut(noise).unwrap();
    n.params.insert("scale".into(), ParamValue::Float(scale));
    n.params.insert("seed".into(), ParamValue::Int(seed));
    let out = match ty {
        PortType::Float => OutRef::new(noise, "out"),
        PortType::Vec2 => {
            let dir = g.add_node("Direction").unwrap();
            link(g, OutRef::new(noise, "out"), dir, "angle");
            OutRef::new(dir, "out")
        }
        PortType::Color => {
            let ramp = g.add_node("ColorRamp").unwrap();
            link(g, OutRef::new(noise, "out"), ramp, "t");
            OutRef::new(ramp, "out")
        }
    };
    (noise, out)
}

fn link(g: &mut MaterialGraph, from: OutRef, to: NodeId, port: &str) {
    g.connect(
        from,
        &InRef::Node {
            node: to,
            port: port.into(),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// The largest gap between opposite edges of output `port` of `node`.
fn edge_gap(g: &MaterialGraph, node: NodeId, port: &str) -> f32 {
    let mut pts = Vec::new();
    for i in 0..48 {
        let t = (i as f32 + 0.31) / 48.0;
        pts.extend([[0.0, t], [1.0, t], [t, 0.0], [t, 1.0]]);
    }
    let f = Evaluator::new(g)
        .eval_output(&OutRef::new(node, port), &Domain::points(&pts))
        .unwrap();
    let mut gap = 0.0f32;
    for i in 0..48 {
        for c in 0..f.ty.channels() {
            gap = gap.max((f.at(c, 4 * i) - f.at(c, 4 * i + 1)).abs());
            gap = gap.max((f.at(c, 4 * i + 2) - f.at(c, 4 * i + 3)).abs());
        }
    }
    gap
}

/// Builds `kind` with every input fed by a source of `scale`; the first input's source
/// uses `first_scale`. Returns the graph, the node and the first source's noise.
fn fed(kind: &str, first_scale: f32, scale: f32) -> Option<(MaterialGraph, NodeId, NodeId)> {
    let mut g = MaterialGraph::new("periods");
    let node = g.add_node(kind)?;
    let ports = g.node(node)?.input_ports();
    if ports.is_empty() {
        return None;
    }
    let mut first_noise = None;
    for (k, port) in ports.iter().enumerate() {
        let s = if k == 0 { first_scale } else { scale };
        let (noise, out) = source(&mut g, port.ty, s, k as i64 + 1);
        if k == 0 {
            first_noise = Some(noise);
        }
        link(&mut g, out, node, port.name);
    }
    Some((g, node, first_noise?))
}

#[test]
fn every_kind_with_inputs_tiles_when_its_inputs_do_and_says_so() {
    let mut checked = 0;
    for kind in ALL {
        let Some((g, node, _)) = fed(kind.name(), 4.0, 2.0) else {
            continue;
        };
        let periods = tuft_graph::validate::periods(&g);
        let out = g.node(node).unwrap().output_ports();
        for (k, port) in out.iter().enumerate() {
            let p = &periods[&(node, k)];
            assert!(p.tiles(), "{}.{}: {}", kind.name(), port.name, p.describe());
            let gap = edge_gap(&g, node, port.name);
            assert!(
                gap < 2e-3,
                "{}.{} is said to tile but its edges differ by {gap}",
                kind.name(),
                port.name
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} kinds have inputs");
}

#[test]
fn every_kind_with_inputs_passes_a_broken_seam_on_and_blames_its_source() {
    for kind in ALL {
        let Some((g, node, culprit)) = fed(kind.name(), 2.5, 4.0) else {
            continue;
        };
        let periods = tuft_graph::validate::periods(&g);
        let p = &periods[&(node, 0)];
        assert!(
            !p.tiles(),
            "{} hides a broken input: {}",
            kind.name(),
            p.describe()
        );
        assert_eq!(
            p.culprit(),
            Some(culprit),
            "{} blames the wrong node",
            kind.name()
        );
        // A filter that reads a wrapped raster blends the two sides of a broken seam at
        // exactly the edge, so only the inference can see it there.
        let n = g.node(node).unwrap();
        if n.input_ports()[0].access == tuft_graph::node::Access::Raster {
            continue;
        }
        let port = n.output_ports()[0].name;
        assert!(
            edge_gap(&g, node, port) > 1e-3,
            "{} is said to break but its edges meet",
            kind.name()
        );
    }
}

#[test]
fn kinds_without_inputs_report_their_own_period() {
    type Check = fn(&Period) -> bool;
    let expect: &[(&str, Check)] = &[
        ("UV", |p| matches!(p, Period::Ramp(_))),
        ("Constant", |p| *p == Period::Uniform),
        ("Parameter", |p| *p == Period::Uniform),
        ("Noise", |p| *p == Period::Tiles(4)),
        ("Voronoi", |p| *p == Period::Tiles(8)),
        ("Wave", |p| *p == Period::Tiles(4)),
        ("Shape", |p| *p == Period::Tiles(4)),
        ("Gradient", |p| *p == Period::Tiles(1)),
        // Without a file it reads zero, tiling its count; a file's own seam is tested
        // with the node.
        ("Image", |p| *p == Period::Tiles(1)),
        ("Time", |p| *p == Period::Uniform),
        ("WorldNormal", |p| *p == Period::Uniform),
        ("WorldPos", |p| !p.tiles()),
        // With no layer of its name the relief reads nothing; see the test below.
        ("StrandRelief", |p| *p == Period::Uniform),
    ];
    for (kind, ok) in expect {
        let mut g = MaterialGraph::new("own");
        let node = g.add_node(kind).unwrap();
        let periods = tuft_graph::validate::periods(&g);
        let p = &periods[&(node, 0)];
        assert!(ok(p), "{kind}: {}", p.describe());
    }
    // Every registered kind is covered by one of the two tests.
    for kind in ALL {
        let mut g = MaterialGraph::new("own");
        let node = g.add_node(kind.name()).unwrap();
        let has_inputs = !g.node(node).unwrap().input_ports().is_empty();
        assert!(
            has_inputs || expect.iter().any(|(k, _)| *k == kind.name()),
            "{} has no period test",
            kind.name()
        );
    }
}

#[test]
fn a_relief_tiles_exactly_when_its_layer_does_and_blames_the_layer_field() {
    for (scale, tiles) in [(4.0, true), (2.5, false)] {
        let mut g = MaterialGraph::new("relief");
        let (noise, out) = source(&mut g, PortType::Float, scale, 1);
        let layer = tuft_graph::StrandLayer {
            density: tuft_graph::Input::Link(out),
            ..Default::default()
        };
        g.strands.insert("blades".into(), layer);
        let relief = g.add_node("StrandRelief").unwrap();
        let periods = tuft_graph::validate::periods(&g);
        let p = &periods[&(relief, 0)];
        assert_eq!(p.tiles(), tiles, "scale {scale}: {}", p.describe());
        if !tiles {
            assert_eq!(p.culprit(), Some(noise));
            // The path names the layer port it travels through.
            g.connect(
                OutRef::new(relief, "coverage"),
                &InRef::Sink(Sink::Pbr("roughness".into())),
            )
            .unwrap();
            let report = tuft_graph::validate(&g);
            let seam = report
                .diagnostics
                .iter()
                .find(|d| d.code == tuft_graph::Code::Seam)
                .expect("a seam error");
            assert!(
                seam.message.contains(&format!(
                    "pbr.roughness ← StrandRelief#{relief} ← strands.blades.density ← Noise#{noise}"
                )),
                "{}",
                seam.message
            );
        }
    }
}

#[test]
fn feeding_a_layer_its_own_relief_is_refused_as_a_cycle() {
    let mut g = MaterialGraph::new("loop");
    g.strands
        .insert("blades".into(), tuft_graph::StrandLayer::default());
    let relief = g.add_node("StrandRelief").unwrap();
    let err = g
        .connect(
            OutRef::new(relief, "coverage"),
            &InRef::Sink(Sink::Strand {
                layer: "blades".into(),
                port: "density".into(),
            }),
        )
        .unwrap_err();
    assert!(matches!(err, tuft_graph::ConnectError::Cycle(_)), "{err}");
}
