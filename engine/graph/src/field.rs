//! Fields evaluated at many points: the domains they are evaluated on and the buffers
//! that hold the results.

use crate::value::{PortType, Value};
use rayon::prelude::*;
use std::sync::Arc;
use tuft_strands::num::{fast_floor, wrap_index};

/// The resolution buffered filters rasterise their inputs at, so that the blades drawn in
/// a texture and the blades standing on it agree whatever resolution is being baked.
pub const FIELD_RESOLUTION: usize = 512;

/// Points per parallel work item: large enough to amortise scheduling, small enough to
/// balance two cores on a thumbnail.
const CHUNK: usize = 4096;

/// Values per parallel work item of the scrub of non-finite values: it reads them once.
const SCRUB_CHUNK: usize = 1 << 16;

/// The points a field is evaluated at, in UV over one repeat.
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    /// U of each point.
    pub u: Vec<f32>,
    /// V of each point.
    pub v: Vec<f32>,
    /// `Some((width, height))` when the points form a row-major `width × height` grid
    /// whose `u` depends only on the column and `v` only on the row (a whole texel grid
    /// or a band of its rows). Generators use it to compute per-column and per-row work
    /// once instead of per point.
    pub grid: Option<(usize, usize)>,
}

impl Domain {
    /// The texel centres of a `width × height` grid, row-major, `v` growing down the rows:
    /// texel `(x, y)` sits at `((x + 0.5) / width, (y + 0.5) / height)`.
    #[must_use]
    pub fn grid(width: usize, height: usize) -> Self {
        Self::grid_rows(width, height, 0, height)
    }

    /// Rows `first..first + rows` of [`Domain::grid`]`(width, height)`: a band of it,
    /// itself a `width × rows` grid.
    #[must_use]
    pub fn grid_rows(width: usize, height: usize, first: usize, rows: usize) -> Self {
        // Every row holds the same u: worked out once and copied.
        let row: Vec<f32> = (0..width)
            .map(|x| (x as f32 + 0.5) / width as f32)
            .collect();
        let mut u = Vec::with_capacity(width * rows);
        let mut v = Vec::with_capacity(width * rows);
        for y in first..first + rows {
            u.extend_from_slice(&row);
            v.resize(v.len() + width, (y as f32 + 0.5) / height as f32);
        }
        Self {
            u,
            v,
            grid: Some((width, rows)),
        }
    }

    /// Arbitrary points.
    #[must_use]
    pub fn points(points: &[[f32; 2]]) -> Self {
        // Split over the cores where there is more than one work item: a scatter's
        // candidates and survivors are domains of hundreds of thousands of points, read
        // before every field at them; validation's edges (on the UI thread) are a few
        // hundred, not worth a trip to the pool.
        if points.len() <= CHUNK {
            return Self {
                u: points.iter().map(|p| p[0]).collect(),
                v: points.iter().map(|p| p[1]).collect(),
                grid: None,
            };
        }
        Self {
            u: points.par_iter().map(|p| p[0]).collect(),
            v: points.par_iter().map(|p| p[1]).collect(),
            grid: None,
        }
    }

    /// How many points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.u.len()
    }

    /// For a grid domain, the `u` of each column and the `v` of each row.
    #[must_use]
    pub fn axes(&self) -> Option<(&[f32], Vec<f32>)> {
        let (w, h) = self.grid?;
        if w * h != self.len() || w == 0 {
            return None;
        }
        Some((&self.u[..w], (0..h).map(|y| self.v[y * w]).collect()))
    }

    /// Whether there are no points.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }
}

/// A field's values at every point of a domain, channels interleaved
/// (`data[i * channels + c]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The type of the values.
    pub ty: PortType,
    /// `len × ty.channels()` values.
    pub data: Vec<f32>,
}

impl Field {
    /// A Float field read as a Color: the value on every channel (grey).
    #[must_use]
    pub fn grey(&self) -> Self {
        debug_assert_eq!(self.ty, PortType::Float);
        Self {
            ty: PortType::Color,
            data: self.data.iter().flat_map(|&x| [x, x, x]).collect(),
        }
    }

    /// A field holding `value` at `n` points.
    #[must_use]
    pub fn constant(value: Value, n: usize) -> Self {
        let ty = value.ty();
        let c = value.channels();
        // `repeat` copies in doubling runs; a copy per point cost a library call each.
        let data = c[..ty.channels()].repeat(n);
        Self { ty, data }
    }

    /// How many points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.data.len() / self.ty.channels()
    }

    /// Whether it holds no points.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Channel `c` at point `i`.
    #[inline]
    #[must_use]
    pub fn at(&self, c: usize, i: usize) -> f32 {
        self.data[i * self.ty.channels() + c]
    }

    /// Every channel at point `i`, padded with zeros to three.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> [f32; 3] {
        let n = self.ty.channels();
        let at = &self.data[i * n..i * n + n];
        // Three reads, not a copy of a length known at run time (a library call each).
        std::array::from_fn(|c| at.get(c).copied().unwrap_or(0.0))
    }

    /// Smallest and largest value over every channel (NaN ignored).
    #[must_use]
    pub fn range(&self) -> (f32, f32) {
        self.data
            .iter()
            .filter(|x| x.is_finite())
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            })
    }

    /// Replaces NaN and infinities by zero; returns how many values were replaced.
    pub fn scrub_non_finite(&mut self) -> usize {
        // Nearly every field has none: a count the compiler vectorises, over the cores,
        // and a second pass only over a chunk where it found some.
        self.data
            .par_chunks_mut(SCRUB_CHUNK)
            .map(|chunk| {
                let found: usize = chunk.iter().map(|x| usize::from(!x.is_finite())).sum();
                if found > 0 {
                    for x in chunk.iter_mut().filter(|x| !x.is_finite()) {
                        *x = 0.0;
                    }
                }
                found
            })
            .sum()
    }
}

/// Bilinear, wrapped sampling of a row-major `width × height` raster of `channels`
/// interleaved channels at `(u, v)`; texel `(x, y)` holds the value at its centre.
#[inline]
#[must_use]
pub fn sample_wrapped(
    data: &[f32],
    channels: usize,
    (width, height): (usize, usize),
    u: f32,
    v: f32,
) -> [f32; 3] {
    bilinear(
        data,
        channels,
        width,
        Axis::at(u, width),
        Axis::at(v, height),
    )
}

/// `raster` (row-major, `size`, `ty`'s channels interleaved) sampled at every point of
/// `domain` as [`sample_wrapped`] samples it, each sample passed through `then`. On a
/// grid domain each column's and each row's texels and weights are worked out once
/// (the same numbers), and the rows are shared out over the cores.
pub fn sample_raster(
    ty: PortType,
    raster: &[f32],
    size: (usize, usize),
    domain: &Domain,
    then: impl Fn([f32; 3]) -> [f32; 3] + Sync,
) -> Field {
    let channels = ty.channels();
    let Some((us, vs)) = domain.axes() else {
        return par_field(ty, domain.len(), |i| {
            then(sample_wrapped(
                raster,
                channels,
                size,
                domain.u[i],
                domain.v[i],
            ))
        });
    };
    let columns: Vec<Axis> = us.iter().map(|&u| Axis::at(u, size.0)).collect();
    let rows: Vec<Axis> = vs.iter().map(|&v| Axis::at(v, size.1)).collect();
    let mut data = vec![0.0f32; domain.len() * channels];
    // The channel count a constant, so a texel is a fixed-size copy (one of a length
    // known at run time was a library call each).
    match channels {
        1 => sample_grid::<1>(raster, size.0, &columns, &rows, &then, &mut data),
        2 => sample_grid::<2>(raster, size.0, &columns, &rows, &then, &mut data),
        _ => sample_grid::<3>(raster, size.0, &columns, &rows, &then, &mut data),
    }
    Field { ty, data }
}

/// [`sample_raster`] on a grid, `C` channels: [`bilinear`] with its channel count a
/// constant.
fn sample_grid<const C: usize>(
    raster: &[f32],
    width: usize,
    columns: &[Axis],
    rows: &[Axis],
    then: &(impl Fn([f32; 3]) -> [f32; 3] + Sync),
    data: &mut [f32],
) {
    data.par_chunks_mut(columns.len() * C)
        .zip(rows.par_iter())
        .for_each(|(out, &row)| {
            for (texel, &column) in out.as_chunks_mut::<C>().0.iter_mut().zip(columns) {
                let value = then(bilinear(raster, C, width, column, row));
                *texel = std::array::from_fn(|k| value[k]);
            }
        });
}

/// Where a coordinate falls along one wrapped axis of a raster: the texel at or before
/// it, the next (wrapped), and how far toward the next.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axis {
    pub(crate) before: usize,
    pub(crate) after: usize,
    pub(crate) toward: f32,
}

impl Axis {
    /// Coordinate `t` (texel `i`'s centre at `(i + ½) / n`) on an axis of `n` texels.
    #[inline]
    pub(crate) fn at(t: f32, n: usize) -> Self {
        let x = t * n as f32 - 0.5;
        let x0 = fast_floor(x);
        let before = wrap_index(x0 as i64, n);
        Self {
            before,
            after: if before + 1 == n { 0 } else { before + 1 },
            toward: x - x0,
        }
    }
}

/// The bilinear blend of a raster's four texels around `(x, y)`, first `channels`.
#[inline]
fn bilinear(data: &[f32], channels: usize, width: usize, x: Axis, y: Axis) -> [f32; 3] {
    let (r0, r1) = (y.before * width, y.after * width);
    let mut out = [0.0; 3];
    for (k, o) in out.iter_mut().enumerate().take(channels) {
        let a = data[(r0 + x.before) * channels + k];
        let b = data[(r0 + x.after) * channels + k];
        let c = data[(r1 + x.before) * channels + k];
        let d = data[(r1 + x.after) * channels + k];
        let top = a + (b - a) * x.toward;
        let bottom = c + (d - c) * x.toward;
        *o = top + (bottom - top) * y.toward;
    }
    out
}

/// Evaluates `f` at points `0..n` in parallel into an interleaved buffer of `C` channels.
pub fn par_map<const C: usize>(n: usize, f: impl Fn(usize) -> [f32; C] + Sync) -> Vec<f32> {
    let mut out = vec![0.0f32; n * C];
    out.par_chunks_mut(CHUNK * C)
        .enumerate()
        .for_each(|(chunk_idx, chunk)| {
            let base = chunk_idx * CHUNK;
            for (j, px) in chunk.chunks_exact_mut(C).enumerate() {
                px.copy_from_slice(&f(base + j));
            }
        });
    out
}

/// A field of type `ty` built by `f` at points `0..n`; `f` returns three channels of
/// which the type's first ones are kept.
pub fn par_field(ty: PortType, n: usize, f: impl Fn(usize) -> [f32; 3] + Sync) -> Field {
    let data = match ty {
        PortType::Float => par_map::<1>(n, |i| [f(i)[0]]),
        PortType::Vec2 => par_map::<2>(n, |i| {
            let c = f(i);
            [c[0], c[1]]
        }),
        PortType::Color => par_map::<3>(n, f),
    };
    Field { ty, data }
}

/// A node's outputs, each shared (a kept output is handed on without a copy).
pub(crate) type Outputs = Arc<[Arc<Field>]>;

/// A point-access input: a constant or a field at the node's points.
#[derive(Clone, Copy, Debug)]
pub enum InputRef<'a> {
    /// The same value everywhere.
    Const([f32; 3]),
    /// One value per point.
    Field(&'a Field),
}

impl InputRef<'_> {
    /// Channel `c` at point `i`.
    #[inline]
    #[must_use]
    pub fn at(&self, c: usize, i: usize) -> f32 {
        match self {
            Self::Const(v) => v[c],
            Self::Field(f) => f.at(c, i),
        }
    }

    /// Every channel at point `i` (padded to three).
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> [f32; 3] {
        match self {
            Self::Const(v) => *v,
            Self::Field(f) => f.get(i),
        }
    }

    /// The constant, when the input is one.
    #[must_use]
    pub fn as_const(&self) -> Option<[f32; 3]> {
        match self {
            Self::Const(v) => Some(*v),
            Self::Field(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_points_are_texel_centres() {
        let d = Domain::grid(4, 2);
        assert_eq!(d.len(), 8);
        assert_eq!((d.u[0], d.v[0]), (0.125, 0.25));
        assert_eq!((d.u[7], d.v[7]), (0.875, 0.75));
    }

    #[test]
    fn sampling_at_a_texel_centre_returns_the_texel() {
        let f = Field {
            ty: PortType::Float,
            data: vec![0.0, 1.0, 2.0, 3.0],
        };
        assert_eq!(sample_wrapped(&f.data, 1, (2, 2), 0.75, 0.25)[0], 1.0);
        // Half way between the last column and the first (across the seam).
        assert_eq!(sample_wrapped(&f.data, 1, (2, 2), 1.0, 0.25)[0], 0.5);
        assert_eq!(sample_wrapped(&f.data, 1, (2, 2), 0.0, 0.25)[0], 0.5);
    }

    #[test]
    fn a_raster_sampled_on_a_grid_is_sampled_as_at_points() {
        // A 5 × 3 raster of three channels, odd sizes so the wrap shows, sampled on a
        // grid finer than it, a coarser one, a band of rows and at loose points.
        let raster: Vec<f32> = (0..5 * 3 * 3)
            .map(|i| ((i * 37) % 11) as f32 * 0.3)
            .collect();
        let twice = |c: [f32; 3]| c.map(|x| 2.0 * x);
        for (ty, channels) in [
            (PortType::Float, 1),
            (PortType::Vec2, 2),
            (PortType::Color, 3),
        ] {
            let raster = &raster[..5 * 3 * channels];
            for domain in [
                Domain::grid(13, 7),
                Domain::grid(2, 2),
                Domain::grid_rows(9, 8, 3, 4),
                Domain::points(&[[0.0, 0.0], [0.99, 0.51], [0.1, 0.999]]),
            ] {
                let field = sample_raster(ty, raster, (5, 3), &domain, twice);
                assert_eq!(field.ty, ty);
                assert_eq!(field.data.len(), domain.len() * channels);
                for i in 0..domain.len() {
                    let at = twice(sample_wrapped(
                        raster,
                        channels,
                        (5, 3),
                        domain.u[i],
                        domain.v[i],
                    ));
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(
                        bits(&field.data[i * channels..(i + 1) * channels]),
                        bits(&at[..channels])
                    );
                }
            }
        }
    }

    #[test]
    fn the_scrub_replaces_exactly_the_non_finite_values() {
        // Several work items' worth, with NaN and infinities in some of them only.
        let n = 3 * SCRUB_CHUNK + 17;
        let mut f = Field {
            ty: PortType::Float,
            data: (0..n).map(|i| i as f32).collect(),
        };
        let bad = [5, SCRUB_CHUNK + 1, 3 * SCRUB_CHUNK + 16];
        f.data[bad[0]] = f32::NAN;
        f.data[bad[1]] = f32::INFINITY;
        f.data[bad[2]] = f32::NEG_INFINITY;
        assert_eq!(f.scrub_non_finite(), 3);
        for (i, &x) in f.data.iter().enumerate() {
            let want = if bad.contains(&i) { 0.0 } else { i as f32 };
            assert_eq!(x, want, "{i}");
        }
        assert_eq!(f.scrub_non_finite(), 0);
    }

    #[test]
    fn par_map_covers_every_point_in_order() {
        let n = 10_000;
        let out = par_map::<2>(n, |i| [i as f32, -(i as f32)]);
        assert_eq!(out.len(), 2 * n);
        assert!((0..n).all(|i| out[2 * i] == i as f32 && out[2 * i + 1] == -(i as f32)));
    }
}
