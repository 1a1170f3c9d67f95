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

    /// Each tile's box, low and high corners, around its triangles' vertices (an empty
    /// tile's low corner is above its high one).
    #[must_use]
    pub fn tile_boxes(&self) -> Vec<(Vec3, Vec3)> {
        let mut boxes = vec![(Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)); self.n_tiles as usize];
        for (tri, &tile) in self.triangles.iter().zip(&self.tile_of_triangle) {
            let Some((lo, hi)) = boxes.get_mut(tile as usize) else {
                continue;
            };
            for &i in tri {
                if let Some(&p) = self.positions.get(i as usize) {
                    *lo = lo.min(p);
                    *hi = hi.max(p);
                }
            }
        }
        boxes
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

/// The most triangles a mesh surface may have: a 4-million-triangle creature is 200 MB
/// of surface and tiles before a strand is planted.
pub const MAX_MESH_TRIANGLES: usize = 4_000_000;

/// A triangle mesh as a file holds it, before it becomes a [`Surface`]: positions in
/// metres, UVs in the mesh's own units, normals where the file has them (empty: computed
/// from the triangles).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions in metres.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals, one per position, or empty.
    pub normals: Vec<[f32; 3]>,
    /// Vertex UVs, one per position.
    pub uvs: Vec<[f32; 2]>,
    /// Triangles as vertex indices.
    pub triangles: Vec<[u32; 3]>,
}

/// Why a mesh cannot be a surface.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// No triangles at all.
    #[error("the mesh has no triangles")]
    Empty,
    /// More triangles than [`MAX_MESH_TRIANGLES`].
    #[error("the mesh has {0} triangles; a surface may have at most {MAX_MESH_TRIANGLES}")]
    TooLarge(usize),
    /// No texture coordinates to lay the material out by.
    #[error("the mesh has no UVs: the material is laid out by them (unwrap it first)")]
    NoUvs,
    /// Every UV is the same point.
    #[error(
        "the mesh's UVs all lie in one point: the material is laid out by them (unwrap it first)"
    )]
    UvsInOnePoint,
    /// Arrays of different lengths, or an index past the vertices.
    #[error("malformed mesh: {0}")]
    Malformed(String),
    /// A position, normal or UV that is NaN or infinite.
    #[error("{what} {index} is not finite")]
    NotFinite {
        /// Which array.
        what: &'static str,
        /// Which entry.
        index: usize,
    },
    /// A triangle whose corners lie so far apart that its area is not a finite number.
    #[error("triangle {triangle}'s {what}s lie too far apart to measure its area")]
    TooFar {
        /// "position" or "UV".
        what: &'static str,
        /// Which triangle.
        triangle: usize,
    },
    /// Every triangle is a point or a line in space.
    #[error("the mesh has no area: every triangle is a point or a line")]
    NoArea,
    /// A UV scale that is not a positive number.
    #[error("the UV scale {0} is not a positive number of repeats per UV unit")]
    BadScale(f32),
}

impl MeshData {
    /// What is wrong with the way the mesh's faces wind, in words, where the preview
    /// would show it wrong: most of its area (by triangle) winding against the file's
    /// normals (the surface then shows its back where the strands stand), or, without
    /// normals, a closed mesh wound inside out (its strands grow inward). `None` where
    /// the winding agrees, or nothing can be told (an open mesh without normals). For a
    /// mesh [`MeshData::check`] passes (as every mesh file reader returns them).
    #[must_use]
    pub fn winding_note(&self) -> Option<String> {
        let at = |i: u32| Vec3::from(self.positions[i as usize]);
        if self.normals.len() == self.positions.len() {
            let (mut against, mut total) = (0.0f64, 0.0f64);
            for t in &self.triangles {
                let [a, b, c] = t.map(at);
                let face = (b - a).cross(c - a);
                let given: Vec3 = t
                    .iter()
                    .map(|&i| Vec3::from(self.normals[i as usize]))
                    .sum();
                let area = f64::from(face.length());
                total += area;
                if face.dot(given) < 0.0 {
                    against += area;
                }
            }
            return (total > 0.0 && against > 0.5 * total).then(|| {
                format!(
                    "{:.0}% of the mesh's area winds against its normals, so its surface \
                     shows its back where the strands stand: flip its faces (or its \
                     normals) in the modeller",
                    100.0 * against / total
                )
            });
        }
        // Six times the signed volume it encloses: negative when wound inward.
        let volume: f64 = self
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(at);
                f64::from(a.dot(b.cross(c)))
            })
            .sum();
        // Only a mesh enclosing a negative volume is looked at further (a sound one is
        // told by the sum alone).
        if volume >= 0.0 {
            return None;
        }
        // Closed: every edge is shared by exactly two triangles, once each way. Vertices
        // split at UV seams are one point here (welded by their position's bits, −0 as
        // 0), and a triangle with two corners on one point (a pole's) has no edges.
        let mut points = std::collections::HashMap::new();
        let welded: Vec<u32> = self
            .positions
            .iter()
            .map(|p| {
                let next = points.len() as u32;
                *points.entry(p.map(|x| (x + 0.0).to_bits())).or_insert(next)
            })
            .collect();
        let mut edges = std::collections::HashMap::new();
        for t in &self.triangles {
            let t = t.map(|i| welded[i as usize]);
            if t[0] == t[1] || t[1] == t[2] || t[2] == t[0] {
                continue;
            }
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0u32) += 1;
            }
        }
        let closed = edges
            .iter()
            .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1));
        closed.then(|| {
            "the mesh is closed and wound inside out, so its strands grow inward: flip its \
             faces in the modeller"
                .to_owned()
        })
    }

    /// Checks the arrays: lengths, indices, finite numbers, UVs that span an area.
    ///
    /// # Errors
    /// The first thing wrong, as a [`MeshError`].
    pub fn check(&self) -> Result<(), MeshError> {
        let n = self.positions.len();
        if self.triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        if self.triangles.len() > MAX_MESH_TRIANGLES {
            return Err(MeshError::TooLarge(self.triangles.len()));
        }
        if self.uvs.is_empty() {
            return Err(MeshError::NoUvs);
        }
        if self.uvs.len() != n || !(self.normals.is_empty() || self.normals.len() == n) {
            return Err(MeshError::Malformed(format!(
                "{n} positions, {} UVs and {} normals",
                self.uvs.len(),
                self.normals.len()
            )));
        }
        if let Some(t) = self
            .triangles
            .iter()
            .position(|t| t.iter().any(|&i| i as usize >= n))
        {
            return Err(MeshError::Malformed(format!(
                "triangle {t} names a vertex past the {n} there are"
            )));
        }
        fn finite<const N: usize>(what: &'static str, xs: &[[f32; N]]) -> Result<(), MeshError> {
            match xs.iter().position(|p| !p.iter().all(|x| x.is_finite())) {
                None => Ok(()),
                Some(index) => Err(MeshError::NotFinite { what, index }),
            }
        }
        finite("position", &self.positions)?;
        finite("UV", &self.uvs)?;
        finite("normal", &self.normals)?;
        // The areas `metres_per_uv` measures: each finite, and neither sum zero.
        let [world, uv] = self.area_sums()?;
        if uv <= 1e-12 {
            return Err(MeshError::UvsInOnePoint);
        }
        if world <= 0.0 {
            return Err(MeshError::NoArea);
        }
        Ok(())
    }

    /// Metres of surface per UV unit, measured: the square root of the mesh's world area
    /// over its UV area. A material with a repeat of `r` metres keeps its size on the mesh
    /// at `metres_per_uv / r` repeats per UV unit. 0 for a mesh [`MeshData::check`]
    /// refuses for its areas.
    #[must_use]
    pub fn metres_per_uv(&self) -> f32 {
        match self.area_sums() {
            Ok([world, uv]) if uv > 0.0 => (world / uv).sqrt() as f32,
            _ => 0.0,
        }
    }

    /// The mesh's area in space and in UV, summed triangle by triangle; the first
    /// triangle whose corners lie too far apart for its area to be a finite number is
    /// refused by name.
    fn area_sums(&self) -> Result<[f64; 2], MeshError> {
        let mut sums = [0.0f64; 2];
        for (triangle, t) in self.triangles.iter().enumerate() {
            let [a, b, c] = t.map(|i| Vec3::from(self.positions[i as usize]));
            let world = 0.5 * (b - a).cross(c - a).length();
            let [a, b, c] = t.map(|i| Vec2::from(self.uvs[i as usize]));
            let uv = 0.5 * (b - a).perp_dot(c - a).abs();
            for (sum, (what, area)) in sums.iter_mut().zip([("position", world), ("UV", uv)]) {
                if !area.is_finite() {
                    return Err(MeshError::TooFar { what, triangle });
                }
                *sum += f64::from(area);
            }
        }
        Ok(sums)
    }

    /// The UV scale at which a material of `repeat_m` metres keeps its size on this mesh
    /// ([`repeats_per_uv`] of [`MeshData::metres_per_uv`]).
    #[must_use]
    pub fn repeats_per_uv(&self, repeat_m: f32) -> f32 {
        repeats_per_uv(self.metres_per_uv(), repeat_m)
    }
}

/// Repeats per UV unit of a material of `repeat_m` metres on a mesh measured at
/// `metres_per_uv` metres of surface per UV unit: the scale that keeps its size.
#[must_use]
pub fn repeats_per_uv(metres_per_uv: f32, repeat_m: f32) -> f32 {
    metres_per_uv / repeat_m.max(1e-3)
}

impl Surface {
    /// `mesh` as a surface, its UVs multiplied by `repeats_per_uv` (so a UV unit holds
    /// that many repeats of the material). Normals the mesh lacks (or has as zero) are the
    /// area-weighted normals of the triangles around each vertex. Tiles are the cells of a
    /// grid over the mesh's bounds, about 8 to its longest side, that hold a triangle's
    /// centre. Degenerate triangles stay (placement plants nothing on a triangle without
    /// area or UV area).
    ///
    /// # Errors
    /// What [`MeshData::check`] finds, or a scale that is not positive.
    pub fn from_mesh(mesh: &MeshData, repeats_per_uv: f32) -> Result<Self, MeshError> {
        mesh.check()?;
        if !(repeats_per_uv.is_finite() && repeats_per_uv > 0.0) {
            return Err(MeshError::BadScale(repeats_per_uv));
        }
        let positions: Vec<Vec3> = mesh.positions.iter().map(|&p| Vec3::from(p)).collect();
        let mut computed = vec![Vec3::ZERO; positions.len()];
        for t in &mesh.triangles {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            // Length is twice the area: area-weighted.
            let n = (b - a).cross(c - a);
            for &i in t {
                computed[i as usize] += n;
            }
        }
        let normals = (0..positions.len())
            .map(|i| {
                let given = mesh.normals.get(i).map_or(Vec3::ZERO, |&n| Vec3::from(n));
                given
                    .try_normalize()
                    .or_else(|| computed[i].try_normalize())
                    .unwrap_or(Vec3::Y)
            })
            .collect();
        let uvs = mesh
            .uvs
            .iter()
            .map(|&uv| Vec2::from(uv) * repeats_per_uv)
            .collect();
        let (lo, hi) = positions.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        let cell = ((hi - lo).max_element() / 8.0).max(1e-6);
        let cells = ((hi - lo) / cell).ceil().max(Vec3::ONE).as_uvec3();
        let mut compact = std::collections::HashMap::new();
        let tile_of_triangle: Vec<u32> = mesh
            .triangles
            .iter()
            .map(|t| {
                let centre = t.map(|i| positions[i as usize]).iter().sum::<Vec3>() / 3.0;
                let c = ((centre - lo) / cell).as_uvec3().min(cells - 1);
                let key = (c.z * cells.y + c.y) * cells.x + c.x;
                let next = compact.len() as u32;
                *compact.entry(key).or_insert(next)
            })
            .collect();
        Ok(Self {
            positions,
            normals,
            uvs,
            triangles: mesh.triangles.clone(),
            tile_of_triangle,
            n_tiles: compact.len() as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube, its faces wound outward (or inward), with or without normals, each
    /// face's vertices its own (as a file splits them at UV seams).
    fn cube(inward: bool, normals: bool) -> MeshData {
        let mut m = MeshData::default();
        for axis in 0..3 {
            for side in [-1.0f32, 1.0] {
                let n =
                    Vec3::from_array(std::array::from_fn(|k| if k == axis { side } else { 0.0 }));
                let (u, v) = (
                    n.any_orthonormal_vector(),
                    n.cross(n.any_orthonormal_vector()),
                );
                let base = m.positions.len() as u32;
                for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                    m.positions.push((0.5 * (n + u * a + v * b)).to_array());
                    m.uvs.push([(a + 1.0) / 2.0, (b + 1.0) / 2.0]);
                    if normals {
                        m.normals.push(n.to_array());
                    }
                }
                // (u, v, n) is right-handed, so 0-1-2 winds counter-clockwise seen from
                // outside.
                for t in [[0, 1, 2], [0, 2, 3]] {
                    let t = t.map(|k| base + k);
                    m.triangles
                        .push(if inward { [t[0], t[2], t[1]] } else { t });
                }
            }
        }
        m
    }

    #[test]
    fn a_mesh_wound_inside_out_or_against_its_normals_is_told_and_a_sound_one_is_not() {
        assert_eq!(cube(false, false).winding_note(), None);
        assert_eq!(cube(false, true).winding_note(), None);
        let inside_out = cube(true, false).winding_note().unwrap();
        assert!(inside_out.contains("inside out"), "{inside_out}");
        // A triangle with two corners on one point (as at a UV sphere's pole) leaves it
        // closed.
        let mut pole = cube(true, false);
        pole.positions.push(pole.positions[0]);
        pole.uvs.push([1.0, 1.0]);
        let n = pole.positions.len() as u32;
        pole.triangles.push([0, n - 1, 1]);
        assert!(
            pole.winding_note()
                .is_some_and(|n| n.contains("inside out"))
        );
        let against = cube(true, true).winding_note().unwrap();
        assert!(
            against.starts_with("100% of the mesh's area winds against"),
            "{against}"
        );
        // An open mesh without normals tells nothing either way.
        let mut open = cube(true, false);
        open.triangles.truncate(10);
        assert_eq!(open.winding_note(), None);
        for m in [cube(false, false), cube(true, true)] {
            m.check().unwrap();
        }
    }

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
