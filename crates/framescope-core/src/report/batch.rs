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
//! crate: a field with a comma, quote or line break is quoted, quotes doubled).

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
];

/// JSON keys of a run that have no column of their own (see the module docs).
pub const LEFT_OUT: &[&str] =
    &["stutters.frames", "osc.oscillating", "health.actions", "telemetry", "system", "other_traces"];

/// The cells of one run, in [`COLUMNS`] order.
#[must_use]
pub fn row(entry: &RunEntry) -> Vec<String> {
    let json = serde_json::to_value(entry).unwrap_or(Value::Null);
    COLUMNS.iter().map(|c| cell(entry, &json, c)).collect()
}

fn cell(entry: &RunEntry, json: &Value, column: &str) -> String {
    match (column, entry) {
        ("warnings", RunEntry::Run(r)) => return r.warnings.len().to_string(),
        ("warnings", RunEntry::Etl(r)) => return r.warnings.len().to_string(),
        ("health.spikes", RunEntry::Run(r)) => return spikes(r),
        ("present_modes", RunEntry::Run(r)) => return r.present_modes.join("; "),
        _ => {}
    }
    let value = column.split('.').try_fold(json, |v, key| v.get(key));
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        // Lists and objects have their own rule above or are left out.
        Some(other) => other.to_string(),
    }
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
            // Cells keep their line ends (quoted), never a file's control characters.
            let cells = row(e);
            self.writer
                .write_record(cells.iter().map(|c| super::escape::lines(c).into_owned()))
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
