//! The preview's surface when it is a mesh of the author's: chosen with Preview ›
//! Surface › mesh…, dropped on the window, or named by the document (its layout keeps the
//! path, relative to the graph file, and the UV scale). The file is read on a worker; a
//! mesh that cannot be read leaves the previous surface and the document as they were,
//! and says why. [`SurfacePanel`] is the concern's own state (what the preview shows
//! on, the mesh last read, the mesh being read) and its rows in the preview panel; each
//! rebuild the editor asks of the preview names the ground it plants on.

use super::Editor;
use crate::command::Command;
use crate::preview::{Ground, LoadedMesh};
use eframe::egui;
use std::path::Path;
use std::sync::mpsc::{Receiver, TryRecvError};
use tuft_render::SurfaceKind;

/// The preview's surface: what it shows on, the mesh last read, a mesh being read, and
/// the rows that choose them.
#[derive(Default)]
pub struct SurfacePanel {
    /// The surface shown.
    kind: SurfaceKind,
    /// The mesh last read, shown when `kind` is [`SurfaceKind::Mesh`].
    mesh: Option<LoadedMesh>,
    /// A mesh file being read (and measured) on a worker.
    load: Option<Receiver<Result<LoadedMesh, String>>>,
}

/// What the author asked of the surface, for the editor to carry out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SurfaceAsk {
    /// Show on this kind (a mesh: the one last read, or choose one).
    Kind(SurfaceKind),
    /// Choose a mesh file.
    ChooseMesh,
    /// Stand at eye height on the field, or stop.
    Walk(bool),
    /// The mesh's repeats per UV unit (`None`: measured).
    UvScale(Option<f32>),
}

impl SurfacePanel {
    /// The surface shown.
    #[must_use]
    pub fn kind(&self) -> SurfaceKind {
        self.kind
    }

    /// The mesh last read, if one has been.
    #[must_use]
    pub fn mesh(&self) -> Option<&LoadedMesh> {
        self.mesh.as_ref()
    }

    /// What the next rebuild plants on: the kind chosen, the mesh when it is a mesh (the
    /// sphere while none is loaded).
    #[must_use]
    pub fn ground(&self) -> Ground {
        match (&self.mesh, self.kind) {
            (Some(mesh), SurfaceKind::Mesh) => Ground::Mesh(mesh.clone()),
            (None, SurfaceKind::Mesh) => Ground::Kind(SurfaceKind::Sphere),
            (_, kind) => Ground::Kind(kind),
        }
    }

    /// Starts reading the mesh in `path` on a worker, at `uv_scale` repeats per UV unit
    /// (`None`: measured).
    pub fn read(&mut self, path: &Path, uv_scale: Option<f32>) {
        let (tx, done) = std::sync::mpsc::channel();
        let file = path.to_owned();
        crate::workers::spawn("tuft mesh reader", move || {
            let read = tuft_render::mesh_file::load(&file)
                .map(|data| LoadedMesh::new(file, data, uv_scale))
                .map_err(|e| e.to_string());
            let _ = tx.send(read);
        });
        self.load = Some(done);
    }

    /// The mesh read, once its worker is done (`wait`: blocking until it is).
    pub fn poll(&mut self, wait: bool) -> Option<Result<LoadedMesh, String>> {
        let done = self.load.as_ref()?;
        let read = if wait {
            done.recv().map_err(|_| TryRecvError::Disconnected)
        } else {
            done.try_recv()
        };
        match read {
            Err(TryRecvError::Empty) => None,
            Ok(read) => {
                self.load = None;
                Some(read)
            }
            Err(TryRecvError::Disconnected) => {
                self.load = None;
                Some(Err("the mesh reader stopped".into()))
            }
        }
    }

    /// Whether a mesh is being read.
    #[must_use]
    pub fn reading(&self) -> bool {
        self.load.is_some()
    }

    /// The surface row (the kinds, "mesh…", on the field the walk, ticked while
    /// `walking`); what the author asked.
    pub fn ui(&self, ui: &mut egui::Ui, walking: bool) -> Option<SurfaceAsk> {
        let mut asked = None;
        egui::ComboBox::from_id_salt("surface")
            .selected_text(self.kind.name())
            .show_ui(ui, |ui| {
                for k in SurfaceKind::ALL {
                    if ui.selectable_label(self.kind == k, k.name()).clicked() {
                        asked = Some(SurfaceAsk::Kind(k));
                    }
                }
                if self.mesh.is_some()
                    && ui
                        .selectable_label(self.kind == SurfaceKind::Mesh, "mesh")
                        .clicked()
                {
                    asked = Some(SurfaceAsk::Kind(SurfaceKind::Mesh));
                }
                if ui.selectable_label(false, "mesh…").clicked() {
                    asked = Some(SurfaceAsk::ChooseMesh);
                }
            });
        if self.kind == SurfaceKind::Field {
            let mut walk = walking;
            ui.checkbox(&mut walk, "walk").on_hover_text(
                "Stand at eye height on the field: W A S D walk (Shift runs), the wheel \
                 raises the eye, dragging looks around",
            );
            if walk != walking {
                asked = Some(SurfaceAsk::Walk(walk));
            }
        }
        asked
    }

    /// The mesh's UV scale, on a row of its own under the surface row (beside it, the
    /// checkbox and the number widened the side panel when a mesh was chosen), for a
    /// material repeating every `repeat_m`; the scale asked for.
    pub fn uv_scale_ui(&self, ui: &mut egui::Ui, repeat_m: f32) -> Option<SurfaceAsk> {
        if self.kind != SurfaceKind::Mesh {
            return None;
        }
        let mesh = self.mesh.as_ref()?;
        let scale = mesh.uv_scale;
        let mut measured = scale.is_none();
        let mut value = mesh.scale(repeat_m);
        let mut asked = None;
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut measured, "measured UV scale")
                .on_hover_text(
                    "Repeats of the material per UV unit of the mesh: measured from the mesh's area \
                 so the material keeps its size in metres, or set by hand",
                );
            let changed_value = ui
                .add_enabled(
                    !measured,
                    egui::DragValue::new(&mut value)
                        .range(0.001..=100_000.0)
                        .speed(0.05)
                        .suffix(" repeats / UV"),
                )
                .changed();
            let wanted = (!measured).then_some(value);
            if wanted != scale && (changed_value || measured != scale.is_none()) {
                asked = Some(SurfaceAsk::UvScale(wanted));
            }
        });
        asked
    }
}

impl Editor {
    /// Starts reading the mesh in `path` to preview on, at `uv_scale` repeats per UV unit
    /// (`None`: measured).
    pub fn use_mesh(&mut self, path: &Path, uv_scale: Option<f32>) {
        self.surface.read(path, uv_scale);
        self.message = Some((format!("Reading {}…", path.display()), false));
    }

    /// Blocks until a mesh being read has been taken up (tests).
    pub fn wait_for_mesh(&mut self) {
        if let Some(read) = self.surface.poll(true) {
            self.mesh_read(read);
        }
    }

    /// Takes up a mesh once its worker has read it.
    pub(super) fn poll_mesh(&mut self, ctx: &egui::Context) {
        match self.surface.poll(false) {
            Some(read) => self.mesh_read(read),
            None if self.surface.reading() => {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            }
            None => {}
        }
    }

    fn mesh_read(&mut self, read: Result<LoadedMesh, String>) {
        match read {
            Ok(mesh) => {
                // A mesh wound so the preview would show it wrong says so (it is still
                // shown: the author sees what the note means).
                self.message = Some(match &mesh.winding_note {
                    Some(note) => (
                        format!("Previewing on {}: {note}", mesh.path.display()),
                        true,
                    ),
                    None => (format!("Previewing on {}", mesh.path.display()), false),
                });
                self.surface.mesh = Some(mesh);
                self.surface.kind = SurfaceKind::Mesh;
                self.keep_mesh_in_document();
                self.request_preview();
            }
            Err(e) => {
                self.message = Some((format!("{e} (the surface stays as it was)"), true));
            }
        }
    }

    /// The document's layout names the mesh shown (relative to the graph file where it
    /// can) and its UV scale.
    fn keep_mesh_in_document(&mut self) {
        let Some(mesh) = &self.surface.mesh else {
            return;
        };
        let folder = self.session.doc().graph.folder.get().map(Path::to_owned);
        let wanted = Some(tuft_graph::io::PreviewMesh {
            path: tuft_graph::images::relative_to(folder.as_deref(), &mesh.path),
            repeats_per_uv: mesh.uv_scale,
        });
        if self.session.doc().preview_mesh != wanted {
            self.session.arrange(|d| d.preview_mesh = wanted);
        }
    }

    /// Walking the field (while the pointer is over the preview): W, A, S, D move the eye
    /// over the ground at 1.5 m/s (Shift: 6 m/s) the way it looks, the wheel raises and
    /// lowers it, dragging looks around. Returns whether the camera walks (the wheel
    /// then moved the eye, not the orbit's distance).
    pub(super) fn walk(&mut self, ui: &egui::Ui) -> bool {
        let cam = &mut self.preview.view.camera;
        let Some(eye) = cam.walk_eye else {
            return false;
        };
        let (dt, keys, scroll, fast) = ui.input(|i| {
            let key = |k| if i.key_down(k) { 1.0 } else { 0.0 };
            (
                i.stable_dt.min(0.1),
                [
                    key(egui::Key::W) - key(egui::Key::S),
                    key(egui::Key::D) - key(egui::Key::A),
                ],
                i.smooth_scroll_delta.y,
                i.modifiers.shift,
            )
        });
        // Ahead is away from the orbit's direction, over the ground.
        let d = cam.direction();
        let len = d.x.hypot(d.z).max(1e-6);
        let ahead = [-d.x / len, -d.z / len];
        let right = [-ahead[1], ahead[0]];
        let speed = if fast { 6.0 } else { 1.5 } * dt;
        let half = tuft_render::camera::FIELD_M / 2.0;
        let walked = |k: usize| eye[k] + (ahead[k / 2] * keys[0] + right[k / 2] * keys[1]) * speed;
        cam.walk_eye = Some([
            walked(0).clamp(-half, half),
            (eye[1] * (scroll * 0.002).exp()).clamp(0.3, 60.0),
            walked(2).clamp(-half, half),
        ]);
        if keys != [0.0, 0.0] {
            ui.ctx().request_repaint();
        }
        true
    }

    /// The surface chosen from the menu: a built-in kind, which the document's layout
    /// then names (no mesh).
    pub(super) fn surface_chosen(&mut self, kind: SurfaceKind) {
        if kind != SurfaceKind::Field {
            self.preview.view.camera.walk_eye = None;
        }
        let cam = &mut self.preview.view.camera;
        *cam = cam.kept_above(kind.min_pitch());
        self.surface.kind = kind;
        if kind != SurfaceKind::Mesh && self.session.doc().preview_mesh.is_some() {
            self.session.arrange(|d| d.preview_mesh = None);
        }
        self.request_preview();
    }

    /// Preview › Surface: a built-in kind, or the mesh last read (choosing one when none
    /// has been).
    pub(super) fn surface_command(&mut self, kind: SurfaceKind) {
        if kind == SurfaceKind::Mesh && self.surface.mesh.is_none() {
            self.choose(crate::file_dialogs::Purpose::Mesh);
            return;
        }
        if kind != self.surface.kind {
            self.surface_chosen(kind);
            if kind == SurfaceKind::Mesh {
                self.keep_mesh_in_document();
            }
        }
    }

    /// Reads the mesh the document names, if it names one (after a document is opened).
    pub(super) fn load_document_mesh(&mut self) {
        let Some(mesh) = self.session.doc().preview_mesh.clone() else {
            // A document without a mesh is previewed on the sphere, whatever the last
            // one was shown on: the surface list, the camera and the picture agree.
            // Regression: after a mesh, the list said sphere and the preview drew the
            // mesh still (no rebuild was asked for the sphere).
            if self.surface.kind != SurfaceKind::Sphere || self.surface.mesh.is_some() {
                self.surface.mesh = None;
                self.surface_chosen(SurfaceKind::Sphere);
            }
            return;
        };
        let folder = self.session.doc().graph.folder.get().map(Path::to_owned);
        let path = tuft_graph::images::resolve(folder.as_deref(), &mesh.path);
        self.use_mesh(&path, mesh.repeats_per_uv);
    }

    /// The preview panel's surface row, and what the author asked there carried out.
    pub(super) fn surface_row(&mut self, ui: &mut egui::Ui) {
        let walking = self.preview.view.camera.walk_eye.is_some();
        let asked = self.surface.ui(ui, walking);
        self.surface_asked(asked);
    }

    /// The mesh's UV scale row, and the scale asked for taken.
    pub(super) fn uv_scale_row(&mut self, ui: &mut egui::Ui) {
        let repeat_m = self.session.doc().graph.repeat_m;
        let asked = self.surface.uv_scale_ui(ui, repeat_m);
        self.surface_asked(asked);
    }

    /// Carries out what the author asked of the surface.
    fn surface_asked(&mut self, asked: Option<SurfaceAsk>) {
        match asked {
            Some(SurfaceAsk::Kind(k)) => self.surface_command(k),
            Some(SurfaceAsk::ChooseMesh) => self.queue.push(Command::ChooseMesh),
            Some(SurfaceAsk::Walk(walking)) => {
                let cam = &mut self.preview.view.camera;
                cam.walk_eye = walking.then_some([0.0, 1.6, 0.0]);
                cam.pitch = if walking { 0.03 } else { 0.07 };
            }
            Some(SurfaceAsk::UvScale(wanted)) => {
                if let Some(mesh) = self.surface.mesh.as_mut() {
                    mesh.uv_scale = wanted;
                    self.keep_mesh_in_document();
                    self.request_preview();
                }
            }
            None => {}
        }
    }
}
