//! Noise at scattered points, eight at a time: the strand ports' fields are noise at
//! each root, hundreds of thousands of points per scatter. The lattice work of eight
//! points is done as arrays the compiler turns into vector instructions (AVX2 where the
//! CPU has it, chosen at run time), with the same operations in the same order as the
//! one-point functions in `noise.rs`, so the numbers are the same to the bit (tested).
//! With AVX2, lattices small enough to tabulate go to `noise_avx2`, the same steps in
//! explicit instructions.

// Every loop here walks the lanes of several arrays at once by index: the form the
// vectoriser reads best.
#![allow(clippy::needless_range_loop)]

use super::noise_basis::{GRADIENT_NORM, GX, GY, Kind, LANES, Layer};
use crate::nodes::fast_floor;
use crate::nodes::lattice::Lattice;
use tuft_strands::hash::{hash_cell, unit_f32_32};

/// Fills `out[i]` with the noise at (`us[i]`, `vs[i]`), clamped to `[0, 1]`: what
/// `value_noise`, `gradient_noise` and `Octaves::fbm` give point by point.
pub(super) fn points(kind: &Kind, layers: &[Layer], us: &[f32], vs: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if tuft_strands::simd::level() >= tuft_strands::simd::Level::Avx2 {
        // SAFETY: the level is AVX2 or above only where the CPU has AVX2.
        #[allow(unsafe_code)]
        unsafe {
            points_avx2(kind, layers, us, vs, out);
        }
        return;
    }
    points_portable(kind, layers, us, vs, out);
}

/// [`points_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn points_avx2(kind: &Kind, layers: &[Layer], us: &[f32], vs: &[f32], out: &mut [f32]) {
    // Tabulated lattices (scales up to 2,048) in explicit instructions; the rest hash
    // each corner, as the arrays below do.
    let tables: Option<Vec<&[u32]>> = layers.iter().map(|(_, _, l)| l.table()).collect();
    if let Some(tables) = tables {
        let portable = |us: &[f32], vs: &[f32], out: &mut [f32]| {
            points_portable(kind, layers, us, vs, out);
        };
        super::noise_avx2::points(kind, layers, &tables, us, vs, out, portable);
        return;
    }
    points_portable(kind, layers, us, vs, out);
}

/// [`points`] on the baseline instruction set.
#[inline(always)]
pub(super) fn points_portable(
    kind: &Kind,
    layers: &[Layer],
    us: &[f32],
    vs: &[f32],
    out: &mut [f32],
) {
    let mut at = 0;
    while at < out.len() {
        let m = (out.len() - at).min(LANES);
        let (mut u, mut v) = ([0.0f32; LANES], [0.0f32; LANES]);
        u[..m].copy_from_slice(&us[at..at + m]);
        v[..m].copy_from_slice(&vs[at..at + m]);
        let mut sum = [0.0f32; LANES];
        for (k, (amp, scale, lattice)) in layers.iter().enumerate() {
            let n = match kind {
                Kind::Value => value_block(&u, &v, *scale, lattice),
                Kind::Gradient | Kind::Fbm { .. } => gradient_block(&u, &v, *scale, lattice),
            };
            for l in 0..LANES {
                let term = amp * n[l];
                sum[l] = if k == 0 { term } else { sum[l] + term };
            }
        }
        let mut done = [0.0f32; LANES];
        for l in 0..LANES {
            done[l] = finish(kind, sum[l]);
        }
        out[at..at + m].copy_from_slice(&done[..m]);
        at += m;
    }
}

/// The noise's value from its layers' sum, in `[0, 1]`: gradient noise's ±√½ onto ±½
/// about ½; fBm's normalised by its amplitudes and given back one octave's contrast.
#[inline(always)]
pub(super) fn finish(kind: &Kind, sum: f32) -> f32 {
    let n = match kind {
        Kind::Value => sum,
        Kind::Gradient => 0.5 + sum * GRADIENT_NORM,
        Kind::Fbm { norm } => 0.5 + 1.5 * GRADIENT_NORM * sum / norm,
    };
    n.clamp(0.0, 1.0)
}

/// Each lane's cell as `cell` in `noise.rs` finds it: the wrapped cell, the next one,
/// and the position inside.
struct Cells {
    i0: [u32; LANES],
    i1: [u32; LANES],
    t: [f32; LANES],
}

#[inline(always)]
fn cells(x: &[f32; LANES], scale: f32, period: i64) -> Cells {
    let p = period as f32;
    let mut c = Cells {
        i0: [0; LANES],
        i1: [0; LANES],
        t: [0.0; LANES],
    };
    for l in 0..LANES {
        let xs = x[l] * scale;
        let xf = fast_floor(xs);
        let mut i0 = xf - fast_floor(xf / p) * p;
        i0 = if i0 >= p { i0 - p } else { i0 };
        i0 = if i0 < 0.0 { i0 + p } else { i0 };
        let i0 = i0 as i32;
        c.i0[l] = i0 as u32;
        c.i1[l] = if i64::from(i0) + 1 >= period {
            0
        } else {
            (i0 + 1) as u32
        };
        c.t[l] = xs - xf;
    }
    c
}

#[inline(always)]
fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// The four corners' hashes of every lane: (x0,y0), (x1,y0), (x0,y1), (x1,y1).
#[inline(always)]
fn corners(lattice: &Lattice, x: &Cells, y: &Cells) -> [[u32; LANES]; 4] {
    let mut h = [[0u32; LANES]; 4];
    let p = lattice.period() as usize;
    match lattice.table() {
        Some(table) => {
            for l in 0..LANES {
                let (x0, x1) = (x.i0[l] as usize, x.i1[l] as usize);
                let (y0, y1) = (y.i0[l] as usize * p, y.i1[l] as usize * p);
                h[0][l] = table[y0 + x0];
                h[1][l] = table[y0 + x1];
                h[2][l] = table[y1 + x0];
                h[3][l] = table[y1 + x1];
            }
        }
        None => {
            let seed = lattice.seed();
            for l in 0..LANES {
                h[0][l] = hash_cell(seed, x.i0[l], y.i0[l]);
                h[1][l] = hash_cell(seed, x.i1[l], y.i0[l]);
                h[2][l] = hash_cell(seed, x.i0[l], y.i1[l]);
                h[3][l] = hash_cell(seed, x.i1[l], y.i1[l]);
            }
        }
    }
    h
}

/// Each lane's cells along u and v, and their corners' hashes.
#[inline(always)]
fn lattice_cells(
    u: &[f32; LANES],
    v: &[f32; LANES],
    scale: f32,
    lattice: &Lattice,
) -> (Cells, Cells, [[u32; LANES]; 4]) {
    let (x, y) = (
        cells(u, scale, lattice.period()),
        cells(v, scale, lattice.period()),
    );
    let h = corners(lattice, &x, &y);
    (x, y, h)
}

#[inline(always)]
fn bilerp(a: f32, b: f32, c: f32, e: f32, sx: f32, sy: f32) -> f32 {
    let top = a + (b - a) * sx;
    let bottom = c + (e - c) * sx;
    top + (bottom - top) * sy
}

#[inline(always)]
fn value_block(u: &[f32; LANES], v: &[f32; LANES], scale: f32, lattice: &Lattice) -> [f32; LANES] {
    let (x, y, h) = lattice_cells(u, v, scale, lattice);
    let mut out = [0.0f32; LANES];
    for l in 0..LANES {
        let [a, b, c, e] = [h[0][l], h[1][l], h[2][l], h[3][l]].map(unit_f32_32);
        out[l] = bilerp(a, b, c, e, fade(x.t[l]), fade(y.t[l]));
    }
    out
}

#[inline(always)]
fn gradient_block(
    u: &[f32; LANES],
    v: &[f32; LANES],
    scale: f32,
    lattice: &Lattice,
) -> [f32; LANES] {
    let (x, y, h) = lattice_cells(u, v, scale, lattice);
    let mut out = [0.0f32; LANES];
    for l in 0..LANES {
        let (fx, fy) = (x.t[l], y.t[l]);
        let dot = |h: u32, dx: f32, dy: f32| {
            let k = (h >> 29) as usize;
            GX[k] * dx + GY[k] * dy
        };
        out[l] = bilerp(
            dot(h[0][l], fx, fy),
            dot(h[1][l], fx - 1.0, fy),
            dot(h[2][l], fx, fy - 1.0),
            dot(h[3][l], fx - 1.0, fy - 1.0),
            fade(fx),
            fade(fy),
        );
    }
    out
}
