//! The window's jobs, for as long as each runs: captures loading (taken in the order
//! asked for), a PCL marker log being read, a frames CSV being written, the watched
//! folder, and a CSV waiting in the *Map columns* step. Jobs report what finished;
//! the shell turns that into commands for the session.

use crate::app::mapping::MappingStep;
use crate::app::session::{Loaded, RunId};
use crate::app::settings::Persisted;
use crate::app::watch::{self, Watch};
use crate::app::work::live::{Follower, LiveInput, LiveNews};
use crate::app::work::{LoadId, LoadSource, Pending, Spawner, Task};
use crate::record::processes::Process;
use framescope_core::ingest::MarkerLog;
use framescope_core::ingest::{ColumnMapping, LoadError, LoadErrorKind, LoadOptions};
use framescope_core::model::Capture;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A PCL marker log being read for a run: the run, the log's name, the work.
type MarkerJob = (RunId, String, Task<Result<MarkerLog, LoadError>>);

/// How a load ended.
pub enum LoadOutcome {
    /// A capture to open.
    Loaded(Loaded),
    /// The user cancelled it (a status line, not an error).
    Cancelled(String),
    /// A CSV of no known format: the *Map columns* step asks for its column.
    NeedsMapping(MappingStep),
    /// It failed: the error, in words.
    Failed(String),
}

/// The window's jobs (see the module's documentation).
pub struct Jobs {
    spawner: Spawner,
    /// Loads in flight, in the order asked for.
    pub pending: Vec<Pending>,
    /// The id the next load gets.
    next_load: u64,
    /// A PCL marker log being read.
    marker: Option<MarkerJob>,
    /// `--pcl`: a marker log for the first capture, read once it is open.
    pub pending_markers: Option<PathBuf>,
    /// A frames CSV being written.
    pub export: Option<Task<Result<String, String>>>,
    /// The watched folder.
    pub watch: Option<Watch>,
    /// Captures from the watched folder still loading.
    from_watch: Vec<PathBuf>,
    /// Live captures being followed.
    live: Vec<LiveJob>,
    /// A CSV of no known format waiting for the user's column mapping.
    pub mapping_step: Option<MappingStep>,
    /// A recording under way (File › Record…).
    pub recording: Option<crate::app::recording::Recording>,
    /// Recorded captures whose runs go into their recording's set once open.
    pub recorded_sets: Vec<(PathBuf, String)>,
    /// The Record window's global hotkey.
    pub hotkey: crate::app::hotkey::RecordHotkey,
    /// The running processes being listed for the Record window's picker.
    process_task: Option<Task<Result<Vec<Process>, String>>>,
    /// The running processes last listed, or why they could not be.
    pub processes: Option<Result<Vec<Process>, String>>,
}

impl Jobs {
    /// No job running; work starts with `spawner`.
    #[must_use]
    pub fn new(spawner: Spawner) -> Self {
        Self {
            spawner,
            pending: Vec::new(),
            next_load: 0,
            marker: None,
            pending_markers: None,
            export: None,
            watch: None,
            from_watch: Vec::new(),
            live: Vec::new(),
            mapping_step: None,
            recording: None,
            recorded_sets: Vec::new(),
            hotkey: crate::app::hotkey::RecordHotkey::default(),
            process_task: None,
            processes: None,
        }
    }

    /// Starts loading `source` (with the column mapping the user chose, if any; a CSV
    /// whose header has a remembered mapping is read with it). Returns the load's id:
    /// its run's [`Loaded::load`].
    pub fn open(
        &mut self,
        source: LoadSource,
        mapping: Option<ColumnMapping>,
        persisted: &Persisted,
    ) -> LoadId {
        let remembered =
            persisted.column_mappings.iter().map(|m| (m.header.clone(), m.mapping.clone())).collect();
        let id = LoadId(self.next_load);
        self.next_load += 1;
        self.pending.push(Pending::start(id, &self.spawner, source, mapping, remembered));
        id
    }

    /// Stops load `id`, if it is still in flight.
    pub fn cancel_load(&self, id: LoadId) {
        if let Some(p) = self.pending.iter().find(|p| p.id == id) {
            p.progress.cancel();
        }
    }

    /// Starts reading a PCL marker log for run `run`.
    pub fn attach_markers(&mut self, run: RunId, path: PathBuf) {
        let name = path.display().to_string();
        let task = self.spawner.task(move || framescope_core::ingest::load_marker_log(&path, 10_000_000.0));
        self.marker = Some((run, name, task));
    }

    /// Starts writing the frames `range` of trace `trace` of `capture` as CSV to
    /// `path` (a million rows take a second or more: written off the UI thread).
    pub fn export_frames(
        &mut self,
        capture: Arc<Capture>,
        trace: usize,
        range: std::ops::Range<usize>,
        path: PathBuf,
        note: &'static str,
    ) {
        self.export = Some(self.spawner.task(move || {
            framescope_core::output::write_file(&path, |out| {
                crate::app::export::write_frames_csv(&capture.traces[trace], range, out)
            })
            .map(|()| format!("{note}{}", path.display()))
            .map_err(|e| format!("{}: {e}", path.display()))
        }));
    }

    /// Starts writing the HTML page of `pages` (one run's page, or several runs') to
    /// `path`: reducing a long capture's timeline for the page takes a while, so it is
    /// written off the UI thread, all or nothing ([`framescope_core::output::write_file`]).
    pub fn export_html(&mut self, pages: Vec<PageJob>, path: PathBuf, note: &'static str) {
        self.export = Some(self.spawner.task(move || {
            framescope_core::output::write_file(&path, |out| write_page(&pages, out))
                .map(|()| format!("{note}{}", path.display()))
                .map_err(|e| format!("{}: {e}", path.display()))
        }));
    }

    /// True when no load, marker log or export is running, and every live capture's
    /// run is open (or it failed, or its input ended).
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.live.iter().all(|j| j.opened || j.end != LiveEnd::Running)
            && self.pending.is_empty()
            && self.marker.is_none()
            && self.export.is_none()
            && self.pending_markers.is_none()
    }

    /// What [`Jobs::is_idle`] waits for, in words.
    #[must_use]
    pub fn idle_report(&self) -> String {
        format!(
            "pending loads {}, marker job {}, pending markers {}",
            self.pending.len(),
            self.marker.is_some(),
            self.pending_markers.is_some()
        )
    }

    /// The loads that finished, in the order they were asked for: a load still running
    /// holds back those after it, so runs keep the order of the files given (the first
    /// is the baseline of a comparison) whichever finishes first.
    pub fn finished_loads(&mut self) -> Vec<LoadOutcome> {
        let mut done = Vec::new();
        let mut still = Vec::new();
        for p in std::mem::take(&mut self.pending) {
            if !still.is_empty() {
                still.push(p);
                continue;
            }
            match p.poll() {
                None => still.push(p),
                Some(result) => done.push(self.outcome(p, result)),
            }
        }
        self.pending = still;
        done
    }

    /// What a finished load means for the window.
    fn outcome(&mut self, p: Pending, result: Result<Capture, LoadError>) -> LoadOutcome {
        let from_watch = p.path.as_ref().and_then(|path| self.from_watch.iter().position(|w| w == path));
        if let Some(k) = from_watch {
            self.from_watch.remove(k);
        }
        // A capture framescope recorded goes into its recording's set once open.
        if result.is_ok()
            && let Some(path) = &p.path
            && let Some(set) = crate::record::sidecar_set(path)
        {
            self.recorded_sets.push((path.clone(), set));
        }
        match result {
            Ok(capture) => LoadOutcome::Loaded(Loaded {
                load: Some(p.id),
                name: p.name,
                path: p.path,
                capture,
                from_watch: from_watch.is_some(),
            }),
            Err(e) if matches!(e.kind, LoadErrorKind::Cancelled) => LoadOutcome::Cancelled(p.name),
            Err(LoadError { kind: LoadErrorKind::UnknownColumns(unknown), path, .. })
                if !unknown.samples.is_empty() && p.path.is_some() =>
            {
                LoadOutcome::NeedsMapping(MappingStep::new(path, p.name, *unknown))
            }
            Err(e) => LoadOutcome::Failed(e.to_string()),
        }
    }

    /// The marker log, once read: its run, its name, and the log or why not.
    pub fn finished_markers(&mut self) -> Option<(RunId, String, Result<MarkerLog, String>)> {
        let result = self.marker.as_ref()?.2.poll()?;
        let (run, name, _) = self.marker.take()?;
        let result = match result {
            Ok(Ok(log)) => Ok(log),
            Ok(Err(e)) => Err(e.to_string()),
            Err(e) => Err(format!("{name}: {e}")),
        };
        Some((run, name, result))
    }

    /// Starts listing the running processes (`tasklist` takes a moment on Windows).
    pub fn list_processes(&mut self) {
        if self.process_task.is_none() {
            self.process_task = Some(self.spawner.task(crate::record::processes::running));
        }
    }

    /// Takes the process list once listed.
    pub fn take_processes(&mut self) {
        if let Some(result) = self.process_task.as_ref().and_then(Task::poll) {
            self.processes = Some(result.and_then(|r| r));
            self.process_task = None;
        }
    }

    /// The frames CSV, once written: where, or why not.
    pub fn finished_export(&mut self) -> Option<Result<String, String>> {
        let result = self.export.as_ref()?.poll()?;
        self.export = None;
        Some(result.and_then(|r| r))
    }

    /// Starts watching `dir` (absolute): captures written into it from now on are
    /// followed as they grow; those already there are left alone.
    pub fn watch_folder(&mut self, dir: &Path) -> Result<(), String> {
        let repaint = self.spawner.repaint();
        self.watch = Some(Watch::start(dir, move || repaint())?);
        Ok(())
    }

    /// Follows a live capture (`--follow`, `-`, the watched folder): its run opens
    /// with its first rows and grows with the rest.
    pub fn follow(&mut self, input: LiveInput, from_watch: bool) -> Result<(), String> {
        let name = match &input {
            LiveInput::File(p) => p.display().to_string(),
            LiveInput::Stdin => "standard input".to_owned(),
            LiveInput::Reader(name, _) => name.clone(),
        };
        let follower = Follower::start(input, LoadOptions::default(), self.spawner.repaint())
            .map_err(|e| format!("cannot follow {name}: {e}"))?;
        self.live.push(LiveJob { follower, opened: false, end: LiveEnd::Running, from_watch });
        Ok(())
    }

    /// Asks the follower of the live run `name` to save the bytes read so far to
    /// `path`; false when no live capture has that name.
    pub fn save_live(&self, name: &str, path: PathBuf) -> bool {
        let Some(job) = self.live.iter().find(|j| j.follower.name == name) else { return false };
        job.follower.save(path);
        true
    }

    /// True when the run named `name` is a live capture's.
    #[must_use]
    pub fn is_live(&self, name: &str) -> bool {
        self.live.iter().any(|j| j.follower.name == name)
    }

    /// The live captures' names, each with whether its input ended, in the order they
    /// started.
    #[must_use]
    pub fn live_runs(&self) -> Vec<(&str, bool)> {
        self.live.iter().map(|j| (j.follower.name.as_str(), j.end == LiveEnd::Ended)).collect()
    }

    /// True while a live capture is followed.
    #[must_use]
    pub fn following(&self) -> bool {
        !self.live.is_empty()
    }

    /// What the live captures report: a first capture opens a run, later ones grow it.
    pub fn poll_live(&mut self) -> Vec<LiveOutcome> {
        let mut out = Vec::new();
        for job in &mut self.live {
            // A live run opens after the files given with it (the first is the baseline).
            if !job.opened && !self.pending.is_empty() {
                continue;
            }
            let follower = &job.follower;
            for news in follower.poll() {
                out.push(match news {
                    LiveNews::Capture(capture) if !job.opened => {
                        job.opened = true;
                        LiveOutcome::Opened(Loaded {
                            load: None,
                            name: follower.name.clone(),
                            path: follower.path.clone(),
                            capture: *capture,
                            from_watch: job.from_watch,
                        })
                    }
                    LiveNews::Capture(capture) => LiveOutcome::Grew { name: follower.name.clone(), capture },
                    LiveNews::Restarted(note) if job.opened => {
                        LiveOutcome::Note(format!("{note} (the same run starts over)"))
                    }
                    LiveNews::Restarted(_) => continue,
                    LiveNews::Failed(e) => {
                        job.end = LiveEnd::Failed;
                        LiveOutcome::Failed(e)
                    }
                    LiveNews::Saved(path) => LiveOutcome::Saved(path),
                    LiveNews::Ended => {
                        if job.end == LiveEnd::Running {
                            job.end = LiveEnd::Ended;
                        }
                        LiveOutcome::Ended(follower.name.clone())
                    }
                });
            }
        }
        out
    }

    /// What the watched folder reports: captures to follow (remembered as from the
    /// watch) and errors.
    pub fn poll_watch(&mut self) -> Vec<String> {
        let Some(w) = &self.watch else { return Vec::new() };
        let mut errors = Vec::new();
        for event in w.poll() {
            match event {
                watch::Event::Ready(path) => {
                    if let Err(e) = self.follow(LiveInput::File(path), true) {
                        errors.push(e);
                    }
                }
                watch::Event::Error(e) => errors.push(e),
            }
        }
        errors
    }
}

/// How a live capture stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LiveEnd {
    /// Still read.
    Running,
    /// It reported a failure.
    Failed,
    /// Its input ended: the run is complete.
    Ended,
}

/// A live capture being followed.
struct LiveJob {
    follower: Follower,
    /// Its run is open (later captures grow it).
    opened: bool,
    /// Whether it failed or its input ended.
    end: LiveEnd,
    /// It came from the watched folder (compared against the pinned set).
    from_watch: bool,
}

/// What a live capture's news means for the window.
pub enum LiveOutcome {
    /// Its first capture: open it as a run.
    Opened(Loaded),
    /// It grew: the run named `name` takes the capture so far.
    Grew {
        /// The run's name.
        name: String,
        /// The capture so far.
        capture: Box<Capture>,
    },
    /// The live capture's bytes were saved here.
    Saved(PathBuf),
    /// The input of the run named so ended (standard input closed): it is complete.
    Ended(String),
    /// It started over (a status line).
    Note(String),
    /// It failed: the error, in words.
    Failed(String),
}

/// One run of an HTML page to write: its figures as the window computed them, with the
/// settings and trim they were computed with, and the capture they came from.
pub struct PageJob {
    /// The figures.
    pub run: framescope_core::report::Run,
    /// Their settings.
    pub settings: framescope_core::analysis::Settings,
    /// Their trim.
    pub trim: framescope_core::analysis::Trim,
    /// The capture.
    pub capture: Arc<Capture>,
    /// The trace of the capture the figures are of.
    pub trace: usize,
}

/// The page of `pages` (the first run's settings head the page), each run's timeline
/// reduced from its trimmed trace as `framescope report --html` does.
fn write_page(pages: &[PageJob], out: &mut impl std::io::Write) -> std::io::Result<()> {
    use framescope_core::html::{PageRun, write_report_page};
    use framescope_core::report::{Report, RunEntry, SCHEMA, SettingsJson};
    let Some(first) = pages.first() else { return Ok(()) };
    let reduced = pages
        .iter()
        .map(|p| {
            let whole = p.capture.traces.get(p.trace)?;
            let cut = if p.trim.is_none() { None } else { p.trim.cut(whole).ok() };
            let trace = cut.as_ref().unwrap_or(whole);
            Some(PageRun::new(&p.run, &p.capture.info.system, trace, &p.settings))
        })
        .collect();
    let report = Report {
        schema: SCHEMA,
        settings: SettingsJson::from(&first.settings),
        runs: pages.iter().map(|p| RunEntry::Run(Box::new(p.run.clone()))).collect(),
    };
    write_report_page(&report, reduced, out)
}
