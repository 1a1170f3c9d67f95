//! `tuft bench`: every kind of case runs and prints its figures.

use crate::*;

#[test]
fn bench_field_walks_and_prints_its_figures() {
    let out = tuft(&["bench", "--field", "0.5", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let lines = json_lines(out);
    let walk = &lines[0];
    assert_eq!(walk["case"], "field/walk");
    assert_eq!(walk["frames"], 21);
    assert!(walk["plan_median_ms"].as_f64().unwrap() > 0.0, "{walk}");
    assert!(walk["planting_rounds"].as_u64().unwrap() > 0, "{walk}");
    assert!(walk["resident_mb_peak"].as_f64().unwrap() > 0.0, "{walk}");
    let (drawn, full) = (
        walk["triangles_drawn_mean"].as_f64().unwrap(),
        walk["triangles_full_detail_mean"].as_f64().unwrap(),
    );
    assert!(drawn > 0.0 && drawn < full / 10.0, "{walk}");
}

#[test]
fn bench_sphere_prints_its_stages_and_its_cost_per_million_strands() {
    let out = tuft(&["bench", "--json", "--runs", "1", "--sphere", "20000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let cases = json_lines(out);
    let case = |name: &str| {
        cases
            .iter()
            .find(|c| c["case"] == name)
            .unwrap_or_else(|| panic!("{name} missing from {cases:?}"))
    };
    let whole = case("sphere/scatter+ribbons");
    let strands = whole["strands"].as_u64().unwrap();
    assert!(strands > 5_000 && strands < 20_000, "{whole}");
    assert_eq!(whole["vertices"].as_u64(), Some(strands * 10), "{whole}");
    // A ribbon stores one vertex a centreline point and draws its two sides.
    assert_eq!(
        whole["stored_vertices"].as_u64(),
        Some(strands * 5),
        "{whole}"
    );
    let whole_ms = whole["median_ms"].as_f64().unwrap();
    let stages: f64 = ["scatter", "placement", "ribbons"]
        .iter()
        .map(|s| case(&format!("sphere/{s}"))["median_ms"].as_f64().unwrap())
        .sum();
    // One run: the stages are the whole's parts (the rest is the counting after).
    assert!(stages > 0.0 && stages <= whole_ms, "{stages} of {whole_ms}");
    let per_million = case("sphere/per_million_strands")["median_ms"]
        .as_f64()
        .unwrap();
    // Both figures are printed to a microsecond: the whole's rounding, scaled.
    let expected = whole_ms * 1e6 / strands as f64;
    let rounding = 0.001 + 0.0005 * 1e6 / strands as f64;
    assert!(
        (per_million - expected).abs() <= rounding,
        "{per_million} against {expected}"
    );
}

#[test]
fn bench_json_prints_one_case_per_line_with_median_and_counts() {
    let out = tuft(&["bench", "--json", "--runs", "1", "--preset", "moss"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let cases = json_lines(out);
    let names: Vec<&str> = cases.iter().map(|c| c["case"].as_str().unwrap()).collect();
    for expected in [
        "moss/validate",
        "moss/scatter",
        "moss/fronds/scatter",
        "moss/relief",
        "moss/strand_file/read",
        "moss/strand_file/read_quantised",
        "moss/pbr",
        "moss/bake",
        "moss/preview_scene",
        "moss/frame_plan",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    for c in &cases {
        assert!(c["median_ms"].as_f64().unwrap() > 0.0, "{c}");
        assert_eq!(
            c["runs"].as_u64(),
            Some(match c["case"].as_str() {
                Some(
                    "moss/validate" | "moss/strand_file/read" | "moss/strand_file/read_quantised",
                ) => 10,
                Some("moss/frame_plan") => 20,
                _ => 1,
            }),
            "{c}"
        );
    }
    let scatter = cases.iter().find(|c| c["case"] == "moss/scatter").unwrap();
    assert!(scatter["strands"].as_u64().unwrap() > 10_000);
    let out = tuft(&["bench", "--preset", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    // The refusal names every shipped preset.
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        tuft_editor::PRESETS
            .iter()
            .all(|(name, _)| said.contains(name)),
        "{said}"
    );
}

#[test]
fn bench_switches_prints_every_switch_of_every_layer_from_each_side() {
    let out = tuft(&["bench", "--json", "--switches", "2", "--preset", "moss"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let cases = json_lines(out);
    let names: Vec<&str> = cases.iter().map(|c| c["case"].as_str().unwrap()).collect();
    // Each layer's chain, level 0 to the relief (the fronds' cards are under a pixel
    // when their last level leaves).
    for expected in [
        "moss/fronds level 0 → level 1",
        "moss/fronds level 2 → relief",
        "moss/setae level 2 → cards",
        "moss/setae cards → relief",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(expected)),
            "{expected} missing from {names:?}"
        );
    }
    for c in &cases {
        let yaws = c["yaw"].as_array().unwrap();
        assert_eq!(yaws.len(), 2, "{c}");
        // The default camera first, the second side half a turn from it.
        let turn = yaws[1].as_f64().unwrap() - yaws[0].as_f64().unwrap();
        assert!((turn - 0.5).abs() < 1e-6, "{c}");
        for figure in ["whole", "inside"] {
            let changes = c[figure].as_array().unwrap();
            assert_eq!(changes.len(), 2, "{c}");
            assert!(
                changes
                    .iter()
                    .all(|x| (0.0..5.0).contains(&x.as_f64().unwrap())),
                "{c}"
            );
        }
    }
}
