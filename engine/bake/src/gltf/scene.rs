//! The set's scene: one glTF (`.gltf`, JSON) that shows the ground, every strand level and
//! every layer's cards at once, without a second copy of their data. Each part's `.glb`
//! is named as a buffer (a glTF buffer is any file's bytes), and the part's buffer views
//! are moved onto its binary chunk inside that file. A material of one name (a layer's
//! strands, worn by every one of its levels) is one material here. Levels are nodes named
//! `<layer>_LOD<k>` (the cards the layer's last LOD), each saying in its extras where it
//! switches on the reference view and the share of that view's height a repeat covers
//! there. Every part is drawn: the scene is for looking at a set whole, and grouping the
//! levels is left to the pipeline that reads the extras (MSFT_lod would have a client
//! that knows it draw the coarser levels twice, once as the finest's LODs and once as
//! the layer's children, and no client checked here groups LODs by name).

use serde_json::{Value, json};

/// One `.glb` of the set, as written, with what the scene says of it.
#[derive(Debug)]
pub struct Part<'a> {
    /// Its file name in the set (the URI the scene names).
    pub file: &'a str,
    /// Its first bytes, through its JSON chunk: all the scene reads of it.
    pub head: &'a [u8],
    /// Its length in bytes.
    pub len: usize,
    /// Which of the file's nodes this part is (a layer's levels share one file).
    pub node: usize,
    /// The scene node's name.
    pub name: String,
    /// The node's extras.
    pub extras: Value,
}

/// A layer's parts: its levels, finest first, then its cards; with the share of the
/// reference view's height a repeat covers where each is left for the next.
#[derive(Debug)]
pub struct LayerParts<'a> {
    /// The layer's name.
    pub name: String,
    /// Levels then cards.
    pub parts: Vec<Part<'a>>,
    /// One coverage per part.
    pub coverage: Vec<f32>,
}

/// The first bytes of the `.glb` at `path`, through its JSON chunk, and the file's
/// length: the scene needs each part's document, not its vertices.
fn head(path: &std::path::Path) -> std::io::Result<(Vec<u8>, usize)> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    let mut head = vec![0u8; 20];
    file.read_exact(&mut head)?;
    let json_len = u32::from_le_bytes([head[12], head[13], head[14], head[15]]) as usize;
    if json_len > len.saturating_sub(20) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "its JSON chunk runs past its end",
        ));
    }
    head.resize(20 + json_len, 0);
    file.read_exact(&mut head[20..])?;
    Ok((head, len))
}

/// The parts' glTF documents and where each one's binary chunk starts in its file.
fn open(glb: &[u8]) -> Option<(Value, usize)> {
    let word = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(glb.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    let json_len = word(12)?;
    let json: Value = serde_json::from_slice(glb.get(20..20 + json_len)?).ok()?;
    Some((json, 20 + json_len + 8))
}

/// A merged document being filled.
#[derive(Default)]
struct Merged {
    buffers: Vec<Value>,
    views: Vec<Value>,
    accessors: Vec<Value>,
    meshes: Vec<Value>,
    materials: Vec<Value>,
    images: Vec<String>,
    nodes: Vec<Value>,
    used: Vec<String>,
    required: Vec<String>,
    /// The files taken in so far, each read once however many parts it holds.
    files: Vec<Taken>,
}

/// A `.glb` whose buffers, views, accessors and materials a merged document holds.
struct Taken {
    /// Its file name in the set.
    file: String,
    /// Its glTF document.
    doc: Value,
    /// Where its accessors start in the merged document.
    accessor_base: usize,
    /// Where each of its materials went.
    material_map: Vec<usize>,
}

impl Merged {
    /// Takes in `part`'s node, its mesh and material (its file's buffers, views,
    /// accessors and materials once, however many parts it holds); returns the node.
    fn take(&mut self, part: &Part<'_>) -> Option<usize> {
        let mesh_of = |doc: &Value| {
            let node = doc["nodes"].get(part.node)?;
            Some(node.get("mesh").and_then(Value::as_u64))
        };
        let at = match self.files.iter().position(|f| f.file == part.file) {
            Some(at) => at,
            None => {
                let (doc, bin_start) = open(part.head)?;
                if mesh_of(&doc)?.is_none() {
                    // A part without strands: its node alone, and no buffer for a file
                    // that may hold no data.
                    return Some(self.alone(part));
                }
                let taken = self.take_file(part, doc, bin_start)?;
                self.files.push(taken);
                self.files.len() - 1
            }
        };
        let Taken {
            doc,
            accessor_base,
            material_map,
            ..
        } = &self.files[at];
        let node = doc["nodes"].get(part.node)?;
        let Some(mesh_idx) = mesh_of(doc)? else {
            return Some(self.alone(part));
        };
        let mut mesh = doc["meshes"].get(mesh_idx as usize)?.clone();
        for prim in mesh["primitives"].as_array_mut()? {
            for (_, a) in prim["attributes"].as_object_mut()?.iter_mut() {
                *a = json!(a.as_u64()? as usize + accessor_base);
            }
            prim["indices"] = json!(prim["indices"].as_u64()? as usize + accessor_base);
            prim["material"] = json!(*material_map.get(prim["material"].as_u64()? as usize)?);
        }
        self.meshes.push(mesh);
        let mut node = node.clone();
        node["mesh"] = json!(self.meshes.len() - 1);
        node["name"] = json!(part.name);
        node["extras"] = part.extras.clone();
        self.nodes.push(node);
        Some(self.nodes.len() - 1)
    }

    /// `part` as a named node alone (a level without strands); returns the node.
    fn alone(&mut self, part: &Part<'_>) -> usize {
        self.nodes
            .push(json!({"name": part.name, "extras": part.extras.clone()}));
        self.nodes.len() - 1
    }

    /// Takes in the buffers, views, accessors, materials and extensions of `part`'s
    /// file, whose document is `doc` and binary chunk starts at `bin_start`.
    fn take_file(&mut self, part: &Part<'_>, doc: Value, bin_start: usize) -> Option<Taken> {
        // Buffer 0 is the file itself; a compressed part's fallback buffer comes along.
        let buffer_base = self.buffers.len();
        self.buffers
            .push(json!({"uri": part.file, "byteLength": part.len}));
        for extra in doc["buffers"].as_array()?.iter().skip(1) {
            self.buffers.push(extra.clone());
        }
        let view_base = self.views.len();
        for view in doc["bufferViews"].as_array()? {
            let mut v = view.clone();
            let b = v["buffer"].as_u64()? as usize;
            v["buffer"] = json!(buffer_base + b);
            if b == 0 {
                v["byteOffset"] = json!(v["byteOffset"].as_u64().unwrap_or(0) as usize + bin_start);
            }
            if let Some(ext) = v
                .get_mut("extensions")
                .and_then(|e| e.get_mut("EXT_meshopt_compression"))
            {
                ext["buffer"] = json!(buffer_base);
                ext["byteOffset"] = json!(ext["byteOffset"].as_u64()? as usize + bin_start);
            }
            self.views.push(v);
        }
        let accessor_base = self.accessors.len();
        for a in doc["accessors"].as_array()? {
            let mut a = a.clone();
            a["bufferView"] = json!(a["bufferView"].as_u64()? as usize + view_base);
            self.accessors.push(a);
        }
        // Textures: one per image, images by URI shared across parts.
        let mut texture_map = Vec::new();
        if let Some(textures) = doc["textures"].as_array() {
            for t in textures {
                let image = t["source"].as_u64()? as usize;
                // An image the part carries in its chunk keeps its loose file's name.
                let img = &doc["images"][image];
                let uri = img["uri"].as_str().or(img["name"].as_str())?.to_owned();
                texture_map.push(index_of_or_push(&mut self.images, uri));
            }
        }
        // One material a name: a layer's levels all wear its strands' material, and an
        // importer given three copies makes three (Blender's `.001`, `.002`).
        let mut material_map = Vec::new();
        for m in doc["materials"].as_array().into_iter().flatten() {
            let mut m = m.clone();
            remap_textures(&mut m, &texture_map);
            material_map.push(index_of_or_push(&mut self.materials, m));
        }
        for list in ["extensionsUsed", "extensionsRequired"] {
            for e in doc[list].as_array().into_iter().flatten() {
                let name = e.as_str()?.to_owned();
                let into = if list == "extensionsUsed" {
                    &mut self.used
                } else {
                    &mut self.required
                };
                if !into.contains(&name) {
                    into.push(name);
                }
            }
        }
        Some(Taken {
            file: part.file.to_owned(),
            doc,
            accessor_base,
            material_map,
        })
    }
}

/// Replaces each texture reference's index in `material` by its place in `map`.
fn remap_textures(material: &mut Value, map: &[usize]) {
    if let Value::Object(m) = material {
        for (key, v) in m.iter_mut() {
            if key.ends_with("Texture") {
                if let Some(i) = v.get("index").and_then(Value::as_u64) {
                    v["index"] = json!(map.get(i as usize).copied().unwrap_or(0));
                }
            } else {
                remap_textures(v, map);
            }
        }
    }
}

/// The scene of a set called `name`: `ground` and every layer's parts, as `.gltf` text.
/// `None` when a part is not a glTF binary this module wrote.
#[must_use]
pub fn encode_scene(name: &str, ground: &Part<'_>, layers: &[LayerParts<'_>]) -> Option<Vec<u8>> {
    let mut m = Merged::default();
    let mut roots = vec![m.take(ground)?];
    for layer in layers {
        let ids: Vec<usize> = layer
            .parts
            .iter()
            .map(|p| m.take(p))
            .collect::<Option<_>>()?;
        for (&id, &coverage) in ids.iter().zip(&layer.coverage) {
            m.nodes[id]["extras"]["screen_coverage_on_reference_view"] = json!(coverage);
        }
        m.nodes.push(json!({"name": layer.name, "children": ids}));
        roots.push(m.nodes.len() - 1);
    }
    m.nodes.push(json!({"name": name, "children": roots}));
    let root = m.nodes.len() - 1;
    let mut document = json!({
        "asset": {"version": "2.0", "generator": "Tuft"},
        "scene": 0,
        "scenes": [{"name": name, "nodes": [root]}],
        "nodes": m.nodes,
        "meshes": m.meshes,
        "materials": m.materials,
        "buffers": m.buffers,
        "bufferViews": m.views,
        "accessors": m.accessors,
    });
    let used: Vec<&str> = m.used.iter().map(String::as_str).collect();
    let required: Vec<&str> = m.required.iter().map(String::as_str).collect();
    let images: Vec<super::builder::Image> = m
        .images
        .iter()
        .map(|uri| super::builder::Image {
            uri: uri.clone(),
            view: None,
        })
        .collect();
    super::builder::images_and_extensions(&mut document, &images, &used, &required);
    super::builder::drop_empty_arrays(&mut document);
    serde_json::to_vec_pretty(&document).ok()
}

/// The scene of the set in folder `dir` that `manifest` describes (its `.glb` files
/// already written there), as `.gltf` text.
///
/// # Errors
/// A file the manifest names cannot be read, or is not a glTF binary this module wrote.
pub fn scene_of_set(
    dir: &std::path::Path,
    manifest: &tuft_strands::manifest::Manifest,
) -> Result<Vec<u8>, String> {
    use tuft_strands::switches::{REFERENCE_FOV_TURNS, REFERENCE_HEIGHT_PX, px_per_m_at_1m};
    let read = |file: &str| head(&dir.join(file)).map_err(|e| format!("{file}: {e}"));
    let (ground_head, ground_len) = read(&manifest.ground)?;
    let ground = Part {
        file: &manifest.ground,
        head: &ground_head,
        len: ground_len,
        node: 0,
        name: "ground".to_owned(),
        extras: json!({"repeat_m": manifest.repeat_m}),
    };
    let p = px_per_m_at_1m(REFERENCE_HEIGHT_PX, REFERENCE_FOV_TURNS);
    // The share of the reference view's height a repeat covers at `d` metres.
    let coverage = |d: f32| manifest.repeat_m * p / (d.max(1e-6) * REFERENCE_HEIGHT_PX);
    // Every file's head first, once (the parts borrow them; a layer's levels share one).
    let mut heads: std::collections::BTreeMap<&str, (Vec<u8>, usize)> =
        std::collections::BTreeMap::new();
    for layer in &manifest.layers {
        for file in layer
            .meshes
            .iter()
            .chain(std::iter::once(&layer.cards.mesh))
        {
            if let std::collections::btree_map::Entry::Vacant(e) = heads.entry(file) {
                e.insert(read(file)?);
            }
        }
    }
    let head_of = |file: &str| heads.get(file).ok_or("missing part");
    let mut layers = Vec::new();
    for layer in &manifest.layers {
        let distances = layer
            .switches
            .as_ref()
            .map(|s| s.distances(p))
            .unwrap_or_default();
        let left =
            |which: Option<usize>| distances.iter().find(|(w, _)| *w == which).map(|(_, d)| *d);
        let mut parts = Vec::new();
        let mut cover = Vec::new();
        for (k, file) in layer.meshes.iter().enumerate() {
            let d = left(Some(k));
            let (head, len) = head_of(file)?;
            // Level k is its file's node k where the levels share one file (sets baked
            // before that hold one level a file, as its node 0).
            let node = layer.meshes[..k].iter().filter(|f| *f == file).count();
            parts.push(Part {
                file,
                head,
                len: *len,
                node,
                name: format!("{}_LOD{k}", layer.name),
                extras: json!({
                    "layer": layer.name, "level": k,
                    "keep": layer.levels.keep.get(k),
                    "widen": layer.levels.widen(k),
                    "leaves_at_m_on_reference_view": d,
                }),
            });
            cover.push(d.map_or(0.0, coverage));
        }
        let d = left(None);
        let (head, len) = head_of(&layer.cards.mesh)?;
        parts.push(Part {
            file: &layer.cards.mesh,
            head,
            len: *len,
            node: 0,
            name: format!("{}_LOD{}", layer.name, layer.meshes.len()),
            extras: json!({
                "layer": layer.name, "cards": true,
                "leaves_at_m_on_reference_view": d,
            }),
        });
        cover.push(d.map_or(0.0, coverage));
        layers.push(LayerParts {
            name: layer.name.clone(),
            parts,
            coverage: cover,
        });
    }
    encode_scene(&manifest.name, &ground, &layers)
        .ok_or_else(|| "a part is not a glTF binary of this set".to_owned())
}

/// The index of `item` in `items`, pushed at the end where it is not there yet.
fn index_of_or_push<T: PartialEq>(items: &mut Vec<T>, item: T) -> usize {
    items
        .iter()
        .position(|seen| *seen == item)
        .unwrap_or_else(|| {
            items.push(item);
            items.len() - 1
        })
}
