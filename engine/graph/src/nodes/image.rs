//! Image: a PNG or JPEG laid over the repeat `tiles` times, as a colour, a grey value and
//! an alpha.

use crate::field::{Field, par_map};
use crate::images::{ALPHA, GREY, LINEAR_RGB};
use crate::node::NodeCtx;
use crate::node::{
    Category, KindInfo, NodeKind, OutputDesc, ParamDesc, ParamKind, Params, PortDesc,
};
use crate::nodes::count_param;
use crate::value::PortType;

/// Samples a picture file bilinearly, wrapping at its edges. The colour is decoded from
/// sRGB; the grey value is the stored codes as data (a painted mask reads as painted).
pub struct Image;

const PARAMS: &[ParamDesc] = &[
    ParamDesc {
        name: "file",
        doc: "The PNG or JPEG, relative to the graph file's folder",
        kind: ParamKind::File {
            extensions: &["png", "jpg", "jpeg"],
        },
    },
    count_param(
        "tiles",
        "How many times the image repeats across the material's repeat",
        1.0,
    ),
];

/// What the library says of this kind.
static INFO: KindInfo = KindInfo {
    name: "Image",
    doc: "A PNG or JPEG over the repeat: colour, grey value (a painted mask) and alpha",
    category: Category::Input,
    params: PARAMS,
};

impl NodeKind for Image {
    fn headline(&self) -> Option<&'static str> {
        Some("file")
    }
    fn info(&self) -> &'static KindInfo {
        &INFO
    }
    fn inputs(&self, _: &Params<'_>) -> Vec<PortDesc> {
        Vec::new()
    }
    fn outputs(&self, _: &Params<'_>) -> Vec<OutputDesc> {
        vec![
            OutputDesc::new("color", PortType::Color, "The colour, linear"),
            OutputDesc::new(
                "value",
                PortType::Float,
                "The grey value of the stored codes, 0 to 1 (not decoded)",
            ),
            OutputDesc::new("alpha", PortType::Float, "The alpha, 1 where there is none"),
        ]
    }
    fn repeat_count(&self) -> Option<&'static str> {
        Some("tiles")
    }
    fn file<'a>(&self, params: &Params<'a>) -> Option<&'a str> {
        Some(params.text("file"))
    }
    fn eval(&self, p: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field> {
        let n = ctx.len();
        let Some(picture) = ctx.picture(p.text("file")) else {
            return vec![
                Field::constant(PortType::Color.zero(), n),
                Field::constant(PortType::Float.zero(), n),
                Field::constant(PortType::Float.zero(), n),
            ];
        };
        let tiles = p.float("tiles");
        let domain = ctx.domain();
        // Every wanted output from one bilinear sample per point.
        let texels = par_map::<5>(n, |i| {
            picture.sample([domain.u[i] * tiles, domain.v[i] * tiles])
        });
        let pick = |ty: PortType, channels: &[usize], wanted: bool| Field {
            ty,
            data: if wanted {
                texels
                    .chunks_exact(5)
                    .flat_map(|t| channels.iter().map(|&c| t[c]))
                    .collect()
            } else {
                Vec::new()
            },
        };
        vec![
            pick(
                PortType::Color,
                &[LINEAR_RGB.start, LINEAR_RGB.start + 1, LINEAR_RGB.start + 2],
                ctx.wants(0),
            ),
            pick(PortType::Float, &[GREY], ctx.wants(1)),
            pick(PortType::Float, &[ALPHA], ctx.wants(2)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Code;
    use crate::link::{InRef, OutRef, Sink};
    use crate::node::ParamValue;
    use crate::nodes::testing::*;

    /// A graph in `dir` whose Image reads `file` into the roughness.
    fn graph_in(dir: &std::path::Path, file: &str) -> (crate::MaterialGraph, crate::NodeId) {
        let (mut g, id) = single("Image", &[("file", ParamValue::Text(file.into()))], &[]);
        g.folder = crate::graph::Folder::at(dir);
        g.connect(
            OutRef::new(id, "value"),
            &InRef::Sink(Sink::Pbr("roughness".into())),
        )
        .unwrap();
        (g, id)
    }

    fn save_grey(path: &std::path::Path, w: u32, f: impl Fn(u32, u32) -> u8) {
        image::GrayImage::from_fn(w, w, |x, y| image::Luma([f(x, y)]))
            .save(path)
            .unwrap();
    }

    #[test]
    fn reads_the_file_relative_to_the_graph_and_tiles_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("masks")).unwrap();
        // Left half black, right half white: a mask that tiles (both edges are sharp
        // steps inside, and the outer columns differ as much as inner neighbours do).
        save_grey(&dir.path().join("masks/half.png"), 8, |x, _| {
            if (2..6).contains(&x) { 255 } else { 0 }
        });
        let (mut g, id) = graph_in(dir.path(), "masks/half.png");
        let v = at(&g, id, "value", &[[0.0625, 0.5], [0.5, 0.5]]);
        assert_eq!((v.get(0)[0], v.get(1)[0]), (0.0, 1.0));
        g.node_mut(id)
            .unwrap()
            .params
            .insert("tiles".into(), ParamValue::Float(2.0));
        // Twice across: u = 0.25 now reads the middle of the picture.
        assert_eq!(at(&g, id, "value", &[[0.25, 0.5]]).get(0)[0], 1.0);
        assert_eq!(period(&g, id), crate::period::Period::Tiles(2));
        let report = crate::validate(&g);
        assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    }

    #[test]
    fn a_missing_file_names_the_node_and_path_and_the_rest_evaluates() {
        let dir = tempfile::tempdir().unwrap();
        let (mut g, id) = graph_in(dir.path(), "masks/gone.png");
        let noise = g.add_node("Noise").unwrap();
        g.connect(
            OutRef::new(noise, "out"),
            &InRef::Sink(Sink::Pbr("height".into())),
        )
        .unwrap();
        let report = crate::validate(&g);
        let files: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::File)
            .collect();
        assert_eq!(files.len(), 1, "{:#?}", report.diagnostics);
        assert_eq!(files[0].node, Some(id));
        assert!(files[0].message.contains("Image#"), "{}", files[0].message);
        assert!(
            files[0].message.contains("masks/gone.png"),
            "{}",
            files[0].message
        );
        assert_eq!(at(&g, id, "value", &[[0.3, 0.3]]).get(0)[0], 0.0);
        let n = grid(&g, noise, "out", 4);
        assert!(n.range().1 > n.range().0, "the noise still evaluates");
    }

    #[test]
    fn an_image_whose_edges_do_not_meet_is_a_seam_error_on_the_node() {
        let dir = tempfile::tempdir().unwrap();
        save_grey(&dir.path().join("ramp.png"), 32, |x, _| (x * 8) as u8);
        let (g, id) = graph_in(dir.path(), "ramp.png");
        let report = crate::validate(&g);
        let seam = report
            .diagnostics
            .iter()
            .find(|d| d.code == Code::Seam)
            .unwrap_or_else(|| panic!("no seam: {:#?}", report.diagnostics));
        assert_eq!(seam.node, Some(id));
        assert!(seam.message.contains("left and right"), "{}", seam.message);
    }

    #[test]
    fn no_file_chosen_is_a_warning_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let (g, id) = graph_in(dir.path(), "");
        let report = crate::validate(&g);
        assert!(!report.has_errors(), "{:#?}", report.diagnostics);
        assert!(
            report
                .for_node(id)
                .any(|d| d.code == Code::File && d.message.contains("no file"))
        );
    }
}
