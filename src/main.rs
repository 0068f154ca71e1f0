//! The `framescope` executable: the command line ([`framescope::cli`]) runs the
//! commands; the window ([`framescope::app`], feature `gui`) is opened here, so the CLI
//! never imports the UI.

use framescope::cli::{self, Outcome};

fn main() -> std::process::ExitCode {
    match cli::run() {
        Outcome::Exit(code) => code,
        Outcome::Window(w) => open_window(&w),
    }
}

#[cfg(feature = "gui")]
fn open_window(w: &framescope::launch::WindowOptions) -> std::process::ExitCode {
    framescope::app::run(w)
}

/// A build without the window (`--no-default-features`): say so, and how to get the
/// figures.
#[cfg(not(feature = "gui"))]
fn open_window(w: &framescope::launch::WindowOptions) -> std::process::ExitCode {
    eprintln!(
        "{}",
        framescope::launch::no_window_message(
            "this framescope was built without the window (feature `gui`)",
            &w.files
        )
    );
    std::process::ExitCode::from(1)
}
