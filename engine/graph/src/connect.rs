//! Connecting: which links the graph accepts (types, cycles, a layer read upstream of its
//! own ports), and setting or clearing what feeds an input.

use crate::graph::{MaterialGraph, Node, input_default};
use crate::link::{InRef, Input, NodeId, OutRef, Sink};
use crate::node::ParamValue;
use crate::nodes;
use crate::value::PortType;
use std::collections::{HashMap, HashSet, VecDeque};

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
        self.check_ends(from, to)?;
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

    /// Every check of [`Self::check_connect`] but the walk upstream for a loop between
    /// two nodes: both ends exist, the types meet, and a strand port is not fed by its
    /// own layer.
    fn check_ends(&self, from: &OutRef, to: &InRef) -> Result<(), ConnectError> {
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
        Ok(())
    }

    /// Links `from` into `to`, or refuses with the reason.
    ///
    /// # Errors
    /// The reason the link is refused; the graph is unchanged then.
    pub fn connect(&mut self, from: OutRef, to: &InRef) -> Result<(), ConnectError> {
        self.check_connect(&from, to)?;
        self.link(from, to);
        Ok(())
    }

    /// As [`Self::connect`], for a link the caller knows closes no loop: the graph with
    /// it and every other link the caller is making is acyclic ([`Self::acyclic_with`]),
    /// so the walk upstream for one, which costs the graph's size a link, is left out.
    ///
    /// # Errors
    /// The reason the link is refused; the graph is unchanged then.
    pub(crate) fn connect_without_loops(
        &mut self,
        from: OutRef,
        to: &InRef,
    ) -> Result<(), ConnectError> {
        self.check_ends(&from, to)?;
        self.link(from, to);
        Ok(())
    }

    /// The nodes (the first of each id, by place in `nodes`) in Kahn's order: each after
    /// every node it reads, the links `extra` counted too (`(from, to)`: node `to` reads
    /// node `from`), the nodes that read nothing first by id. Then the nodes left over,
    /// which sit on or behind a loop, by id. Linear in the nodes and links.
    pub(crate) fn reading_order(&self, extra: &[(NodeId, NodeId)]) -> (Vec<usize>, Vec<usize>) {
        let index = self.index();
        let mut readers: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut waits: HashMap<usize, usize> = index.values().map(|&i| (i, 0)).collect();
        let mut reads: Vec<(usize, usize)> = extra
            .iter()
            .filter_map(|(from, to)| Some((*index.get(from)?, *index.get(to)?)))
            .collect();
        for &i in index.values() {
            let links = self.node_links(&self.nodes[i]);
            reads.extend(
                links
                    .iter()
                    .filter_map(|(_, l)| Some((*index.get(&l.node)?, i))),
            );
        }
        reads.sort_unstable();
        reads.dedup();
        for (from, to) in reads {
            readers.entry(from).or_default().push(to);
            *waits.get_mut(&to).expect("every node waits") += 1;
        }
        let by_id = |places: &mut Vec<usize>| places.sort_unstable_by_key(|&i| self.nodes[i].id);
        let mut first: Vec<usize> = waits
            .iter()
            .filter(|&(_, &n)| n == 0)
            .map(|(&i, _)| i)
            .collect();
        by_id(&mut first);
        let mut ready: VecDeque<usize> = first.into();
        let mut order = Vec::with_capacity(index.len());
        while let Some(i) = ready.pop_front() {
            order.push(i);
            for &r in readers.get(&i).map_or(&[][..], Vec::as_slice) {
                let n = waits.get_mut(&r).expect("every reader waits");
                *n -= 1;
                if *n == 0 {
                    ready.push_back(r);
                }
            }
        }
        let mut left: Vec<usize> = waits
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(i, _)| i)
            .collect();
        by_id(&mut left);
        (order, left)
    }

    /// Whether the graph stays free of loops with the links `extra` added as well
    /// ([`Self::reading_order`] leaves no node over). A graph with a duplicated id
    /// answers no.
    pub(crate) fn acyclic_with(&self, extra: &[(NodeId, NodeId)]) -> bool {
        let (order, left) = self.reading_order(extra);
        left.is_empty() && order.len() == self.nodes.len()
    }

    /// Sets `to` to read `from`, a Reroute taking its type (the link already checked).
    fn link(&mut self, from: OutRef, to: &InRef) {
        if self.adopts_type(to)
            && let Some(ty) = self.output_type(&from)
            && let InRef::Node { node, .. } = to
        {
            self.set_node_type(*node, ty);
        }
        self.set_input(to, Input::Link(from));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn node_in(node: NodeId, port: &str) -> InRef {
        InRef::Node {
            node,
            port: port.into(),
        }
    }

    #[test]
    fn loops_are_found_with_links_about_to_be_made() {
        // Noise → Math → Mix.
        let mut g = MaterialGraph::new("loops");
        let noise = g.add_node("Noise").unwrap();
        let math = g.add_node("Math").unwrap();
        let mix = g.add_node("Mix").unwrap();
        g.connect(OutRef::new(noise, "out"), &node_in(math, "a"))
            .unwrap();
        g.connect(OutRef::new(math, "out"), &node_in(mix, "t"))
            .unwrap();
        assert!(g.acyclic_with(&[]));
        // Mix into Math closes a loop, as does Math into itself; Noise into Mix does not.
        // Each answer is the one the walk upstream gives.
        assert!(!g.acyclic_with(&[(mix, math)]));
        assert!(g.acyclic_with(&[(noise, mix)]));
        assert!(!g.acyclic_with(&[(math, math)]));
        for (from, to) in [(mix, math), (noise, mix), (math, math)] {
            assert_eq!(
                g.acyclic_with(&[(from, to)]),
                g.upstream_path(from, to).is_none(),
                "{from} → {to}"
            );
        }
        // A loop already in the graph (a file written by hand) is found without any.
        let mut looped = g.clone();
        looped.set_input(&node_in(math, "b"), Input::Link(OutRef::new(mix, "out")));
        assert!(!looped.acyclic_with(&[]));
        // A duplicated id answers no, whatever the links.
        let mut twice = g.clone();
        twice.nodes.push(twice.nodes[0].clone());
        assert!(!twice.acyclic_with(&[]));
    }
}
