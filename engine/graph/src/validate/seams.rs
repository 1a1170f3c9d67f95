//! Seams: each output's period inferred through the graph (cycles found on the way),
//! backed by a numeric check of opposite edges.

use super::EDGE_SAMPLES;
use crate::diag::{Code, Diagnostic};
use crate::eval::Evaluator;
use crate::field::Domain;
use crate::graph::{MaterialGraph, Node};
use crate::link::{Input, NodeId, OutRef, Sink};
use crate::node::Access;
use crate::period::Period;
use crate::value::PortType;
use std::collections::{HashMap, HashSet};

/// Periods by Kahn's algorithm over every link; nodes left over sit on or behind a cycle.
/// Without `wait`, a picture still decoding is taken as tiling until it is there.
pub(super) fn infer_periods(
    graph: &MaterialGraph,
    wait: bool,
) -> (HashMap<(NodeId, usize), Period>, Vec<NodeId>) {
    let (order, left) = graph.reading_order(&[]);
    let mut periods = HashMap::new();
    for i in order {
        let node = &graph.nodes[i];
        let id = node.id;
        if let Some(kind) = node.kind() {
            let params = node.params();
            let mut inputs: Vec<Period> = kind
                .inputs(&params)
                .iter()
                .map(|port| input_period(graph, &periods, &node.input(port)))
                .collect();
            // A node reading a strand layer depends on every field of that layer.
            if let Some(layer) = kind
                .strand_layer(&params)
                .and_then(|l| graph.strands.get(l))
            {
                inputs.extend(
                    layer
                        .ports()
                        .iter()
                        .map(|(_, input)| input_period(graph, &periods, input)),
                );
            }
            let mut outputs = kind.period(&params, id, &inputs);
            // A picture that does not tile breaks every output, whatever its count.
            if let Some(reason) = kind
                .file(&params)
                .and_then(|f| crate::images::open_with(graph, f, wait).ok())
                .and_then(|p| p.seam().map(str::to_owned))
            {
                outputs.fill(Period::Broken { node: id, reason });
            }
            for (k, p) in outputs.into_iter().enumerate() {
                periods.insert((id, k), p);
            }
        }
    }
    let cyclic: Vec<NodeId> = left.iter().map(|&i| graph.nodes[i].id).collect();
    for &i in &left {
        let node = &graph.nodes[i];
        let id = node.id;
        for k in 0..node.output_ports().len() {
            periods.insert(
                (id, k),
                Period::Broken {
                    node: id,
                    reason: "it sits on a cycle".to_owned(),
                },
            );
        }
    }
    (periods, cyclic)
}

fn output_index(graph: &MaterialGraph, l: &OutRef) -> Option<usize> {
    graph
        .node(l.node)?
        .output_ports()
        .iter()
        .position(|p| p.name == l.port)
}

pub(super) fn input_period(
    graph: &MaterialGraph,
    periods: &HashMap<(NodeId, usize), Period>,
    input: &Input,
) -> Period {
    match input {
        Input::Const(_) => Period::Uniform,
        Input::Link(l) => output_index(graph, l)
            .and_then(|k| periods.get(&(l.node, k)).cloned())
            .unwrap_or(Period::Uniform),
    }
}

pub(super) fn report_cycles(
    graph: &MaterialGraph,
    leftover: &[NodeId],
    diags: &mut Vec<Diagnostic>,
) {
    let left: HashSet<NodeId> = leftover.iter().copied().collect();
    let mut reported: HashSet<NodeId> = HashSet::new();
    for &start in leftover {
        if reported.contains(&start) {
            continue;
        }
        // Walk links among the leftover nodes until a node repeats: that loop is a cycle.
        let mut walk = vec![start];
        let mut pos: HashMap<NodeId, usize> = HashMap::from([(start, 0)]);
        let mut cur = start;
        let cycle = loop {
            let next = graph.node(cur).and_then(|n| {
                graph
                    .node_links(n)
                    .into_iter()
                    .map(|(_, l)| l.node)
                    .find(|d| left.contains(d))
            });
            let Some(next) = next else { break None };
            if let Some(&p) = pos.get(&next) {
                break Some(walk[p..].to_vec());
            }
            pos.insert(next, walk.len());
            walk.push(next);
            cur = next;
        };
        let Some(cycle) = cycle else { continue };
        if cycle.iter().any(|id| reported.contains(id)) {
            continue;
        }
        reported.extend(cycle.iter().copied());
        let mut names: Vec<String> = cycle
            .iter()
            .map(|id| graph.node(*id).map_or_else(String::new, Node::label))
            .collect();
        names.push(names[0].clone());
        diags.push(
            Diagnostic::error(
                Code::Cycle,
                format!(
                    "these nodes read each other in a loop: {}",
                    names.join(" ← ")
                ),
            )
            .at(cycle[0]),
        );
    }
}

/// The path from `sink` down to the node blamed for `culprit`, written
/// `pbr.base_color ← Mix#4.b ← Noise#2 (reason)`.
fn seam_path(
    graph: &MaterialGraph,
    periods: &HashMap<(NodeId, usize), Period>,
    sink: &Sink,
    input: &Input,
    culprit: NodeId,
    reason: &str,
) -> String {
    let mut parts = vec![sink.to_string()];
    let mut cur = input.link().cloned();
    for _ in 0..=graph.nodes.len() {
        let Some(link) = cur.take() else { break };
        let Some(node) = graph.node(link.node) else {
            break;
        };
        if node.id == culprit {
            parts.push(format!("{} ({reason})", node.label()));
            break;
        }
        let next = graph.node_links(node).into_iter().find(|(_, l)| {
            output_index(graph, l)
                .and_then(|k| periods.get(&(l.node, k)))
                .is_some_and(|p| p.culprit() == Some(culprit))
        });
        match next {
            Some((port, l)) => {
                if port.starts_with("strands.") {
                    parts.push(format!("{} ← {port}", node.label()));
                } else {
                    parts.push(format!("{}.{port}", node.label()));
                }
                cur = Some(l);
            }
            None => {
                parts.push(node.label());
                break;
            }
        }
    }
    parts.join(" ← ")
}

pub(super) fn seam_by_inference(
    graph: &MaterialGraph,
    periods: &HashMap<(NodeId, usize), Period>,
    sink: &Sink,
    input: &Input,
    diags: &mut Vec<Diagnostic>,
) {
    let period = input_period(graph, periods, input).settle();
    if let Period::Broken { node, reason } = &period {
        let path = seam_path(graph, periods, sink, input, *node, reason);
        diags.push(
            Diagnostic::error(
                Code::Seam,
                format!("{sink} does not meet itself at the edges of the repeat: {path}"),
            )
            .at(*node)
            .on(sink),
        );
    }
}

/// Points along the four edges: `(0, t), (1, t), (t, 0), (t, 1)` for each `t`.
fn edge_domain() -> Domain {
    let mut pts = Vec::with_capacity(4 * EDGE_SAMPLES);
    for i in 0..EDGE_SAMPLES {
        let t = (i as f32 + 0.5) / EDGE_SAMPLES as f32;
        pts.extend([[0.0, t], [1.0, t], [t, 0.0], [t, 1.0]]);
    }
    Domain::points(&pts)
}

pub(super) fn seam_by_numbers(
    graph: &MaterialGraph,
    evaluator: &Evaluator<'_>,
    periods: &HashMap<(NodeId, usize), Period>,
    sinks: &[(Sink, Input)],
    diags: &mut Vec<Diagnostic>,
) {
    // Only linked sinks whose inference says they tile need the numbers; the rest are
    // constants or already reported. Fields read through a wrapped raster (filters, the
    // relief) blend both sides of the edge by construction: the numbers cannot see a seam
    // there, and computing them would scatter strands, so inference alone answers.
    let checked: Vec<&(Sink, Input)> = sinks
        .iter()
        .filter(|(_, input)| {
            let Some(link) = input.link() else {
                return false;
            };
            input_period(graph, periods, input).settle().tiles()
                && !evaluator.upstream(&[link.node]).iter().any(|id| {
                    graph.node(*id).is_some_and(|n| {
                        n.kind()
                            .is_some_and(|k| k.strand_layer(&n.params()).is_some())
                            || n.input_ports().iter().any(|p| p.access == Access::Raster)
                    })
                })
        })
        .collect();
    let wanted: Vec<(Input, PortType)> = checked
        .iter()
        .filter_map(|(sink, input)| {
            let ty = graph.sink_type(sink)?;
            let out_ty = input.link().and_then(|l| graph.output_type(l))?;
            ty.accepts(out_ty).then(|| (input.clone(), ty))
        })
        .collect();
    if wanted.is_empty() {
        return;
    }
    let fields = evaluator.eval_inputs(&wanted, &edge_domain());
    for ((input, _), field) in wanted.iter().zip(&fields) {
        let sink = &checked
            .iter()
            .find(|(_, i)| i == input)
            .expect("every wanted input came from a sink")
            .0;
        let (lo, hi) = field.range();
        let tolerance = 1e-4 + 1e-3 * (hi - lo).abs().max(1.0);
        let mut gap = 0.0f32;
        for i in 0..EDGE_SAMPLES {
            for c in 0..field.ty.channels() {
                gap = gap.max((field.at(c, 4 * i) - field.at(c, 4 * i + 1)).abs());
                gap = gap.max((field.at(c, 4 * i + 2) - field.at(c, 4 * i + 3)).abs());
            }
        }
        if gap > tolerance {
            let mut d = Diagnostic::error(
                Code::Seam,
                format!(
                    "{sink} differs by up to {gap:.4} between opposite edges of the repeat, \
                     although every node upstream should tile"
                ),
            )
            .on(sink);
            if let Some(l) = input.link() {
                d = d.at(l.node);
            }
            diags.push(d);
        }
    }
}
