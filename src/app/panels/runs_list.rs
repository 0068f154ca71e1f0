//! The top of the runs and figures panel: the error list, then every open run — close
//! button, shown, name, comparison role and offset, refresh rate, own trim, trace, and
//! load warnings.

use super::Model;
use super::settings_bar::TRIM_HELP;
use crate::app::session::{AppCommand, OpenRun, ShellCommand};
use eframe::egui::{self, RichText};
use framescope_core::analysis::Trim;
use framescope_core::model::{Trace, Warning};

/// What the Name field does.
const RENAME_HELP: &str = "What the window calls this run: its legends, headings and export file names";

/// The error list, each with a button to dismiss it.
pub fn errors_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    if m.scratch.errors.is_empty() {
        return out;
    }
    ui.heading("Errors");
    for (i, e) in m.scratch.errors.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(ui.visuals().error_fg_color, e);
            if ui.small_button("x").on_hover_text("Dismiss").clicked() {
                out.push(ShellCommand::DismissError(i).into());
            }
        });
    }
    ui.separator();
    out
}

/// Every open run, folded under a header when more than four are open or sets are
/// compared (so that the comparison stays in view).
pub fn runs_list_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let s = m.session;
    if !runs_header_ui(ui, s.runs().len(), s.comparing() && s.sets_mode()) {
        return out;
    }
    let (shown, selected, baseline) = (s.shown(), s.selected(), s.baseline());
    for run in s.runs() {
        ui.horizontal(|ui| {
            if ui.small_button("x").on_hover_text("Close this capture").clicked() {
                out.push(AppCommand::Close(run.id));
            }
            // A long name is cut to the panel (the whole path shows on hover).
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            let radio = ui.radio(selected == Some(run.id), run.label.as_str());
            let what = if s.comparing() {
                "Show this run's figures when Compare runs is unticked (the comparison shows every compared run \
                 against the baseline; the run list's \"compared\" and \"baseline\" pick them)"
            } else {
                "Show this run's figures"
            };
            if radio.on_hover_text(format!("{what}\n{}", run.name)).clicked() {
                out.push(AppCommand::SelectRun(run.id));
            }
        });
        ui.indent(("run", run.id), |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Name").on_hover_text(RENAME_HELP);
                let mut name = run.label.clone();
                let edit = ui.add(egui::TextEdit::singleline(&mut name).desired_width(f32::INFINITY));
                if edit.labelled_by(label.id).on_hover_text(RENAME_HELP).changed() {
                    out.push(AppCommand::Rename(run.id, name));
                }
            });
            if s.comparing() {
                compared_ui(ui, run, baseline == Some(run.id), &mut out);
            }
            if shown.contains(&run.id) {
                out.extend(refresh_ui(ui, run));
            }
            out.extend(run_trim_ui(ui, run, m.persisted.trim_for_all()));
            trace_ui(ui, run, &mut out);
            warnings_ui(ui, run);
        });
    }
    out
}

/// The runs list's header when more than four runs are open, or sets of runs are
/// compared (folded at first: the sets and their comparison stay in view); true when
/// the runs are to be listed.
fn runs_header_ui(ui: &mut egui::Ui, runs: usize, sets_compared: bool) -> bool {
    if runs <= 4 && !sets_compared {
        return true;
    }
    egui::CollapsingHeader::new(format!("Runs ({runs})"))
        .id_salt("runs_list")
        .default_open(false)
        .show(ui, |_| ())
        .body_returned
        .is_some()
}

/// A run's place in the comparison: compared, baseline, offset on the shared axis.
fn compared_ui(ui: &mut egui::Ui, run: &OpenRun, baseline: bool, out: &mut Vec<AppCommand>) {
    ui.horizontal_wrapped(|ui| {
        let mut compared = run.compared || baseline;
        let check = ui
            .add_enabled(!baseline, egui::Checkbox::new(&mut compared, "compared"))
            .on_hover_text("Include this run in the comparison")
            .on_disabled_hover_text("The baseline is always compared");
        if check.changed() {
            out.push(AppCommand::Compared(run.id, compared));
        }
        if ui
            .radio(baseline, "baseline")
            .on_hover_text("The run every other run is compared against (deltas are other − baseline)")
            .clicked()
            && !baseline
        {
            out.push(AppCommand::Baseline(run.id));
        }
        let label = ui.label("offset");
        let mut offset = run.offset_ms;
        ui.add(egui::DragValue::new(&mut offset).speed(10.0).suffix(" ms"))
            .labelled_by(label.id)
            .on_hover_text("Move this run on the shared time axis to line up the same moment");
        if offset.to_bits() != run.offset_ms.to_bits() {
            out.push(AppCommand::Offset(run.id, offset));
        }
    });
}

/// The trace picker, when the capture recorded several.
fn trace_ui(ui: &mut egui::Ui, run: &OpenRun, out: &mut Vec<AppCommand>) {
    let traces = &run.capture.traces;
    if traces.len() < 2 {
        return;
    }
    // A sampled log's sessions hold samples, not frames.
    let label = |t: &Trace| {
        let what = if t.is_sampled() { "samples" } else { "frames" };
        format!("{} — {} {what}", t.label(), t.len())
    };
    let mut trace = run.trace();
    ui.horizontal(|ui| {
        let name =
            ui.label("Trace").on_hover_text("The process and swap chain shown: a capture can record several");
        egui::ComboBox::from_id_salt(("trace", run.id))
            .selected_text(label(&traces[trace]))
            .width(ui.available_width().min(260.0))
            .truncate()
            .show_ui(ui, |ui| {
                for (k, t) in traces.iter().enumerate() {
                    ui.selectable_value(&mut trace, k, label(t));
                }
            })
            .response
            .labelled_by(name.id);
    });
    if trace != run.trace() {
        out.push(AppCommand::ShowTrace { run: run.id, trace });
    }
}

/// A run's load warnings, always in view: the first three, then the rest folded.
fn warnings_ui(ui: &mut egui::Ui, run: &OpenRun) {
    let all: Vec<&Warning> = run.capture.warnings.iter().chain(&run.shown_trace().warnings).collect();
    if all.is_empty() {
        return;
    }
    let text = |w: &Warning| w.line.map_or_else(|| w.message.clone(), |l| format!("line {l}: {}", w.message));
    let title = if all.len() == 1 { "1 warning".to_owned() } else { format!("{} warnings", all.len()) };
    ui.label(RichText::new(title).color(ui.visuals().warn_fg_color)).on_hover_text(
        "Problems found while reading the file; the rows they name were skipped or read as described",
    );
    for w in all.iter().take(3) {
        ui.add(egui::Label::new(text(w)).wrap());
    }
    if all.len() > 3 {
        egui::CollapsingHeader::new(format!("{} more", all.len() - 3)).id_salt(("warnings", run.id)).show(
            ui,
            |ui| {
                for w in all.iter().skip(3).take(200) {
                    ui.add(egui::Label::new(text(w)).wrap());
                }
            },
        );
    }
}

/// A run's own refresh rate: detected unless the user sets one for this capture (never
/// saved, never carried over to another capture).
fn refresh_ui(ui: &mut egui::Ui, run: &OpenRun) -> Option<AppCommand> {
    let mut hz = run.refresh_hz;
    ui.horizontal(|ui| {
        let mut set = hz.is_some();
        let check = ui.checkbox(&mut set, "Refresh rate").on_hover_text(
            "Set this capture's display refresh rate (VSYNC markers); otherwise it is detected from the \
             capture's display intervals",
        );
        match (set, hz) {
            (true, None) => {
                // Start from what was detected, when anything was.
                let detected =
                    run.analyzed().and_then(|a| a.run.vsync).map(|v| (v.refresh_hz * 100.0).round() / 100.0);
                hz = Some(detected.unwrap_or(60.0));
            }
            (false, Some(_)) => hz = None,
            _ => {}
        }
        if let Some(value) = &mut hz {
            ui.add(egui::DragValue::new(value).range(1.0..=1000.0).speed(0.1).suffix(" Hz"))
                .labelled_by(check.id);
            ui.label(RichText::new("set by you").weak());
        } else {
            // (Figures still of the rate just unset say nothing until they are redone.)
            let detected = run.analyzed().filter(|a| a.settings.refresh_hz.is_none()).map(|a| {
                a.run
                    .vsync
                    .map_or_else(|| "not detected".to_owned(), |v| format!("detected {:.2} Hz", v.refresh_hz))
            });
            ui.label(RichText::new(detected.unwrap_or_default()).weak());
        }
    });
    (hz.map(f64::to_bits) != run.refresh_hz.map(f64::to_bits)).then_some(AppCommand::RefreshRate(run.id, hz))
}

/// A run's own trim: off (the trim for all runs applies), or its own seconds.
fn run_trim_ui(ui: &mut egui::Ui, run: &OpenRun, all: Trim) -> Option<AppCommand> {
    let mut trim = run.trim;
    ui.horizontal_wrapped(|ui| {
        let mut own = trim.is_some();
        let check = ui.checkbox(&mut own, "Own trim").on_hover_text(
            "Trim this capture on its own instead of with the trim for all runs (saved with the capture)",
        );
        match (own, trim) {
            (true, None) => trim = Some(all),
            (false, Some(_)) => trim = None,
            _ => {}
        }
        if let Some(t) = &mut trim {
            for value in [&mut t.start_s, &mut t.end_s] {
                ui.add(
                    egui::DragValue::new(value).range(0.0..=86_400.0).speed(0.1).max_decimals(3).suffix(" s"),
                )
                .labelled_by(check.id)
                .on_hover_text(TRIM_HELP);
            }
        } else if !all.is_none() {
            ui.label(
                RichText::new(format!("{} s / {} s for all runs", all.start_s, all.end_s)).small().weak(),
            );
        }
    });
    (trim != run.trim).then_some(AppCommand::RunTrim(run.id, trim))
}
