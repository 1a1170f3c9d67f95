//! Strand layers edited as graph items: added, renamed, duplicated and removed, with a
//! name that is checked (not empty, at most 255 bytes, not another layer's, not one
//! that bakes to another layer's files). A rename
//! carries every node that reads the layer (`NodeKind::strand_layer`, the relief) along.

use crate::graph::MaterialGraph;
use crate::layer::StrandLayer;
use crate::naming::same_files;
use crate::node::ParamValue;

/// Why a layer name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayerNameError {
    /// The name is empty (or only spaces).
    #[error("a strand layer needs a name")]
    Empty,
    /// The strand file stores names in at most 255 bytes.
    #[error("{0:?} is longer than the 255 bytes a layer name may have")]
    TooLong(String),
    /// Another layer has it.
    #[error("there is already a strand layer {0:?}")]
    Taken(String),
    /// Another layer's name makes the same file names (`bake::same_files`).
    #[error("{name:?} would bake to the same files as the strand layer {other:?}")]
    SameFiles {
        /// The name refused.
        name: String,
        /// The layer that has those files.
        other: String,
    },
    /// No layer by that name.
    #[error("there is no strand layer {0:?}")]
    Missing(String),
}

/// Whether `name` may name a new layer of `graph`, or layer `renamed` under a new name.
fn check_new(
    graph: &MaterialGraph,
    name: &str,
    renamed: Option<&str>,
) -> Result<(), LayerNameError> {
    if name.trim().is_empty() {
        Err(LayerNameError::Empty)
    } else if name.len() > 255 {
        Err(LayerNameError::TooLong(name.to_owned()))
    } else if graph.strands.contains_key(name) {
        Err(LayerNameError::Taken(name.to_owned()))
    } else if let Some(other) = graph
        .strands
        .keys()
        .find(|&other| Some(other.as_str()) != renamed && same_files(other, name))
    {
        Err(LayerNameError::SameFiles {
            name: name.to_owned(),
            other: other.clone(),
        })
    } else {
        Ok(())
    }
}

impl MaterialGraph {
    /// `base` if no layer has it, else `base 2`, `base 3`, …
    #[must_use]
    pub fn free_layer_name(&self, base: &str) -> String {
        let base = if base.trim().is_empty() {
            "strands"
        } else {
            base.trim()
        };
        let free = |n: &str| self.strands.keys().all(|other| !same_files(other, n));
        if free(base) {
            return base.to_owned();
        }
        (2..)
            .map(|k| format!("{base} {k}"))
            .find(|n| free(n))
            .expect("some number is free")
    }

    /// Adds a layer named `name` with the default settings.
    ///
    /// # Errors
    /// The name is empty, too long or taken.
    pub fn add_layer(&mut self, name: &str) -> Result<(), LayerNameError> {
        check_new(self, name, None)?;
        self.strands.insert(name.to_owned(), StrandLayer::default());
        Ok(())
    }

    /// Renames layer `from` to `to`, and every node that reads it with it.
    ///
    /// # Errors
    /// No layer `from`, or `to` is empty, too long or taken.
    pub fn rename_layer(&mut self, from: &str, to: &str) -> Result<(), LayerNameError> {
        if from == to {
            return Ok(());
        }
        if !self.strands.contains_key(from) {
            return Err(LayerNameError::Missing(from.to_owned()));
        }
        check_new(self, to, Some(from))?;
        let layer = self.strands.remove(from).expect("checked above");
        self.strands.insert(to.to_owned(), layer);
        for node in &mut self.nodes {
            let reads = node
                .kind()
                .and_then(|k| k.strand_layer(&node.params()).map(|l| l == from))
                .unwrap_or(false);
            if reads {
                node.params
                    .insert("layer".to_owned(), ParamValue::Text(to.to_owned()));
            }
        }
        Ok(())
    }

    /// Adds a copy of layer `name` (its links and settings, another seed) under a free
    /// name; returns the name.
    ///
    /// # Errors
    /// No layer `name`.
    pub fn duplicate_layer(&mut self, name: &str) -> Result<String, LayerNameError> {
        let mut copy = self
            .strands
            .get(name)
            .cloned()
            .ok_or_else(|| LayerNameError::Missing(name.to_owned()))?;
        copy.seed = copy.seed.wrapping_add(1);
        let new = self.free_layer_name(&format!("{name} copy"));
        self.strands.insert(new.clone(), copy);
        Ok(new)
    }

    /// Removes layer `name`; nodes that read it stay and report it missing.
    ///
    /// # Errors
    /// No layer `name`.
    pub fn remove_layer(&mut self, name: &str) -> Result<StrandLayer, LayerNameError> {
        self.strands
            .remove(name)
            .ok_or_else(|| LayerNameError::Missing(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_added_renamed_duplicated_and_removed_with_their_names_checked() {
        let mut g = MaterialGraph::new("layers");
        assert_eq!(g.free_layer_name("grass"), "grass");
        g.add_layer("grass").unwrap();
        assert_eq!(g.free_layer_name("grass"), "grass 2");
        assert_eq!(
            g.add_layer("grass"),
            Err(LayerNameError::Taken("grass".into()))
        );
        assert_eq!(g.add_layer("  "), Err(LayerNameError::Empty));
        assert!(matches!(
            g.add_layer(&"x".repeat(256)),
            Err(LayerNameError::TooLong(_))
        ));
        // A relief node reading the layer follows a rename.
        let relief = g.add_node("StrandRelief").unwrap();
        g.node_mut(relief)
            .unwrap()
            .params
            .insert("layer".into(), ParamValue::Text("grass".into()));
        g.rename_layer("grass", "lawn").unwrap();
        assert!(g.strands.contains_key("lawn") && !g.strands.contains_key("grass"));
        assert_eq!(
            g.node(relief).unwrap().params.get("layer"),
            Some(&ParamValue::Text("lawn".into()))
        );
        let copy = g.duplicate_layer("lawn").unwrap();
        assert_eq!(copy, "lawn copy");
        assert_ne!(g.strands["lawn copy"].seed, g.strands["lawn"].seed);
        assert_eq!(
            g.rename_layer("lawn", "lawn copy"),
            Err(LayerNameError::Taken("lawn copy".into()))
        );
        g.remove_layer("lawn").unwrap();
        assert_eq!(g.strands.len(), 1);
        assert!(g.remove_layer("lawn").is_err());
    }

    #[test]
    fn a_name_that_bakes_to_another_layers_files_is_refused() {
        let mut g = MaterialGraph::new("layers");
        g.add_layer("tall grass").unwrap();
        let same = |name: &str| LayerNameError::SameFiles {
            name: name.into(),
            other: "tall grass".into(),
        };
        // Both would write layers_tall_grass_strands.glb (the second on a file system that
        // does not tell case apart).
        assert_eq!(g.add_layer("tall_grass"), Err(same("tall_grass")));
        assert_eq!(g.add_layer("Tall/Grass"), Err(same("Tall/Grass")));
        g.add_layer("moss").unwrap();
        assert_eq!(g.rename_layer("moss", "tall-grass"), Ok(()));
        assert_eq!(
            g.rename_layer("tall-grass", "tall+grass"),
            Err(same("tall+grass"))
        );
        // A layer may take another spelling of its own name.
        assert_eq!(g.rename_layer("tall grass", "Tall Grass"), Ok(()));
        // Free names skip those that would clash: `tall_grass 2` bakes as `tall grass 2`.
        g.add_layer("tall_grass 2").unwrap();
        assert_eq!(g.free_layer_name("Tall Grass"), "Tall Grass 3");
    }
}
