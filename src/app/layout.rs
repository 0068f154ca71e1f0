//! The areas of the window: menus and toolbar, settings bar, runs and figures on the
//! left, charts on the right, the timeline in the middle (exports are in `saving`).

use super::work::LoadSource as Source;
use super::{App, dialog, panels, timeline};
use eframe::egui::{self, RichText};
use framescope_core::analysis::FrameTimeSource;
use framescope_core::model::Trace;

impl App {
    pub(super) fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.separator();
            let mut compare = self.compare;
            let toggle =
                ui.add_enabled(self.runs.len() > 1, egui::Checkbox::new(&mut compare, "Compare runs"));
            let toggle = toggle
                .on_hover_text(
                    "Stack the runs' timelines on one time axis, overlay their charts and compare every \
                     figure against a baseline",
                )
                .on_disabled_hover_text("Open two or more captures to compare them");
            if toggle.changed() {
                self.set_compare(compare, self.baseline);
            }
            if ui
                .button("Sample pair")
                .on_hover_text(
                    "Open two runs of a synthetic scene and compare the two of them (captures already \
                     open stay open, outside the comparison)",
                )
                .clicked()
            {
                self.open_sample_pair(ui.ctx());
            }
            for p in &self.pending {
                ui.separator();
                let bar = egui::ProgressBar::new(p.progress.fraction()).desired_width(180.0);
                ui.add(bar.text(format!("loading {}", super::layout::short_name(&p.name))))
                    .on_hover_text(&p.name);
                if ui.button("Cancel").on_hover_text("Stop loading this file").clicked() {
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
        self.engine_examples_menu(ui);
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
        self.watch_menu(ui);
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
        ui.checkbox(&mut self.show_runs_panel, "Runs and figures panel")
            .on_hover_text("The panel on the left; hide it for a wider timeline");
        ui.checkbox(&mut self.show_charts_panel, "Charts panel")
            .on_hover_text("The panel on the right; hide it for a wider timeline");
        ui.checkbox(&mut self.show_peers_panel, "As other tools report it").on_hover_text(PEERS_HELP);
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

    /// The refresh rates of the shown runs (set by the user, else detected), rounded to
    /// 0.01 Hz and deduplicated: the target presets "display 59.94 Hz".
    fn display_rates(&self) -> Vec<f64> {
        let mut rates: Vec<f64> = self
            .shown()
            .into_iter()
            .filter_map(|i| {
                let r = &self.runs[i];
                r.refresh_hz.or_else(|| r.analyzed().and_then(|a| a.run.vsync).map(|v| v.refresh_hz))
            })
            .map(|hz| (hz * 100.0).round() / 100.0)
            .filter(|hz| (1.0..=1000.0).contains(hz))
            .collect();
        rates.sort_by(f64::total_cmp);
        rates.dedup();
        rates
    }

    pub(super) fn settings_ui(&mut self, ui: &mut egui::Ui) {
        let before = self.persisted.clone();
        let rates = self.display_rates();
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Target FPS").on_hover_text(panels::TARGET_HELP);
            let current = self.persisted.target_fps;
            let is = |t: f64| (current - t).abs() < 1e-9;
            let shown = match rates.iter().find(|&&hz| is(hz)) {
                Some(hz) => format!("display {hz:.2} Hz"),
                None => super::timeline::fps_text(current),
            };
            egui::ComboBox::from_id_salt("target_fps")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for &hz in &rates {
                        let text = format!("display {hz:.2} Hz");
                        let item = ui.selectable_label(is(hz), text).on_hover_text(
                            "The refresh rate of the display the capture ran on (detected from its display \
                             intervals, or set by you): a run locked to it is on target",
                        );
                        if item.clicked() {
                            self.persisted.target_fps = hz;
                        }
                    }
                    for t in panels::TARGETS {
                        if ui.selectable_label(is(t), format!("{t}")).clicked() {
                            self.persisted.target_fps = t;
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(panels::TARGET_HELP);
            ui.add(
                egui::DragValue::new(&mut self.persisted.target_fps)
                    .range(1.0..=1000.0)
                    .speed(1.0)
                    .suffix(" FPS"),
            )
            .labelled_by(label.id)
            .on_hover_text(panels::TARGET_HELP);
            self.capture_target_ui(ui);
            ui.separator();
            let label = ui.label("Stutter threshold").on_hover_text(panels::THRESHOLD_HELP);
            let mut pct = self.persisted.stutter_threshold * 100.0;
            if ui
                .add(egui::DragValue::new(&mut pct).range(0.0..=500.0).speed(1.0).suffix(" %"))
                .labelled_by(label.id)
                .on_hover_text(panels::THRESHOLD_HELP)
                .changed()
            {
                self.persisted.stutter_threshold = pct / 100.0;
            }
            let label = ui.label("floor").on_hover_text(panels::FLOOR_HELP);
            ui.add(
                egui::DragValue::new(&mut self.persisted.stutter_floor_ms)
                    .range(0.0..=100.0)
                    .speed(0.1)
                    .suffix(" ms"),
            )
            .labelled_by(label.id)
            .on_hover_text(panels::FLOOR_HELP);
            ui.separator();
            ui.label("Frame time").on_hover_text(panels::SOURCE_HELP);
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
            for (value, text, help) in sources {
                ui.radio_value(&mut self.persisted.frame_time, value, text).on_hover_text(help);
            }
            ui.separator();
            self.trim_all_ui(ui);
        });
        if self.persisted != before {
            self.settings_dirty = true;
        }
    }

    pub(super) fn side_ui(&mut self, ui: &mut egui::Ui) {
        // Scrolling both ways: content wider than the panel (a long file name, a frame's
        // columns) scrolls instead of widening the panel, so the timeline never jumps.
        let width = ui.available_width();
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            // Wrap and fill to the panel's width, not the scrolled content's.
            ui.set_max_width(width);
            self.errors_ui(ui);
            let mut close = None;
            let mut picked = None;
            let comparing = self.comparing();
            let mut baseline = self.baseline;
            let shown = self.shown();
            let all_trim = self.trim_for_all();
            // Many runs (sets of runs) start folded, so that the comparison stays in view.
            let listed = super::sets::runs_header_ui(ui, self.runs.len(), comparing && self.sets_mode());
            for (i, run) in self.runs.iter_mut().enumerate().filter(|_| listed) {
                ui.horizontal(|ui| {
                    if ui.small_button("x").on_hover_text("Close this capture").clicked() {
                        close = Some(i);
                    }
                    // A long name is cut to the panel (the whole path shows on hover).
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                    let radio = ui.radio(self.selected == i, run.label.as_str());
                    if radio.on_hover_text(format!("Show this run's figures\n{}", run.name)).clicked() {
                        picked = Some(i);
                    }
                });
                ui.indent(("run", run.id), |ui| {
                    ui.horizontal(|ui| {
                        let label = ui.label("Name").on_hover_text(RENAME_HELP);
                        ui.add(egui::TextEdit::singleline(&mut run.label).desired_width(f32::INFINITY))
                            .labelled_by(label.id)
                            .on_hover_text(RENAME_HELP);
                    });
                    if comparing {
                        ui.horizontal_wrapped(|ui| {
                            let mut compared = run.compared || baseline == i;
                            let check = ui
                                .add_enabled(baseline != i, egui::Checkbox::new(&mut compared, "compared"))
                                .on_hover_text("Include this run in the comparison")
                                .on_disabled_hover_text("The baseline is always compared");
                            if check.changed() {
                                run.compared = compared;
                            }
                            ui.radio_value(&mut baseline, i, "baseline").on_hover_text(
                                "The run every other run is compared against (deltas are other − baseline)",
                            );
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
                    super::trimming::run_trim_ui(ui, run, all_trim);
                    let traces = &run.capture.traces;
                    if traces.len() > 1 {
                        let label = |t: &Trace| format!("{} — {} frames", t.label(), t.len());
                        let before = run.trace;
                        ui.horizontal(|ui| {
                            let name = ui.label("Trace").on_hover_text(
                                "The process and swap chain shown: a capture can record several",
                            );
                            egui::ComboBox::from_id_salt(("trace", i))
                                .selected_text(label(&traces[run.trace]))
                                .width(ui.available_width().min(260.0))
                                .truncate()
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
                    warnings_ui(ui, run);
                });
            }
            if baseline != self.baseline {
                self.baseline = baseline;
                if let Some(r) = self.runs.get_mut(baseline) {
                    r.compared = true;
                }
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
            self.sets_ui(ui);
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
            if self.sets_mode() {
                ui.heading("Comparison of sets");
                if self.selection.is_some() {
                    ui.label(
                        RichText::new("of the whole (trimmed) runs: sets do not use the selection")
                            .small()
                            .weak(),
                    );
                }
                self.sets_comparison_ui(ui);
            } else {
                self.comparison_ui(ui);
            }
            self.selected_frame_ui(ui);
            return;
        }
        let settings = self.run_settings(self.selected);
        let trim = self.run_trim(self.selected);
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
        super::trimming::trim_note_ui(ui, trim);
        match run.analyzed() {
            Some(a) => {
                if run.failed(&settings, trim) {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        "No figures for these settings: see the error above",
                    );
                } else if a.settings != settings || a.trim != trim {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("updating for the new settings…");
                    });
                }
                let source = self.source_text(&a.run, a.run.frame_types.is_some());
                panels::figures_ui(ui, &a.run, "figures", &source);
                ui.toggle_value(&mut self.show_peers_panel, "As other tools report it")
                    .on_hover_text(PEERS_HELP);
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
            match run.selection_run(&settings, trim, range) {
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
    }

    /// Every column of the clicked frame (of any shown run), with its verdicts.
    fn selected_frame_ui(&self, ui: &mut egui::Ui) {
        if let Some((r, i)) = self.selected_frame
            && let Some(run) = self.runs.get(r)
        {
            ui.separator();
            ui.heading(format!("Frame of {}", run.label));
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
                    let colour = self.run_colour(slot, i);
                    run.analyzed().map(|a| (legend_name(slot, &run.label), colour, a.charts.as_ref()))
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
        // Compared runs share the frame rows' scales unless the user fits each.
        let shared = (comparing && self.shared_scale).then(|| {
            shown.iter().fold(timeline::Scales::default(), |acc, &i| {
                let r = &self.runs[i];
                r.tracks().map_or(acc, |t| acc.max(timeline::Scales::of(t, r.analyzed())))
            })
        });
        self.legend_ui(ui);
        self.events_ui(ui);
        if comparing {
            ui.horizontal(|ui| {
                ui.checkbox(&mut self.shared_scale, "Same vertical scale for every run").on_hover_text(
                    "On: the frame, GPU, display and latency rows of all compared runs share one ms \
                     scale each, so equal heights mean equal times. Off: each run is scaled to its own.",
                );
            });
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            let top = ui.cursor().min;
            for (slot, &i) in shown.iter().enumerate() {
                let run = &self.runs[i];
                let s = run.shift_ms();
                if comparing {
                    let colour = self.run_colour(slot, i);
                    let role = if slot == 0 { "baseline" } else { "compared" };
                    let set = if self.sets_mode() { format!(" (set {})", run.set) } else { String::new() };
                    ui.colored_label(colour, format!("{} — {role}{set}", run.label));
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
                    // The pointer's time, across every row (and every compared run).
                    cursor_ms: self.cursor_ms.map(|t| t + s),
                    compact: comparing,
                    scales: shared,
                    trim: timeline::TrimEdges::of(&run.capture.traces[run.trace], self.run_trim(i)),
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
    /// The timeline's legend (generated frames when a shown run has them).
    fn legend_ui(&self, ui: &mut egui::Ui) {
        let generated = self.shown().into_iter().any(|i| self.runs[i].tracks().is_some_and(|t| t.generated));
        panels::timeline_legend_ui(ui, generated);
    }

    /// The figures' frame-time source in words, for a run (or the comparison) whose
    /// runs have generated frames when `generated`.
    fn source_text(&self, run: &framescope_core::report::Run, generated: bool) -> String {
        panels::source_text(run.frame_time, self.persisted.frame_time, generated, self.comparing())
    }
}

/// What the "As other tools report it" panel is.
const PEERS_HELP: &str = "A panel beside the figures: the figures CapFrameX, FrameView, PresentMon and MangoHud \
    print for this run, each computed that tool's way, and the run's telemetry";

/// What the Name field does.
const RENAME_HELP: &str = "What the window calls this run: its legends, headings and export file names";

/// A run's load warnings, always in view: the first three, then the rest folded.
fn warnings_ui(ui: &mut egui::Ui, run: &super::runs::OpenRun) {
    let trace = &run.capture.traces[run.trace];
    let all: Vec<&framescope_core::model::Warning> =
        run.capture.warnings.iter().chain(&trace.warnings).collect();
    if all.is_empty() {
        return;
    }
    let text = |w: &framescope_core::model::Warning| {
        w.line.map_or_else(|| w.message.clone(), |l| format!("line {l}: {}", w.message))
    };
    let title = if all.len() == 1 { "1 warning".to_owned() } else { format!("{} warnings", all.len()) };
    ui.label(RichText::new(title).color(ui.visuals().warn_fg_color)).on_hover_text(
        "Problems found while reading the file; the rows they name were skipped or read as described",
    );
    for w in all.iter().take(3) {
        ui.add(egui::Label::new(RichText::new(text(w)).small()).wrap());
    }
    if all.len() > 3 {
        egui::CollapsingHeader::new(format!("{} more", all.len() - 3)).id_salt(("warnings", run.id)).show(
            ui,
            |ui| {
                for w in all.iter().skip(3).take(200) {
                    ui.add(egui::Label::new(RichText::new(text(w)).small()).wrap());
                }
            },
        );
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
        ui.heading(if self.selection.is_some() { "Comparison of the selection" } else { "Comparison" });
        let mut band = self.persisted.noise_band * 100.0;
        ui.horizontal_wrapped(|ui| {
            let help = "Run-to-run noise: a figure that changed by no more than this share of the baseline's \
                        value is neither better nor worse (grey, \"noise\"). Two runs of the same scene often \
                        differ by about 1 %.";
            let label = ui.label("Noise band ±").on_hover_text(help);
            ui.add(egui::DragValue::new(&mut band).range(0.0..=50.0).speed(0.1).max_decimals(1).suffix(" %"))
                .labelled_by(label.id)
                .on_hover_text(help);
            ui.label(RichText::new("changes within it are grey").small().weak());
        });
        super::conventions_panel::figures_choice_ui(ui, &mut self.convention);
        ui.add(
            egui::Label::new(
                RichText::new(
                    "One run per side: two runs of one scene often differ by a few %. Open several runs \
                     of each build (run1, run2, …) to compare sets, where only significant changes are \
                     coloured.",
                )
                .small()
                .weak(),
            )
            .wrap(),
        );
        if (band / 100.0 - self.persisted.noise_band).abs() > 1e-12 {
            self.persisted.noise_band = band / 100.0;
            self.settings_dirty = true;
        }
        let shown = self.shown();
        let runs: Vec<Option<&framescope_core::report::Run>> = shown
            .iter()
            .map(|&i| {
                let run = &self.runs[i];
                let settings = self.run_settings(i);
                let trim = self.run_trim(i);
                let s = run.shift_ms();
                match self.selection {
                    Some((a, b)) => run.selection_run(&settings, trim, (a + s, b + s)),
                    // Deltas only between figures of the same settings.
                    None => run.current(&settings, trim).map(|a| &a.run),
                }
            })
            .collect();
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
        let baseline_label = self.runs[shown[0]].label.clone();
        for (slot, &i) in shown.iter().enumerate().skip(1) {
            let colour = self.run_colour(slot, i);
            ui.colored_label(colour, format!("{} vs {baseline_label} (baseline)", self.runs[i].label));
            let Some(Some(other)) = runs.get(slot) else {
                ui.spinner();
                continue;
            };
            // framescope's figures, or a peer tool's where its summary would be (as
            // `framescope compare --convention TOOL`).
            let comparison =
                framescope_core::report::compare::compare(baseline, other).with_convention(self.convention);
            let sources = (baseline.frame_time, other.frame_time);
            egui::ScrollArea::horizontal().id_salt(("comparison_scroll", i)).show(ui, |ui| {
                panels::comparison_table_ui(
                    ui,
                    &comparison,
                    sources,
                    self.persisted.noise_band,
                    ("comparison", i),
                );
            });
            super::conventions_panel::convention_note_ui(ui, &comparison, self.convention);
            super::conventions_panel::telemetry_comparison_ui(ui, &comparison, ("comparison_telemetry", i));
        }
    }
}

/// What a capture that is still loading holds so far: its frame count and the
/// slowest frame time of each stretch of frames, filling from the left as the file is
/// read (the window stays responsive: the load runs on a worker).
fn loading_preview_ui(ui: &mut egui::Ui, name: &str, progress: &framescope_core::ingest::Progress) {
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
