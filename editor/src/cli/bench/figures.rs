//! Figures rather than timings: each level's coverage and the colour each switch moves,
//! per preset layer.

use super::PRESETS;
use tuft_graph::Evaluator;

/// Coverage of each level relative to level 0, per preset layer, for widening exponents
/// ½ and 1: the figures that chose the default `widen_p` (BENCHMARKS.md).
pub(super) fn levels(json: bool, only: Option<&str>) {
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
pub(super) fn switches(json: bool, only: Option<&str>, sides: u32) -> anyhow::Result<()> {
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
    for (name, material) in preset_materials(only) {
        let material = material?;
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

/// Frame size of `--elevations`: tall, so that the fade band of a switch seen from 2°
/// fills 42 rows, and narrow, so that the ground drawn at grazing views (which grows
/// with the square of the switch's distance) stays within minutes a preset.
const ELEVATION_FRAME: (u32, u32) = (160, 180);

/// The elevations `--elevations` looks from, degrees over the ground: grazing to
/// overhead.
const ELEVATIONS_DEG: [f32; 6] = [2.0, 5.0, 10.0, 25.0, 45.0, 85.0];

/// The walker's eye of `--elevations` and `--eye-height`, metres over the ground.
const EYE_M: f32 = 1.7;

/// Each switch of each preset layer on the field, seen from [`ELEVATIONS_DEG`] and from
/// a walker's eye looking at it (`tuft_render::parity::switches_seen`): the mean colour
/// move and the block-luminance correlation where the switch happens.
pub(super) fn elevations(json: bool, only: Option<&str>) -> anyhow::Result<()> {
    use tuft_render::parity::{Seen, switch_seen, switches_seen_through};
    use tuft_render::{Offscreen, Scene, SurfaceKind};
    let mut offscreen = Offscreen::new()?;
    let seen: Vec<(String, Seen)> = ELEVATIONS_DEG
        .iter()
        .map(|&deg| (format!("{deg}°"), Seen::Above(deg / 360.0)))
        .chain([(format!("eye {EYE_M} m"), Seen::EyeAt(EYE_M))])
        .collect();
    if !json {
        out!(
            "{}×{} frames on the field through {}° of view, adapter {}; per view: colour \
             move (codes) / block luminance correlation",
            ELEVATION_FRAME.0,
            ELEVATION_FRAME.1,
            tuft_render::parity::SEEN_FOV * 360.0,
            offscreen.adapter()
        );
        let heads: Vec<String> = seen.iter().map(|(h, _)| format!("{h:>12}")).collect();
        out!("{:<44} {}", "switch", heads.join(" "));
    }
    let yaw = tuft_render::Camera::default().yaw;
    for (name, material) in preset_materials(only) {
        let material = material?;
        let first = Scene::new(material.clone(), SurfaceKind::Field);
        let reuse = first.reuse();
        let layers: Vec<(String, Vec<_>)> = material
            .layers
            .iter()
            .enumerate()
            .map(|(li, l)| {
                (
                    l.name.clone(),
                    switches_seen_through(&first, li, ELEVATION_FRAME.1),
                )
            })
            .collect();
        drop(first);
        for (li, (layer, switches)) in layers.iter().enumerate() {
            for &switch in switches {
                // Each view on a scene of its own: an unlimited frame's planting is held
                // until its scene goes.
                let at = seen
                    .iter()
                    .map(|&(_, s)| {
                        let mut scene =
                            Scene::reusing(material.clone(), SurfaceKind::Field, &reuse);
                        switch_seen(
                            &mut offscreen,
                            &mut scene,
                            li,
                            switch,
                            s,
                            yaw,
                            ELEVATION_FRAME,
                        )
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let case = format!(
                    "{name}/{layer} {} → {} ({:.1} m)",
                    switch.0, switch.1, switch.2
                );
                if json {
                    let line = serde_json::json!({
                        "case": case,
                        "elevation_deg": at.iter().map(|s| round2(f64::from(s.elevation_deg))).collect::<Vec<_>>(),
                        "colour": at.iter().map(|s| round2(s.colour)).collect::<Vec<_>>(),
                        "pattern": at.iter().map(|s| round2(s.pattern)).collect::<Vec<_>>(),
                        "rows": at.iter().map(|s| s.rows).collect::<Vec<_>>(),
                        "coverage": at.iter().map(|s| round2(s.coverage)).collect::<Vec<_>>(),
                    });
                    out!("{line}");
                } else {
                    let cells: Vec<String> = at
                        .iter()
                        .map(|s| {
                            if s.coverage < 0.5 {
                                format!("{:>12}", "off field")
                            } else {
                                format!("{:>5.2} / {:.2}", s.colour, s.pattern)
                            }
                        })
                        .collect();
                    out!("{case:<44} {}", cells.join(" "));
                }
            }
        }
    }
    Ok(())
}

/// Frame size of `--eye-height`: at bias 3 its switches fall where a 960 × 540 frame's
/// do at bias 1, which a software adapter draws in seconds.
const EYE_FRAME: (u32, u32) = (320, 180);

/// The biases `--eye-height` compares: the switches as measured, and three times as far.
const EYE_BIASES: [f32; 2] = [1.0, 3.0];

/// Each preset on the field from a walker's eye, at [`EYE_BIASES`], four yaws: how far
/// apart the two frames are below the horizon (`tuft_render::compare::agreement`, 20-row
/// bands). Neither frame is cut by the budget (a budget scale would move the switches).
pub(super) fn eye_height(json: bool, only: Option<&str>) -> anyhow::Result<()> {
    use tuft_render::{Camera, FrameBudget, Offscreen, Scene, SurfaceKind, View};
    let mut offscreen = Offscreen::new()?;
    let yaws = [0.0f32, 0.25, 0.5, 0.75];
    if !json {
        out!(
            "{}×{} frames, eye 0,{EYE_M},0, pitch 0.03, bias {} against {}, adapter {}; per \
             yaw: worst 20-row band (codes), block luminance correlation",
            EYE_FRAME.0,
            EYE_FRAME.1,
            EYE_BIASES[0],
            EYE_BIASES[1],
            offscreen.adapter()
        );
    }
    for (name, material) in preset_materials(only) {
        let material = material?;
        // Each frame on a scene of its own (its cards and atlases taken over): what an
        // unlimited frame plants is held until the scene goes, and four yaws' worth at
        // bias 3 is more than this machine's memory.
        let first = Scene::new(material.clone(), SurfaceKind::Field);
        let reuse = first.reuse();
        drop(first);
        let mut cells = Vec::new();
        for yaw in yaws {
            let mut frame = |lod_bias: f32| {
                let mut scene = Scene::reusing(material.clone(), SurfaceKind::Field, &reuse);
                scene.set_budget(FrameBudget::UNLIMITED);
                let view = View {
                    camera: Camera {
                        walk_eye: Some([0.0, EYE_M, 0.0]),
                        yaw,
                        pitch: 0.03,
                        ..Camera::default()
                    },
                    width: EYE_FRAME.0,
                    height: EYE_FRAME.1,
                    lod_bias,
                    ..View::default()
                };
                offscreen.render(&mut scene, &view).map(|f| f.image)
            };
            let (a, b) = (frame(EYE_BIASES[0])?, frame(EYE_BIASES[1])?);
            cells.push(tuft_render::compare::agreement(&a, &b, 20));
        }
        if json {
            let line = serde_json::json!({
                "case": format!("{name}/eye_height"),
                "yaw": yaws,
                "worst_band": cells.iter().map(|c| round2(c.worst_band)).collect::<Vec<_>>(),
                "pattern": cells.iter().map(|c| round2(c.pattern)).collect::<Vec<_>>(),
            });
            out!("{line}");
        } else {
            let text: Vec<String> = yaws
                .iter()
                .zip(&cells)
                .map(|(y, c)| format!("yaw {y:.2}: {:.2}, {:.3}", c.worst_band, c.pattern))
                .collect();
            out!("{name:<8} {}", text.join("  "));
        }
    }
    Ok(())
}

/// The shipped presets (`only` the one named, where given) as the preview draws them,
/// their maps at 512², each built when its turn comes.
fn preset_materials(
    only: Option<&str>,
) -> impl Iterator<Item = (&'static str, anyhow::Result<tuft_render::Material>)> {
    PRESETS
        .iter()
        .filter(move |(name, _)| only.is_none_or(|o| o == *name))
        .map(|&(name, text)| {
            let doc = tuft_graph::io::from_str(text).expect("shipped presets parse");
            (
                name,
                crate::material::from_graph(&doc.graph, 512).map(|(m, _)| m),
            )
        })
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
