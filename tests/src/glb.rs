//! A reader of the `.glb` files a bake writes, as a game's importer reads them: the JSON
//! chunk, accessors of any component type (normalised integers read as KHR_mesh_quantization
//! and the core spec say), and each node's translation and scale applied to positions. The
//! `gltf` crate refuses KHR_mesh_quantization, so the tests read the files themselves.
//! Views compressed with EXT_meshopt_compression are decoded with meshoptimizer's decoder.

use serde_json::Value;
use std::path::Path;

/// A glTF binary: its JSON document and binary chunk.
#[derive(Debug)]
pub struct Glb {
    /// The document.
    pub json: Value,
    /// Each buffer view's bytes, decompressed.
    views: Vec<Vec<u8>>,
}

impl Glb {
    /// Reads `path`.
    ///
    /// # Panics
    /// When the file is not a glTF binary (tests want to know at once).
    #[must_use]
    pub fn read(path: &Path) -> Self {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(&bytes[0..4], b"glTF", "{}", path.display());
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        assert_eq!(word(4), 2, "glTF version");
        assert_eq!(word(8), bytes.len(), "the header's length is the file's");
        let json_len = word(12);
        assert_eq!(&bytes[16..20], b"JSON");
        let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
        let at = 20 + json_len;
        // A file without data (a level without strands) has no binary chunk.
        let bin = if at < bytes.len() {
            let bin_len = word(at);
            assert_eq!(&bytes[at + 4..at + 8], b"BIN\0");
            bytes[at + 8..at + 8 + bin_len].to_vec()
        } else {
            Vec::new()
        };
        Self::with_buffers(json, &[bin])
    }

    /// Reads a `.gltf` (JSON) file, its buffers from the files their URIs name beside it
    /// (a buffer without a URI, a compression fallback, holds nothing).
    ///
    /// # Panics
    /// When the file or a buffer cannot be read.
    #[must_use]
    pub fn read_gltf(path: &Path) -> Self {
        let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: Value = serde_json::from_slice(&text).unwrap();
        let dir = path.parent().unwrap();
        let buffers: Vec<Vec<u8>> = json["buffers"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|b| {
                b["uri"].as_str().map_or_else(Vec::new, |uri| {
                    std::fs::read(dir.join(uri)).unwrap_or_else(|e| panic!("{uri}: {e}"))
                })
            })
            .collect();
        Self::with_buffers(json, &buffers)
    }

    fn with_buffers(json: Value, buffers: &[Vec<u8>]) -> Self {
        let views = json["bufferViews"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|v| view_bytes(v, buffers))
            .collect();
        Self { json, views }
    }

    /// Accessor `k` as rows of floats (normalised integers scaled to `[0, 1]` or
    /// `[-1, 1]`; other integers as their values).
    #[must_use]
    pub fn accessor(&self, k: usize) -> Vec<Vec<f32>> {
        let a = &self.json["accessors"][k];
        let view = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let n = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            _ => 4,
        };
        let component = a["componentType"].as_u64().unwrap();
        let size = match component {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            _ => 4,
        };
        let normalized = a["normalized"].as_bool().unwrap_or(false);
        let stride = view["byteStride"].as_u64().map_or(n * size, |s| s as usize);
        let data = &self.views[a["bufferView"].as_u64().unwrap() as usize];
        let start = a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let count = a["count"].as_u64().unwrap() as usize;
        (0..count)
            .map(|i| {
                (0..n)
                    .map(|c| {
                        let at = start + i * stride + c * size;
                        let b = &data[at..at + size];
                        let raw = match component {
                            5120 => f32::from(b[0] as i8),
                            5121 => f32::from(b[0]),
                            5122 => f32::from(i16::from_le_bytes([b[0], b[1]])),
                            5123 => f32::from(u16::from_le_bytes([b[0], b[1]])),
                            5125 => u32::from_le_bytes(b.try_into().unwrap()) as f32,
                            _ => f32::from_le_bytes(b.try_into().unwrap()),
                        };
                        match (normalized, component) {
                            (true, 5120) => (raw / 127.0).max(-1.0),
                            (true, 5121) => raw / 255.0,
                            (true, 5122) => (raw / 32767.0).max(-1.0),
                            (true, 5123) => raw / 65535.0,
                            _ => raw,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The node called `name`.
    ///
    /// # Panics
    /// When there is none.
    #[must_use]
    pub fn node_named(&self, name: &str) -> usize {
        self.json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n["name"] == name)
            .unwrap_or_else(|| panic!("no node {name}"))
    }

    /// The primitives of the mesh node `node` shows.
    fn primitives(&self, node: usize) -> &[Value] {
        let mesh = self.json["nodes"][node]["mesh"].as_u64().unwrap() as usize;
        self.json["meshes"][mesh]["primitives"].as_array().unwrap()
    }

    /// Attribute `name` of node `node`'s mesh, if it has it: its primitives' vertices one
    /// after another.
    #[must_use]
    pub fn attribute(&self, node: usize, name: &str) -> Option<Vec<Vec<f32>>> {
        let mut rows = Vec::new();
        for p in self.primitives(node) {
            rows.extend(self.accessor(p["attributes"][name].as_u64()? as usize));
        }
        Some(rows)
    }

    /// How many primitives node `node`'s mesh has.
    #[must_use]
    pub fn primitive_count(&self, node: usize) -> usize {
        self.primitives(node).len()
    }

    /// Node `node`'s positions in metres: the node's scale, then its translation.
    #[must_use]
    pub fn positions(&self, node: usize) -> Vec<[f32; 3]> {
        let n = &self.json["nodes"][node];
        let get = |key: &str, default: f32| -> [f32; 3] {
            std::array::from_fn(|k| n[key][k].as_f64().map_or(default, |x| x as f32))
        };
        let (scale, translation) = (get("scale", 1.0), get("translation", 0.0));
        self.attribute(node, "POSITION")
            .unwrap()
            .iter()
            .map(|p| std::array::from_fn(|k| p[k] * scale[k] + translation[k]))
            .collect()
    }

    /// Node `node`'s triangle indices into [`Glb::attribute`]'s rows: each primitive's
    /// own, offset by the vertices of the primitives before it.
    #[must_use]
    pub fn indices(&self, node: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut base = 0;
        for p in self.primitives(node) {
            let k = p["indices"].as_u64().unwrap() as usize;
            out.extend(self.accessor(k).iter().map(|r| r[0] as u32 + base));
            let position = p["attributes"]["POSITION"].as_u64().unwrap() as usize;
            base += self.json["accessors"][position]["count"].as_u64().unwrap() as u32;
        }
        out
    }

    /// The material node `node`'s mesh wears (its first primitive's).
    #[must_use]
    pub fn material(&self, node: usize) -> &Value {
        let k = self.primitives(node)[0]["material"].as_u64().unwrap() as usize;
        &self.json["materials"][k]
    }

    /// The image texture `texture` shows.
    fn texture_image(&self, texture: &Value) -> &Value {
        let t = texture["index"].as_u64().unwrap() as usize;
        let image = self.json["textures"][t]["source"].as_u64().unwrap() as usize;
        &self.json["images"][image]
    }

    /// The relative URI of the image texture `texture` shows: its `uri`, or, for an
    /// image stored in the binary chunk, the loose file's name it carries.
    #[must_use]
    pub fn texture_uri(&self, texture: &Value) -> String {
        let image = self.texture_image(texture);
        image["uri"]
            .as_str()
            .or(image["name"].as_str())
            .unwrap()
            .to_owned()
    }

    /// The bytes of the image texture `texture` shows when the file carries them in a
    /// buffer view (`None`: an image by URI).
    #[must_use]
    pub fn texture_bytes(&self, texture: &Value) -> Option<Vec<u8>> {
        let view = self.texture_image(texture)["bufferView"].as_u64()? as usize;
        Some(self.views[view].clone())
    }
}

/// The bytes of buffer view `view` over `buffers`, decoded when compressed.
fn view_bytes(view: &Value, buffers: &[Vec<u8>]) -> Vec<u8> {
    let slice = |v: &Value| {
        let bin = &buffers[v["buffer"].as_u64().unwrap_or(0) as usize];
        let at = v["byteOffset"].as_u64().unwrap_or(0) as usize;
        &bin[at..at + v["byteLength"].as_u64().unwrap() as usize]
    };
    let Some(ext) = view["extensions"].get("EXT_meshopt_compression") else {
        return slice(view).to_vec();
    };
    let (count, stride) = (
        ext["count"].as_u64().unwrap() as usize,
        ext["byteStride"].as_u64().unwrap() as usize,
    );
    let packed = slice(ext);
    let decoded: Vec<u8> = match (ext["mode"].as_str().unwrap(), stride) {
        ("TRIANGLES", 4) => meshopt::decode_index_buffer::<u32>(packed, count)
            .unwrap()
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect(),
        ("TRIANGLES", 2) => meshopt::decode_index_buffer::<u16>(packed, count)
            .unwrap()
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect(),
        ("ATTRIBUTES", 4) => meshopt::decode_vertex_buffer::<[u8; 4]>(packed, count)
            .unwrap()
            .concat(),
        ("ATTRIBUTES", 8) => meshopt::decode_vertex_buffer::<[u8; 8]>(packed, count)
            .unwrap()
            .concat(),
        ("ATTRIBUTES", 12) => meshopt::decode_vertex_buffer::<[u8; 12]>(packed, count)
            .unwrap()
            .concat(),
        ("ATTRIBUTES", 16) => meshopt::decode_vertex_buffer::<[u8; 16]>(packed, count)
            .unwrap()
            .concat(),
        (mode, stride) => panic!("meshopt mode {mode} with stride {stride}"),
    };
    match ext["filter"].as_str() {
        None | Some("NONE") => decoded,
        Some("OCTAHEDRAL") if stride == 4 => unfilter_octahedral8(&decoded),
        Some(filter) => panic!("meshopt filter {filter} with stride {stride}"),
    }
}

/// EXT_meshopt_compression's OCTAHEDRAL filter undone on 4-byte elements, as its
/// specification writes the decoder: octahedral coordinates over the stored one back to
/// a unit vector of 8-bit signed values, the fourth byte kept.
fn unfilter_octahedral8(data: &[u8]) -> Vec<u8> {
    data.chunks_exact(4)
        .flat_map(|e| {
            let one = f32::from(e[2] as i8);
            let (mut x, mut y) = (f32::from(e[0] as i8) / one, f32::from(e[1] as i8) / one);
            let z = 1.0 - x.abs() - y.abs();
            let t = (-z).max(0.0);
            x -= if x >= 0.0 { t } else { -t };
            y -= if y >= 0.0 { t } else { -t };
            let l = (x * x + y * y + z * z).sqrt();
            let q = |v: f32| (v / l * 127.0).round() as i8 as u8;
            [q(x), q(y), q(z), e[3]]
        })
        .collect()
}
