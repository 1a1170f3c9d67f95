//! `tuft bench`: times the engine's stages on the shipped presets (median of several
//! runs) and prints the figures, as a table or one JSON object per line. It writes
//! nothing to disk.

use std::time::Instant;
use tuft_graph::{Evaluator, MaterialGraph, bake};

/// The presets benchmarked, built in so the command runs from any directory.
const PRESETS: [(&str, &str); 3] = [
    ("lawn", include_str!("../../../presets/lawn.ron")),
    ("fur", include_str!("../../../presets/fur.ron")),
    ("moss", include_str!("../../../presets/moss.ron")),
];

/// One measured case.
struct Case {
    name: String,
    median_ms: f64,
    runs: usize,
    counts: Vec<(&'static str, u64)>,
}

/// Runs `f` once to warm up, then `runs` times; returns the median in milliseconds and
/// the last run's result.
fn median_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut last = f();
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            last = f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], last)
}

/// Edits of one Parameter of a graph, as the editor makes them: the set cache and the
/// last scene warm, every edit a value not seen before.
struct Edits<'g> {
    graph: &'g MaterialGraph,
    parameter: tuft_graph::graph::NodeId,
    sets: std::sync::Arc<tuft_graph::cache::SetCache>,
    value: f32,
    reuse: tuft_render::Reuse,
    /// The camera whose nearest strands are planted before a scene counts as built.
    view: &'g tuft_render::View,
}

impl Edits<'_> {
    /// The median of `runs` edits, each made into a material by `material_of` (from an
    /// evaluator on the shared cache), then into a scene on the sphere from the last
    /// scene's reusable part, as the editor's worker does (`preview::scene_of`). The
    /// replaced scenes are dropped after the timing (the editor drops them on a thread
    /// of their own).
    fn median_ms(
        &mut self,
        runs: usize,
        mut material_of: impl FnMut(&Evaluator<'_>) -> Option<tuft_render::Material>,
    ) -> f64 {
        let ground = crate::preview::Ground::Kind(tuft_render::SurfaceKind::Sphere);
        let mut replaced = Vec::new();
        let (ms, ()) = median_ms(runs, || {
            self.value += 0.01;
            let mut edited = self.graph.clone();
            if let Some(node) = edited.node_mut(self.parameter) {
                node.params
                    .insert("value".into(), tuft_graph::ParamValue::Float(self.value));
            }
            let evaluator = Evaluator::with_cache(&edited, self.sets.clone());
            let scene = material_of(&evaluator).and_then(|material| {
                crate::preview::scene_of(
                    material,
                    &ground,
                    &mut crate::preview::Surfaces::default(),
                    self.view,
                    &self.reuse,
                    &|| false,
                )?
                .ok()
            });
            if let Some(scene) = scene {
                self.reuse = scene.reuse();
                replaced.push(scene);
            }
        });
        drop(replaced);
        ms
    }
}

fn cases(name: &str, graph: &MaterialGraph, runs: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let mut case = |case: String, (ms, runs): (f64, usize), counts: Vec<(&'static str, u64)>| {
        out.push(Case {
            name: case,
            median_ms: ms,
            runs,
            counts,
        });
    };
    let validate_runs = runs.max(10);
    let (ms, ()) = median_ms(validate_runs, || {
        std::hint::black_box(tuft_graph::validate(graph));
    });
    case(
        format!("{name}/validate"),
        (ms, validate_runs),
        vec![("nodes", graph.nodes.len() as u64)],
    );

    // Each layer alone, with a fresh evaluator so nothing is cached between runs.
    let mut total_strands = 0u64;
    let mut total_candidates = 0u64;
    let mut total_mesh_ms = 0.0;
    let mut total_triangles = 0u64;
    for (layer_name, layer) in &graph.strands {
        let (ms, set) = median_ms(runs, || {
            tuft_graph::scatter_layer(&Evaluator::new(graph), layer_name).expect("presets scatter")
        });
        total_strands += set.len() as u64;
        total_candidates += layer.n_candidates();
        case(
            format!("{name}/{layer_name}/scatter"),
            (ms, runs),
            vec![
                ("strands", set.len() as u64),
                ("candidates", layer.n_candidates()),
                (
                    "bytes",
                    (set.len() * tuft_strands::set::BYTES_PER_STRAND) as u64,
                ),
            ],
        );
        let (ms, _) = median_ms(runs, || {
            tuft_strands::relief::splat(&set, graph.repeat_m, tuft_graph::FIELD_RESOLUTION)
        });
        case(
            format!("{name}/{layer_name}/relief"),
            (ms, runs),
            vec![("strands", set.len() as u64), ("texels", 512 * 512)],
        );
        // The full level of one repeat on a plane: placement and meshes.
        let (ms, tiles) = median_ms(runs, || {
            tuft_strands::mesh::repeat_tiles(&set, graph.repeat_m, layer.profile)
        });
        total_mesh_ms += ms;
        let vertices: usize = tiles.iter().map(|t| t.vertices.len()).sum();
        let triangles: usize = tiles.iter().map(|t| t.index_count() / 3).sum();
        total_triangles += triangles as u64;
        case(
            format!("{name}/{layer_name}/mesh"),
            (ms, runs),
            vec![
                ("strands", set.len() as u64),
                ("vertices", vertices as u64),
                ("triangles", triangles as u64),
            ],
        );
        let (ms, n_cards) = median_ms(runs, || {
            tuft_strands::cards::group(
                &set,
                layer.clump_lattice,
                graph.repeat_m,
                layer.cards.atlas_cells,
            )
            .len()
        });
        case(
            format!("{name}/{layer_name}/cards"),
            (ms, runs),
            vec![("cards", n_cards as u64), ("strands", set.len() as u64)],
        );
        let group = tuft_strands::cards::group(
            &set,
            layer.clump_lattice,
            graph.repeat_m,
            layer.cards.atlas_cells,
        );
        let (ms, _) = median_ms(runs, || {
            tuft_strands::cards::atlas(&set, &group, graph.repeat_m, &layer.cards)
        });
        case(
            format!("{name}/{layer_name}/atlas"),
            (ms, runs),
            vec![("texels", u64::from(layer.cards.atlas_size).pow(2))],
        );
    }
    case(
        format!("{name}/mesh"),
        (total_mesh_ms, runs),
        vec![("triangles", total_triangles)],
    );
    let (ms, ()) = median_ms(runs, || {
        let ev = Evaluator::new(graph);
        for layer_name in graph.strands.keys() {
            std::hint::black_box(ev.strand_set(layer_name).expect("presets scatter"));
        }
    });
    case(
        format!("{name}/scatter"),
        (ms, runs),
        vec![("strands", total_strands), ("candidates", total_candidates)],
    );
    // The relief as the PBR half reads it: the first layer a StrandRelief node names.
    let relief_layer = graph.nodes.iter().find_map(|n| {
        n.kind()
            .and_then(|k| k.strand_layer(&n.params()))
            .map(str::to_owned)
    });
    if let Some(layer_name) = relief_layer {
        let set = Evaluator::new(graph)
            .strand_set(&layer_name)
            .expect("presets scatter");
        let (ms, _) = median_ms(runs, || {
            tuft_strands::relief::splat(&set, graph.repeat_m, tuft_graph::FIELD_RESOLUTION)
        });
        case(
            format!("{name}/relief"),
            (ms, runs),
            vec![("strands", set.len() as u64), ("texels", 512 * 512)],
        );
    }
    // The strand file as a game reads it: decode with both CRC checks.
    // Scheme 0 (`read`) and scheme 1 (`read_quantised`).
    let file = bake::strand_file(&Evaluator::new(graph)).expect("presets scatter");
    let read_runs = runs.max(10);
    for (scheme, suffix) in [
        (tuft_strands::file::Scheme::Stored, ""),
        (tuft_strands::file::Scheme::Quantised, "_quantised"),
    ] {
        let bytes = tuft_strands::file::encode_with(&file, scheme);
        let (ms, ()) = median_ms(read_runs, || {
            std::hint::black_box(tuft_strands::file::decode(&bytes).expect("it reads back"));
        });
        case(
            format!("{name}/strand_file/read{suffix}"),
            (ms, read_runs),
            vec![("bytes", bytes.len() as u64), ("strands", total_strands)],
        );
    }
    let resolution = bake::DEFAULT_RESOLUTION;
    let (ms, ()) = median_ms(runs, || {
        let ev = Evaluator::new(graph);
        std::hint::black_box(bake::bake_pbr_with(&ev, resolution, &mut |_| {}).expect("valid"));
    });
    case(
        format!("{name}/pbr"),
        (ms, runs),
        vec![("texels", (resolution * resolution) as u64)],
    );
    // The fields alone: the strand sets and reliefs the PBR half reads are already
    // scattered (as in the editor, where they are cached until a strand field changes).
    let warm = Evaluator::new(graph);
    for layer_name in graph.strands.keys() {
        let _ = warm.relief(layer_name);
    }
    let (ms, ()) = median_ms(runs, || {
        std::hint::black_box(bake::bake_pbr_with(&warm, resolution, &mut |_| {}).expect("valid"));
    });
    case(
        format!("{name}/pbr_fields"),
        (ms, runs),
        vec![("texels", (resolution * resolution) as u64)],
    );
    // What the editor's worker does with an edit before the preview shows it: the graph
    // to a material (maps, every layer scattered), the scene, the nearest tiles planted.
    // The editor's own camera (the default view in a 1280 × 720 preview).
    let editor_view = tuft_render::View {
        width: 1280,
        height: 720,
        ..tuft_render::View::default()
    };
    // A fresh evaluator, no shared sets: an edit that every layer reads.
    let (ms, built) = median_ms(runs, || {
        let evaluator = Evaluator::new(graph);
        let ground = crate::preview::Ground::Kind(tuft_render::SurfaceKind::Sphere);
        let reuse = tuft_render::Reuse::default();
        let mut surfaces = crate::preview::Surfaces::default();
        crate::preview::build_scene(
            &evaluator,
            &ground,
            &mut surfaces,
            &editor_view,
            &reuse,
            &|| false,
        )
    });
    if let Some(Ok(_)) = built {
        case(format!("{name}/edit_to_scene"), (ms, runs), vec![]);
    }
    // The editor's own path for an edit of the graph's first Parameter (the lawn's grass
    // height): only what reads the Parameter is scattered and built again.
    let parameter = graph.first_of_kind("Parameter");
    if let Some(parameter) = parameter {
        let mut edits = Edits {
            graph,
            parameter,
            sets: std::sync::Arc::default(),
            value: 1.0,
            reuse: tuft_render::Reuse::default(),
            view: &editor_view,
        };
        // The whole rebuild: maps and layers (`preview::build_scene`).
        let ms = edits.median_ms(runs, |evaluator| {
            let (material, _) =
                crate::material::from_evaluator(evaluator, crate::preview::PREVIEW_MAPS).ok()?;
            Some(material)
        });
        case(
            format!("{name}/edit_parameter_to_scene"),
            (ms, runs),
            vec![],
        );
        // The first of the editor's two landings for the same edit: the layers scattered
        // on the last graph's maps and the nearest tiles planted (what the editor's
        // `edit_to_first_frame` waits for; the maps follow in a second landing).
        if let Ok(maps) =
            crate::material::maps_of(&Evaluator::new(graph), crate::preview::PREVIEW_MAPS)
        {
            let ms = edits.median_ms(runs, |evaluator| {
                crate::material::wearing(evaluator, maps.clone()).ok()
            });
            case(
                format!("{name}/edit_parameter_to_strands"),
                (ms, runs),
                vec![],
            );
        }
    }
    // The preview's CPU side of a frame on the sphere (culling, level choice per tile and
    // layer, draw ranges) once the tiles in view are planted: what every frame costs while
    // the camera holds still or orbits within the same levels.
    if let Ok((material, _)) = crate::material::from_graph(graph, 256) {
        let view = tuft_render::View {
            width: 1280,
            height: 720,
            ..tuft_render::View::default()
        };
        // From a material to the first frame's plan: cards grouped and planted, atlases
        // drawn, the tiles in view planted and meshed.
        let (ms, first) = median_ms(runs, || {
            let mut scene =
                tuft_render::Scene::new(material.clone(), tuft_render::SurfaceKind::Sphere);
            scene.plan(&view)
        });
        case(
            format!("{name}/preview_scene"),
            (ms, runs),
            vec![
                ("tiles_planted", u64::from(first.stats.tiles_rebuilt)),
                ("strands", first.stats.strands()),
                ("triangles", first.stats.triangles()),
            ],
        );
        let mut scene = tuft_render::Scene::new(material, tuft_render::SurfaceKind::Sphere);
        let first = scene.plan(&view);
        let (ms, plan) = median_ms(runs.max(20), || scene.plan(&view));
        case(
            format!("{name}/frame_plan"),
            (ms, runs.max(20)),
            vec![
                ("tiles_visible", u64::from(plan.stats.tiles_visible)),
                ("draws", plan.draws.len() as u64),
                ("strands", plan.stats.strands()),
                ("triangles", plan.stats.triangles()),
                ("tiles_planted_first", u64::from(first.stats.tiles_rebuilt)),
                ("tiles_planted_after", u64::from(plan.stats.tiles_rebuilt)),
            ],
        );
    }
    // The whole bake, in memory: scatter, then the maps and their PNGs beside the strand
    // file's encoding, which they never read (as `tuft bake` orders them; it meshes the
    // layers on the strand file's side too).
    let (ms, bytes) = median_ms(runs, || {
        let ev = Evaluator::new(graph);
        let strands = bake::strand_file(&ev).expect("presets scatter");
        let (file, pngs) = tuft_strands::par::join(
            "tuft bench strands",
            || tuft_strands::file::encode(&strands),
            || {
                let maps = bake::bake_pbr_with(&ev, resolution, &mut |_| {}).expect("valid");
                bake::encode_maps(&maps).expect("encodable")
            },
        );
        pngs.iter().map(Vec::len).sum::<usize>() + file.len()
    });
    case(
        format!("{name}/bake"),
        (ms, runs),
        vec![("strands", total_strands), ("bytes", bytes as u64)],
    );
    out
}

/// The sphere case: `candidates` strand candidates over a 1 m UV sphere (64 × 32), a
/// noise density mask keeping about 89% of them, lengths 3–8 cm from a second noise, five
/// points per strand (ribbons of four segments); scatter, placement and ribbon meshes.
fn sphere_case(candidates: u64, runs: usize) -> Vec<Case> {
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
    let (ms, (n_strands, vertices, triangles, kept)) = median_ms(runs, || {
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
        let v: usize = meshes.iter().map(|m| m.vertices.len()).sum();
        let t: usize = meshes.iter().map(|m| m.index_count() / 3).sum();
        (n, v, t, set.len())
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

/// Coverage of each level relative to level 0, per preset layer, for widening exponents
/// ½ and 1: the figures that chose the default `widen_p` (BENCHMARKS.md).
fn levels(json: bool, only: Option<&str>) {
    for (name, text) in PRESETS {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let doc = tuft_graph::io::from_str(text).expect("shipped presets parse");
        let graph = &doc.graph;
        let ev = Evaluator::new(graph);
        for (layer_name, layer) in &graph.strands {
            let set = ev.strand_set(layer_name).expect("presets scatter");
            for p in [0.5f32, 1.0] {
                let settings = tuft_strands::levels::LevelSettings {
                    widen_p: p,
                    ..layer.levels.clone()
                };
                let coverage: Vec<f32> =
                    tuft_strands::levels::reports(&set, &settings, layer.profile, graph.repeat_m)
                        .iter()
                        .map(|r| (r.coverage * 1000.0).round() / 1000.0)
                        .collect();
                let case = format!("{name}/{layer_name}/levels_p{p}");
                if json {
                    let line = serde_json::json!({"case": case, "keep": settings.keep, "coverage": coverage});
                    out!("{line}");
                } else {
                    out!("{case:<28} keep {:?} coverage {coverage:?}", settings.keep);
                }
            }
        }
    }
}

/// Frame size of `--switches`: the switch test's.
const SWITCH_FRAME: (u32, u32) = (320, 240);

/// The colour each switch of each preset layer moves (`tuft_render::parity`), seen
/// from `sides` cameras around the sphere: the preview's default first, the others
/// turned evenly from it. Figures, not timings.
fn switches(json: bool, only: Option<&str>, sides: u32) -> anyhow::Result<()> {
    use tuft_render::parity::every_switch;
    use tuft_render::{Camera, Offscreen, Scene, SurfaceKind};
    let mut offscreen = Offscreen::new()?;
    let yaws: Vec<f32> = (0..sides.max(1))
        .map(|k| (Camera::default().yaw + k as f32 / sides.max(1) as f32).fract())
        .collect();
    if !json {
        out!(
            "{}×{} frames, adapter {}; per side: whole frame (inside the outline), sRGB codes",
            SWITCH_FRAME.0,
            SWITCH_FRAME.1,
            offscreen.adapter()
        );
        let heads: Vec<String> = yaws.iter().map(|y| format!("yaw {y:.3}")).collect();
        out!("{:<44} {}", "switch", heads.join("  "));
    }
    for (name, text) in PRESETS {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let doc = tuft_graph::io::from_str(text).expect("shipped presets parse");
        let (material, _) = crate::material::from_graph(&doc.graph, 512)?;
        let mut scene = Scene::new(material, SurfaceKind::Sphere);
        // Each side's switches of every layer.
        let per_side = yaws
            .iter()
            .map(|&yaw| {
                let camera = Camera {
                    yaw,
                    ..Camera::default()
                };
                every_switch(&mut offscreen, &mut scene, camera, SWITCH_FRAME)
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (li, (layer, first_side)) in per_side[0].iter().enumerate() {
            for (i, first) in first_side.iter().enumerate() {
                let at: Vec<_> = per_side
                    .iter()
                    .filter_map(|side| side[li].1.get(i))
                    .collect();
                let case = format!(
                    "{name}/{layer} {} → {} ({:.2} m)",
                    first.from, first.to, first.distance_m
                );
                if json {
                    let whole: Vec<f64> = at.iter().map(|s| round2(s.whole_change())).collect();
                    let inside: Vec<f64> = at.iter().map(|s| round2(s.inside_change())).collect();
                    let line = serde_json::json!({
                        "case": case, "yaw": yaws, "whole": whole, "inside": inside,
                    });
                    out!("{line}");
                } else {
                    let cells: Vec<String> = at
                        .iter()
                        .map(|s| format!("{:.2} ({:.2})", s.whole_change(), s.inside_change()))
                        .collect();
                    out!("{case:<44} {}", cells.join("  "));
                }
            }
        }
    }
    Ok(())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The fur preset placed on the mesh in `path` (measured UV scale): reading the file,
/// laying it out as a surface, and planting every layer on it.
fn mesh_cases(path: &std::path::Path, runs: usize) -> anyhow::Result<Vec<Case>> {
    let (read_ms, mesh) = median_ms(runs, || tuft_render::mesh_file::load(path));
    let mesh = mesh?;
    let doc = tuft_graph::io::from_str(PRESETS.iter().find(|(n, _)| *n == "fur").expect("fur").1)?;
    let graph = &doc.graph;
    let scale = mesh.repeats_per_uv(graph.repeat_m);
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

pub fn run(
    json: bool,
    runs: usize,
    only: Option<&str>,
    sphere: Option<u64>,
    mesh: Option<&std::path::Path>,
    with_levels: bool,
    with_switches: Option<u32>,
) -> std::process::ExitCode {
    if let Some(name) = only
        && !PRESETS.iter().any(|(p, _)| *p == name)
    {
        eprintln!("tuft bench: no preset {name:?} (lawn, fur, moss)");
        return std::process::ExitCode::from(2);
    }
    if with_levels {
        levels(json, only);
        return std::process::ExitCode::SUCCESS;
    }
    if let Some(sides) = with_switches {
        return match switches(json, only, sides) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tuft bench --switches: {e:#}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if !json {
        out!(
            "{:<28} {:>10} {:>5}  counts   ({} threads)",
            "case",
            "median ms",
            "runs",
            rayon::current_num_threads()
        );
    }
    let print = |case: &Case| {
        if json {
            let mut obj = serde_json::json!({
                "case": case.name,
                "median_ms": (case.median_ms * 1000.0).round() / 1000.0,
                "runs": case.runs,
                "threads": rayon::current_num_threads(),
            });
            for (k, v) in &case.counts {
                obj[*k] = (*v).into();
            }
            out!("{obj}");
        } else {
            let counts: Vec<String> = case
                .counts
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            out!(
                "{:<28} {:>10.2} {:>5}  {}",
                case.name,
                case.median_ms,
                case.runs,
                counts.join(" ")
            );
        }
    };
    if let Some(path) = mesh {
        match mesh_cases(path, runs) {
            Ok(cases) => cases.iter().for_each(&print),
            Err(e) => {
                eprintln!("tuft bench --mesh: {e:#}");
                return std::process::ExitCode::FAILURE;
            }
        }
        if only.is_none() && sphere.is_none() {
            return std::process::ExitCode::SUCCESS;
        }
    }
    if let Some(candidates) = sphere {
        for case in sphere_case(candidates, runs) {
            print(&case);
        }
        if only.is_none() {
            return std::process::ExitCode::SUCCESS;
        }
    }
    for (name, text) in PRESETS {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let doc = tuft_graph::io::from_str(text).expect("shipped presets parse");
        for case in cases(name, &doc.graph, runs) {
            print(&case);
        }
    }
    std::process::ExitCode::SUCCESS
}
