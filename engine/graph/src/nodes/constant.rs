//! Constant: one value everywhere.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::nodes::{TYPE_PARAM, chosen_type};

/// Passes its inline value through: a named place to hold a constant several nodes share.
pub struct Constant;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Constant",
    doc: "One value everywhere, edited inline",
    category: Category::Input,
    params: &[TYPE_PARAM],
};

impl NodeKind for Constant {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::typed("value", chosen_type(p), "The value")]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The value")]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let value = ctx.input(0);
        vec![par_field(chosen_type(p), ctx.len(), |i| value.get(i))]
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;
    use crate::value::Value;

    #[test]
    fn a_constant_is_uniform() {
        let (g, id) = single(
            "Constant",
            &[("type", ParamValue::Choice("color".into()))],
            &[("value", Value::Color([0.1, 0.2, 0.3]))],
        );
        assert_eq!(grid(&g, id, "out", 4).get(5), [0.1, 0.2, 0.3]);
        assert_eq!(period(&g, id), Period::Uniform);
    }
}
