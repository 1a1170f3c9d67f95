//! `tuft bench`: times the engine's stages on the shipped presets (median of several
//! runs) and prints the figures, as a table or one JSON object per line.

use std::time::Instant;
use tuft_graph::MaterialGraph;

/// The presets benchmarked, built in so the command runs from any directory.
const PRESETS: [(&str, &str); 3] = [
    ("lawn", include_str!("../../../presets/lawn.ron")),
    ("fur", include_str!("../../../presets/fur.ron")),
    ("moss", include_str!("../../../presets/moss.ron")),
];

/// One measured case.
struct Case {
    name: String,
    median_ms: f64,
    runs: usize,
    counts: Vec<(&'static str, u64)>,
}

/// Runs `f` once to warm up, then `runs` times; returns the median in milliseconds.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn cases(name: &str, graph: &MaterialGraph, runs: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let validate = median_ms(runs.max(10), || {
        std::hint::black_box(tuft_graph::validate(graph));
    });
    out.push(Case {
        name: format!("{name}/validate"),
        median_ms: validate,
        runs: runs.max(10),
        counts: vec![("nodes", graph.nodes.len() as u64)],
    });
    let resolution = tuft_graph::bake::DEFAULT_RESOLUTION;
    let pbr = median_ms(runs, || {
        std::hint::black_box(
            tuft_graph::bake::bake_pbr(graph, resolution, &mut |_| {}).expect("valid size"),
        );
    });
    out.push(Case {
        name: format!("{name}/pbr"),
        median_ms: pbr,
        runs,
        counts: vec![("texels", (resolution * resolution) as u64)],
    });
    out
}

pub fn run(json: bool, runs: usize) -> std::process::ExitCode {
    if !json {
        println!(
            "{:<24} {:>10} {:>6}  counts   ({} threads)",
            "case",
            "median ms",
            "runs",
            rayon::current_num_threads()
        );
    }
    for (name, text) in PRESETS {
        let doc = tuft_graph::io::from_str(text).expect("shipped presets parse");
        for case in cases(name, &doc.graph, runs) {
            if json {
                let mut obj = serde_json::json!({
                    "case": case.name,
                    "median_ms": (case.median_ms * 1000.0).round() / 1000.0,
                    "runs": case.runs,
                    "threads": rayon::current_num_threads(),
                });
                for (k, v) in &case.counts {
                    obj[*k] = (*v).into();
                }
                println!("{obj}");
            } else {
                let counts: Vec<String> = case
                    .counts
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                println!(
                    "{:<24} {:>10.2} {:>6}  {}",
                    case.name,
                    case.median_ms,
                    case.runs,
                    counts.join(" ")
                );
            }
        }
    }
    std::process::ExitCode::SUCCESS
}
