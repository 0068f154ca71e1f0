//! The desktop window (placeholder until the timeline lands).

use std::path::PathBuf;
use std::process::ExitCode;

/// Opens the window on `files` (or the bundled sample).
#[must_use]
pub fn run(files: &[PathBuf]) -> ExitCode {
    let _ = files;
    eprintln!("the window is not built yet; use `framescope report FILE...`");
    ExitCode::from(2)
}
