//! The timeline: one time axis with a ruler and rows stacked like Nsight's frame view
//! — frame durations coloured against the target, GPU and display durations, the
//! stutter row with oscillating stretches, frame health, latency stages, telemetry —
//! with VSYNC markers, hover tooltips, a time selection and a selected frame.
//!
//! The timeline only reads; user actions come back as [`Command`]s that the app
//! applies in one place.

pub mod lod;
mod rows;
pub mod view;

use super::analysis::{Analyzed, Tracks};
use super::theme;
use crate::analysis::FrameTimeSource;
use crate::model::Trace;
use eframe::egui::{self, Align2, FontId, Key, Rect, Sense, Stroke, pos2, vec2};
use std::sync::{Arc, Mutex};
pub use view::TimeView;

/// Width of the label column on the left.
pub const LABEL_WIDTH: f32 = 150.0;
const RULER_HEIGHT: f32 = 22.0;

/// What the user asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    /// Show this time range.
    View(TimeView),
    /// Select a time range (ms), or clear the selection.
    Select(Option<(f64, f64)>),
    /// Select a frame, or clear.
    SelectFrame(Option<usize>),
    /// Zoom to the selection.
    ZoomToSelection,
    /// Show the whole trace.
    ResetView,
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// The pointer is over the timeline at this time (ms), for the linked cursor.
    Cursor(f64),
}

/// What the timeline draws.
pub struct Input<'a> {
    /// The trace.
    pub trace: &'a Trace,
    /// Its LOD data.
    pub tracks: &'a Tracks,
    /// The figures, when ready.
    pub analyzed: Option<&'a Analyzed>,
    /// The frame-time source the figures are computed on (`Presents` or `Display`):
    /// the frame row draws that series, the row below it the other one.
    pub source: FrameTimeSource,
    /// Target rate.
    pub target_fps: f64,
    /// Visible range.
    pub view: TimeView,
    /// Selected time range.
    pub selection: Option<(f64, f64)>,
    /// Selected frame.
    pub selected_frame: Option<usize>,
    /// A time (ms) to mark with a vertical line: the linked cursor of compared runs.
    pub cursor_ms: Option<f64>,
    /// Leave out the telemetry rows (compared runs stack several timelines).
    pub compact: bool,
}

#[derive(Clone, Copy)]
enum Row {
    /// The analysed series: present or display intervals.
    FrameTime,
    Gpu,
    /// Display intervals, when the frame row shows present intervals.
    Display,
    /// Present intervals, when the frame row shows display intervals.
    Presents,
    Stutters,
    Health,
    Latency,
    Telemetry(usize),
}

fn rows_of(input: &Input<'_>) -> Vec<(Row, f32)> {
    let t = input.tracks;
    let mut rows = vec![(Row::FrameTime, 110.0)];
    if t.gpu.is_some() {
        rows.push((Row::Gpu, 60.0));
    }
    if displays(input) {
        rows.push((Row::Presents, 60.0));
    } else if t.display.is_some() {
        rows.push((Row::Display, 60.0));
    }
    rows.push((Row::Stutters, 24.0));
    let lanes = input.analyzed.map_or(0, |a| a.marks.spikes.len());
    if lanes > 0 {
        rows.push((Row::Health, 10.0 * lanes as f32 + 6.0));
    }
    if latency_stack(input).is_some() {
        rows.push((Row::Latency, 70.0));
    }
    if !input.compact {
        rows.extend((0..t.telemetry.len()).map(|i| (Row::Telemetry(i), 40.0)));
    }
    rows
}

/// True when the frame row draws display intervals.
fn displays(input: &Input<'_>) -> bool {
    input.source == FrameTimeSource::Display && input.tracks.display.is_some()
}

/// Total height the timeline wants.
#[must_use]
pub fn desired_height(input: &Input<'_>) -> f32 {
    RULER_HEIGHT + rows_of(input).iter().map(|(_, h)| h).sum::<f32>()
}

/// Draws the timeline in the available width and returns the user's commands.
pub fn timeline_ui(ui: &mut egui::Ui, input: &Input<'_>) -> Vec<Command> {
    let size = vec2(ui.available_width(), desired_height(input));
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Timeline"));
    let track = Rect::from_min_max(pos2(rect.left() + LABEL_WIDTH, rect.top()), rect.max);
    let f = &input.trace.frames;
    let width = track.width().max(1.0);
    let cache_id = response.id.with("columns");
    let cache: Arc<Mutex<lod::ColumnCache>> =
        ui.data_mut(|d| d.get_temp_mut_or_default::<Arc<Mutex<lod::ColumnCache>>>(cache_id).clone());
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = (
        std::ptr::from_ref(input.trace) as usize,
        input.view.start_ms.to_bits(),
        input.view.span_ms.to_bits(),
        width.to_bits(),
        input.analyzed.map_or(0, |a| std::ptr::from_ref(a) as usize),
    );
    cache.prepare(key, || {
        let dt = input.view.ms_per_px(width);
        lod::column_ranges(&f.start_ms, f.spans_ms(), input.view.start_ms, dt, width as usize)
    });
    let columns = cache.columns.clone();
    let budget_ms = 1000.0 / input.target_fps;
    let frame = rows::Frame {
        trace: input.trace,
        analyzed: input.analyzed,
        budget_ms,
        view: input.view,
        left: track.left(),
        width,
        columns,
    };
    if ui.is_rect_visible(rect) {
        paint(&ui.painter_at(rect), input, &frame, &mut cache, rect, track);
    }
    let mut commands = interact(ui, &response, input, track);
    // Over the label column: the row's whole label (a long one is cut to fit).
    if let Some(pos) = response.hover_pos().filter(|p| p.x < track.left() && p.y > rect.top() + RULER_HEIGHT)
    {
        let mut top = rect.top() + RULER_HEIGHT;
        for (row, h) in rows_of(input) {
            if pos.y < top + h {
                let mut text = row_label(input, row).replace('\n', " ");
                text.push_str(row_hint(input, row));
                response.clone().on_hover_text_at_pointer(text);
                break;
            }
            top += h;
        }
    }
    if let Some(pos) = response.hover_pos().filter(|p| track.contains(*p)) {
        let t = input.view.time_at(pos.x, track.left(), width);
        commands.push(Command::Cursor(t));
        if let Some(i) = frame_at(input.trace, t) {
            response.clone().on_hover_ui_at_pointer(|ui| frame_tooltip(ui, input, i));
            if response.clicked() {
                commands.push(Command::SelectFrame(Some(i)));
            }
        }
    }
    commands
}

fn paint(
    p: &egui::Painter,
    input: &Input<'_>,
    frame: &rows::Frame<'_>,
    cache: &mut lod::ColumnCache,
    rect: Rect,
    track: Rect,
) {
    let t = input.tracks;
    let ruler =
        Rect::from_min_max(pos2(track.left(), rect.top()), pos2(rect.right(), rect.top() + RULER_HEIGHT));
    rows::ruler(p, frame, ruler);
    let mut y = rect.top() + RULER_HEIGHT;
    let frames_top = y;
    // The target line stays in view whatever the trace's own scale.
    let scale = t.scale_ms.max(frame.budget_ms * 1.5);
    let display_scale = t.display_scale_ms.max(frame.budget_ms * 1.5);
    let mut frames_bottom = y;
    for (k, (row, h)) in rows_of(input).into_iter().enumerate() {
        let band = Rect::from_min_max(pos2(rect.left(), y), pos2(rect.right(), y + h));
        p.rect_filled(band, 0.0, theme::ROW_BACKGROUND[k % 2]);
        let area = Rect::from_min_max(pos2(track.left(), y + 1.0), pos2(track.right(), y + h - 1.0));
        // Labels wrap within the label column and never spill onto the rows' data
        // (telemetry names such as "GPU1 Temperature(Degrees celsius)" are long).
        let labels =
            p.with_clip_rect(Rect::from_min_max(pos2(rect.left(), y), pos2(track.left() - 2.0, y + h)));
        let label = row_label(input, row);
        let wrap = LABEL_WIDTH - 10.0;
        let galley = labels.layout(label, FontId::proportional(12.0), theme::TEXT, wrap);
        labels.galley(pos2(rect.left() + 6.0, y + 4.0), galley, theme::TEXT);
        let f = &input.trace.frames;
        match row {
            Row::FrameTime => frame_row(p, input, frame, cache, area, (scale, display_scale)),
            Row::Presents => {
                let picks = cache.picks((0, 0), &t.frame_time, &f.frame_time_ms);
                rows::bars(p, frame, area, &f.frame_time_ms, picks, scale);
            }
            Row::Gpu => {
                if let Some((_, col, index)) = &t.gpu {
                    let picks = cache.picks((1, 0), index, &f.columns[*col].values);
                    rows::bars(p, frame, area, &f.columns[*col].values, picks, scale);
                }
            }
            Row::Display => {
                if let Some((values, index)) = &t.display {
                    let picks = cache.picks((2, 0), index, values);
                    rows::bars(p, frame, area, values, picks, display_scale);
                    let marks = Rect::from_min_max(pos2(area.left(), area.bottom() - 5.0), area.max);
                    rows::ticks(p, frame, marks, &t.dropped, theme::DROPPED);
                }
            }
            Row::Stutters => {
                if let Some(a) = input.analyzed {
                    rows::shade_runs(p, frame, area, &a.marks.oscillating, theme::OSCILLATING);
                    // Stutters inside oscillating stretches may be false positives
                    // (metrics.md §5): faint and short, under the others.
                    let (clear, oscillating) = &a.marks.stutters_by_osc;
                    let low = Rect::from_min_max(pos2(area.left(), area.center().y), area.max);
                    rows::ticks(p, frame, low, oscillating, theme::STUTTER_IN_OSC);
                    rows::ticks(p, frame, area, clear, theme::STUTTER);
                }
            }
            Row::Health => {
                if let Some(a) = input.analyzed {
                    for (lane, (name, spikes)) in a.marks.spikes.iter().enumerate() {
                        let top = area.top() + 2.0 + 10.0 * lane as f32;
                        let lane_rect =
                            Rect::from_min_max(pos2(area.left(), top), pos2(area.right(), top + 8.0));
                        rows::ticks(p, frame, lane_rect, spikes, theme::SPIKE);
                        labels.text(
                            pos2(rect.left() + 70.0, top - 1.0),
                            Align2::LEFT_TOP,
                            name,
                            FontId::proportional(9.0),
                            theme::TEXT,
                        );
                    }
                }
            }
            Row::Latency => {
                if let Some(stack) = latency_stack(input) {
                    let kind = if input.analyzed.is_some_and(|a| a.pcl.is_some()) { 4 } else { 3 };
                    let picks = cache.picks((kind, 0), &stack.index, &stack.total);
                    rows::latency(p, frame, area, stack, picks);
                }
            }
            Row::Telemetry(i) => {
                let (_, col, index, lo, hi) = &t.telemetry[i];
                let picks = cache.picks((5, i), index, &f.columns[*col].values);
                rows::telemetry(p, frame, area, &f.columns[*col].values, picks, *lo, *hi);
            }
        }
        if matches!(row, Row::FrameTime | Row::Gpu | Row::Display | Row::Presents) {
            frames_bottom = y + h;
        }
        y += h;
    }
    let frame_rows = Rect::from_min_max(pos2(track.left(), frames_top), pos2(track.right(), frames_bottom));
    rows::vsync(p, frame, frame_rows);
    overlays(p, input, frame, track);
}

/// The frame row: the analysed series (present or display intervals), generated
/// frames lighter, dropped frames marked under the display source.
fn frame_row(
    p: &egui::Painter,
    input: &Input<'_>,
    frame: &rows::Frame<'_>,
    cache: &mut lod::ColumnCache,
    area: Rect,
    (scale, display_scale): (f64, f64),
) {
    let (t, f) = (input.tracks, &input.trace.frames);
    // Picks are cached per series (0 presents, 2 display), whichever row shows it.
    let (key, values, index, scale) = match &t.display {
        Some((values, index)) if displays(input) => ((2, 0), values, index, display_scale),
        _ => ((0, 0), &f.frame_time_ms, &t.frame_time, scale),
    };
    let picks = cache.picks(key, index, values);
    rows::bars(p, frame, area, values, picks, scale);
    if t.generated {
        rows::generated_bars(p, frame, area, values, picks, scale);
        rows::frame_kinds_legend(p, area);
    }
    if displays(input) {
        let marks = Rect::from_min_max(pos2(area.left(), area.bottom() - 5.0), area.max);
        rows::ticks(p, frame, marks, &t.dropped, theme::DROPPED);
    }
}

fn overlays(p: &egui::Painter, input: &Input<'_>, frame: &rows::Frame<'_>, track: Rect) {
    let width = frame.width;
    if let Some((a, b)) = input.selection {
        let x0 = input.view.x_of(a.min(b), track.left(), width).max(track.left());
        let x1 = input.view.x_of(a.max(b), track.left(), width).min(track.right());
        if x1 > x0 {
            p.rect_filled(
                Rect::from_min_max(pos2(x0, track.top()), pos2(x1, track.bottom())),
                0.0,
                theme::SELECTION,
            );
        }
    }
    if let Some(t) = input.cursor_ms {
        let x = input.view.x_of(t, track.left(), width);
        if x >= track.left() && x <= track.right() {
            p.line_segment([pos2(x, track.top()), pos2(x, track.bottom())], Stroke::new(1.0, theme::CURSOR));
        }
    }
    if let Some(i) = input.selected_frame.filter(|&i| i < input.trace.len()) {
        let f = &input.trace.frames;
        let x0 = input.view.x_of(f.start_ms[i], track.left(), width);
        let x1 = input.view.x_of(f.start_ms[i] + f.span_ms(i), track.left(), width).max(x0 + 2.0);
        let r = Rect::from_min_max(pos2(x0, track.top() + RULER_HEIGHT), pos2(x1, track.bottom()));
        p.rect_stroke(r, 0.0, Stroke::new(1.5, theme::SELECTED_FRAME), egui::StrokeKind::Outside);
    }
}

fn row_label(input: &Input<'_>, row: Row) -> String {
    let t = input.tracks;
    match row {
        Row::FrameTime => {
            let source = if displays(input) { "display" } else { "presents" };
            format!("Frame time: {source}\n(target {:.2} ms)", 1000.0 / input.target_fps)
        }
        Row::Gpu => t.gpu.as_ref().map_or_else(String::new, |(n, _, _)| format!("GPU\n{n}")),
        Row::Display => "Display\n(dropped marked)".to_owned(),
        Row::Presents => "Presents\n(not analysed)".to_owned(),
        Row::Stutters if input.trace.is_sampled() => "Stutters: sampled log".to_owned(),
        Row::Stutters => {
            let osc = input.analyzed.and_then(|a| a.run.osc.as_ref()).is_some_and(|o| o.flag);
            if osc { "Stutters  OSC".to_owned() } else { "Stutters".to_owned() }
        }
        Row::Health => "Health".to_owned(),
        Row::Latency => latency_stack(input).map_or_else(String::new, |s| s.label.to_owned()),
        Row::Telemetry(i) => t.telemetry[i].0.clone(),
    }
}

/// What the colours of a row mean, after its label on hover.
fn row_hint(input: &Input<'_>, row: Row) -> &'static str {
    match row {
        Row::FrameTime if input.tracks.generated => {
            "\nLighter bars: generated frames (frame generation); full colour: frames the game rendered."
        }
        Row::Presents => "\nPresent-to-present intervals; the figures use display intervals.",
        Row::Stutters if input.analyzed.is_some_and(|a| !a.marks.stutters_by_osc.1.is_empty()) => {
            "\nShaded: oscillating stretches; faint short marks: stutters inside them, possibly false positives."
        }
        _ => "",
    }
}

/// The latency stack the row shows: the PCL breakdown when a marker log is attached,
/// else the capture's own stages.
fn latency_stack<'a>(input: &Input<'a>) -> Option<&'a super::analysis::Stack> {
    input.analyzed.and_then(|a| a.pcl.as_ref()).or(input.tracks.latency.as_ref())
}

/// The frame (or sample) whose interval holds time `t`, if any.
#[must_use]
pub fn frame_at(trace: &Trace, t_ms: f64) -> Option<usize> {
    let f = &trace.frames;
    let i = f.start_ms.partition_point(|&s| s <= t_ms).checked_sub(1)?;
    (t_ms <= f.start_ms[i] + f.span_ms(i)).then_some(i)
}

fn frame_tooltip(ui: &mut egui::Ui, input: &Input<'_>, i: usize) {
    let f = &input.trace.frames;
    let ft = f.frame_time_ms[i];
    if f.is_sampled() {
        ui.label(format!("Sample {i}  ·  line {}", f.line[i]));
        ui.label(format!("{:.3} s from {:.3} s", f.span_ms(i) / 1000.0, f.start_ms[i] / 1000.0));
        ui.label(format!("average {:.1} FPS (frame time {ft:.3} ms)", 1000.0 / ft));
        return;
    }
    ui.label(format!("Frame {i}  ·  line {}", f.line[i]));
    ui.label(format!("starts at {:.3} s", f.start_ms[i] / 1000.0));
    if let Some(t) = f.frame_type.get(i).filter(|t| t.is_generated()) {
        ui.label(format!("generated frame ({})", t.name()));
    }
    let interval = |ms: f64| format!("{ms:.3} ms ({:.1} FPS)", 1000.0 / ms);
    let d = f.display_ms[i];
    let (present, display) = (
        if ft > 0.0 { interval(ft) } else { "none".to_owned() },
        if d.is_finite() && d > 0.0 { interval(d) } else { "none".to_owned() },
    );
    if displays(input) {
        ui.label(format!("display interval {display}"));
        ui.label(format!("present interval {present}"));
    } else {
        ui.label(format!("frame time {present}"));
        if d.is_finite() {
            ui.label(format!("display {display}"));
        }
    }
    if f.dropped[i] {
        ui.label("dropped (never displayed)");
    }
    if let Some(a) = input.analyzed {
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

/// Wheel zooms around the cursor, drag pans, shift-drag (or a drag on the ruler)
/// selects, double-click resets; keys when the pointer is over the timeline.
fn interact(ui: &egui::Ui, response: &egui::Response, input: &Input<'_>, track: Rect) -> Vec<Command> {
    let mut out = Vec::new();
    let width = track.width().max(1.0);
    let mut view = input.view;
    let id = response.id.with("selection_origin");
    if response.hovered() {
        let (scroll, zoom, shift) = ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.modifiers.shift));
        if let Some(pos) = response.hover_pos() {
            let t = view.time_at(pos.x, track.left(), width);
            let wheel = if shift { 0.0 } else { f64::from(scroll.y) };
            let factor = (-wheel * 0.003).exp() / f64::from(zoom);
            if (factor - 1.0).abs() > 1e-6 {
                view.zoom(factor, t);
            }
            let pan_px = if shift { scroll.y + scroll.x } else { scroll.x };
            view.pan(-f64::from(pan_px) * view.ms_per_px(width));
        }
        out.extend(keys(ui, &mut view, width));
    }
    // The drag starts where the button went down, not where egui decided it was a drag.
    if response.drag_started()
        && let Some(pos) = ui.input(|i| i.pointer.press_origin()).or_else(|| response.interact_pointer_pos())
    {
        let selecting = ui.input(|i| i.modifiers.shift) || pos.y < track.top() + RULER_HEIGHT;
        let origin = selecting.then(|| view.time_at(pos.x, track.left(), width));
        ui.data_mut(|d| d.insert_temp(id, origin));
    }
    if response.dragged() {
        let origin: Option<f64> = ui.data(|d| d.get_temp(id)).flatten();
        match (origin, response.interact_pointer_pos()) {
            (Some(a), Some(pos)) => {
                out.push(Command::Select(Some((a, view.time_at(pos.x, track.left(), width)))));
            }
            _ => view.pan(-f64::from(response.drag_delta().x) * view.ms_per_px(width)),
        }
    }
    if response.double_clicked() {
        out.push(Command::ResetView);
    } else if view != input.view {
        out.push(Command::View(view));
    }
    out
}

fn keys(ui: &egui::Ui, view: &mut TimeView, width: f32) -> Vec<Command> {
    let mut out = Vec::new();
    let centre = view.start_ms + view.span_ms / 2.0;
    ui.input(|i| {
        if i.key_pressed(Key::ArrowLeft) {
            view.pan(-view.span_ms * 0.2);
        }
        if i.key_pressed(Key::ArrowRight) {
            view.pan(view.span_ms * 0.2);
        }
        if i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals) || i.key_pressed(Key::ArrowUp) {
            view.zoom(0.5, centre);
        }
        if i.key_pressed(Key::Minus) || i.key_pressed(Key::ArrowDown) {
            view.zoom(2.0, centre);
        }
        if i.key_pressed(Key::Home) || i.key_pressed(Key::Num0) {
            out.push(Command::ResetView);
        }
        if i.key_pressed(Key::Z) {
            out.push(Command::ZoomToSelection);
        }
        if i.key_pressed(Key::Escape) {
            out.push(Command::Select(None));
            out.push(Command::SelectFrame(None));
        }
        if i.key_pressed(Key::F1) || i.key_pressed(Key::H) {
            out.push(Command::ToggleHelp);
        }
    });
    let _ = width;
    out
}

/// The keyboard and mouse help, as (keys, action) rows.
pub const HELP: [(&str, &str); 10] = [
    ("Mouse wheel", "zoom around the cursor"),
    ("Drag", "pan"),
    ("Shift + drag, or drag on the ruler", "select a time range"),
    ("Click a frame", "frame details"),
    ("Double-click, Home or 0", "show the whole trace"),
    ("Z", "zoom to the selection"),
    ("← / →", "pan"),
    ("+ / − or ↑ / ↓", "zoom in / out"),
    ("Esc", "clear the selection"),
    ("H or F1", "this help"),
];
