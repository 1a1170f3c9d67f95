//! The limits applied to a whole graph (`crate::limits` states them): what validation
//! reports and the bake refuses before any work.

use crate::diag::{Code, Diagnostic};
use crate::graph::MaterialGraph;
use crate::layer::StrandLayer;
use crate::limits::{
    MAX_BAKE_FILES, MAX_LAYERS, MAX_NODES, MAX_TOTAL_CANDIDATES, REPEAT_M, layer_problems,
};

/// What `graph` as a whole asks for beyond the limits: the repeat, the number of layers,
/// every layer's own limits, the candidates of all layers and the files a bake would
/// write. Cheap: nothing is evaluated.
#[must_use]
pub fn graph_problems(graph: &MaterialGraph) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let repeat = graph.repeat_m;
    if repeat.is_finite() && repeat > 0.0 && !REPEAT_M.contains(&repeat) {
        found.push(Diagnostic::error(
            Code::Limit,
            format!(
                "repeat_m is {repeat} m; a repeat must lie in {}..={} m",
                REPEAT_M.start(),
                REPEAT_M.end()
            ),
        ));
    }
    let n_nodes = graph.nodes.len();
    if n_nodes > MAX_NODES {
        found.push(Diagnostic::error(
            Code::Limit,
            format!("the graph has {n_nodes} nodes; the most is {MAX_NODES}"),
        ));
    }
    let n_layers = graph.strands.len();
    if n_layers > MAX_LAYERS {
        found.push(Diagnostic::error(
            Code::Limit,
            format!("the material has {n_layers} strand layers; the most is {MAX_LAYERS}"),
        ));
    }
    let mut total: u64 = 0;
    for (name, layer) in &graph.strands {
        total = total.saturating_add(layer.n_candidates());
        for problem in layer_problems(layer) {
            found.push(Diagnostic::error(
                Code::Budget,
                format!("strands.{name}: {problem}"),
            ));
        }
    }
    if total > MAX_TOTAL_CANDIDATES {
        found.push(Diagnostic::error(
            Code::Budget,
            format!(
                "the strand layers ask for {total} candidates together; the most is \
                 {MAX_TOTAL_CANDIDATES}"
            ),
        ));
    }
    let files = bake_files(graph);
    if files > MAX_BAKE_FILES as u64 {
        found.push(Diagnostic::error(
            Code::Limit,
            format!("a bake would write {files} files; the most is {MAX_BAKE_FILES}"),
        ));
    }
    found
}

/// How many files a bake of `graph` writes: the maps, the strand file, the ground mesh,
/// the scene, the manifest (RON and JSON) and the maps as KTX2, and per layer one mesh a
/// level, the card mesh, every mip of its two atlases and both atlases as KTX2.
#[must_use]
pub fn bake_files(graph: &MaterialGraph) -> u64 {
    let per_layer = |layer: &StrandLayer| -> u64 {
        let mips = u64::from(layer.cards.atlas_size.max(1).ilog2()) + 1;
        layer.levels.keep.len() as u64 + 1 + 2 * mips + 2
    };
    // + 1: the map a target may add; + 3: the maps as KTX2.
    crate::naming::MAP_NAMES.len() as u64 + 9 + graph.strands.values().map(per_layer).sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_are_inside_every_limit() {
        for text in [
            include_str!("../../../../presets/lawn.ron"),
            include_str!("../../../../presets/fur.ron"),
            include_str!("../../../../presets/moss.ron"),
        ] {
            let doc = crate::io::from_str(text).unwrap();
            assert_eq!(graph_problems(&doc.graph), Vec::new(), "{}", doc.graph.name);
            assert!(bake_files(&doc.graph) < 200);
        }
    }

    #[test]
    fn a_million_levels_are_refused_without_counting_files_one_by_one() {
        let mut g = MaterialGraph::new("levels");
        let mut layer = StrandLayer::default();
        layer.levels.keep = (0..1_000_000).map(|k| 1.0 / (1.0 + k as f32)).collect();
        g.strands.insert("grass".into(), layer);
        let found = graph_problems(&g);
        assert!(
            found.iter().any(|d| d.message.contains("1000000 levels")),
            "{found:#?}"
        );
        assert!(
            found.iter().any(|d| d.message.contains("files")),
            "{found:#?}"
        );
    }
}
