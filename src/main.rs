//! The `framescope` executable: the command line ([`framescope::cli`]) runs the
//! commands; the window ([`framescope::app`]) is opened here, so the CLI never imports
//! the UI.

use framescope::cli::{self, Outcome};

fn main() -> std::process::ExitCode {
    match cli::run() {
        Outcome::Exit(code) => code,
        Outcome::Window(w) => framescope::app::run(
            &w.files,
            &framescope::app::WindowOptions {
                screenshot: w.screenshot,
                markers: w.markers,
                compare: w.compare,
                convention: w.convention,
                trim: w.trim,
            },
        ),
    }
}
