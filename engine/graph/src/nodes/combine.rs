//! Combine: builds a vector or colour from scalars.

use crate::field::{Field, par_field};
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::period::Period;
use crate::value::PortType;

/// `(x, y)` or `(r, g, b)` from separate scalars.
pub struct Combine;

pub(crate) const VECTOR_TYPE: ParamDesc = ParamDesc {
    name: "type",
    doc: "A two-channel vector or a colour",
    kind: ParamKind::Choice {
        options: &["vec2", "color"],
        default: "color",
    },
};

pub(crate) fn vector_type(p: &Params<'_>) -> PortType {
    if p.choice("type") == "vec2" {
        PortType::Vec2
    } else {
        PortType::Color
    }
}

pub(crate) const CHANNELS: [&str; 3] = ["x", "y", "z"];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Combine",
    doc: "Builds a Vec2 or a Color from scalars",
    category: Category::Convert,
    params: &[VECTOR_TYPE],
};

impl NodeKind for Combine {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        CHANNELS[..vector_type(p).channels()]
            .iter()
            .map(|&name| PortDesc::float(name, 0.0, "One channel"))
            .collect()
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", vector_type(p), "The combined value")]
    }
    fn period(&self, _: &Params<'_>, _: NodeId, inputs: &[Period]) -> Vec<Period> {
        // Channels travel unchanged; raw UV stays raw for a later sine to forgive.
        vec![Period::combine_all(inputs)]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let ty = vector_type(p);
        let ins: Vec<_> = (0..ty.channels()).map(|k| ctx.input(k)).collect();
        vec![par_field(ty, ctx.len(), |i| {
            let mut out = [0.0; 3];
            for (o, input) in out.iter_mut().zip(&ins) {
                *o = input.at(0, i);
            }
            out
        })]
    }
}
