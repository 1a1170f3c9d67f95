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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use tuft_strands::canopy::Canopy;
use tuft_strands::cards::{self, Atlas};
use tuft_strands::cover::Cover;
use tuft_strands::mesh::{TileMesh, append_strands};
use tuft_strands::placement::{PlacedTile, Placer};
use tuft_strands::surface::Surface;

mod budget;
mod frame;
mod geometry;
mod ground_tint;
mod layer;
mod planting;

pub use budget::FrameBudget;
pub use frame::*;
pub use layer::Reuse;
pub use planting::{Planted, Planting};

use geometry::*;
pub(crate) use ground_tint::GroundTint;
use layer::*;

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
    /// The largest prefix any view wanted of the tile in this window of plans and in
    /// the one before ([`Scene::let_go_unwanted`]).
    pub wanted: [usize; 2],
}

impl Resident {
    /// Bytes this tile has allocated on the CPU (the GPU holds about as much again).
    pub(crate) fn bytes(&self) -> u64 {
        fn cap<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        (cap(&self.mesh.vertices)
            + cap(&self.mesh.pattern)
            + cap(&self.mesh.ranks)
            + cap(&self.placed.strands)) as u64
    }

    /// Appends a planted slice. The first slice of a growth reserves room for the rest
    /// at its own density (rank order is spatially uniform, so a slice's share of the
    /// tile is its share of the strands): a tile grown in ten slices is allocated about
    /// once, not doubled ten times.
    fn grow(&mut self, slice: planting::Slice, placed: &PlacedTile, mesh: &TileMesh) {
        let n_new = placed.strands.len();
        if self.placed.strands.capacity() < self.placed.strands.len() + n_new {
            let expect = (n_new as f64 * (slice.need - slice.from) as f64
                / (slice.to - slice.from).max(1) as f64
                * 1.02)
                .ceil() as usize;
            let per = |len: usize| len / n_new.max(1) * expect.max(n_new);
            self.placed.strands.reserve_exact(expect.max(n_new));
            self.mesh.vertices.reserve_exact(per(mesh.vertices.len()));
            self.mesh.ranks.reserve_exact(expect.max(n_new));
        }
        self.placed.strands.extend_from_slice(&placed.strands);
        self.mesh.append(mesh);
        self.n_prefix = slice.to;
        self.version += 1;
    }

    /// Keeps the prefix of `need` strands of the set (a coarser level), giving the rest
    /// of the memory back.
    fn shrink(&mut self, need: usize, profile: tuft_strands::mesh::Profile) {
        if need == 0 {
            *self = Self {
                version: self.version + 1,
                wanted: self.wanted,
                ..Self::default()
            };
            return;
        }
        let n = self
            .placed
            .strands
            .partition_point(|p| (p.strand as usize) < need);
        self.placed.strands.truncate(n);
        self.placed.strands.shrink_to_fit();
        self.mesh.truncate(n, profile);
        self.mesh.vertices.shrink_to_fit();
        self.mesh.ranks.shrink_to_fit();
        self.n_prefix = need;
        self.version += 1;
    }
}

static NEXT_SCENE_ID: AtomicU64 = AtomicU64::new(1);

/// A level-of-detail bias as the planner uses it: finite, and between 1/16 and 16.
#[must_use]
pub fn lod_bias(bias: f32) -> f32 {
    if bias.is_finite() {
        bias.clamp(1.0 / 16.0, 16.0)
    } else {
        1.0
    }
}

/// A material planted on a surface.
pub struct Scene {
    pub(crate) material: Arc<Material>,
    kind: SurfaceKind,
    surface: Arc<Surface>,
    reach_m: f32,
    tiles: Vec<TileBounds>,
    /// A ball inside the surface where the surface is convex: tiles in its shadow are
    /// hidden (`None`: every tile the frustum and the facing test keep is drawn).
    occluder: Option<Occluder>,
    /// The tallest strand of any layer, metres.
    tallest_m: f32,
    pub(crate) surface_mesh: SurfaceMesh,
    /// On tinted flat ground, the first layer's patch lattice, from which the surface
    /// and the far levels compute its tint alike.
    pub(crate) ground_tint: Option<GroundTint>,
    /// Per surface triangle, what the roots texture carries besides a root's own place:
    /// the UV gradients, the curvature in the first's `w` (see `renderer::root_texels`).
    pub(crate) triangle_ground: Vec<[[f32; 4]; 2]>,
    pub(crate) layers: Vec<LayerScene>,
    /// The layers' strands as height slices: what the surface shows of them from each
    /// elevation (`tuft_strands::canopy`).
    canopy: Canopy,
    /// The mean linear base colour of the maps (`FramePlan::canopy_ground`).
    canopy_ground: Vec3,
    /// Where the canopy stands thick and thin over the repeat (`tuft_strands::cover`).
    pub(crate) cover: Cover,
    /// Unique per scene: the GPU side rebuilds its buffers when it changes.
    pub(crate) id: u64,
    /// Counts [`Scene::replace_maps`]: the GPU side rewrites its map textures when it
    /// changes.
    pub(crate) maps_version: u64,
    budget: FrameBudget,
    /// The scale of the switch distances the last budget-limited frame took (1 when it
    /// fitted): where the next frame's search starts.
    last_scale: f32,
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
    /// Plans made: [`Scene::let_go_unwanted`] lets go every [`planting::LINGER`].
    plans: u64,
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
        Self::assemble(material, kind, Arc::new(surface), reach_m, reuse)
    }

    /// Plants `material` on a mesh of the author's (`tuft_strands::surface::Surface::
    /// from_mesh`, centred on the origin), taking from `reuse` what an earlier scene on
    /// the very same mesh built.
    #[must_use]
    pub fn on_mesh(material: Material, mesh: Arc<Surface>, reuse: &Reuse) -> Self {
        let reach_m = mesh
            .positions
            .iter()
            .map(|p| p.length())
            .fold(0.0f32, f32::max);
        Self::assemble(material, SurfaceKind::Mesh, mesh, reach_m, reuse)
    }

    fn assemble(
        material: Material,
        kind: SurfaceKind,
        surface: Arc<Surface>,
        reach_m: f32,
        reuse: &Reuse,
    ) -> Self {
        let mesh = (kind == SurfaceKind::Mesh).then_some(&surface);
        let repeat_m = material.repeat_m.max(1e-3);
        let n_tiles = surface.n_tiles as usize;
        // What an earlier scene built is taken over; the rest is built on the cores and
        // put back in the layers' order.
        let mut to_build = Vec::new();
        let found: Vec<Option<Arc<LayerShared>>> = material
            .layers
            .iter()
            .map(|layer| {
                let identity = LayerIdentity::of(layer, kind, mesh, material.repeat_m);
                let shared = reuse.find(&identity);
                if shared.is_none() {
                    let rooted = reuse.find_rooted(&identity);
                    to_build.push((layer, identity, rooted));
                }
                shared
            })
            .collect();
        // The tiles' boxes, once: the layers' packing frames and the culling bounds.
        let boxes = surface.tile_boxes();
        let mut built =
            tuft_strands::par::map("tuft scene", to_build, |(layer, identity, rooted)| {
                Arc::new(LayerShared::new(
                    layer,
                    identity,
                    &surface,
                    &boxes,
                    repeat_m,
                    rooted.as_deref(),
                ))
            })
            .into_iter();
        let shared = found.into_iter().filter_map(|f| f.or_else(|| built.next()));
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
        let tiles = tile_bounds(&surface, &boxes, tallest);
        let occluder = Occluder::of(kind, &surface);
        let surface_mesh = surface_mesh(&surface, &material.ground_variation());
        let ground_tint = kind
            .flat_span_m()
            .and_then(|span| GroundTint::of(span, &material.ground_variation()));
        let tile_uv = tile_shares(&surface, &surface_mesh);
        let canopy = Canopy::of(
            &material
                .layers
                .iter()
                .map(|l| (&*l.set, l.profile))
                .collect::<Vec<_>>(),
            material.repeat_m,
        );
        let cover = Cover::of(
            &material.layers.iter().map(|l| &*l.set).collect::<Vec<_>>(),
            material.repeat_m,
        );
        let canopy_ground = Vec3::from(material.maps.mean_base_linear());
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
            surface,
            reach_m,
            tiles,
            tallest_m: tallest,
            occluder,
            surface_mesh,
            ground_tint,
            triangle_ground,
            layers,
            canopy,
            canopy_ground,
            cover,
            id: NEXT_SCENE_ID.fetch_add(1, Ordering::Relaxed),
            maps_version: 0,
            budget: FrameBudget::default(),
            last_scale: 1.0,
            tile_uv,
            plant_budget: None,
            deferred: false,
            wanted: Vec::new(),
            wanted_cards: Vec::new(),
            plans: 0,
        }
    }

    /// What a later scene of an edited material can take over from this one.
    #[must_use]
    pub fn reuse(&self) -> Reuse {
        Reuse {
            layers: self.layers.iter().map(|l| l.shared.clone()).collect(),
        }
    }

    /// The material's strands as height slices, as the surface shows them from each
    /// elevation.
    #[must_use]
    pub fn canopy(&self) -> &Canopy {
        &self.canopy
    }

    /// Where the material's canopy stands thick and thin, as the surface shows it.
    #[must_use]
    pub fn cover(&self) -> &Cover {
        &self.cover
    }

    /// The material shown.
    #[must_use]
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// Puts `maps` on the surface in place of the material's, keeping everything
    /// planted: an edit's new strands can show before its maps are computed, and the
    /// maps follow without planting anything again.
    pub fn replace_maps(&mut self, maps: crate::material::SurfaceMaps) {
        let mut material = (*self.material).clone();
        material.maps = maps;
        self.canopy_ground = Vec3::from(material.maps.mean_base_linear());
        self.material = Arc::new(material);
        self.maps_version += 1;
    }

    /// Bytes of strand and card geometry the scene holds on the CPU, over every layer
    /// and tile (the GPU holds about as much again): what walking must keep bounded.
    #[must_use]
    pub fn resident_bytes(&self) -> u64 {
        self.layers
            .iter()
            .flat_map(|l| &l.resident)
            .map(Resident::bytes)
            .sum()
    }

    /// Tile `tile`'s planted and meshed strands of layer `layer` (empty where nothing is
    /// resident): what a test compares after walking away and back.
    #[must_use]
    pub fn resident_mesh(&self, layer: usize, tile: usize) -> Option<&TileMesh> {
        self.layers.get(layer)?.resident.get(tile).map(|r| &r.mesh)
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
        let switches = layer
            .shared
            .switches
            .distances(camera.px_per_m(1.0, height_px));
        let to_cards = layer.shared.switches.ends_in_cards();
        switches
            .into_iter()
            .map(|(left, d)| match left {
                Some(k) if k + 1 < layer.shared.switches.widen.len() => {
                    (Rep::Strands(k), Rep::Strands(k + 1), d)
                }
                Some(k) if to_cards => (Rep::Strands(k), Rep::Cards, d),
                Some(k) => (Rep::Strands(k), Rep::Relief, d),
                None => (Rep::Cards, Rep::Relief, d),
            })
            .collect()
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
    /// surface is (past the outline, toward strands turned every way: `shade_tilted`).
    /// The blend is complete where the last level's transition to the cards begins, so
    /// the last level, the cards and the relief meet there with one colour; it starts
    /// at half that distance, so nearer strands keep their own.
    #[must_use]
    pub fn blend_distances(&self, layer_idx: usize, camera: &Camera, height_px: f32) -> [f32; 2] {
        let Some(layer) = self.layers.get(layer_idx) else {
            return [f32::MAX; 2];
        };
        let s = &layer.shared;
        let last = s.switches.widen.last().copied().unwrap_or(1.0);
        let px_at_1m = s.switches.width_m * last * camera.px_per_m(1.0, height_px);
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

    /// Sets what one frame may cost; past it, every switch comes nearer until the frame
    /// fits (`FrameStats::budget_limited`, `FrameStats::budget_scale`).
    pub fn set_budget(&mut self, budget: FrameBudget) {
        self.budget = budget;
    }

    /// Whether tiles the surface itself hides (round the far side of the built-in sphere
    /// or box) are left undrawn, as they are by default; off, every tile the frustum and
    /// the facing test keep is drawn, to compare frames with and without.
    pub fn set_surface_occludes(&mut self, occludes: bool) {
        self.occluder = occludes
            .then(|| Occluder::of(self.kind, &self.surface))
            .flatten();
    }

    /// What one frame may cost.
    #[must_use]
    pub fn budget(&self) -> FrameBudget {
        self.budget
    }

    /// Plans a frame: culls tiles, chooses each visible tile's representation per layer,
    /// plants and meshes the prefixes that grew, and lists the draws.
    pub fn plan(&mut self, view: &View) -> FramePlan {
        let aspect = view.width.max(1) as f32 / view.height.max(1) as f32;
        let view_proj = view.camera.view_proj(self.reach_m, aspect);
        let eye = view.camera.eye(self.reach_m);
        let planes = frustum_planes(&view_proj);
        // Visible tiles, nearest first (the frame budget coarsens the farthest first).
        let mut facing_away = 0;
        let mut hidden = 0;
        // How far anything standing on a tile reaches from its surface: the tallest
        // strand, swayed by the wind (a breeze moves a tip about 4 cm).
        let reach = self.tallest_m + view.wind.map_or(0.0, |w| 0.05 * w.strength.abs());
        let mut visible: Vec<(usize, f32)> = self
            .tiles
            .iter()
            .enumerate()
            .filter(|(_, b)| in_frustum(&planes, b.centre, b.radius))
            .filter(|(_, b)| {
                let facing = faces(b, eye);
                facing_away += u32::from(!facing);
                facing
            })
            .filter(|&(t, _)| {
                let behind = self
                    .occluder
                    .as_ref()
                    .is_some_and(|o| o.hides_tile(eye, t, reach));
                hidden += u32::from(behind);
                !behind
            })
            .map(|(t, b)| (t, ((eye - b.centre).length() - b.surface_radius).max(0.05)))
            .filter(|&(_, d)| view.farthest_m.is_none_or(|far| d <= far))
            .collect();
        visible.sort_by(|a, b| a.1.total_cmp(&b.1));
        // Levels are chosen by size on screen; a bias of F chooses as a frame F times
        // taller would, which puts every switch (and the blend) F times as far.
        let height_px = view.height.max(1) as f32 * lod_bias(view.lod_bias);
        let mut stats = FrameStats {
            tiles_visible: visible.len() as u32,
            tiles_total: self.tiles.len() as u32,
            tiles_facing_away: facing_away,
            tiles_hidden: hidden,
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
        // Choices per (layer, visible tile) at a scale of the switch distances, then
        // within the budget before anything is planted, then what must be planted.
        let choose_at = |scale: f32| -> Vec<Vec<Choice>> {
            (0..self.layers.len())
                .map(|li| {
                    let mode = match view.level_layer {
                        Some(only) if only != li => LevelMode::Auto,
                        _ => view.level,
                    };
                    visible
                        .iter()
                        .map(|&(_, d)| {
                            let mode = match view.level_within_m {
                                Some([near, far]) if !(near..=far).contains(&d) => LevelMode::Auto,
                                _ => mode,
                            };
                            self.choice_at(li, mode, &view.camera, d, height_px * scale)
                        })
                        .collect()
                })
                .collect()
        };
        let mut choices = choose_at(1.0);
        let (scale, coarsened) = self.fit_budget(&visible, &mut choices, choose_at);
        self.last_scale = scale;
        stats.tiles_coarsened = coarsened;
        stats.budget_limited = scale < 1.0 || coarsened > 0;
        stats.budget_scale = scale;
        let (done, pending) = self.make_resident(&visible, &choices);
        self.let_go_unwanted(&visible);
        stats.tiles_rebuilt = done;
        stats.tiles_pending = pending + self.make_cards_resident(&visible, &choices);
        if pending > 0 {
            self.fall_back_to_resident(&visible, &mut choices);
        }
        // The blend toward the surface is the last switch, and comes nearer with the
        // others: left where the view asks, a budget's frame showed a band of cards
        // drawn whole between the nearer switches and the far blend.
        let blend_px = height_px * scale;
        let blend: Vec<[f32; 2]> = (0..self.layers.len())
            .map(|li| {
                if view.blend_to_surface {
                    self.blend_distances(li, &view.camera, blend_px)
                } else {
                    [f32::MAX; 2]
                }
            })
            .collect();
        // The ground between the strands turns to the canopy as the first layer's strands
        // blend toward it, whether or not the strands themselves blend.
        let canopy_m = self.blend_distances(0, &view.camera, blend_px);
        let draws = self.draws(&visible, &choices, &blend, canopy_m, &mut stats);
        FramePlan {
            view_proj,
            eye,
            draws,
            stats,
            canopy: self.canopy,
            canopy_ground: self.canopy_ground,
            ground_is_plane: self.kind.flat_span_m().is_some(),
        }
    }

    /// What layer `li` draws at `d` metres in `mode`.
    fn choice_at(
        &self,
        li: usize,
        mode: LevelMode,
        camera: &Camera,
        d: f32,
        height_px: f32,
    ) -> Choice {
        let s = &self.layers[li].shared;
        let ppm = camera.px_per_m(d, height_px);
        match mode {
            LevelMode::Auto => choose(
                s.switches.width_m * ppm,
                &s.switches.widen,
                s.switches.card_height_m * ppm,
            ),
            LevelMode::Forced(Rep::Strands(k)) => Choice {
                rep: Rep::Strands(k.min(s.keep.len() - 1)),
                fade: 0.0,
            },
            LevelMode::Forced(rep) => Choice { rep, fade: 0.0 },
        }
    }

    fn draws(
        &self,
        visible: &[(usize, f32)],
        choices: &[Vec<Choice>],
        blend: &[[f32; 2]],
        canopy_m: [f32; 2],
        stats: &mut FrameStats,
    ) -> Vec<DrawItem> {
        let mut draws = Vec::new();
        let neutral = [0.55, 0.55, 0.55, 1.0];
        let ground = self.material.ground_variation();
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
                    macro_tint: ground.tint,
                    blend_m: canopy_m,
                    ..DrawParams::zeroed()
                },
            });
        }
        let mut card_draws = Vec::new();
        for (li, layer) in self.layers.iter().enumerate() {
            let s = &layer.shared;
            let profile = self.material.layers[li].profile;
            let cutoff = self.material.layers[li].cards.alpha_cutoff;
            let variation = self.material.layers[li].macro_variation;
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
                let card_visible = card_visible(choice, &s.switches);
                let sink = strand_sink(choice, &s.switches);
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
                                widen_cur: s.switches.widen[k],
                                widen_next: if last {
                                    s.switches.widen[k]
                                } else {
                                    s.switches.widen[k + 1]
                                },
                                fade: choice.fade,
                                keep_cur: s.keep[k],
                                // A last level that sinks keeps every strand it has.
                                keep_next: if !last {
                                    s.keep[k + 1]
                                } else if s.switches.ends_in_cards() {
                                    0.0
                                } else {
                                    s.keep[k]
                                },
                                card_visible: 0.0,
                                alpha_cutoff: cutoff,
                                verts_per_strand: profile.vertices_per_strand() as u32,
                                overlay: overlay_color(choice.rep),
                                blend_m,
                                along_scale: 1.0,
                                paired: u32::from(mesh.paired),
                                macro_tint: variation.tint,
                                macro_length: variation.length,
                                sink,
                                pad: [0.0; 3],
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
                    ls.triangles += (cards.index_count() / 3) as u64;
                    card_draws.push(DrawItem {
                        target: DrawTarget::Cards { layer: li, tile: t },
                        index_count: cards.index_count() as u32,
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
                            along_scale: s.switches.card_along_scale,
                            paired: u32::from(cards.paired),
                            macro_tint: variation.tint,
                            macro_length: variation.length,
                            sink: 0.0,
                            pad: [0.0; 3],
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
