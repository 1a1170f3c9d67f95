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
    pub(super) extensions_used: Vec<&'static str>,
    pub(super) extensions_required: Vec<&'static str>,
}

/// `ARRAY_BUFFER`: vertex attributes.
pub(super) const VERTICES: u32 = 34962;
/// `ELEMENT_ARRAY_BUFFER`: indices.
pub(super) const INDICES: u32 = 34963;

/// glTF component types.
pub(super) mod component {
    pub const BYTE: u32 = 5120;
    pub const UNSIGNED_SHORT: u32 = 5123;
    pub const UNSIGNED_INT: u32 = 5125;
    pub const FLOAT: u32 = 5126;
}

impl Glb {
    /// Appends `bytes` as a buffer view (4-byte aligned), with `stride` between elements
    /// when given; returns its index.
    pub(super) fn view(&mut self, bytes: &[u8], stride: Option<usize>, target: u32) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut view = json!({
            "buffer": 0,
            "byteOffset": self.bin.len(),
            "byteLength": bytes.len(),
            "target": target,
        });
        if let Some(s) = stride {
            view["byteStride"] = json!(s);
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(view);
        self.views.len() - 1
    }

    /// An accessor over view `view`; returns its index.
    pub(super) fn accessor(
        &mut self,
        view: usize,
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
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut document = json!({
            "asset": {"version": "2.0", "generator": "Tuft"},
            "scene": 0,
            "scenes": [{"nodes": roots}],
            "nodes": self.nodes,
            "meshes": self.meshes,
            "materials": self.materials,
            "buffers": [{"byteLength": self.bin.len()}],
            "bufferViews": self.views,
            "accessors": self.accessors,
        });
        if !self.textures.is_empty() {
            // Strand maps tile: the sampler repeats, filtered with mips.
            document["samplers"] = json!([{
                "magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497,
            }]);
            document["images"] = self
                .textures
                .iter()
                .map(|uri| json!({"uri": uri}))
                .collect();
            document["textures"] = (0..self.textures.len())
                .map(|k| json!({"sampler": 0, "source": k}))
                .collect();
        }
        if !self.extensions_used.is_empty() {
            document["extensionsUsed"] = json!(self.extensions_used);
        }
        if !self.extensions_required.is_empty() {
            document["extensionsRequired"] = json!(self.extensions_required);
        }
        let mut text = serde_json::to_vec(&document).expect("a JSON value always serialises");
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let total = 12 + 8 + text.len() + 8 + self.bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&text);
        out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&self.bin);
        out
    }
}
