//! The PBR maps a bake writes, from the graph's side.

use tuft_graph::{Domain, Evaluator, InRef, MaterialGraph, OutRef, Sink};

#[test]
fn a_float_feeds_a_colour_as_grey() {
    // As the peers do: a Float output wired where a Color is expected reads as grey.
    let mut g = MaterialGraph::new("grey");
    let noise = g.add_node("Noise").unwrap();
    g.connect(
        OutRef::new(noise, "out"),
        &InRef::Sink(Sink::Pbr("base_color".into())),
    )
    .expect("a Float into a Color is accepted");
    let report = tuft_graph::validate(&g);
    assert!(!report.has_errors(), "{:#?}", report.diagnostics);
    let (maps, _) = tuft_bake::bake_pbr(&g, 8, &mut |_| {}).unwrap();
    let noise_field = Evaluator::new(&g)
        .eval_output(&OutRef::new(noise, "out"), &Domain::grid(8, 8))
        .unwrap();
    for (c, x) in maps.base_color.iter().zip(&noise_field.data) {
        assert_eq!(*c, [*x, *x, *x]);
    }
    // A Color into a Float is still refused.
    let ramp = g.add_node("ColorRamp").unwrap();
    assert!(
        g.connect(
            OutRef::new(ramp, "out"),
            &InRef::Sink(Sink::Pbr("roughness".into())),
        )
        .is_err()
    );
}
