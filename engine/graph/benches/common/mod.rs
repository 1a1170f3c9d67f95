//! What the benchmarks of both engine crates run on (`tuft-bake`'s include this file).

use std::path::Path;

/// Every graph in `presets/`, by name in file-name order: a preset joins the
/// benchmarks by being shipped.
pub fn presets() -> Vec<(String, tuft_graph::MaterialGraph)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../presets");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().expect("a file name").to_string_lossy();
            let graph = tuft_graph::io::load(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .graph;
            (name.into_owned(), graph)
        })
        .collect()
}
