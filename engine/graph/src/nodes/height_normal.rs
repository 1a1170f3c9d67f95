//! Height to normal: a tangent-space normal from the slope of a height field.

use crate::field::FIELD_RESOLUTION;
use crate::field::{Field, sample_raster};
use crate::node::NodeCtx;
use crate::node::{
    Access, Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::value::PortType;
use rayon::prelude::*;

/// Central differences of a height raster with wrapped neighbours, in the OpenGL
/// (+Y up) tangent-space convention.
pub struct HeightToNormal;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "HeightToNormal",
    doc: "Tangent-space normal (OpenGL, +Y up) from a height in [0,1] and its range in metres",
    category: Category::Filter,
    params: &[ParamDesc {
        name: "range_m",
        doc: "How many metres a height of 1 stands for",
        kind: ParamKind::Float {
            min: 0.0,
            max: 0.2,
            default: 0.02,
        },
    }],
};

impl NodeKind for HeightToNormal {
    fn info(&self) -> &'static KindInfo {
        &INFO
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
    let mut data = vec![0.0f32; size * size * 3];
    // A row a work item: its neighbour rows and wrapped columns found once, where a
    // point at a time took four integer divisions.
    data.par_chunks_mut(size * 3)
        .enumerate()
        .for_each(|(y, out)| {
            let row = |y: usize| &height[y * size..(y + 1) * size];
            let (up, here, down) = (row((y + size - 1) % size), row(y), row((y + 1) % size));
            for (x, texel) in out.as_chunks_mut::<3>().0.iter_mut().enumerate() {
                let (xl, xr) = (
                    if x == 0 { size - 1 } else { x - 1 },
                    if x + 1 == size { 0 } else { x + 1 },
                );
                let dh_du = (here[xr] - here[xl]) * k;
                let dh_dv = (down[x] - up[x]) * k;
                // Slope along the bitangent (up the image) is −dh/dv.
                *texel = normalize([-dh_du, dh_dv, 1.0]);
            }
        });
    Field {
        ty: PortType::Color,
        data,
    }
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
    fn every_texel_takes_its_wrapped_neighbours() {
        // Central differences written out point by point, at every texel, edges
        // included, of an uneven height.
        let size = 7;
        let h: Vec<f32> = (0..size * size)
            .map(|i| ((i * 37 + 11) % 23) as f32 / 23.0)
            .collect();
        let (range_m, repeat_m) = (0.05, 2.0);
        let n = normals_from_height(&h, size, range_m, repeat_m);
        let k = range_m / (2.0 * (repeat_m / size as f32));
        let at = |x: usize, y: usize| h[(y % size) * size + (x % size)];
        for y in 0..size {
            for x in 0..size {
                let dh_du = (at(x + 1, y) - at(x + size - 1, y)) * k;
                let dh_dv = (at(x, y + 1) - at(x, y + size - 1)) * k;
                let want = normalize([-dh_du, dh_dv, 1.0]);
                assert_eq!(n.get(y * size + x), want, "({x}, {y})");
            }
        }
    }

    #[test]
    fn flat_height_gives_straight_up() {
        let n = normals_from_height(&[0.3; 64], 8, 0.1, 1.0);
        assert!(n.data.chunks(3).all(|c| c == [0.0, 0.0, 1.0]));
    }
}
