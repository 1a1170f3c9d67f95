//! Time: seconds since the preview started; a dynamic input.

use crate::field::Field;
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::period::Period;
use crate::value::{PortType, Value};

/// Time in seconds. Only the renderer knows it; the CPU evaluates it as 0, and strand
/// layers may not read it.
pub struct Time;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Time",
    doc: "Seconds since the preview started (dynamic: 0 when baking, refused by strands)",
    category: Category::Dynamic,
    params: &[],
};

impl NodeKind for Time {
    fn info(&self) -> &'static KindInfo {
        &INFO
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
