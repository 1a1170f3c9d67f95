//! Graph files: presets, the version-1 fixture, and every kind of bad input.

use tuft_graph::io::{self, LoadError};
use tuft_graph::{Code, validate};
use tuft_tests::{data, presets};

#[test]
fn the_editor_offers_every_preset_the_folder_holds() {
    // One table (tuft_editor::PRESETS) feeds File › New from Preset, `tuft bench` and
    // every per-preset test: a preset left out of it would go untested.
    let offered: Vec<String> = tuft_editor::PRESETS
        .iter()
        .map(|(name, _)| format!("{name}.ron"))
        .collect();
    let mut on_disk: Vec<String> = presets()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut sorted = offered.clone();
    sorted.sort();
    on_disk.sort();
    assert_eq!(sorted, on_disk);
    for (name, text) in tuft_editor::PRESETS {
        let file = std::fs::read_to_string(tuft_tests::root().join(format!("presets/{name}.ron")));
        assert_eq!(file.unwrap(), text, "{name}: the built-in copy is the file");
        assert_eq!(io::from_str(text).unwrap().graph.name, name);
    }
}

#[test]
fn every_preset_is_clean_and_round_trips_losslessly() {
    let all = presets();
    assert!(all.len() >= 3, "{all:?}");
    for path in all {
        let doc = io::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let report = validate(&doc.graph);
        assert!(
            report.diagnostics.is_empty(),
            "{}: {:#?}",
            path.display(),
            report.diagnostics
        );
        assert!(
            !doc.graph.strands.is_empty(),
            "{} declares no strands",
            path.display()
        );
        let text = io::to_string(&doc).unwrap();
        let again = io::from_str(&text).unwrap();
        assert_eq!(again, doc, "{} changed in a round trip", path.display());
        // Writing is deterministic: a second round trip gives the same text.
        assert_eq!(io::to_string(&again).unwrap(), text);
    }
}

#[test]
fn the_lawn_grows_about_a_quarter_million_strands_per_repeat() {
    let doc = io::load(&tuft_tests::root().join("presets/lawn.ron")).unwrap();
    let g = &doc.graph;
    let ev = tuft_graph::Evaluator::new(g);
    let grid = tuft_graph::Domain::grid(64, 64);
    let mut expected = 0.0;
    for layer in g.strands.values() {
        let density = ev
            .eval_inputs(
                &[(layer.density.clone(), tuft_graph::PortType::Float)],
                &grid,
            )
            .pop()
            .unwrap();
        let mean: f32 =
            density.data.iter().map(|d| d.clamp(0.0, 1.0)).sum::<f32>() / density.len() as f32;
        expected += layer.n_candidates() as f64 * f64::from(mean);
    }
    assert!(
        (200_000.0..300_000.0).contains(&expected),
        "the lawn would grow {expected} strands"
    );
    assert!(g.strands.contains_key("blades") && g.strands.len() >= 3);
}

#[test]
fn the_version_one_fixture_loads_unchanged() {
    let doc = io::load(&data("v1_minimal.ron")).unwrap();
    assert_eq!(doc.graph.version, 1);
    assert_eq!(doc.graph.name, "v1 fixture");
    assert_eq!(doc.graph.nodes.len(), 2);
    let grass = &doc.graph.strands["grass"];
    // Settings the file leaves out take their defaults.
    assert_eq!(grass.levels.keep, vec![1.0, 0.25, 0.0625]);
    assert_eq!(grass.lattice, 64);
    assert!(validate(&doc.graph).diagnostics.is_empty());
}

#[test]
fn unreadable_files_name_what_is_wrong() {
    match io::load(&data("malformed.ron")).unwrap_err() {
        LoadError::Parse { line, col, message } => {
            assert_eq!((line, col), (5, 9), "{message}");
            assert!(message.to_lowercase().contains("comma"), "{message}");
        }
        other => panic!("{other}"),
    }
    let newer = io::load(&data("newer_version.ron")).unwrap_err();
    assert!(
        matches!(newer, LoadError::NewerVersion { found: 7 }),
        "{newer}"
    );
    let missing = io::load(&data("no_such_file.ron")).unwrap_err();
    assert!(
        missing.to_string().contains("no_such_file.ron"),
        "{missing}"
    );
}

/// Each bad graph loads (nothing the user wrote is lost) and validates to an error of
/// the expected kind whose message names the culprit.
#[test]
fn bad_graphs_load_and_report_a_clear_error() {
    let cases: &[(&str, Code, &str)] = &[
        (
            "unknown_kind.ron",
            Code::UnknownKind,
            "Fractal#1 has unknown kind \"Fractal\"",
        ),
        (
            "dangling_link.ron",
            Code::DanglingLink,
            "ColorRamp#2.t links to node #9",
        ),
        (
            "duplicate_ids.ron",
            Code::DuplicateId,
            "two nodes have id 1",
        ),
        ("nan_constant.ron", Code::NonFinite, "Mix#1.t holds NaN"),
        (
            "cycle.ron",
            Code::Cycle,
            "Math#1 ← Math#3 ← Math#2 ← Math#1",
        ),
        (
            "mistyped_link.ron",
            Code::TypeMismatch,
            "pbr.roughness expects Float but ColorRamp#1.out is Color",
        ),
        (
            "non_integer_scale.ron",
            Code::Seam,
            "pbr.base_color ← Mix#4.b ← ColorRamp#3.t ← Noise#2 (scale 2.5 is not an integer)",
        ),
        (
            "raw_uv.ron",
            Code::Seam,
            "pbr.base_color ← ColorRamp#3.t ← Split#2.in ← UV#1 (raw UV",
        ),
        (
            "dynamic_strand.ron",
            Code::Dynamic,
            "strands.grass.length ← Math#3.a ← Split#2.in ← WorldPos#1 (dynamic input)",
        ),
        (
            "huge_layer.ron",
            Code::Budget,
            "strands.meadow: it asks for 50013184 candidates",
        ),
        ("negative_repeat.ron", Code::Repeat, "repeat_m is -1"),
    ];
    for (file, code, needle) in cases {
        let doc = io::load(&data(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let report = validate(&doc.graph);
        let found = report
            .diagnostics
            .iter()
            .find(|d| d.code == *code && d.is_error())
            .unwrap_or_else(|| panic!("{file}: no {code:?} error in {:#?}", report.diagnostics));
        assert!(found.message.contains(needle), "{file}: {}", found.message);
        // Evaluation still runs on the broken graph and yields finite values.
        let (maps, _) = tuft_bake::bake_pbr(&doc.graph, 16, &mut |_| {}).unwrap();
        assert!(
            maps.base_color.iter().flatten().all(|c| c.is_finite()),
            "{file}"
        );
    }
}
