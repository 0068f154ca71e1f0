//! The native part of the `framescope` Python package (`framescope._framescope`): thin
//! bindings over `framescope_core::pipeline`, the same code the command line runs. The
//! documents (`report`, `compare`) cross as the JSON text `--json` prints, the tables
//! (`frames`, `batch`) as the bytes of the Parquet file the command line writes; the
//! Python side (`python/framescope/__init__.py`) turns them into dicts and polars
//! DataFrames. Every call releases the GIL while it reads and analyses files.

// PyO3 extracts Python arguments into owned values (`Vec<PathBuf>`), which a function
// then only borrows.
#![allow(clippy::needless_pass_by_value)]

use framescope_core::analysis::{FrameTimeSource, Settings, Trim};
use framescope_core::ingest::{ColumnMapping, LoadOptions, MappedRole, TimeUnit};
use framescope_core::pipeline::compare::{self, Sides};
use framescope_core::pipeline::default_workers;
use framescope_core::pipeline::{self, Input, Job, TraceSelector};
use framescope_core::report::compare::Gate;
use framescope_core::report::{BATCH_COLUMNS, RunEntry, Table, batch_table};
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;

pyo3::create_exception!(
    framescope,
    FramescopeError,
    PyException,
    "A capture could not be read or analysed; the message names the file and, where one is to blame, the line."
);

/// The options every call takes (the command line's `report` options), as the Python
/// side passes them: a dict with every key.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RawOptions {
    target_fps: f64,
    stutter_threshold: f64,
    stutter_floor_ms: f64,
    refresh_hz: Option<f64>,
    frame_time: String,
    trace: String,
    trim_start: f64,
    trim_end: f64,
    column: Option<String>,
    unit: String,
    qpc_frequency: Option<f64>,
    workers: Option<usize>,
}

/// The options, checked.
struct Options {
    settings: Settings,
    job: Job,
    workers: usize,
}

/// Checks a number that must be finite and at least `min` (above it when `strict`).
fn number(name: &str, v: f64, min: f64, strict: bool) -> PyResult<f64> {
    let ok = v.is_finite() && if strict { v > min } else { v >= min };
    if ok {
        Ok(v)
    } else {
        let rule = if strict { "greater than" } else { "at least" };
        Err(PyValueError::new_err(format!("{name} must be a finite number {rule} {min}, got {v}")))
    }
}

/// `frame-time=NAME` or `timestamp=NAME`, as `--column`.
fn mapping(column: Option<&str>, unit: &str) -> PyResult<Option<ColumnMapping>> {
    let Some(spec) = column else { return Ok(None) };
    let bad = || PyValueError::new_err(format!("column '{spec}': write frame-time=NAME or timestamp=NAME"));
    let (role, name) = spec.split_once('=').ok_or_else(bad)?;
    let role = match role.trim().to_ascii_lowercase().as_str() {
        "frame-time" | "frametime" | "frame_time" => MappedRole::FrameTime,
        "timestamp" | "time" => MappedRole::Timestamp,
        _ => return Err(bad()),
    };
    if name.trim().is_empty() {
        return Err(bad());
    }
    let unit = TimeUnit::parse(unit)
        .ok_or_else(|| PyValueError::new_err(format!("unit '{unit}': use s, ms, us or ns")))?;
    Ok(Some(ColumnMapping { role, column: name.trim().to_owned(), unit, extra: Vec::new() }))
}

impl TryFrom<RawOptions> for Options {
    type Error = PyErr;

    /// Checks the options as the command line does; a `ValueError` names the bad one.
    fn try_from(o: RawOptions) -> PyResult<Self> {
        let frame_time = match o.frame_time.to_ascii_lowercase().as_str() {
            "auto" => FrameTimeSource::Auto,
            "presents" => FrameTimeSource::Presents,
            "display" => FrameTimeSource::Display,
            other => {
                return Err(PyValueError::new_err(format!(
                    "frame_time '{other}': use auto, presents or display"
                )));
            }
        };
        let settings = Settings {
            target_fps: number("target_fps", o.target_fps, 0.0, true)?,
            stutter_threshold: number("stutter_threshold", o.stutter_threshold, 0.0, false)?,
            stutter_floor_ms: number("stutter_floor_ms", o.stutter_floor_ms, 0.0, false)?,
            refresh_hz: o.refresh_hz.map(|h| number("refresh_hz", h, 0.0, true)).transpose()?,
            frame_time,
        };
        let selector =
            o.trace.parse::<TraceSelector>().map_err(|e| PyValueError::new_err(format!("trace: {e}")))?;
        let trim = Trim {
            start_s: number("trim_start", o.trim_start, 0.0, false)?,
            end_s: number("trim_end", o.trim_end, 0.0, false)?,
        };
        let opts = LoadOptions {
            qpc_frequency_hz: o.qpc_frequency.map(|h| number("qpc_frequency", h, 0.0, true)).transpose()?,
            mapping: mapping(o.column.as_deref(), &o.unit)?,
            figures_only: false,
        };
        if o.workers == Some(0) {
            return Err(PyValueError::new_err("workers must be at least 1"));
        }
        Ok(Self {
            settings,
            job: Job { selector, opts, trim },
            workers: o.workers.unwrap_or_else(default_workers),
        })
    }
}

/// The inputs of a list of paths: folders walked for captures, `-` standard input.
fn expand(paths: &[PathBuf]) -> PyResult<Vec<Input>> {
    pipeline::expand(paths).map_err(PyValueError::new_err)
}

/// The JSON text of a serialisable document.
fn json(doc: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(doc)
        .map_err(|e| FramescopeError::new_err(format!("cannot write the document: {e}")))
}

/// The bytes of a table's Parquet file.
fn parquet(py: Python<'_>, table: PyResult<Table>) -> PyResult<Bound<'_, PyBytes>> {
    let bytes = framescope_parquet::to_bytes(&table?)
        .map_err(|e| FramescopeError::new_err(format!("cannot write the table: {e}")))?;
    Ok(PyBytes::new(py, &bytes))
}

/// The `report --json` document of `paths`, as JSON text.
#[pyfunction]
fn report_json(py: Python<'_>, paths: Vec<PathBuf>, options: RawOptions) -> PyResult<String> {
    let o = Options::try_from(options)?;
    let inputs = expand(&paths)?;
    py.detach(|| json(&pipeline::report(&inputs, &o.job, &o.settings, o.workers)))
}

/// The `compare --json` document of a baseline and another side (one file each, or
/// sets of two or more), as JSON text.
#[pyfunction]
fn compare_json(
    py: Python<'_>,
    baseline: Vec<PathBuf>,
    other: Vec<PathBuf>,
    options: RawOptions,
    fail_if_worse: Vec<String>,
    allow_missing: bool,
    limits: (f64, f64),
) -> PyResult<String> {
    let o = Options::try_from(options)?;
    if o.job.selector == TraceSelector::All {
        return Err(PyValueError::new_err("trace='all' does not apply to compare: pick one trace per file"));
    }
    let limits = compare::Limits {
        outlier_limit: number("outlier_limit", limits.0, 0.0, false)?,
        noise_band: number("noise_band", limits.1, 0.0, false)?,
    };
    let mut gate = Gate { rules: Vec::new(), allow_missing };
    for spec in &fail_if_worse {
        let g = spec.parse::<Gate>().map_err(|e| PyValueError::new_err(format!("fail_if_worse: {e}")))?;
        gate.rules.extend(g.rules);
    }
    let sides =
        Sides::new(expand(&baseline)?, expand(&other)?).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.detach(|| json(&compare::document(&sides, &o.job, &o.settings, &gate, limits, o.workers)))
}

/// The per-frame table of one capture, as Parquet bytes; `FramescopeError` when the
/// file cannot be read (its message names the file and line).
#[pyfunction]
fn frames_parquet(py: Python<'_>, path: PathBuf, options: RawOptions) -> PyResult<Bound<'_, PyBytes>> {
    let o = Options::try_from(options)?;
    if path.is_dir() {
        let msg = format!("{}: frames reads one capture file, not a folder", path.display());
        return Err(PyValueError::new_err(msg));
    }
    let input = if path.as_os_str() == "-" { Input::Stdin } else { Input::File(path) };
    // Written a chunk of rows at a time: the table is never built whole.
    let bytes = py.detach(|| {
        let loaded = o.job.load(&input);
        let table = pipeline::FrameTable::new(&loaded, &o.settings)
            .map_err(|e| FramescopeError::new_err(e.to_string()))?;
        framescope_parquet::to_bytes(&table)
            .map_err(|e| FramescopeError::new_err(format!("cannot write the table: {e}")))
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// The history in `db` (a SQLite file) as Parquet bytes: a row per stored run, as
/// `framescope history export` writes it; `FramescopeError` when it cannot be read.
#[pyfunction]
fn history_parquet(py: Python<'_>, db: PathBuf) -> PyResult<Bound<'_, PyBytes>> {
    let bytes = py.detach(|| {
        let db = db.to_string_lossy();
        let runs = framescope_history::open(&db, framescope_history::OpenMode::Existing)
            .and_then(|mut s| s.runs())
            .map_err(|e| FramescopeError::new_err(e.to_string()))?;
        framescope_parquet::to_bytes(&framescope_history::export::table(&runs))
            .map_err(|e| FramescopeError::new_err(format!("cannot write the table: {e}")))
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// The runs table of `paths` (a row per run, the `report --format csv` columns,
/// typed), as Parquet bytes. Files are read on `workers` threads; a file that fails is
/// a row with its `error.message`, never an exception.
#[pyfunction]
fn batch_parquet(py: Python<'_>, paths: Vec<PathBuf>, options: RawOptions) -> PyResult<Bound<'_, PyBytes>> {
    let o = Options::try_from(options)?;
    let inputs = expand(&paths)?;
    let table = py.detach(|| {
        let runs: Vec<RunEntry> = pipeline::report(&inputs, &o.job, &o.settings, o.workers).runs;
        batch_table(&runs)
    });
    parquet(py, Ok(table))
}

/// The capture files `paths` stand for, as the command line reads them: a folder walked
/// for `*.csv`, `*.json` and `*.hml` and their `.gz` (sorted by path, hidden entries
/// skipped), a file as given. A folder without captures, or one that cannot be read, is
/// listed as itself (reading it fails).
#[pyfunction]
fn captures(paths: Vec<PathBuf>) -> PyResult<Vec<String>> {
    Ok(expand(&paths)?.iter().map(Input::name).collect())
}

/// The columns of the runs table, in order (`report --format csv`'s header).
#[pyfunction]
fn run_columns() -> Vec<&'static str> {
    BATCH_COLUMNS.to_vec()
}

/// framescope's native module.
#[pymodule]
fn _framescope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FramescopeError", m.py().get_type::<FramescopeError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(report_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(frames_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(batch_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(history_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(run_columns, m)?)?;
    m.add_function(wrap_pyfunction!(captures, m)?)?;
    Ok(())
}
