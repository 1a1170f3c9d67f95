//! Math: arithmetic on floats, or channel by channel on vectors and colours.

use crate::field::Field;
use crate::field::InputRef;
use crate::link::NodeId;
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::{TYPE_PARAM, chosen_type};
use crate::period::Period;
use crate::value::{PortType, Value};
use rayon::prelude::*;
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

/// Elements per work item: divisible by 1, 2 and 3 so a chunk never splits a value.
const CHUNK: usize = 3072;

/// An argument as the chunks read it: a field's values, or a constant laid out one
/// chunk long, the same for every chunk.
enum Operand<'a> {
    Field(&'a [f32]),
    Laid(Vec<f32>),
}

/// Applies `op` element by element over a chunk of flat argument slices. Every operation
/// is a separate tight loop, which the compiler vectorises.
fn apply(op: &str, a: &[&[f32]], out: &mut [f32]) {
    fn one(out: &mut [f32], a: &[f32], f: impl Fn(f32) -> f32) {
        for (o, &x) in out.iter_mut().zip(a) {
            *o = f(x);
        }
    }
    fn two(out: &mut [f32], a: &[f32], b: &[f32], f: impl Fn(f32, f32) -> f32) {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = f(x, y);
        }
    }
    fn three(out: &mut [f32], a: &[f32], b: &[f32], c: &[f32], f: impl Fn(f32, f32, f32) -> f32) {
        for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(c) {
            *o = f(x, y, z);
        }
    }
    match op {
        "add" => two(out, a[0], a[1], |x, y| x + y),
        "sub" => two(out, a[0], a[1], |x, y| x - y),
        "mul" => two(out, a[0], a[1], |x, y| x * y),
        "div" => two(out, a[0], a[1], |x, y| x / y),
        "min" => two(out, a[0], a[1], f32::min),
        "max" => two(out, a[0], a[1], f32::max),
        "pow" => two(out, a[0], a[1], f32::powf),
        "abs" => one(out, a[0], f32::abs),
        "sin" => one(out, a[0], |x| (TAU * x).sin()),
        "cos" => one(out, a[0], |x| (TAU * x).cos()),
        "atan2" => two(out, a[0], a[1], |y, x| y.atan2(x) / TAU),
        "smoothstep" => three(out, a[0], a[1], a[2], |e0, e1, x| {
            let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        }),
        "clamp" => three(out, a[0], a[1], a[2], |x, lo, hi| x.max(lo).min(hi)),
        "remap" => {
            let n = out.len();
            let (x, il, ih, ol, oh) = (&a[0][..n], &a[1][..n], &a[2][..n], &a[3][..n], &a[4][..n]);
            for k in 0..n {
                out[k] = ol[k] + (x[k] - il[k]) / (ih[k] - il[k]) * (oh[k] - ol[k]);
            }
        }
        _ => out.fill(0.0),
    }
}

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Math",
    doc: "Arithmetic, trigonometry in turns, smoothstep, clamp and remap",
    category: Category::Math,
    params: PARAMS,
};

impl NodeKind for Math {
    fn headline(&self) -> Option<&'static str> {
        Some("op")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
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
        let n_args = signature(op).len();
        let args: Vec<InputRef<'_>> = (0..n_args).map(|k| ctx.input(k)).collect();
        let channels = ty.channels();
        // Every argument has the output's type, so the interleaved channels line up and
        // the operation runs over flat arrays. A constant is laid out once, a chunk long,
        // and read by every chunk (a chunk starts on a whole value: CHUNK is a multiple
        // of every channel count).
        let operands: Vec<Operand<'_>> = args
            .iter()
            .map(|arg| match arg {
                InputRef::Field(f) => Operand::Field(&f.data),
                InputRef::Const(v) => {
                    Operand::Laid(v[..channels].iter().copied().cycle().take(CHUNK).collect())
                }
            })
            .collect();
        let mut data = vec![0.0f32; ctx.len() * channels];
        data.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(ci, out)| {
                let (start, len) = (ci * CHUNK, out.len());
                let slices: Vec<&[f32]> = operands
                    .iter()
                    .map(|operand| match operand {
                        Operand::Field(data) => &data[start..start + len],
                        Operand::Laid(chunk) => &chunk[..len],
                    })
                    .collect();
                apply(op, &slices, out);
            });
        vec![Field { ty, data }]
    }
}

#[cfg(test)]
mod tests {
    use crate::link::OutRef;
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
    fn constants_keep_their_channels_in_every_chunk() {
        // Two constants on every channel of a vector and a colour, over more points than
        // one work item takes, so every chunk fills its constants.
        for (ty, a, b) in [
            ("vec2", Value::Vec2([1.0, 20.0]), Value::Vec2([0.5, 0.25])),
            (
                "color",
                Value::Color([1.0, 20.0, 300.0]),
                Value::Color([0.5, 0.25, 0.125]),
            ),
        ] {
            let (g, id) = single(
                "Math",
                &[
                    ("op", ParamValue::Choice("add".into())),
                    ("type", ParamValue::Choice(ty.into())),
                ],
                &[("a", a), ("b", b)],
            );
            let ev = crate::eval::Evaluator::new(&g);
            let domain = crate::field::Domain::grid(64, 64);
            let f = ev.eval_output(&OutRef::new(id, "out"), &domain).unwrap();
            let (a, b) = (a.channels(), b.channels());
            let want: Vec<f32> = (0..f.ty.channels()).map(|c| a[c] + b[c]).collect();
            assert!(f.data.len() > super::CHUNK);
            for (i, value) in f.data.chunks(want.len()).enumerate() {
                assert_eq!(value, want.as_slice(), "{ty} at {i}");
            }
        }
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
        link(&mut g, uv, "uv", split, "in");
        link(&mut g, split, "x", sin, "a");
        link(&mut g, split, "x", mul, "a");
        assert_eq!(period(&g, sin), Period::Tiles(1));
        assert!(edge_gap(&g, sin, "out", 16) < 1e-5);
        assert_eq!(period(&g, mul).culprit(), Some(uv));
        assert!(edge_gap(&g, mul, "out", 16) > 0.5);
    }
}
