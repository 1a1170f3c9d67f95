//! The editor window: menu bar, node library, the node graph, inspector, live preview,
//! diagnostics and status bar. Every graph edit goes through the [`Session`] (so it can
//! be undone), re-validates at once, and queues a preview rebuild and fresh thumbnails on
//! worker threads; the UI thread only draws.

mod about;
mod baked;
mod edits;
mod export;
mod files;
mod help;
mod layer_inspector;
mod menus;
mod panels;
mod param_editors;
mod recovery;
mod surface;
mod user_library;
mod widgets;

pub use export::ExportSettings;
pub use menus::*;
pub use panels::coverage_text;

use crate::command::Command;
use crate::file_dialogs::{Asking, Dialogs, Purpose};
use crate::graph_view::GraphView;
use crate::preview::Preview;
use crate::session::Session;
use crate::thumbs::Thumbnails;
use anyhow::Context as _;
use eframe::egui;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tuft_graph::{Document, NodeId, Report};

pub use crate::LAWN_PRESET;

/// How long a status message stands before it goes by itself (a failure three times as
/// long); the next action takes it away sooner.
pub const MESSAGE_SECONDS: Duration = Duration::from_secs(5);

/// How often unsaved work is written to the autosave file.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(30);

/// Tells the C allocator (glibc's) to keep freed memory in the process instead of
/// handing it back to the kernel. A rebuild allocates and frees the same hundred-odd megabytes on every
/// edit (candidates, fields, the set, placed tiles); returned to the kernel, every
/// rebuild paid for it again in page faults — about a fifth of the sphere benchmark
/// (`tuft bench --sphere`: 319k minor faults over 16 runs before, 65k after). Blocks up
/// to 32 MiB (glibc's largest threshold) come from the heap; the heap is never trimmed.
/// Call first thing in `main`.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes two of the allocator's tuning numbers; it is called
    // before the program starts any thread.
    #[allow(unsafe_code)]
    unsafe {
        let _ = libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        let _ = libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}

/// Opens the editor on `file`, or on the lawn preset.
pub fn run(file: Option<&Path>) -> anyhow::Result<()> {
    let (session, failed) = startup_session(file)?;
    if let Some(said) = &failed {
        eprintln!("tuft: {said}");
    }
    open_window(session, None, failed)
}

/// The document the editor starts on: `file`, or the lawn preset. A file that cannot be
/// opened gives an empty document and the reason, which the window shows: started from
/// a file manager there is no terminal to read it on, and File › Open is at hand there.
///
/// # Errors
/// Only when the built-in lawn preset cannot be read.
pub fn startup_session(file: Option<&Path>) -> anyhow::Result<(Session, Option<String>)> {
    Ok(match file {
        Some(path) => match Session::open(path) {
            Ok(session) => (session, None),
            Err(e) => (
                Session::untitled(),
                Some(format!("Cannot open {}: {e:#}", path.display())),
            ),
        },
        None => (
            Session::new(
                tuft_graph::io::from_str(LAWN_PRESET).context("the built-in lawn preset")?,
                None,
            ),
            None,
        ),
    })
}

/// Opens the editor showing the baked set in `dir`, read-only, over an empty document
/// (`tuft view`).
pub fn run_viewer(dir: &Path, lod_bias: f32) -> anyhow::Result<()> {
    open_window(Session::untitled(), Some((dir.to_owned(), lod_bias)), None)
}

/// The editor's window on `session` (showing the baked set `baked` at its level-of-detail
/// bias), `failed` said in its status bar.
fn open_window(
    session: Session,
    baked: Option<(PathBuf, f32)>,
    failed: Option<String>,
) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tuft")
            .with_inner_size([1440.0, 900.0])
            .with_drag_and_drop(true),
        wgpu_options: wgpu_options(),
        ..Default::default()
    };
    eframe::run_native(
        "Tuft",
        options,
        Box::new(move |cc| {
            let autosave = eframe::storage_dir("Tuft").map(|d| d.join("autosave"));
            let mut editor = Editor::new(cc, session, autosave);
            if let Some(folder) = user_library::library_folder() {
                editor.set_library_folder(&folder);
            }
            if let Some((dir, lod_bias)) = &baked {
                editor.preview.view.lod_bias = *lod_bias;
                editor.view_baked(dir);
            }
            if let Some(said) = failed {
                editor.message = Some((said, true));
            }
            Ok(Box::new(editor))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the editor window: {e}"))
}

/// egui's wgpu set-up, asking for the adapter's own limits instead of wgpu's defaults
/// (on GL, WebGL's): the preview splits its buffers to whatever they are, and larger
/// limits mean fewer, larger buffers.
fn wgpu_options() -> egui_wgpu::WgpuConfiguration {
    let mut setup = egui_wgpu::WgpuSetupCreateNew::without_display_handle();
    setup.device_descriptor = Arc::new(device_descriptor);
    egui_wgpu::WgpuConfiguration {
        wgpu_setup: egui_wgpu::WgpuSetup::CreateNew(setup),
        ..Default::default()
    }
}

/// The editor's device: the adapter's own limits (what the preview's check,
/// `tuft_render::renderer::missing_capability`, and its buffer splitting read).
#[must_use]
pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
    wgpu::DeviceDescriptor {
        label: Some("tuft editor device"),
        required_limits: adapter.limits(),
        ..Default::default()
    }
}

/// Something that would lose unsaved changes, waiting for the user's answer.
#[derive(Clone, Debug, PartialEq)]
enum Pending {
    /// File › New, or New from Preset with the preset.
    New(Option<&'static crate::Preset>),
    Open(PathBuf),
    /// Open offered autosave `i` (`Editor::recover_at`).
    Recover(usize),
    Quit,
}

/// A baked set being written on a worker thread.
/// The editor's state.
pub struct Editor {
    session: Session,
    report: Report,
    validated_for: u64,
    /// [`tuft_graph::images::reads_finished`] when the document was last validated.
    pictures_read: u64,
    graph: GraphView,
    preview: Preview,
    thumbs: Thumbnails,
    selected: Option<NodeId>,
    /// The inspector's strand layers: which shows first.
    layers: layer_inspector::LayersPanel,
    search: String,
    /// A one-line message for the status bar (what was saved, what failed).
    message: Option<(String, bool)>,
    /// The material's name being edited (File › Rename Material…), and whether it was
    /// offered after a Save As to a file of another name.
    renaming: Option<(String, bool)>,
    /// The message on the status bar and when it came: it goes at the next action, or
    /// after [`MESSAGE_SECONDS`] (a failure after three times as long).
    message_since: Option<(String, Instant, u64)>,
    recent: Vec<PathBuf>,
    /// Autosave and recovery: this window's autosave, and the work offered back.
    recovery: recovery::Recovery,
    pending: Option<Pending>,
    /// Key of the last edit, so a drag is one undo step.
    last_edit: Option<String>,
    /// The generation thumbnails were last asked for.
    thumbs_requested: u64,
    /// The window title last sent to the viewport.
    title: String,
    /// What the menus and shortcuts asked for this frame, carried out with the graph
    /// view's commands.
    queue: Vec<Command>,
    /// How files are chosen.
    dialogs: Dialogs,
    /// A file dialog open on its worker.
    asking: Option<Asking>,
    /// The editor's own path prompt (where no dialog can be shown): what for, and the
    /// path typed so far.
    path_prompt: Option<(Purpose, String)>,
    /// The author's library, as last read (kept across documents; the graph view holds
    /// a handle to it for the canvas menu).
    library: Arc<tuft_graph::library::Library>,
    /// Whether Help › About is showing.
    about: bool,
    /// Whether Help › Keyboard and Mouse is showing.
    help: bool,
    /// Export Baked Set: its dialog, settings and running export.
    exporter: export::Exporter,
    /// The baked set shown read-only instead of the document, if any.
    baked: baked::BakedView,
    /// The preview's surface: a mesh being read, and the rows that choose it.
    surface: surface::SurfacePanel,
    /// UI-thread CPU time of recent frames, milliseconds.
    frame_ms: Vec<f32>,
    /// The interval between recent frames as egui measured it, milliseconds: what the
    /// user sees (the UI code, the preview's rendering and presenting together).
    interval_ms: Vec<f32>,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

/// How long a press may last and still be a click, as a hand makes one (egui's own
/// figure).
pub const CLICK_SECONDS: f64 = 0.8;

/// Keeps a click a click when frames are slow: egui stamps a press and its release with
/// the times of the frames that saw them, and calls a press longer than 0.8 s a long
/// press, not a click. With slow frames the stamps lag the hand by up to a frame each, so
/// the limit is the hand's 0.8 s plus two frame intervals (frames of a second under a
/// heavy preview otherwise lost every click whose press and release fell in different
/// frames: `a_click_spread_over_slow_frames_still_clicks` fails without this).
fn keep_slow_clicks(ctx: &egui::Context) {
    let interval = f64::from(ctx.input(|i| i.unstable_dt)).clamp(0.0, 5.0);
    ctx.options_mut(|o| o.input_options.max_click_duration = CLICK_SECONDS + 2.0 * interval);
}

/// egui's fonts with its monospace face (Hack, already shipped with egui under its own
/// licence) as the last fallback of the proportional one: Ubuntu Light has no arrows,
/// and the diagnostics' paths (`pbr.base_color ← Mix#4.b`), the level switches
/// (`level 0 → level 1`) and the tooltips use them.
#[must_use]
pub fn fonts() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    if let Some(mono) = fonts
        .families
        .get(&egui::FontFamily::Monospace)
        .and_then(|m| m.first().cloned())
        && let Some(prop) = fonts.families.get_mut(&egui::FontFamily::Proportional)
        && !prop.contains(&mono)
    {
        prop.push(mono);
    }
    fonts
}

impl Editor {
    /// An editor on `session`; `autosave` is the folder where each window keeps its
    /// unsaved work (and where the work of windows that are gone is looked for at start).
    #[must_use]
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        session: Session,
        autosave: Option<PathBuf>,
    ) -> Self {
        let installed = cc
            .wgpu_render_state
            .as_ref()
            .map_or(Ok(()), crate::preview::install);
        cc.egui_ctx.set_fonts(fonts());
        let recent = cc
            .storage
            .and_then(|s| s.get_string("recent"))
            .and_then(|t| serde_json::from_str::<Vec<PathBuf>>(&t).ok())
            .unwrap_or_default();
        let mut editor = Self::with_session(session, autosave, recent);
        if let Err(why) = installed {
            editor.preview_cannot_draw(why);
        }
        if let Some(rs) = &cc.wgpu_render_state {
            editor.preview.budget = tuft_render::FrameBudget::interactive(&rs.adapter.get_info());
        }
        if let Some(settings) = cc
            .storage
            .and_then(|s| s.get_string("export"))
            .and_then(|t| serde_json::from_str::<ExportSettings>(&t).ok())
        {
            editor.exporter = export::Exporter::with_settings(settings);
        }
        editor
    }

    /// An editor without a window's storage (tests).
    #[must_use]
    pub fn with_session(session: Session, autosave: Option<PathBuf>, recent: Vec<PathBuf>) -> Self {
        let (recovery, unreadable) = recovery::Recovery::open(autosave, &session);
        let message = unreadable.map(|said| (said, true));
        let pictures_read = tuft_graph::images::reads_finished();
        let report = tuft_graph::validate_without_waiting(&session.doc().graph);
        // The preview's and the thumbnails' workers share the strand sets they scatter.
        let sets = Arc::new(tuft_graph::cache::SetCache::default());
        let mut editor = Self {
            report,
            validated_for: session.generation(),
            pictures_read,
            session,
            graph: GraphView::new(),
            preview: Preview::new(sets.clone()),
            thumbs: Thumbnails::new(sets),
            selected: None,
            layers: layer_inspector::LayersPanel::default(),
            search: String::new(),
            message,
            message_since: None,
            renaming: None,
            recent,
            recovery,
            pending: None,
            last_edit: None,
            thumbs_requested: 0,
            queue: Vec::new(),
            dialogs: Dialogs::probe(),
            asking: None,
            path_prompt: None,
            library: Arc::default(),
            about: false,
            help: false,
            exporter: export::Exporter::default(),
            baked: baked::BakedView::default(),
            surface: surface::SurfacePanel::default(),
            frame_ms: Vec::new(),
            interval_ms: Vec::new(),
            title: String::new(),
        };
        // A file opened from the command line is one the user opened.
        if let Some(path) = editor.session.path().map(Path::to_owned) {
            editor.remember(&path);
        }
        editor.after_change();
        editor.load_document_mesh();
        editor
    }

    /// The session (document and history).
    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The graph widget's state (where its pins were drawn).
    #[must_use]
    pub fn graph_view(&self) -> &GraphView {
        &self.graph
    }

    /// The latest validation.
    #[must_use]
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The preview's state.
    #[must_use]
    pub fn preview(&self) -> &Preview {
        &self.preview
    }

    /// Tells the editor its preview cannot draw on this machine's graphics adapter, and
    /// why (what [`tuft_render::renderer::missing_capability`] says): the preview says
    /// so where the picture would be, and the rest of the editor works as ever.
    pub fn preview_cannot_draw(&mut self, why: String) {
        eprintln!("tuft: the preview cannot draw: {why}");
        self.preview.unsupported = Some(why);
    }

    /// The thumbnails.
    #[must_use]
    pub fn thumbnails(&self) -> &Thumbnails {
        &self.thumbs
    }

    /// The selected node.
    #[must_use]
    pub fn selected(&self) -> Option<NodeId> {
        self.selected
    }

    /// Why the last connection was refused, if it was.
    #[must_use]
    pub fn refusal(&self) -> Option<&str> {
        self.graph.refusal.as_deref()
    }

    /// Whether an autosave is being offered back.
    #[must_use]
    pub fn offers_recovery(&self) -> bool {
        !self.recovery.offered().is_empty()
    }

    /// What is offered back: each orphaned autosave's file (or name) and document.
    #[must_use]
    pub fn offered(&self) -> Vec<(Option<&Path>, &Document)> {
        self.recovery
            .offered()
            .iter()
            .map(|o| (o.source.as_deref(), &o.document))
            .collect()
    }

    /// Blocks until the preview and the thumbnails show the current document (tests,
    /// and anything that must not race the workers).
    pub fn wait_for_workers(&mut self, ctx: &egui::Context) {
        let limit = Duration::from_secs(300);
        self.preview.wait(limit);
        self.preview.plant_now();
        self.request_thumbnails_when_due();
        self.thumbs.wait(ctx, self.session.generation(), limit);
    }

    /// The median interval between the recent frames, milliseconds.
    #[must_use]
    pub fn frame_interval_ms(&self) -> Option<f32> {
        tuft_strands::num::median(self.interval_ms.iter().copied())
    }

    /// UI-thread CPU time of the recent frames (`App::ui`), milliseconds, oldest first.
    #[must_use]
    pub fn frame_times(&self) -> &[f32] {
        &self.frame_ms
    }

    /// Whether the preview is rebuilding on its worker.
    #[must_use]
    pub fn rebuilding(&self) -> bool {
        self.preview.building.is_some()
    }

    /// Whether the preview has yet to show the newest edit's strands (they land before
    /// its maps when the edit reached a strand layer).
    #[must_use]
    pub fn strands_rebuilding(&self) -> bool {
        self.preview
            .building
            .is_some_and(|g| self.preview.strands_shown < g)
    }

    /// The status-bar message (what was saved, what failed).
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_ref().map(|(m, _)| m.as_str())
    }

    /// Asks for thumbnails of the current document once the preview is not rebuilding:
    /// the preview is what an author watches after an edit, so it gets the cores first.
    fn request_thumbnails_when_due(&mut self) {
        let generation = self.session.generation();
        if self.thumbs_requested < generation && self.preview.building.is_none() {
            self.thumbs.request(generation, &self.session.doc().graph);
            self.thumbs_requested = generation;
        }
    }

    /// Lets the status bar's message go once it has stood [`MESSAGE_SECONDS`] (a failure
    /// three times as long), asking for the frame that clears it.
    fn expire_message(&mut self, ctx: &egui::Context) {
        let Some((text, failure)) = &self.message else {
            self.message_since = None;
            return;
        };
        let revision = self.session.revision();
        let (since, at_revision) = match &self.message_since {
            Some((said, at, seen)) if said == text => (*at, *seen),
            _ => {
                let now = Instant::now();
                self.message_since = Some((text.clone(), now, revision));
                (now, revision)
            }
        };
        // A later edit is the next action, wherever it came from (the library, a drag).
        let edited_since = revision != at_revision;
        let lasts = MESSAGE_SECONDS * if *failure { 3 } else { 1 };
        match lasts.checked_sub(since.elapsed()) {
            Some(left) if !left.is_zero() && !edited_since => ctx.request_repaint_after(left),
            _ => {
                self.message = None;
                self.message_since = None;
                ctx.request_repaint();
            }
        }
    }

    /// Validates the document on this thread without waiting for a picture to decode
    /// (one still reading is reported so, and validated again once it is read).
    fn validate(&mut self) {
        self.pictures_read = tuft_graph::images::reads_finished();
        self.report = tuft_graph::validate_without_waiting(&self.session.doc().graph);
    }

    /// Validates again once a picture that was being read is there; asks for a frame
    /// while one is being read.
    fn validate_after_reads(&mut self, ctx: &egui::Context) {
        if tuft_graph::images::reads_finished() != self.pictures_read {
            self.validate();
            ctx.request_repaint();
        } else if tuft_graph::images::reading() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    /// Re-validates and queues the workers after the document changed.
    fn after_change(&mut self) {
        let generation = self.session.generation();
        if self.validated_for != generation
            || self.preview.shown == 0 && self.preview.building.is_none()
        {
            // The rebuild first: the worker starts on it while this thread validates.
            self.thumbs.supersede(generation);
            if !self.baked.showing() {
                self.request_preview();
            }
            self.validate();
            self.validated_for = generation;
        }
        if let Some(id) = self.selected
            && self.session.doc().graph.node(id).is_none()
        {
            self.selected = None;
        }
    }
}

impl eframe::App for Editor {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        keep_slow_clicks(&ctx);
        if self.preview.poll() {
            ctx.request_repaint();
        }
        self.request_thumbnails_when_due();
        self.thumbs.poll(&ctx);
        self.validate_after_reads(&ctx);
        self.poll_mesh(&ctx);
        if self.preview.building.is_some() || self.thumbs.shown < self.session.generation() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        // Dropped .ron files open; a dropped folder opens as a baked set; a dropped mesh
        // becomes the preview's surface.
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        if let Some(path) = dropped
            .iter()
            .find(|p| tuft_render::mesh_file::is_mesh_file(p))
        {
            self.use_mesh(path, None);
        } else if let Some(path) = dropped
            .into_iter()
            .find(|p| p.is_dir() || p.extension().is_some_and(|e| e == "ron"))
        {
            self.queue.push(Command::OpenPath(path));
        }
        if ctx.input(|i| i.viewport().close_requested())
            && self.session.is_dirty()
            && self.pending.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        self.shortcuts(&ctx);
        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        let viewing = self.baked.showing();
        if !viewing {
            egui::Panel::bottom("diagnostics")
                .resizable(true)
                .default_size(120.0)
                .show(ui, |ui| self.diagnostics(ui));
            egui::Panel::left("library")
                .resizable(true)
                .default_size(220.0)
                .show(ui, |ui| self.library(ui));
        }
        egui::Panel::right("side")
            .resizable(true)
            .default_size(520.0)
            .show(ui, |ui| {
                egui::Panel::bottom("inspector")
                    .resizable(true)
                    .default_size(340.0)
                    .min_size(220.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical()
                            .id_salt("inspector")
                            .show(ui, |ui| {
                                if viewing {
                                    ui.label("A baked set is read-only: nothing to inspect.");
                                } else {
                                    self.inspector(ui);
                                }
                            });
                    });
                egui::CentralPanel::default().show(ui, |ui| self.preview_panel(ui));
            });
        // A number typed outside its range was refused: said, with the range.
        if let Some(said) = widgets::take_refusal(&ctx) {
            self.message = Some((said, true));
        }
        let mut commands = Vec::new();
        egui::CentralPanel::default().show(ui, |ui| {
            if viewing {
                if self.baked.ui(ui, &self.preview) {
                    self.queue.push(Command::CloseBaked);
                }
                return;
            }
            self.graph.library = self.library.clone();
            commands = self.graph.show(
                ui,
                self.session.doc(),
                self.session.generation(),
                &self.report,
                self.thumbs.textures(),
                self.selected,
            );
        });
        // Where things were dragged, before any command moves them further.
        for (id, pos) in self.graph.positions().into_iter().filter(|_| !viewing) {
            match self.session.doc().layout.get(&id) {
                Some(at) if *at == pos => {}
                Some(_) => self.session.set_position(id, pos),
                None => self.session.place_unplaced(id, pos),
            }
        }
        for (g, pos) in self.graph.group_positions() {
            if self.session.doc().group(g).is_some_and(|x| x.pos != pos) {
                self.session.arrange(|d| {
                    if let Some(group) = d.groups.iter_mut().find(|x| x.id == g) {
                        group.pos = pos;
                    }
                });
            }
        }
        commands.append(&mut self.queue);
        if !commands.is_empty() {
            ctx.request_repaint();
            // What was said of the last action goes with the next one.
            self.message = None;
        }
        self.run_all(&ctx, commands);
        self.poll_dialog();
        self.dialogs(&ctx);
        self.path_prompt_window(&ctx);
        self.about_window(&ctx);
        self.help_window(&ctx);
        self.export_window(&ctx);
        self.recovery_window(&ctx);
        // The autosave timer writes on its own thread; a frame only hands it the work.
        self.autosave_follow();
        self.expire_message(&ctx);
        self.frame_ms.push(start.elapsed().as_secs_f32() * 1e3);
        if self.frame_ms.len() > 120 {
            self.frame_ms.remove(0);
        }
        // Only frames drawn back to back measure the drawing: after an idle spell the
        // interval is the author's pause, not a frame (it read 1.5 s on a still window).
        // Back to back: the last frame asked for this one (wind, walking, a landing),
        // or a button is held (an orbit or a drag sends input as fast as it is drawn).
        if ctx.requested_repaint_last_pass() || ctx.input(|i| i.pointer.any_down()) {
            self.interval_ms.push(ctx.input(|i| i.unstable_dt) * 1e3);
            if self.interval_ms.len() > 60 {
                self.interval_ms.remove(0);
            }
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Ok(text) = serde_json::to_string(&self.recent) {
            storage.set_string("recent", text);
        }
        if let Ok(text) = serde_json::to_string(self.exporter.settings()) {
            storage.set_string("export", text);
        }
    }

    fn on_exit(&mut self) {
        // A clean exit leaves no autosave behind unless work is unsaved; the slot's
        // lock goes with the process, so what is left is offered next time.
        if self.session.is_dirty() {
            self.autosave_now();
        } else {
            self.recovery.release_slot();
        }
    }
}
