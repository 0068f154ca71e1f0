//! The native part of the `framescope` Python package (`framescope._framescope`): thin
//! bindings over `framescope_core::pipeline`, the same code the command line runs.
//! Documents (`report`, `compare`) cross as the JSON text `--json` prints, which the
//! Python side (`python/framescope/`) wraps in typed objects; tables (frames, runs,
//! history) cross as Arrow record batches through the Arrow PyCapsule stream
//! interface (the `arrow` module). Files are read and analysed off the Python thread with the
//! GIL released; long calls report progress and stop on KeyboardInterrupt (the `work` module).

// PyO3 extracts Python arguments into owned values (`Vec<PathBuf>`), which a function
// then only borrows.
#![allow(clippy::needless_pass_by_value)]

mod arrow;
mod errors;
mod options;
mod work;

use arrow::{ArrowStream, Layout, Naming};
use errors::{Failure, IntoPy};
use framescope_core::figures::FIGURES;
use framescope_core::ingest::MarkerLog;
use framescope_core::pipeline::compare::{self, Sides};
use framescope_core::pipeline::{self, Input, Loaded};
use framescope_core::report::compare::Gate;
use framescope_core::report::{self as fs_report, BATCH_COLUMNS, Report, RunEntry, Table, batch_table};
use options::{Checked, RawOptions};
use pyo3::prelude::*;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

/// The inputs of a list of paths: folders walked for captures, `-` standard input.
fn expand(paths: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    pipeline::expand(paths).map_err(|m| Failure::Capture { message: m, path: None, line: None })
}

/// The JSON text of a serialisable document.
fn json(doc: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string(doc).map_err(|e| Failure::Other(format!("cannot write the document: {e}")))
}

/// The naming a Python caller asked for.
fn naming(name: &str) -> PyResult<Naming> {
    match name {
        "cli" => Ok(Naming::Cli),
        "snake" => Ok(Naming::Snake),
        other => {
            Err(pyo3::exceptions::PyValueError::new_err(format!("naming: '{other}' is not cli or snake")))
        }
    }
}

/// Checks the options (the command line's rules) without doing any work.
#[pyfunction]
fn check_options(py: Python<'_>, options: RawOptions) -> PyResult<()> {
    options.check().py_err(py).map(|_| ())
}

/// A file's runs, with `strict=`/`max_skipped=` checked.
fn file_runs(input: &Input, c: &Checked, markers: Option<&MarkerLog>) -> Result<Vec<RunEntry>, Failure> {
    if let Some((runs, _)) = pipeline::etl_entry(input) {
        return Ok(runs);
    }
    let loaded = c.o.job.load(input);
    let (runs, _) = loaded.runs(&c.o.settings, markers);
    if let Some(capture) = loaded.capture() {
        c.run_checks(&input.name(), capture, &runs)?;
    }
    Ok(runs)
}

/// The report of `paths` (files read on the options' workers, in argument order).
fn report_of(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    c: Checked,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Report> {
    let inputs = expand(&paths).py_err(py)?;
    if c.pcl.is_some() && inputs.len() != 1 {
        return Err(Failure::option_message("pcl", "goes with exactly one capture file").into_py(py));
    }
    let (markers, marker_error) = match c.markers() {
        Ok(m) => (m, None),
        Err(Failure::Capture { message, .. } | Failure::NotFound { message, .. }) => (None, Some(message)),
        Err(other) => return Err(other.into_py(py)),
    };
    let total = inputs.len();
    let done = work::run(py, total, progress, move |ticker| {
        let mut runs = Vec::new();
        let mut failure = None;
        pipeline::for_each_ordered_on(
            c.o.workers,
            &inputs,
            |input| if ticker.cancelled() { Ok(Vec::new()) } else { file_runs(input, &c, markers.as_ref()) },
            |_, result, finished| {
                match result {
                    Ok(entries) => runs.extend(entries),
                    Err(f) => {
                        failure.get_or_insert(f);
                    }
                }
                ticker.tick(finished);
            },
        );
        pipeline::warn_marker_error(&mut runs, marker_error.as_deref());
        match failure {
            Some(f) => Err(f),
            None => {
                Ok(Report { schema: fs_report::SCHEMA, settings: c.o.job.settings_json(&c.o.settings), runs })
            }
        }
    })?;
    done.py_err(py)
}

/// The `report --json` document of `paths`, as JSON text.
#[pyfunction]
#[pyo3(signature = (paths, options, progress = None))]
fn report_json(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    options: RawOptions,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let c = options.check().py_err(py)?;
    let report = report_of(py, paths, c, progress.as_ref())?;
    py.detach(|| json(&report)).py_err(py)
}

/// The runs table of `paths` (a row per run, the `report --format csv` columns,
/// typed). A file that fails is a row with its `error.message`, never an exception.
#[pyfunction]
#[pyo3(signature = (paths, options, naming = "cli", progress = None))]
fn batch(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    options: RawOptions,
    naming: &str,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<ArrowStream> {
    let naming = self::naming(naming)?;
    let mut c = options.check().py_err(py)?;
    // A batch reports every file; the checks are the report's.
    c.checks = framescope_core::pipeline::checks::Checks::default();
    let report = report_of(py, paths, c, progress.as_ref())?;
    py.detach(|| {
        let table = batch_table(&report.runs);
        table_stream(&table, naming)
    })
    .py_err(py)
}

/// A whole table as a stream.
fn table_stream(table: &Table, naming: Naming) -> Result<ArrowStream, Failure> {
    let layout = Layout::new(&table.without_rows(), naming, &HashSet::new(), Vec::new());
    let batches =
        layout.batches(table).map_err(|e| Failure::Other(format!("cannot build the table: {e}")))?;
    Ok(layout.stream(batches))
}

/// The `compare --json` document of a baseline and another side (one file each, or
/// sets of two or more), as JSON text.
#[pyfunction]
#[pyo3(signature = (baseline, other, options, fail_if_worse, allow_missing, limits, progress = None))]
#[allow(clippy::too_many_arguments)]
fn compare_json(
    py: Python<'_>,
    baseline: Vec<PathBuf>,
    other: Vec<PathBuf>,
    options: RawOptions,
    fail_if_worse: Vec<String>,
    allow_missing: bool,
    limits: (String, String),
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let c = options.check().py_err(py)?;
    let refuse = |option: &str, message: String| Failure::option_message(option, message).into_py(py);
    if c.o.job.selector == pipeline::TraceSelector::All {
        return Err(refuse("trace", "'all' does not apply to compare: pick one trace per file".into()));
    }
    if c.pcl.is_some() {
        return Err(refuse("pcl", "does not apply to compare".into()));
    }
    let fraction = |name: &str, v: &str| pipeline::fraction(v).map_err(|e| refuse(name, e.to_string()));
    let limits = compare::Limits {
        outlier_limit: fraction("outlier_limit", &limits.0)?,
        noise_band: fraction("noise_band", &limits.1)?,
    };
    let mut gate = Gate { rules: Vec::new(), allow_missing };
    for spec in &fail_if_worse {
        let g = spec.parse::<Gate>().map_err(|e| refuse("fail_if_worse", e.to_string()))?;
        gate.rules.extend(g.rules);
    }
    let sides = Sides::new(expand(&baseline).py_err(py)?, expand(&other).py_err(py)?)
        .map_err(|e| Failure::Capture { message: e.to_string(), path: None, line: None }.into_py(py))?;
    let total = match &sides {
        Sides::Sets(a, b) => a.len() + b.len(),
        Sides::Single(..) => 2,
    };
    let doc = work::run(py, total, progress.as_ref(), move |ticker| {
        let doc = compare::document(&sides, &c.o.job, &c.o.settings, &gate, limits, c.o.workers);
        ticker.tick(total);
        json(&doc)
    })?;
    doc.py_err(py)
}

/// A capture file read, its traces picked (and trimmed) as the options say.
struct Opened {
    loaded: Loaded,
    markers: Option<MarkerLog>,
    path: PathBuf,
}

/// A capture file read once: its traces, and what `analyze` and `frames` make of them.
#[pyclass(module = "framescope._framescope", frozen)]
struct NativeCapture {
    opened: Arc<Opened>,
}

/// Reads one capture file (`-`: standard input) with the options' load options.
#[pyfunction]
#[pyo3(signature = (path, options, progress = None))]
fn open_capture(
    py: Python<'_>,
    path: PathBuf,
    options: RawOptions,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<NativeCapture> {
    let c = options.check().py_err(py)?;
    if path.is_dir() {
        let message = format!("{}: is a folder; open and frames read one capture file", path.display());
        return Err(Failure::capture(&path, message, None).into_py(py));
    }
    let markers = c.markers().py_err(py)?;
    let opened = work::run(py, 1, progress.as_ref(), move |ticker| {
        let input = if path.as_os_str() == "-" { Input::Stdin } else { Input::File(path.clone()) };
        let capture = input.load(c.o.job.opts.clone()).map_err(|e| Failure::load(&e))?;
        let loaded = c.o.job.pick_capture(input.name(), capture);
        if let Loaded::Failed(entry, message) = &loaded {
            let line = match entry {
                RunEntry::Failed(f) => f.error.line,
                _ => None,
            };
            return Err(Failure::capture(&path, message.clone(), line));
        }
        if c.checks.strict || c.checks.max_skipped.is_some() {
            let (runs, _) = loaded.runs(&c.o.settings, markers.as_ref());
            if let Some(capture) = loaded.capture() {
                c.run_checks(&input.name(), capture, &runs)?;
            }
        }
        ticker.tick(1);
        Ok(Opened { loaded, markers, path })
    })?;
    Ok(NativeCapture { opened: Arc::new(opened.py_err(py)?) })
}

#[pymethods]
impl NativeCapture {
    /// The file's format, system, warnings and traces, as JSON text.
    fn info_json(&self, py: Python<'_>) -> PyResult<String> {
        let Some(capture) = self.opened.loaded.capture() else {
            return Err(Failure::Other("the capture failed".into()).into_py(py));
        };
        let picked: Vec<*const framescope_core::model::Trace> =
            self.opened.loaded.traces().into_iter().map(std::ptr::from_ref).collect();
        let traces: Vec<serde_json::Value> = capture
            .traces
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let m = &t.meta;
                serde_json::json!({
                    "index": i, "label": t.label(), "application": m.application, "process_id": m.process_id,
                    "swap_chain": m.swap_chain, "runtime": m.runtime, "present_modes": m.present_modes,
                    "rows": t.len(), "sampled": t.is_sampled(), "reported": picked.contains(&std::ptr::from_ref(t)),
                    "warnings": t.warnings,
                })
            })
            .collect();
        let info = &capture.info;
        let doc = serde_json::json!({
            "path": info.path.display().to_string(), "format": info.format.name(),
            "format_version": info.format_version, "system": info.system,
            "warnings": capture.warnings, "traces": traces,
        });
        json(&doc).py_err(py)
    }

    /// The `report --json` document of the capture's reported traces under the
    /// options' analysis settings, as JSON text.
    fn report_json(&self, py: Python<'_>, options: RawOptions) -> PyResult<String> {
        let c = options.check().py_err(py)?;
        let opened = self.opened.clone();
        let doc = work::run(py, 1, None, move |_| {
            let (runs, _) = opened.loaded.runs(&c.o.settings, opened.markers.as_ref());
            json(&Report { schema: fs_report::SCHEMA, settings: c.o.job.settings_json(&c.o.settings), runs })
        })?;
        doc.py_err(py)
    }

    /// The per-frame table of the reported traces, as an Arrow stream; only the
    /// `columns` named are built (all when `None`); with `schema_only`, no rows (the
    /// whole table's columns and types).
    #[pyo3(signature = (options, naming = "snake", columns = None, schema_only = false))]
    fn frames(
        &self,
        py: Python<'_>,
        options: RawOptions,
        naming: &str,
        columns: Option<Vec<String>>,
        schema_only: bool,
    ) -> PyResult<ArrowStream> {
        let naming = self::naming(naming)?;
        let c = options.check().py_err(py)?;
        let opened = self.opened.clone();
        let shape = Shape { columns, schema_only };
        let stream = work::run(py, 1, None, move |_| frames_stream(&opened, &c, naming, &shape))?;
        stream.py_err(py)
    }
}

/// The per-frame table of an opened capture as record batches.
/// What of the per-frame table is built: the columns (all when `None`), or only its
/// schema.
struct Shape {
    columns: Option<Vec<String>>,
    schema_only: bool,
}

fn frames_stream(
    opened: &Opened,
    c: &Checked,
    naming: Naming,
    shape: &Shape,
) -> Result<ArrowStream, Failure> {
    let table = pipeline::FrameTable::new(&opened.loaded, &c.o.settings)
        .map_err(|e| Failure::capture(&opened.path, e.to_string(), None))?;
    let traces = opened.loaded.traces();
    let (whole, labels) = if naming == Naming::Snake {
        let mut names: Vec<&str> =
            traces.iter().flat_map(|t| t.frames.columns.iter().map(|c| c.name.as_str())).collect();
        names.dedup();
        let whole = names
            .into_iter()
            .filter(|name| {
                traces.iter().all(|t| {
                    t.frames
                        .columns
                        .iter()
                        .find(|c| c.name == *name)
                        .is_none_or(|c| arrow::all_whole(c.values.iter()))
                })
            })
            .map(str::to_owned)
            .collect();
        let labels = traces
            .iter()
            .map(|t| {
                let m = &t.meta;
                (m.application.clone(), m.process_id.map(i64::from), m.swap_chain.clone())
            })
            .collect();
        (whole, labels)
    } else {
        (HashSet::new(), Vec::new())
    };
    let mut layout = Layout::new(&fs_report::TableChunks::columns(&table), naming, &whole, labels);
    if shape.schema_only {
        return Ok(layout.stream(Vec::new()));
    }
    if let Some(columns) = &shape.columns {
        layout = layout
            .select(columns)
            .map_err(|message| Failure::Option { message, option: "columns".into() })?;
    }
    let batches =
        layout.batches(&table).map_err(|e| Failure::Other(format!("cannot build the table: {e}")))?;
    Ok(layout.stream(batches))
}

/// The history in `db` (a SQLite file), a row per stored run as `framescope history
/// export` writes it, as an Arrow stream.
#[pyfunction]
#[pyo3(signature = (db, naming = "cli"))]
fn history(py: Python<'_>, db: PathBuf, naming: &str) -> PyResult<ArrowStream> {
    let naming = self::naming(naming)?;
    let stream = py.detach(|| {
        let name = db.to_string_lossy();
        let runs = framescope_history::open(&name, framescope_history::OpenMode::Existing)
            .and_then(|mut s| s.runs())
            .map_err(|e| Failure::capture(&db, e.to_string(), None))?;
        table_stream(&framescope_history::export::table(&runs), naming)
    });
    stream.py_err(py)
}

/// The capture files `paths` stand for, as the command line reads them.
#[pyfunction]
fn captures(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Vec<String>> {
    Ok(expand(&paths).py_err(py)?.iter().map(Input::name).collect())
}

/// The columns of the runs table, in order (`report --format csv`'s header).
#[pyfunction]
fn run_columns() -> Vec<&'static str> {
    BATCH_COLUMNS.to_vec()
}

/// Every figure of the registry: its section's key in a run's JSON, its key, and
/// whether it is a count (a whole number).
#[pyfunction]
fn figures() -> Vec<(&'static str, &'static str, bool)> {
    FIGURES
        .iter()
        .map(|f| (f.section.name(), f.name, f.unit == framescope_core::figures::Unit::Count))
        .collect()
}

/// A column name in the data API's snake_case.
#[pyfunction]
fn snake_case(name: &str) -> String {
    arrow::snake_case(name)
}

/// framescope's native module.
#[pymodule]
fn _framescope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<ArrowStream>()?;
    m.add_class::<NativeCapture>()?;
    m.add_function(wrap_pyfunction!(check_options, m)?)?;
    m.add_function(wrap_pyfunction!(report_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(open_capture, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    m.add_function(wrap_pyfunction!(history, m)?)?;
    m.add_function(wrap_pyfunction!(run_columns, m)?)?;
    m.add_function(wrap_pyfunction!(captures, m)?)?;
    m.add_function(wrap_pyfunction!(figures, m)?)?;
    m.add_function(wrap_pyfunction!(snake_case, m)?)?;
    Ok(())
}
