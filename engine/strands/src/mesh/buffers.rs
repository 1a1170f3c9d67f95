//! What meshing produces: a tile's vertices with one strand's triangles ([`TileMesh`]),
//! and one level of a whole surface merged into a single buffer pair ([`LevelMesh`]).

use super::packed::side_of;
use super::{Frame, PackedVertex, Profile, StrandVertex};
use bytemuck::Zeroable;

/// A tile's strands as one vertex buffer, and their triangles as one strand's pattern.
///
/// Every strand of a tile (every card of a card tile) has the same vertices and the
/// same triangles, so the index buffer is `pattern` once a strand, each time counted
/// from that strand's first vertex ([`TileMesh::indices`]); it is not stored.
///
/// A ribbon's mesh is `paired`: it stores one vertex a centreline point, and each
/// stored vertex stands for two drawn ones, its sides ([`PackedVertex::side`]). Indices
/// and [`TileMesh::vertex`] number drawn vertices: drawn vertex `2k + s` is side `s` of
/// stored vertex `k` (a shader reads stored vertex `index / 2`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileMesh {
    /// The box the vertices' positions are packed in.
    pub frame: Frame,
    /// Vertices as stored, strand after strand in rank order.
    pub vertices: Vec<PackedVertex>,
    /// One strand's triangles: indices of drawn vertices, counted from its first.
    pub pattern: Vec<u32>,
    /// Whether each stored vertex is drawn as two, its sides (ribbons).
    pub paired: bool,
    /// Each strand's rank, in order (to find a level's range).
    pub ranks: Vec<f32>,
}

impl TileMesh {
    /// The vertex buffer's bytes, exactly as a GPU reads them.
    #[must_use]
    pub fn vertex_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.vertices)
    }

    /// An empty mesh whose positions will be packed in `frame`.
    #[must_use]
    pub fn in_frame(frame: Frame) -> Self {
        Self {
            frame,
            ..Self::default()
        }
    }

    /// Drawn vertex `i` in floats (what index `i` draws).
    #[must_use]
    pub fn vertex(&self, i: usize) -> StrandVertex {
        if self.paired {
            self.vertices[i / 2].side(&self.frame, i % 2 == 1)
        } else {
            self.vertices[i].unpack(&self.frame)
        }
    }

    /// Drawn vertices for each stored one: 2 where the mesh is paired, else 1.
    #[must_use]
    pub fn drawn_per_stored(&self) -> usize {
        1 + usize::from(self.paired)
    }

    /// How many vertices the mesh draws.
    #[must_use]
    pub fn drawn_vertices(&self) -> usize {
        self.vertices.len() * self.drawn_per_stored()
    }

    /// Empties the mesh, keeping its buffers (and its frame and pattern).
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.ranks.clear();
    }

    /// How many strands the mesh holds.
    #[must_use]
    pub fn strands(&self) -> usize {
        self.ranks.len()
    }

    /// Vertices stored a strand (0 for an empty mesh).
    #[must_use]
    pub fn vertices_per_strand(&self) -> usize {
        self.vertices
            .len()
            .checked_div(self.ranks.len())
            .unwrap_or(0)
    }

    /// Vertices drawn a strand: what its indices count (0 for an empty mesh).
    #[must_use]
    pub fn drawn_per_strand(&self) -> usize {
        self.vertices_per_strand() * self.drawn_per_stored()
    }

    /// How many indices the whole mesh draws.
    #[must_use]
    pub fn index_count(&self) -> usize {
        self.ranks.len() * self.pattern.len()
    }

    /// The triangle indices of strands `strands`, counted from the first one's first
    /// vertex: what an index buffer of those strands alone holds.
    ///
    /// # Panics
    /// Where `strands` reaches past the mesh's strands.
    #[must_use]
    pub fn indices_of(&self, strands: std::ops::Range<usize>) -> Vec<u32> {
        assert!(strands.end <= self.ranks.len(), "strands of the mesh");
        let mut out = vec![0; strands.len() * self.pattern.len()];
        strand_indices_into(self.drawn_per_strand(), &self.pattern, 0, &mut out);
        out
    }

    /// Every triangle index, numbering drawn vertices ([`TileMesh::vertex`]).
    #[must_use]
    pub fn indices(&self) -> Vec<u32> {
        self.indices_of(0..self.ranks.len())
    }

    /// Keeps the first `n` strands (a rank prefix: a coarser level) of a mesh of
    /// `profile`, dropping the rest.
    pub fn truncate(&mut self, n: usize, profile: Profile) {
        let n = n.min(self.ranks.len());
        self.vertices.truncate(n * profile.stored_per_strand());
        self.ranks.truncate(n);
    }

    /// Appends `other`, a mesh of the strands that follow this one's; an empty mesh takes
    /// `other`'s frame, pattern and pairing.
    ///
    /// # Panics
    /// Where both hold vertices packed in different frames, or strands of different
    /// patterns or pairing.
    pub fn append(&mut self, other: &Self) {
        if self.vertices.is_empty() {
            self.frame = other.frame;
        }
        if self.ranks.is_empty() {
            self.pattern.clone_from(&other.pattern);
            self.paired = other.paired;
        }
        assert!(
            other.vertices.is_empty() || other.frame == self.frame,
            "meshes appended in one frame"
        );
        assert!(
            other.ranks.is_empty()
                || (other.pattern == self.pattern && other.paired == self.paired),
            "meshes appended with one pattern"
        );
        self.vertices.extend_from_slice(&other.vertices);
        self.ranks.extend_from_slice(&other.ranks);
    }

    /// The number of indices level `keep` draws: the prefix of strands with rank < keep.
    #[must_use]
    pub fn level_indices(&self, keep: f32, profile: Profile) -> usize {
        self.ranks.partition_point(|&r| r < keep) * profile.indices_per_strand()
    }
}

/// One level of a whole surface as a single buffer pair, the widening applied: what a
/// game without a level-aware shader draws, and what the baked glTF meshes hold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelMesh {
    /// Vertices with the level's widening applied to `position` and `across`.
    pub vertices: Vec<StrandVertex>,
    /// Triangle indices.
    pub indices: Vec<u32>,
}

impl LevelMesh {
    /// The vertex buffer's bytes, exactly as a GPU reads them.
    #[must_use]
    pub fn vertex_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.vertices)
    }

    /// The index buffer's bytes.
    #[must_use]
    pub fn index_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.indices)
    }

    /// Whether this mesh is `finer`'s first strands ([`level_mesh`] lays a layer's
    /// levels out so): the same first indices, each reading a vertex of this mesh, and
    /// vertex for vertex everything but the widened position alike.
    #[must_use]
    pub fn is_prefix_of(&self, finer: &Self) -> bool {
        let unwidened = |v: &StrandVertex| (v.normal, v.uv, v.color, v.wind, v.rank);
        std::ptr::eq(self, finer)
            || (finer.indices.starts_with(&self.indices)
                && self.vertices.len() <= finer.vertices.len()
                && self
                    .vertices
                    .iter()
                    .zip(&finer.vertices)
                    .all(|(a, b)| unwidened(a) == unwidened(b))
                && self
                    .indices
                    .iter()
                    .all(|&i| (i as usize) < self.vertices.len()))
    }
}

/// The strands with rank below `keep` of every tile, widened by `widen`, merged into one
/// mesh: tile after tile, each tile's strands in rank order, within each band of ranks
/// that `cuts` (the layer's level cuts) separate, the lowest band first. Given the
/// layer's cuts, a coarser level's mesh is the finer one's first vertices and indices,
/// all but the widened positions alike, so a baked set stores those once for every
/// level; given none, the mesh is the tiles one after another.
#[must_use]
pub fn level_mesh(
    tiles: &[TileMesh],
    profile: Profile,
    keep: f32,
    widen: f32,
    cuts: &[f32],
) -> LevelMesh {
    let (per_strand, per_strand_indices, stored) = (
        profile.vertices_per_strand(),
        profile.indices_per_strand(),
        profile.stored_per_strand(),
    );
    let band = |r: f32| cuts.iter().filter(|&&c| c <= r).count();
    let mut order: Vec<(usize, usize, usize)> = tiles
        .iter()
        .enumerate()
        .flat_map(|(t, tile)| {
            let kept = tile.ranks.partition_point(|&r| r < keep);
            tile.ranks[..kept]
                .iter()
                .enumerate()
                .map(move |(s, &r)| (band(r), t, s))
        })
        .collect();
    order.sort_unstable();
    let mut out = LevelMesh {
        vertices: vec![StrandVertex::zeroed(); order.len() * per_strand],
        indices: vec![0; order.len() * per_strand_indices],
    };
    // Runs of strands filled over the cores, each strand's vertices unpacked from its
    // tile (one growing buffer copied itself over and over; the lawn's level 0 is 1.7M
    // vertices).
    const RUN: usize = 1024;
    let jobs: Vec<_> = order
        .chunks(RUN)
        .zip(out.vertices.chunks_mut(RUN * per_strand))
        .zip(out.indices.chunks_mut(RUN * per_strand_indices))
        .enumerate()
        .map(|(run, ((strands, vertices), indices))| (run * RUN, strands, vertices, indices))
        .collect();
    crate::par::for_each(
        "tuft level mesh",
        jobs,
        |(first, strands, vertices, indices)| {
            let widened = |v: StrandVertex| {
                let mut w = v;
                for k in 0..3 {
                    w.position[k] += (widen - 1.0) * v.across[k];
                    w.across[k] *= widen;
                }
                w
            };
            let strand_vertices = vertices.chunks_exact_mut(per_strand);
            let strand_indices = indices.chunks_exact_mut(per_strand_indices);
            for (n, ((&(_, t, s), out), idx)) in strands
                .iter()
                .zip(strand_vertices)
                .zip(strand_indices)
                .enumerate()
            {
                let tile = &tiles[t];
                // Each stored vertex unpacked once, a paired one written as its two sides.
                let per = tile.drawn_per_stored();
                let from = &tile.vertices[s * stored..(s + 1) * stored];
                for (v, out) in from.iter().zip(out.chunks_exact_mut(per)) {
                    let v = v.unpack(&tile.frame);
                    if let [left, right] = out {
                        *left = widened(side_of(v, false));
                        *right = widened(side_of(v, true));
                    } else {
                        out[0] = widened(v);
                    }
                }
                let base = u32::try_from((first + n) * per_strand)
                    .expect("vertex numbers fit 32-bit indices");
                strand_indices_into(per_strand, &tile.pattern, base, idx);
            }
        },
    );
    out
}

/// Writes the indices of strands laid one after another into `out` (whole strands: as
/// many as `out` holds patterns), each strand of `vertices_per_strand` vertices drawing
/// `pattern` counted from its own first vertex, every index moved past `base` vertices:
/// a tile's index buffer, a chunk's, or a tile's share of a merged level.
///
/// # Panics
/// Where a vertex's number passes 2³² (more vertices than 32-bit indices reach).
pub fn strand_indices_into(
    vertices_per_strand: usize,
    pattern: &[u32],
    base: u32,
    out: &mut [u32],
) {
    if pattern.is_empty() {
        return;
    }
    for (s, strand) in out.chunks_exact_mut(pattern.len()).enumerate() {
        let first = s
            .checked_mul(vertices_per_strand)
            .and_then(|v| u32::try_from(v).ok())
            .and_then(|v| v.checked_add(base))
            .expect("vertex numbers fit 32-bit indices");
        for (o, &k) in strand.iter_mut().zip(pattern) {
            *o = first + k;
        }
    }
}
