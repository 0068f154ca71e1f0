//! The *Map columns* step's further columns (issue 20): one picker each for the GPU
//! time, CPU time and PC latency column, and a list of telemetry columns, all kept
//! in the mapping's [`ExtraColumn`]s (the ingest layer reads them; the UI only names
//! them).

use super::mapping::MappingStep;
use eframe::egui;
use framescope_core::ingest::unit_from_name;
use framescope_core::ingest::{ExtraColumn, ExtraRole};

/// What "no column" reads as in a picker.
const NONE: &str = "none";

/// The pickers under the frame-time choice.
pub fn extra_ui(ui: &mut egui::Ui, step: &mut MappingStep) {
    ui.label("Other columns (optional): they become the run's rows and figures.");
    egui::Grid::new("map_extra").num_columns(2).show(ui, |ui| {
        for role in ExtraRole::ALL.into_iter().filter(|r| r.is_single()) {
            single_ui(ui, step, role);
            ui.end_row();
        }
    });
    telemetry_ui(ui, step);
    // A column is the frame time or one extra role, not both.
    let frame_time = step.choice.column.clone();
    step.choice.extra.retain(|e| e.column != frame_time);
}

/// The picker of a role a file has one column of.
fn single_ui(ui: &mut egui::Ui, step: &mut MappingStep, role: ExtraRole) {
    let label = ui.label(format!("{} column", role.label()));
    let current = step.choice.extra.iter().find(|e| e.role == role).map(|e| e.column.clone());
    let mut picked = current.clone();
    egui::ComboBox::from_id_salt(("map_extra", role.label()))
        .selected_text(current.as_deref().unwrap_or(NONE))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut picked, None, NONE);
            for name in step.unknown.columns.iter().filter(|c| **c != step.choice.column) {
                ui.selectable_value(&mut picked, Some(name.clone()), name);
            }
        })
        .response
        .labelled_by(label.id);
    if picked != current {
        set(&mut step.choice.extra, role, picked);
    }
}

/// Gives `role` to `column` alone (or to no column); a column holds one role.
fn set(extra: &mut Vec<ExtraColumn>, role: ExtraRole, column: Option<String>) {
    extra.retain(|e| !(role.is_single() && e.role == role) && Some(&e.column) != column.as_ref());
    if let Some(column) = column {
        let unit = unit_from_name(&column);
        extra.push(ExtraColumn { role, column, unit });
    }
}

/// The telemetry columns: a check box per column, folded away until opened.
fn telemetry_ui(ui: &mut egui::Ui, step: &mut MappingStep) {
    egui::CollapsingHeader::new("Telemetry rows").id_salt("map_telemetry").show(ui, |ui| {
        egui::ScrollArea::vertical().max_height(120.0).show(ui, |ui| {
            let names: Vec<String> =
                step.unknown.columns.iter().filter(|c| **c != step.choice.column).cloned().collect();
            for name in names {
                let on = step.choice.extra.iter().any(|e| e.column == name && e.role == ExtraRole::Telemetry);
                let mut checked = on;
                ui.checkbox(&mut checked, format!("{name} as telemetry"));
                if checked != on {
                    if checked {
                        set(&mut step.choice.extra, ExtraRole::Telemetry, Some(name));
                    } else {
                        step.choice.extra.retain(|e| e.column != name);
                    }
                }
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_holds_one_role_and_a_single_role_one_column() {
        let mut extra = Vec::new();
        set(&mut extra, ExtraRole::GpuTime, Some("gpu_us".into()));
        set(&mut extra, ExtraRole::Telemetry, Some("temp".into()));
        set(&mut extra, ExtraRole::Telemetry, Some("fan".into()));
        assert_eq!(extra.len(), 3);
        assert_eq!(extra[0].unit, framescope_core::ingest::TimeUnit::Micros);
        // Another GPU column replaces the first; the temperature becomes the CPU time.
        set(&mut extra, ExtraRole::GpuTime, Some("gpu2".into()));
        set(&mut extra, ExtraRole::CpuTime, Some("temp".into()));
        let roles: Vec<(ExtraRole, &str)> = extra.iter().map(|e| (e.role, e.column.as_str())).collect();
        assert_eq!(
            roles,
            [(ExtraRole::Telemetry, "fan"), (ExtraRole::GpuTime, "gpu2"), (ExtraRole::CpuTime, "temp")]
        );
        set(&mut extra, ExtraRole::GpuTime, None);
        assert_eq!(extra.len(), 2);
    }
}
