//! World position: where the shaded point is in the scene; a dynamic input.

use crate::field::{Field, par_field};
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::period::Period;
use crate::value::PortType;

/// The shaded point's position in metres. The CPU evaluates it on a flat plane (one
/// repeat laid on x–z); strand layers may not read it.
pub struct WorldPos;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "WorldPos",
    doc: "Position in metres (dynamic: a flat plane when baking, refused by strands)",
    category: Category::Dynamic,
    params: &[],
};

impl NodeKind for WorldPos {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new(
            "position",
            PortType::Color,
            "x, y, z in metres",
        )]
    }
    fn is_dynamic(&self) -> bool {
        true
    }
    fn period(&self, _: &Params<'_>, id: NodeId, _: &[Period]) -> Vec<Period> {
        vec![Period::Broken {
            node: id,
            reason: "world position does not repeat with the material".to_owned(),
        }]
    }
    fn eval(&self, _: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let d = ctx.domain();
        let r = ctx.repeat_m();
        vec![par_field(PortType::Color, d.len(), |i| {
            [d.u[i] * r, 0.0, d.v[i] * r]
        })]
    }
}
