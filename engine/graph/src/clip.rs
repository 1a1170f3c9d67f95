//! Copy and paste: nodes taken out of one document and put into another (or the same)
//! under fresh ids, their links among themselves kept.

use crate::graph::{Input, Node, NodeId};
use crate::io::Document;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Nodes on their way between documents, with where they stood. The clipboard carries it
/// as RON text, so pasting reads whatever text is there: anything that is not a clip is
/// refused by the parser, and a clip's links are checked against the document it lands in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clip {
    /// The nodes, as they were.
    pub nodes: Vec<Node>,
    /// Where each stood.
    #[serde(default)]
    pub layout: Vec<(NodeId, [f32; 2])>,
}

/// The most nodes one paste adds.
pub const MAX_CLIP_NODES: usize = 4096;

impl Document {
    /// The nodes `nodes` (those that exist) with their positions.
    #[must_use]
    pub fn clip(&self, nodes: &[NodeId]) -> Clip {
        Clip {
            nodes: nodes
                .iter()
                .filter_map(|id| self.graph.node(*id).cloned())
                .collect(),
            layout: nodes
                .iter()
                .filter_map(|id| self.layout.get(id).map(|p| (*id, *p)))
                .collect(),
        }
    }

    /// Adds the clip's nodes under fresh ids, `offset` from where they stood. A link
    /// between two clipped nodes joins the two copies; a link from a node outside the
    /// clip is kept when that node is in this document and otherwise falls back to the
    /// port's default. Returns the new ids in the clip's order (empty for a clip over
    /// [`MAX_CLIP_NODES`]).
    pub fn paste(&mut self, clip: &Clip, offset: [f32; 2]) -> Vec<NodeId> {
        if clip.nodes.len() > MAX_CLIP_NODES {
            return Vec::new();
        }
        let mut next = self.graph.fresh_id().0;
        let mut map: HashMap<NodeId, NodeId> = HashMap::new();
        for n in &clip.nodes {
            map.entry(n.id).or_insert_with(|| {
                let id = NodeId(next);
                next = next.saturating_add(1);
                id
            });
        }
        let mut added = Vec::new();
        for node in &clip.nodes {
            let id = map[&node.id];
            if added.contains(&id) {
                continue; // the same id twice in a hand-made clip: the first wins
            }
            let mut copy = node.clone();
            copy.id = id;
            let ports = copy.input_ports();
            let mut inputs = std::mem::take(&mut copy.inputs);
            for (port, input) in &mut inputs {
                if let Input::Link(out) = input {
                    if let Some(new) = map.get(&out.node) {
                        out.node = *new;
                    } else if self.graph.node(out.node).is_none() {
                        *input = match ports.iter().find(|p| p.name == port) {
                            Some(desc) => Input::Const(desc.default),
                            None => continue,
                        };
                    }
                }
            }
            inputs.retain(|port, input| {
                input.link().is_some() || ports.iter().any(|p| p.name == port)
            });
            copy.inputs = inputs;
            let pos = clip
                .layout
                .iter()
                .find(|(old, _)| *old == node.id)
                .map_or([0.0, 0.0], |(_, p)| *p);
            self.layout
                .insert(id, [pos[0] + offset[0], pos[1] + offset[1]]);
            self.graph.nodes.push(copy);
            added.push(id);
        }
        added
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{MaterialGraph, OutRef};
    use crate::value::Value;

    fn noise_into_ramp() -> (Document, NodeId, NodeId) {
        let mut g = MaterialGraph::new("t");
        let noise = g.add_node("Noise").unwrap();
        let ramp = g.add_node("ColorRamp").unwrap();
        crate::nodes::testing::link(&mut g, noise, "out", ramp, "t");
        let mut doc = Document::new(g);
        doc.layout.insert(noise, [0.0, 0.0]);
        doc.layout.insert(ramp, [200.0, 0.0]);
        (doc, noise, ramp)
    }

    #[test]
    fn pasted_copies_link_to_each_other() {
        let (mut doc, noise, ramp) = noise_into_ramp();
        let clip = doc.clip(&[noise, ramp]);
        let new = doc.paste(&clip, [40.0, 40.0]);
        assert_eq!(new.len(), 2);
        assert!(new.iter().all(|id| *id != noise && *id != ramp));
        let copy = doc.graph.node(new[1]).unwrap();
        assert_eq!(
            copy.inputs["t"],
            Input::Link(OutRef::new(new[0], "out")),
            "the copy of the ramp reads the copy of the noise"
        );
        assert_eq!(doc.layout[&new[1]], [240.0, 40.0]);
    }

    #[test]
    fn a_link_from_outside_the_clip_is_kept_here_and_reset_elsewhere() {
        let (mut doc, _, ramp) = noise_into_ramp();
        let clip = doc.clip(&[ramp]);
        let here = doc.paste(&clip, [0.0, 0.0]);
        assert!(
            doc.graph.node(here[0]).unwrap().inputs["t"]
                .link()
                .is_some()
        );
        let mut other = Document::new(MaterialGraph::new("other"));
        let there = other.paste(&clip, [0.0, 0.0]);
        assert_eq!(
            other.graph.node(there[0]).unwrap().inputs["t"],
            Input::Const(Value::Float(0.5)),
            "the ramp's own default for t, not a zero of the wrong type"
        );
    }

    #[test]
    fn clips_are_text_and_other_text_is_refused() {
        let (doc, noise, ramp) = noise_into_ramp();
        let text = ron::to_string(&doc.clip(&[noise, ramp])).unwrap();
        assert_eq!(
            ron::from_str::<Clip>(&text).unwrap(),
            doc.clip(&[noise, ramp])
        );
        assert!(ron::from_str::<Clip>("hello").is_err());
        assert!(ron::from_str::<Clip>("(nodes: [], colour: 3)").is_err());
    }
}
