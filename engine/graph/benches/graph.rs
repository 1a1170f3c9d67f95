//! Engine benchmarks on the shipped presets: validation (the editor runs it after every
//! edit) and the PBR half evaluated at 1024²; and a paste of a long chain of nodes (the
//! editor pastes on its UI thread).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

/// Every graph in `presets/`, by name in file-name order: a preset joins the
/// benchmarks by being shipped.
fn presets() -> Vec<(String, tuft_graph::MaterialGraph)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../presets");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().expect("a file name").to_string_lossy();
            let graph = tuft_graph::io::load(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .graph;
            (name.into_owned(), graph)
        })
        .collect()
}

fn validation(c: &mut Criterion) {
    for (name, graph) in presets() {
        c.bench_function(&format!("{name}/validate"), |b| {
            b.iter(|| black_box(tuft_graph::validate(black_box(&graph))));
        });
    }
}

fn pbr(c: &mut Criterion) {
    let mut group = c.benchmark_group("pbr");
    group.sample_size(10);
    for (name, graph) in presets() {
        group.bench_function(format!("{name}/pbr_1024"), |b| {
            b.iter(|| black_box(tuft_graph::bake::bake_pbr(&graph, 1024, &mut |_| {})));
        });
    }
    group.finish();
}

/// A chain of 2,000 nodes (a Noise, then Maths each reading the last) copied and pasted
/// into an empty document, every link made through the checks a drawn link passes.
fn paste(c: &mut Criterion) {
    let mut doc = tuft_graph::Document::new(tuft_graph::MaterialGraph::new("chain"));
    let mut last = doc.graph.add_node("Noise").expect("registered");
    for _ in 1..2000 {
        let next = doc.graph.add_node("Math").expect("registered");
        let to = tuft_graph::InRef::Node {
            node: next,
            port: "a".into(),
        };
        doc.graph
            .connect(tuft_graph::OutRef::new(last, "out"), &to)
            .expect("a float into a float");
        last = next;
    }
    let ids: Vec<_> = doc.graph.nodes.iter().map(|n| n.id).collect();
    let clip = doc.clip(&ids);
    let empty = tuft_graph::Document::new(tuft_graph::MaterialGraph::new("into"));
    let mut group = c.benchmark_group("paste");
    group.sample_size(10);
    group.bench_function("chain_2000", |b| {
        b.iter(|| {
            let mut into = empty.clone();
            let pasted = into
                .paste(&clip, [0.0, 0.0], false)
                .expect("under the limit");
            assert!(pasted.unlinked.is_empty());
            black_box(into)
        });
    });
    group.finish();
}

criterion_group!(benches, validation, pbr, paste);
criterion_main!(benches);
