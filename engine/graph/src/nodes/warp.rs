//! Warp: reads its input at displaced points.

use crate::field::{Domain, Field};
use crate::node::NodeCtx;
use crate::node::{Access, Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::nodes::{TYPE_PARAM, chosen_type};
use crate::value::PortType;

/// `in(uv + amount · offset)`. The input is evaluated exactly at the displaced points (no
/// raster), so a warp is as sharp as what it warps. Displaced points are not wrapped back
/// into the tile: a tiling input wraps by itself, and a non-tiling one keeps its seam at
/// the edges, where the seam check sees it, instead of hiding it inside the tile.
pub struct Warp;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Warp",
    doc: "Reads its input at points displaced by amount × offset (UV units)",
    category: Category::Filter,
    params: &[TYPE_PARAM],
};

impl NodeKind for Warp {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        vec![
            PortDesc::typed("in", chosen_type(p), "The field to warp").with_access(Access::Sampled),
            PortDesc::typed(
                "offset",
                PortType::Vec2,
                "Displacement direction, in UV units",
            ),
            PortDesc::float("amount", 0.05, "Scales the offset").with_range(0.0, 0.5),
        ]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The warped field")]
    }
    fn eval(&self, _: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let (offset, amount) = (ctx.input(1), ctx.input(2));
        let d = ctx.domain();
        let mut u = Vec::with_capacity(d.len());
        let mut v = Vec::with_capacity(d.len());
        for i in 0..d.len() {
            let a = amount.at(0, i);
            u.push(d.u[i] + a * offset.at(0, i));
            v.push(d.v[i] + a * offset.at(1, i));
        }
        let displaced = Domain { u, v, grid: None };
        vec![ctx.sample(0, &displaced)]
    }
}

#[cfg(test)]
mod tests {
    use crate::link::{InRef, OutRef};
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;
    use crate::value::Value;

    #[test]
    fn a_constant_offset_shifts_the_input_and_keeps_the_seam() {
        let (mut g, noise) = single("Noise", &[("scale", ParamValue::Float(4.0))], &[]);
        let warp = g.add_node("Warp").unwrap();
        g.connect(
            OutRef::new(noise, "out"),
            &InRef::Node {
                node: warp,
                port: "in".into(),
            },
        )
        .unwrap();
        let w = g.node_mut(warp).unwrap();
        w.inputs.insert(
            "offset".into(),
            crate::link::Input::Const(Value::Vec2([0.25, 0.0])),
        );
        w.inputs.insert(
            "amount".into(),
            crate::link::Input::Const(Value::Float(1.0)),
        );
        let shifted = at(&g, warp, "out", &[[0.1, 0.3], [0.9, 0.6]]);
        let direct = at(&g, noise, "out", &[[0.35, 0.3], [0.15, 0.6]]);
        for i in 0..2 {
            assert!((shifted.at(0, i) - direct.at(0, i)).abs() < 1e-6);
        }
        assert!(edge_gap(&g, warp, "out", 32) < 1e-5);
        assert_eq!(period(&g, warp), Period::Tiles(4));
    }
}
