//! The node graph on screen (egui-snarl). The widget's model is rebuilt from the engine's
//! graph whenever the document changes; every gesture on it becomes an [`Action`] the
//! editor applies to the document (and so to the history), never a change to the widget
//! alone.

use egui::{Color32, Pos2, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::{SnarlStyle, SnarlWidget};
use std::collections::HashMap;
use tuft_graph::graph::PBR_PORTS;
use tuft_graph::layer::STRAND_PORTS;
use tuft_graph::value::{PortType, Value};
use tuft_graph::{Document, InRef, Input, NodeId, OutRef, Report, Sink};

/// What a node of the widget stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ViewNode {
    /// A node of the graph.
    Node(NodeId),
    /// The PBR output.
    Pbr,
    /// A strand layer's ports.
    Layer(String),
}

/// A change the user asked for in the graph view.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Link an output to an input.
    Connect(OutRef, InRef),
    /// Unlink an input (it falls back to its constant).
    Disconnect(InRef),
    /// Set an unlinked input's constant.
    SetConst(InRef, Value),
    /// Select a node.
    Select(NodeId),
    /// Delete a node.
    Remove(NodeId),
    /// Add a node of this kind at this graph position (dropped from the library).
    Add(&'static str, [f32; 2]),
    /// Add a node of this kind at this graph position, wired to a dropped wire's pin.
    AddWired(&'static str, [f32; 2], Wire),
    /// Add a strand layer under a free name.
    AddLayer,
    /// Add a copy of this strand layer.
    DuplicateLayer(String),
    /// Delete this strand layer.
    RemoveLayer(String),
    /// Clear the selection (a click on empty canvas): the inspector shows the layers.
    Deselect,
}

mod geometry;
mod menus;
mod viewer;
pub use geometry::NODE_WIDTH;
use geometry::{Pins, footprint};
pub use menus::Wire;
use viewer::{Viewer, pbr_index};

/// What a strand layer is, in one line (the library, the canvas menu).
pub const LAYER_DOC: &str = "A named strand layer: an output whose ports (density, length, \
    width, lean, colours…) grow strands on the surface, with its settings in the inspector";

/// What the library hands the graph view when a node kind is dragged onto it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DraggedKind(pub &'static str);

/// The graph view's state.
pub struct GraphView {
    snarl: Snarl<ViewNode>,
    built_for: u64,
    ids: HashMap<ViewNode, egui_snarl::NodeId>,
    /// Nodes to bring into view on the next frame.
    frame: Option<Vec<ViewNode>>,
    /// Why the last connection was refused.
    pub refusal: Option<String>,
    /// The graph position at the centre of the view (where new nodes go).
    pub centre: Pos2,
    /// Graph to screen, as last drawn.
    to_global: egui::emath::TSTransform,
    /// Where each pin was drawn last frame.
    pins: Pins,
    /// Each node's rows of ports (the larger of inputs and outputs), for its footprint.
    rows: HashMap<ViewNode, usize>,
}

impl std::fmt::Debug for GraphView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphView")
            .field("built_for", &self.built_for)
            .finish_non_exhaustive()
    }
}

/// The widget's id (for its selection).
fn widget_id() -> egui::Id {
    egui::Id::new("tuft graph")
}

/// A port type's pin colour.
#[must_use]
pub fn type_color(ty: PortType) -> Color32 {
    match ty {
        PortType::Float => Color32::from_rgb(170, 170, 170),
        PortType::Vec2 => Color32::from_rgb(90, 170, 230),
        PortType::Color => Color32::from_rgb(235, 160, 60),
    }
}

/// Where a node without a stored position goes: a column per kind of node.
fn default_position(k: usize, column: f32) -> Pos2 {
    Pos2::new(column, 40.0 + 150.0 * k as f32)
}

impl GraphView {
    /// An empty view (filled on the first [`GraphView::show`]).
    #[must_use]
    pub fn new() -> Self {
        Self {
            snarl: Snarl::new(),
            built_for: 0,
            ids: HashMap::new(),
            frame: Some(Vec::new()),
            refusal: None,
            centre: Pos2::ZERO,
            to_global: egui::emath::TSTransform::IDENTITY,
            pins: Pins::default(),
            rows: HashMap::new(),
        }
    }

    /// The graph-space rectangle each node takes, estimated from its rows of ports (a
    /// node's drawn size is the widget's own business): what framing must show whole and
    /// what a new node must not land on.
    #[must_use]
    pub fn footprints(&self) -> Vec<egui::Rect> {
        self.snarl
            .nodes_pos()
            .map(|(pos, node)| egui::Rect::from_min_size(pos, self.footprint(node)))
            .collect()
    }

    fn footprint(&self, node: &ViewNode) -> egui::Vec2 {
        footprint(&self.rows, node)
    }

    /// A free place for a new node of footprint `size` near `around` (graph space):
    /// `around` itself if nothing stands there, else the nearest free spot on rings of
    /// growing radius.
    #[must_use]
    pub fn free_spot(&self, around: Pos2, size: egui::Vec2) -> Pos2 {
        let taken = self.footprints();
        let free = |p: Pos2| {
            let r = egui::Rect::from_min_size(p, size).expand(12.0);
            !taken.iter().any(|t| t.intersects(r))
        };
        for ring in 0..40 {
            let steps = if ring == 0 { 1 } else { 8 * ring };
            for k in 0..steps {
                let a = std::f32::consts::TAU * k as f32 / steps as f32;
                let p = around + egui::vec2(a.cos(), a.sin()) * (60.0 * ring as f32);
                if free(p) {
                    return p;
                }
            }
        }
        around
    }

    /// Where graph position `pos` was on screen, as last drawn.
    #[must_use]
    pub fn to_screen(&self, pos: Pos2) -> Pos2 {
        self.to_global * pos
    }

    /// Where the pin of `port` on `node` was drawn last frame, on screen: an input of the
    /// node when `input`, else an output. For driving the graph as a pointer does.
    #[must_use]
    pub fn pin_rect(&self, node: &ViewNode, port: &str, input: bool) -> Option<egui::Rect> {
        // Pins are drawn in the graph's own layer; its transform takes them to the screen.
        crate::workers::lock(&self.pins)
            .get(&(node.clone(), port.to_owned(), input))
            .map(|r| self.to_global.mul_rect(*r))
    }

    /// Asks the next frame to bring `nodes` into view (all nodes when empty).
    pub fn frame(&mut self, nodes: Vec<ViewNode>) {
        self.frame = Some(nodes);
    }

    /// The graph nodes selected in the widget.
    #[must_use]
    pub fn selected(&self, ctx: &egui::Context) -> Vec<NodeId> {
        egui_snarl::ui::get_selected_nodes(widget_id(), ctx)
            .into_iter()
            .filter_map(|id| match self.snarl.get_node(id) {
                Some(ViewNode::Node(n)) => Some(*n),
                _ => None,
            })
            .collect()
    }

    /// Where each graph node stands in the widget, to keep in the document's layout.
    #[must_use]
    pub fn positions(&self) -> Vec<(NodeId, [f32; 2])> {
        self.snarl
            .nodes_pos()
            .filter_map(|(pos, node)| match node {
                ViewNode::Node(id) => Some((*id, [pos.x, pos.y])),
                _ => None,
            })
            .collect()
    }

    fn rebuild(&mut self, doc: &Document) {
        let previous: HashMap<ViewNode, Pos2> = self
            .snarl
            .nodes_pos()
            .map(|(p, n)| (n.clone(), p))
            .collect();
        self.snarl = Snarl::new();
        self.ids.clear();
        self.rows.clear();
        let graph = &doc.graph;
        for node in &graph.nodes {
            let rows = node.input_ports().len().max(node.output_ports().len());
            self.rows.insert(ViewNode::Node(node.id), rows);
        }
        self.rows.insert(ViewNode::Pbr, PBR_PORTS.len() + 1);
        for name in graph.strands.keys() {
            self.rows
                .insert(ViewNode::Layer(name.clone()), STRAND_PORTS.len());
        }
        let mut right = 0.0f32;
        for (k, node) in graph.nodes.iter().enumerate() {
            let key = ViewNode::Node(node.id);
            let pos = doc
                .layout
                .get(&node.id)
                .map(|p| Pos2::new(p[0], p[1]))
                .unwrap_or_else(|| default_position(k % 6, 40.0 + 240.0 * (k / 6) as f32));
            right = right.max(pos.x);
            let id = self.snarl.insert_node(pos, key.clone());
            self.ids.insert(key, id);
        }
        let outputs: Vec<ViewNode> = std::iter::once(ViewNode::Pbr)
            .chain(graph.strands.keys().map(|n| ViewNode::Layer(n.clone())))
            .collect();
        // The outputs in a column right of the graph, each below the last one whole.
        let mut below = 40.0;
        for key in outputs {
            let pos = previous
                .get(&key)
                .copied()
                .unwrap_or_else(|| Pos2::new(right + 320.0, below));
            below = below.max(pos.y + footprint(&self.rows, &key).y + 40.0);
            let id = self.snarl.insert_node(pos, key.clone());
            self.ids.insert(key, id);
        }
        // Wires, from the engine's links.
        for node in &graph.nodes {
            for (k, port) in node.input_ports().iter().enumerate() {
                if let Input::Link(from) = node.input(port) {
                    self.wire(doc, &from, &ViewNode::Node(node.id), k);
                }
            }
        }
        for (sink, input) in graph.sinks() {
            let Input::Link(from) = input else { continue };
            let (key, k) = match &sink {
                Sink::Pbr(p) => (ViewNode::Pbr, pbr_index(p)),
                Sink::Strand { layer, port } => (
                    ViewNode::Layer(layer.clone()),
                    STRAND_PORTS.iter().position(|s| s.name == port),
                ),
                Sink::PbrExtra(_) => continue,
            };
            if let Some(k) = k {
                self.wire(doc, &from, &key, k);
            }
        }
    }

    fn wire(&mut self, doc: &Document, from: &OutRef, to: &ViewNode, input: usize) {
        let Some(node) = doc.graph.node(from.node) else {
            return;
        };
        let Some(output) = node.output_ports().iter().position(|o| o.name == from.port) else {
            return;
        };
        let (Some(&a), Some(&b)) = (self.ids.get(&ViewNode::Node(from.node)), self.ids.get(to))
        else {
            return;
        };
        self.snarl.connect(
            egui_snarl::OutPinId { node: a, output },
            egui_snarl::InPinId { node: b, input },
        );
    }

    /// Draws the graph and returns what the user asked for.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        generation: u64,
        report: &Report,
        thumbs: &HashMap<NodeId, egui::TextureHandle>,
    ) -> Vec<Action> {
        if self.built_for != generation {
            self.rebuild(doc);
            self.built_for = generation;
        }
        let mut viewer = Viewer {
            doc,
            report,
            actions: Vec::new(),
            frame: self.frame.take(),
            rect: ui.available_rect_before_wrap(),
            ids: &self.ids,
            thumbs,
            centre: self.centre,
            to_global: self.to_global,
            pins: self.pins.clone(),
            rows: &self.rows,
        };
        let response = SnarlWidget::new()
            .id(widget_id())
            .style(SnarlStyle::new())
            .show(&mut self.snarl, &mut viewer, ui);
        self.centre = viewer.centre;
        self.to_global = viewer.to_global;
        let mut actions = viewer.actions;
        // A click on the canvas itself (nodes and pins take their own clicks).
        if response.clicked() {
            actions.push(Action::Deselect);
        }
        if let Some(kind) = response.dnd_release_payload::<DraggedKind>()
            && let Some(at) = ui.ctx().pointer_interact_pos()
        {
            let p = self.to_global.inverse() * at;
            actions.push(Action::Add(kind.0, [p.x - 60.0, p.y - 20.0]));
        }
        for a in &actions {
            if let Action::Connect(..) | Action::Disconnect(..) = a {
                self.refusal = None;
            }
        }
        actions
    }
}

impl Default for GraphView {
    fn default() -> Self {
        Self::new()
    }
}
