//! Loading captures off the UI thread: a worker reads and analyses, the UI polls.

use crate::analysis::{Figures, FrameTimeSource, Prepared, Settings, SlowTimeCurve, Summary};
use crate::ingest::{self, LoadError, LoadOptions, Progress};
use crate::model::Capture;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

/// Where a capture comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A file on disk.
    File(PathBuf),
    /// Bytes built into the binary, with a display name.
    Embedded(&'static str, &'static [u8]),
}

impl Source {
    /// The name shown to the user.
    pub fn name(&self) -> String {
        match self {
            Self::File(p) => p.display().to_string(),
            Self::Embedded(name, _) => (*name).to_owned(),
        }
    }
}

/// The figures of one trace (presents source, default thresholds).
pub struct TraceFigures {
    /// Summary figures.
    pub summary: Option<Summary>,
    /// Pacing, stutters, oscillation, health.
    pub figures: Figures,
    /// S(F) and E(F), answered for any target without recomputing.
    pub curve: Option<SlowTimeCurve>,
}

/// A loaded capture with the figures of each trace.
pub struct Loaded {
    /// The capture.
    pub capture: Capture,
    /// One entry per trace.
    pub traces: Vec<TraceFigures>,
}

/// A load in flight.
pub struct Pending {
    /// What is being loaded.
    pub name: String,
    /// Shared with the worker; the UI shows it and may cancel.
    pub progress: Arc<Progress>,
    result: Receiver<Result<Loaded, LoadError>>,
}

impl Pending {
    /// Starts loading `source` on a worker thread; `repaint` is called when done.
    pub fn start(source: Source, repaint: impl Fn() + Send + 'static) -> Self {
        let progress = Arc::new(Progress::default());
        let (tx, rx) = channel();
        let worker_progress = Arc::clone(&progress);
        let name = source.name();
        std::thread::spawn(move || {
            let opts = LoadOptions::default();
            let loaded = match &source {
                Source::File(path) => ingest::load_file(path, opts, &worker_progress),
                Source::Embedded(name, bytes) => ingest::load_bytes(name.as_ref(), bytes, opts),
            }
            .map(|capture| {
                let traces = capture
                    .traces
                    .iter()
                    .map(|t| {
                        let prepared = Prepared::new(t, FrameTimeSource::Presents);
                        let figures = prepared.figures(&Settings::default());
                        TraceFigures { summary: prepared.summary, figures, curve: prepared.into_curve() }
                    })
                    .collect();
                Loaded { capture, traces }
            });
            let _ = tx.send(loaded);
            repaint();
        });
        Self { name, progress, result: rx }
    }

    /// The result once the worker is done.
    pub fn poll(&self) -> Option<Result<Loaded, LoadError>> {
        self.result.try_recv().ok()
    }
}
