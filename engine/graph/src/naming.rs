//! What a baked set's files are called: the maps, a material's and a layer's file stems,
//! and which layers' names would write the same files. The graph checks names by these
//! rules (validation, layer renames) and the bake writes by them.

/// The maps, in the order they are written.
pub const MAP_NAMES: [&str; 7] = [
    "base_color",
    "normal",
    "roughness",
    "metallic",
    "occlusion",
    "height",
    "orm",
];

/// The glTF file holding every strand level of layer `layer` of material `stem`.
#[must_use]
pub fn levels_name(stem: &str, layer: &str) -> String {
    format!("{stem}_{}_strands.glb", file_stem(layer))
}

/// A file-name-safe form of a material name.
#[must_use]
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() {
        "material".to_owned()
    } else {
        stem
    }
}

/// Whether strand layers named `a` and `b` would write the same files: their file stems
/// are equal without regard to case (a game's or a DCC tool's file system may not tell
/// `Grass_strands.glb` from `grass_strands.glb`).
#[must_use]
pub fn same_files(a: &str, b: &str) -> bool {
    files_key(a) == files_key(b)
}

/// What two layers' names share when they write the same files: the file stem without
/// case.
fn files_key(name: &str) -> String {
    file_stem(name).to_ascii_lowercase()
}

/// Each pair of `graph`'s strand layers that would overwrite each other's files, as a
/// sentence naming both and a file.
#[must_use]
pub fn layer_file_clashes(graph: &crate::MaterialGraph) -> Vec<String> {
    let mut first: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    let mut clashes = Vec::new();
    for name in graph.strands.keys() {
        let key = files_key(name);
        match first.get(&key) {
            Some(other) => clashes.push(format!(
                "strand layers {other:?} and {name:?} would bake to the same files ({}): \
                 rename one",
                levels_name(&file_stem(&graph.name), other)
            )),
            None => {
                first.insert(key, name);
            }
        }
    }
    clashes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_whose_names_make_the_same_files_are_found() {
        let mut g = crate::MaterialGraph::new("moss");
        for name in ["x y", "fronds", "x_y", "X/Y", "setae"] {
            g.strands.insert(name.into(), crate::StrandLayer::default());
        }
        assert!(same_files("Grass", "grass") && !same_files("grass", "grass 2"));
        assert_eq!(
            layer_file_clashes(&g),
            [
                "strand layers \"X/Y\" and \"x y\" would bake to the same files \
                 (moss_X_Y_strands.glb): rename one",
                "strand layers \"X/Y\" and \"x_y\" would bake to the same files \
                 (moss_X_Y_strands.glb): rename one",
            ]
        );
    }

    #[test]
    fn file_stems_are_safe() {
        assert_eq!(file_stem("my lawn/v2"), "my_lawn_v2");
        assert_eq!(file_stem(""), "material");
    }
}
