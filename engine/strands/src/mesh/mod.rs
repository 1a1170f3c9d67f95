//! Strand meshes: ribbons and tubes built straight into flat vertex buffers, with one
//! strand's triangles for all.
//!
//! One vertex layout for every profile ([`PackedVertex`], 32 bytes; [`StrandVertex`] is
//! the same vertex in floats). Vertices hold their level-0 position and the `across`
//! offset from the centreline, so a renderer widens a level's survivors by moving each
//! vertex along `across` — the buffers never change between levels. A tile's strands
//! are meshed in rank order, each with the same vertices and triangles, so level `k` is
//! the index range `0 .. n_k × indices_per_strand` of [`TileMesh::indices`].

use crate::placement::{PlacedTile, Planted};
use crate::set::StrandSet;
use crate::shape::{Curve, Groom, facing, reach};
use bytemuck::{Pod, Zeroable};
use glam::Vec3;
use serde::{Deserialize, Serialize};

mod buffers;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod packed;

pub use buffers::{LevelMesh, TileMesh, level_mesh, strand_indices_into};

pub use packed::{
    Frame, PackedVertex, f16_bits, f16_value, f16x4, oct_decode, oct_encode, rank_value,
};
use packed::{Quantiser, color_bits, rank_bits, unit_bits};

/// The most segments along a strand.
pub const MAX_SEGMENTS: u32 = 16;

/// The most points along a centreline.
const MAX_POINTS: usize = MAX_SEGMENTS as usize + 1;

/// How a strand is meshed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Profile {
    /// A flat ribbon of `segments` quads, drawn two-sided (grass blades).
    Ribbon {
        /// Segments along the length, 1..=16 (see [`Profile::clamped`]).
        segments: u32,
    },
    /// A tube of `sides` sides and `segments` segments (fur, hay).
    Tube {
        /// Sides around, 3..=8.
        sides: u32,
        /// Segments along the length, 1..=16.
        segments: u32,
    },
}

impl Profile {
    /// What is out of range in the profile: each a sentence naming the
    /// setting and its range; empty when every one is in range.
    #[must_use]
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        match *self {
            Profile::Ribbon { segments } if !(1..=16).contains(&segments) => {
                problems.push(format!("ribbon segments {segments} outside 1..=16"));
            }
            Profile::Tube { sides, segments }
                if !(3..=8).contains(&sides) || !(1..=16).contains(&segments) =>
            {
                problems.push(format!(
                    "tube sides {sides} (3..=8) or segments {segments} (1..=16) out of range"
                ));
            }
            _ => {}
        }
        problems
    }

    /// The profile with its counts brought into range (segments 1..=16, sides 3..=8).
    /// The mesher and every count below use this, so a profile read from a hand-edited
    /// file meshes as its nearest valid one instead of failing half-way.
    #[must_use]
    pub const fn clamped(self) -> Self {
        const fn within(x: u32, lo: u32, hi: u32) -> u32 {
            if x < lo {
                lo
            } else if x > hi {
                hi
            } else {
                x
            }
        }
        match self {
            Self::Ribbon { segments } => Self::Ribbon {
                segments: within(segments, 1, MAX_SEGMENTS),
            },
            Self::Tube { sides, segments } => Self::Tube {
                sides: within(sides, 3, 8),
                segments: within(segments, 1, MAX_SEGMENTS),
            },
        }
    }

    /// Vertices drawn a strand: what its indices count, and what a level mesh holds.
    #[must_use]
    pub const fn vertices_per_strand(self) -> usize {
        match self.clamped() {
            Self::Ribbon { segments } => 2 * (segments as usize + 1),
            Self::Tube { sides, segments } => sides as usize * (segments as usize + 1),
        }
    }

    /// Vertices a tile stores a strand ([`TileMesh`]): a ribbon's one a centreline point,
    /// each drawn as its two sides; a tube's every vertex.
    #[must_use]
    pub const fn stored_per_strand(self) -> usize {
        match self.clamped() {
            Self::Ribbon { segments } => segments as usize + 1,
            Self::Tube { .. } => self.vertices_per_strand(),
        }
    }

    /// Indices per strand (three per triangle).
    #[must_use]
    pub const fn indices_per_strand(self) -> usize {
        match self.clamped() {
            Self::Ribbon { segments } => 6 * segments as usize,
            Self::Tube { sides, segments } => 6 * sides as usize * segments as usize,
        }
    }

    /// Points along the centreline.
    #[must_use]
    pub const fn points(self) -> usize {
        match self.clamped() {
            Self::Ribbon { segments } | Self::Tube { segments, .. } => segments as usize + 1,
        }
    }
}

/// One strand vertex in floats: what meshing computes, a level mesh and the baked glTF
/// meshes hold; a tile stores it packed ([`PackedVertex`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct StrandVertex {
    /// Position at level-0 width, metres.
    pub position: [f32; 3],
    /// Offset from the centreline to this vertex at level-0 width; a level widened by
    /// `w` draws the vertex at `position + (w − 1) · across`.
    pub across: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// `(along, around)`: 0 at the root to 1 at the tip; 0..1 across the ribbon or around
    /// the tube.
    pub uv: [f32; 2],
    /// Linear RGB.
    pub color: [f32; 3],
    /// How much wind moves this vertex: 0 at the root, 1 at the tip.
    pub wind: f32,
    /// The strand's rank, for dithered level transitions.
    pub rank: f32,
}

/// Meshes the strands of one placed tile.
#[must_use]
pub fn build_tile(set: &StrandSet, tile: &PlacedTile, profile: Profile) -> TileMesh {
    let mut mesh = TileMesh::default();
    build_tile_into(set, tile, profile, &mut mesh);
    mesh
}

/// What meshing reads of one strand, gathered into one record: the set's arrays are
/// indexed in rank order while a tile visits a spatial subset of it, so reading each
/// array separately cost a cache miss per attribute.
#[derive(Clone, Copy, Default)]
pub(crate) struct Shape {
    pub rank: f32,
    pub length: f32,
    pub width: f32,
    pub reach: glam::Vec2,
    pub bend: f32,
    pub id: u32,
    pub root_color: [f32; 3],
    pub tip_color: [f32; 3],
    pub groom: Groom,
}

impl Shape {
    pub(crate) fn of(set: &StrandSet, i: usize) -> Self {
        Self {
            rank: set.rank[i],
            length: set.length[i],
            width: set.width[i],
            reach: reach(set.length[i], set.lean[i], set.tip_pull[i]),
            bend: set.bend[i],
            id: set.id[i],
            root_color: set.root_color[i],
            tip_color: set.tip_color[i],
            groom: set.groom(i),
        }
    }

    /// The strand's centreline, groomed.
    pub(crate) fn curve(&self) -> Curve {
        Curve::groomed(self.length, self.reach, self.bend, &self.groom, self.id)
    }

    /// Its width at parameter `t`.
    pub(crate) fn width_at(&self, t: f32) -> f32 {
        self.groom.width_at(self.width, t)
    }

    pub(crate) fn color_at(&self, t: f32) -> [f32; 3] {
        let (r, c) = (self.root_color, self.tip_color);
        [
            r[0] + (c[0] - r[0]) * t,
            r[1] + (c[1] - r[1]) * t,
            r[2] + (c[2] - r[2]) * t,
        ]
    }
}

/// How far any point of any strand of `set` may lie from its root, metres: its length
/// (the bent centreline never reaches farther), twice the curl's radius, the frizz's
/// widest wobble and half its width, each at the set's largest. A tile's [`Frame`] is
/// its roots' box grown by this.
#[must_use]
pub fn reach_bound(set: &StrandSet) -> f32 {
    Largest::of(set, 0..set.len()).reach()
}

/// The largest length, width, curl radius and frizz of a run of strands: what
/// [`reach_bound`] is made of, found a run at a time where the runs are read anyway.
#[derive(Clone, Copy, Default)]
struct Largest([f32; 4]);

impl Largest {
    /// Of strands `run` of `set`. A negative or NaN value counts as zero (NaN fails
    /// every comparison).
    fn of(set: &StrandSet, run: std::ops::Range<usize>) -> Self {
        // Eight running maxima, which the compiler keeps in one vector register (the
        // largest is the largest in any order).
        fn most<T>(column: &[T], value: impl Fn(&T) -> f32) -> f32 {
            let mut lanes = [0.0f32; 8];
            let mut chunks = column.chunks_exact(8);
            for chunk in &mut chunks {
                for (m, x) in lanes.iter_mut().zip(chunk) {
                    *m = larger(*m, value(x));
                }
            }
            let rest = chunks.remainder().iter().map(&value);
            lanes.into_iter().chain(rest).fold(0.0, larger)
        }
        let column = |c: &[f32]| most(c.get(run.clone()).unwrap_or(&[]), |&x| x);
        Self([
            column(&set.length),
            column(&set.width),
            most(set.curl.get(run.clone()).unwrap_or(&[]), |c| c[0]),
            column(&set.frizz),
        ])
    }

    /// The largest of both.
    fn and(self, other: Self) -> Self {
        Self(std::array::from_fn(|k| larger(self.0[k], other.0[k])))
    }

    /// [`reach_bound`] of the strands these are the largest of.
    fn reach(self) -> f32 {
        use crate::shape::{MAX_CURL, MAX_FRIZZ};
        let [length, width, curl, frizz] = self.0;
        let (curl, frizz) = (curl.min(MAX_CURL), frizz.min(MAX_FRIZZ));
        let bound = length * (1.0 + 2.0 * curl + 1.6 * frizz) + 0.5 * width;
        if bound.is_finite() { bound } else { 0.0 }
    }
}

/// `x` where it is above `m`, else `m` (so a NaN `x` leaves `m`).
fn larger(m: f32, x: f32) -> f32 {
    if x > m { x } else { m }
}

/// The frame a tile of strands at most `reach` from their roots is packed in.
#[must_use]
pub fn tile_frame(tile: &PlacedTile, reach: f32) -> Frame {
    let (lo, hi) = packed::bounds(tile.strands.iter().map(|p| p.position));
    Frame::around(lo, hi, reach)
}

/// The frame each tile packs its strands in, from the tiles' boxes
/// ([`crate::surface::Surface::tile_boxes`]), for strands at most `reach` from their
/// roots ([`reach_bound`]): each box grown by `reach`. Known before any strand is
/// planted, so a tile grown slice by slice packs every slice alike.
#[must_use]
pub fn tile_frames(boxes: &[(Vec3, Vec3)], reach: f32) -> Vec<Frame> {
    boxes
        .iter()
        .map(|&(lo, hi)| Frame::around(lo, hi, reach))
        .collect()
}

/// Meshes the strands of one placed tile into `mesh`, reusing its buffers (a renderer
/// rebuilding a tile keeps them: no allocation, no fresh pages).
pub fn build_tile_into(set: &StrandSet, tile: &PlacedTile, profile: Profile, mesh: &mut TileMesh) {
    mesh.clear();
    mesh.frame = tile_frame(tile, reach_bound(set));
    append_strands(set, &tile.strands, profile, mesh);
}

/// Meshes `strands` (the next slice of a tile, in rank order) onto the end of `mesh`, in
/// its frame: a tile meshed slice by slice is the tile meshed at once, vertex for vertex.
/// The frame must hold every strand ([`reach_bound`]); a vertex outside it is held at
/// its edge.
pub fn append_strands(set: &StrandSet, strands: &[Planted], profile: Profile, mesh: &mut TileMesh) {
    build_with(|i| Shape::of(set, i), |_| {}, strands, profile, mesh);
}

/// Meshes `tile` into `mesh`, reading strand `i` through `shape_of`. The tile visits the
/// set out of order, so `ahead(i)` is told of strand `i` [`GATHER_AHEAD`] strands before
/// it is read (to [`prefetch`] its record): fetched only as each strand is meshed, every
/// record was a cache miss nothing overlapped.
fn build_with<S: std::borrow::Borrow<Shape>>(
    shape_of: impl Fn(usize) -> S,
    ahead: impl Fn(usize),
    strands: &[Planted],
    profile: Profile,
    mesh: &mut TileMesh,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::level() >= crate::simd::Level::Avx2 {
        // SAFETY: the level is AVX2 only where the CPU has AVX2 and F16C.
        #[allow(unsafe_code)]
        unsafe {
            build_with_avx2(shape_of, ahead, strands, profile, mesh);
        }
        return;
    }
    build_with_on::<false, S>(shape_of, ahead, strands, profile, mesh);
}

/// [`build_with_on`] compiled for AVX2 and F16C: the same arithmetic (no fused
/// multiply-adds), plain ribbons eight strands at a time ([`lanes`]), the rest's half
/// floats converted inline.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,f16c")]
fn build_with_avx2<S: std::borrow::Borrow<Shape>>(
    shape_of: impl Fn(usize) -> S,
    ahead: impl Fn(usize),
    strands: &[Planted],
    profile: Profile,
    mesh: &mut TileMesh,
) {
    build_with_on::<true, S>(shape_of, ahead, strands, profile, mesh);
}

/// [`build_with`] on whatever instruction set it is compiled for. `AVX2` (set only by
/// [`build_with_avx2`]) meshes groups of eight plain ribbons on lanes and puts the
/// ribbon's body in the loop, where its half floats convert inline; on the baseline the
/// ribbon stays a call, which measured faster. A group's records are asked for once
/// (borrowed where they lie when `shape_of` lends them, made where it makes them): a
/// group with a groomed strand is meshed strand by strand from them (the one-at-a-time
/// path gives a plain ribbon the lanes' bytes).
#[inline(always)]
fn build_with_on<const AVX2: bool, S: std::borrow::Borrow<Shape>>(
    shape_of: impl Fn(usize) -> S,
    ahead: impl Fn(usize),
    strands: &[Planted],
    profile: Profile,
    mesh: &mut TileMesh,
) {
    let profile = profile.clamped();
    let n = strands.len();
    mesh.vertices.reserve(n * profile.stored_per_strand());
    mesh.ranks.reserve(n);
    mesh.paired = matches!(profile, Profile::Ribbon { .. });
    let n_points = profile.points();
    let last = (n_points - 1) as f32;
    let mut centre = [Vec3::ZERO; MAX_POINTS];
    let centre = &mut centre[..n_points];
    index_pattern_into(profile, &mut mesh.pattern);
    let q = Quantiser::new(&mesh.frame);
    let mut one = |mesh: &mut TileMesh, planted: &Planted, shape: &Shape| {
        mesh.ranks.push(shape.rank);
        let frame =
            |v: Vec3| planted.tangent * v.x + planted.bitangent * v.y + planted.normal * v.z;
        let curve = shape.curve();
        for (k, c) in centre.iter_mut().enumerate() {
            *c = planted.position + frame(curve.at(k as f32 / last));
        }
        // The ribbon faces across its lean; an upright strand faces a way of its own.
        let side_2d = facing(shape.reach, shape.id);
        let side = frame(side_2d.extend(0.0)).normalize_or(planted.tangent);
        match profile {
            Profile::Ribbon { .. } if AVX2 => {
                ribbon_body(mesh, &q, shape, planted, centre, side);
            }
            Profile::Ribbon { .. } => ribbon(mesh, &q, shape, planted, centre, side),
            Profile::Tube { sides, .. } => tube(mesh, &q, shape, centre, side, sides),
        }
    };
    // The next strand whose record is asked for ahead.
    let mut asked = 0;
    let mut i = 0;
    while i < n {
        let group = if AVX2 && matches!(profile, Profile::Ribbon { .. }) && i + GROUP <= n {
            GROUP
        } else {
            1
        };
        let want = (i + group + GATHER_AHEAD).min(n);
        for p in &strands[asked.max(i)..want] {
            ahead(p.strand as usize);
        }
        asked = want;
        #[cfg(target_arch = "x86_64")]
        if group == GROUP {
            let planted: &[Planted; GROUP] =
                strands[i..i + GROUP].try_into().expect("eight strands");
            let shapes: [S; GROUP] = std::array::from_fn(|j| shape_of(planted[j].strand as usize));
            let shapes: [&Shape; GROUP] = std::array::from_fn(|j| shapes[j].borrow());
            i += GROUP;
            if shapes.iter().all(|s| s.groom.is_plain()) {
                // SAFETY: `AVX2` is set only in `build_with_avx2`, which runs where the
                // CPU has AVX2 and F16C.
                #[allow(unsafe_code)]
                unsafe {
                    lanes::ribbons(mesh, &q, planted, shapes, n_points);
                }
            } else {
                for (p, s) in planted.iter().zip(shapes) {
                    one(mesh, p, s);
                }
            }
            continue;
        }
        one(
            mesh,
            &strands[i],
            shape_of(strands[i].strand as usize).borrow(),
        );
        i += 1;
    }
}

/// How many plain ribbons the AVX2 body meshes at once: its lanes ([`lanes::LANES`]
/// on x86-64; named here, as other targets build no lanes).
const GROUP: usize = 8;
#[cfg(target_arch = "x86_64")]
const _: () = assert!(GROUP == lanes::LANES);

/// How many strands ahead of the mesher a tile's records are prefetched: the loads
/// alone overlapped too few of the misses (measured in BENCHMARKS.md, Geometry: "The
/// records prefetched ahead of the gather"; 32 was no better).
const GATHER_AHEAD: usize = 16;

/// Asks the core to start loading the cache lines of `record`'s first and last bytes
/// (every line it spans, where the allocation is 8-byte aligned, as the system
/// allocator's are): a hint, with no effect on any result.
#[inline]
fn prefetch(record: &Shape) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first: *const i8 = std::ptr::from_ref(record).cast();
        let last = first.wrapping_add(size_of::<Shape>() - 1);
        // SAFETY: a prefetch reads nothing into the program and cannot fault.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            _mm_prefetch::<_MM_HINT_T0>(last);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = record;
}

/// The indices of one strand's triangles, counted from its first vertex, into `out`.
fn index_pattern_into(profile: Profile, out: &mut Vec<u32>) {
    out.clear();
    match profile.clamped() {
        Profile::Ribbon { segments } => {
            for k in 0..segments {
                let a = 2 * k;
                out.extend([a, a + 1, a + 2, a + 1, a + 3, a + 2]);
            }
        }
        Profile::Tube { sides, segments } => {
            for k in 0..segments {
                for s in 0..sides {
                    let a = k * sides + s;
                    let b = k * sides + (s + 1) % sides;
                    let (c, d) = (a + sides, b + sides);
                    out.extend([a, b, c, b, d, c]);
                }
            }
        }
    }
}

/// Meshes every tile, the tiles spread over the available cores (each tile is
/// independent, so the result does not depend on how many there are).
#[must_use]
pub fn build_tiles(set: &StrandSet, tiles: &[PlacedTile], profile: Profile) -> Vec<TileMesh> {
    let mut out = Vec::new();
    build_tiles_into(set, tiles, profile, &mut out);
    out
}

/// As [`build_tiles`], reusing the buffers of `out`.
pub fn build_tiles_into(
    set: &StrandSet,
    tiles: &[PlacedTile],
    profile: Profile,
    out: &mut Vec<TileMesh>,
) {
    out.resize_with(tiles.len(), TileMesh::default);
    // One front-to-back pass gathers every strand's record (split over the cores);
    // tiles then read one cache line per strand. Each run of records is written as it
    // is made (a buffer filled first and written again cost as much as the records), a
    // power of two long, so a strand's is found by a shift: eight runs a core at least,
    // so that rounding up to a power of two leaves no core with most of the work. The
    // same pass finds the reach every tile's frame is grown by.
    let n = set.len();
    let shift = n
        .div_ceil(8 * crate::par::threads())
        .max(1)
        .next_power_of_two()
        .trailing_zeros();
    let runs: Vec<usize> = (0..n.div_ceil(1 << shift)).collect();
    let made: Vec<(Vec<Shape>, Largest)> = crate::par::map("tuft mesh", runs, |r| {
        let run = r << shift..((r + 1) << shift).min(n);
        let shapes = run.clone().map(|i| Shape::of(set, i)).collect();
        (shapes, Largest::of(set, run))
    });
    let reach = made
        .iter()
        .fold(Largest::default(), |all, (_, run)| all.and(*run))
        .reach();
    let shapes: Vec<Vec<Shape>> = made.into_iter().map(|(shapes, _)| shapes).collect();
    let shapes = &shapes;
    let mask = (1 << shift) - 1;
    let jobs: Vec<(&PlacedTile, &mut TileMesh)> = tiles.iter().zip(out.iter_mut()).collect();
    crate::par::for_each("tuft mesh", jobs, |(t, m)| {
        m.clear();
        m.frame = tile_frame(t, reach);
        build_with(
            |i| &shapes[i >> shift][i & mask],
            |i| prefetch(&shapes[i >> shift][i & mask]),
            &t.strands,
            profile,
            m,
        );
    });
}

/// One repeat of `set` laid on a flat plane (`repeat_m` square, facing +y, 4 × 4 tiles)
/// and meshed with `profile`: the tiles every level of a baked set is cut from.
#[must_use]
pub fn repeat_tiles(set: &StrandSet, repeat_m: f32, profile: Profile) -> Vec<TileMesh> {
    let plane = crate::surface::Surface::plane(repeat_m, 4, 1.0);
    let placed = crate::placement::place(set, &plane, repeat_m);
    build_tiles(set, &placed, profile)
}

/// The centreline's segment at point `k` (to the next point; the last point's, from
/// the one before), unnormalised.
fn segment(centre: &[Vec3], k: usize) -> Vec3 {
    if k + 1 < centre.len() {
        centre[k + 1] - centre[k]
    } else {
        centre[k] - centre[k - 1]
    }
}

/// A ribbon's centreline point is stored once, with the offset to its right side; a
/// renderer draws its two sides from it ([`PackedVertex::side`]).
#[inline(never)]
fn ribbon(
    mesh: &mut TileMesh,
    q: &Quantiser,
    shape: &Shape,
    planted: &Planted,
    centre: &[Vec3],
    side: Vec3,
) {
    ribbon_body(mesh, q, shape, planted, centre, side);
}

/// [`ribbon`]'s body, for loops that inline it.
#[inline(always)]
fn ribbon_body(
    mesh: &mut TileMesh,
    q: &Quantiser,
    shape: &Shape,
    planted: &Planted,
    centre: &[Vec3],
    side: Vec3,
) {
    let last = centre.len() - 1;
    let rank = rank_bits(shape.rank);
    for (k, &c) in centre.iter().enumerate() {
        let t = k as f32 / last as f32;
        let half = 0.5 * shape.width_at(t);
        // The octahedral packing divides by the normal's own size: nothing to normalise.
        // The root's normal along a strand of no length.
        let d = segment(centre, k);
        let along = if d.length_squared() > 1e-24 {
            d
        } else {
            planted.normal
        };
        let normal = side.cross(along);
        let normal = oct_encode(
            if normal.length_squared() > 1e-12 * along.length_squared() {
                normal
            } else {
                planted.normal
            },
        );
        let across = side * half;
        let p = q.position(c);
        mesh.vertices.push(PackedVertex {
            position: [p[0], p[1], p[2], rank],
            across: f16x4([across.x, across.y, across.z, t * t]),
            normal,
            uv: [unit_bits(t), 0],
            color: color_bits(shape.color_at(t)),
        });
    }
}

fn tube(
    mesh: &mut TileMesh,
    q: &Quantiser,
    shape: &Shape,
    centre: &[Vec3],
    side: Vec3,
    sides: u32,
) {
    let last = centre.len() - 1;
    for (k, &c) in centre.iter().enumerate() {
        let t = k as f32 / last as f32;
        let radius = 0.5 * shape.width_at(t);
        let along = segment(centre, k).normalize_or(Vec3::Y);
        let e1 = (side - along * side.dot(along)).normalize_or(along.any_orthonormal_vector());
        let e2 = along.cross(e1);
        for s in 0..sides {
            let phi = std::f32::consts::TAU * s as f32 / sides as f32;
            let out = e1 * phi.cos() + e2 * phi.sin();
            let across = out * radius;
            mesh.vertices.push(PackedVertex::pack_with(
                &StrandVertex {
                    position: (c + across).to_array(),
                    across: across.to_array(),
                    normal: out.to_array(),
                    uv: [t, s as f32 / sides as f32],
                    color: shape.color_at(t),
                    wind: t * t,
                    rank: shape.rank,
                },
                q,
            ));
        }
    }
}

#[cfg(test)]
mod tests;
