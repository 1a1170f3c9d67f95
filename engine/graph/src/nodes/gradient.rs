//! Gradient: a linear or radial ramp repeated `tiles × tiles` times over the repeat.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::{count_param, fast_floor};
use crate::value::PortType;

/// A ramp from 0 to 1 in each of `tiles × tiles` cells: across (along u or v), mirrored
/// (0 at the cell's edges, 1 in its middle), or radial (1 at the cell's centre, 0 at
/// `radius`).
pub struct Gradient;

const PARAMS: &[ParamDesc] = &[
    ParamDesc {
        name: "kind",
        doc: "linear: 0 to 1 across the cell; mirrored: 0 at the edges, 1 in the middle; \
              radial: 1 at the centre falling to 0 at the radius",
        kind: ParamKind::Choice {
            options: &["linear", "mirrored", "radial"],
            default: "linear",
        },
    },
    ParamDesc {
        name: "direction",
        doc: "The axis a linear or mirrored ramp runs along",
        kind: ParamKind::Choice {
            options: &["u", "v"],
            default: "u",
        },
    },
    count_param("tiles", "Cells per side of the repeat", 1.0),
    ParamDesc {
        name: "radius",
        doc: "Where a radial ramp reaches 0, in cells (0.5 touches the cell's sides)",
        kind: ParamKind::Float {
            min: 0.01,
            max: 1.0,
            default: 0.5,
        },
    },
];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Gradient",
    doc: "Linear, mirrored or radial ramp, repeated in tiles × tiles cells",
    category: Category::Generator,
    params: PARAMS,
};

impl NodeKind for Gradient {
    fn headline(&self) -> Option<&'static str> {
        Some("kind")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Float, "The ramp, 0 to 1")]
    }
    fn repeat_count(&self) -> Option<&'static str> {
        Some("tiles")
    }
    fn check(&self, p: &Params<'_>) -> Vec<String> {
        let r = p.float("radius");
        if r > 0.0 {
            Vec::new()
        } else {
            vec![format!("radius {r} must be above 0")]
        }
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let tiles = p.float("tiles");
        let kind = p.choice("kind");
        let along_v = p.choice("direction") == "v";
        let radius = p.float("radius").max(1e-3);
        let d = ctx.domain();
        let cell = |x: f32| {
            let t = x * tiles;
            t - fast_floor(t)
        };
        vec![par_field(PortType::Float, d.len(), |i| {
            let (cu, cv) = (cell(d.u[i]), cell(d.v[i]));
            let along = if along_v { cv } else { cu };
            let value = match kind {
                "mirrored" => 1.0 - (2.0 * along - 1.0).abs(),
                "radial" => {
                    let r = (cu - 0.5).hypot(cv - 0.5);
                    (1.0 - r / radius).clamp(0.0, 1.0)
                }
                _ => along,
            };
            [value, 0.0, 0.0]
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;

    fn gradient(kind: &str, tiles: f32) -> (crate::MaterialGraph, crate::NodeId) {
        single(
            "Gradient",
            &[
                ("kind", ParamValue::Choice(kind.into())),
                ("tiles", ParamValue::Float(tiles)),
            ],
            &[],
        )
    }

    #[test]
    fn each_kind_ramps_as_documented() {
        let (g, id) = gradient("linear", 1.0);
        let f = at(&g, id, "out", &[[0.25, 0.9], [0.75, 0.1]]);
        assert_eq!((f.get(0)[0], f.get(1)[0]), (0.25, 0.75));
        let (g, id) = gradient("mirrored", 2.0);
        // u = 0.125 is a quarter into the first of two cells: halfway up the mirror.
        assert!((at(&g, id, "out", &[[0.125, 0.5]]).get(0)[0] - 0.5).abs() < 1e-6);
        let (g, id) = gradient("radial", 2.0);
        let f = at(&g, id, "out", &[[0.25, 0.25], [0.0, 0.0], [0.25, 0.375]]);
        assert!((f.get(0)[0] - 1.0).abs() < 1e-6, "a cell's centre");
        assert_eq!(f.get(1)[0], 0.0, "a cell's corner");
        assert!((f.get(2)[0] - 0.5).abs() < 1e-5, "halfway to the radius");
    }

    #[test]
    fn whole_tiles_meet_at_the_edges_and_fractional_ones_are_refused() {
        for kind in ["mirrored", "radial"] {
            let (g, id) = gradient(kind, 3.0);
            assert!(edge_gap(&g, id, "out", 32) < 1e-4, "{kind}");
            assert_eq!(period(&g, id), Period::Tiles(3));
        }
        let (g, id) = gradient("radial", 2.5);
        assert!(edge_gap(&g, id, "out", 32) > 0.1);
        assert!(!period(&g, id).tiles());
    }
}
