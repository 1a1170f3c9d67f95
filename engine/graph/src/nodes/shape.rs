//! Shape: a disc, a box or a regular polygon in every cell of a k × k lattice over the
//! repeat, each cell's shape moved, turned and sized by its own hash — the building block
//! of splatter masks (tufts, pebbles, bald patches).

use crate::field::Field;
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::{SEED_PARAM, count_param, fast_floor, unit_param};
use crate::value::PortType;
use std::f32::consts::TAU;
use tuft_strands::hash::{hash, unit_f32};
use tuft_strands::num::wrap_index;

/// A tiled shape. Cells are hashed by their index wrapped modulo the count, and every
/// point looks at its own cell and the eight around it, so a shape pushed over a cell's
/// edge by its jitter is whole, and a whole count tiles.
pub struct Shape;

const PARAMS: &[ParamDesc] = &[
    ParamDesc {
        name: "shape",
        doc: "disc, box, or a regular polygon of `sides` sides",
        kind: ParamKind::Choice {
            options: &["disc", "box", "polygon"],
            default: "disc",
        },
    },
    count_param(
        "count",
        "Cells per side of the repeat; a whole number tiles",
        4.0,
    ),
    ParamDesc {
        name: "sides",
        doc: "polygon: how many sides",
        kind: ParamKind::Int {
            min: 3,
            max: 12,
            default: 6,
        },
    },
    unit_param("size", "The shape's width as a share of its cell", 0.6),
    unit_param(
        "softness",
        "How far in from the edge the shape fades, as a share of its size",
        0.1,
    ),
    unit_param(
        "jitter",
        "How far each shape moves from its cell's centre, as a share of the cell",
        0.5,
    ),
    unit_param(
        "size_jitter",
        "How much smaller a shape may be, by its own hash",
        0.3,
    ),
    unit_param("rotation", "The shapes' turn (turns)", 0.0),
    unit_param(
        "rotation_jitter",
        "How far each shape turns further by its own hash (turns)",
        0.0,
    ),
    SEED_PARAM,
];

/// One cell's shape: where it stands (lattice units), its radius, turn and random value.
struct Placed {
    centre: [f32; 2],
    radius: f32,
    /// The sine and cosine of its turn, negated: what rotates a point into its frame.
    turn: [f32; 2],
    random: f32,
}

/// The mask at reach `e` (1 on the shape's edge): 1 inside its soft rim, 0 from the
/// edge out, a smoothstep across the rim (`soft` of the shape's size).
fn fade(e: f32, soft: f32) -> f32 {
    if e <= 1.0 - soft {
        1.0
    } else if e >= 1.0 {
        0.0
    } else {
        let t = (1.0 - e) / soft.max(1e-6);
        t * t * (3.0 - 2.0 * t)
    }
}

/// What a cell's hashes give its shape, wherever the cell is repeated.
#[derive(Clone, Copy)]
struct Numbers {
    offset: [f32; 2],
    radius: f32,
    turn: [f32; 2],
    random: f32,
}

/// The most cells a side for which the cells' numbers are tabled (the count's limit is
/// below it; a larger count, refused by validation, is still worked out cell by cell).
const MAX_TABLE_SIDE: usize = 256;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Shape",
    doc: "Discs, boxes or polygons tiled k × k with per-cell jitter: a mask and each shape's random value",
    category: Category::Generator,
    params: PARAMS,
};

impl NodeKind for Shape {
    fn headline(&self) -> Option<&'static str> {
        Some("shape")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![
            OutputDesc::new("mask", PortType::Float, "1 inside a shape, 0 outside"),
            OutputDesc::new(
                "random",
                PortType::Float,
                "The random value in [0,1) of the shape a point is in (0 outside)",
            ),
        ]
    }
    fn repeat_count(&self) -> Option<&'static str> {
        Some("count")
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let count = p.float("count");
        let period = (count.ceil() as i64).max(1);
        let seed = p.int("seed") as u64;
        let sides = p.int("sides").clamp(3, 12) as f32;
        let kind = p.choice("shape");
        let (size, soft) = (p.float("size"), p.float("softness").clamp(0.0, 1.0));
        let (jitter, size_jitter) = (p.float("jitter"), p.float("size_jitter"));
        let (rotation, rotation_jitter) = (p.float("rotation"), p.float("rotation_jitter"));
        // Each cell's numbers hang on its wrapped index alone: worked out once per cell
        // (a table, for any count a graph may ask for) rather than once per point and
        // neighbour, with the same arithmetic in the same order.
        let numbers = |id: u64| -> Numbers {
            let h = |c: u32| unit_f32(hash(seed, id, c));
            let turn = rotation + rotation_jitter * h(3);
            let (sn, cs) = (-TAU * turn).sin_cos();
            Numbers {
                offset: [jitter * (h(0) - 0.5), jitter * (h(1) - 0.5)],
                radius: 0.5 * size * (1.0 - size_jitter * h(2)),
                turn: [sn, cs],
                random: h(4),
            }
        };
        let n = period as usize;
        let table: Vec<Numbers> = if n <= MAX_TABLE_SIDE {
            (0..(n * n) as u64).map(numbers).collect()
        } else {
            Vec::new()
        };
        let cell = |cx: i64, cy: i64| -> Placed {
            let id = wrap_index(cy, n) * n + wrap_index(cx, n);
            let k = table.get(id).copied().unwrap_or_else(|| numbers(id as u64));
            Placed {
                centre: [cx as f32 + 0.5 + k.offset[0], cy as f32 + 0.5 + k.offset[1]],
                radius: k.radius,
                turn: k.turn,
                random: k.random,
            }
        };
        let half_seg = TAU / sides / 2.0;
        let apothem = half_seg.cos();
        // A point farther from a shape's centre than this share of its radius is outside
        // it (a polygon's radius is its circumradius, a box's the half of its side), so
        // its mask there is 0 and it is skipped; the margin covers the rounding of the
        // exact test.
        let bound = match kind {
            "box" => std::f32::consts::SQRT_2 * 1.001,
            _ => 1.001,
        };
        // How far out a point is, 1 on the shape's edge.
        let reach = |s: &Placed, dx: f32, dy: f32| -> f32 {
            let [sn, cs] = s.turn;
            let (x, y) = (dx * cs - dy * sn, dx * sn + dy * cs);
            let r = s.radius.max(1e-6);
            match kind {
                "box" => x.abs().max(y.abs()) / r,
                "polygon" => {
                    let seg = TAU / sides;
                    let a = y.atan2(x).rem_euclid(seg) - seg / 2.0;
                    (x * x + y * y).sqrt() * a.cos() / (r * apothem)
                }
                _ => (x * x + y * y).sqrt() / r,
            }
        };
        let d = ctx.domain();
        let packed = crate::field::par_map::<2>(d.len(), |i| {
            let (x, y) = (d.u[i] * count, d.v[i] * count);
            let (ix, iy) = (fast_floor(x) as i64, fast_floor(y) as i64);
            let mut best = [0.0f32, 0.0];
            for cy in iy - 1..=iy + 1 {
                for cx in ix - 1..=ix + 1 {
                    let s = cell(cx, cy);
                    let (dx, dy) = (x - s.centre[0], y - s.centre[1]);
                    let out = bound * s.radius.max(1e-6);
                    if dx * dx + dy * dy > out * out {
                        continue;
                    }
                    let m = fade(reach(&s, dx, dy), soft);
                    if m > best[0] {
                        best = [m, s.random];
                    }
                }
            }
            best
        });
        let channel = |k: usize| Field {
            ty: PortType::Float,
            data: packed.iter().skip(k).step_by(2).copied().collect(),
        };
        let mask = channel(0);
        let random = if ctx.wants(1) {
            channel(1)
        } else {
            Field::constant(PortType::Float.zero(), 0)
        };
        vec![mask, random]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;

    fn still(shape: &str) -> Vec<(&'static str, ParamValue)> {
        vec![
            ("shape", ParamValue::Choice(shape.into())),
            ("jitter", ParamValue::Float(0.0)),
            ("size_jitter", ParamValue::Float(0.0)),
            ("softness", ParamValue::Float(0.0)),
            ("size", ParamValue::Float(0.5)),
        ]
    }

    #[test]
    fn a_disc_covers_its_area_and_a_box_its_square() {
        let n = 256;
        let pts: Vec<[f32; 2]> = (0..n * n)
            .map(|i| {
                [
                    ((i % n) as f32 + 0.5) / n as f32,
                    ((i / n) as f32 + 0.5) / n as f32,
                ]
            })
            .collect();
        for (shape, area) in [("disc", std::f32::consts::PI * 0.25 * 0.25), ("box", 0.25)] {
            let (g, id) = single("Shape", &still(shape), &[]);
            let mask = at(&g, id, "mask", &pts);
            let covered = mask.data.iter().sum::<f32>() / mask.data.len() as f32;
            assert!(
                (covered - area).abs() < 0.01,
                "{shape}: {covered} vs {area}"
            );
            // Centre of a cell in, its corner out.
            let cell = 1.0 / 4.0;
            assert_eq!(
                at(&g, id, "mask", &[[cell / 2.0, cell / 2.0]]).get(0)[0],
                1.0
            );
            assert_eq!(at(&g, id, "mask", &[[0.001, 0.001]]).get(0)[0], 0.0);
        }
        // A hexagon lies between its inscribed and circumscribed discs.
        let (g, id) = single("Shape", &still("polygon"), &[]);
        let mask = at(&g, id, "mask", &pts);
        let covered = mask.data.iter().sum::<f32>() / mask.data.len() as f32;
        // Circumradius a quarter of a cell: (3√3 / 2) r² of every cell.
        let r = 0.25f32;
        let hexagon = 1.5 * 3f32.sqrt() * r * r;
        assert!((covered - hexagon).abs() < 0.01, "{covered} vs {hexagon}");
    }

    /// The node's values worked out plainly: every neighbour cell hashed and measured at
    /// every point, nothing skipped.
    fn plain(params: &[(&str, ParamValue)], at: [f32; 2]) -> [f32; 2] {
        let (g, id) = single("Shape", params, &[]);
        let p = g.node(id).unwrap();
        let p = p.params();
        let count = p.float("count");
        let period = (count.ceil() as i64).max(1);
        let seed = p.int("seed") as u64;
        let sides = p.int("sides").clamp(3, 12) as f32;
        let soft = p.float("softness").clamp(0.0, 1.0);
        let (x, y) = (at[0] * count, at[1] * count);
        let (ix, iy) = (fast_floor(x) as i64, fast_floor(y) as i64);
        let mut best = [0.0f32, 0.0];
        for cy in iy - 1..=iy + 1 {
            for cx in ix - 1..=ix + 1 {
                let id = (wrap_index(cy, period as usize) * period as usize
                    + wrap_index(cx, period as usize)) as u64;
                let h = |c: u32| unit_f32(hash(seed, id, c));
                let centre = [
                    cx as f32 + 0.5 + p.float("jitter") * (h(0) - 0.5),
                    cy as f32 + 0.5 + p.float("jitter") * (h(1) - 0.5),
                ];
                let radius = 0.5 * p.float("size") * (1.0 - p.float("size_jitter") * h(2));
                let turn = p.float("rotation") + p.float("rotation_jitter") * h(3);
                let (sn, cs) = (-TAU * turn).sin_cos();
                let (dx, dy) = (x - centre[0], y - centre[1]);
                let (x, y) = (dx * cs - dy * sn, dx * sn + dy * cs);
                let r = radius.max(1e-6);
                let e = match p.choice("shape") {
                    "box" => x.abs().max(y.abs()) / r,
                    "polygon" => {
                        let seg = TAU / sides;
                        let a = y.atan2(x).rem_euclid(seg) - seg / 2.0;
                        (x * x + y * y).sqrt() * a.cos() / (r * (seg / 2.0).cos())
                    }
                    _ => (x * x + y * y).sqrt() / r,
                };
                let m = fade(e, soft);
                if m > best[0] {
                    best = [m, h(4)];
                }
            }
        }
        best
    }

    #[test]
    fn the_tabled_and_skipping_evaluation_gives_the_plain_one_bit_for_bit() {
        let points: Vec<[f32; 2]> = (0..4000)
            .map(|i| [unit_f32(hash(3, i, 0)), unit_f32(hash(3, i, 1))])
            .collect();
        for shape in ["disc", "box", "polygon"] {
            for (size, soft, jitter) in [(0.6, 0.1, 0.5), (1.0, 0.0, 1.0), (0.3, 1.0, 0.0)] {
                let params = [
                    ("shape", ParamValue::Choice(shape.into())),
                    ("count", ParamValue::Float(7.0)),
                    ("sides", ParamValue::Int(5)),
                    ("size", ParamValue::Float(size)),
                    ("softness", ParamValue::Float(soft)),
                    ("jitter", ParamValue::Float(jitter)),
                    ("size_jitter", ParamValue::Float(0.4)),
                    ("rotation", ParamValue::Float(0.1)),
                    ("rotation_jitter", ParamValue::Float(0.7)),
                    ("seed", ParamValue::Int(9)),
                ];
                let (g, id) = single("Shape", &params, &[]);
                let (mask, random) = (at(&g, id, "mask", &points), at(&g, id, "random", &points));
                let mut inside = 0;
                for (k, pt) in points.iter().enumerate() {
                    let want = plain(&params, *pt);
                    let got = [mask.get(k)[0], random.get(k)[0]];
                    assert_eq!(
                        got.map(f32::to_bits),
                        want.map(f32::to_bits),
                        "{shape} at {pt:?}"
                    );
                    inside += usize::from(want[0] > 0.0);
                }
                assert!(inside > 100 && inside < 4000, "{shape}: {inside} inside");
            }
        }
    }

    #[test]
    fn jittered_shapes_tile_whole_counts_and_every_shape_has_its_own_random() {
        let (g, id) = single(
            "Shape",
            &[
                ("count", ParamValue::Float(5.0)),
                ("jitter", ParamValue::Float(1.0)),
                ("rotation_jitter", ParamValue::Float(1.0)),
                ("shape", ParamValue::Choice("polygon".into())),
            ],
            &[],
        );
        assert_eq!(period(&g, id), Period::Tiles(5));
        assert!(edge_gap(&g, id, "mask", 64) < 1e-4);
        assert!(edge_gap(&g, id, "random", 64) < 1e-4);
        let points: Vec<[f32; 2]> = (0..50 * 50)
            .map(|i| {
                [
                    ((i % 50) as f32 + 0.5) / 50.0,
                    ((i / 50) as f32 + 0.5) / 50.0,
                ]
            })
            .collect();
        let random = at(&g, id, "random", &points);
        let mut seen: Vec<u32> = random
            .data
            .iter()
            .filter(|&&r| r > 0.0)
            .map(|r| r.to_bits())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert!(seen.len() >= 15, "{} shapes of 25 seen", seen.len());
        let (g, id) = single("Shape", &[("count", ParamValue::Float(4.5))], &[]);
        assert!(!period(&g, id).tiles());
    }
}
