//! The areas of the window: menus and toolbar, settings bar, runs and figures on the
//! left, charts on the right, the timeline in the middle (exports are in `saving`).

use super::loader::Source;
use super::{App, dialog, panels, timeline};
use crate::analysis::FrameTimeSource;
use eframe::egui::{self, RichText};

impl App {
    pub(super) fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.separator();
            let mut compare = self.compare;
            let toggle =
                ui.add_enabled(self.runs.len() > 1, egui::Checkbox::new(&mut compare, "Compare runs"));
            if toggle.on_disabled_hover_text("Open two or more captures to compare them").changed() {
                self.set_compare(compare, self.baseline);
            }
            if ui
                .button("Sample pair")
                .on_hover_text("Open two runs of a synthetic scene and compare them")
                .clicked()
            {
                self.open_sample_pair(ui.ctx());
            }
            for p in &self.pending {
                ui.separator();
                let bar = egui::ProgressBar::new(p.progress.fraction()).desired_width(180.0);
                ui.add(bar.text(format!("loading {}", p.name)));
                if ui.button("Cancel").clicked() {
                    p.progress.cancel();
                }
            }
            if let Some(status) = &self.status {
                ui.separator();
                ui.label(status);
            }
        });
    }

    fn file_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("Open…").clicked() {
            ui.close();
            self.open_dialog(ui.ctx());
        }
        ui.menu_button("Open recent", |ui| {
            if self.persisted.recent.is_empty() {
                ui.label("no recent files");
            }
            for path in self.persisted.recent.clone() {
                if ui.button(path.display().to_string()).clicked() {
                    self.open(Source::File(path), ui.ctx());
                    ui.close();
                }
            }
        });
        let pcl = ui.add_enabled(!self.runs.is_empty(), egui::Button::new("Attach PCL log…"));
        if pcl.on_hover_text("A PCL Stats marker log recorded with the capture shown").clicked() {
            ui.close();
            match dialog::show(|| {
                rfd::FileDialog::new().add_filter("PCL marker logs", &["csv", "log", "txt"]).pick_file()
            }) {
                Ok(path) => self.attach_marker_log(path),
                Err(why) => self.status = Some(why),
            }
        }
        ui.menu_button("Export", |ui| self.export_menu(ui));
        if ui.button("Open the sample pair").clicked() {
            ui.close();
            self.open_sample_pair(ui.ctx());
        }
        ui.separator();
        if ui.button("Quit").clicked() {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn view_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("Show the whole trace (Home)").clicked() {
            self.apply(timeline::Command::ResetView);
            ui.close();
        }
        if ui.add_enabled(self.selection.is_some(), egui::Button::new("Zoom to the selection (Z)")).clicked()
        {
            self.apply(timeline::Command::ZoomToSelection);
            ui.close();
        }
        if ui.add_enabled(self.selection.is_some(), egui::Button::new("Clear the selection (Esc)")).clicked()
        {
            self.apply(timeline::Command::Select(None));
            ui.close();
        }
        ui.separator();
        if ui.button("Keyboard and mouse (H)").clicked() {
            self.show_help = !self.show_help;
            ui.close();
        }
    }

    fn open_dialog(&mut self, ctx: &egui::Context) {
        match dialog::show(|| {
            rfd::FileDialog::new()
                .add_filter("frame captures", &["csv", "CSV", "json", "hml", "log", "txt"])
                .add_filter("all files", &["*"])
                .pick_files()
        }) {
            Ok(paths) => {
                for p in paths {
                    self.open(Source::File(p), ctx);
                }
            }
            Err(why) => self.status = Some(why),
        }
    }

    pub(super) fn settings_ui(&mut self, ui: &mut egui::Ui) {
        let before = self.persisted.clone();
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Target FPS");
            let current = self.persisted.target_fps;
            egui::ComboBox::from_id_salt("target_fps")
                .selected_text(format!("{current}"))
                .show_ui(ui, |ui| {
                    for t in panels::TARGETS {
                        if ui.selectable_label((current - t).abs() < 1e-9, format!("{t}")).clicked() {
                            self.persisted.target_fps = t;
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            ui.add(
                egui::DragValue::new(&mut self.persisted.target_fps)
                    .range(1.0..=1000.0)
                    .speed(1.0)
                    .suffix(" FPS"),
            )
            .labelled_by(label.id);
            ui.separator();
            let label = ui.label("Stutter threshold");
            let mut pct = self.persisted.stutter_threshold * 100.0;
            if ui
                .add(egui::DragValue::new(&mut pct).range(0.0..=500.0).speed(1.0).suffix(" %"))
                .labelled_by(label.id)
                .changed()
            {
                self.persisted.stutter_threshold = pct / 100.0;
            }
            let label = ui.label("floor");
            ui.add(
                egui::DragValue::new(&mut self.persisted.stutter_floor_ms)
                    .range(0.0..=100.0)
                    .speed(0.1)
                    .suffix(" ms"),
            )
            .labelled_by(label.id);
            ui.separator();
            ui.label("Frame time").on_hover_text(panels::SOURCE_HELP);
            ui.radio_value(&mut self.persisted.frame_time, FrameTimeSource::Auto, "auto");
            ui.radio_value(&mut self.persisted.frame_time, FrameTimeSource::Presents, "presents");
            ui.radio_value(&mut self.persisted.frame_time, FrameTimeSource::Display, "display");
        });
        if self.persisted != before {
            self.settings_dirty = true;
        }
    }

    pub(super) fn side_ui(&mut self, ui: &mut egui::Ui) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            self.errors_ui(ui);
            let mut close = None;
            let mut picked = None;
            let comparing = self.comparing();
            let mut baseline = self.baseline;
            let shown = self.shown();
            for (i, run) in self.runs.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    let short = std::path::Path::new(&run.name)
                        .file_name()
                        .map_or_else(|| run.name.clone(), |n| n.to_string_lossy().into_owned());
                    if ui.radio(self.selected == i, short).on_hover_text(&run.name).clicked() {
                        picked = Some(i);
                    }
                    if ui.small_button("x").on_hover_text("Close this capture").clicked() {
                        close = Some(i);
                    }
                });
                if comparing {
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut baseline, i, "baseline");
                        let label = ui.label("offset");
                        ui.add(egui::DragValue::new(&mut run.offset_ms).speed(10.0).suffix(" ms"))
                            .labelled_by(label.id)
                            .on_hover_text(
                                "Move this run on the shared time axis to line up the same moment",
                            );
                    });
                }
                if shown.contains(&i) {
                    refresh_ui(ui, run);
                }
                let traces = &run.capture.traces;
                if traces.len() > 1 {
                    let label = |t: &crate::model::Trace| format!("{} — {} frames", t.label(), t.len());
                    let before = run.trace;
                    ui.horizontal(|ui| {
                        let name = ui.label("Trace");
                        egui::ComboBox::from_id_salt(("trace", i))
                            .selected_text(label(&traces[run.trace]))
                            .width(260.0)
                            .show_ui(ui, |ui| {
                                for (k, t) in traces.iter().enumerate() {
                                    ui.selectable_value(&mut run.trace, k, label(t));
                                }
                            })
                            .response
                            .labelled_by(name.id);
                    });
                    if run.trace != before {
                        picked = Some(i);
                    }
                }
            }
            if baseline != self.baseline {
                self.baseline = baseline;
            }
            if let Some(i) = picked {
                self.selected = i;
                self.view_fitted = false;
                self.selection = None;
                self.selected_frame = None;
            }
            if let Some(i) = close {
                self.close_run(i);
            }
            ui.separator();
            self.figures_ui(ui);
        });
    }

    fn errors_ui(&mut self, ui: &mut egui::Ui) {
        if self.errors.is_empty() {
            return;
        }
        ui.heading("Errors");
        let mut dismiss = None;
        for (i, e) in self.errors.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(ui.visuals().error_fg_color, e);
                if ui.small_button("x").on_hover_text("Dismiss").clicked() {
                    dismiss = Some(i);
                }
            });
        }
        if let Some(i) = dismiss {
            self.errors.remove(i);
        }
        ui.separator();
    }

    fn figures_ui(&mut self, ui: &mut egui::Ui) {
        if self.comparing() {
            self.comparison_ui(ui);
            self.selected_frame_ui(ui);
            return;
        }
        let settings = self.run_settings(self.selected);
        let Some(run) = self.runs.get(self.selected) else {
            ui.label("Open a capture: Open…, drop files on the window, or name them on the command line.");
            return;
        };
        let trace = &run.capture.traces[run.trace];
        ui.heading(&trace.meta.application);
        ui.label(format!("{} ({})", run.capture.info.format, run.capture.info.format_version));
        if let Some(markers) = run.markers_name() {
            ui.label(format!("PCL log: {markers}"));
        }
        match run.analyzed() {
            Some(a) => {
                if a.settings != settings {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("updating for the new settings…");
                    });
                }
                let source = self.source_text(&a.run, a.run.frame_types.is_some());
                panels::figures_ui(ui, &a.run, "figures", &source);
            }
            None => {
                ui.spinner();
            }
        }
        if let Some(range) = self.selection() {
            ui.separator();
            ui.heading("Selection");
            ui.label(format!(
                "{:.3} s – {:.3} s",
                range.0.min(range.1) / 1000.0,
                range.0.max(range.1) / 1000.0
            ));
            match run.selection_run(&settings, range) {
                Some(sel) => {
                    let source = self.source_text(sel, sel.frame_types.is_some());
                    panels::figures_ui(ui, sel, "selection_figures", &source);
                }
                None => {
                    ui.spinner();
                }
            }
        }
        self.selected_frame_ui(ui);
        let warnings = run.capture.warnings.len() + trace.warnings.len();
        if warnings > 0 {
            ui.separator();
            let title = if warnings == 1 { "1 warning".to_owned() } else { format!("{warnings} warnings") };
            ui.collapsing(title, |ui| {
                for w in run.capture.warnings.iter().chain(&trace.warnings).take(50) {
                    ui.label(
                        w.line.map_or_else(|| w.message.clone(), |l| format!("line {l}: {}", w.message)),
                    );
                }
            });
        }
    }

    /// Every column of the clicked frame (of any shown run), with its verdicts.
    fn selected_frame_ui(&self, ui: &mut egui::Ui) {
        if let Some((r, i)) = self.selected_frame
            && let Some(run) = self.runs.get(r)
        {
            ui.separator();
            ui.heading(format!("Frame of {}", short_name(&run.name)));
            let marks = run.analyzed().map(|a| &a.marks);
            panels::frame_details_ui(ui, &run.capture.traces[run.trace], marks, i);
        }
    }

    pub(super) fn charts_ui(&mut self, ui: &mut egui::Ui) {
        let target = self.persisted.target_fps;
        if self.comparing() {
            let shown = self.shown();
            let runs: Vec<(String, egui::Color32, &super::charts::ChartData)> = shown
                .iter()
                .enumerate()
                .filter_map(|(slot, &i)| {
                    let run = &self.runs[i];
                    let colour = super::theme::RUNS[slot % super::theme::RUNS.len()];
                    run.analyzed().map(|a| (legend_name(slot, &run.name), colour, a.charts.as_ref()))
                })
                .collect();
            let refs: Vec<(&str, egui::Color32, &super::charts::ChartData)> =
                runs.iter().map(|(n, c, d)| (n.as_str(), *c, *d)).collect();
            egui::ScrollArea::vertical().show(ui, |ui| super::charts::charts_overlay_ui(ui, &refs, target));
            return;
        }
        if let Some(a) = self.runs.get(self.selected).and_then(|r| r.analyzed()) {
            egui::ScrollArea::vertical().show(ui, |ui| super::charts::charts_ui(ui, &a.charts, target));
        }
    }

    pub(super) fn central_ui(&mut self, ui: &mut egui::Ui) {
        let shown = self.shown();
        if shown.is_empty() {
            if let Some(p) = self.pending.first() {
                loading_preview_ui(ui, &p.name, &p.progress);
            } else {
                ui.centered_and_justified(|ui| ui.label("No capture open"));
            }
            return;
        }
        let comparing = self.comparing();
        let mut commands: Vec<(usize, timeline::Command)> = Vec::new();
        let mut hovered = false;
        egui::ScrollArea::vertical().show(ui, |ui| {
            let top = ui.cursor().min;
            for (slot, &i) in shown.iter().enumerate() {
                let run = &self.runs[i];
                let s = run.shift_ms();
                if comparing {
                    let colour = super::theme::RUNS[slot % super::theme::RUNS.len()];
                    let role = if slot == 0 { "baseline" } else { "compared" };
                    ui.colored_label(colour, format!("{} — {role}", short_name(&run.name)));
                }
                let Some(tracks) = run.tracks() else {
                    ui.spinner();
                    continue;
                };
                // The series the figures shown are computed on; before the first
                // figures, what the settings will resolve to.
                let source = run.analyzed().map_or_else(
                    || match self.run_settings(i).frame_time {
                        FrameTimeSource::Auto => tracks.auto_source,
                        chosen => chosen,
                    },
                    |a| a.prepared.source,
                );
                let input = timeline::Input {
                    trace: &run.capture.traces[run.trace],
                    tracks,
                    analyzed: run.analyzed(),
                    source,
                    target_fps: self.persisted.target_fps,
                    view: timeline::TimeView { start_ms: self.view.start_ms + s, span_ms: self.view.span_ms },
                    selection: self.selection.map(|(a, b)| (a + s, b + s)),
                    selected_frame: self.selected_frame.filter(|(r, _)| *r == i).map(|(_, f)| f),
                    cursor_ms: if comparing { self.cursor_ms.map(|t| t + s) } else { None },
                    compact: comparing,
                };
                let out = ui.push_id(("timeline", i), |ui| timeline::timeline_ui(ui, &input)).inner;
                hovered |= out.iter().any(|c| matches!(c, timeline::Command::Cursor(_)));
                commands.extend(out.into_iter().map(|c| (i, c)));
            }
            self.timeline_rect = Some(egui::Rect::from_min_max(top, ui.min_rect().max));
        });
        if !hovered {
            self.cursor_ms = None;
        }
        for (i, c) in commands {
            self.apply_from(i, c);
        }
    }
}

impl App {
    /// The figures' frame-time source in words, for a run (or the comparison) whose
    /// runs have generated frames when `generated`.
    fn source_text(&self, run: &crate::report::Run, generated: bool) -> String {
        panels::source_text(run.frame_time, self.persisted.frame_time, generated, self.comparing())
    }
}

/// A run's own refresh rate: detected unless the user sets one for this capture (never
/// saved, never carried over to another capture).
fn refresh_ui(ui: &mut egui::Ui, run: &mut super::runs::OpenRun) {
    ui.horizontal(|ui| {
        let mut set = run.refresh_hz.is_some();
        let check = ui.checkbox(&mut set, "Refresh rate").on_hover_text(
            "Set this capture's display refresh rate (VSYNC markers); otherwise it is detected from \
             the capture's display intervals",
        );
        match (set, run.refresh_hz) {
            (true, None) => {
                // Start from what was detected, when anything was.
                let detected =
                    run.analyzed().and_then(|a| a.run.vsync).map(|v| (v.refresh_hz * 100.0).round() / 100.0);
                run.refresh_hz = Some(detected.unwrap_or(60.0));
            }
            (false, Some(_)) => run.refresh_hz = None,
            _ => {}
        }
        if let Some(hz) = &mut run.refresh_hz {
            ui.add(egui::DragValue::new(hz).range(1.0..=1000.0).speed(0.1).suffix(" Hz"))
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
}

/// A path's file name, for compact labels.
pub(super) fn short_name(name: &str) -> String {
    std::path::Path::new(name)
        .file_name()
        .map_or_else(|| name.to_owned(), |n| n.to_string_lossy().into_owned())
}

/// A run's name in a chart legend: its place in the comparison (which keeps legend
/// entries apart) and its file name, shortened in the middle so that the legend fits
/// the chart panel (dates and run numbers are usually at the end).
fn legend_name(slot: usize, name: &str) -> String {
    const HEAD: usize = 12;
    const TAIL: usize = 14;
    let short = short_name(name);
    let chars: Vec<char> = short.chars().collect();
    let shown = if chars.len() > HEAD + TAIL + 1 {
        let head: String = chars[..HEAD].iter().collect();
        let tail: String = chars[chars.len() - TAIL..].iter().collect();
        format!("{head}…{tail}")
    } else {
        short
    };
    format!("{}: {shown}", slot + 1)
}

impl App {
    /// Every figure of every compared run beside the baseline's, with delta and
    /// relative change, coloured better or worse (`metrics.md` §9).
    fn comparison_ui(&mut self, ui: &mut egui::Ui) {
        let shown = self.shown();
        let runs: Vec<Option<&crate::report::Run>> = shown
            .iter()
            .map(|&i| {
                let run = &self.runs[i];
                let settings = self.run_settings(i);
                let s = run.shift_ms();
                match self.selection {
                    Some((a, b)) => run.selection_run(&settings, (a + s, b + s)),
                    // Deltas only between figures of the same settings.
                    None => run.analyzed().filter(|a| a.settings == settings).map(|a| &a.run),
                }
            })
            .collect();
        ui.heading(if self.selection.is_some() { "Comparison of the selection" } else { "Comparison" });
        let Some(Some(baseline)) = runs.first() else {
            ui.spinner();
            return;
        };
        // One source for every compared run (metrics.md §9); each run says which.
        let generated = runs.iter().flatten().any(|r| r.frame_types.is_some());
        let mut sources: Vec<&str> = runs.iter().flatten().map(|r| r.frame_time).collect();
        sources.dedup();
        let source = if sources.len() == 1 {
            self.source_text(baseline, generated)
        } else {
            format!("differs between runs ({}): updating…", sources.join(", "))
        };
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Frame time").on_hover_text(panels::SOURCE_HELP);
            ui.label(RichText::new(source).strong()).labelled_by(label.id);
        });
        for (slot, &i) in shown.iter().enumerate().skip(1) {
            let colour = super::theme::RUNS[slot % super::theme::RUNS.len()];
            ui.colored_label(colour, format!("{} vs baseline", short_name(&self.runs[i].name)));
            let Some(Some(other)) = runs.get(slot) else {
                ui.spinner();
                continue;
            };
            let comparison = crate::report::compare::compare(baseline, other);
            let sources = (baseline.frame_time, other.frame_time);
            panels::comparison_table_ui(ui, &comparison, sources, ("comparison", i));
        }
    }
}

/// What a capture that is still loading holds so far: its frame count and the
/// slowest frame time of each stretch of frames, filling from the left as the file is
/// read (the window stays responsive: the load runs on a worker).
fn loading_preview_ui(ui: &mut egui::Ui, name: &str, progress: &crate::ingest::Progress) {
    let preview = progress.preview();
    let fraction = progress.fraction();
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(format!(
            "Loading {name}: {} frames read so far ({:.0} %)",
            preview.frames,
            100.0 * fraction
        ));
    });
    let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 160.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    if preview.slowest_ms.is_empty() {
        return;
    }
    // Frames the whole file will hold, estimated from how much of it was read.
    let total = if fraction > 0.01 { preview.frames as f32 / fraction } else { preview.frames as f32 * 10.0 };
    let mut sorted = preview.slowest_ms.clone();
    sorted.sort_unstable_by(f32::total_cmp);
    let scale = (sorted[sorted.len() * 95 / 100] * 1.5).max(1.0);
    let width = (rect.width() * preview.bucket_frames as f32 / total.max(1.0)).max(1.0);
    let bar = |x: f32, ms: f32| {
        let h = rect.height() * (ms / scale).clamp(0.0, 1.0);
        egui::Rect::from_min_max(egui::pos2(x, rect.bottom() - h), egui::pos2(x + width, rect.bottom()))
    };
    for (k, &ms) in preview.slowest_ms.iter().enumerate() {
        let x = rect.left() + rect.width() * (k as f32 * preview.bucket_frames as f32) / total.max(1.0);
        painter.rect_filled(bar(x, ms), 0.0, ui.visuals().widgets.inactive.bg_fill);
        painter.rect_filled(bar(x, preview.mean_ms(k) as f32), 0.0, ui.visuals().selection.bg_fill);
    }
    ui.label(format!(
        "per {} frames: mean frame time, and behind it the slowest frame (up to {scale:.0} ms)",
        preview.bucket_frames
    ));
}

#[cfg(test)]
mod tests {
    use super::legend_name;

    #[test]
    fn legend_names_are_short_and_distinct() {
        let a = "/caps/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv";
        assert_eq!(legend_name(0, a), "1: FrameView_Al…234455_Log.csv");
        assert_eq!(legend_name(1, "b.csv"), "2: b.csv");
        // The place keeps two runs of the same file apart.
        assert_ne!(legend_name(0, a), legend_name(1, a));
        // Exactly at the limit: kept whole; multi-byte names are cut on characters.
        assert_eq!(legend_name(0, &"é".repeat(27)), format!("1: {}", "é".repeat(27)));
        assert_eq!(legend_name(0, &"é".repeat(28)), format!("1: {}…{}", "é".repeat(12), "é".repeat(14)));
    }
}
