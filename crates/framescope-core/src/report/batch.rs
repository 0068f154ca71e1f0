//! `framescope report --format csv`: one line per run, one column per figure, for
//! spreadsheets and batch jobs over many captures (`cli-report.md`).
//!
//! A column is named as the run's JSON keys joined with `.` (`summary.avg_fps`,
//! `latency.pcl_ms`, `conventions.frameview.low_1pct_fps`); a null is an empty cell.
//! The columns are fixed ([`COLUMNS`]), so the header is written before the first
//! file is read and rows stream as files finish. What the JSON holds as lists or as
//! maps whose keys differ between captures is summarised or left out:
//!
//! * `present_modes`: the modes joined with `; `;
//! * `warnings`: how many warnings the run has (their text is in `--json`);
//! * `health.spikes`: `action=count` for every action, joined with `; `;
//! * left out: `stutters.frames`, `osc.oscillating` and `health.actions` (frame
//!   indices and names; the counts are `stutters.count` and
//!   `osc.oscillating_frames`), and `telemetry` and `system` (their names differ per capture).
//!
//! A file that could not be reported gives a row with `file`, `error.message` and
//! `error.line` and every figure empty. Cells are quoted as RFC 4180 says (the `csv`
//! crate: a field with a comma, quote or line break is quoted, quotes doubled); a text
//! cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`
//! (`escape::formula`: a spreadsheet would run it as a formula), numbers never do.
//!
//! [`table`] is the same rows typed (text, whole numbers, `f64`, booleans: [`kind`]),
//! for `report --format parquet` and the Python package's `batch`.

use super::tabular::{Cells, Table};
use super::{Run, RunEntry};
use serde_json::Value;
use std::io::Write;

/// Every column, in order.
pub const COLUMNS: &[&str] = &[
    "file",
    "format",
    "format_version",
    "application",
    "process_id",
    "swap_chain",
    "runtime",
    "present_modes",
    "frame_time",
    "sampled",
    "samples",
    "frames",
    "dropped_frames",
    "duration_ms",
    "warnings",
    "summary.avg_fps",
    "summary.min_fps",
    "summary.max_fps",
    "summary.p50_ms",
    "summary.p90_ms",
    "summary.p95_ms",
    "summary.p99_ms",
    "summary.p99_9_ms",
    "summary.low_1pct_fps",
    "summary.low_0_1pct_fps",
    "pacing.steady_fps",
    "pacing.mostly_steady_fps",
    "pacing.typical_fps",
    "pacing.slow_time_fraction",
    "pacing.excess_time_fraction",
    "stutters.count",
    "stutters.time_fraction",
    "osc.flag",
    "osc.p90_iqr_ms",
    "osc.p90_iqr_ratio",
    "osc.oscillating_frames",
    "health.spikes",
    "latency.pcl_ms",
    "latency.i2fs_ms",
    "latency.fs2p_ms",
    "latency.p2d_ms",
    "latency.pc_latency_column_mean_ms",
    "latency.pc_latency_min_ms",
    "latency.pc_latency_max_ms",
    "latency.display_latency_mean_ms",
    "latency.click_to_photon_mean_ms",
    "latency.render_present_latency_mean_ms",
    "latency.all_input_to_photon_mean_ms",
    "latency.animation_error_mean_abs_ms",
    "latency.animation_error_p99_abs_ms",
    "latency.animation_error_over_1ms_fraction",
    "limiter.main",
    "limiter.gpu_time_fraction",
    "limiter.cpu_time_fraction",
    "limiter.neither_time_fraction",
    "limiter.classified_frames",
    "limiter.gpu_busy_mean_ms",
    "limiter.cpu_busy_mean_ms",
    "limiter.gpu_busy_share",
    "vsync.refresh_hz",
    "vsync.period_ms",
    "vsync.confidence",
    "vsync.anchor_ms",
    "vsync.source",
    "frame_types.application.count",
    "frame_types.application.frames",
    "frame_types.application.fps",
    "frame_types.application.summary.avg_fps",
    "frame_types.application.summary.min_fps",
    "frame_types.application.summary.max_fps",
    "frame_types.application.summary.p50_ms",
    "frame_types.application.summary.p90_ms",
    "frame_types.application.summary.p95_ms",
    "frame_types.application.summary.p99_ms",
    "frame_types.application.summary.p99_9_ms",
    "frame_types.application.summary.low_1pct_fps",
    "frame_types.application.summary.low_0_1pct_fps",
    "frame_types.generated.count",
    "frame_types.generated.frames",
    "frame_types.generated.fps",
    "frame_types.generated.summary.avg_fps",
    "frame_types.generated.summary.min_fps",
    "frame_types.generated.summary.max_fps",
    "frame_types.generated.summary.p50_ms",
    "frame_types.generated.summary.p90_ms",
    "frame_types.generated.summary.p95_ms",
    "frame_types.generated.summary.p99_ms",
    "frame_types.generated.summary.p99_9_ms",
    "frame_types.generated.summary.low_1pct_fps",
    "frame_types.generated.summary.low_0_1pct_fps",
    "conventions.capframex.average_fps",
    "conventions.capframex.min_fps",
    "conventions.capframex.max_fps",
    "conventions.capframex.p99_fps",
    "conventions.capframex.p95_fps",
    "conventions.capframex.median_fps",
    "conventions.capframex.p5_fps",
    "conventions.capframex.p1_fps",
    "conventions.capframex.p0_2_fps",
    "conventions.capframex.p0_1_fps",
    "conventions.capframex.low_1pct_avg_fps",
    "conventions.capframex.low_0_1pct_avg_fps",
    "conventions.capframex.low_1pct_integral_fps",
    "conventions.capframex.low_0_1pct_integral_fps",
    "conventions.capframex.stuttering_time_fraction",
    "conventions.capframex.low_fps_time_fraction",
    "conventions.capframex.gpu_active_deviation_pct",
    "conventions.frameview.average_fps",
    "conventions.frameview.low_1pct_fps",
    "conventions.frameview.low_0_1pct_fps",
    "conventions.frameview.fps_10pct",
    "conventions.frameview.fps_5pct",
    "conventions.frameview.fps_1pct",
    "conventions.frameview.fps_0_1pct",
    "conventions.presentmon.average_fps",
    "conventions.presentmon.p1_fps",
    "conventions.presentmon.p5_fps",
    "conventions.presentmon.min_fps",
    "conventions.presentmon.max_fps",
    "conventions.mangohud.average_fps",
    "conventions.mangohud.low_1pct_fps",
    "conventions.mangohud.low_0_1pct_fps",
    "conventions.mangohud.p97_fps",
    "error.message",
    "error.line",
    // Added after the first published order (issue 38): efficiency (metrics.md §15),
    // FrameView's power figures, a sampled log's own tool figures (§10).
    "efficiency.fps_per_watt",
    "efficiency.power_source",
    "efficiency.power_mean_w",
    "efficiency.cpu_fps_per_watt",
    "efficiency.cpu_power_mean_w",
    "conventions.frameview.gpu_nv_power_w",
    "conventions.frameview.cpu_package_power_w",
    "conventions.frameview.perf_per_watt_pcat",
    "tool_figures.tool",
    "tool_figures.avg_fps",
    "tool_figures.low_1pct_fps",
    "tool_figures.low_0_1pct_fps",
    "tool_figures.min_fps",
    "tool_figures.max_fps",
    // Issue 38: a latency-measurement log's stages (pyrofling).
    "latency.input_to_present_mean_ms",
    "latency.present_to_gpu_idle_mean_ms",
    "latency.gpu_idle_to_display_mean_ms",
    "latency.input_to_display_mean_ms",
    "latency.animation_error_displayed_mean_abs_ms",
];

#[cfg(test)]
/// JSON keys of a run that have no column of their own (see the module docs).
pub const LEFT_OUT: &[&str] = &[
    "stutters.frames",
    "osc.oscillating",
    "health.actions",
    "telemetry",
    "system",
    "other_traces",
    "tool_summary",
];

/// The cells of one run, in [`COLUMNS`] order.
#[must_use]
pub fn row(entry: &RunEntry) -> Vec<String> {
    let json = serde_json::to_value(entry).unwrap_or(Value::Null);
    COLUMNS.iter().map(|c| cell(entry, &json, c)).collect()
}

fn cell(entry: &RunEntry, json: &Value, column: &str) -> String {
    match value(entry, json, column) {
        Value::Null => String::new(),
        Value::String(s) => s,
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        // Lists and objects have their own rule in `value` or are left out.
        other => other.to_string(),
    }
}

/// The JSON value behind a column's cell: the run's key path, or the column's own rule
/// (`warnings`, `health.spikes`, `present_modes`).
fn value(entry: &RunEntry, json: &Value, column: &str) -> Value {
    match (column, entry) {
        ("warnings", RunEntry::Run(r)) => return Value::from(r.warnings.len()),
        ("warnings", RunEntry::Etl(r)) => return Value::from(r.warnings.len()),
        ("health.spikes", RunEntry::Run(r)) => {
            return r.health.as_ref().map_or(Value::Null, |_| spikes(r).into());
        }
        ("present_modes", RunEntry::Run(r)) => return Value::from(r.present_modes.join("; ")),
        _ => {}
    }
    column.split('.').try_fold(json, |v, key| v.get(key)).cloned().unwrap_or(Value::Null)
}

/// What a column of the typed runs table holds (Parquet, DataFrames).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text.
    Text,
    /// Whole numbers (counts, ids, whole-FPS figures, a line number).
    Int,
    /// True or false.
    Bool,
    /// Every other figure: `f64`.
    Float,
}

/// Text columns.
const TEXT: &[&str] = &[
    "file",
    "format",
    "format_version",
    "application",
    "swap_chain",
    "runtime",
    "present_modes",
    "frame_time",
    "health.spikes",
    "vsync.source",
    "limiter.main",
    "error.message",
    "efficiency.power_source",
    "tool_figures.tool",
];

/// Whole-number columns.
const INT: &[&str] = &[
    "process_id",
    "samples",
    "frames",
    "dropped_frames",
    "warnings",
    "pacing.steady_fps",
    "pacing.mostly_steady_fps",
    "pacing.typical_fps",
    "stutters.count",
    "osc.oscillating_frames",
    "limiter.classified_frames",
    "frame_types.application.count",
    "frame_types.application.frames",
    "frame_types.generated.count",
    "frame_types.generated.frames",
    "error.line",
];

/// The kind of a column of [`COLUMNS`].
#[must_use]
pub fn kind(column: &str) -> Kind {
    if TEXT.contains(&column) {
        Kind::Text
    } else if INT.contains(&column) {
        Kind::Int
    } else if matches!(column, "sampled" | "osc.flag") {
        Kind::Bool
    } else {
        Kind::Float
    }
}

/// The typed runs table: a row per entry, the columns of [`COLUMNS`] with the
/// [``kind` of each, the same values as the JSON (a null where it has none).
#[must_use]
pub fn table(entries: &[RunEntry]) -> Table {
    let jsons: Vec<Value> = entries.iter().map(|e| serde_json::to_value(e).unwrap_or(Value::Null)).collect();
    let mut t = Table::default();
    for &column in COLUMNS {
        let values = entries.iter().zip(&jsons).map(|(e, j)| value(e, j, column));
        let cells = match kind(column) {
            Kind::Text => Cells::Text(values.map(|v| v.as_str().map(str::to_owned)).collect()),
            Kind::Int => Cells::Int(values.map(|v| v.as_i64()).collect()),
            Kind::Bool => Cells::Bool(values.map(|v| v.as_bool()).collect()),
            Kind::Float => Cells::Float(values.map(|v| v.as_f64().unwrap_or(f64::NAN)).collect()),
        };
        t.push(column, cells);
    }
    t
}

fn spikes(r: &Run) -> String {
    r.health.as_ref().map_or_else(String::new, |h| {
        let parts: Vec<String> = h.spikes.iter().map(|(k, v)| format!("{k}={}", v.len())).collect();
        parts.join("; ")
    })
}

/// Writes CSV rows as they come: the header first, then one row per run, each
/// flushed so a reader of a pipe sees it at once.
pub struct CsvSink<W: Write> {
    writer: csv::Writer<W>,
}

impl<W: Write> CsvSink<W> {
    /// Writes the header.
    pub fn new(out: W) -> std::io::Result<Self> {
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(out);
        writer.write_record(COLUMNS).map_err(std::io::Error::other)?;
        writer.flush()?;
        Ok(Self { writer })
    }

    /// Writes the rows of one file's runs.
    pub fn write(&mut self, entries: &[RunEntry]) -> std::io::Result<()> {
        for e in entries {
            // Cells keep their line ends (quoted), never a file's control characters; a
            // text cell a spreadsheet would read as a formula gets a leading `'`.
            let cells = row(e);
            let texts = COLUMNS.iter().map(|c| kind(c) == Kind::Text);
            self.writer
                .write_record(cells.iter().zip(texts).map(|(c, text)| {
                    let c = super::escape::lines(c);
                    if text { super::escape::formula(&c).into_owned() } else { c.into_owned() }
                }))
                .map_err(into_io)?;
        }
        self.writer.flush()
    }
}

fn into_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::report::FailedRun;
    use crate::report::compare::tests::run;

    /// Every key of a run's JSON is a column or left out on purpose, and every column
    /// is a key of some run (the unit test run, a failed run, or the JSON shapes of
    /// frame types and vsync).
    #[test]
    fn batch_columns_are_the_json_keys() {
        let mut r = run(1.0);
        r.file = "a, \"quoted\"\nname.csv".into();
        r.present_modes = vec!["Hardware: Independent Flip".into(), "Composed: Flip".into()];
        let entry = RunEntry::Run(Box::new(r));
        let cells = row(&entry);
        assert_eq!(cells.len(), COLUMNS.len());
        let at = |name: &str| &cells[COLUMNS.iter().position(|c| *c == name).unwrap()];
        assert_eq!(at("summary.avg_fps"), "100.0");
        assert_eq!(at("stutters.count"), "3");
        assert_eq!(at("osc.flag"), "false");
        assert_eq!(at("latency.pcl_ms"), "");
        assert_eq!(at("present_modes"), "Hardware: Independent Flip; Composed: Flip");
        assert_eq!(at("warnings"), "0");
        let json = serde_json::to_value(&entry).unwrap();
        let mut keys = Vec::new();
        flatten(&json, String::new(), &mut keys);
        for k in keys {
            let covered = COLUMNS.contains(&k.as_str())
                || LEFT_OUT.iter().any(|l| k == *l || k.starts_with(&format!("{l}.")))
                || k.starts_with("health.");
            assert!(covered, "{k} has no column");
        }
        // RFC 4180: the file name's comma, quotes and line break survive a round trip.
        let mut sink = CsvSink::new(Vec::new()).unwrap();
        let failed = RunEntry::Failed(FailedRun::new("bad.csv", "bad.csv: not a capture".into()));
        sink.write(&[entry, failed]).unwrap();
        let bytes = sink.writer.into_inner().unwrap();
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
        assert_eq!(header, COLUMNS);
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][0], "a, \"quoted\"\nname.csv");
        assert_eq!(&rows[1][0], "bad.csv");
        assert_eq!(
            &rows[1][COLUMNS.iter().position(|c| *c == "error.message").unwrap()],
            "bad.csv: not a capture"
        );
        assert_eq!(&rows[1][COLUMNS.iter().position(|c| *c == "summary.avg_fps").unwrap()], "");
    }

    /// The typed table holds every cell the CSV has, with the same value: a column
    /// given the wrong kind would turn its values into nulls (a float in a whole-number
    /// column, a number in a text column).
    #[test]
    fn typed_table_keeps_every_value_of_the_csv() {
        let mut r = run(1.0);
        r.present_modes = vec!["Composed: Flip".into()];
        r.process_id = Some(4242);
        let entries = [RunEntry::Run(Box::new(r)), RunEntry::Failed(FailedRun::new("bad.csv", "no".into()))];
        let t = table(&entries);
        assert_eq!((t.rows(), t.columns.len()), (2, COLUMNS.len()));
        for (r, entry) in entries.iter().enumerate() {
            for (cell, column) in row(entry).iter().zip(&t.columns) {
                let typed = column.cells.text(r);
                match kind(&column.name) {
                    Kind::Float => assert_eq!(
                        typed.parse::<f64>().ok(),
                        cell.parse::<f64>().ok(),
                        "{}: {cell} vs {typed}",
                        column.name
                    ),
                    _ => assert_eq!(&typed, cell, "{}", column.name),
                }
            }
        }
        assert_eq!(t.column("stutters.count"), Some(&Cells::Int(vec![Some(3), None])));
        assert_eq!(t.column("osc.flag"), Some(&Cells::Bool(vec![Some(false), None])));
        assert_eq!(t.column("process_id"), Some(&Cells::Int(vec![Some(4242), None])));
    }

    pub(crate) fn flatten(v: &Value, prefix: String, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    flatten(x, key, out);
                }
            }
            Value::Null => {}
            _ => out.push(prefix),
        }
    }
}
