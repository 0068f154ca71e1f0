//! The comparison at a glance (`report::compare::Glance`): average FPS and the main
//! latency figure side by side, large and coloured, with a warning when both rose —
//! frame generation's trade (more frames, each input shown later) in one look.

use crate::app::theme;
use eframe::egui::{self, RichText};
use framescope_core::report::compare::Glance;

/// What the warning means, for its tooltip.
const BOTH_UP_HELP: &str = "The frame rate rose, but so did the time from input to photon: the extra frames \
    (frame generation, deeper queues) make motion smoother without making the game respond sooner.";

/// Draws the glance of two runs when both have an average FPS.
pub fn glance_ui(ui: &mut egui::Ui, glance: Option<Glance>) {
    let Some(g) = glance else { return };
    let change =
        |b: f64, o: f64| if b == 0.0 { "—".to_owned() } else { format!("{:+.1} %", (o - b) / b * 100.0) };
    let plain = ui.visuals().text_color();
    // Higher FPS is better, higher latency worse; within 1 % either way is plain text.
    let colour = |b: f64, o: f64, higher_is_better: bool| {
        let r = if b == 0.0 { 0.0 } else { (o - b) / b };
        match (r.abs() <= 0.01, (r > 0.0) == higher_is_better) {
            (true, _) => plain,
            (false, true) => theme::BETTER,
            (false, false) => theme::WORSE,
        }
    };
    ui.horizontal_wrapped(|ui| {
        let (b, o) = g.fps;
        let text = format!("FPS {b:.2} to {o:.2} ({})", change(b, o));
        ui.label(RichText::new(text).strong().size(15.0).color(colour(b, o, true)));
        if let Some((label, b, o)) = g.latency {
            let text = format!("{label} {b:.2} to {o:.2} ms ({})", change(b, o));
            ui.label(RichText::new(text).strong().size(15.0).color(colour(b, o, false)));
        }
    });
    if g.fps_and_latency_up() {
        ui.colored_label(theme::WORSE, "FPS up and latency up: the extra frames do not respond sooner")
            .on_hover_text(BOTH_UP_HELP);
    }
}
