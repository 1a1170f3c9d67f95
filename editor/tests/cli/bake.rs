//! `tuft bake` and `tuft inspect`: baked sets written, read back, refused.

use crate::*;

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
    for map in tuft_graph::naming::MAP_NAMES {
        let path = out_dir.join(format!("fur_{map}.png"));
        let img = image_size(&path);
        assert_eq!(img, (128, 128), "{map}");
    }
    for file in [
        "fur.strands",
        "manifest.ron",
        "fur_undercoat_strands.glb",
        "fur_guard_strands.glb",
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
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
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
    // The set's folder reads as its strand file; a folder of two asks which.
    let out = tuft(&["inspect", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("moss.strands: strand file version"),
        "{}",
        text(&out)
    );
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
    let out = tuft(&["inspect", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("2 strand files; name one"),
        "{}",
        text(&out)
    );
    // A folder named like a strand file is not one.
    let odd = dir.path().join("odd");
    std::fs::create_dir_all(odd.join("inner.strands")).unwrap();
    let out = tuft(&["inspect", odd.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("no strand file"), "{}", text(&out));
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
    // A keep in range that thins a layer's last level past the widening limit is
    // refused before any work, naming the option and the layer.
    let unused = root().join("unused");
    let out = tuft(&[
        "bake",
        "presets/moss.ron",
        "--out",
        "unused",
        "--keep",
        "1e-6",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out);
    assert!(
        said.contains("--keep: keeping 0.000001 thins strands.fronds too far")
            && said.contains("widens"),
        "{said}"
    );
    assert!(!unused.exists(), "nothing is written");
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

/// Regression: a folder holding the author's documents beside an unrelated
/// `manifest.ron` was taken for a set and replaced by the bake, with exit 0.
#[test]
#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn bake_refuses_a_folder_that_is_not_a_tuft_set_and_touches_nothing_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    std::fs::write(docs.join("manifest.ron"), "(packages: [\"mine\"])").unwrap();
    std::fs::write(docs.join("photo.jpg"), "a photo").unwrap();
    let out = tuft(&["bake", "presets/moss.ron", "--out", docs.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("is not a Tuft set"), "{}", text(&out));
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["docs"]);
    assert_eq!(std::fs::read(docs.join("photo.jpg")).unwrap(), b"a photo");
    assert_eq!(
        std::fs::read_to_string(docs.join("manifest.ron")).unwrap(),
        "(packages: [\"mine\"])"
    );
}

/// Regression: `--out` naming a link to a set replaced the link with a plain folder.
#[cfg(unix)]
#[test]
fn bake_through_a_link_replaces_the_set_it_points_to_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("sets/moss");
    std::fs::create_dir_all(&real).unwrap();
    let link = dir.path().join("current");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    for _ in 0..2 {
        let out = tuft(&[
            "bake",
            "presets/moss.ron",
            "--out",
            link.to_str().unwrap(),
            "--resolution",
            "32",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(meta.file_type().is_symlink(), "the link stays a link");
        assert!(real.join("manifest.ron").is_file());
    }
    let beside: Vec<_> = std::fs::read_dir(dir.path().join("sets"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["moss"], "nothing left beside the set");
}
