//! Voronoi: cells around jittered feature points on a lattice that wraps with the repeat.

use crate::field::{Field, par_map};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::fast_floor;
use crate::nodes::lattice::Lattice;
use crate::nodes::{SEED_PARAM, count_param};
use crate::value::PortType;
use tuft_strands::hash::{mix32, unit_f32_32};

/// Voronoi cells. Feature points sit one per lattice cell; the lattice indices wrap
/// modulo the scale, and the nearest point is sought among the 3×3 wrapped neighbours,
/// so a whole-number scale tiles.
pub struct Voronoi;

const PARAMS: &[ParamDesc] = &[
    count_param("scale", "Cells per repeat; a whole number tiles", 8.0),
    ParamDesc {
        name: "jitter",
        doc: "How far feature points stray from their cell centres, 0 to 1",
        kind: ParamKind::Float {
            min: 0.0,
            max: 1.0,
            default: 1.0,
        },
    },
    SEED_PARAM,
];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Voronoi",
    doc: "Tiling Voronoi cells: distance, cell random, offset to the feature point, edge distance",
    category: Category::Generator,
    params: PARAMS,
};

impl NodeKind for Voronoi {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![
            OutputDesc::new(
                "distance",
                PortType::Float,
                "Distance to the nearest feature point, in cell widths",
            ),
            OutputDesc::new(
                "cell_random",
                PortType::Float,
                "A random value in [0,1) per cell",
            ),
            OutputDesc::new(
                "offset",
                PortType::Vec2,
                "From the point to its cell's feature point, in UV units",
            ),
            OutputDesc::new(
                "edge",
                PortType::Float,
                "Distance to the nearest cell border, in cell widths",
            ),
        ]
    }
    fn repeat_count(&self) -> Option<&'static str> {
        Some("scale")
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let scale = p.float("scale");
        let jitter = p.float("jitter").clamp(0.0, 1.0);
        let seed = p.int("seed") as u32;
        let d = ctx.domain();
        // distance, random, offset.x, offset.y, edge
        let lattice = Lattice::new(seed, (scale.ceil() as i64).max(1));
        let packed = par_map::<5>(d.len(), |i| cells(d.u[i], d.v[i], scale, jitter, &lattice));
        let n = d.len();
        let pick = |ty: PortType, range: std::ops::Range<usize>| Field {
            ty,
            data: (0..n)
                .flat_map(|i| range.clone().map(move |k| (i, k)))
                .map(|(i, k)| packed[i * 5 + k])
                .collect(),
        };
        vec![
            pick(PortType::Float, 0..1),
            pick(PortType::Float, 1..2),
            pick(PortType::Vec2, 2..4),
            pick(PortType::Float, 4..5),
        ]
    }
}

/// Wrapped lattice indices `i - 2 ..= i + 2` for a lattice of `period` cells.
#[inline]
fn neighbours(i: i64, period: i64) -> [u32; 5] {
    let base = i.rem_euclid(period);
    let mut out = [0u32; 5];
    for (k, o) in out.iter_mut().enumerate() {
        let mut w = base + k as i64 - 2;
        while w < 0 {
            w += period;
        }
        while w >= period {
            w -= period;
        }
        *o = w as u32;
    }
    out
}

/// Distance, cell random, offset (UV) and edge distance at `(u, v)`.
///
/// The 5×5 neighbourhood's feature points are hashed once; the nearest point is sought
/// among the inner 3×3 (enough for jitter ≤ 1), and the border distance among the 3×3
/// around the nearest point's cell.
fn cells(u: f32, v: f32, scale: f32, jitter: f32, lattice: &Lattice) -> [f32; 5] {
    let period = lattice.period();
    let (x, y) = (u * scale, v * scale);
    let (xf, yf) = (fast_floor(x), fast_floor(y));
    let (fx, fy) = (x - xf, y - yf);
    let (ix, iy) = (xf as i64, yf as i64);
    let wx = neighbours(ix, period);
    let wy = neighbours(iy, period);
    // Feature points relative to the evaluated point, in cell units, and their hashes.
    let mut rel = [[0.0f32; 2]; 25];
    let mut hashes = [0u32; 25];
    for (j, &cy) in wy.iter().enumerate() {
        for (i, &cx) in wx.iter().enumerate() {
            let h = lattice.at(cx, cy);
            // Sixteen bits of the hash for each axis: 1/65536 of a cell is plenty.
            let jx = (h & 0xffff) as f32 * (1.0 / 65536.0) - 0.5;
            let jy = (h >> 16) as f32 * (1.0 / 65536.0) - 0.5;
            let k = j * 5 + i;
            rel[k] = [
                i as f32 - 2.0 + 0.5 + jitter * jx - fx,
                j as f32 - 2.0 + 0.5 + jitter * jy - fy,
            ];
            hashes[k] = h;
        }
    }
    let mut best = f32::INFINITY;
    let mut best_k = 12;
    for j in 1..4 {
        for i in 1..4 {
            let k = j * 5 + i;
            let r = rel[k];
            let d2 = r[0] * r[0] + r[1] * r[1];
            if d2 < best {
                best = d2;
                best_k = k;
            }
        }
    }
    let best_r = rel[best_k];
    // Distance to the border: the smallest distance to the bisector between the nearest
    // feature point and its neighbours (the 3×3 around its cell, inside the 5×5).
    let mut edge = f32::INFINITY;
    let (bi, bj) = (best_k % 5, best_k / 5);
    for j in bj - 1..=bj + 1 {
        for i in bi - 1..=bi + 1 {
            let k = j * 5 + i;
            if k == best_k {
                continue;
            }
            let r = rel[k];
            let diff = [r[0] - best_r[0], r[1] - best_r[1]];
            let len2 = diff[0] * diff[0] + diff[1] * diff[1];
            if len2 > 1e-10 {
                let mid = [0.5 * (r[0] + best_r[0]), 0.5 * (r[1] + best_r[1])];
                let dist = (mid[0] * diff[0] + mid[1] * diff[1]) / len2.sqrt();
                edge = edge.min(dist);
            }
        }
    }
    [
        best.sqrt(),
        unit_f32_32(mix32(hashes[best_k] ^ 0x5bd1_e995)),
        best_r[0] / scale,
        best_r[1] / scale,
        edge.max(0.0),
    ]
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;

    #[test]
    fn every_output_tiles_at_a_whole_number_scale() {
        let (g, id) = single("Voronoi", &[("scale", ParamValue::Float(6.0))], &[]);
        for port in ["distance", "cell_random", "offset", "edge"] {
            assert!(edge_gap(&g, id, port, 64) < 1e-4, "{port}");
        }
        assert_eq!(period(&g, id), Period::Tiles(6));
    }

    #[test]
    fn a_fractional_scale_breaks_the_seam() {
        let (g, id) = single("Voronoi", &[("scale", ParamValue::Float(5.5))], &[]);
        assert!(edge_gap(&g, id, "distance", 64) > 0.01);
        assert!(!period(&g, id).tiles());
    }

    #[test]
    fn the_offset_points_at_a_feature_whose_distance_is_reported() {
        let (g, id) = single("Voronoi", &[("scale", ParamValue::Float(4.0))], &[]);
        let dist = grid(&g, id, "distance", 16);
        let off = grid(&g, id, "offset", 16);
        for i in 0..dist.len() {
            let o = off.get(i);
            let len_cells = (o[0] * o[0] + o[1] * o[1]).sqrt() * 4.0;
            assert!((len_cells - dist.at(0, i)).abs() < 1e-4);
        }
        let (lo, hi) = grid(&g, id, "edge", 32).range();
        assert!(lo >= 0.0 && hi < 1.0 && hi > 0.1, "{lo}..{hi}");
    }
}
