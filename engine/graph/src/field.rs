//! Fields evaluated at many points: the domains they are evaluated on and the buffers
//! that hold the results.

use crate::value::{PortType, Value};
use rayon::prelude::*;
use tuft_strands::num::{fast_floor, wrap_index};

/// Points per parallel work item: large enough to amortise scheduling, small enough to
/// balance two cores on a thumbnail.
const CHUNK: usize = 4096;

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
        let mut u = Vec::with_capacity(width * rows);
        let mut v = Vec::with_capacity(width * rows);
        for y in first..first + rows {
            let vy = (y as f32 + 0.5) / height as f32;
            for x in 0..width {
                u.push((x as f32 + 0.5) / width as f32);
                v.push(vy);
            }
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
        Self {
            u: points.iter().map(|p| p[0]).collect(),
            v: points.iter().map(|p| p[1]).collect(),
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
        let mut replaced = 0;
        for x in &mut self.data {
            if !x.is_finite() {
                *x = 0.0;
                replaced += 1;
            }
        }
        replaced
    }

    /// Samples this field, which must have been evaluated on a `width × height` grid, at
    /// `(u, v)` with bilinear filtering, wrapping at the edges (the field tiles).
    #[must_use]
    pub fn sample_wrapped(&self, size: (usize, usize), u: f32, v: f32) -> [f32; 3] {
        sample_wrapped(&self.data, self.ty.channels(), size, u, v)
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
    let x = u * width as f32 - 0.5;
    let y = v * height as f32 - 0.5;
    let (x0, y0) = (fast_floor(x), fast_floor(y));
    let (fx, fy) = (x - x0, y - y0);
    let xi0 = wrap_index(x0 as i64, width);
    let yi0 = wrap_index(y0 as i64, height);
    let xi1 = if xi0 + 1 == width { 0 } else { xi0 + 1 };
    let yi1 = if yi0 + 1 == height { 0 } else { yi0 + 1 };
    let (r0, r1) = (yi0 * width, yi1 * width);
    let mut out = [0.0; 3];
    for (k, o) in out.iter_mut().enumerate().take(channels) {
        let a = data[(r0 + xi0) * channels + k];
        let b = data[(r0 + xi1) * channels + k];
        let c = data[(r1 + xi0) * channels + k];
        let d = data[(r1 + xi1) * channels + k];
        let top = a + (b - a) * fx;
        let bottom = c + (d - c) * fx;
        *o = top + (bottom - top) * fy;
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
        assert_eq!(f.sample_wrapped((2, 2), 0.75, 0.25)[0], 1.0);
        // Half way between the last column and the first (across the seam).
        assert_eq!(f.sample_wrapped((2, 2), 1.0, 0.25)[0], 0.5);
        assert_eq!(f.sample_wrapped((2, 2), 0.0, 0.25)[0], 0.5);
    }

    #[test]
    fn par_map_covers_every_point_in_order() {
        let n = 10_000;
        let out = par_map::<2>(n, |i| [i as f32, -(i as f32)]);
        assert_eq!(out.len(), 2 * n);
        assert!((0..n).all(|i| out[2 * i] == i as f32 && out[2 * i + 1] == -(i as f32)));
    }
}
