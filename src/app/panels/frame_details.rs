//! The selected frame (of any shown run): every column of the frame, with its stutter,
//! oscillation and health verdicts when the figures are ready.

use super::Model;
use crate::app::work::Marks;
use eframe::egui;
use framescope_core::analysis::FrameTimeSource;
use framescope_core::model::Trace;

/// The selected frame's heading and details, when a frame is selected.
pub fn selected_frame_ui(ui: &mut egui::Ui, m: &Model<'_>) {
    if let Some((r, i)) = m.session.selected_frame()
        && let Some(run) = m.session.run(r)
    {
        ui.separator();
        ui.heading(format!("Frame of {}", run.label));
        let marks = run.analyzed().map(|a| &a.marks);
        let display = run.analyzed().is_some_and(|a| a.prepared.source == FrameTimeSource::Display);
        frame_details_ui(ui, run.shown_trace(), marks, i, display);
    }
}

/// Every column of one frame, with its stutter and health verdicts when the figures
/// are ready; "Frame time" is the analysed series' (the display interval when
/// `display`).
pub fn frame_details_ui(ui: &mut egui::Ui, trace: &Trace, marks: Option<&Marks>, i: usize, display: bool) {
    let f = &trace.frames;
    if i >= trace.len() {
        return;
    }
    let value_width = (ui.available_width() - 140.0).max(60.0);
    egui::Grid::new("frame_details").num_columns(2).striped(true).max_col_width(value_width).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.add(egui::Label::new(name).wrap());
            ui.add(egui::Label::new(value).wrap());
            ui.end_row();
        };
        row(if f.is_sampled() { "Sample" } else { "Frame" }, i.to_string());
        row("File line", f.line.get(i).unwrap_or_default().to_string());
        if let Some(m) = marks {
            let idx = i as u32;
            let stutter = m.stutters.binary_search(&idx).is_ok();
            row("Stutter", if stutter { "yes" } else { "no" }.into());
            // Runs are ascending and disjoint: the first run not ending before `idx`.
            let k = m.oscillating.partition_point(|&(_, b)| b < idx);
            let oscillating = m.oscillating.get(k).is_some_and(|&(a, _)| a <= idx);
            row(
                "Oscillating",
                if oscillating { "yes (a stutter here may be a false positive)" } else { "no" }.into(),
            );
            let spiked: Vec<&str> = m
                .spikes
                .iter()
                .filter(|(_, s)| s.binary_search(&idx).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            let before: Vec<&str> = m
                .spikes
                .iter()
                .filter(|(_, s)| idx > 0 && s.binary_search(&(idx - 1)).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            row("Spiked", if spiked.is_empty() { "—".into() } else { spiked.join(", ") });
            row("Spiked the frame before", if before.is_empty() { "—".into() } else { before.join(", ") });
        }
        row("Start", format!("{:.3} ms", f.start_ms[i]));
        if display {
            let d = f.display(i);
            let v = if d.is_finite() {
                format!("{d:.3} ms (display, analysed)")
            } else {
                "— (not displayed)".into()
            };
            row("Frame time", v);
            row("Present interval", format!("{:.3} ms", f.frame_time_ms[i]));
        } else {
            row("Frame time", format!("{:.3} ms", f.frame_time_ms[i]));
        }
        if f.is_sampled() {
            row(
                "Sample interval",
                format!("{:.3} ms ({:.2} FPS average)", f.span_ms(i), 1000.0 / f.frame_time_ms[i]),
            );
        }
        row("Display", if f.display(i).is_finite() { format!("{:.3} ms", f.display(i)) } else { "—".into() });
        row("Dropped", if f.is_dropped(i) { "yes" } else { "no" }.into());
        if let Some(m) = f.present_mode.get(i).and_then(|&m| trace.meta.present_modes.get(usize::from(m))) {
            row("Present mode", m.clone());
        }
        if let Some(t) = f.frame_type.get(i) {
            row("Frame type", t.name().into());
        }
        for c in &f.columns {
            let v = c.values.at(i);
            row(&c.name, if v.is_finite() { format!("{v}") } else { "—".into() });
        }
    });
}
