use super::*;
use crate::camera::FIELD_M;
use crate::light::SunAngles;
pub use crate::shaders::DrawParams;

/// The surface the material is shown on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SurfaceKind {
    /// A UV sphere of radius 1 m (64 × 32), as many repeats as keep the density.
    #[default]
    Sphere,
    /// A flat square of 8 m.
    Plane,
    /// A box of 2 m.
    Box,
    /// A mesh of the author's ([`crate::Scene::on_mesh`]; built alone, the sphere).
    Mesh,
    /// Flat ground 256 m across, tiles 1 m square: a field to the horizon, seen from a
    /// walker's eye ([`crate::Camera::walk_eye`]).
    Field,
}

impl SurfaceKind {
    /// Every kind, in menu order.
    pub const ALL: [Self; 4] = [Self::Sphere, Self::Plane, Self::Box, Self::Field];

    /// The kind's name on the command line and in menus.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sphere => "sphere",
            Self::Plane => "plane",
            Self::Box => "box",
            Self::Mesh => "mesh",
            Self::Field => "field",
        }
    }

    /// The lowest camera pitch (turns) the orbit may take around this surface: on the
    /// plane the eye stays above the ground (the material is on one side only); a sphere
    /// or a box is seen from anywhere.
    #[must_use]
    pub const fn min_pitch(self) -> f32 {
        match self {
            Self::Plane | Self::Field => 0.01,
            Self::Sphere | Self::Box | Self::Mesh => -0.24,
        }
    }

    /// The side of the square a flat kind is (the plane, the field), metres; `None`
    /// for a surface that is not one plane.
    #[must_use]
    pub const fn flat_span_m(self) -> Option<f32> {
        match self {
            Self::Plane => Some(PLANE_M),
            Self::Field => Some(FIELD_M),
            Self::Sphere | Self::Box | Self::Mesh => None,
        }
    }

    /// The surface for a material whose repeat is `repeat_m`, and how far it reaches from
    /// the origin toward the camera (its radius, or half the box).
    #[must_use]
    pub fn build(self, repeat_m: f32) -> (Surface, f32) {
        let repeat_m = repeat_m.max(1e-3);
        match self {
            Self::Sphere | Self::Mesh => {
                // Enough repeats that one never covers more than its own area: placement
                // then thins toward the poles and the density stays the authored one.
                let ru = (std::f32::consts::TAU / repeat_m).ceil().max(1.0);
                let rv = (std::f32::consts::PI / repeat_m).ceil().max(1.0);
                (Surface::sphere(1.0, 64, 32, ru, rv), 1.0)
            }
            Self::Plane => (Surface::plane(PLANE_M, 8, PLANE_M / repeat_m), 0.0),
            Self::Field => (
                Surface::plane(FIELD_M, FIELD_TILES, (FIELD_M / repeat_m).round().max(1.0)),
                0.0,
            ),
            Self::Box => (Surface::cube(2.0, 4, 2.0 / repeat_m), 1.0),
        }
    }
}

/// The side of the plane, metres.
const PLANE_M: f32 = 8.0;

/// Tiles along each side of the field: 1 m tiles, so planting one tile's level 0 is a
/// frame's work (a quarter repeat of the lawn, about 58,000 strands), not a burst.
pub const FIELD_TILES: u32 = 128;

/// Wind over the strands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wind {
    /// 0 still; 1 a breeze moving a tip about 4 cm.
    pub strength: f32,
    /// Direction over the ground, in turns.
    pub direction: f32,
    /// Time in seconds (the gusts travel).
    pub time_s: f32,
}

/// Everything a frame is drawn from besides the scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Where the camera is.
    pub camera: Camera,
    /// Viewport in pixels.
    pub width: u32,
    /// Viewport height in pixels.
    pub height: u32,
    /// Automatic or forced levels.
    pub level: LevelMode,
    /// `Some(i)`: `level` applies to layer `i` alone, every other layer chooses its own
    /// (one layer's switch as the lawn shows it, the others where the distance has them).
    pub level_layer: Option<usize>,
    /// `Some([near, far])`: a forced `level` applies only to tiles that far from the eye,
    /// metres; the rest choose by distance (one switch measured where it happens,
    /// without planting the finest level to the horizon).
    pub level_within_m: Option<[f32; 2]>,
    /// `Some(m)`: tiles farther than `m` metres from the eye are not drawn (a figure
    /// measured on nearer ground, which nothing farther can cover).
    pub farthest_m: Option<f32>,
    /// Colour every strand and card by its representation.
    pub overlay: bool,
    /// `None`: no wind stage at all; `Some` with strength 0 draws the wind stage still.
    pub wind: Option<Wind>,
    /// Strands and cards take on the colour of the surface behind them as they near the
    /// card switch, and against the sky that of strands turned every way (see
    /// [`Scene::blend_distances`]); off, they keep their own at any distance.
    pub blend_to_surface: bool,
    /// Multiplies every switch distance, as engines' level-of-detail bias does: 2 keeps
    /// each level twice as far (and the blend toward the surface with it). 1 is the
    /// switches as measured.
    pub lod_bias: f32,
    /// Where the sun stands; `None`: where the shipped light puts it
    /// (`assets/light.ron`).
    pub sun: Option<SunAngles>,
    /// Exposure in stops: the frame's light is multiplied by 2^`exposure_ev` before the
    /// display's shoulder (0 draws it as lit).
    pub exposure_ev: f32,
}

impl Default for View {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            width: 640,
            height: 480,
            level: LevelMode::Auto,
            level_layer: None,
            level_within_m: None,
            farthest_m: None,
            overlay: false,
            wind: None,
            blend_to_surface: true,
            lod_bias: 1.0,
            sun: None,
            exposure_ev: 0.0,
        }
    }
}

/// The surface's vertex layout (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SurfaceVertex {
    /// Metres.
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Unit tangent along +u; w the handedness.
    pub tangent: [f32; 4],
    /// In repeats of the material.
    pub uv: [f32; 2],
    /// The macro patch value of the surface's first layer here (what its tint follows).
    pub patch: f32,
}

/// What a draw draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawTarget {
    /// The surface's triangles of one tile.
    Surface {
        /// Tile index.
        tile: usize,
    },
    /// One layer's resident strands on one tile.
    Strands {
        /// Layer index.
        layer: usize,
        /// Tile index.
        tile: usize,
    },
    /// One layer's cards on one tile.
    Cards {
        /// Layer index.
        layer: usize,
        /// Tile index.
        tile: usize,
    },
}

/// One draw call: a target, how many of its indices, and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawItem {
    /// What is drawn.
    pub target: DrawTarget,
    /// Indices from the start of the target's buffer.
    pub index_count: u32,
    /// The shader's per-draw parameters.
    pub params: DrawParams,
}

/// What one layer draws in a frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerFrameStats {
    /// The layer's name.
    pub name: String,
    /// Strands submitted (those dithering out included).
    pub strands: u64,
    /// Cards submitted.
    pub cards: u64,
    /// Triangles submitted (strands and cards).
    pub triangles: u64,
    /// Visible tiles per representation, finest first.
    pub reps: Vec<(Rep, u32)>,
}

impl LayerFrameStats {
    /// The visible tiles per representation as the editor and the command line print
    /// them: `level 0 ×6, level 1 ×19, cards ×3` (empty when no tile shows the layer).
    #[must_use]
    pub fn reps_text(&self) -> String {
        self.reps
            .iter()
            .map(|(rep, n)| format!("{rep} ×{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What a frame draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Tiles inside the view.
    pub tiles_visible: u32,
    /// Tiles of the surface.
    pub tiles_total: u32,
    /// Tiles inside the frame that face away from the camera (left undrawn).
    pub tiles_facing_away: u32,
    /// Tiles inside the frame hidden behind the surface itself (round the far side of
    /// the built-in sphere or box; left undrawn).
    pub tiles_hidden: u32,
    /// Per layer.
    pub layers: Vec<LayerFrameStats>,
    /// Tile prefixes planted and meshed for this frame.
    pub tiles_rebuilt: u32,
    /// Tile prefixes left for the next frames by the planting budget.
    pub tiles_pending: u32,
    /// Whether the frame budget forced a coarser level than the distance asked for.
    pub budget_limited: bool,
    /// How many (layer, tile) pairs the frame budget drew coarser.
    pub tiles_coarsened: u32,
    /// The scale the frame budget put on every switch distance (1: none; below 1 every
    /// switch, with its fade, that much nearer; 0 in stats of no plan).
    pub budget_scale: f32,
}

impl FrameStats {
    /// Why nothing is drawn, where the cause is the surface's own: every tile inside the
    /// frame faces away from the camera (a mesh whose faces wind the other way shows its
    /// back, and its strands stand on the far side). `None` where something is drawn or
    /// nothing is in the frame at all.
    #[must_use]
    pub fn facing_hint(&self) -> Option<String> {
        (self.tiles_visible == 0 && self.tiles_facing_away > 0).then(|| {
            format!(
                "the surface in view faces away from the camera ({} of its tiles): \
                 strands grow on the side its faces wind toward; flip the mesh's faces \
                 or look from the other side",
                self.tiles_facing_away
            )
        })
    }
}

impl FrameStats {
    /// Strands submitted over all layers.
    #[must_use]
    pub fn strands(&self) -> u64 {
        self.layers.iter().map(|l| l.strands).sum()
    }

    /// Triangles submitted over all layers (the surface not counted).
    #[must_use]
    pub fn triangles(&self) -> u64 {
        self.layers.iter().map(|l| l.triangles).sum()
    }
}

/// One frame's plan: the camera's matrices and the draws.
#[derive(Clone, Debug, PartialEq)]
pub struct FramePlan {
    /// World to clip.
    pub view_proj: Mat4,
    /// Eye position.
    pub eye: Vec3,
    /// Draws, surface first, then strands, then cards.
    pub draws: Vec<DrawItem>,
    /// Counts.
    pub stats: FrameStats,
    /// The scene's canopy, which the surface's shading reads.
    pub canopy: Canopy,
    /// The mean linear base colour of the surface's maps: a texel's own against it gives
    /// the canopy the pattern of the place.
    pub canopy_ground: Vec3,
    /// Whether the surface is one plane (the plane, the field): the surface behind a
    /// strand is then where the ray meets the root's tangent plane, however far.
    pub ground_is_plane: bool,
}

/// The overlay colour of a representation.
#[must_use]
pub fn overlay_color(rep: Rep) -> [f32; 4] {
    match rep {
        Rep::Strands(0) => [0.05, 0.65, 0.1, 1.0],
        Rep::Strands(1) => [0.85, 0.8, 0.05, 1.0],
        Rep::Strands(2) => [0.95, 0.4, 0.02, 1.0],
        Rep::Strands(_) => [0.8, 0.1, 0.05, 1.0],
        Rep::Cards => [0.75, 0.1, 0.8, 1.0],
        Rep::Relief => [0.1, 0.3, 0.9, 1.0],
    }
}
