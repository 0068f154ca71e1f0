//! The window's own state, which is neither the user's settings nor the session:
//! which panels are shown, the help, the status line and the error list, the
//! timeline's place (for PNG exports), screenshots in flight, and whether settings
//! wait to be saved. Each field says when it resets.

use eframe::egui;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A PNG being taken: where its result (the path saved, or why not) arrives.
pub type PendingShot = Arc<Mutex<Option<Result<String, String>>>>;

/// The window's own state (see the module's documentation).
// Independent toggles (panels shown, help, saving): not a state machine.
#[allow(clippy::struct_excessive_bools)]
pub struct UiScratch {
    /// The runs and figures panel is shown (View menu; for the window's life).
    pub show_runs_panel: bool,
    /// The charts panel is shown (View menu; for the window's life).
    pub show_charts_panel: bool,
    /// The keyboard and mouse help is open (H, or its window's close button).
    pub show_help: bool,
    /// The "As other tools report it" panel beside the figures (a single run).
    pub show_peers_panel: bool,
    /// Where the timelines were drawn last frame (a PNG export cuts it out).
    pub timeline_rect: Option<egui::Rect>,
    /// A PNG requested and not saved yet.
    pub shot: Option<PendingShot>,
    /// The timeline PNG's header (runs, settings) is drawn above the legend: from the
    /// export's request until the picture is saved.
    pub png_header: bool,
    /// A timeline PNG waiting for the frame that draws its header.
    pub png_pending: Option<PathBuf>,
    /// `--screenshot`: take one PNG here once everything is loaded, then quit; the
    /// flag is set when the run failed.
    pub screenshot_and_quit: Option<(PathBuf, Arc<Mutex<bool>>)>,
    /// `--screenshot`: frames drawn in a row with nothing loading; the picture waits
    /// for a few, so that grids of wrapped text (sized from the frame before) settle.
    pub idle_frames: u32,
    /// Settings and recent files are saved to the user's config folder (off in tests
    /// and for `--screenshot`).
    pub saving: bool,
    /// Settings changed and are not saved yet (saved once no drag is in progress).
    pub settings_dirty: bool,
    /// The status line (the last export, a cancelled load, …); replaced by the next.
    pub status: Option<String>,
    /// Error messages shown above the runs until dismissed.
    pub errors: Vec<String>,
    /// Per run name, the text of its last analysis failure put in `errors` (replaced,
    /// not repeated, by the next).
    pub analysis_errors: std::collections::HashMap<String, String>,
    /// The history window's history (File › Open history…), while it is open.
    pub history: Option<crate::app::history_view::HistoryView>,
}

impl Default for UiScratch {
    fn default() -> Self {
        Self {
            show_runs_panel: true,
            show_charts_panel: true,
            show_help: false,
            show_peers_panel: false,
            timeline_rect: None,
            shot: None,
            png_header: false,
            png_pending: None,
            screenshot_and_quit: None,
            idle_frames: 0,
            saving: true,
            settings_dirty: false,
            status: None,
            errors: Vec::new(),
            analysis_errors: std::collections::HashMap::new(),
            history: None,
        }
    }
}
