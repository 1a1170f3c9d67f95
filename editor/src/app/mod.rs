//! The editor window: menu bar, node library, the node graph, inspector, live preview,
//! diagnostics and status bar. Every graph edit goes through the [`Session`] (so it can
//! be undone), re-validates at once, and queues a preview rebuild and fresh thumbnails on
//! worker threads; the UI thread only draws.

mod about;
mod baked;
mod edits;
mod export;
mod files;
mod frame;
mod help;
mod image_render;
mod layer_inspector;
mod menus;
mod panels;
mod param_editors;
mod recovery;
mod surface;
mod user_library;
mod widgets;

pub use export::ExportSettings;
pub use frame::CLICK_SECONDS;
pub use menus::*;
pub use panels::coverage_text;
pub use surface::SurfacePanel;

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

/// What `tuft view` opens: a baked set, and the preview's level-of-detail bias and sun
/// to start at.
#[derive(Clone, Debug)]
pub struct Viewing {
    /// The baked set's folder.
    pub dir: PathBuf,
    /// Multiplies every switch distance.
    pub lod_bias: f32,
    /// Where the sun stands (`None`: the shipped light's sun).
    pub sun: Option<tuft_render::SunAngles>,
}

/// Opens the editor showing a baked set read-only, over an empty document (`tuft view`).
pub fn run_viewer(viewing: Viewing) -> anyhow::Result<()> {
    open_window(Session::untitled(), Some(viewing), None)
}

/// The editor's window on `session` (showing the baked set `baked` as it asks),
/// `failed` said in its status bar.
fn open_window(
    session: Session,
    baked: Option<Viewing>,
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
            if let Some(viewing) = &baked {
                editor.preview.view.lod_bias = viewing.lod_bias;
                editor.preview.view.sun = viewing.sun;
                editor.view_baked(&viewing.dir);
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
    /// File › Render Image: its dialog and the render running.
    image_render: image_render::ImageRenderer,
    /// The window's device, which Render Image draws on (no second device is opened).
    device: Option<egui_wgpu::RenderState>,
    /// The baked set shown read-only instead of the document, if any.
    baked: baked::BakedView,
    /// The preview's surface: a mesh being read, and the rows that choose it.
    surface: SurfacePanel,
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
            editor.device = Some(rs.clone());
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
            image_render: image_render::ImageRenderer::default(),
            device: None,
            baked: baked::BakedView::default(),
            surface: SurfacePanel::default(),
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

    /// What the preview shows on, and the mesh last read.
    #[must_use]
    pub fn surface(&self) -> &SurfacePanel {
        &self.surface
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

    /// Validates the document on this thread without waiting for a picture to decode
    /// (one still reading is reported so, and validated again once it is read).
    fn validate(&mut self) {
        self.pictures_read = tuft_graph::images::reads_finished();
        self.report = tuft_graph::validate_without_waiting(&self.session.doc().graph);
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
        frame::keep_slow_clicks(&ctx);
        self.poll_workers(&ctx);
        self.take_dropped_files(&ctx);
        self.follow_window(&ctx);
        let viewing = self.baked.showing();
        self.panels(ui, viewing);
        let commands = self.central(ui, viewing);
        self.follow_drags(viewing);
        self.carry_out(&ctx, commands);
        self.windows(&ctx);
        // The autosave timer writes on its own thread; a frame only hands it the work.
        self.autosave_follow();
        self.expire_message(&ctx);
        self.time_frame(&ctx, start);
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
