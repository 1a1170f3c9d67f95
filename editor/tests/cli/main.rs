//! The command line, run as a user runs it.

mod bake;
mod bench;
mod render;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tuft_tests::root;

fn preset(name: &str) -> PathBuf {
    root().join("presets").join(format!("{name}.ron"))
}

fn data(name: &str) -> PathBuf {
    root().join("tests/data").join(name)
}

fn tuft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tuft"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("tuft runs")
}

/// Standard output as one JSON value a line.
fn json_lines(out: Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn validate_accepts_every_preset() {
    let out = tuft(&[
        "validate",
        "presets/lawn.ron",
        "presets/fur.ron",
        "presets/moss.ron",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(text(&out).matches(": ok").count(), 3, "{}", text(&out));
}

#[test]
fn validate_fails_a_seam_naming_the_node_and_path() {
    let out = tuft(&["validate", "tests/data/non_integer_scale.ron"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "pbr.base_color ← Mix#4.b ← ColorRamp#3.t ← Noise#2 (scale 2.5 is not an integer)"
        ),
        "{}",
        text(&out)
    );
    let out = tuft(&["validate", "tests/data/raw_uv.ron"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("UV#1 (raw UV"), "{}", text(&out));
}

#[test]
fn validate_exits_two_when_a_file_cannot_be_read() {
    for file in [
        "tests/data/malformed.ron",
        "tests/data/newer_version.ron",
        "no/such.ron",
    ] {
        let out = tuft(&["validate", file]);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", text(&out));
        assert!(text(&out).contains(file), "{file}: {}", text(&out));
    }
    // The worst outcome wins when several files are given.
    let out = tuft(&[
        "validate",
        "presets/lawn.ron",
        "tests/data/raw_uv.ron",
        "tests/data/malformed.ron",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn validate_json_prints_one_object_per_file() {
    let out = tuft(&[
        "validate",
        "--json",
        "presets/lawn.ron",
        "tests/data/cycle.ron",
        "tests/data/malformed.ron",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let lines = json_lines(out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["errors"], 0);
    assert_eq!(lines[1]["errors"], 1);
    assert_eq!(lines[1]["diagnostics"][0]["code"], "cycle");
    assert_eq!(lines[1]["diagnostics"][0]["severity"], "error");
    assert_eq!(lines[2]["readable"], false);
    assert!(lines[2]["error"].as_str().unwrap().contains("line 5"));
}

/// `tuft bake presets/moss.ron --out OUT --resolution 64 EXTRA…`, checked to succeed.
fn bake_moss(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "bake",
        "presets/moss.ron",
        "--out",
        out.to_str().unwrap(),
        "--resolution",
        "64",
    ];
    args.extend_from_slice(extra);
    let done = tuft(&args);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done));
}

/// Regression: `tuft render … | head -1` panicked ("failed printing to stdout: Broken
/// pipe") once the reader had gone. A command whose reader stops early ends quietly.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("moss.png");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuft"))
        .args(["render", "presets/moss.ron", "--out"])
        .arg(&png)
        .args(["--size", "96x64"])
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tuft runs");
    // The reader goes before the frame is drawn, so every line meets a closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("tuft ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn validate_names_each_limit_and_a_forced_bake_never_starts_the_work_beyond_it() {
    // Every input that once panicked or ran away, as a graph file.
    let dir = tempfile::tempdir().unwrap();
    // A million levels would write a 16 MB fixture; it is made here instead.
    let keep: Vec<String> = (0..1_000_000)
        .map(|k| format!("{}", 1.0 / (1.0 + f64::from(k))))
        .collect();
    let million = dir.path().join("million_levels.ron");
    std::fs::write(
        &million,
        std::fs::read_to_string(data("limits/tiny_repeat.ron"))
            .unwrap()
            .replace("repeat_m: 0.00005", "repeat_m: 2.0")
            .replace(
                "\"grass\": ()",
                &format!(
                    "\"grass\": (levels: (keep: [{}], widen_p: 1.0))",
                    keep.join(", ")
                ),
            ),
    )
    .unwrap();
    for (file, needle) in [
        (million.to_str().unwrap(), "1000000 levels"),
        ("limits/noise_scale_2_32.ron", "65536"),
        ("limits/voronoi_scale_1e30.ron", "65536"),
        ("limits/fbm_ten_octaves.ron", "10 octaves"),
        ("limits/tiny_repeat.ron", "repeat_m is 0.00005"),
        ("limits/ten_layers_at_the_budget.ron", "candidates together"),
        ("limits/length_3_4e38.ron", "strands.grass.length"),
    ] {
        let path = if file.starts_with('/') {
            PathBuf::from(file)
        } else {
            data(file)
        };
        let out = tuft(&["validate", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{file}: {}", text(&out));
        assert!(text(&out).contains(needle), "{file}: {}", text(&out));
        let set = dir.path().join(path.file_stem().unwrap());
        let out = tuft(&[
            "bake",
            path.to_str().unwrap(),
            "--out",
            set.to_str().unwrap(),
            "--force",
            "--resolution",
            "16",
        ]);
        let whole_graph = ["levels", "repeat_m", "together"]
            .iter()
            .any(|w| needle.contains(w));
        if !whole_graph {
            // Forced through, the work beyond the limit is still never started: the
            // node reads zero, the strands are held to half the repeat, and the set
            // reads back.
            assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out));
        } else {
            assert_eq!(out.status.code(), Some(1), "{file}: {}", text(&out));
            assert!(!set.exists(), "{file}: nothing written");
        }
    }
}

#[test]
fn nodes_lists_the_vocabulary_from_the_descriptions_the_library_shows() {
    let out = tuft(&["nodes", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let entries = json_lines(out);
    // The strand layer, then every registered kind in library order.
    assert_eq!(entries.len(), tuft_graph::nodes::ALL.len() + 1);
    assert_eq!(entries[0]["kind"], "Strand layer");
    assert_eq!(
        entries[0]["inputs"].as_array().unwrap().len(),
        tuft_graph::layer::STRAND_PORTS.len()
    );
    for (entry, kind) in entries[1..].iter().zip(tuft_graph::nodes::ALL) {
        assert_eq!(entry["kind"], kind.name());
        assert_eq!(entry["doc"], kind.doc());
        assert_eq!(
            entry["params"].as_array().unwrap().len(),
            kind.params().len()
        );
    }
    // What the listing says a kind's parameter accepts.
    let accepts = |kind: &str, param: &str| {
        let entry = entries.iter().find(|e| e["kind"] == kind).unwrap();
        let params = entry["params"].as_array().unwrap();
        params.iter().find(|p| p["name"] == param).unwrap()["accepts"].clone()
    };
    assert_eq!(
        accepts("Noise", "scale")["slider"],
        serde_json::json!([1.0, 64.0])
    );
    assert_eq!(
        accepts("Noise", "octaves")["range"],
        serde_json::json!([1, 10])
    );
    // An f32 default reads as written, not widened to f64's digits (0.6000000238418579).
    assert_eq!(accepts("Shape", "size")["default"], serde_json::json!(0.6));
    // The text listing names every kind too.
    let listing = text(&tuft(&["nodes"]));
    for kind in tuft_graph::nodes::ALL {
        assert!(
            listing.contains(&format!("{} (", kind.name())),
            "{}",
            kind.name()
        );
    }
}
