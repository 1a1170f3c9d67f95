//! Where the widget's things are: each node's footprint (estimated from its rows of
//! ports) and the pins, which note where they were drawn.

use super::ViewNode;
use egui_snarl::ui::{PinInfo, PinWireInfo, SnarlPin, SnarlStyle};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Where each pin was drawn, by (node, port name, whether an input).
pub(super) type Pins = Arc<Mutex<HashMap<(ViewNode, String, bool), egui::Rect>>>;

/// A pin that notes where it was drawn, then draws as `info` says.
pub(super) struct NotedPin {
    pub(super) info: PinInfo,
    pub(super) key: (ViewNode, String, bool),
    pub(super) pins: Pins,
}

impl SnarlPin for NotedPin {
    fn pin_rect(&self, x: f32, y0: f32, y1: f32, size: f32) -> egui::Rect {
        self.info.pin_rect(x, y0, y1, size)
    }

    fn draw(
        self,
        snarl_style: &SnarlStyle,
        style: &egui::Style,
        rect: egui::Rect,
        painter: &egui::Painter,
    ) -> PinWireInfo {
        crate::workers::lock(&self.pins).insert(self.key, rect);
        self.info.draw(snarl_style, style, rect, painter)
    }
}

/// The size a node takes (see [`GraphView::footprints`]).
pub(super) fn footprint(rows: &HashMap<ViewNode, usize>, node: &ViewNode) -> egui::Vec2 {
    let rows = rows.get(node).copied().unwrap_or(4) as f32;
    // Title, rows of ports, and a graph node's thumbnail.
    let thumb = if matches!(node, ViewNode::Node(_)) {
        70.0
    } else {
        0.0
    };
    // Measured on the editor's own window: a 40-point title, 21 points a row and a
    // 15-point margin.
    egui::vec2(NODE_WIDTH, 55.0 + 21.0 * rows + thumb)
}

/// A node's width as the estimate of its footprint takes it.
pub const NODE_WIDTH: f32 = 200.0;

/// How many input and output pins `node` has, its graph node found by `find`.
pub(super) fn pin_counts<'d>(
    doc: &'d tuft_graph::Document,
    node: &ViewNode,
    find: impl Fn(tuft_graph::NodeId) -> Option<&'d tuft_graph::Node>,
) -> (usize, usize) {
    use tuft_graph::graph::PBR_PORTS;
    use tuft_graph::layer::STRAND_PORTS;
    match node {
        ViewNode::Node(id) => {
            find(*id).map_or((0, 0), |n| (n.input_ports().len(), n.output_ports().len()))
        }
        // The fixed maps and the normal.
        ViewNode::Pbr => (PBR_PORTS.len() + 1, 0),
        ViewNode::Layer(_) => (STRAND_PORTS.len(), 0),
        ViewNode::Group(g) => doc
            .group(*g)
            .map_or((0, 0), |g| (g.inputs.len(), g.outputs.len())),
        ViewNode::Frame(_) | ViewNode::FrameCorner(_) => (0, 0),
    }
}

/// How the canvas finds a graph node by id (an index made once, where it finds many).
pub(super) type Find<'d> = dyn Fn(tuft_graph::NodeId) -> Option<&'d tuft_graph::Node> + 'd;

/// The rows a node takes: its longer column of pins, and a group's Open button.
pub(super) fn rows_of<'d>(
    doc: &'d tuft_graph::Document,
    node: &ViewNode,
    find: &Find<'d>,
) -> usize {
    let (inputs, outputs) = pin_counts(doc, node, find);
    inputs.max(outputs) + usize::from(matches!(node, ViewNode::Group(_)))
}

/// The size node `node` takes, from the document (for a node not drawn yet).
#[must_use]
pub fn footprint_of(node: &ViewNode, doc: &tuft_graph::Document) -> egui::Vec2 {
    let rows = rows_of(doc, node, &|id| doc.graph.node(id));
    footprint(&HashMap::from([(node.clone(), rows)]), node)
}
