//! XRFrameTools (fredemmott/XRFrameTools, MIT): an OpenXR API layer for Windows that
//! logs every frame to a binary log and converts it to CSV ("Convert log files to
//! CSV…" in its window, or `binlog-to-csv [--frames-per-row COUNT]`).
//!
//! Layout (from its `CSVWriter.cpp` and `MetricsAggregator.cpp`, v0.1–v0.3; no public
//! capture found): a UTF-8 byte-order mark, then the header
//! `Time (µs),Time (UTC),Time (Local),[Display XrTime,]Frame Interval (µs),FPS,Count,App
//! CPU (µs),Render CPU (µs),Render GPU (µs),Wait CPU (µs),Begin CPU (µs),Submit CPU
//! (µs),VRAM Budget,VRAM Current Usage ,VRAM Current Reservation,VRAM Available for
//! Reservation,GPU API,[GPU Clock Min (KHz),…,GPU P-State Max,]GPU Limit Bits,GPU
//! Thermal Limit,GPU Power Limit,GPU API Limit[,NVEnc[i] Process,NVEnc[i] FPS,NVEnc[i]
//! Latency (µs)…]`.
//! * **One row aggregates `Count` frames** (`--frames-per-row`, 10 by default; the
//!   window's conversion uses the default). `Frame Interval` is the mean interval
//!   between the `xrEndFrame` returns of those frames, `FPS` = 10⁶ / that mean, the CPU
//!   and GPU times are means, `Time` is the end of the row's last frame since the first
//!   frame. A row of `Count` 1 is one frame.
//! * Rows of 1 frame throughout: a per-frame capture (frame time = the interval).
//!   Otherwise a sampled log (`metrics.md` §10) whose samples are exact: row `i` stands
//!   for `Count_i` frames over `Δt_i = Count_i · interval_i`.
//! * `Display XrTime` (since v0.2, April 2025) is the predicted display time of the
//!   row's last frame, an OpenXR `XrTime` in ns: its step per frame is the headset's
//!   display period whenever the app keeps up, so the headset's refresh rate is found
//!   from the shortest common step (see [`headset_period_ns`]) and offered as the
//!   target.
//! * Quirks: older logs spell `Reserveration`; booleans are `true`/`false` (older) or
//!   `1`/`0`; `Submit CPU` of a row of several frames is the last frame's divided by
//!   `Count` (the aggregator assigns it instead of adding it): read as written; VRAM in
//!   bytes, clocks in kHz.

use super::builder::SkipReason;
use super::sampled::{Interval, NotSample, Samples, frame_time_from_ms};
use super::table::{Head, each_row, number};
use super::values::Cell;
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, ColumnKind, FileInfo, Format, TraceMeta, Warning, WarningKind};
use std::io::Read;
use std::path::Path;

/// The row's end since the first frame.
pub const TIME: &str = "Time (µs)";
/// The mean interval between the frames of the row.
pub const FRAME_INTERVAL: &str = "Frame Interval (µs)";
/// The frames a row aggregates.
pub const COUNT: &str = "Count";
/// The predicted display time of the row's last frame (ns).
const DISPLAY_TIME: &str = "Display XrTime";

/// True for XRFrameTools' header: its time, interval and count columns.
#[must_use]
pub fn sniff(lower: &[String]) -> bool {
    let has = |n: &str| lower.iter().any(|h| h == &n.to_lowercase());
    has(TIME) && has(FRAME_INTERVAL) && has(COUNT)
}

/// How one kept column's cells become values.
struct Kept {
    pos: usize,
    column: usize,
    scale: f64,
}

/// A column's name, meaning and factor from its header name: µs become ms, bytes MiB,
/// kHz MHz; `None` for the columns read otherwise or not at all.
fn role(name: &str) -> Option<(String, ColumnKind, f64)> {
    let name = name.trim().replace("Reserveration", "Reservation");
    if let Some(base) = name.strip_suffix(" (µs)") {
        let kind = match base {
            "Time" | "Frame Interval" => return None,
            "App CPU" | "Render CPU" => ColumnKind::EngineThread,
            "Render GPU" => ColumnKind::EngineGpu,
            b if b.starts_with("NVEnc") => ColumnKind::Telemetry,
            _ => ColumnKind::Other,
        };
        return Some((format!("{base} (ms)"), kind, 1e-3));
    }
    if let Some(base) = name.strip_suffix(" (KHz)") {
        return Some((format!("{base} (MHz)"), ColumnKind::Telemetry, 1e-3));
    }
    if name.starts_with("VRAM ") {
        return Some((format!("{name} (MiB)"), ColumnKind::Telemetry, 1.0 / 1_048_576.0));
    }
    match name.as_str() {
        "Time (UTC)" | "Time (Local)" | "FPS" | "Count" | "GPU API" | DISPLAY_TIME => None,
        n if n.ends_with(" Process") => None,
        // `GPU Power Limit` is a 0/1 flag, not a power: named as PresentMon's flags are.
        n if n.ends_with(" Limit") => Some((format!("{n}ed"), ColumnKind::Telemetry, 1.0)),
        n if n.ends_with(" FPS") => Some((name, ColumnKind::Telemetry, 1.0)),
        _ => Some((name, ColumnKind::Other, 1.0)),
    }
}

/// A cell as a number: `true`/`false` as 1/0.
fn value(cell: &[u8], decimal_comma: bool) -> Cell {
    match cell {
        c if c.eq_ignore_ascii_case(b"true") => Cell::Number(1.0),
        c if c.eq_ignore_ascii_case(b"false") => Cell::Number(0.0),
        c => number(c, decimal_comma),
    }
}

/// The state of the rows while they are read.
struct XrRows {
    time: usize,
    interval: usize,
    count: usize,
    display: Option<usize>,
    utc: Option<usize>,
    api: Option<usize>,
    kept: Vec<Kept>,
    header_len: usize,
    decimal_comma: bool,
    samples: Samples,
    /// Per sample: frames in it, and the predicted display time of its last frame.
    counts: Vec<f64>,
    display_ns: Vec<f64>,
    first_utc: Option<String>,
    gpu_api: Option<String>,
}

impl XrRows {
    /// The columns of `head`; the error names what is missing.
    fn new(head: &Head) -> Result<Self, String> {
        let find = |n: &str| head.find(n);
        let (Some(time), Some(interval), Some(count)) = (find(TIME), find(FRAME_INTERVAL), find(COUNT))
        else {
            return Err(format!("no `{TIME}`, `{FRAME_INTERVAL}` or `{COUNT}` column"));
        };
        let mut samples = Samples::new("Frame Interval");
        let mut kept = Vec::new();
        for (pos, name) in head.header.iter().enumerate() {
            if head.find(name) != Some(pos) {
                continue;
            }
            if let Some((label, kind, scale)) = role(name) {
                kept.push(Kept { pos, column: samples.add_column(label, kind, false), scale });
            }
        }
        Ok(Self {
            time,
            interval,
            count,
            display: find(DISPLAY_TIME),
            utc: find("Time (UTC)"),
            api: find("GPU API"),
            kept,
            header_len: head.width(),
            decimal_comma: head.decimal_comma(),
            samples,
            counts: Vec::new(),
            display_ns: Vec::new(),
            first_utc: None,
            gpu_api: None,
        })
    }

    /// A number of the row, NaN where there is none.
    fn num(&self, rec: &csv::ByteRecord, pos: usize) -> f64 {
        match rec.get(pos).map(|c| value(c, self.decimal_comma)) {
            Some(Cell::Number(v)) => v,
            _ => f64::NAN,
        }
    }

    /// One data row: a sample of `Count` frames of mean interval `Frame Interval`,
    /// ending at `Time`; a row without them is skipped with its reason.
    fn row(&mut self, rec: &csv::ByteRecord, line: u64) {
        if rec.len() < self.header_len {
            self.samples
                .skips
                .add(line, SkipReason::Truncated { fields: rec.len(), header: self.header_len });
            return;
        }
        let (end_us, count) = (self.num(rec, self.time), self.num(rec, self.count));
        if !end_us.is_finite() || end_us.abs() > 1e18 {
            self.samples.skips.add(line, SkipReason::InvalidFrameTime);
            return;
        }
        let ft = match rec.get(self.interval).map(|c| number(c, self.decimal_comma)) {
            Some(Cell::Number(us)) => frame_time_from_ms(Cell::Number(us / 1000.0)),
            Some(c) => frame_time_from_ms(c),
            None => Err(SkipReason::MissingFrameTime),
        };
        let whole = count >= 1.0 && count.fract() == 0.0 && count <= 1e6;
        let ft = if whole { ft } else { Err(SkipReason::InvalidFrameTime) };
        let interval = Interval::Closes(ft.as_ref().map_or(f64::NAN, |ft| ft * count));
        if !self.samples.row(line, ft.map_err(NotSample::Rate), interval, end_us / 1000.0) {
            return;
        }
        for k in &self.kept {
            let v = self.num(rec, k.pos);
            self.samples.set_value(k.column, v * k.scale);
        }
        self.counts.push(count);
        self.display_ns.push(self.display.map_or(f64::NAN, |d| self.num(rec, d)));
        let text = |i: Option<usize>| {
            i.and_then(|i| rec.get(i))
                .map(|c| String::from_utf8_lossy(c).trim().to_owned())
                .filter(|t| !t.is_empty())
        };
        if self.first_utc.is_none() {
            self.first_utc = text(self.utc);
        }
        if self.gpu_api.is_none() {
            self.gpu_api = text(self.api);
        }
    }
}

/// The headset's display period (ns) from the predicted display times of the samples
/// (`display_ns`, the last frame of each) and their frame counts: each step divided by
/// its frames; the shortest common step — the median of the steps within 3 % of the
/// 10th percentile, when at least a quarter of the steps (and 3) are there and it is
/// a rate of 30–240 Hz. Frames the app missed make longer steps, never shorter ones.
#[must_use]
pub fn headset_period_ns(display_ns: &[f64], counts: &[f64]) -> Option<f64> {
    let mut steps: Vec<f64> = display_ns
        .windows(2)
        .zip(counts.iter().skip(1))
        .map(|(w, &n)| (w[1] - w[0]) / n)
        .filter(|s| s.is_finite() && *s > 0.0)
        .collect();
    steps.sort_by(f64::total_cmp);
    let p10 = *steps.get(steps.len() / 10)?;
    let band: Vec<f64> = steps.iter().copied().filter(|s| (s / p10 - 1.0).abs() <= 0.03).collect();
    let period = *band.get(band.len() / 2)?;
    let plausible = (1e9 / 240.0..=1e9 / 30.0).contains(&period);
    (plausible && band.len() >= 3 && band.len() * 4 >= steps.len()).then_some(period)
}

/// The note of a log whose rows aggregate frames: a sampled log whose frame count is
/// exact.
fn aggregated_note(interval_ms: Option<f64>, frames_per_row: f64) -> Warning {
    let every = interval_ms.map_or_else(String::new, |ms| format!(", one row every ~{ms:.0} ms"));
    Warning::note(format!(
        "XRFrameTools' CSV conversion aggregated up to {frames_per_row} frames per row{every}: each row is a \
         sample of its frames' mean interval (Count frames over Count × Frame Interval); figures weight the \
         samples by their frames, so the frame count is exact but pacing, stutters and frame health need one \
         frame per row (convert with binlog-to-csv --frames-per-row 1)"
    ))
    .with_kind(WarningKind::SampledLog)
}

/// `DCS 2025-06-01 20-15-00 UTC` → `DCS`: the log is named after the executable, the
/// date, the time and the zone.
fn application(path: &Path) -> String {
    let stem = super::sampled::file_stem(path);
    let parts: Vec<&str> = stem.split(' ').collect();
    let dated = parts.len() >= 4 && {
        let date = parts[parts.len() - 3].as_bytes();
        date.len() == 10 && date[4] == b'-' && date[..4].iter().all(u8::is_ascii_digit)
    };
    if dated { parts[..parts.len() - 3].join(" ") } else { stem }
}

/// Reads an XRFrameTools CSV whose head was read already.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let mut state = XrRows::new(head)
        .map_err(|m| LoadError::new(path, Some(head.header_line), LoadErrorKind::NotACapture(m)))?;
    state.samples.rows = each_row(path, head, reader, progress, |row, line| match row {
        Ok(rec) => state.row(rec, line),
        Err(reason) => state.samples.skips.add(line, reason),
    })?;
    finish(path, state)
}

/// The capture of the rows read: one trace, per frame when every row is one frame,
/// else sampled; the headset's rate as target and system fact.
fn finish(path: &Path, state: XrRows) -> Result<Capture, LoadError> {
    let XrRows { samples, counts, display_ns, first_utc, gpu_api, .. } = state;
    if let Some(why) = samples.why_empty() {
        let trace = samples.finish(TraceMeta::named(application(path)), Vec::new());
        return Err(super::sampled::no_frames(path, why, &trace));
    }
    let per_frame = counts.iter().all(|&c| c <= 1.0);
    let interval = samples.interval_ms();
    let mut trace = samples.finish(TraceMeta::named(application(path)), Vec::new());
    let frames_per_row = counts.iter().copied().fold(0.0, f64::max);
    let mut system = vec![("frames per row".to_owned(), format!("{frames_per_row}"))];
    let period_ns = headset_period_ns(&display_ns, &counts);
    let mut warnings = Vec::new();
    if per_frame {
        trace.frames.sample_ms = Vec::new();
        trace.frames.stated_period_ms = period_ns.map(|p| p / 1e6);
    } else {
        warnings.push(aggregated_note(interval, frames_per_row));
    }
    if let Some(p) = period_ns {
        let text = format!("{:.2} Hz ({:.3} ms)", 1e9 / p, p / 1e6);
        system.push(("headset refresh (from Display XrTime)".to_owned(), text));
    } else if display_ns.iter().any(|d| d.is_finite()) {
        warnings.push(Warning::note(
            "the headset's refresh rate could not be found from Display XrTime (no common shortest step \
             between predicted display times)",
        ));
    }
    system.extend(first_utc.map(|t| ("started (UTC)".to_owned(), t)));
    system.extend(gpu_api.map(|t| ("GPU API".to_owned(), t)));
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::XrFrameTools,
        format_version: if per_frame { "CSV, one frame per row" } else { "CSV, frames aggregated per row" }
            .into(),
        system,
        dropped_known: false,
        target_fps: period_ns.map(|p| 1e9 / p),
    };
    Ok(Capture { info, traces: vec![trace], warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_and_its_columns() {
        let lower = |h: &str| h.split(',').map(str::to_lowercase).collect::<Vec<_>>();
        assert!(sniff(&lower("Time (µs),Time (UTC),Frame Interval (µs),FPS,Count")));
        assert!(!sniff(&lower("Time (µs),Frame Interval (µs),FPS")));
        assert_eq!(
            role("App CPU (µs)").map(|r| (r.0, r.1)),
            Some(("App CPU (ms)".into(), ColumnKind::EngineThread))
        );
        assert_eq!(role("Render GPU (µs)").map(|r| r.1), Some(ColumnKind::EngineGpu));
        assert_eq!(role("GPU Clock Max (KHz)").map(|r| r.0), Some("GPU Clock Max (MHz)".into()));
        let vram = role("VRAM Current Reserveration").map(|r| r.0);
        assert_eq!(vram, Some("VRAM Current Reservation (MiB)".into()));
        assert_eq!(
            role("GPU Thermal Limit").map(|r| (r.0, r.1)),
            Some(("GPU Thermal Limited".into(), ColumnKind::Telemetry))
        );
        assert!(role("Display XrTime").is_none() && role("Count").is_none() && role("Time (µs)").is_none());
        assert_eq!(application(Path::new("/l/DCS World 2025-06-01 20-15-00 UTC.csv")), "DCS World");
        assert_eq!(application(Path::new("/l/run.csv")), "run");
    }

    /// 90 Hz (11 111 111 ns): steps of 1, 1, 2 (a missed frame), 1 period per frame,
    /// one row of 2 frames over 2 periods; the shortest common step is the period.
    #[test]
    fn the_headset_period_is_the_shortest_common_step() {
        let p = 11_111_111.0;
        let t = [0.0, p, 2.0 * p, 4.0 * p, 5.0 * p, 7.0 * p];
        let counts = [1.0, 1.0, 1.0, 1.0, 1.0, 2.0];
        assert_eq!(headset_period_ns(&t, &counts), Some(p));
        // Every step twice the period (reprojection throughout) reads as 45 Hz: the log
        // cannot tell; too few steps give nothing.
        assert_eq!(headset_period_ns(&[0.0, p], &[1.0, 1.0]), None);
        assert_eq!(headset_period_ns(&[0.0, 1e6, 2e6, 3e6], &[1.0; 4]), None, "1000 Hz is no headset");
    }
}
