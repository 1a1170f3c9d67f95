//! Levels: the black and white points of the input, a gamma, and the black and white
//! points of the output, channel by channel.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::{TYPE_PARAM, chosen_type, unit_param};

/// `out_black + (out_white − out_black) · clamp((x − in_black) / (in_white − in_black))^(1/gamma)`.
pub struct Levels;

const PARAMS: &[ParamDesc] = &[
    TYPE_PARAM,
    unit_param(
        "in_black",
        "The input value that becomes the output's black point",
        0.0,
    ),
    unit_param(
        "in_white",
        "The input value that becomes the output's white point",
        1.0,
    ),
    ParamDesc {
        name: "gamma",
        doc: "Above 1 brightens the middle, below 1 darkens it",
        kind: ParamKind::Float {
            min: 0.1,
            max: 10.0,
            default: 1.0,
        },
    },
    unit_param("out_black", "What the input's black point becomes", 0.0),
    unit_param("out_white", "What the input's white point becomes", 1.0),
];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Levels",
    doc: "Input black and white points, gamma, output black and white points",
    category: Category::Convert,
    params: PARAMS,
};

impl NodeKind for Levels {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, p: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::typed("in", chosen_type(p), "The value to adjust")]
    }
    fn outputs(&self, p: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", chosen_type(p), "The adjusted value")]
    }
    fn check(&self, p: &Params<'_>) -> Vec<String> {
        let mut problems = Vec::new();
        let (black, white) = (p.float("in_black"), p.float("in_white"));
        if white <= black {
            problems.push(format!("in_white {white} must be above in_black {black}"));
        }
        let gamma = p.float("gamma");
        if gamma.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            problems.push(format!("gamma {gamma} must be above 0"));
        }
        problems
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let (ib, iw) = (p.float("in_black"), p.float("in_white"));
        let span = (iw - ib).abs().max(1e-6);
        let inv_gamma = 1.0 / p.float("gamma").max(1e-3);
        let (ob, ow) = (p.float("out_black"), p.float("out_white"));
        let input = ctx.input(0);
        let level = |x: f32| ob + (ow - ob) * ((x - ib) / span).clamp(0.0, 1.0).powf(inv_gamma);
        vec![par_field(chosen_type(p), ctx.len(), |i| {
            input.get(i).map(level)
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::value::Value;

    #[test]
    fn levels_maps_the_points_and_bends_the_middle() {
        let params = [
            ("in_black", ParamValue::Float(0.2)),
            ("in_white", ParamValue::Float(0.6)),
            ("out_black", ParamValue::Float(0.1)),
            ("out_white", ParamValue::Float(0.9)),
        ];
        for (x, want) in [(0.0, 0.1), (0.2, 0.1), (0.4, 0.5), (0.6, 0.9), (1.0, 0.9)] {
            let (g, id) = single("Levels", &params, &[("in", Value::Float(x))]);
            let got = at(&g, id, "out", &[[0.3, 0.3]]).get(0)[0];
            assert!((got - want).abs() < 1e-5, "{x} → {got}, not {want}");
        }
        // A gamma of 2 lifts the middle: 0.25 → 0.5.
        let (g, id) = single(
            "Levels",
            &[("gamma", ParamValue::Float(2.0))],
            &[("in", Value::Float(0.25))],
        );
        assert!((at(&g, id, "out", &[[0.3, 0.3]]).get(0)[0] - 0.5).abs() < 1e-5);
    }

    #[test]
    fn levels_works_per_channel_and_keeps_its_input_s_period() {
        let (g, id) = single(
            "Levels",
            &[("type", ParamValue::Choice("color".into()))],
            &[("in", Value::Color([0.0, 0.5, 1.0]))],
        );
        assert_eq!(at(&g, id, "out", &[[0.3, 0.3]]).get(0), [0.0, 0.5, 1.0]);
        let mut g = g;
        let noise = g.add_node("Noise").unwrap();
        let levels = g.add_node("Levels").unwrap();
        link(&mut g, noise, "out", levels, "in");
        assert_eq!(period(&g, levels), crate::period::Period::Tiles(4));
        let _ = id;
    }

    #[test]
    fn inverted_points_are_reported() {
        let (g, _) = single(
            "Levels",
            &[
                ("in_black", ParamValue::Float(0.8)),
                ("in_white", ParamValue::Float(0.2)),
            ],
            &[],
        );
        let report = crate::validate(&g);
        assert!(
            report.diagnostics.iter().any(|d| d
                .message
                .contains("in_white 0.2 must be above in_black 0.8")),
            "{:#?}",
            report.diagnostics
        );
    }
}
