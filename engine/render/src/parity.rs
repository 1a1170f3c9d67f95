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

/// The largest change of one channel between two colours.
#[must_use]
pub fn largest_change([a, b]: [[f64; 3]; 2]) -> f64 {
    (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f64::max)
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
    let budget = scene.budget();
    scene.set_budget(FrameBudget::UNLIMITED);
    let measured = unbudgeted_switch_colours(offscreen, scene, layer_idx, camera, size);
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
