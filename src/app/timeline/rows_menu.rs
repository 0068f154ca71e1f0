//! The right-click menu on a timeline row: hide a telemetry row, move it up or down,
//! or show one that is hidden (the same choice as View › Rows, remembered per capture
//! format). The row right-clicked is kept in egui's memory while the menu is open.

use super::{Command, Input};
use crate::app::row_choice::RowAction;
use eframe::egui;

/// The menu's commands; `row_at(y)` names the row at height `y` (its title and its
/// telemetry track, if it is one).
pub fn context_menu(
    ui: &egui::Ui,
    response: &egui::Response,
    input: &Input<'_>,
    row_at: impl Fn(f32) -> Option<(String, Option<usize>)>,
) -> Vec<Command> {
    let id = response.id.with("row_menu");
    if response.secondary_clicked()
        && let Some(pos) = response.interact_pointer_pos()
    {
        let row = row_at(pos.y);
        ui.data_mut(|d| d.insert_temp(id, row));
    }
    let mut out = Vec::new();
    response.context_menu(|ui| {
        let row: Option<(String, Option<usize>)> = ui.data(|d| d.get_temp(id)).flatten();
        out = menu_ui(ui, input, row);
    });
    out
}

/// The menu for the row right-clicked (title, telemetry track).
fn menu_ui(ui: &mut egui::Ui, input: &Input<'_>, row: Option<(String, Option<usize>)>) -> Vec<Command> {
    let mut out = Vec::new();
    let shown = input.telemetry_rows;
    let all = &input.tracks.telemetry;
    if let Some((title, track)) = row {
        ui.label(egui::RichText::new(title).strong());
        if let Some(t) = track {
            let at = shown.iter().position(|&s| s == t);
            let actions = [
                ("Hide this row", RowAction::Hide, true),
                ("Move up", RowAction::Up, at.is_some_and(|k| k > 0)),
                ("Move down", RowAction::Down, at.is_some_and(|k| k + 1 < shown.len())),
            ];
            for (text, action, enabled) in actions {
                if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
                    out.push(Command::Row { track: t, action });
                    ui.close();
                }
            }
        }
        ui.separator();
    }
    if input.compact {
        ui.label("Telemetry rows are left out while comparing");
        return out;
    }
    let hidden: Vec<usize> = (0..all.len()).filter(|t| !shown.contains(t)).collect();
    if hidden.is_empty() {
        ui.label("Every telemetry row is shown");
    }
    ui.add_enabled_ui(!hidden.is_empty(), |ui| {
        ui.menu_button("Show a telemetry row", |ui| {
            for t in hidden {
                if ui.button(&all[t].name).clicked() {
                    out.push(Command::Row { track: t, action: RowAction::Show });
                    ui.close();
                }
            }
        });
    });
    out
}
