//! The editor window.

use std::path::PathBuf;

/// Opens the editor on `file`, or on the lawn preset.
pub fn run(file: Option<PathBuf>) -> anyhow::Result<()> {
    let _ = file;
    Ok(())
}
