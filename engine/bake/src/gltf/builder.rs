//! A glTF binary being put together: buffer views and accessors over one binary chunk,
//! meshes, nodes, materials and textures, and the extensions they use.

use serde_json::{Value, json};

/// A glTF document and its binary chunk, filled by the `Glb` methods and written by
/// [`Glb::finish`].
#[derive(Debug, Default)]
pub struct Glb {
    pub(super) bin: Vec<u8>,
    pub(super) views: Vec<Value>,
    pub(super) accessors: Vec<Value>,
    pub(super) meshes: Vec<Value>,
    pub(super) nodes: Vec<Value>,
    pub(super) materials: Vec<Value>,
    pub(super) textures: Vec<String>,
    /// PNG bytes by the relative URI a texture names: such an image is stored in the
    /// binary chunk (the file is self-contained) and named by its URI, where the loose
    /// PNG beside it is for tools that want files.
    pub(super) embedded: std::collections::BTreeMap<String, Vec<u8>>,
    pub(super) extensions_used: Vec<&'static str>,
    pub(super) extensions_required: Vec<&'static str>,
    /// Whether views are compressed (EXT_meshopt_compression).
    pub(super) compress: bool,
    /// Bytes of the uncompressed fallback buffer the compressed views stand in.
    pub(super) fallback: usize,
}

/// One image of a document: its relative URI, and the buffer view holding its PNG
/// where it is stored in the binary chunk.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Image {
    pub(super) uri: String,
    pub(super) view: Option<usize>,
}

/// Adds to `document` one texture per image of `images` (with the repeating, mipmapped
/// sampler every strand map wants) and the extensions it uses and requires. An image in
/// a buffer view keeps its URI as its name.
pub(super) fn images_and_extensions(
    document: &mut Value,
    images: &[Image],
    used: &[&str],
    required: &[&str],
) {
    if !images.is_empty() {
        // Strand maps tile: the sampler repeats, filtered with mips.
        document["samplers"] = json!([{
            "magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497,
        }]);
        document["images"] = images
            .iter()
            .map(|image| match image.view {
                Some(v) => json!({"name": image.uri, "bufferView": v, "mimeType": "image/png"}),
                None => json!({"uri": image.uri}),
            })
            .collect();
        document["textures"] = (0..images.len())
            .map(|k| json!({"sampler": 0, "source": k}))
            .collect();
    }
    if !used.is_empty() {
        document["extensionsUsed"] = json!(used);
    }
    if !required.is_empty() {
        document["extensionsRequired"] = json!(required);
    }
}

fn align(bin: &mut Vec<u8>) {
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
}

/// `bytes` compressed by meshoptimizer with the mode EXT_meshopt_compression names:
/// vertex attributes of `element` bytes, or u32 triangle indices. `None` where the data
/// does not fit a mode (then it is stored plain).
fn meshopt_encode(bytes: &[u8], element: usize, target: u32) -> Option<(Vec<u8>, &'static str)> {
    if target == INDICES {
        let indices: Vec<u32> = match element {
            2 => bytes
                .chunks_exact(2)
                .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
                .collect(),
            4 => bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            _ => return None,
        };
        if !indices.len().is_multiple_of(3) {
            return None;
        }
        let vertices = indices.iter().max().map_or(0, |&m| m as usize + 1);
        return meshopt::encode_index_buffer(&indices, vertices)
            .ok()
            .map(|p| (p, "TRIANGLES"));
    }
    if element == 0
        || !element.is_multiple_of(4)
        || element > 256
        || !bytes.len().is_multiple_of(element)
    {
        return None;
    }
    // The encoder takes typed vertices; the element sizes used here are 4 to 16 bytes.
    let packed = match element {
        4 => meshopt::encode_vertex_buffer(bytemuck::cast_slice::<u8, [u8; 4]>(bytes)),
        8 => meshopt::encode_vertex_buffer(bytemuck::cast_slice::<u8, [u8; 8]>(bytes)),
        12 => meshopt::encode_vertex_buffer(bytemuck::cast_slice::<u8, [u8; 12]>(bytes)),
        16 => meshopt::encode_vertex_buffer(bytemuck::cast_slice::<u8, [u8; 16]>(bytes)),
        _ => return None,
    };
    packed.ok().map(|p| (p, "ATTRIBUTES"))
}

/// `ARRAY_BUFFER`: vertex attributes.
pub(super) const VERTICES: u32 = 34962;
/// `ELEMENT_ARRAY_BUFFER`: indices.
pub(super) const INDICES: u32 = 34963;

/// glTF component types.
pub(super) mod component {
    pub const BYTE: u32 = 5120;
    pub const UNSIGNED_BYTE: u32 = 5121;
    pub const UNSIGNED_SHORT: u32 = 5123;
    pub const UNSIGNED_INT: u32 = 5125;
    pub const FLOAT: u32 = 5126;
}

impl Glb {
    /// Appends `bytes`, elements of `element` bytes each, as a buffer view (4-byte
    /// aligned); returns its index. Vertex views state their stride. When compressing,
    /// the bytes are stored compressed by meshoptimizer (attributes, or triangles for
    /// indices) and the view reads them through EXT_meshopt_compression from the
    /// fallback buffer, which holds no data.
    pub(super) fn view(&mut self, bytes: &[u8], element: usize, target: u32) -> usize {
        self.filtered_view(bytes, element, target, None)
    }

    /// As [`Glb::view`], where a compressed view may store `filter`'s bytes instead
    /// (the EXT_meshopt_compression filter it names turns them back into `bytes`,
    /// within its precision): a form meshoptimizer's codec packs tighter.
    pub(super) fn filtered_view(
        &mut self,
        bytes: &[u8],
        element: usize,
        target: u32,
        filter: Option<(&'static str, &[u8])>,
    ) -> usize {
        let mut view = json!({"byteLength": bytes.len(), "target": target});
        if target == VERTICES {
            view["byteStride"] = json!(element);
        }
        let stored = filter.map_or(bytes, |(_, filtered)| filtered);
        let compressed = self
            .compress
            .then(|| meshopt_encode(stored, element, target))
            .flatten();
        if let Some((packed, mode)) = compressed {
            align(&mut self.bin);
            view["buffer"] = json!(1);
            view["byteOffset"] = json!(self.fallback);
            self.fallback += bytes.len().next_multiple_of(4);
            let mut extension = json!({
                "buffer": 0,
                "byteOffset": self.bin.len(),
                "byteLength": packed.len(),
                "byteStride": element,
                "count": bytes.len() / element,
                "mode": mode,
            });
            if let Some((name, _)) = filter {
                extension["filter"] = json!(name);
            }
            view["extensions"] = json!({"EXT_meshopt_compression": extension});
            self.bin.extend_from_slice(&packed);
        } else {
            align(&mut self.bin);
            view["buffer"] = json!(0);
            view["byteOffset"] = json!(self.bin.len());
            self.bin.extend_from_slice(bytes);
        }
        self.views.push(view);
        self.views.len() - 1
    }

    /// An accessor over view `view` from byte `offset`; returns its index.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn accessor(
        &mut self,
        view: usize,
        offset: usize,
        component: u32,
        normalized: bool,
        count: usize,
        kind: &str,
        bounds: Option<(Vec<f32>, Vec<f32>)>,
    ) -> usize {
        let mut accessor = json!({
            "bufferView": view,
            "componentType": component,
            "count": count,
            "type": kind,
        });
        if offset > 0 {
            accessor["byteOffset"] = json!(offset);
        }
        if normalized {
            accessor["normalized"] = json!(true);
        }
        if let Some((min, max)) = bounds {
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    /// Adds a node; returns its index.
    pub(super) fn node(&mut self, node: Value) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Adds a mesh; returns its index.
    pub(super) fn mesh(&mut self, mesh: Value) -> usize {
        self.meshes.push(mesh);
        self.meshes.len() - 1
    }

    /// The texture showing the image at relative URI `uri` (one per URI).
    pub(super) fn texture(&mut self, uri: &str) -> usize {
        if let Some(k) = self.textures.iter().position(|t| t == uri) {
            return k;
        }
        self.textures.push(uri.to_owned());
        self.textures.len() - 1
    }

    /// Stores `png` in the binary chunk for every texture naming `uri`: the file then
    /// carries its own image.
    pub fn embed(&mut self, uri: &str, png: Vec<u8>) {
        self.embedded.insert(uri.to_owned(), png);
    }

    /// Notes an extension the document uses (and requires, when readers must know it).
    pub(super) fn uses(&mut self, name: &'static str, required: bool) {
        if !self.extensions_used.contains(&name) {
            self.extensions_used.push(name);
        }
        if required && !self.extensions_required.contains(&name) {
            self.extensions_required.push(name);
        }
    }

    /// The `.glb` bytes of a document whose scene holds nodes `roots`.
    #[must_use]
    pub fn finish(mut self, roots: &[usize]) -> Vec<u8> {
        // Embedded images go into the binary chunk as plain views (never compressed).
        let textures = std::mem::take(&mut self.textures);
        let images: Vec<Image> = textures
            .into_iter()
            .map(|uri| {
                let view = self.embedded.get(&uri).cloned().map(|png| {
                    align(&mut self.bin);
                    let offset = self.bin.len();
                    self.bin.extend_from_slice(&png);
                    self.views
                        .push(json!({"buffer": 0, "byteOffset": offset, "byteLength": png.len()}));
                    self.views.len() - 1
                });
                Image { uri, view }
            })
            .collect();
        align(&mut self.bin);
        let mut buffers = vec![json!({"byteLength": self.bin.len()})];
        if self.fallback > 0 {
            buffers.push(json!({
                "byteLength": self.fallback,
                "extensions": {"EXT_meshopt_compression": {"fallback": true}},
            }));
        }
        let mut document = json!({
            "asset": {"version": "2.0", "generator": "Tuft"},
            "scene": 0,
            "scenes": [{"nodes": roots}],
            "nodes": self.nodes,
            "meshes": self.meshes,
            "materials": self.materials,
            "buffers": buffers,
            "bufferViews": self.views,
            "accessors": self.accessors,
        });
        let used: Vec<&str> = self.extensions_used.clone();
        let required: Vec<&str> = self.extensions_required.clone();
        images_and_extensions(&mut document, &images, &used, &required);
        // No binary data (a part without strands): no buffer and no binary chunk, since
        // glTF has no empty buffer.
        let bin = !self.bin.is_empty();
        if !bin {
            document["buffers"] = json!([]);
        }
        drop_empty_arrays(&mut document);
        let mut text = serde_json::to_vec(&document).expect("a JSON value always serialises");
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let chunk = if bin { 8 + self.bin.len() } else { 0 };
        let total = 12 + 8 + text.len() + chunk;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&text);
        if bin {
            out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
            out.extend_from_slice(b"BIN\0");
            out.extend_from_slice(&self.bin);
        }
        out
    }
}

/// Removes the top-level arrays `document` leaves empty: glTF allows no empty array there
/// (a document without meshes has no `meshes`).
pub(super) fn drop_empty_arrays(document: &mut Value) {
    if let Value::Object(fields) = document {
        fields.retain(|_, v| !v.as_array().is_some_and(Vec::is_empty));
    }
}
