//! The editor window: menu bar, node library, the node graph, inspector, live preview,
//! diagnostics and status bar. Every graph edit goes through the [`Session`] (so it can
//! be undone), re-validates at once, and queues a preview rebuild and fresh thumbnails on
//! worker threads; the UI thread only draws.

use crate::graph_view::{Action, DraggedKind, GraphView, ViewNode};
use crate::preview::{Preview, lock};
use crate::session::Session;
use crate::thumbs::Thumbnails;
use anyhow::Context as _;
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tuft_graph::node::{ParamKind, RampStop};
use tuft_graph::{Document, InRef, Input, NodeId, ParamValue, Report};
use tuft_render::{LevelMode, Rep, SurfaceKind, Wind};

/// The lawn preset, built in so the editor opens on it from any working directory.
pub const LAWN_PRESET: &str = include_str!("../../presets/lawn.ron");

/// How often unsaved work is written to the autosave file.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(30);

/// Undo.
pub const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
/// Redo.
pub const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
/// Save.
pub const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
/// Save As.
pub const SAVE_AS: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
/// Open.
pub const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
/// New.
pub const NEW: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
/// Duplicate the selection.
pub const DUPLICATE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::D);
/// Delete the selection.
pub const DELETE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Delete);
/// Frame all nodes.
pub const FRAME_ALL: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F);

/// Lowers the calling thread's scheduling priority (Unix `nice`), so a worker shares
/// the cores with the UI thread without taking its turns: on two cores, a rebuild's two
/// pool threads and the UI thread otherwise preempt each other mid-frame.
pub fn lower_this_threads_priority() {
    #[cfg(unix)]
    // SAFETY: `nice` only changes this thread's scheduling priority; it touches no memory.
    #[allow(unsafe_code)]
    unsafe {
        let _ = libc::nice(10);
    }
}

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

/// Makes every thread of the rayon pool (which evaluates graphs for the workers) run at
/// a lower priority than the UI thread. Call before anything uses the pool.
pub fn lower_worker_priority() {
    let _ = rayon::ThreadPoolBuilder::new()
        .start_handler(|_| lower_this_threads_priority())
        .build_global();
}

/// Opens the editor on `file`, or on the lawn preset.
pub fn run(file: Option<&Path>) -> anyhow::Result<()> {
    lower_worker_priority();
    let session = match file {
        Some(path) => {
            Session::open(path).with_context(|| format!("cannot open {}", path.display()))?
        }
        None => Session::new(
            tuft_graph::io::from_str(LAWN_PRESET).context("the built-in lawn preset")?,
            None,
        ),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tuft")
            .with_inner_size([1440.0, 900.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "Tuft",
        options,
        Box::new(move |cc| {
            let autosave = eframe::storage_dir("Tuft").map(|d| d.join("autosave.ron"));
            Ok(Box::new(Editor::new(cc, session, autosave)))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the editor window: {e}"))
}

/// Something that would lose unsaved changes, waiting for the user's answer.
#[derive(Clone, Debug, PartialEq)]
enum Pending {
    New,
    Open(PathBuf),
    Quit,
}

/// A baked set being written on a worker thread.
struct Export {
    progress: Arc<AtomicU32>,
    stage: Arc<std::sync::Mutex<String>>,
    cancel: Arc<AtomicBool>,
    done: std::sync::mpsc::Receiver<Result<usize, String>>,
    dir: PathBuf,
}

/// Nodes copied to the clipboard, as RON.
#[derive(serde::Serialize, serde::Deserialize)]
struct Clip {
    nodes: Vec<tuft_graph::Node>,
    layout: Vec<(NodeId, [f32; 2])>,
}

/// The editor's state.
pub struct Editor {
    session: Session,
    report: Report,
    validated_for: u64,
    graph: GraphView,
    preview: Preview,
    thumbs: Thumbnails,
    selected: Option<NodeId>,
    search: String,
    /// A one-line message for the status bar (what was saved, what failed).
    message: Option<(String, bool)>,
    recent: Vec<PathBuf>,
    autosave: Option<PathBuf>,
    last_autosave: Instant,
    /// An autosave found at start-up, offered back.
    recovery: Option<Document>,
    pending: Option<Pending>,
    export: Option<Export>,
    /// Key of the last edit, so a drag is one undo step.
    last_edit: Option<String>,
    /// The generation thumbnails were last asked for.
    thumbs_requested: u64,
    /// UI-thread CPU time of recent frames, milliseconds.
    frame_ms: Vec<f32>,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Editor {
    /// An editor on `session`; `autosave` is where unsaved work is kept (and looked for
    /// at start).
    #[must_use]
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        session: Session,
        autosave: Option<PathBuf>,
    ) -> Self {
        if let Some(rs) = cc.wgpu_render_state.as_ref() {
            crate::preview::install(rs);
        }
        let recent = cc
            .storage
            .and_then(|s| s.get_string("recent"))
            .and_then(|t| serde_json::from_str::<Vec<PathBuf>>(&t).ok())
            .unwrap_or_default();
        Self::with_session(session, autosave, recent)
    }

    /// An editor without a window's storage (tests).
    #[must_use]
    pub fn with_session(session: Session, autosave: Option<PathBuf>, recent: Vec<PathBuf>) -> Self {
        let recovery = autosave
            .as_deref()
            .filter(|p| p.exists())
            .and_then(|p| tuft_graph::io::load(p).ok())
            .filter(|d| d != session.doc());
        let report = tuft_graph::validate(&session.doc().graph);
        // The preview's and the thumbnails' workers share the strand sets they scatter.
        let sets = Arc::new(tuft_graph::cache::SetCache::default());
        let mut editor = Self {
            report,
            validated_for: session.generation(),
            session,
            graph: GraphView::new(),
            preview: Preview::new(sets.clone()),
            thumbs: Thumbnails::new(sets),
            selected: None,
            search: String::new(),
            message: None,
            recent,
            autosave,
            last_autosave: Instant::now(),
            recovery,
            pending: None,
            export: None,
            last_edit: None,
            thumbs_requested: 0,
            frame_ms: Vec::new(),
        };
        editor.after_change();
        editor
    }

    /// The session (document and history).
    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
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
        self.recovery.is_some()
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

    /// Re-validates and queues the workers after the document changed.
    fn after_change(&mut self) {
        let generation = self.session.generation();
        if self.validated_for != generation
            || self.preview.shown == 0 && self.preview.building.is_none()
        {
            self.report = tuft_graph::validate(&self.session.doc().graph);
            self.validated_for = generation;
            self.thumbs.supersede(generation);
            self.preview.request(generation, &self.session.doc().graph);
        }
        if let Some(id) = self.selected
            && self.session.doc().graph.node(id).is_none()
        {
            self.selected = None;
        }
    }

    /// Applies one edit (merged with the previous one when both carry the same `key`:
    /// a drag is one undo step).
    fn edit(&mut self, key: Option<String>, change: impl FnOnce(&mut Document)) {
        if key.is_some() && key == self.last_edit && self.session.can_undo() {
            self.session.edit_merged(change);
        } else {
            self.session.edit(change);
        }
        self.last_edit = key;
        self.after_change();
    }

    /// Adds a node of `kind` at graph position `pos` and selects it; returns its id.
    pub fn add_node_at(&mut self, kind: &str, pos: [f32; 2]) -> Option<NodeId> {
        let mut added = None;
        self.edit(None, |d| {
            if let Some(id) = d.graph.add_node(kind) {
                d.layout.insert(id, pos);
                added = Some(id);
            }
        });
        if added.is_some() {
            self.selected = added;
        }
        added
    }

    /// Adds a node of `kind` and selects it; returns its id.
    pub fn add_node(&mut self, kind: &str) -> Option<NodeId> {
        // At the centre of the view, stepped aside from any node already there.
        let c = self.graph.centre;
        let mut pos = [c.x - 60.0, c.y - 40.0];
        let doc = self.session.doc();
        while doc
            .layout
            .values()
            .any(|p| (p[0] - pos[0]).abs() < 60.0 && (p[1] - pos[1]).abs() < 40.0)
        {
            pos[0] += 30.0;
            pos[1] += 30.0;
        }
        let mut added = None;
        self.edit(None, |d| {
            if let Some(id) = d.graph.add_node(kind) {
                d.layout.insert(id, pos);
                added = Some(id);
            }
        });
        if let Some(id) = added {
            self.selected = Some(id);
            self.graph.frame(vec![ViewNode::Node(id)]);
        }
        added
    }

    /// Connects `from` to `to` as the graph view does: refused with its reason when the
    /// types differ or the link would close a cycle.
    pub fn connect(&mut self, from: tuft_graph::OutRef, to: &InRef) -> bool {
        if let Err(e) = self.session.doc().graph.check_connect(&from, to) {
            self.graph.refusal = Some(format!("Refused: {e}"));
            return false;
        }
        self.graph.refusal = None;
        self.edit(None, |d| {
            let _ = d.graph.connect(from, to);
        });
        true
    }

    /// Sets an unlinked input's constant (one undo step per input while dragging).
    pub fn set_constant(&mut self, to: &InRef, value: tuft_graph::value::Value) {
        let key = format!("const {to:?}");
        self.edit(Some(key), |d| d.graph.set_input(to, Input::Const(value)));
    }

    /// Sets a node's parameter (one undo step per parameter while dragging).
    pub fn set_param(&mut self, node: NodeId, name: &str, value: ParamValue) {
        let key = format!("param {} {name}", node.0);
        self.edit(Some(key), |d| {
            if let Some(n) = d.graph.node_mut(node) {
                n.params.insert(name.to_owned(), value);
            }
        });
    }

    /// Deletes nodes.
    pub fn delete(&mut self, nodes: &[NodeId]) {
        self.edit(None, |d| {
            for id in nodes {
                d.graph.remove_node(*id);
                d.layout.remove(id);
            }
        });
    }

    /// Duplicates nodes (their links to other nodes kept), selecting the first copy.
    pub fn duplicate(&mut self, nodes: &[NodeId]) {
        let clip = self.clip(nodes);
        self.paste_clip(&clip);
    }

    fn clip(&self, nodes: &[NodeId]) -> Clip {
        let doc = self.session.doc();
        Clip {
            nodes: nodes
                .iter()
                .filter_map(|id| doc.graph.node(*id).cloned())
                .collect(),
            layout: nodes
                .iter()
                .filter_map(|id| doc.layout.get(id).map(|p| (*id, *p)))
                .collect(),
        }
    }

    fn paste_clip(&mut self, clip: &Clip) {
        if clip.nodes.is_empty() {
            return;
        }
        let mut first = None;
        self.edit(None, |d| {
            let mut next = d.graph.fresh_id().0;
            let map: std::collections::HashMap<NodeId, NodeId> = clip
                .nodes
                .iter()
                .map(|n| {
                    let id = NodeId(next);
                    next += 1;
                    (n.id, id)
                })
                .collect();
            for node in &clip.nodes {
                let mut copy = node.clone();
                copy.id = map[&node.id];
                for input in copy.inputs.values_mut() {
                    if let Input::Link(out) = input {
                        if let Some(new) = map.get(&out.node) {
                            out.node = *new;
                        } else if d.graph.node(out.node).is_none() {
                            *input = Input::Const(tuft_graph::value::Value::Float(0.0));
                        }
                    }
                }
                let pos = clip
                    .layout
                    .iter()
                    .find(|(id, _)| *id == node.id)
                    .map_or([0.0, 0.0], |(_, p)| *p);
                d.layout.insert(copy.id, [pos[0] + 40.0, pos[1] + 40.0]);
                first.get_or_insert(copy.id);
                d.graph.nodes.push(copy);
            }
        });
        if first.is_some() {
            self.selected = first;
        }
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        self.session.undo();
        self.last_edit = None;
        self.after_change();
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        self.session.redo();
        self.last_edit = None;
        self.after_change();
    }

    /// Saves (to `path` for Save As); a failure is reported and the old file stays.
    pub fn save(&mut self, path: Option<&Path>) -> bool {
        match self.session.save(path) {
            Ok(saved) => {
                self.remember(&saved);
                self.message = Some((format!("Saved {}", saved.display()), false));
                if let Some(a) = &self.autosave {
                    let _ = std::fs::remove_file(a);
                }
                true
            }
            Err(e) => {
                self.message = Some((format!("Not saved: {e}"), true));
                false
            }
        }
    }

    /// Opens `path` (asking first when there are unsaved changes).
    pub fn open(&mut self, path: &Path) {
        if self.session.is_dirty() {
            self.pending = Some(Pending::Open(path.to_owned()));
            return;
        }
        self.open_now(path);
    }

    fn open_now(&mut self, path: &Path) {
        match Session::open(path) {
            Ok(session) => {
                self.session = session;
                self.selected = None;
                self.validated_for = 0;
                self.graph = GraphView::new();
                self.remember(path);
                self.message = Some((format!("Opened {}", path.display()), false));
                self.after_change();
            }
            Err(e) => self.message = Some((format!("{}: {e}", path.display()), true)),
        }
    }

    /// A new document, after asking about unsaved changes.
    fn request_new(&mut self) {
        if self.session.is_dirty() {
            self.pending = Some(Pending::New);
        } else {
            self.new_document();
        }
    }

    /// Saves to the document's file, or asks where when it has none.
    fn save_or_ask(&mut self) {
        if self.session.path().is_some() {
            self.save(None);
        } else {
            self.save_as_dialog();
        }
    }

    fn new_document(&mut self) {
        self.session = Session::new(
            Document::new(tuft_graph::MaterialGraph::new("untitled")),
            None,
        );
        self.selected = None;
        self.validated_for = 0;
        self.graph = GraphView::new();
        self.after_change();
    }

    fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_owned());
        self.recent.truncate(10);
    }

    /// Writes the autosave now if there are unsaved changes.
    pub fn autosave_now(&mut self) {
        let Some(path) = &self.autosave else { return };
        if !self.session.is_dirty() {
            return;
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = tuft_graph::io::save(self.session.doc(), path) {
            self.message = Some((format!("Autosave failed: {e}"), true));
        }
        self.last_autosave = Instant::now();
    }

    /// Takes the offered autosave back as the current document (one undoable edit).
    pub fn recover(&mut self) {
        if let Some(doc) = self.recovery.take() {
            self.edit(None, |d| *d = doc);
            self.message = Some(("Recovered the autosaved work".into(), false));
        }
    }

    /// Declines the offered autosave.
    pub fn discard_recovery(&mut self) {
        self.recovery = None;
        if let Some(a) = &self.autosave {
            let _ = std::fs::remove_file(a);
        }
    }

    fn apply(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Connect(from, to) => {
                    self.connect(from, &to);
                }
                // An unlinked input falls back to its port's default (the engine's rule).
                Action::Disconnect(to) => self.edit(None, |d| d.graph.disconnect(&to)),
                Action::SetConst(to, value) => self.set_constant(&to, value),
                Action::Select(id) => self.selected = Some(id),
                Action::Remove(id) => self.delete(&[id]),
                Action::Add(kind, pos) => {
                    self.add_node_at(kind, pos);
                }
            }
        }
    }

    fn start_export(&mut self, dir: PathBuf) {
        let graph = self.session.doc().graph.clone();
        let progress = Arc::new(AtomicU32::new(0));
        let stage = Arc::new(std::sync::Mutex::new(String::from("starting")));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, done) = std::sync::mpsc::channel();
        let (p, s, c, out) = (progress.clone(), stage.clone(), cancel.clone(), dir.clone());
        std::thread::spawn(move || {
            let evaluator = tuft_graph::Evaluator::new(&graph);
            let result = tuft_graph::bake::write_baked_set_cancellable(
                &evaluator,
                &out,
                tuft_graph::bake::DEFAULT_RESOLUTION,
                &mut |name, f| {
                    *lock(&s) = name.to_owned();
                    p.store((f * 1000.0) as u32, Ordering::Relaxed);
                },
                &c,
            );
            let _ = tx.send(result.map(|w| w.len()).map_err(|e| e.to_string()));
        });
        self.export = Some(Export {
            progress,
            stage,
            cancel,
            done,
            dir,
        });
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (redo, undo, save_as, save, open, new, dup, del, frame) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&REDO),
                i.consume_shortcut(&UNDO),
                i.consume_shortcut(&SAVE_AS),
                i.consume_shortcut(&SAVE),
                i.consume_shortcut(&OPEN),
                i.consume_shortcut(&NEW),
                i.consume_shortcut(&DUPLICATE),
                i.consume_shortcut(&DELETE),
                i.consume_shortcut(&FRAME_ALL),
            )
        });
        if redo {
            self.redo();
        } else if undo {
            self.undo();
        }
        if save_as {
            self.save_as_dialog();
        } else if save {
            self.save_or_ask();
        }
        if open {
            self.open_dialog();
        }
        if new {
            self.request_new();
        }
        let selection = self.selection(ctx);
        if dup && !selection.is_empty() {
            self.duplicate(&selection);
        }
        if del && !selection.is_empty() {
            self.delete(&selection);
        }
        if frame {
            self.graph.frame(Vec::new());
        }
        // Copy and paste travel as text on the system clipboard.
        let events = ctx.input(|i| i.events.clone());
        for e in events {
            match e {
                egui::Event::Copy if !selection.is_empty() => {
                    if let Ok(text) = ron::to_string(&self.clip(&selection)) {
                        ctx.copy_text(text);
                    }
                }
                egui::Event::Paste(text) => {
                    if let Ok(clip) = ron::from_str::<Clip>(&text) {
                        self.paste_clip(&clip);
                    }
                }
                _ => {}
            }
        }
    }

    fn selection(&self, ctx: &egui::Context) -> Vec<NodeId> {
        let mut s = self.graph.selected(ctx);
        if s.is_empty()
            && let Some(id) = self.selected
        {
            s.push(id);
        }
        s
    }

    fn open_dialog(&mut self) {
        if let Some(path) = rfd::FileDialog::new()
            .add_filter("Tuft graph", &["ron"])
            .pick_file()
        {
            self.open(&path);
        }
    }

    fn save_as_dialog(&mut self) {
        let name = format!(
            "{}.ron",
            tuft_graph::bake::file_stem(&self.session.doc().graph.name)
        );
        if let Some(path) = rfd::FileDialog::new()
            .add_filter("Tuft graph", &["ron"])
            .set_file_name(name)
            .save_file()
        {
            self.save(Some(&path));
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui
                    .add(egui::Button::new("New").shortcut_text(ctx.format_shortcut(&NEW)))
                    .clicked()
                {
                    self.request_new();
                }
                if ui
                    .add(egui::Button::new("Open…").shortcut_text(ctx.format_shortcut(&OPEN)))
                    .clicked()
                {
                    self.open_dialog();
                }
                ui.menu_button("Open Recent", |ui| {
                    if self.recent.is_empty() {
                        ui.label("Nothing yet");
                    }
                    for path in self.recent.clone() {
                        if ui.button(path.display().to_string()).clicked() {
                            self.open(&path);
                        }
                    }
                });
                ui.separator();
                if ui
                    .add(egui::Button::new("Save").shortcut_text(ctx.format_shortcut(&SAVE)))
                    .clicked()
                {
                    self.save_or_ask();
                }
                if ui
                    .add(egui::Button::new("Save As…").shortcut_text(ctx.format_shortcut(&SAVE_AS)))
                    .clicked()
                {
                    self.save_as_dialog();
                }
                ui.separator();
                if ui
                    .add_enabled(
                        self.export.is_none(),
                        egui::Button::new("Export Baked Set…"),
                    )
                    .clicked()
                    && let Some(dir) = rfd::FileDialog::new().pick_folder()
                {
                    self.start_export(dir);
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(
                        self.session.can_undo(),
                        egui::Button::new("Undo").shortcut_text(ctx.format_shortcut(&UNDO)),
                    )
                    .clicked()
                {
                    self.undo();
                }
                if ui
                    .add_enabled(
                        self.session.can_redo(),
                        egui::Button::new("Redo").shortcut_text(ctx.format_shortcut(&REDO)),
                    )
                    .clicked()
                {
                    self.redo();
                }
                ui.separator();
                let selection = self.selection(&ctx);
                if ui
                    .add_enabled(
                        !selection.is_empty(),
                        egui::Button::new("Duplicate")
                            .shortcut_text(ctx.format_shortcut(&DUPLICATE)),
                    )
                    .clicked()
                {
                    self.duplicate(&selection);
                }
                if ui
                    .add_enabled(
                        !selection.is_empty(),
                        egui::Button::new("Delete").shortcut_text(ctx.format_shortcut(&DELETE)),
                    )
                    .clicked()
                {
                    self.delete(&selection);
                }
                if ui
                    .add_enabled(
                        !selection.is_empty(),
                        egui::Button::new("Copy").shortcut_text("Ctrl+C"),
                    )
                    .clicked()
                    && let Ok(text) = ron::to_string(&self.clip(&selection))
                {
                    ctx.copy_text(text);
                }
                ui.label("Paste: Ctrl+V");
                ui.separator();
                if ui
                    .add(
                        egui::Button::new("Frame All")
                            .shortcut_text(ctx.format_shortcut(&FRAME_ALL)),
                    )
                    .clicked()
                {
                    self.graph.frame(Vec::new());
                }
            });
            ui.separator();
            let title = self.session.path().map_or_else(
                || format!("{} (not saved)", self.session.doc().graph.name),
                |p| p.display().to_string(),
            );
            ui.label(format!(
                "{title}{}",
                if self.session.is_dirty() { " •" } else { "" }
            ));
        });
    }

    fn library(&mut self, ui: &mut egui::Ui) {
        ui.heading("Library");
        ui.add(egui::TextEdit::singleline(&mut self.search).hint_text("Search nodes"));
        let needle = self.search.to_lowercase();
        let mut add = None;
        egui::ScrollArea::vertical()
            .id_salt("library")
            .show(ui, |ui| {
                for kind in tuft_graph::nodes::ALL {
                    let (name, doc) = (kind.name(), kind.doc());
                    if !needle.is_empty()
                        && !name.to_lowercase().contains(&needle)
                        && !doc.to_lowercase().contains(&needle)
                    {
                        continue;
                    }
                    // Click to add at the centre of the graph, or drag onto the graph.
                    let resp = ui
                        .add(egui::Button::new(name).sense(egui::Sense::click_and_drag()))
                        .on_hover_text(doc);
                    resp.dnd_set_drag_payload(DraggedKind(name));
                    ui.label(egui::RichText::new(doc).small().weak());
                    if resp.clicked() {
                        add = Some(name);
                    }
                }
            });
        if let Some(kind) = add {
            self.add_node(kind);
        }
    }

    fn inspector(&mut self, ui: &mut egui::Ui) {
        ui.heading("Inspector");
        let Some(id) = self.selected else {
            ui.label("Select a node to edit its parameters.");
            self.layers_inspector(ui);
            return;
        };
        let Some(node) = self.session.doc().graph.node(id).cloned() else {
            return;
        };
        let Some(kind) = node.kind() else {
            ui.label(format!("Unknown node kind `{}`", node.kind));
            return;
        };
        ui.strong(node.label());
        ui.label(kind.doc());
        let mut changes: Vec<(String, ParamValue)> = Vec::new();
        egui::Grid::new("params").num_columns(2).show(ui, |ui| {
            for desc in kind.params() {
                ui.label(desc.name).on_hover_text(desc.doc);
                let current = node
                    .params
                    .get(desc.name)
                    .cloned()
                    .unwrap_or_else(|| desc.default_value());
                if let Some(v) = param_editor(ui, desc.kind, current) {
                    changes.push((desc.name.to_owned(), v));
                }
                ui.end_row();
            }
        });
        for (name, value) in changes {
            self.set_param(id, &name, value);
        }
        // The seam view: the node's output tiled 2 × 2, repeat edges marked.
        if let Some(tex) = self.thumbs.textures().get(&id) {
            ui.separator();
            ui.label("Seam view (2 × 2 repeats)");
            let (rect, _) = ui.allocate_exact_size(egui::vec2(160.0, 160.0), egui::Sense::hover());
            let half = rect.width() / 2.0;
            for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                let r = egui::Rect::from_min_size(
                    rect.min + egui::vec2(dx * half, dy * half),
                    egui::vec2(half, half),
                );
                ui.painter().image(
                    tex.id(),
                    r,
                    egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    egui::Color32::WHITE,
                );
            }
            let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 60, 200));
            ui.painter()
                .line_segment([rect.center_top(), rect.center_bottom()], stroke);
            ui.painter()
                .line_segment([rect.left_center(), rect.right_center()], stroke);
        }
    }

    /// The material's strand layers: settings and the survivor view.
    fn layers_inspector(&mut self, ui: &mut egui::Ui) {
        let layers: Vec<(String, tuft_graph::StrandLayer)> = self
            .session
            .doc()
            .graph
            .strands
            .iter()
            .map(|(n, l)| (n.clone(), l.clone()))
            .collect();
        for (name, layer) in layers {
            ui.separator();
            ui.strong(format!("Strand layer {name}"));
            ui.label(format!("{} candidates", layer.n_candidates()));
            let mut edited = layer.clone();
            egui::Grid::new(format!("layer {name}"))
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label("lattice")
                        .on_hover_text("Candidates per side of the repeat");
                    ui.add(egui::DragValue::new(&mut edited.lattice).range(1..=4096));
                    ui.end_row();
                    ui.label("clump lattice")
                        .on_hover_text("Clump points per side of the repeat");
                    ui.add(egui::DragValue::new(&mut edited.clump_lattice).range(1..=1024));
                    ui.end_row();
                    ui.label("clump share")
                        .on_hover_text("Share of each variation taken from the clump");
                    ui.add(egui::Slider::new(&mut edited.clump_share, 0.0..=1.0));
                    ui.end_row();
                    ui.label("tip pull")
                        .on_hover_text("How far each tip is pulled toward its clump");
                    ui.add(egui::Slider::new(&mut edited.tip_pull, 0.0..=1.0));
                    ui.end_row();
                    ui.label("widening p").on_hover_text(
                        "Level k's survivors are widened by keep^(-p); 1 keeps the projected area",
                    );
                    ui.add(egui::Slider::new(&mut edited.levels.widen_p, 0.0..=1.5));
                    ui.end_row();
                    ui.label("levels keep");
                    ui.label(
                        edited
                            .levels
                            .keep
                            .iter()
                            .map(|k| format!("{k}"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    );
                    ui.end_row();
                });
            if edited != layer {
                let key = format!("layer {name}");
                let n = name.clone();
                self.edit(Some(key), move |d| {
                    d.graph.strands.insert(n, edited);
                });
            }
            if let Some(reports) = self.thumbs.level_reports(&name) {
                ui.label(format!(
                    "levels (coverage from above, relative to level 0): {}",
                    coverage_text(reports)
                ))
                .on_hover_text(
                    "Each level splatted from above; 1 means the level covers what level 0 does",
                );
            }
            if let Some(tex) = self.thumbs.survivors().get(&name) {
                ui.label("Survivors: green where the density keeps the candidates, red where it drops them")
                    .on_hover_text("Each candidate exists iff its own density hash is below the density at its root");
                ui.image((tex.id(), egui::vec2(160.0, 160.0)));
            }
        }
    }

    fn preview_panel(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let before = self.preview.kind;
            egui::ComboBox::from_id_salt("surface")
                .selected_text(self.preview.kind.name())
                .show_ui(ui, |ui| {
                    for k in SurfaceKind::ALL {
                        ui.selectable_value(&mut self.preview.kind, k, k.name());
                    }
                });
            if before != self.preview.kind {
                self.preview
                    .request(self.session.generation(), &self.session.doc().graph);
            }
            ui.label("Distance");
            ui.add(
                egui::Slider::new(&mut self.preview.view.camera.distance_m, 0.3..=60.0)
                    .logarithmic(true)
                    .suffix(" m"),
            );
        });
        ui.horizontal_wrapped(|ui| {
            let label = |m: LevelMode| match m {
                LevelMode::Auto => "auto".to_owned(),
                LevelMode::Forced(r) => r.to_string(),
            };
            egui::ComboBox::from_id_salt("level")
                .selected_text(label(self.preview.view.level))
                .show_ui(ui, |ui| {
                    for m in [
                        LevelMode::Auto,
                        LevelMode::Forced(Rep::Strands(0)),
                        LevelMode::Forced(Rep::Strands(1)),
                        LevelMode::Forced(Rep::Strands(2)),
                        LevelMode::Forced(Rep::Cards),
                        LevelMode::Forced(Rep::Relief),
                    ] {
                        ui.selectable_value(&mut self.preview.view.level, m, label(m));
                    }
                });
            ui.checkbox(&mut self.preview.view.overlay, "Level overlay");
            ui.checkbox(&mut self.preview.side_by_side, "Levels side by side");
            ui.checkbox(&mut self.preview.view.blend_to_surface, "Blend to surface")
                .on_hover_text(
                    "Far away, strands and cards take on the colour of the surface \
                     behind them (against the sky, of strands turned every way), so the \
                     card switches hold the colour. Off: their own colour at any \
                     distance (how far it is from the relief).",
                );
            let mut windy = self.preview.view.wind.is_some();
            ui.checkbox(&mut windy, "Wind");
            match (windy, self.preview.view.wind.as_mut()) {
                (true, Some(w)) => {
                    ui.add(egui::Slider::new(&mut w.strength, 0.0..=2.0));
                    w.time_s = ui.input(|i| i.time) as f32;
                    ui.ctx().request_repaint();
                }
                (true, None) => {
                    self.preview.view.wind = Some(Wind {
                        strength: 0.5,
                        direction: 0.1,
                        time_s: 0.0,
                    });
                }
                (false, _) => self.preview.view.wind = None,
            }
        });
        // Parameters as live sliders.
        let params: Vec<(NodeId, String, f32, f32, f32)> = self
            .session
            .doc()
            .graph
            .nodes
            .iter()
            .filter(|n| n.kind == "Parameter")
            .map(|n| {
                let p = n.params();
                (
                    n.id,
                    p.text("name").to_owned(),
                    p.float("value"),
                    p.float("min"),
                    p.float("max"),
                )
            })
            .collect();
        for (id, name, mut value, min, max) in params {
            if ui
                .add(egui::Slider::new(&mut value, min..=max).text(name))
                .changed()
            {
                self.set_param(id, "value", ParamValue::Float(value));
            }
        }
        let size = ui.available_size().max(egui::vec2(64.0, 64.0));
        let (rect, resp) = ui.allocate_exact_size(size, egui::Sense::drag());
        if resp.dragged() {
            let d = resp.drag_delta();
            let cam = &mut self.preview.view.camera;
            cam.yaw -= d.x / 600.0;
            cam.pitch = (cam.pitch + d.y / 600.0).clamp(-0.24, 0.24);
        }
        if resp.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                let cam = &mut self.preview.view.camera;
                cam.distance_m = (cam.distance_m * (-scroll * 0.002).exp()).clamp(0.3, 60.0);
            }
        }
        self.preview.show(ui, rect);
        if !self.preview.has_scene() || self.preview.building.is_some() {
            ui.painter().text(
                rect.left_top() + egui::vec2(8.0, 8.0),
                egui::Align2::LEFT_TOP,
                if self.preview.has_scene() {
                    "Rebuilding…"
                } else {
                    "Building the preview…"
                },
                egui::FontId::proportional(14.0),
                egui::Color32::WHITE,
            );
        }
    }

    fn diagnostics(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading("Diagnostics");
            if let Some(r) = &self.graph.refusal {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), r);
            }
        });
        egui::ScrollArea::vertical()
            .id_salt("diagnostics")
            .show(ui, |ui| {
                if self.report.diagnostics.is_empty() {
                    ui.label("No problems: every field tiles and every layer is within budget.");
                }
                let mut select = None;
                for d in &self.report.diagnostics {
                    let color = if d.is_error() {
                        egui::Color32::from_rgb(230, 90, 80)
                    } else {
                        egui::Color32::from_rgb(220, 180, 60)
                    };
                    let resp = ui.add(
                        egui::Label::new(egui::RichText::new(d.to_string()).color(color))
                            .sense(egui::Sense::click()),
                    );
                    if resp.clicked()
                        && let Some(node) = d.node
                    {
                        select = Some(node);
                    }
                }
                if let Some(node) = select {
                    self.selected = Some(node);
                    self.graph.frame(vec![ViewNode::Node(node)]);
                }
            });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let stats = &self.preview.stats;
            for (k, layer) in stats.layers.iter().enumerate() {
                let reps: Vec<String> = layer
                    .reps
                    .iter()
                    .map(|(r, n)| format!("{r} ×{n}"))
                    .collect();
                let coverage = self
                    .thumbs
                    .level_reports(&layer.name)
                    .map_or_else(String::new, |r| format!("; coverage {}", coverage_text(r)));
                let resp = ui.label(format!(
                    "{}: {} strands, {} triangles ({}{coverage})",
                    layer.name,
                    layer.strands,
                    layer.triangles,
                    reps.join(", ")
                ));
                // The switch distances only when asked for (hovered).
                let preview = &self.preview;
                resp.on_hover_ui(|ui| {
                    for (a, b, d) in preview.switches(k, preview.view.height as f32) {
                        ui.label(format!("{a} → {b} at {d:.1} m"));
                    }
                });
                ui.separator();
            }
            if let Some(ms) = self.preview.rebuild_ms {
                ui.label(format!("rebuild {ms:.0} ms"));
            }
            if let Some(e) = &self.preview.error {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
            }
            let mut sorted = self.frame_ms.clone();
            sorted.sort_by(f32::total_cmp);
            if let Some(median) = sorted.get(sorted.len() / 2) {
                ui.label(format!("UI {median:.1} ms/frame"));
            }
            if let Some((m, bad)) = &self.message {
                let color = if *bad {
                    egui::Color32::from_rgb(230, 90, 80)
                } else {
                    ui.visuals().text_color()
                };
                ui.colored_label(color, m);
            }
        });
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        if let Some(doc) = &self.recovery {
            let nodes = doc.graph.nodes.len();
            let mut choice = None;
            egui::Window::new("Recover unsaved work?")
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
                    ui.label(format!(
                        "Tuft closed with unsaved changes to “{}” ({nodes} nodes). Recover them?",
                        doc.graph.name
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Recover").clicked() {
                            choice = Some(true);
                        }
                        if ui.button("Discard").clicked() {
                            choice = Some(false);
                        }
                    });
                });
            match choice {
                Some(true) => self.recover(),
                Some(false) => self.discard_recovery(),
                None => {}
            }
        }
        if let Some(pending) = self.pending.clone() {
            let mut answer = None;
            egui::Window::new("Unsaved changes")
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
                    ui.label("The material has unsaved changes.");
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            answer = Some(0);
                        }
                        if ui.button("Don't Save").clicked() {
                            answer = Some(1);
                        }
                        if ui.button("Cancel").clicked() {
                            answer = Some(2);
                        }
                    });
                });
            let proceed = match answer {
                Some(0) => {
                    self.save_or_ask();
                    !self.session.is_dirty()
                }
                Some(1) => true,
                Some(_) => {
                    self.pending = None;
                    false
                }
                None => false,
            };
            if proceed {
                self.pending = None;
                match pending {
                    Pending::New => self.new_document(),
                    Pending::Open(p) => self.open_now(&p),
                    Pending::Quit => {
                        self.session = Session::new(
                            self.session.doc().clone(),
                            self.session.path().map(Path::to_owned),
                        );
                        if let Some(a) = &self.autosave {
                            let _ = std::fs::remove_file(a);
                        }
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                }
            }
        }
        if let Some(export) = &self.export {
            let mut finished = None;
            if let Ok(result) = export.done.try_recv() {
                finished = Some(result);
            }
            let fraction = export.progress.load(Ordering::Relaxed) as f32 / 1000.0;
            let stage = lock(&export.stage).clone();
            let dir = export.dir.clone();
            let cancel = export.cancel.clone();
            egui::Window::new("Exporting baked set")
                .collapsible(false)
                .show(ctx, |ui| {
                    ui.label(dir.display().to_string());
                    ui.add(egui::ProgressBar::new(fraction).text(stage));
                    if ui.button("Cancel").clicked() {
                        cancel.store(true, Ordering::Relaxed);
                    }
                });
            ctx.request_repaint_after(Duration::from_millis(100));
            if let Some(result) = finished {
                self.message = Some(match result {
                    Ok(n) => (format!("Exported {n} files to {}", dir.display()), false),
                    Err(e) => (format!("Export stopped: {e}"), true),
                });
                self.export = None;
            }
        }
    }
}

/// Each level's coverage relative to level 0, as `1.00 · 0.90 · 0.86`.
fn coverage_text(reports: &[tuft_strands::levels::LevelReport]) -> String {
    reports
        .iter()
        .map(|r| format!("{:.2}", r.coverage))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// An editor for one parameter; returns the new value if edited.
fn param_editor(ui: &mut egui::Ui, kind: ParamKind, current: ParamValue) -> Option<ParamValue> {
    match (kind, current) {
        (ParamKind::Float { min, max, .. }, ParamValue::Float(mut x)) => ui
            .add(egui::Slider::new(&mut x, min..=max).clamping(egui::SliderClamping::Never))
            .changed()
            .then_some(ParamValue::Float(x)),
        (ParamKind::Int { min, max, .. }, ParamValue::Int(mut x)) => ui
            .add(egui::DragValue::new(&mut x).range(min..=max))
            .changed()
            .then_some(ParamValue::Int(x)),
        (ParamKind::Choice { options, .. }, ParamValue::Choice(c)) => {
            let mut chosen = c.clone();
            egui::ComboBox::from_id_salt(ui.next_auto_id())
                .selected_text(&chosen)
                .show_ui(ui, |ui| {
                    for o in options {
                        ui.selectable_value(&mut chosen, (*o).to_owned(), *o);
                    }
                });
            (chosen != c).then_some(ParamValue::Choice(chosen))
        }
        (ParamKind::Text { .. }, ParamValue::Text(mut t)) => ui
            .text_edit_singleline(&mut t)
            .changed()
            .then_some(ParamValue::Text(t)),
        (ParamKind::Ramp, ParamValue::Ramp(mut stops)) => {
            let mut changed = false;
            ui.vertical(|ui| {
                for stop in &mut stops {
                    ui.horizontal(|ui| {
                        changed |= ui
                            .add(
                                egui::DragValue::new(&mut stop.pos)
                                    .range(0.0..=1.0)
                                    .speed(0.005),
                            )
                            .changed();
                        changed |= ui.color_edit_button_rgb(&mut stop.color).changed();
                    });
                }
                if ui.small_button("+ stop").clicked() {
                    stops.push(RampStop {
                        pos: 1.0,
                        color: [1.0; 3],
                    });
                    changed = true;
                }
            });
            stops.sort_by(|a, b| a.pos.total_cmp(&b.pos));
            changed.then_some(ParamValue::Ramp(stops))
        }
        _ => None,
    }
}

impl eframe::App for Editor {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        if self.preview.poll() {
            ctx.request_repaint();
        }
        self.request_thumbnails_when_due();
        self.thumbs.poll(&ctx);
        if self.preview.building.is_some() || self.thumbs.shown < self.session.generation() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        // Dropped .ron files open.
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        if let Some(path) = dropped
            .into_iter()
            .find(|p| p.extension().is_some_and(|e| e == "ron"))
        {
            self.open(&path);
        }
        if ctx.input(|i| i.viewport().close_requested())
            && self.session.is_dirty()
            && self.pending.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        self.shortcuts(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::Panel::bottom("diagnostics")
            .resizable(true)
            .default_size(120.0)
            .show(ui, |ui| self.diagnostics(ui));
        egui::Panel::left("library")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| self.library(ui));
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
                            .show(ui, |ui| self.inspector(ui));
                    });
                egui::CentralPanel::default().show(ui, |ui| self.preview_panel(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let actions = self.graph.show(
                ui,
                self.session.doc(),
                self.session.generation(),
                &self.report,
                self.thumbs.textures(),
            );
            if !actions.is_empty() {
                ui.ctx().request_repaint();
            }
            self.apply(actions);
        });
        for (id, pos) in self.graph.positions() {
            if self.session.doc().layout.get(&id) != Some(&pos) {
                self.session.set_position(id, pos);
            }
        }
        self.dialogs(&ctx);
        if self.last_autosave.elapsed() >= AUTOSAVE_EVERY {
            self.autosave_now();
        }
        self.frame_ms.push(start.elapsed().as_secs_f32() * 1e3);
        if self.frame_ms.len() > 120 {
            self.frame_ms.remove(0);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Ok(text) = serde_json::to_string(&self.recent) {
            storage.set_string("recent", text);
        }
    }

    fn on_exit(&mut self) {
        // A clean exit leaves no autosave behind unless work is unsaved.
        if self.session.is_dirty() {
            self.autosave_now();
        } else if let Some(a) = &self.autosave {
            let _ = std::fs::remove_file(a);
        }
    }
}
