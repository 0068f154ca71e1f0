//! The native part of the `framescope` Python package (`framescope._framescope`): thin
//! bindings over `framescope_core::pipeline`, the same code the command line runs. The
//! documents (`report`, `compare`) cross as the JSON text `--json` prints, the tables
//! (`frames`, `batch`) as the bytes of the Parquet file the command line writes; the
//! Python side (`python/framescope/__init__.py`) turns them into dicts and polars
//! DataFrames. Every call releases the GIL while it reads and analyses files.

// PyO3 extracts Python arguments into owned values (`Vec<PathBuf>`), which a function
// then only borrows.
#![allow(clippy::needless_pass_by_value)]

use framescope_core::pipeline::compare::{self, Sides};
use framescope_core::pipeline::{self, Input, OptionValues, Options};
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

impl RawOptions {
    /// Checks the options with the command line's rules (`framescope_core::pipeline::
    /// OptionValues`); a `ValueError` names the bad one.
    fn check(&self) -> PyResult<Options> {
        let values = OptionValues {
            target_fps: self.target_fps,
            stutter_threshold: self.stutter_threshold,
            stutter_floor_ms: self.stutter_floor_ms,
            refresh_hz: self.refresh_hz,
            frame_time: &self.frame_time,
            trace: &self.trace,
            trim_start: self.trim_start,
            trim_end: self.trim_end,
            column: self.column.as_deref(),
            unit: &self.unit,
            qpc_frequency: self.qpc_frequency,
            workers: self.workers,
        };
        values.check().map_err(|e| PyValueError::new_err(e.to_string()))
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
    let o = options.check()?;
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
    let o = options.check()?;
    if o.job.selector == pipeline::TraceSelector::All {
        return Err(PyValueError::new_err("trace='all' does not apply to compare: pick one trace per file"));
    }
    let checked = |name: &str, v: f64| {
        pipeline::non_negative_value(v).map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
    };
    let limits = compare::Limits {
        outlier_limit: checked("outlier_limit", limits.0)?,
        noise_band: checked("noise_band", limits.1)?,
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
    let o = options.check()?;
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
    let o = options.check()?;
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
