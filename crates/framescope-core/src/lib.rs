//! framescope's core: everything but the window, usable from the command line, a batch
//! job or a language binding. It has no GUI dependency (the crate graph keeps it so).
//!
//! The layers (see `ARCHITECTURE.md`):
//! * [`model`] — the typed trace model (columns, metadata), no I/O, no UI;
//! * [`ingest`] — format detection and parsing of capture files into the model;
//! * [`analysis`] — pure, parallel computations over a trace (`metrics.md`);
//! * [`report`] — the `framescope report` document (JSON and table);
//! * [`html`] — the same documents as one self-contained HTML page;
//! * [`pipeline`] — files to documents: inputs, trace selection, trims, the report,
//!   compare and per-frame tables (shared by the command line and the Python package);
//! * [`output`] — writing a file: never over an input, never half a file;
//! * [`lod`] — the level-of-detail structures a timeline draws from;
//! * [`presentation`] — what a front end needs to show the figures and that does not
//!   draw: telemetry units and axes, latency-stage stacks, sets of runs by name.

pub mod analysis;
pub mod html;
pub mod ingest;
pub mod lod;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod presentation;
pub mod report;
