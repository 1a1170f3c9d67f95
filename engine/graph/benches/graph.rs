//! Graph benchmarks on the shipped presets: validation (the editor runs it after every
//! edit); and a paste of a long chain of nodes (the
//! editor pastes on its UI thread).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

mod common;
use common::presets;

fn validation(c: &mut Criterion) {
    for (name, graph) in presets() {
        c.bench_function(&format!("{name}/validate"), |b| {
            b.iter(|| black_box(tuft_graph::validate(black_box(&graph))));
        });
    }
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

criterion_group!(benches, validation, paste);
criterion_main!(benches);
