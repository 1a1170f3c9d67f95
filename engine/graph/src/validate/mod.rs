//! Validation: everything wrong with a material, found in one pass the editor can run
//! after every edit.
//!
//! Structure (kinds, ids, links, types, cycles, constants), seams (period inference
//! backed by a numeric check of opposite edges), strand-layer rules (no dynamic inputs,
//! density in `[0, 1]`, budgets) and what evaluation itself reports (NaN).

pub mod limits;
mod seams;
mod strands;

use crate::diag::{Code, Diagnostic};
use crate::eval::Evaluator;
use crate::graph::{FORMAT_VERSION, MaterialGraph, Node};
use crate::link::{Input, NodeId, Sink};
use crate::period::Period;
use crate::value::PortType;
use seams::{infer_periods, input_period, report_cycles, seam_by_inference, seam_by_numbers};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use strands::{dynamic_reach, layers};

/// Points per edge for the numeric seam check.
const EDGE_SAMPLES: usize = 64;
/// Grid side for the density range check and the strand estimate.
const DENSITY_GRID: usize = 32;

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

/// Validates `graph`, waiting for every picture it reads to decode.
#[must_use]
pub fn validate(graph: &MaterialGraph) -> Report {
    validate_with(graph, true)
}

/// Validates `graph` without waiting for a picture to decode: one not yet decoded is
/// reported as reading while it decodes on a thread of its own, and validating again
/// once [`crate::images::reads_finished`] moves tells the rest (for the editor's UI
/// thread, which must never block on a file).
#[must_use]
pub fn validate_without_waiting(graph: &MaterialGraph) -> Report {
    validate_with(graph, false)
}

fn validate_with(graph: &MaterialGraph, wait: bool) -> Report {
    let mut diags = Vec::new();
    structure(graph, &mut diags);
    let (periods, cyclic) = infer_periods(graph, wait);
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
    reads(graph, wait, &mut diags);
    let evaluator = if wait {
        Evaluator::new(graph)
    } else {
        Evaluator::new(graph).without_waiting_for_pictures()
    };
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

/// Every file a node reads that cannot be read (or is not chosen), and every strand
/// layer a node reads that the material does not have (each as evaluation reports it,
/// which validation does not run for strand readers: it would scatter).
fn reads(graph: &MaterialGraph, wait: bool, diags: &mut Vec<Diagnostic>) {
    for node in &graph.nodes {
        let Some(kind) = node.kind() else { continue };
        let params = node.params();
        if let Some(path) = kind.file(&params)
            && let Err(e) = crate::images::open_with(graph, path, wait)
        {
            diags.push(crate::images::problem(node, path, &e));
        }
        if let Some(layer) = kind.strand_layer(&params)
            && !graph.strands.contains_key(layer)
        {
            let missing = crate::ScatterError::UnknownLayer(layer.to_owned());
            diags.push(crate::scatter::reading_layer(node, &missing));
        }
    }
}

/// The inferred period of every node output, by `(node, output index)`.
#[must_use]
pub fn periods(graph: &MaterialGraph) -> HashMap<(NodeId, usize), Period> {
    infer_periods(graph, true).0
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
    diags.extend(limits::graph_problems(graph));
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
    for problem in kind.limits(&node.params()) {
        diags.push(
            Diagnostic::error(Code::Limit, format!("{}: {problem}", node.label())).at(node.id),
        );
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
                    if let Some(ty) = ty.filter(|t| !t.accepts(from_ty)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::StrandLayer;
    use crate::link::{InRef, OutRef};
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

    #[test]
    fn a_relief_of_a_layer_the_material_lacks_is_an_error_as_evaluation_reports_it() {
        // Regression: validation never evaluates a strand reader (it would scatter), so
        // a relief of a renamed-away layer validated clean and the bake reported it.
        let mut g = MaterialGraph::new("relief");
        g.strands.insert("grass".into(), StrandLayer::default());
        let relief = g.add_node("StrandRelief").unwrap();
        g.node_mut(relief)
            .unwrap()
            .params
            .insert("layer".into(), ParamValue::Text("gras".into()));
        sink(&mut g, relief, "height", Sink::Pbr("height".into()));
        let found = errors(&validate(&g), Code::BadParam)
            .into_iter()
            .cloned()
            .collect::<Vec<_>>();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].node, Some(relief));
        assert!(found[0].message.contains("no strand layer \"gras\""));
        // Evaluation finds the same, so the editor shows it once.
        let ev = Evaluator::new(&g);
        let _ = ev.eval_output(&OutRef::new(relief, "height"), &crate::Domain::grid(4, 4));
        assert_eq!(ev.diagnostics(), found);
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
        let budget = errors(&r, Code::Budget);
        assert!(
            budget
                .iter()
                .any(|d| d.message.contains("strands.lots") && d.message.contains("4194304")),
            "{:#?}",
            r.diagnostics
        );
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
