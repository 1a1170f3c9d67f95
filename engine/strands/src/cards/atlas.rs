//! The card atlas: each cell a window of the set drawn side-on (colour with alpha, and a
//! normal), with a mip chain whose alpha is rescaled so the share of texels passing the
//! cutoff stays what mip 0 has.

use super::{Card, CardSettings};
use crate::hash::{channel, hash, unit_f32};
use crate::mesh::Shape;
use crate::num::{fast_floor, linear_to_srgb8, median, srgb8_to_linear, to_unorm8};
use crate::set::StrandSet;
use glam::{Vec2, Vec3};

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
    /// Each cell's coverage-weighted mean colour, linear RGB, and its mean coverage
    /// (cells row by row): what a card wearing the cell shows before its tint
    /// ([`super::tint`]).
    pub cell_means: Vec<[f32; 4]>,
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
    let (crown, bins) = crate::par::join(
        "tuft atlas",
        || crown_colour(set),
        || RootBins::new(set, repeat_m, window),
    );
    // Each band of cells (one row of the atlas's cells) is its own stretch of both
    // images; the bands are drawn on the available cores.
    let bands: Vec<Band<'_>> = rgba
        .chunks_mut(size * cell_px * 4)
        .zip(nrm.chunks_mut(size * cell_px * 3))
        .take(cells)
        .enumerate()
        .map(|(band, (c, n))| (band, c, n))
        .collect();
    crate::par::map_with("tuft atlas", bands, Vec::new, |near, (band, c, n)| {
        // The band's zeros written before a strand's coverage is compared with them
        // (ARCHITECTURE.md, Conventions: zeroed memory read first costs a TLB flush on
        // every core).
        c.fill(0.0);
        n.fill(0.0);
        for column in 0..cells {
            let origin = origins[band * cells + column];
            bins.near(origin, near);
            view.draw(set, near, origin, column * cell_px, c, n);
        }
    });
    if let Some(crown) = crown {
        match_crown_colour(&mut rgba, crown);
    }
    let cell_means = cell_means(&rgba, size, cells);
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
    let (normal, color) = crate::par::join(
        "tuft atlas",
        || {
            normal_mips
                .iter()
                .zip(&color_mips)
                .map(|(n, c)| normal_bytes(n, c))
                .collect()
        },
        || color_mips.iter().map(|c| color_bytes(c)).collect(),
    );
    Atlas {
        size: size as u32,
        normal,
        color,
        cell_means,
    }
}

impl Atlas {
    /// Per channel, how much the colour may be brightened before more than `share` of
    /// mip 0's covered texels clamp at white.
    #[must_use]
    pub fn headroom(&self, share: f32) -> [f32; 3] {
        let Some(mip0) = self.color.first() else {
            return [1.0; 3];
        };
        std::array::from_fn(|c| {
            let mut values: Vec<u8> = mip0
                .chunks_exact(4)
                .filter(|p| p[3] > 0)
                .map(|p| p[c])
                .collect();
            if values.is_empty() {
                return 1.0;
            }
            values.sort_unstable();
            let k = ((1.0 - share) * (values.len() - 1) as f32) as usize;
            let top = srgb8_to_linear(values[k]);
            if top > 0.0 { 1.0 / top } else { f32::MAX }
        })
    }

    /// The colour mips brightened by `scale` per channel in linear light (clamped to
    /// white), alpha as it was; returns the share of covered texels of mip 0 that
    /// clamped in some channel.
    pub fn brighten(&mut self, scale: [f32; 3]) -> f32 {
        let mut clamped = [0usize; 2];
        for (mip, img) in self.color.iter_mut().enumerate() {
            for p in img.chunks_exact_mut(4) {
                let mut clipped = false;
                for c in 0..3 {
                    let x = srgb8_to_linear(p[c]) * scale[c];
                    clipped |= x > 1.0;
                    p[c] = linear_to_srgb8(x);
                }
                if mip == 0 && p[3] > 0 {
                    clamped[0] += usize::from(clipped);
                    clamped[1] += 1;
                }
            }
        }
        for m in &mut self.cell_means {
            for c in 0..3 {
                m[c] *= scale[c];
            }
        }
        clamped[0] as f32 / clamped[1].max(1) as f32
    }
}

/// The coverage-weighted mean colour and the mean coverage of each of the
/// `cells × cells` cells of a float RGBA image `size` texels square; white for a cell
/// with no coverage.
fn cell_means(rgba: &[f32], size: usize, cells: usize) -> Vec<[f32; 4]> {
    let cell_px = size / cells;
    let mut sums = vec![[0.0f64; 4]; cells * cells];
    for (k, p) in rgba.chunks_exact(4).enumerate() {
        let (x, y) = (k % size / cell_px, k / size / cell_px);
        if x < cells && y < cells {
            let sum = &mut sums[y * cells + x];
            for c in 0..3 {
                sum[c] += f64::from(p[c] * p[3]);
            }
            sum[3] += f64::from(p[3]);
        }
    }
    let texels = (cell_px * cell_px).max(1) as f64;
    sums.iter()
        .map(|s| {
            if s[3] > 0.0 {
                [
                    (s[0] / s[3]) as f32,
                    (s[1] / s[3]) as f32,
                    (s[2] / s[3]) as f32,
                    (s[3] / texels) as f32,
                ]
            } else {
                [1.0, 1.0, 1.0, 0.0]
            }
        })
        .collect()
}

/// A float RGBA image as 8-bit sRGB colour and linear alpha.
fn color_bytes(img: &[f32]) -> Vec<u8> {
    let mut out = vec![0u8; img.len()];
    for (o, p) in out.chunks_exact_mut(4).zip(img.chunks_exact(4)) {
        let [r, g, b] = [p[0], p[1], p[2]].map(linear_to_srgb8);
        o.copy_from_slice(&[r, g, b, to_unorm8(p[3])]);
    }
    out
}

/// A float normal image as 8-bit `0.5 + 0.5·n`, with the colour image's alpha.
fn normal_bytes(normals: &[f32], color: &[f32]) -> Vec<u8> {
    let mut out = vec![0u8; color.len()];
    let e = |x: f32| to_unorm8(0.5 + 0.5 * x);
    for ((o, n), c) in out
        .chunks_exact_mut(4)
        .zip(normals.chunks_exact(3))
        .zip(color.chunks_exact(4))
    {
        let n = Vec3::new(n[0], n[1], n[2]).normalize_or(Vec3::Z);
        o.copy_from_slice(&[e(n.x), e(n.y), e(n.z), to_unorm8(c[3])]);
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
        let (start, items) = crate::buckets::deal(0..set.len() as u32, per_side * per_side, |&i| {
            bin_of(&set.root_uv[i as usize])
        });
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
            let curve = strand.curve();
            let lean_x = (r.x / length.max(1e-6)).clamp(-1.0, 1.0);
            let thin = strand.width_at(0.0) * self.px_per_m < 1.0;
            for s in 0..=samples {
                let t = s as f32 / samples as f32;
                let p = curve.at(t);
                let x = (d.x + p.x + window / 2.0) * self.px_per_m;
                let py = cell_px as isize - 1 - (p.z * self.px_per_m_up) as isize;
                if !(0..cell_px as isize).contains(&py) {
                    continue;
                }
                let half = 0.5 * strand.width_at(t) * self.px_per_m;
                let color = rc.lerp(tc, t).to_array();
                let normal = Vec3::new(lean_x * t * 0.5, 0.0, 1.0).normalize().to_array();
                if thin {
                    // Narrower than a texel at its root: its share of a texel never passes
                    // the cutoff, and a layer of such strands pictured nothing. It covers
                    // the texel it crosses whole, at as many rows as that share (on
                    // average), so the cell's coverage is still the strands'.
                    let share = 2.0 * half;
                    let crossed = fast_floor(x);
                    if (0.0..cell_px as f32).contains(&crossed)
                        && unit_f32(hash(u64::from(strand.id), s as u64, channel::ATLAS)) < share
                    {
                        let k = py as usize * self.size + cx + crossed as usize;
                        rgba[k * 4..k * 4 + 4]
                            .copy_from_slice(&[color[0], color[1], color[2], 1.0]);
                        nrm[k * 3..k * 3 + 3].copy_from_slice(&normal);
                    }
                    continue;
                }
                let x0 = fast_floor(x - half).max(0.0) as usize;
                let x1 = ((-fast_floor(-(x + half))).max(0.0) as usize).min(cell_px);
                let row = py as usize * self.size + cx;
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
        let (a, colour) = strand_crown(set, i);
        for c in 0..3 {
            crown[c] += f64::from(a * colour[c]);
        }
        area += f64::from(a);
    }
    (area > 0.0).then(|| crown.map(|c| c / area))
}

/// Strand `i`'s area (width × length) and its crown colour, linear RGB.
pub(super) fn strand_crown(set: &StrandSet, i: usize) -> (f32, [f32; 3]) {
    let (r, t) = (set.root_color[i], set.tip_color[i]);
    (
        set.width[i] * set.length[i],
        std::array::from_fn(|c| r[c] + (t[c] - r[c]) * CROWN),
    )
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
    use crate::cards::group;

    fn set(n: usize, clumps: u32) -> StrandSet {
        crate::testing::random_set(n, 4, clumps)
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
    fn strands_narrower_than_a_texel_still_picture_their_cover() {
        // Straws 3 mm wide under cards 0.5 m wide, at 64 texels a cell, are 0.4 texel:
        // their share of a texel never passed the cutoff, and the cards showed nothing.
        let mut s = set(30_000, 16);
        let settings = CardSettings::default();
        let cards = group(&s, 16, 1.0, settings.atlas_cells);
        let window = median(cards.iter().map(|c| c.width)).expect("cards");
        let texel = window / (settings.atlas_size / settings.atlas_cells) as f32;
        let mut covers = |texels: f32| {
            s.width.iter_mut().for_each(|w| *w = texels * texel);
            let cards = group(&s, 16, 1.0, settings.atlas_cells);
            coverage_per_mip(&atlas(&s, &cards, 1.0, &settings), settings.alpha_cutoff)[0]
        };
        let (thin, thinner, wide) = (covers(0.4), covers(0.2), covers(1.6));
        assert!(
            0.02 < thinner && thinner < thin && thin < wide,
            "mip 0 covers {thinner} at 0.2 texel, {thin} at 0.4, {wide} at 1.6"
        );
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
