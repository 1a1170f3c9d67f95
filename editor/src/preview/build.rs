//! What a rebuild makes, off the UI thread: a material (evaluated from the document's
//! graph, or read from a baked set's folder) laid on the surface shown, the nearest
//! strands planted before it lands. The worker that runs it keeps the surfaces and sets
//! it can reuse between rebuilds.

use super::*;

/// What a preview draws: the document's graph, or a baked set read from its folder
/// (`tuft_render::baked`, no graph involved).
#[derive(Clone, Debug)]
pub enum Source {
    /// A graph, evaluated.
    Graph(Box<MaterialGraph>),
    /// A baked set's folder.
    Baked(std::path::PathBuf),
}

/// A mesh of the author's, read from its file, to preview on.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedMesh {
    /// The file it was read from.
    pub path: std::path::PathBuf,
    /// The mesh.
    pub data: Arc<tuft_strands::surface::MeshData>,
    /// Its metres of surface per UV unit, measured once when it was read.
    pub metres_per_uv: f32,
    /// Repeats of the material per UV unit; `None`: measured, so the material keeps
    /// its size in metres.
    pub uv_scale: Option<f32>,
    /// What is wrong with the way its faces wind, if anything
    /// ([`tuft_strands::surface::MeshData::winding_note`]), found when it was read.
    pub winding_note: Option<String>,
}

impl LoadedMesh {
    /// `data` read from `path`, measured and its winding looked at (on the thread that
    /// read it: the look walks every triangle).
    #[must_use]
    pub fn new(
        path: std::path::PathBuf,
        data: tuft_strands::surface::MeshData,
        uv_scale: Option<f32>,
    ) -> Self {
        Self {
            path,
            metres_per_uv: data.metres_per_uv(),
            // The reader has checked the mesh.
            winding_note: data.winding_note(),
            data: Arc::new(data),
            uv_scale,
        }
    }

    /// Repeats per UV unit for a material of `repeat_m` metres: the one set, or the
    /// measured one.
    #[must_use]
    pub fn scale(&self, repeat_m: f32) -> f32 {
        self.uv_scale
            .unwrap_or_else(|| tuft_strands::surface::repeats_per_uv(self.metres_per_uv, repeat_m))
    }
}

/// What the material is planted on: a built-in surface, or a mesh of the author's laid
/// out by its UVs.
#[derive(Clone, Debug, PartialEq)]
pub enum Ground {
    /// Sphere, plane, box or field.
    Kind(SurfaceKind),
    /// A mesh.
    Mesh(LoadedMesh),
}

impl Ground {
    /// The surface kind the camera and the menus go by.
    #[must_use]
    pub fn kind(&self) -> SurfaceKind {
        match self {
            Self::Kind(k) => *k,
            Self::Mesh(_) => SurfaceKind::Mesh,
        }
    }
}

/// The last mesh surface built, kept while the mesh (the same allocation, held here so
/// it cannot be another at the same address) and its scale stay the same: an edit to
/// the graph does not lay the mesh out again.
#[derive(Default)]
pub struct Surfaces {
    pub(super) last: Option<(
        Arc<tuft_strands::surface::MeshData>,
        u32,
        Arc<tuft_strands::surface::Surface>,
    )>,
}

impl Surfaces {
    /// `ground` for a material of `repeat_m`: a built-in kind, or the mesh as a surface.
    ///
    /// # Errors
    /// A mesh that cannot be a surface at that scale.
    pub(super) fn of(
        &mut self,
        ground: &Ground,
        repeat_m: f32,
    ) -> Result<Option<Arc<tuft_strands::surface::Surface>>, String> {
        let Ground::Mesh(mesh) = ground else {
            return Ok(None);
        };
        let scale = mesh.scale(repeat_m);
        if let Some((data, bits, surface)) = &self.last
            && Arc::ptr_eq(data, &mesh.data)
            && *bits == scale.to_bits()
        {
            return Ok(Some(surface.clone()));
        }
        let surface = Arc::new(
            tuft_strands::surface::Surface::from_mesh(&mesh.data, scale)
                .map_err(|e| format!("the preview mesh: {e}"))?,
        );
        self.last = Some((mesh.data.clone(), scale.to_bits(), surface.clone()));
        Ok(Some(surface))
    }
}

/// The baked set last read, kept while its manifest is the one read: another surface
/// or view of the same set neither reads its files again nor rebuilds its cards (its
/// sets stay the same allocations, so the scene's `Reuse` finds them).
#[derive(Default)]
pub(super) struct BakedSets {
    pub(super) last: Option<(
        std::path::PathBuf,
        std::time::SystemTime,
        tuft_render::Material,
    )>,
}

impl BakedSets {
    /// The material of the set in `dir`, read again only when its manifest changed (a
    /// bake replaces the folder whole, manifest and all).
    pub(super) fn material(
        &mut self,
        dir: &std::path::Path,
    ) -> Result<tuft_render::Material, String> {
        let stamp = std::fs::metadata(dir.join("manifest.ron"))
            .and_then(|m| m.modified())
            .ok();
        if let (Some((d, t, material)), Some(stamp)) = (&self.last, stamp)
            && d == dir
            && *t == stamp
        {
            return Ok(material.clone());
        }
        let material = tuft_render::baked::load(dir).map_err(|e| e.to_string())?;
        self.last = stamp.map(|t| (dir.to_owned(), t, material.clone()));
        Ok(material)
    }
}

pub(super) struct Job {
    /// Counts every request, whatever its source: a newer one supersedes it.
    pub(super) ticket: u64,
    /// The document generation it shows (what `Preview::shown` reports).
    pub(super) generation: u64,
    pub(super) source: Source,
    pub(super) ground: Ground,
    /// The view at the time of the edit: the worker plants what it shows, so the UI
    /// thread's first frame of the new scene plants nothing.
    pub(super) view: View,
}

pub(super) struct Built {
    pub(super) ticket: u64,
    pub(super) generation: u64,
    pub(super) landing: Landing,
    pub(super) ms: f64,
}

/// What a rebuild hands the UI.
pub(super) enum Landing {
    /// A whole scene, or why there is none.
    Scene(Result<Scene, String>),
    /// The edit's strands planted on the last scene's maps; its own maps follow.
    Strands(Scene),
    /// The maps of the scene that landed as `Strands`.
    Maps(tuft_render::SurfaceMaps),
}

/// What an edit costs before the preview shows it: a graph evaluated into a material
/// (maps at [`PREVIEW_MAPS`]², every layer scattered), the scene built on `kind` (cards
/// grouped and placed, atlases drawn, except for the layers `reuse` holds unchanged)
/// and the nearest [`PLANT_BEFORE_LANDING`] strands
/// of `view` planted; the rest is left to the planting thread. `stale` is asked between
/// stages: `None` when it said the build is no longer wanted.
pub fn build_scene(
    evaluator: &Evaluator<'_>,
    ground: &Ground,
    surfaces: &mut Surfaces,
    view: &View,
    reuse: &Reuse,
    stale: &dyn Fn() -> bool,
) -> Option<Result<Scene, String>> {
    let material = match crate::material::from_evaluator(evaluator, PREVIEW_MAPS) {
        Err(e) => return Some(Err(format!("{e:#}"))),
        Ok((material, _)) => material,
    };
    if stale() {
        return None;
    }
    scene_of(material, ground, surfaces, view, reuse, stale)
}

/// A material on `ground`, the nearest strands of `view` planted: the part of a rebuild
/// after the material is known, whatever it came from.
pub fn scene_of(
    material: tuft_render::Material,
    ground: &Ground,
    surfaces: &mut Surfaces,
    view: &View,
    reuse: &Reuse,
    stale: &dyn Fn() -> bool,
) -> Option<Result<Scene, String>> {
    let mut scene = match surfaces.of(ground, material.repeat_m) {
        Err(e) => return Some(Err(e)),
        Ok(Some(mesh)) => Scene::on_mesh(material, mesh, reuse),
        Ok(None) => Scene::reusing(material, ground.kind(), reuse),
    };
    if stale() {
        return None;
    }
    // Plant the nearest tiles before landing; the planting thread plants the rest
    // (farther tiles show a coarser level meanwhile), so the edit shows up sooner.
    scene.set_plant_budget(Some(PLANT_BEFORE_LANDING));
    let _ = scene.plan(view);
    scene.set_deferred_planting(true);
    Some(Ok(scene))
}

/// What the worker has at hand for a rebuild: where it sends what it builds, and what
/// it keeps between rebuilds.
pub(super) struct Worker<'a> {
    pub(super) send: &'a dyn Fn(Landing) -> bool,
    pub(super) stale: &'a dyn Fn() -> bool,
    pub(super) surfaces: &'a mut Surfaces,
    pub(super) reuse: &'a mut Reuse,
    /// The last graph's maps, for the next edit's strands to land on first.
    pub(super) last_maps: &'a mut Option<tuft_render::SurfaceMaps>,
}

/// A rebuild that reached a strand layer, in two landings: the layers scattered and
/// planted on the last scene's maps, so the new strands show before the maps (a third
/// of the rebuild, the relief splat included) are computed; then the maps. `None` when
/// a whole build serves as well: no last maps, nothing reached a layer, or scattering
/// one failed (the whole build reports it). `Some(false)` when the UI is gone.
///
/// The maps are computed after the strands' scene, not beside it: on two cores the two
/// halves side by side land together, no sooner than a whole build (BENCHMARKS.md).
pub(super) fn strands_first(
    evaluator: &Evaluator<'_>,
    job: &Job,
    w: &mut Worker<'_>,
) -> Option<bool> {
    let maps = w.last_maps.clone()?;
    let material = crate::material::wearing(evaluator, maps).ok()?;
    if w.reuse
        .covers(&material, job.ground.kind())
        .iter()
        .all(|&c| c)
    {
        return None;
    }
    match scene_of(
        material,
        &job.ground,
        w.surfaces,
        &job.view,
        w.reuse,
        w.stale,
    ) {
        None => return Some(true),
        Some(Ok(scene)) => {
            *w.reuse = scene.reuse();
            if (w.stale)() {
                return Some(true);
            }
            if !(w.send)(Landing::Strands(scene)) {
                return Some(false);
            }
        }
        Some(Err(e)) => return Some((w.send)(Landing::Scene(Err(e)))),
    }
    let maps = crate::material::maps_of(evaluator, PREVIEW_MAPS);
    if (w.stale)() {
        return Some(true);
    }
    Some(match maps {
        Ok(maps) => {
            *w.last_maps = Some(maps.clone());
            (w.send)(Landing::Maps(maps))
        }
        Err(e) => (w.send)(Landing::Scene(Err(format!("{e:#}")))),
    })
}
