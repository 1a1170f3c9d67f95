//! The node vocabulary. Each kind lives in its own file; adding one is that file plus
//! one line in [`ALL`].

use crate::node::{NodeKind, ParamDesc, ParamKind, Params};
use crate::value::PortType;

mod blur;
mod color_ramp;
mod combine;
mod constant;
mod curve;
pub use curve::Shape as CurveShape;
mod direction;
mod gradient;
mod height_normal;
mod image;
mod lattice;
mod levels;
pub use height_normal::normals_from_height;
mod math;
mod mix;
mod noise;
#[cfg(target_arch = "x86_64")]
mod noise_avx2;
mod noise_basis;
mod noise_lanes;
mod parameter;
pub mod reroute;
mod shape;
mod split;
mod strand_relief;
mod time;
mod uv;
mod voronoi;
mod warp;
mod wave;
mod world_normal;
mod world_pos;

/// Every registered node kind, in library order.
pub static ALL: &[&dyn NodeKind] = &[
    &uv::Uv,
    &constant::Constant,
    &parameter::Parameter,
    &image::Image,
    &noise::Noise,
    &voronoi::Voronoi,
    &wave::Wave,
    &gradient::Gradient,
    &shape::Shape,
    &math::Math,
    &mix::Mix,
    &color_ramp::ColorRamp,
    &levels::Levels,
    &curve::Curve,
    &combine::Combine,
    &split::Split,
    &reroute::Reroute,
    &direction::Direction,
    &warp::Warp,
    &blur::Blur,
    &height_normal::HeightToNormal,
    &strand_relief::StrandRelief,
    &time::Time,
    &world_pos::WorldPos,
    &world_normal::WorldNormal,
];

/// The kind called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static dyn NodeKind> {
    ALL.iter().copied().find(|k| k.name() == name)
}

/// The `type` parameter of nodes that work on any port type.
pub(crate) const TYPE_PARAM: ParamDesc = ParamDesc {
    name: "type",
    doc: "The type of value the node works on",
    kind: ParamKind::Choice {
        options: &["float", "vec2", "color"],
        default: "float",
    },
};

/// The `seed` parameter of generators.
pub(crate) const SEED_PARAM: ParamDesc = ParamDesc {
    name: "seed",
    doc: "Picks another pattern",
    kind: ParamKind::Int {
        min: 0,
        max: u32::MAX as i64,
        default: 0,
    },
};

/// A generator's repeat count (`scale`, `periods`): whole numbers tile.
pub(crate) const fn count_param(name: &'static str, doc: &'static str, default: f32) -> ParamDesc {
    ParamDesc {
        name,
        doc,
        kind: ParamKind::Float {
            min: 1.0,
            max: 64.0,
            default,
        },
    }
}

/// A Float parameter whose slider runs over `[0, 1]`.
pub(crate) const fn unit_param(name: &'static str, doc: &'static str, default: f32) -> ParamDesc {
    ParamDesc {
        name,
        doc,
        kind: ParamKind::Float {
            min: 0.0,
            max: 1.0,
            default,
        },
    }
}

/// The port type chosen by [`TYPE_PARAM`].
pub(crate) fn chosen_type(params: &Params<'_>) -> PortType {
    match params.choice("type") {
        "vec2" => PortType::Vec2,
        "color" => PortType::Color,
        _ => PortType::Float,
    }
}

pub(crate) use tuft_strands::num::fast_floor;

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the per-node tests: evaluate one node alone.
    use crate::field::{Domain, Field};
    use crate::graph::MaterialGraph;
    use crate::link::{Input, NodeId, OutRef};
    use crate::node::ParamValue;
    use crate::period::Period;
    use crate::value::Value;

    /// A graph holding one node of `kind` with `params` and constant `inputs`.
    pub fn single(
        kind: &str,
        params: &[(&str, ParamValue)],
        inputs: &[(&str, Value)],
    ) -> (MaterialGraph, NodeId) {
        let mut g = MaterialGraph::new("test");
        let id = g.add_node(kind).expect("registered kind");
        let node = g.node_mut(id).unwrap();
        for (k, v) in params {
            node.params.insert((*k).to_owned(), v.clone());
        }
        for (k, v) in inputs {
            node.inputs.insert((*k).to_owned(), Input::Const(*v));
        }
        (g, id)
    }

    /// Links output `port` of `from` into input `to_port` of `to`, panicking if refused.
    pub fn link(g: &mut MaterialGraph, from: NodeId, port: &str, to: NodeId, to_port: &str) {
        g.connect(
            OutRef::new(from, port),
            &crate::link::InRef::Node {
                node: to,
                port: to_port.into(),
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }

    /// A Noise feeding a ColorRamp that colours the PBR base: the smallest chain a group
    /// or a library node is made of. Returns (noise, ramp).
    pub fn noise_ramp_to_base(g: &mut MaterialGraph) -> (NodeId, NodeId) {
        let noise = g.add_node("Noise").expect("registered kind");
        let ramp = g.add_node("ColorRamp").expect("registered kind");
        link(g, noise, "out", ramp, "t");
        g.connect(
            OutRef::new(ramp, "out"),
            &crate::link::InRef::Sink(crate::link::Sink::Pbr("base_color".into())),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        (noise, ramp)
    }

    /// Output `port` of node `id` on an `n × n` grid.
    pub fn grid(g: &MaterialGraph, id: NodeId, port: &str, n: usize) -> Field {
        crate::eval::Evaluator::new(g)
            .eval_output(&OutRef::new(id, port), &Domain::grid(n, n))
            .expect("output exists")
    }

    /// Output `port` of node `id` at `points`.
    pub fn at(g: &MaterialGraph, id: NodeId, port: &str, points: &[[f32; 2]]) -> Field {
        crate::eval::Evaluator::new(g)
            .eval_output(&OutRef::new(id, port), &Domain::points(points))
            .expect("output exists")
    }

    /// The largest difference between the field at `u = 0` and `u = 1`, and at `v = 0`
    /// and `v = 1`, over `n` points along each edge.
    pub fn edge_gap(g: &MaterialGraph, id: NodeId, port: &str, n: usize) -> f32 {
        let mut pts = Vec::new();
        for i in 0..n {
            let t = (i as f32 + 0.37) / n as f32;
            pts.extend([[0.0, t], [1.0, t], [t, 0.0], [t, 1.0]]);
        }
        let f = at(g, id, port, &pts);
        let c = f.ty.channels();
        let mut gap = 0.0f32;
        for i in 0..n {
            for k in 0..c {
                gap = gap.max((f.at(k, 4 * i) - f.at(k, 4 * i + 1)).abs());
                gap = gap.max((f.at(k, 4 * i + 2) - f.at(k, 4 * i + 3)).abs());
            }
        }
        gap
    }

    /// The inferred period of output 0 of node `id`.
    pub fn period(g: &MaterialGraph, id: NodeId) -> Period {
        crate::validate::periods(g)
            .get(&(id, 0))
            .cloned()
            .expect("node has a period")
    }
}
