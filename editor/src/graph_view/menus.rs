//! The canvas's menu for adding nodes where the pointer is: a search box over the
//! vocabulary (right-click on the canvas), and the same menu, filtered to the nodes that
//! fit, when a wire is dropped on empty canvas — the new node comes wired to it.

use super::viewer::Viewer;
use super::{LAYER_DOC, ViewNode};
use crate::command::Command;
use egui::{Pos2, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::AnyPins;
use tuft_graph::node::{NodeKind, Params};
use tuft_graph::value::PortType;
use tuft_graph::{InRef, MaterialGraph, NodeId, OutRef};

/// A wire dropped on the canvas, which the node added from the menu takes up.
#[derive(Clone, Debug, PartialEq)]
pub enum Wire {
    /// From this output: into the new node's first input that takes its type.
    From(OutRef, PortType),
    /// Into this input: from the new node's first output of a type it takes.
    To(InRef, PortType),
}

impl Wire {
    /// The new node's port the wire joins, if a node of `kind` (as new) has one.
    #[must_use]
    pub fn port_on(&self, kind: &dyn NodeKind) -> Option<&'static str> {
        // A reroute takes any wire: it takes the wire's type.
        if kind.name() == tuft_graph::nodes::reroute::NAME {
            return Some(match self {
                Self::From(..) => "in",
                Self::To(..) => "out",
            });
        }
        let defaults = tuft_graph::node::default_params(kind);
        let params = Params::new(&defaults, kind.params());
        match self {
            Self::From(_, ty) => kind
                .inputs(&params)
                .into_iter()
                .find(|p| p.ty.accepts(*ty))
                .map(|p| p.name),
            Self::To(_, ty) => kind
                .outputs(&params)
                .into_iter()
                .find(|o| ty.accepts(o.ty))
                .map(|o| o.name),
        }
    }
}

impl Wire {
    /// Joins the wire to node `id` (of a kind the wire fits, [`Wire::port_on`]).
    ///
    /// # Errors
    /// The node's kind has no port for the wire, or the graph refuses the link.
    pub fn join(&self, graph: &mut MaterialGraph, id: NodeId) -> Result<(), String> {
        let kind = graph
            .node(id)
            .and_then(|n| n.kind())
            .ok_or_else(|| format!("no node #{}", id.0))?;
        let port = self
            .port_on(kind)
            .ok_or_else(|| format!("{} has no port for this wire", kind.name()))?;
        let linked = match self {
            Self::From(out, _) => graph.connect(
                out.clone(),
                &InRef::Node {
                    node: id,
                    port: port.to_owned(),
                },
            ),
            Self::To(to, ty) => {
                if kind.name() == tuft_graph::nodes::reroute::NAME {
                    graph.set_node_type(id, *ty);
                }
                graph.connect(OutRef::new(id, port), to)
            }
        };
        linked.map_err(|e| e.to_string())
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wire_fits_the_nodes_that_take_or_give_its_type() {
        let noise = tuft_graph::nodes::find("Noise").unwrap();
        let levels = tuft_graph::nodes::find("Levels").unwrap();
        let combine = tuft_graph::nodes::find("Combine").unwrap();
        let from_float = Wire::From(OutRef::new(NodeId(1), "out"), PortType::Float);
        assert_eq!(from_float.port_on(levels), Some("in"));
        // A generator without inputs takes no wire.
        assert_eq!(from_float.port_on(noise), None);
        let into_colour = Wire::To(
            InRef::Sink(tuft_graph::Sink::Pbr("base_color".into())),
            PortType::Color,
        );
        // A number feeds a colour as grey: the noise fits a colour input.
        assert_eq!(into_colour.port_on(noise), Some("out"));
        assert!(into_colour.port_on(combine).is_some());
    }
}
