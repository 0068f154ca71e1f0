//! framescope's core: everything but the window, usable from the command line, a batch
//! job or a language binding. It has no GUI dependency (the crate graph keeps it so).
//!
//! The front door: [`open`] a capture, then [`Capture::analyze`] it with the
//! [`Settings`] a user picks; the [`Report`] is the `framescope report --json` document.
//!
//! ```
//! use framescope_core::{LoadOptions, Settings, open};
//! use framescope_core::report::RunEntry;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../sample-traces/synthetic-run-a.csv");
//! let capture = open(path, &LoadOptions::default())?;
//! let report = capture.analyze(&Settings::default())?;
//! let RunEntry::Run(run) = &report.runs[0] else { panic!("the sample is a run") };
//! let avg_fps = run.summary.map(|s| s.avg_fps).unwrap_or_default();
//! println!("{}: {avg_fps:.2} FPS on average", run.application);
//! assert!((avg_fps - 104.65).abs() < 0.01, "as `framescope report` prints it");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The layers (see `ARCHITECTURE.md`):
//! * [`model`] — the typed trace model (columns, metadata), no I/O, no UI;
//! * [`ingest`] — format detection and parsing of capture files into the model;
//! * [`analysis`] — pure, parallel computations over a trace (`metrics.md`);
//! * [`figures`] — the figure registry: every figure's name, unit, decimals, direction
//!   and definition, which every front end reads;
//! * [`report`] — the `framescope report` document (JSON and table);
//! * [`html`] — the same documents as one self-contained HTML page;
//! * [`pipeline`] — files to documents: inputs, trace selection, trims, the report,
//!   compare and per-frame tables (shared by the command line and the Python package);
//! * [`output`] — writing a file: never over an input, never half a file;
//! * [`lod`] — the level-of-detail structures a timeline draws from;
//! * [`presentation`] — what a front end needs to show the figures and that does not
//!   draw: telemetry units and axes, latency-stage stacks, sets of runs by name.

pub mod analysis;
pub mod figures;
pub mod html;
pub mod ingest;
pub mod lod;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod presentation;
pub mod report;

/// What the integration tests read beyond the API: the `.etl` parser's records and
/// TraceLogging schemas, held to a Python parser in `tests/headless/etl_fixtures.rs`.
/// Not an API: behind the `testing` feature, which only the tests turn on.
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing {
    pub use crate::ingest::etl::records::RecordKind;
    pub use crate::ingest::etl::tracelogging::{EXT_SCHEMA_TL, Schema, Value};
    pub use crate::ingest::etl::{read, summarize};
}

pub use analysis::Settings;
pub use ingest::{LoadError, LoadOptions};
pub use model::Capture;
pub use pipeline::AnalysisError;
pub use report::Report;

/// Reads the capture at `path` (any format framescope reads, detected by content; gzip
/// and UTF-16 undone): the front door. Analyse it with [`Capture::analyze`].
pub fn open(path: impl AsRef<std::path::Path>, options: &LoadOptions) -> Result<Capture, LoadError> {
    ingest::load_file(path.as_ref(), options.clone(), &ingest::Progress::without_preview())
}
