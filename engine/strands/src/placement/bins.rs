//! The set's roots binned on a uniform grid over the repeat, for finding the roots a
//! triangle's UV footprint covers.

use crate::set::StrandSet;
use glam::Vec2;

/// A uniform grid of bins over `[0, 1)²` holding strands, for finding the roots inside a
/// triangle's footprint. Each binned strand keeps its root and id beside its index, so a
/// triangle's walk reads memory in bin order instead of jumping about the set.
#[derive(Debug)]
pub(super) struct Bins {
    side: usize,
    start: Vec<u32>,
    items: Vec<Binned>,
}

/// One strand in a bin.
#[derive(Clone, Copy, Debug)]
pub(super) struct Binned {
    pub(super) strand: u32,
    pub(super) id: u32,
    pub(super) root: [f32; 2],
}

/// About how many roots a bin holds. Sixteen rather than four: the deal then writes into
/// a quarter of the bins, whose open lines stay in a core's cache, and a triangle's side
/// tests (four roots at once) cost little for the roots of its box's edge bins
/// (BENCHMARKS.md, Geometry).
const ROOTS_PER_BIN: f64 = 16.0;

impl Bins {
    pub(super) fn new(set: &StrandSet) -> Self {
        let roots = &set.root_uv;
        let side = ((roots.len() as f64 / ROOTS_PER_BIN).sqrt().ceil() as usize).clamp(1, 1024);
        let bin = |p: [f32; 2]| {
            let x = ((p[0] * side as f32) as usize).min(side - 1);
            let y = ((p[1] * side as f32) as usize).min(side - 1);
            y * side + x
        };
        let binned = |i: usize| Binned {
            strand: i as u32,
            id: set.id[i],
            root: roots[i],
        };
        // Dealt on every core: the deal was the placement's one serial step.
        let (start, items) =
            crate::buckets::deal_parts(roots.len(), binned, side * side, |b| bin(b.root));
        Self { side, start, items }
    }

    /// Calls `f` with runs of the strands in `strands` whose bins overlap `[lo, hi]`
    /// (within `[0, 1)²`), row of bins after row, in the bins' order. A row's bins lie
    /// side by side, so where the range takes every strand a row is one run; otherwise
    /// each bin gives the part of it inside the range (a bin lists its strands in
    /// ascending order, so binary searches find both ends).
    pub(super) fn runs_in(
        &self,
        lo: Vec2,
        hi: Vec2,
        strands: std::ops::Range<u32>,
        mut f: impl FnMut(&[Binned]),
    ) {
        // Truncating a number held at zero or above is its floor (a NaN is held at zero),
        // without `floor`, a library call on the x86-64 baseline.
        let s = self.side as f32;
        let at = |x: f32| ((x * s).max(0.0) as usize).min(self.side - 1);
        let (x0, y0, x1, y1) = (at(lo.x), at(lo.y), at(hi.x), at(hi.y));
        let every = strands.start == 0 && strands.end as usize >= self.items.len();
        for y in y0..=y1 {
            let (first, past) = (y * self.side + x0, y * self.side + x1 + 1);
            if every {
                f(&self.items[self.start[first] as usize..self.start[past] as usize]);
                continue;
            }
            for b in first..past {
                let bin = &self.items[self.start[b] as usize..self.start[b + 1] as usize];
                let from = bin.partition_point(|item| item.strand < strands.start);
                let to = bin.partition_point(|item| item.strand < strands.end);
                f(&bin[from..to.max(from)]);
            }
        }
    }
}
