//! The desktop window: open captures, pick target FPS and stutter thresholds, see
//! every frame on a zoomable timeline beside the figures and charts.
//!
//! State by lifetime (`../shared/DESIGN.md`): [`Persisted`] is what the user chose
//! (saved between runs); the [`session::Session`] holds the open runs and what was done
//! with them (selection, view, comparison, sets, trims), egui-free and changed only by
//! [`session::AppCommand`]s; the shell's [`App`] adds what is shown (panels, messages)
//! and the background jobs; hover and drag state live in egui. Panels, menus and the
//! timeline read that state and return commands, which the shell applies in one place.
//! The UI never parses files: loading and analysis run on worker threads ([`work`])
//! with visible progress, and a failed load shows its error without touching open runs.
//!
//! * `shell` — [`App`]: the state, the frame's layout, commands applied;
//! * [`session`] — the session and its commands;
//! * `panels` — every part of the window, drawing only, returning commands;
//! * [`work`] — loads, level-of-detail tracks and figures, off the UI thread;
//! * [`timeline`] — the timeline widget.

mod charts;
pub mod compare_view;
mod dialog;
mod export;
mod figure_text;
mod history_view;
mod hotkey;
mod icon;
mod mapping;
mod mapping_extra;
mod panels;
mod peer_figures;
mod recording;
pub mod row_choice;
pub mod session;
mod settings;
mod shell;
mod theme;
pub mod timeline;
mod watch;
pub mod work;

use crate::launch::WindowOptions;
use eframe::egui;
pub use settings::Persisted;
pub use shell::App;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
pub use work::LoadSource as CaptureSource;

/// The capture opened when no file is given (MIT, CapFrameX's test data).
pub const SAMPLE_NAME: &str = "sample: pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv";
/// Its bytes, built into the binary so the window works after `cargo install` too.
pub const SAMPLE: &[u8] =
    include_bytes!("../../sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv");

/// Two synthetic runs of one scene, for trying the comparison (see sample-traces/).
pub(crate) const PAIR: [(&str, &[u8]); 2] = [
    ("sample: synthetic-run-a.csv", include_bytes!("../../sample-traces/synthetic-run-a.csv")),
    ("sample: synthetic-run-b.csv", include_bytes!("../../sample-traces/synthetic-run-b.csv")),
];

/// The window's first size: `FRAMESCOPE_WINDOW_SIZE=WxH` (points, e.g. `1280x720`, for
/// screenshots at a given size), else 1400×900.
fn window_size() -> [f32; 2] {
    let asked = std::env::var("FRAMESCOPE_WINDOW_SIZE").ok().and_then(|v| {
        let (w, h) = v.split_once('x')?;
        let (w, h) = (w.trim().parse::<f32>().ok()?, h.trim().parse::<f32>().ok()?);
        ((320.0..=10_000.0).contains(&w) && (240.0..=10_000.0).contains(&h)).then_some([w, h])
    });
    asked.unwrap_or([1400.0, 900.0])
}

/// The main window: its size, title and icon (the taskbar's and the title bar's).
fn window_viewport() -> egui::ViewportBuilder {
    let viewport = egui::ViewportBuilder::default()
        .with_inner_size(window_size())
        .with_title("framescope")
        .with_app_id("framescope");
    match icon::icon() {
        Some(icon) => viewport.with_icon(icon),
        None => viewport,
    }
}

/// Opens the window on `files` (or the bundled sample) and runs until it is closed.
#[must_use]
pub fn run(options: &WindowOptions) -> ExitCode {
    let files = &options.files;
    let screenshot = options.screenshot.clone();
    let markers = options.markers.clone();
    let compare = options.compare;
    let convention = options.convention;
    let trim = options.trim;
    let (follow, watch) = (options.follow.clone(), options.watch.clone());
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: window_viewport(),
        ..Default::default()
    };
    let files = files.clone();
    let files_for_message = files.clone();
    let failed = Arc::new(Mutex::new(false));
    let failed_in_app = Arc::clone(&failed);
    let result = eframe::run_native(
        "framescope",
        options,
        Box::new(move |cc| {
            // A screenshot uses the defaults, unless FRAMESCOPE_CONFIG_DIR names the
            // settings to use (reproducible pictures of a chosen setup).
            let own = std::env::var_os("FRAMESCOPE_CONFIG_DIR").is_some_and(|d| !d.is_empty());
            let persisted =
                if screenshot.is_some() && !own { Persisted::default() } else { Persisted::load() };
            let mut app = App::new(persisted, &cc.egui_ctx);
            if let Some((start, end)) = trim {
                app.set_trim_all(start, end);
            }
            app.follow_all(&follow, watch.as_deref());
            if compare && files.is_empty() {
                app.open_sample_pair(&cc.egui_ctx);
            } else if !files.is_empty() || (follow.is_empty() && watch.is_none()) {
                app.open_all(&files, &cc.egui_ctx);
                if compare {
                    app.compare_when_loaded();
                }
            }
            // A screenshot run leaves the user's settings and recent files alone.
            if let Some(path) = screenshot {
                app.screenshot_and_quit(path, failed_in_app);
            }
            if let Some(path) = markers {
                app.attach_marker_log_to_first(path);
            }
            if let Some(tool) = convention {
                app.show_convention(tool);
            }
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) if !*failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(1),
        Err(e) => {
            // Without the windowing library's source paths, and with the way to the
            // figures without a window.
            let message = crate::launch::no_window_message(&e.to_string(), &files_for_message);
            eprintln!("{}", framescope_core::report::lines(&message));
            ExitCode::from(1)
        }
    }
}
