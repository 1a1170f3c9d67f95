//! `tuft validate`: diagnostics for one or more graph files.

use super::{EXIT_INVALID, EXIT_UNREADABLE};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(files: &[PathBuf], json: bool) -> ExitCode {
    let mut worst = 0u8;
    for path in files {
        let shown = path.display();
        match tuft_graph::io::load(path) {
            Err(e) => {
                worst = worst.max(EXIT_UNREADABLE);
                if json {
                    let line = serde_json::json!({
                        "file": path,
                        "readable": false,
                        "error": e.to_string(),
                    });
                    out!("{line}");
                } else {
                    eprintln!("{shown}: error: {e}");
                }
            }
            Ok(doc) => {
                let report = tuft_graph::validate(&doc.graph);
                if report.has_errors() {
                    worst = worst.max(EXIT_INVALID);
                }
                if json {
                    let line = serde_json::json!({
                        "file": path,
                        "readable": true,
                        "errors": report.diagnostics.iter().filter(|d| d.is_error()).count(),
                        "diagnostics": report.diagnostics,
                    });
                    out!("{line}");
                } else if report.diagnostics.is_empty() {
                    out!(
                        "{shown}: ok ({})",
                        crate::words::counted(doc.graph.nodes.len(), "node")
                    );
                } else {
                    for d in &report.diagnostics {
                        out!("{shown}: {d}");
                    }
                }
            }
        }
    }
    ExitCode::from(worst)
}
