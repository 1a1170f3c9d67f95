//! Copy and paste: nodes taken out of one document and put into another (or the same)
//! under fresh ids, their links among themselves kept.

use crate::document::Document;
use crate::graph::Node;
use crate::link::{Input, NodeId};
use crate::{InRef, OutRef};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Nodes on their way between documents, with where they stood. The clipboard carries it
/// as RON text, so pasting reads whatever text is there: anything that is not a clip is
/// refused by the parser, and every link a clip brings is made again through the checks
/// a link drawn by hand passes ([`crate::MaterialGraph::check_connect`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clip {
    /// The nodes, as they were.
    pub nodes: Vec<Node>,
    /// Where each stood.
    #[serde(default)]
    pub layout: Vec<(NodeId, [f32; 2])>,
    /// The document the nodes were copied from, as the copying editor tells its open
    /// documents apart: a paste into the same one keeps the links from nodes left
    /// behind, a paste anywhere else drops them (another document's node of the same id
    /// is some other node).
    #[serde(default)]
    pub from: Option<u64>,
}

/// The most nodes one paste adds.
pub const MAX_CLIP_NODES: usize = 4096;

/// Why a clip was not pasted at all.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("the clip holds {nodes} nodes, and one paste adds at most {MAX_CLIP_NODES}")]
pub struct TooManyToPaste {
    /// How many nodes the clip holds.
    pub nodes: usize,
}

/// What a paste added, and what it could not bring.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pasted {
    /// The new nodes' ids, in the clip's order.
    pub added: Vec<NodeId>,
    /// The clip's nodes of a kind this build does not know, left out.
    pub unknown: usize,
    /// Inputs whose link could not be made here (a node left behind in another
    /// document, or a link the checks refuse): each holds its port's default instead.
    pub unlinked: Vec<String>,
}

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
            from: None,
        }
    }

    /// Adds the clip's nodes under fresh ids, `offset` from where they stood. A link
    /// between two clipped nodes joins the two copies; a link from a node outside the
    /// clip is kept when `same_document` and that node is still here. Each link is made
    /// through [`crate::MaterialGraph::connect`], so one of the wrong type or one that
    /// closes a loop (only a hand-made clip holds such) is refused like a drawn one;
    /// every input left without its link holds its port's default. Nodes of an unknown
    /// kind are left out.
    ///
    /// # Errors
    /// A clip over [`MAX_CLIP_NODES`] nodes: nothing is added.
    pub fn paste(
        &mut self,
        clip: &Clip,
        offset: [f32; 2],
        same_document: bool,
    ) -> Result<Pasted, TooManyToPaste> {
        let mut pasted = Pasted::default();
        if clip.nodes.len() > MAX_CLIP_NODES {
            return Err(TooManyToPaste {
                nodes: clip.nodes.len(),
            });
        }
        let mut next = self.graph.fresh_id().0;
        let mut map: HashMap<NodeId, NodeId> = HashMap::new();
        for n in clip.nodes.iter().filter(|n| n.kind().is_some()) {
            map.entry(n.id).or_insert_with(|| {
                let id = NodeId(next);
                next = next.saturating_add(1);
                id
            });
        }
        // First the nodes with their constants, then every link through the checks
        // (a link may come from a copy later in the clip).
        let mut links: Vec<(InRef, OutRef)> = Vec::new();
        let mut made: HashSet<NodeId> = HashSet::new();
        for node in &clip.nodes {
            let Some(&id) = map.get(&node.id) else {
                pasted.unknown += 1;
                continue;
            };
            if !made.insert(id) {
                continue; // the same id twice in a hand-made clip: the first wins
            }
            let mut copy = node.clone();
            copy.id = id;
            let ports = copy.input_ports();
            let label = copy.label();
            copy.inputs.retain(|port, input| match input {
                Input::Link(out) => {
                    let source = match map.get(&out.node) {
                        Some(new) => Some(*new),
                        None if same_document => Some(out.node),
                        None => None,
                    };
                    if let Some(source) = source {
                        let to = InRef::Node {
                            node: id,
                            port: port.clone(),
                        };
                        links.push((to, OutRef::new(source, &out.port)));
                    } else {
                        pasted.unlinked.push(format!("{label}.{port}"));
                    }
                    false
                }
                Input::Const(_) => ports.iter().any(|p| p.name == port),
            });
            let pos = clip
                .layout
                .iter()
                .find(|(old, _)| *old == node.id)
                .map_or([0.0, 0.0], |(_, p)| *p);
            self.layout
                .insert(id, [pos[0] + offset[0], pos[1] + offset[1]]);
            self.graph.nodes.push(copy);
            pasted.added.push(id);
        }
        // A clip copied from a graph holds no loop, and then no link can close one: the
        // walk upstream each link would take (a paste of a long chain walked it for
        // every link) is left out. A clip that could close one (made by hand) has every
        // link checked in turn, so the first link of a loop is made and the last refused.
        let pairs: Vec<(NodeId, NodeId)> = links
            .iter()
            .filter_map(|(to, from)| match to {
                InRef::Node { node, .. } => Some((from.node, *node)),
                InRef::Sink(_) => None,
            })
            .collect();
        let loop_free = self.graph.acyclic_with(&pairs);
        for (to, from) in links {
            let made = if loop_free {
                self.graph.connect_without_loops(from, &to)
            } else {
                self.graph.connect(from, &to)
            };
            if made.is_err()
                && let InRef::Node { node, port } = &to
            {
                let label = self.graph.node(*node).map(Node::label).unwrap_or_default();
                pasted.unlinked.push(format!("{label}.{port}"));
            }
        }
        Ok(pasted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::MaterialGraph;
    use crate::link::OutRef;
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
        let pasted = doc.paste(&clip, [40.0, 40.0], true).unwrap();
        let new = &pasted.added;
        assert_eq!(new.len(), 2);
        assert!(new.iter().all(|id| *id != noise && *id != ramp));
        let copy = doc.graph.node(new[1]).unwrap();
        assert_eq!(
            copy.inputs["t"],
            Input::Link(OutRef::new(new[0], "out")),
            "the copy of the ramp reads the copy of the noise"
        );
        assert_eq!(doc.layout[&new[1]], [240.0, 40.0]);
        assert_eq!((pasted.unknown, pasted.unlinked.len()), (0, 0));
    }

    /// The default a node's input `port` falls back to without a link.
    fn held(doc: &Document, node: NodeId, port: &str) -> Input {
        let n = doc.graph.node(node).unwrap();
        let desc = n
            .input_ports()
            .into_iter()
            .find(|p| p.name == port)
            .unwrap();
        n.input(&desc)
    }

    #[test]
    fn a_link_from_outside_the_clip_is_kept_in_its_document_alone() {
        let (mut doc, noise, ramp) = noise_into_ramp();
        let clip = doc.clip(&[ramp]);
        let here = doc.paste(&clip, [0.0, 0.0], true).unwrap();
        assert_eq!(
            doc.graph.node(here.added[0]).unwrap().inputs["t"],
            Input::Link(OutRef::new(noise, "out"))
        );
        // Another document whose node of the noise's id is some other Float source: the
        // copy must not read it.
        let mut g = MaterialGraph::new("other");
        let wave = g.add_node("Wave").unwrap();
        assert_eq!(wave, noise, "the test needs the same id in both documents");
        let mut other = Document::new(g);
        let there = other.paste(&clip, [0.0, 0.0], false).unwrap();
        let copy = there.added[0];
        assert_eq!(other.graph.node(copy).unwrap().inputs.get("t"), None);
        assert_eq!(
            held(&other, copy, "t"),
            Input::Const(Value::Float(0.5)),
            "the ramp's own default for t, not a zero of the wrong type"
        );
        assert_eq!(there.unlinked, [format!("ColorRamp#{copy}.t")]);
    }

    #[test]
    fn a_hand_made_clip_gets_the_checks_a_drawn_link_gets() {
        // Two Maths reading each other (a loop), a Vec2 into a Float input, a link from a
        // port the source lacks, a kind nobody knows and an input no port has.
        let text = "(nodes: [
            (id: 7, kind: \"Math\", inputs: {\"a\": Link((node: 8, port: \"out\"))}),
            (id: 8, kind: \"Math\", inputs: {\"a\": Link((node: 7, port: \"out\")),
                \"b\": Link((node: 9, port: \"uv\")), \"zz\": Const(Float(3.0))}),
            (id: 9, kind: \"UV\"),
            (id: 10, kind: \"Math\", inputs: {\"a\": Link((node: 9, port: \"nope\"))}),
            (id: 11, kind: \"Teapot\"),
        ])";
        let clip: Clip = ron::from_str(text).unwrap();
        let (mut doc, ..) = noise_into_ramp();
        let pasted = doc.paste(&clip, [0.0, 0.0], false).unwrap();
        assert_eq!(pasted.added.len(), 4);
        assert_eq!(pasted.unknown, 1);
        let [m7, m8, _, m10] = pasted.added[..] else {
            unreachable!()
        };
        // The first link of the loop is made, the one closing it is refused.
        assert_eq!(
            doc.graph.node(m7).unwrap().inputs["a"],
            Input::Link(OutRef::new(m8, "out"))
        );
        let eight = doc.graph.node(m8).unwrap();
        assert_eq!(eight.inputs.get("a"), None);
        assert_eq!(
            eight.inputs.get("b"),
            None,
            "a Vec2 into a Float is refused"
        );
        assert_eq!(eight.inputs.get("zz"), None, "no such port");
        assert_eq!(doc.graph.node(m10).unwrap().inputs.get("a"), None);
        assert_eq!(
            pasted.unlinked,
            [
                format!("Math#{m8}.a"),
                format!("Math#{m8}.b"),
                format!("Math#{m10}.a")
            ]
        );
    }

    #[test]
    fn a_clip_past_the_paste_limit_adds_nothing_and_says_how_many() {
        let (mut doc, noise, _) = noise_into_ramp();
        let one = doc.clip(&[noise]).nodes[0].clone();
        let clip = Clip {
            nodes: vec![one; MAX_CLIP_NODES + 1],
            ..Clip::default()
        };
        let before = doc.clone();
        let err = doc.paste(&clip, [0.0, 0.0], true).unwrap_err();
        assert_eq!(err.nodes, MAX_CLIP_NODES + 1);
        assert_eq!(doc, before);
    }

    #[test]
    fn clips_are_text_and_other_text_is_refused() {
        let (doc, noise, ramp) = noise_into_ramp();
        let mut clip = doc.clip(&[noise, ramp]);
        clip.from = Some(42);
        let text = ron::to_string(&clip).unwrap();
        assert_eq!(ron::from_str::<Clip>(&text).unwrap(), clip);
        assert!(ron::from_str::<Clip>("hello").is_err());
        assert!(ron::from_str::<Clip>("(nodes: [], colour: 3)").is_err());
    }
}
