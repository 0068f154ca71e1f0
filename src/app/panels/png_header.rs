//! The header of an exported timeline PNG, drawn above the legend while the picture
//! is taken: what it shows (the runs), where it comes from (format, application) and
//! the settings its colours and marks depend on (target, stutter rule, frame-time
//! source, trim), so that a picture shared alone still says what it is.

use super::Model;
use eframe::egui::{self, RichText};

/// The header: a title line with the runs' names, and a line of settings.
pub fn png_header_ui(ui: &mut egui::Ui, m: &Model<'_>) {
    let s = m.session;
    let shown = s.shown_runs();
    let names: Vec<&str> = shown.iter().map(|r| r.label.as_str()).collect();
    ui.label(RichText::new(format!("framescope — {}", names.join(" vs "))).strong().size(15.0));
    let Some(run) = shown.first() else { return };
    let p = m.persisted;
    let source = run.analyzed().map_or("—", |a| a.run.frame_time);
    let trim = m.run_trim(run.id);
    let trim = if trim.is_none() {
        "no trim".to_owned()
    } else {
        format!("trimmed {} s at the start, {} s at the end", trim.start_s, trim.end_s)
    };
    ui.label(format!(
        "{} ({}) · {} · target {} FPS · stutters: {} % above the local median and {} ms · frame time: {source} · {trim}",
        run.capture.info.format,
        run.capture.info.format_version,
        run.shown_trace().meta.application,
        crate::app::timeline::fps_text(p.target_fps),
        p.stutter_threshold * 100.0,
        p.stutter_floor_ms,
    ));
}
