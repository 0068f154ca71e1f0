//! File › Export: the shown run's report (or its selection's) as JSON or CSV, its
//! frames as CSV (written in the background), the timeline as PNG, and the folder
//! exports go to when no file dialog can be shown.

use super::Model;
use crate::app::dialog;
use crate::app::export;
use crate::app::session::{AppCommand, ShellCommand};
use eframe::egui;
use std::path::{Path, PathBuf};

/// Said before the path of a file saved to the fallback folder.
const NO_DIALOG: &str = "(no file dialog on this desktop) ";

/// The Export menu's items.
pub fn export_menu(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let Some(run) = m.session.selected_run() else {
        ui.label("open a capture first");
        return Vec::new();
    };
    let mut out = Vec::new();
    let (settings, trim) = (m.run_settings(run.id), m.run_trim(run.id));
    let trace = run.shown_trace();
    let own = m.session.selection_of(run.id);
    let selection = own.and_then(|r| run.selection_run(&settings, trim, r));
    // Export the figures with the settings they were computed with.
    let (report, report_settings, trim) = match (selection, run.analyzed()) {
        (Some(sel), _) => (Some(sel), settings, trim),
        (None, Some(a)) => (Some(&a.run), a.settings, a.trim),
        (None, None) => (None, settings, trim),
    };
    let sel = selection.is_some();
    let inputs: Vec<&Path> = m.session.runs().iter().filter_map(|r| r.path.as_deref()).collect();
    let fallback = export_dir(m);
    // Named after the run as the window names it (the user may have renamed it).
    let path = run.path.clone().unwrap_or_else(|| "sample.csv".into());
    let named = PathBuf::from(run.label.replace(['/', '\\'], "_"));
    let stem_source = if run.label.trim().is_empty() { path.as_path() } else { named.as_path() };
    let name = |ext: &str| export::default_name(stem_source, &trace.meta.application, sel, ext);
    let mut saved = None;
    if let Some(report) = &report {
        if ui.button(if sel { "Selection report (JSON)…" } else { "Report (JSON)…" }).clicked() {
            let text = export::report_json(report, &report_settings, trim);
            saved = Some(save_text(&name("json"), &inputs, &fallback, &text));
        }
        if ui.button(if sel { "Selection report (CSV)…" } else { "Report (CSV)…" }).clicked() {
            let text = export::report_csv(report, &run.label);
            saved = Some(save_text(&name("csv"), &inputs, &fallback, &text));
        }
    }
    // Of the whole runs: named without "selection".
    let page_name = export::default_name(stem_source, &trace.meta.application, false, "html");
    out.extend(html_button(ui, m, &page_name, &inputs, &fallback, &mut saved));
    if ui.add_enabled(m.jobs.export.is_none(), egui::Button::new("Frames (CSV)…")).clicked() {
        let range = own.map_or(0..trace.len(), |(a, b)| {
            let s = &trace.frames.start_ms;
            s.partition_point(|&t| t < a.min(b))..s.partition_point(|&t| t < a.max(b))
        });
        let default = format!("{}-frames.csv", name("").trim_end_matches('.'));
        match dialog::save_to(&default, &inputs, &fallback) {
            Ok(target) => {
                let note = if target.fallback { NO_DIALOG } else { "" };
                out.push(ShellCommand::ExportFrames { run: run.id, range, path: target.path, note }.into());
                ui.close();
            }
            Err(why) => saved = Some(Err(why)),
        }
    }
    if ui.button("Timeline (PNG)…").clicked() {
        match dialog::save_to(&name("png"), &inputs, &fallback) {
            Ok(target) => {
                out.push(ShellCommand::TimelinePng(target.path).into());
                ui.close();
            }
            Err(why) => saved = Some(Err(why)),
        }
    }
    ui.separator();
    out.extend(export_dir_ui(ui, m));
    if let Some(result) = saved {
        out.push(ShellCommand::Status(crate::app::shell::saved_text(result)).into());
        ui.close();
    }
    out
}

/// "HTML report…": the shared page of the shown run, or of every compared run while
/// comparing (written in the background); `saved` gets why not when no file was chosen.
fn html_button(
    ui: &mut egui::Ui,
    m: &Model<'_>,
    default_name: &str,
    inputs: &[&Path],
    fallback: &Path,
    saved: &mut Option<Result<String, String>>,
) -> Option<AppCommand> {
    let comparing = m.session.comparing();
    let runs: Vec<_> = if comparing {
        m.session.shown_runs().iter().map(|r| r.id).collect()
    } else {
        m.session.selected_run().map(|r| r.id).into_iter().collect()
    };
    let text = if comparing { "HTML report of the compared runs…" } else { "HTML report…" };
    let help = "One self-contained page to share: figures, timeline and charts, as `framescope report --html` \
                writes it (of the whole runs, not of a selection)";
    let button = ui.add_enabled(m.jobs.export.is_none(), egui::Button::new(text)).on_hover_text(help);
    if !button.clicked() {
        return None;
    }
    match dialog::save_to(default_name, inputs, fallback) {
        Ok(target) => {
            let note = if target.fallback { NO_DIALOG } else { "" };
            ui.close();
            Some(ShellCommand::ExportHtml { runs, path: target.path, note }.into())
        }
        Err(why) => {
            *saved = Some(Err(why));
            None
        }
    }
}

/// Asks where to save `text` and writes it there: the path (after a note when it went
/// to the fallback folder), or why not.
fn save_text(default_name: &str, inputs: &[&Path], fallback: &Path, text: &str) -> Result<String, String> {
    let target = dialog::save_to(default_name, inputs, fallback)?;
    let path = target.path;
    framescope_core::output::write_bytes(&path, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("{}{}", if target.fallback { NO_DIALOG } else { "" }, path.display()))
}

/// Where exports go when no file dialog can be shown: the folder the user set, else
/// the shown capture's folder, else the current folder.
fn export_dir(m: &Model<'_>) -> PathBuf {
    if m.persisted.export_dir.is_absolute() {
        return m.persisted.export_dir.clone();
    }
    let capture_dir = m
        .session
        .selected_run()
        .and_then(|r| r.path.as_deref())
        .and_then(|p| std::path::absolute(p).ok())
        .and_then(|p| p.parent().map(Path::to_path_buf));
    capture_dir.or_else(|| std::env::current_dir().ok()).unwrap_or_else(std::env::temp_dir)
}

/// The fallback folder, editable (kept when it is an absolute path, or empty).
fn export_dir_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Option<AppCommand> {
    let help = "Where exports are saved when this desktop cannot show a file dialog (no xdg-desktop-portal \
                or zenity); empty: beside the capture";
    let label = ui.label("Without a file dialog, save to").on_hover_text(help);
    // The text being typed is a draft (kept while the field has the keyboard), taken
    // when the field is left (Enter or a click elsewhere): a half-typed path is never
    // refused and put back under the cursor.
    let draft_id = ui.make_persistent_id("export_dir_draft");
    let draft: Option<String> = ui.data(|d| d.get_temp(draft_id));
    let mut text = draft.unwrap_or_else(|| export_dir(m).display().to_string());
    let edit = ui.add(egui::TextEdit::singleline(&mut text).desired_width(320.0)).labelled_by(label.id);
    let edit = edit.on_hover_text(help);
    if edit.lost_focus() {
        ui.data_mut(|d| d.remove::<String>(draft_id));
        if text.trim() == export_dir(m).display().to_string() {
            return None;
        }
        let dir = PathBuf::from(text.trim());
        if dir.is_absolute() || text.trim().is_empty() {
            return Some(AppCommand::ExportDir(dir));
        }
        return Some(
            ShellCommand::Status(format!("not a full path, kept {}", export_dir(m).display())).into(),
        );
    }
    if edit.has_focus() {
        ui.data_mut(|d| d.insert_temp(draft_id, text));
    }
    None
}
