//! framescope: a fast analyzer for game frame-timing captures.
//!
//! The crate is layered (see `ARCHITECTURE.md`):
//! * [`model`] — the typed trace model (columns, metadata), no I/O, no UI;
//! * [`ingest`] — format detection and parsing of capture files into the model;
//! * [`analysis`] — pure, parallel computations over a trace (`metrics.md`);
//! * [`report`] — the `framescope report` document (JSON and table);
//! * [`cli`] — the command line.

pub mod analysis;
pub mod app;
pub mod cli;
pub mod ingest;
pub mod model;
pub mod report;
