//! The cases on surfaces of their own: the sphere (scatter, placement and ribbons at
//! any strand count) and the author's mesh.

use super::{Case, PRESETS, median_ms};
use std::time::Instant;
use tuft_graph::{Evaluator, MaterialGraph};

/// The sphere case: `candidates` strand candidates over a 1 m UV sphere (64 × 32), a
/// noise density mask keeping about 89% of them, lengths 3–8 cm from a second noise, five
/// points per strand (ribbons of four segments); scatter, placement and ribbon meshes.
pub(super) fn sphere_case(candidates: u64, runs: usize) -> Vec<Case> {
    use tuft_graph::{InRef, Input, OutRef, ParamValue, Sink, Value};
    // One repeat spans the whole sphere; at the equator a repeat covers 2π × π m², so the
    // repeat is √(2π²) m and the area thinning keeps 2/π of the candidates overall.
    let repeat_m = (2.0 * std::f32::consts::PI * std::f32::consts::PI).sqrt();
    let per_repeat = candidates as f64 / (2.0 / std::f64::consts::PI);
    let mut g = MaterialGraph::new("sphere");
    g.repeat_m = repeat_m;
    let mask = g.add_node("Noise").expect("registered");
    let lengths = g.add_node("Noise").expect("registered");
    let density = g.add_node("Math").expect("registered");
    let length = g.add_node("Math").expect("registered");
    let set_params = |g: &mut MaterialGraph, id, params: &[(&str, ParamValue)]| {
        let n = g.node_mut(id).expect("just added");
        for (k, v) in params {
            n.params.insert((*k).to_owned(), v.clone());
        }
    };
    for (id, scale, seed) in [(mask, 8.0, 1), (lengths, 16.0, 2)] {
        set_params(
            &mut g,
            id,
            &[
                ("kind", ParamValue::Choice("gradient".into())),
                ("scale", ParamValue::Float(scale)),
                ("seed", ParamValue::Int(seed)),
            ],
        );
    }
    set_params(
        &mut g,
        density,
        &[("op", ParamValue::Choice("remap".into()))],
    );
    set_params(
        &mut g,
        length,
        &[("op", ParamValue::Choice("remap".into()))],
    );
    for (id, lo, hi) in [(density, 0.45, 1.35), (length, 0.03, 0.08)] {
        let n = g.node_mut(id).expect("just added");
        n.inputs
            .insert("out_lo".into(), Input::Const(Value::Float(lo)));
        n.inputs
            .insert("out_hi".into(), Input::Const(Value::Float(hi)));
    }
    let link = |g: &mut MaterialGraph, from, to| {
        g.connect(
            OutRef::new(from, "out"),
            &InRef::Node {
                node: to,
                port: "x".into(),
            },
        )
        .expect("well typed");
    };
    link(&mut g, mask, density);
    link(&mut g, lengths, length);
    let layer = tuft_graph::StrandLayer {
        lattice: per_repeat.sqrt().ceil() as u32,
        clump_lattice: 64,
        variation: tuft_graph::layer::Variation {
            length: 0.0,
            lean: 0.15,
            color: 0.1,
        },
        profile: tuft_graph::Profile::Ribbon { segments: 4 },
        ..Default::default()
    };
    g.strands.insert("strands".into(), layer);
    for (port, node) in [("density", density), ("length", length)] {
        g.connect(
            OutRef::new(node, "out"),
            &InRef::Sink(Sink::Strand {
                layer: "strands".into(),
                port: port.into(),
            }),
        )
        .expect("well typed");
    }
    let sphere = tuft_strands::surface::Surface::sphere(1.0, 64, 32, 1.0, 1.0);
    let profile = tuft_strands::mesh::Profile::Ribbon { segments: 4 };
    // The meshes' buffers are kept between runs, as a renderer keeps its staging buffers.
    let mut meshes = Vec::new();
    // Each stage's time per run, beside the whole: where a run's time goes.
    let mut stages: [Vec<f64>; 3] = Default::default();
    let (ms, (n_strands, (vertices, stored), triangles, kept)) = median_ms(runs, || {
        let start = Instant::now();
        let set = tuft_graph::scatter_layer(&Evaluator::new(&g), "strands").expect("valid layer");
        let scattered = start.elapsed();
        let tiles = tuft_strands::placement::place(&set, &sphere, repeat_m);
        let placed = start.elapsed();
        tuft_strands::mesh::build_tiles_into(&set, &tiles, profile, &mut meshes);
        let meshed = start.elapsed();
        for (times, t) in stages
            .iter_mut()
            .zip([scattered, placed - scattered, meshed - placed])
        {
            times.push(t.as_secs_f64() * 1e3);
        }
        let n: usize = tiles.iter().map(|t| t.strands.len()).sum();
        // Drawn (a ribbon's two sides a centreline point) and stored (one a point).
        let v: usize = meshes.iter().map(|m| m.drawn_vertices()).sum();
        let stored: usize = meshes.iter().map(|m| m.vertices.len()).sum();
        let t: usize = meshes.iter().map(|m| m.index_count() / 3).sum();
        (n, (v, stored), t, set.len())
    });
    let stage_cases = ["scatter", "placement", "ribbons"]
        .into_iter()
        .zip(stages)
        .map(|(stage, mut times)| {
            // The warm-up run is the first: left out, as median_ms leaves it out.
            times.remove(0);
            times.sort_by(f64::total_cmp);
            Case {
                name: format!("sphere/{stage}"),
                median_ms: times[times.len() / 2],
                runs,
                counts: Vec::new(),
            }
        });
    let whole = Case {
        name: "sphere/scatter+ribbons".to_owned(),
        median_ms: ms,
        runs,
        counts: vec![
            ("candidates", candidates),
            ("kept_by_density", kept as u64),
            ("strands", n_strands as u64),
            ("vertices", vertices as u64),
            ("stored_vertices", stored as u64),
            ("triangles", triangles as u64),
        ],
    };
    // The whole's cost per million strands placed, so growth with the count shows
    // beside the figures of other counts.
    let per_million = Case {
        name: "sphere/per_million_strands".to_owned(),
        median_ms: if n_strands > 0 {
            ms * 1e6 / n_strands as f64
        } else {
            0.0
        },
        runs,
        counts: Vec::new(),
    };
    std::iter::once(whole)
        .chain(stage_cases)
        .chain(std::iter::once(per_million))
        .collect()
}

/// The fur preset placed on the mesh in `path` (measured UV scale): reading the file,
/// laying it out as a surface, and planting every layer on it.
pub(super) fn mesh_cases(path: &std::path::Path, runs: usize) -> anyhow::Result<Vec<Case>> {
    let (read_ms, mesh) = median_ms(runs, || tuft_render::mesh_file::load(path));
    let mesh = mesh?;
    let doc = tuft_graph::io::from_str(PRESETS.iter().find(|(n, _)| *n == "fur").expect("fur").1)?;
    let graph = &doc.graph;
    let scale = mesh.repeats_per_uv(graph.repeat_m);
    // Looking at its winding (the note a mesh wound so the preview shows it wrong
    // gets), as the editor does on the thread that read it.
    let (winding_ms, _) = median_ms(runs, || mesh.winding_note());
    let (surface_ms, surface) = median_ms(runs, || {
        tuft_strands::surface::Surface::from_mesh(&mesh, scale)
    });
    let surface = surface?;
    let evaluator = Evaluator::new(graph);
    let sets: Vec<_> = graph
        .strands
        .keys()
        .map(|name| evaluator.strand_set(name))
        .collect::<Result<_, _>>()?;
    let (place_ms, planted) = median_ms(runs, || {
        sets.iter()
            .map(|set| {
                tuft_strands::placement::place(set, &surface, graph.repeat_m)
                    .iter()
                    .map(|t| t.strands.len() as u64)
                    .sum::<u64>()
            })
            .sum::<u64>()
    });
    let triangles = mesh.triangles.len() as u64;
    Ok(vec![
        Case {
            name: "mesh/read".into(),
            median_ms: read_ms,
            runs,
            counts: vec![("triangles", triangles)],
        },
        Case {
            name: "mesh/winding".into(),
            median_ms: winding_ms,
            runs,
            counts: vec![("triangles", triangles)],
        },
        Case {
            name: "mesh/surface".into(),
            median_ms: surface_ms,
            runs,
            counts: vec![
                ("triangles", triangles),
                ("tiles", u64::from(surface.n_tiles)),
            ],
        },
        Case {
            name: "mesh/fur/place".into(),
            median_ms: place_ms,
            runs,
            counts: vec![("triangles", triangles), ("planted", planted)],
        },
    ])
}
