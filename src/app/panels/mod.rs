//! Every part of the window around (and including) the timelines: the menus and
//! toolbar, the settings bar, the runs list, the sets, the figures or the comparison,
//! the selected frame, the charts, the timelines with their legend and events, the
//! help. Drawing only: each part reads the [`Model`] (the session, the settings, the
//! shell's jobs and messages) and returns the [`AppCommand`]s the user's actions ask
//! for; the shell applies them.

mod central;
mod compare_columns;
mod compare_views;
mod comparison;
mod details_strip;
mod export_menu;
mod figure_rows;
mod figures;
mod fit;
mod frame_details;
mod glance;
mod legend;
mod legend_names;
pub mod limiter;
mod path_field;
mod peers;
mod png_header;
mod record_panel;
mod rows_menu;
mod runs_list;
mod sets_panel;
mod sets_table;
mod settings_bar;
mod stutters;
mod system;
mod toolbar;

pub use central::{central_ui, charts_panel, charts_ui};
pub use legend::help_ui;
pub use peers::peers_panel_ui;
pub use settings_bar::settings_bar_ui;
pub use toolbar::toolbar_ui;

use super::session::{AppCommand, RunId, Session};
use super::settings::Persisted;
use super::shell::{Jobs, UiScratch};
use super::theme;
use eframe::egui;
use framescope_core::analysis::{Settings, Trim};

/// What the panels read: the session, the user's settings, and the shell's jobs and
/// messages. Nothing here is changed by drawing.
#[derive(Clone, Copy)]
pub struct Model<'a> {
    /// The open runs and what was done with them.
    pub session: &'a Session,
    /// What the user chose.
    pub persisted: &'a Persisted,
    /// Loads and other background jobs.
    pub jobs: &'a Jobs,
    /// Panels shown, status line and errors.
    pub scratch: &'a UiScratch,
}

impl Model<'_> {
    /// The settings run `id` is analysed with.
    #[must_use]
    pub fn run_settings(&self, id: RunId) -> Settings {
        self.session.run_settings(id, self.persisted)
    }

    /// The telemetry rows run `id`'s timeline shows (indices into its tracks').
    #[must_use]
    pub fn telemetry_rows(&self, id: RunId) -> Vec<usize> {
        self.session.telemetry_rows(id, self.persisted)
    }

    /// The rows of run `id` the user resized, with their heights.
    #[must_use]
    pub fn row_heights(&self, id: RunId) -> Vec<(crate::app::row_choice::RowKey, f32)> {
        self.session.row_heights(id, self.persisted)
    }

    /// The trim run `id` is analysed with.
    #[must_use]
    pub fn run_trim(&self, id: RunId) -> Trim {
        self.session.run_trim(id, self.persisted)
    }

    /// The colour of compared run `id` at place `slot` (among the shown runs): its
    /// set's in a comparison of sets, else its own.
    #[must_use]
    pub fn run_colour(&self, slot: usize, id: RunId) -> egui::Color32 {
        set_colour(self.session.colour_index(slot, id))
    }

    /// The figures' frame-time source in words, for a run (or the comparison) whose
    /// runs have generated frames when `generated`, and whose formats all mark them
    /// when `recorded`.
    #[must_use]
    pub fn source_text(&self, run: &framescope_core::report::Run, generated: bool, recorded: bool) -> String {
        let (asked, comparing) = (self.persisted.frame_time, self.session.comparing());
        figures::source_text(run.frame_time, asked, generated, recorded, comparing)
    }
}

/// The colour of the `k`-th compared run or set.
#[must_use]
pub fn set_colour(k: usize) -> egui::Color32 {
    theme::RUNS[k % theme::RUNS.len()]
}

/// Closes the small windows (typed path, Record) that are open; whether any was.
pub fn close_windows(ctx: &egui::Context) -> bool {
    // Both closed (no short circuit).
    path_field::close(ctx) | record_panel::close(ctx)
}

/// A part of the runs and figures panel.
type SidePart = fn(&mut egui::Ui, &Model<'_>) -> Vec<AppCommand>;

/// The runs and figures panel, top to bottom: errors, the runs, the sets, then the
/// figures (or the comparison) and the selected frame. The shell applies each part's
/// commands before the next part draws.
pub const SIDE_PARTS: [SidePart; 4] =
    [runs_list::errors_ui, runs_list::runs_list_ui, sets_panel::sets_ui, figures::figures_panel_ui];

/// A resizable left panel: `default` wide at first, from 180 px to `most`.
pub fn side_panel(id: &'static str, default: f32, most: f32) -> egui::Panel {
    egui::Panel::left(id).resizable(true).default_size(default).size_range(180.0..=most)
}

/// A side panel's contents: as wide as the panel, scrolling both ways, so that content
/// wider than the panel (a long file name, a frame's columns) scrolls instead of
/// widening the panel (the timeline never jumps); labels wrap at the panel's width.
pub fn scrolled(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui)) {
    ui.set_min_width(ui.available_width());
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        // The width left of the vertical scroll bar (not the panel's: text wrapped at
        // the panel's width would run under the bar and past the edge).
        ui.set_max_width(ui.available_width());
        add(ui);
    });
}

/// A run's name in a chart legend: its place in the comparison (which keeps legend
/// entries apart) and its file name, shortened in the middle so that the legend fits
/// the chart panel (dates and run numbers are usually at the end).
fn legend_name(slot: usize, name: &str) -> String {
    const HEAD: usize = 12;
    const TAIL: usize = 14;
    let short = super::session::short_name(name);
    let chars: Vec<char> = short.chars().collect();
    let shown = if chars.len() > HEAD + TAIL + 1 {
        let head: String = chars[..HEAD].iter().collect();
        let tail: String = chars[chars.len() - TAIL..].iter().collect();
        format!("{head}…{tail}")
    } else {
        short
    };
    format!("{}: {shown}", slot + 1)
}

/// What the "As other tools report it" panel is.
const PEERS_HELP: &str = "A panel beside the figures: the figures CapFrameX, FrameView, PresentMon and MangoHud \
    print for this run, each computed that tool's way, and the run's telemetry";

#[cfg(test)]
mod tests {
    use super::legend_name;

    #[test]
    fn legend_names_are_short_and_distinct() {
        let a = "/caps/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv";
        assert_eq!(legend_name(0, a), "1: FrameView_Al…234455_Log.csv");
        assert_eq!(legend_name(1, "b.csv"), "2: b.csv");
        // The place keeps two runs of the same file apart.
        assert_ne!(legend_name(0, a), legend_name(1, a));
        // Exactly at the limit: kept whole; multi-byte names are cut on characters.
        assert_eq!(legend_name(0, &"é".repeat(27)), format!("1: {}", "é".repeat(27)));
        assert_eq!(legend_name(0, &"é".repeat(28)), format!("1: {}…{}", "é".repeat(12), "é".repeat(14)));
    }
}
