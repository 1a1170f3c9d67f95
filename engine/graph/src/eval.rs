//! CPU evaluation of the graph's fields, in parallel, on grids or at arbitrary points.
//!
//! Evaluation never stops at a broken node: a node that cannot be evaluated (unknown
//! kind, dangling link, wrong type, NaN) yields zeros and a diagnostic, and everything
//! that does not depend on it evaluates as authored.

use crate::cache::{KeptOutputs, LayerKey, NodeKey, SetCache};
use crate::diag::{Code, Diagnostic};
use crate::field::Outputs;
use crate::field::{Domain, Field};
pub use crate::field::{FIELD_RESOLUTION, InputRef};
use crate::graph::{MaterialGraph, Node};
use crate::link::{Input, NodeId, OutRef};
pub use crate::node::NodeCtx;
use crate::node::{Access, NodeContext, PortDesc};
use crate::picture::Picture;
use crate::scatter::{PortFields, ScatterError, scatter_layer};
use crate::value::{PortType, Value};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tuft_strands::StrandSet;
use tuft_strands::relief::Relief;

/// How deep sampled inputs may nest (a warp of a warp of …) before evaluation gives up.
const MAX_DEPTH: usize = 12;

/// What feeds one input port, as a node sees it while evaluating.
enum Source {
    Const(Value),
    Field(Outputs, usize),
    /// A field converted for the port (a Float read as a grey Color).
    Owned(Field),
    /// Not evaluated at the node's points: the node samples it where it needs.
    Lazy(Input),
}

/// What a node sees while it evaluates ([`NodeContext`]), as this evaluator gives it.
struct EvalCtx<'a> {
    node: &'a Node,
    domain: &'a Domain,
    ports: Vec<PortDesc>,
    sources: Vec<Source>,
    evaluator: &'a Evaluator<'a>,
    depth: usize,
    wants: &'a [bool],
}

impl NodeContext for EvalCtx<'_> {
    fn domain(&self) -> &Domain {
        self.domain
    }

    fn wants(&self, k: usize) -> bool {
        self.wants.get(k).copied().unwrap_or(true)
    }

    fn repeat_m(&self) -> f32 {
        self.evaluator.graph.repeat_m
    }

    fn id(&self) -> NodeId {
        self.node.id
    }

    fn input(&self, i: usize) -> InputRef<'_> {
        match &self.sources[i] {
            Source::Const(v) => InputRef::Const(v.channels()),
            Source::Field(outs, k) => InputRef::Field(&outs[*k]),
            Source::Owned(f) => InputRef::Field(f),
            Source::Lazy(_) => panic!(
                "{} reads sampled port {} point by point",
                self.node.kind, self.ports[i].name
            ),
        }
    }

    fn sample(&self, i: usize, domain: &Domain) -> Field {
        let ty = self.ports[i].ty;
        match &self.sources[i] {
            Source::Lazy(input) => {
                self.evaluator
                    .eval_input(input, ty, domain, self.depth + 1, self.node)
            }
            Source::Const(v) => Field::constant(*v, domain.len()),
            Source::Field(outs, k) => Field::clone(&outs[*k]),
            Source::Owned(f) => f.clone(),
        }
    }

    fn raster(&self, i: usize) -> Arc<Field> {
        let mut make = || self.sample(i, &Domain::grid(FIELD_RESOLUTION, FIELD_RESOLUTION));
        self.cached_field(self.ports[i].name, &mut make)
    }

    fn cached_field(&self, key: &str, make: &mut dyn FnMut() -> Field) -> Arc<Field> {
        let cache_key = (self.node.id, key.to_owned());
        if let Some(hit) = lock(&self.evaluator.cache).get(&cache_key) {
            return hit.clone();
        }
        let made = Arc::new(make());
        lock(&self.evaluator.cache).insert(cache_key, made.clone());
        made
    }

    fn relief(&self, layer: &str) -> Option<Arc<Relief>> {
        match self.evaluator.relief(layer) {
            Ok(r) => Some(r),
            Err(e) => {
                self.evaluator
                    .report(crate::scatter::reading_layer(self.node, &e));
                None
            }
        }
    }

    fn picture(&self, path: &str) -> Option<Arc<Picture>> {
        match crate::images::open_with(self.evaluator.graph, path, self.evaluator.wait_for_pictures)
        {
            Ok(p) => Some(p),
            Err(e) => {
                self.evaluator
                    .report(crate::images::problem(self.node, path, &e));
                None
            }
        }
    }

    fn warn_message(&self, message: String) {
        self.evaluator
            .report(Diagnostic::warning(Code::BadParam, message).at(self.node.id));
    }
}

pub(crate) use tuft_strands::par::lock;

/// Evaluates one graph. Keep it alive across several evaluations of the same graph to
/// reuse rasterised filter inputs.
pub struct Evaluator<'g> {
    graph: &'g MaterialGraph,
    index: HashMap<NodeId, usize>,
    cache: Mutex<HashMap<(NodeId, String), Arc<Field>>>,
    sets: Mutex<HashMap<String, Arc<StrandSet>>>,
    reliefs: Mutex<HashMap<String, Arc<Relief>>>,
    scattering: Mutex<HashSet<String>>,
    diagnostics: Mutex<Vec<Diagnostic>>,
    shared: Option<Arc<SetCache>>,
    /// Whether a picture not yet decoded is waited for (`false`: it reads as zero and
    /// is reported as reading while it decodes on a thread of its own).
    wait_for_pictures: bool,
}

/// The value a constant input holds at every point as a `ty` port: itself where it is
/// of that type and finite, zero otherwise; `None` for a link.
#[must_use]
pub fn constant(input: &Input, ty: PortType) -> Option<Value> {
    match input {
        Input::Const(v) if v.ty() == ty && v.is_finite() => Some(*v),
        Input::Const(_) => Some(ty.zero()),
        Input::Link(_) => None,
    }
}

impl<'g> Evaluator<'g> {
    /// An evaluator for `graph`.
    #[must_use]
    pub fn new(graph: &'g MaterialGraph) -> Self {
        Self {
            graph,
            index: graph.index(),
            cache: Mutex::new(HashMap::new()),
            sets: Mutex::new(HashMap::new()),
            reliefs: Mutex::new(HashMap::new()),
            scattering: Mutex::new(HashSet::new()),
            diagnostics: Mutex::new(Vec::new()),
            shared: None,
            wait_for_pictures: true,
        }
    }

    /// This evaluator, never waiting for a picture to decode: one not yet decoded reads
    /// as zero, reported as reading, while it decodes on a thread of its own (for a
    /// thread that must not block, the editor's UI thread).
    #[must_use]
    pub fn without_waiting_for_pictures(mut self) -> Self {
        self.wait_for_pictures = false;
        self
    }

    /// Whether this evaluator waits for pictures to decode.
    #[must_use]
    pub fn waits_for_pictures(&self) -> bool {
        self.wait_for_pictures
    }

    /// An evaluator for `graph` that takes strand sets and reliefs from `cache` when
    /// their layer reads nothing that changed, and leaves there the ones it makes.
    /// Diagnostics of a scatter it did not run are not repeated.
    #[must_use]
    pub fn with_cache(graph: &'g MaterialGraph, cache: Arc<SetCache>) -> Self {
        Self {
            shared: Some(cache),
            ..Self::new(graph)
        }
    }

    /// The graph being evaluated.
    #[must_use]
    pub fn graph(&self) -> &'g MaterialGraph {
        self.graph
    }

    /// The strand set of layer `name`, scattered once per evaluator.
    ///
    /// # Errors
    /// An unknown layer, settings out of range, or a layer that reads its own relief.
    pub fn strand_set(&self, name: &str) -> Result<Arc<StrandSet>, ScatterError> {
        if let Some(set) = lock(&self.sets).get(name) {
            return Ok(set.clone());
        }
        let key = self.shared_key(name);
        if let Some((cache, key)) = &key
            && let Some(set) = cache.set(key)
        {
            lock(&self.sets).insert(name.to_owned(), set.clone());
            return Ok(set);
        }
        if !lock(&self.scattering).insert(name.to_owned()) {
            return Err(ScatterError::Recursive(name.to_owned()));
        }
        let result = scatter_layer(self, name);
        lock(&self.scattering).remove(name);
        let set = Arc::new(result?);
        lock(&self.sets).insert(name.to_owned(), set.clone());
        if let Some((cache, key)) = key {
            cache.insert_set(key, set.clone());
        }
        Ok(set)
    }

    /// The shared cache and layer `name`'s key in it, when there is a cache.
    fn shared_key(&self, name: &str) -> Option<(&SetCache, LayerKey)> {
        let cache = self.shared.as_deref()?;
        Some((cache, LayerKey::of(self.graph, name)?))
    }

    /// The relief of layer `name` at [`FIELD_RESOLUTION`]², splatted once per evaluator.
    ///
    /// # Errors
    /// As [`Self::strand_set`].
    pub fn relief(&self, name: &str) -> Result<Arc<Relief>, ScatterError> {
        if let Some(r) = lock(&self.reliefs).get(name) {
            return Ok(r.clone());
        }
        let key = self.shared_key(name);
        if let Some((cache, key)) = &key
            && let Some(relief) = cache.relief(key)
        {
            lock(&self.reliefs).insert(name.to_owned(), relief.clone());
            return Ok(relief);
        }
        let set = self.strand_set(name)?;
        let relief = Arc::new(tuft_strands::relief::splat(
            &set,
            self.graph.repeat_m,
            FIELD_RESOLUTION,
        ));
        lock(&self.reliefs).insert(name.to_owned(), relief.clone());
        if let Some((cache, key)) = &key {
            cache.insert_relief(key, relief.clone());
        }
        Ok(relief)
    }

    /// What evaluation found so far (deduplicated).
    #[must_use]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        lock(&self.diagnostics).clone()
    }

    fn report(&self, d: Diagnostic) {
        let mut all = lock(&self.diagnostics);
        if !all.contains(&d) {
            all.push(d);
        }
    }

    /// Evaluates what feeds each `(input, type)` at the points of `domain`; a constant
    /// becomes a constant field. All inputs share one pass over the graph.
    #[must_use]
    pub fn eval_inputs(&self, inputs: &[(Input, PortType)], domain: &Domain) -> Vec<Field> {
        self.eval_inputs_at_depth(inputs, domain, 0, None)
            .into_iter()
            .map(Arc::unwrap_or_clone)
            .collect()
    }

    /// As [`Self::eval_inputs`], each node's outputs taken from `kept` where an earlier
    /// evaluator left them at the same points, and left there otherwise.
    pub(crate) fn eval_inputs_kept(
        &self,
        inputs: &[(Input, PortType)],
        domain: &Domain,
        kept: KeptOutputs<'_>,
    ) -> Vec<Arc<Field>> {
        self.eval_inputs_at_depth(inputs, domain, 0, Some(kept))
    }

    /// Evaluates output `out` at the points of `domain`.
    #[must_use]
    pub fn eval_output(&self, out: &OutRef, domain: &Domain) -> Option<Field> {
        let ty = self.graph.output_type(out)?;
        let mut fields = self.eval_inputs(&[(Input::Link(out.clone()), ty)], domain);
        fields.pop()
    }

    fn eval_input(
        &self,
        input: &Input,
        ty: PortType,
        domain: &Domain,
        depth: usize,
        reader: &Node,
    ) -> Field {
        if depth > MAX_DEPTH {
            self.report(
                Diagnostic::error(
                    Code::Cycle,
                    format!(
                        "{} samples its input through more than {MAX_DEPTH} nested filters \
                         (or a loop); it reads zero",
                        reader.label()
                    ),
                )
                .at(reader.id),
            );
            return Field::constant(ty.zero(), domain.len());
        }
        self.eval_inputs_at_depth(&[(input.clone(), ty)], domain, depth, None)
            .pop()
            .map_or_else(
                || Field::constant(ty.zero(), domain.len()),
                Arc::unwrap_or_clone,
            )
    }

    fn eval_inputs_at_depth(
        &self,
        inputs: &[(Input, PortType)],
        domain: &Domain,
        depth: usize,
        kept: Option<KeptOutputs<'_>>,
    ) -> Vec<Arc<Field>> {
        let roots: Vec<&OutRef> = inputs.iter().filter_map(|(i, _)| i.link()).collect();
        let results = self.run(&roots, domain, depth, kept);
        inputs
            .iter()
            .map(|(input, ty)| match self.resolve(input, *ty, &results) {
                Source::Const(v) => Arc::new(Field::constant(v, domain.len())),
                Source::Field(outs, k) => outs[k].clone(),
                Source::Owned(f) => Arc::new(f),
                Source::Lazy(_) => unreachable!("resolve never defers"),
            })
            .collect()
    }

    /// Evaluates every node upstream of `roots` (through point-access links) in
    /// dependency order, taking from `kept` what it holds.
    fn run(
        &self,
        roots: &[&OutRef],
        domain: &Domain,
        depth: usize,
        kept: Option<KeptOutputs<'_>>,
    ) -> HashMap<NodeId, Outputs> {
        let root_ids: Vec<NodeId> = roots.iter().map(|l| l.node).collect();
        let order = self.order(&root_ids);
        // Which outputs anything in this pass reads, so a node may skip the others.
        let mut wanted: HashSet<(NodeId, &str)> =
            roots.iter().map(|l| (l.node, l.port.as_str())).collect();
        for &idx in &order {
            let node = &self.graph.nodes[idx];
            for port in node.input_ports() {
                if port.access == Access::Point
                    && let Some(l) = node.inputs.get(port.name).and_then(Input::link)
                {
                    wanted.insert((l.node, l.port.as_str()));
                }
            }
        }
        let mut results: HashMap<NodeId, Outputs> = HashMap::with_capacity(order.len());
        for idx in order {
            let node = &self.graph.nodes[idx];
            let outs = match kept {
                None => self.eval_node(node, domain, depth, &results, &wanted),
                Some(kept) => {
                    let mut ports: Vec<&str> = wanted
                        .iter()
                        .filter(|(id, _)| *id == node.id)
                        .map(|(_, port)| *port)
                        .collect();
                    ports.sort_unstable();
                    let key = NodeKey::of(self.graph, kept.at, node.id, &ports);
                    kept.cache.outputs(&key).unwrap_or_else(|| {
                        let outs = self.eval_node(node, domain, depth, &results, &wanted);
                        kept.cache.insert_outputs(key, outs.clone());
                        outs
                    })
                }
            };
            results.insert(node.id, outs);
        }
        results
    }

    /// Post-order over point-access links; links closing a cycle are skipped (the
    /// validator reports them).
    fn order(&self, roots: &[NodeId]) -> Vec<usize> {
        let mut visited: HashSet<NodeId> = HashSet::new();
        let mut order = Vec::new();
        for &root in roots {
            let Some(&ri) = self.index.get(&root) else {
                continue;
            };
            if !visited.insert(root) {
                continue;
            }
            // (node index, next dependency to look at, its dependencies)
            let mut stack = vec![(ri, 0, self.point_deps(&self.graph.nodes[ri]))];
            while let Some((idx, next, deps)) = stack.last_mut() {
                if let Some(&dep) = deps.get(*next) {
                    *next += 1;
                    if let Some(&di) = self.index.get(&dep)
                        && visited.insert(dep)
                    {
                        let d = self.point_deps(&self.graph.nodes[di]);
                        stack.push((di, 0, d));
                    }
                } else {
                    order.push(*idx);
                    stack.pop();
                }
            }
        }
        order
    }

    fn point_deps(&self, node: &Node) -> Vec<NodeId> {
        node.input_ports()
            .iter()
            .filter(|p| p.access == Access::Point)
            .filter_map(|p| {
                node.inputs
                    .get(p.name)
                    .and_then(Input::link)
                    .map(|l| l.node)
            })
            .collect()
    }

    /// What feeds `input`, checked against the type `ty` the reader expects.
    fn resolve(&self, input: &Input, ty: PortType, results: &HashMap<NodeId, Outputs>) -> Source {
        match input {
            Input::Const(_) => Source::Const(constant(input, ty).expect("a constant")),
            Input::Link(l) => {
                let Some(outs) = results.get(&l.node) else {
                    return Source::Const(ty.zero());
                };
                let Some(node) = self.index.get(&l.node).map(|&i| &self.graph.nodes[i]) else {
                    return Source::Const(ty.zero());
                };
                let ports = node.output_ports();
                match ports.iter().position(|p| p.name == l.port) {
                    Some(k) if ports[k].ty == ty && k < outs.len() => {
                        Source::Field(outs.clone(), k)
                    }
                    Some(k) if ty.accepts(ports[k].ty) && k < outs.len() => {
                        Source::Owned(outs[k].grey())
                    }
                    _ => Source::Const(ty.zero()),
                }
            }
        }
    }

    fn eval_node(
        &self,
        node: &Node,
        domain: &Domain,
        depth: usize,
        results: &HashMap<NodeId, Outputs>,
        wanted: &HashSet<(NodeId, &str)>,
    ) -> Outputs {
        let Some(kind) = node.kind() else {
            return Arc::from(Vec::new());
        };
        let params = node.params();
        let expected = kind.outputs(&params);
        let beyond = kind.limits(&params);
        if !beyond.is_empty() {
            // The validator's words, so the finding is listed once; the node reads zero.
            for problem in beyond {
                self.report(
                    Diagnostic::error(Code::Limit, format!("{}: {problem}", node.label()))
                        .at(node.id),
                );
            }
            return expected
                .iter()
                .map(|e| Arc::new(Field::constant(e.ty.zero(), domain.len())))
                .collect();
        }
        let wants: Vec<bool> = expected
            .iter()
            .map(|o| wanted.contains(&(node.id, o.name)))
            .collect();
        let ports = kind.inputs(&params);
        let sources = ports
            .iter()
            .map(|p| {
                let input = node.input(p);
                if p.access == Access::Point {
                    self.resolve(&input, p.ty, results)
                } else {
                    Source::Lazy(input)
                }
            })
            .collect();
        let ctx = EvalCtx {
            node,
            domain,
            ports,
            sources,
            evaluator: self,
            depth,
            wants: &wants,
        };
        let mut outs = kind.eval(&params, &ctx);
        // An output nothing reads may come back empty (see `NodeContext::wants`).
        let well_formed = outs.len() == expected.len()
            && outs.iter().zip(&expected).zip(&wants).all(|((f, e), &w)| {
                f.ty == e.ty && (f.len() == domain.len() || (!w && f.is_empty()))
            });
        if !well_formed {
            self.report(
                Diagnostic::error(
                    Code::BadParam,
                    format!(
                        "{} produced malformed outputs; they read as zero",
                        node.label()
                    ),
                )
                .at(node.id),
            );
            outs = expected
                .iter()
                .map(|e| Field::constant(e.ty.zero(), domain.len()))
                .collect();
        }
        for (field, desc) in outs.iter_mut().zip(&expected) {
            let replaced = field.scrub_non_finite();
            if replaced > 0 {
                self.report(
                    Diagnostic::warning(
                        Code::NonFinite,
                        format!(
                            "{}.{} is NaN or infinite at some points (replaced by 0)",
                            node.label(),
                            desc.name
                        ),
                    )
                    .at(node.id),
                );
            }
        }
        outs.into_iter().map(Arc::new).collect()
    }

    /// The set of node ids upstream of `roots` through links of any access.
    #[must_use]
    pub fn upstream(&self, roots: &[NodeId]) -> HashSet<NodeId> {
        let mut seen: HashSet<NodeId> = roots.iter().copied().collect();
        let mut stack: Vec<NodeId> = roots.to_vec();
        while let Some(id) = stack.pop() {
            let Some(&i) = self.index.get(&id) else {
                continue;
            };
            for input in self.graph.nodes[i].inputs.values() {
                if let Some(l) = input.link()
                    && seen.insert(l.node)
                {
                    stack.push(l.node);
                }
            }
        }
        seen
    }
}

impl PortFields for Evaluator<'_> {
    fn graph(&self) -> &MaterialGraph {
        self.graph
    }

    fn shared_cache(&self) -> Option<&SetCache> {
        self.shared.as_deref()
    }

    fn eval_inputs(&self, inputs: &[(Input, PortType)], domain: &Domain) -> Vec<Field> {
        Evaluator::eval_inputs(self, inputs, domain)
    }

    fn eval_inputs_kept(
        &self,
        inputs: &[(Input, PortType)],
        domain: &Domain,
        kept: KeptOutputs<'_>,
    ) -> Vec<Arc<Field>> {
        Evaluator::eval_inputs_kept(self, inputs, domain, kept)
    }
}
