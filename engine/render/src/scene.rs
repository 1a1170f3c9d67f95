//! The CPU side of the preview: a material planted on a surface, tile by tile, and the
//! plan of one frame — culling, level choice per tile and layer, draw ranges.
//!
//! A tile of a layer holds ("resident") only the rank prefix its level needs: a far tile
//! plants and meshes its coarsest level, and grows when the camera comes near. Because
//! tiles are rank-sorted, every nearer level of what is resident is a prefix of the same
//! buffers, so a frame that changes no tile's prefix uploads nothing.

use crate::camera::Camera;
use crate::material::Material;
use crate::plan::{Choice, LevelMode, Rep, choose};
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use tuft_strands::cards::{self, Atlas};
use tuft_strands::mesh::{TileMesh, build_tile_into};
use tuft_strands::num::median;
use tuft_strands::placement::{PlacedTile, Placer};
use tuft_strands::surface::Surface;

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
}

impl SurfaceKind {
    /// Every kind, in menu order.
    pub const ALL: [Self; 3] = [Self::Sphere, Self::Plane, Self::Box];

    /// The kind's name on the command line and in menus.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sphere => "sphere",
            Self::Plane => "plane",
            Self::Box => "box",
        }
    }

    /// The surface for a material whose repeat is `repeat_m`, and how far it reaches from
    /// the origin toward the camera (its radius, or half the box).
    #[must_use]
    pub fn build(self, repeat_m: f32) -> (Surface, f32) {
        let repeat_m = repeat_m.max(1e-3);
        match self {
            Self::Sphere => {
                // Enough repeats that one never covers more than its own area: placement
                // then thins toward the poles and the density stays the authored one.
                let ru = (std::f32::consts::TAU / repeat_m).ceil().max(1.0);
                let rv = (std::f32::consts::PI / repeat_m).ceil().max(1.0);
                (Surface::sphere(1.0, 64, 32, ru, rv), 1.0)
            }
            Self::Plane => (Surface::plane(8.0, 8, 8.0 / repeat_m), 0.0),
            Self::Box => (Surface::cube(2.0, 4, 2.0 / repeat_m), 1.0),
        }
    }
}

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
    /// Colour every strand and card by its representation.
    pub overlay: bool,
    /// `None`: no wind stage at all; `Some` with strength 0 draws the wind stage still.
    pub wind: Option<Wind>,
    /// Strands and cards take on the colour of the surface behind them as they near the
    /// card switch, and against the sky that of strands turned every way (see
    /// [`Scene::blend_distances`]); off, they keep their own at any distance.
    pub blend_to_surface: bool,
}

impl Default for View {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            width: 640,
            height: 480,
            level: LevelMode::Auto,
            level_layer: None,
            overlay: false,
            wind: None,
            blend_to_surface: true,
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
}

/// Per-draw parameters, as the shaders' `Draw` struct (64 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct DrawParams {
    /// Width factor of the level drawn.
    pub widen_cur: f32,
    /// Width factor of the next level.
    pub widen_next: f32,
    /// Transition to the next representation, 0..1 (for cards: how far they have sunk
    /// on their way to the relief).
    pub fade: f32,
    /// Rank cut of the level drawn.
    pub keep_cur: f32,
    /// Rank cut of the next level (0 when the next is the cards).
    pub keep_next: f32,
    /// Cards whose hash is below this are drawn.
    pub card_visible: f32,
    /// The atlas's alpha-test cutoff.
    pub alpha_cutoff: f32,
    /// Vertices per strand or card: a vertex's strand in its tile is its index divided
    /// by this.
    pub verts_per_strand: u32,
    /// Overlay colour (linear RGB, a = 1).
    pub overlay: [f32; 4],
    /// From how far (metres from the eye) strands and cards begin to blend toward the
    /// surface behind them, and where they have become it (`f32::MAX` twice: never).
    pub blend_m: [f32; 2],
    /// Cards: how far along its strands a point of the picture is, on average, per unit
    /// of its height in the picture (strands: 1).
    pub along_scale: f32,
    /// Unused.
    pub pad: f32,
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

/// What a frame draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Tiles inside the view.
    pub tiles_visible: u32,
    /// Tiles of the surface.
    pub tiles_total: u32,
    /// Per layer.
    pub layers: Vec<LayerFrameStats>,
    /// Tile prefixes planted and meshed for this frame.
    pub tiles_rebuilt: u32,
    /// Tile prefixes left for the next frames by the planting budget.
    pub tiles_pending: u32,
    /// Whether the vertex budget forced a coarser level than the distance asked for.
    pub budget_limited: bool,
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

/// A tile's bounds: a sphere around its surface and everything standing on it, and the
/// cone its normals lie in.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TileBounds {
    centre: Vec3,
    /// Around the surface alone.
    surface_radius: f32,
    /// Around the surface and the tallest strand.
    radius: f32,
    normal: Vec3,
    /// The smallest cosine between a vertex normal and `normal`.
    cone_cos: f32,
}

/// A tile's planted and meshed prefix of one layer.
#[derive(Clone, Debug, Default)]
pub(crate) struct Resident {
    /// How many strands of the set (a rank prefix) are planted.
    pub n_prefix: usize,
    /// Where each meshed strand stands (the shaders read the surface under it).
    pub placed: PlacedTile,
    pub mesh: TileMesh,
    /// Bumped on every rebuild, so the GPU side knows what to upload.
    pub version: u64,
}

/// One tile of one layer to plant and mesh.
struct Job<'a> {
    layer: usize,
    placer: &'a Placer,
    tile: usize,
    need: usize,
    resident: &'a mut Resident,
}

/// What does not change while a layer is shown.
pub(crate) struct LayerShared {
    /// What it was built from.
    identity: LayerIdentity,
    placer: Placer,
    keep: Vec<f32>,
    widen: Vec<f32>,
    /// Median strand width and length, metres.
    width_m: f32,
    card_height_m: f32,
    /// How far along its strands a point of a card's picture is, per unit of its height
    /// in the picture ([`along_scale`]).
    card_along_scale: f32,
    pub atlas: Atlas,
    /// The layer's cards over one repeat, as points to plant (`cards::card_points`).
    cards: Vec<cards::Card>,
    card_points: tuft_strands::StrandSet,
    card_placer: Placer,
    /// Each tile's cards, planted and meshed the first time a frame wants them there (a
    /// fur's cards over a sphere are hundreds of megabytes nobody near it looks at).
    pub card_tiles: Vec<OnceLock<CardTile>>,
}

/// One tile's cards: where each stands and their quads, in the same order.
#[derive(Debug)]
pub(crate) struct CardTile {
    pub placed: PlacedTile,
    pub mesh: TileMesh,
}

impl std::fmt::Debug for LayerShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LayerShared")
            .field("cards", &self.cards.len())
            .finish_non_exhaustive()
    }
}

impl LayerShared {
    /// Groups the layer's cards, bins them and its strands over `surface` and draws its
    /// atlas; each tile's cards are planted when a frame first wants them
    /// ([`LayerShared::card_tile`]).
    fn new(
        layer: &crate::material::Layer,
        identity: LayerIdentity,
        surface: &Surface,
        repeat_m: f32,
    ) -> Self {
        let set = &layer.set;
        let atlas_cells = layer.cards.atlas_cells;
        let cards = cards::group(set, layer.clump_lattice, repeat_m, atlas_cells);
        let card_points = cards::card_points(&cards);
        let keep = if layer.levels.keep.is_empty() {
            vec![1.0]
        } else {
            layer.levels.keep.clone()
        };
        let widen = (0..keep.len()).map(|k| layer.levels.widen(k)).collect();
        Self {
            identity,
            placer: Placer::new(set, surface),
            keep,
            widen,
            width_m: median(set.width.iter().copied()).unwrap_or(0.0),
            card_height_m: median(cards.iter().map(|c| c.height)).unwrap_or(0.0),
            card_along_scale: along_scale(set),
            atlas: cards::atlas(set, &cards, repeat_m, &layer.cards),
            card_placer: Placer::new(&card_points, surface),
            card_points,
            cards,
            card_tiles: (0..surface.n_tiles).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Tile `tile`'s cards, planted and meshed now if no one has yet: exactly what
    /// `place` over the whole surface gives that tile.
    fn card_tile(&self, tile: usize, surface: &Surface, repeat_m: f32) -> &CardTile {
        self.card_tiles[tile].get_or_init(|| {
            let mut placed = PlacedTile::default();
            let n = self.card_points.len();
            let points = &self.card_points;
            self.card_placer
                .place_tile_into(points, surface, repeat_m, tile, n, &mut placed);
            let mesh =
                cards::build_card_tile(&self.cards, &placed, self.identity.cards.atlas_cells);
            CardTile { placed, mesh }
        })
    }
}

/// A card's picture spans the tallest strand; a point at height `h` of it shows strands
/// `h / length` of the way to their tips, on average over the strands (weighted by their
/// area `width · length`) `h · tallest · E[1 / length]` = `h · tallest · Σ width /
/// Σ width · length` in units of the picture. The card's shading reads "along" for the
/// canopy's depth as its height times this (never below 1; the shader stops it at the
/// tip), so the crown of a short strand is lit as a crown, as the strand itself is.
fn along_scale(set: &tuft_strands::StrandSet) -> f32 {
    let tallest = set.length.iter().copied().fold(0.0f32, f32::max);
    let (width, area) = set
        .length
        .iter()
        .zip(&set.width)
        .filter(|(l, _)| **l > 0.0)
        .fold((0.0f64, 0.0f64), |(w, a), (&l, &wi)| {
            (w + f64::from(wi), a + f64::from(wi * l))
        });
    if area > 0.0 {
        (f64::from(tallest) * width / area).max(1.0) as f32
    } else {
        1.0
    }
}

/// How much of the card level a tile shows under `choice` (0: none), for a layer of
/// `n_levels` strand levels: cards dither in over the last level's fade; over their own
/// they all stay, sinking into the ground ([`card_sink`]).
fn card_visible(choice: Choice, n_levels: usize) -> f32 {
    match choice.rep {
        Rep::Strands(k) if k + 1 == n_levels && choice.fade > 0.0 => choice.fade,
        Rep::Cards => 1.0,
        _ => 0.0,
    }
}

/// How far a tile's cards have sunk toward their roots under `choice` (0: standing,
/// 1: flat on the ground): over the cards' own fade, on their way to the relief.
fn card_sink(choice: Choice) -> f32 {
    match choice.rep {
        Rep::Cards => choice.fade,
        _ => 0.0,
    }
}

/// Plants and meshes the card tiles `jobs` (layer, tile) of `layers` on the cores.
fn build_card_tiles(
    layers: &[Arc<LayerShared>],
    jobs: &[(usize, usize)],
    surface: &Surface,
    repeat_m: f32,
) {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    std::thread::scope(|scope| {
        for part in 0..threads.min(jobs.len()) {
            scope.spawn(move || {
                for &(layer, tile) in jobs.iter().skip(part).step_by(threads) {
                    let _ = layers[layer].card_tile(tile, surface, repeat_m);
                }
            });
        }
    });
}

/// What a layer's shared part is made of: the same set (the same allocation, not an
/// equal one), settings and surface give the same cards, atlas and bins.
struct LayerIdentity {
    set: Arc<tuft_strands::StrandSet>,
    levels: tuft_strands::levels::LevelSettings,
    cards: cards::CardSettings,
    clump_lattice: u32,
    kind: SurfaceKind,
    repeat_m: f32,
}

impl LayerIdentity {
    fn of(layer: &crate::material::Layer, kind: SurfaceKind, repeat_m: f32) -> Self {
        Self {
            set: layer.set.clone(),
            levels: layer.levels.clone(),
            cards: layer.cards.clone(),
            clump_lattice: layer.clump_lattice,
            kind,
            repeat_m,
        }
    }

    fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.set, &other.set)
            && self.levels == other.levels
            && self.cards == other.cards
            && self.clump_lattice == other.clump_lattice
            && self.kind == other.kind
            && self.repeat_m.to_bits() == other.repeat_m.to_bits()
    }
}

/// The parts of a scene's layers a later scene can take over ([`Scene::reuse`],
/// [`Scene::reusing`]): cards, atlases and strand bins, shared, not copied.
#[derive(Clone, Default)]
pub struct Reuse {
    layers: Vec<Arc<LayerShared>>,
}

impl std::fmt::Debug for Reuse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reuse")
            .field("layers", &self.layers.len())
            .finish()
    }
}

impl Reuse {
    /// For each layer of `material` on a surface of `kind`, whether a scene built with
    /// this reuse takes its cards, atlas and bins over instead of building them.
    #[must_use]
    pub fn covers(&self, material: &Material, kind: SurfaceKind) -> Vec<bool> {
        material
            .layers
            .iter()
            .map(|l| {
                self.find(&LayerIdentity::of(l, kind, material.repeat_m))
                    .is_some()
            })
            .collect()
    }

    fn find(&self, identity: &LayerIdentity) -> Option<Arc<LayerShared>> {
        self.layers
            .iter()
            .find(|shared| shared.identity.same(identity))
            .cloned()
    }
}

pub(crate) struct LayerScene {
    pub shared: Arc<LayerShared>,
    pub resident: Vec<Resident>,
}

/// The surface's mesh, its triangles grouped by tile.
pub(crate) struct SurfaceMesh {
    pub vertices: Vec<SurfaceVertex>,
    pub indices: Vec<u32>,
    /// Each tile's range of `indices`.
    pub tile_ranges: Vec<std::ops::Range<u32>>,
}

/// Card tiles one planting round builds (a fur's are ~20 ms each).
const CARD_TILES_PER_ROUND: usize = 4;

/// The most strand vertices a scene keeps planted and meshed (1.5 GB at 64 bytes); past
/// it, the farthest tiles take coarser levels than their distance asks for.
pub const VERTEX_BUDGET: usize = 24 << 20;

static NEXT_SCENE_ID: AtomicU64 = AtomicU64::new(1);

/// A material planted on a surface.
pub struct Scene {
    pub(crate) material: Arc<Material>,
    kind: SurfaceKind,
    surface: Arc<Surface>,
    reach_m: f32,
    tiles: Vec<TileBounds>,
    pub(crate) surface_mesh: SurfaceMesh,
    /// Per surface triangle, what the roots texture carries besides a root's own place:
    /// the UV gradients, the curvature in the first's `w` (see `renderer::root_texels`).
    pub(crate) triangle_ground: Vec<[[f32; 4]; 2]>,
    pub(crate) layers: Vec<LayerScene>,
    /// Unique per scene: the GPU side rebuilds its buffers when it changes.
    pub(crate) id: u64,
    vertex_budget: usize,
    /// Each tile's area in UV (repeats²): a tile holds about this times a prefix.
    tile_uv: Vec<f32>,
    /// The most strands one `plan` plants; `None`: everything it needs at once.
    plant_budget: Option<usize>,
    /// Leave planting to [`Scene::planting`] (another thread) instead of `plan`.
    deferred: bool,
    /// What the last `plan` wanted planted and did not: (layer, tile, prefix), nearest
    /// tiles first.
    wanted: Vec<(usize, usize, usize)>,
    /// The card tiles (layer, tile) the last `plan` wanted and did not find built.
    wanted_cards: Vec<(usize, usize)>,
}

impl std::fmt::Debug for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("material", &self.material.name)
            .field("kind", &self.kind)
            .field("tiles", &self.tiles.len())
            .finish_non_exhaustive()
    }
}

impl Scene {
    /// Plants `material` on a surface of `kind`: groups each layer's cards and draws the
    /// atlases. Strands and cards are planted per tile as frames need them.
    #[must_use]
    pub fn new(material: Material, kind: SurfaceKind) -> Self {
        Self::reusing(material, kind, &Reuse::default())
    }

    /// As [`Scene::new`], taking each layer's cards, atlas and strand bins from `reuse`
    /// (an earlier scene's, [`Scene::reuse`]) where the layer is the same set with the
    /// same settings on the same surface: an edit to one layer rebuilds that layer
    /// alone. The layers that are built are built side by side.
    #[must_use]
    pub fn reusing(material: Material, kind: SurfaceKind, reuse: &Reuse) -> Self {
        let (surface, reach_m) = kind.build(material.repeat_m);
        let repeat_m = material.repeat_m.max(1e-3);
        let n_tiles = surface.n_tiles as usize;
        let shared: Vec<Arc<LayerShared>> = std::thread::scope(|scope| {
            let jobs: Vec<_> = material
                .layers
                .iter()
                .map(|layer| {
                    let identity = LayerIdentity::of(layer, kind, material.repeat_m);
                    match reuse.find(&identity) {
                        Some(shared) => Ok(shared),
                        None => {
                            let surface = &surface;
                            Err(scope.spawn(move || {
                                Arc::new(LayerShared::new(layer, identity, surface, repeat_m))
                            }))
                        }
                    }
                })
                .collect();
            jobs.into_iter()
                .map(|job| match job {
                    Ok(shared) => shared,
                    Err(handle) => handle
                        .join()
                        .unwrap_or_else(|e| std::panic::resume_unwind(e)),
                })
                .collect()
        });
        let layers: Vec<LayerScene> = shared
            .into_iter()
            .map(|shared| LayerScene {
                shared,
                resident: (0..n_tiles).map(|_| Resident::default()).collect(),
            })
            .collect();
        let tallest = material
            .layers
            .iter()
            .flat_map(|l| l.set.length.iter().copied())
            .fold(0.0f32, f32::max);
        let tiles = tile_bounds(&surface, tallest);
        let surface_mesh = surface_mesh(&surface);
        let tile_uv = (0..surface.n_tiles as usize)
            .map(|t| tile_uv_area(&surface_mesh, t))
            .collect();
        let triangle_ground = (0..surface.triangles.len())
            .map(|t| {
                let [gu, gv] = surface.uv_gradient(t);
                [
                    gu.extend(surface.curvature(t)).to_array(),
                    gv.extend(0.0).to_array(),
                ]
            })
            .collect();
        Self {
            material: Arc::new(material),
            kind,
            surface: Arc::new(surface),
            reach_m,
            tiles,
            surface_mesh,
            triangle_ground,
            layers,
            id: NEXT_SCENE_ID.fetch_add(1, Ordering::Relaxed),
            vertex_budget: VERTEX_BUDGET,
            tile_uv,
            plant_budget: None,
            deferred: false,
            wanted: Vec::new(),
            wanted_cards: Vec::new(),
        }
    }

    /// What a later scene of an edited material can take over from this one.
    #[must_use]
    pub fn reuse(&self) -> Reuse {
        Reuse {
            layers: self.layers.iter().map(|l| l.shared.clone()).collect(),
        }
    }

    /// The material shown.
    #[must_use]
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// The surface kind.
    #[must_use]
    pub fn kind(&self) -> SurfaceKind {
        self.kind
    }

    /// How far the surface reaches from the origin toward the camera.
    #[must_use]
    pub fn reach_m(&self) -> f32 {
        self.reach_m
    }

    /// Where layer `layer_idx` switches representation, seen by `camera` on a frame
    /// `height_px` tall: `(from, to, distance)`, the distance in metres from the camera to
    /// the surface, nearest first, each switch leaving the representation the one before
    /// it reached. What the status bar shows and what the colour-parity figures are
    /// measured at.
    #[must_use]
    pub fn switches(
        &self,
        layer_idx: usize,
        camera: &Camera,
        height_px: f32,
    ) -> Vec<(Rep, Rep, f32)> {
        let Some(layer) = self.layers.get(layer_idx) else {
            return Vec::new();
        };
        let s = &layer.shared;
        // px_per_m falls as 1 / distance: a size of `m` metres is `px` pixels at this.
        let at = |m: f32, px: f32| m * camera.px_per_m(1.0, height_px) / px;
        let last = s.widen.len() - 1;
        let mut out: Vec<(Rep, Rep, f32)> = (0..last)
            .map(|k| {
                (
                    Rep::Strands(k),
                    Rep::Strands(k + 1),
                    at(s.width_m * s.widen[k], crate::plan::SWITCH_PX),
                )
            })
            .collect();
        let strands_end = at(s.width_m * s.widen[last], crate::plan::SWITCH_PX);
        let cards_end = at(s.card_height_m, crate::plan::CARD_SWITCH_PX);
        if cards_end > strands_end {
            out.push((Rep::Strands(last), Rep::Cards, strands_end));
            out.push((Rep::Cards, Rep::Relief, cards_end));
        } else {
            // Cards under a pixel tall where the last level leaves: it goes straight to
            // the relief (as `plan::choose` does).
            out.push((Rep::Strands(last), Rep::Relief, strands_end));
        }
        out
    }

    /// Where layer `layer_idx`'s strands and cards blend toward the surface behind them,
    /// seen by `camera` on a frame `height_px` tall: `[start, end]` in metres from the
    /// eye.
    ///
    /// Past the last strand level a layer is cards and then the surface alone, and the
    /// surface is the maps the graph bakes. A canopy drawn from its own strands answers
    /// the light differently from a picture of it (the decision record's card switch
    /// held within a code because its strands, cards and surface were one shading
    /// model of one picture). So each strand and card fragment is blended, by its
    /// distance, toward what the surface shows along the same ray, shaded as the
    /// surface is (past the outline, toward strands turned every way: `shade_turned`).
    /// The blend is complete where the last level's transition to the cards begins, so
    /// the last level, the cards and the relief meet there with one colour; it starts
    /// at half that distance, so nearer strands keep their own.
    #[must_use]
    pub fn blend_distances(&self, layer_idx: usize, camera: &Camera, height_px: f32) -> [f32; 2] {
        let Some(layer) = self.layers.get(layer_idx) else {
            return [f32::MAX; 2];
        };
        let s = &layer.shared;
        let last = s.widen.last().copied().unwrap_or(1.0);
        let px_at_1m = s.width_m * last * camera.px_per_m(1.0, height_px);
        let end = px_at_1m / (crate::plan::SWITCH_PX * (1.0 + crate::plan::FADE_BAND));
        [0.5 * end, end]
    }

    /// Sets the most strands one [`Scene::plan`] plants and meshes (nearest tiles first);
    /// tiles left over draw the finest level they already hold and are planted by the
    /// next frames (`FrameStats::tiles_pending`). An interactive view sets this so a
    /// frame never waits on a big planting; offscreen frames plant everything at once.
    pub fn set_plant_budget(&mut self, strands: Option<usize>) {
        self.plant_budget = strands;
    }

    /// Leaves planting to another thread: `plan` only records what it wants planted
    /// (tiles waiting draw the finest level they hold), [`Scene::planting`] hands that
    /// work out, and [`Scene::install`] takes the result back. A window's frames then
    /// never wait on planting.
    pub fn set_deferred_planting(&mut self, deferred: bool) {
        self.deferred = deferred;
    }

    /// A unique id of this scene (stays the same while it lives).
    #[must_use]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The planting the last `plan` wanted and did not do, nearest tiles first, as much
    /// as `budget` strands: work that runs without the scene ([`Planting::run`]).
    #[must_use]
    pub fn planting(&self, budget: usize) -> Option<Planting> {
        let mut jobs = Vec::new();
        let mut spent = 0usize;
        for &(layer, tile, need) in &self.wanted {
            if self.layers[layer].resident[tile].n_prefix >= need {
                continue;
            }
            let cost = (self.tile_uv[tile] * need as f32) as usize;
            if !jobs.is_empty() && spent + cost > budget {
                break;
            }
            spent += cost;
            jobs.push((layer, tile, need));
        }
        // Card tiles are shared by the scenes that reuse the layer: built once, in place.
        let cards: Vec<(usize, usize)> = self
            .wanted_cards
            .iter()
            .copied()
            .filter(|&(l, t)| self.layers[l].shared.card_tiles[t].get().is_none())
            .take(CARD_TILES_PER_ROUND)
            .collect();
        (!jobs.is_empty() || !cards.is_empty()).then(|| Planting {
            scene_id: self.id,
            material: self.material.clone(),
            surface: self.surface.clone(),
            layers: self.layers.iter().map(|l| l.shared.clone()).collect(),
            jobs,
            cards,
        })
    }

    /// Whether tile `tile` of layer `layer` holds less than the prefix `need`.
    fn layers_need(&self, layer: usize, tile: usize, need: usize) -> bool {
        self.layers[layer].resident[tile].n_prefix < need
    }

    /// Takes planted tiles back (those of another scene, or no longer wanted larger than
    /// what is held, are dropped).
    pub fn install(&mut self, planted: Planted) {
        if planted.scene_id != self.id {
            return;
        }
        for (layer, tile, need, placed, mesh) in planted.tiles {
            let r = &mut self.layers[layer].resident[tile];
            if need > r.n_prefix {
                r.placed = placed;
                r.mesh = mesh;
                r.n_prefix = need;
                r.version += 1;
            }
        }
    }

    /// Sets the most strand vertices kept planted and meshed.
    pub fn set_vertex_budget(&mut self, vertices: usize) {
        self.vertex_budget = vertices;
    }

    /// Plans a frame: culls tiles, chooses each visible tile's representation per layer,
    /// plants and meshes the prefixes that grew, and lists the draws.
    pub fn plan(&mut self, view: &View) -> FramePlan {
        let aspect = view.width.max(1) as f32 / view.height.max(1) as f32;
        let view_proj = view.camera.view_proj(self.reach_m, aspect);
        let eye = view.camera.eye(self.reach_m);
        let planes = frustum_planes(&view_proj);
        // Visible tiles, nearest first (the vertex budget goes to the nearest).
        let mut visible: Vec<(usize, f32)> = self
            .tiles
            .iter()
            .enumerate()
            .filter(|(_, b)| in_frustum(&planes, b.centre, b.radius) && faces(b, eye))
            .map(|(t, b)| (t, ((eye - b.centre).length() - b.surface_radius).max(0.05)))
            .collect();
        visible.sort_by(|a, b| a.1.total_cmp(&b.1));
        let height_px = view.height.max(1) as f32;
        let mut stats = FrameStats {
            tiles_visible: visible.len() as u32,
            tiles_total: self.tiles.len() as u32,
            layers: self
                .material
                .layers
                .iter()
                .map(|l| LayerFrameStats {
                    name: l.name.clone(),
                    ..LayerFrameStats::default()
                })
                .collect(),
            ..FrameStats::default()
        };
        // Choices per (layer, visible tile), then what must be planted.
        let mut choices: Vec<Vec<Choice>> = Vec::with_capacity(self.layers.len());
        let mut vertices_left = self.vertex_budget;
        for (li, layer) in self.layers.iter().enumerate() {
            let s = &layer.shared;
            let profile = self.material.layers[li].profile;
            let mut layer_choices = Vec::with_capacity(visible.len());
            for &(t, d) in &visible {
                let ppm = view.camera.px_per_m(d, height_px);
                let mode = match view.level_layer {
                    Some(only) if only != li => LevelMode::Auto,
                    _ => view.level,
                };
                let mut choice = match mode {
                    LevelMode::Auto => choose(s.width_m * ppm, &s.widen, s.card_height_m * ppm),
                    LevelMode::Forced(Rep::Strands(k)) => Choice {
                        rep: Rep::Strands(k.min(s.keep.len() - 1)),
                        fade: 0.0,
                    },
                    LevelMode::Forced(rep) => Choice { rep, fade: 0.0 },
                };
                // Within the budget: a level needs its prefix planted on this tile.
                while let Rep::Strands(k) = choice.rep {
                    let need = self.estimate_vertices(li, t, s.keep[k], profile);
                    if need <= vertices_left {
                        vertices_left -= need;
                        break;
                    }
                    stats.budget_limited = true;
                    choice = Choice {
                        rep: if k + 1 < s.keep.len() {
                            Rep::Strands(k + 1)
                        } else {
                            Rep::Cards
                        },
                        fade: 0.0,
                    };
                }
                layer_choices.push(choice);
            }
            choices.push(layer_choices);
        }
        let (done, pending) = self.make_resident(&visible, &choices);
        stats.tiles_rebuilt = done;
        stats.tiles_pending = pending + self.make_cards_resident(&visible, &choices);
        if pending > 0 {
            self.fall_back_to_resident(&visible, &mut choices);
        }
        let blend: Vec<[f32; 2]> = (0..self.layers.len())
            .map(|li| {
                if view.blend_to_surface {
                    self.blend_distances(li, &view.camera, height_px)
                } else {
                    [f32::MAX; 2]
                }
            })
            .collect();
        let draws = self.draws(&visible, &choices, &blend, &mut stats);
        FramePlan {
            view_proj,
            eye,
            draws,
            stats,
        }
    }

    /// Roughly how many vertices tile `t` of layer `li` holds at rank cut `keep`: what
    /// is resident if it covers the cut, else the resident count scaled up.
    fn estimate_vertices(
        &self,
        li: usize,
        t: usize,
        keep: f32,
        profile: tuft_strands::mesh::Profile,
    ) -> usize {
        let layer = &self.layers[li];
        let set = &self.material.layers[li].set;
        let need = set.rank.partition_point(|&r| r < keep);
        let r = &layer.resident[t];
        let per = profile.vertices_per_strand();
        if r.n_prefix >= need && r.n_prefix > 0 {
            return r.mesh.ranks.partition_point(|&x| x < keep) * per;
        }
        // Strands on this tile ≈ its share of the surface's repeats × the prefix.
        (self.tile_uv[t] * need as f32) as usize * per
    }

    /// Where planting is still pending, draws the finest level a tile already holds.
    fn fall_back_to_resident(&self, visible: &[(usize, f32)], choices: &mut [Vec<Choice>]) {
        for (li, layer) in self.layers.iter().enumerate() {
            let set = &self.material.layers[li].set;
            let keep = &layer.shared.keep;
            for (&(t, _), choice) in visible.iter().zip(choices[li].iter_mut()) {
                let Rep::Strands(k) = choice.rep else {
                    continue;
                };
                let held = layer.resident[t].n_prefix;
                let fits = |j: usize| set.rank.partition_point(|&r| r < keep[j]) <= held;
                if fits(k) {
                    continue;
                }
                *choice = match (k + 1..keep.len()).find(|&j| fits(j)) {
                    Some(j) => Choice {
                        rep: Rep::Strands(j),
                        fade: 0.0,
                    },
                    None => Choice {
                        rep: Rep::Cards,
                        fade: 0.0,
                    },
                };
            }
        }
    }

    /// Plants and meshes every visible tile whose level needs more than is resident,
    /// nearest first, within the planting budget. Tiles only grow: a coarser level is a
    /// prefix of what a tile holds, and several views of one scene (the levels side by
    /// side) would otherwise take turns re-planting the same tiles. Returns how many were
    /// done and how many wait.
    /// Builds the card tiles the visible tiles show and no one has built yet (or, with
    /// deferred planting, leaves them to [`Scene::planting`]); returns how many wait.
    fn make_cards_resident(&mut self, visible: &[(usize, f32)], choices: &[Vec<Choice>]) -> u32 {
        let mut missing: Vec<(usize, usize)> = Vec::new();
        for (li, layer) in self.layers.iter().enumerate() {
            let s = &layer.shared;
            for (&(t, _), &choice) in visible.iter().zip(&choices[li]) {
                if card_visible(choice, s.keep.len()) > 0.0 && s.card_tiles[t].get().is_none() {
                    missing.push((li, t));
                }
            }
        }
        if self.deferred {
            for &(l, t) in &self.wanted_cards {
                if self.layers[l].shared.card_tiles[t].get().is_none() && !missing.contains(&(l, t))
                {
                    missing.push((l, t));
                }
            }
            let n = missing.len() as u32;
            self.wanted_cards = missing;
            return n;
        }
        if !missing.is_empty() {
            let layers: Vec<Arc<LayerShared>> =
                self.layers.iter().map(|l| l.shared.clone()).collect();
            let repeat_m = self.material.repeat_m.max(1e-3);
            build_card_tiles(&layers, &missing, &self.surface, repeat_m);
        }
        0
    }

    fn make_resident(&mut self, visible: &[(usize, f32)], choices: &[Vec<Choice>]) -> (u32, u32) {
        let surface = &self.surface;
        let repeat_m = self.material.repeat_m.max(1e-3);
        let mut jobs: Vec<Job<'_>> = Vec::new();
        for (li, layer) in self.layers.iter_mut().enumerate() {
            let set = &self.material.layers[li].set;
            let LayerScene { shared, resident } = layer;
            let mut wanted: Vec<Option<usize>> = vec![None; resident.len()];
            for (&(t, _), choice) in visible.iter().zip(&choices[li]) {
                let keep = match choice.rep {
                    Rep::Strands(k) => shared.keep[k],
                    Rep::Cards | Rep::Relief => 0.0,
                };
                wanted[t] = Some(set.rank.partition_point(|&r| r < keep));
            }
            for (t, (r, want)) in resident.iter_mut().zip(wanted).enumerate() {
                let Some(need) = want else { continue };
                if need > r.n_prefix {
                    jobs.push(Job {
                        layer: li,
                        placer: &shared.placer,
                        tile: t,
                        need,
                        resident: r,
                    });
                }
            }
        }
        if jobs.is_empty() {
            return (0, 0);
        }
        // Nearest tiles first: `visible` is in distance order.
        let order: HashMap<usize, usize> = visible
            .iter()
            .enumerate()
            .map(|(k, &(t, _))| (t, k))
            .collect();
        jobs.sort_by_key(|j| order.get(&j.tile).copied().unwrap_or(usize::MAX));
        if self.deferred {
            // This view's wants first (nearest first), then what other views of the
            // scene (the levels side by side) still want.
            let mut wanted: Vec<(usize, usize, usize)> =
                jobs.iter().map(|j| (j.layer, j.tile, j.need)).collect();
            let n = wanted.len() as u32;
            for &(layer, tile, need) in &self.wanted {
                if self.layers_need(layer, tile, need)
                    && !wanted
                        .iter()
                        .any(|w| w.0 == layer && w.1 == tile && w.2 >= need)
                {
                    wanted.push((layer, tile, need));
                }
            }
            self.wanted = wanted;
            return (0, n);
        }
        let mut pending = 0;
        if let Some(budget) = self.plant_budget {
            let mut spent = 0usize;
            let mut kept = Vec::with_capacity(jobs.len());
            for job in jobs {
                let cost = (self.tile_uv[job.tile] * job.need as f32) as usize;
                if kept.is_empty() || spent + cost <= budget {
                    spent += cost;
                    kept.push(job);
                } else {
                    pending += 1;
                }
            }
            jobs = kept;
        }
        let n_jobs = jobs.len() as u32;
        // Big tiles first, dealt round the cores.
        jobs.sort_by_key(|j| std::cmp::Reverse(j.need));
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut split: Vec<Vec<Job<'_>>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, job) in jobs.into_iter().enumerate() {
            split[k % threads].push(job);
        }
        let material = &self.material;
        std::thread::scope(|scope| {
            for part in split {
                scope.spawn(move || {
                    for job in part {
                        let layer = &material.layers[job.layer];
                        let r = job.resident;
                        job.placer.place_tile_into(
                            &layer.set,
                            surface,
                            repeat_m,
                            job.tile,
                            job.need,
                            &mut r.placed,
                        );
                        build_tile_into(&layer.set, &r.placed, layer.profile, &mut r.mesh);
                        r.n_prefix = job.need;
                        r.version += 1;
                    }
                });
            }
        });
        (n_jobs, pending)
    }

    fn draws(
        &self,
        visible: &[(usize, f32)],
        choices: &[Vec<Choice>],
        blend: &[[f32; 2]],
        stats: &mut FrameStats,
    ) -> Vec<DrawItem> {
        let mut draws = Vec::new();
        let neutral = [0.55, 0.55, 0.55, 1.0];
        for (vi, &(t, _)) in visible.iter().enumerate() {
            let all_relief = choices.iter().all(|c| c[vi].rep == Rep::Relief);
            let range = &self.surface_mesh.tile_ranges[t];
            draws.push(DrawItem {
                target: DrawTarget::Surface { tile: t },
                index_count: range.end - range.start,
                params: DrawParams {
                    overlay: if all_relief {
                        overlay_color(Rep::Relief)
                    } else {
                        neutral
                    },
                    ..DrawParams::zeroed()
                },
            });
        }
        let mut card_draws = Vec::new();
        for (li, layer) in self.layers.iter().enumerate() {
            let s = &layer.shared;
            let profile = self.material.layers[li].profile;
            let cutoff = self.material.layers[li].cards.alpha_cutoff;
            let ls = &mut stats.layers[li];
            let mut reps: Vec<(Rep, u32)> = Vec::new();
            for (vi, &(t, d)) in visible.iter().enumerate() {
                let choice = choices[li][vi];
                // A tile wholly nearer than the blend's start skips the shaders' search
                // for the surface behind each fragment (its weight would be 0 anyway).
                let b = &self.tiles[t];
                let blend_m = if d + b.surface_radius + b.radius < blend[li][0] {
                    [f32::MAX; 2]
                } else {
                    blend[li]
                };
                match reps.iter_mut().find(|(r, _)| *r == choice.rep) {
                    Some((_, n)) => *n += 1,
                    None => reps.push((choice.rep, 1)),
                }
                let card_visible = card_visible(choice, s.keep.len());
                if let Rep::Strands(k) = choice.rep {
                    let last = k + 1 == s.keep.len();
                    let mesh = &layer.resident[t].mesh;
                    let n = mesh.ranks.partition_point(|&r| r < s.keep[k]);
                    if n > 0 {
                        ls.strands += n as u64;
                        ls.triangles += (n * profile.indices_per_strand() / 3) as u64;
                        draws.push(DrawItem {
                            target: DrawTarget::Strands { layer: li, tile: t },
                            index_count: (n * profile.indices_per_strand()) as u32,
                            params: DrawParams {
                                widen_cur: s.widen[k],
                                widen_next: if last { s.widen[k] } else { s.widen[k + 1] },
                                fade: choice.fade,
                                keep_cur: s.keep[k],
                                keep_next: if last { 0.0 } else { s.keep[k + 1] },
                                card_visible: 0.0,
                                alpha_cutoff: cutoff,
                                verts_per_strand: profile.vertices_per_strand() as u32,
                                overlay: overlay_color(choice.rep),
                                blend_m,
                                along_scale: 1.0,
                                pad: 0.0,
                            },
                        });
                    }
                }
                let cards = s.card_tiles[t]
                    .get()
                    .map(|c| &c.mesh)
                    .filter(|c| !c.ranks.is_empty());
                if let Some(cards) = cards.filter(|_| card_visible > 0.0) {
                    ls.cards += cards.ranks.len() as u64;
                    ls.triangles += (cards.indices.len() / 3) as u64;
                    card_draws.push(DrawItem {
                        target: DrawTarget::Cards { layer: li, tile: t },
                        index_count: cards.indices.len() as u32,
                        params: DrawParams {
                            widen_cur: 1.0,
                            widen_next: 1.0,
                            fade: card_sink(choice),
                            keep_cur: 1.0,
                            keep_next: 1.0,
                            card_visible,
                            alpha_cutoff: cutoff,
                            verts_per_strand: cards::VERTICES_PER_CARD as u32,
                            overlay: overlay_color(Rep::Cards),
                            blend_m,
                            along_scale: s.card_along_scale,
                            pad: 0.0,
                        },
                    });
                }
            }
            reps.sort_by_key(|(r, _)| match r {
                Rep::Strands(k) => *k,
                Rep::Cards => usize::MAX - 1,
                Rep::Relief => usize::MAX,
            });
            ls.reps = reps;
        }
        draws.extend(card_draws);
        draws
    }
}

/// Planting work handed out by [`Scene::planting`]: it holds what it needs, so it runs
/// while the scene is drawn.
#[derive(Debug)]
pub struct Planting {
    scene_id: u64,
    material: Arc<Material>,
    surface: Arc<Surface>,
    layers: Vec<Arc<LayerShared>>,
    jobs: Vec<(usize, usize, usize)>,
    /// Card tiles (layer, tile) to plant.
    cards: Vec<(usize, usize)>,
}

/// Tiles planted and meshed by [`Planting::run`], for [`Scene::install`].
#[derive(Debug)]
pub struct Planted {
    scene_id: u64,
    tiles: Vec<(usize, usize, usize, PlacedTile, TileMesh)>,
}

impl Planting {
    /// Plants and meshes the tiles, spread over the cores.
    #[must_use]
    pub fn run(self) -> Planted {
        let repeat_m = self.material.repeat_m.max(1e-3);
        build_card_tiles(&self.layers, &self.cards, &self.surface, repeat_m);
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut parts: Vec<Vec<(usize, usize, usize)>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, job) in self.jobs.iter().enumerate() {
            parts[k % threads].push(*job);
        }
        let (material, surface, layers) = (&self.material, &self.surface, &self.layers);
        let tiles = std::thread::scope(|scope| {
            let handles: Vec<_> = parts
                .into_iter()
                .map(|part| {
                    scope.spawn(move || {
                        part.into_iter()
                            .map(|(layer, tile, need)| {
                                let l = &material.layers[layer];
                                let mut placed = PlacedTile::default();
                                layers[layer].placer.place_tile_into(
                                    &l.set,
                                    surface,
                                    repeat_m,
                                    tile,
                                    need,
                                    &mut placed,
                                );
                                let mut mesh = TileMesh::default();
                                build_tile_into(&l.set, &placed, l.profile, &mut mesh);
                                (layer, tile, need, placed, mesh)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        });
        Planted {
            scene_id: self.scene_id,
            tiles,
        }
    }
}

fn tile_uv_area(mesh: &SurfaceMesh, t: usize) -> f32 {
    let range = &mesh.tile_ranges[t];
    mesh.indices[range.start as usize..range.end as usize]
        .chunks_exact(3)
        .map(|tri| {
            let [a, b, c] = [0, 1, 2].map(|k| glam::Vec2::from(mesh.vertices[tri[k] as usize].uv));
            0.5 * (b - a).perp_dot(c - a).abs()
        })
        .sum()
}

/// The surface's vertices with tangents along +u, and its triangles grouped by tile.
fn surface_mesh(s: &Surface) -> SurfaceMesh {
    let n = s.positions.len();
    let mut du = vec![Vec3::ZERO; n];
    let mut dv = vec![Vec3::ZERO; n];
    for tri in &s.triangles {
        let [a, b, c] = tri.map(|i| i as usize);
        let (e1, e2) = (
            s.positions[b] - s.positions[a],
            s.positions[c] - s.positions[a],
        );
        let (d1, d2) = (s.uvs[b] - s.uvs[a], s.uvs[c] - s.uvs[a]);
        let det = d1.perp_dot(d2);
        if det.abs() < 1e-12 {
            continue;
        }
        let t = (e1 * d2.y - e2 * d1.y) / det;
        let bt = (e2 * d1.x - e1 * d2.x) / det;
        for i in [a, b, c] {
            du[i] += t;
            dv[i] += bt;
        }
    }
    let vertices = (0..n)
        .map(|i| {
            let normal = s.normals[i];
            let t =
                (du[i] - normal * normal.dot(du[i])).normalize_or(normal.any_orthonormal_vector());
            let w = if normal.cross(t).dot(dv[i]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            SurfaceVertex {
                position: s.positions[i].to_array(),
                normal: normal.to_array(),
                tangent: t.extend(w).to_array(),
                uv: s.uvs[i].to_array(),
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..s.triangles.len()).collect();
    order.sort_by_key(|&t| s.tile_of_triangle[t]);
    let mut indices = Vec::with_capacity(3 * order.len());
    let mut tile_ranges = vec![0..0; s.n_tiles as usize];
    for &t in &order {
        let tile = s.tile_of_triangle[t] as usize;
        let start = indices.len() as u32;
        if tile_ranges[tile].is_empty() {
            tile_ranges[tile] = start..start;
        }
        indices.extend(s.triangles[t]);
        tile_ranges[tile].end = indices.len() as u32;
    }
    SurfaceMesh {
        vertices,
        indices,
        tile_ranges,
    }
}

fn tile_bounds(s: &Surface, tallest: f32) -> Vec<TileBounds> {
    let n_tiles = s.n_tiles as usize;
    let mut lo = vec![Vec3::splat(f32::MAX); n_tiles];
    let mut hi = vec![Vec3::splat(f32::MIN); n_tiles];
    let mut nsum = vec![Vec3::ZERO; n_tiles];
    for (t, tri) in s.triangles.iter().enumerate() {
        let tile = s.tile_of_triangle[t] as usize;
        for &i in tri {
            lo[tile] = lo[tile].min(s.positions[i as usize]);
            hi[tile] = hi[tile].max(s.positions[i as usize]);
            nsum[tile] += s.normals[i as usize];
        }
    }
    let mut out: Vec<TileBounds> = (0..n_tiles)
        .map(|t| TileBounds {
            centre: (lo[t] + hi[t]) * 0.5,
            surface_radius: 0.0,
            radius: 0.0,
            normal: nsum[t].normalize_or(Vec3::Y),
            cone_cos: 1.0,
        })
        .collect();
    for (t, tri) in s.triangles.iter().enumerate() {
        let b = &mut out[s.tile_of_triangle[t] as usize];
        for &i in tri {
            b.surface_radius = b
                .surface_radius
                .max((s.positions[i as usize] - b.centre).length());
            b.cone_cos = b.cone_cos.min(s.normals[i as usize].dot(b.normal));
        }
    }
    for b in &mut out {
        b.radius = b.surface_radius + tallest;
    }
    out
}

/// The six planes of a wgpu clip volume (depth 0..1), inward-facing.
fn frustum_planes(m: &Mat4) -> [Vec4; 6] {
    let (r0, r1, r2, r3) = (m.row(0), m.row(1), m.row(2), m.row(3));
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2]
}

fn in_frustum(planes: &[Vec4; 6], centre: Vec3, radius: f32) -> bool {
    planes
        .iter()
        .all(|p| p.truncate().dot(centre) + p.w >= -radius * p.truncate().length())
}

/// Whether any of a tile can face the eye (or stand up into view past its horizon).
fn faces(b: &TileBounds, eye: Vec3) -> bool {
    let to_eye = eye - b.centre;
    let d = to_eye.length();
    if d <= b.radius {
        return true;
    }
    // Sine of the widest angle the tile's normals and standing strands add.
    let spread = (1.0 - b.cone_cos * b.cone_cos).max(0.0).sqrt();
    to_eye.dot(b.normal) / d > -(spread + b.radius / d + 0.05)
}
