//! View › Rows: every telemetry column of the shown run's trace with a tick (shown or
//! hidden) and buttons that move a shown row up or down; the choice is remembered for
//! the capture's format (as the right-click menu on a row does).

use super::Model;
use crate::app::row_choice::RowAction;
use crate::app::session::AppCommand;
use crate::app::timeline::Command;
use eframe::egui;

/// The Rows submenu's contents.
pub fn rows_menu(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let Some(run) = m.session.selected_run() else {
        ui.label("No capture open");
        return;
    };
    let Some(tracks) = run.tracks() else {
        ui.label("Still loading");
        return;
    };
    ui.label(format!("Telemetry rows for {} captures (remembered)", run.capture.info.format.name()));
    if tracks.telemetry.is_empty() {
        ui.label("This trace has no telemetry column with varying values");
        return;
    }
    let shown = m.telemetry_rows(run.id);
    let mut edit = |track: usize, action: RowAction| {
        out.push(AppCommand::Timeline { run: run.id, command: Command::Row { track, action } });
    };
    egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
        // Shown rows first, in their order, then the hidden ones in the file's order.
        let hidden = (0..tracks.telemetry.len()).filter(|t| !shown.contains(t));
        for (k, t) in shown.iter().copied().chain(hidden).enumerate() {
            let track = &tracks.telemetry[t];
            let place = (k < shown.len()).then_some(k);
            ui.horizontal(|ui| {
                let mut on = place.is_some();
                let unit = if track.unit.is_empty() { String::new() } else { format!(" ({})", track.unit) };
                if ui.checkbox(&mut on, format!("{}{unit}", track.name)).changed() {
                    edit(t, if on { RowAction::Show } else { RowAction::Hide });
                }
                if let Some(k) = place {
                    if ui.add_enabled(k > 0, egui::Button::new("Up").small()).clicked() {
                        edit(t, RowAction::Up);
                    }
                    if ui.add_enabled(k + 1 < shown.len(), egui::Button::new("Down").small()).clicked() {
                        edit(t, RowAction::Down);
                    }
                }
            });
        }
    });
}
