//! `tuft view DIR`: a baked set (its folder or its manifest) in the editor's window,
//! read-only. The set is read by `tuft_render::baked` alone (manifest, maps, strand
//! file); no graph is on the path.

use std::path::Path;
use std::process::ExitCode;

pub fn run(path: &Path, lod_bias: f32, sun: Option<tuft_render::SunAngles>) -> ExitCode {
    let Some(dir) = tuft_render::baked::set_at(path) else {
        eprintln!(
            "{}: error: not a baked set (a folder holding the manifest.ron `tuft bake` writes)",
            path.display()
        );
        return ExitCode::FAILURE;
    };
    // A set that cannot be read opens too: the window names the file at fault and draws
    // nothing.
    let viewing = crate::app::Viewing {
        dir: dir.to_owned(),
        lod_bias,
        sun,
    };
    match crate::app::run_viewer(viewing) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tuft view: {e:#}");
            ExitCode::FAILURE
        }
    }
}
