//! Placement: a strand set laid over a surface through its UVs.
//!
//! Every triangle receives the strands whose roots fall in its UV footprint, for every
//! repeat of the material it covers. A root exactly on an edge shared by two triangles is
//! planted once: the owner is decided from the edge's endpoints and the opposite corner
//! alone (the edge is oriented from its lexicographically smaller endpoint to the larger,
//! and the triangle on its left owns it), so re-welding or re-ordering the mesh changes
//! nothing. A root exactly on a vertex goes to the triangle that a fixed direction points
//! into from that vertex.
//!
//! Where a triangle covers less world area per unit of UV than the material's own repeat
//! (`repeat_m²` per square repeat), a strand is kept iff a hash of its id is below the
//! ratio: the density per square metre stays the authored one, poles of a UV sphere
//! included. Triangles covering more world area than that keep everything (the density
//! there falls below the authored one; give such surfaces more repeats).

use crate::hash::{channel, hash_in, stream, unit_f32};
use crate::macro_variation::MacroVariation;
use crate::set::StrandSet;
use crate::surface::Surface;
use bins::Bins;
use glam::{DVec2, Vec2, Vec3};
use order::rank_order;
use owner::{Owner, orient, root_in};

mod bins;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod order;
mod owner;

/// One planted strand: which strand of the set, and its root frame on the surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planted {
    /// Index into the set (so tiles stay in rank order).
    pub strand: u32,
    /// Root position in metres.
    pub position: Vec3,
    /// Unit surface normal at the root.
    pub normal: Vec3,
    /// Unit tangent along the surface's +u at the root, perpendicular to the normal.
    pub tangent: Vec3,
    /// Unit bitangent along +v (`normal × tangent`, flipped to follow +v).
    pub bitangent: Vec3,
    /// The root's surface UV, in repeats.
    pub uv: Vec2,
    /// The surface's triangle the root stands on ([`Surface::uv_gradient`] and
    /// [`Surface::curvature`] say how the surface runs around it).
    pub triangle: u32,
    /// The layer's macro patch value at the root, in `[0, 1]` (0 without macro
    /// variation): what its length and tint follow ([`MacroVariation`]).
    pub patch: f32,
}

/// The strands planted on one spatial tile, in rank order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlacedTile {
    /// The planted strands, sorted by their index in the set (which is rank order).
    pub strands: Vec<Planted>,
}

/// Plants `set` (one repeat of `repeat_m` metres) on `surface`; returns one tile per
/// surface tile, each in rank order. Tiles are planted in parallel; each depends only on
/// its own triangles, so the result does not depend on the thread count.
#[must_use]
pub fn place(set: &StrandSet, surface: &Surface, repeat_m: f32) -> Vec<PlacedTile> {
    let placer = Placer::new(set, surface);
    let mut tiles = vec![PlacedTile::default(); surface.n_tiles as usize];
    let jobs: Vec<(usize, &mut PlacedTile)> = tiles.iter_mut().enumerate().collect();
    crate::par::for_each("tuft placement", jobs, |(k, tile)| {
        placer.place_tile_into(set, surface, repeat_m, k, set.len(), tile);
    });
    tiles
}

/// Plants a set one tile at a time, and only as much of it as asked: the strands of a
/// rank prefix. A renderer plants a far tile's coarsest level and grows it as the camera
/// comes near; the strands planted for a prefix are exactly the first ones [`place`]
/// plants on that tile.
#[derive(Debug)]
pub struct Placer {
    bins: Bins,
    by_tile: Vec<Vec<usize>>,
    variation: MacroVariation,
}

impl Placer {
    /// Bins the roots of `set` and the triangles of `surface` by tile.
    #[must_use]
    pub fn new(set: &StrandSet, surface: &Surface) -> Self {
        let mut by_tile: Vec<Vec<usize>> = vec![Vec::new(); surface.n_tiles as usize];
        for (t, &tile) in surface.tile_of_triangle.iter().enumerate() {
            by_tile[tile as usize].push(t);
        }
        Self {
            bins: Bins::new(set),
            by_tile,
            variation: MacroVariation::OFF,
        }
    }

    /// Plants under `variation`: a strand is kept where its hash is also under the
    /// macro keep at its root, and carries the patch value there.
    #[must_use]
    pub fn with_variation(mut self, variation: MacroVariation) -> Self {
        self.variation = variation;
        self
    }

    /// Plants the strands `0..n_prefix` of `set` that fall on tile `tile`, in rank order,
    /// into `out` (cleared first). `set` and `surface` must be the ones given to
    /// [`Placer::new`].
    pub fn place_tile_into(
        &self,
        set: &StrandSet,
        surface: &Surface,
        repeat_m: f32,
        tile: usize,
        n_prefix: usize,
        out: &mut PlacedTile,
    ) {
        out.strands.clear();
        self.place_tile_range(set, surface, repeat_m, tile, 0..n_prefix, out);
    }

    /// Appends to `out` the strands `range` of `set` that fall on tile `tile`, in rank
    /// order. A tile grown slice by slice (`0..a`, then `a..b`, …) lists exactly what
    /// one call for `0..b` lists: every strand of a later slice follows every strand of
    /// an earlier one in rank order, so the slices need no merging.
    pub fn place_tile_range(
        &self,
        set: &StrandSet,
        surface: &Surface,
        repeat_m: f32,
        tile: usize,
        range: std::ops::Range<usize>,
        out: &mut PlacedTile,
    ) {
        let end = range.end.min(set.len()) as u32;
        let strands = range.start.min(end as usize) as u32..end;
        if strands.is_empty() {
            return;
        }
        let triangles = self.by_tile.get(tile).map_or(&[][..], Vec::as_slice);
        let mut frames = Vec::with_capacity(triangles.len());
        let mut found = Vec::new();
        let mut within = Within {
            strands,
            variation: &self.variation,
            patches: self.variation.sampler(),
        };
        for &t in triangles {
            let next = frames.len() as u32;
            let frame = find_in_triangle(
                surface,
                repeat_m,
                &self.bins,
                t,
                &mut within,
                next,
                &mut found,
            );
            frames.extend(frame);
        }
        // The roots are put in rank order, then framed in order. A strand planted in
        // two repeats of one tile appears twice: order those by UV too, so a prefix
        // lists them as the whole tile does.
        plant_in_order(&frames, &found, &rank_order(&found), &mut out.strands);
    }
}

/// Frames the roots `found` in `order` ([`rank_order`]'s keys) onto the end of `out`:
/// eight at a time on lanes where the CPU has AVX2 ([`lanes`]), which give the bits of
/// [`Frame::plant`], the rest one at a time.
fn plant_in_order(frames: &[Frame], found: &[Found], order: &[u64], out: &mut Vec<Planted>) {
    out.reserve(order.len());
    let at = |key: u64| &found[key as u32 as usize];
    let one = |&key: &u64| {
        let f = at(key);
        Planted {
            patch: f.patch,
            ..frames[f.frame as usize].plant(f.strand, f.uv)
        }
    };
    #[cfg(target_arch = "x86_64")]
    if crate::simd::level() >= crate::simd::Level::Avx2 {
        let mut chunks = order.chunks_exact(crate::f8::LANES);
        for eight in &mut chunks {
            // SAFETY: the level is AVX2 only where the CPU has AVX2.
            #[allow(unsafe_code)]
            unsafe {
                lanes::plant(frames, std::array::from_fn(|j| at(eight[j])), out);
            };
        }
        out.extend(chunks.remainder().iter().map(one));
        return;
    }
    out.extend(order.iter().map(one));
}

/// Which strands a triangle plants: a range of the set, under a macro variation.
struct Within<'a> {
    strands: std::ops::Range<u32>,
    variation: &'a MacroVariation,
    /// The patch values at the roots, from one sampler over the tile.
    patches: crate::macro_variation::Sampler,
}

/// A root a triangle plants, before it is framed: what the tile's rank sort moves.
#[derive(Clone, Copy, Debug)]
struct Found {
    strand: u32,
    /// The triangle's frame, in the tile's list.
    frame: u32,
    uv: Vec2,
    patch: f32,
}

/// Finds the strands triangle `t` plants and appends them to `found`, naming its frame
/// `frame_index`; returns the frame, or `None` where the triangle plants nothing.
fn find_in_triangle(
    surface: &Surface,
    repeat_m: f32,
    bins: &Bins,
    t: usize,
    within: &mut Within<'_>,
    frame_index: u32,
    found: &mut Vec<Found>,
) -> Option<Frame> {
    let varies = !within.variation.is_off();
    // Where the variation does not thin, the area thinning alone decides (the macro
    // keep is exactly 1) before the patch value is worked out.
    let thins = varies && within.variation.density != 0.0;
    let target = f64::from(repeat_m) * f64::from(repeat_m);
    let tri = &surface.triangles[t];
    let uv_area = f64::from(surface.uv_area(t));
    if uv_area <= 0.0 {
        return None;
    }
    let keep = (f64::from(surface.world_area(t)) / uv_area / target).min(1.0) as f32;
    if keep <= 0.0 {
        return None;
    }
    let [a, b, c] = tri.map(|i| surface.uvs[i as usize]);
    let mut uv = [a, b, c].map(|p| DVec2::new(f64::from(p.x), f64::from(p.y)));
    if orient(uv[0], uv[1], uv[2]) < 0.0 {
        uv.swap(1, 2);
    }
    let frame = Frame::new(surface, t);
    let owner = Owner::new(uv);
    let lo = a.min(b).min(c);
    let hi = a.max(b).max(c);
    for cj in lo.y.floor() as i32..=hi.y.floor() as i32 {
        for ci in lo.x.floor() as i32..=hi.x.floor() as i32 {
            let cell = Vec2::new(ci as f32, cj as f32);
            let cell_seed = (u64::from(ci as u32) << 32) | u64::from(cj as u32);
            // The repeat's area-thinning numbers, one mix a root.
            let area = stream(cell_seed, channel::AREA);
            let mut owned = |item: &bins::Binned| {
                let r = item.root;
                let thinned = |share: f32| {
                    share < 1.0 && unit_f32(hash_in(area, u64::from(item.id))) >= share
                };
                // The area thinning alone is decided before the root is framed (most
                // of a pole's candidates go); with macro variation that thins, one hash
                // answers both thinnings, kept under their product at the root's patch.
                if !thins && thinned(keep) {
                    return;
                }
                let uv = Vec2::from(r) + cell;
                let mut patch = 0.0;
                if varies {
                    patch = within.patches.patch(frame.position(uv));
                    if thins && thinned(keep * within.variation.keep(patch)) {
                        return;
                    }
                }
                found.push(Found {
                    strand: item.strand,
                    frame: frame_index,
                    uv,
                    patch,
                });
            };
            bins.runs_in(lo - cell, hi - cell, within.strands.clone(), |run| {
                owner.each_owned(run, [ci, cj], &mut owned);
            });
        }
    }
    Some(frame)
}

/// A triangle's affine map from UV to position, normal and tangents.
struct Frame {
    triangle: u32,
    uv: [Vec2; 3],
    pos: [Vec3; 3],
    nrm: [Vec3; 3],
    dp_du: Vec3,
    dp_dv: Vec3,
}

impl Frame {
    fn new(s: &Surface, t: usize) -> Self {
        let tri = &s.triangles[t];
        let [dp_du, dp_dv] = s.position_derivatives(t);
        Self {
            triangle: t as u32,
            uv: tri.map(|i| s.uvs[i as usize]),
            pos: tri.map(|i| s.positions[i as usize]),
            nrm: tri.map(|i| s.normals[i as usize]),
            dp_du,
            dp_dv,
        }
    }

    /// The barycentric weights of UV point `p`.
    fn weights(&self, p: Vec2) -> [f32; 3] {
        let [a, b, c] = self.uv;
        let det = (b - a).perp_dot(c - a);
        let w1 = (p - a).perp_dot(c - a) / det;
        let w2 = (b - a).perp_dot(p - a) / det;
        [1.0 - w1 - w2, w1, w2]
    }

    /// Where UV point `p` stands, metres: what [`Frame::plant`] puts in `position`.
    fn position(&self, p: Vec2) -> Vec3 {
        let [w0, w1, w2] = self.weights(p);
        self.pos[0] * w0 + self.pos[1] * w1 + self.pos[2] * w2
    }

    fn plant(&self, strand: u32, p: Vec2) -> Planted {
        let [w0, w1, w2] = self.weights(p);
        let position = self.pos[0] * w0 + self.pos[1] * w1 + self.pos[2] * w2;
        let normal = (self.nrm[0] * w0 + self.nrm[1] * w1 + self.nrm[2] * w2).normalize_or(Vec3::Y);
        let tangent = (self.dp_du - normal * normal.dot(self.dp_du))
            .normalize_or(normal.any_orthonormal_vector());
        let mut bitangent = normal.cross(tangent);
        if bitangent.dot(self.dp_dv) < 0.0 {
            bitangent = -bitangent;
        }
        Planted {
            strand,
            position,
            normal,
            tangent,
            bitangent,
            uv: p,
            triangle: self.triangle,
            patch: 0.0,
        }
    }
}

impl Owner {
    /// Calls `f` with each strand of `run` whose root, in the repeat whose corner is
    /// `cell`, the triangle owns ([`Owner::owns`]), in order: four roots at once where
    /// the CPU has AVX2 ([`lanes::each_owned`], the same numbers).
    fn each_owned(&self, run: &[bins::Binned], cell: [i32; 2], f: &mut impl FnMut(&bins::Binned)) {
        #[allow(unused_mut)]
        let mut rest = run;
        #[cfg(target_arch = "x86_64")]
        if crate::simd::level() >= crate::simd::Level::Avx2 {
            // SAFETY: the level is AVX2 only where the CPU has AVX2.
            #[allow(unsafe_code)]
            {
                rest = unsafe { lanes::each_owned(self, run, cell, f) };
            }
        }
        for item in rest {
            if self.owns(root_in(item, cell)) {
                f(item);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::hash;

    fn set_at(roots: &[[f32; 2]]) -> StrandSet {
        let mut s = StrandSet::with_capacity(roots.len());
        for (i, &r) in roots.iter().enumerate() {
            s.root_uv.push(r);
            s.rank.push(i as f32 / roots.len() as f32);
            s.clump.push(0);
            s.length.push(0.05);
            s.width.push(0.003);
            s.lean.push([0.0; 2]);
            s.bend.push(0.0);
            s.root_color.push([0.1; 3]);
            s.tip_color.push([0.2; 3]);
            s.tip_pull.push([0.0; 2]);
            s.id.push(i as u32);
        }
        s.fill_neutral_groom();
        s
    }

    #[test]
    fn a_prefix_plants_the_first_strands_place_plants() {
        let set = crate::testing::random_set(3000, 11, 40);
        let sphere = Surface::sphere(1.0, 24, 12, 3.0, 2.0);
        let full = place(&set, &sphere, 2.0);
        let placer = Placer::new(&set, &sphere);
        let mut tile = PlacedTile::default();
        for n_prefix in [0, 1, 700, 3000] {
            for (k, whole) in full.iter().enumerate() {
                placer.place_tile_into(&set, &sphere, 2.0, k, n_prefix, &mut tile);
                let expected: Vec<Planted> = whole
                    .strands
                    .iter()
                    .copied()
                    .filter(|p| (p.strand as usize) < n_prefix)
                    .collect();
                assert!(tile.strands == expected, "tile {k}, prefix {n_prefix}");
            }
        }
    }

    #[test]
    fn a_tile_grown_in_slices_lists_what_one_call_lists() {
        let set = crate::testing::random_set(3000, 11, 40);
        let sphere = Surface::sphere(1.0, 24, 12, 3.0, 2.0);
        let placer = Placer::new(&set, &sphere);
        let (mut whole, mut sliced) = (PlacedTile::default(), PlacedTile::default());
        for k in 0..sphere.n_tiles as usize {
            placer.place_tile_into(&set, &sphere, 2.0, k, 2500, &mut whole);
            sliced.strands.clear();
            // Uneven slices, an empty one, and one past the set's end clipped to 2500.
            for range in [0..1, 1..700, 700..700, 700..1999, 1999..2500] {
                placer.place_tile_range(&set, &sphere, 2.0, k, range, &mut sliced);
            }
            assert!(sliced == whole, "tile {k}");
        }
        assert!(!whole.strands.is_empty());
    }

    #[test]
    fn macro_variation_thins_by_the_patch_and_its_prefixes_still_nest() {
        let set = crate::testing::random_set(4000, 5, 40);
        // 40 m of ground in 2 m repeats, 5 m tiles; patches of about 8 m.
        let plane = Surface::plane(40.0, 8, 20.0);
        let v = MacroVariation {
            scale_m: 8.0,
            density: 0.8,
            ..MacroVariation::OFF
        };
        let varied = Placer::new(&set, &plane).with_variation(v);
        let bare = Placer::new(&set, &plane);
        let (mut with, mut without, mut prefix) = (
            PlacedTile::default(),
            PlacedTile::default(),
            PlacedTile::default(),
        );
        let (mut sparse, mut dense) = ((0.0, 0usize), (0.0, 0usize));
        for tile in 0..64 {
            varied.place_tile_into(&set, &plane, 2.0, tile, set.len(), &mut with);
            bare.place_tile_into(&set, &plane, 2.0, tile, set.len(), &mut without);
            // What is kept is what the bare placement plants, with the patch value at
            // its root; and the tile's strands under a rank prefix are the prefix.
            let mut kept = with.strands.iter().peekable();
            for p in &without.strands {
                let n = v.patch(p.position);
                let half = if n > 0.5 { &mut sparse } else { &mut dense };
                half.0 += f64::from(v.keep(n));
                if kept
                    .peek()
                    .is_some_and(|k| k.strand == p.strand && k.uv == p.uv)
                {
                    let k = kept.next().expect("peeked");
                    assert_eq!(k.patch, n);
                    assert_eq!(Planted { patch: 0.0, ..*k }, *p);
                    half.1 += 1;
                }
            }
            assert!(
                kept.next().is_none(),
                "tile {tile} planted a strand bare did not"
            );
            varied.place_tile_into(&set, &plane, 2.0, tile, 1000, &mut prefix);
            let expected: Vec<Planted> = with
                .strands
                .iter()
                .copied()
                .filter(|p| p.strand < 1000)
                .collect();
            assert!(prefix.strands == expected, "tile {tile}");
        }
        // The density follows the macro keep in sparse patches and in dense ones.
        for (expected, got) in [sparse, dense] {
            assert!(expected > 1000.0, "{expected}");
            let off = (got as f64 - expected).abs();
            assert!(
                off < 4.0 * expected.sqrt(),
                "{got} kept, {expected:.0} expected"
            );
        }
    }

    /// Every planted (strand, uv) pair, sorted, across tiles.
    fn planted(set: &StrandSet, s: &Surface, repeat_m: f32) -> Vec<(u32, [u32; 2])> {
        let mut all: Vec<(u32, [u32; 2])> = place(set, s, repeat_m)
            .iter()
            .flat_map(|t| {
                t.strands
                    .iter()
                    .map(|p| (p.strand, [p.uv.x.to_bits(), p.uv.y.to_bits()]))
            })
            .collect();
        all.sort_unstable();
        all
    }

    #[test]
    fn roots_on_shared_edges_and_vertices_are_planted_once() {
        // A 4×4 plane of one repeat: quad edges at multiples of 0.25, diagonals too.
        let surface = Surface::plane(1.0, 4, 1.0);
        let roots = [
            [0.25, 0.1],    // on a vertical edge
            [0.1, 0.5],     // on a horizontal edge
            [0.25, 0.5],    // on a vertex shared by six triangles
            [0.125, 0.125], // on a diagonal
            [0.3, 0.7],     // inside
        ];
        let set = set_at(&roots);
        let got = planted(&set, &surface, 1.0);
        let ids: Vec<u32> = got.iter().map(|g| g.0).collect();
        assert_eq!(ids, vec![0, 1, 2, 3, 4], "each root exactly once");
    }

    #[test]
    fn shuffling_and_splitting_the_mesh_changes_nothing() {
        let surface = Surface::plane(1.0, 4, 2.0);
        let mut roots = Vec::new();
        for i in 0..40 {
            for j in 0..40 {
                roots.push([i as f32 / 40.0, j as f32 / 40.0]); // many on edges and vertices
            }
        }
        let set = set_at(&roots);
        let reference = planted(&set, &surface, 0.5);
        // Every root appears once per repeat: 2 × 2 repeats.
        assert_eq!(reference.len(), 4 * roots.len());
        // Reverse the triangle order and rotate each triangle's corners.
        let mut shuffled = surface.clone();
        shuffled.triangles.reverse();
        shuffled.tile_of_triangle.reverse();
        for t in &mut shuffled.triangles {
            t.rotate_left(1);
        }
        assert_eq!(planted(&set, &shuffled, 0.5), reference);
        // Split every vertex (no sharing at all): positions alone decide.
        let mut split = surface.clone();
        split.positions.clear();
        split.normals.clear();
        split.uvs.clear();
        for t in &mut split.triangles {
            for k in t.iter_mut() {
                let i = *k as usize;
                split.positions.push(surface.positions[i]);
                split.normals.push(surface.normals[i]);
                split.uvs.push(surface.uvs[i]);
                *k = split.positions.len() as u32 - 1;
            }
        }
        assert_eq!(planted(&set, &split, 0.5), reference);
    }

    #[test]
    fn sphere_density_holds_from_pole_to_pole() {
        // Uniform random roots, 60k per repeat; a repeat of 1.2 m.
        let n = 60_000;
        let roots: Vec<[f32; 2]> = (0..n)
            .map(|i| [unit_f32(hash(5, i, 0)), unit_f32(hash(5, i, 1))])
            .collect();
        let set = set_at(&roots);
        let repeat_m = 1.2;
        let sphere = Surface::sphere(1.0, 64, 32, 6.0, 3.0);
        let tiles = place(&set, &sphere, repeat_m);
        let authored = n as f64 / (f64::from(repeat_m) * f64::from(repeat_m));
        // Count per latitude band: the planted strands' height on the sphere.
        let bands = 8;
        let mut count = vec![0u64; bands];
        for p in tiles.iter().flat_map(|t| &t.strands) {
            let lat = p.position.y.clamp(-1.0, 1.0);
            count[(((lat + 1.0) / 2.0 * bands as f32) as usize).min(bands - 1)] += 1;
        }
        // A band between heights y0 and y1 on a unit sphere has area 2π (y1 − y0).
        for (b, &c) in count.iter().enumerate() {
            let area = std::f64::consts::TAU * 2.0 / bands as f64;
            let density = c as f64 / area;
            let err = (density - authored) / authored;
            assert!(
                err.abs() < 0.10,
                "band {b}: {density:.0}/m² vs {authored:.0}/m² ({err:+.3})"
            );
        }
    }

    #[test]
    fn root_frames_are_orthonormal_and_follow_the_uvs() {
        let set = set_at(&[[0.3, 0.6]]);
        let tiles = place(&set, &Surface::sphere(1.0, 16, 8, 2.0, 1.0), 3.0);
        let p = tiles.iter().flat_map(|t| &t.strands).next().unwrap();
        assert!((p.normal.length() - 1.0).abs() < 1e-5);
        assert!(p.normal.dot(p.tangent).abs() < 1e-5);
        assert!(p.normal.dot(p.bitangent).abs() < 1e-5);
        assert!(
            (p.position.length() - 1.0).abs() < 0.05,
            "{}",
            p.position.length()
        );
    }

    /// The gradient maps a step over the root's triangle back to the UV the placement
    /// gives the point it reaches.
    #[test]
    fn the_uv_gradient_follows_the_surface() {
        let surface = Surface::sphere(1.0, 16, 8, 2.0, 1.0);
        let frame = Frame::new(&surface, 40);
        let [a, b, c] = frame.uv;
        let centre = (a + b + c) / 3.0;
        let root = frame.plant(0, centre);
        for target in [a, b, c, (a + b) / 2.0] {
            let step = frame.plant(0, target).position - root.position;
            let [gu, gv] = surface.uv_gradient(root.triangle as usize);
            let uv = root.uv + Vec2::new(gu.dot(step), gv.dot(step));
            assert!((uv - target).length() < 1e-4, "{uv} vs {target}");
        }
    }

    #[test]
    fn curvature_is_one_over_the_radius_and_zero_on_a_plane() {
        let set = set_at(&[[0.3, 0.6]]);
        let on = |s: &Surface| {
            place(&set, s, 2.0)
                .iter()
                .flat_map(|t| &t.strands)
                .map(|p| s.curvature(p.triangle as usize))
                .next()
                .unwrap()
        };
        let sphere = on(&Surface::sphere(2.0, 64, 32, 2.0, 1.0));
        assert!((sphere - 0.5).abs() < 0.01, "{sphere}");
        assert!(on(&Surface::plane(4.0, 4, 2.0)).abs() < 1e-6);
    }
}
