//! The card level past the last rank cut: strands grouped into small clusters, each drawn
//! as two crossed quads wearing a side-on picture of the set from a small atlas.
//!
//! Grouping: the strands of each clump, split again into cells half a clump cell's
//! diagonal wide around the clump centre, so no group's roots span more than one clump
//! cell's diagonal. On a surface, cards are planted like strands ([`card_points`],
//! [`build_card_tile`]): every place the surface reaches the repeat — both sides of a
//! slab, each face of a box — plants its own copy of a card on its own side, standing on
//! that side's normal.
//!
//! The atlas holds `cells × cells` views, each a window of the set drawn side-on, colour
//! with alpha and a normal. Cards are alpha-tested, never blended; the mip chain rescales
//! alpha so the fraction of texels passing the cutoff at every mip is mip 0's. The atlas
//! is a pure function of the set and the settings.

use crate::hash::{hash, unit_f32};
use crate::mesh::{Shape, StrandVertex, TileMesh};
use crate::num::{fast_floor, linear_to_srgb, median, wrap_delta};
use crate::placement::PlacedTile;
use crate::set::StrandSet;
use crate::shape::{Curve, centreline, reach, width_at};
use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// The card level's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSettings {
    /// Atlas size in texels (square, a power of two).
    pub atlas_size: u32,
    /// Atlas cells per side (the atlas holds `cells²` views of the set).
    pub atlas_cells: u32,
    /// Alpha-test cutoff.
    pub alpha_cutoff: f32,
}

impl Default for CardSettings {
    fn default() -> Self {
        Self {
            atlas_size: 256,
            atlas_cells: 4,
            alpha_cutoff: 0.5,
        }
    }
}

/// One card: two crossed quads standing at `centre`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// Centre of the group's roots, in UV over the repeat (may leave `[0, 1)` slightly
    /// for a group straddling the edge).
    pub centre: [f32; 2],
    /// Turn of the first quad, in turns.
    pub turn: f32,
    /// Quad width in metres: as wide as the group spreads, its roots and where its tips
    /// land.
    pub width: f32,
    /// Quad height in metres.
    pub height: f32,
    /// Atlas cell.
    pub cell: u32,
    /// How many strands the card stands for.
    pub n_strands: u32,
}

/// Groups `set` into cards. `clump_lattice` is the layer's clump lattice (clump cells per
/// side of the repeat).
#[must_use]
pub fn group(set: &StrandSet, clump_lattice: u32, repeat_m: f32, atlas_cells: u32) -> Vec<Card> {
    let m = clump_lattice.max(1) as f32;
    let cell_m = repeat_m / m;
    let split = cell_m * std::f32::consts::SQRT_2 / 2.0; // half a clump cell's diagonal
    // Key: (clump, sub-cell x, sub-cell y) relative to the clump's first strand.
    let anchors = first_roots(set);
    let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(set.len());
    for i in 0..set.len() {
        let c = set.clump[i];
        let a = anchors.of(c);
        let d = [
            wrap_delta(set.root_uv[i][0] - a[0]) * repeat_m,
            wrap_delta(set.root_uv[i][1] - a[1]) * repeat_m,
        ];
        let sx = ((fast_floor(d[0] / split) as i64) + 64) as u64 & 0xff;
        let sy = ((fast_floor(d[1] / split) as i64) + 64) as u64 & 0xff;
        keyed.push(((u64::from(c) << 16) | (sx << 8) | sy, i as u32));
    }
    sort_keyed(&mut keyed, &anchors);
    // What a card reads of its strands, gathered in group order in one loop of
    // independent loads (the groups visit the set out of order).
    let members: Vec<Member> = keyed
        .iter()
        .map(|&(_, i)| {
            let i = i as usize;
            let r = reach(set.length[i], set.lean[i], set.tip_pull[i]);
            Member {
                root: set.root_uv[i],
                width: set.width[i],
                height: centreline(set.length[i], r, set.bend[i], 1.0).z,
                reach: r,
            }
        })
        .collect();
    let mut cards = Vec::new();
    let mut start = 0;
    while start < keyed.len() {
        let key = keyed[start].0;
        let end = start + keyed[start..].iter().take_while(|k| k.0 == key).count();
        cards.push(card(&members[start..end], key, repeat_m, atlas_cells));
        start = end;
    }
    cards
}

/// One strand of a card's group.
struct Member {
    root: [f32; 2],
    width: f32,
    /// Height of the tip above the root.
    height: f32,
    /// Where the tip lands from the root over the ground, metres.
    reach: Vec2,
}

/// Sorts `(key, strand)` pairs whose keys hold the clump in their high bits: with a
/// clump table, a counting sort by clump and a small sort inside each clump (a clump is
/// a few dozen strands) instead of one sort of the whole set.
fn sort_keyed(keyed: &mut Vec<(u64, u32)>, anchors: &Anchors) {
    let Anchors::Table(table) = anchors else {
        keyed.sort_unstable();
        return;
    };
    let mut start = vec![0usize; table.len() + 1];
    for &(key, _) in keyed.iter() {
        start[(key >> 16) as usize + 1] += 1;
    }
    for c in 1..start.len() {
        start[c] += start[c - 1];
    }
    let mut fill = start.clone();
    let mut sorted = vec![(0u64, 0u32); keyed.len()];
    for &(key, i) in keyed.iter() {
        let c = (key >> 16) as usize;
        sorted[fill[c]] = (key, i);
        fill[c] += 1;
    }
    for w in start.windows(2) {
        sorted[w[0]..w[1]].sort_unstable();
    }
    *keyed = sorted;
}

/// The root of each clump's first strand (in set order).
enum Anchors {
    /// Indexed by clump: clump ids are lattice cells, so a table is small.
    Table(Vec<[f32; 2]>),
    /// For clump ids too large for a table (a hand-made set).
    Map(std::collections::HashMap<u32, [f32; 2]>),
}

impl Anchors {
    fn of(&self, clump: u32) -> [f32; 2] {
        match self {
            Self::Table(t) => t[clump as usize],
            Self::Map(m) => m[&clump],
        }
    }
}

fn first_roots(set: &StrandSet) -> Anchors {
    let max = set.clump.iter().copied().max().unwrap_or(0) as usize;
    if max <= 4 * set.len() + 65_536 {
        let mut table = vec![[f32::NAN; 2]; max + 1];
        for (&c, &r) in set.clump.iter().zip(&set.root_uv).rev() {
            table[c as usize] = r;
        }
        Anchors::Table(table)
    } else {
        let mut map = std::collections::HashMap::new();
        for (&c, &r) in set.clump.iter().zip(&set.root_uv) {
            map.entry(c).or_insert(r);
        }
        Anchors::Map(map)
    }
}

fn card(members: &[Member], key: u64, repeat_m: f32, atlas_cells: u32) -> Card {
    let a = members[0].root;
    let mut sum = Vec2::ZERO;
    let offsets: Vec<Vec2> = members
        .iter()
        .map(|m| Vec2::new(wrap_delta(m.root[0] - a[0]), wrap_delta(m.root[1] - a[1])))
        .collect();
    for o in &offsets {
        sum += *o;
    }
    let mean = sum / members.len() as f32;
    let centre = Vec2::from(a) + mean;
    let roots = offsets
        .iter()
        .map(|o| ((*o - mean) * repeat_m).length())
        .fold(0.0f32, f32::max);
    // Where the tips land: a disc of radius r has a root-mean-square radius r/√2.
    let tips_ms = offsets
        .iter()
        .zip(members)
        .map(|(o, m)| ((*o - mean) * repeat_m + m.reach).length_squared())
        .sum::<f32>()
        / members.len() as f32;
    let extent = roots.max((2.0 * tips_ms).sqrt());
    let height = members.iter().map(|m| m.height).fold(0.0f32, f32::max);
    let mean_width = members.iter().map(|m| m.width).sum::<f32>() / members.len() as f32;
    let h = |c| unit_f32(hash(key, 0, crate::hash::channel::CARD + c));
    Card {
        centre: centre.to_array(),
        turn: h(0),
        width: (2.0 * extent).max(4.0 * mean_width).max(0.25 * height),
        height,
        cell: ((h(1) * (atlas_cells * atlas_cells) as f32) as u32)
            .min(atlas_cells * atlas_cells - 1),
        n_strands: members.len() as u32,
    }
}

/// The cards of one repeat laid on the plane of [`crate::mesh::repeat_tiles`] (centred
/// on the origin, facing +y): two crossed quads per card, textured with its atlas cell.
/// Vertex colour is white (the atlas carries the colour); `wind` rises from 0 at the
/// ground to 1 at the top.
#[must_use]
pub fn card_mesh(cards: &[Card], repeat_m: f32, atlas_cells: u32) -> crate::mesh::LevelMesh {
    let mut mesh = crate::mesh::LevelMesh::default();
    for card in cards {
        let base = Vec3::new(
            -repeat_m / 2.0 + card.centre[0] * repeat_m,
            0.0,
            -repeat_m / 2.0 + card.centre[1] * repeat_m,
        );
        let frame = [Vec3::X, Vec3::Z, Vec3::Y];
        push_card(
            &mut mesh.vertices,
            &mut mesh.indices,
            card,
            base,
            frame,
            atlas_cells,
        );
    }
    mesh
}

/// The cards as a set of points a surface can be planted with: card `i` stands at its
/// centre (wrapped into the repeat) with id `i`, so [`crate::placement::place`] splits
/// them by where the surface reaches the repeat — each side of a slab, each face of a
/// box gets its own — and thins them by area exactly as it thins strands.
#[must_use]
pub fn card_points(cards: &[Card]) -> StrandSet {
    let mut set = StrandSet::with_capacity(cards.len());
    for (i, card) in cards.iter().enumerate() {
        set.root_uv.push(
            card.centre
                .map(|c| c.rem_euclid(1.0).min(1.0 - f32::EPSILON)),
        );
        set.id.push(i as u32);
        set.rank.push(card.turn);
    }
    set
}

/// Vertices per card: two quads of four corners.
pub const VERTICES_PER_CARD: usize = 8;
/// Indices per card: two quads of two triangles.
pub const INDICES_PER_CARD: usize = 12;

/// Meshes the cards planted on one tile (planted from [`card_points`]): two crossed quads
/// per card standing on the surface's normal, turned in its tangent plane. `ranks` holds
/// each card's own hash (its turn), which a renderer compares with a fade to dither the
/// card level in and out.
#[must_use]
pub fn build_card_tile(cards: &[Card], tile: &PlacedTile, atlas_cells: u32) -> TileMesh {
    let mut mesh = TileMesh::default();
    for planted in &tile.strands {
        let card = &cards[planted.strand as usize];
        let frame = [planted.tangent, planted.bitangent, planted.normal];
        push_card(
            &mut mesh.vertices,
            &mut mesh.indices,
            card,
            planted.position,
            frame,
            atlas_cells,
        );
        mesh.ranks.push(card.turn);
    }
    mesh
}

/// Appends one card's two quads: `frame` is (u tangent, v tangent, up).
fn push_card(
    vertices: &mut Vec<StrandVertex>,
    indices: &mut Vec<u32>,
    card: &Card,
    base: Vec3,
    frame: [Vec3; 3],
    atlas_cells: u32,
) {
    let [tu, tv, up_dir] = frame;
    let cells_side = atlas_cells.max(1);
    let cells = cells_side as f32;
    let (cx, cy) = (
        (card.cell % cells_side) as f32,
        (card.cell / cells_side) as f32,
    );
    let (u0, u1) = (cx / cells, (cx + 1.0) / cells);
    let (v_top, v_bottom) = (cy / cells, (cy + 1.0) / cells);
    for quad in 0..2 {
        let angle = std::f32::consts::TAU * (card.turn + 0.25 * quad as f32);
        let (sin, cos) = angle.sin_cos();
        let along = (tu * cos + tv * sin) * (card.width / 2.0);
        let normal = tu * -sin + tv * cos;
        let first = vertices.len() as u32;
        for (corner, (u, v, up)) in [
            (u0, v_bottom, 0.0),
            (u1, v_bottom, 0.0),
            (u0, v_top, 1.0),
            (u1, v_top, 1.0),
        ]
        .into_iter()
        .enumerate()
        {
            let side = if corner % 2 == 0 { -1.0 } else { 1.0 };
            vertices.push(StrandVertex {
                position: (base + along * side + up_dir * (card.height * up)).to_array(),
                across: [0.0; 3],
                normal: normal.to_array(),
                uv: [u, v],
                color: [1.0; 3],
                wind: up,
                rank: card.turn,
            });
        }
        indices.extend([first, first + 1, first + 2, first + 1, first + 3, first + 2]);
    }
}

/// An atlas: colour with straight alpha and a tangent-space normal, `size²` RGBA8 each,
/// and the mip chain (mip 0 first).
#[derive(Clone, Debug, PartialEq)]
pub struct Atlas {
    /// Side of mip 0 in texels.
    pub size: u32,
    /// Colour mips, RGBA8 (sRGB colour, linear alpha).
    pub color: Vec<Vec<u8>>,
    /// Normal mips, RGB8 (`0.5 + 0.5·n`, +Y up), alpha copied from the colour.
    pub normal: Vec<Vec<u8>>,
}

/// Linear to 8-bit sRGB through a 4096-entry table (index `x · 4095`, rounded): a
/// `powf` per channel and mip texel is more than the rest of the encoding.
fn srgb_table() -> &'static [u8; 4096] {
    static TABLE: std::sync::OnceLock<[u8; 4096]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| (linear_to_srgb(k as f32 / 4095.0) * 255.0 + 0.5) as u8)
    })
}

/// Draws the atlas of `set` (one repeat of `repeat_m` metres) for its `cards` (from
/// [`group`]).
///
/// Each cell pictures what one quad of a card stands for: a window as wide as the median
/// card (the group's own footprint) and half as deep (a card's two quads share its
/// group), as high as the tallest strand. A deeper slab would picture far more strands
/// than a card replaces — a near-opaque wall of roots where the strands, seen from
/// anywhere but the side, show crowns and gaps.
#[must_use]
pub fn atlas(set: &StrandSet, cards: &[Card], repeat_m: f32, settings: &CardSettings) -> Atlas {
    let size = settings.atlas_size.max(4) as usize;
    let cells = settings.atlas_cells.clamp(1, 16) as usize;
    let cell_px = size / cells;
    let mut rgba = vec![0.0f32; size * size * 4];
    let mut nrm = vec![0.0f32; size * size * 3];
    // Each cell views a window of the set side-on: as wide as the median card, half as
    // deep, as high as the tallest strand.
    let tallest = set.length.iter().copied().fold(0.0f32, f32::max).max(1e-4);
    let window = median(cards.iter().map(|c| c.width)).map_or(tallest, |w| w.clamp(1e-4, repeat_m));
    let view = View {
        size,
        cell_px,
        window,
        repeat_m,
        px_per_m: cell_px as f32 / window,
        px_per_m_up: cell_px as f32 / tallest,
    };
    // Each cell's window sits at a place of its own.
    let origins: Vec<Vec2> = (0..cells * cells)
        .map(|cell| {
            let h = |k| unit_f32(hash(0x000a_71a5, cell as u64, k));
            Vec2::new(h(0), h(1)) * repeat_m
        })
        .collect();
    // The roots binned, and beside them the colour the set shows from above.
    let (bins, crown) = std::thread::scope(|scope| {
        let crown = scope.spawn(|| crown_colour(set));
        let bins = RootBins::new(set, repeat_m, window);
        (
            bins,
            crown
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
        )
    });
    // Each band of cells (one row of the atlas's cells) is its own stretch of both
    // images; the bands are drawn on the available cores.
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let mut jobs: Vec<Vec<Band<'_>>> = (0..threads).map(|_| Vec::new()).collect();
    let bands = rgba
        .chunks_mut(size * cell_px * 4)
        .zip(nrm.chunks_mut(size * cell_px * 3))
        .take(cells);
    for (band, (c, n)) in bands.enumerate() {
        jobs[band % threads].push((band, c, n));
    }
    std::thread::scope(|scope| {
        for job in jobs {
            let (view, bins, origins) = (&view, &bins, &origins);
            scope.spawn(move || {
                let mut near = Vec::new();
                for (band, c, n) in job {
                    for column in 0..cells {
                        let origin = origins[band * cells + column];
                        bins.near(origin, &mut near);
                        view.draw(set, &near, origin, column * cell_px, c, n);
                    }
                }
            });
        }
    });
    if let Some(crown) = crown {
        match_crown_colour(&mut rgba, crown);
    }
    let mut color_mips = vec![rgba];
    let mut normal_mips = vec![nrm];
    let mut s = size;
    while s > 1 {
        let (c, n) = (
            color_mips.last().expect("mip 0"),
            normal_mips.last().expect("mip 0"),
        );
        let (c2, n2) = downsample(c, n, s);
        color_mips.push(c2);
        normal_mips.push(n2);
        s /= 2;
    }
    preserve_coverage(&mut color_mips, size, settings.alpha_cutoff);
    for mip in &mut color_mips {
        bleed(mip);
    }
    // The two images' bytes side by side.
    let (color, normal) = std::thread::scope(|scope| {
        let normal = scope.spawn(|| {
            normal_mips
                .iter()
                .zip(&color_mips)
                .map(|(n, c)| normal_bytes(n, c))
                .collect()
        });
        let color = color_mips.iter().map(|c| color_bytes(c)).collect();
        (
            color,
            normal
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
        )
    });
    Atlas {
        size: size as u32,
        normal,
        color,
    }
}

/// A float RGBA image as 8-bit sRGB colour and linear alpha.
fn color_bytes(img: &[f32]) -> Vec<u8> {
    let table = srgb_table();
    let srgb = |x: f32| table[(x.clamp(0.0, 1.0) * 4095.0 + 0.5) as usize];
    let mut out = vec![0u8; img.len()];
    for (o, p) in out.chunks_exact_mut(4).zip(img.chunks_exact(4)) {
        o.copy_from_slice(&[
            srgb(p[0]),
            srgb(p[1]),
            srgb(p[2]),
            (p[3].clamp(0.0, 1.0) * 255.0 + 0.5) as u8,
        ]);
    }
    out
}

/// A float normal image as 8-bit `0.5 + 0.5·n`, with the colour image's alpha.
fn normal_bytes(normals: &[f32], color: &[f32]) -> Vec<u8> {
    let mut out = vec![0u8; color.len()];
    let e = |x: f32| ((0.5 + 0.5 * x) * 255.0 + 0.5) as u8;
    for ((o, n), c) in out
        .chunks_exact_mut(4)
        .zip(normals.chunks_exact(3))
        .zip(color.chunks_exact(4))
    {
        let n = Vec3::new(n[0], n[1], n[2]).normalize_or(Vec3::Z);
        o.copy_from_slice(&[
            e(n.x),
            e(n.y),
            e(n.z),
            (c[3].clamp(0.0, 1.0) * 255.0 + 0.5) as u8,
        ]);
    }
    out
}

/// One band of atlas cells to draw: its index and its rows of the colour and normal
/// images.
type Band<'a> = (usize, &'a mut [f32], &'a mut [f32]);

/// A set's roots binned over the repeat (a counting sort: one array, no list per bin),
/// so each atlas cell reads only the strands near its window.
struct RootBins {
    per_side: usize,
    /// How many bins either side of the window's own bin can hold part of the window.
    reach: i64,
    bin_m: f32,
    start: Vec<u32>,
    items: Vec<u32>,
}

impl RootBins {
    fn new(set: &StrandSet, repeat_m: f32, window: f32) -> Self {
        let per_side = ((repeat_m / window).floor() as usize).clamp(1, 64);
        let bin_m = repeat_m / per_side as f32;
        let bin_of = |r: &[f32; 2]| {
            let bx = ((r[0] * per_side as f32) as usize).min(per_side - 1);
            let by = ((r[1] * per_side as f32) as usize).min(per_side - 1);
            by * per_side + bx
        };
        let bin: Vec<u32> = set.root_uv.iter().map(|r| bin_of(r) as u32).collect();
        let mut start = vec![0u32; per_side * per_side + 1];
        for &b in &bin {
            start[b as usize + 1] += 1;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; bin.len()];
        for (i, &b) in bin.iter().enumerate() {
            items[fill[b as usize] as usize] = i as u32;
            fill[b as usize] += 1;
        }
        Self {
            per_side,
            // Bins are at least a window wide, so the window's bin and its neighbours
            // hold it.
            reach: (window / 2.0 / bin_m).ceil() as i64,
            bin_m,
            start,
            items,
        }
    }

    /// Calls `f` with each bin that can hold part of the window centred on `origin`
    /// (metres), each once.
    fn around(&self, origin: Vec2, mut f: impl FnMut(usize)) {
        let per_side = self.per_side as i64;
        let (ob_x, ob_y) = (
            (origin.x / self.bin_m) as i64,
            (origin.y / self.bin_m) as i64,
        );
        let back = self.reach.min(per_side / 2);
        // `span` never exceeds the bins per side, so no bin is visited twice.
        let span = (2 * self.reach + 1).min(per_side);
        for dy in 0..span {
            let by = (ob_y - back + dy).rem_euclid(per_side) as usize;
            for dx in 0..span {
                let bx = (ob_x - back + dx).rem_euclid(per_side) as usize;
                f(by * self.per_side + bx);
            }
        }
    }

    /// The strands of the bins around a window centred on `origin` (metres) into `out`.
    fn near(&self, origin: Vec2, out: &mut Vec<u32>) {
        out.clear();
        self.around(origin, |b| {
            out.extend_from_slice(&self.items[self.start[b] as usize..self.start[b + 1] as usize]);
        });
    }
}

/// How an atlas cell sees the set.
struct View {
    /// Atlas side in texels.
    size: usize,
    /// Cell side in texels.
    cell_px: usize,
    /// Window width and depth, metres.
    window: f32,
    repeat_m: f32,
    px_per_m: f32,
    px_per_m_up: f32,
}

impl View {
    /// Draws the strands of `near` whose roots fall in the window centred on `origin`
    /// (x across, y into the picture, half a window deep) into the cell at column `cx` of a
    /// band of cells (`rgba`, `nrm`: the band's rows of the atlas).
    fn draw(
        &self,
        set: &StrandSet,
        near: &[u32],
        origin: Vec2,
        cx: usize,
        rgba: &mut [f32],
        nrm: &mut [f32],
    ) {
        let (window, repeat_m, cell_px) = (self.window, self.repeat_m, self.cell_px);
        // The strands in the window and what drawing reads of them, gathered first in
        // loops of independent loads: `near` visits the set out of order, and read
        // between the texel writes every attribute was a cache miss nothing overlapped.
        let inside: Vec<(usize, Vec2)> = near
            .iter()
            .filter_map(|&i| {
                let i = i as usize;
                let root = Vec2::from(set.root_uv[i]) * repeat_m;
                let mut d = root - origin;
                d.x -= fast_floor(d.x / repeat_m + 0.5) * repeat_m;
                d.y -= fast_floor(d.y / repeat_m + 0.5) * repeat_m;
                (d.x.abs() <= window / 2.0 && d.y.abs() <= window / 4.0).then_some((i, d))
            })
            .collect();
        let strands: Vec<(Vec2, Shape)> = inside
            .iter()
            .map(|&(i, d)| (d, Shape::of(set, i)))
            .collect();
        for (d, strand) in &strands {
            let (d, r, length) = (*d, strand.reach, strand.length);
            // One sample per texel row along the strand, each spanning its width with
            // antialiased coverage, so mip 0's alpha is soft and every mip can be rescaled
            // to the same coverage.
            let samples = ((length * self.px_per_m_up).ceil() as usize).clamp(2, 4 * cell_px);
            let (rc, tc) = (Vec3::from(strand.root_color), Vec3::from(strand.tip_color));
            let curve = Curve::new(length, r, strand.bend);
            let lean_x = (r.x / length.max(1e-6)).clamp(-1.0, 1.0);
            for s in 0..=samples {
                let t = s as f32 / samples as f32;
                let p = curve.at(t);
                let x = (d.x + p.x + window / 2.0) * self.px_per_m;
                let py = cell_px as isize - 1 - (p.z * self.px_per_m_up) as isize;
                if !(0..cell_px as isize).contains(&py) {
                    continue;
                }
                let half = 0.5 * width_at(strand.width, t) * self.px_per_m;
                let x0 = fast_floor(x - half).max(0.0) as usize;
                let x1 = ((-fast_floor(-(x + half))).max(0.0) as usize).min(cell_px);
                let row = py as usize * self.size + cx;
                let color = rc.lerp(tc, t).to_array();
                let normal = Vec3::new(lean_x * t * 0.5, 0.0, 1.0).normalize().to_array();
                for px in x0..x1 {
                    let cover = ((x + half).min(px as f32 + 1.0) - (x - half).max(px as f32))
                        .clamp(0.0, 1.0);
                    let k = row + px;
                    if cover > rgba[k * 4 + 3] {
                        rgba[k * 4..k * 4 + 4]
                            .copy_from_slice(&[color[0], color[1], color[2], cover]);
                        nrm[k * 3..k * 3 + 3].copy_from_slice(&normal);
                    }
                }
            }
        }
    }
}

/// A 2× box downsample; colour weighted by alpha so empty texels do not darken edges.
fn downsample(c: &[f32], n: &[f32], size: usize) -> (Vec<f32>, Vec<f32>) {
    let half = (size / 2).max(1);
    let mut c2 = vec![0.0f32; half * half * 4];
    let mut n2 = vec![0.0f32; half * half * 3];
    for y in 0..half {
        for x in 0..half {
            let mut acc = [0.0f32; 4];
            let mut nacc = [0.0f32; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let k = (2 * y + dy).min(size - 1) * size + (2 * x + dx).min(size - 1);
                let a = c[k * 4 + 3];
                for ch in 0..3 {
                    acc[ch] += c[k * 4 + ch] * a;
                    nacc[ch] += n[k * 3 + ch] * a;
                }
                acc[3] += a;
            }
            let k = y * half + x;
            for ch in 0..3 {
                c2[k * 4 + ch] = if acc[3] > 0.0 { acc[ch] / acc[3] } else { 0.0 };
                n2[k * 3 + ch] = if acc[3] > 0.0 { nacc[ch] / acc[3] } else { 0.0 };
            }
            c2[k * 4 + 3] = acc[3] / 4.0;
        }
    }
    (c2, n2)
}

/// Where along a strand its colour seen from above sits on average: the relief weighs a
/// strand's colour at `t` by its height above the ground plus a tenth of its length,
/// `t + 0.1`, so the mean is `∫ t (t + 0.1) dt / ∫ (t + 0.1) dt` = 0.383 / 0.6.
pub const CROWN: f32 = 0.383_333 / 0.6;

/// The colour `set` shows from above: each strand's crown colour, weighted by its area.
/// `None` for a set without area.
fn crown_colour(set: &StrandSet) -> Option<[f64; 3]> {
    let mut crown = [0.0f64; 3];
    let mut area = 0.0f64;
    for i in 0..set.len() {
        let a = f64::from(set.width[i] * set.length[i]);
        let (r, t) = (set.root_color[i], set.tip_color[i]);
        for c in 0..3 {
            crown[c] += a * f64::from(r[c] + (t[c] - r[c]) * CROWN);
        }
        area += a;
    }
    (area > 0.0).then(|| crown.map(|c| c / area))
}

/// Scales the picture's colours so their coverage-weighted mean is `crown`, the colour
/// the set shows from above ([`crown_colour`]). A picture is the set seen side-on, roots
/// and all; a card stands where a canopy seen from anywhere but the side shows crowns,
/// and the relief past the cards shows them too. Without this the card level darkens the
/// lawn by over ten sRGB codes at its switch.
fn match_crown_colour(rgba: &mut [f32], crown: [f64; 3]) {
    let mut seen = [0.0f64; 3];
    let mut cover = 0.0f64;
    for p in rgba.chunks_exact(4) {
        for c in 0..3 {
            seen[c] += f64::from(p[c] * p[3]);
        }
        cover += f64::from(p[3]);
    }
    if cover <= 0.0 {
        return;
    }
    let scale: [f32; 3] = std::array::from_fn(|c| {
        let (have, want) = (seen[c] / cover, crown[c]);
        if have > 1e-6 {
            (want / have).clamp(0.25, 4.0) as f32
        } else {
            1.0
        }
    });
    for p in rgba.chunks_exact_mut(4) {
        for c in 0..3 {
            p[c] = (p[c] * scale[c]).min(1.0);
        }
    }
}

/// Gives every empty texel (alpha 0) the coverage-weighted mean colour of the image.
/// A GPU filters colour between texels before the alpha test: next to an empty black
/// texel an edge darkens, and on a distant card nearly every texel is an edge.
fn bleed(img: &mut [f32]) {
    let mut sum = [0.0f64; 3];
    let mut weight = 0.0f64;
    for p in img.chunks_exact(4) {
        let a = f64::from(p[3]);
        for c in 0..3 {
            sum[c] += f64::from(p[c]) * a;
        }
        weight += a;
    }
    if weight <= 0.0 {
        return;
    }
    let mean = sum.map(|s| (s / weight) as f32);
    for p in img.chunks_exact_mut(4) {
        if p[3] <= 0.0 {
            p[..3].copy_from_slice(&mean);
        }
    }
}

/// The fraction of texels of an RGBA float image whose alpha, scaled by `scale`, passes
/// `cutoff`.
fn passing(img: &[f32], scale: f32, cutoff: f32) -> f32 {
    let n = img.len() / 4;
    img.chunks_exact(4)
        .filter(|p| p[3] * scale >= cutoff)
        .count() as f32
        / n.max(1) as f32
}

/// Rescales each mip's alpha so the fraction passing `cutoff` matches mip 0's. The scale
/// is found directly: if `K` texels should pass, it is the one that lifts the `K`-th
/// largest alpha exactly to the cutoff (a selection, linear in the mip's size).
fn preserve_coverage(mips: &mut [Vec<f32>], _size: usize, cutoff: f32) {
    let target = passing(&mips[0], 1.0, cutoff);
    for mip in mips.iter_mut().skip(1) {
        let n = mip.len() / 4;
        let want = (target * n as f32).round() as usize;
        if want == 0 || n == 0 {
            continue;
        }
        let mut alphas: Vec<f32> = mip.chunks_exact(4).map(|p| p[3]).collect();
        let k = want.min(n) - 1;
        let (_, kth, _) = alphas.select_nth_unstable_by(k, |a, b| b.total_cmp(a));
        let scale = if *kth > 0.0 {
            (cutoff / *kth).min(64.0)
        } else {
            64.0
        };
        for p in mip.chunks_exact_mut(4) {
            p[3] = (p[3] * scale).min(1.0);
        }
    }
}

/// The fraction of texels whose 8-bit alpha passes `cutoff`, per mip.
#[must_use]
pub fn coverage_per_mip(atlas: &Atlas, cutoff: f32) -> Vec<f32> {
    atlas
        .color
        .iter()
        .map(|m| {
            let n = m.len() / 4;
            m.chunks_exact(4)
                .filter(|p| f32::from(p[3]) / 255.0 >= cutoff)
                .count() as f32
                / n.max(1) as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(n: usize, clumps: u32) -> StrandSet {
        crate::testing::random_set(n, 4, clumps)
    }

    #[test]
    fn no_card_group_spans_more_than_a_clump_cell_diagonal() {
        let s = set(20_000, 16);
        let repeat_m = 1.0;
        let cards = group(&s, 16, repeat_m, 4);
        assert_eq!(
            cards.iter().map(|c| c.n_strands as usize).sum::<usize>(),
            s.len()
        );
        let diagonal = repeat_m / 16.0 * std::f32::consts::SQRT_2;
        // Rebuild each group's members by nearest card centre and clump to check spans.
        for c in &cards {
            assert!(c.width > 0.0 && c.height > 0.0);
            assert!(c.cell < 16);
        }
        // Spans measured directly: roots of a group lie within its sub-cell.
        let mut by_key: std::collections::HashMap<(u32, i64, i64), Vec<[f32; 2]>> =
            Default::default();
        let mut anchor: std::collections::HashMap<u32, [f32; 2]> = Default::default();
        let split = diagonal / 2.0;
        for i in 0..s.len() {
            let a = *anchor.entry(s.clump[i]).or_insert(s.root_uv[i]);
            let d = [
                wrap_delta(s.root_uv[i][0] - a[0]) * repeat_m,
                wrap_delta(s.root_uv[i][1] - a[1]) * repeat_m,
            ];
            by_key
                .entry((
                    s.clump[i],
                    (d[0] / split).floor() as i64,
                    (d[1] / split).floor() as i64,
                ))
                .or_default()
                .push(d);
        }
        assert_eq!(by_key.len(), cards.len());
        for roots in by_key.values() {
            for a in roots {
                for b in roots {
                    let span = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
                    assert!(span <= diagonal, "{span} > {diagonal}");
                }
            }
        }
    }

    #[test]
    fn atlas_coverage_holds_within_two_percent_at_every_mip() {
        let s = set(30_000, 16);
        let settings = CardSettings::default();
        let cards = group(&s, 16, 1.0, settings.atlas_cells);
        let a = atlas(&s, &cards, 1.0, &settings);
        assert_eq!(a.color.len(), 9); // 256 → 1
        let cov = coverage_per_mip(&a, settings.alpha_cutoff);
        assert!(cov[0] > 0.05 && cov[0] < 0.95, "mip 0 covers {}", cov[0]);
        // Down to 8×8, where one texel is 1.6% of the image.
        for (k, c) in cov.iter().enumerate().take(6) {
            assert!((c - cov[0]).abs() <= 0.02, "mip {k}: {c} vs {}", cov[0]);
        }
    }

    #[test]
    fn the_atlas_is_a_pure_function_of_the_set() {
        let s = set(5_000, 8);
        let settings = CardSettings {
            atlas_size: 64,
            atlas_cells: 2,
            alpha_cutoff: 0.5,
        };
        let cards = group(&s, 8, 1.0, settings.atlas_cells);
        assert_eq!(
            atlas(&s, &cards, 1.0, &settings),
            atlas(&s, &cards, 1.0, &settings)
        );
        let mut other = s.clone();
        other.length[0] *= 2.0;
        other.length.iter_mut().for_each(|l| *l *= 1.5);
        assert_ne!(
            atlas(&s, &cards, 1.0, &settings),
            atlas(&other, &cards, 1.0, &settings)
        );
    }
}
