//! `tuft bench --field`: a walk over the field, frame by frame, as the editor's preview
//! draws it — each frame planned on the UI thread with planting deferred, and one round
//! of planting (nearest tiles first, within a budget) run after it as the editor's
//! planting thread runs it — the figures a walker's frames are held to.

use std::time::Instant;
use tuft_render::{Camera, Scene, SurfaceKind, View};

/// Frames a second the walk is stepped at.
const FPS: f32 = 60.0;
/// Walking speed, metres a second.
const SPEED: f32 = 1.5;
/// Strands a planting round plants: the editor's.
const PLANT_PER_FRAME: usize = crate::preview::PLANT_PER_ROUND;

/// How high above the field the repeat is looked at, metres.
const ABOVE_M: f32 = 12.0;

/// The side of the blocks the repeat's pattern is measured over, pixels: the house
/// pattern measure's.
pub const PATTERN_BLOCK_PX: u32 = 8;

/// How plainly the repeat shows in one frame from above.
pub struct Repeat {
    /// The autocorrelation of the frame's luminance at the repeat's period, per pixel.
    pub pixels: f64,
    /// The same over [`PATTERN_BLOCK_PX`] blocks: the patches, without the blades'
    /// own detail.
    pub blocks: f64,
    /// The frame.
    pub image: tuft_render::Image,
}

/// `material` on the field seen straight down from [`ABOVE_M`] as it is and with its
/// layers' macro variation off: how plainly the repeat shows in each frame.
pub fn repeat_from_above(
    material: &tuft_render::Material,
    size: (u32, u32),
) -> anyhow::Result<[Repeat; 2]> {
    let mut offscreen = tuft_render::Offscreen::new()?;
    let view = View {
        camera: Camera {
            walk_eye: Some([0.0, ABOVE_M, 0.0]),
            yaw: 0.0,
            pitch: 0.25,
            ..Camera::default()
        },
        width: size.0,
        height: size.1,
        ..View::default()
    };
    let period_px = material.repeat_m * view.camera.px_per_m(ABOVE_M, size.1 as f32);
    let mut plain = material.clone();
    for layer in &mut plain.layers {
        layer.macro_variation = tuft_strands::macro_variation::MacroVariation::OFF;
    }
    let mut measure = |m: tuft_render::Material| -> anyhow::Result<Repeat> {
        let mut scene = Scene::new(m, SurfaceKind::Field);
        let image = offscreen.render(&mut scene, &view)?.image;
        let flat = || anyhow::anyhow!("a flat frame from above");
        Ok(Repeat {
            pixels: image.autocorrelation(period_px, 1).ok_or_else(flat)?,
            blocks: image
                .autocorrelation(period_px, PATTERN_BLOCK_PX)
                .ok_or_else(flat)?,
            image,
        })
    };
    Ok([measure(material.clone())?, measure(plain)?])
}

/// Walks `metres` straight over the field on the lawn preset, at eye height, and prints
/// per-frame planning time, planting, memory and triangles.
pub fn run(metres: f32, json: bool, lod_bias: f32) -> anyhow::Result<()> {
    let doc = tuft_graph::io::from_str(crate::LAWN_PRESET)?;
    let (material, _) = crate::material::from_graph(&doc.graph, crate::preview::PREVIEW_MAPS)?;
    // Triangles a full-detail frame would need: every visible tile at level 0.
    let repeat = material.repeat_m;
    let triangles_per_repeat: u64 = material
        .layers
        .iter()
        .map(|l| (l.set.len() * l.profile.indices_per_strand() / 3) as u64)
        .sum();
    let tile_m = tuft_render::camera::FIELD_M / tuft_render::scene::FIELD_TILES as f32;
    let repeats_per_tile = f64::from((tile_m / repeat).powi(2));
    let above = repeat_from_above(&material, (640, 480));
    let mut scene = Scene::new(material, SurfaceKind::Field);
    scene.set_deferred_planting(true);
    let mut plant_ms: Vec<f64> = Vec::new();
    let frames = (metres / SPEED * FPS).ceil() as usize;
    // TUFT_WALK_TRACE=1: every frame whose planning or planting passed 16 ms, on stderr.
    let trace = std::env::var_os("TUFT_WALK_TRACE").is_some();
    let mut plan_ms = Vec::with_capacity(frames);
    let (mut peak, mut at_20m, mut upload) = (0u64, 0u64, 0u64);
    // What is held over the walk past its first 20 m: flat if these are close.
    let (mut low_after_20m, mut high_after_20m) = (u64::MAX, 0u64);
    let (mut drawn, mut full) = (Vec::new(), Vec::new());
    for f in 0..=frames {
        let z = -(f as f32) * SPEED / FPS;
        let view = View {
            camera: Camera {
                walk_eye: Some([0.0, 1.6, z]),
                yaw: 0.0,
                pitch: 0.03,
                ..Camera::default()
            },
            width: 1280,
            height: 720,
            lod_bias,
            ..View::default()
        };
        let start = Instant::now();
        let plan = scene.plan(&view);
        let planned = start.elapsed().as_secs_f64() * 1e3;
        plan_ms.push(planned);
        // One round of the planting thread's work, after the frame.
        let mut planting = 0.0;
        if let Some(work) = scene.planting(PLANT_PER_FRAME) {
            let start = Instant::now();
            let planted = work.run();
            upload = upload.max(planted.upload_bytes());
            scene.install(planted);
            planting = start.elapsed().as_secs_f64() * 1e3;
            plant_ms.push(planting);
        }
        let bytes = scene.resident_bytes();
        if trace && planned.max(planting) > 16.0 {
            eprintln!(
                "frame {f} at {:.2} m: planned in {planned:.1} ms, planted in {planting:.1} ms, \
                 {} tiles waiting, {} coarsened, {:.0} MB held",
                -z,
                plan.stats.tiles_pending,
                plan.stats.tiles_coarsened,
                bytes as f64 / 1_048_576.0
            );
        }
        peak = peak.max(bytes);
        if -z <= 20.0 {
            at_20m = bytes;
        } else {
            low_after_20m = low_after_20m.min(bytes);
            high_after_20m = high_after_20m.max(bytes);
        }
        drawn.push(plan.stats.triangles());
        full.push(
            (f64::from(plan.stats.tiles_visible) * repeats_per_tile * triangles_per_repeat as f64)
                as u64,
        );
    }
    let end = scene.resident_bytes();
    let mut sorted = plan_ms.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let max = sorted[sorted.len() - 1];
    let over_16 = plan_ms.iter().filter(|&&ms| ms > 16.0).count();
    let mut rounds = plant_ms.clone();
    rounds.sort_by(f64::total_cmp);
    let round = |q: f64| {
        rounds
            .get(((rounds.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
    let mb = |b: u64| b as f64 / 1_048_576.0;
    if json {
        out!(
            "{}",
            serde_json::json!({
                "case": "field/walk",
                "metres": metres,
                "frames": plan_ms.len(),
                "plan_median_ms": median,
                "plan_max_ms": max,
                "frames_over_16ms": over_16,
                "planting_rounds": rounds.len(),
                "planting_median_ms": round(0.5),
                "planting_max_ms": round(1.0),
                "resident_mb_at_20m": mb(at_20m),
                "resident_mb_after_20m_low": mb(low_after_20m.min(high_after_20m)),
                "resident_mb_after_20m_high": mb(high_after_20m),
                "upload_mb_max_round": mb(upload),
                "resident_mb_peak": mb(peak),
                "resident_mb_end": mb(end),
                "triangles_drawn_mean": mean(&drawn),
                "triangles_full_detail_mean": mean(&full),
                "repeat_autocorrelation_macro": above.as_ref().ok().map(|a| a[0].pixels),
                "repeat_autocorrelation_plain": above.as_ref().ok().map(|a| a[1].pixels),
                "repeat_block_autocorrelation_macro": above.as_ref().ok().map(|a| a[0].blocks),
                "repeat_block_autocorrelation_plain": above.as_ref().ok().map(|a| a[1].blocks),
            })
        );
    } else {
        out!(
            "field walk: {metres} m at {SPEED} m/s, {} frames at {FPS} Hz, 1280×720, eye 1.6 m",
            plan_ms.len()
        );
        out!(
            "  a frame's planning (UI thread): median {median:.2} ms, max {max:.2} ms, {over_16} frames over 16 ms"
        );
        out!(
            "  planting rounds (worker, about {PLANT_PER_FRAME} strands each): {} rounds, median {:.1} ms, max {:.1} ms",
            rounds.len(),
            round(0.5),
            round(1.0)
        );
        out!(
            "  resident strand geometry: {:.0} MB at 20 m, {:.0}–{:.0} MB after it, peak {:.0} MB, {:.0} MB at the end",
            mb(at_20m),
            mb(low_after_20m.min(high_after_20m)),
            mb(high_after_20m),
            mb(peak),
            mb(end)
        );
        out!(
            "  upload a round (what the next frame sends the GPU): at most {:.1} MB",
            mb(upload)
        );
        out!(
            "  triangles a frame: {:.2} M drawn against {:.1} M at full detail",
            mean(&drawn) / 1e6,
            mean(&full) / 1e6
        );
        match &above {
            Ok([with, without]) => out!(
                "  the repeat from {ABOVE_M} m above (luminance autocorrelation at its period, 640×480): per pixel {:.3} with macro variation, {:.3} without; over {PATTERN_BLOCK_PX}-pixel blocks {:.3} with, {:.3} without",
                with.pixels,
                without.pixels,
                with.blocks,
                without.blocks
            ),
            Err(e) => out!("  the repeat from above: not measured ({e})"),
        }
    }
    Ok(())
}
