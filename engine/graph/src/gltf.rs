//! glTF binary (`.glb`) meshes of strand levels.
//!
//! One mesh, one primitive, triangles. Attributes: `POSITION`, `NORMAL`, `TEXCOORD_0`
//! (along the strand, across it), `COLOR_0` (linear RGB), and the custom `_WIND` (0 at the
//! root, 1 at the tip) and `_RANK`. Buffers are not interleaved; indices are u32. The
//! material is double-sided for ribbons.

use serde_json::json;
use tuft_strands::mesh::LevelMesh;

/// Encodes `mesh` as a glTF binary.
#[must_use]
pub fn encode_glb(mesh: &LevelMesh, name: &str, double_sided: bool) -> Vec<u8> {
    let v = &mesh.vertices;
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut push_floats = |bin: &mut Vec<u8>,
                           values: Vec<f32>,
                           components: usize,
                           kind: &str,
                           with_bounds: bool| {
        let offset = bin.len();
        for x in &values {
            bin.extend_from_slice(&x.to_le_bytes());
        }
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": values.len() * 4, "target": 34962}));
        let mut accessor = json!({
            "bufferView": views.len() - 1,
            "componentType": 5126,
            "count": values.len() / components,
            "type": kind,
        });
        if with_bounds && !values.is_empty() {
            let mut min = vec![f32::INFINITY; components];
            let mut max = vec![f32::NEG_INFINITY; components];
            for chunk in values.chunks_exact(components) {
                for k in 0..components {
                    min[k] = min[k].min(chunk[k]);
                    max[k] = max[k].max(chunk[k]);
                }
            }
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        accessors.push(accessor);
        accessors.len() - 1
    };
    let position = push_floats(
        &mut bin,
        v.iter().flat_map(|x| x.position).collect(),
        3,
        "VEC3",
        true,
    );
    let normal = push_floats(
        &mut bin,
        v.iter().flat_map(|x| x.normal).collect(),
        3,
        "VEC3",
        false,
    );
    let uv = push_floats(
        &mut bin,
        v.iter().flat_map(|x| x.uv).collect(),
        2,
        "VEC2",
        false,
    );
    let color = push_floats(
        &mut bin,
        v.iter().flat_map(|x| x.color).collect(),
        3,
        "VEC3",
        false,
    );
    let wind = push_floats(
        &mut bin,
        v.iter().map(|x| x.wind).collect(),
        1,
        "SCALAR",
        false,
    );
    let rank = push_floats(
        &mut bin,
        v.iter().map(|x| x.rank).collect(),
        1,
        "SCALAR",
        false,
    );
    let index_offset = bin.len();
    for i in &mesh.indices {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    views.push(json!({"buffer": 0, "byteOffset": index_offset, "byteLength": mesh.indices.len() * 4, "target": 34963}));
    accessors.push(json!({
        "bufferView": views.len() - 1,
        "componentType": 5125,
        "count": mesh.indices.len(),
        "type": "SCALAR",
    }));
    let indices = accessors.len() - 1;
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let document = json!({
        "asset": {"version": "2.0", "generator": "Tuft"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": name}],
        "meshes": [{"name": name, "primitives": [{
            "attributes": {
                "POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv,
                "COLOR_0": color, "_WIND": wind, "_RANK": rank,
            },
            "indices": indices,
            "material": 0,
            "mode": 4,
        }]}],
        "materials": [{
            "name": "strands",
            "doubleSided": double_sided,
            "pbrMetallicRoughness": {"baseColorFactor": [1.0, 1.0, 1.0, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8},
        }],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": views,
        "accessors": accessors,
    });
    let mut text = serde_json::to_vec(&document).expect("a JSON value always serialises");
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}
