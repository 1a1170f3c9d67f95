//! A strand or card tile on the GPU: its vertices and its roots texture, split into
//! chunks that each fit the device's own limits, and the index buffers they share.
//!
//! A tile's mesh lists its strands in rank order, each with the same vertices and the
//! same triangles, so a level (a rank prefix) is an index prefix. The vertex stage reads
//! a chunk's vertices from a storage buffer as they are stored (a ribbon's one a
//! centreline point, drawn as its two sides). A chunk holds a run of
//! whole strands: its roots texture starts at its first strand, so the shaders'
//! `vertex_index / verts_per_strand` still finds each strand's root, and its indices
//! count from its own first vertex, so every chunk of `n` strands of one shape draws the
//! same `n` strands' indices: one buffer for each shape ([`SharedIndices`]) serves every
//! chunk of every tile. Drawing a prefix draws every chunk it covers, the last one in
//! part: the same triangles in the same order as one buffer would give.

use crate::shaders::TileUniform;
use tuft_strands::mesh::{Frame, PackedVertex, TileMesh, strand_indices_into};
use tuft_strands::placement::Planted;
use wgpu::util::DeviceExt;

/// Texels per strand in a tile's roots texture (RGBA32F): position and u, normal and v,
/// the gradient of u and the curvature, the gradient of v (see `ground_behind` in
/// strands.wgsl).
pub const ROOT_TEXELS: usize = 4;

/// The widest a roots texture is drawn (every adapter takes 2048).
pub(crate) const ROOTS_WIDTH: usize = 2048;

/// One run of whole strands of a tile.
struct Chunk {
    /// The shared indices of at least this chunk's strands ([`SharedIndices`]).
    indices: wgpu::Buffer,
    /// Where each strand (or card) stands: [`ROOT_TEXELS`] texels per strand; the
    /// tile's frame; and the chunk's vertices as stored.
    roots: wgpu::BindGroup,
    /// The tile's strand where this chunk starts, and how many of its strands are drawn
    /// (a tile shrunk to a prefix may draw a chunk in part).
    first: usize,
    n: usize,
}

/// A tile's buffers: the first `n_strands` strands of its mesh, in chunks. A tile grows
/// by whole chunks appended after the last (a planted slice uploads itself alone) and
/// shrinks by dropping chunks from the end.
pub(crate) struct TileBuffers {
    chunks: Vec<Chunk>,
    /// Vertices stored and indices a strand.
    vps: usize,
    ips: usize,
    /// The box the vertices' positions are packed in.
    frame: Frame,
    /// The resident version these buffers hold.
    pub(crate) version: u64,
}

/// How many strands of `vertices_per_strand` stored vertices and `indices_per_strand`
/// indices one chunk may hold under `limits`: its vertex buffer (a storage buffer bound
/// whole), its index buffer and its roots texture each within what the device allows.
#[must_use]
pub fn strands_per_chunk(
    limits: &wgpu::Limits,
    vertices_per_strand: usize,
    indices_per_strand: usize,
) -> usize {
    let max_buffer = limits.max_buffer_size.min(usize::MAX as u64) as usize;
    let max_binding = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        .min(usize::MAX as u64) as usize;
    let by_vertices = max_binding / (vertices_per_strand.max(1) * size_of::<PackedVertex>());
    let by_indices = max_buffer / (indices_per_strand.max(1) * size_of::<u32>());
    let width = ROOTS_WIDTH.min(limits.max_texture_dimension_2d as usize);
    let by_roots = width * limits.max_texture_dimension_2d as usize / ROOT_TEXELS;
    by_vertices.min(by_indices).min(by_roots).max(1)
}

/// What a tile's buffers are uploaded from: its mesh and where its strands stand.
pub(crate) struct TileSource<'a> {
    pub(crate) mesh: &'a TileMesh,
    pub(crate) placed: &'a [Planted],
    pub(crate) triangle_ground: &'a [[[f32; 4]; 2]],
}

impl<'a> TileSource<'a> {
    /// A tile of `scene`: its mesh and where its strands stand.
    pub(crate) fn of(mesh: &'a TileMesh, placed: &'a [Planted], scene: &'a crate::Scene) -> Self {
        Self {
            mesh,
            placed,
            triangle_ground: &scene.triangle_ground,
        }
    }

    /// Vertices stored and indices a strand; `None` for an empty tile, or a mesh with no
    /// triangles or with other than one strand's vertices for each strand placed.
    fn per_strand(&self) -> Option<(usize, usize)> {
        let n = self.placed.len();
        let mesh = self.mesh;
        if mesh.pattern.is_empty() || n == 0 || mesh.strands() != n {
            return None;
        }
        let vps = mesh.vertices_per_strand();
        (vps * n == mesh.vertices.len() && vps > 0).then_some((vps, mesh.pattern.len()))
    }
}

/// What uploading a tile needs: the device and its queue, the roots' bind-group layout,
/// and the index buffers the scene's chunks share.
pub(crate) struct Uploader<'a> {
    pub(crate) device: &'a wgpu::Device,
    pub(crate) queue: &'a wgpu::Queue,
    pub(crate) roots_layout: &'a wgpu::BindGroupLayout,
    pub(crate) indices: &'a mut SharedIndices,
}

impl TileBuffers {
    /// Brings `slot` to `source` and returns the bytes uploaded. Buffers already there
    /// hold a longer or shorter prefix of the same tile: strands past `source` are
    /// dropped (a chunk cut in part draws its prefix, or is uploaded again if what it
    /// keeps is under half of it) and strands beyond what is held are uploaded as new
    /// chunks. An empty slot, or one whose strands had other counts, is uploaded
    /// whole, in as many chunks as the device's limits need. The slot is left empty
    /// where [`TileSource`] has nothing to draw.
    pub(crate) fn update(
        slot: &mut Option<Self>,
        up: &mut Uploader<'_>,
        source: &TileSource<'_>,
        version: u64,
    ) -> u64 {
        let Some((vps, ips)) = source.per_strand() else {
            *slot = None;
            return 0;
        };
        let frame = source.mesh.frame;
        let buffers = match slot.take() {
            Some(held) if (held.vps, held.ips, held.frame) == (vps, ips, frame) => held,
            _ => Self {
                chunks: Vec::new(),
                vps,
                ips,
                frame,
                version,
            },
        };
        let buffers = slot.insert(buffers);
        buffers.version = version;
        let n = source.placed.len();
        buffers.chunks.retain(|c| c.first < n);
        let mut from = buffers.n_strands().min(n);
        if let Some(last) = buffers.chunks.last_mut() {
            let keep = n - last.first;
            if keep < last.n {
                if 2 * keep < last.n {
                    from = last.first;
                    buffers.chunks.pop();
                } else {
                    last.n = keep;
                    from = n;
                }
            }
        }
        let index_bytes = buffers.upload(up, source, from);
        upload_bytes(source, from) + index_bytes
    }

    /// How many strands the buffers draw.
    pub(crate) fn n_strands(&self) -> usize {
        self.chunks.last().map_or(0, |c| c.first + c.n)
    }

    /// Uploads strands `first..` of `source` as chunks after those held; returns the
    /// bytes of any shared index buffer made for them.
    fn upload(&mut self, up: &mut Uploader<'_>, source: &TileSource<'_>, mut first: usize) -> u64 {
        let device = up.device;
        let (vps, ips) = (self.vps, self.ips);
        let n = source.placed.len();
        let per_chunk = strands_per_chunk(&device.limits(), vps, ips);
        let mesh = source.mesh;
        let mut index_bytes = 0;
        while first < n {
            let end = (first + per_chunk).min(n);
            let (shared, made) = up.indices.get(device, mesh, end - first, per_chunk);
            index_bytes += made;
            let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("tuft tile vertices"),
                contents: bytemuck::cast_slice(&mesh.vertices[first * vps..end * vps]),
                usage: wgpu::BufferUsages::STORAGE,
            });
            self.chunks.push(Chunk {
                indices: shared,
                roots: roots_bind_group(
                    device,
                    up.queue,
                    up.roots_layout,
                    &source.placed[first..end],
                    source.triangle_ground,
                    &self.frame,
                    &vertices,
                ),
                first,
                n: end - first,
            });
            first = end;
        }
        index_bytes
    }

    /// How many chunks the tile was split into.
    pub(crate) fn n_chunks(&self) -> usize {
        self.chunks.len()
    }

    /// Draws the tile's first `index_count` indices; the caller has bound the pipeline
    /// and every bind group but the roots (group 3).
    pub(crate) fn draw(&self, pass: &mut wgpu::RenderPass<'_>, index_count: u32) {
        let ips = self.ips as u32;
        for chunk in &self.chunks {
            let count = index_count
                .saturating_sub(chunk.first as u32 * ips)
                .min(chunk.n as u32 * ips);
            if count == 0 {
                break;
            }
            pass.set_bind_group(3, &chunk.roots, &[]);
            pass.set_index_buffer(chunk.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..count, 0, 0..1);
        }
    }
}

/// Bytes uploading strands `first..` of `source` writes: vertices and roots (the
/// indices are shared: [`SharedIndices`]).
pub(crate) fn upload_bytes(source: &TileSource<'_>, first: usize) -> u64 {
    let n = source.placed.len();
    if first >= n {
        return 0;
    }
    let share = |len: usize| (len / n) * (n - first);
    (share(source.mesh.vertices.len()) * size_of::<PackedVertex>() + (n - first) * ROOT_TEXELS * 16)
        as u64
}

/// The index buffers every chunk of every tile draws from, one for each strand shape
/// (vertices a strand and its triangles' pattern): the indices of the first strands of
/// that shape, each strand's pattern counted from its own first vertex. A chunk of `n`
/// strands draws a prefix of the shape's buffer. A larger chunk makes a larger buffer
/// in place of the old, which the chunks already drawing from it keep.
#[derive(Default)]
pub(crate) struct SharedIndices {
    shapes: Vec<SharedShape>,
}

/// One strand shape's shared indices.
struct SharedShape {
    vertices_per_strand: usize,
    pattern: Vec<u32>,
    /// How many strands' indices `buffer` holds.
    strands: usize,
    buffer: wgpu::Buffer,
}

impl SharedIndices {
    /// A buffer holding the indices of at least `strands` strands of `mesh`'s shape, and
    /// the bytes uploaded to make it (0 where one was held). A new buffer holds the next
    /// power of two strands, at most `most` (a chunk's most, which the device's limits
    /// set) and never fewer than `strands`, so a growing tile makes few.
    pub(crate) fn get(
        &mut self,
        device: &wgpu::Device,
        mesh: &TileMesh,
        strands: usize,
        most: usize,
    ) -> (wgpu::Buffer, u64) {
        // Indices number drawn vertices (a ribbon's two for each stored one).
        let (vps, pattern) = (mesh.drawn_per_strand(), &mesh.pattern);
        let held = self
            .shapes
            .iter()
            .position(|s| s.vertices_per_strand == vps && s.pattern == *pattern);
        if let Some(s) = held.map(|k| &self.shapes[k])
            && s.strands >= strands
        {
            return (s.buffer.clone(), 0);
        }
        let room = strands.next_power_of_two().min(most).max(strands);
        let mut indices = vec![0; room * pattern.len()];
        strand_indices_into(vps, pattern, 0, &mut indices);
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tuft shared strand indices"),
            contents: bytemuck::cast_slice(&indices),
            usage: wgpu::BufferUsages::INDEX,
        });
        let made = SharedShape {
            vertices_per_strand: vps,
            pattern: pattern.clone(),
            strands: room,
            buffer: buffer.clone(),
        };
        match held {
            Some(k) => self.shapes[k] = made,
            None => self.shapes.push(made),
        }
        (buffer, (indices.len() * size_of::<u32>()) as u64)
    }
}

/// The roots of `placed` as a texture [`ROOTS_WIDTH`] wide at most, and `frame` as a
/// uniform (`Tile` in strands.wgsl), bound for group 3 with the chunk's `vertices`.
fn roots_bind_group(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    placed: &[Planted],
    triangle_ground: &[[[f32; 4]; 2]],
    frame: &Frame,
    vertices: &wgpu::Buffer,
) -> wgpu::BindGroup {
    let n_texels = placed.len() * ROOT_TEXELS;
    let width = n_texels.min(ROOTS_WIDTH);
    let height = n_texels.div_ceil(width);
    let mut texels = root_texels(placed, triangle_ground);
    texels.resize(width * height, [0.0; 4]);
    let roots = crate::texture::float_texture(
        device,
        queue,
        "tuft tile roots",
        width as u32,
        height as u32,
        &texels,
    );
    let view = roots.create_view(&wgpu::TextureViewDescriptor::default());
    let [ox, oy, oz] = frame.origin;
    let [ex, ey, ez] = frame.extent;
    let uniform = TileUniform {
        origin: [ox, oy, oz, 0.0],
        extent: [ex, ey, ez, 0.0],
    };
    let tile = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tuft tile frame"),
        contents: bytemuck::bytes_of(&uniform),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("tuft tile roots"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: tile.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: vertices.as_entire_binding(),
            },
        ],
    })
}

/// Each planted strand's root as [`ROOT_TEXELS`] texels: position and u, normal and v,
/// then its triangle's gradient of u and curvature, gradient of v (`triangle_ground`)
/// and its macro patch value.
fn root_texels(placed: &[Planted], triangle_ground: &[[[f32; 4]; 2]]) -> Vec<[f32; 4]> {
    placed
        .iter()
        .flat_map(|p| {
            let [gu, gv] = triangle_ground[p.triangle as usize];
            [
                p.position.extend(p.uv.x).to_array(),
                p.normal.extend(p.uv.y).to_array(),
                gu,
                [gv[0], gv[1], gv[2], p.patch],
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_fits_every_limit_it_is_cut_by() {
        let mut limits = wgpu::Limits::downlevel_defaults();
        // The fur's undercoat on the plane: 10 vertices and 24 indices a strand.
        let n = strands_per_chunk(&limits, 10, 24);
        let vertex = size_of::<PackedVertex>() as u64;
        let binding = limits.max_storage_buffer_binding_size;
        assert!(n as u64 * 10 * vertex <= binding.min(limits.max_buffer_size));
        assert!(n as u64 * 24 * 4 <= limits.max_buffer_size);
        assert_eq!(
            n,
            (binding / (10 * vertex)).min(limits.max_buffer_size / (24 * 4)) as usize
        );
        // The vertices are bound whole as a storage buffer: its binding limit cuts too.
        let small_binding = wgpu::Limits {
            max_storage_buffer_binding_size: 320 * 7,
            ..limits.clone()
        };
        assert_eq!(strands_per_chunk(&small_binding, 10, 24), 7);
        // A tiny buffer limit cuts chunks of one strand at least.
        limits.max_buffer_size = 16;
        assert_eq!(strands_per_chunk(&limits, 10, 24), 1);
        // A small texture limit cuts by the roots texture.
        let limits = wgpu::Limits {
            max_texture_dimension_2d: 64,
            ..wgpu::Limits::default()
        };
        assert_eq!(strands_per_chunk(&limits, 10, 24), 64 * 64 / ROOT_TEXELS);
    }

    #[test]
    fn every_chunk_draws_a_prefix_of_the_shared_indices() {
        // Seven strands of four vertices, two triangles each (a quad a strand).
        let (n, vps, pattern) = (7, 4, vec![0, 1, 2, 1, 3, 2]);
        let mesh = TileMesh {
            vertices: vec![bytemuck::Zeroable::zeroed(); n * vps],
            pattern: pattern.clone(),
            ranks: vec![0.0; n],
            ..TileMesh::default()
        };
        let mut shared = vec![0; n * pattern.len()];
        strand_indices_into(vps, &pattern, 0, &mut shared);
        assert_eq!(shared, mesh.indices());
        assert_eq!(&shared[6..12], &[4, 5, 6, 5, 7, 6]);
        // A chunk of strands 2..5 counts from its own first vertex: the shared prefix.
        for (first, end) in [(0, 7), (2, 5), (6, 7), (3, 3)] {
            assert_eq!(
                mesh.indices_of(first..end),
                &shared[..(end - first) * pattern.len()],
                "strands {first}..{end}"
            );
        }
    }
}
