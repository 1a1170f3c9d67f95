//! Strand sets and reliefs kept across evaluators, keyed by what they are made of.
//!
//! A layer's set depends only on the layer's settings, the repeat size and the nodes
//! upstream of its ports (with the settings and upstream of any layer whose relief those
//! nodes read). [`LayerKey`] is exactly that, so an edit elsewhere in the graph — a colour
//! of the surface, another layer — finds the set it would scatter already made, and two
//! workers evaluating the same graph (the preview and the thumbnails) scatter it once.
//!
//! ```
//! use std::sync::Arc;
//! use tuft_graph::cache::SetCache;
//! use tuft_graph::{Evaluator, MaterialGraph, StrandLayer};
//!
//! let mut graph = MaterialGraph::new("demo");
//! graph.strands.insert("grass".into(), StrandLayer { lattice: 64, ..Default::default() });
//! let cache = Arc::new(SetCache::default());
//! let first = Evaluator::with_cache(&graph, cache.clone()).strand_set("grass").unwrap();
//! graph.name = "renamed".into(); // nothing the layer reads
//! let again = Evaluator::with_cache(&graph, cache).strand_set("grass").unwrap();
//! assert!(Arc::ptr_eq(&first, &again));
//! ```

use crate::field::Outputs;
use crate::graph::{MaterialGraph, Node};
use crate::layer::StrandLayer;
use crate::link::{Input, NodeId, OutRef};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tuft_strands::StrandSet;
use tuft_strands::par::lock;
use tuft_strands::relief::Relief;

/// Entries kept: a few graphs' worth of layers (a set is tens of megabytes).
const CAPACITY: usize = 8;

/// What a layer's set is made of: equal keys give bit-identical sets.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerKey {
    repeat_m: f32,
    /// The layer itself and every layer whose relief its fields read, by name.
    layers: BTreeMap<String, StrandLayer>,
    /// Every node upstream of those layers' ports, by id.
    nodes: BTreeMap<NodeId, Node>,
}

impl LayerKey {
    /// The key of layer `name` of `graph`; `None` when there is no such layer.
    #[must_use]
    pub fn of(graph: &MaterialGraph, name: &str) -> Option<Self> {
        graph.strands.get(name)?;
        let mut key = Self {
            repeat_m: graph.repeat_m,
            layers: BTreeMap::new(),
            nodes: BTreeMap::new(),
        };
        upstream(
            graph,
            vec![name.to_owned()],
            Vec::new(),
            &mut key.layers,
            &mut key.nodes,
        );
        Some(key)
    }
}

/// Adds to `layers` and `nodes` the layers in `layers_to_visit` and the nodes in `stack`,
/// and everything upstream of them: each layer's ports, each node's inputs, and every
/// layer a node reads (the relief splat reads all of it).
fn upstream(
    graph: &MaterialGraph,
    mut layers_to_visit: Vec<String>,
    mut stack: Vec<NodeId>,
    layers: &mut BTreeMap<String, StrandLayer>,
    nodes: &mut BTreeMap<NodeId, Node>,
) {
    let index = graph.index();
    loop {
        while let Some(id) = stack.pop() {
            if nodes.contains_key(&id) {
                continue;
            }
            let Some(node) = index.get(&id).map(|&i| &graph.nodes[i]) else {
                continue;
            };
            stack.extend(
                node.inputs
                    .values()
                    .filter_map(|i| i.link().map(|l| l.node)),
            );
            if let Some(other) = node.kind().and_then(|k| k.strand_layer(&node.params())) {
                layers_to_visit.push(other.to_owned());
            }
            nodes.insert(id, node.clone());
        }
        let Some(name) = layers_to_visit.pop() else {
            return;
        };
        if layers.contains_key(&name) {
            continue;
        }
        let Some(layer) = graph.strands.get(&name) else {
            continue;
        };
        stack.extend(
            layer
                .ports()
                .iter()
                .filter_map(|(_, input)| input.link().map(|l| l.node)),
        );
        layers.insert(name, layer.clone());
    }
}

/// What one part of a layer's scatter is made of: the layer settings it reads, the
/// inputs it follows and everything upstream of them. Equal keys give bit-identical
/// parts, so an edit to one port of a layer (a grass height) scatters the layer again
/// from the roots and the other ports' fields an earlier scatter left.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PartKey {
    repeat_m: f32,
    settings: Vec<u64>,
    inputs: Vec<Input>,
    layers: BTreeMap<String, StrandLayer>,
    nodes: BTreeMap<NodeId, Node>,
}

impl PartKey {
    /// The key of a part reading layer settings `settings` and `inputs`.
    pub(crate) fn of(graph: &MaterialGraph, settings: Vec<u64>, inputs: Vec<Input>) -> Self {
        let mut key = Self {
            repeat_m: graph.repeat_m,
            settings,
            inputs,
            layers: BTreeMap::new(),
            nodes: BTreeMap::new(),
        };
        let stack = key
            .inputs
            .iter()
            .filter_map(|i| i.link().map(|l| l.node))
            .collect();
        upstream(graph, Vec::new(), stack, &mut key.layers, &mut key.nodes);
        key
    }
}

/// A node's outputs at a layer's roots: the roots' key, and the node's own (the outputs
/// wanted of it, the node and everything upstream of it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NodeKey {
    roots: PartKey,
    node: PartKey,
}

impl NodeKey {
    /// The key of outputs `ports` of node `node` of `graph` at the roots made of `roots`.
    pub(crate) fn of(graph: &MaterialGraph, roots: &PartKey, node: NodeId, ports: &[&str]) -> Self {
        let wanted = ports
            .iter()
            .map(|port| Input::Link(OutRef::new(node, port)))
            .collect();
        Self {
            roots: roots.clone(),
            node: PartKey::of(graph, Vec::new(), wanted),
        }
    }
}

/// Where a pass over the graph keeps its nodes' outputs for later evaluators: the shared
/// cache, and the key of the points it evaluates at (a layer's roots). An edit then
/// evaluates again only the nodes it reached; the rest of each port's chain is found.
#[derive(Clone, Copy)]
pub struct KeptOutputs<'a> {
    pub(crate) cache: &'a SetCache,
    pub(crate) at: &'a PartKey,
}

/// Parts kept: a few layers' roots, and the outputs of a few layers' port nodes.
const PART_CAPACITY: usize = 8;
const OUTPUTS_CAPACITY: usize = 48;

/// Parts of scatters ([`PartKey`]), least recently used first.
#[derive(Default)]
struct Parts {
    /// What a scatter keeps of a layer's density cut (its survivors), as the scatter
    /// types it: the cache holds it without knowing the scatter.
    survivors: Vec<(PartKey, Arc<dyn Any + Send + Sync>)>,
    outputs: Vec<(NodeKey, Outputs)>,
    /// Parts found kept, of either kind.
    hits: u64,
}

/// The value kept under `key`, moved to the back (most recently used).
fn take_recent<K: PartialEq, V: Clone>(list: &mut Vec<(K, V)>, key: &K) -> Option<V> {
    let k = list.iter().position(|(held, _)| held == key)?;
    let entry = list.remove(k);
    let value = entry.1.clone();
    list.push(entry);
    Some(value)
}

/// Keeps `value` under `key`, letting the least recently used go past `capacity`.
fn keep<K: PartialEq, V>(list: &mut Vec<(K, V)>, key: K, value: V, capacity: usize) {
    list.retain(|(held, _)| *held != key);
    if list.len() >= capacity {
        list.remove(0);
    }
    list.push((key, value));
}

/// A kept set and, once splatted, its relief.
#[derive(Clone)]
struct Kept {
    set: Arc<StrandSet>,
    relief: Option<Arc<Relief>>,
}

/// Sets and reliefs shared by evaluators ([`crate::Evaluator::with_cache`]); the least
/// recently used go first.
#[derive(Default)]
pub struct SetCache {
    entries: Mutex<Vec<(LayerKey, Kept)>>,
    parts: Mutex<Parts>,
}

impl std::fmt::Debug for SetCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetCache")
            .field("entries", &self.lock().len())
            .finish()
    }
}

impl SetCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(LayerKey, Kept)>> {
        lock(&self.entries)
    }

    /// The set made of `key`, if it is kept.
    #[must_use]
    pub fn set(&self, key: &LayerKey) -> Option<Arc<StrandSet>> {
        take_recent(&mut self.lock(), key).map(|k| k.set)
    }

    /// The relief of the set made of `key`, if it is kept.
    #[must_use]
    pub fn relief(&self, key: &LayerKey) -> Option<Arc<Relief>> {
        take_recent(&mut self.lock(), key).and_then(|k| k.relief)
    }

    /// Keeps `set` as the one made of `key`.
    pub fn insert_set(&self, key: LayerKey, set: Arc<StrandSet>) {
        keep(&mut self.lock(), key, Kept { set, relief: None }, CAPACITY);
    }

    /// Keeps `relief` beside the set made of `key` (if that set is still kept).
    pub fn insert_relief(&self, key: &LayerKey, relief: Arc<Relief>) {
        if let Some((_, kept)) = self.lock().iter_mut().find(|(k, _)| k == key) {
            kept.relief = Some(relief);
        }
    }

    /// The survivors of a layer's density cut in rank order, made of `key`, if kept (as
    /// the type the scatter kept them as).
    pub(crate) fn survivors<T: Any + Send + Sync>(&self, key: &PartKey) -> Option<Arc<T>> {
        let mut parts = lock(&self.parts);
        let kept = take_recent(&mut parts.survivors, key)?;
        let kept = kept.downcast::<T>().ok();
        parts.hits += u64::from(kept.is_some());
        kept
    }

    /// Keeps `survivors` as the ones made of `key`.
    pub(crate) fn insert_survivors<T: Any + Send + Sync>(&self, key: PartKey, survivors: Arc<T>) {
        keep(
            &mut lock(&self.parts).survivors,
            key,
            survivors,
            PART_CAPACITY,
        );
    }

    /// A node's outputs made of `key`, if kept.
    pub(crate) fn outputs(&self, key: &NodeKey) -> Option<Outputs> {
        let mut parts = lock(&self.parts);
        let kept = take_recent(&mut parts.outputs, key);
        parts.hits += u64::from(kept.is_some());
        kept
    }

    /// Keeps `outputs` as the ones made of `key`.
    pub(crate) fn insert_outputs(&self, key: NodeKey, outputs: Outputs) {
        keep(
            &mut lock(&self.parts).outputs,
            key,
            outputs,
            OUTPUTS_CAPACITY,
        );
    }

    /// How many sets are kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{InRef, OutRef, Sink};
    use crate::{Evaluator, ParamValue};

    /// A graph with two layers: `grass` reads a noise for its length, `moss` reads the
    /// grass's relief for its density; the surface reads a second noise.
    fn graph() -> MaterialGraph {
        let mut g = MaterialGraph::new("cache");
        for name in ["grass", "moss"] {
            g.strands.insert(
                name.into(),
                StrandLayer {
                    lattice: 48,
                    ..Default::default()
                },
            );
        }
        let length = g.add_node("Noise").expect("registered");
        let relief = g.add_node("StrandRelief").expect("registered");
        g.node_mut(relief)
            .expect("added")
            .params
            .insert("layer".into(), ParamValue::Text("grass".into()));
        let surface = g.add_node("Noise").expect("registered");
        let sink = |layer: &str, port: &str| {
            InRef::Sink(Sink::Strand {
                layer: layer.into(),
                port: port.into(),
            })
        };
        g.connect(OutRef::new(length, "out"), &sink("grass", "length"))
            .expect("well typed");
        g.connect(OutRef::new(relief, "coverage"), &sink("moss", "density"))
            .expect("well typed");
        g.connect(
            OutRef::new(surface, "out"),
            &InRef::Sink(Sink::Pbr("roughness".into())),
        )
        .expect("well typed");
        g
    }

    fn set_param(g: &mut MaterialGraph, nth_noise: usize, value: i64) {
        let id = g
            .nodes
            .iter()
            .filter(|n| n.kind == "Noise")
            .nth(nth_noise)
            .expect("two noises")
            .id;
        g.node_mut(id)
            .expect("exists")
            .params
            .insert("seed".into(), ParamValue::Int(value));
    }

    #[test]
    fn a_key_follows_exactly_what_the_layer_reads() {
        let g = graph();
        let grass = LayerKey::of(&g, "grass").expect("a layer");
        let moss = LayerKey::of(&g, "moss").expect("a layer");
        assert!(LayerKey::of(&g, "hay").is_none());
        // The surface's noise feeds no layer.
        let mut surface_edit = g.clone();
        set_param(&mut surface_edit, 1, 99);
        assert_eq!(LayerKey::of(&surface_edit, "grass").as_ref(), Some(&grass));
        assert_eq!(LayerKey::of(&surface_edit, "moss").as_ref(), Some(&moss));
        // The grass's length noise feeds the grass, and the moss through its relief.
        let mut grass_edit = g.clone();
        set_param(&mut grass_edit, 0, 99);
        assert_ne!(LayerKey::of(&grass_edit, "grass").as_ref(), Some(&grass));
        assert_ne!(LayerKey::of(&grass_edit, "moss").as_ref(), Some(&moss));
        // A setting of the moss changes only the moss.
        let mut moss_edit = g.clone();
        moss_edit.strands.get_mut("moss").expect("a layer").tip_pull = 0.9;
        assert_eq!(LayerKey::of(&moss_edit, "grass").as_ref(), Some(&grass));
        assert_ne!(LayerKey::of(&moss_edit, "moss").as_ref(), Some(&moss));
    }

    #[test]
    fn a_cached_set_is_the_set_a_fresh_scatter_makes() {
        let cache = Arc::new(SetCache::default());
        let g = graph();
        let first = Evaluator::with_cache(&g, cache.clone())
            .strand_set("moss")
            .expect("scatters");
        // The moss and the grass (for the moss's relief) are kept.
        assert_eq!(cache.len(), 2);
        let mut edited = g.clone();
        set_param(&mut edited, 1, 7);
        let again = Evaluator::with_cache(&edited, cache.clone())
            .strand_set("moss")
            .expect("scatters");
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(
            *again,
            *Evaluator::new(&edited)
                .strand_set("moss")
                .expect("scatters")
        );
        // An edit the moss reads scatters anew.
        set_param(&mut edited, 0, 7);
        let changed = Evaluator::with_cache(&edited, cache.clone())
            .strand_set("moss")
            .expect("scatters");
        assert!(!Arc::ptr_eq(&first, &changed));
        assert_eq!(
            *changed,
            *Evaluator::new(&edited)
                .strand_set("moss")
                .expect("scatters")
        );
    }

    #[test]
    fn an_edit_to_one_port_scatters_from_the_kept_roots_and_nodes() {
        let cache = Arc::new(SetCache::default());
        let kept = |c: &SetCache| {
            let parts = lock(&c.parts);
            (parts.survivors.len(), parts.outputs.len(), parts.hits)
        };
        // The grass's length is its noise times a Parameter.
        let mut g = graph();
        let noise = g.nodes.iter().find(|n| n.kind == "Noise").unwrap().id;
        let height = g.add_node("Parameter").expect("registered");
        let times = g.add_node("Math").expect("registered");
        for (key, value) in [("op", "mul"), ("type", "float")] {
            g.node_mut(times)
                .unwrap()
                .params
                .insert(key.into(), ParamValue::Choice(value.into()));
        }
        g.connect(
            OutRef::new(noise, "out"),
            &InRef::Node {
                node: times,
                port: "a".into(),
            },
        )
        .expect("well typed");
        g.connect(
            OutRef::new(height, "out"),
            &InRef::Node {
                node: times,
                port: "b".into(),
            },
        )
        .expect("well typed");
        g.connect(
            OutRef::new(times, "out"),
            &InRef::Sink(Sink::Strand {
                layer: "grass".into(),
                port: "length".into(),
            }),
        )
        .expect("well typed");
        let _ = Evaluator::with_cache(&g, cache.clone())
            .strand_set("moss")
            .expect("scatters");
        // The grass (for the moss's relief) and the moss: two roots, and the grass's
        // three length nodes (every other port is a constant).
        assert_eq!(kept(&cache), (2, 3, 0));
        // A new height: the grass's roots and its noise are found, the Parameter and
        // the multiply evaluated again, and the set is the one a fresh scatter makes.
        let mut edited = g.clone();
        edited
            .node_mut(height)
            .unwrap()
            .params
            .insert("value".into(), ParamValue::Float(0.8));
        let fresh = |name: &str| Evaluator::new(&edited).strand_set(name).expect("scatters");
        let grass = Evaluator::with_cache(&edited, cache.clone())
            .strand_set("grass")
            .expect("scatters");
        assert_eq!(*grass, *fresh("grass"));
        assert!(
            grass.length != Evaluator::new(&g).strand_set("grass").unwrap().length,
            "the height reaches the lengths"
        );
        assert_eq!(
            kept(&cache),
            (2, 5, 2),
            "the roots and the noise were found"
        );
        // The moss's density reads the grass's relief: its roots are cut anew.
        let moss = Evaluator::with_cache(&edited, cache.clone())
            .strand_set("moss")
            .expect("scatters");
        assert_eq!(*moss, *fresh("moss"));
        assert_eq!(kept(&cache).0, 3);
    }

    #[test]
    fn the_cache_keeps_a_bounded_number_of_sets() {
        let cache = Arc::new(SetCache::default());
        let mut g = graph();
        for seed in 0..(CAPACITY as i64 + 4) {
            set_param(&mut g, 0, seed);
            let _ = Evaluator::with_cache(&g, cache.clone()).strand_set("grass");
        }
        assert_eq!(cache.len(), CAPACITY);
    }
}
