//! A run that grows (a live capture): each new capture is taken in whole with its
//! tracks and figures, built together on a worker, so what is drawn never mixes the
//! old capture with the new one's tracks (a restarted, shorter capture would index
//! past them). Until then the run shows the previous capture; while one capture is
//! being taken in, only the newest that arrives meanwhile waits.

use super::{AnalysisKey, Failure, Job, OpenRun};
use crate::app::work::{self, Analyzed, Spawner, Tracks};
use framescope_core::analysis::{Settings, Trim};
use framescope_core::model::Capture;
use framescope_core::report::RunSource;
use std::sync::Arc;

/// A capture taken in: its trace, tracks and figures (for `AnalysisKey`).
pub(super) struct Grown {
    capture: Arc<Capture>,
    trace: usize,
    tracks: Arc<Tracks>,
    analyzed: Result<Analyzed, work::AnalysisError>,
    key: AnalysisKey,
}

impl OpenRun {
    /// Takes the capture so far of a live capture: the same run (its trace kept when
    /// the capture still has it); the capture is shown once its tracks and figures are
    /// built.
    pub fn grow(&mut self, capture: Capture) {
        self.next = Some(capture);
        self.revision += 1;
    }

    /// How many captures the run has been given since it opened (0: not live).
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The shown trace's first frame's start and last frame's end (own time, ms).
    #[must_use]
    pub fn own_span(&self) -> Option<(f64, f64)> {
        let f = &self.shown_trace().frames;
        let end = f.start_ms.last()? + f.frame_time_ms.last().copied().unwrap_or(0.0).max(0.0);
        Some((*f.start_ms.first()?, end))
    }

    /// The span ([`OpenRun::own_span`]) of the capture the last growth replaced, once.
    pub fn take_grew_from(&mut self) -> Option<(f64, f64)> {
        self.grew_from.take()
    }

    /// True while a capture given is not shown yet.
    pub(super) fn growth_pending(&self) -> bool {
        self.next.is_some() || self.growing.is_some()
    }

    /// Starts taking in the newest capture given, unless one is being taken in.
    pub(super) fn start_growth(&mut self, settings: Settings, trim: Trim, spawner: &Spawner) {
        if self.growing.is_some() {
            return;
        }
        let Some(capture) = self.next.take() else { return };
        let trace =
            if self.trace < capture.traces.len() { self.trace } else { capture.default_trace().unwrap_or(0) };
        let capture = Arc::new(capture);
        let name = self.name.clone();
        let markers = self.markers.as_ref().map(|(v, _, log)| (*v, Arc::clone(log)));
        let key = (trace, settings, self.markers_version(), trim);
        self.growing = Some(spawner.task(move || {
            let t = &capture.traces[trace];
            let tracks = Arc::new(Tracks::new(t));
            let source = RunSource::of(&name, &capture);
            let markers = markers.as_ref().map(|(v, log)| (*v, log.as_ref()));
            let analyzed = work::analyze(&source, t, settings, trim, None, None, markers);
            Grown { capture, trace, tracks, analyzed, key }
        }));
    }

    /// Takes in a capture whose tracks and figures are built: capture, trace, tracks
    /// and figures change together; work for the old capture is dropped.
    pub(super) fn collect_growth(&mut self) {
        let Some(done) = self.growing.as_ref().and_then(Job::poll) else { return };
        self.growing = None;
        let grown = match done {
            Ok(g) => g,
            Err(e) => {
                self.failures.push(Failure::Other(format!("{}: {e}", self.name)));
                return;
            }
        };
        self.grew_from = self.own_span();
        self.capture = grown.capture;
        self.trace = grown.trace;
        self.tracks = Some((grown.trace, grown.tracks));
        (self.tracks_job, self.analysis_job, self.selection_job, self.selection) = (None, None, None, None);
        match grown.analyzed {
            Ok(a) => {
                self.analyzed = Some((grown.trace, Arc::new(a)));
                self.failed_analysis = None;
            }
            Err(e) => {
                self.analyzed = None;
                self.failures.push(Failure::Analysis { run: self.name.clone(), error: e });
                self.failed_analysis = Some(grown.key);
            }
        }
        self.generation += 1;
    }
}
