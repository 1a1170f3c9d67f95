//! Colour parity at the switches: what each switch between a layer's representations
//! does to the material's colour, measured as the material shows it.
//!
//! At the distance where a layer switches, the layer is drawn forced to the
//! representation before and then after the switch, every other layer choosing by
//! distance as it would ([`View::level_layer`]). Two figures come of each pair of
//! frames: the mean colour of the material's pixels (coverage-weighted, the whole
//! frame), and the mean colour inside the surface's outline (the pixels the bare
//! surface and both frames cover whole). The first takes in the silhouette, the strands
//! and cards standing past the outline against the sky, which the relief has none of;
//! the second is what changed where the surface is.

use crate::camera::Camera;
use crate::compare::largest_change;
use crate::offscreen::{Image, Offscreen, RenderError, srgb_codes};
use crate::plan::{LevelMode, Rep};
use crate::scene::{FrameBudget, Scene, View};

/// One switch of one layer, measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchColour {
    /// The representation before the switch.
    pub from: Rep,
    /// The representation after it.
    pub to: Rep,
    /// Where the layer switches: metres from the camera to the surface.
    pub distance_m: f32,
    /// The material's mean colour before and after, sRGB codes (fractional).
    pub whole: [[f64; 3]; 2],
    /// The same inside the surface's outline; `None` where no pixel is covered whole.
    pub inside: Option<[[f64; 3]; 2]>,
    /// The fraction of the frame the material covers, before and after.
    pub coverage: [f64; 2],
    /// The fraction of the frame's pixels that differ between the two frames: above 0
    /// whenever the forcing did anything (two frames of one representation are
    /// identical).
    pub pixels_changed: f64,
    /// Triangles the forced layer drew before and after: they differ whenever the
    /// forcing took effect, even where the two pictures are the same.
    pub triangles: [u64; 2],
}

impl SwitchColour {
    /// The largest channel change over the whole frame, in codes.
    #[must_use]
    pub fn whole_change(&self) -> f64 {
        largest_change(self.whole)
    }

    /// The largest channel change inside the surface's outline, in codes (0 where no
    /// pixel is covered whole).
    #[must_use]
    pub fn inside_change(&self) -> f64 {
        self.inside.map_or(0.0, largest_change)
    }
}

impl std::fmt::Display for SwitchColour {
    /// `level 2 → cards at 16.22 m: 0.66 (inside 0.41), coverage 0.0135 → 0.0139`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} → {} at {:.2} m: {:.2} (inside {:.2}), coverage {:.4} → {:.4}",
            self.from,
            self.to,
            self.distance_m,
            self.whole_change(),
            self.inside_change(),
            self.coverage[0],
            self.coverage[1]
        )
    }
}

/// Every switch of layer `layer_idx` of `scene`, nearest first, seen by `camera` (its
/// distance is set to each switch's) on a `width` × `height` frame: where
/// [`Scene::switches`] puts them, measured as the module says. The frames are drawn
/// under no frame budget (the scene's own is put back after): a frame forced to a finer
/// level can pass the budget where the other does not, and the budget would then move
/// every other layer's switches in one frame of the pair only.
///
/// # Errors
/// A frame that cannot be drawn ([`RenderError`]).
pub fn switch_colours(
    offscreen: &mut Offscreen,
    scene: &mut Scene,
    layer_idx: usize,
    camera: Camera,
    size: (u32, u32),
) -> Result<Vec<SwitchColour>, RenderError> {
    with_no_budget(scene, |scene| {
        unbudgeted_switch_colours(offscreen, scene, layer_idx, camera, size)
    })
}

/// `measure` on `scene` under [`FrameBudget::UNLIMITED`], the scene's own budget put
/// back after: a budget would move the switches a measurement is of.
fn with_no_budget<T>(scene: &mut Scene, measure: impl FnOnce(&mut Scene) -> T) -> T {
    let budget = scene.budget();
    scene.set_budget(FrameBudget::UNLIMITED);
    let measured = measure(scene);
    scene.set_budget(budget);
    measured
}

fn unbudgeted_switch_colours(
    offscreen: &mut Offscreen,
    scene: &mut Scene,
    layer_idx: usize,
    camera: Camera,
    (width, height): (u32, u32),
) -> Result<Vec<SwitchColour>, RenderError> {
    let switches = scene.switches(layer_idx, &camera, height as f32);
    let mut out = Vec::with_capacity(switches.len());
    for (from, to, distance_m) in switches {
        let view = |level, level_layer| View {
            camera: Camera {
                distance_m,
                ..camera
            },
            width,
            height,
            level: LevelMode::Forced(level),
            level_layer,
            ..View::default()
        };
        let mut frame = |view: &View| -> Result<(Image, u64), RenderError> {
            let frame = offscreen.render(scene, view)?;
            let drawn = frame.stats.layers.get(layer_idx).map_or(0, |l| l.triangles);
            Ok((frame.image, drawn))
        };
        let (a, drawn_a) = frame(&view(from, Some(layer_idx)))?;
        let (b, drawn_b) = frame(&view(to, Some(layer_idx)))?;
        // The bare surface: every layer at the relief.
        let (bare, _) = frame(&view(Rep::Relief, None))?;
        let mean = |image: &Image| image.mean_color().map_or([0.0; 3], srgb_codes);
        out.push(SwitchColour {
            from,
            to,
            distance_m,
            whole: [mean(&a), mean(&b)],
            inside: a
                .mean_colors_inside(&b, &bare)
                .map(|(x, y)| [srgb_codes(x), srgb_codes(y)]),
            coverage: [a.coverage(), b.coverage()],
            pixels_changed: a
                .rgba
                .chunks_exact(4)
                .zip(b.rgba.chunks_exact(4))
                .filter(|(p, q)| p != q)
                .count() as f64
                / (a.rgba.len() / 4).max(1) as f64,
            triangles: [drawn_a, drawn_b],
        });
    }
    Ok(out)
}

/// [`switch_colours`] for every layer of `scene`, with the layer's name, in the
/// material's order.
///
/// # Errors
/// A frame that cannot be drawn ([`RenderError`]).
pub fn every_switch(
    offscreen: &mut Offscreen,
    scene: &mut Scene,
    camera: Camera,
    size: (u32, u32),
) -> Result<Vec<(String, Vec<SwitchColour>)>, RenderError> {
    let names: Vec<String> = scene
        .material()
        .layers
        .iter()
        .map(|l| l.name.clone())
        .collect();
    names
        .into_iter()
        .enumerate()
        .map(|(li, name)| Ok((name, switch_colours(offscreen, scene, li, camera, size)?)))
        .collect()
}

/// Where a switch is seen from: the elevation of the view over the ground where it
/// looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seen {
    /// This many turns above the ground (0.0056 is about 2°, 0.236 about 85°).
    Above(f32),
    /// A walker's eye this many metres over the ground, looking down at the switch:
    /// the elevation is the one the eye's height gives at the switch's distance.
    EyeAt(f32),
}

/// One switch of one layer on the field, seen from one elevation: how the two
/// representations agree on the ground where the switch happens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchSeen {
    /// The representation before the switch.
    pub from: Rep,
    /// The representation after it.
    pub to: Rep,
    /// Metres from the eye to the ground at the frame's centre: where the switch is.
    pub distance_m: f32,
    /// The view's elevation over the ground there, degrees.
    pub elevation_deg: f32,
    /// The largest channel move of the material's mean colour over the measured rows,
    /// codes.
    pub colour: f64,
    /// Correlation of the 8 × 8 block luminance there ([`crate::compare`]).
    pub pattern: f64,
    /// The rows measured: those whose ground lies within the switch's fade band.
    pub rows: u32,
    /// The share of the measured rows the material covers (the smaller of the two
    /// frames'): under a half, the band lies mostly past the field's edge (a switch
    /// farther than about 170 m through this lens) and the figures say little.
    pub coverage: f64,
    /// Triangles the forced layer drew before and after: they differ whenever the
    /// forcing took effect, even where the two pictures are the same.
    pub triangles: [u64; 2],
}

impl std::fmt::Display for SwitchSeen {
    /// `level 2 → cards at 101.40 m, 2.0°: 0.66 codes, pattern 0.962 (55 rows)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} → {} at {:.2} m, {:.1}°: {:.2} codes, pattern {:.3} ({} rows)",
            self.from,
            self.to,
            self.distance_m,
            self.elevation_deg,
            self.colour,
            self.pattern,
            self.rows
        )
    }
}

/// The vertical field of view the elevation figures look through, turns (7.2°): at
/// 2° over the ground the fade band of the switch at the frame's centre (from 3° down
/// to 1.33°) then fills 42 rows of a frame 180 tall. Levels are chosen by size on screen, so the switches
/// lie farther than a wide view's, and look the same there.
pub const SEEN_FOV: f32 = 0.02;

/// Where layer `layer_idx` of `scene` switches seen through [`SEEN_FOV`] on a frame
/// `height` rows tall: [`Scene::switches`] for the lens [`switch_seen`] looks through.
#[must_use]
pub fn switches_seen_through(scene: &Scene, layer_idx: usize, height: u32) -> Vec<(Rep, Rep, f32)> {
    scene.switches(layer_idx, &lens(0.0), height as f32)
}

fn lens(yaw: f32) -> Camera {
    Camera {
        fov_y: SEEN_FOV,
        yaw,
        ..Camera::default()
    }
}

/// One switch `(from, to, d)` of layer `layer_idx` of `scene` (which must lie on the
/// field; [`switches_seen_through`] lists them), seen from `seen` along `yaw` on a
/// `width` × `height` frame looking through [`SEEN_FOV`]: the layer is forced before
/// and then after the switch on the tiles around the switch's distance (every other
/// tile and layer chooses by distance), and the two frames are compared over the rows
/// whose ground lies within the fade band (`d / (1 + FADE_BAND)` to
/// `d · (1 + FADE_BAND)`), whole rows: through a lens this narrow a row's ground
/// lies at one distance to within half a percent. Tiles past the band are not drawn
/// (nothing behind the measured ground covers it). Drawn under no frame budget,
/// as [`switch_colours`]; what the frames plant stays in `scene`, so a caller measuring
/// many switches gives each a scene of its own.
///
/// # Errors
/// A frame that cannot be drawn ([`RenderError`]).
pub fn switch_seen(
    offscreen: &mut Offscreen,
    scene: &mut Scene,
    layer_idx: usize,
    (from, to, d): (Rep, Rep, f32),
    seen: Seen,
    yaw: f32,
    (width, height): (u32, u32),
) -> Result<SwitchSeen, RenderError> {
    use crate::plan::FADE_BAND;
    let camera = looking_at_the_field(lens(yaw), seen, d);
    let band = [d / (1.0 + FADE_BAND), d * (1.0 + FADE_BAND)];
    let rows = fade_rows(&camera, scene.reach_m(), (width, height), band);
    // Tiles are 2 m: force every tile that may hold a measured row's ground.
    let forced = [band[0] - 1.5, band[1] + 1.5];
    let ((a, drawn_a), (b, drawn_b)) = with_no_budget(scene, |scene| {
        let mut frame = |rep| -> Result<(Image, u64), RenderError> {
            let view = View {
                camera,
                width,
                height,
                level: LevelMode::Forced(rep),
                level_layer: Some(layer_idx),
                level_within_m: Some(forced),
                farthest_m: Some(forced[1]),
                ..View::default()
            };
            let frame = offscreen.render(scene, &view)?;
            let drawn = frame.stats.layers.get(layer_idx).map_or(0, |l| l.triangles);
            Ok((frame.image.rows(rows.start, rows.len() as u32), drawn))
        };
        Ok::<_, RenderError>((frame(from)?, frame(to)?))
    })?;
    let mean = |image: &Image| image.mean_color().map_or([0.0; 3], srgb_codes);
    let (x, y) = crate::compare::covered_block_luminance(&a, &b);
    Ok(SwitchSeen {
        from,
        to,
        distance_m: d,
        elevation_deg: elevation(&camera).to_degrees(),
        colour: largest_change([mean(&a), mean(&b)]),
        pattern: crate::compare::correlation(&x, &y),
        rows: rows.len() as u32,
        coverage: a.coverage().min(b.coverage()),
        triangles: [drawn_a, drawn_b],
    })
}

/// The camera that looks from `seen` at the field's ground `d` metres away, the
/// stretch of ground it measures kept on the field.
fn looking_at_the_field(lens: Camera, seen: Seen, d: f32) -> Camera {
    let turns = match seen {
        Seen::Above(turns) => turns,
        Seen::EyeAt(h) => (h / d.max(h)).asin() / std::f32::consts::TAU,
    }
    .clamp(0.001, 0.24);
    let aimed = Camera {
        pitch: turns,
        ..lens
    };
    // Looking at the origin from `d` away the ground measured reaches half as far
    // again beyond it: centred on the origin instead, it stays on the field for every
    // switch nearer than about 170 m.
    let back = aimed.direction();
    let across = glam::Vec3::new(back.x, 0.0, back.z) * (0.125 * d);
    Camera {
        walk_eye: Some((back * d + across).into()),
        ..aimed
    }
}

/// The elevation of a walker camera's view over the ground, radians.
fn elevation(camera: &Camera) -> f32 {
    camera.direction().y.clamp(-1.0, 1.0).asin()
}

/// The rows of a frame whose ground (the plane through the origin), seen down the
/// frame's middle column, lies `closest` to `farthest` metres from the eye.
fn fade_rows(
    camera: &Camera,
    reach_m: f32,
    (width, height): (u32, u32),
    [closest, farthest]: [f32; 2],
) -> std::ops::Range<u32> {
    let inverse = camera
        .view_proj(reach_m, width as f32 / height.max(1) as f32)
        .inverse();
    let eye = camera.eye(reach_m);
    let at = |row: u32, depth: f32| {
        let y = 1.0 - 2.0 * (row as f32 + 0.5) / height as f32;
        inverse.project_point3(glam::Vec3::new(0.0, y, depth))
    };
    let within = |row: u32| {
        let (near, far) = (at(row, 0.0), at(row, 1.0));
        let ray = far - near;
        if ray.y >= 0.0 {
            return false;
        }
        let ground = near + ray * (-near.y / ray.y);
        let r = (ground - eye).length();
        (closest..=farthest).contains(&r)
    };
    let first = (0..height).find(|&r| within(r)).unwrap_or(height);
    let end = (first..height).find(|&r| !within(r)).unwrap_or(height);
    first..end
}
