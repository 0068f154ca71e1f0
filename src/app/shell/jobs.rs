//! The window's jobs, for as long as each runs: captures loading (taken in the order
//! asked for), a PCL marker log being read, a frames CSV being written, the watched
//! folder, and a CSV waiting in the *Map columns* step. Jobs report what finished;
//! the shell turns that into commands for the session.

use crate::app::mapping::MappingStep;
use crate::app::session::{Loaded, RunId};
use crate::app::settings::Persisted;
use crate::app::watch::{self, Watch};
use crate::app::work::{LoadSource, Pending, Spawner, Task};
use framescope_core::ingest::pcl::MarkerLog;
use framescope_core::ingest::{ColumnMapping, LoadError, LoadErrorKind};
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
    /// A CSV of no known format waiting for the user's column mapping.
    pub mapping_step: Option<MappingStep>,
}

impl Jobs {
    /// No job running; work starts with `spawner`.
    #[must_use]
    pub fn new(spawner: Spawner) -> Self {
        Self {
            spawner,
            pending: Vec::new(),
            marker: None,
            pending_markers: None,
            export: None,
            watch: None,
            from_watch: Vec::new(),
            mapping_step: None,
        }
    }

    /// Starts loading `source` (with the column mapping the user chose, if any; a CSV
    /// whose header has a remembered mapping is read with it).
    pub fn open(&mut self, source: LoadSource, mapping: Option<ColumnMapping>, persisted: &Persisted) {
        let remembered =
            persisted.column_mappings.iter().map(|m| (m.header.clone(), m.mapping.clone())).collect();
        self.pending.push(Pending::start(&self.spawner, source, mapping, remembered));
    }

    /// Starts reading a PCL marker log for run `run`.
    pub fn attach_markers(&mut self, run: RunId, path: PathBuf) {
        let name = path.display().to_string();
        let task =
            self.spawner.task(move || framescope_core::ingest::pcl::load_marker_log(&path, 10_000_000.0));
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
            let write = || -> std::io::Result<()> {
                let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
                crate::app::export::write_frames_csv(&capture.traces[trace], range, &mut out)
            };
            write()
                .map(|()| format!("{note}{}", path.display()))
                .map_err(|e| format!("{}: {e}", path.display()))
        }));
    }

    /// True when no load, marker log or export is running.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty()
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
        match result {
            Ok(capture) => LoadOutcome::Loaded(Loaded {
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

    /// The frames CSV, once written: where, or why not.
    pub fn finished_export(&mut self) -> Option<Result<String, String>> {
        let result = self.export.as_ref()?.poll()?;
        self.export = None;
        Some(result.and_then(|r| r))
    }

    /// Starts watching `dir` (absolute): captures written into it from now on open once
    /// complete; those already there are left alone.
    pub fn watch_folder(&mut self, dir: &Path) -> Result<(), String> {
        let repaint = self.spawner.repaint();
        self.watch = Some(Watch::start(dir, watch::SETTLE, move || repaint())?);
        Ok(())
    }

    /// What the watched folder reports: captures ready to open (loading starts here,
    /// remembered as from the watch) and errors.
    pub fn poll_watch(&mut self, persisted: &Persisted) -> Vec<String> {
        let Some(w) = &self.watch else { return Vec::new() };
        let mut errors = Vec::new();
        for event in w.poll() {
            match event {
                watch::Event::Ready(path) => {
                    self.from_watch.push(path.clone());
                    self.open(LoadSource::File(path), None, persisted);
                }
                watch::Event::Error(e) => errors.push(e),
            }
        }
        errors
    }
}
