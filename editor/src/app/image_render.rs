//! File › Render Image, one concern with its own state ([`ImageRenderer`]): the dialog
//! that takes the PNG file and the frame's size, and the render (the material built again
//! from what the preview shows, on the preview's surface, seen by the preview's camera,
//! sun, exposure and levels) with its stage and Cancel. The material and the planting
//! run on a worker and the PNG is written on another; the frame itself is drawn on the
//! window's device on the window's thread (see [`ImageRenderer::draw`]), so the window
//! pauses for the GPU's time alone.

use crate::preview::{Ground, Source, Surfaces, scene_of};
use eframe::egui;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::Duration;
use tuft_graph::limits::{MAX_FRAME_PIXELS, MAX_FRAME_SIDE};
use tuft_render::View;

impl super::Editor {
    /// File › Render Image's state: its dialog and the render running.
    #[must_use]
    pub fn image_renderer(&self) -> &ImageRenderer {
        &self.image_render
    }

    /// Blocks until a running Render Image has finished, and takes how it ended (tests).
    pub fn wait_for_image(&mut self) {
        if let Some(ask) = self.image_render.wait() {
            self.image_render_asked(ask);
        }
    }

    /// The render's dialog and progress, and what the author asked there.
    pub(super) fn image_render_window(&mut self, ctx: &egui::Context) {
        if let Some(ask) = self.image_render.ui(ctx) {
            self.image_render_asked(ask);
        }
    }

    fn image_render_asked(&mut self, ask: RenderAsk) {
        match ask {
            RenderAsk::ChooseFile => {
                let name = format!(
                    "{}.png",
                    tuft_graph::naming::file_stem(&self.session.doc().graph.name)
                );
                self.choose(crate::file_dialogs::Purpose::Image(name));
            }
            RenderAsk::Start(out, (width, height)) => {
                let source = self
                    .baked
                    .source()
                    .unwrap_or_else(|| Source::Graph(Box::new(self.session.doc().graph.clone())));
                let view = View {
                    width,
                    height,
                    ..self.preview.view
                };
                let device = self.device.clone();
                let ground = self.surface.ground();
                if let Err(why) = self.image_render.start(source, ground, view, device, out) {
                    self.message = Some((format!("Render Image: {why}"), true));
                }
            }
            RenderAsk::Finished(said, failed) => self.message = Some((said, failed)),
        }
    }
}

/// What the author asked of the render in a frame, for the editor to carry out.
#[derive(Debug, PartialEq)]
pub enum RenderAsk {
    /// Choose the file (a file dialog).
    ChooseFile,
    /// Render the preview's picture at this size into this file.
    Start(PathBuf, (u32, u32)),
    /// The render finished: what the status bar says, and whether it is a failure.
    Finished(String, bool),
}

/// A render's progress, from its worker.
enum Progress {
    /// The stage it has reached.
    Stage(&'static str),
    /// The scene, planted for the view: the window's thread draws it next, and hands
    /// the frame and this sender (the worker's, which is done) to the writer. While the
    /// render runs one sender lives, so a worker or writer that stops is seen as one.
    Planted(Box<tuft_render::Scene>, Sender<Progress>),
    /// Written (the file), or why not.
    Done(Result<PathBuf, String>),
}

/// A render running.
struct Running {
    progress: Receiver<Progress>,
    stage: &'static str,
    cancel: Arc<AtomicBool>,
    view: View,
    device: Option<egui_wgpu::RenderState>,
    /// The planted scene and the sender the writer reports on, drawn at the next frame
    /// (after one that says so).
    planted: Option<(Box<tuft_render::Scene>, Sender<Progress>)>,
    out: PathBuf,
}

/// File › Render Image: the dialog's file and size, whether it shows, and the render
/// running, if one is.
pub struct ImageRenderer {
    file: String,
    size: (u32, u32),
    dialog: bool,
    running: Option<Running>,
}

impl Default for ImageRenderer {
    fn default() -> Self {
        Self {
            file: String::new(),
            size: (1920, 1080),
            dialog: false,
            running: None,
        }
    }
}

impl ImageRenderer {
    /// Opens the dialog, unless a render is running.
    pub fn open_dialog(&mut self) {
        if self.running.is_none() {
            self.dialog = true;
        }
    }

    /// Whether the dialog is showing.
    #[must_use]
    pub fn dialog_open(&self) -> bool {
        self.dialog
    }

    /// Whether a render is running.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Takes a file chosen for the image.
    pub fn file_chosen(&mut self, path: &std::path::Path) {
        self.file = path.display().to_string();
    }

    /// The dialog and the running render's progress; what the author asked, if anything.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<RenderAsk> {
        let asked = self.dialog_window(ctx);
        let finished = self.progress_window(ctx);
        asked.or(finished)
    }

    fn dialog_window(&mut self, ctx: &egui::Context) -> Option<RenderAsk> {
        if !self.dialog {
            return None;
        }
        let mut open = true;
        let (mut go, mut choose) = (false, false);
        egui::Window::new("Render Image")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::Grid::new("render image")
                    .num_columns(2)
                    .show(ui, |ui| {
                        ui.label("PNG file");
                        choose = super::widgets::path_field(ui, &mut self.file);
                        ui.end_row();
                        ui.label("Size");
                        ui.horizontal(|ui| {
                            let side = 16..=MAX_FRAME_SIDE;
                            ui.add(egui::DragValue::new(&mut self.size.0).range(side.clone()));
                            ui.label("×");
                            ui.add(egui::DragValue::new(&mut self.size.1).range(side));
                            ui.label("pixels");
                        });
                        ui.end_row();
                    });
                let pixels = u64::from(self.size.0) * u64::from(self.size.1);
                let fits = pixels <= MAX_FRAME_PIXELS;
                if !fits {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!("At most {MAX_FRAME_PIXELS} pixels a frame (7680 × 4320)"),
                    );
                }
                ui.label("The preview's picture: its surface, camera, sun, exposure and levels.");
                let ready = fits && !self.file.trim().is_empty();
                go = ui.add_enabled(ready, egui::Button::new("Render")).clicked();
            });
        if go {
            self.dialog = false;
            return Some(RenderAsk::Start(PathBuf::from(self.file.trim()), self.size));
        }
        if !open {
            self.dialog = false;
        }
        choose.then_some(RenderAsk::ChooseFile)
    }

    /// Renders `source` on `ground` as `view` sees it into the PNG `out` on a worker, on
    /// `device` (the window's; `None`: a device of its own). A file that cannot be
    /// written is refused before anything is built.
    ///
    /// # Errors
    /// Why `out` cannot take a frame.
    pub fn start(
        &mut self,
        source: Source,
        ground: Ground,
        view: View,
        device: Option<egui_wgpu::RenderState>,
        out: PathBuf,
    ) -> Result<(), String> {
        crate::frame_file::check_png_path(&out)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, progress) = std::sync::mpsc::channel();
        let c = cancel.clone();
        crate::workers::spawn("tuft render image", move || {
            match plant(source, &ground, &view, &tx, &c) {
                Ok(scene) => tx.send(Progress::Planted(Box::new(scene), tx.clone())),
                Err(why) => tx.send(Progress::Done(Err(why))),
            }
            .ok();
        });
        self.running = Some(Running {
            progress,
            stage: "starting",
            cancel,
            view,
            device,
            planted: None,
            out,
        });
        Ok(())
    }

    /// Draws the planted scene on the window's device, on this (the window's) thread,
    /// and hands the frame to a writer: one device serves the window and the render (a
    /// second beside it is what software GL cannot run, and the window's own device
    /// cannot be locked from another thread for as long as a software frame takes).
    fn draw(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let Some((mut scene, report)) = running.planted.take() else {
            return;
        };
        let drawn = match running.device.clone() {
            Some(rs) => tuft_render::Offscreen::on_device(rs.device, rs.queue, &rs.adapter),
            None => tuft_render::Offscreen::new(),
        }
        .and_then(|mut offscreen| offscreen.render(&mut scene, &running.view));
        let out = running.out.clone();
        match drawn {
            Err(e) => {
                let _ = report.send(Progress::Done(Err(e.to_string())));
            }
            Ok(frame) => {
                running.stage = "writing";
                crate::workers::spawn("tuft image writer", move || {
                    drop(scene);
                    let written = crate::frame_file::write_png(&frame.image, &out)
                        .map(|()| out)
                        .map_err(|e| format!("{e:#}"));
                    let _ = report.send(Progress::Done(written));
                });
            }
        }
    }

    /// Takes what the render reported; how it ended, once it has. `wait`: blocks until
    /// something comes.
    fn take_progress(&mut self, wait: bool) -> Option<Result<PathBuf, String>> {
        let running = self.running.as_mut()?;
        loop {
            let next = if wait {
                running
                    .progress
                    .recv()
                    .map_err(|_| TryRecvError::Disconnected)
            } else {
                running.progress.try_recv()
            };
            match next {
                Ok(Progress::Stage(stage)) => running.stage = stage,
                Ok(Progress::Planted(scene, report)) => {
                    running.stage = "drawing";
                    running.planted = Some((scene, report));
                    return None;
                }
                Ok(Progress::Done(result)) => return Some(result),
                Err(TryRecvError::Empty) => return None,
                // The senders live while anything runs; none left is a worker gone.
                Err(TryRecvError::Disconnected) => {
                    return Some(Err("the render stopped".into()));
                }
            }
        }
    }

    /// Blocks until a running render has finished, drawing on this thread (tests).
    pub fn wait(&mut self) -> Option<RenderAsk> {
        while self.running.is_some() {
            if let Some(result) = self.take_progress(true) {
                return Some(self.finish(result));
            }
            self.draw();
        }
        None
    }

    fn finish(&mut self, result: Result<PathBuf, String>) -> RenderAsk {
        self.running = None;
        match result {
            Ok(file) => RenderAsk::Finished(format!("Rendered {}", file.display()), false),
            Err(e) => RenderAsk::Finished(format!("Render Image stopped: {e}"), true),
        }
    }

    /// The running render's window (its stage and Cancel); how it ended, once it has.
    fn progress_window(&mut self, ctx: &egui::Context) -> Option<RenderAsk> {
        // A scene planted at the last frame, which said so, is drawn now.
        self.draw();
        if let Some(result) = self.take_progress(false) {
            return Some(self.finish(result));
        }
        let running = self.running.as_ref()?;
        egui::Window::new("Rendering image")
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(running.out.display().to_string());
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(running.stage);
                });
                if ui.button("Cancel").clicked() {
                    running.cancel.store(true, Ordering::Relaxed);
                }
            });
        ctx.request_repaint_after(Duration::from_millis(100));
        None
    }
}

/// The render's stages on its worker: the material, then the scene planted for the view
/// (the frame is drawn on the window's thread). Cancel is looked at between stages.
fn plant(
    source: Source,
    ground: &Ground,
    view: &View,
    progress: &Sender<Progress>,
    cancel: &AtomicBool,
) -> Result<tuft_render::Scene, String> {
    let cancelled = || cancel.load(Ordering::Relaxed);
    let stage = |s| {
        let _ = progress.send(Progress::Stage(s));
        if cancelled() {
            Err("cancelled".to_owned())
        } else {
            Ok(())
        }
    };
    stage("evaluating the material")?;
    let material = match source {
        Source::Graph(graph) => {
            crate::material::from_graph(&graph, crate::material::PREVIEW_RESOLUTION)
                .map(|(m, _)| m)
                .map_err(|e| format!("{e:#}"))?
        }
        Source::Baked(dir) => tuft_render::baked::load(&dir).map_err(|e| e.to_string())?,
    };
    stage("planting")?;
    let mut scene = match scene_of(
        material,
        ground,
        &mut Surfaces::default(),
        view,
        &tuft_render::Reuse::default(),
        &cancelled,
    ) {
        Some(scene) => scene?,
        None => return Err("cancelled".to_owned()),
    };
    // Everything the view wants, planted here and not on the window's thread (the
    // preview's scene plants a slice a frame on a thread of its own; this one at once).
    scene.set_deferred_planting(false);
    scene.set_plant_budget(None);
    scene.plan(view);
    stage("drawing")?;
    Ok(scene)
}
