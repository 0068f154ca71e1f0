//! The timeline's input: wheel zoom around the cursor, drag to pan, shift-drag (or a
//! drag on the ruler) to select, a drag on a trim edge to move it, double-click to
//! reset, and the keys, all turned into [`Command`]s; and the help that lists them.

use super::{Command, Input, RULER_HEIGHT, TimeView};
use eframe::egui::{self, Key, Rect};

/// Wheel zooms around the cursor, drag pans, shift-drag (or a drag on the ruler)
/// selects, double-click resets; keys when the pointer is over the timeline.
pub fn interact(ui: &egui::Ui, response: &egui::Response, input: &Input<'_>, track: Rect) -> Vec<Command> {
    let mut out = Vec::new();
    let width = track.width().max(1.0);
    let mut view = input.view;
    let id = response.id.with("selection_origin");
    let edge_id = response.id.with("trim_edge");
    // A trim edge under the pointer (within 5 px): (is the start edge).
    let edge_at = |x: f32| -> Option<bool> {
        let t = input.trim?;
        let d = |ms: f64| (input.view.x_of(ms, track.left(), width) - x).abs();
        let (ds, de) = (d(t.from_ms), d(t.to_ms));
        (ds.min(de) <= 5.0).then_some(ds <= de)
    };
    if let Some(pos) = response.hover_pos()
        && edge_at(pos.x).is_some()
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::ResizeHorizontal);
    }
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
        out.extend(keys(ui, &mut view));
    }
    // The drag starts where the button went down, not where egui decided it was a drag.
    if response.drag_started()
        && let Some(pos) = ui.input(|i| i.pointer.press_origin()).or_else(|| response.interact_pointer_pos())
    {
        let edge = edge_at(pos.x).filter(|_| !ui.input(|i| i.modifiers.shift));
        ui.data_mut(|d| d.insert_temp(edge_id, edge));
        let selecting = ui.input(|i| i.modifiers.shift) || pos.y < track.top() + RULER_HEIGHT;
        let origin = (selecting && edge.is_none()).then(|| view.time_at(pos.x, track.left(), width));
        ui.data_mut(|d| d.insert_temp(id, origin));
    }
    let dragged_edge: Option<bool> = ui.data(|d| d.get_temp(edge_id)).flatten();
    if response.dragged()
        && let (Some(start), Some(pos)) = (dragged_edge, response.interact_pointer_pos())
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::ResizeHorizontal);
        out.push(Command::Trim { start, at_ms: view.time_at(pos.x, track.left(), width) });
    } else if response.dragged() {
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

fn keys(ui: &egui::Ui, view: &mut TimeView) -> Vec<Command> {
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
    out
}

/// The keyboard and mouse help, as (keys, action) rows (key names in words: the
/// default font has no arrow glyphs).
pub const HELP: [(&str, &str); 13] = [
    ("Mouse wheel", "zoom around the cursor"),
    ("Drag", "pan"),
    ("Shift + drag, or drag on the ruler", "select a time range"),
    ("Click a frame", "frame details"),
    ("Double-click, Home or 0", "show the whole trace"),
    ("Z", "zoom to the selection"),
    ("] / [ or N / Shift + N", "next / previous stutter (the list above the timeline)"),
    ("Left / Right arrow", "pan"),
    ("Shift + wheel", "pan"),
    ("+ / - or Up / Down arrow", "zoom in / out"),
    ("Esc", "close the open window, else clear the selection and the selected frame"),
    ("H or F1", "this help"),
    ("Hover a row's name", "what its colours and marks mean (also the legend above)"),
];
