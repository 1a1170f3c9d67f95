//! Node groups and frames: how a document arranges its graph for reading. Neither changes
//! the material: a group is a set of nodes the editor shows as one node with the ports
//! that cross its edge, and a frame is a titled box behind nodes. Both are saved with the
//! layout; files without them load as before.

use crate::graph::{Input, NodeId, OutRef};
use crate::io::Document;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One port of one node, as a group exposes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PortRef {
    /// The node.
    pub node: NodeId,
    /// The port's name.
    pub port: String,
}

impl PortRef {
    /// Port `port` of `node`.
    #[must_use]
    pub fn new(node: NodeId, port: &str) -> Self {
        Self {
            node,
            port: port.to_owned(),
        }
    }
}

/// Nodes shown as one: the group node carries the members' ports that links cross.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// Identity, stable across edits and saves.
    pub id: u32,
    /// The name on the group node.
    pub name: String,
    /// Where the group node stands in the graph view.
    pub pos: [f32; 2],
    /// The nodes inside.
    pub members: BTreeSet<NodeId>,
    /// Member inputs shown on the group node, in order: every one a link from outside
    /// reaches, and any the group exposed before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<PortRef>,
    /// Member outputs shown on the group node, in order: every one read outside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<PortRef>,
    /// The library node it was added from ([`crate::library`]), if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<crate::library::LibraryLink>,
}

/// A titled box in the graph view; moving it moves the nodes inside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// The title on its bar.
    pub title: String,
    /// Its top-left corner, in graph-view units.
    pub pos: [f32; 2],
    /// Its width and height.
    pub size: [f32; 2],
    /// The group it is drawn inside (`None`: the top level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
}

/// Why a group could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroupError {
    /// Nothing was selected.
    #[error("select the nodes to group first")]
    Empty,
    /// A node named is not in the graph.
    #[error("node {0} is not in the graph")]
    Missing(NodeId),
    /// A node is in a group already; groups do not nest.
    #[error("{node} is already in the group {group:?} (groups do not nest)")]
    Nested {
        /// The node, named.
        node: String,
        /// Its group's name.
        group: String,
    },
}

impl Document {
    /// The group holding `node`, if one does.
    #[must_use]
    pub fn group_of(&self, node: NodeId) -> Option<&Group> {
        self.groups.iter().find(|g| g.members.contains(&node))
    }

    /// The group with id `id`.
    #[must_use]
    pub fn group(&self, id: u32) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }

    /// Collapses `members` into a new group called `name`, standing where the member
    /// nearest their middle stood; returns its id. The material does not change.
    ///
    /// # Errors
    /// No members, a member not in the graph, or one already in a group.
    pub fn make_group(&mut self, members: &[NodeId], name: &str) -> Result<u32, GroupError> {
        if members.is_empty() {
            return Err(GroupError::Empty);
        }
        for &id in members {
            let Some(node) = self.graph.node(id) else {
                return Err(GroupError::Missing(id));
            };
            if let Some(g) = self.group_of(id) {
                return Err(GroupError::Nested {
                    node: node.label(),
                    group: g.name.clone(),
                });
            }
        }
        // Where the member nearest their middle stood: a spot the members leave free.
        let placed: Vec<[f32; 2]> = members
            .iter()
            .filter_map(|id| self.layout.get(id).copied())
            .collect();
        let n = placed.len().max(1) as f32;
        let sum = placed
            .iter()
            .fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
        let mean = [sum[0] / n, sum[1] / n];
        let d = |p: &[f32; 2]| (p[0] - mean[0]).powi(2) + (p[1] - mean[1]).powi(2);
        let pos = placed
            .iter()
            .copied()
            .min_by(|a, b| d(a).total_cmp(&d(b)))
            .unwrap_or(mean);
        let id = self.groups.iter().map(|g| g.id + 1).max().unwrap_or(1);
        self.groups.push(Group {
            id,
            name: name.to_owned(),
            pos,
            members: members.iter().copied().collect(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            library: None,
        });
        self.tidy_groups();
        Ok(id)
    }

    /// Dissolves group `id`: its members stand where they stood inside it, and its frames
    /// move to the top level. Returns the members; `None` if there is no such group.
    pub fn ungroup(&mut self, id: u32) -> Option<BTreeSet<NodeId>> {
        let at = self.groups.iter().position(|g| g.id == id)?;
        let group = self.groups.remove(at);
        for f in &mut self.frames {
            if f.group == Some(id) {
                f.group = None;
            }
        }
        Some(group.members)
    }

    /// Keeps the groups true to the graph after an edit: members that left the graph
    /// leave their group, empty groups go, exposed ports that no longer exist go, and
    /// every port a link now crosses the group's edge through is exposed (appended, so
    /// the group node's pins keep their order).
    pub fn tidy_groups(&mut self) {
        let graph = &self.graph;
        let mut claimed = BTreeSet::new();
        for g in &mut self.groups {
            // A node belongs to the first group that claims it (a hand-edited file may
            // list it twice).
            g.members
                .retain(|id| graph.node(*id).is_some() && claimed.insert(*id));
        }
        self.groups.retain(|g| !g.members.is_empty());
        let groups: Vec<u32> = self.groups.iter().map(|g| g.id).collect();
        for f in &mut self.frames {
            if f.group.is_some_and(|g| !groups.contains(&g)) {
                f.group = None;
            }
        }
        // Every link: who reads, which output.
        let mut links: Vec<(Option<NodeId>, String, OutRef)> = Vec::new();
        for node in &graph.nodes {
            for (port, input) in &node.inputs {
                if let Input::Link(from) = input {
                    links.push((Some(node.id), port.clone(), from.clone()));
                }
            }
        }
        for (sink, input) in graph.sinks() {
            if let Input::Link(from) = input {
                links.push((None, sink.to_string(), from));
            }
        }
        for g in &mut self.groups {
            let has_input = |p: &PortRef| {
                graph
                    .node(p.node)
                    .is_some_and(|n| n.input_ports().iter().any(|d| d.name == p.port))
            };
            let has_output = |p: &PortRef| {
                graph
                    .node(p.node)
                    .is_some_and(|n| n.output_ports().iter().any(|d| d.name == p.port))
            };
            g.inputs
                .retain(|p| g.members.contains(&p.node) && has_input(p));
            g.outputs
                .retain(|p| g.members.contains(&p.node) && has_output(p));
            for (reader, port, from) in &links {
                let reader_inside = reader.is_some_and(|r| g.members.contains(&r));
                let source_inside = g.members.contains(&from.node);
                if let Some(r) = reader
                    && reader_inside
                    && !source_inside
                {
                    let p = PortRef::new(*r, port);
                    if !g.inputs.contains(&p) {
                        g.inputs.push(p);
                    }
                }
                if source_inside && !reader_inside {
                    let p = PortRef::new(from.node, &from.port);
                    if !g.outputs.contains(&p) {
                        g.outputs.push(p);
                    }
                }
            }
        }
    }

    /// The frames drawn at the top level (`None`) or inside group `group`, with their
    /// indices in [`Document::frames`].
    pub fn frames_in(&self, group: Option<u32>) -> impl Iterator<Item = (usize, &Frame)> {
        self.frames
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.group == group)
    }

    /// What stands inside frame `k` now: the nodes of its level whose position lies
    /// inside it and, at the top level, the group nodes. A drag takes what stood inside
    /// when it began, so a frame dragged over other nodes does not pick them up.
    #[must_use]
    pub fn frame_contents(&self, k: usize) -> FrameContents {
        let Some(frame) = self.frames.get(k) else {
            return FrameContents::default();
        };
        let inside = |p: [f32; 2]| {
            p[0] >= frame.pos[0]
                && p[1] >= frame.pos[1]
                && p[0] <= frame.pos[0] + frame.size[0]
                && p[1] <= frame.pos[1] + frame.size[1]
        };
        let nodes = self
            .layout
            .iter()
            .filter(|(id, p)| self.group_of(**id).map(|g| g.id) == frame.group && inside(**p))
            .map(|(id, _)| *id)
            .collect();
        let groups = if frame.group.is_none() {
            self.groups
                .iter()
                .filter(|g| inside(g.pos))
                .map(|g| g.id)
                .collect()
        } else {
            Vec::new()
        };
        FrameContents { nodes, groups }
    }

    /// Moves frame `k` by `delta`, and `contents` with it (see
    /// [`Document::frame_contents`]).
    pub fn move_frame(&mut self, k: usize, delta: [f32; 2], contents: &FrameContents) {
        let Some(f) = self.frames.get_mut(k) else {
            return;
        };
        let shift = |p: &mut [f32; 2]| *p = [p[0] + delta[0], p[1] + delta[1]];
        shift(&mut f.pos);
        for id in &contents.nodes {
            if let Some(p) = self.layout.get_mut(id) {
                shift(p);
            }
        }
        for g in &mut self.groups {
            if contents.groups.contains(&g.id) {
                shift(&mut g.pos);
            }
        }
    }
}

/// What a frame carries when it moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameContents {
    /// Nodes.
    pub nodes: Vec<NodeId>,
    /// Group nodes.
    pub groups: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{InRef, MaterialGraph, Sink};

    /// UV → Noise → Ramp → base colour.
    fn chain() -> (Document, [NodeId; 3]) {
        let mut g = MaterialGraph::new("t");
        let uv = g.add_node("UV").unwrap();
        let noise = g.add_node("Noise").unwrap();
        let ramp = g.add_node("ColorRamp").unwrap();
        crate::nodes::testing::link(&mut g, noise, "out", ramp, "t");
        g.connect(
            OutRef::new(ramp, "out"),
            &InRef::Sink(Sink::Pbr("base_color".into())),
        )
        .unwrap();
        let mut doc = Document::new(g);
        for (k, id) in [uv, noise, ramp].into_iter().enumerate() {
            doc.layout.insert(id, [100.0 * k as f32, 0.0]);
        }
        (doc, [uv, noise, ramp])
    }

    #[test]
    fn a_group_exposes_the_ports_its_edge_crosses_and_leaves_the_material_alone() {
        let (mut doc, [_, noise, ramp]) = chain();
        let graph = doc.graph.clone();
        let id = doc.make_group(&[ramp], "look").unwrap();
        let g = doc.group(id).unwrap();
        assert_eq!(g.inputs, vec![PortRef::new(ramp, "t")]);
        assert_eq!(g.outputs, vec![PortRef::new(ramp, "out")]);
        assert_eq!(g.pos, [200.0, 0.0]);
        assert_eq!(doc.graph, graph);
        // Both inside: the link between them crosses nothing.
        doc.ungroup(id);
        let id = doc.make_group(&[noise, ramp], "both").unwrap();
        let g = doc.group(id).unwrap();
        assert!(g.inputs.is_empty(), "{:?}", g.inputs);
        assert_eq!(g.outputs, vec![PortRef::new(ramp, "out")]);
    }

    #[test]
    fn groups_do_not_nest_and_name_what_is_wrong() {
        let (mut doc, [uv, noise, _]) = chain();
        assert_eq!(doc.make_group(&[], "x"), Err(GroupError::Empty));
        assert_eq!(
            doc.make_group(&[NodeId(99)], "x"),
            Err(GroupError::Missing(NodeId(99)))
        );
        doc.make_group(&[noise], "a").unwrap();
        let err = doc.make_group(&[uv, noise], "b").unwrap_err();
        assert!(err.to_string().contains("Noise#2"), "{err}");
        assert_eq!(doc.groups.len(), 1);
    }

    #[test]
    fn tidying_follows_the_graph() {
        let (mut doc, [_, noise, ramp]) = chain();
        let id = doc.make_group(&[noise, ramp], "g").unwrap();
        // A member's output read outside is exposed, after what was there.
        let math = doc.graph.add_node("Math").unwrap();
        doc.graph
            .connect(
                OutRef::new(noise, "out"),
                &InRef::Node {
                    node: math,
                    port: "a".into(),
                },
            )
            .unwrap();
        doc.tidy_groups();
        assert_eq!(
            doc.group(id).unwrap().outputs,
            vec![PortRef::new(ramp, "out"), PortRef::new(noise, "out")]
        );
        // A removed member leaves; the last one leaving ends the group.
        doc.graph.remove_node(ramp);
        doc.tidy_groups();
        assert_eq!(
            doc.group(id).unwrap().members,
            BTreeSet::from([noise]),
            "ramp left"
        );
        assert_eq!(
            doc.group(id).unwrap().outputs,
            vec![PortRef::new(noise, "out")]
        );
        doc.graph.remove_node(noise);
        doc.tidy_groups();
        assert!(doc.groups.is_empty());
    }

    #[test]
    fn moving_a_frame_moves_what_stands_inside_it() {
        let (mut doc, [uv, noise, ramp]) = chain();
        doc.frames.push(Frame {
            title: "inputs".into(),
            pos: [-10.0, -10.0],
            size: [150.0, 60.0],
            group: None,
        });
        let contents = doc.frame_contents(0);
        assert_eq!(contents.nodes, vec![uv, noise]);
        doc.move_frame(0, [5.0, 20.0], &contents);
        // Moved on over the ramp, the frame does not pick it up.
        doc.move_frame(0, [150.0, 0.0], &contents);
        doc.move_frame(0, [-150.0, 0.0], &contents);
        assert_eq!(doc.layout[&uv], [5.0, 20.0]);
        assert_eq!(doc.layout[&noise], [105.0, 20.0]);
        assert_eq!(doc.layout[&ramp], [200.0, 0.0], "outside the frame");
        assert_eq!(doc.frames[0].pos, [-5.0, 10.0]);
    }

    #[test]
    fn groups_and_frames_round_trip_and_old_files_have_none() {
        let (mut doc, [uv, noise, _]) = chain();
        let text = crate::io::to_string(&doc).unwrap();
        assert!(!text.contains("groups"), "an ungrouped file is unchanged");
        assert_eq!(crate::io::from_str(&text).unwrap(), doc);
        doc.make_group(&[uv, noise], "source").unwrap();
        doc.frames.push(Frame {
            title: "look".into(),
            pos: [0.0, 0.0],
            size: [10.0, 10.0],
            group: Some(1),
        });
        let text = crate::io::to_string(&doc).unwrap();
        assert_eq!(crate::io::from_str(&text).unwrap(), doc);
    }
}
