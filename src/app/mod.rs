//! The desktop window: open captures, pick target FPS and stutter thresholds, see
//! every frame on a zoomable timeline beside the figures and charts.
//!
//! State by lifetime: [`Persisted`] is what the user chose (saved between runs);
//! `OpenRun`s are the loaded captures with their derived analysis; the view,
//! selection and selected frame are the session's; hover and drag state live in egui.
//! The UI never parses files: loading and analysis run on worker threads with
//! visible progress, and a failed load shows its error without touching open runs.
//! Timeline interactions come back as [`Command`]s applied in [`App::apply`].

mod charts;
mod conventions_panel;
mod dialog;
mod engine;
mod export;
mod figure_text;
mod mapping;
mod panels;
mod runs;
mod saving;
mod sets;
mod settings;
mod theme;
pub mod timeline;
mod trimming;
mod watch;
mod work;

use crate::launch::WindowOptions;
pub use conventions_panel::PEER_FIGURES;
use eframe::egui;
use framescope_core::analysis::{FrameTimeSource, Settings, Trim};
pub use panels::{FIGURE_NAMES, Unit, figure_name};
use runs::OpenRun;
pub use settings::Persisted;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use timeline::{Command, TimeView};
pub use work::LoadSource as CaptureSource;
use work::{LoadSource as Source, Pending, Spawner};

/// The capture opened when no file is given (MIT, CapFrameX's test data).
pub const SAMPLE_NAME: &str = "sample: pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv";
/// Its bytes, built into the binary so the window works after `cargo install` too.
pub const SAMPLE: &[u8] =
    include_bytes!("../../sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv");

/// Two synthetic runs of one scene, for trying the comparison (see sample-traces/).
const PAIR: [(&str, &[u8]); 2] = [
    ("sample: synthetic-run-a.csv", include_bytes!("../../sample-traces/synthetic-run-a.csv")),
    ("sample: synthetic-run-b.csv", include_bytes!("../../sample-traces/synthetic-run-b.csv")),
];

/// Opens the window on `files` (or the bundled sample) and runs until it is closed.
#[must_use]
pub fn run(options: &WindowOptions) -> ExitCode {
    let files = &options.files;
    let screenshot = options.screenshot.clone();
    let markers = options.markers.clone();
    let compare = options.compare;
    let convention = options.convention;
    let trim = options.trim;
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default().with_inner_size([1400.0, 900.0]).with_title("framescope"),
        ..Default::default()
    };
    let files = files.clone();
    let files_for_message = files.clone();
    let failed = Arc::new(Mutex::new(false));
    let failed_in_app = Arc::clone(&failed);
    let result = eframe::run_native(
        "framescope",
        options,
        Box::new(move |cc| {
            let persisted = if screenshot.is_some() { Persisted::default() } else { Persisted::load() };
            let mut app = App::new(persisted, &cc.egui_ctx);
            if let Some((start, end)) = trim {
                app.set_trim_all(start, end);
            }
            if compare && files.is_empty() {
                app.open_sample_pair(&cc.egui_ctx);
            } else {
                app.open_all(&files, &cc.egui_ctx);
                if compare {
                    app.compare_when_loaded = Some(0);
                }
            }
            // A screenshot run leaves the user's settings and recent files alone.
            app.saving = screenshot.is_none();
            app.screenshot_and_quit = screenshot.map(|p| (p, failed_in_app));
            app.pending_markers = markers;
            if let Some(tool) = convention {
                app.convention = Some(tool);
                app.show_peers_panel = true;
            }
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) if !*failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) => ExitCode::SUCCESS,
        Ok(()) => ExitCode::from(1),
        Err(e) => {
            // Without the windowing library's source paths, and with the way to the
            // figures without a window.
            eprintln!("{}", crate::launch::no_window_message(&e.to_string(), &files_for_message));
            ExitCode::from(1)
        }
    }
}

/// A PCL marker log being read for run `.0`, named `.1`.
type MarkerJob = (
    usize,
    String,
    work::Task<Result<framescope_core::ingest::pcl::MarkerLog, framescope_core::ingest::LoadError>>,
);

/// A PNG that is being taken: where to save it and which part of the window.
type PendingShot = Arc<Mutex<Option<Result<String, String>>>>;

/// The whole window.
// Independent toggles (help shown, comparing, view fitted, saving): not a state machine.
#[allow(clippy::struct_excessive_bools)]
pub struct App {
    persisted: Persisted,
    runs: Vec<OpenRun>,
    selected: usize,
    pending: Vec<Pending>,
    errors: Vec<String>,
    status: Option<String>,
    view: TimeView,
    view_fitted: bool,
    /// The selected time range, on the aligned axis (see [`OpenRun::shift_ms`]).
    selection: Option<(f64, f64)>,
    /// The selected frame: (run, frame).
    selected_frame: Option<(usize, usize)>,
    /// The linked cursor, on the aligned axis.
    cursor_ms: Option<f64>,
    /// Compare the open runs side by side.
    compare: bool,
    /// Turn comparing on, with this run as baseline, once every load has finished.
    compare_when_loaded: Option<usize>,
    /// The baseline run of the comparison.
    baseline: usize,
    /// Compared runs share the frame rows' vertical scales.
    shared_scale: bool,
    /// The side panels are shown (View menu).
    show_runs_panel: bool,
    show_charts_panel: bool,
    show_help: bool,
    /// The "As other tools report it" panel beside the figures (a single run).
    show_peers_panel: bool,
    /// The peer tool whose figures the comparison shows (`None`: framescope's own).
    convention: Option<framescope_core::report::compare::Section>,
    timeline_rect: Option<egui::Rect>,
    shot: Option<PendingShot>,
    screenshot_and_quit: Option<(PathBuf, Arc<Mutex<bool>>)>,
    saving: bool,
    /// A frames CSV being written in the background.
    export_job: Option<work::Task<Result<String, String>>>,
    marker_job: Option<MarkerJob>,
    /// Settings changed and not saved yet (saved once no drag is in progress).
    settings_dirty: bool,
    pending_markers: Option<PathBuf>,
    /// The frame-time source `auto` resolves to for the compared traces (`metrics.md`
    /// §9), kept until the set of compared traces changes.
    compare_source: Option<(Vec<(u64, usize)>, FrameTimeSource)>,
    /// The set captures arriving in the watched folder are compared against.
    pinned_set: Option<String>,
    /// The comparisons of sets, kept while the runs' figures stay the same.
    sets_cache: Option<sets::Cache>,
    /// The watched folder.
    watch: Option<watch::Watch>,
    /// Captures from the watched folder still loading.
    from_watch: Vec<PathBuf>,
    /// A CSV of no known format waiting for the user's column mapping.
    mapping_step: Option<mapping::MappingStep>,
    spawner: Spawner,
}

impl App {
    /// A window with no capture open.
    #[must_use]
    pub fn new(persisted: Persisted, ctx: &egui::Context) -> Self {
        let ctx = ctx.clone();
        Self {
            persisted,
            runs: Vec::new(),
            selected: 0,
            pending: Vec::new(),
            errors: Vec::new(),
            status: None,
            view: TimeView::default(),
            view_fitted: false,
            selection: None,
            selected_frame: None,
            cursor_ms: None,
            compare: false,
            compare_when_loaded: None,
            baseline: 0,
            shared_scale: true,
            show_runs_panel: true,
            show_charts_panel: true,
            show_help: false,
            show_peers_panel: false,
            convention: None,
            timeline_rect: None,
            shot: None,
            screenshot_and_quit: None,
            saving: true,
            export_job: None,
            marker_job: None,
            settings_dirty: false,
            pending_markers: None,
            compare_source: None,
            pinned_set: None,
            sets_cache: None,
            watch: None,
            from_watch: Vec::new(),
            mapping_step: None,
            spawner: Spawner::threads(Arc::new(move || ctx.request_repaint())),
        }
    }

    /// Opens `files`, or the bundled sample when there are none.
    pub fn open_all(&mut self, files: &[PathBuf], ctx: &egui::Context) {
        if files.is_empty() {
            self.open(Source::Embedded(SAMPLE_NAME, SAMPLE), ctx);
        }
        for f in files {
            self.open(Source::File(f.clone()), ctx);
        }
    }

    /// Opens the synthetic A/B pair and compares them once both are loaded — the two of
    /// them only: captures already open stay open but leave the comparison.
    pub fn open_sample_pair(&mut self, ctx: &egui::Context) {
        for run in &mut self.runs {
            run.compared = false;
        }
        self.compare_when_loaded = Some(self.runs.len() + self.pending.len());
        for (name, bytes) in PAIR {
            self.open(Source::Embedded(name, bytes), ctx);
        }
    }

    /// Starts loading a capture on a worker thread.
    pub fn open(&mut self, source: Source, ctx: &egui::Context) {
        let _ = ctx;
        let remembered = self.remembered_mappings();
        self.pending.push(Pending::start(&self.spawner, source, None, remembered));
    }

    /// True when nothing is loading or computing (tests wait for this).
    #[must_use]
    pub fn is_idle(&self) -> bool {
        let shown_current = self.shown().into_iter().all(|i| {
            let local = self.selection.map(|(a, b)| (a + self.shift(i), b + self.shift(i)));
            self.runs[i].up_to_date(&self.run_settings(i), self.run_trim(i), local)
        });
        self.pending.is_empty()
            && self.marker_job.is_none()
            && self.export_job.is_none()
            && self.pending_markers.is_none()
            && shown_current
            && self.runs.iter().all(|r| !r.busy())
    }

    /// What [`App::is_idle`] is waiting for, in words (for test failure messages).
    #[must_use]
    pub fn idle_report(&self) -> String {
        let runs: Vec<String> = self
            .shown()
            .into_iter()
            .map(|i| {
                let local = self.selection.map(|(a, b)| (a + self.shift(i), b + self.shift(i)));
                let r = &self.runs[i];
                format!("run {i}: {}", r.state_report(&self.run_settings(i), self.run_trim(i), local))
            })
            .collect();
        format!(
            "pending loads {}, marker job {}, pending markers {}, {}",
            self.pending.len(),
            self.marker_job.is_some(),
            self.pending_markers.is_some(),
            runs.join("; ")
        )
    }

    /// The baseline run's name, when comparing.
    #[must_use]
    pub fn baseline_name(&self) -> Option<&str> {
        self.comparing().then(|| self.runs.get(self.baseline).map(|r| r.name.as_str())).flatten()
    }

    /// Shows trace `trace` of run `run` (what the trace picker does).
    pub fn show_trace(&mut self, run: usize, trace: usize) {
        if let Some(r) = self.runs.get_mut(run)
            && trace < r.capture.traces.len()
        {
            r.trace = trace;
            self.selected = run;
            self.selection = None;
            self.selected_frame = None;
            self.view_fitted = false;
        }
    }

    /// Closes run `i`, keeping every index into the runs pointing at the same run
    /// (or clearing it when it pointed at the closed one).
    pub fn close_run(&mut self, i: usize) {
        if i >= self.runs.len() {
            return;
        }
        self.runs.remove(i);
        let fix = |k: usize| if k > i { k - 1 } else { k };
        self.selected = fix(self.selected).min(self.runs.len().saturating_sub(1));
        self.baseline = fix(self.baseline).min(self.runs.len().saturating_sub(1));
        self.selected_frame = self.selected_frame.filter(|(r, _)| *r != i).map(|(r, f)| (fix(r), f));
        if self.marker_job.as_ref().is_some_and(|(r, _, _)| *r == i) {
            self.marker_job = None;
        } else if let Some((r, _, _)) = &mut self.marker_job {
            *r = fix(*r);
        }
        if self.runs.len() < 2 {
            self.compare = false;
        }
        self.view_fitted = false;
    }

    /// Opens a capture that is already loaded (benchmarks, tests, embedding).
    pub fn open_capture(&mut self, name: &str, capture: framescope_core::model::Capture) {
        self.runs.push(OpenRun::new(name.to_owned(), None, capture));
        self.selected = self.runs.len() - 1;
        self.view_fitted = false;
    }

    /// Reads a PCL Stats marker log on a worker thread and attaches it to the shown
    /// capture.
    pub fn attach_marker_log(&mut self, path: PathBuf) {
        self.attach_marker_log_to(self.selected, path);
    }

    /// Reads a PCL marker log on a worker thread and attaches it to run `run`.
    fn attach_marker_log_to(&mut self, run: usize, path: PathBuf) {
        if self.runs.get(run).is_none() {
            return;
        }
        let name = path.display().to_string();
        let job =
            self.spawner.task(move || framescope_core::ingest::pcl::load_marker_log(&path, 10_000_000.0));
        self.marker_job = Some((run, name, job));
    }

    /// Turns saving settings and recent files to the user's config folder on or off
    /// (tests and `--screenshot` leave it off).
    pub fn set_saving(&mut self, on: bool) {
        self.saving = on;
    }

    /// The visible time range, on the shown trace's own time axis.
    #[must_use]
    pub fn view(&self) -> TimeView {
        self.view_of(self.selected)
    }

    /// The visible time range on run `run`'s own time axis (compared runs share one
    /// aligned axis, each moved by its own shift).
    #[must_use]
    pub fn view_of(&self, run: usize) -> TimeView {
        let s = self.shift(run);
        TimeView { start_ms: self.view.start_ms + s, span_ms: self.view.span_ms }
    }

    /// The selected time range on the shown trace's own time axis, if any.
    #[must_use]
    pub fn selection(&self) -> Option<(f64, f64)> {
        let s = self.shift(self.selected);
        self.selection.map(|(a, b)| (a + s, b + s))
    }

    /// Compares the open runs side by side (those marked compared), `baseline` first.
    pub fn set_compare(&mut self, on: bool, baseline: usize) {
        self.baseline = baseline.min(self.runs.len().saturating_sub(1));
        if let Some(r) = self.runs.get_mut(self.baseline) {
            r.compared = true;
        }
        // Ticking Compare with fewer than two compared runs compares them all.
        if on && self.runs.iter().filter(|r| r.compared).count() < 2 {
            for r in &mut self.runs {
                r.compared = true;
            }
        }
        self.compare = on && self.runs.len() > 1;
        self.view_fitted = false;
    }

    /// True when runs are compared side by side.
    #[must_use]
    pub fn comparing(&self) -> bool {
        self.compare && self.runs.iter().filter(|r| r.compared).count() > 1
    }

    /// The offset (ms) between a run's own time and the aligned axis.
    fn shift(&self, run: usize) -> f64 {
        self.runs.get(run).map_or(0.0, OpenRun::shift_ms)
    }

    /// The runs shown: all of them when comparing (baseline first), else the chosen one.
    fn shown(&self) -> Vec<usize> {
        if self.comparing() {
            let mut order = vec![self.baseline];
            order.extend((0..self.runs.len()).filter(|&i| i != self.baseline && self.runs[i].compared));
            order
        } else if self.selected < self.runs.len() {
            vec![self.selected]
        } else {
            Vec::new()
        }
    }

    /// Names of the open captures.
    #[must_use]
    pub fn run_names(&self) -> Vec<String> {
        self.runs.iter().map(|r| r.name.clone()).collect()
    }

    /// What the window calls each open run (the file name, or the name the user gave).
    #[must_use]
    pub fn run_labels(&self) -> Vec<String> {
        self.runs.iter().map(|r| r.label.clone()).collect()
    }

    /// The columns of the CSV waiting in the *Map columns* step, if one is.
    #[must_use]
    pub fn mapping_columns(&self) -> Option<&[String]> {
        self.mapping_step.as_ref().map(|s| s.unknown.columns.as_slice())
    }

    /// Error messages shown in the window.
    #[must_use]
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The settings the user chose.
    #[must_use]
    pub fn persisted(&self) -> &Persisted {
        &self.persisted
    }

    /// The settings run `i` is analysed with: the user's, with the frame-time source
    /// of the comparison while comparing (one for every compared run, `metrics.md` §9)
    /// and the run's own refresh rate.
    fn run_settings(&self, i: usize) -> Settings {
        let mut s = self.persisted.settings();
        if let Some(source) = self.comparison_source() {
            s.frame_time = source;
        }
        s.refresh_hz = self.runs.get(i).and_then(|r| r.refresh_hz);
        s
    }

    /// The trim run `i` is analysed with: its own, else the one for all runs.
    #[must_use]
    pub fn run_trim(&self, i: usize) -> Trim {
        self.runs.get(i).and_then(|r| r.trim).unwrap_or_else(|| self.trim_for_all())
    }

    /// Sets the trim of every run without its own (seconds at the start and end).
    pub fn set_trim_all(&mut self, start_s: f64, end_s: f64) {
        self.persisted.trim_start_s = start_s.max(0.0);
        self.persisted.trim_end_s = end_s.max(0.0);
        self.settings_dirty = true;
    }

    /// Gives run `i` a trim of its own (`None`: the trim for all runs again), saved
    /// with the capture's path.
    pub fn set_run_trim(&mut self, i: usize, trim: Option<Trim>) {
        if let Some(r) = self.runs.get_mut(i) {
            r.trim = trim;
        }
        self.save_run_trims();
    }

    /// Keeps the saved trims in step with the runs' own trims.
    fn save_run_trims(&mut self) {
        let mut changed = false;
        for r in &self.runs {
            if let Some(path) = &r.path {
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
                changed |= self.persisted.set_run_trim(&absolute, r.trim.map(|t| (t.start_s, t.end_s)));
            }
        }
        if changed {
            self.settings_dirty = true;
        }
    }

    /// Applies a trim edge dragged on run `run`'s timeline to `at_ms` (its own time):
    /// to the run's own trim when it has one, else to the trim for all runs.
    fn drag_trim(&mut self, run: usize, start: bool, at_ms: f64) {
        let Some(r) = self.runs.get(run) else { return };
        let trace = &r.capture.traces[r.trace];
        let Some(&t0) = trace.frames.start_ms.first() else { return };
        let span_s = Trim::span_s(trace);
        let mut trim = self.run_trim(run);
        // Whole milliseconds; the two trims never meet.
        let s = (at_ms - t0).round() / 1000.0;
        if start {
            trim.start_s = s.clamp(0.0, (span_s - trim.end_s - 0.001).max(0.0));
        } else {
            trim.end_s = (span_s - s).clamp(0.0, (span_s - trim.start_s - 0.001).max(0.0));
        }
        if r.trim.is_some() {
            self.set_run_trim(run, Some(trim));
        } else {
            self.set_trim_all(trim.start_s, trim.end_s);
        }
    }

    /// The compared traces: (run id, trace) of every shown run, baseline first.
    fn compared_traces(&self) -> Vec<(u64, usize)> {
        self.shown().into_iter().map(|i| (self.runs[i].id, self.runs[i].trace)).collect()
    }

    /// The one frame-time source of the comparison (`None` when not comparing): the
    /// user's, with `auto` resolved over every compared trace.
    fn comparison_source(&self) -> Option<FrameTimeSource> {
        if !self.comparing() {
            return None;
        }
        let asked = self.persisted.frame_time;
        if asked != FrameTimeSource::Auto {
            return Some(asked);
        }
        let key = self.compared_traces();
        match &self.compare_source {
            Some((k, source)) if *k == key => Some(*source),
            _ => Some(self.resolve_compared()),
        }
    }

    /// Resolves the comparison's `auto` source again when the compared traces changed
    /// (a look at every compared trace's frame types: done once per change, not per
    /// frame).
    fn refresh_compare_source(&mut self) {
        if self.comparing() {
            let key = self.compared_traces();
            if self.compare_source.as_ref().is_none_or(|(k, _)| *k != key) {
                self.compare_source = Some((key, self.resolve_compared()));
            }
        }
    }

    /// `auto` resolved over the shown runs' traces (reads their frame types: kept in
    /// [`App::compare_source`] by [`App::drain`]).
    fn resolve_compared(&self) -> FrameTimeSource {
        let traces: Vec<&framescope_core::model::Trace> =
            self.shown().into_iter().map(|i| &self.runs[i].capture.traces[self.runs[i].trace]).collect();
        FrameTimeSource::Auto.resolve_for(traces.iter().copied())
    }

    /// Applies a timeline command given on the shown trace's own time axis.
    pub fn apply(&mut self, command: Command) {
        self.apply_from(self.selected, command);
    }

    /// Applies a command from run `run`'s timeline: its times are that run's own and
    /// become aligned times here, so every compared timeline follows.
    fn apply_from(&mut self, run: usize, command: Command) {
        let s = self.shift(run);
        match command {
            Command::View(v) => self.view = TimeView { start_ms: v.start_ms - s, span_ms: v.span_ms },
            // A drag released where it started selects nothing.
            Command::Select(range) => {
                self.selection = range.filter(|(a, b)| (b - a).abs() > 1e-9).map(|(a, b)| (a - s, b - s));
            }
            Command::SelectFrame(i) => self.selected_frame = i.map(|i| (run, i)),
            Command::Cursor(t) => self.cursor_ms = Some(t - s),
            Command::ToggleHelp => self.show_help = !self.show_help,
            Command::Trim { start, at_ms } => self.drag_trim(run, start, at_ms),
            Command::ResetView => self.fit_view(),
            Command::ZoomToSelection => {
                if let Some((a, b)) = self.selection {
                    self.view = TimeView::fit(a.min(b), a.max(b));
                }
            }
        }
    }

    /// Shows every shown run whole, on the aligned axis.
    fn fit_view(&mut self) {
        let mut range: Option<(f64, f64)> = None;
        for i in self.shown() {
            let r = &self.runs[i];
            let f = &r.capture.traces[r.trace].frames;
            let s = r.shift_ms();
            let first = f.start_ms.first().copied().unwrap_or(0.0) - s;
            let end =
                f.start_ms.last().zip(f.spans_ms().last()).map_or(first + 1.0, |(a, span)| a + span) - s;
            range = Some(range.map_or((first, end), |(a, b)| (a.min(first), b.max(end))));
        }
        if let Some((a, b)) = range {
            self.view = TimeView::fit(a, b);
        }
    }

    /// Opens a capture that finished loading as a run (with its saved trim), and
    /// compares it against the pinned set when it came from the watched folder.
    fn add_loaded(&mut self, name: String, path: Option<&PathBuf>, capture: framescope_core::model::Capture) {
        if let Some(path) = path {
            // Absolute, so that Open recent works from any folder.
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            self.persisted.remember(&absolute);
            self.save_settings();
        }
        let mut run = OpenRun::new(name, path.cloned(), capture);
        run.trim = path.and_then(|path| {
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            self.persisted.run_trim(&absolute).map(|(start_s, end_s)| Trim { start_s, end_s })
        });
        self.runs.push(run);
        self.selected = self.runs.len() - 1;
        if let Some(path) = path
            && let Some(k) = self.from_watch.iter().position(|w| w == path)
        {
            self.from_watch.remove(k);
            self.compare_newest();
        }
        self.view_fitted = false;
        self.selection = None;
        self.selected_frame = None;
    }

    /// Moves finished loads into the open runs (or the error list) and keeps every
    /// run's background work in step with the settings.
    fn drain(&mut self, ctx: &egui::Context) {
        if let Some(result) = self.export_job.as_ref().and_then(work::Task::poll) {
            self.export_job = None;
            self.status = Some(match result.and_then(|r| r) {
                Ok(p) => format!("saved {p}"),
                Err(e) => format!("not saved: {e}"),
            });
        }
        // Loads are taken in the order they were asked for, so runs keep the order of
        // the files given (the first is the baseline of a comparison) whichever
        // finishes first.
        let mut still = Vec::new();
        let mut waiting = false;
        for p in std::mem::take(&mut self.pending) {
            if waiting {
                still.push(p);
                continue;
            }
            match p.poll() {
                None => {
                    waiting = true;
                    still.push(p);
                }
                Some(Ok(capture)) => self.add_loaded(p.name, p.path.as_ref(), capture),
                // A load the user cancelled is no error.
                Some(Err(e)) if matches!(e.kind, framescope_core::ingest::LoadErrorKind::Cancelled) => {
                    self.status = Some(format!("loading {} cancelled", p.name));
                }
                Some(Err(framescope_core::ingest::LoadError {
                    kind: framescope_core::ingest::LoadErrorKind::UnknownColumns(unknown),
                    path,
                    ..
                })) if !unknown.samples.is_empty() && p.path.is_some() => {
                    // A CSV of no known format: the Map columns step asks for its column.
                    self.from_watch.retain(|w| w != &path);
                    self.mapping_step = Some(mapping::MappingStep::new(path, p.name, *unknown));
                }
                Some(Err(e)) => {
                    if let Some(path) = &p.path {
                        self.from_watch.retain(|w| w != path);
                    }
                    self.errors.push(e.to_string());
                }
            }
        }
        self.pending = still;
        self.poll_watch(ctx);
        if self.pending.is_empty()
            && let Some(baseline) = self.compare_when_loaded.take()
        {
            self.set_compare(true, baseline);
        }
        if !self.runs.is_empty()
            && let Some(path) = self.pending_markers.take()
        {
            // `--pcl` goes with the first capture given.
            self.attach_marker_log_to(0, path);
        }
        if let Some((run, name, job)) = &self.marker_job
            && let Some(result) = job.poll()
        {
            match (result, self.runs.get_mut(*run)) {
                (Ok(Ok(log)), Some(r)) => r.attach_markers(name.clone(), log),
                (Ok(Err(e)), _) => self.errors.push(e.to_string()),
                (Err(e), _) => self.errors.push(format!("{name}: {e}")),
                (Ok(Ok(_)), None) => {}
            }
            self.marker_job = None;
        }
        for run in &mut self.runs {
            run.collect();
            let failures = run.take_failures();
            self.errors.extend(failures);
        }
        self.refresh_compare_source();
        for i in self.shown() {
            let local = self.selection.map(|(a, b)| (a + self.shift(i), b + self.shift(i)));
            let settings = self.run_settings(i);
            let trim = self.run_trim(i);
            self.runs[i].update(&settings, trim, local, &self.spawner);
        }
        if !self.view_fitted && !self.runs.is_empty() {
            self.fit_view();
            self.view_fitted = true;
        }
        if !self.pending.is_empty() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn save_settings(&mut self) {
        if self.saving
            && self.screenshot_and_quit.is_none()
            && let Err(e) = self.persisted.save()
        {
            self.status = Some(format!("settings not saved: {e}"));
        }
    }

    /// Draws the whole window into `ui` (eframe's root, or a test harness).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.drain(&ctx);
        self.take_dropped_files(&ctx);
        self.finish_screenshot(&ctx);
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        egui::Panel::top("settings").show(ui, |ui| self.settings_ui(ui));
        // Side panels start at a share of the window (a small window keeps room for the
        // timeline), can be dragged from 180 px to half the window, and hidden from the
        // View menu. Comparing starts the left one wider, for the comparison table.
        // The window's width (not the root Ui's, which a first sizing pass may shrink).
        let width = ui.ctx().content_rect().width().max(ui.available_width()).max(800.0);
        if self.show_runs_panel {
            let (id, share, most) = match (self.comparing(), self.sets_mode()) {
                // The sets' table has an interval column more.
                (true, true) => ("runs_sets", 0.43, 640.0),
                (true, false) => ("runs_compare", 0.36, 520.0),
                _ => ("runs", 0.23, 460.0),
            };
            egui::Panel::left(id)
                .resizable(true)
                .default_size((width * share).clamp(200.0, most))
                .size_range(180.0..=(width * 0.5).max(200.0))
                .show(ui, |ui| {
                    ui.set_min_width(ui.available_width());
                    self.side_ui(ui);
                });
        }
        if self.show_peers_panel && !self.comparing() && !self.runs.is_empty() {
            egui::Panel::left("peers")
                .resizable(true)
                .default_size((width * 0.27).clamp(220.0, 420.0))
                .size_range(180.0..=(width * 0.4).max(200.0))
                .show(ui, |ui| {
                    ui.set_min_width(ui.available_width());
                    self.peers_panel_ui(ui);
                });
        }
        // The runs list may have changed a compared trace or the baseline.
        self.refresh_compare_source();
        if self.show_charts_panel {
            egui::Panel::right("charts")
                .resizable(true)
                .default_size((width * 0.25).clamp(220.0, 380.0))
                .size_range(180.0..=(width * 0.5).max(200.0))
                .show(ui, |ui| {
                    // A panel with little to show keeps its width (it would shrink to it).
                    ui.set_min_width(ui.available_width());
                    self.charts_ui(ui);
                });
        }
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui));
        self.save_run_trims();
        panels::help_ui(&ctx, &mut self.show_help);
        self.mapping_ui(&ctx);
        if self.settings_dirty && !ctx.input(|i| i.pointer.any_down()) {
            self.settings_dirty = false;
            self.save_settings();
        }
    }

    fn take_dropped_files(&mut self, ctx: &egui::Context) {
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
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }
}

mod layout;
