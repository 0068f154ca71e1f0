//! Saving from the window: the Export menu (report JSON/CSV, frames CSV written on a
//! background thread, timeline PNG) and the screenshots of `--screenshot`.

use super::{App, dialog, export};
use eframe::egui;
use std::sync::{Arc, Mutex};

impl App {
    pub(super) fn export_menu(&mut self, ui: &mut egui::Ui) {
        let Some(run) = self.runs.get(self.selected) else {
            ui.label("open a capture first");
            return;
        };
        let settings = self.run_settings(self.selected);
        let trace = &run.capture.traces[run.trace];
        let path = run.path.clone().unwrap_or_else(|| "sample.csv".into());
        let own = self.selection();
        let selection = own.and_then(|r| run.selection_run(&settings, self.run_trim(self.selected), r));
        // Export the figures with the settings they were computed with.
        let (report, report_settings, trim) = match (selection, run.analyzed()) {
            (Some(sel), _) => (Some(sel), settings, self.run_trim(self.selected)),
            (None, Some(a)) => (Some(&a.run), a.settings, a.trim),
            (None, None) => (None, settings, self.run_trim(self.selected)),
        };
        let sel = selection.is_some();
        let inputs: Vec<&std::path::Path> = self.runs.iter().filter_map(|r| r.path.as_deref()).collect();
        let fallback = self.export_dir();
        // Named after the run as the window names it (the user may have renamed it).
        let named = std::path::PathBuf::from(run.label.replace(['/', '\\'], "_"));
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
        let exporting = self.export_job.is_some();
        if ui.add_enabled(!exporting, egui::Button::new("Frames (CSV)…")).clicked() {
            let range = own.map_or(0..trace.len(), |(a, b)| {
                let s = &trace.frames.start_ms;
                s.partition_point(|&t| t < a.min(b))..s.partition_point(|&t| t < a.max(b))
            });
            let default = format!("{}-frames.csv", name("").trim_end_matches('.'));
            match dialog::save_to(&default, &inputs, &fallback) {
                Ok(target) => {
                    let p = target.path;
                    let note = if target.fallback { NO_DIALOG } else { "" };
                    // A million rows take a second or more: written off the UI thread.
                    let (capture, index) = (Arc::clone(&run.capture), run.trace);
                    self.export_job = Some(self.spawner.task(move || {
                        let write = || -> std::io::Result<()> {
                            let mut out = std::io::BufWriter::new(std::fs::File::create(&p)?);
                            export::write_frames_csv(&capture.traces[index], range, &mut out)
                        };
                        write()
                            .map(|()| format!("{note}{}", p.display()))
                            .map_err(|e| format!("{}: {e}", p.display()))
                    }));
                    self.status = Some("saving frames…".into());
                    ui.close();
                }
                Err(why) => saved = Some(Err(why)),
            }
        }
        if ui.button("Timeline (PNG)…").clicked() {
            match dialog::save_to(&name("png"), &inputs, &fallback) {
                Ok(target) => self.request_png(ui.ctx(), target.path, true),
                Err(why) => saved = Some(Err(why)),
            }
        }
        ui.separator();
        self.export_dir_ui(ui);
        if let Some(result) = saved {
            self.status = Some(match result {
                Ok(p) => format!("saved {p}"),
                Err(e) => format!("not saved: {e}"),
            });
            ui.close();
        }
    }

    /// Asks egui for a screenshot; the timeline part (or the whole window) is saved as
    /// PNG when it arrives.
    pub(super) fn request_png(&mut self, ctx: &egui::Context, path: std::path::PathBuf, timeline_only: bool) {
        let slot = Arc::new(Mutex::new(None));
        self.shot = Some(Arc::clone(&slot));
        let region = if timeline_only { self.timeline_rect } else { None };
        let ppp = ctx.pixels_per_point();
        let repaint = ctx.clone();
        ctx.request_screenshot(move |image| {
            let image = region.map_or_else(|| (*image).clone(), |r| image.region(&r, Some(ppp)));
            let result = export::save_png(&path, &image)
                .map(|()| path.display().to_string())
                .map_err(|e| e.to_string());
            if let Ok(mut s) = slot.lock() {
                *s = Some(result);
            }
            repaint.request_repaint();
        });
    }

    /// Reports a finished PNG; in `--screenshot` mode, takes it once idle and quits.
    pub(super) fn finish_screenshot(&mut self, ctx: &egui::Context) {
        if let Some(slot) = &self.shot {
            let done = slot.lock().ok().and_then(|mut s| s.take());
            if let Some(result) = done {
                self.shot = None;
                // In --screenshot mode: one picture, then quit (not a second one while
                // the window closes).
                if let Some((_, failed)) = self.screenshot_and_quit.take() {
                    if let (Err(_), Ok(mut f)) = (&result, failed.lock()) {
                        *f = true;
                    }
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
                self.status = Some(match result {
                    Ok(p) => format!("saved {p}"),
                    Err(e) => format!("not saved: {e}"),
                });
            }
        }
        if self.shot.is_none()
            && let Some((path, failed)) = self.screenshot_and_quit.clone()
        {
            let mapping = self.mapping_step.as_ref().map(|m| m.shown_frames);
            // A file that failed fails the run (exit 1, its error on stderr); the picture
            // is still taken when other captures opened (it shows the error too).
            let report_errors = |errors: &[String]| {
                if let Ok(mut f) = failed.lock() {
                    *f = true;
                }
                for e in errors {
                    eprintln!("error: {e}");
                }
            };
            if self.pending.is_empty() && self.runs.is_empty() && mapping.is_none() {
                report_errors(&self.errors);
                self.screenshot_and_quit = None;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else if self.is_idle() && (self.timeline_rect.is_some() || mapping.is_some_and(|n| n >= 3)) {
                if !self.errors.is_empty() {
                    report_errors(&self.errors);
                }
                self.request_png(ctx, path, false);
            } else {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            }
        }
    }
}

/// Said before the path of a file saved to the fallback folder.
const NO_DIALOG: &str = "(no file dialog on this desktop) ";

fn save_text(
    default_name: &str,
    inputs: &[&std::path::Path],
    fallback: &std::path::Path,
    text: &str,
) -> Result<String, String> {
    let target = dialog::save_to(default_name, inputs, fallback)?;
    let path = target.path;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("{}{}", if target.fallback { NO_DIALOG } else { "" }, path.display()))
}

impl App {
    /// Where exports go when no file dialog can be shown: the folder the user set, else
    /// the shown capture's folder, else the current folder.
    pub(super) fn export_dir(&self) -> std::path::PathBuf {
        if self.persisted.export_dir.is_absolute() {
            return self.persisted.export_dir.clone();
        }
        let capture_dir = self
            .runs
            .get(self.selected)
            .and_then(|r| r.path.as_deref())
            .and_then(|p| std::path::absolute(p).ok())
            .and_then(|p| p.parent().map(std::path::Path::to_path_buf));
        capture_dir.or_else(|| std::env::current_dir().ok()).unwrap_or_else(std::env::temp_dir)
    }

    /// The fallback folder, editable (kept when it is an absolute path).
    fn export_dir_ui(&mut self, ui: &mut egui::Ui) {
        let help = "Where exports are saved when this desktop cannot show a file dialog (no \
                    xdg-desktop-portal or zenity); empty: beside the capture";
        let label = ui.label("Without a file dialog, save to").on_hover_text(help);
        let mut text = self.export_dir().display().to_string();
        let edit = ui.add(egui::TextEdit::singleline(&mut text).desired_width(320.0)).labelled_by(label.id);
        if edit.on_hover_text(help).changed() {
            let dir = std::path::PathBuf::from(text.trim());
            if dir.is_absolute() || text.trim().is_empty() {
                self.persisted.export_dir = dir;
                self.settings_dirty = true;
            }
        }
    }
}
