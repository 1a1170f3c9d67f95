//! Connecting: which links the graph accepts (types, cycles, a layer read upstream of its
//! own ports), and setting or clearing what feeds an input.

use crate::graph::{InRef, Input, MaterialGraph, Node, NodeId, OutRef, Sink, input_default};
use crate::node::ParamValue;
use crate::nodes;
use crate::value::PortType;
use std::collections::{HashMap, HashSet};

/// Why a connection was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConnectError {
    /// One end does not exist.
    #[error("{0}")]
    Missing(String),
    /// The types differ.
    #[error("{from} is {from_ty} but {to} expects {to_ty}")]
    TypeMismatch {
        /// The output, named.
        from: String,
        /// Its type.
        from_ty: PortType,
        /// The input, named.
        to: String,
        /// Its type.
        to_ty: PortType,
    },
    /// The link would make a node depend on itself.
    #[error("this link would close a cycle: {0}")]
    Cycle(String),
}

impl MaterialGraph {
    /// Whether `to` (transitively) depends on node `from`: following links upstream from
    /// `to` reaches `from`. Returns the chain of nodes from `to` down to `from`.
    #[must_use]
    pub fn upstream_path(&self, to: NodeId, from: NodeId) -> Option<Vec<NodeId>> {
        let index = self.index();
        let mut parent: HashMap<NodeId, NodeId> = HashMap::new();
        let mut seen = HashSet::from([to]);
        let mut stack = vec![to];
        while let Some(id) = stack.pop() {
            if id == from {
                let mut chain = vec![id];
                let mut cur = id;
                while let Some(&p) = parent.get(&cur) {
                    chain.push(p);
                    cur = p;
                }
                chain.reverse();
                return Some(chain);
            }
            let Some(&i) = index.get(&id) else { continue };
            for (_, l) in self.node_links(&self.nodes[i]) {
                if seen.insert(l.node) {
                    parent.insert(l.node, id);
                    stack.push(l.node);
                }
            }
        }
        None
    }

    /// The first node at or upstream of `start` that reads strand layer `layer`.
    fn layer_reader_upstream(&self, start: NodeId, layer: &str) -> Option<NodeId> {
        let mut seen = HashSet::from([start]);
        let mut stack = vec![start];
        while let Some(id) = stack.pop() {
            let node = self.node(id)?;
            if node.kind().and_then(|k| k.strand_layer(&node.params())) == Some(layer) {
                return Some(id);
            }
            for (_, l) in self.node_links(node) {
                if seen.insert(l.node) {
                    stack.push(l.node);
                }
            }
        }
        None
    }

    /// Checks that linking `from` into `to` is well typed and acyclic, without changing
    /// the graph.
    ///
    /// # Errors
    /// The reason the link is refused.
    pub fn check_connect(&self, from: &OutRef, to: &InRef) -> Result<(), ConnectError> {
        let from_node = self
            .node(from.node)
            .ok_or_else(|| ConnectError::Missing(format!("there is no node #{}", from.node)))?;
        let from_name = format!("{}.{}", from_node.label(), from.port);
        let from_ty = self.output_type(from).ok_or_else(|| {
            ConnectError::Missing(format!(
                "{} has no output {:?}",
                from_node.label(),
                from.port
            ))
        })?;
        let to_name = match to {
            InRef::Node { node, port } => {
                let n = self
                    .node(*node)
                    .ok_or_else(|| ConnectError::Missing(format!("there is no node #{node}")))?;
                format!("{}.{}", n.label(), port)
            }
            InRef::Sink(s) => s.to_string(),
        };
        let to_ty = self
            .input_type(to)
            .ok_or_else(|| ConnectError::Missing(format!("{to_name} is not an input")))?;
        if !to_ty.accepts(from_ty) && !self.adopts_type(to) {
            return Err(ConnectError::TypeMismatch {
                from: from_name,
                from_ty,
                to: to_name,
                to_ty,
            });
        }
        if let InRef::Sink(Sink::Strand { layer, .. }) = to
            && let Some(reader) = self.layer_reader_upstream(from.node, layer)
        {
            return Err(ConnectError::Cycle(format!(
                "{to_name} ← {from_name}, which depends on {} reading strands.{layer}",
                self.node(reader).map_or_else(String::new, Node::label)
            )));
        }
        if let InRef::Node { node, .. } = to
            && let Some(chain) = self.upstream_path(from.node, *node)
        {
            // `from` already depends on `node`: the new link would close the loop.
            let mut names: Vec<String> = chain
                .iter()
                .map(|id| self.node(*id).map_or_else(|| format!("#{id}"), Node::label))
                .collect();
            names.insert(0, self.node(*node).map_or_else(String::new, Node::label));
            return Err(ConnectError::Cycle(names.join(" ← ")));
        }
        Ok(())
    }

    /// Links `from` into `to`, or refuses with the reason.
    ///
    /// # Errors
    /// The reason the link is refused; the graph is unchanged then.
    pub fn connect(&mut self, from: OutRef, to: &InRef) -> Result<(), ConnectError> {
        self.check_connect(&from, to)?;
        if self.adopts_type(to)
            && let Some(ty) = self.output_type(&from)
            && let InRef::Node { node, .. } = to
        {
            self.set_node_type(*node, ty);
        }
        self.set_input(to, Input::Link(from));
        Ok(())
    }

    /// Sets the `type` parameter of a node that works on any port type (a Reroute).
    pub fn set_node_type(&mut self, node: NodeId, ty: PortType) {
        if let Some(n) = self.node_mut(node) {
            let name = match ty {
                PortType::Float => "float",
                PortType::Vec2 => "vec2",
                PortType::Color => "color",
            };
            n.params
                .insert("type".to_owned(), ParamValue::Choice(name.to_owned()));
        }
    }

    /// Whether `to` takes the type of whatever is linked into it (a Reroute's input).
    fn adopts_type(&self, to: &InRef) -> bool {
        matches!(to, InRef::Node { node, .. }
            if self.node(*node).is_some_and(|n| n.kind == nodes::reroute::NAME))
    }

    /// Sets what feeds `to` without checks (a constant, or a link already checked).
    pub fn set_input(&mut self, to: &InRef, input: Input) {
        match to {
            InRef::Node { node, port } => {
                if let Some(n) = self.node_mut(*node) {
                    n.inputs.insert(port.clone(), input);
                }
            }
            InRef::Sink(Sink::Pbr(p)) if p == "normal" => {
                self.pbr.normal = input.link().cloned();
            }
            InRef::Sink(sink) => {
                for (s, slot) in self.sinks_mut() {
                    if &s == sink {
                        *slot = input;
                        return;
                    }
                }
            }
        }
    }

    /// Removes the link into `to`; the input falls back to its default constant (a node
    /// port) or to a neutral constant (a sink).
    pub fn disconnect(&mut self, to: &InRef) {
        match to {
            InRef::Node { node, port } => {
                if let Some(n) = self.node_mut(*node) {
                    n.inputs.remove(port);
                }
            }
            InRef::Sink(Sink::Pbr(p)) if p == "normal" => self.pbr.normal = None,
            InRef::Sink(sink) => {
                for (s, slot) in self.sinks_mut() {
                    if &s == sink {
                        *slot = Input::Const(input_default(slot));
                        return;
                    }
                }
            }
        }
    }
}
