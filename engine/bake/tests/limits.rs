//! The limits hold before the work: each input that once panicked, ran away or baked a
//! file its own reader refused is now a named error, and the work beyond a limit never
//! starts.

use tuft_bake::{BakeError, write_baked_set};
use tuft_graph::{
    Code, Domain, Evaluator, Input, MaterialGraph, NodeId, OutRef, ParamValue, Sink, StrandLayer,
    Value, limits, scatter_layer, validate,
};

fn generator(kind: &str, params: &[(&str, ParamValue)]) -> (MaterialGraph, NodeId) {
    let mut g = MaterialGraph::new("limits");
    let id = g.add_node(kind).unwrap();
    for (name, value) in params {
        g.node_mut(id)
            .unwrap()
            .params
            .insert((*name).into(), value.clone());
    }
    let out = g.node(id).unwrap().output_ports()[0].name;
    g.connect(
        OutRef::new(id, out),
        &tuft_graph::InRef::Sink(Sink::Pbr("roughness".into())),
    )
    .unwrap();
    (g, id)
}

/// Every error validation finds in `g`.
fn errors(g: &MaterialGraph) -> Vec<String> {
    validate(g)
        .diagnostics
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| d.message)
        .collect()
}

/// Why the bake of `g` is refused; it writes nothing.
fn refused_bake(g: &MaterialGraph) -> BakeError {
    let dir = tempfile::tempdir().unwrap();
    let err = write_baked_set(&Evaluator::new(g), dir.path(), 16, &mut |_, _| {}).unwrap_err();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    err
}

fn limit_errors(g: &MaterialGraph) -> Vec<String> {
    validate(g)
        .diagnostics
        .into_iter()
        .filter(|d| d.is_error() && matches!(d.code, Code::Limit | Code::Budget))
        .map(|d| d.message)
        .collect()
}

#[test]
fn a_noise_or_voronoi_scale_of_two_to_the_32_is_an_error_not_a_panic() {
    for kind in ["Noise", "Voronoi"] {
        let (g, id) = generator(kind, &[("scale", ParamValue::Float(4_294_967_296.0))]);
        let found = limit_errors(&g);
        assert!(
            found
                .iter()
                .any(|m| m.contains(&format!("{kind}#{id}")) && m.contains("65536")),
            "{kind}: {found:#?}"
        );
        // Evaluation refuses the node: zeros, and the same finding.
        let ev = Evaluator::new(&g);
        let field = ev
            .eval_output(
                &OutRef::new(id, if kind == "Noise" { "out" } else { "distance" }),
                &Domain::grid(4, 4),
            )
            .unwrap();
        assert!(field.data.iter().all(|&x| x == 0.0));
        assert!(ev.diagnostics().iter().any(|d| d.code == Code::Limit));
    }
}

#[test]
fn ten_octaves_over_a_large_scale_and_a_voronoi_of_1e30_are_refused() {
    let (g, _) = generator(
        "Noise",
        &[
            ("scale", ParamValue::Float(6e6)),
            ("octaves", ParamValue::Int(10)),
        ],
    );
    let found = limit_errors(&g);
    assert!(found.iter().any(|m| m.contains("10 octaves")), "{found:#?}");
    let (g, _) = generator("Noise", &[("scale", ParamValue::Float(1e9))]);
    assert!(!limit_errors(&g).is_empty());
    let (g, _) = generator("Voronoi", &[("scale", ParamValue::Float(1e30))]);
    assert!(!limit_errors(&g).is_empty());
    // The limit itself is fine.
    let (g, _) = generator("Noise", &[("scale", ParamValue::Float(64.0))]);
    assert!(limit_errors(&g).is_empty());
}

#[test]
fn a_repeat_under_the_limit_is_refused_by_validation_and_the_bake() {
    let mut g = MaterialGraph::new("tiny");
    g.repeat_m = 0.00005;
    g.strands.insert("grass".into(), StrandLayer::default());
    let found = limit_errors(&g);
    assert!(
        found.iter().any(|m| m.contains("repeat_m is 0.00005")),
        "{found:#?}"
    );
    let err = refused_bake(&g);
    assert!(matches!(err, BakeError::Limits(_)), "{err}");
}

#[test]
fn layers_past_the_budget_alone_and_together_are_refused() {
    let mut g = MaterialGraph::new("budget");
    // At every per-layer limit at once: 2048² candidates of 4 vertices each.
    let at_limit = StrandLayer {
        lattice: 2048,
        clump_lattice: 64,
        profile: tuft_graph::Profile::Ribbon { segments: 1 },
        ..StrandLayer::default()
    };
    g.strands.insert("a".into(), at_limit.clone());
    assert!(limit_errors(&g).is_empty(), "{:#?}", limit_errors(&g));
    for name in ["b", "c"] {
        g.strands.insert(name.into(), at_limit.clone());
    }
    let found = limit_errors(&g);
    assert!(
        found.iter().any(|m| m.contains("candidates together")),
        "{found:#?}"
    );
    let one_more = StrandLayer {
        lattice: 2049,
        ..at_limit.clone()
    };
    let one_more_segment = StrandLayer {
        profile: tuft_graph::Profile::Ribbon { segments: 2 },
        ..at_limit
    };
    let mut g = MaterialGraph::new("segments");
    g.strands.insert("big".into(), one_more_segment);
    let found = limit_errors(&g);
    assert!(found.iter().any(|m| m.contains("vertices")), "{found:#?}");
    let mut g = MaterialGraph::new("one");
    g.strands.insert("big".into(), one_more);
    assert!(!limit_errors(&g).is_empty());
    // The scatter refuses it without starting.
    let err = scatter_layer(&Evaluator::new(&g), "big").unwrap_err();
    assert!(err.to_string().contains("candidates"), "{err}");
}

#[test]
fn a_length_of_3_4e38_is_an_error_and_the_set_still_reads_back() {
    let mut g = MaterialGraph::new("long");
    let layer = StrandLayer {
        lattice: 40,
        clump_lattice: 8,
        length: Input::Const(Value::Float(3.4e38)),
        width: Input::Const(Value::Float(3.4e38)),
        root_color: Input::Const(Value::Color([3.4e38; 3])),
        lean: Input::Const(Value::Vec2([3.4e38, -3.4e38])),
        ..StrandLayer::default()
    };
    g.strands.insert("grass".into(), layer);
    let found = limit_errors(&g);
    assert!(
        found.iter().any(|m| m.contains("strands.grass.length")),
        "{found:#?}"
    );
    assert!(found.iter().any(|m| m.contains("strands.grass.width")));
    // Forced through anyway (as `tuft bake --force` would), the set stays finite and
    // inside the limits, and its own reader takes it.
    let set = scatter_layer(&Evaluator::new(&g), "grass").unwrap();
    assert!(!set.is_empty());
    let (most, _) = limits::strand_bounds(g.repeat_m);
    assert!(set.length.iter().all(|l| l.is_finite() && *l <= most));
    assert!(set.root_color.iter().flatten().all(|c| c.is_finite()));
    assert!(set.lean.iter().flatten().all(|c| c.is_finite()));
    let file = tuft_strands::file::StrandFile {
        repeat_m: g.repeat_m,
        layers: vec![("grass".into(), set)],
    };
    let bytes = tuft_strands::file::encode(&file);
    assert_eq!(tuft_strands::file::decode(&bytes).unwrap(), file);
}

#[test]
fn a_forced_bake_of_a_layer_covering_the_repeat_thousands_of_times_stops_before_the_relief() {
    // Regression: a 0.1 m repeat baked the lawn for 86 s, the relief splats drawing
    // every strand across the repeat again and again. Lengths are held to half the
    // repeat, and a set whose strands laid flat cover it past the limit is refused
    // before anything splats or meshes it.
    let mut g = MaterialGraph::new("dense");
    g.repeat_m = 0.1;
    g.strands.insert(
        "grass".into(),
        StrandLayer {
            lattice: 400,
            clump_lattice: 20,
            length: Input::Const(Value::Float(0.05)),
            width: Input::Const(Value::Float(0.004)),
            ..StrandLayer::default()
        },
    );
    assert!(
        limit_errors(&g)
            .iter()
            .any(|m| m.contains("cover the repeat")),
        "{:#?}",
        limit_errors(&g)
    );
    let err = scatter_layer(&Evaluator::new(&g), "grass").unwrap_err();
    assert!(err.to_string().contains("cover the repeat"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let err = write_baked_set(
        &Evaluator::new(&g),
        &dir.path().join("set"),
        16,
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(matches!(err, BakeError::Scatter(_)), "{err}");
    assert!(!dir.path().join("set").exists());
}

#[test]
fn a_level_widened_past_the_limit_is_refused_by_validation_and_the_bake() {
    // Regression: a keep near zero validated clean, then baked a manifest whose widening
    // was infinite, which its own check refused only after the whole bake.
    let mut g = MaterialGraph::new("thin");
    let mut layer = StrandLayer::default();
    layer.levels.keep = vec![1.0, 0.25, 1e-39];
    g.strands.insert("grass".into(), layer);
    let found = errors(&g);
    assert!(
        found
            .iter()
            .any(|m| m.contains("strands.grass") && m.contains("widens them")),
        "{found:#?}"
    );
    let err = refused_bake(&g);
    assert!(err.to_string().contains("widens them"), "{err}");
}

#[test]
fn a_layer_setting_out_of_range_is_named_as_the_file_spells_it() {
    let mut layer = StrandLayer::default();
    layer.cards.atlas_size = 3;
    layer.cards.atlas_cells = 0;
    layer.cards.alpha_cutoff = 1.5;
    let problems = layer.check_settings();
    for setting in [
        "cards.atlas_size 3",
        "cards.atlas_cells 0",
        "cards.alpha_cutoff 1.5",
    ] {
        assert!(
            problems.iter().any(|p| p.starts_with(setting)),
            "{setting}: {problems:#?}"
        );
    }
    // The file says `cards: (atlas_size: …)` inside the layer.
    let ron = ron::to_string(&layer).unwrap();
    assert!(ron.contains("cards:(atlas_size:3"), "{ron}");
}

#[test]
fn layers_whose_names_bake_to_the_same_files_are_refused_by_validation_and_the_bake() {
    // Regression: layers "x y" and "x_y" both baked to moss_x_y_*, one layer's meshes
    // and atlases overwriting the other's, and the manifest sent both to the same files.
    let mut g = MaterialGraph::new("moss");
    for name in ["x y", "x_y"] {
        g.strands.insert(name.into(), StrandLayer::default());
    }
    let found = errors(&g);
    assert!(
        found
            .iter()
            .any(|m| m.contains("\"x y\" and \"x_y\" would bake to the same files")),
        "{found:#?}"
    );
    let err = refused_bake(&g);
    assert!(matches!(err, BakeError::SameFiles(_)), "{err}");
}

#[test]
fn a_bake_keeps_the_share_it_is_given_and_refuses_one_it_cannot_apply() {
    let mut g = MaterialGraph::new("keep");
    g.strands.insert(
        "grass".into(),
        StrandLayer {
            lattice: 64,
            ..StrandLayer::default()
        },
    );
    let dir = tempfile::tempdir().unwrap();
    let bake = |name: &str, keep: f32| {
        let options = tuft_bake::BakeOptions {
            resolution: 16,
            keep,
            ..Default::default()
        };
        let out = dir.path().join(name);
        let cancel = std::sync::atomic::AtomicBool::new(false);
        tuft_bake::bake_graph(&g, &out, &options, &mut |_, _| {}, &cancel).map(|baked| {
            let file = baked
                .written
                .iter()
                .find(|p| p.extension().is_some_and(|e| e == "strands"))
                .expect("a strand file")
                .clone();
            let strands = tuft_strands::file::decode(&std::fs::read(file).unwrap()).unwrap();
            strands.layers[0].1.len()
        })
    };
    let all = bake("all", 1.0).unwrap();
    let half = bake("half", 0.5).unwrap();
    let share = half as f64 / all as f64;
    assert!((0.4..0.6).contains(&share), "{half} of {all}");
    assert!(matches!(bake("none", 0.0), Err(BakeError::Keep(_))));
    assert!(!dir.path().join("none").exists(), "nothing is written");
}
