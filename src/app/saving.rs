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
        let selection = own.and_then(|r| run.selection_run(&settings, r));
        // Export the figures with the settings they were computed with.
        let (report, report_settings) = match (selection, run.analyzed()) {
            (Some(sel), _) => (Some(sel), settings),
            (None, Some(a)) => (Some(&a.run), a.settings),
            (None, None) => (None, settings),
        };
        let sel = selection.is_some();
        let inputs: Vec<&std::path::Path> = self.runs.iter().filter_map(|r| r.path.as_deref()).collect();
        let name = |ext: &str| export::default_name(&path, &trace.meta.application, sel, ext);
        let mut saved = None;
        if let Some(report) = &report {
            if ui.button(if sel { "Selection report (JSON)…" } else { "Report (JSON)…" }).clicked() {
                saved =
                    Some(save_text(&name("json"), &inputs, &export::report_json(report, &report_settings)));
            }
            if ui.button(if sel { "Selection report (CSV)…" } else { "Report (CSV)…" }).clicked() {
                saved = Some(save_text(&name("csv"), &inputs, &export::report_csv(report)));
            }
        }
        let exporting = self.export_job.is_some();
        if ui.add_enabled(!exporting, egui::Button::new("Frames (CSV)…")).clicked() {
            let range = own.map_or(0..trace.len(), |(a, b)| {
                let s = &trace.frames.start_ms;
                s.partition_point(|&t| t < a.min(b))..s.partition_point(|&t| t < a.max(b))
            });
            let default = format!("{}-frames.csv", name("").trim_end_matches('.'));
            match dialog::save_to(&default, &inputs) {
                Ok(p) => {
                    // A million rows take a second or more: written off the UI thread.
                    let (capture, index) = (Arc::clone(&run.capture), run.trace);
                    let repaint = Arc::clone(&self.repaint);
                    self.export_job = Some(super::analysis::Job::spawn(
                        move || {
                            let write = || -> std::io::Result<()> {
                                let mut out = std::io::BufWriter::new(std::fs::File::create(&p)?);
                                export::write_frames_csv(&capture.traces[index], range, &mut out)
                            };
                            write()
                                .map(|()| p.display().to_string())
                                .map_err(|e| format!("{}: {e}", p.display()))
                        },
                        move || repaint(),
                    ));
                    self.status = Some("saving frames…".into());
                    ui.close();
                }
                Err(why) => saved = Some(Err(why)),
            }
        }
        if ui.button("Timeline (PNG)…").clicked() {
            match dialog::save_to(&name("png"), &inputs) {
                Ok(p) => self.request_png(ui.ctx(), p, true),
                Err(why) => saved = Some(Err(why)),
            }
        }
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
            if !self.errors.is_empty() || (self.pending.is_empty() && self.runs.is_empty()) {
                if let Ok(mut f) = failed.lock() {
                    *f = true;
                }
                for e in &self.errors {
                    eprintln!("error: {e}");
                }
                self.screenshot_and_quit = None;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else if self.is_idle() && self.timeline_rect.is_some() {
                self.request_png(ctx, path, false);
            } else {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            }
        }
    }
}

fn save_text(default_name: &str, inputs: &[&std::path::Path], text: &str) -> Result<String, String> {
    let path = dialog::save_to(default_name, inputs)?;
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    Ok(path.display().to_string())
}
