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

mod atlas;
mod box_proof;

pub use atlas::{Atlas, CROWN, atlas, coverage_per_mip};
pub use box_proof::{MIN_CELL_TEXELS, box_chain_coverage, box_proof, proofed_levels};

use crate::hash::{hash, unit_f32};
use crate::mesh::{Frame, PackedVertex, StrandVertex, TileMesh};
use crate::num::{fast_floor, wrap_delta};
use crate::placement::PlacedTile;
use crate::set::StrandSet;
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

impl CardSettings {
    /// What is out of range in the card settings: each a sentence naming the
    /// setting and its range; empty when every one is in range.
    #[must_use]
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if !self.atlas_size.is_power_of_two() || !(16..=4096).contains(&self.atlas_size) {
            problems.push(format!(
                "cards.atlas_size {} must be a power of two in 16..=4096",
                self.atlas_size
            ));
        }
        if self.atlas_cells == 0 || self.atlas_cells > 16 {
            problems.push(format!(
                "cards.atlas_cells {} outside 1..=16",
                self.atlas_cells
            ));
        }
        if !(0.0..1.0).contains(&self.alpha_cutoff) || self.alpha_cutoff == 0.0 {
            problems.push(format!(
                "cards.alpha_cutoff {} outside (0, 1)",
                self.alpha_cutoff
            ));
        }
        problems
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
    /// The area-weighted mean crown colour of its strands, linear RGB: what they show
    /// from above.
    #[serde(default = "white")]
    pub crown: [f32; 3],
    /// The vertex colour the card wears ([`tint`]), so the cards keep the strands' light
    /// and dark patches where a plain material draws them; white until tinted.
    #[serde(default = "white")]
    pub tint: [f32; 3],
}

const fn white() -> [f32; 3] {
    [1.0; 3]
}

/// The most a card's tint scales its atlas cell, either way.
const MAX_TINT: f32 = 4.0;

/// The power a card's crown-over-cell ratio is raised to. A crown colour counts each
/// strand's own colours, not the shade of the gaps between strands, and the gaps are
/// deeper where the strands are darker (sparser and shorter in a lawn's dark clumps), so
/// the plain ratio gives the cards a third of the block contrast their strands show at
/// the switch (BENCHMARKS.md, "Cards against their strands").
pub const CONTRAST: f32 = 2.0;

/// Tints every card toward its strands' crown colour: the card's crown over the mean
/// colour of the atlas cell it wears, per channel, raised to [`CONTRAST`]. The tints are then scaled, per
/// channel, so the cards' colour weighted by what each shows (its quads' area times its
/// cell's coverage) is what it was untinted: the tint carries the pattern, the atlas
/// the mean (each tint within `1/MAX_TINT..MAX_TINT`).
pub fn tint(cards: &mut [Card], atlas: &Atlas) {
    let cell = |c: &Card| atlas.cell_means.get(c.cell as usize).copied();
    let raw = |c: &Card| -> [f32; 3] {
        let Some(mean) = cell(c) else {
            return white();
        };
        std::array::from_fn(|k| {
            if mean[k] > 1e-6 {
                (c.crown[k] / mean[k]).powf(CONTRAST)
            } else {
                1.0
            }
        })
    };
    let raws: Vec<[f32; 3]> = cards.iter().map(raw).collect();
    // What each card shows: its quads' area times its cell's coverage.
    let (mut before, mut after) = ([0.0f64; 3], [0.0f64; 3]);
    for (c, t) in cards.iter().zip(&raws) {
        let Some(mean) = cell(c) else {
            continue;
        };
        let shows = f64::from(c.width * c.height * mean[3]);
        for k in 0..3 {
            before[k] += shows * f64::from(mean[k]);
            after[k] += shows * f64::from(mean[k] * t[k]);
        }
    }
    let scale: [f32; 3] = std::array::from_fn(|k| {
        if after[k] > 0.0 {
            (before[k] / after[k]) as f32
        } else {
            1.0
        }
    });
    for (c, t) in cards.iter_mut().zip(raws) {
        c.tint = std::array::from_fn(|k| (t[k] * scale[k]).clamp(1.0 / MAX_TINT, MAX_TINT));
    }
}

/// Folds tints above 1 into the atlas, for formats whose vertex colours lie in `[0, 1]`
/// (glTF's): per channel a scale `s` divides every card's tint and brightens the atlas's
/// colour, so each card shows what it did. `s` is the largest tint (at least 1), but no
/// more than brightens all but [`FOLD_CLAMPED`] of the atlas's covered texels without
/// clamping them at white; the few tints still above `s` are cut to 1. Returns `s` and
/// the share of covered texels of mip 0 that clamped.
pub fn fold_tints(cards: &mut [Card], atlas: &mut Atlas) -> ([f32; 3], f32) {
    let headroom = atlas.headroom(FOLD_CLAMPED);
    let scale: [f32; 3] = std::array::from_fn(|k| {
        cards
            .iter()
            .map(|c| c.tint[k])
            .fold(1.0f32, f32::max)
            .min(headroom[k].max(1.0))
    });
    for c in cards.iter_mut() {
        c.tint = std::array::from_fn(|k| (c.tint[k] / scale[k]).min(1.0));
    }
    let clamped = atlas.brighten(scale);
    (scale, clamped)
}

/// The share of an atlas's covered texels [`fold_tints`] may clamp at white.
pub const FOLD_CLAMPED: f32 = 0.005;

/// Groups `set` into cards. `clump_lattice` is the layer's clump lattice (clump cells per
/// side of the repeat).
#[must_use]
pub fn group(set: &StrandSet, clump_lattice: u32, repeat_m: f32, atlas_cells: u32) -> Vec<Card> {
    cards_of(
        set,
        &Grouping::of(set, clump_lattice, repeat_m),
        atlas_cells,
    )
}

/// Which strands of a set share a card, in the cards' order: a function of the roots,
/// the clumps, the clump lattice and the repeat alone, so an edit that leaves those be
/// (a length, a colour, a lean) groups its set as the last one was grouped
/// ([`StrandSet::same_roots`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Grouping {
    /// `(key, strand)` sorted: a card's strands share a key.
    keyed: Vec<(u64, u32)>,
    repeat_m: f32,
}

impl Grouping {
    /// The grouping of `set` (see [`group`]).
    #[must_use]
    pub fn of(set: &StrandSet, clump_lattice: u32, repeat_m: f32) -> Self {
        let m = clump_lattice.max(1) as f32;
        let cell_m = repeat_m / m;
        let split = cell_m * std::f32::consts::SQRT_2 / 2.0; // half a clump cell's diagonal
        // Key: (clump, sub-cell x, sub-cell y) relative to the clump's first strand.
        let anchors = first_roots(set);
        let n = set.len();
        let mut keyed: Vec<(u64, u32)> = vec![(0, 0); n];
        let run = run_of(n);
        let jobs: Vec<_> = keyed.chunks_mut(run).enumerate().collect();
        crate::par::for_each("tuft cards", jobs, |(j, keyed)| {
            for (k, key) in keyed.iter_mut().enumerate() {
                let i = j * run + k;
                let c = set.clump[i];
                let a = anchors.of(c);
                let d = [
                    wrap_delta(set.root_uv[i][0] - a[0]) * repeat_m,
                    wrap_delta(set.root_uv[i][1] - a[1]) * repeat_m,
                ];
                let sx = ((fast_floor(d[0] / split) as i64) + 64) as u64 & 0xff;
                let sy = ((fast_floor(d[1] / split) as i64) + 64) as u64 & 0xff;
                *key = ((u64::from(c) << 16) | (sx << 8) | sy, i as u32);
            }
        });
        sort_keyed(&mut keyed, &anchors);
        Self { keyed, repeat_m }
    }
}

/// How many strands one job of a pass over a set takes: small sets in one job (a
/// thread costs more than their cards).
fn run_of(n: usize) -> usize {
    n.div_ceil(4 * crate::par::threads()).max(16_384)
}

/// The cards of `set` grouped by `grouping` (made from `set`, or from a set with the
/// same roots and clumps).
///
/// # Panics
/// A grouping of another number of strands.
#[must_use]
pub fn cards_of(set: &StrandSet, grouping: &Grouping, atlas_cells: u32) -> Vec<Card> {
    let (keyed, repeat_m) = (&grouping.keyed, grouping.repeat_m);
    let n = set.len();
    assert_eq!(keyed.len(), n, "a grouping of another set");
    // What a card reads of each strand, worked out in the set's order (a pass down each
    // column), then put in group order as one compact record a strand (the groups visit
    // the set out of order, and a strand's fourteen columns would be fourteen misses).
    let mut in_set_order = vec![Member::default(); n];
    let run = run_of(n);
    let jobs: Vec<_> = in_set_order.chunks_mut(run).enumerate().collect();
    crate::par::for_each("tuft cards", jobs, |(j, members)| {
        for (k, member) in members.iter_mut().enumerate() {
            let i = j * run + k;
            let strand = crate::mesh::Shape::of(set, i);
            let (area, crown) = atlas::strand_crown(set, i);
            *member = Member {
                root: set.root_uv[i],
                width: strand.width,
                height: strand.curve().at(1.0).z,
                reach: strand.reach,
                area,
                crown,
            };
        }
    });
    // The groups, in runs of whole groups a job, each run's cards in order.
    let mut runs = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = (start + run).min(n);
        while end < n && keyed[end].0 == keyed[end - 1].0 {
            end += 1;
        }
        runs.push(&keyed[start..end]);
        start = end;
    }
    let in_set_order = &in_set_order;
    crate::par::map_with("tuft cards", runs, Vec::new, |members, keyed| {
        members.clear();
        members.extend(keyed.iter().map(|&(_, i)| in_set_order[i as usize]));
        let mut cards = Vec::new();
        let mut start = 0;
        while start < keyed.len() {
            let key = keyed[start].0;
            let end = start + keyed[start..].iter().take_while(|k| k.0 == key).count();
            cards.push(card(&members[start..end], key, repeat_m, atlas_cells));
            start = end;
        }
        cards
    })
    .concat()
}

/// One strand of a card's group.
#[derive(Clone, Copy, Default)]
struct Member {
    root: [f32; 2],
    width: f32,
    /// Height of the tip above the root.
    height: f32,
    /// Where the tip lands from the root over the ground, metres.
    reach: Vec2,
    /// Width × length.
    area: f32,
    /// Crown colour, linear RGB.
    crown: [f32; 3],
}

/// Sorts `(key, strand)` pairs whose keys hold the clump in their high bits: with a
/// clump table, a counting sort by clump and a small sort inside each clump (a clump is
/// a few dozen strands) instead of one sort of the whole set.
fn sort_keyed(keyed: &mut Vec<(u64, u32)>, anchors: &Anchors) {
    let Anchors::Table(table) = anchors else {
        keyed.sort_unstable();
        return;
    };
    let (start, mut sorted) =
        crate::buckets::deal(keyed.iter().copied(), table.len(), |&(key, _)| {
            (key >> 16) as usize
        });
    // Runs of whole clumps, a job each.
    let run = sorted.len().div_ceil(4 * crate::par::threads()).max(4096);
    let mut jobs = Vec::new();
    let (mut rest, mut at, mut next) = (&mut sorted[..], 0usize, 0usize);
    while !rest.is_empty() {
        let mut end = at + run;
        while next < start.len() && (start[next] as usize) < end {
            next += 1;
        }
        end = start.get(next).map_or(at + rest.len(), |&s| s as usize);
        let (job, tail) = rest.split_at_mut(end - at);
        jobs.push((at, job));
        (rest, at) = (tail, end);
    }
    crate::par::for_each("tuft cards", jobs, |(at, job)| {
        let first = start.partition_point(|&s| (s as usize) <= at) - 1;
        for w in start[first..].windows(2) {
            let (a, b) = (w[0] as usize, w[1] as usize);
            if a >= at + job.len() {
                break;
            }
            job[a - at..b - at].sort_unstable();
        }
    });
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
    let area: f32 = members.iter().map(|m| m.area).sum();
    let crown = if area > 0.0 {
        std::array::from_fn(|c| members.iter().map(|m| m.area * m.crown[c]).sum::<f32>() / area)
    } else {
        white()
    };
    let width = (2.0 * extent).max(4.0 * mean_width).max(0.25 * height);
    Card {
        centre: centre.to_array(),
        turn: h(0),
        width,
        height,
        cell: ((h(1) * (atlas_cells * atlas_cells) as f32) as u32)
            .min(atlas_cells * atlas_cells - 1),
        n_strands: members.len() as u32,
        crown,
        tint: white(),
    }
}

/// The cards of one repeat laid on the plane of [`crate::mesh::repeat_tiles`] (centred
/// on the origin, facing +y): two crossed quads per card, textured with its atlas cell.
/// Vertex colour is the card's tint (the atlas carries the colour, the tint its
/// strands' patch of it); `wind` rises from 0 at the ground to 1 at the top.
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
        push_card(&mut mesh.vertices, card, base, frame, atlas_cells);
    }
    mesh.indices = vec![0; cards.len() * INDICES_PER_CARD];
    crate::mesh::strand_indices_into(VERTICES_PER_CARD, &CARD_PATTERN, 0, &mut mesh.indices);
    mesh
}

/// The cards as a set of points a surface can be planted with: each card stands at its
/// centre (wrapped into the repeat), so [`crate::placement::place`] splits them by where
/// the surface reaches the repeat — each side of a slab, each face of a box gets its own
/// — and thins them by area exactly as it thins strands. A card's id, which the thinning
/// hashes, is its turn's 24 bits, a hash of its group: a card that comes or goes (a root
/// moved across a group's edge) leaves every other card's thinning as it was, where ids
/// counted in order would shift all those after it.
#[must_use]
pub fn card_points(cards: &[Card]) -> StrandSet {
    let mut set = StrandSet::with_capacity(cards.len());
    for card in cards {
        set.root_uv.push(
            card.centre
                .map(|c| c.rem_euclid(1.0).min(1.0 - f32::EPSILON)),
        );
        // `turn` is `unit_f32` of a hash: a multiple of 2⁻²⁴, so this is exact.
        set.id.push((card.turn * 16_777_216.0) as u32);
        set.rank.push(card.turn);
    }
    set
}

/// Vertices per card: two quads of four corners.
pub const VERTICES_PER_CARD: usize = 8;
/// Indices per card: two quads of two triangles.
pub const INDICES_PER_CARD: usize = 12;

/// One card's triangles, counted from its first vertex: each quad's corners are
/// bottom-left, bottom-right, top-left, top-right.
const CARD_PATTERN: [u32; INDICES_PER_CARD] = [0, 1, 2, 1, 3, 2, 4, 5, 6, 5, 7, 6];

/// Meshes the cards planted on one tile (planted from [`card_points`]): two crossed quads
/// per card standing on the surface's normal, turned in its tangent plane. `ranks` holds
/// each card's own hash (its turn), which a renderer compares with a fade to dither the
/// card level in and out.
#[must_use]
pub fn build_card_tile(cards: &[Card], tile: &PlacedTile, atlas_cells: u32) -> TileMesh {
    let mut floats = Vec::with_capacity(tile.strands.len() * VERTICES_PER_CARD);
    let mut mesh = TileMesh {
        pattern: CARD_PATTERN.to_vec(),
        ..TileMesh::default()
    };
    for planted in &tile.strands {
        let card = &cards[planted.strand as usize];
        let frame = [planted.tangent, planted.bitangent, planted.normal];
        push_card(&mut floats, card, planted.position, frame, atlas_cells);
        mesh.ranks.push(card.turn);
    }
    // The cards are built whole, so their box is exact.
    mesh.frame = Frame::of(floats.iter().map(|v| Vec3::from(v.position)));
    mesh.vertices = floats
        .iter()
        .map(|v| PackedVertex::pack(v, &mesh.frame))
        .collect();
    mesh
}

/// Appends one card's two quads' vertices ([`CARD_PATTERN`] their triangles): `frame` is
/// (u tangent, v tangent, up).
fn push_card(
    vertices: &mut Vec<StrandVertex>,
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
                color: card.tint,
                wind: up,
                rank: card.turn,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grouping_serves_every_set_with_the_same_roots() {
        let set = crate::testing::random_set(20_000, 9, 24);
        let grouping = Grouping::of(&set, 24, 2.0);
        assert_eq!(cards_of(&set, &grouping, 4), group(&set, 24, 2.0, 4));
        // Other lengths, widths, leans and colours at the same roots: the same groups,
        // cards made from the new strands.
        let mut edited = set.clone();
        for i in 0..edited.len() {
            edited.length[i] *= 1.0 + (i % 7) as f32 * 0.1;
            edited.width[i] *= 0.5;
            edited.lean[i] = [0.2, -0.1];
            edited.tip_color[i] = [0.4, 0.1, 0.1];
        }
        assert!(edited.same_roots(&set));
        let cards = cards_of(&edited, &grouping, 4);
        assert_eq!(cards, group(&edited, 24, 2.0, 4));
        assert_ne!(cards, group(&set, 24, 2.0, 4));
        // A moved root, another clump or another id is another set.
        for change in 0..3 {
            let mut other = set.clone();
            match change {
                0 => other.root_uv[5][1] = (other.root_uv[5][1] + 0.25).fract(),
                1 => other.clump[5] += 1,
                _ => other.id.swap(5, 6),
            }
            assert!(!other.same_roots(&set), "change {change}");
        }
        let mut signed = set.clone();
        signed.root_uv[0] = [0.0, 0.0];
        let mut negative = signed.clone();
        negative.root_uv[0] = [-0.0, 0.0];
        assert!(!signed.same_roots(&negative), "roots compare bit for bit");
    }

    #[test]
    fn a_card_keeps_its_id_when_another_card_comes() {
        let cards = group(&set(5_000, 12), 12, 2.0, 4);
        let mut more = cards.clone();
        more.insert(
            0,
            Card {
                turn: 0.5,
                ..cards[3]
            },
        );
        let (a, b) = (card_points(&cards), card_points(&more));
        assert_eq!(a.id[..], b.id[1..]);
        // Cards of other groups have other ids (as their turns differ).
        let mut ids = a.id.clone();
        ids.sort_unstable();
        ids.dedup();
        assert!(
            ids.len() + 2 >= cards.len(),
            "{} ids for {} cards",
            ids.len(),
            cards.len()
        );
    }

    fn set(n: usize, clumps: u32) -> StrandSet {
        crate::testing::random_set(n, 4, clumps)
    }

    #[test]
    fn tints_follow_the_crowns_and_keep_the_mean() {
        let s = set(5_000, 16);
        let settings = CardSettings::default();
        let mut cards = group(&s, 16, 1.0, settings.atlas_cells);
        let atlas = atlas(&s, &cards, 1.0, &settings);
        assert_eq!(atlas.cell_means.len(), 16);
        // Every other card's strands a quarter brighter in red than the rest: their
        // tints part by that ratio raised to the contrast.
        for (k, c) in cards.iter_mut().enumerate() {
            c.crown = if k % 2 == 0 {
                [0.25, 0.3, 0.2]
            } else {
                [0.2, 0.3, 0.2]
            };
        }
        tint(&mut cards, &atlas);
        let want = 1.25f32.powf(CONTRAST);
        for pair in cards.chunks_exact(2).filter(|p| p[0].cell == p[1].cell) {
            let ratio = pair[0].tint[0] / pair[1].tint[0];
            assert!((ratio - want).abs() < 1e-3 * want, "{ratio} against {want}");
            assert!((pair[0].tint[1] - pair[1].tint[1]).abs() < 1e-6);
        }
        // What the cards show, weighted as they show it, is what the atlas shows.
        let shown = |tinted: bool, k: usize| -> f64 {
            cards
                .iter()
                .map(|c| {
                    let m = atlas.cell_means[c.cell as usize];
                    let t = if tinted { c.tint[k] } else { 1.0 };
                    f64::from(c.width * c.height * m[3] * m[k] * t)
                })
                .sum()
        };
        for k in 0..3 {
            assert!((shown(true, k) / shown(false, k) - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn folded_tints_fit_vertex_colours_and_show_the_same() {
        let s = set(5_000, 16);
        let settings = CardSettings::default();
        let mut cards = group(&s, 16, 1.0, settings.atlas_cells);
        let mut atlas = atlas(&s, &cards, 1.0, &settings);
        for (k, c) in cards.iter_mut().enumerate() {
            c.tint = [0.5 + (k % 5) as f32 * 0.3, 1.0, 0.8];
        }
        let before: Vec<Card> = cards.clone();
        let means = atlas.cell_means.clone();
        let (scale, clamped) = fold_tints(&mut cards, &mut atlas);
        assert!(clamped <= FOLD_CLAMPED + 1e-3, "{clamped}");
        assert!(scale[0] > 1.0 && scale[2] == 1.0, "{scale:?}");
        for (a, b) in before.iter().zip(&cards) {
            for k in 0..3 {
                assert!((0.0..=1.0).contains(&b.tint[k]));
                // What a card shows: its cell's mean times its tint, unless cut.
                let (was, now) = (
                    means[a.cell as usize][k] * a.tint[k],
                    atlas.cell_means[a.cell as usize][k] * b.tint[k],
                );
                if a.tint[k] <= scale[k] {
                    assert!((was - now).abs() < 1e-4 * was.max(1.0), "{was} {now}");
                }
            }
        }
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
}
