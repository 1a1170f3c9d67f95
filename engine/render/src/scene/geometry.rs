use super::*;

/// A tile's bounds: a sphere around its surface and everything standing on it, and the
/// cone its normals lie in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct TileBounds {
    pub(super) centre: Vec3,
    /// Around the surface alone.
    pub(super) surface_radius: f32,
    /// Around the surface and the tallest strand.
    pub(super) radius: f32,
    pub(super) normal: Vec3,
    /// The smallest cosine between a vertex normal and `normal`.
    pub(super) cone_cos: f32,
}

/// The surface's mesh, its triangles grouped by tile.
pub(crate) struct SurfaceMesh {
    pub vertices: Vec<SurfaceVertex>,
    pub indices: Vec<u32>,
    /// Each tile's range of `indices`.
    pub tile_ranges: Vec<std::ops::Range<u32>>,
}

/// What share of a rank prefix each tile plants, in repeats: its world area over the
/// surface's largest ratio of world to UV area, since placement thins every triangle to
/// that ratio's density (`placement`'s area thinning). On a plane it is the tile's UV
/// area; on a sphere the poles' tiles plant far less than their UV area says.
pub(super) fn tile_shares(surface: &Surface, mesh: &SurfaceMesh) -> Vec<f32> {
    let ratio_max = (0..surface.triangles.len())
        .filter(|&t| surface.uv_area(t) > 1e-12)
        .map(|t| surface.world_area(t) / surface.uv_area(t))
        .fold(0.0f32, f32::max);
    let mut shares = vec![0.0f32; surface.n_tiles as usize];
    if ratio_max > 0.0 {
        for (t, &tile) in surface.tile_of_triangle.iter().enumerate() {
            if surface.uv_area(t) > 1e-12 {
                shares[tile as usize] += surface.world_area(t) / ratio_max;
            }
        }
    } else {
        for (t, share) in shares.iter_mut().enumerate() {
            *share = tile_uv_area(mesh, t);
        }
    }
    shares
}

fn tile_uv_area(mesh: &SurfaceMesh, t: usize) -> f32 {
    let range = &mesh.tile_ranges[t];
    mesh.indices[range.start as usize..range.end as usize]
        .chunks_exact(3)
        .map(|tri| {
            let [a, b, c] = [0, 1, 2].map(|k| glam::Vec2::from(mesh.vertices[tri[k] as usize].uv));
            0.5 * (b - a).perp_dot(c - a).abs()
        })
        .sum()
}

/// The surface's vertices with tangents along +u, and its triangles grouped by tile.
pub(super) fn surface_mesh(
    s: &Surface,
    ground: &tuft_strands::macro_variation::MacroVariation,
) -> SurfaceMesh {
    let n = s.positions.len();
    let mut du = vec![Vec3::ZERO; n];
    let mut dv = vec![Vec3::ZERO; n];
    for tri in &s.triangles {
        let [a, b, c] = tri.map(|i| i as usize);
        let (e1, e2) = (
            s.positions[b] - s.positions[a],
            s.positions[c] - s.positions[a],
        );
        let (d1, d2) = (s.uvs[b] - s.uvs[a], s.uvs[c] - s.uvs[a]);
        let det = d1.perp_dot(d2);
        if det.abs() < 1e-12 {
            continue;
        }
        let t = (e1 * d2.y - e2 * d1.y) / det;
        let bt = (e2 * d1.x - e1 * d2.x) / det;
        for i in [a, b, c] {
            du[i] += t;
            dv[i] += bt;
        }
    }
    let mut patches = ground.sampler();
    let vertices = (0..n)
        .map(|i| {
            let normal = s.normals[i];
            let t =
                (du[i] - normal * normal.dot(du[i])).normalize_or(normal.any_orthonormal_vector());
            let w = if normal.cross(t).dot(dv[i]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            SurfaceVertex {
                position: s.positions[i].to_array(),
                normal: normal.to_array(),
                tangent: t.extend(w).to_array(),
                uv: s.uvs[i].to_array(),
                patch: patches.patch(s.positions[i]),
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..s.triangles.len()).collect();
    order.sort_by_key(|&t| s.tile_of_triangle[t]);
    let mut indices = Vec::with_capacity(3 * order.len());
    let mut tile_ranges = vec![0..0; s.n_tiles as usize];
    for &t in &order {
        let tile = s.tile_of_triangle[t] as usize;
        let start = indices.len() as u32;
        if tile_ranges[tile].is_empty() {
            tile_ranges[tile] = start..start;
        }
        indices.extend(s.triangles[t]);
        tile_ranges[tile].end = indices.len() as u32;
    }
    SurfaceMesh {
        vertices,
        indices,
        tile_ranges,
    }
}

/// Each tile's bounds, from its box (`Surface::tile_boxes`) and its normals.
pub(super) fn tile_bounds(s: &Surface, boxes: &[(Vec3, Vec3)], tallest: f32) -> Vec<TileBounds> {
    let n_tiles = s.n_tiles as usize;
    let mut nsum = vec![Vec3::ZERO; n_tiles];
    for (t, tri) in s.triangles.iter().enumerate() {
        let tile = s.tile_of_triangle[t] as usize;
        for &i in tri {
            nsum[tile] += s.normals[i as usize];
        }
    }
    let mut out: Vec<TileBounds> = boxes
        .iter()
        .enumerate()
        .map(|(t, &(lo, hi))| TileBounds {
            centre: (lo + hi) * 0.5,
            surface_radius: 0.0,
            radius: 0.0,
            normal: nsum[t].normalize_or(Vec3::Y),
            cone_cos: 1.0,
        })
        .collect();
    for (t, tri) in s.triangles.iter().enumerate() {
        let b = &mut out[s.tile_of_triangle[t] as usize];
        for &i in tri {
            b.surface_radius = b
                .surface_radius
                .max((s.positions[i as usize] - b.centre).length());
            b.cone_cos = b.cone_cos.min(s.normals[i as usize].dot(b.normal));
        }
    }
    for b in &mut out {
        b.radius = b.surface_radius + tallest;
    }
    out
}

/// The six planes of a wgpu clip volume (depth 0..1), inward-facing.
pub(super) fn frustum_planes(m: &Mat4) -> [Vec4; 6] {
    let (r0, r1, r2, r3) = (m.row(0), m.row(1), m.row(2), m.row(3));
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2]
}

pub(super) fn in_frustum(planes: &[Vec4; 6], centre: Vec3, radius: f32) -> bool {
    planes
        .iter()
        .all(|p| p.truncate().dot(centre) + p.w >= -radius * p.truncate().length())
}

/// Whether any of a tile can face the eye (or stand up into view past its horizon).
pub(super) fn faces(b: &TileBounds, eye: Vec3) -> bool {
    let to_eye = eye - b.centre;
    let d = to_eye.length();
    if d <= b.radius {
        return true;
    }
    // Sine of the widest angle the tile's normals and standing strands add.
    let spread = (1.0 - b.cone_cos * b.cone_cos).max(0.0).sqrt();
    to_eye.dot(b.normal) / d > -(spread + b.radius / d + 0.05)
}
