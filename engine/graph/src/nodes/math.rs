//! Math: arithmetic on floats, or channel by channel on vectors and colours.

use crate::eval::NodeCtx;
use crate::field::{Field, par_field};
use crate::graph::NodeId;
use crate::node::{Category, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc};
use crate::nodes::{TYPE_PARAM, chosen_type};
use crate::period::Period;
use crate::value::{PortType, Value};
use std::f32::consts::TAU;

/// One operation, applied channel by channel. Angles are in turns: `sin(a)` is
/// `sin(2π·a)`, and `atan2` returns turns in `(-½, ½]`.
pub struct Math;

const OPS: &[&str] = &[
    "add",
    "sub",
    "mul",
    "div",
    "min",
    "max",
    "pow",
    "abs",
    "sin",
    "cos",
    "atan2",
    "smoothstep",
    "clamp",
    "remap",
];

const PARAMS: &[ParamDesc] = &[
    ParamDesc {
        name: "op",
        doc: "The operation",
        kind: ParamKind::Choice {
            options: OPS,
            default: "mul",
        },
    },
    TYPE_PARAM,
];

/// Port names and default values for each operation.
fn signature(op: &str) -> &'static [(&'static str, f32)] {
    match op {
        "add" | "sub" => &[("a", 0.0), ("b", 0.0)],
        "mul" | "div" | "pow" => &[("a", 1.0), ("b", 1.0)],
        "min" | "max" => &[("a", 0.0), ("b", 0.0)],
        "abs" | "sin" | "cos" => &[("a", 0.0)],
        "atan2" => &[("y", 0.0), ("x", 1.0)],
        "smoothstep" => &[("edge0", 0.0), ("edge1", 1.0), ("x", 0.5)],
        "clamp" => &[("x", 0.5), ("lo", 0.0), ("hi", 1.0)],
        "remap" => &[
            ("x", 0.5),
            ("in_lo", 0.0),
            ("in_hi", 1.0),
            ("out_lo", 0.0),
            ("out_hi", 1.0),
        ],
        _ => &[],
    }
}

fn splat(ty: PortType, x: f32) -> Value {
    match ty {
        PortType::Float => Value::Float(x),
        PortType::Vec2 => Value::Vec2([x; 2]),
        PortType::Color => Value::Color([x; 3]),
    }
}

type OpFn = fn(&[f32; 5]) -> f32;

/// The function computing `op` on one channel's arguments (looked up once per
/// evaluation, not per point).
fn op_fn(op: &str) -> OpFn {
    match op {
        "add" => |a| a[0] + a[1],
        "sub" => |a| a[0] - a[1],
        "mul" => |a| a[0] * a[1],
        "div" => |a| a[0] / a[1],
        "min" => |a| a[0].min(a[1]),
        "max" => |a| a[0].max(a[1]),
        "pow" => |a| a[0].powf(a[1]),
        "abs" => |a| a[0].abs(),
        "sin" => |a| (TAU * a[0]).sin(),
        "cos" => |a| (TAU * a[0]).cos(),
        "atan2" => |a| a[0].atan2(a[1]) / TAU,
        "smoothstep" => |a| {
            let t = ((a[2] - a[0]) / (a[1] - a[0])).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        },
        "clamp" => |a| a[0].max(a[1]).min(a[2]),
        "remap" => |a| a[3] + (a[0] - a[1]) / (a[2] - a[1]) * (a[4] - a[3]),
        _ => |_| 0.0,
    }
}

impl NodeKind for Math {
    fn name(&self) -> &'static str {
        "Math"
    }
    fn doc(&self) -> &'static str {
        "Arithmetic, trigonometry in turns, smoothstep, clamp and remap"
    }
    fn category(&self) -> Category {
        Category::Math
    }
    fn params(&self) -> &'static [ParamDesc] {
        PARAMS
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        let ty = chosen_type(p);
        signature(p.choice("op"))
            .iter()
            .map(|&(name, default)| {
                PortDesc::typed(name, ty, "An operand").with_default(splat(ty, default))
            })
            .collect()
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The result")]
    }
    fn period(&self, p: &Params<'_>, _: NodeId, inputs: &[Period]) -> Vec<Period> {
        let combined = Period::combine_all(inputs);
        let out = match (p.choice("op"), &combined) {
            // A sine or cosine in turns has period 1, so raw UV jumping by a whole number
            // at the edges comes out continuous.
            ("sin" | "cos", Period::Ramp(_)) => Period::Tiles(1),
            // Sums and differences of raw UV still jump by whole numbers.
            ("add" | "sub", _) => combined,
            _ => combined.settle(),
        };
        vec![out]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let ty = chosen_type(p);
        let op = p.choice("op");
        let f = op_fn(op);
        let n_args = signature(op).len();
        let args: Vec<_> = (0..n_args).map(|k| ctx.input(k)).collect();
        let channels = ty.channels();
        vec![par_field(ty, ctx.len(), |i| {
            let mut out = [0.0; 3];
            for (c, o) in out.iter_mut().enumerate().take(channels) {
                let mut a = [0.0; 5];
                for (k, arg) in args.iter().enumerate() {
                    a[k] = arg.at(c, i);
                }
                *o = f(&a);
            }
            out
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::graph::{InRef, OutRef};
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;
    use crate::value::Value;

    fn op(name: &str, inputs: &[(&str, f32)]) -> f32 {
        let consts: Vec<(&str, Value)> =
            inputs.iter().map(|&(k, v)| (k, Value::Float(v))).collect();
        let (g, id) = single("Math", &[("op", ParamValue::Choice(name.into()))], &consts);
        at(&g, id, "out", &[[0.5, 0.5]]).at(0, 0)
    }

    #[test]
    fn operations_compute_what_they_say() {
        let close = |a: f32, b: f32| (a - b).abs() < 1e-5;
        assert!(close(op("add", &[("a", 2.0), ("b", 3.0)]), 5.0));
        assert!(close(op("sub", &[("a", 2.0), ("b", 3.0)]), -1.0));
        assert!(close(op("mul", &[("a", 2.0), ("b", 3.0)]), 6.0));
        assert!(close(op("div", &[("a", 3.0), ("b", 2.0)]), 1.5));
        assert!(close(op("min", &[("a", 2.0), ("b", 3.0)]), 2.0));
        assert!(close(op("max", &[("a", 2.0), ("b", 3.0)]), 3.0));
        assert!(close(op("pow", &[("a", 2.0), ("b", 3.0)]), 8.0));
        assert!(close(op("abs", &[("a", -2.0)]), 2.0));
        // Angles in turns: a quarter turn.
        assert!(close(op("sin", &[("a", 0.25)]), 1.0));
        assert!(close(op("cos", &[("a", 0.5)]), -1.0));
        assert!(close(op("atan2", &[("y", 1.0), ("x", 0.0)]), 0.25));
        assert!(close(
            op("smoothstep", &[("edge0", 0.0), ("edge1", 1.0), ("x", 0.5)]),
            0.5
        ));
        assert!(close(
            op("clamp", &[("x", 3.0), ("lo", 0.0), ("hi", 1.0)]),
            1.0
        ));
        assert!(close(
            op(
                "remap",
                &[
                    ("x", 0.5),
                    ("in_lo", 0.0),
                    ("in_hi", 1.0),
                    ("out_lo", 10.0),
                    ("out_hi", 20.0)
                ]
            ),
            15.0
        ));
    }

    #[test]
    fn division_by_zero_is_scrubbed_and_reported() {
        let (g, id) = single(
            "Math",
            &[("op", ParamValue::Choice("div".into()))],
            &[("a", Value::Float(0.0)), ("b", Value::Float(0.0))],
        );
        let ev = crate::eval::Evaluator::new(&g);
        let f = ev
            .eval_output(&OutRef::new(id, "out"), &crate::field::Domain::grid(2, 2))
            .unwrap();
        assert!(f.data.iter().all(|&x| x == 0.0));
        let diags = ev.diagnostics();
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.contains("NaN"), "{}", diags[0].message);
        assert_eq!(diags[0].node, Some(id));
    }

    #[test]
    fn sine_of_raw_uv_tiles_but_raw_uv_times_two_does_not() {
        let (mut g, uv) = single("UV", &[], &[]);
        let split = g.add_node("Split").unwrap();
        let sin = g.add_node("Math").unwrap();
        let mul = g.add_node("Math").unwrap();
        g.node_mut(sin)
            .unwrap()
            .params
            .insert("op".into(), ParamValue::Choice("sin".into()));
        g.node_mut(split)
            .unwrap()
            .params
            .insert("type".into(), ParamValue::Choice("vec2".into()));
        let link = |g: &mut crate::graph::MaterialGraph, from, port: &str, to, to_port: &str| {
            g.connect(
                OutRef::new(from, port),
                &InRef::Node {
                    node: to,
                    port: to_port.into(),
                },
            )
            .unwrap();
        };
        link(&mut g, uv, "uv", split, "in");
        link(&mut g, split, "x", sin, "a");
        link(&mut g, split, "x", mul, "a");
        assert_eq!(period(&g, sin), Period::Tiles(1));
        assert!(edge_gap(&g, sin, "out", 16) < 1e-5);
        assert_eq!(period(&g, mul).culprit(), Some(uv));
        assert!(edge_gap(&g, mul, "out", 16) > 0.5);
    }
}
