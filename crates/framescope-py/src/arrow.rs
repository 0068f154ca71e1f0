//! Tables handed to Python as Arrow record batches through the Arrow PyCapsule
//! interface (`__arrow_c_stream__`): polars (`pl.DataFrame(stream)`), pyarrow
//! (`pa.table(stream)`) and DuckDB import them without a copy of their numbers and
//! without a file format in between.
//!
//! Two namings: the command line's (`framescope frames`/`report --format parquet`
//! columns as written, for the package's original functions, whose tables equal the
//! command line's files), and the data API's ([`Naming::Snake`]: every name in
//! snake_case, the name as written kept in the field's `framescope.name` metadata,
//! capture columns that hold only whole numbers as `Int64`, and the trace's
//! `application`, `process_id` and `swap_chain` on every row).

use arrow_array::builder::StringViewBuilder;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{
    ArrayRef, Int64Array, RecordBatch, RecordBatchIterator, RecordBatchOptions, StringViewArray, UInt32Array,
};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use framescope_core::report::{Cells, Table, TableChunks};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// How a table's columns are named and typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// As the command line writes them.
    Cli,
    /// snake_case, whole-number capture columns as integers (the data API).
    Snake,
}

/// The metadata key that keeps a column's name as written.
pub const NAME_KEY: &str = "framescope.name";

/// A column's name in snake_case: `MsBetweenPresents` → `ms_between_presents`,
/// `CPUCoreUtil%[ 0]` → `cpu_core_util_pct_0`, `spike.MsInPresentAPI` →
/// `spike_ms_in_present_api`, `summary.avg_fps` → `summary_avg_fps`.
#[must_use]
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 8);
    let sep = |out: &mut String| {
        if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        if c == '%' {
            sep(&mut out);
            out.push_str("pct");
        } else if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            let lower_before = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            let acronym_end =
                prev.is_some_and(|p| p.is_ascii_uppercase()) && next.is_some_and(|n| n.is_ascii_lowercase());
            if lower_before || acronym_end {
                sep(&mut out);
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else {
            sep(&mut out);
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "col_");
    }
    out
}

/// The names of `columns` under `naming`, each unique (a clash gets `_2`, `_3`, …).
fn names(columns: &Table, naming: Naming) -> Vec<String> {
    let mut seen = HashSet::new();
    columns
        .columns
        .iter()
        .map(|c| {
            let base = if naming == Naming::Snake { snake_case(&c.name) } else { c.name.clone() };
            let mut name = base.clone();
            let mut k = 2;
            while !seen.insert(name.clone()) {
                name = format!("{base}_{k}");
                k += 1;
            }
            name
        })
        .collect()
}

/// What a table's chunks become: the schema, which float columns are whole numbers,
/// and the trace columns added per `run`.
pub struct Layout {
    schema: SchemaRef,
    /// Float columns (by position) written as `Int64`.
    whole: HashSet<usize>,
    /// The `application`, `process_id` and `swap_chain` of each run (the data API's
    /// per-frame tables); empty for none.
    traces: Vec<TraceLabels>,
    /// Which of the full layout's columns (by position) are built; `None` for all
    /// ([`Layout::select`]).
    keep: Option<Vec<bool>>,
}

/// The trace columns the data API adds to a per-frame table, after `run`.
const TRACE_COLUMNS: [(&str, DataType); 3] = [
    ("application", DataType::Utf8View),
    ("process_id", DataType::Int64),
    ("swap_chain", DataType::Utf8View),
];

/// A run's trace: its application, process id and swap chain.
pub type TraceLabels = (String, Option<i64>, Option<String>);

impl Layout {
    /// The layout of `columns` (a table without rows) under `naming`; `whole` names the
    /// float columns to write as integers, `traces` each run's trace columns.
    #[must_use]
    pub fn new(columns: &Table, naming: Naming, whole: &HashSet<String>, traces: Vec<TraceLabels>) -> Self {
        let names = names(columns, naming);
        let mut whole_at = HashSet::new();
        let mut fields: Vec<Field> = Vec::with_capacity(columns.columns.len() + 3);
        for (i, (c, name)) in columns.columns.iter().zip(&names).enumerate() {
            let mut ty = match framescope_parquet::data_type(&c.cells) {
                DataType::Utf8 => DataType::Utf8View,
                other => other,
            };
            if naming == Naming::Snake && matches!(c.cells, Cells::Float(_)) && whole.contains(&c.name) {
                ty = DataType::Int64;
                whole_at.insert(i);
            }
            let field = Field::new(name, ty, true);
            fields.push(if naming == Naming::Snake {
                field.with_metadata(HashMap::from([(NAME_KEY.to_owned(), c.name.clone())]))
            } else {
                field
            });
        }
        if !traces.is_empty() {
            let at = fields.iter().position(|f| f.name() == "run").map_or(0, |p| p + 1);
            for (k, (name, ty)) in TRACE_COLUMNS.iter().enumerate() {
                fields.insert(at + k, Field::new(*name, ty.clone(), true));
            }
        }
        Self { schema: Arc::new(Schema::new(fields)), whole: whole_at, traces, keep: None }
    }

    /// The layout with only the columns named `names` (in the table's order): the
    /// others are not built at all (a lazy scan's projection). An error names a column
    /// the table does not have.
    pub fn select(mut self, names: &[String]) -> Result<Self, String> {
        let fields = self.schema.fields();
        let mut keep = vec![false; fields.len()];
        for name in names {
            let Some(i) = fields.iter().position(|f| f.name() == name) else {
                return Err(format!("columns: the table has no column {name:?}"));
            };
            keep[i] = true;
        }
        let indices: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
        self.schema = Arc::new(self.schema.project(&indices).map_err(|e| e.to_string())?);
        self.keep = Some(keep);
        Ok(self)
    }

    /// Whether the full layout's column at `position` is built.
    fn kept(&self, position: usize) -> bool {
        self.keep.as_ref().is_none_or(|k| k.get(position).copied().unwrap_or(false))
    }

    /// A chunk (with the layout's columns) as a record batch of the selected columns.
    pub fn batch(&self, chunk: &Table) -> Result<RecordBatch, ArrowError> {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(chunk.columns.len() + 3);
        // The trace columns go after `run` (at the front without one).
        let at = (!self.traces.is_empty())
            .then(|| chunk.columns.iter().position(|c| c.name == "run").map_or(0, |p| p + 1));
        for (i, c) in chunk.columns.iter().enumerate() {
            if at == Some(i) {
                self.trace_arrays(chunk, i, &mut arrays)?;
            }
            let position = if at.is_some_and(|a| i >= a) { i + TRACE_COLUMNS.len() } else { i };
            if !self.kept(position) {
                continue;
            }
            arrays.push(match (&c.cells, self.whole.contains(&i)) {
                (Cells::Float(v), true) => Arc::new(v.iter().map(|x| whole(*x)).collect::<Int64Array>()),
                (Cells::Text(v), _) => Arc::new(views(v.iter().map(Option::as_deref))),
                (Cells::Labels { values, keys }, _) => labels(values.iter().map(|v| Some(v.as_str())), keys)?,
                (cells, _) => framescope_parquet::array(cells),
            });
        }
        if at == Some(chunk.columns.len()) {
            self.trace_arrays(chunk, chunk.columns.len(), &mut arrays)?;
        }
        let rows = RecordBatchOptions::new().with_row_count(Some(chunk.rows()));
        RecordBatch::try_new_with_options(self.schema.clone(), arrays, &rows)
    }

    /// The selected trace columns of a chunk (`application`, `process_id`,
    /// `swap_chain`, each row's from its `run`), which sit at `at` in the full layout.
    fn trace_arrays(&self, chunk: &Table, at: usize, arrays: &mut Vec<ArrayRef>) -> Result<(), ArrowError> {
        if !(0..TRACE_COLUMNS.len()).any(|k| self.kept(at + k)) {
            return Ok(());
        }
        let runs = match chunk.column("run") {
            Some(Cells::Int(v)) => v.clone(),
            _ => vec![None; chunk.rows()],
        };
        let keys: Vec<Option<u32>> = runs
            .iter()
            .map(|r| r.and_then(|r| u32::try_from(r).ok()).filter(|&r| (r as usize) < self.traces.len()))
            .collect();
        if self.kept(at) {
            arrays.push(labels(self.traces.iter().map(|t| Some(t.0.as_str())), &keys)?);
        }
        if self.kept(at + 1) {
            let process =
                keys.iter().map(|k| k.and_then(|k| self.traces[k as usize].1)).collect::<Int64Array>();
            arrays.push(Arc::new(process));
        }
        if self.kept(at + 2) {
            arrays.push(labels(self.traces.iter().map(|t| t.2.as_deref()), &keys)?);
        }
        Ok(())
    }

    /// Every chunk of `table` as record batches.
    pub fn batches(&self, table: &impl TableChunks) -> Result<Vec<RecordBatch>, ArrowError> {
        let mut out = Vec::new();
        table.each_chunk(|chunk| {
            out.push(self.batch(chunk)?);
            Ok::<(), ArrowError>(())
        })?;
        Ok(out)
    }

    /// The record batches as a stream for Python.
    #[must_use]
    pub fn stream(&self, batches: Vec<RecordBatch>) -> ArrowStream {
        ArrowStream { inner: Mutex::new(Some((self.schema.clone(), batches))) }
    }
}

/// Text as an Arrow string view array (what polars holds, so it is not converted),
/// each distinct text stored once (a frame's present mode repeats on every row).
fn views<'s>(cells: impl Iterator<Item = Option<&'s str>>) -> StringViewArray {
    let (n, _) = cells.size_hint();
    let mut b = StringViewBuilder::with_capacity(n).with_deduplicate_strings();
    for c in cells {
        b.append_option(c);
    }
    b.finish()
}

/// Each row's text from a short list (`values`, by index in `keys`) as a string view
/// array: the list's views copied per row, its texts stored once.
fn labels<'s>(
    values: impl Iterator<Item = Option<&'s str>>,
    keys: &[Option<u32>],
) -> Result<ArrayRef, ArrowError> {
    let distinct = views(values);
    arrow_select::take::take(&distinct, &UInt32Array::from(keys.to_vec()), None)
}

/// A whole number, or null (NaN, or a value that is not whole).
fn whole(x: f64) -> Option<i64> {
    (x.is_finite() && x.fract() == 0.0 && x.abs() < 9.0e15).then_some(x as i64)
}

/// Whether every present value of `values` is a whole number (and one is present).
pub fn all_whole(values: impl Iterator<Item = f64>) -> bool {
    let mut any = false;
    for v in values {
        if v.is_nan() {
            continue;
        }
        if whole(v).is_none() {
            return false;
        }
        any = true;
    }
    any
}

/// A table on its way to Python: read once through the Arrow PyCapsule stream
/// interface (`pl.DataFrame(stream)`, `pyarrow.table(stream)`).
#[pyclass(module = "framescope._framescope", frozen)]
pub struct ArrowStream {
    inner: Mutex<Option<(SchemaRef, Vec<RecordBatch>)>>,
}

#[pymethods]
impl ArrowStream {
    /// The Arrow C stream of the table (it can be taken once).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let taken = self.inner.lock().ok().and_then(|mut g| g.take());
        let Some((schema, batches)) = taken else {
            return Err(pyo3::exceptions::PyRuntimeError::new_err("this table was already read"));
        };
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_snake_case() {
        let cases = [
            ("MsBetweenPresents", "ms_between_presents"),
            ("CPUCoreUtil%[ 0]", "cpu_core_util_pct_0"),
            ("spike.MsInPresentAPI", "spike_ms_in_present_api"),
            ("summary.avg_fps", "summary_avg_fps"),
            ("msGPUActive", "ms_gpu_active"),
            ("CPUStartQPC", "cpu_start_qpc"),
            ("GPU Temp (°C)", "gpu_temp_c"),
            ("frame_time_ms", "frame_time_ms"),
            ("1% low", "col_1_pct_low"),
        ];
        for (name, want) in cases {
            assert_eq!(snake_case(name), want, "{name}");
        }
    }

    #[test]
    fn whole_columns() {
        assert!(all_whole([1.0, f64::NAN, -3.0].into_iter()));
        assert!(!all_whole([1.0, 2.5].into_iter()));
        assert!(!all_whole([f64::NAN].into_iter()));
    }
}
