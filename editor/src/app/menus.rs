//! Menus, keyboard shortcuts, file dialogs and the modal windows (recovery, unsaved
//! changes, export progress).

use super::{Editor, Pending};
use crate::command::Command;
use crate::session::Session;
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::Path;
use tuft_graph::NodeId;

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
/// Cut the selection to the clipboard (the platform delivers it as an event).
pub const CUT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::X);
/// Copy the selection to the clipboard (delivered as an event).
pub const COPY: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::C);
/// Paste nodes from the clipboard (delivered as an event with the clipboard's text).
pub const PASTE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::V);
/// Frame all nodes.
pub const FRAME_ALL: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F);

/// Select every node in view.
pub const SELECT_ALL: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::A);
/// Group the selection.
pub const GROUP: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::G);
/// Ungroup the selected group (or the open one).
pub const UNGROUP: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::G);
/// Frame the selection in a titled box.
pub const ADD_FRAME: KeyboardShortcut = KeyboardShortcut::new(Modifiers::SHIFT, Key::F);

impl Editor {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
        // The rename window's keys are its own (Escape cancels it), and an open menu's
        // Escape closes the menu. Regression: Escape never closed the canvas menu.
        if ctx.egui_wants_keyboard_input() || self.graph.renaming() || egui::Popup::is_any_open(ctx)
        {
            return;
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
            if self.graph.menu_open() {
                self.graph.close_menu();
                return;
            }
            if self.graph.open_group().is_some() && self.selected.is_none() {
                self.queue.push(Command::CloseGroup);
            }
            self.graph.clear_selection();
            self.queue.push(Command::Deselect);
        }
        let selection = self.selection(ctx);
        let some = !selection.is_empty();
        let ungroup = self.group_to_ungroup(ctx);
        // Most specific first: Ctrl+Shift+Z before Ctrl+Z, Shift+F before F. A shortcut
        // whose command has nothing to act on is still taken (it does nothing).
        let table: Vec<(&[KeyboardShortcut], Option<Command>)> = vec![
            (&[REDO, REDO_Y], Some(Command::Redo)),
            (&[UNDO], Some(Command::Undo)),
            (&[SAVE_AS], Some(Command::SaveAs)),
            (&[SAVE], Some(Command::Save)),
            (&[OPEN], Some(Command::Open)),
            (&[NEW], Some(Command::New)),
            (&[SELECT_ALL], Some(Command::SelectAll)),
            (&[UNGROUP], ungroup.map(Command::Ungroup)),
            (&[GROUP], some.then(|| Command::Group(selection.clone()))),
            (
                &[DUPLICATE],
                some.then(|| Command::Duplicate(selection.clone())),
            ),
            (&[DELETE], some.then(|| Command::Delete(selection.clone()))),
            (&[ADD_FRAME], Some(Command::AddFrame)),
            (&[FRAME_ALL], Some(Command::FrameAll)),
        ];
        for (keys, command) in table {
            if ctx.input_mut(|i| keys.iter().any(|k| i.consume_shortcut(k)))
                && let Some(c) = command
            {
                self.queue.push(c);
            }
        }
        // Space or Tab over the canvas opens the canvas menu where the pointer is.
        if let Some(at) = ctx.pointer_hover_pos()
            && self.graph.canvas_contains(at)
            && !self.graph.menu_open()
            && ctx.input_mut(|i| {
                i.consume_key(Modifiers::NONE, Key::Space)
                    | i.consume_key(Modifiers::NONE, Key::Tab)
            })
        {
            self.graph.open_menu(at);
        }
        // Cut, copy and paste travel as text on the system clipboard; the platform turns
        // their keys into these events.
        let events = ctx.input(|i| i.events.clone());
        for e in events {
            match e {
                egui::Event::Copy if !selection.is_empty() => {
                    self.queue.push(Command::Copy(selection.clone()));
                }
                egui::Event::Cut if !selection.is_empty() => {
                    self.queue.push(Command::Cut(selection.clone()));
                }
                egui::Event::Paste(text) => self.queue.push(Command::Paste(text)),
                _ => {}
            }
        }
    }

    /// The group Ungroup acts on: a selected group node's, or the open one.
    fn group_to_ungroup(&self, ctx: &egui::Context) -> Option<u32> {
        let doc = self.session.doc();
        self.selection(ctx)
            .first()
            .and_then(|id| doc.group_of(*id))
            .filter(|_| self.graph.open_group().is_none())
            .map(|g| g.id)
            .or(self.graph.open_group())
    }

    pub(super) fn selection(&self, ctx: &egui::Context) -> Vec<NodeId> {
        let mut s = self.graph.selected(ctx, self.session.doc());
        if s.is_empty()
            && let Some(id) = self.selected
        {
            s.push(id);
        }
        s
    }

    /// A menu entry that asks for `command` when clicked (greyed out without one).
    fn item(&mut self, ui: &mut egui::Ui, label: &str, keys: &str, command: Option<Command>) {
        if ui
            .add_enabled(
                command.is_some(),
                egui::Button::new(label).shortcut_text(keys),
            )
            .clicked()
            && let Some(c) = command
        {
            self.queue.push(c);
            ui.close();
        }
    }

    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let keys = |k: &KeyboardShortcut| ctx.format_shortcut(k);
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                self.item(ui, "New", &keys(&NEW), Some(Command::New));
                ui.menu_button("New from Preset", |ui| {
                    for preset in &crate::PRESETS {
                        let command = Command::NewFromPreset(preset);
                        let mut label = preset.0.to_owned();
                        label[..1].make_ascii_uppercase();
                        self.item(ui, &label, "", Some(command));
                    }
                });
                self.item(ui, "Open…", &keys(&OPEN), Some(Command::Open));
                ui.menu_button("Open Recent", |ui| {
                    if self.recent.is_empty() {
                        ui.label("Nothing yet");
                    }
                    for path in self.recent.clone() {
                        let label = path.display().to_string();
                        self.item(ui, &label, "", Some(Command::OpenPath(path)));
                    }
                });
                ui.separator();
                self.item(ui, "Save", &keys(&SAVE), Some(Command::Save));
                self.item(ui, "Save As…", &keys(&SAVE_AS), Some(Command::SaveAs));
                self.item(ui, "Rename Material…", "", Some(Command::RenameMaterial));
                ui.separator();
                let idle = !self.exporter.busy();
                self.item(ui, "Export Baked Set…", "", idle.then_some(Command::Export));
                self.item(ui, "Open Baked Set…", "", Some(Command::OpenBaked));
                let idle = !self.image_render.busy();
                self.item(
                    ui,
                    "Render Image…",
                    "",
                    idle.then_some(Command::RenderImage),
                );
                let viewing = self.baked.showing().then_some(Command::CloseBaked);
                self.item(ui, "Close Baked Set", "", viewing);
                ui.separator();
                if ui.button("Quit").clicked() {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                let undo = self.session.can_undo().then_some(Command::Undo);
                self.item(ui, "Undo", &keys(&UNDO), undo);
                let redo = self.session.can_redo().then_some(Command::Redo);
                self.item(ui, "Redo", &keys(&REDO), redo);
                ui.separator();
                let selection = self.selection(&ctx);
                let any = !selection.is_empty();
                self.item(
                    ui,
                    "Select All",
                    &keys(&SELECT_ALL),
                    Some(Command::SelectAll),
                );
                let dup = any.then(|| Command::Duplicate(selection.clone()));
                self.item(ui, "Duplicate", &keys(&DUPLICATE), dup);
                let del = any.then(|| Command::Delete(selection.clone()));
                self.item(ui, "Delete", &keys(&DELETE), del);
                ui.separator();
                let cut = any.then(|| Command::Cut(selection.clone()));
                self.item(ui, "Cut", &keys(&CUT), cut);
                let copy = any.then(|| Command::Copy(selection.clone()));
                self.item(ui, "Copy", &keys(&COPY), copy);
                // The clipboard is read by the platform, which answers with a paste
                // event on the next frame, as the keys do.
                if ui
                    .add(egui::Button::new("Paste").shortcut_text(keys(&PASTE)))
                    .clicked()
                {
                    ctx.send_viewport_cmd(egui::ViewportCommand::RequestPaste);
                    ui.close();
                }
                ui.separator();
                let group = any.then_some(Command::Group(selection));
                self.item(ui, "Group", &keys(&GROUP), group);
                let ungroup = self.group_to_ungroup(&ctx).map(Command::Ungroup);
                self.item(ui, "Ungroup", &keys(&UNGROUP), ungroup);
                self.item(ui, "Add Frame", &keys(&ADD_FRAME), Some(Command::AddFrame));
                ui.separator();
                self.item(ui, "Frame All", &keys(&FRAME_ALL), Some(Command::FrameAll));
            });
            ui.menu_button("Preview", |ui| {
                ui.menu_button("Surface", |ui| {
                    for k in tuft_render::SurfaceKind::ALL {
                        let name = if self.surface.kind() == k {
                            format!("• {}", k.name())
                        } else {
                            k.name().to_owned()
                        };
                        self.item(ui, &name, "", Some(Command::Surface(k)));
                    }
                    if self.surface.mesh().is_some() {
                        let mesh = tuft_render::SurfaceKind::Mesh;
                        let name = if self.surface.kind() == mesh {
                            "• mesh"
                        } else {
                            "mesh"
                        };
                        self.item(ui, name, "", Some(Command::Surface(mesh)));
                    }
                    self.item(ui, "Mesh…", "", Some(Command::ChooseMesh));
                });
            });
            ui.menu_button("Help", |ui| {
                self.item(ui, "Keyboard and Mouse", "", Some(Command::Help));
                self.item(ui, "About Tuft", "", Some(Command::About));
            });
            ui.separator();
            ui.label(self.shown_name(true));
        });
    }

    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        self.rename_window(ctx);
        if let Some(pending) = self.pending.clone() {
            let mut answer = None;
            super::widgets::question("Unsaved changes").show(ctx, |ui| {
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
                    Pending::New(preset) => self.new_document(preset),
                    Pending::Open(p) => self.open_now(&p),
                    Pending::Recover(i) => self.recover_now(i),
                    Pending::Quit => {
                        self.replace_session(Session::new(
                            self.session.doc().clone(),
                            self.session.path().map(Path::to_owned),
                        ));
                        self.recovery.release_slot();
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                }
            }
        }
    }
}
