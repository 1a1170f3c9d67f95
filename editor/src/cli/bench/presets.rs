//! The preset cases: every engine stage timed on each shipped preset, and the editor's
//! edits of a Parameter replayed as it makes them.

use super::{Case, median_ms};
use tuft_bake as bake;
use tuft_graph::{Evaluator, MaterialGraph};

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

pub(super) fn cases(name: &str, graph: &MaterialGraph, runs: usize) -> Vec<Case> {
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
        let vertices: usize = tiles.iter().map(|t| t.drawn_vertices()).sum();
        let stored: usize = tiles.iter().map(|t| t.vertices.len()).sum();
        let triangles: usize = tiles.iter().map(|t| t.index_count() / 3).sum();
        total_triangles += triangles as u64;
        case(
            format!("{name}/{layer_name}/mesh"),
            (ms, runs),
            vec![
                ("strands", set.len() as u64),
                ("vertices", vertices as u64),
                ("stored_vertices", stored as u64),
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
    // The canopy a scene sums from every layer's set (`tuft_render::Scene::new` does it
    // for each material it plants).
    let ev = Evaluator::new(graph);
    let sets: Vec<_> = graph
        .strands
        .iter()
        .map(|(name, layer)| (ev.strand_set(name).expect("presets scatter"), layer.profile))
        .collect();
    let layers: Vec<_> = sets
        .iter()
        .map(|(set, profile)| (&**set, *profile))
        .collect();
    // And where it stands thick and thin (`tuft_strands::cover`), summed beside it.
    let plain: Vec<_> = layers.iter().map(|(set, _)| *set).collect();
    let sums: [(&str, &dyn Fn()); 2] = [
        ("canopy", &|| {
            std::hint::black_box(tuft_strands::canopy::Canopy::of(&layers, graph.repeat_m));
        }),
        ("cover", &|| {
            std::hint::black_box(tuft_strands::cover::Cover::of(&plain, graph.repeat_m));
        }),
    ];
    for (what, sum) in sums {
        let (ms, ()) = median_ms(runs, sum);
        case(
            format!("{name}/{what}"),
            (ms, runs),
            vec![("strands", total_strands)],
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
