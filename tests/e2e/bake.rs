//! The PBR bake of the presets: maps that wrap seamlessly.

use tuft_bake as bake;
use tuft_graph::naming::MAP_NAMES;
use tuft_tests::{presets, wrap_and_interior_steps};

#[test]
fn every_preset_bakes_maps_that_wrap_seamlessly() {
    let dir = tempfile::tempdir().unwrap();
    for path in presets() {
        let doc = tuft_graph::io::load(&path).unwrap();
        let (maps, diags) = bake::bake_pbr(&doc.graph, 256, &mut |_| {}).unwrap();
        assert!(diags.is_empty(), "{}: {diags:#?}", path.display());
        let stem = tuft_graph::naming::file_stem(&doc.graph.name);
        let written = bake::write_maps(&maps, dir.path(), &stem).unwrap();
        assert_eq!(written.len(), MAP_NAMES.len());
        for (file, map) in written.iter().zip(MAP_NAMES) {
            let img = image::open(file).unwrap();
            assert_eq!((img.width(), img.height()), (256, 256), "{map}");
            let (wrap, interior) = wrap_and_interior_steps(&img);
            assert!(
                wrap <= interior,
                "{}: {map} jumps by {wrap} across its edges but at most {interior} inside",
                path.display()
            );
            let expected_depth = if map == "height" {
                image::ColorType::L16
            } else if matches!(map, "base_color" | "normal" | "orm") {
                image::ColorType::Rgb8
            } else {
                image::ColorType::L8
            };
            assert_eq!(img.color(), expected_depth, "{map}");
        }
    }
}

#[test]
fn a_seam_shows_in_the_maps_when_validation_says_so() {
    // The check above could pass on flat maps; this one proves it sees a real seam.
    let doc = tuft_graph::io::load(&tuft_tests::data("non_integer_scale.ron")).unwrap();
    let (maps, _) = bake::bake_pbr(&doc.graph, 128, &mut |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let written = bake::write_maps(&maps, dir.path(), "seam").unwrap();
    let (wrap, interior) = wrap_and_interior_steps(&image::open(&written[0]).unwrap());
    assert!(wrap > interior, "wrap {wrap} vs interior {interior}");
}
