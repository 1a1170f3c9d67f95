//! Strand, card and ground meshes in a [`Glb`], stored as floats or quantised, and the
//! materials they wear.

use super::GroundMaps;
use super::builder::{Glb, INDICES, VERTICES, component};
use serde_json::json;
use tuft_strands::mesh::LevelMesh;

/// How vertex attributes are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// 32-bit floats throughout.
    Float,
    /// KHR_mesh_quantization: positions as 16-bit integers over the mesh's bounds (an
    /// error of at most half a step, `extent / 131070`: 0.015 mm over a 2 m repeat),
    /// normals as 8-bit (within 0.5°), texture coordinates, colours in `[0, 1]` and the
    /// wind as 16-bit normalised integers; `_RANK` as a float.
    #[default]
    Quantized,
    /// As [`Encoding::Quantized`], every buffer view then compressed by meshoptimizer
    /// (EXT_meshopt_compression, lossless over the quantised bytes).
    Meshopt,
}

impl Encoding {
    /// Every encoding, by the name the command line takes.
    pub const NAMES: [(&str, Self); 3] = [
        ("none", Self::Float),
        ("quantize", Self::Quantized),
        ("meshopt", Self::Meshopt),
    ];

    /// The encoding called `name`, or a message listing the valid names.
    ///
    /// # Errors
    /// An unknown name.
    pub fn from_name(name: &str) -> Result<Self, String> {
        crate::targets::by_name(&Self::NAMES, name, "compression")
    }
}

/// What a mesh wears.
#[derive(Clone, Debug, PartialEq)]
pub enum StrandMaterial {
    /// Strands: their vertex colour; double-sided for ribbons.
    Strands {
        /// Whether both faces are drawn (ribbons).
        double_sided: bool,
    },
    /// Cards: the atlas at these relative URIs, alpha-masked at `alpha_cutoff`.
    Cards {
        /// The colour atlas (sRGB, coverage in alpha).
        color: String,
        /// The normal atlas.
        normal: String,
        /// Alpha below this is cut.
        alpha_cutoff: f32,
    },
    /// The ground: the PBR maps.
    Ground(GroundMaps),
}

/// The strands' roughness: their shading has no roughness input of its own.
const STRAND_ROUGHNESS: f32 = 0.8;

impl Glb {
    /// Adds `material`; returns its index.
    pub fn material(&mut self, material: &StrandMaterial) -> usize {
        let value = match material {
            StrandMaterial::Strands { double_sided } => json!({
                "name": "strands",
                "doubleSided": double_sided,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
                    "metallicFactor": 0.0,
                    "roughnessFactor": STRAND_ROUGHNESS,
                },
            }),
            StrandMaterial::Cards {
                color,
                normal,
                alpha_cutoff,
            } => {
                let (c, n) = (self.texture(color), self.texture(normal));
                json!({
                    "name": "cards",
                    "doubleSided": true,
                    "alphaMode": "MASK",
                    "alphaCutoff": alpha_cutoff,
                    "pbrMetallicRoughness": {
                        "baseColorTexture": {"index": c, "texCoord": 0},
                        "metallicFactor": 0.0,
                        "roughnessFactor": STRAND_ROUGHNESS,
                    },
                    "normalTexture": {"index": n, "texCoord": 0},
                })
            }
            StrandMaterial::Ground(maps) => {
                let c = self.texture(&maps.base_color);
                let n = self.texture(&maps.normal);
                let orm = self.texture(&maps.orm);
                json!({
                    "name": "ground",
                    "pbrMetallicRoughness": {
                        "baseColorTexture": {"index": c},
                        "metallicRoughnessTexture": {"index": orm},
                        "metallicFactor": 1.0,
                        "roughnessFactor": 1.0,
                    },
                    "normalTexture": {"index": n},
                    "occlusionTexture": {"index": orm},
                })
            }
        };
        self.materials.push(value);
        self.materials.len() - 1
    }

    /// Adds `mesh` wearing material `material` and a node showing it; returns the node.
    /// With `tangents`, the mesh carries the tangents a normal texture needs.
    pub fn strand_node(
        &mut self,
        mesh: &LevelMesh,
        name: &str,
        material: usize,
        encoding: Encoding,
        tangents: bool,
    ) -> usize {
        let v = &mesh.vertices;
        let (position, transform) = match encoding {
            Encoding::Float => (self.floats(v.iter().map(|x| x.position), true), None),
            Encoding::Quantized | Encoding::Meshopt => {
                let (accessor, min, extent) = self.positions_u16(mesh);
                (accessor, Some((min, extent)))
            }
        };
        let quantized = encoding != Encoding::Float;
        if encoding == Encoding::Meshopt {
            self.compress = true;
            self.uses("EXT_meshopt_compression", true);
        }
        let normal = if quantized {
            self.unit_i8(v.iter().map(|x| x.normal))
        } else {
            self.floats(v.iter().map(|x| x.normal), false)
        };
        let uv = self.unorm16_or_floats(v.iter().map(|x| x.uv), quantized);
        let color = self.unorm16_or_floats(v.iter().map(|x| x.color), quantized);
        let wind = self.unorm16_or_floats(v.iter().map(|x| [x.wind]), quantized);
        let rank = self.floats(v.iter().map(|x| [x.rank]), false);
        let indices = self.indices(&mesh.indices);
        if quantized {
            self.uses("KHR_mesh_quantization", true);
        }
        let mut attributes = json!({
            "POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv,
            "COLOR_0": color, "_WIND": wind, "_RANK": rank,
        });
        if tangents {
            let t = uv_tangents(
                &v.iter().map(|x| x.position).collect::<Vec<_>>(),
                &v.iter().map(|x| x.normal).collect::<Vec<_>>(),
                &v.iter().map(|x| x.uv).collect::<Vec<_>>(),
                &mesh.indices,
            );
            attributes["TANGENT"] = json!(if quantized {
                self.signed_i8(t.into_iter())
            } else {
                self.floats(t.into_iter(), false)
            });
        }
        let m = self.mesh(json!({"name": name, "primitives": [{
            "attributes": attributes,
            "indices": indices,
            "material": material,
            "mode": 4,
        }]}));
        let mut node = json!({"mesh": m, "name": name});
        if let Some((min, extent)) = transform {
            node["translation"] = json!(min);
            node["scale"] = json!(extent);
        }
        self.node(node)
    }

    /// A flat `cells × cells` grid over one repeat, Y up, centred on the origin, with UVs
    /// over the repeat (v down the image, as the maps run); returns its node.
    pub fn grid_node(&mut self, repeat_m: f32, cells: u32, material: usize) -> usize {
        let n = cells as usize + 1;
        let mut positions = Vec::with_capacity(n * n);
        let mut uvs = Vec::with_capacity(n * n);
        for j in 0..n {
            for i in 0..n {
                let (u, v) = (i as f32 / cells as f32, j as f32 / cells as f32);
                positions.push([(u - 0.5) * repeat_m, 0.0, (v - 0.5) * repeat_m]);
                uvs.push([u, v]);
            }
        }
        let mut indices = Vec::with_capacity(6 * (n - 1) * (n - 1));
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                let a = (j * n + i) as u32;
                let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
                // Counter-clockwise seen from above (+Y).
                indices.extend([a, c, b, b, c, d]);
            }
        }
        let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
        let tangents = uv_tangents(&positions, &normals, &uvs, &indices);
        let position = self.floats(positions.iter().copied(), true);
        let normal = self.floats(normals.into_iter(), false);
        let tangent = self.floats(tangents.into_iter(), false);
        let uv = self.floats(uvs.into_iter(), false);
        let indices = self.indices(&indices);
        let m = self.mesh(json!({"name": "ground", "primitives": [{
            "attributes": {
                "POSITION": position, "NORMAL": normal, "TANGENT": tangent, "TEXCOORD_0": uv,
            },
            "indices": indices,
            "material": material,
            "mode": 4,
        }]}));
        self.node(json!({"mesh": m, "name": "ground"}))
    }

    /// Float vectors of `N` components, with their bounds when `bounds`.
    fn floats<const N: usize>(
        &mut self,
        values: impl Iterator<Item = [f32; N]>,
        bounds: bool,
    ) -> usize {
        let values: Vec<[f32; N]> = values.collect();
        let bytes: Vec<u8> = values
            .iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let view = self.view(&bytes, 4 * N, VERTICES);
        let range = bounds.then(|| min_max(&values));
        self.accessor(view, component::FLOAT, false, values.len(), kind(N), range)
    }

    /// Values in `[0, 1]` as 16-bit normalised integers (each element padded to four
    /// bytes), or floats when `quantized` is off or a value lies outside.
    fn unorm16_or_floats<const N: usize>(
        &mut self,
        values: impl Iterator<Item = [f32; N]>,
        quantized: bool,
    ) -> usize {
        let values: Vec<[f32; N]> = values.collect();
        let inside = values.iter().flatten().all(|x| (0.0..=1.0).contains(x));
        if !quantized || !inside {
            return self.floats(values.into_iter(), false);
        }
        let stride = (2 * N).next_multiple_of(4);
        let mut bytes = Vec::with_capacity(values.len() * stride);
        for v in &values {
            for x in v {
                bytes.extend(unorm16(*x).to_le_bytes());
            }
            bytes.resize(bytes.len() + stride - 2 * N, 0);
        }
        let view = self.view(&bytes, stride, VERTICES);
        self.accessor(
            view,
            component::UNSIGNED_SHORT,
            true,
            values.len(),
            kind(N),
            None,
        )
    }

    /// Four components in `[-1, 1]` as 8-bit signed normalised integers.
    fn signed_i8(&mut self, values: impl Iterator<Item = [f32; 4]>) -> usize {
        let mut count = 0;
        let mut bytes = Vec::new();
        for t in values {
            bytes.extend(t.map(|x| (x.clamp(-1.0, 1.0) * 127.0).round() as i8 as u8));
            count += 1;
        }
        let view = self.view(&bytes, 4, VERTICES);
        self.accessor(view, component::BYTE, true, count, "VEC4", None)
    }

    /// Unit vectors as 8-bit signed normalised integers, padded to four bytes.
    fn unit_i8(&mut self, values: impl Iterator<Item = [f32; 3]>) -> usize {
        let mut count = 0;
        let mut bytes = Vec::new();
        for n in values {
            for x in n {
                bytes.push((x.clamp(-1.0, 1.0) * 127.0).round() as i8 as u8);
            }
            bytes.push(0);
            count += 1;
        }
        let view = self.view(&bytes, 4, VERTICES);
        self.accessor(view, component::BYTE, true, count, "VEC3", None)
    }

    /// Positions as 16-bit normalised integers over the mesh's bounds; returns the
    /// accessor, the bounds' minimum and their extent (what the node's translation and
    /// scale restore).
    fn positions_u16(&mut self, mesh: &LevelMesh) -> (usize, [f32; 3], [f32; 3]) {
        let positions: Vec<[f32; 3]> = mesh.vertices.iter().map(|v| v.position).collect();
        let (min, max) = min_max(&positions);
        let min = [min[0], min[1], min[2]];
        // A flat mesh still gets a scale a node may have (zero is degenerate).
        let extent: [f32; 3] = std::array::from_fn(|k| (max[k] - min[k]).max(1e-6));
        let mut bytes = Vec::with_capacity(positions.len() * 8);
        let (mut lo, mut hi) = ([u16::MAX; 3], [0u16; 3]);
        for p in &positions {
            for k in 0..3 {
                let q = unorm16((p[k] - min[k]) / extent[k]);
                lo[k] = lo[k].min(q);
                hi[k] = hi[k].max(q);
                bytes.extend(q.to_le_bytes());
            }
            bytes.extend([0, 0]);
        }
        let view = self.view(&bytes, 8, VERTICES);
        let bounds = (!positions.is_empty()).then(|| {
            (
                lo.iter().map(|&x| f32::from(x)).collect(),
                hi.iter().map(|&x| f32::from(x)).collect(),
            )
        });
        let accessor = self.accessor(
            view,
            component::UNSIGNED_SHORT,
            true,
            positions.len(),
            "VEC3",
            bounds,
        );
        (accessor, min, extent)
    }

    fn indices(&mut self, indices: &[u32]) -> usize {
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&bytes, 4, INDICES);
        self.accessor(
            view,
            component::UNSIGNED_INT,
            false,
            indices.len(),
            "SCALAR",
            None,
        )
    }
}

/// Per-vertex tangents for a normal texture: the direction `u` grows along the surface,
/// made perpendicular to the normal, and in `w` the handedness that makes
/// `cross(normal, tangent) · w` point up the image (toward smaller `v`), where a normal
/// map's green points (glTF's convention and the maps' own).
fn uv_tangents(
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    uvs: &[[f32; 2]],
    indices: &[u32],
) -> Vec<[f32; 4]> {
    use glam::Vec3;
    let mut du = vec![Vec3::ZERO; positions.len()];
    let mut dv = vec![Vec3::ZERO; positions.len()];
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
        let (e1, e2) = (
            Vec3::from(positions[b]) - Vec3::from(positions[a]),
            Vec3::from(positions[c]) - Vec3::from(positions[a]),
        );
        let (u1, v1) = (uvs[b][0] - uvs[a][0], uvs[b][1] - uvs[a][1]);
        let (u2, v2) = (uvs[c][0] - uvs[a][0], uvs[c][1] - uvs[a][1]);
        let det = u1 * v2 - u2 * v1;
        if det.abs() < 1e-12 {
            continue;
        }
        let (along_u, along_v) = ((e1 * v2 - e2 * v1) / det, (e2 * u1 - e1 * u2) / det);
        for i in [a, b, c] {
            du[i] += along_u;
            dv[i] += along_v;
        }
    }
    (0..positions.len())
        .map(|i| {
            let n = Vec3::from(normals[i]);
            let t = (du[i] - n * n.dot(du[i])).normalize_or(n.any_orthonormal_vector());
            let w = if n.cross(t).dot(-dv[i]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            [t.x, t.y, t.z, w]
        })
        .collect()
}

/// `x` in `[0, 1]` to the nearest of 65 536 steps.
fn unorm16(x: f32) -> u16 {
    (x.clamp(0.0, 1.0) * 65535.0).round() as u16
}

fn kind(components: usize) -> &'static str {
    match components {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        _ => "VEC4",
    }
}

/// Per-component bounds.
fn min_max<const N: usize>(values: &[[f32; N]]) -> (Vec<f32>, Vec<f32>) {
    let mut min = vec![f32::INFINITY; N];
    let mut max = vec![f32::NEG_INFINITY; N];
    for v in values {
        for k in 0..N {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    if values.is_empty() {
        (vec![0.0; N], vec![0.0; N])
    } else {
        (min, max)
    }
}
