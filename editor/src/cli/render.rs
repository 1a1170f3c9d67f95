//! `tuft render`: one preview frame, offscreen, on whatever adapter wgpu finds.

use anyhow::Context as _;
use std::path::Path;
use std::process::ExitCode;
use tuft_graph::limits::{MAX_FRAME_PIXELS, MAX_FRAME_SIDE};
use tuft_render::{Camera, LevelMode, Offscreen, Rep, Scene, SurfaceKind, View, Wind};

pub use crate::frame_file::BACKGROUND;

/// What `tuft render` is asked for, declared once: the command line's options, parsed.
#[derive(Clone, Debug, PartialEq, clap::Args)]
pub struct Options {
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "960x540", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Camera distance from the surface, metres.
    #[arg(long, default_value_t = 2.0, value_parser = super::numbers::distance, allow_hyphen_values = true)]
    pub distance: f32,
    /// auto, a level number, cards or relief.
    #[arg(long, default_value = "auto", value_parser = parse_level)]
    pub level: LevelMode,
    /// Apply `--level` to this strand layer alone; the others choose by distance.
    #[arg(long)]
    pub layer: Option<String>,
    /// `levels`: colour each strand and card by its active level.
    #[arg(long, value_parser = ["levels"])]
    pub overlay: Option<String>,
    /// sphere, plane, box, field (flat ground 256 m across; see --eye), or the path of
    /// a mesh (.glb, .gltf, .obj) laid out by its UVs. Default: the mesh the document
    /// previews on in the editor (its layout keeps it), else the sphere.
    #[arg(long, value_parser = parse_surface)]
    pub surface: Option<Surface>,
    /// Repeats of the material per UV unit of a `--surface` mesh (default: measured
    /// from the mesh, so the material keeps its size in metres).
    #[arg(long, value_parser = super::numbers::uv_scale)]
    pub uv_scale: Option<f32>,
    /// Stand the camera at X,Y,Z metres (a walker's eye, e.g. 0,1.6,0 on the field)
    /// and look along --yaw, --pitch (positive looks down) instead of orbiting.
    #[arg(long, value_parser = parse_eye, allow_hyphen_values = true)]
    pub eye: Option<[f32; 3]>,
    /// Wind strength (0 draws the wind stage at rest; omit for no wind stage).
    #[arg(long, value_parser = super::numbers::wind, allow_hyphen_values = true)]
    pub wind: Option<f32>,
    /// Camera turn around the vertical, in turns.
    #[arg(long, default_value_t = 0.08, value_parser = super::numbers::yaw, allow_hyphen_values = true)]
    pub yaw: f32,
    /// Camera elevation, in turns.
    #[arg(long, default_value_t = 0.07, value_parser = super::numbers::pitch, allow_hyphen_values = true)]
    pub pitch: f32,
    /// Strands and cards keep their own colour at every distance instead of
    /// blending toward the surface behind them as they near the card switch.
    #[arg(long)]
    pub own_colour: bool,
    /// Multiplies every switch distance, as an engine's level-of-detail bias does: 2
    /// keeps each level twice as far.
    #[arg(long, default_value_t = 1.0, value_parser = super::numbers::lod_bias)]
    pub lod_bias: f32,
    /// Where the sun stands, AZIMUTH,ELEVATION in turns (0,0.05: low over the ground
    /// toward +z; 0.25 elevation is overhead). Default: the shipped light's sun
    /// (`assets/light.ron`).
    #[arg(long, value_parser = super::numbers::sun, allow_hyphen_values = true)]
    pub sun: Option<tuft_render::SunAngles>,
    /// Exposure in stops: the frame's light times 2^EV before the display's shoulder.
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::exposure, allow_hyphen_values = true)]
    pub exposure: f32,
    /// The camera's vertical field of view, in turns (0.125 is 45°).
    #[arg(long, default_value_t = 0.125, value_parser = super::numbers::fov)]
    pub fov: f32,
    /// Write N frames turning the camera once round (yaw from --yaw in steps of 1/N
    /// turn), to OUT's name with _000, _001, … before `.png`; the scene is built once.
    #[arg(long, value_name = "N", value_parser = super::numbers::turntable)]
    pub turntable: Option<u32>,
    /// The most strand and card triangles the frame may draw (and 128 bytes of geometry
    /// each) before every switch comes nearer (the preview's budget is 16777216); raise
    /// it to draw a high --lod-bias as asked.
    #[arg(long, value_parser = super::numbers::triangle_budget)]
    pub triangle_budget: Option<u64>,
}

/// Parses `WxH`.
///
/// # Errors
/// Anything but two positive integers joined by `x`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size `{text}` is not WIDTHxHEIGHT"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| (1..=MAX_FRAME_SIDE).contains(v))
            .ok_or_else(|| format!("size `{text}`: each side must be 1..={MAX_FRAME_SIDE} pixels"))
    };
    let (w, h) = (parse(w)?, parse(h)?);
    if u64::from(w) * u64::from(h) > MAX_FRAME_PIXELS {
        return Err(format!(
            "size `{text}`: {} pixels; a frame may have at most {MAX_FRAME_PIXELS} (7680x4320)",
            u64::from(w) * u64::from(h)
        ));
    }
    Ok((w, h))
}

/// Parses `X,Y,Z` in metres, each finite and within 10 km.
///
/// # Errors
/// Anything else.
pub fn parse_eye(text: &str) -> Result<[f32; 3], String> {
    let parts: Vec<f32> = text
        .split(',')
        .map(|p| p.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("eye `{text}` is not X,Y,Z in metres"))?;
    match parts[..] {
        [x, y, z] if parts.iter().all(|v| v.is_finite() && v.abs() <= 10_000.0) => Ok([x, y, z]),
        _ => Err(format!(
            "eye `{text}` is not three finite numbers X,Y,Z within 10 km"
        )),
    }
}

/// Parses `auto`, a level number, `cards` or `relief`.
///
/// # Errors
/// Anything else.
pub fn parse_level(text: &str) -> Result<LevelMode, String> {
    match text {
        "auto" => Ok(LevelMode::Auto),
        "cards" => Ok(LevelMode::Forced(Rep::Cards)),
        "relief" => Ok(LevelMode::Forced(Rep::Relief)),
        n => n
            .parse::<usize>()
            .map(|k| LevelMode::Forced(Rep::Strands(k)))
            .map_err(|_| format!("level `{text}` is not auto, a level number, cards or relief")),
    }
}

/// What `--surface` names: a built-in surface or a mesh file.
#[derive(Clone, Debug, PartialEq)]
pub enum Surface {
    /// Sphere, plane or box.
    Kind(SurfaceKind),
    /// A `.glb`, `.gltf` or `.obj` file.
    Mesh(std::path::PathBuf),
}

/// Parses a surface name, or the path of a mesh file.
///
/// # Errors
/// An unknown name that is not a mesh file's path either.
pub fn parse_surface(text: &str) -> Result<Surface, String> {
    if let Some(k) = SurfaceKind::ALL.into_iter().find(|k| k.name() == text) {
        return Ok(Surface::Kind(k));
    }
    let path = std::path::PathBuf::from(text);
    if tuft_render::mesh_file::is_mesh_file(&path) {
        Ok(Surface::Mesh(path))
    } else {
        Err(format!(
            "surface `{text}` is not sphere, plane, box or field, nor a .glb, .gltf or .obj mesh"
        ))
    }
}

/// `material` on the surface `o` names: a mesh is read and laid out by its UVs at
/// `o.uv_scale` repeats per UV unit, or measured so the material keeps its size.
fn scene_on(material: tuft_render::Material, o: &Options) -> anyhow::Result<Scene> {
    match o
        .surface
        .as_ref()
        .unwrap_or(&Surface::Kind(SurfaceKind::Sphere))
    {
        Surface::Kind(kind) => Ok(Scene::new(material, *kind)),
        Surface::Mesh(path) => {
            let mesh = tuft_render::mesh_file::load(path)?;
            // The reader has checked the mesh.
            if let Some(note) = mesh.winding_note() {
                out!("note: {}: {note}", path.display());
            }
            let scale = o
                .uv_scale
                .unwrap_or_else(|| mesh.repeats_per_uv(material.repeat_m));
            let surface = tuft_strands::surface::Surface::from_mesh(&mesh, scale)
                .with_context(|| format!("{}", path.display()))?;
            Ok(Scene::on_mesh(
                material,
                std::sync::Arc::new(surface),
                &tuft_render::Reuse::default(),
            ))
        }
    }
}

/// Renders `file` (a graph) or a baked set (its folder or its manifest).
pub fn run(file: &Path, out: &Path, options: &Options) -> ExitCode {
    if let Err(why) = crate::frame_file::check_png_path(out) {
        eprintln!("tuft render: --out {why}");
        return ExitCode::FAILURE;
    }
    let set = tuft_render::baked::set_at(file).or_else(|| file.is_dir().then_some(file));
    let material = if let Some(set) = set {
        // A baked set: its own files alone, no graph.
        let material = tuft_render::baked::load(set).map_err(anyhow::Error::from);
        if material.is_ok() {
            out!("note: {}", tuft_render::baked::MESHES_NOTE);
        }
        material
    } else {
        let doc = match super::load_checked(file, "rendered", false) {
            Ok(doc) => doc,
            Err(code) => return code,
        };
        // The mesh the editor previews the document on, where the command line names no
        // surface: the same picture, and the same notes about it, as the editor shows.
        if options.surface.is_none()
            && let Some(mesh) = &doc.preview_mesh
        {
            let folder = doc.graph.folder.get().map(Path::to_owned);
            let path = tuft_graph::images::resolve(folder.as_deref(), &mesh.path);
            out!("surface: {} (the document's preview mesh)", path.display());
            let options = Options {
                surface: Some(Surface::Mesh(path)),
                uv_scale: options.uv_scale.or(mesh.repeats_per_uv),
                ..options.clone()
            };
            return finish(
                crate::material::from_graph(&doc.graph, crate::material::PREVIEW_RESOLUTION)
                    .map(|(m, _)| m),
                out,
                &options,
            );
        }
        crate::material::from_graph(&doc.graph, crate::material::PREVIEW_RESOLUTION).map(|(m, _)| m)
    };
    finish(material, out, options)
}

/// Renders `material` as `options` say, or says why not.
fn finish(
    material: anyhow::Result<tuft_render::Material>,
    out: &Path,
    options: &Options,
) -> ExitCode {
    match material.and_then(|m| render(m, out, options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tuft render: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn render(material: tuft_render::Material, out: &Path, o: &Options) -> anyhow::Result<()> {
    let level_layer = match &o.layer {
        None => None,
        Some(name) => Some(
            material
                .layers
                .iter()
                .position(|l| &l.name == name)
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        material.layers.iter().map(|l| l.name.as_str()).collect();
                    anyhow::anyhow!(
                        "no strand layer `{name}` (the layers: {})",
                        names.join(", ")
                    )
                })?,
        ),
    };
    if let LevelMode::Forced(Rep::Strands(k)) = o.level {
        let asked: Vec<&tuft_render::material::Layer> = match level_layer {
            Some(i) => vec![&material.layers[i]],
            None => material.layers.iter().collect(),
        };
        // A level some layer has is drawn (a layer with fewer draws its coarsest); a
        // level none has is a mistake, not a picture of the coarsest.
        if asked.iter().all(|l| k >= l.levels.keep.len()) {
            let have: Vec<String> = asked
                .iter()
                .map(|l| format!("{} 0–{}", l.name, l.levels.keep.len().saturating_sub(1)))
                .collect();
            anyhow::bail!(
                "no strand level {k} (the levels: {}; or cards, relief)",
                if have.is_empty() {
                    "no strand layers".to_owned()
                } else {
                    have.join(", ")
                }
            );
        }
    }
    let mut scene = scene_on(material, o)?;
    if let Some(triangles) = o.triangle_budget {
        scene.set_budget(tuft_render::FrameBudget::of_triangles(triangles));
    }
    let kind = scene.kind();
    let mut offscreen = Offscreen::new()?;
    let view = View {
        // Below the plane there is nothing to see: the eye is kept above it.
        camera: Camera {
            yaw: o.yaw,
            pitch: o.pitch,
            distance_m: o.distance,
            walk_eye: o.eye,
            fov_y: o.fov,
        }
        .kept_above(kind.min_pitch()),
        width: o.size.0,
        height: o.size.1,
        level: o.level,
        overlay: o.overlay.is_some(),
        wind: o.wind.map(|strength| Wind {
            strength,
            direction: 0.1,
            time_s: 0.0,
        }),
        blend_to_surface: !o.own_colour,
        level_layer,
        level_within_m: None,
        farthest_m: None,
        lod_bias: o.lod_bias,
        sun: o.sun,
        exposure_ev: o.exposure,
    };
    let Some(turns) = o.turntable else {
        let frame = offscreen.render(&mut scene, &view)?;
        crate::frame_file::write_png(&frame.image, out)?;
        report(&offscreen, &frame);
        out!("{}", out.display());
        return Ok(());
    };
    // Every frame first, then the figures of the first: the turn's frames share the scene.
    let mut first = None;
    for (i, path) in turntable_paths(out, turns).iter().enumerate() {
        let mut turned = view;
        turned.camera.yaw = view.camera.yaw + i as f32 / turns as f32;
        let frame = offscreen.render(&mut scene, &turned)?;
        crate::frame_file::write_png(&frame.image, path)?;
        out!("{}", path.display());
        first.get_or_insert(frame);
    }
    if let Some(frame) = first {
        out!("the first frame:");
        report(&offscreen, &frame);
    }
    Ok(())
}

/// The file of frame `i` of a `turns`-frame turntable written as `out`: its name with
/// the frame's number, zero-padded to the width of the last, before `.png`.
fn turntable_name(out: &Path, i: u32, turns: u32) -> String {
    let stem = out
        .file_stem()
        .map_or_else(|| "frame".into(), |s| s.to_string_lossy().into_owned());
    let width = turns.saturating_sub(1).max(1).to_string().len().max(3);
    format!("{stem}_{i:0width$}.png")
}

/// Every file of a `turns`-frame turntable written as `out`, in order.
fn turntable_paths(out: &Path, turns: u32) -> Vec<std::path::PathBuf> {
    (0..turns)
        .map(|i| out.with_file_name(turntable_name(out, i, turns)))
        .collect()
}

/// What `frame` drew: the adapter, the GPU time, the tiles and triangles, each layer's
/// levels, the budget's cut and the mean colour.
fn report(offscreen: &Offscreen, frame: &tuft_render::Frame) {
    out!("adapter: {}", offscreen.adapter());
    match frame.gpu_ms {
        Some(ms) => out!("GPU time: {ms:.2} ms (information only)"),
        None => out!("GPU time: not reported by this adapter"),
    }
    let s = &frame.stats;
    out!(
        "tiles: {} of {} in view; drawn: {} strands, {} triangles",
        s.tiles_visible,
        s.tiles_total,
        s.strands(),
        s.triangles()
    );
    if let Some(hint) = s.facing_hint() {
        out!("nothing drawn: {hint}");
    }
    for layer in &s.layers {
        let reps = layer.reps_text();
        out!(
            "  {}: {} strands, {} cards, {} triangles; tiles at {}",
            layer.name,
            layer.strands,
            layer.cards,
            layer.triangles,
            if reps.is_empty() {
                "—".to_owned()
            } else {
                reps
            }
        );
    }
    if s.budget_limited {
        out!(
            "  (the frame budget put every switch at {:.0}% of its distance, {} tiles coarser \
             than their distance asks; --triangle-budget raises it)",
            100.0 * s.budget_scale,
            s.tiles_coarsened
        );
    }
    // What the colour-parity figures compare (BENCHMARKS.md): the material's pixels only,
    // each weighted by its coverage.
    if let Some(linear) = frame.image.mean_color() {
        let [r, g, b] = tuft_render::offscreen::srgb_codes(linear);
        out!(
            "mean colour: ({r:.2}, {g:.2}, {b:.2}) sRGB codes over the material's pixels; coverage {:.4}",
            frame.image.coverage()
        );
    }
}
