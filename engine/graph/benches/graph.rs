//! Engine benchmarks on the shipped presets: validation (the editor runs it after every
//! edit) and the PBR half evaluated at 1024².

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

fn preset(name: &str) -> tuft_graph::MaterialGraph {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../presets/{name}.ron"));
    tuft_graph::io::load(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .graph
}

fn validation(c: &mut Criterion) {
    for name in ["lawn", "fur", "moss"] {
        let graph = preset(name);
        c.bench_function(&format!("{name}/validate"), |b| {
            b.iter(|| black_box(tuft_graph::validate(black_box(&graph))));
        });
    }
}

fn pbr(c: &mut Criterion) {
    let mut group = c.benchmark_group("pbr");
    group.sample_size(10);
    for name in ["lawn", "fur", "moss"] {
        let graph = preset(name);
        group.bench_function(format!("{name}/pbr_1024"), |b| {
            b.iter(|| black_box(tuft_graph::bake::bake_pbr(&graph, 1024, &mut |_| {})));
        });
    }
    group.finish();
}

criterion_group!(benches, validation, pbr);
criterion_main!(benches);
