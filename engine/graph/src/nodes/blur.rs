//! Blur: a Gaussian blur of its input, rasterised at the fixed field resolution.

use crate::field::FIELD_RESOLUTION;
use crate::field::{Field, sample_raster};
use crate::node::NodeCtx;
use crate::node::{
    Access, Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::{TYPE_PARAM, chosen_type};
use rayon::prelude::*;

/// A wrapped Gaussian blur. Its input is rasterised at [`FIELD_RESOLUTION`]² whatever is
/// being evaluated, so a blurred mask means the same to a 4k bake and to strand roots.
pub struct Blur;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Blur",
    doc: "Gaussian blur with wrapped edges, computed on a 512² raster",
    category: Category::Filter,
    params: &[
        TYPE_PARAM,
        ParamDesc {
            name: "radius",
            doc: "Standard deviation of the Gaussian, in UV units",
            kind: ParamKind::Float {
                min: 0.0,
                max: 0.1,
                default: 0.01,
            },
        },
    ],
};

impl NodeKind for Blur {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::typed("in", chosen_type(p), "The field to blur").with_access(Access::Raster)]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The blurred field")]
    }
    fn check(&self, p: &Params<'_>) -> Vec<String> {
        let r = p.float("radius");
        if (0.0..=0.25).contains(&r) {
            Vec::new()
        } else {
            vec![format!("radius {r} outside [0, 0.25]")]
        }
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let sigma = p.float("radius").clamp(0.0, 0.25) * FIELD_RESOLUTION as f32;
        let blurred = ctx.cached("blurred", || {
            let raster = ctx.raster(0);
            blur_wrapped(&raster, FIELD_RESOLUTION, sigma)
        });
        let d = ctx.domain();
        let size = (FIELD_RESOLUTION, FIELD_RESOLUTION);
        vec![sample_raster(blurred.ty, &blurred.data, size, d, |x| x)]
    }
}

/// A separable Gaussian blur of a `size × size` field with wrapped edges.
#[must_use]
pub fn blur_wrapped(src: &Field, size: usize, sigma: f32) -> Field {
    if sigma < 0.05 {
        return src.clone();
    }
    let radius = ((3.0 * sigma).ceil() as usize).min(size / 2);
    let weights: Vec<f32> = (0..=radius)
        .map(|k| (-((k * k) as f32) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f32 = weights[0] + 2.0 * weights[1..].iter().sum::<f32>();
    let weights: Vec<f32> = weights.iter().map(|w| w / total).collect();
    let c = src.ty.channels();
    let row_len = size * c;
    // Horizontal: each row padded with its own wrapped ends, then convolved without any
    // index arithmetic in the inner loop.
    let mut horizontal = vec![0.0f32; src.data.len()];
    horizontal
        .par_chunks_mut(row_len)
        .zip(src.data.par_chunks(row_len))
        .for_each(|(out, row)| {
            let mut padded = Vec::with_capacity(row_len + 2 * radius * c);
            padded.extend_from_slice(&row[row_len - radius * c..]);
            padded.extend_from_slice(row);
            padded.extend_from_slice(&row[..radius * c]);
            for x in 0..size {
                let centre = (x + radius) * c;
                for ch in 0..c {
                    let mut acc = weights[0] * padded[centre + ch];
                    for (k, &w) in weights.iter().enumerate().skip(1) {
                        acc += w * (padded[centre + k * c + ch] + padded[centre - k * c + ch]);
                    }
                    out[x * c + ch] = acc;
                }
            }
        });
    // Vertical: each output row is a weighted sum of whole input rows (vectorises).
    let mut data = vec![0.0f32; src.data.len()];
    data.par_chunks_mut(row_len)
        .enumerate()
        .for_each(|(y, out)| {
            // The row's zeros written before the sums read them (ARCHITECTURE.md,
            // Conventions: zeroed memory read first costs a TLB flush on every core).
            out.fill(0.0);
            for (k, &w) in weights.iter().enumerate() {
                let rows: &[usize] = if k == 0 {
                    &[y]
                } else {
                    &[(y + k) % size, (y + size - k) % size]
                };
                for &r in rows {
                    let src_row = &horizontal[r * row_len..(r + 1) * row_len];
                    for (o, &x) in out.iter_mut().zip(src_row) {
                        *o += w * x;
                    }
                }
            }
        });
    Field { ty: src.ty, data }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::PortType;

    #[test]
    fn blur_keeps_the_mean_and_wraps() {
        let size = 32;
        let mut data = vec![0.0; size * size];
        data[0] = 1.0; // a spike in the corner spreads to all four corners
        let src = Field {
            ty: PortType::Float,
            data,
        };
        let out = blur_wrapped(&src, size, 2.0);
        let sum: f32 = out.data.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        let corner = |x: usize, y: usize| out.data[y * size + x];
        assert!((corner(1, 0) - corner(size - 1, 0)).abs() < 1e-6);
        assert!((corner(0, 1) - corner(0, size - 1)).abs() < 1e-6);
    }
}
