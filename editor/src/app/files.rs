//! The document's life as files: choosing them (a dialog off the UI thread, or the
//! editor's own prompt where none can be shown), saving, opening, New, recovery replacing
//! the session, the recent files and the window's title.

use super::{Editor, Pending};
use crate::file_dialogs::{Dialogs, Purpose};
use crate::graph_view::GraphView;
use crate::session::Session;
use eframe::egui;
use std::path::{Path, PathBuf};

impl Editor {
    /// Recently opened files, newest first.
    #[must_use]
    pub fn recent(&self) -> &[PathBuf] {
        &self.recent
    }

    /// The window's title: what is shown ([`Self::shown_name`], the file's name alone),
    /// then the application.
    #[must_use]
    pub fn window_title(&self) -> String {
        format!("{} — Tuft", self.shown_name(false))
    }

    /// What the editor shows, named: a baked set's folder, or the document's file (its
    /// whole path, or `whole_path` false its name alone; the material's name for a
    /// document never saved) with a dot while there are unsaved changes.
    pub(super) fn shown_name(&self, whole_path: bool) -> String {
        if let Some(dir) = self.baked.dir() {
            return format!("{} (baked set, read-only)", dir.display());
        }
        let name = self.session.path().map_or_else(
            || format!("{} (not saved)", self.session.doc().graph.name),
            |p| match p.file_name() {
                Some(n) if !whole_path => n.to_string_lossy().into_owned(),
                _ => p.display().to_string(),
            },
        );
        let dirty = if self.session.is_dirty() { " •" } else { "" };
        format!("{name}{dirty}")
    }

    /// Saves (to `path` for Save As); a failure is reported and the old file stays.
    pub fn save(&mut self, path: Option<&Path>) -> bool {
        match self.session.save(path) {
            Ok(saved) => {
                self.remember(&saved);
                self.message = Some((format!("Saved {}", saved.display()), false));
                self.recovery.saved();
                true
            }
            Err(e) => {
                self.message = Some((format!("Not saved: {e}"), true));
                false
            }
        }
    }

    /// After a Save As to `path`: where the file's name is not the material's, offers
    /// to name the material after it (a bake names its files by the material).
    /// Regression: saved as `mygrass.ron`, the export still wrote `untitled_*.png`.
    pub(super) fn offer_rename_after(&mut self, path: &Path) {
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            return;
        };
        if stem != self.session.doc().graph.name && !stem.trim().is_empty() {
            self.renaming = Some((stem, true));
        }
    }

    /// Names the material `name` (one undoable edit); an empty name is refused.
    pub fn rename_material(&mut self, name: &str) -> bool {
        let name = name.trim();
        if name.is_empty() {
            self.message = Some(("A material needs a name".to_owned(), true));
            return false;
        }
        let old = self.session.doc().graph.name.clone();
        self.edit(None, |d| d.graph.name = name.to_owned());
        self.message = Some((format!("Renamed the material “{old}” to “{name}”"), false));
        true
    }

    /// The window naming the material, while one is open.
    pub(super) fn rename_window(&mut self, ctx: &egui::Context) {
        let Some((mut text, offered)) = self.renaming.take() else {
            return;
        };
        let old = self.session.doc().graph.name.clone();
        let mut done = None;
        super::widgets::question("Name the material").show(ctx, |ui| {
            if offered {
                ui.label(format!(
                    "The material is called “{old}”; its file is not. A bake names its \
                         files by the material: name it after the file?"
                ));
            } else {
                ui.label("A bake names its files by the material's name.");
            }
            let field = ui.text_edit_singleline(&mut text);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.button("Rename").clicked() || enter {
                    done = Some(true);
                }
                let keep = if offered {
                    format!("Keep “{old}”")
                } else {
                    "Cancel".to_owned()
                };
                if ui.button(keep).clicked() {
                    done = Some(false);
                }
            });
        });
        match done {
            Some(true) if !self.rename_material(&text) => self.renaming = Some((text, offered)),
            // Offered right after a Save As: the file just written takes the new name too.
            Some(true) if offered => {
                self.save(None);
            }
            Some(_) => {}
            None => self.renaming = Some((text, offered)),
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

    /// Puts `session` in place of the current one, its generations counting on from the
    /// current one's (the workers ignore a generation older than one they have seen:
    /// thumbnails and previews after New or Open stayed those of the document before).
    pub(super) fn replace_session(&mut self, mut session: Session) {
        session.continue_after(self.session.generation());
        self.session = session;
        // The frames measured were another document's drawing.
        self.interval_ms.clear();
    }

    pub(super) fn open_now(&mut self, path: &Path) {
        match Session::open(path) {
            Ok(session) => {
                self.baked.close();
                self.recovery.release_slot();
                self.replace_session(session);
                self.selected = None;
                self.validated_for = 0;
                self.graph = GraphView::new();
                self.remember(path);
                self.message = Some((format!("Opened {}", path.display()), false));
                self.say_library_notes();
                self.after_change();
                self.load_document_mesh();
            }
            Err(e) => self.message = Some((format!("{}: {e}", path.display()), true)),
        }
    }

    /// A new document, after asking about unsaved changes.
    /// Starts a new document, empty or a copy of preset `preset` (asking first when
    /// there are unsaved changes).
    pub(super) fn request_new(&mut self, preset: Option<&'static crate::Preset>) {
        if self.session.is_dirty() {
            self.pending = Some(Pending::New(preset));
        } else {
            self.new_document(preset);
        }
    }

    /// Saves to the document's file, or asks where when it has none.
    pub(super) fn save_or_ask(&mut self) {
        if self.session.path().is_some() {
            self.save(None);
        } else {
            let name = format!(
                "{}.ron",
                tuft_graph::naming::file_stem(&self.session.doc().graph.name)
            );
            self.choose(Purpose::SaveAs(name));
        }
    }

    /// How files are chosen from now on (a scripted answer in tests).
    pub fn set_dialogs(&mut self, dialogs: Dialogs) {
        self.dialogs = dialogs;
    }

    /// Whether a file dialog is open on its worker.
    #[must_use]
    pub fn choosing(&self) -> bool {
        self.asking.is_some()
    }

    /// Whether the editor's own path prompt is showing (no dialog could be).
    #[must_use]
    pub fn prompting(&self) -> bool {
        self.path_prompt.is_some()
    }

    /// Starts choosing a file for `purpose`: the system's dialog on a worker, or, where
    /// none can be shown, the editor's own prompt with a message saying why.
    pub(super) fn choose(&mut self, purpose: Purpose) {
        if self.asking.is_some() {
            self.message = Some(("A file dialog is already open".to_owned(), true));
            return;
        }
        match self.dialogs.ask(purpose.clone()) {
            Ok(asking) => {
                self.message = Some((format!("{}…", purpose.title()), false));
                self.asking = Some(asking);
            }
            Err(why) => {
                self.message = Some((format!("{why}: type the path instead"), true));
                let start = match &purpose {
                    Purpose::SaveAs(name) | Purpose::Image(name) => name.clone(),
                    _ => String::new(),
                };
                self.path_prompt = Some((purpose, start));
            }
        }
    }

    /// Takes a dialog's answer once there is one.
    pub(super) fn poll_dialog(&mut self) {
        let Some(answer) = self.asking.as_ref().and_then(|a| a.answer()) else {
            return;
        };
        let Some(asking) = self.asking.take() else {
            return;
        };
        match answer {
            Some(path) => self.chosen(asking.purpose().clone(), &path),
            None => self.message = None,
        }
    }

    /// Goes on with what a file was chosen for.
    fn chosen(&mut self, purpose: Purpose, path: &Path) {
        match purpose {
            Purpose::Open => self.open_any(path),
            Purpose::SaveAs(_) => {
                if self.save(Some(path)) {
                    self.offer_rename_after(path);
                }
            }
            Purpose::Export => self.exporter.folder_chosen(path),
            Purpose::OpenBaked => self.open_any(path),
            Purpose::Mesh => self.use_mesh(path, None),
            Purpose::Image(_) => self.image_render.file_chosen(path),
            Purpose::File { node, param, .. } => {
                let folder = self.session.doc().graph.folder.clone();
                let relative = tuft_graph::images::relative_to(folder.get(), path);
                self.set_param(node, &param, tuft_graph::ParamValue::Text(relative));
            }
        }
    }

    /// The editor's own path prompt, where no file dialog can be shown.
    pub(super) fn path_prompt_window(&mut self, ctx: &egui::Context) {
        let Some((purpose, mut text)) = self.path_prompt.take() else {
            return;
        };
        let mut answer = None;
        super::widgets::question(purpose.title()).show(ctx, |ui| {
            ui.label("No file dialog can be shown here. Type the path:");
            let field = ui.add(egui::TextEdit::singleline(&mut text).desired_width(420.0));
            // Enter gives up the field's focus: looked for before the focus is taken
            // back below (which would hide that it was lost).
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            // The keys go to the path unless the user moved them elsewhere.
            if !enter && ui.memory(|m| m.focused().is_none()) {
                field.request_focus();
            }
            ui.horizontal(|ui| {
                if ui.button("OK").clicked() || enter {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(false);
                }
            });
        });
        match answer {
            Some(true) if !text.trim().is_empty() => {
                self.chosen(purpose, Path::new(text.trim()));
            }
            Some(_) => {}
            None => self.path_prompt = Some((purpose, text)),
        }
    }

    /// An untitled document: empty, or preset `preset` (File › New from Preset), which
    /// is saved wherever the author chooses, never over the preset.
    pub(super) fn new_document(&mut self, preset: Option<&'static crate::Preset>) {
        let session = match preset {
            None => Session::untitled(),
            Some((name, text)) => match tuft_graph::io::from_str(text) {
                Ok(doc) => Session::new(doc, None),
                Err(e) => {
                    self.message = Some((format!("The {name} preset: {e}"), true));
                    return;
                }
            },
        };
        self.baked.close();
        self.recovery.release_slot();
        self.replace_session(session);
        self.selected = None;
        self.validated_for = 0;
        self.graph = GraphView::new();
        self.after_change();
        self.load_document_mesh();
    }

    pub(super) fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_owned());
        self.recent.truncate(10);
    }
}
