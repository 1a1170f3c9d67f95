//! The node graph on screen (egui-snarl). The widget's model is rebuilt from the engine's
//! graph whenever the document changes; every gesture on it becomes a [`Command`] the
//! editor applies to the document (and so to the history), never a change to the widget
//! alone.

use crate::command::Command;
use egui::{Color32, Pos2, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::{SnarlStyle, SnarlWidget};
use std::collections::HashMap;
use tuft_graph::layer::STRAND_PORTS;
use tuft_graph::value::PortType;
use tuft_graph::{Document, Input, NodeId, OutRef, Report, Sink};

/// What a node of the widget stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ViewNode {
    /// A node of the graph.
    Node(NodeId),
    /// The PBR output.
    Pbr,
    /// A strand layer's ports.
    Layer(String),
    /// A node group, collapsed: the member ports its edge crosses.
    Group(u32),
    /// A frame's title bar (dragging it moves the frame and what stands inside).
    Frame(usize),
    /// A frame's bottom-right corner (dragging it resizes the frame).
    FrameCorner(usize),
}

mod arrange;
mod constants;
mod geometry;
mod menus;
mod node_menu;
mod viewer;
pub use constants::drag_speed;
use geometry::{Find, Pins, footprint};
pub use geometry::{NODE_WIDTH, footprint_of};
pub use menus::OWN_NODE;
use viewer::{Viewer, pbr_index};

/// What a strand layer is, in one line (the library, the canvas menu).
pub const LAYER_DOC: &str = "A named strand layer: an output whose ports (density, length, \
    width, lean, colours…) grow strands on the surface, with its settings in the inspector";

/// What the rename window names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renaming {
    /// A group.
    Group(u32),
    /// A frame, by its index.
    Frame(usize),
}

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
    /// The group whose inside is shown (`None`: the top level).
    open: Option<u32>,
    /// Every node, selected by Select All, while the widget's own selection stays what
    /// it was then (the widget's selection cannot be set from outside).
    all: Option<SelectAll>,
    /// Where the canvas menu was opened from the keyboard (screen), and the graph
    /// position new nodes go to.
    menu_at: Option<(Pos2, Pos2)>,
    /// Whether the next frame puts the widget's nodes where the document says (after a
    /// frame moved what stands inside it).
    reposition: bool,
    /// Whether the view has been framed since it was made (the first framing keeps the
    /// text readable).
    framed_once: bool,
    /// The canvas on screen, as last drawn.
    canvas: egui::Rect,
    /// The frame being dragged and what stood inside it when the drag began.
    frame_drag: Option<(usize, tuft_graph::groups::FrameContents)>,
    /// The author's library, as the editor last read it: offered in the canvas menu, and
    /// what a group added from it is compared with.
    pub library: std::sync::Arc<tuft_graph::library::Library>,
    /// The widget's generation: its selection lives in egui's memory under its id, and
    /// cannot be cleared from outside, so clearing it starts the widget afresh under a
    /// new id (its view carried over through `restore`).
    epoch: u64,
    /// The view to put back on the next frame (the widget started afresh).
    restore: Option<egui::emath::TSTransform>,
    /// The rename window: what it names and the text typed so far.
    renaming: Option<(Renaming, String)>,
}

/// A Select All in force.
#[derive(Clone, Debug)]
struct SelectAll {
    /// The widget's own selection when it was made.
    widget: Vec<egui_snarl::NodeId>,
    /// Every node it selects.
    nodes: Vec<egui_snarl::NodeId>,
}

impl std::fmt::Debug for GraphView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphView")
            .field("built_for", &self.built_for)
            .finish_non_exhaustive()
    }
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
            open: None,
            all: None,
            menu_at: None,
            reposition: false,
            framed_once: false,
            canvas: egui::Rect::NOTHING,
            frame_drag: None,
            library: std::sync::Arc::default(),
            epoch: 0,
            restore: None,
            renaming: None,
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

    /// Where node `node` stands on screen (its footprint), as last drawn.
    #[must_use]
    pub fn screen_rect(&self, node: &ViewNode) -> Option<egui::Rect> {
        let pos = self.snarl.get_node_info(*self.ids.get(node)?)?.pos;
        Some(
            self.to_global
                .mul_rect(egui::Rect::from_min_size(pos, self.footprint(node))),
        )
    }

    /// The rectangle the canvas takes on screen, as last drawn.
    #[must_use]
    pub fn canvas(&self) -> egui::Rect {
        self.canvas
    }

    /// The graph-space rectangle the canvas showed when last drawn.
    #[must_use]
    pub fn visible(&self) -> egui::Rect {
        if self.canvas.is_positive() {
            self.to_global.inverse().mul_rect(self.canvas)
        } else {
            egui::Rect::EVERYTHING
        }
    }

    /// Where graph position `pos` was on screen, as last drawn.
    #[must_use]
    pub fn to_screen(&self, pos: Pos2) -> Pos2 {
        self.to_global * pos
    }

    /// The graph position under screen position `screen`, as last drawn.
    #[must_use]
    pub fn to_graph(&self, screen: Pos2) -> Pos2 {
        self.to_global.inverse() * screen
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

    /// The graph nodes selected in the widget (a selected group stands for its members).
    #[must_use]
    pub fn selected(&self, ctx: &egui::Context, doc: &Document) -> Vec<NodeId> {
        self.selected_in_widget(ctx)
            .into_iter()
            .flat_map(|id| match self.snarl.get_node(id) {
                Some(ViewNode::Node(n)) => vec![*n],
                Some(ViewNode::Group(g)) => doc
                    .group(*g)
                    .map(|g| g.members.iter().copied().collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
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
        if self.open.is_some_and(|g| doc.group(g).is_none()) {
            self.open = None;
        }
        let level = self.open;
        let graph = &doc.graph;
        // Nodes found by an index made once (a search of the node list per node and per
        // wire grew with the square of the graph).
        let index = graph.index();
        let find = |id: NodeId| index.get(&id).map(|&i| &graph.nodes[i]);
        // The nodes of this level: those in the open group, or those in none.
        let shown: Vec<&tuft_graph::Node> = graph
            .nodes
            .iter()
            .filter(|n| doc.group_of(n.id).map(|g| g.id) == level)
            .collect();
        let mut right = 0.0f32;
        for (k, node) in shown.iter().enumerate() {
            let key = ViewNode::Node(node.id);
            let pos = doc
                .layout
                .get(&node.id)
                .map(|p| Pos2::new(p[0], p[1]))
                .unwrap_or_else(|| default_position(k % 6, 40.0 + 240.0 * (k / 6) as f32));
            right = right.max(pos.x);
            self.insert(doc, &find, key, pos);
        }
        for (k, frame) in doc.frames_in(level) {
            let pos = Pos2::new(frame.pos[0], frame.pos[1]);
            self.insert(doc, &find, ViewNode::Frame(k), pos);
            let corner = pos + egui::vec2(frame.size[0], frame.size[1]) - arrange::CORNER;
            self.insert(doc, &find, ViewNode::FrameCorner(k), corner);
        }
        if level.is_none() {
            for g in &doc.groups {
                right = right.max(g.pos[0]);
                self.insert(
                    doc,
                    &find,
                    ViewNode::Group(g.id),
                    Pos2::new(g.pos[0], g.pos[1]),
                );
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
                below = below.max(pos.y + footprint_of(&key, doc).y + 40.0);
                self.insert(doc, &find, key, pos);
            }
        }
        // Wires, from the engine's links, between whatever stands for each end here.
        for node in &graph.nodes {
            for port in node.input_ports() {
                if let Input::Link(from) = node.input(&port)
                    && let Some((to, k)) = self.view_input(doc, node, port.name)
                {
                    self.wire(doc, &find, &from, &to, k);
                }
            }
        }
        if level.is_none() {
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
                    self.wire(doc, &find, &from, &key, k);
                }
            }
        }
    }

    /// Adds `key` to the widget at `pos`, noting its rows for its footprint.
    fn insert<'d>(&mut self, doc: &'d Document, find: &Find<'d>, key: ViewNode, pos: Pos2) {
        self.rows
            .insert(key.clone(), geometry::rows_of(doc, &key, find));
        let id = self.snarl.insert_node(pos, key.clone());
        self.ids.insert(key, id);
    }

    /// What stands for input `port` of `node` in this view, and its pin's index: the
    /// node itself, or (at the top level) its group's pin.
    fn view_input(
        &self,
        doc: &Document,
        node: &tuft_graph::Node,
        port: &str,
    ) -> Option<(ViewNode, usize)> {
        let key = ViewNode::Node(node.id);
        if self.ids.contains_key(&key) {
            let k = node.input_ports().iter().position(|p| p.name == port)?;
            return Some((key, k));
        }
        let g = doc.group_of(node.id)?;
        let k = g
            .inputs
            .iter()
            .position(|p| p.node == node.id && p.port == port)?;
        Some((ViewNode::Group(g.id), k))
    }

    /// What stands for output `from` in this view, and its pin's index.
    fn view_output(
        &self,
        doc: &Document,
        find: &Find<'_>,
        from: &OutRef,
    ) -> Option<(ViewNode, usize)> {
        let key = ViewNode::Node(from.node);
        if self.ids.contains_key(&key) {
            let node = find(from.node)?;
            let k = node
                .output_ports()
                .iter()
                .position(|o| o.name == from.port)?;
            return Some((key, k));
        }
        let g = doc.group_of(from.node)?;
        let k = g
            .outputs
            .iter()
            .position(|p| p.node == from.node && p.port == from.port)?;
        Some((ViewNode::Group(g.id), k))
    }

    fn wire(
        &mut self,
        doc: &Document,
        find: &Find<'_>,
        from: &OutRef,
        to: &ViewNode,
        input: usize,
    ) {
        let Some((source, output)) = self.view_output(doc, find, from) else {
            return;
        };
        // A link inside a collapsed group is not drawn at the top level.
        if &source == to {
            return;
        }
        let (Some(&a), Some(&b)) = (self.ids.get(&source), self.ids.get(to)) else {
            return;
        };
        self.snarl.connect(
            egui_snarl::OutPinId { node: a, output },
            egui_snarl::InPinId { node: b, input },
        );
    }

    /// Draws the graph and returns what the user asked for. `highlight` is the node the
    /// inspector shows.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        doc: &Document,
        generation: u64,
        report: &Report,
        thumbs: &HashMap<NodeId, egui::TextureHandle>,
        highlight: Option<NodeId>,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.built_for != generation {
            // The widget's selection names its own node ids, which a rebuild gives out
            // afresh: what was selected is kept by what it stands for.
            // Regression: after Ctrl+G the nodes that took the grouped ones' ids stood
            // selected, and the next Ctrl+G would have taken them.
            let ctx = ui.ctx().clone();
            let was: Vec<ViewNode> = self
                .selected_in_widget(&ctx)
                .into_iter()
                .filter_map(|id| self.snarl.get_node(id).cloned())
                .collect();
            self.rebuild(doc);
            self.built_for = generation;
            self.keep_selection(&ctx, &was);
        }
        // Before the widget, which would take the Escape meant for the window.
        self.rename_window(ui.ctx(), &mut commands);
        if self.open.is_some() {
            self.group_bar(ui, doc, &mut commands);
        }
        if std::mem::take(&mut self.reposition) {
            self.place_from(doc);
        }
        let before = self.node_positions();
        self.canvas = ui.available_rect_before_wrap();
        let selected = self.selected_in_widget(ui.ctx());
        let index = doc.graph.index();
        let widget = self.widget_id();
        let mut viewer = Viewer {
            doc,
            index: &index,
            report,
            actions: Vec::new(),
            frame: self.frame.take(),
            readable: !self.framed_once,
            rect: ui.available_rect_before_wrap(),
            ids: &self.ids,
            thumbs,
            centre: self.centre,
            to_global: self.to_global,
            pins: self.pins.clone(),
            rows: &self.rows,
            level: self.open,
            highlight,
            selected,
            library: &self.library,
            restore: self.restore.take(),
            renaming: None,
        };
        // A node is as wide as its rows measured the frame before, so text wrapped to a
        // narrow node would measure narrow and keep it so (a group's "26 nodes inside"
        // stood a letter or two a line): everything in the widget is laid out unwrapped.
        let response = ui
            .scope(|ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                SnarlWidget::new()
                    .id(widget)
                    .style(style())
                    .show(&mut self.snarl, &mut viewer, ui)
            })
            .inner;
        if viewer.frame.is_none() && !self.framed_once {
            self.framed_once = true;
        }
        if let Some((screen, at)) = self.menu_at {
            // Read before the search box takes the key.
            let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
            let area = egui::Area::new(egui::Id::new("tuft graph keyboard menu"))
                .order(egui::Order::Foreground)
                .fixed_pos(screen)
                .show(ui.ctx(), |ui| {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.set_max_width(220.0);
                        viewer.add_menu(at, ui, None);
                    });
                });
            if !viewer.actions.is_empty() || escape || area.response.clicked_elsewhere() {
                self.menu_at = None;
            }
        }
        self.centre = viewer.centre;
        self.to_global = viewer.to_global;
        if let Some(asked) = viewer.renaming.take() {
            self.renaming = Some(asked);
        }
        commands.append(&mut viewer.actions);
        self.after_drag(ui.ctx(), doc, &before, &mut commands);
        // A click on the canvas itself (nodes and pins take their own clicks) clears the
        // selection; Shift keeps it for a box.
        if response.clicked() && !ui.input(|i| i.modifiers.shift) {
            self.clear_selection();
            commands.push(Command::Deselect);
        }
        if let Some(kind) = response.dnd_release_payload::<DraggedKind>()
            && let Some(at) = ui.ctx().pointer_interact_pos()
        {
            let p = self.to_global.inverse() * at;
            commands.push(Command::Add(kind.0, [p.x - 60.0, p.y - 20.0]));
        }
        for a in &commands {
            if let Command::Connect(..) | Command::Disconnect(..) = a {
                self.refusal = None;
            }
        }
        commands
    }

    /// Whether screen position `screen` is on the canvas, as last drawn.
    #[must_use]
    pub fn canvas_contains(&self, screen: Pos2) -> bool {
        self.canvas.contains(screen)
    }
}

/// A place for a footprint of `size` near `around` that overlaps none of `taken` (with a
/// margin): `around` itself if free, else the nearest free spot on rings of growing
/// radius, preferring spots wholly `within` the view; `around` when none is free.
#[must_use]
pub fn free_spot(
    taken: &[egui::Rect],
    around: Pos2,
    size: egui::Vec2,
    within: Option<egui::Rect>,
) -> Pos2 {
    let free = |p: Pos2| {
        let r = egui::Rect::from_min_size(p, size).expand(12.0);
        !taken.iter().any(|t| t.intersects(r))
    };
    let ring_spots = || {
        (0..60usize).flat_map(move |ring| {
            let steps = if ring == 0 { 1 } else { 8 * ring };
            (0..steps).map(move |k| {
                let a = std::f32::consts::TAU * k as f32 / steps as f32;
                around + egui::vec2(a.cos(), a.sin()) * (40.0 * ring as f32)
            })
        })
    };
    let inside =
        |p: Pos2| within.is_none_or(|w| w.contains_rect(egui::Rect::from_min_size(p, size)));
    ring_spots()
        .find(|p| inside(*p) && free(*p))
        .or_else(|| ring_spots().find(|p| free(*p)))
        .unwrap_or(around)
}

/// The widget's look: a selection that shows (the default outline is faint).
fn style() -> SnarlStyle {
    let mut style = SnarlStyle::new();
    // Pins sit on the frame's edge, as sockets do in other node editors. Inside the frame
    // (the widget's default), every output row was laid out a pin's width to the right of
    // the row above (the pin's room is taken rightwards in a right-to-left row), so a
    // node's lower output names ran under their pins and past its border.
    style.pin_placement = Some(egui_snarl::ui::PinPlacement::Edge);
    style.select_style = Some(egui_snarl::ui::SelectionStyle {
        margin: egui::Margin::same(4),
        rounding: egui::CornerRadius::same(6),
        fill: Color32::from_rgba_unmultiplied(90, 150, 255, 40),
        stroke: egui::Stroke::new(2.0, SELECTED),
    });
    style
}

/// The outline of a selected node.
pub(super) const SELECTED: Color32 = Color32::from_rgb(110, 170, 255);

/// The outline of the node the inspector shows (selected or not).
pub(super) const INSPECTED: Color32 = Color32::from_rgb(235, 170, 60);

impl Default for GraphView {
    fn default() -> Self {
        Self::new()
    }
}
