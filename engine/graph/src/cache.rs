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

use crate::eval::lock;
use crate::graph::{MaterialGraph, Node, NodeId};
use crate::layer::StrandLayer;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use tuft_strands::StrandSet;
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
        let index = graph.index();
        let mut key = Self {
            repeat_m: graph.repeat_m,
            layers: BTreeMap::new(),
            nodes: BTreeMap::new(),
        };
        let mut layers_to_visit = vec![name.to_owned()];
        let mut seen_layers = BTreeSet::new();
        while let Some(layer_name) = layers_to_visit.pop() {
            if !seen_layers.insert(layer_name.clone()) {
                continue;
            }
            let Some(layer) = graph.strands.get(&layer_name) else {
                if layer_name == name {
                    return None;
                }
                continue;
            };
            key.layers.insert(layer_name, layer.clone());
            let mut stack: Vec<NodeId> = layer
                .ports()
                .iter()
                .filter_map(|(_, input)| input.link().map(|l| l.node))
                .collect();
            while let Some(id) = stack.pop() {
                if key.nodes.contains_key(&id) {
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
                // A node that reads a layer (the relief splat) reads all of it.
                if let Some(other) = node.kind().and_then(|k| k.strand_layer(&node.params())) {
                    layers_to_visit.push(other.to_owned());
                }
                key.nodes.insert(id, node.clone());
            }
        }
        Some(key)
    }
}

struct Entry {
    key: LayerKey,
    set: Arc<StrandSet>,
    relief: Option<Arc<Relief>>,
}

/// Sets and reliefs shared by evaluators ([`crate::Evaluator::with_cache`]); the least
/// recently used go first.
#[derive(Default)]
pub struct SetCache {
    entries: Mutex<Vec<Entry>>,
}

impl std::fmt::Debug for SetCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetCache")
            .field("entries", &self.lock().len())
            .finish()
    }
}

impl SetCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        lock(&self.entries)
    }

    /// The entry for `key`, moved to the back (most recently used).
    fn touch<T>(&self, key: &LayerKey, read: impl FnOnce(&Entry) -> Option<T>) -> Option<T> {
        let mut entries = self.lock();
        let k = entries.iter().position(|e| e.key == *key)?;
        let entry = entries.remove(k);
        let out = read(&entry);
        entries.push(entry);
        out
    }

    /// The set made of `key`, if it is kept.
    #[must_use]
    pub fn set(&self, key: &LayerKey) -> Option<Arc<StrandSet>> {
        self.touch(key, |e| Some(e.set.clone()))
    }

    /// The relief of the set made of `key`, if it is kept.
    #[must_use]
    pub fn relief(&self, key: &LayerKey) -> Option<Arc<Relief>> {
        self.touch(key, |e| e.relief.clone())
    }

    /// Keeps `set` as the one made of `key`.
    pub fn insert_set(&self, key: LayerKey, set: Arc<StrandSet>) {
        let mut entries = self.lock();
        entries.retain(|e| e.key != key);
        if entries.len() >= CAPACITY {
            entries.remove(0);
        }
        entries.push(Entry {
            key,
            set,
            relief: None,
        });
    }

    /// Keeps `relief` beside the set made of `key` (if that set is still kept).
    pub fn insert_relief(&self, key: &LayerKey, relief: Arc<Relief>) {
        if let Some(e) = self.lock().iter_mut().find(|e| e.key == *key) {
            e.relief = Some(relief);
        }
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
    use crate::graph::{InRef, OutRef, Sink};
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
