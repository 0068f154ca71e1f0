//! The settings bar: target FPS (presets, the shown runs' refresh rates, the
//! capture's own target), stutter threshold and floor, frame-time source, and the trim
//! for all runs (`metrics.md` §1).

use super::Model;
use super::figures::{SOURCE_HELP, TARGETS};
use crate::app::figure_text::{FLOOR_HELP, TARGET_HELP, THRESHOLD_HELP};
use crate::app::session::AppCommand;
use crate::app::timeline::fps_text;
use eframe::egui;
use framescope_core::analysis::FrameTimeSource;

/// What a trim does, for its tooltips.
pub const TRIM_HELP: &str = "Leave out the first and last seconds of a run (a loading screen, the end of a \
                             benchmark): only frames that start at least this long after the run's first frame, \
                             and end at least this long before its last frame ends, count in the figures, charts \
                             and comparisons. Drag the shaded parts' edges on the timeline, too.";

/// The settings bar.
pub fn settings_bar_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    ui.horizontal_wrapped(|ui| {
        target_ui(ui, m, &mut out);
        ui.separator();
        stutter_ui(ui, m, &mut out);
        ui.separator();
        ui.label("Frame time").on_hover_text(SOURCE_HELP);
        let sources = [
            (
                FrameTimeSource::Auto,
                "auto",
                "Display intervals for a capture with generated frames, else present intervals",
            ),
            (
                FrameTimeSource::Presents,
                "presents",
                "From one Present() call to the next: what the game submitted",
            ),
            (
                FrameTimeSource::Display,
                "display",
                "From one frame reaching the screen to the next: what the player saw",
            ),
        ];
        let mut source = m.persisted.frame_time;
        for (value, text, help) in sources {
            ui.radio_value(&mut source, value, text).on_hover_text(help);
        }
        if source != m.persisted.frame_time {
            out.push(AppCommand::FrameTime(source));
        }
        ui.separator();
        trim_all_ui(ui, m, &mut out);
        // Last: when it appears it moves no other control.
        capture_target_ui(ui, m, &mut out);
    });
    out
}

/// The target: a list of presets (with the shown runs' refresh rates) and a number.
fn target_ui(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let rates = m.session.display_rates();
    let label = ui.label("Target FPS").on_hover_text(TARGET_HELP);
    let current = m.persisted.target_fps;
    let is = |t: f64| (current - t).abs() < 1e-9;
    let shown = match rates.iter().find(|&&hz| is(hz)) {
        Some(hz) => format!("display {hz:.2} Hz"),
        None => format!("{} FPS", fps_text(current)),
    };
    let mut target = current;
    egui::ComboBox::from_id_salt("target_fps")
        .selected_text(shown)
        // The typed rate inside it must not close it; a preset does.
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
        .show_ui(ui, |ui| {
            for &hz in &rates {
                let item = ui.selectable_label(is(hz), format!("display {hz:.2} Hz")).on_hover_text(
                    "The refresh rate of the display the capture ran on (detected from its display intervals, \
                     or set by you): a run locked to it is on target",
                );
                if item.clicked() {
                    target = hz;
                    ui.close();
                }
            }
            for t in TARGETS {
                if ui.selectable_label(is(t), format!("{t}")).clicked() {
                    target = t;
                    ui.close();
                }
            }
            // One control for one value: any other rate is typed here.
            ui.separator();
            ui.horizontal(|ui| {
                let other = ui.label("Other");
                ui.add(egui::DragValue::new(&mut target).range(1.0..=1000.0).speed(1.0).suffix(" FPS"))
                    .labelled_by(other.id)
                    .on_hover_text(TARGET_HELP);
            });
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(TARGET_HELP);
    if target.to_bits() != current.to_bits() {
        out.push(AppCommand::TargetFps(target));
    }
}

/// The capture's own target, when the shown capture states one and the target set
/// is another: "Use the capture's target: 60 FPS" (`formats.md` §7, §10).
fn capture_target_ui(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let Some(target) = m.session.selected_run().and_then(|r| r.capture.info.target_fps) else { return };
    if (target - m.persisted.target_fps).abs() < 1e-9 || !(1.0..=1000.0).contains(&target) {
        return;
    }
    let text = format!("Use the capture's target: {} FPS", fps_text(target));
    if ui
        .button(text)
        .on_hover_text(
            "The capture says which frame rate the game aimed at (Unreal's [targetframerate], the Unity \
             recorder's target_fps, a VR headset's refresh rate): colour and pace against it",
        )
        .clicked()
    {
        out.push(AppCommand::TargetFps(target));
    }
}

/// The stutter threshold (in %) and floor.
fn stutter_ui(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let label = ui.label("Stutter threshold").on_hover_text(THRESHOLD_HELP);
    let mut pct = m.persisted.stutter_threshold * 100.0;
    if ui
        .add(egui::DragValue::new(&mut pct).range(0.0..=500.0).speed(1.0).suffix(" %"))
        .labelled_by(label.id)
        .on_hover_text(THRESHOLD_HELP)
        .changed()
    {
        out.push(AppCommand::StutterThreshold(pct / 100.0));
    }
    let label = ui.label("floor").on_hover_text(FLOOR_HELP);
    let mut floor = m.persisted.stutter_floor_ms;
    ui.add(egui::DragValue::new(&mut floor).range(0.0..=100.0).speed(0.1).suffix(" ms"))
        .labelled_by(label.id)
        .on_hover_text(FLOOR_HELP);
    if floor.to_bits() != m.persisted.stutter_floor_ms.to_bits() {
        out.push(AppCommand::StutterFloor(floor));
    }
}

/// The trim for every run without a trim of its own.
fn trim_all_ui(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let (mut start, mut end) = (m.persisted.trim_start_s, m.persisted.trim_end_s);
    let label = ui.label("Trim start").on_hover_text(TRIM_HELP);
    let seconds = |v| egui::DragValue::new(v).range(0.0..=86_400.0).speed(0.1).max_decimals(3).suffix(" s");
    let a = ui.add(seconds(&mut start)).labelled_by(label.id).on_hover_text(TRIM_HELP);
    let label = ui.label("end").on_hover_text(TRIM_HELP);
    let b = ui.add(seconds(&mut end)).labelled_by(label.id).on_hover_text(TRIM_HELP);
    if a.changed() || b.changed() {
        out.push(AppCommand::TrimAll { start_s: start, end_s: end });
    }
}
