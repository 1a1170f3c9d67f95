//! The menu a node opens on a right-click (its frame's or its title's), and the rename
//! window it can ask for.

use super::viewer::Viewer;
use super::{Renaming, ViewNode};
use crate::command::Command;
use egui::Ui;

impl Viewer<'_> {
    /// A menu entry that asks for `command` and closes the menu.
    pub(super) fn menu_item(&mut self, ui: &mut Ui, label: &str, command: Command) {
        if ui.button(label).clicked() {
            self.actions.push(command);
            ui.close();
        }
    }

    /// The menu of node `key`: the widget's own (a right-click on the node) and its
    /// title's (a right-click on the title text, which takes its own clicks).
    pub(super) fn node_menu(&mut self, ui: &mut Ui, key: ViewNode) {
        match key {
            ViewNode::Node(id) => self.menu_item(ui, "Delete", Command::Delete(vec![id])),
            ViewNode::Layer(name) => {
                self.menu_item(ui, "Duplicate layer", Command::DuplicateLayer(name.clone()));
                self.menu_item(ui, "Delete layer", Command::RemoveLayer(name));
            }
            ViewNode::Group(g) => {
                self.menu_item(ui, "Open", Command::OpenGroup(g));
                if let Some(group) = self.doc.group(g) {
                    let name = group.name.clone();
                    self.rename_item(ui, Renaming::Group(g), name);
                }
                self.menu_item(ui, "Save to Library", Command::SaveToLibrary(g));
                self.menu_item(ui, "Ungroup", Command::Ungroup(g));
            }
            ViewNode::Frame(k) => {
                if let Some(frame) = self.doc.frames.get(k) {
                    let title = frame.title.clone();
                    self.rename_item(ui, Renaming::Frame(k), title);
                }
                self.menu_item(ui, "Remove frame", Command::RemoveFrame(k));
            }
            ViewNode::Pbr | ViewNode::FrameCorner(_) => {}
        }
    }

    /// A menu entry that opens the rename window for `target`, holding `text`. (A text
    /// field inside the menu could not be clicked: the menu closes on any click in it.)
    fn rename_item(&mut self, ui: &mut Ui, target: Renaming, text: String) {
        if ui.button("Rename…").clicked() {
            self.renaming = Some((target, text));
            ui.close();
        }
    }
}
