//! The timeline's hover: over the label column, a row's whole name and what its colours
//! mean; over the track, the lines of the row under the pointer (its value for the
//! frame there, and for the pixel column when it holds several), then the frame.

use super::super::theme;
use super::row::{HoverAt, RowContext, TimelineRow};
use eframe::egui::{self, Response};

/// Over the label column: the row's title and hint.
pub fn label(response: &Response, ctx: &RowContext<'_>, row: &dyn TimelineRow) {
    let mut text = row.title(ctx);
    text.push_str(&row.hint(ctx));
    response.clone().on_hover_text_at_pointer(text);
}

/// Over the track: a tooltip with the lines of `row` (the row under the pointer, with
/// where the pointer is in it) and the frame under the pointer. The frame row says
/// nothing between frames; the other rows always answer.
pub fn track(response: &Response, ctx: &RowContext<'_>, row: Option<&dyn TimelineRow>, at: &HoverAt) {
    if at.frame.is_none() && row.is_none_or(TimelineRow::hover_needs_frame) {
        return;
    }
    response.clone().on_hover_ui_at_pointer(|ui| {
        for line in row.map(|r| r.hover(ctx, at)).unwrap_or_default() {
            ui.label(line);
        }
        if let Some(i) = at.frame {
            ui.separator();
            frame_ui(ui, ctx, i);
        }
    });
}

/// The frame (or sample) `i`: its place, intervals, kind and marks.
fn frame_ui(ui: &mut egui::Ui, ctx: &RowContext<'_>, i: usize) {
    let f = &ctx.trace().frames;
    let ft = f.frame_time_ms[i];
    if f.is_sampled() {
        ui.label(format!("Sample {i}  ·  line {}", f.line.get(i).unwrap_or_default()));
        ui.label(format!("{:.3} s from {:.3} s", f.span_ms(i) / 1000.0, f.start_ms[i] / 1000.0));
        ui.label(format!("average {:.1} FPS (frame time {ft:.3} ms)", 1000.0 / ft));
        return;
    }
    ui.label(format!("Frame {i}  ·  line {}", f.line.get(i).unwrap_or_default()));
    ui.label(format!("starts at {:.3} s", f.start_ms[i] / 1000.0));
    if let Some(t) = f.frame_type.get(i).filter(|t| t.is_generated()) {
        ui.label(format!("generated frame ({})", t.name()));
    }
    let interval = |ms: f64| format!("{ms:.3} ms ({:.1} FPS)", 1000.0 / ms);
    let d = f.display(i);
    let (present, display) = (
        if ft > 0.0 { interval(ft) } else { "none".to_owned() },
        if d.is_finite() && d > 0.0 { interval(d) } else { "none".to_owned() },
    );
    if ctx.displays() {
        ui.label(format!("display interval {display}"));
        ui.label(format!("present interval {present}"));
    } else {
        ui.label(format!("frame time {present}"));
        if d.is_finite() {
            ui.label(format!("display {display}"));
        }
    }
    if f.is_dropped(i) {
        ui.label("dropped (never displayed)");
    }
    if let Some(a) = ctx.analyzed() {
        let idx = i as u32;
        if a.marks.stutters.binary_search(&idx).is_ok() {
            ui.colored_label(theme::STUTTER, "stutter");
        }
        let spiked: Vec<&str> = a
            .marks
            .spikes
            .iter()
            .filter(|(_, s)| s.binary_search(&idx).is_ok())
            .map(|(n, _)| n.as_str())
            .collect();
        if !spiked.is_empty() {
            ui.label(format!("spiked: {}", spiked.join(", ")));
        }
    }
}
