//! Split: the channels of a vector or colour as scalars.

use crate::field::{Field, par_field};
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::nodes::combine::{CHANNELS, VECTOR_TYPE, vector_type};
use crate::period::Period;
use crate::value::PortType;

/// Takes a Vec2 or Color apart.
pub struct Split;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Split",
    doc: "Takes a Vec2 or a Color apart into scalars",
    category: Category::Convert,
    params: &[VECTOR_TYPE],
};

impl NodeKind for Split {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::typed("in", vector_type(p), "The value to split")]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        CHANNELS[..vector_type(p).channels()]
            .iter()
            .map(|&name| OutputDesc::new(name, PortType::Float, "One channel"))
            .collect()
    }
    fn period(&self, p: &Params<'_>, _: NodeId, inputs: &[Period]) -> Vec<Period> {
        vec![Period::combine_all(inputs); vector_type(p).channels()]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let input = ctx.input(0);
        (0..vector_type(p).channels())
            .map(|k| par_field(PortType::Float, ctx.len(), |i| [input.at(k, i), 0.0, 0.0]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::link::{InRef, OutRef};
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::value::Value;

    #[test]
    fn split_then_combine_gives_the_value_back() {
        let (mut g, split) = single("Split", &[], &[("in", Value::Color([0.1, 0.2, 0.3]))]);
        let combine = g.add_node("Combine").unwrap();
        for ch in ["x", "y", "z"] {
            g.connect(
                OutRef::new(split, ch),
                &InRef::Node {
                    node: combine,
                    port: ch.into(),
                },
            )
            .unwrap();
        }
        assert_eq!(
            at(&g, combine, "out", &[[0.5, 0.5]]).get(0),
            [0.1, 0.2, 0.3]
        );
        g.node_mut(split)
            .unwrap()
            .params
            .insert("type".into(), ParamValue::Choice("vec2".into()));
        assert_eq!(g.node(split).unwrap().output_ports().len(), 2);
    }
}
