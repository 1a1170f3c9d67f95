//! Groups and frames arranged: a selection collapsed into a group and dissolved again,
//! the frames of a level, and what a frame carries when it moves. Neither changes the
//! material (the types are in `groups.rs`).

use crate::document::Document;
use crate::groups::{Frame, FrameContents, Group, GroupError};
use crate::link::NodeId;
use std::collections::BTreeSet;

impl Document {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::MaterialGraph;
    use crate::groups::PortRef;
    use crate::link::{InRef, OutRef};

    /// UV → Noise → Ramp → base colour.
    fn chain() -> (Document, [NodeId; 3]) {
        let mut g = MaterialGraph::new("t");
        let uv = g.add_node("UV").unwrap();
        let (noise, ramp) = crate::nodes::testing::noise_ramp_to_base(&mut g);
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
