//! The *Map columns* step (`formats.md` §11): a CSV of no known format opens through a
//! small window that lists its columns with their first values, proposes the likely
//! frame-time column ([`framescope_core::ingest::suggest`]), lets the user say whether
//! it holds frame times or timestamps and in which unit, and previews the frame times
//! that gives. The choice is remembered per header in the persisted settings; the
//! file is then read again by the ingest layer with that mapping (the UI never parses
//! the file: the columns and first values come with the load error).

use super::session::{AppCommand, ShellCommand};
use eframe::egui;
use framescope_core::ingest::{ColumnMapping, MappedRole, TimeUnit, UnknownColumns};
use framescope_core::ingest::{preview, suggest};
use std::path::PathBuf;

/// Values shown per column.
const PREVIEW_VALUES: usize = 5;
/// Columns listed at most (the ones whose values come with the load error).
const LISTED_COLUMNS: usize = 512;

/// A CSV waiting for the user's mapping.
#[derive(Debug, Clone)]
pub struct MappingStep {
    /// The file.
    pub path: PathBuf,
    /// Its name as shown.
    pub name: String,
    /// Its columns and first rows, from the load error.
    pub unknown: UnknownColumns,
    /// The mapping being chosen (starts at the suggestion).
    pub choice: ColumnMapping,
    /// Frames the step has been drawn (a window's first frame only sizes it).
    pub shown_frames: u32,
}

impl MappingStep {
    /// The step for a file whose load said it needs a mapping.
    #[must_use]
    pub fn new(path: PathBuf, name: String, unknown: UnknownColumns) -> Self {
        let choice =
            suggest(&unknown.columns, &unknown.samples, unknown.decimal_comma).unwrap_or_else(|| {
                ColumnMapping {
                    role: MappedRole::FrameTime,
                    column: unknown.columns.first().cloned().unwrap_or_default(),
                    unit: TimeUnit::Millis,
                    extra: Vec::new(),
                }
            });
        Self { path, name, unknown, choice, shown_frames: 0 }
    }
}

fn unit_text(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Seconds => "s",
        TimeUnit::Millis => "ms",
        TimeUnit::Micros => "µs",
        TimeUnit::Nanos => "ns",
        // Declared by known headers only; the picker offers `TimeUnit::ALL`.
        TimeUnit::Qpc | TimeUnit::DateTime => unit.name(),
    }
}

/// What the user did in the step this frame.
enum Outcome {
    Open,
    Cancel,
}

/// The *Map columns* window, while a CSV waits for its mapping: opening with the
/// mapping chosen, or cancelling (the file's error goes to the list).
pub fn mapping_ui(ctx: &egui::Context, step: &mut MappingStep) -> Vec<AppCommand> {
    step.shown_frames = step.shown_frames.saturating_add(1);
    let mut outcome = None;
    let centre = ctx.content_rect().center();
    egui::Window::new("Map columns")
        .collapsible(false)
        .resizable(true)
        .default_pos(centre - egui::vec2(280.0, 220.0))
        .default_width(560.0)
        .show(ctx, |ui| outcome = step_ui(ui, step));
    match outcome {
        Some(Outcome::Open) => vec![
            ShellCommand::OpenMapped {
                path: step.path.clone(),
                header: step.unknown.columns.clone(),
                mapping: step.choice.clone(),
            }
            .into(),
        ],
        Some(Outcome::Cancel) => vec![ShellCommand::CancelMapping.into()],
        None => Vec::new(),
    }
}

/// The step's contents; `Some` once the user opened or cancelled.
fn step_ui(ui: &mut egui::Ui, step: &mut MappingStep) -> Option<Outcome> {
    ui.label(format!(
        "{} is a CSV of no format framescope knows. Pick the column that holds each frame's time (or a \
         timestamp per frame) and its unit; the choice is remembered for files with the same columns.",
        step.name
    ));
    ui.add_space(6.0);
    let suggested = suggest(&step.unknown.columns, &step.unknown.samples, step.unknown.decimal_comma);
    egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
        egui::Grid::new("map_columns").num_columns(2).striped(true).show(ui, |ui| {
            ui.strong("Column");
            ui.strong("First values");
            ui.end_row();
            for (k, name) in step.unknown.columns.iter().enumerate().take(LISTED_COLUMNS) {
                let mut text = name.clone();
                if suggested.as_ref().is_some_and(|s| s.column == *name) {
                    text.push_str("  (likely)");
                }
                if ui.radio(step.choice.column == *name, text).clicked() {
                    step.choice.column.clone_from(name);
                }
                let values: Vec<&str> = step
                    .unknown
                    .samples
                    .get(k)
                    .map(|v| v.iter().take(PREVIEW_VALUES).map(String::as_str).collect())
                    .unwrap_or_default();
                ui.label(values.join(", "));
                ui.end_row();
            }
        });
        if step.unknown.columns.len() > LISTED_COLUMNS {
            ui.label(format!(
                "… {} more columns (name one with framescope report --column)",
                step.unknown.columns.len() - LISTED_COLUMNS
            ));
        }
    });
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.label("The column holds");
        ui.radio_value(&mut step.choice.role, MappedRole::FrameTime, "frame times");
        ui.radio_value(&mut step.choice.role, MappedRole::Timestamp, "timestamps (frame time = difference)");
    });
    ui.horizontal(|ui| {
        ui.label("Unit");
        for unit in TimeUnit::ALL {
            ui.radio_value(&mut step.choice.unit, unit, unit_text(unit));
        }
    });
    ui.add_space(6.0);
    super::mapping_extra::extra_ui(ui, step);
    ui.add_space(6.0);
    let times = preview(&step.unknown, &step.choice);
    let sample: Vec<String> = times.iter().take(6).map(|v| format!("{v:.3}")).collect();
    let summary = if times.is_empty() {
        "no frame time from the first rows with this choice".to_owned()
    } else {
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        format!(
            "first frame times: {} ms (≈ {:.1} FPS over the first {} frames — the whole capture's figures come \
             once it is open)",
            sample.join(", "),
            1000.0 / mean,
            times.len()
        )
    };
    ui.label(summary);
    ui.add_space(6.0);
    let mut outcome = None;
    ui.horizontal(|ui| {
        if ui.add_enabled(!times.is_empty(), egui::Button::new("Open with this mapping")).clicked() {
            outcome = Some(Outcome::Open);
        }
        if ui.button("Cancel").clicked() {
            outcome = Some(Outcome::Cancel);
        }
    });
    outcome
}
