//! Parameter: a named value the preview shows as a live slider.

use crate::field::Field;
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::value::{PortType, Value};

/// A named number an author tunes live. Strand layers may read it: it is folded at its
/// current value.
pub struct Parameter;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Parameter",
    doc: "A named number shown as a live slider in the preview",
    category: Category::Input,
    params: &[
        ParamDesc {
            name: "name",
            doc: "The slider's label",
            kind: ParamKind::Text { default: "amount" },
        },
        ParamDesc {
            name: "value",
            doc: "The current value",
            kind: ParamKind::Float {
                min: 0.0,
                max: 1.0,
                default: 0.5,
            },
        },
        ParamDesc {
            name: "min",
            doc: "The slider's lower end",
            kind: ParamKind::Float {
                min: -1000.0,
                max: 1000.0,
                default: 0.0,
            },
        },
        ParamDesc {
            name: "max",
            doc: "The slider's upper end",
            kind: ParamKind::Float {
                min: -1000.0,
                max: 1000.0,
                default: 1.0,
            },
        },
    ],
};

impl NodeKind for Parameter {
    fn headline(&self) -> Option<&'static str> {
        Some("name")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Float, "The current value")]
    }
    fn slider(&self, p: &Params<'_>, name: &str) -> Option<(f32, f32)> {
        let (min, max) = (p.float("min"), p.float("max"));
        (name == "value" && min < max).then_some((min, max))
    }
    fn check(&self, p: &Params<'_>) -> Vec<String> {
        if p.float("min") >= p.float("max") {
            vec![format!(
                "min {} must be below max {}",
                p.float("min"),
                p.float("max")
            )]
        } else {
            Vec::new()
        }
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        vec![Field::constant(Value::Float(p.float("value")), ctx.len())]
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;

    #[test]
    fn a_parameter_reads_its_value_everywhere() {
        let (g, id) = single("Parameter", &[("value", ParamValue::Float(0.7))], &[]);
        let f = grid(&g, id, "out", 3);
        assert!(f.data.iter().all(|&x| x == 0.7));
        assert_eq!(period(&g, id), Period::Uniform);
    }
}
