//! Validation: everything wrong with a material, found in one pass the editor can run
//! after every edit.
//!
//! Structure (kinds, ids, links, types, cycles, constants), seams (period inference
//! backed by a numeric check of opposite edges), strand-layer rules (no dynamic inputs,
//! density in `[0, 1]`, budgets) and what evaluation itself reports (NaN).

use crate::diag::{Code, Diagnostic};
use crate::eval::Evaluator;
use crate::field::Domain;
use crate::graph::{FORMAT_VERSION, Input, MaterialGraph, Node, NodeId, OutRef, Sink};
use crate::layer::MAX_STRANDS;
use crate::node::Access;
use crate::period::Period;
use crate::value::PortType;
use serde::Serialize;
use std::collections::{HashMap, HashSet, VecDeque};

/// Points per edge for the numeric seam check.
const EDGE_SAMPLES: usize = 64;
/// Grid side for the density range check and the strand estimate.
const DENSITY_GRID: usize = 32;
/// Bytes one strand takes in a set (16 stored values of 4 bytes).
pub const BYTES_PER_STRAND: u64 = 64;

/// The outcome of validating a material.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Every finding, errors first.
    pub diagnostics: Vec<Diagnostic>,
    /// The inferred period of each node output, by `(node, output index)`.
    #[serde(skip)]
    pub periods: HashMap<(NodeId, usize), Period>,
}

impl Report {
    /// Whether any finding is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The findings blamed on `node`.
    pub fn for_node(&self, node: NodeId) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(move |d| d.node == Some(node))
    }
}

/// Validates `graph`.
#[must_use]
pub fn validate(graph: &MaterialGraph) -> Report {
    let mut diags = Vec::new();
    structure(graph, &mut diags);
    let (periods, cyclic) = infer_periods(graph);
    report_cycles(graph, &cyclic, &mut diags);
    let sinks = graph.sinks();
    for (sink, input) in &sinks {
        // A sink behind a cycle is reported once, as the cycle.
        let behind_cycle = input_period(graph, &periods, input)
            .culprit()
            .is_some_and(|c| cyclic.contains(&c));
        if !behind_cycle {
            seam_by_inference(graph, &periods, sink, input, &mut diags);
        }
        if let Sink::Strand { .. } = sink {
            dynamic_reach(graph, sink, input, &mut diags);
        }
    }
    let evaluator = Evaluator::new(graph);
    seam_by_numbers(graph, &evaluator, &periods, &sinks, &mut diags);
    layers(graph, &evaluator, &mut diags);
    for d in evaluator.diagnostics() {
        if !diags.contains(&d) {
            diags.push(d);
        }
    }
    diags.sort_by_key(|d| std::cmp::Reverse(d.severity));
    Report {
        diagnostics: diags,
        periods,
    }
}

/// The inferred period of every node output, by `(node, output index)`.
#[must_use]
pub fn periods(graph: &MaterialGraph) -> HashMap<(NodeId, usize), Period> {
    infer_periods(graph).0
}

fn structure(graph: &MaterialGraph, diags: &mut Vec<Diagnostic>) {
    if graph.version > FORMAT_VERSION {
        diags.push(Diagnostic::error(
            Code::Version,
            format!(
                "format version {} is newer than this build reads ({FORMAT_VERSION})",
                graph.version
            ),
        ));
    }
    if !(graph.repeat_m.is_finite() && graph.repeat_m > 0.0) {
        diags.push(Diagnostic::error(
            Code::Repeat,
            format!(
                "repeat_m is {}; it must be a positive length in metres",
                graph.repeat_m
            ),
        ));
    }
    let mut seen = HashSet::new();
    for node in &graph.nodes {
        if !seen.insert(node.id) {
            diags.push(
                Diagnostic::error(
                    Code::DuplicateId,
                    format!("two nodes have id {} ({} and another)", node.id, node.kind),
                )
                .at(node.id),
            );
        }
        check_node(graph, node, diags);
    }
    for (sink, input) in graph.sinks() {
        let Some(ty) = graph.sink_type(&sink) else {
            continue;
        };
        check_input(
            graph,
            &sink.to_string(),
            input_ty_for_sink(&sink, ty),
            &input,
            None,
            diags,
        );
    }
}

/// Extras accept any type; fixed sinks have theirs.
fn input_ty_for_sink(sink: &Sink, ty: PortType) -> Option<PortType> {
    match sink {
        Sink::PbrExtra(_) => None,
        _ => Some(ty),
    }
}

fn check_node(graph: &MaterialGraph, node: &Node, diags: &mut Vec<Diagnostic>) {
    let Some(kind) = node.kind() else {
        let known: Vec<&str> = crate::nodes::ALL.iter().map(|k| k.name()).collect();
        diags.push(
            Diagnostic::error(
                Code::UnknownKind,
                format!(
                    "{} has unknown kind {:?}; known kinds: {}",
                    node.label(),
                    node.kind,
                    known.join(", ")
                ),
            )
            .at(node.id),
        );
        return;
    };
    for (name, value) in &node.params {
        match kind.params().iter().find(|d| d.name == name) {
            None => diags.push(
                Diagnostic::error(
                    Code::BadParam,
                    format!("{} has no parameter {name:?}", node.label()),
                )
                .at(node.id),
            ),
            Some(desc) => {
                if let Some(problem) = desc.check(value) {
                    let code = if matches!(value, crate::node::ParamValue::Float(x) if !x.is_finite())
                    {
                        Code::NonFinite
                    } else {
                        Code::BadParam
                    };
                    diags.push(
                        Diagnostic::error(code, format!("{}: {problem}", node.label())).at(node.id),
                    );
                }
            }
        }
    }
    for problem in kind.check(&node.params()) {
        diags.push(
            Diagnostic::error(Code::BadParam, format!("{}: {problem}", node.label())).at(node.id),
        );
    }
    let ports = node.input_ports();
    for (name, input) in &node.inputs {
        let where_ = format!("{}.{name}", node.label());
        match ports.iter().find(|p| p.name == name) {
            None => diags.push(
                Diagnostic::warning(
                    Code::UnknownPort,
                    format!("{where_} is not an input of this node (ignored)"),
                )
                .at(node.id),
            ),
            Some(port) => check_input(graph, &where_, Some(port.ty), input, Some(node.id), diags),
        }
    }
}

/// Checks one input against the type its reader expects (`None`: any type).
fn check_input(
    graph: &MaterialGraph,
    where_: &str,
    ty: Option<PortType>,
    input: &Input,
    node: Option<NodeId>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut push = |d: Diagnostic| diags.push(if let Some(n) = node { d.at(n) } else { d });
    match input {
        Input::Const(v) => {
            if !v.is_finite() {
                push(Diagnostic::error(
                    Code::NonFinite,
                    format!("{where_} holds {v}, which is not a finite number"),
                ));
            }
            if let Some(ty) = ty.filter(|t| *t != v.ty()) {
                push(Diagnostic::error(
                    Code::TypeMismatch,
                    format!("{where_} expects {ty} but holds a {} constant", v.ty()),
                ));
            }
        }
        Input::Link(l) => {
            let Some(src) = graph.node(l.node) else {
                push(Diagnostic::error(
                    Code::DanglingLink,
                    format!("{where_} links to node #{}, which does not exist", l.node),
                ));
                return;
            };
            if src.kind().is_none() {
                return; // reported as an unknown kind
            }
            match graph.output_type(l) {
                None => push(Diagnostic::error(
                    Code::DanglingLink,
                    format!(
                        "{where_} links to {}.{}, which is not an output",
                        src.label(),
                        l.port
                    ),
                )),
                Some(from_ty) => {
                    if let Some(ty) = ty.filter(|t| *t != from_ty) {
                        push(Diagnostic::error(
                            Code::TypeMismatch,
                            format!(
                                "{where_} expects {ty} but {}.{} is {from_ty}",
                                src.label(),
                                l.port
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// Periods by Kahn's algorithm over every link; nodes left over sit on or behind a cycle.
fn infer_periods(graph: &MaterialGraph) -> (HashMap<(NodeId, usize), Period>, Vec<NodeId>) {
    let index = graph.index();
    let mut indegree: HashMap<NodeId, usize> = HashMap::new();
    let mut readers: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
    for (&id, &i) in &index {
        let mut deps: Vec<NodeId> = graph
            .node_links(&graph.nodes[i])
            .into_iter()
            .map(|(_, l)| l.node)
            .filter(|d| index.contains_key(d))
            .collect();
        deps.sort_unstable();
        deps.dedup();
        indegree.insert(id, deps.len());
        for d in deps {
            readers.entry(d).or_default().push(id);
        }
    }
    let mut ready: VecDeque<NodeId> = {
        let mut r: Vec<NodeId> = indegree
            .iter()
            .filter(|&(_, &n)| n == 0)
            .map(|(&id, _)| id)
            .collect();
        r.sort_unstable();
        r.into()
    };
    let mut periods = HashMap::new();
    let mut done = HashSet::new();
    while let Some(id) = ready.pop_front() {
        done.insert(id);
        let node = &graph.nodes[index[&id]];
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
            for (k, p) in kind.period(&params, id, &inputs).into_iter().enumerate() {
                periods.insert((id, k), p);
            }
        }
        for &r in readers.get(&id).map_or(&[][..], Vec::as_slice) {
            let n = indegree.get_mut(&r).expect("every reader has an indegree");
            *n -= 1;
            if *n == 0 {
                ready.push_back(r);
            }
        }
    }
    let mut cyclic: Vec<NodeId> = index
        .keys()
        .filter(|id| !done.contains(id))
        .copied()
        .collect();
    cyclic.sort_unstable();
    for &id in &cyclic {
        let node = &graph.nodes[index[&id]];
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

fn input_period(
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

fn report_cycles(graph: &MaterialGraph, leftover: &[NodeId], diags: &mut Vec<Diagnostic>) {
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

fn seam_by_inference(
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

fn dynamic_reach(graph: &MaterialGraph, sink: &Sink, input: &Input, diags: &mut Vec<Diagnostic>) {
    let Some(start) = input.link() else { return };
    // Breadth-first from the sink, remembering through which input each node was reached.
    let mut parent: HashMap<NodeId, (NodeId, String)> = HashMap::new();
    let mut seen = HashSet::from([start.node]);
    let mut queue = VecDeque::from([start.node]);
    while let Some(id) = queue.pop_front() {
        let Some(node) = graph.node(id) else { continue };
        if node.kind().is_some_and(|k| k.is_dynamic()) {
            let mut chain = vec![format!("{} (dynamic input)", node.label())];
            let mut cur = id;
            while let Some((p, port)) = parent.get(&cur) {
                let label = graph.node(*p).map_or_else(String::new, Node::label);
                chain.push(format!("{label}.{port}"));
                cur = *p;
            }
            chain.push(sink.to_string());
            chain.reverse();
            diags.push(
                Diagnostic::error(
                    Code::Dynamic,
                    format!(
                        "{sink} reads a dynamic input, but strand fields are fixed when the \
                         set is scattered (wind and time belong to the renderer): {}",
                        chain.join(" ← ")
                    ),
                )
                .at(id)
                .on(sink),
            );
            return;
        }
        for (port, l) in graph.node_links(node) {
            if seen.insert(l.node) {
                parent.insert(l.node, (id, port));
                queue.push_back(l.node);
            }
        }
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

fn seam_by_numbers(
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
            (ty == out_ty).then(|| (input.clone(), ty))
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

fn layers(graph: &MaterialGraph, evaluator: &Evaluator<'_>, diags: &mut Vec<Diagnostic>) {
    let grid = Domain::grid(DENSITY_GRID, DENSITY_GRID);
    for (name, layer) in &graph.strands {
        if name.is_empty() || name.len() > 255 {
            diags.push(Diagnostic::error(
                Code::LayerSettings,
                format!("strand layer name {name:?} must be 1 to 255 bytes long"),
            ));
        }
        for problem in layer.check_settings() {
            diags.push(Diagnostic::error(
                Code::LayerSettings,
                format!("strands.{name}: {problem}"),
            ));
        }
        let sink = Sink::Strand {
            layer: name.clone(),
            port: "density".to_owned(),
        };
        let density = evaluator
            .eval_inputs(&[(layer.density.clone(), PortType::Float)], &grid)
            .pop()
            .expect("one input gives one field");
        let (lo, hi) = density.range();
        if lo < -1e-6 || hi > 1.0 + 1e-6 {
            let mut d = Diagnostic::warning(
                Code::DensityRange,
                format!(
                    "{sink} ranges over [{lo:.3}, {hi:.3}]; a density is a threshold in [0, 1] \
                     (below 0 grows nothing, above 1 grows every candidate)"
                ),
            )
            .on(&sink);
            if let Some(l) = layer.density.link() {
                d = d.at(l.node);
            }
            diags.push(d);
        }
        let mean = density.data.iter().map(|d| d.clamp(0.0, 1.0)).sum::<f32>()
            / density.len().max(1) as f32;
        let expected = (layer.n_candidates() as f64 * f64::from(mean)).round() as u64;
        if expected > MAX_STRANDS {
            diags.push(Diagnostic::error(
                Code::Budget,
                format!(
                    "strands.{name} would grow about {expected} strands ({} MB); a layer may \
                     grow at most {MAX_STRANDS}: lower the lattice or the density",
                    expected * BYTES_PER_STRAND / 1_000_000
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{InRef, OutRef};
    use crate::layer::StrandLayer;
    use crate::node::ParamValue;
    use crate::value::Value;

    use crate::nodes::testing::link;

    fn sink(g: &mut MaterialGraph, from: NodeId, port: &str, sink: Sink) {
        g.connect(OutRef::new(from, port), &InRef::Sink(sink))
            .unwrap();
    }

    fn errors(r: &Report, code: Code) -> Vec<&Diagnostic> {
        r.diagnostics
            .iter()
            .filter(|d| d.code == code && d.is_error())
            .collect()
    }

    /// Noise#1 (scale 2.5) → Mix#2.b → base colour, via a ramp.
    #[test]
    fn a_fractional_noise_scale_is_a_seam_error_naming_the_path() {
        let mut g = MaterialGraph::new("seam");
        let noise = g.add_node("Noise").unwrap();
        g.node_mut(noise)
            .unwrap()
            .params
            .insert("scale".into(), ParamValue::Float(2.5));
        let ramp = g.add_node("ColorRamp").unwrap();
        let mix = g.add_node("Mix").unwrap();
        g.node_mut(mix)
            .unwrap()
            .params
            .insert("type".into(), ParamValue::Choice("color".into()));
        link(&mut g, noise, "out", ramp, "t");
        link(&mut g, ramp, "out", mix, "b");
        sink(&mut g, mix, "out", Sink::Pbr("base_color".into()));
        let r = validate(&g);
        let seams = errors(&r, Code::Seam);
        assert_eq!(seams.len(), 1, "{:#?}", r.diagnostics);
        let msg = &seams[0].message;
        assert!(
            msg.contains(&format!(
                "pbr.base_color ← Mix#{mix}.b ← ColorRamp#{ramp}.t ← Noise#{noise} (scale 2.5 is not an integer)"
            )),
            "{msg}"
        );
        assert_eq!(seams[0].node, Some(noise));
        assert_eq!(seams[0].sink.as_deref(), Some("pbr.base_color"));
    }

    #[test]
    fn raw_uv_into_the_roughness_is_a_seam_error_naming_the_uv_node() {
        let mut g = MaterialGraph::new("uv");
        let uv = g.add_node("UV").unwrap();
        let split = g.add_node("Split").unwrap();
        g.node_mut(split)
            .unwrap()
            .params
            .insert("type".into(), ParamValue::Choice("vec2".into()));
        link(&mut g, uv, "uv", split, "in");
        sink(&mut g, split, "x", Sink::Pbr("roughness".into()));
        let r = validate(&g);
        let seams = errors(&r, Code::Seam);
        assert_eq!(seams.len(), 1, "{:#?}", r.diagnostics);
        assert_eq!(seams[0].node, Some(uv));
        assert!(
            seams[0].message.contains(&format!("UV#{uv}")),
            "{}",
            seams[0].message
        );
        assert!(seams[0].message.contains("raw UV"), "{}", seams[0].message);
    }

    #[test]
    fn strand_ports_refuse_dynamic_inputs_but_fold_parameters() {
        let mut g = MaterialGraph::new("dyn");
        g.strands.insert("grass".into(), StrandLayer::default());
        let time = g.add_node("Time").unwrap();
        let mul = g.add_node("Math").unwrap();
        link(&mut g, time, "seconds", mul, "b");
        sink(
            &mut g,
            mul,
            "out",
            Sink::Strand {
                layer: "grass".into(),
                port: "length".into(),
            },
        );
        let r = validate(&g);
        let dynamic = errors(&r, Code::Dynamic);
        assert_eq!(dynamic.len(), 1, "{:#?}", r.diagnostics);
        assert!(
            dynamic[0].message.contains(&format!(
                "strands.grass.length ← Math#{mul}.b ← Time#{time}"
            )),
            "{}",
            dynamic[0].message
        );
        // A Parameter in the same place is fine.
        let param = g.add_node("Parameter").unwrap();
        link(&mut g, param, "out", mul, "b");
        assert!(errors(&validate(&g), Code::Dynamic).is_empty());
        // The PBR half may read dynamic inputs.
        link(&mut g, time, "seconds", mul, "b");
        g.strands.get_mut("grass").unwrap().length = Input::Const(Value::Float(0.05));
        sink(&mut g, mul, "out", Sink::Pbr("roughness".into()));
        assert!(errors(&validate(&g), Code::Dynamic).is_empty());
    }

    #[test]
    fn a_density_outside_the_unit_range_is_reported() {
        let mut g = MaterialGraph::new("density");
        let layer = StrandLayer {
            density: Input::Const(Value::Float(1.4)),
            ..StrandLayer::default()
        };
        g.strands.insert("grass".into(), layer);
        let r = validate(&g);
        let found: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::DensityRange)
            .collect();
        assert_eq!(found.len(), 1, "{:#?}", r.diagnostics);
        assert!(found[0].message.contains("1.400"), "{}", found[0].message);
        g.strands.get_mut("grass").unwrap().density = Input::Const(Value::Float(0.7));
        assert!(validate(&g).diagnostics.is_empty());
    }

    #[test]
    fn a_layer_asking_for_fifty_million_strands_is_refused() {
        let mut g = MaterialGraph::new("budget");
        let layer = StrandLayer {
            lattice: 7072,
            clump_lattice: 64,
            ..StrandLayer::default()
        };
        g.strands.insert("lots".into(), layer);
        let r = validate(&g);
        assert!(!errors(&r, Code::Budget).is_empty(), "{:#?}", r.diagnostics);
        assert!(!errors(&r, Code::LayerSettings).is_empty());
    }

    #[test]
    fn a_nan_parameter_is_an_error_on_its_node() {
        let mut g = MaterialGraph::new("nan");
        let noise = g.add_node("Noise").unwrap();
        g.node_mut(noise)
            .unwrap()
            .params
            .insert("gain".into(), ParamValue::Float(f32::NAN));
        let r = validate(&g);
        let nan = errors(&r, Code::NonFinite);
        assert_eq!(nan.len(), 1, "{:#?}", r.diagnostics);
        assert_eq!(nan[0].node, Some(noise));
    }
}
