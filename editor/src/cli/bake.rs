//! `tuft bake`: a graph into a folder of baked files.

use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::process::ExitCode;
use tuft_bake as bake;

pub fn run(file: &Path, out: &Path, options: &bake::BakeOptions, force: bool) -> ExitCode {
    let doc = match super::load_checked(file, "baked", force) {
        Ok(doc) => doc,
        Err(code) => return code,
    };
    if let Some(note) = options.encoding.note() {
        eprintln!("tuft bake: note: {note}");
    }
    match bake_into(&doc.graph, out, options) {
        Ok(written) => {
            for path in written {
                out!("{}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            // The option by the name it was given.
            match e.downcast_ref::<bake::BakeError>() {
                Some(bake::BakeError::Keep(why)) => eprintln!("tuft bake: --keep: {why}"),
                _ => eprintln!("tuft bake: {e:#}"),
            }
            ExitCode::FAILURE
        }
    }
}

fn bake_into(
    graph: &tuft_graph::MaterialGraph,
    out: &Path,
    options: &bake::BakeOptions,
) -> anyhow::Result<Vec<std::path::PathBuf>> {
    // Hidden automatically when stderr is not a terminal.
    let bar = ProgressBar::new(1000).with_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {percent:>3}% {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut progress = |stage: &str, f: f32| {
        bar.set_message(stage.to_owned());
        bar.set_position((f * 1000.0) as u64);
    };
    let baked = bake::bake_graph(graph, out, options, &mut progress, &cancel)?;
    for d in &baked.diagnostics {
        bar.suspend(|| eprintln!("{d}"));
    }
    bar.finish_and_clear();
    Ok(baked.written)
}
