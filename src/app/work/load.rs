//! Loading captures off the UI thread: a worker reads, the UI polls and shows the
//! shared progress (with a Cancel button).

use super::{Spawner, Task};
use framescope_core::ingest::{self, ColumnMapping, LoadError, LoadErrorKind, LoadOptions, Progress};
use framescope_core::model::Capture;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a capture comes from.
#[derive(Debug, Clone)]
pub enum LoadSource {
    /// A file on disk.
    File(PathBuf),
    /// Bytes built into the binary, with a display name.
    Embedded(&'static str, &'static [u8]),
}

/// A load asked for, named before its capture is read: what names the run it will
/// open until that run has a [`RunId`](crate::app::session::RunId) (the baseline of a
/// comparison asked for with the loads, `--compare` or the sample pair). Given by the
/// window's jobs, never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LoadId(pub u64);

/// A load in flight.
pub struct Pending {
    /// This load.
    pub id: LoadId,
    /// What is being loaded, as shown.
    pub name: String,
    /// The file, when it is one.
    pub path: Option<PathBuf>,
    /// Shared with the worker; the UI shows it and may cancel.
    pub progress: Arc<Progress>,
    task: Task<Result<Capture, LoadError>>,
}

impl Pending {
    /// Starts load `id` of `source` with `spawner`. `mapping` is the column mapping the
    /// user chose for it (a CSV of no known format); `remembered` the mappings chosen
    /// before, per header: a CSV of no known format whose header has one is read again
    /// with it (`formats.md` §11).
    #[must_use]
    pub fn start(
        id: LoadId,
        spawner: &Spawner,
        source: LoadSource,
        mapping: Option<ColumnMapping>,
        remembered: Vec<(Vec<String>, ColumnMapping)>,
    ) -> Self {
        let progress = Arc::new(Progress::default());
        let worker_progress = Arc::clone(&progress);
        let (name, path) = match &source {
            LoadSource::File(p) => (p.display().to_string(), Some(p.clone())),
            LoadSource::Embedded(name, _) => ((*name).to_owned(), None),
        };
        let task = spawner.task(move || {
            let load = |mapping: Option<ColumnMapping>| {
                let opts = LoadOptions { mapping, ..LoadOptions::default() };
                match &source {
                    LoadSource::File(path) => ingest::load_file(path, opts, &worker_progress),
                    LoadSource::Embedded(name, bytes) => ingest::load_bytes(name.as_ref(), bytes, opts),
                }
            };
            let asked = mapping.is_some();
            let mut loaded = load(mapping);
            if !asked
                && let Err(LoadError { kind: LoadErrorKind::UnknownColumns(u), .. }) = &loaded
                && let Some((_, m)) = remembered.iter().find(|(h, _)| *h == u.columns)
            {
                loaded = load(Some(m.clone()));
            }
            loaded
        });
        Self { id, name, path, progress, task }
    }

    /// The result once the worker is done.
    #[must_use]
    pub fn poll(&self) -> Option<Result<Capture, LoadError>> {
        self.task.poll().map(|done| {
            done.unwrap_or_else(|_| {
                let path = self.path.clone().unwrap_or_else(|| self.name.clone().into());
                let why = std::io::Error::other("the reader stopped unexpectedly");
                Err(LoadError::new(path, None, LoadErrorKind::Io(why)))
            })
        })
    }
}
