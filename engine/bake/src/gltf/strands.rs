//! Strand, card and ground meshes in a [`Glb`], stored as floats or quantised, and the
//! materials they wear.

use super::GroundMaps;
use super::builder::{Glb, INDICES, component};
use super::streams::{Stream, min_max};
use serde_json::{Value, json};
use std::ops::Range;
use tuft_strands::mesh::LevelMesh;

/// How vertex attributes are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// 32-bit floats throughout.
    Float,
    /// KHR_mesh_quantization: positions as 16-bit integers on a cubic grid over the
    /// mesh's bounds (an error of at most half a step, the widest extent / 131070: 0.015
    /// mm over a 2 m repeat),
    /// normals as 8-bit (within 0.5°), texture coordinates and colours in `[0, 1]` as
    /// 16-bit normalised integers; `_WIND` and `_RANK` as floats (the same four bytes a
    /// padded 16-bit scalar takes, and kept by every importer).
    #[default]
    Quantized,
    /// As [`Encoding::Quantized`], every buffer view then compressed by meshoptimizer
    /// (EXT_meshopt_compression, lossless over the quantised bytes), the smallest set:
    /// strand levels drop `_WIND` (it is their `TEXCOORD_0.x` squared) and lay their
    /// positions on a grid of [`GRID_STEPS_PER_WIDTH`] steps to a (widened) strand's
    /// width, where that is coarser.
    Meshopt,
}

impl Encoding {
    /// Every encoding, by the name the command line takes.
    pub const NAMES: [(&str, Self); 3] = [
        ("none", Self::Float),
        ("quantize", Self::Quantized),
        ("meshopt", Self::Meshopt),
    ];

    /// The encoding's name on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        crate::targets::name_of(&Self::NAMES, self)
    }

    /// What an author should know before baking with this encoding, if anything: where
    /// it will not land.
    #[must_use]
    pub fn note(self) -> Option<&'static str> {
        (self == Self::Meshopt).then_some(
            "EXT_meshopt_compression is required by the meshes, and Blender's glTF importer \
             refuses it (as do engines without a meshopt decoder); bake with --compress \
             quantize for Blender",
        )
    }

    /// The encoding called `name`, or a message listing the valid names.
    ///
    /// # Errors
    /// An unknown name.
    pub fn from_name(name: &str) -> Result<Self, String> {
        crate::targets::by_name(&Self::NAMES, name, "compression")
    }
}

/// What a mesh wears. Every material carries a name unique in its set
/// (`<material>_<layer>_strands`, `<material>_<layer>_cards`, `<material>_ground`):
/// importers that keep one material per name (Godot writes one resource per name) would
/// otherwise dress every layer's cards in the first layer's atlas.
#[derive(Clone, Debug, PartialEq)]
pub enum StrandMaterial {
    /// Strands: their vertex colour; double-sided for ribbons.
    Strands {
        /// The material's name, unique in the set.
        name: String,
        /// Whether both faces are drawn (ribbons).
        double_sided: bool,
    },
    /// Cards: the atlas at these relative URIs, alpha-masked at `alpha_cutoff`.
    Cards {
        /// The material's name, unique in the set.
        name: String,
        /// The colour atlas (sRGB, coverage in alpha).
        color: String,
        /// The normal atlas.
        normal: String,
        /// Alpha below this is cut.
        alpha_cutoff: f32,
    },
    /// The ground: the PBR maps.
    Ground {
        /// The material's name, unique in the set.
        name: String,
        /// The maps it wears.
        maps: GroundMaps,
    },
}

/// One strand level to write: its mesh, the name of its mesh and node, and the coarsest
/// grid its positions may lie on under meshopt ([`level_grid_m`]; 0: the bounds' finest).
#[derive(Clone, Copy, Debug)]
pub struct StrandLevel<'a> {
    /// The level's mesh.
    pub mesh: &'a LevelMesh,
    /// Its mesh's and node's name.
    pub name: &'a str,
    /// The coarsest position grid it may take, in metres.
    pub grid_m: f32,
}

/// Grid steps to a strand's width under meshopt: a position is then within 1/64 of the
/// narrowest strand's width of where it was on each axis, as fine a share of a pixel at
/// every level (a level's strands are widened as much as the distance it is drawn from
/// grows).
pub const GRID_STEPS_PER_WIDTH: f32 = 32.0;

/// The grid a strand level's positions may lie on: `widen` times the layer's narrowest
/// strand width over [`GRID_STEPS_PER_WIDTH`]; 0 (the bounds' finest) for no width.
#[must_use]
pub fn level_grid_m(narrowest_width_m: f32, widen: f32) -> f32 {
    let grid = widen * narrowest_width_m / GRID_STEPS_PER_WIDTH;
    if grid.is_finite() && grid > 0.0 {
        grid
    } else {
        0.0
    }
}

/// The strands' roughness: their shading has no roughness input of its own.
const STRAND_ROUGHNESS: f32 = 0.8;

impl Glb {
    /// Adds `material`; returns its index.
    pub fn material(&mut self, material: &StrandMaterial) -> usize {
        let value = match material {
            StrandMaterial::Strands { name, double_sided } => json!({
                "name": name,
                "doubleSided": double_sided,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
                    "metallicFactor": 0.0,
                    "roughnessFactor": STRAND_ROUGHNESS,
                },
            }),
            StrandMaterial::Cards {
                name,
                color,
                normal,
                alpha_cutoff,
            } => {
                let (c, n) = (self.texture(color), self.texture(normal));
                json!({
                    "name": name,
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
            StrandMaterial::Ground { name, maps } => {
                let c = self.texture(&maps.base_color);
                let n = self.texture(&maps.normal);
                let orm = self.texture(&maps.orm);
                json!({
                    "name": name,
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
    /// With `tangents`, the mesh carries the tangents a normal texture needs (and texture
    /// coordinates fine enough to read an atlas: cards); without, it is a strand level,
    /// which under meshopt carries no `_WIND` (see [`Glb::strand_levels`]). Under
    /// meshopt its positions lie on a grid no finer than `grid_m`. The mesh is cut into primitives
    /// of at most 65 535 vertices, so every index is 16-bit; each attribute is one buffer
    /// view that the primitives' accessors share.
    pub fn strand_node(
        &mut self,
        mesh: &LevelMesh,
        name: &str,
        material: usize,
        encoding: Encoding,
        tangents: bool,
        grid_m: f32,
    ) -> usize {
        let quantized = self.encoded(encoding);
        let (position, transform) = self.position_stream(mesh, quantized, grid_m);
        let mut streams = vec![("POSITION", position)];
        streams.extend(self.strand_streams(mesh, encoding, tangents));
        if tangents {
            let v = &mesh.vertices;
            let t = uv_tangents(
                &v.iter().map(|x| x.position).collect::<Vec<_>>(),
                &v.iter().map(|x| x.normal).collect::<Vec<_>>(),
                &v.iter().map(|x| x.uv).collect::<Vec<_>>(),
                &mesh.indices,
            );
            streams.push((
                "TANGENT",
                if quantized {
                    self.signed_i8(t.into_iter())
                } else {
                    self.floats(t.into_iter())
                },
            ));
        }
        let primitives = self.whole(&streams, &mesh.indices, mesh.vertices.len(), material);
        self.mesh_node(name, primitives, transform)
    }

    /// Adds a layer's strand levels, finest first, wearing `material`, and a node showing
    /// each; returns the nodes. A coarser level whose strands are the finest's first
    /// ones ([`tuft_strands::mesh::level_mesh`] lays them out so, given the layer's cuts)
    /// stores only its widened positions: its other attributes and its indices are
    /// accessors over the finest level's views. A level that is not such a prefix is
    /// stored whole, and an empty one is a named node alone.
    ///
    /// Under meshopt, where every byte counts and no importer that keeps custom
    /// attributes reads the file anyway (Blender refuses the extension), the levels carry
    /// no `_WIND` (a strand's wind weight is its `TEXCOORD_0.x` squared, as the manifest
    /// says), and each level's positions lie on a grid as coarse as its `grid_m`
    /// ([`level_grid_m`]): meshoptimizer's byte-wise codec spends bits on every step of
    /// a finer one.
    pub fn strand_levels(
        &mut self,
        levels: &[StrandLevel<'_>],
        material: usize,
        encoding: Encoding,
    ) -> Vec<usize> {
        let Some(first) = levels.first().map(|l| l.mesh) else {
            return Vec::new();
        };
        let quantized = self.encoded(encoding);
        let meshopt = encoding == Encoding::Meshopt;
        let mut shared = None;
        let mut nodes = Vec::with_capacity(levels.len());
        for level in levels {
            let (mesh, name) = (level.mesh, level.name);
            let grid_m = if meshopt { level.grid_m } else { 0.0 };
            if mesh.indices.is_empty() || mesh.vertices.is_empty() {
                nodes.push(self.node(json!({ "name": name })));
                continue;
            }
            if !mesh.is_prefix_of(first) {
                nodes.push(self.strand_node(mesh, name, material, encoding, false, grid_m));
                continue;
            }
            let (streams, indexed) = shared.get_or_insert_with(|| {
                let streams = self.strand_streams(first, encoding, false);
                let indexed = self.indexed(&first.indices, first.vertices.len());
                (streams, indexed)
            });
            let (position, transform) = self.position_stream(mesh, quantized, grid_m);
            let mut all = vec![("POSITION", &position)];
            all.extend(streams.iter().map(|(n, s)| (*n, s)));
            let upto = (mesh.indices.len(), mesh.vertices.len());
            let primitives = self.primitives(&all, indexed, upto, material);
            nodes.push(self.mesh_node(name, primitives, transform));
        }
        nodes
    }

    /// Whether attributes are quantised under `encoding`, noting the extensions it uses.
    fn encoded(&mut self, encoding: Encoding) -> bool {
        if encoding == Encoding::Meshopt {
            self.compress = true;
            self.uses("EXT_meshopt_compression", true);
        }
        let quantized = encoding != Encoding::Float;
        if quantized {
            self.uses("KHR_mesh_quantization", true);
        }
        quantized
    }

    /// `mesh`'s positions, and the translation and scale that restore metres where they
    /// are quantised.
    fn position_stream(
        &mut self,
        mesh: &LevelMesh,
        quantized: bool,
        grid_m: f32,
    ) -> (Stream, Option<Placement>) {
        if quantized {
            let (stream, min, extent) = self.positions_u16(mesh, grid_m);
            (stream, Some((min, extent)))
        } else {
            (self.floats(mesh.vertices.iter().map(|x| x.position)), None)
        }
    }

    /// Every attribute of a strand mesh but its positions, stored as `encoding` says;
    /// with `atlas` (cards), texture coordinates that read an atlas (16 bits where
    /// quantised, not 8). `_WIND` on cards always, on strands but under meshopt (where it
    /// is their `TEXCOORD_0.x` squared; see [`Glb::strand_levels`]).
    fn strand_streams(
        &mut self,
        mesh: &LevelMesh,
        encoding: Encoding,
        atlas: bool,
    ) -> Vec<(&'static str, Stream)> {
        let quantized = encoding != Encoding::Float;
        let wind = atlas || encoding != Encoding::Meshopt;
        let v = &mesh.vertices;
        let normal = if quantized {
            self.unit_i8(v.iter().map(|x| x.normal))
        } else {
            self.floats(v.iter().map(|x| x.normal))
        };
        let mut streams = vec![
            ("NORMAL", normal),
            // Along the strand and across it, 8 bits (within 1/510) where no atlas is
            // read: they compress to a third of 16.
            (
                "TEXCOORD_0",
                if atlas {
                    self.unorm16_or_floats(v.iter().map(|x| x.uv), quantized)
                } else {
                    self.unorm8_or_floats(v.iter().map(|x| x.uv), quantized)
                },
            ),
            (
                "COLOR_0",
                self.unorm8_or_floats(v.iter().map(|x| x.color), quantized),
            ),
            ("_RANK", self.floats(v.iter().map(|x| [x.rank]))),
        ];
        if wind {
            // A float whatever the encoding: Blender's importer drops 16-bit custom
            // attributes and fails on an 8-bit normalised scalar (it makes an integer
            // attribute and cannot fill it with the normalised values).
            streams.push(("_WIND", self.floats(v.iter().map(|x| [x.wind]))));
        }
        streams
    }

    /// The primitives drawing all of `indices` (over `vertex_count` vertices) from
    /// `streams`, wearing `material`.
    fn whole(
        &mut self,
        streams: &[(&str, Stream)],
        indices: &[u32],
        vertex_count: usize,
        material: usize,
    ) -> Vec<Value> {
        let indexed = self.indexed(indices, vertex_count);
        let streams: Vec<(&str, &Stream)> = streams.iter().map(|(n, s)| (*n, s)).collect();
        self.primitives(&streams, &indexed, (indices.len(), vertex_count), material)
    }

    /// A mesh called `name` of `primitives`, and the node showing it (placed by
    /// `transform` where positions are quantised); returns the node.
    fn mesh_node(
        &mut self,
        name: &str,
        primitives: Vec<Value>,
        transform: Option<Placement>,
    ) -> usize {
        let m = self.mesh(json!({"name": name, "primitives": Value::Array(primitives)}));
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
        let streams = [
            ("POSITION", self.floats(positions.iter().copied())),
            ("NORMAL", self.floats(normals.into_iter())),
            ("TANGENT", self.floats(tangents.into_iter())),
            ("TEXCOORD_0", self.floats(uvs.into_iter())),
        ];
        let primitives = self.whole(&streams, &indices, positions.len(), material);
        self.mesh_node("ground", primitives, None)
    }

    /// `indices` (a triangle list over `vertex_count` vertices) cut into pieces of at
    /// most [`PIECE_VERTICES`] vertices with 16-bit indices, each counted from its
    /// piece's first vertex, written as one buffer view.
    fn indexed(&mut self, indices: &[u32], vertex_count: usize) -> Indexed {
        let narrow = pieces(indices, vertex_count, PIECE_VERTICES);
        let (size, component) = if narrow.is_some() {
            (2, component::UNSIGNED_SHORT)
        } else {
            (4, component::UNSIGNED_INT)
        };
        // Where the triangles cannot be cut, one primitive with 32-bit indices.
        let pieces = narrow.unwrap_or_else(|| {
            vec![Piece {
                indices: 0..indices.len(),
                vertices: 0..vertex_count,
            }]
        });
        let mut index_bytes = Vec::with_capacity(size * indices.len());
        for p in &pieces {
            let base = p.vertices.start as u32;
            for &i in &indices[p.indices.clone()] {
                if size == 4 {
                    index_bytes.extend((i - base).to_le_bytes());
                } else {
                    // `pieces` keeps a piece's indices within 2^16 of its first vertex.
                    index_bytes.extend(((i - base) as u16).to_le_bytes());
                }
            }
        }
        let view = self.view(&index_bytes, size, INDICES);
        Indexed {
            view,
            size,
            component,
            pieces,
        }
    }

    /// The primitives drawing the first `upto` (indices, vertices) of `indexed` over the
    /// vertex `streams` (named by attribute), wearing `material`: its pieces, the last
    /// cut short where `upto` ends inside it, their accessors over the shared views.
    fn primitives(
        &mut self,
        streams: &[(&str, &Stream)],
        indexed: &Indexed,
        (index_count, vertex_count): (usize, usize),
        material: usize,
    ) -> Vec<Value> {
        let mut primitives = Vec::with_capacity(indexed.pieces.len());
        for p in &indexed.pieces {
            let indices = p.indices.start..p.indices.end.min(index_count);
            let vertices = p.vertices.start..p.vertices.end.min(vertex_count);
            if indices.is_empty() || vertices.is_empty() {
                break;
            }
            let mut attributes = serde_json::Map::new();
            for (name, stream) in streams {
                let a = self.stream_accessor(stream, vertices.clone());
                attributes.insert((*name).to_owned(), json!(a));
            }
            let indices = self.accessor(
                indexed.view,
                indexed.size * indices.start,
                indexed.component,
                false,
                indices.len(),
                "SCALAR",
                None,
            );
            primitives.push(json!({
                "attributes": attributes,
                "indices": indices,
                "material": material,
                "mode": 4,
            }));
        }
        primitives
    }

    /// The accessor reading vertices `range` of `stream` (with their bounds where the
    /// stream keeps them: positions).
    fn stream_accessor(&mut self, stream: &Stream, range: Range<usize>) -> usize {
        let bounds = stream.stored.as_ref().map(|v| min_max(&v[range.clone()]));
        self.accessor(
            stream.view,
            range.start * stream.stride,
            stream.component,
            stream.normalized,
            range.len(),
            stream.kind,
            bounds,
        )
    }
}

/// Most vertices one primitive reads, so that its indices fit 16 bits without reaching
/// 65 535 (the primitive-restart value, which glTF forbids in indices).
const PIECE_VERTICES: usize = 65_535;

/// One primitive's share of a mesh: a run of triangles and the vertices they read.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    indices: Range<usize>,
    vertices: Range<usize>,
}

/// Where a node puts quantised positions back in metres: its translation (the bounds'
/// minimum) and scale (their extent).
type Placement = ([f32; 3], [f32; 3]);

/// A mesh's indices as written: their view, element size and type, and the pieces
/// that primitives draw.
struct Indexed {
    view: usize,
    size: usize,
    component: u32,
    pieces: Vec<Piece>,
}

/// `indices` (a triangle list over `vertex_count` vertices) cut into runs of whole
/// triangles, each with the vertices after the run before it, so that every index of a
/// run is less than `limit` from its run's first vertex. A run ends only where no later
/// triangle reads a vertex before the cut (between strands, for a strand mesh). `None`
/// where no such cut keeps a run within `limit`.
fn pieces(indices: &[u32], vertex_count: usize, limit: usize) -> Option<Vec<Piece>> {
    let tris = indices.len() / 3;
    let span = |t: usize| {
        let tri = &indices[3 * t..3 * t + 3];
        let lo = tri.iter().min().map_or(0, |&i| i as usize);
        let hi = tri.iter().max().map_or(0, |&i| i as usize + 1);
        (lo, hi)
    };
    // The lowest vertex read from each triangle on.
    let mut later_lo = vec![usize::MAX; tris + 1];
    for t in (0..tris).rev() {
        later_lo[t] = later_lo[t + 1].min(span(t).0);
    }
    let mut out = Vec::new();
    let (mut start, mut first, mut reach) = (0, 0, 0);
    // The last clean cut of this run: before which triangle, at which vertex.
    let mut cut: Option<(usize, usize)> = None;
    let mut t = 0;
    while t < tris {
        if t > start && reach <= later_lo[t] {
            cut = Some((t, reach));
        }
        let hi = span(t).1;
        if hi.max(reach) - first > limit {
            let (c, split) = cut.take()?;
            out.push(Piece {
                indices: 3 * start..3 * c,
                vertices: first..split,
            });
            (start, first, reach, t) = (c, split, split, c);
            continue;
        }
        reach = reach.max(hi);
        t += 1;
    }
    out.push(Piece {
        indices: 3 * start..3 * tris,
        vertices: first..vertex_count.max(reach),
    });
    Some(out)
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

#[cfg(test)]
mod tests {
    use super::{Piece, pieces};

    /// `n` two-triangle quads, each reading its own four vertices, in order.
    fn quads(n: u32) -> Vec<u32> {
        (0..n)
            .flat_map(|q| [0, 1, 2, 2, 1, 3].map(|i| 4 * q + i))
            .collect()
    }

    #[test]
    fn pieces_hold_whole_strands_within_the_limit() {
        let indices = quads(5);
        let p = pieces(&indices, 22, 8).unwrap();
        let expected = [(0..12, 0..8), (12..24, 8..16), (24..30, 16..22)];
        assert_eq!(
            p,
            expected.map(|(indices, vertices)| Piece { indices, vertices })
        );
        // Every index of a piece lies in its vertex range, the last takes the rest.
        for piece in &p {
            let inside = |i: &u32| piece.vertices.contains(&(*i as usize));
            assert!(indices[piece.indices.clone()].iter().all(inside));
        }
        assert_eq!(pieces(&indices, 20, 1 << 16).unwrap().len(), 1);
        assert_eq!(pieces(&[], 3, 8).unwrap()[0].vertices, 0..3);
    }

    #[test]
    fn triangles_that_cannot_be_cut_are_refused() {
        // Wider than the limit.
        assert!(pieces(&[0, 1, 20, 2, 3, 4], 21, 8).is_none());
        // No clean cut: the last triangle reaches back to the first vertex.
        assert!(pieces(&[0, 1, 7, 8, 9, 10, 11, 12, 2], 13, 8).is_none());
        // A strand whose last triangle wraps to its first vertex (a tube) is cut whole.
        let tubes: Vec<u32> = (0..4)
            .flat_map(|k| [0, 1, 2, 2, 3, 0].map(|i| 4 * k + i))
            .collect();
        let p = pieces(&tubes, 16, 9).unwrap();
        assert_eq!(
            p.iter().map(|p| p.vertices.clone()).collect::<Vec<_>>(),
            [0..8, 8..16]
        );
    }
}
