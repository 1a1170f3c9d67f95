//! `tuft bench`: times the engine's stages on the shipped presets (median of several
//! runs) and prints the figures, as a table or one JSON object per line. It writes
//! nothing to disk.

use crate::PRESETS;
use std::time::Instant;

/// One measured case.
struct Case {
    name: String,
    median_ms: f64,
    runs: usize,
    counts: Vec<(&'static str, u64)>,
}

/// Runs `f` once to warm up, then `runs` times; returns the median in milliseconds and
/// the last run's result.
fn median_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut last = f();
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            last = f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], last)
}

mod figures;
mod presets;
mod surfaces;

use figures::{elevations, eye_height, levels, switches};
use presets::cases;
use surfaces::{mesh_cases, sphere_case};

/// The figures `tuft bench` prints instead of timings, where asked.
#[derive(Clone, Copy, Debug)]
pub struct Figures {
    /// Each layer's level coverage.
    pub levels: bool,
    /// The colour each switch moves, seen from this many sides.
    pub switches: Option<u32>,
    /// A walker's view at two level-of-detail biases.
    pub eye_height: bool,
    /// Each switch seen from grazing to overhead.
    pub elevations: bool,
}

/// `tuft bench`: `only`, where given, is the name of a shipped preset (the command line
/// takes no other).
pub fn run(
    json: bool,
    runs: usize,
    only: Option<&str>,
    sphere: Option<u64>,
    mesh: Option<&std::path::Path>,
    figures: Figures,
) -> std::process::ExitCode {
    if figures.levels {
        levels(json, only);
        return std::process::ExitCode::SUCCESS;
    }
    let failed = |what: &str, e: anyhow::Error| {
        eprintln!("tuft bench --{what}: {e:#}");
        std::process::ExitCode::FAILURE
    };
    if let Some(sides) = figures.switches {
        return switches(json, only, sides).map_or_else(
            |e| failed("switches", e),
            |()| std::process::ExitCode::SUCCESS,
        );
    }
    if figures.elevations {
        return elevations(json, only).map_or_else(
            |e| failed("elevations", e),
            |()| std::process::ExitCode::SUCCESS,
        );
    }
    if figures.eye_height {
        return eye_height(json, only).map_or_else(
            |e| failed("eye-height", e),
            |()| std::process::ExitCode::SUCCESS,
        );
    }
    if !json {
        out!(
            "{:<28} {:>10} {:>5}  counts   ({} threads)",
            "case",
            "median ms",
            "runs",
            rayon::current_num_threads()
        );
    }
    let print = |case: &Case| {
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
            out!("{obj}");
        } else {
            let counts: Vec<String> = case
                .counts
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            out!(
                "{:<28} {:>10.2} {:>5}  {}",
                case.name,
                case.median_ms,
                case.runs,
                counts.join(" ")
            );
        }
    };
    if let Some(path) = mesh {
        match mesh_cases(path, runs) {
            Ok(cases) => cases.iter().for_each(&print),
            Err(e) => {
                eprintln!("tuft bench --mesh: {e:#}");
                return std::process::ExitCode::FAILURE;
            }
        }
        if only.is_none() && sphere.is_none() {
            return std::process::ExitCode::SUCCESS;
        }
    }
    if let Some(candidates) = sphere {
        for case in sphere_case(candidates, runs) {
            print(&case);
        }
        if only.is_none() {
            return std::process::ExitCode::SUCCESS;
        }
    }
    for (name, text) in PRESETS {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let doc = tuft_graph::io::from_str(text).expect("shipped presets parse");
        for case in cases(name, &doc.graph, runs) {
            print(&case);
        }
    }
    std::process::ExitCode::SUCCESS
}
