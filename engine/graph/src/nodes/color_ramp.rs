//! Color ramp: a gradient of colour stops indexed by a scalar.

use crate::field::{Field, par_field};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc, RampStop,
};
use crate::value::PortType;

/// Maps `t` through colour stops, linearly between them and flat beyond the ends.
pub struct ColorRamp;

/// The ramp's colour at `t`; `stops` sorted by position and not empty.
#[must_use]
pub fn ramp_at(stops: &[RampStop], t: f32) -> [f32; 3] {
    let first = stops[0];
    if t <= first.pos {
        return first.color;
    }
    for w in stops.windows(2) {
        let (a, b) = (w[0], w[1]);
        if t <= b.pos {
            let span = b.pos - a.pos;
            let f = if span > 0.0 { (t - a.pos) / span } else { 1.0 };
            return [
                a.color[0] + (b.color[0] - a.color[0]) * f,
                a.color[1] + (b.color[1] - a.color[1]) * f,
                a.color[2] + (b.color[2] - a.color[2]) * f,
            ];
        }
    }
    stops[stops.len() - 1].color
}

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "ColorRamp",
    doc: "Maps a value in [0,1] through colour stops",
    category: Category::Convert,
    params: &[ParamDesc {
        name: "stops",
        doc: "Colour stops (linear RGB) by position",
        kind: ParamKind::Ramp,
    }],
};

impl NodeKind for ColorRamp {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        vec![PortDesc::float("t", 0.5, "Where along the ramp")]
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![OutputDesc::new("out", PortType::Color, "The colour")]
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let stops = p.ramp("stops");
        let t = ctx.input(0);
        vec![par_field(PortType::Color, ctx.len(), |i| {
            ramp_at(&stops, t.at(0, i))
        })]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_interpolates_between_stops_and_holds_beyond() {
        let stops = [
            RampStop {
                pos: 0.2,
                color: [0.0, 0.0, 0.0],
            },
            RampStop {
                pos: 0.6,
                color: [1.0, 0.5, 0.0],
            },
        ];
        assert_eq!(ramp_at(&stops, 0.0), [0.0; 3]);
        let mid = ramp_at(&stops, 0.4);
        assert!((mid[0] - 0.5).abs() < 1e-6 && (mid[1] - 0.25).abs() < 1e-6 && mid[2] == 0.0);
        assert_eq!(ramp_at(&stops, 2.0), [1.0, 0.5, 0.0]);
    }
}
