//! The options every call takes, as the Python side passes them (a dict with every
//! key), checked by the core's `pipeline::options` — the parsers the command line
//! hands to clap — so a bad value is refused before any work, with the command line's
//! message naming the option.

use crate::errors::Failure;
use framescope_core::ingest::MarkerLog;
use framescope_core::model::Capture;
use framescope_core::pipeline::checks::{Checks, RowCounts};
use framescope_core::pipeline::{OptionValues, Options};
use framescope_core::report::{Run, RunEntry};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The options of a call, every key present (`None` where not given).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct RawOptions {
    target_fps: f64,
    stutter_threshold: String,
    stutter_floor_ms: f64,
    refresh_hz: Option<f64>,
    frame_time: String,
    trace: String,
    trim_start: f64,
    trim_end: f64,
    column: Option<String>,
    extra_column: Vec<String>,
    unit: String,
    qpc_frequency: Option<f64>,
    workers: Option<usize>,
    strict: bool,
    max_skipped: Option<String>,
    pub pcl: Option<PathBuf>,
}

/// Checked options, with the pipeline checks and the marker log's path.
pub struct Checked {
    /// The core's options.
    pub o: Options,
    /// `strict=` and `max_skipped=`.
    pub checks: Checks,
    /// `pcl=`.
    pub pcl: Option<PathBuf>,
}

impl RawOptions {
    /// Checks the options with the command line's rules; the failure names the bad one.
    pub fn check(&self) -> Result<Checked, Failure> {
        let values = OptionValues {
            target_fps: self.target_fps,
            stutter_threshold: &self.stutter_threshold,
            stutter_floor_ms: self.stutter_floor_ms,
            refresh_hz: self.refresh_hz,
            frame_time: &self.frame_time,
            trace: &self.trace,
            trim_start: self.trim_start,
            trim_end: self.trim_end,
            column: self.column.as_deref(),
            extra_columns: &self.extra_column,
            unit: &self.unit,
            qpc_frequency: self.qpc_frequency,
            workers: self.workers,
            max_skipped: self.max_skipped.as_deref(),
        };
        let o = values.check().map_err(|e| Failure::option(&e))?;
        let checks = Checks { strict: self.strict, max_skipped: o.max_skipped };
        Ok(Checked { o, checks, pcl: self.pcl.clone() })
    }
}

impl Checked {
    /// The PCL marker log, read (a failure names the log).
    pub fn markers(&self) -> Result<Option<MarkerLog>, Failure> {
        let Some(path) = &self.pcl else { return Ok(None) };
        framescope_core::ingest::load_marker_log(path, self.o.job.opts.qpc_hz())
            .map(Some)
            .map_err(|e| Failure::load(&e))
    }

    /// `strict=` and `max_skipped=` on a file's runs: the failure of the first check
    /// that fails.
    pub fn run_checks(&self, file: &str, capture: &Capture, runs: &[RunEntry]) -> Result<(), Failure> {
        let analysed: Vec<&Run> = runs
            .iter()
            .filter_map(|r| match r {
                RunEntry::Run(run) => Some(&**run),
                _ => None,
            })
            .collect();
        let (failures, _) = self.checks.check(file, RowCounts::of(capture), &analysed);
        match failures.into_iter().next() {
            Some(message) => Err(Failure::capture(&capture.info.path, message, None)),
            None => Ok(()),
        }
    }
}
