//! The canvas's menu for adding nodes where the pointer is: a search box over the
//! vocabulary (right-click on the canvas), and the same menu, filtered to the nodes that
//! fit, when a wire is dropped on empty canvas — the new node comes wired to it.

use super::viewer::Viewer;
use super::{LAYER_DOC, ViewNode};
use crate::command::{Command, Wire};
use egui::{Pos2, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::AnyPins;
use tuft_graph::node::NodeKind;

impl Viewer<'_> {
    /// The wire being dropped, if it is one pin the menu can wire a new node to.
    pub(super) fn dropped_wire(&self, src: &AnyPins<'_>, snarl: &Snarl<ViewNode>) -> Option<Wire> {
        match src {
            AnyPins::Out([pin]) => {
                let (out, ty, _) = self.output_of(&snarl[pin.node], pin.output)?;
                Some(Wire::From(out, ty))
            }
            AnyPins::In([pin]) => {
                let info = self.input_info(&snarl[pin.node], pin.input)?;
                Some(Wire::To(info.to, info.ty))
            }
            _ => None,
        }
    }

    /// A search box and the node kinds it matches (those that fit `wire`, when one was
    /// dropped), by category; a click adds the kind at `pos` (graph space).
    pub(super) fn add_menu(&mut self, pos: Pos2, ui: &mut Ui, wire: Option<&Wire>) {
        let id = ui.id().with("add menu search");
        let mut search = ui
            .data_mut(|d| d.get_temp::<String>(id))
            .unwrap_or_default();
        let field = ui.add(
            egui::TextEdit::singleline(&mut search)
                .hint_text("Search nodes")
                .desired_width(180.0),
        );
        field.request_focus();
        let needle = search.to_lowercase();
        let matches = |name: &str, doc: &str| {
            needle.is_empty()
                || name.to_lowercase().contains(&needle)
                || doc.to_lowercase().contains(&needle)
        };
        let mut chosen = None;
        if wire.is_none() && matches("Strand layer", LAYER_DOC) {
            if ui.button("Strand layer").on_hover_text(LAYER_DOC).clicked() {
                self.actions.push(Command::AddLayer);
                chosen = Some(());
            }
            ui.separator();
        }
        let mut kinds: Vec<&'static dyn NodeKind> = tuft_graph::nodes::ALL
            .iter()
            .copied()
            .filter(|k| matches(k.name(), k.doc()))
            .filter(|k| wire.is_none_or(|w| w.port_on(*k).is_some()))
            .collect();
        kinds.sort_by_key(|k| k.category());
        let own: Vec<&str> = self
            .library
            .entries
            .iter()
            .map(|e| e.node.name.as_str())
            .filter(|name| wire.is_none() && matches(name, ""))
            .collect();
        egui::ScrollArea::vertical()
            .max_height(320.0)
            .show(ui, |ui| {
                if !own.is_empty() {
                    ui.label(egui::RichText::new("My library").weak().small());
                }
                for name in own {
                    if ui.button(name).on_hover_text(OWN_NODE).clicked() {
                        let at = [pos.x, pos.y];
                        let name = name.to_owned();
                        self.actions.push(Command::AddFromLibrary(name, Some(at)));
                        chosen = Some(());
                    }
                }
                let mut category = None;
                for kind in kinds {
                    if category != Some(kind.category()) {
                        category = Some(kind.category());
                        ui.label(egui::RichText::new(kind.category().label()).weak().small());
                    }
                    if ui.button(kind.name()).on_hover_text(kind.doc()).clicked() {
                        let at = [pos.x, pos.y];
                        self.actions.push(match wire {
                            Some(w) => Command::AddWired(kind.name(), at, w.clone()),
                            None => Command::Add(kind.name(), at),
                        });
                        chosen = Some(());
                    }
                }
            });
        if chosen.is_some() {
            ui.data_mut(|d| d.remove::<String>(id));
            ui.close();
        } else {
            ui.data_mut(|d| d.insert_temp(id, search));
        }
    }
}

/// What a library node of the author's is (its hover text).
pub const OWN_NODE: &str = "A group saved to your library: added as a group of its own \
    nodes, which the graph keeps whatever becomes of the library file";
