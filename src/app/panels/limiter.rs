//! What limits the frame rate (`metrics.md` §13), beside a run's (or a selection's)
//! figures: the limiter's time fractions in words, one sentence on what they mean for
//! this run, and the CPU and GPU busy means.

use eframe::egui::{self, RichText};
use framescope_core::analysis::Limiter;
use framescope_core::report::Run;

/// The limiter's name beside the figures, and its tooltip.
pub const LIMITED_BY: &str = "Limited by";
/// What the limiter fractions mean, for their tooltip.
pub const LIMITER_HELP: &str = "Share of frame time that was GPU-limited (GPU busy at least 90 % of the frame's \
    CPU busy + wait), CPU-limited (CPU busy at least 90 % of it), or neither (both waited: a frame cap, VSYNC, \
    the display or a stall), from PresentMon 2.x's CPUBusy, CPUWait and GPUBusy (an engine's main-thread and \
    GPU times).";

/// One sentence on what the run's main limiter means.
#[must_use]
pub fn explanation(l: &Limiter) -> &'static str {
    match l.main {
        "gpu" => {
            "Mostly GPU-bound: the GPU was busy for nearly every frame; lower settings or a faster GPU would raise the frame rate."
        }
        "cpu" => {
            "Mostly CPU-bound: the game's CPU work took nearly every frame's time while the GPU waited; a faster CPU (or fewer draw calls) would help, not the GPU."
        }
        _ => {
            "Mostly limited by neither: CPU and GPU both waited, so a frame cap, VSYNC or the display sets the pace."
        }
    }
}

/// Draws the limiter of `run` when it has one: the fractions, strong, with the sentence
/// under them; `id` keeps the grid apart from other runs'.
pub fn limiter_ui(ui: &mut egui::Ui, run: &Run, id: &str) {
    let Some(l) = &run.limiter else { return };
    ui.horizontal_wrapped(|ui| {
        let label = ui.label(LIMITED_BY).on_hover_text(LIMITER_HELP);
        ui.add(egui::Label::new(RichText::new(framescope_core::report::limiter_text(l)).strong()).wrap())
            .labelled_by(label.id)
            .on_hover_text(LIMITER_HELP);
    });
    ui.label(RichText::new(explanation(l)).small());
    egui::Grid::new(format!("{id}_limiter")).num_columns(2).show(ui, |ui| {
        let label = ui.label("CPU / GPU busy mean");
        ui.label(RichText::new(format!("{:.3} / {:.3} ms", l.cpu_busy_mean_ms, l.gpu_busy_mean_ms)).strong())
            .labelled_by(label.id);
        ui.end_row();
    });
}
