//! A strand or card tile on the GPU: its vertices, its indices and its roots texture,
//! split into chunks that each fit the device's own limits.
//!
//! A tile's mesh lists its strands in rank order, each with the same number of vertices
//! and indices, so a level (a rank prefix) is an index prefix. A chunk holds a run of
//! whole strands: its indices are rebased to its own vertices and its roots texture
//! starts at its first strand, so the shaders' `vertex_index / verts_per_strand` still
//! finds each strand's root. Drawing a prefix draws every chunk it covers, the last one
//! in part: the same triangles in the same order as one buffer would give.

use tuft_strands::mesh::{Frame, PackedVertex, TileMesh};
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
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Where each strand (or card) stands: [`ROOT_TEXELS`] texels per strand; and the
    /// tile's frame.
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
    /// Vertices and indices a strand.
    vps: usize,
    ips: usize,
    /// The box the vertices' positions are packed in.
    frame: Frame,
    /// The resident version these buffers hold.
    pub(crate) version: u64,
}

/// How many strands of `vertices_per_strand` vertices and `indices_per_strand` indices
/// one chunk may hold under `limits`: its vertex buffer, its index buffer and its roots
/// texture each within what the device allows.
#[must_use]
pub fn strands_per_chunk(
    limits: &wgpu::Limits,
    vertices_per_strand: usize,
    indices_per_strand: usize,
) -> usize {
    let max_buffer = limits.max_buffer_size.min(usize::MAX as u64) as usize;
    let by_vertices = max_buffer / (vertices_per_strand.max(1) * size_of::<PackedVertex>());
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

    /// Vertices and indices a strand; `None` for an empty tile, or a mesh with no
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
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        roots_layout: &wgpu::BindGroupLayout,
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
        buffers.upload(device, queue, roots_layout, source, from);
        upload_bytes(source, from)
    }

    /// How many strands the buffers draw.
    pub(crate) fn n_strands(&self) -> usize {
        self.chunks.last().map_or(0, |c| c.first + c.n)
    }

    /// Uploads strands `first..` of `source` as chunks after those held.
    fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        roots_layout: &wgpu::BindGroupLayout,
        source: &TileSource<'_>,
        mut first: usize,
    ) {
        let (vps, ips) = (self.vps, self.ips);
        let n = source.placed.len();
        let per_chunk = strands_per_chunk(&device.limits(), vps, ips);
        let mesh = source.mesh;
        while first < n {
            let end = (first + per_chunk).min(n);
            let indices = mesh.indices_of(first..end);
            self.chunks.push(Chunk {
                vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("tuft tile vertices"),
                    contents: bytemuck::cast_slice(&mesh.vertices[first * vps..end * vps]),
                    usage: wgpu::BufferUsages::VERTEX,
                }),
                indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("tuft tile indices"),
                    contents: bytemuck::cast_slice(&indices),
                    usage: wgpu::BufferUsages::INDEX,
                }),
                roots: roots_bind_group(
                    device,
                    queue,
                    roots_layout,
                    &source.placed[first..end],
                    source.triangle_ground,
                    &self.frame,
                ),
                first,
                n: end - first,
            });
            first = end;
        }
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
            pass.set_vertex_buffer(0, chunk.vertices.slice(..));
            pass.set_index_buffer(chunk.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..count, 0, 0..1);
        }
    }
}

/// Bytes uploading strands `first..` of `source` writes: vertices, indices, roots.
pub(crate) fn upload_bytes(source: &TileSource<'_>, first: usize) -> u64 {
    let n = source.placed.len();
    if first >= n {
        return 0;
    }
    let share = |len: usize| (len / n) * (n - first);
    (share(source.mesh.vertices.len()) * size_of::<PackedVertex>()
        + share(source.mesh.index_count()) * size_of::<u32>()
        + (n - first) * ROOT_TEXELS * 16) as u64
}

/// The roots of `placed` as a texture [`ROOTS_WIDTH`] wide at most, and `frame` as a
/// uniform (`Tile` in strands.wgsl), bound for group 3.
fn roots_bind_group(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    placed: &[Planted],
    triangle_ground: &[[[f32; 4]; 2]],
    frame: &Frame,
) -> wgpu::BindGroup {
    let n_texels = placed.len() * ROOT_TEXELS;
    let width = n_texels.min(ROOTS_WIDTH);
    let height = n_texels.div_ceil(width);
    let mut texels = root_texels(placed, triangle_ground);
    texels.resize(width * height, [0.0; 4]);
    let size = wgpu::Extent3d {
        width: width as u32,
        height: height as u32,
        depth_or_array_layers: 1,
    };
    let roots = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("tuft tile roots"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &roots,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        bytemuck::cast_slice(&texels),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(16 * width as u32),
            rows_per_image: Some(height as u32),
        },
        size,
    );
    let view = roots.create_view(&wgpu::TextureViewDescriptor::default());
    let [ox, oy, oz] = frame.origin;
    let [ex, ey, ez] = frame.extent;
    let tile = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tuft tile frame"),
        contents: bytemuck::cast_slice(&[ox, oy, oz, 0.0, ex, ey, ez, 0.0]),
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
        assert!(n as u64 * 10 * vertex <= limits.max_buffer_size);
        assert!(n as u64 * 24 * 4 <= limits.max_buffer_size);
        assert_eq!(
            n,
            (limits.max_buffer_size / (10 * vertex).max(24 * 4)) as usize
        );
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
}
