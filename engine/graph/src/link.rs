//! The link vocabulary every part of the graph speaks: a node's identity, one of its
//! output ports, what feeds an input (a constant or a link), and where a link ends (a
//! node's input or one of the material's outputs).

use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A node's identity, stable across edits and saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One output port of one node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OutRef {
    /// The node.
    pub node: NodeId,
    /// The output port's name.
    pub port: String,
}

impl OutRef {
    /// Output `port` of `node`.
    #[must_use]
    pub fn new(node: NodeId, port: &str) -> Self {
        Self {
            node,
            port: port.to_owned(),
        }
    }
}

/// What feeds an input: a constant or a link from an output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// A constant, edited inline.
    Const(Value),
    /// A link from another node's output.
    Link(OutRef),
}

impl Input {
    /// The link, if this input is linked.
    #[must_use]
    pub fn link(&self) -> Option<&OutRef> {
        match self {
            Self::Link(l) => Some(l),
            Self::Const(_) => None,
        }
    }
}

/// A place the graph's fields end up: a PBR port or a strand-layer port.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sink {
    /// A fixed PBR port (`base_color`, …), or `normal`.
    Pbr(String),
    /// A named extra PBR map.
    PbrExtra(String),
    /// A port of a strand layer.
    Strand {
        /// The layer's name.
        layer: String,
        /// The port's name.
        port: String,
    },
}

impl fmt::Display for Sink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pbr(p) => write!(f, "pbr.{p}"),
            Self::PbrExtra(p) => write!(f, "pbr.extras.{p}"),
            Self::Strand { layer, port } => write!(f, "strands.{layer}.{port}"),
        }
    }
}

/// Where a link ends: a node's input port or a sink.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InRef {
    /// Input `port` of `node`.
    Node {
        /// The node.
        node: NodeId,
        /// The input port's name.
        port: String,
    },
    /// An output of the material.
    Sink(Sink),
}
