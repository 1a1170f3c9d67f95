//! Wave: stripes that repeat a whole number of times across the tile.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::count_param;
use crate::value::PortType;

/// Periodic stripes along u, v or the diagonal, in `[0, 1]`.
pub struct Wave;

const PARAMS: &[ParamDesc] = &[
    count_param("periods", "Stripes per repeat; a whole number tiles", 4.0),
    ParamDesc {
        name: "direction",
        doc: "Along which axis the stripes repeat",
        kind: ParamKind::Choice {
            options: &["u", "v", "diagonal"],
            default: "u",
        },
    },
    ParamDesc {
        name: "profile",
        doc: "The shape of one stripe",
        kind: ParamKind::Choice {
            options: &["sine", "triangle", "saw"],
            default: "sine",
        },
    },
    ParamDesc {
        name: "phase",
        doc: "Shift, in turns of one stripe",
        kind: ParamKind::Float {
            min: 0.0,
            max: 1.0,
            default: 0.0,
        },
    },
];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Wave",
    doc: "Stripes repeating a whole number of times per repeat, in [0,1]",
    category: Category::Generator,
    params: PARAMS,
};

impl NodeKind for Wave {
    fn headline(&self) -> Option<&'static str> {
        Some("profile")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Float, "The wave in [0,1]")]
    }
    fn repeat_count(&self) -> Option<&'static str> {
        Some("periods")
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let periods = p.float("periods");
        let phase = p.float("phase");
        let dir = p.choice("direction");
        let profile = p.choice("profile");
        let d = ctx.domain();
        vec![par_field(PortType::Float, d.len(), |i| {
            let along = match dir {
                "v" => d.v[i],
                "diagonal" => d.u[i] + d.v[i],
                _ => d.u[i],
            };
            let t = along * periods + phase;
            let f = t - t.floor();
            let w = match profile {
                "triangle" => 1.0 - (2.0 * f - 1.0).abs(),
                "saw" => f,
                _ => 0.5 - 0.5 * (std::f32::consts::TAU * t).cos(),
            };
            [w, 0.0, 0.0]
        })]
    }
}

#[cfg(test)]
mod tests {
    use crate::node::ParamValue;
    use crate::nodes::testing::*;
    use crate::period::Period;

    #[test]
    fn whole_periods_tile_and_fractional_ones_do_not() {
        for dir in ["u", "v", "diagonal"] {
            let (g, id) = single(
                "Wave",
                &[
                    ("periods", ParamValue::Float(3.0)),
                    ("direction", ParamValue::Choice(dir.into())),
                    ("profile", ParamValue::Choice("triangle".into())),
                ],
                &[],
            );
            assert!(edge_gap(&g, id, "out", 32) < 1e-4, "{dir}");
            assert_eq!(period(&g, id), Period::Tiles(3));
        }
        let (g, id) = single("Wave", &[("periods", ParamValue::Float(3.5))], &[]);
        assert!(edge_gap(&g, id, "out", 32) > 0.1);
        assert!(!period(&g, id).tiles());
    }
}
