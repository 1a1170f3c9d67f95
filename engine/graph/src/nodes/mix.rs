//! Mix: linear blend of two values.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::nodes::{TYPE_PARAM, chosen_type};
use crate::value::{PortType, Value};

/// `a + (b − a)·t`, with `t` clamped to `[0, 1]`.
pub struct Mix;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Mix",
    doc: "Blends a into b by t (clamped to [0,1])",
    category: Category::Math,
    params: &[TYPE_PARAM],
};

impl NodeKind for Mix {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        let ty = chosen_type(p);
        let one = match ty {
            PortType::Float => Value::Float(1.0),
            PortType::Vec2 => Value::Vec2([1.0; 2]),
            PortType::Color => Value::Color([1.0; 3]),
        };
        vec![
            PortDesc::typed("a", ty, "Where t = 0"),
            PortDesc::typed("b", ty, "Where t = 1").with_default(one),
            PortDesc::float("t", 0.5, "Blend factor"),
        ]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The blend")]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let (a, b, t) = (ctx.input(0), ctx.input(1), ctx.input(2));
        vec![par_field(chosen_type(p), ctx.len(), |i| {
            let (x, y) = (a.get(i), b.get(i));
            let t = t.at(0, i).clamp(0.0, 1.0);
            [
                x[0] + (y[0] - x[0]) * t,
                x[1] + (y[1] - x[1]) * t,
                x[2] + (y[2] - x[2]) * t,
            ]
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::value::Value;

    #[test]
    fn mix_blends_colours_and_clamps_t() {
        let (g, id) = single(
            "Mix",
            &[("type", ParamValue::Choice("color".into()))],
            &[
                ("a", Value::Color([0.0, 0.0, 1.0])),
                ("b", Value::Color([1.0, 0.0, 0.0])),
                ("t", Value::Float(0.25)),
            ],
        );
        assert_eq!(at(&g, id, "out", &[[0.1, 0.1]]).get(0), [0.25, 0.0, 0.75]);
        let (g, id) = single("Mix", &[], &[("t", Value::Float(7.0))]);
        assert_eq!(at(&g, id, "out", &[[0.1, 0.1]]).get(0)[0], 1.0);
    }
}
