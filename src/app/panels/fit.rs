//! Text that must fit a panel's width (issue 40): it wraps (or is elided with "…" and
//! shown whole on hover) — never cut by the panel's edge in the middle of a word.

use eframe::egui;

/// A collapsing header's title that wraps at `ui`'s width (after the header's arrow)
/// instead of running past the panel's edge (a plain header's text never wraps).
#[must_use]
pub fn wrapped_header(ui: &egui::Ui, title: &str) -> egui::WidgetText {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let width = ui.available_width() - ui.spacing().indent - ui.spacing().button_padding.x;
    let job =
        egui::text::LayoutJob::simple(title.to_owned(), font, egui::Color32::PLACEHOLDER, width.max(40.0));
    // A laid-out galley keeps its wrapping (a header lays text and jobs out unwrapped).
    egui::WidgetText::Galley(ui.fonts_mut(|f| f.layout_job(job)))
}
