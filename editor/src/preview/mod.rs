//! The live preview: a worker thread turns each new version of the graph into a
//! `tuft_render::Scene` (a newer edit supersedes a stale one), a planting thread fills
//! its tiles in, and an egui-wgpu paint callback draws it (`paint.rs`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tuft_graph::cache::SetCache;
use tuft_graph::{Evaluator, MaterialGraph};
use tuft_render::{FrameStats, LevelMode, Rep, Reuse, Scene, SurfaceKind, View};

mod build;
mod paint;

use build::{BakedSets, Built, Job, Landing, Worker, strands_first};
pub use build::{Ground, LoadedMesh, Source, Surfaces, build_scene, scene_of};
use paint::PreviewCallback;
pub use paint::{PreviewResources, install};

/// Map resolution of the preview's surface.
pub const PREVIEW_MAPS: usize = 256;

/// Strands the planting thread plants before it hands a round back (nearest tiles
/// first, a big tile in slices over several rounds): the frames drawn meanwhile show
/// the finest level each tile holds, and the next frame uploads what the round planted.
/// About 16 ms of the lawn's strands on two cores (`tuft bench --field`).
pub const PLANT_PER_ROUND: usize = 12_000;

/// Strands the worker plants before a rebuilt scene lands.
pub const PLANT_BEFORE_LANDING: usize = 60_000;

/// Every representation `material` has, nearest first: each strand level its layers
/// have, then cards and relief (the side-by-side panes, the overlay's legend).
#[must_use]
pub fn every_rep(material: &tuft_render::Material) -> Vec<Rep> {
    let levels = material
        .layers
        .iter()
        .map(|l| l.levels.keep.len())
        .max()
        .unwrap_or(1);
    (0..levels)
        .map(Rep::Strands)
        .chain([Rep::Cards, Rep::Relief])
        .collect()
}

/// The preview's state on the UI side.
pub struct Preview {
    scene: Arc<Mutex<Option<Scene>>>,
    jobs: Sender<Job>,
    /// Wakes the planting thread.
    plant: Sender<()>,
    results: Receiver<Built>,
    latest: Arc<AtomicU64>,
    /// The newest ticket whose rebuild came back (shown, or failed).
    landed: Arc<AtomicU64>,
    /// The last ticket handed out.
    tickets: u64,
    /// The generation being built, if any.
    pub building: Option<u64>,
    /// The generation on screen.
    pub shown: u64,
    /// The generation whose strands are on screen: ahead of `shown` while its maps are
    /// still being computed.
    pub strands_shown: u64,
    /// Milliseconds the last rebuild took on the worker.
    pub rebuild_ms: Option<f64>,
    /// Why the last rebuild failed.
    pub error: Option<String>,
    /// Why the preview cannot draw at all on this machine's adapter, if it cannot
    /// (nothing is drawn; the editor says why where the picture would be).
    pub unsupported: Option<String>,
    /// Camera, levels, overlay, wind.
    pub view: View,
    /// What the last frame drew.
    pub stats: FrameStats,
    /// Show every level side by side (same camera), instead of one view.
    pub side_by_side: bool,
    /// Turns a second the orbit turns by itself, if it does.
    pub turntable: Option<f32>,
    /// What a frame may cost ([`FrameBudget::interactive`] for the window's adapter).
    pub budget: tuft_render::FrameBudget,
    /// When the last frame was shown, and how long it asked the next to wait: while tiles
    /// wait for the planting thread, frames come at the pace [`pending_wait`] sets.
    last_show: Option<Instant>,
    asked: std::time::Duration,
}

/// How long a frame waits for the next while tiles are being planted, after one that
/// kept the thread busy for `busy` (its own drawing, beyond the wait it was asked for):
/// as long again, within 30 ms and a second. On a GPU that is every other vsync or so;
/// on a software adapter, where one frame of the field takes seconds, drawing takes half
/// the time and the planting thread and the author's clicks the rest, instead of the
/// window drawing back to back until the last tile lands.
#[must_use]
pub fn pending_wait(busy: std::time::Duration) -> std::time::Duration {
    busy.clamp(
        std::time::Duration::from_millis(30),
        std::time::Duration::from_secs(1),
    )
}

impl std::fmt::Debug for Preview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Preview")
            .field("shown", &self.shown)
            .finish_non_exhaustive()
    }
}

pub(crate) use crate::workers::lock;

impl Preview {
    /// Starts the rebuild worker; it keeps the strand sets it scatters in `sets`, and
    /// takes from there any a layer the edit did not touch would scatter again.
    #[must_use]
    pub fn new(sets: Arc<SetCache>) -> Self {
        let (result_tx, results) = channel::<Built>();
        let latest = Arc::new(AtomicU64::new(0));
        let worker_latest = latest.clone();
        // The last scene's layers, for the next edit to take over where unchanged.
        let mut reuse = Reuse::default();
        let mut surfaces = Surfaces::default();
        let mut sets_read = BakedSets::default();
        // The last graph's maps, for the next edit's strands to land on first.
        let mut last_maps: Option<tuft_render::SurfaceMaps> = None;
        let jobs = crate::workers::newest_job_worker(
            "tuft preview",
            crate::workers::Priority::Below,
            move |job: Job| {
                if job.ticket < worker_latest.load(Ordering::Acquire) {
                    return true;
                }
                let start = Instant::now();
                // A newer edit makes this build stale: stop at the next stage.
                let stale = || job.ticket < worker_latest.load(Ordering::Acquire);
                let send = |landing| {
                    result_tx
                        .send(Built {
                            ticket: job.ticket,
                            generation: job.generation,
                            landing,
                            ms: start.elapsed().as_secs_f64() * 1e3,
                        })
                        .is_ok()
                };
                let scene = match &job.source {
                    Source::Graph(graph) => {
                        let evaluator = Evaluator::with_cache(graph, sets.clone());
                        // An edit that reached a layer shows its strands before its maps
                        // (not on a mesh of the author's: its layers' identity is the
                        // mesh's, which `Reuse::covers` cannot tell).
                        if matches!(job.ground, Ground::Kind(_)) {
                            let mut worker = Worker {
                                send: &send,
                                stale: &stale,
                                surfaces: &mut surfaces,
                                reuse: &mut reuse,
                                last_maps: &mut last_maps,
                            };
                            if let Some(alive) = strands_first(&evaluator, &job, &mut worker) {
                                return alive;
                            }
                        }
                        let built = build_scene(
                            &evaluator,
                            &job.ground,
                            &mut surfaces,
                            &job.view,
                            &reuse,
                            &stale,
                        );
                        if let Some(Ok(scene)) = &built {
                            last_maps = Some(scene.material().maps.clone());
                        }
                        built
                    }
                    Source::Baked(dir) => {
                        // A set's maps are not a graph's: the next edit builds whole.
                        last_maps = None;
                        match sets_read.material(dir) {
                            Ok(material) => scene_of(
                                material,
                                &job.ground,
                                &mut surfaces,
                                &job.view,
                                &reuse,
                                &stale,
                            ),
                            Err(e) => Some(Err(e)),
                        }
                    }
                };
                let Some(scene) = scene else {
                    return true;
                };
                if let Ok(scene) = &scene {
                    reuse = scene.reuse();
                }
                // A newer edit arrived meanwhile: this one is stale, drop it.
                if stale() {
                    return true;
                }
                send(Landing::Scene(scene))
            },
        );
        let scene: Arc<Mutex<Option<Scene>>> = Arc::new(Mutex::new(None));
        let (plant, plant_rx) = channel::<()>();
        let planter_scene = scene.clone();
        let landed = Arc::new(AtomicU64::new(0));
        let (planter_latest, planter_landed) = (latest.clone(), landed.clone());
        crate::workers::spawn("tuft planting", move || {
            crate::workers::lower_this_threads_priority(crate::workers::Priority::Below);
            while plant_rx.recv().is_ok() {
                while plant_rx.try_recv().is_ok() {}
                // Take the work out under the lock, plant without it, put it back.
                // A scene an edit is about to replace is not worth planting: the
                // rebuild gets the cores (the UI asks again once it lands).
                while planter_latest.load(Ordering::Acquire)
                    <= planter_landed.load(Ordering::Acquire)
                {
                    let work = lock(&planter_scene)
                        .as_ref()
                        .and_then(|s| s.planting(PLANT_PER_ROUND));
                    let Some(work) = work else { break };
                    let planted = work.run();
                    if let Some(s) = lock(&planter_scene).as_mut() {
                        s.install(planted);
                    }
                }
            }
        });
        Self {
            scene,
            jobs,
            plant,
            results,
            latest,
            landed,
            tickets: 0,
            building: None,
            shown: 0,
            strands_shown: 0,
            rebuild_ms: None,
            error: None,
            unsupported: None,
            view: View::default(),
            stats: FrameStats::default(),
            side_by_side: false,
            turntable: None,
            budget: tuft_render::FrameBudget::default(),
            last_show: None,
            asked: std::time::Duration::ZERO,
        }
    }

    /// Queues a rebuild from `source` on `ground`, reported as document `generation` once
    /// shown (superseding every earlier request).
    pub fn request_source(&mut self, generation: u64, source: Source, ground: Ground) {
        self.tickets += 1;
        self.latest.store(self.tickets, Ordering::Release);
        self.building = Some(generation);
        let _ = self.jobs.send(Job {
            ticket: self.tickets,
            generation,
            source,
            ground,
            view: self.view,
        });
    }

    /// Drops the scene on screen (and its error): nothing is drawn until the next
    /// rebuild lands. A baked set that fails to load shows nothing rather than the
    /// material before it.
    pub fn clear(&mut self) {
        if let Some(old) = lock(&self.scene).take() {
            crate::workers::spawn("tuft freeing", move || drop(old));
        }
        self.error = None;
    }

    /// Takes a finished rebuild, if the newest one is done. Returns whether the scene
    /// changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(built) = self.results.try_recv() {
            changed |= self.take(built);
        }
        changed
    }

    /// Blocks until the newest requested rebuild has arrived (or `limit` passes, or the
    /// worker is gone). For tests and for a command that needs the scene.
    pub fn wait(&mut self, limit: std::time::Duration) {
        while self.building.is_some() {
            match self.results.recv_timeout(limit) {
                Ok(built) => {
                    self.take(built);
                }
                Err(_) => break,
            }
        }
    }

    fn take(&mut self, built: Built) -> bool {
        if built.ticket < self.latest.load(Ordering::Acquire) {
            return false;
        }
        // The planting thread waits for the whole rebuild: the maps that follow the
        // strands want the cores more than the strands' farther tiles do.
        if !matches!(built.landing, Landing::Strands(_)) {
            self.landed.store(built.ticket, Ordering::Release);
        }
        self.rebuild_ms = Some(built.ms);
        let scene = match built.landing {
            Landing::Maps(maps) => {
                // The scene that landed with this edit's strands, unless it failed since.
                if let Some(scene) = lock(&self.scene).as_mut() {
                    scene.replace_maps(maps);
                }
                self.building = None;
                self.shown = built.generation;
                return true;
            }
            Landing::Strands(scene) => {
                self.strands_shown = built.generation;
                Ok(scene)
            }
            Landing::Scene(scene) => {
                self.building = None;
                self.shown = built.generation;
                self.strands_shown = built.generation;
                scene
            }
        };
        match scene {
            Ok(scene) => {
                let old = lock(&self.scene).replace(scene);
                // Freeing a lawn's tile buffers takes longer than a frame: not here.
                if let Some(old) = old {
                    crate::workers::spawn("tuft freeing", move || drop(old));
                }
                self.error = None;
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    /// Plants everything the last frame wanted, on the calling thread (tests, and
    /// anything that must not race the planting thread).
    pub fn plant_now(&self) {
        loop {
            let work = lock(&self.scene)
                .as_ref()
                .and_then(|s| s.planting(usize::MAX));
            let Some(work) = work else { break };
            let planted = work.run();
            if let Some(s) = lock(&self.scene).as_mut() {
                s.install(planted);
            }
        }
    }

    /// `f` of the material on screen, if a scene is.
    pub fn with_material<R>(&self, f: impl FnOnce(&tuft_render::Material) -> R) -> Option<R> {
        lock(&self.scene).as_ref().map(|s| f(s.material()))
    }

    /// The surface the scene on screen stands on, if one is ready.
    #[must_use]
    pub fn scene_kind(&self) -> Option<SurfaceKind> {
        lock(&self.scene).as_ref().map(Scene::kind)
    }

    /// Whether a scene is ready to draw.
    #[must_use]
    pub fn has_scene(&self) -> bool {
        lock(&self.scene).is_some()
    }

    /// Where each layer switches representation at the current camera and size.
    #[must_use]
    pub fn switches(&self, layer: usize, height_px: f32) -> Vec<(Rep, Rep, f32)> {
        lock(&self.scene).as_ref().map_or_else(Vec::new, |s| {
            s.switches(layer, &self.view.camera, height_px)
        })
    }

    /// Draws the preview into `rect` (through a paint callback when a wgpu render state
    /// is available): one view, or every representation side by side.
    pub fn show(&mut self, ui: &mut egui::Ui, rect: egui::Rect) {
        let mut guard = lock(&self.scene);
        let scene = guard.as_mut().filter(|_| self.unsupported.is_none());
        let Some(scene) = scene else {
            drop(guard);
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_gray(30));
            return;
        };
        let panes: Vec<(Option<Rep>, egui::Rect)> = if self.side_by_side {
            let reps = every_rep(scene.material());
            let cols = reps.len().div_ceil(2);
            let (w, h) = (rect.width() / cols as f32, rect.height() / 2.0);
            reps.into_iter()
                .enumerate()
                .map(|(k, rep)| {
                    let min = rect.min + egui::vec2((k % cols) as f32 * w, (k / cols) as f32 * h);
                    (
                        Some(rep),
                        egui::Rect::from_min_size(min, egui::vec2(w, h)).shrink(1.0),
                    )
                })
                .collect()
        } else {
            vec![(None, rect)]
        };
        let ppp = ui.ctx().pixels_per_point();
        let mut pending = false;
        let mut stats_moved = false;
        let mut callbacks = Vec::new();
        for (slot, (rep, pane)) in panes.into_iter().enumerate() {
            let size = [
                ((pane.width() * ppp) as u32).max(1),
                ((pane.height() * ppp) as u32).max(1),
            ];
            let mut view = self.view;
            view.width = size[0];
            view.height = size[1];
            if let Some(rep) = rep {
                view.level = LevelMode::Forced(rep);
            }
            // A level forced (the side-by-side panes, the level menu) is drawn as asked
            // within the full budget; the window's own budget holds the automatic view.
            scene.set_budget(match view.level {
                LevelMode::Auto => self.budget,
                LevelMode::Forced(_) => tuft_render::FrameBudget::default(),
            });
            let plan = scene.plan(&view);
            pending |= plan.stats.tiles_pending > 0;
            if slot == 0 {
                // The status bar was laid out before this panel, with the last frame's
                // figures: when they differ (the planting thread's last tile, say, with
                // no frame after it), one more frame shows these (below).
                stats_moved = self.stats != plan.stats;
                self.stats = plan.stats.clone();
                self.view.width = size[0];
                self.view.height = size[1];
            }
            callbacks.push((
                rep,
                pane,
                PreviewCallback {
                    scene: self.scene.clone(),
                    plan,
                    view,
                    size,
                    slot,
                },
            ));
        }
        drop(guard);
        let now = Instant::now();
        let busy = self.last_show.map_or(std::time::Duration::ZERO, |t| {
            now.duration_since(t).saturating_sub(self.asked)
        });
        self.last_show = Some(now);
        self.asked = std::time::Duration::ZERO;
        if pending {
            // Frames while tiles land come at the planting's pace, not back to back: the
            // figures that moved are shown by the next of them.
            let _ = self.plant.send(());
            self.asked = pending_wait(busy);
            ui.ctx().request_repaint_after(self.asked);
        } else if stats_moved {
            ui.ctx().request_repaint();
        }
        for (rep, pane, callback) in callbacks {
            ui.painter()
                .add(egui_wgpu::Callback::new_paint_callback(pane, callback));
            if let Some(rep) = rep {
                ui.painter().text(
                    pane.left_bottom() + egui::vec2(6.0, -6.0),
                    egui::Align2::LEFT_BOTTOM,
                    rep.to_string(),
                    egui::FontId::proportional(13.0),
                    egui::Color32::WHITE,
                );
            }
        }
    }
}

impl Default for Preview {
    fn default() -> Self {
        Self::new(Arc::default())
    }
}

#[cfg(test)]
mod tests {
    use super::pending_wait;
    use std::time::Duration;

    #[test]
    fn a_frame_that_took_long_waits_as_long_for_the_next_within_bounds() {
        let ms = Duration::from_millis;
        assert_eq!(
            pending_wait(ms(2)),
            ms(30),
            "a GPU's frame: about every other vsync"
        );
        assert_eq!(pending_wait(ms(400)), ms(400), "half the time drawing");
        assert_eq!(
            pending_wait(ms(2500)),
            ms(1000),
            "never longer than a second"
        );
    }
}
