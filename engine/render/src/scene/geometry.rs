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

/// A ball inside a convex surface (the built-in sphere and box), and each tile's
/// surface vertices: a tile whose every vertex, widened by the tallest strand, lies in
/// the ball's shadow seen from the eye is hidden by the surface itself. The shadow (the
/// cone of rays that meet the ball, past its horizon's plane) is convex, so a triangle
/// whose corners' balls lie in it lies in it with everything standing within that reach.
/// Near a sphere the frustum and the facing test keep tiles round its far side (their
/// bounds are large and the frustum runs on through the sphere), and the fur drew 53 M
/// triangles at 0.17 m.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Occluder {
    centre: Vec3,
    radius: f32,
    /// Each tile's surface vertices.
    tile_vertices: Vec<Vec<Vec3>>,
}

impl Occluder {
    /// The occluder of a surface of `kind`: the ball inside it where the kind is convex
    /// (the sphere, the box); `None` for the plane, the field and a mesh of the author's.
    pub(super) fn of(kind: SurfaceKind, s: &Surface) -> Option<Self> {
        matches!(kind, SurfaceKind::Sphere | SurfaceKind::Box)
            .then(|| Self::inside_convex(s))
            .flatten()
    }

    /// The largest ball about the origin inside `s`, a closed convex surface round the
    /// origin: the nearest of its triangles' planes. `None` where a triangle's plane does
    /// not have the origin behind it (the surface is not such a surface).
    pub(super) fn inside_convex(s: &Surface) -> Option<Self> {
        let mut radius = f32::INFINITY;
        for tri in &s.triangles {
            let [a, b, c] = tri.map(|i| s.positions[i as usize]);
            let cross = (b - a).cross(c - a);
            let area2 = cross.length();
            let edge2 = (b - a).length_squared().max((c - a).length_squared());
            if area2 <= 1e-4 * edge2 {
                // A pole's sliver (its rounded corners a float's step apart): its
                // plane is rounding's, and its neighbours' planes hold it.
                continue;
            }
            let distance = (cross / area2).dot(a);
            if distance <= 0.0 {
                return None;
            }
            radius = radius.min(distance);
        }
        if !radius.is_finite() {
            return None;
        }
        let mut seen = vec![std::collections::BTreeSet::new(); s.n_tiles as usize];
        for (t, tri) in s.triangles.iter().enumerate() {
            if let Some(tile) = seen.get_mut(s.tile_of_triangle[t] as usize) {
                tile.extend(tri.iter().copied());
            }
        }
        let tile_vertices = seen
            .into_iter()
            .map(|v| v.into_iter().map(|i| s.positions[i as usize]).collect())
            .collect();
        Some(Self {
            centre: Vec3::ZERO,
            radius,
            tile_vertices,
        })
    }

    /// Whether tile `tile`, with everything standing within `reach` of its surface, is
    /// hidden from `eye` by the surface.
    pub(super) fn hides_tile(&self, eye: Vec3, tile: usize, reach: f32) -> bool {
        self.tile_vertices
            .get(tile)
            .is_some_and(|v| !v.is_empty() && v.iter().all(|&p| self.hides(eye, p, reach)))
    }

    /// Whether the ball at `centre` of `radius` lies wholly where the occluder hides it
    /// from `eye`: inside the cone of rays from the eye that meet the occluder, and past
    /// the plane of its horizon circle (every such ray meets the occluder before it).
    pub(super) fn hides(&self, eye: Vec3, centre: Vec3, radius: f32) -> bool {
        let to_occluder = self.centre - eye;
        let d = to_occluder.length();
        let to_ball = centre - eye;
        let db = to_ball.length();
        if d <= self.radius * 1.0001 || db <= radius {
            return false;
        }
        let axis = to_occluder / d;
        let depth = to_ball.dot(axis);
        let cone = (self.radius / d).asin();
        let off_axis = (depth / db).clamp(-1.0, 1.0).acos() + (radius / db).asin();
        // A thousandth of a radian of margin for the float rounding of the angles.
        off_axis + 1e-3 <= cone && depth - radius >= (d * d - self.radius * self.radius) / d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the ray from `eye` to `p` meets the ball (`centre`, `radius`) before `p`.
    fn occluded(eye: Vec3, p: Vec3, centre: Vec3, radius: f32) -> bool {
        let dir = (p - eye).normalize();
        let along = (centre - eye).dot(dir);
        let off2 = (eye + dir * along - centre).length_squared();
        let half = (radius * radius - off2).max(-1.0);
        half >= 0.0 && along - half.sqrt() <= (p - eye).length()
    }

    #[test]
    fn a_sphere_hides_only_balls_wholly_in_its_shadow() {
        let surface = Surface::sphere(1.0, 64, 32, 1.0, 1.0);
        let occluder = Occluder::inside_convex(&surface).expect("a sphere is convex");
        // The 64 × 32 polygon lies inside the unit sphere by its faces' sagitta.
        assert!(
            occluder.radius > 0.99 && occluder.radius < 1.0,
            "{occluder:?}"
        );
        let eye = Vec3::new(0.0, 0.3, 1.15);
        let mix = |i: u64, c: u32| tuft_strands::hash::unit_f32(tuft_strands::hash::hash(3, i, c));
        let (mut hidden, mut shown) = (0, 0);
        for i in 0..4000 {
            let centre = Vec3::new(mix(i, 0), mix(i, 1), mix(i, 2)) * 3.0 - 1.5;
            let radius = 0.05 + 0.4 * mix(i, 3);
            if !occluder.hides(eye, centre, radius) {
                shown += 1;
                continue;
            }
            hidden += 1;
            // Every point of a hidden ball (its centre and its surface round about) is
            // behind the sphere.
            for k in 0..26 {
                let d = Vec3::new(
                    (k % 3) as f32 - 1.0,
                    ((k / 3) % 3) as f32 - 1.0,
                    (k / 9) as f32 - 1.0,
                );
                let p = centre + d.normalize_or_zero() * radius;
                assert!(
                    occluded(eye, p, occluder.centre, occluder.radius),
                    "{centre} {radius} {p}"
                );
            }
        }
        assert!(
            hidden > 200 && shown > 200,
            "{hidden} hidden, {shown} shown"
        );
        // A ball touching the horizon, or round the eye, or holding the sphere, shows.
        let horizon = Vec3::new(0.0, 1.0, 0.0);
        assert!(!occluder.hides(
            Vec3::new(0.0, 0.0, 1.5),
            horizon * 0.9 + Vec3::Z * 0.5,
            0.05
        ));
        assert!(!occluder.hides(eye, eye, 0.1));
        assert!(!occluder.hides(eye, Vec3::ZERO, 1.5));
    }

    #[test]
    fn only_a_surface_round_the_origin_with_every_face_outward_has_an_occluder() {
        let sphere = Surface::sphere(1.0, 16, 8, 1.0, 1.0);
        assert!(Occluder::inside_convex(&sphere).is_some());
        let mut inside_out = sphere.clone();
        for tri in &mut inside_out.triangles {
            tri.swap(1, 2);
        }
        assert!(Occluder::inside_convex(&inside_out).is_none());
        let plane = Surface::plane(2.0, 4, 1.0);
        assert!(Occluder::of(SurfaceKind::Plane, &plane).is_none());
        assert!(Occluder::inside_convex(&plane).is_none());
    }
}
