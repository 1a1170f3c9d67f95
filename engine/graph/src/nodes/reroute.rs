//! Reroute: a dot a wire passes through, so wires can be led around nodes.

use crate::field::{Field, par_field};
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{Category, KindInfo, NodeKind, OutputDesc, Params, PortDesc};
use crate::nodes::{TYPE_PARAM, chosen_type};
use crate::period::Period;

/// Passes its input through unchanged. It takes the type of what is linked into it
/// ([`crate::MaterialGraph::connect`]).
pub struct Reroute;

/// The kind's name, which the graph's connection rule and the editor look for.
pub const NAME: &str = "Reroute";

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: NAME,
    doc: "A dot a wire passes through, to lead it around other nodes",
    category: Category::Convert,
    params: &[TYPE_PARAM],
};

impl NodeKind for Reroute {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::typed("in", chosen_type(p), "The value passed on")]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The same value")]
    }
    fn period(&self, _: &Params<'_>, _: NodeId, inputs: &[Period]) -> Vec<Period> {
        // Exactly what comes in: raw UV through a reroute is still raw UV.
        vec![inputs.first().cloned().unwrap_or(Period::Uniform)]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let value = ctx.input(0);
        vec![par_field(chosen_type(p), ctx.len(), |i| value.get(i))]
    }
}

#[cfg(test)]
mod tests {
    use crate::link::OutRef;
    use crate::nodes::testing::*;
    use crate::value::PortType;

    #[test]
    fn a_reroute_passes_its_input_through_and_takes_its_type() {
        let (mut g, reroute) = single("Reroute", &[], &[]);
        let ramp = g.add_node("ColorRamp").unwrap();
        let noise = g.add_node("Noise").unwrap();
        link(&mut g, noise, "out", ramp, "t");
        // A colour into a float reroute: the reroute becomes a colour reroute.
        link(&mut g, ramp, "out", reroute, "in");
        assert_eq!(
            g.output_type(&OutRef::new(reroute, "out")),
            Some(PortType::Color)
        );
        let points = [[0.3, 0.7], [0.9, 0.1]];
        let through = at(&g, reroute, "out", &points);
        let direct = at(&g, ramp, "out", &points);
        assert_eq!(through.get(0), direct.get(0));
        assert_eq!(through.get(1), direct.get(1));
        assert_eq!(period(&g, reroute), period(&g, ramp));
    }
}
