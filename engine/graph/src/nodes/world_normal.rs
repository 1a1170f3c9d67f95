//! World normal: the surface normal at the shaded point; a dynamic input.

use crate::field::Field;
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::period::Period;
use crate::value::{PortType, Value};

/// The surface's unit normal. The CPU evaluates it as straight up (+Y); strand layers
/// may not read it.
pub struct WorldNormal;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "WorldNormal",
    doc: "Surface normal (dynamic: +Y when baking, refused by strands)",
    category: Category::Dynamic,
    params: &[],
};

impl NodeKind for WorldNormal {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("normal", PortType::Color, "Unit normal")]
    }
    fn is_dynamic(&self) -> bool {
        true
    }
    fn period(&self, _: &Params<'_>, _: NodeId, _: &[Period]) -> Vec<Period> {
        vec![Period::Uniform]
    }
    fn eval(&self, _: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        vec![Field::constant(Value::Color([0.0, 1.0, 0.0]), ctx.len())]
    }
}
