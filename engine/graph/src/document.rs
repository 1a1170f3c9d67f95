//! A document: the material graph and, beside it, the editor's layout (where each node
//! stands, groups, frames, the mesh it is previewed on). The layout is plain numbers and
//! ids; the engine never interprets it.

use crate::graph::MaterialGraph;
use crate::groups::{Frame, Group, PortRef};
use crate::link::{Input, NodeId, OutRef};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What a graph file holds: the graph, and where the editor drew each node. The layout is
/// plain numbers; the engine never interprets it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The material.
    pub graph: MaterialGraph,
    /// Editor position of each node, in graph-view units.
    #[serde(default)]
    pub layout: BTreeMap<NodeId, [f32; 2]>,
    /// Node groups ([`crate::groups`]); none in files written before groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    /// Frames behind nodes ([`crate::groups`]); none in files written before frames.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// The mesh the editor previews the material on, if the author chose one: part of
    /// the layout, not of the material.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_mesh: Option<PreviewMesh>,
}

/// A mesh of the author's to preview on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviewMesh {
    /// Its file (`.glb`, `.gltf`, `.obj`), relative to the graph file where it can be.
    pub path: String,
    /// Repeats of the material per UV unit; `None`: measured from the mesh, so the
    /// material keeps its size in metres.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats_per_uv: Option<f32>,
}

impl Document {
    /// A document holding `graph` with no layout.
    #[must_use]
    pub fn new(graph: MaterialGraph) -> Self {
        Self {
            graph,
            layout: BTreeMap::new(),
            groups: Vec::new(),
            frames: Vec::new(),
            preview_mesh: None,
        }
    }
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
}
