//! The widget's side of the graph view: what each node shows (title, pins, inline
//! constants, thumbnail, menus) and what each gesture on it asks for.

use super::constants::constant_editor;
use super::geometry::{NotedPin, Pins, footprint};
use super::{Renaming, ViewNode, type_color};
use crate::command::Command;
use egui::{Color32, Pos2, Ui};
use egui_snarl::ui::{AnyPins, PinInfo, SnarlPin, SnarlViewer};
use egui_snarl::{InPin, OutPin, Snarl};
use std::collections::HashMap;
use tuft_graph::graph::PBR_PORTS;
use tuft_graph::layer::STRAND_PORTS;
use tuft_graph::value::{PortType, Value};
use tuft_graph::{Document, InRef, Input, NodeId, OutRef, Report, Sink};

/// The smallest zoom at which node titles and port names read on opening.
pub(super) const READABLE: f32 = 0.6;

/// The margin inside a frame's title band, left and right.
const FRAME_BAND_MARGIN: i8 = 8;

pub(super) fn pbr_index(port: &str) -> Option<usize> {
    PBR_PORTS
        .iter()
        .position(|(p, _)| *p == port)
        .or_else(|| (port == "normal").then_some(PBR_PORTS.len()))
}

/// One input of a widget node: where it ends in the graph, its type, and what it holds.
pub(super) struct InputInfo {
    pub(super) to: InRef,
    pub(super) name: String,
    pub(super) ty: PortType,
    pub(super) current: Input,
    pub(super) range: (f32, f32),
    /// For an input that takes links alone (the material's normal): what it is while
    /// unlinked and how to change that, shown in place of a constant's editor.
    pub(super) unlinked: Option<Unlinked>,
}

/// What a link-only input is while nothing feeds it, and the hint beside it.
#[derive(Clone, Copy)]
pub(super) struct Unlinked {
    note: &'static str,
    hint: &'static str,
}

/// The material's normal while nothing feeds it: the bake works it out from the height.
const NORMAL_UNLINKED: Unlinked = Unlinked {
    note: "from height",
    hint: "Link a colour here to give the normal map yourself",
};

/// A material output's port as a widget input: what it holds now (`fallback` when the
/// graph does not say).
fn sink_info(
    graph: &tuft_graph::MaterialGraph,
    sink: Sink,
    name: &str,
    ty: PortType,
    fallback: Value,
) -> InputInfo {
    let current = graph.sink_input(&sink).unwrap_or(Input::Const(fallback));
    InputInfo {
        to: InRef::Sink(sink),
        name: name.to_owned(),
        ty,
        current,
        range: (0.0, 1.0),
        unlinked: None,
    }
}

pub(super) struct Viewer<'a> {
    pub(super) doc: &'a Document,
    /// Where each node id stands in the graph's list ([`MaterialGraph::index`]), made once a
    /// frame: the canvas asks for every node's title, pins and body each frame, and a
    /// search of the list for each made a frame's cost grow with the square of the count.
    ///
    /// [`MaterialGraph::index`]: tuft_graph::MaterialGraph::index
    pub(super) index: &'a HashMap<NodeId, usize>,
    pub(super) report: &'a Report,
    pub(super) actions: Vec<Command>,
    pub(super) frame: Option<Vec<ViewNode>>,
    pub(super) rect: egui::Rect,
    pub(super) ids: &'a HashMap<ViewNode, egui_snarl::NodeId>,
    pub(super) thumbs: &'a HashMap<NodeId, egui::TextureHandle>,
    pub(super) centre: Pos2,
    pub(super) to_global: egui::emath::TSTransform,
    pub(super) pins: Pins,
    pub(super) rows: &'a HashMap<ViewNode, usize>,
    /// Whether framing keeps text readable (the first framing of a view).
    pub(super) readable: bool,
    /// The group whose inside is shown.
    pub(super) level: Option<u32>,
    /// The node the inspector shows.
    pub(super) highlight: Option<NodeId>,
    /// The widget nodes selected (Select All's included).
    pub(super) selected: Vec<egui_snarl::NodeId>,
    /// The author's library.
    pub(super) library: &'a tuft_graph::library::Library,
    /// The view to put back (the widget started afresh under a new id).
    pub(super) restore: Option<egui::emath::TSTransform>,
    /// A rename asked for from a node's menu, and the name it starts from.
    pub(super) renaming: Option<(Renaming, String)>,
}

impl<'a> Viewer<'a> {
    /// The graph's node `id` (the first of that id, as [`MaterialGraph::node`] finds it).
    ///
    /// [`MaterialGraph::node`]: tuft_graph::MaterialGraph::node
    fn node(&self, id: NodeId) -> Option<&'a tuft_graph::Node> {
        self.index.get(&id).map(|&i| &self.doc.graph.nodes[i])
    }

    /// `info`, noting where it is drawn as pin `port` of `node`.
    fn noted(&self, node: ViewNode, port: &str, input: bool, info: PinInfo) -> NotedPin {
        NotedPin {
            info,
            key: (node, port.to_owned(), input),
            pins: self.pins.clone(),
        }
    }

    pub(super) fn input_info(&self, node: &ViewNode, k: usize) -> Option<InputInfo> {
        let graph = &self.doc.graph;
        match node {
            ViewNode::Node(id) => {
                let n = self.node(*id)?;
                let port = n.input_ports().into_iter().nth(k)?;
                Some(InputInfo {
                    to: InRef::Node {
                        node: *id,
                        port: port.name.to_owned(),
                    },
                    name: port.name.to_owned(),
                    ty: port.ty,
                    current: n.input(&port),
                    range: port.range,
                    unlinked: None,
                })
            }
            ViewNode::Group(g) => {
                let exposed = self.doc.group(*g)?.inputs.get(k)?;
                let n = self.node(exposed.node)?;
                let port = n
                    .input_ports()
                    .into_iter()
                    .find(|p| p.name == exposed.port)?;
                Some(InputInfo {
                    to: InRef::Node {
                        node: exposed.node,
                        port: port.name.to_owned(),
                    },
                    name: format!("{}.{}", n.label(), port.name),
                    ty: port.ty,
                    current: n.input(&port),
                    range: port.range,
                    unlinked: None,
                })
            }
            ViewNode::Frame(_) | ViewNode::FrameCorner(_) => None,
            ViewNode::Pbr => {
                let (name, ty) = PBR_PORTS
                    .get(k)
                    .copied()
                    .or((k == PBR_PORTS.len()).then_some(("normal", PortType::Color)))?;
                let info = sink_info(
                    graph,
                    Sink::Pbr(name.to_owned()),
                    name,
                    ty,
                    Value::Float(0.0),
                );
                let unlinked = (name == "normal").then_some(NORMAL_UNLINKED);
                Some(InputInfo { unlinked, ..info })
            }
            ViewNode::Layer(layer) => {
                let port = STRAND_PORTS.get(k)?;
                let sink = Sink::Strand {
                    layer: layer.clone(),
                    port: port.name.to_owned(),
                };
                Some(sink_info(graph, sink, port.name, port.ty, port.default))
            }
        }
    }

    pub(super) fn output_of(
        &self,
        node: &ViewNode,
        k: usize,
    ) -> Option<(OutRef, PortType, String)> {
        match node {
            ViewNode::Node(id) => {
                let out = self.node(*id)?.output_ports().into_iter().nth(k)?;
                Some((OutRef::new(*id, out.name), out.ty, out.name.to_owned()))
            }
            ViewNode::Group(g) => {
                let exposed = self.doc.group(*g)?.outputs.get(k)?;
                let n = self.node(exposed.node)?;
                let out = n
                    .output_ports()
                    .into_iter()
                    .find(|o| o.name == exposed.port)?;
                Some((
                    OutRef::new(exposed.node, out.name),
                    out.ty,
                    format!("{}.{}", n.label(), out.name),
                ))
            }
            _ => None,
        }
    }

    /// Whether `node` is a Reroute (drawn as a dot).
    fn is_reroute(&self, node: &ViewNode) -> bool {
        matches!(node, ViewNode::Node(id)
            if self.node(*id).is_some_and(|n| n.kind == tuft_graph::nodes::reroute::NAME))
    }
}

/// The colour of a group's note that its library node has changed or gone.
const LIBRARY_NOTE: Color32 = Color32::from_rgb(230, 170, 60);

impl SnarlViewer<ViewNode> for Viewer<'_> {
    fn title(&mut self, node: &ViewNode) -> String {
        match node {
            ViewNode::Node(id) => self
                .node(*id)
                .map_or_else(|| format!("#{}", id.0), |n| n.title()),
            ViewNode::Pbr => "PBR output".to_owned(),
            ViewNode::Layer(name) => format!("Strand layer {name}"),
            ViewNode::Group(g) => self
                .doc
                .group(*g)
                .map_or_else(|| format!("Group {g}"), |g| format!("Group: {}", g.name)),
            ViewNode::Frame(k) => self
                .doc
                .frames
                .get(*k)
                .map_or_else(String::new, |f| f.title.clone()),
            ViewNode::FrameCorner(_) => "↘".to_owned(),
        }
    }

    fn node_frame(
        &mut self,
        default: egui::Frame,
        node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<ViewNode>,
    ) -> egui::Frame {
        let key = &snarl[node];
        let frame = match key {
            // A frame's title is a band across its top (the frame itself is painted
            // behind the nodes); its corner is a bare grip.
            ViewNode::Frame(_) => default
                .fill(Color32::from_rgb(52, 72, 105))
                .stroke(egui::Stroke::NONE)
                .shadow(egui::epaint::Shadow::NONE)
                .inner_margin(egui::Margin::ZERO)
                .corner_radius(egui::CornerRadius {
                    nw: 6,
                    ne: 6,
                    sw: 0,
                    se: 0,
                }),
            ViewNode::FrameCorner(_) => egui::Frame::NONE.inner_margin(egui::Margin::same(2)),
            ViewNode::Group(_) => default
                .fill(Color32::from_rgb(48, 58, 48))
                .stroke(egui::Stroke::new(1.5, Color32::from_rgb(120, 170, 110))),
            _ if self.is_reroute(key) => default.inner_margin(egui::Margin::same(2)),
            _ => default,
        };
        // One meaning per outline: the node the inspector shows in amber, the selection
        // (a Select All's included; the widget adds its own box) in blue.
        let inspected = matches!(key, ViewNode::Node(id) if Some(*id) == self.highlight);
        if inspected {
            frame.stroke(egui::Stroke::new(2.0, super::INSPECTED))
        } else if self.selected.contains(&node) {
            frame.stroke(egui::Stroke::new(2.0, super::SELECTED))
        } else {
            frame
        }
    }

    fn draw_background(
        &mut self,
        background: Option<&egui_snarl::ui::BackgroundPattern>,
        viewport: &egui::Rect,
        snarl_style: &egui_snarl::ui::SnarlStyle,
        style: &egui::Style,
        painter: &egui::Painter,
        _snarl: &Snarl<ViewNode>,
    ) {
        if let Some(background) = background {
            background.draw(viewport, snarl_style, style, painter);
        }
        super::GraphView::paint_frames(self.doc, self.level, painter);
    }

    fn show_header(
        &mut self,
        node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<ViewNode>,
    ) {
        let key = snarl[node].clone();
        if self.is_reroute(&key) {
            // A dot: the wire passes through; its menu deletes it.
            ui.label("•")
                .on_hover_text("Reroute: a dot a wire passes through");
            return;
        }
        let title = self.title(&key);
        // A title that takes clicks, with what it does on hover. With Shift or Ctrl held
        // it lets the click through to the node, whose selection they change (a title
        // that took them made Shift+click replace what was shown instead of adding).
        let modifiers = ui.input(|i| i.modifiers);
        let sense = if modifiers.shift || modifiers.command {
            egui::Sense::hover()
        } else {
            egui::Sense::click()
        };
        let clickable = |ui: &mut Ui, hover: &str| {
            ui.add(
                egui::Label::new(egui::RichText::new(title.as_str()).strong())
                    .selectable(false)
                    .sense(sense),
            )
            .on_hover_text(hover)
        };
        let title_response = ui.horizontal(|ui| match &key {
            ViewNode::Node(id) => {
                let problems: Vec<String> =
                    self.report.for_node(*id).map(ToString::to_string).collect();
                if !problems.is_empty() {
                    ui.colored_label(
                        Color32::from_rgb(230, 90, 80),
                        format!("⚠ {}", problems.len()),
                    )
                    .on_hover_text(problems.join("\n"));
                }
                let doc = self
                    .node(*id)
                    .and_then(|n| n.kind())
                    .map_or("", |k| k.doc());
                let response = clickable(ui, doc);
                if response.clicked() {
                    self.actions.push(Command::Select(*id));
                }
                Some(response)
            }
            ViewNode::Group(g) => {
                let hover = "A node group: double-click, or Open, to edit its inside";
                let response = clickable(ui, hover);
                if response.double_clicked() {
                    self.actions.push(Command::OpenGroup(*g));
                }
                Some(response)
            }
            ViewNode::Layer(name) => {
                let hover = "A strand layer: click to show its settings first";
                let response = clickable(ui, hover);
                if response.clicked() {
                    self.actions.push(Command::FocusLayer(name.clone()));
                }
                Some(response)
            }
            ViewNode::Frame(k) => {
                // Not selectable text: a drag on the title moves the frame.
                ui.add(
                    egui::Label::new(egui::RichText::new(title.as_str()).strong())
                        .selectable(false),
                );
                // The band spans the frame (the node stands at the frame's corner, and
                // this row in graph space where it was laid out).
                if let Some(f) = self.doc.frames.get(*k) {
                    let right = f.pos[0] + f.size[0];
                    // (A minimum width is taken from the cursor, past the title.)
                    ui.set_min_width((right - ui.cursor().left()).max(0.0));
                }
                None
            }
            ViewNode::FrameCorner(_) => {
                ui.label(
                    egui::RichText::new("◢")
                        .size(18.0)
                        .color(Color32::from_rgb(120, 160, 215)),
                )
                .on_hover_text("Drag to resize the frame");
                None
            }
            _ => {
                ui.add(
                    egui::Label::new(egui::RichText::new(title.as_str()).strong())
                        .selectable(false),
                );
                None
            }
        });
        // The title takes its own clicks, the right one included: it opens the menu the
        // node's frame opens. Regression: a right-click on a title's text opened nothing.
        if let Some(response) = title_response.inner {
            response.context_menu(|ui| self.node_menu(ui, key.clone()));
        }
    }

    fn header_frame(
        &mut self,
        default: egui::Frame,
        node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<ViewNode>,
    ) -> egui::Frame {
        match snarl[node] {
            ViewNode::Frame(_) => {
                egui::Frame::NONE.inner_margin(egui::Margin::symmetric(FRAME_BAND_MARGIN, 4))
            }
            ViewNode::FrameCorner(_) => egui::Frame::NONE,
            _ => default,
        }
    }

    fn has_node_style(
        &mut self,
        node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<ViewNode>,
    ) -> bool {
        matches!(snarl[node], ViewNode::Frame(_) | ViewNode::FrameCorner(_))
    }

    /// A frame's title and corner have no collapse arrow: the widget draws one on every
    /// node, in an icon's width, so theirs is none wide.
    fn apply_node_style(
        &mut self,
        style: &mut egui::Style,
        _node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        _snarl: &Snarl<ViewNode>,
    ) {
        style.spacing.icon_width = 0.0;
    }

    fn inputs(&mut self, node: &ViewNode) -> usize {
        super::geometry::pin_counts(self.doc, node, |id| self.node(id)).0
    }

    fn outputs(&mut self, node: &ViewNode) -> usize {
        super::geometry::pin_counts(self.doc, node, |id| self.node(id)).1
    }

    fn show_input(
        &mut self,
        pin: &InPin,
        ui: &mut Ui,
        snarl: &mut Snarl<ViewNode>,
    ) -> impl SnarlPin + 'static {
        let key = snarl[pin.id.node].clone();
        let Some(info) = self.input_info(&key, pin.id.input) else {
            return self.noted(key, "", true, PinInfo::circle());
        };
        let reroute = self.is_reroute(&key);
        if !reroute {
            ui.label(&info.name);
        }
        match info.current {
            Input::Const(_)
                if let Some(unlinked) = info.unlinked
                    && pin.remotes.is_empty() =>
            {
                ui.label(egui::RichText::new(unlinked.note).weak())
                    .on_hover_text(unlinked.hint);
            }
            Input::Const(value) if pin.remotes.is_empty() && !reroute => {
                // An id of the input's own: the widget draws nodes in an order that
                // changes from frame to frame (the one under the pointer last), and a
                // field whose id moved with it lost its click and its text editor.
                let edited = ui
                    .push_id(("constant", format!("{:?}", info.to)), |ui| {
                        constant_editor(ui, value, info.range)
                    })
                    .inner;
                if let Some(v) = edited {
                    self.actions.push(Command::SetConst(info.to.clone(), v));
                }
            }
            // Linked from a node this view does not show (outside the open group).
            Input::Link(from) if pin.remotes.is_empty() => {
                let source = self
                    .node(from.node)
                    .map_or_else(|| format!("#{}", from.node), tuft_graph::Node::label);
                ui.label(egui::RichText::new(format!("← {source}.{}", from.port)).weak())
                    .on_hover_text("Linked from outside this group");
            }
            _ => {}
        }
        let pin = PinInfo::circle()
            .with_fill(type_color(info.ty))
            .with_wire_color(type_color(info.ty));
        self.noted(key, &info.name, true, pin)
    }

    fn show_output(
        &mut self,
        pin: &OutPin,
        ui: &mut Ui,
        snarl: &mut Snarl<ViewNode>,
    ) -> impl SnarlPin + 'static {
        let key = snarl[pin.id.node].clone();
        match self.output_of(&key, pin.id.output) {
            Some((_, ty, name)) => {
                if !self.is_reroute(&key) {
                    ui.label(&name);
                }
                let pin = PinInfo::circle()
                    .with_fill(type_color(ty))
                    .with_wire_color(type_color(ty));
                self.noted(key, &name, false, pin)
            }
            None => self.noted(key, "", false, PinInfo::circle()),
        }
    }

    fn connect(&mut self, from: &OutPin, to: &InPin, snarl: &mut Snarl<ViewNode>) {
        let (a, b) = (snarl[from.id.node].clone(), snarl[to.id.node].clone());
        if let (Some((out, _, _)), Some(info)) = (
            self.output_of(&a, from.id.output),
            self.input_info(&b, to.id.input),
        ) {
            self.actions.push(Command::Connect(out, info.to));
        }
    }

    fn disconnect(&mut self, _from: &OutPin, to: &InPin, snarl: &mut Snarl<ViewNode>) {
        let b = snarl[to.id.node].clone();
        if let Some(info) = self.input_info(&b, to.id.input) {
            self.actions.push(Command::Disconnect(info.to));
        }
    }

    fn drop_inputs(&mut self, pin: &InPin, snarl: &mut Snarl<ViewNode>) {
        let b = snarl[pin.id.node].clone();
        if let Some(info) = self.input_info(&b, pin.id.input) {
            self.actions.push(Command::Disconnect(info.to));
        }
    }

    fn drop_outputs(&mut self, pin: &OutPin, snarl: &mut Snarl<ViewNode>) {
        for remote in &pin.remotes {
            let b = snarl[remote.node].clone();
            if let Some(info) = self.input_info(&b, remote.input) {
                self.actions.push(Command::Disconnect(info.to));
            }
        }
    }

    fn has_body(&mut self, node: &ViewNode) -> bool {
        match node {
            ViewNode::Node(id) => self.thumbs.contains_key(id) && !self.is_reroute(node),
            ViewNode::Group(_) => true,
            _ => false,
        }
    }

    fn show_body(
        &mut self,
        node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<ViewNode>,
    ) {
        match &snarl[node] {
            ViewNode::Node(id) => {
                if let Some(tex) = self.thumbs.get(id) {
                    ui.image((tex.id(), egui::vec2(48.0, 48.0)));
                }
            }
            ViewNode::Group(g) => {
                let group = self.doc.group(*g);
                let members = group.map_or(0, |g| g.members.len());
                let origin = group.and_then(|g| g.library.as_ref()).map(|link| {
                    match self.library.find(&link.name) {
                        Some(e) if e.digest == link.digest => ("from the library", Color32::GRAY),
                        Some(_) => ("the library's copy differs", LIBRARY_NOTE),
                        None => ("no longer in the library", LIBRARY_NOTE),
                    }
                });
                ui.vertical(|ui| {
                    ui.label(
                        egui::RichText::new(format!(
                            "{} inside",
                            crate::words::counted(members, "node")
                        ))
                        .weak(),
                    );
                    if let Some((said, colour)) = origin {
                        ui.label(egui::RichText::new(said).small().color(colour));
                    }
                    if ui.button("Open").clicked() {
                        self.actions.push(Command::OpenGroup(*g));
                    }
                });
            }
            _ => {}
        }
    }

    fn has_node_menu(&mut self, node: &ViewNode) -> bool {
        !matches!(node, ViewNode::Pbr | ViewNode::FrameCorner(_))
    }

    fn has_graph_menu(&mut self, _pos: Pos2, _snarl: &mut Snarl<ViewNode>) -> bool {
        true
    }

    fn show_graph_menu(&mut self, pos: Pos2, ui: &mut Ui, _snarl: &mut Snarl<ViewNode>) {
        self.add_menu(pos, ui, None);
    }

    fn has_dropped_wire_menu(&mut self, src: AnyPins<'_>, snarl: &mut Snarl<ViewNode>) -> bool {
        self.dropped_wire(&src, snarl).is_some()
    }

    fn show_dropped_wire_menu(
        &mut self,
        pos: Pos2,
        ui: &mut Ui,
        src: AnyPins<'_>,
        snarl: &mut Snarl<ViewNode>,
    ) {
        let wire = self.dropped_wire(&src, snarl);
        self.add_menu(pos, ui, wire.as_ref());
    }

    fn show_node_menu(
        &mut self,
        node: egui_snarl::NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<ViewNode>,
    ) {
        self.node_menu(ui, snarl[node].clone());
    }

    fn current_transform(
        &mut self,
        to_global: &mut egui::emath::TSTransform,
        snarl: &mut Snarl<ViewNode>,
    ) {
        if let Some(view) = self.restore.take() {
            *to_global = view;
        }
        let Some(keys) = self.frame.take() else {
            return;
        };
        // The material's outputs: what a view just opened must show.
        let outputs = snarl
            .nodes_pos()
            .filter(|(_, n)| matches!(n, ViewNode::Pbr | ViewNode::Layer(_)))
            .map(|(p, n)| egui::Rect::from_min_size(p, footprint(self.rows, n)))
            .reduce(egui::Rect::union);
        let rects: Vec<egui::Rect> = if keys.is_empty() {
            let frames = self.doc.frames_in(self.level).map(|(_, f)| {
                egui::Rect::from_min_size(
                    Pos2::new(f.pos[0], f.pos[1]),
                    egui::vec2(f.size[0], f.size[1]),
                )
            });
            snarl
                .nodes_pos()
                .map(|(p, n)| egui::Rect::from_min_size(p, footprint(self.rows, n)))
                .chain(frames)
                .collect()
        } else {
            keys.iter()
                .filter_map(|k| Some((k, self.ids.get(k)?)))
                .filter_map(|(k, id)| {
                    let pos = snarl.get_node_info(*id)?.pos;
                    Some(egui::Rect::from_min_size(pos, footprint(self.rows, k)))
                })
                .collect()
        };
        let Some(bounds) = rects.iter().copied().reduce(egui::Rect::union) else {
            return;
        };
        let bounds = bounds.expand(30.0);
        let rect = self.rect;
        let fit = (rect.width() / bounds.width().max(1.0))
            .min(rect.height() / bounds.height().max(1.0))
            .clamp(0.2, 1.0);
        // A view just opened keeps its text readable: when the whole graph would need
        // a smaller zoom, it shows, at a zoom that reads, the graph's right-hand end
        // with the material's outputs in it (what the graph makes; a view of the top
        // left cut them off), and F frames everything.
        let translation;
        let scale;
        if self.readable && fit < READABLE {
            let outputs = outputs.filter(|_| keys.is_empty() && self.level.is_none());
            // Zoomed out further only as far as the outputs need to fit.
            scale = outputs.map_or(READABLE, |o| {
                let o = o.expand(30.0);
                (rect.width() / o.width().max(1.0))
                    .min(rect.height() / o.height().max(1.0))
                    .clamp(fit, READABLE)
            });
            let seen = rect.size() / scale;
            let min_x = (bounds.max.x - seen.x).max(bounds.min.x);
            let min_y = outputs.map_or(bounds.min.y, |o| {
                (o.center().y - seen.y / 2.0)
                    .clamp(bounds.min.y, (bounds.max.y - seen.y).max(bounds.min.y))
            });
            translation = rect.min.to_vec2() - egui::vec2(min_x, min_y) * scale;
        } else {
            scale = fit;
            translation = rect.center().to_vec2() - bounds.center().to_vec2() * scale;
        }
        *to_global = egui::emath::TSTransform::new(translation, scale);
        self.centre = to_global.inverse() * self.rect.center();
        self.to_global = *to_global;
    }
}
