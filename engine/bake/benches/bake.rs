//! Bake benchmarks on the shipped presets: the PBR half evaluated at 1024².

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "../../graph/benches/common/mod.rs"]
mod common;
use common::presets;

fn pbr(c: &mut Criterion) {
    let mut group = c.benchmark_group("pbr");
    group.sample_size(10);
    for (name, graph) in presets() {
        group.bench_function(format!("{name}/pbr_1024"), |b| {
            b.iter(|| black_box(tuft_bake::bake_pbr(&graph, 1024, &mut |_| {})));
        });
    }
    group.finish();
}

criterion_group!(benches, pbr);
criterion_main!(benches);
