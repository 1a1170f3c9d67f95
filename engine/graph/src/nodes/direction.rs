//! Direction from angle: a unit vector turned by an angle in turns.

use crate::field::{Field, par_field};
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::period::Period;
use crate::value::PortType;
use std::f32::consts::TAU;

/// `(cos, sin)` of an angle in turns, times a length: feeds a lean or a warp.
pub struct Direction;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Direction",
    doc: "A Vec2 pointing at an angle given in turns, scaled by a length",
    category: Category::Convert,
    params: &[],
};

impl NodeKind for Direction {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        vec![
            PortDesc::float("angle", 0.0, "Angle in turns (0.25 = a quarter turn)"),
            PortDesc::float("length", 1.0, "Length of the vector"),
        ]
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Vec2, "The direction")]
    }
    fn period(&self, _: &Params<'_>, _: NodeId, inputs: &[Period]) -> Vec<Period> {
        // The angle is read through a sine and cosine of period one turn.
        let angle = match &inputs[0] {
            Period::Ramp(_) => Period::Tiles(1),
            p => p.clone(),
        };
        vec![angle.combine(inputs[1].clone()).settle()]
    }
    fn eval(&self, _: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let (angle, length) = (ctx.input(0), ctx.input(1));
        vec![par_field(PortType::Vec2, ctx.len(), |i| {
            let (s, c) = (TAU * angle.at(0, i)).sin_cos();
            let l = length.at(0, i);
            [c * l, s * l, 0.0]
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::nodes::testing::*;
    use crate::value::Value;

    #[test]
    fn a_quarter_turn_points_along_v() {
        let (g, id) = single(
            "Direction",
            &[],
            &[("angle", Value::Float(0.25)), ("length", Value::Float(2.0))],
        );
        let d = at(&g, id, "out", &[[0.3, 0.3]]).get(0);
        assert!(d[0].abs() < 1e-6 && (d[1] - 2.0).abs() < 1e-6, "{d:?}");
    }
}
