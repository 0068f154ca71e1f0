//! Rows the user resizes: every row's height (the user's for a row whose bottom edge
//! was dragged, else its own stretched to share the panel's height), and the drag
//! handles on the rows' bottom edges in the label column — drag to resize, double-click
//! to give the row back its shared height.

use super::row::{RowContext, Rows, TimelineRow};
use super::{Command, Input, LABEL_WIDTH, RULER_HEIGHT};
use crate::app::row_choice::RowKey;
use eframe::egui::{self, CursorIcon, Rect, Sense, pos2};

/// How far from a row's bottom edge the pointer grabs it, points.
const GRIP: f32 = 3.0;

/// Each row's height, top to bottom: the user's for a resized row, else its own times
/// the input's height scale (never less than its own for a row that [`squeezes`] not).
#[must_use]
pub fn heights(rows: &Rows<'_>, input: &Input<'_>) -> Vec<f32> {
    let scale = input.height_scale.max(super::MIN_HEIGHT_SCALE);
    rows.iter()
        .map(|r| {
            let key = r.key();
            let own = if squeezes(r.as_ref()) { scale } else { scale.max(1.0) };
            // Squeezed, a row keeps one line of its label (never cut into the next row).
            let squeezed = (r.height() * own).max(MIN_ROW_HEIGHT.min(r.height()));
            input.row_heights.iter().find(|(k, _)| *k == key).map_or(squeezed, |(_, h)| *h)
        })
        .collect()
}

/// The least height of a squeezed row: one line of its label (12 px text and margins).
pub const MIN_ROW_HEIGHT: f32 = 20.0;

/// False for the rows whose label cell lists lanes or keys one per line (health spikes,
/// latency stages, the CPU · GPU key): they keep at least their own height when the
/// rows are squeezed.
#[must_use]
pub fn squeezes(row: &dyn TimelineRow) -> bool {
    !matches!(row.key(), RowKey::Kind("health" | "latency" | "cpu-gpu"))
}

/// The handles on the rows' bottom edges (in the label column of the timeline drawn in
/// `rect`): the commands a drag or a double-click gives.
pub fn edges(
    ui: &egui::Ui,
    timeline: &egui::Response,
    ctx: &RowContext<'_>,
    (rows, heights): (&Rows<'_>, &[f32]),
    rect: Rect,
) -> Vec<Command> {
    let mut out = Vec::new();
    let mut bottom = rect.top() + RULER_HEIGHT;
    for (row, &h) in rows.iter().zip(heights) {
        bottom += h;
        let grip = Rect::from_min_max(
            pos2(rect.left(), bottom - GRIP),
            pos2(rect.left() + LABEL_WIDTH, bottom + GRIP),
        );
        let key = row.key();
        let id = timeline.id.with(("row edge", key));
        let r = ui.interact(grip, id, Sense::click_and_drag());
        let title = row.title(ctx);
        r.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Splitter, true, format!("Resize row {title}"))
        });
        if r.hovered() || r.dragged() {
            ui.ctx().set_cursor_icon(CursorIcon::ResizeVertical);
        }
        if let Some(height) = dragged_height(ui, &r, id, h) {
            out.push(Command::RowHeight { row: key, height: Some(height) });
        } else if r.double_clicked() {
            out.push(Command::RowHeight { row: key, height: None });
        }
        r.on_hover_text(format!(
            "Drag to resize the row {title}; double-click: back to the height the rows share"
        ));
    }
    out
}

/// The height a dragged edge gives its row (`h` high when the drag started): the
/// height at the start plus how far the pointer moved since it was pressed.
fn dragged_height(ui: &egui::Ui, r: &egui::Response, id: egui::Id, h: f32) -> Option<f32> {
    let y = r.interact_pointer_pos()?.y;
    if r.drag_started() {
        let pressed = ui.input(|i| i.pointer.press_origin()).map_or(y, |p| p.y);
        ui.data_mut(|d| d.insert_temp(id, (h, pressed)));
    }
    if !r.dragged() {
        return None;
    }
    let (start_h, start_y) = ui.data(|d| d.get_temp::<(f32, f32)>(id)).unwrap_or((h, y));
    let wanted = start_h + (y - start_y);
    ((wanted - h).abs() >= 0.5).then_some(wanted)
}
