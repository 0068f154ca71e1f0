//! Trimming in the window (`metrics.md` §1): seconds left out at the start (a loading
//! screen) and at the end of every run, or of one run on its own. Every figure, chart
//! and comparison is of the kept frames (the analysis worker cuts the trace,
//! [`framescope_core::analysis::Trim`]); the timeline shades the trimmed parts, whose edges can
//! be dragged. The trim for all runs is saved with the settings, a run's own with its
//! capture's path.

use super::App;
use super::runs::OpenRun;
use eframe::egui::{self, RichText};
use framescope_core::analysis::Trim;

/// What a trim does, for its tooltips.
const TRIM_HELP: &str = "Leave out the first and last seconds of a run (a loading screen, the end of a \
                         benchmark): only frames that start at least this long after the run's first frame, and \
                         end at least this long before its last frame ends, count in the figures, charts and \
                         comparisons. Drag the shaded parts' edges on the timeline, too.";

impl App {
    /// The trim of every run without its own.
    pub(super) fn trim_for_all(&self) -> Trim {
        Trim { start_s: self.persisted.trim_start_s, end_s: self.persisted.trim_end_s }
    }

    /// The settings bar's trim: for every run without a trim of its own.
    pub(super) fn trim_all_ui(&mut self, ui: &mut egui::Ui) {
        let (mut start, mut end) = (self.persisted.trim_start_s, self.persisted.trim_end_s);
        let label = ui.label("Trim start").on_hover_text(TRIM_HELP);
        let a = ui
            .add(
                egui::DragValue::new(&mut start)
                    .range(0.0..=86_400.0)
                    .speed(0.1)
                    .max_decimals(3)
                    .suffix(" s"),
            )
            .labelled_by(label.id)
            .on_hover_text(TRIM_HELP);
        let label = ui.label("end").on_hover_text(TRIM_HELP);
        let b = ui
            .add(egui::DragValue::new(&mut end).range(0.0..=86_400.0).speed(0.1).max_decimals(3).suffix(" s"))
            .labelled_by(label.id)
            .on_hover_text(TRIM_HELP);
        if a.changed() || b.changed() {
            self.set_trim_all(start, end);
        }
    }
}

/// A run's own trim: off (the trim for all runs applies), or its own seconds.
pub(super) fn run_trim_ui(ui: &mut egui::Ui, run: &mut OpenRun, all: Trim) {
    ui.horizontal_wrapped(|ui| {
        let mut own = run.trim.is_some();
        let check = ui.checkbox(&mut own, "Own trim").on_hover_text(
            "Trim this capture on its own instead of with the trim for all runs (saved with the capture)",
        );
        match (own, run.trim) {
            (true, None) => run.trim = Some(all),
            (false, Some(_)) => run.trim = None,
            _ => {}
        }
        if let Some(t) = &mut run.trim {
            for value in [&mut t.start_s, &mut t.end_s] {
                ui.add(
                    egui::DragValue::new(value).range(0.0..=86_400.0).speed(0.1).max_decimals(3).suffix(" s"),
                )
                .labelled_by(check.id)
                .on_hover_text(TRIM_HELP);
            }
        } else if !all.is_none() {
            ui.label(
                RichText::new(format!("{} s / {} s for all runs", all.start_s, all.end_s)).small().weak(),
            );
        }
    });
}

/// Says what is left out, above a run's figures.
pub(super) fn trim_note_ui(ui: &mut egui::Ui, trim: Trim) {
    if !trim.is_none() {
        ui.label(
            RichText::new(format!(
                "Trimmed: the first {} s and the last {} s are left out",
                trim.start_s, trim.end_s
            ))
            .small(),
        )
        .on_hover_text(TRIM_HELP);
    }
}
