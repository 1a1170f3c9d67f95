//! Hostile inputs: files that once panicked a reader, hung a thread, asked for
//! gigabytes from a kilobyte, or reached outside the folder they were given. Each is
//! refused with an error naming the file, at once.

use std::path::{Path, PathBuf};
use tuft_render::mesh_file;

/// One triangle with UVs: positions (36 bytes) then UVs (24 bytes).
fn triangle_bytes() -> Vec<u8> {
    let floats: [f32; 15] = [
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, // positions
        0.0, 0.0, 1.0, 0.0, 0.0, 1.0, // UVs
    ];
    floats.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// A glTF document for the triangle whose one buffer is `buffer` (a JSON object's
/// fields), with `views`, `accessors` and `nodes` overriding the plain ones.
fn gltf_json(
    buffer: &str,
    views: Option<&str>,
    accessors: Option<&str>,
    nodes: Option<&str>,
) -> String {
    let views = views.unwrap_or(
        r#"[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":24}]"#,
    );
    let accessors = accessors.unwrap_or(
        r#"[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
            {"bufferView":1,"componentType":5126,"count":3,"type":"VEC2"}]"#,
    );
    let nodes = nodes.unwrap_or(r#"[{"mesh":0}]"#);
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
        "nodes":{nodes},
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"TEXCOORD_0":1}}}}]}}],
        "buffers":[{{{buffer}}}],"bufferViews":{views},"accessors":{accessors}}}"#
    )
}

/// A binary glTF of `json` and `bin`.
fn glb(json: &str, bin: &[u8]) -> Vec<u8> {
    let mut json = json.as_bytes().to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2_u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

#[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The mesh reader's error for `path`, which must name the file.
fn refused(path: &Path) -> String {
    let e = mesh_file::load(path).unwrap_err();
    assert_eq!(e.path, path, "{e}");
    e.message
}

#[test]
fn a_plain_gltf_and_glb_of_one_triangle_read() {
    let dir = tempfile::tempdir().unwrap();
    let bin = triangle_bytes();
    let glb_path = write(
        dir.path(),
        "tri.glb",
        &glb(&gltf_json(r#""byteLength":60"#, None, None, None), &bin),
    );
    assert_eq!(mesh_file::load(&glb_path).unwrap().triangles.len(), 1);
    write(dir.path(), "tri data.bin", &bin);
    let json = gltf_json(
        r#""byteLength":60,"uri":"tri%20data.bin""#,
        None,
        None,
        None,
    );
    let gltf_path = write(dir.path(), "tri.gltf", json.as_bytes());
    assert_eq!(mesh_file::load(&gltf_path).unwrap().triangles.len(), 1);
}

/// Regression: these panicked inside the glTF and OBJ readers (the process ended with
/// status 101; the editor said only that its mesh reader stopped).
#[test]
fn files_that_panicked_a_reader_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bin = triangle_bytes();
    // A bufferView whose stride is smaller than its accessor's element.
    let narrow = gltf_json(
        r#""byteLength":60"#,
        Some(
            r#"[{"buffer":0,"byteOffset":0,"byteLength":36,"byteStride":4},{"buffer":0,"byteOffset":36,"byteLength":24}]"#,
        ),
        None,
        None,
    );
    let path = write(dir.path(), "narrow.glb", &glb(&narrow, &bin));
    let said = refused(&path);
    assert!(said.contains("steps only 4 bytes"), "{said}");
    // A buffer URI with an invalid percent escape.
    let json = gltf_json(r#""byteLength":60,"uri":"%zz.bin""#, None, None, None);
    let path = write(dir.path(), "escape.gltf", json.as_bytes());
    let said = refused(&path);
    assert!(said.contains("percent escape"), "{said}");
    // An OBJ whose material library has a short Kd line: the geometry still reads.
    write(dir.path(), "short.mtl", b"newmtl grass\nKd 0.5\n");
    let obj = write(
        dir.path(),
        "with_library.obj",
        b"mtllib short.mtl\nusemtl grass\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n",
    );
    assert_eq!(mesh_file::load(&obj).unwrap().triangles.len(), 1);
}

/// Regression: a kilobyte asked for gigabytes (a sparse accessor of 10⁹ elements) or
/// for 10¹² steps (sixty nodes, each listing the next two as children).
#[test]
fn small_files_that_ask_for_too_much_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let mut bin = triangle_bytes();
    bin.extend_from_slice(&[0; 12]); // one sparse index and one sparse value
    let sparse = gltf_json(
        r#""byteLength":72"#,
        Some(
            r#"[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":24},
                {"buffer":0,"byteOffset":60,"byteLength":4},{"buffer":0,"byteOffset":64,"byteLength":8}]"#,
        ),
        Some(
            r#"[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
                {"componentType":5126,"count":1000000000,"type":"VEC2",
                 "sparse":{"count":1,"indices":{"bufferView":2,"componentType":5125},"values":{"bufferView":3}}}]"#,
        ),
        None,
    );
    let path = write(dir.path(), "sparse.glb", &glb(&sparse, &bin));
    assert!(std::fs::metadata(&path).unwrap().len() < 2048);
    let said = refused(&path);
    assert!(said.contains("1000000000 elements"), "{said}");
    let nodes: Vec<String> = (0..60)
        .map(|i| match i {
            58 | 59 => r#"{"mesh":0}"#.to_owned(),
            _ => format!(r#"{{"mesh":0,"children":[{},{}]}}"#, i + 1, i + 2),
        })
        .collect();
    let dag = gltf_json(
        r#""byteLength":60"#,
        None,
        None,
        Some(&format!("[{}]", nodes.join(","))),
    );
    let path = write(dir.path(), "dag.glb", &glb(&dag, &triangle_bytes()));
    let said = refused(&path);
    assert!(said.contains("reached twice"), "{said}");
}

/// Regression: a glTF's buffer was read from wherever its URI pointed.
#[test]
fn a_meshs_buffers_are_read_only_from_inside_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    write(&outside, "quad.bin", &triangle_bytes());
    let folder = dir.path().join("mesh");
    std::fs::create_dir(&folder).unwrap();
    for uri in ["../outside/quad.bin", "file:///etc/passwd", "/etc/passwd"] {
        let json = gltf_json(
            &format!(r#""byteLength":60,"uri":"{uri}""#),
            None,
            None,
            None,
        );
        let path = write(&folder, "reaching.gltf", json.as_bytes());
        let said = refused(&path);
        assert!(
            said.contains("only from files inside its own folder"),
            "{uri}: {said}"
        );
    }
}

/// A link to an endless device, and a named pipe, each named `name` in `dir`.
#[cfg(unix)]
fn endless_and_pipe(dir: &Path, name: &str) -> [PathBuf; 2] {
    let zero = dir.join(format!("zero-{name}"));
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let pipe = dir.join(format!("pipe-{name}"));
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    [zero, pipe]
}

/// Regression: a link to /dev/zero given as a mesh, a buffer, a graph, a picture or a
/// set's map grew memory until the process died; a named pipe hung its reader for good.
#[cfg(unix)]
#[test]
fn devices_and_pipes_are_refused_unread_wherever_a_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let special = |said: &str| said.contains("a device") || said.contains("a named pipe");
    for ext in ["obj", "glb", "gltf"] {
        for path in endless_and_pipe(d, &format!("mesh.{ext}")) {
            // The names end in .obj etc. only after the prefix; give them their own.
            let named = d.join(format!(
                "{}.{ext}",
                path.file_name().unwrap().to_string_lossy()
            ));
            std::fs::rename(&path, &named).unwrap();
            let said = refused(&named);
            assert!(special(&said), "{}: {said}", named.display());
        }
    }
    // A glTF whose buffer is an endless device (a link out of its folder) or a pipe.
    let [zero, pipe] = endless_and_pipe(d, "buffer.bin");
    for (buffer, says) in [(zero, "through a link"), (pipe, "a named pipe")] {
        let name = buffer.file_name().unwrap().to_string_lossy().into_owned();
        let json = gltf_json(
            &format!(r#""byteLength":60,"uri":"{name}""#),
            None,
            None,
            None,
        );
        let said = refused(&write(d, "endless_buffer.gltf", json.as_bytes()));
        assert!(said.contains(says), "{said}");
    }
    for path in endless_and_pipe(d, "graph.ron") {
        let e = tuft_graph::io::load(&path).unwrap_err().to_string();
        assert!(
            special(&e) && e.contains(&path.display().to_string()),
            "{e}"
        );
    }
    for path in endless_and_pipe(d, "picture.png") {
        let e = tuft_graph::images::load(&path).unwrap_err().to_string();
        assert!(
            special(&e) && e.contains(&path.display().to_string()),
            "{e}"
        );
    }
    for path in endless_and_pipe(d, "set.strands") {
        let e = tuft_strands::read::read_file(&path, 1 << 30, "strand file").unwrap_err();
        assert!(special(&e.to_string()), "{e}");
    }
}
