//! One open capture in the window and the background work that serves it: LOD
//! tracks for the chosen trace, figures for the current settings, figures for the
//! time selection. Results that no longer match what is shown are dropped.

use crate::app::work::{self, Analyzed, ChartData, Spawner, Task as Job, Tracks};
use framescope_core::analysis::{Settings, Trim};
use framescope_core::ingest::MarkerLog;
use framescope_core::model::Capture;
use framescope_core::presentation::{auto_sets, named_application};
use framescope_core::report::{Run, RunSource};
use std::path::PathBuf;
use std::sync::Arc;

mod grow;
mod selection;

/// A run's identity in the session: given when it opens, never reused (unlike its
/// place in the list, which changes when an earlier run closes).
/// A failure of a run's background work, for the window's error list.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The run's trace could not be analysed (e.g. its trim leaves nothing).
    Analysis { run: String, error: crate::app::work::AnalysisError },
    /// Any other failure, in words.
    Other(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Analysis { run, error } => write!(f, "{run}: {error}"),
            Self::Other(text) => f.write_str(text),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunId(pub u64);

/// An open capture.
pub struct OpenRun {
    /// Unique among the runs of this session (never reused, unlike an index).
    pub id: RunId,
    /// The path as given, or the sample's name.
    pub name: String,
    /// What the window calls the run (legends, headings, export names): the file name
    /// until the user renames it.
    pub label: String,
    /// Among the compared runs when comparing (the baseline always is).
    pub compared: bool,
    /// The file, when it came from disk.
    pub path: Option<PathBuf>,
    /// The loaded capture (never changed once loaded).
    pub capture: Arc<Capture>,
    /// The trace shown (changed with [`OpenRun::set_trace`]).
    trace: usize,
    /// Where this run starts on the aligned axis of a comparison (ms): lines up the
    /// same moment of a benchmark across runs.
    pub offset_ms: f64,
    /// The display's refresh rate as the user set it for this capture (VSYNC markers);
    /// `None`: detected from the capture. Never saved, never carried to another run.
    pub refresh_hz: Option<f64>,
    /// This capture's own trim; `None`: the trim for all runs.
    pub trim: Option<Trim>,
    /// The set this run belongs to (sets of runs, `metrics.md` §12): by default the
    /// file name's prefix when it has a run number and the same application
    /// ([`framescope_core::presentation::auto_sets`]), else its own.
    pub set: String,
    /// Kept in its set's figures although it is an outlier (the user put it back).
    pub keep_outlier: bool,
    /// An attached PCL Stats marker log: (version, file name, log).
    markers: Option<(u32, String, Arc<MarkerLog>)>,
    tracks: Option<(usize, Arc<Tracks>)>,
    tracks_job: Option<(usize, Job<Arc<Tracks>>)>,
    analyzed: Option<(usize, Arc<Analyzed>)>,
    analysis_job: Option<(AnalysisKey, Job<Result<Analyzed, work::AnalysisError>>)>,
    selection: Option<(SelectionKey, SelectionResult)>,
    selection_job: Option<(SelectionKey, Job<SelectionResult>)>,
    /// Background work that failed, for the window's error list.
    failures: Vec<Failure>,
    /// Keys of work that failed: never started again for the same key.
    failed_analysis: Option<AnalysisKey>,
    /// Counts the changes of what is drawn (trace, tracks, figures and marks), for
    /// caches of drawn data.
    generation: u64,
    /// A live capture's growth (`grow.rs`): the newest capture not yet taken in, the
    /// work that builds its tracks and figures, and how many captures were taken.
    next: Option<Capture>,
    growing: Option<Job<grow::Grown>>,
    revision: u64,
    /// The first frame's start and the last frame's end (own time, ms) of the capture
    /// a growth replaced, until the session has followed it.
    grew_from: Option<(f64, f64)>,
}

/// Trace, settings, marker log version and trim an analysis is for.
type AnalysisKey = (usize, Settings, u32, Trim);

/// A selection's figures and charts.
type SelectionResult = (Run, Arc<ChartData>);

/// Trace, settings, time range and trim a selection's figures were computed for.
type SelectionKey = (usize, Settings, (f64, f64), Trim);

impl OpenRun {
    /// A newly loaded capture, showing its default trace.
    #[must_use]
    pub fn new(id: RunId, name: String, path: Option<PathBuf>, capture: Capture) -> Self {
        let trace = capture.default_trace().unwrap_or(0);
        let label = short_name(&name);
        let app = named_application(&capture, trace);
        let set = auto_sets(&[(&label, app)]).swap_remove(0);
        Self {
            trim: None,
            set,
            keep_outlier: false,
            id,
            label,
            compared: true,
            name,
            path,
            capture: Arc::new(capture),
            trace,
            offset_ms: 0.0,
            refresh_hz: None,
            markers: None,
            tracks: None,
            tracks_job: None,
            analyzed: None,
            analysis_job: None,
            selection: None,
            selection_job: None,
            failures: Vec::new(),
            failed_analysis: None,
            generation: 0,
            next: None,
            growing: None,
            revision: 0,
            grew_from: None,
        }
    }

    /// The trace shown.
    #[must_use]
    pub fn trace(&self) -> usize {
        self.trace
    }

    /// The trace shown, as data.
    #[must_use]
    pub fn shown_trace(&self) -> &framescope_core::model::Trace {
        &self.capture.traces[self.trace]
    }

    /// Shows trace `trace` (ignored when the capture has no such trace).
    pub fn set_trace(&mut self, trace: usize) {
        if trace < self.capture.traces.len() && trace != self.trace {
            self.trace = trace;
            self.generation += 1;
        }
    }

    /// Changes whenever what is drawn for this run changes (its trace, tracks, figures
    /// or marks): with [`OpenRun::id`] the key of caches of drawn data.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Own time minus aligned time: runs are aligned at their first frame, then moved
    /// by [`OpenRun::offset_ms`].
    #[must_use]
    pub fn shift_ms(&self) -> f64 {
        let first = self.capture.traces[self.trace].frames.start_ms.first().copied().unwrap_or(0.0);
        first - self.offset_ms
    }

    /// Attaches a PCL Stats marker log: the figures and the latency row then show
    /// PC latency (I2FS · FS2P · P2D).
    pub fn attach_markers(&mut self, name: String, log: MarkerLog) {
        let version = self.markers.as_ref().map_or(1, |(v, _, _)| v + 1);
        self.markers = Some((version, name, Arc::new(log)));
    }

    /// The attached marker log's name.
    #[must_use]
    pub fn markers_name(&self) -> Option<&str> {
        self.markers.as_ref().map(|(_, n, _)| n.as_str())
    }

    fn markers_version(&self) -> u32 {
        self.markers.as_ref().map_or(0, |(v, _, _)| *v)
    }

    /// LOD tracks of the shown trace, when built.
    #[must_use]
    pub fn tracks(&self) -> Option<&Tracks> {
        self.tracks.as_ref().filter(|(t, _)| *t == self.trace).map(|(_, t)| t.as_ref())
    }

    /// Figures of the shown trace (perhaps for older settings while new ones compute).
    #[must_use]
    pub fn analyzed(&self) -> Option<&Analyzed> {
        self.analyzed.as_ref().filter(|(t, _)| *t == self.trace).map(|(_, a)| a.as_ref())
    }

    /// Figures of the time selection, when computed for the current selection.
    #[must_use]
    pub fn selection_run(&self, settings: &Settings, trim: Trim, range: (f64, f64)) -> Option<&Run> {
        let key = (self.trace, *settings, range, trim);
        self.selection.as_ref().filter(|(k, _)| *k == key).map(|(_, (r, _))| r)
    }

    /// Charts of the time selection, when computed for the current selection.
    #[must_use]
    pub fn selection_charts(&self, settings: &Settings, trim: Trim, range: (f64, f64)) -> Option<&ChartData> {
        let key = (self.trace, *settings, range, trim);
        self.selection.as_ref().filter(|(k, _)| *k == key).map(|(_, (_, c))| c.as_ref())
    }

    /// True when the tracks and figures shown are those of `settings` (and of the
    /// selection, if any): nothing is stale or still computing.
    #[must_use]
    pub fn up_to_date(&self, settings: &Settings, trim: Trim, selection: Option<(f64, f64)>) -> bool {
        let version = self.markers_version();
        let figures = self.analyzed.as_ref().is_some_and(|(t, a)| {
            *t == self.trace && a.settings == *settings && a.markers_version == version && a.trim == trim
        });
        // A failed analysis (a trim that leaves nothing) is not waited for.
        let failed = self.failed_analysis == Some((self.trace, *settings, version, trim));
        let selection = failed || selection.is_none_or(|r| self.selection_run(settings, trim, r).is_some());
        (figures || failed) && selection && self.tracks().is_some() && !self.growth_pending()
    }

    /// True when the analysis for `settings` and `trim` failed (a trim that leaves no
    /// frame): it is not tried again until they change.
    #[must_use]
    pub fn failed(&self, settings: &Settings, trim: Trim) -> bool {
        self.failed_analysis == Some((self.trace, *settings, self.markers_version(), trim))
    }

    /// True when the figures shown are of `settings` and `trim`.
    #[must_use]
    pub fn current(&self, settings: &Settings, trim: Trim) -> Option<&Analyzed> {
        self.analyzed().filter(|a| a.settings == *settings && a.trim == trim)
    }

    /// The state of this run's background work, in words.
    #[must_use]
    pub fn state_report(&self, settings: &Settings, trim: Trim, selection: Option<(f64, f64)>) -> String {
        format!(
            "trace {}, tracks {} (job {}), analyzed {} (job {}), up to date {}, busy {}",
            self.trace,
            self.tracks().is_some(),
            self.tracks_job.is_some(),
            self.analyzed.as_ref().map_or_else(
                || "none".to_owned(),
                |(t, a)| format!("trace {t} same settings {}", a.settings == *settings)
            ),
            self.analysis_job.is_some(),
            self.up_to_date(settings, trim, selection),
            self.busy()
        )
    }

    /// Failures of background work since the last call.
    pub fn take_failures(&mut self) -> Vec<Failure> {
        std::mem::take(&mut self.failures)
    }

    /// True while background work for what is shown is running.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.tracks_job.is_some()
            || self.analysis_job.is_some()
            || self.selection_job.is_some()
            || self.growing.is_some()
    }

    /// Collects finished work and starts what the current trace, settings and
    /// selection need.
    pub fn update(
        &mut self,
        settings: &Settings,
        trim: Trim,
        selection: Option<(f64, f64)>,
        spawner: &Spawner,
    ) {
        self.collect();
        self.start_growth(*settings, trim, spawner);
        let trace = self.trace;
        if self.tracks().is_none() && self.tracks_job.as_ref().is_none_or(|(t, _)| *t != trace) {
            let capture = Arc::clone(&self.capture);
            let job = spawner.task(move || Arc::new(Tracks::new(&capture.traces[trace])));
            self.tracks_job = Some((trace, job));
        }
        let version = self.markers_version();
        let current = self.analyzed.as_ref().is_some_and(|(t, a)| {
            *t == trace && a.settings == *settings && a.markers_version == version && a.trim == trim
        });
        // One analysis at a time: while one runs, a newer wish waits for it.
        let failed = self.failed_analysis == Some((trace, *settings, version, trim));
        if !current && self.analysis_job.is_none() && !failed {
            self.spawn_analysis(*settings, trim, spawner);
        }
        if let Some(range) = selection.filter(|(a, b)| (b - a).abs() > 0.0) {
            let key = (trace, *settings, range, trim);
            let have = self.selection.as_ref().is_some_and(|(k, _)| *k == key);
            if !have && self.selection_job.is_none() {
                let (capture, name) = (Arc::clone(&self.capture), self.name.clone());
                let job = spawner.task(move || {
                    selection::selection_run(&capture, trace, &name, settings_of(key), trim, range)
                });
                self.selection_job = Some((key, job));
            }
        }
    }

    fn spawn_analysis(&mut self, settings: Settings, trim: Trim, spawner: &Spawner) {
        let trace = self.trace;
        // `analyze` reuses it when the source comes out the same (on the worker:
        // resolving `auto` reads the whole trace), for the same trim.
        let previous = self.analyzed.as_ref().filter(|(t, _)| *t == trace).map(|(_, a)| a);
        let prepared =
            previous.filter(|a| a.trim == trim).map(|a| (Arc::clone(&a.prepared), Arc::clone(&a.charts)));
        // The budget's shares are reused when the target is the same.
        let shares = previous.map(|a| Arc::clone(&a.shares));
        let (capture, name) = (Arc::clone(&self.capture), self.name.clone());
        let markers = self.markers.as_ref().map(|(v, _, log)| (*v, Arc::clone(log)));
        let version = self.markers_version();
        let job = spawner.task(move || {
            let source = RunSource::of(&name, &capture);
            let markers = markers.as_ref().map(|(v, log)| (*v, log.as_ref()));
            work::analyze(&source, &capture.traces[trace], settings, trim, prepared, shares, markers)
        });
        self.analysis_job = Some(((trace, settings, version, trim), job));
    }

    /// Takes in whatever background work has finished (every run, every frame, shown
    /// or not: a run that was shown a moment ago may still have work in flight).
    pub fn collect(&mut self) {
        self.collect_growth();
        if let Some((t, job)) = &self.tracks_job
            && let Some(done) = job.poll()
        {
            match done {
                Ok(tracks) => {
                    self.tracks = Some((*t, tracks));
                    self.generation += 1;
                }
                Err(e) => self.failures.push(Failure::Other(format!("{}: timeline: {e}", self.name))),
            }
            self.tracks_job = None;
        }
        if let Some((key, job)) = &self.analysis_job
            && let Some(done) = job.poll()
        {
            match done {
                Ok(Ok(a)) => {
                    self.analyzed = Some((key.0, Arc::new(a)));
                    self.generation += 1;
                    self.failed_analysis = None;
                    self.generation += 1;
                }
                Ok(Err(e)) => {
                    // No figures for these settings: the old ones (and their marks and
                    // charts) are not shown as if they were.
                    self.failures.push(Failure::Analysis { run: self.name.clone(), error: e });
                    self.failed_analysis = Some(*key);
                    self.analyzed = None;
                    self.generation += 1;
                }
                Err(e) => {
                    self.failures.push(Failure::Other(format!("{}: analysis: {e}", self.name)));
                    self.failed_analysis = Some(*key);
                }
            }
            self.analysis_job = None;
        }
        if let Some((key, job)) = &self.selection_job
            && let Some(done) = job.poll()
        {
            match done {
                Ok(run) => self.selection = Some((*key, run)),
                Err(e) => self.failures.push(Failure::Other(format!("{}: selection: {e}", self.name))),
            }
            self.selection_job = None;
        }
    }
}

fn settings_of(key: SelectionKey) -> Settings {
    key.1
}

/// A path's file name, for compact labels (the name itself when it has none).
#[must_use]
pub fn short_name(name: &str) -> String {
    std::path::Path::new(name)
        .file_name()
        .map_or_else(|| name.to_owned(), |n| n.to_string_lossy().into_owned())
}
