//! Time: seconds since the preview started; a dynamic input.

use crate::field::Field;
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, NodeKind, OutputDesc, Params, PortDesc};
use crate::period::Period;
use crate::value::{PortType, Value};

/// Time in seconds. Only the renderer knows it; the CPU evaluates it as 0, and strand
/// layers may not read it.
pub struct Time;

impl NodeKind for Time {
    fn name(&self) -> &'static str {
        "Time"
    }
    fn doc(&self) -> &'static str {
        "Seconds since the preview started (dynamic: 0 when baking, refused by strands)"
    }
    fn category(&self) -> Category {
        Category::Dynamic
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("seconds", PortType::Float, "Seconds")]
    }
    fn is_dynamic(&self) -> bool {
        true
    }
    fn period(&self, _: &Params<'_>, _: NodeId, _: &[Period]) -> Vec<Period> {
        vec![Period::Uniform]
    }
    fn eval(&self, _: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        vec![Field::constant(Value::Float(0.0), ctx.len())]
    }
}
