//! `StrandSet`: one layer's strands over one repeat, field-major and sorted by rank.

use serde::{Deserialize, Serialize};

/// One layer's strands over one repeat of the material.
///
/// Every attribute is one contiguous array (field-major), index `i` of each array
/// describing strand `i`. Strands are sorted by ascending `rank`, so the strands a level
/// keeping a fraction `k` draws are exactly a prefix: `rank < k`.
///
/// Units: `root_uv` in `[0, 1)` over the repeat; lengths, widths and `tip_pull` in
/// metres; `lean` as a fraction of the length along the surface's u and v; colours in
/// linear RGB.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StrandSet {
    /// Where each strand stands, in UV over the repeat.
    pub root_uv: Vec<[f32; 2]>,
    /// The rank hash in `[0, 1)`, ascending.
    pub rank: Vec<f32>,
    /// The clump each strand belongs to (an index into the clump lattice).
    pub clump: Vec<u32>,
    /// Length in metres.
    pub length: Vec<f32>,
    /// Width at the root in metres.
    pub width: Vec<f32>,
    /// Tip displacement along the surface as a fraction of the length (u, v).
    pub lean: Vec<[f32; 2]>,
    /// Curvature, 0 straight to 1 strongly bent.
    pub bend: Vec<f32>,
    /// Linear RGB at the root.
    pub root_color: Vec<[f32; 3]>,
    /// Linear RGB at the tip.
    pub tip_color: Vec<[f32; 3]>,
    /// Displacement of the tip toward the clump's centre, in metres along (u, v).
    pub tip_pull: Vec<[f32; 2]>,
    /// The candidate index the strand grew from: the key of every per-strand hash.
    pub id: Vec<u32>,
    /// Curl radius as a fraction of the length, and turns (see [`crate::shape::Groom`]).
    pub curl: Vec<[f32; 2]>,
    /// Frizz at the tip as a fraction of the length.
    pub frizz: Vec<f32>,
    /// Tip width as a fraction of the root width, and the taper's exponent.
    pub taper: Vec<[f32; 2]>,
}

/// Bytes one strand takes in a set: twenty-three 4-byte values.
pub const BYTES_PER_STRAND: usize = 23 * 4;

/// A strand's length, in repeats. Longer strands reach into the repeat beyond the next
/// and make every card as wide as the repeat (the atlas then draws every strand into
/// every cell).
pub const MAX_LENGTH_REPEATS: f32 = 0.5;
/// A strand's width, in repeats.
pub const MAX_WIDTH_REPEATS: f32 = 0.05;
/// A lean (a fraction of the length) beyond which a strand lies flat anyway.
pub const MAX_LEAN: f32 = 8.0;
/// A linear colour channel: far beyond any albedo, short of overflow after variation.
pub const MAX_COLOR: f32 = 1000.0;
/// Clump cells per side of the repeat: no finer than the finest candidate lattice a
/// graph may have (2048², the graph's limit on candidates).
pub const MAX_CLUMP_LATTICE: u32 = 2048;

/// A field's name, its values, its components and each component's range.
type FieldRange<'a> = (&'static str, &'a [f32], usize, [(f32, f32); 3]);

/// How far a stored value may pass a bound that scales with the repeat: a quantised
/// file stores lengths to 16 bits over their range, and its rounding may not read as
/// damage.
const REPEAT_SLACK: f32 = 1.001;

impl StrandSet {
    /// How many strands.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rank.len()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rank.is_empty()
    }

    /// Whether `other` has these strands (the same ids, in the same order) at the same
    /// roots, bit for bit, in the same clumps: all that placement's bins and the cards'
    /// grouping read, so a set an edit made without moving a root can take them over.
    #[must_use]
    pub fn same_roots(&self, other: &Self) -> bool {
        self.id == other.id
            && self.clump == other.clump
            && bytemuck::cast_slice::<[f32; 2], u32>(&self.root_uv)
                == bytemuck::cast_slice::<[f32; 2], u32>(&other.root_uv)
    }

    /// A set with room for `n` strands.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        Self {
            root_uv: Vec::with_capacity(n),
            rank: Vec::with_capacity(n),
            clump: Vec::with_capacity(n),
            length: Vec::with_capacity(n),
            width: Vec::with_capacity(n),
            lean: Vec::with_capacity(n),
            bend: Vec::with_capacity(n),
            root_color: Vec::with_capacity(n),
            tip_color: Vec::with_capacity(n),
            tip_pull: Vec::with_capacity(n),
            id: Vec::with_capacity(n),
            curl: Vec::with_capacity(n),
            frizz: Vec::with_capacity(n),
            taper: Vec::with_capacity(n),
        }
    }

    /// Strand `i`'s groom.
    #[must_use]
    pub fn groom(&self, i: usize) -> crate::shape::Groom {
        crate::shape::Groom {
            curl: self.curl[i],
            frizz: self.frizz[i],
            taper: self.taper[i],
        }
    }

    /// Appends a neutral groom (no curl or frizz, the default taper) for each strand
    /// that has none: for sets built field by field without grooming.
    pub fn fill_neutral_groom(&mut self) {
        let n = self.len();
        let g = crate::shape::Groom::NEUTRAL;
        self.curl.resize(n, g.curl);
        self.frizz.resize(n, g.frizz);
        self.taper.resize(n, g.taper);
    }

    /// The first value of the set outside the range a scatter writes, named by field
    /// and strand, for a set on a repeat of `repeat_m` metres; `None` when every value
    /// lies inside. A file is checked with this as it is read, so a damaged or
    /// hand-made file cannot draw as invisible strands or as smears.
    #[must_use]
    pub fn problem(&self, repeat_m: f32) -> Option<String> {
        let (max_length, max_width) = (
            MAX_LENGTH_REPEATS * repeat_m * REPEAT_SLACK,
            MAX_WIDTH_REPEATS * repeat_m * REPEAT_SLACK,
        );
        let pull = repeat_m * REPEAT_SLACK;
        let (curl, turns, frizz) = (
            crate::shape::MAX_CURL,
            crate::shape::MAX_CURL_TURNS,
            crate::shape::MAX_FRIZZ,
        );
        let (taper_lo, taper_hi) = crate::shape::TAPER_RANGE;
        // Each field's values, its components and its range per component.
        let checks: [FieldRange<'_>; 10] = [
            ("length", (&self.length), 1, [(0.0, max_length); 3]),
            ("width", (&self.width), 1, [(0.0, max_width); 3]),
            (
                "lean",
                self.lean.as_flattened(),
                2,
                [(-MAX_LEAN, MAX_LEAN); 3],
            ),
            ("bend", (&self.bend), 1, [(0.0, 1.0); 3]),
            (
                "root_color",
                self.root_color.as_flattened(),
                3,
                [(0.0, MAX_COLOR); 3],
            ),
            (
                "tip_color",
                self.tip_color.as_flattened(),
                3,
                [(0.0, MAX_COLOR); 3],
            ),
            (
                "tip_pull",
                self.tip_pull.as_flattened(),
                2,
                [(-pull, pull); 3],
            ),
            (
                "curl",
                self.curl.as_flattened(),
                2,
                [(0.0, curl), (0.0, turns), (0.0, 0.0)],
            ),
            ("frizz", (&self.frizz), 1, [(0.0, frizz); 3]),
            (
                "taper",
                self.taper.as_flattened(),
                2,
                [(0.0, 1.0), (taper_lo, taper_hi), (0.0, 0.0)],
            ),
        ];
        for (name, values, components, ranges) in checks {
            let bad = values.iter().enumerate().find(|&(k, &x)| {
                let (lo, hi) = ranges[k % components];
                !(x >= lo && x <= hi)
            });
            if let Some((k, &x)) = bad {
                let (lo, hi) = ranges[k % components];
                let which = if components > 1 {
                    format!(" (component {})", k % components)
                } else {
                    String::new()
                };
                let x = if x.abs() >= 1e6 {
                    format!("{x:e}")
                } else {
                    x.to_string()
                };
                return Some(format!(
                    "{name} of strand {} is {x}{which}, outside [{lo}, {hi}]",
                    k / components
                ));
            }
        }
        None
    }

    /// How many strands a level keeping fraction `keep` draws: the prefix with
    /// `rank < keep`.
    #[must_use]
    pub fn level_len(&self, keep: f32) -> usize {
        self.rank.partition_point(|&r| r < keep)
    }

    /// Whether every array has one entry per strand.
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        let n = self.len();
        [
            self.root_uv.len(),
            self.clump.len(),
            self.length.len(),
            self.width.len(),
            self.lean.len(),
            self.bend.len(),
            self.root_color.len(),
            self.tip_color.len(),
            self.tip_pull.len(),
            self.id.len(),
            self.curl.len(),
            self.frizz.len(),
            self.taper.len(),
        ]
        .iter()
        .all(|&l| l == n)
    }

    /// Whether ranks ascend.
    #[must_use]
    pub fn is_sorted(&self) -> bool {
        self.rank.windows(2).all(|w| w[0] <= w[1])
    }

    /// Reorders every array by `order` (a permutation of `0..len`).
    #[must_use]
    pub fn permuted(&self, order: &[u32]) -> Self {
        fn pick<T: Copy>(v: &[T], order: &[u32]) -> Vec<T> {
            order.iter().map(|&i| v[i as usize]).collect()
        }
        Self {
            root_uv: pick(&self.root_uv, order),
            rank: pick(&self.rank, order),
            clump: pick(&self.clump, order),
            length: pick(&self.length, order),
            width: pick(&self.width, order),
            lean: pick(&self.lean, order),
            bend: pick(&self.bend, order),
            root_color: pick(&self.root_color, order),
            tip_color: pick(&self.tip_color, order),
            tip_pull: pick(&self.tip_pull, order),
            id: pick(&self.id, order),
            curl: pick(&self.curl, order),
            frizz: pick(&self.frizz, order),
            taper: pick(&self.taper, order),
        }
    }

    /// The prefix `rank < keep` (`keep` in `(0, 1]`), its widths multiplied by
    /// `keep^(−widen_p)` and its ranks divided by `keep`, so they span `[0, 1)` again and
    /// a level keeping `k` of the result keeps `k · keep` of this set: the same layer,
    /// thinner, covering as much (as a level does). A `keep` outside `(0, 1]` keeps all.
    #[must_use]
    pub fn thinned(mut self, keep: f32, widen_p: f32) -> Self {
        if !(keep > 0.0 && keep < 1.0) {
            return self;
        }
        self.truncate(self.level_len(keep));
        let widen = keep.powf(-widen_p);
        let below_one = 1.0 - f32::EPSILON / 2.0;
        for w in &mut self.width {
            *w *= widen;
        }
        for r in &mut self.rank {
            *r = (*r / keep).min(below_one);
        }
        self
    }

    /// Keeps the first `n` strands (the prefix of the lowest ranks) and drops the rest.
    pub fn truncate(&mut self, n: usize) {
        self.root_uv.truncate(n);
        self.rank.truncate(n);
        self.clump.truncate(n);
        self.length.truncate(n);
        self.width.truncate(n);
        self.lean.truncate(n);
        self.bend.truncate(n);
        self.root_color.truncate(n);
        self.tip_color.truncate(n);
        self.tip_pull.truncate(n);
        self.id.truncate(n);
        self.curl.truncate(n);
        self.frizz.truncate(n);
        self.taper.truncate(n);
    }
}
