//! The desktop window: open captures, pick a trace, see its figures and frame times.
//!
//! This is the first cut of the window (issue 4 builds the full timeline). It never
//! parses files itself: loading runs on a worker thread (`loader`) with visible
//! progress, and a failed load is shown without touching the runs already open.

mod loader;
mod plot;

use crate::analysis::Summary;
use loader::{Loaded, Pending, Source};
use std::path::PathBuf;
use std::process::ExitCode;

/// The capture opened when no file is given (MIT, CapFrameX's test data).
const SAMPLE_NAME: &str = "sample: pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv";
const SAMPLE: &[u8] =
    include_bytes!("../../sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv");

/// Target rates offered in the settings bar.
const TARGETS: [f64; 7] = [30.0, 60.0, 90.0, 120.0, 144.0, 165.0, 240.0];

/// Opens the window on `files` (or the bundled sample) and runs until it is closed.
#[must_use]
pub fn run(files: &[PathBuf]) -> ExitCode {
    let sources: Vec<Source> = if files.is_empty() {
        vec![Source::Embedded(SAMPLE_NAME, SAMPLE)]
    } else {
        files.iter().cloned().map(Source::File).collect()
    };
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: eframe::egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("framescope"),
        ..Default::default()
    };
    let result = eframe::run_native(
        "framescope",
        options,
        Box::new(move |cc| {
            let mut app = App::default();
            for source in sources {
                app.open(source, &cc.egui_ctx);
            }
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot open the window: {e}");
            ExitCode::from(1)
        }
    }
}

/// One open capture and the trace the user looks at.
struct OpenRun {
    name: String,
    loaded: Loaded,
    trace: usize,
}

/// The whole window state.
#[derive(Default)]
pub struct App {
    runs: Vec<OpenRun>,
    pending: Vec<Pending>,
    errors: Vec<String>,
    selected: usize,
    target_fps: Option<f64>,
}

impl App {
    fn open(&mut self, source: Source, ctx: &eframe::egui::Context) {
        let ctx = ctx.clone();
        self.pending.push(Pending::start(source, move || ctx.request_repaint()));
    }

    fn target(&self) -> f64 {
        self.target_fps.unwrap_or(60.0)
    }

    /// Moves finished loads into the open runs (or the error list).
    fn drain_loads(&mut self) {
        let mut still = Vec::new();
        for p in std::mem::take(&mut self.pending) {
            match p.poll() {
                None => still.push(p),
                Some(Ok(loaded)) => {
                    let trace = loaded.capture.default_trace().unwrap_or(0);
                    self.runs.push(OpenRun { name: p.name, loaded, trace });
                    self.selected = self.runs.len() - 1;
                }
                Some(Err(e)) => self.errors.push(e.to_string()),
            }
        }
        self.pending = still;
    }
}

impl eframe::App for App {
    fn logic(&mut self, ctx: &eframe::egui::Context, _frame: &mut eframe::Frame) {
        self.drain_loads();
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        for path in dropped {
            self.open(Source::File(path), ctx);
        }
        if !self.pending.is_empty() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn ui(&mut self, ui: &mut eframe::egui::Ui, _frame: &mut eframe::Frame) {
        use eframe::egui;
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        egui::Panel::left("runs").resizable(true).default_size(360.0).show(ui, |ui| self.runs_ui(ui));
        egui::CentralPanel::default().show(ui, |ui| self.plot_ui(ui));
    }
}

impl App {
    fn toolbar_ui(&mut self, ui: &mut eframe::egui::Ui) {
        use eframe::egui;
        ui.horizontal(|ui| {
            if ui.button("Open…").clicked() {
                match rfd::FileDialog::new().add_filter("captures", &["csv", "CSV"]).pick_files() {
                    Some(paths) => {
                        for p in paths {
                            self.open(Source::File(p), ui.ctx());
                        }
                    }
                    None => self.errors.push(
                        "no file chosen (if no dialog appeared, install xdg-desktop-portal or zenity, \
                         or drop files on the window)"
                            .into(),
                    ),
                }
            }
            ui.separator();
            ui.label("Target FPS");
            let current = self.target();
            egui::ComboBox::from_id_salt("target").selected_text(format!("{current}")).show_ui(ui, |ui| {
                for t in TARGETS {
                    if ui.selectable_label((current - t).abs() < 1e-9, format!("{t}")).clicked() {
                        self.target_fps = Some(t);
                    }
                }
            });
            for p in &self.pending {
                ui.separator();
                ui.add(
                    egui::ProgressBar::new(p.progress.fraction())
                        .desired_width(160.0)
                        .text(format!("loading {}", p.name)),
                );
                if ui.button("Cancel").clicked() {
                    p.progress.cancel();
                }
            }
        });
    }

    fn runs_ui(&mut self, ui: &mut eframe::egui::Ui) {
        use eframe::egui;
        let target = self.target();
        egui::ScrollArea::vertical().show(ui, |ui| {
            if !self.errors.is_empty() {
                ui.heading("Errors");
                let mut dismiss = None;
                for (i, e) in self.errors.iter().enumerate() {
                    ui.horizontal_wrapped(|ui| {
                        ui.colored_label(ui.visuals().error_fg_color, e);
                        if ui.small_button("✕").clicked() {
                            dismiss = Some(i);
                        }
                    });
                }
                if let Some(i) = dismiss {
                    self.errors.remove(i);
                }
                ui.separator();
            }
            for (i, run) in self.runs.iter_mut().enumerate() {
                ui.radio_value(&mut self.selected, i, &run.name);
                let traces = &run.loaded.capture.traces;
                if traces.len() > 1 {
                    let label = |t: &crate::model::Trace| format!("{} — {} frames", t.label(), t.len());
                    egui::ComboBox::from_id_salt(("trace", i))
                        .selected_text(label(&traces[run.trace]))
                        .width(330.0)
                        .show_ui(ui, |ui| {
                            for (k, t) in traces.iter().enumerate() {
                                ui.selectable_value(&mut run.trace, k, label(t));
                            }
                        });
                }
            }
            if let Some(run) = self.runs.get(self.selected) {
                ui.separator();
                summary_ui(ui, run, target);
            }
        });
    }

    fn plot_ui(&self, ui: &mut eframe::egui::Ui) {
        match self.runs.get(self.selected) {
            Some(run) => {
                plot::frame_times_ui(ui, &run.loaded.capture.traces[run.trace], self.target());
            }
            None if self.pending.is_empty() => {
                ui.label("Open a capture (Open…, or drop files on the window).");
            }
            None => {
                ui.spinner();
            }
        }
    }
}

fn summary_ui(ui: &mut eframe::egui::Ui, run: &OpenRun, target_fps: f64) {
    let trace = &run.loaded.capture.traces[run.trace];
    let info = &run.loaded.capture.info;
    ui.heading(&trace.meta.application);
    ui.label(format!("{} ({})", info.format, info.format_version));
    ui.label(format!("{} frames, {} dropped", trace.len(), trace.dropped_count()));
    let figures = &run.loaded.traces[run.trace];
    let Some(s) = figures.summary else {
        ui.label("no usable frame times");
        return;
    };
    eframe::egui::Grid::new("summary").num_columns(2).striped(true).show(ui, |ui| {
        for (name, value) in figure_rows(&s, figures, target_fps) {
            ui.label(name);
            ui.label(value);
            ui.end_row();
        }
    });
    let warnings = run.loaded.capture.warnings.len() + trace.warnings.len();
    if warnings > 0 {
        ui.label(format!("{warnings} warnings (see `framescope report`)"));
    }
}

/// The figures as (label, value) rows: smoothness first, with the same weight as the
/// average, then lows, stutters and percentiles.
fn figure_rows(s: &Summary, f: &loader::TraceFigures, target_fps: f64) -> Vec<(String, String)> {
    let mut rows = vec![("Average FPS".to_owned(), format!("{:.2}", s.avg_fps))];
    if let Some(p) = &f.figures.pacing {
        rows.push(("Steady FPS".into(), p.steady_fps.to_string()));
        rows.push(("Mostly steady FPS".into(), p.mostly_steady_fps.to_string()));
        rows.push(("Typical FPS".into(), p.typical_fps.to_string()));
    }
    if let Some((slow, excess)) = f.curve.as_ref().map(|c| c.at(target_fps)) {
        rows.push((format!("Slow time at {target_fps} FPS"), format!("{:.2} %", slow * 100.0)));
        rows.push((format!("Excess time at {target_fps} FPS"), format!("{:.2} %", excess * 100.0)));
    }
    rows.push(("1% low FPS".into(), format!("{:.2}", s.low_1pct_fps)));
    rows.push(("0.1% low FPS".into(), format!("{:.2}", s.low_0_1pct_fps)));
    rows.push(("Min / max FPS".into(), format!("{:.2} / {:.2}", s.min_fps, s.max_fps)));
    if let Some(st) = &f.figures.stutters {
        rows.push(("Stutters".into(), format!("{} ({:.2} % of time)", st.count, st.time_fraction * 100.0)));
    }
    if let Some(o) = &f.figures.osc {
        let flag = if o.flag { "OSC: oscillating" } else { "no" };
        rows.push(("Oscillation".into(), format!("{flag} ({} frames)", o.oscillating_frames)));
    }
    for (name, v) in
        [("p50", s.p50_ms), ("p90", s.p90_ms), ("p95", s.p95_ms), ("p99", s.p99_ms), ("p99.9", s.p99_9_ms)]
    {
        rows.push((format!("{name} frame time"), format!("{v:.3} ms")));
    }
    rows
}
