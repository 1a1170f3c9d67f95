//! The command line, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

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

#[test]
fn bake_writes_the_maps_and_refuses_a_broken_graph() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("fur");
    let out = tuft(&[
        "bake",
        "presets/fur.ron",
        "--out",
        out_dir.to_str().unwrap(),
        "--resolution",
        "128",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for map in tuft_graph::bake::MAP_NAMES {
        let path = out_dir.join(format!("fur_{map}.png"));
        let img = image_size(&path);
        assert_eq!(img, (128, 128), "{map}");
    }
    for file in [
        "fur.strands",
        "manifest.ron",
        "fur_undercoat_lod0.glb",
        "fur_guard_lod2.glb",
    ] {
        assert!(out_dir.join(file).is_file(), "{file}");
    }
    let out = tuft(&[
        "bake",
        "tests/data/raw_uv.ron",
        "--out",
        dir.path().join("x").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!dir.path().join("x").exists());
    let out = tuft(&[
        "bake",
        "presets/lawn.ron",
        "--out",
        dir.path().join("y").to_str().unwrap(),
        "--resolution",
        "0",
    ]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out).contains("--resolution") && text(&out).contains("1..=8192"),
        "{}",
        text(&out)
    );
}

/// Width and height from a PNG's header.
fn image_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn bake_writes_a_strand_file_that_inspect_reads_and_damage_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("moss");
    let out = tuft(&[
        "bake",
        "presets/moss.ron",
        "--out",
        out_dir.to_str().unwrap(),
        "--resolution",
        "64",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let strands = out_dir.join("moss.strands");
    let out = tuft(&["inspect", strands.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let shown = text(&out);
    for needle in [
        "layer \"fronds\"",
        "layer \"setae\"",
        "trailer CRC ok",
        "root_uv",
        "rank",
        "clump",
    ] {
        assert!(shown.contains(needle), "{needle}: {shown}");
    }
    let bytes = std::fs::read(&strands).unwrap();
    let truncated = dir.path().join("truncated.strands");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let out = tuft(&["inspect", truncated.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("truncated"), "{}", text(&out));
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x10;
    let damaged = dir.path().join("flipped.strands");
    std::fs::write(&damaged, &flipped).unwrap();
    let out = tuft(&["inspect", damaged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("corrupted"), "{}", text(&out));
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

#[test]
fn bake_quantises_and_thins_the_strands_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let bake = |name: &str, extra: &[&str]| {
        let out_dir = dir.path().join(name);
        bake_moss(&out_dir, extra);
        let manifest = std::fs::read_to_string(out_dir.join("manifest.ron")).unwrap();
        let strands = out_dir.join("moss.strands");
        let out = tuft(&["inspect", strands.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        (
            std::fs::metadata(&strands).unwrap().len(),
            text(&out),
            manifest,
        )
    };
    let (stored, shown, manifest) = bake("stored", &[]);
    assert!(
        shown.contains("version 2, scheme 0 (stored), arrays 16-byte aligned"),
        "{shown}"
    );
    assert!(manifest.contains("strand_scheme: \"stored\""), "{manifest}");
    let (quantised, shown, manifest) = bake("quantised", &["--strands", "quantised"]);
    assert!(shown.contains("scheme 1 (quantised)"), "{shown}");
    for encoding in ["rank16", "unorm16", "srgb8"] {
        assert!(shown.contains(encoding), "{encoding}: {shown}");
    }
    assert!(
        manifest.contains("strand_scheme: \"quantised\""),
        "{manifest}"
    );
    assert!(quantised * 3 < stored, "{quantised} against {stored} bytes");
    // Half of every layer: half the strands (within the rank hash's spread).
    let (halved, _, manifest) = bake("halved", &["--keep", "0.5"]);
    let ratio = halved as f64 / stored as f64;
    assert!(
        (0.45..0.55).contains(&ratio),
        "{halved} against {stored} bytes"
    );
    assert!(manifest.contains("layer_keep: 0.5"), "{manifest}");
    // Nonsense is refused, naming the option.
    for (flag, value) in [
        ("--keep", "0"),
        ("--keep", "1.5"),
        ("--keep", "nan"),
        ("--strands", "zip"),
    ] {
        let out = tuft(&["bake", "presets/moss.ron", "--out", "unused", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(text(&out).contains(flag), "{flag} {value}: {}", text(&out));
    }
}

#[test]
fn render_draws_a_baked_set_from_its_own_files_and_view_refuses_a_folder_that_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("moss");
    bake_moss(&set, &[]);
    let png = dir.path().join("moss.png");
    let out = tuft(&[
        "render",
        set.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--size",
        "160x120",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("fronds:"), "{}", text(&out));
    let img = image::open(&png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (160, 120));
    // A damaged strand file: named, and no frame written.
    let strands = set.join("moss.strands");
    let bytes = std::fs::read(&strands).unwrap();
    std::fs::write(&strands, &bytes[..bytes.len() - 1]).unwrap();
    let bad = dir.path().join("bad.png");
    let out = tuft(&[
        "render",
        set.to_str().unwrap(),
        "--out",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("moss.strands"), "{}", text(&out));
    assert!(!bad.exists(), "nothing drawn for a set that does not read");
    // `tuft view` on a folder that is not a set says so before any window.
    let out = tuft(&["view", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("not a baked set"), "{}", text(&out));
}

#[test]
fn render_lays_a_material_on_a_mesh_file_and_names_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("creature.png");
    let out = tuft(&[
        "render",
        "presets/fur.ron",
        "--surface",
        "assets/creature.obj",
        "--out",
        png.to_str().unwrap(),
        "--size",
        "160x120",
        "--distance",
        "0.6",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("guard:"), "{}", text(&out));
    // A missing mesh is named; an unknown surface is refused with the choices.
    let out = tuft(&[
        "render",
        "presets/fur.ron",
        "--surface",
        "nowhere.glb",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("nowhere.glb: cannot read"),
        "{}",
        text(&out)
    );
    let out = tuft(&[
        "render",
        "presets/fur.ron",
        "--surface",
        "teapot",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains(".glb, .gltf or .obj"), "{}", text(&out));
    let out = tuft(&[
        "render",
        "presets/fur.ron",
        "--uv-scale",
        "0",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn render_stands_a_walker_on_the_field_and_refuses_a_bad_eye() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("field.png");
    let out = tuft(&[
        "render",
        "presets/moss.ron",
        "--surface",
        "field",
        "--eye",
        "0,1.6,0",
        "--pitch",
        "0.03",
        "--size",
        "160x90",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("relief"),
        "the far field is relief: {}",
        text(&out)
    );
    for bad in ["1,2", "0,nan,0", "0,1.6,1e9", "a,b,c"] {
        let out = tuft(&[
            "render",
            "presets/moss.ron",
            "--eye",
            bad,
            "--out",
            png.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out).contains("eye"), "{bad}: {}", text(&out));
    }
}

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
fn render_writes_a_frame_and_says_what_it_drew() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("moss.png");
    let out = tuft(&[
        "render",
        preset("moss").to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--size",
        "96x64",
        "--distance",
        "0.8",
        "--overlay",
        "levels",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("adapter:"), "{stdout}");
    assert!(stdout.contains("GPU time:"), "{stdout}");
    assert!(stdout.contains("mean colour: ("), "{stdout}");
    assert!(
        stdout.contains("fronds:") && stdout.contains("level "),
        "{stdout}"
    );
    let img = image::open(&png).expect("a PNG").to_rgba8();
    assert_eq!(img.dimensions(), (96, 64));
    // The background is sky; the material covers the middle of the frame.
    let centre = img.get_pixel(48, 32).0;
    assert_ne!(
        &centre[..3],
        &tuft_editor::cli::render::BACKGROUND[..],
        "nothing drawn"
    );
}

#[test]
fn render_refuses_bad_options_and_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("x.png");
    let moss = preset("moss");
    // Regression: `--distance inf|nan|0|-1`, `--yaw nan` and `--wind nan` exited 0,
    // some with a blank frame.
    for bad in [
        ["--size", "0x10"],
        ["--size", "wide"],
        ["--level", "seven"],
        ["--surface", "torus"],
        ["--distance", "inf"],
        ["--distance", "nan"],
        ["--distance", "0"],
        ["--distance", "-1"],
        ["--yaw", "nan"],
        ["--wind", "nan"],
        ["--pitch", "1"],
    ] {
        let mut args = vec![
            "render",
            moss.to_str().unwrap(),
            "--out",
            png.to_str().unwrap(),
        ];
        args.extend(bad);
        let out = tuft(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out));
        // The message names the option.
        assert!(text(&out).contains(bad[0]), "{bad:?}: {}", text(&out));
    }
    assert!(!png.exists(), "nothing written on refusal");
    let out = tuft(&[
        "render",
        data("malformed.ron").to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = tuft(&[
        "render",
        data("cycle.ron").to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!png.exists());
    // A layer the material does not have is named, with the ones it has.
    let out = tuft(&[
        "render",
        moss.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--level",
        "cards",
        "--layer",
        "petals",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("petals") && said.contains("fronds") && said.contains("setae"),
        "{said}"
    );
    assert!(!png.exists());
}

#[test]
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
    let noise = entries.iter().find(|e| e["kind"] == "Noise").unwrap();
    let scale = noise["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "scale")
        .unwrap();
    assert_eq!(scale["accepts"]["slider"], serde_json::json!([1.0, 64.0]));
    let octaves = noise["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "octaves")
        .unwrap();
    assert_eq!(octaves["accepts"]["range"], serde_json::json!([1, 10]));
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

#[test]
fn bake_lists_the_valid_compressions_and_targets_for_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set");
    let lawn = preset("lawn");
    for (flag, valid) in [
        ("--compress", "none, quantize, meshopt"),
        ("--target", "gltf, godot, unity, unreal"),
    ] {
        let result = tuft(&[
            "bake",
            lawn.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            flag,
            "zip",
        ]);
        assert_eq!(result.status.code(), Some(2), "{flag}");
        assert!(text(&result).contains(valid), "{flag}: {}", text(&result));
        assert!(!out.exists(), "nothing is written");
    }
}
