//! Height to normal: a tangent-space normal from the slope of a height field.

use crate::eval::{FIELD_RESOLUTION, NodeCtx};
use crate::field::{Field, par_field, sample_raster};
use crate::node::{Access, Category, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc};
use crate::value::PortType;

/// Central differences of a height raster with wrapped neighbours, in the OpenGL
/// (+Y up) tangent-space convention.
pub struct HeightToNormal;

impl NodeKind for HeightToNormal {
    fn name(&self) -> &'static str {
        "HeightToNormal"
    }
    fn doc(&self) -> &'static str {
        "Tangent-space normal (OpenGL, +Y up) from a height in [0,1] and its range in metres"
    }
    fn category(&self) -> Category {
        Category::Filter
    }
    fn params(&self) -> &'static [ParamDesc] {
        &[ParamDesc {
            name: "range_m",
            doc: "How many metres a height of 1 stands for",
            kind: ParamKind::Float {
                min: 0.0,
                max: 0.2,
                default: 0.02,
            },
        }]
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::float("height", 0.5, "Height in [0,1]").with_access(Access::Raster)]
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new(
            "normal",
            PortType::Color,
            "Unit tangent-space normal, xyz in [-1,1]",
        )]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let range = p.float("range_m");
        let repeat = ctx.repeat_m();
        let normals = ctx.cached("normals", || {
            let h = ctx.raster(0);
            normals_from_height(&h.data, FIELD_RESOLUTION, range, repeat)
        });
        let d = ctx.domain();
        let size = (FIELD_RESOLUTION, FIELD_RESOLUTION);
        vec![sample_raster(
            PortType::Color,
            &normals.data,
            size,
            d,
            normalize,
        )]
    }
}

fn normalize(n: [f32; 3]) -> [f32; 3] {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-12);
    [n[0] / len, n[1] / len, n[2] / len]
}

/// Unit tangent-space normals of a `size × size` height raster (row-major, v growing
/// down the rows) whose unit height stands for `range_m` metres over a repeat of
/// `repeat_m` metres. Neighbours wrap, so the normals tile when the height does.
///
/// The tangent is +u; the bitangent points up the image (−v), the OpenGL convention.
#[must_use]
pub fn normals_from_height(height: &[f32], size: usize, range_m: f32, repeat_m: f32) -> Field {
    let texel_m = repeat_m / size as f32;
    let k = range_m / (2.0 * texel_m);
    let at = |x: usize, y: usize| height[y * size + x];
    par_field(PortType::Color, size * size, |i| {
        let (x, y) = (i % size, i / size);
        let (xl, xr) = ((x + size - 1) % size, (x + 1) % size);
        let (yu, yd) = ((y + size - 1) % size, (y + 1) % size);
        let dh_du = (at(xr, y) - at(xl, y)) * k;
        let dh_dv = (at(x, yd) - at(x, yu)) * k;
        // Slope along the bitangent (up the image) is −dh/dv.
        normalize([-dh_du, dh_dv, 1.0])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ramp_in_u_tilts_the_normal_against_the_slope() {
        let size = 16;
        // Height rising with x (except at the wrap) tilts normals toward −x.
        let h: Vec<f32> = (0..size * size)
            .map(|i| (i % size) as f32 / size as f32)
            .collect();
        let n = normals_from_height(&h, size, 0.1, 1.0);
        let mid = n.get(size * 8 + 8);
        assert!(
            mid[0] < -0.05 && mid[1].abs() < 1e-6 && mid[2] > 0.0,
            "{mid:?}"
        );
        // Height rising down the rows (with v) tilts normals toward +Y (up the image).
        let h: Vec<f32> = (0..size * size)
            .map(|i| (i / size) as f32 / size as f32)
            .collect();
        let mid = normals_from_height(&h, size, 0.1, 1.0).get(size * 8 + 8);
        assert!(mid[1] > 0.05 && mid[0].abs() < 1e-6, "{mid:?}");
    }

    #[test]
    fn flat_height_gives_straight_up() {
        let n = normals_from_height(&[0.3; 64], 8, 0.1, 1.0);
        assert!(n.data.chunks(3).all(|c| c == [0.0, 0.0, 1.0]));
    }
}
