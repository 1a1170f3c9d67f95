//! Every change a user can ask for, whichever control asks: the graph view's gestures,
//! the menus and the keyboard shortcuts all produce a [`Command`], and the editor carries
//! each out in one place (`Editor::run`), so the same change made from a menu and on the
//! canvas is one code path.

use std::path::PathBuf;
use tuft_graph::groups::FrameContents;
use tuft_graph::node::{NodeKind, Params};
use tuft_graph::value::PortType;
use tuft_graph::value::Value;
use tuft_graph::{InRef, MaterialGraph, NodeId, OutRef};

/// A change or an action the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Link an output to an input.
    Connect(OutRef, InRef),
    /// Unlink an input (it falls back to its constant).
    Disconnect(InRef),
    /// Set an unlinked input's constant.
    SetConst(InRef, Value),
    /// Show a node in the inspector.
    Select(NodeId),
    /// Clear the selection (a click on empty canvas): the inspector shows the layers.
    Deselect,
    /// Select every node in view.
    SelectAll,
    /// Add a node of this kind at this graph position.
    Add(&'static str, [f32; 2]),
    /// Add a node of this kind at this graph position, wired to a dropped wire's pin.
    AddWired(&'static str, [f32; 2], Wire),
    /// Delete nodes.
    Delete(Vec<NodeId>),
    /// Duplicate nodes, their links among themselves kept.
    Duplicate(Vec<NodeId>),
    /// Put nodes on the clipboard as text.
    Copy(Vec<NodeId>),
    /// Put nodes on the clipboard as text and delete them (one undo step).
    Cut(Vec<NodeId>),
    /// Add the nodes in this clipboard text.
    Paste(String),
    /// Start a new document from this preset (an entry of [`crate::PRESETS`]).
    NewFromPreset(&'static crate::Preset),
    /// Add a strand layer under a free name.
    AddLayer,
    /// Add a copy of this strand layer.
    DuplicateLayer(String),
    /// Show this strand layer's settings first in the inspector (its node was clicked).
    FocusLayer(String),
    /// Delete this strand layer.
    RemoveLayer(String),
    /// Collapse nodes into a group node.
    Group(Vec<NodeId>),
    /// Dissolve a group; its nodes stay where they were inside it.
    Ungroup(u32),
    /// Rename a group.
    RenameGroup(u32, String),
    /// Save a group to the author's library, as a node of its own.
    SaveToLibrary(u32),
    /// Add a copy of the library node of this name, its group node at this graph
    /// position (`None`: the middle of the view).
    AddFromLibrary(String, Option<[f32; 2]>),
    /// Show a group's inside in the graph view.
    OpenGroup(u32),
    /// Back from a group's inside to the top level.
    CloseGroup,
    /// Add a frame around the selection (or at the middle of the view).
    AddFrame,
    /// Move frame `k` by this much, and what stood inside it when the drag began.
    MoveFrame(usize, [f32; 2], FrameContents),
    /// Give frame `k` this size.
    ResizeFrame(usize, [f32; 2]),
    /// Retitle frame `k`.
    RenameFrame(usize, String),
    /// Remove frame `k` (its nodes stay).
    RemoveFrame(usize),
    /// Bring every node into view.
    FrameAll,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// A new, empty document (asking about unsaved changes first).
    New,
    /// Choose a graph file to open.
    Open,
    /// Open this graph file (asking about unsaved changes first).
    OpenPath(PathBuf),
    /// Save to the document's file, or choose one.
    Save,
    /// Choose a file and save there.
    SaveAs,
    /// Name the material (what a bake names its files by).
    RenameMaterial,
    /// Choose the file a node's file parameter names (an Image's picture).
    ChooseFile(NodeId, String),
    /// Choose a folder and write the baked set there.
    Export,
    /// Render the preview's picture at a chosen size into a PNG file.
    RenderImage,
    /// Choose a baked set's folder and show it, read-only.
    OpenBaked,
    /// Back from a baked set to the document.
    CloseBaked,
    /// Choose a mesh file to preview the material on.
    ChooseMesh,
    /// Preview on this surface (a mesh: the one last read, or choose one).
    Surface(tuft_render::SurfaceKind),
    /// Show what Tuft is and the licences it ships under.
    About,
    /// Show every shortcut and gesture.
    Help,
}

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
