//! UV: the coordinates of the point being evaluated.

use crate::field::{Field, par_field};
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::period::Period;
use crate::value::PortType;

/// The point's UV in `[0, 1)`. Raw UV does not tile (it jumps from 1 back to 0), but a
/// sine or cosine of it in turns does.
pub struct Uv;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "UV",
    doc: "The point's coordinates over one repeat, in [0,1)",
    category: Category::Input,
    params: &[],
};

impl NodeKind for Uv {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("uv", PortType::Vec2, "(u, v)")]
    }
    fn period(&self, _: &Params<'_>, id: NodeId, _: &[Period]) -> Vec<Period> {
        vec![Period::Ramp(id)]
    }
    fn eval(&self, _: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let d = ctx.domain();
        vec![par_field(PortType::Vec2, d.len(), |i| {
            [d.u[i], d.v[i], 0.0]
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::nodes::testing::*;
    use crate::period::Period;

    #[test]
    fn uv_reads_the_point_and_does_not_tile() {
        let (g, id) = single("UV", &[], &[]);
        let f = at(&g, id, "uv", &[[0.25, 0.75]]);
        assert_eq!(f.get(0), [0.25, 0.75, 0.0]);
        assert_eq!(period(&g, id), Period::Ramp(id));
        assert!(edge_gap(&g, id, "uv", 8) > 0.9);
    }
}
