//! Menus, keyboard shortcuts, file dialogs and the modal windows (recovery, unsaved
//! changes, export progress).

use super::{Editor, Pending};
use crate::session::Session;
use crate::workers::lock;
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tuft_graph::NodeId;
use tuft_graph::clip::Clip;

/// Undo.
pub const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
/// Redo.
pub const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
/// Redo, as Windows and Linux programs also spell it.
pub const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
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

impl Editor {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
            self.deselect();
        }
        let (redo, undo, save_as, save, open, new, dup, del, frame) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y),
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

    pub(super) fn selection(&self, ctx: &egui::Context) -> Vec<NodeId> {
        let mut s = self.graph.selected(ctx);
        if s.is_empty()
            && let Some(id) = self.selected
        {
            s.push(id);
        }
        s
    }

    pub(super) fn open_dialog(&mut self) {
        if let Some(path) = rfd::FileDialog::new()
            .add_filter("Tuft graph", &["ron"])
            .pick_file()
        {
            self.open(&path);
        }
    }

    pub(super) fn save_as_dialog(&mut self) {
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

    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
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

    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        if !self.orphans.is_empty() {
            let mut choice = None;
            egui::Window::new("Recover unsaved work?")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    ui.label("Tuft closed without saving this work:");
                    for (i, o) in self.orphans.iter().enumerate() {
                        ui.horizontal(|ui| {
                            ui.label(format!(
                                "{} ({} nodes)",
                                o.label(),
                                o.document.graph.nodes.len()
                            ));
                            if ui.button("Recover").clicked() {
                                choice = Some((i, true));
                            }
                            if ui.button("Discard").clicked() {
                                choice = Some((i, false));
                            }
                        });
                    }
                });
            match choice {
                Some((i, true)) => self.recover_at(i),
                Some((i, false)) => self.discard_at(i),
                None => {}
            }
        }
        if let Some(pending) = self.pending.clone() {
            let mut answer = None;
            egui::Window::new("Unsaved changes")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
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
                    Pending::Recover(i) => self.recover_now(i),
                    Pending::Quit => {
                        self.replace_session(Session::new(
                            self.session.doc().clone(),
                            self.session.path().map(Path::to_owned),
                        ));
                        self.release_slot();
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
