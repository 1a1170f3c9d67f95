//! Surfaces strands are planted on: triangle meshes whose UVs are measured in repeats of
//! the material (u = 2.5 is half way through the third repeat), grouped into spatial
//! tiles so a renderer can cull, choose levels and upload per tile.

use glam::{Vec2, Vec3};

/// A triangle mesh with per-vertex UVs in repeats and a spatial tile per triangle.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    /// Vertex positions in metres.
    pub positions: Vec<Vec3>,
    /// Unit vertex normals.
    pub normals: Vec<Vec3>,
    /// Vertex UVs, in repeats of the material.
    pub uvs: Vec<Vec2>,
    /// Triangles, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
    /// The spatial tile each triangle belongs to.
    pub tile_of_triangle: Vec<u32>,
    /// How many tiles.
    pub n_tiles: u32,
}

impl Surface {
    /// A UV sphere of `radius` metres, `segments` around and `rings` from pole to pole,
    /// its UVs spanning `repeats_u × repeats_v` repeats. Tiles are blocks of 8 × 8 quads.
    ///
    /// The pole rows keep one vertex per segment (each with its own u), so the triangles
    /// touching a pole have a UV footprint but no area on one side: placement thins them
    /// by their area ratio.
    #[must_use]
    pub fn sphere(radius: f32, segments: u32, rings: u32, repeats_u: f32, repeats_v: f32) -> Self {
        let (segments, rings) = (segments.max(3), rings.max(2));
        let mut s = Self::empty();
        for r in 0..=rings {
            let v = r as f32 / rings as f32;
            let theta = v * std::f32::consts::PI;
            for k in 0..=segments {
                let u = k as f32 / segments as f32;
                let phi = u * std::f32::consts::TAU;
                let n = Vec3::new(
                    theta.sin() * phi.cos(),
                    theta.cos(),
                    -theta.sin() * phi.sin(),
                );
                s.positions.push(n * radius);
                s.normals.push(n);
                s.uvs.push(Vec2::new(u * repeats_u, v * repeats_v));
            }
        }
        let row = segments + 1;
        let tiles_u = segments.div_ceil(8);
        for r in 0..rings {
            for k in 0..segments {
                let a = r * row + k;
                let (b, c, d) = (a + 1, a + row, a + row + 1);
                let tile = (r / 8) * tiles_u + k / 8;
                // Counter-clockwise seen from outside: down the sphere, then around.
                s.triangles.push([a, c, b]);
                s.triangles.push([b, c, d]);
                s.tile_of_triangle.extend([tile, tile]);
            }
        }
        s.n_tiles = rings.div_ceil(8) * tiles_u;
        s
    }

    /// A square of `size_m` metres in the x–z plane facing +y, split into `cells × cells`
    /// quads (one tile each), its UVs spanning `repeats × repeats`.
    #[must_use]
    pub fn plane(size_m: f32, cells: u32, repeats: f32) -> Self {
        let mut s = Self::empty();
        let cells = cells.max(1);
        s.add_grid(
            Vec3::new(-size_m / 2.0, 0.0, -size_m / 2.0),
            Vec3::X * size_m,
            Vec3::Z * size_m,
            cells,
            repeats,
            0,
            true,
        );
        s.n_tiles = cells * cells;
        s
    }

    /// A cube of `size_m` metres centred on the origin, each face a `cells × cells` grid
    /// with UVs spanning `repeats × repeats`; one tile per face.
    #[must_use]
    pub fn cube(size_m: f32, cells: u32, repeats: f32) -> Self {
        let mut s = Self::empty();
        let h = size_m / 2.0;
        let faces = [
            (Vec3::new(-h, h, -h), Vec3::X, Vec3::Z),  // top, facing +y
            (Vec3::new(-h, -h, h), Vec3::X, -Vec3::Z), // bottom
            (Vec3::new(-h, h, h), Vec3::X, -Vec3::Y),  // front, +z
            (Vec3::new(h, h, -h), -Vec3::X, -Vec3::Y), // back, -z
            (Vec3::new(h, h, h), -Vec3::Z, -Vec3::Y),  // right, +x
            (Vec3::new(-h, h, -h), Vec3::Z, -Vec3::Y), // left, -x
        ];
        for (tile, (origin, du, dv)) in faces.into_iter().enumerate() {
            s.add_grid(
                origin,
                du * size_m,
                dv * size_m,
                cells.max(1),
                repeats,
                tile as u32,
                false,
            );
        }
        s.n_tiles = 6;
        s
    }

    fn empty() -> Self {
        Self {
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: Vec::new(),
            triangles: Vec::new(),
            tile_of_triangle: Vec::new(),
            n_tiles: 0,
        }
    }

    /// A grid from `origin` spanning `du` (u) and `dv` (v); normal `dv × du`.
    #[allow(clippy::too_many_arguments)]
    fn add_grid(
        &mut self,
        origin: Vec3,
        du: Vec3,
        dv: Vec3,
        cells: u32,
        repeats: f32,
        tile: u32,
        tile_per_cell: bool,
    ) {
        let normal = dv.cross(du).normalize();
        let base = self.positions.len() as u32;
        for j in 0..=cells {
            for i in 0..=cells {
                let (fu, fv) = (i as f32 / cells as f32, j as f32 / cells as f32);
                self.positions.push(origin + du * fu + dv * fv);
                self.normals.push(normal);
                self.uvs.push(Vec2::new(fu, fv) * repeats);
            }
        }
        let row = cells + 1;
        for j in 0..cells {
            for i in 0..cells {
                let a = base + j * row + i;
                let (b, c, d) = (a + 1, a + row, a + row + 1);
                let t = if tile_per_cell { j * cells + i } else { tile };
                self.triangles.push([a, c, b]);
                self.triangles.push([b, c, d]);
                self.tile_of_triangle.extend([t, t]);
            }
        }
    }

    /// World area of triangle `t` in square metres.
    #[must_use]
    pub fn world_area(&self, t: usize) -> f32 {
        let [a, b, c] = self.triangles[t].map(|i| self.positions[i as usize]);
        0.5 * (b - a).cross(c - a).length()
    }

    /// UV area of triangle `t` in square repeats.
    #[must_use]
    pub fn uv_area(&self, t: usize) -> f32 {
        let [a, b, c] = self.triangles[t].map(|i| self.uvs[i as usize]);
        0.5 * (b - a).perp_dot(c - a).abs()
    }

    /// Triangle `t`'s derivatives of position with respect to its UV, `(∂p/∂u, ∂p/∂v)`
    /// in metres per repeat (zero for a triangle without UV area).
    #[must_use]
    pub fn position_derivatives(&self, t: usize) -> [Vec3; 2] {
        let tri = self.triangles[t];
        let [p0, p1, p2] = tri.map(|i| self.positions[i as usize]);
        let [u0, u1, u2] = tri.map(|i| self.uvs[i as usize]);
        let (e1, e2) = (p1 - p0, p2 - p0);
        let (d1, d2) = (u1 - u0, u2 - u0);
        let det = d1.perp_dot(d2);
        let inv = if det.abs() > 1e-20 { 1.0 / det } else { 0.0 };
        [(e1 * d2.y - e2 * d1.y) * inv, (e2 * d1.x - e1 * d2.x) * inv]
    }

    /// How the UV changes per metre moved over triangle `t`'s plane: a point `p + d` on
    /// it has the UV `uv(p) + (g[0]·d, g[1]·d)` (the dual basis of
    /// [`Surface::position_derivatives`]). A renderer finds from it which texel of the
    /// maps lies under any point near a strand.
    #[must_use]
    pub fn uv_gradient(&self, t: usize) -> [Vec3; 2] {
        let [dp_du, dp_dv] = self.position_derivatives(t);
        // ∇u is perpendicular to ∂p/∂v and to the face normal, with ∇u · ∂p/∂u = 1.
        let face = dp_du.cross(dp_dv);
        let dual = |a: Vec3, b: Vec3| {
            let g = b.cross(face);
            let scale = a.dot(g);
            if scale.abs() > 1e-20 {
                g / scale
            } else {
                Vec3::ZERO
            }
        };
        [dual(dp_du, dp_dv), dual(dp_dv, dp_du)]
    }

    /// How the surface curves over triangle `t`: its mean normal curvature (1 / radius;
    /// 0 flat, negative where it is hollow), from the turn of the vertex normals along
    /// its edges — on a sphere of radius r, `(n_j − n_i) · (p_j − p_i) = |p_j − p_i|² / r`
    /// exactly.
    #[must_use]
    pub fn curvature(&self, t: usize) -> f32 {
        let tri = self.triangles[t];
        let pos = tri.map(|i| self.positions[i as usize]);
        let nrm = tri.map(|i| self.normals[i as usize]);
        let mut curvature = 0.0;
        for (i, j) in [(0, 1), (1, 2), (2, 0)] {
            let edge = pos[j] - pos[i];
            let len2 = edge.length_squared();
            if len2 > 1e-20 {
                curvature += (nrm[j] - nrm[i]).dot(edge) / len2 / 3.0;
            }
        }
        curvature
    }

    /// Total world area in square metres.
    #[must_use]
    pub fn total_area(&self) -> f32 {
        (0..self.triangles.len()).map(|t| self.world_area(t)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sphere_has_the_area_of_a_sphere() {
        let s = Surface::sphere(1.0, 64, 32, 4.0, 2.0);
        let area = s.total_area();
        let exact = 4.0 * std::f32::consts::PI;
        assert!((area - exact).abs() / exact < 0.01, "{area}");
        assert_eq!(s.triangles.len(), 64 * 32 * 2);
        assert_eq!(s.n_tiles, 8 * 4);
        // Outward winding.
        for (t, tri) in s.triangles.iter().enumerate() {
            let [a, b, c] = tri.map(|i| s.positions[i as usize]);
            let n = (b - a).cross(c - a);
            if s.world_area(t) > 1e-9 {
                assert!(n.dot(a + b + c) > 0.0, "triangle {t} faces inward");
            }
        }
    }

    #[test]
    fn planes_and_cubes_face_outward() {
        for s in [Surface::plane(2.0, 4, 1.0), Surface::cube(1.0, 2, 1.0)] {
            for tri in &s.triangles {
                let [a, b, c] = tri.map(|i| s.positions[i as usize]);
                let n = (b - a).cross(c - a).normalize();
                assert!(n.dot(s.normals[tri[0] as usize]) > 0.99);
            }
        }
        assert!((Surface::cube(1.0, 3, 1.0).total_area() - 6.0).abs() < 1e-4);
    }
}
