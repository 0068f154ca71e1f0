//! PNGs of the window: the Export menu's timeline PNG and `--screenshot`, which takes
//! one picture of the whole window once every capture is loaded and analysed, then
//! quits (exit status 1 when a capture failed to load).

use super::{App, saved_text};
use crate::app::export;
use eframe::egui;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Idle frames drawn before `--screenshot` takes its picture.
const SETTLE_FRAMES: u32 = 20;

impl App {
    /// Asks egui for a screenshot; the timeline part (or the whole window) is saved as
    /// PNG when it arrives.
    pub(super) fn request_png(&mut self, path: PathBuf, timeline_only: bool) {
        let slot = Arc::new(Mutex::new(None));
        self.scratch.shot = Some(Arc::clone(&slot));
        let region = if timeline_only { self.scratch.timeline_rect } else { None };
        let ctx = self.ctx.clone();
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
        if let Some(slot) = &self.scratch.shot {
            let done = slot.lock().ok().and_then(|mut s| s.take());
            if let Some(result) = done {
                self.scratch.shot = None;
                self.scratch.png_header = false;
                // In --screenshot mode: one picture, then quit (not a second one while
                // the window closes).
                if let Some((_, failed)) = self.scratch.screenshot_and_quit.take() {
                    if let (Err(_), Ok(mut f)) = (&result, failed.lock()) {
                        *f = true;
                    }
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
                self.scratch.status = Some(saved_text(result));
            }
        }
        if self.scratch.shot.is_none()
            && let Some((path, failed)) = self.scratch.screenshot_and_quit.clone()
        {
            self.screenshot_when_ready(ctx, path, &failed);
        }
    }

    /// `--screenshot`: once nothing is loading, the picture (a file that failed fails
    /// the run: exit 1, its error on stderr; the picture is still taken when other
    /// captures opened, and shows the error too); with nothing open, no picture.
    fn screenshot_when_ready(&mut self, ctx: &egui::Context, path: PathBuf, failed: &Arc<Mutex<bool>>) {
        let mapping = self.jobs.mapping_step.as_ref().map(|m| m.shown_frames);
        let report_errors = |errors: &[String]| {
            if let Ok(mut f) = failed.lock() {
                *f = true;
            }
            for e in errors {
                eprintln!("error: {}", framescope_core::report::text(e));
            }
        };
        // A live capture that has not opened yet is waited for (`Jobs::is_idle`).
        if self.jobs.is_idle() && self.session.runs().is_empty() && mapping.is_none() {
            report_errors(&self.scratch.errors);
            self.scratch.screenshot_and_quit = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        } else if self.is_idle() && (self.scratch.timeline_rect.is_some() || mapping.is_some_and(|n| n >= 3))
        {
            // egui sizes a grid's rows from the frame before: a row of wrapped text
            // (the figures' notes) takes a few frames to settle.
            self.scratch.idle_frames += 1;
            if self.scratch.idle_frames < SETTLE_FRAMES {
                ctx.request_repaint();
                return;
            }
            if !self.scratch.errors.is_empty() {
                report_errors(&self.scratch.errors);
            }
            self.request_png(path, false);
        } else {
            self.scratch.idle_frames = 0;
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
    }
}
