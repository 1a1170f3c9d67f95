//! Node groups and frames: how a document arranges its graph for reading. Neither changes
//! the material: a group is a set of nodes the editor shows as one node with the ports
//! that cross its edge, and a frame is a titled box behind nodes. Both are saved with the
//! layout; files without them load as before.

use crate::link::NodeId;
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
    pub library: Option<LibraryLink>,
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

/// What a frame carries when it moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameContents {
    /// Nodes.
    pub nodes: Vec<NodeId>,
    /// Group nodes.
    pub groups: Vec<u32>,
}

/// Which library node a group was added from, and which version of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryLink {
    /// The library node's name.
    pub name: String,
    /// `LibraryNode::digest` ([`crate::library`]) of the copy added.
    pub digest: u32,
}
