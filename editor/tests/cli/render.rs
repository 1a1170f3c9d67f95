//! `tuft render` and `tuft view`: frames drawn from graphs, baked sets and meshes, and bad options refused.

use crate::*;

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
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
    // What is not read is said: the set's glTF meshes.
    assert!(
        text(&out).contains("note: the set's glTF meshes are not read"),
        "{}",
        text(&out)
    );
    let img = image::open(&png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (160, 120));
    // Its manifest names the same set (what a file dialog picks of it).
    let by_manifest = dir.path().join("by_manifest.png");
    let manifest = set.join("manifest.ron");
    let out = tuft(&[
        "render",
        manifest.to_str().unwrap(),
        "--out",
        by_manifest.to_str().unwrap(),
        "--size",
        "160x120",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        std::fs::read(&by_manifest).unwrap(),
        std::fs::read(&png).unwrap()
    );
    // Read as a graph, it says what it is.
    let out = tuft(&["validate", manifest.to_str().unwrap()]);
    assert!(
        text(&out).contains("a baked set's manifest"),
        "{}",
        text(&out)
    );
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

/// What `tuft render` says drawing the moss on the mesh in `obj` into `png` (a small
/// frame), with `more` options; it must succeed.
fn moss_on(obj: &Path, png: &Path, more: &[&str]) -> String {
    let mut args = vec![
        "render",
        "presets/moss.ron",
        "--surface",
        obj.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--size",
        "160x120",
    ];
    args.extend_from_slice(more);
    let out = tuft(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    text(&out)
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_mesh_that_faces_away_from_the_camera_is_named_as_the_reason_nothing_is_drawn() {
    // Regression: a one-triangle mesh wound the other way drew nothing from above and
    // said only "0 of 1 in view", with no hint why.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("frame.png");
    let mut said = Vec::new();
    for (name, face) in [("up", "1/1 3/3 2/2"), ("down", "1/1 2/2 3/3")] {
        let obj = dir.path().join(format!("{name}.obj"));
        let text_of_mesh =
            format!("v -1 0 -1\nv 1 0 -1\nv 0 0 1\nvt 0 0\nvt 1 0\nvt 0.5 1\nf {face}\n");
        std::fs::write(&obj, text_of_mesh).unwrap();
        said.push(moss_on(&obj, &png, &["--pitch", "0.2"]));
    }
    assert!(said[0].contains("tiles: 1 of 1 in view"), "{}", said[0]);
    assert!(!said[0].contains("faces away"), "{}", said[0]);
    assert!(said[1].contains("tiles: 0 of 1 in view"), "{}", said[1]);
    assert!(
        said[1].contains("nothing drawn: the surface in view faces away from the camera"),
        "{}",
        said[1]
    );
}

#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn a_closed_mesh_wound_inside_out_is_noted_and_a_sound_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("frame.png");
    // A closed cube whose faces wind inward (each its own four vertices and UVs, as a
    // modeller splits them at seams), and the same cube with every face turned over.
    let inside_out = std::fs::read_to_string(data("inside_out_cube.obj")).unwrap();
    let turned: String = inside_out
        .lines()
        .map(|line| match line.strip_prefix("f ") {
            Some(f) => format!("f {}\n", f.split(' ').rev().collect::<Vec<_>>().join(" ")),
            None => format!("{line}\n"),
        })
        .collect();
    for (inward, text_of_mesh) in [(false, turned), (true, inside_out)] {
        let obj = dir.path().join(format!("cube_{inward}.obj"));
        std::fs::write(&obj, text_of_mesh).unwrap();
        let said = moss_on(&obj, &png, &[]);
        let noted = said.contains("is closed and wound inside out, so its strands grow inward");
        assert_eq!(noted, inward, "{said}");
    }
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

/// The mean colour `tuft render` prints.
fn mean_colour(out: &Output) -> [f64; 3] {
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = said
        .lines()
        .find_map(|l| l.strip_prefix("mean colour: ("))
        .unwrap_or_else(|| panic!("no mean colour in {said}"));
    let numbers: Vec<f64> = line
        .split(')')
        .next()
        .unwrap_or("")
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    [numbers[0], numbers[1], numbers[2]]
}

#[test]
fn render_puts_the_sun_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("lawn.png");
    let frame = |sun: Option<&str>| {
        let mut args = vec![
            "render",
            "presets/lawn.ron",
            "--surface",
            "plane",
            "--size",
            "96x64",
            "--out",
            png.to_str().unwrap(),
        ];
        args.extend(sun.map(|s| ["--sun", s]).into_iter().flatten());
        let out = tuft(&args);
        assert_eq!(out.status.code(), Some(0), "{sun:?}: {}", text(&out));
        mean_colour(&out)
    };
    let shipped = frame(None);
    let low = frame(Some("0.63,0.02"));
    let overhead = frame(Some("0,0.25"));
    let luma = |c: [f64; 3]| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    assert!(
        luma(low) + 5.0 < luma(shipped),
        "{low:?} against {shipped:?}"
    );
    assert!(
        luma(low) + 5.0 < luma(overhead),
        "{low:?} against {overhead:?}"
    );
}

#[test]
fn render_turns_a_turntable_and_takes_the_exposure_and_the_lens() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("spin.png");
    let base = ["render", "presets/moss.ron", "--size", "64x48", "--out"];
    let run = |more: &[&str]| {
        let mut args = base.to_vec();
        args.push(png.to_str().unwrap());
        args.extend(more);
        let out = tuft(&args);
        assert_eq!(out.status.code(), Some(0), "{more:?}: {}", text(&out));
        out
    };
    let out = run(&["--turntable", "4", "--surface", "plane"]);
    let frames: Vec<Vec<u8>> = (0..4)
        .map(|i| {
            let path = dir.path().join(format!("spin_{i:03}.png"));
            assert!(
                text(&out).contains(path.to_str().unwrap()),
                "{}",
                text(&out)
            );
            std::fs::read(&path).unwrap()
        })
        .collect();
    assert!(!png.exists(), "the turntable writes numbered frames only");
    assert!(frames.windows(2).all(|w| w[0] != w[1]), "each frame turns");
    assert!(text(&out).contains("mean colour:"), "{}", text(&out));
    // An exposure stop up brightens the frame; a narrower lens fills more of it.
    let luma = |out: &Output| {
        let [r, g, b] = mean_colour(out);
        0.2126 * r + 0.7152 * g + 0.0722 * b
    };
    let coverage = |out: &Output| {
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        said.split("coverage ")
            .nth(1)
            .and_then(|c| c.split_whitespace().next()?.parse::<f64>().ok())
            .expect("a coverage")
    };
    let plain = run(&["--distance", "3"]);
    let brighter = run(&["--distance", "3", "--exposure", "1"]);
    let narrow = run(&["--distance", "3", "--fov", "0.06"]);
    assert!(
        luma(&brighter) > luma(&plain) + 10.0,
        "{} against {}",
        text(&brighter),
        text(&plain)
    );
    assert!(
        coverage(&narrow) > 1.5 * coverage(&plain),
        "{} against {}",
        text(&narrow),
        text(&plain)
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
        ["--sun", "0.5"],
        ["--sun", "0,0.4"],
        ["--sun", "nan,0.1"],
        ["--exposure", "12"],
        ["--fov", "0"],
        ["--turntable", "0"],
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
    // Regression: a level no layer has drew every layer's coarsest, saying nothing.
    let out = tuft(&[
        "render",
        moss.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--size",
        "32x32",
        "--level",
        "99",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("no strand level 99") && said.contains("fronds 0–"),
        "{said}"
    );
    assert!(!png.exists());
}

/// Regression: `--out keep.jpg` was refused as not PNG only after the whole render,
/// having truncated the existing file to nothing.
#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn render_refuses_an_output_it_cannot_write_before_rendering_and_keeps_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("keep.jpg");
    std::fs::write(&keep, b"a photo of the author's").unwrap();
    let out = tuft(&[
        "render",
        "presets/moss.ron",
        "--out",
        keep.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("frames are written as PNG"),
        "{}",
        text(&out)
    );
    assert!(!text(&out).contains("adapter:"), "refused before rendering");
    assert_eq!(std::fs::read(&keep).unwrap(), b"a photo of the author's");
    let nowhere = dir.path().join("no/such/folder/frame.png");
    let out = tuft(&[
        "render",
        "presets/moss.ron",
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("does not exist"), "{}", text(&out));
}

/// Regression: a document the author previews on an inside-out mesh drew in the editor
/// with a note saying so, and `tuft render` of the same document drew a sphere and said
/// nothing. Without --surface, render draws on the document's own preview mesh, with the
/// editor's notes.
#[test]
fn render_draws_the_documents_own_preview_mesh_with_its_notes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data("inside_out_cube.obj"), dir.path().join("cube.obj")).unwrap();
    let mut doc = tuft_graph::io::load(&preset("moss")).unwrap();
    doc.preview_mesh = Some(tuft_graph::io::PreviewMesh {
        path: "cube.obj".to_owned(),
        repeats_per_uv: None,
    });
    let graph = dir.path().join("mine.ron");
    tuft_graph::io::save(&doc, &graph).unwrap();
    let png = dir.path().join("mine.png");
    let out = tuft(&[
        "render",
        graph.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--size",
        "160x120",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("(the document's preview mesh)"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("wound inside out"), "{}", text(&out));
}
