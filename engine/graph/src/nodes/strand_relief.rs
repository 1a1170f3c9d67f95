//! Strand relief: a strand layer seen from above, as fields the PBR half can read.

use crate::field::FIELD_RESOLUTION;
use crate::field::{Field, sample_raster};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::value::PortType;

/// Splats one layer's strand set from directly above into coverage, mass, occlusion,
/// canopy height and colour (see `tuft_strands::relief`), rasterised at the fixed field
/// resolution and wrapping with the repeat. The surface under the strands reads it to
/// carry their colour and their dark.
pub struct StrandRelief;

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "StrandRelief",
    doc: "A strand layer seen from above: coverage, mass, occlusion, canopy height, colour",
    category: Category::Filter,
    params: &[ParamDesc {
        name: "layer",
        doc: "The strand layer to splat",
        kind: ParamKind::Text { default: "blades" },
    }],
};

impl NodeKind for StrandRelief {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![
            OutputDesc::new(
                "coverage",
                PortType::Float,
                "Covered fraction from above, in [0,1)",
            ),
            OutputDesc::new("mass", PortType::Float, "Summed covered fraction"),
            OutputDesc::new(
                "occlusion",
                PortType::Float,
                "Covered fraction × height (metres)",
            ),
            OutputDesc::new("height", PortType::Float, "Canopy height (metres)"),
            OutputDesc::new("color", PortType::Color, "Colour seen from above"),
        ]
    }
    fn strand_layer<'a>(&self, params: &Params<'a>) -> Option<&'a str> {
        Some(params.text("layer"))
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let n = ctx.len();
        let Some(relief) = ctx.relief(p.text("layer")) else {
            return self
                .outputs(p)
                .iter()
                .map(|o| Field::constant(o.ty.zero(), n))
                .collect();
        };
        let d = ctx.domain();
        let size = (FIELD_RESOLUTION, FIELD_RESOLUTION);
        let plane = |k: usize, values: &[f32]| {
            if !ctx.wants(k) {
                return Field {
                    ty: PortType::Float,
                    data: Vec::new(),
                };
            }
            sample_raster(PortType::Float, values, size, d, |x| x)
        };
        let color = relief.color.as_flattened();
        vec![
            plane(0, &relief.coverage),
            plane(1, &relief.mass),
            plane(2, &relief.occlusion),
            plane(3, &relief.height),
            if ctx.wants(4) {
                sample_raster(PortType::Color, color, size, d, |c| c)
            } else {
                Field {
                    ty: PortType::Color,
                    data: Vec::new(),
                }
            },
        ]
    }
}
