//! How a mesh's attribute values become the bytes of a buffer view: floats, normalised
//! integers of 8 and 16 bits, unit vectors (through meshoptimizer's octahedral filter
//! where views are compressed) and positions quantised over their bounds, each a
//! [`Stream`] that accessors read.

use super::builder::{Glb, VERTICES, component};
use tuft_strands::mesh::LevelMesh;

impl Glb {
    /// Float vectors of `N` components (positions keep their values for bounds).
    pub(super) fn floats<const N: usize>(
        &mut self,
        values: impl Iterator<Item = [f32; N]>,
    ) -> Stream {
        let values: Vec<[f32; N]> = values.collect();
        let bytes: Vec<u8> = if cfg!(target_endian = "little") {
            bytemuck::cast_slice::<f32, u8>(values.as_flattened()).to_vec()
        } else {
            values
                .iter()
                .flatten()
                .flat_map(|x| x.to_le_bytes())
                .collect()
        };
        let view = self.view(&bytes, 4 * N, VERTICES);
        let stored = (N == 3).then(|| values.iter().map(|v| [v[0], v[1], v[2]]).collect());
        Stream {
            view,
            component: component::FLOAT,
            normalized: false,
            kind: kind(N),
            stride: 4 * N,
            stored,
        }
    }

    /// Values in `[0, 1]` as 16-bit normalised integers (each element padded to four
    /// bytes), or floats when `quantized` is off or a value lies outside.
    pub(super) fn unorm16_or_floats<const N: usize>(
        &mut self,
        values: impl Iterator<Item = [f32; N]>,
        quantized: bool,
    ) -> Stream {
        self.unorm_or_floats(
            values,
            quantized,
            (component::UNSIGNED_SHORT, 2),
            |x, out| {
                out.copy_from_slice(&unorm16(x).to_le_bytes());
            },
        )
    }

    /// Values in `[0, 1]` as 8-bit normalised integers padded to four bytes (an error of
    /// at most 1/510), or floats when `quantized` is off or a value lies outside.
    pub(super) fn unorm8_or_floats<const N: usize>(
        &mut self,
        values: impl Iterator<Item = [f32; N]>,
        quantized: bool,
    ) -> Stream {
        self.unorm_or_floats(
            values,
            quantized,
            (component::UNSIGNED_BYTE, 1),
            |x, out| {
                out[0] = tuft_strands::num::to_unorm8(x);
            },
        )
    }

    /// Values in `[0, 1]` as normalised integers of `component`, `width` bytes each,
    /// which `encode` writes little-endian (an element padded to four bytes); or floats
    /// when `quantized` is off or a value lies outside.
    fn unorm_or_floats<const N: usize>(
        &mut self,
        values: impl Iterator<Item = [f32; N]>,
        quantized: bool,
        (component, width): (u32, usize),
        encode: impl Fn(f32, &mut [u8]),
    ) -> Stream {
        let values: Vec<[f32; N]> = values.collect();
        let inside = values.iter().flatten().all(|x| (0.0..=1.0).contains(x));
        if !quantized || !inside {
            return self.floats(values.into_iter());
        }
        let stride = (width * N).next_multiple_of(4);
        let mut bytes = vec![0u8; values.len() * stride];
        for (out, v) in bytes.chunks_exact_mut(stride).zip(&values) {
            for (slot, &x) in out.chunks_exact_mut(width).zip(v) {
                encode(x, slot);
            }
        }
        let view = self.view(&bytes, stride, VERTICES);
        Stream::integers(view, component, kind(N), stride)
    }

    /// Four components in `[-1, 1]` as 8-bit signed normalised integers.
    pub(super) fn signed_i8(&mut self, values: impl Iterator<Item = [f32; 4]>) -> Stream {
        let mut bytes = Vec::new();
        for t in values {
            bytes.extend(t.map(snorm8));
        }
        let view = self.view(&bytes, 4, VERTICES);
        Stream::integers(view, component::BYTE, "VEC4", 4)
    }

    /// Unit vectors as 8-bit signed normalised integers, padded to four bytes. Where
    /// views are compressed they are stored through the OCTAHEDRAL filter (two varying
    /// bytes a vertex instead of three), which a decoder turns back into the same 8-bit
    /// vectors within a step.
    pub(super) fn unit_i8(&mut self, values: impl Iterator<Item = [f32; 3]>) -> Stream {
        let values: Vec<[f32; 3]> = values.collect();
        let mut bytes = Vec::with_capacity(4 * values.len());
        for n in &values {
            let [x, y, z] = n.map(snorm8);
            bytes.extend_from_slice(&[x, y, z, 0]);
        }
        let filtered = self.compress.then(|| {
            values
                .iter()
                .flat_map(|&n| octahedral8(n))
                .collect::<Vec<u8>>()
        });
        let filter = filtered.as_deref().map(|f| ("OCTAHEDRAL", f));
        let view = self.filtered_view(&bytes, 4, VERTICES, filter);
        Stream::integers(view, component::BYTE, "VEC3", 4)
    }

    /// Positions as 16-bit normalised integers on a cubic grid over the mesh's bounds:
    /// one step on every axis, the widest axis's extent / 65 535 or `grid_m`, whichever
    /// is coarser (a finer axis would only spend bits on noise a byte-wise codec cannot
    /// drop). Returns the stream, the bounds' minimum and the grid's span on each axis
    /// (what the node's translation and scale restore).
    pub(super) fn positions_u16(
        &mut self,
        mesh: &LevelMesh,
        grid_m: f32,
    ) -> (Stream, [f32; 3], [f32; 3]) {
        let positions: Vec<[f32; 3]> = mesh.vertices.iter().map(|v| v.position).collect();
        let (min, max) = min_max(&positions);
        let min = [min[0], min[1], min[2]];
        // A flat mesh still gets a scale a node may have (zero is degenerate).
        let widest = (0..3).map(|k| max[k] - min[k]).fold(1e-6, f32::max);
        let span = widest.max(grid_m * 65_535.0);
        let extent = [span; 3];
        let mut bytes = vec![0u8; positions.len() * 8];
        let mut stored = Vec::with_capacity(positions.len());
        for (out, p) in bytes.as_chunks_mut::<8>().0.iter_mut().zip(&positions) {
            let q: [u16; 3] = std::array::from_fn(|k| unorm16((p[k] - min[k]) / extent[k]));
            let [[a, b], [c, d], [e, f]] = q.map(u16::to_le_bytes);
            *out = [a, b, c, d, e, f, 0, 0];
            stored.push(q.map(f32::from));
        }
        let view = self.view(&bytes, 8, VERTICES);
        let mut stream = Stream::integers(view, component::UNSIGNED_SHORT, "VEC3", 8);
        stream.stored = Some(stored);
        (stream, min, extent)
    }
}

/// A vertex attribute written as one buffer view.
pub(super) struct Stream {
    pub(super) view: usize,
    pub(super) component: u32,
    pub(super) normalized: bool,
    pub(super) kind: &'static str,
    /// Bytes from one vertex to the next.
    pub(super) stride: usize,
    /// The values as stored, for the accessors' bounds (positions only).
    pub(super) stored: Option<Vec<[f32; 3]>>,
}

impl Stream {
    /// A stream of normalised integers.
    pub(super) const fn integers(
        view: usize,
        component: u32,
        kind: &'static str,
        stride: usize,
    ) -> Self {
        Self {
            view,
            component,
            normalized: true,
            kind,
            stride,
            stored: None,
        }
    }
}

/// `x` in `[0, 1]` to the nearest of 65 536 steps.
fn unorm16(x: f32) -> u16 {
    round_half_away(x.clamp(0.0, 1.0) * 65535.0) as u16
}

/// Unit vector `n` as EXT_meshopt_compression's OCTAHEDRAL filter stores it in four
/// bytes: its octahedral coordinates as 8-bit signed values, the value that stands for
/// one (127), and a zero.
fn octahedral8(n: [f32; 3]) -> [u8; 4] {
    let l1 = n[0].abs() + n[1].abs() + n[2].abs();
    let s = if l1 > 0.0 { 1.0 / l1 } else { 0.0 };
    let (x, y) = (n[0] * s, n[1] * s);
    let (u, v) = if n[2] >= 0.0 {
        (x, y)
    } else {
        let sign = |a: f32| if a >= 0.0 { 1.0 } else { -1.0 };
        ((1.0 - y.abs()) * sign(x), (1.0 - x.abs()) * sign(y))
    };
    [snorm8(u), snorm8(v), 127, 0]
}

/// `x` in `[-1, 1]` to the nearest of 255 signed steps, as its byte.
pub(super) fn snorm8(x: f32) -> u8 {
    round_half_away(x.clamp(-1.0, 1.0) * 127.0) as i8 as u8
}

/// `y.round() as i32` (halves away from zero; NaN gives 0) for `|y| < 2³¹`, without the
/// library call `roundf` is on the x86-64 baseline: every quantised vertex value went
/// through it. The fraction `y − trunc(y)` of a float is exact.
#[inline]
fn round_half_away(y: f32) -> i32 {
    let t = y as i32;
    let fraction = y - t as f32;
    // Comparisons, not branches: a quantised stream's fractions fall either way.
    t + i32::from(fraction >= 0.5) - i32::from(fraction <= -0.5)
}

pub(super) fn kind(components: usize) -> &'static str {
    match components {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        _ => "VEC4",
    }
}

/// Per-component bounds.
pub(super) fn min_max<const N: usize>(values: &[[f32; N]]) -> (Vec<f32>, Vec<f32>) {
    let mut min = vec![f32::INFINITY; N];
    let mut max = vec![f32::NEG_INFINITY; N];
    for v in values {
        for k in 0..N {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    if values.is_empty() {
        (vec![0.0; N], vec![0.0; N])
    } else {
        (min, max)
    }
}

#[cfg(test)]
mod tests {
    use super::round_half_away;

    #[test]
    fn rounding_without_the_library_call_is_round() {
        // Every half step in the ranges quantised, the floats either side of each, a
        // sweep of odd values, and NaN.
        let mut ys: Vec<f32> = Vec::new();
        for k in -131_072..=131_072 {
            let y = k as f32 / 2.0;
            ys.extend([
                y,
                f32::from_bits(y.to_bits() + 1),
                f32::from_bits(y.to_bits().wrapping_sub(1)),
            ]);
        }
        ys.extend((0..100_000).map(|i| (i as f32 * 0.618_034).sin() * 70_000.0));
        ys.extend([
            0.499_999_97,
            -0.499_999_97,
            0.0,
            -0.0,
            8_388_607.5,
            -8_388_607.5,
            f32::NAN,
        ]);
        for y in ys {
            assert_eq!(round_half_away(y), y.round() as i32, "{y:e}");
        }
    }
}
