//! NVIDIA App performance log (`formats.md` §8): the statistics CSV of the NVIDIA
//! overlay, `Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,Render
//! Latency(MSec),Average PC Latency(MSec),CPU Utilization(%),GPU1 …,`.
//!
//! It is a *sampled* log: one row every ~0.5 s, not one per frame. Each row becomes one
//! sample whose frame time is `1000 / FPS` (the row's FPS is the average over the
//! sample) and whose interval ends at the row's timestamp. The quirks handled: a
//! trailing comma in the header (one name more than the fields), `N/A` cells, rows
//! with PID 0 once the game has exited, rows without a timestamp (truncated rows, a
//! summary row added in a spreadsheet), an `Average PC Latency` of 0 meaning "none".
//!
//! The second half of this file is shared with the MSI Afterburner reader
//! (`afterburner.rs`): the column-wise sample store, frame-time checks, grouped
//! warnings and the "this log is sampled" note.

use super::Progress;
use super::builder::{InvalidCells, SkipLog, SkipReason};
use super::error::{LoadError, LoadErrorKind};
use super::records::{Records, Row};
use super::values::{Cell, parse_cell, trim};
use crate::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Trace, TraceMeta, Warning};
use std::io::BufRead;
use std::path::Path;

/// How often (in rows) the loaders look at the cancel flag.
pub(super) const CANCEL_CHECK_ROWS: u64 = 8192;

/// True when `head` (the first bytes of a file, after any byte-order mark) starts like
/// an NVIDIA App performance log: the first name of its first line is
/// `Timestamp (Elapsed time in seconds)`.
pub fn sniff(head: &[u8]) -> bool {
    let prefix = b"timestamp (elapsed";
    first_field(head).get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix))
}

/// Where the columns of an NVIDIA App header are.
struct Layout {
    /// Number of header names, trailing empty names (the trailing comma) removed.
    header_len: usize,
    timestamp: usize,
    process_id: Option<usize>,
    fps: usize,
    /// (field index, sample column index) of every kept column.
    columns: Vec<(usize, usize)>,
}

impl Layout {
    /// Finds the roles of the header's columns and adds the kept ones to `samples`;
    /// the error says what is missing.
    fn of(names: &[String], samples: &mut Samples) -> Result<Self, String> {
        let header_len = names.iter().rposition(|n| !n.is_empty()).map_or(0, |i| i + 1);
        let find = |want: &str| names.iter().position(|n| n.eq_ignore_ascii_case(want));
        let timestamp = names.iter().position(|n| n.to_ascii_lowercase().starts_with("timestamp"));
        let (Some(timestamp), Some(fps)) = (timestamp, find("FPS")) else {
            return Err("this looks like an NVIDIA App performance log, but its header has no \
                        `Timestamp (Elapsed time in seconds)` or no `FPS` column"
                .into());
        };
        let process_id = find("PID");
        let unique = numbered_names(&names[..header_len]);
        let mut columns = Vec::new();
        for (i, name) in unique.iter().enumerate() {
            if name.is_empty() || i == timestamp || i == fps || Some(i) == process_id {
                continue;
            }
            let lower = name.to_ascii_lowercase();
            // PC latency is what PresentMon's MsPCLatency measures; 0 is written when
            // the game has no Reflex markers. Render latency (render queue + GPU) has
            // no PresentMon twin; the rest are sampled sensors or rolling rates.
            let (kind, zero_missing) = if lower.starts_with("average pc latency") {
                (ColumnKind::PcLatency, true)
            } else if lower.starts_with("render latency") {
                (ColumnKind::Other, false)
            } else {
                (ColumnKind::Telemetry, false)
            };
            columns.push((i, samples.add_column(name.clone(), kind, zero_missing)));
        }
        Ok(Self { header_len, timestamp, process_id, fps, columns })
    }
}

/// Loads an NVIDIA App performance log from `reader` (positioned after any BOM);
/// `path` names it in messages.
pub fn load<R: BufRead>(path: &Path, reader: R, progress: &Progress) -> Result<Capture, LoadError> {
    let err = |line, kind| LoadError::new(path, line, kind);
    let io = |e| LoadError::new(path, None, LoadErrorKind::Io(e));
    let mut records = Records::new(reader, 1);
    let mut row = Row::default();
    let mut samples = Samples::default();
    // The header is the first row with any text in it.
    let layout = loop {
        let Some(line) = records.next_row(&mut row).map_err(io)? else {
            let msg = "the file has no header line; expected an NVIDIA App performance log".to_owned();
            return Err(err(None, LoadErrorKind::NotACapture(msg)));
        };
        if row.is_oversized() {
            let msg = "the header line is too long (over 1 MiB); expected an NVIDIA App performance log";
            return Err(err(Some(line), LoadErrorKind::NotACapture(msg.into())));
        }
        let names = field_texts(&row);
        if names.iter().any(|n| !n.is_empty()) {
            let layout = Layout::of(&names, &mut samples)
                .map_err(|msg| err(Some(line), LoadErrorKind::NotACapture(msg)))?;
            break layout;
        }
    };
    let mut rows = NvidiaRows { layout, samples, no_time: Tally::default(), exited: Tally::default() };
    let mut pids = Pids::default();
    while let Some(line) = records.next_row(&mut row).map_err(io)? {
        if let Some(pid) = rows.row(&row, line) {
            pids.add(pid);
        }
        if rows.samples.rows.is_multiple_of(CANCEL_CHECK_ROWS) && progress.is_cancelled() {
            return Err(err(None, LoadErrorKind::Cancelled));
        }
    }
    let NvidiaRows { samples, no_time, exited, .. } = rows;
    let interval = samples.interval_ms();
    let mut extra = no_time
        .warnings("row has no usable timestamp (e.g. a summary row added in a spreadsheet); skipped", |n| {
            format!("{n} rows have no usable timestamp (e.g. a summary row added in a spreadsheet); skipped")
        });
    extra.extend(exited.warnings("PID is 0 (no game running, e.g. after it exited); row skipped", |n| {
        format!("{n} rows have PID 0 (no game running, e.g. after it exited); skipped")
    }));
    let meta = TraceMeta {
        application: file_stem(path),
        process_id: pids.first(),
        swap_chain: None,
        runtime: None,
        present_modes: Vec::new(),
    };
    let rows_read = samples.rows;
    let trace = samples.finish(meta, extra);
    if trace.is_empty() {
        return Err(no_frames(path, rows_read, "FPS", &trace));
    }
    let mut warnings =
        vec![sampled_warning("The NVIDIA App", interval, "frame time = 1000 / the sample's average FPS")];
    warnings.extend(pids.warning());
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::NvidiaApp,
        format_version: "performance log".into(),
        system: Vec::new(),
        dropped_known: false,
    };
    Ok(Capture { info, traces: vec![trace], warnings })
}

/// State of the NVIDIA App row loop.
struct NvidiaRows {
    layout: Layout,
    samples: Samples,
    no_time: Tally,
    exited: Tally,
}

impl NvidiaRows {
    /// Adds one data row as a sample or records why it was skipped; returns the row's
    /// PID when it was kept and has one.
    fn row(&mut self, row: &Row, line: u64) -> Option<u32> {
        let l = &self.layout;
        let s = &mut self.samples;
        s.rows += 1;
        if let Some(reason) = shape(row, l.header_len) {
            s.skips.add(line, reason);
            return None;
        }
        let field = |i: usize| row.get(i).unwrap_or(b"");
        let Some(time_ms) = seconds_to_ms(parse_cell(field(l.timestamp))) else {
            self.no_time.add(line);
            return None;
        };
        let pid = match l.process_id.map(|i| parse_cell(field(i))) {
            None | Some(Cell::Missing) => None,
            Some(Cell::Number(0.0)) => {
                self.exited.add(line);
                return None;
            }
            Some(Cell::Number(v)) if v > 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) => {
                Some(v as u32)
            }
            Some(_) => {
                s.skips.add(line, SkipReason::BadProcessId);
                return None;
            }
        };
        match frame_time_from_rate(parse_cell(field(l.fps))) {
            Ok(ft) => s.push(line, ft, time_ms),
            Err(reason) => {
                s.skips.add(line, reason);
                return None;
            }
        }
        for &(i, c) in &l.columns {
            s.set(c, field(i), line);
        }
        pid
    }
}

/// The process ids of the kept samples: the first names the trace, others are warned
/// about (the log is one trace whatever it holds).
#[derive(Debug, Default)]
struct Pids {
    seen: Vec<u32>,
    more: bool,
}

impl Pids {
    const LIST: usize = 8;

    fn add(&mut self, pid: u32) {
        if !self.seen.contains(&pid) {
            if self.seen.len() < Self::LIST {
                self.seen.push(pid);
            } else {
                self.more = true;
            }
        }
    }

    fn first(&self) -> Option<u32> {
        self.seen.first().copied()
    }

    fn warning(&self) -> Option<Warning> {
        if self.seen.len() < 2 {
            return None;
        }
        let list: Vec<String> = self.seen.iter().map(u32::to_string).collect();
        let more = if self.more { ", …" } else { "" };
        Some(Warning::file(format!(
            "the samples come from several processes (PIDs {}{more}); they are read as one trace named \
             after the first",
            list.join(", ")
        )))
    }
}

/// Seconds in a cell to milliseconds, when they are a number of plausible size (so
/// that differences between timestamps stay finite).
fn seconds_to_ms(cell: Cell) -> Option<f64> {
    match cell {
        Cell::Number(s) if s.abs() <= MAX_TIME_MS / 1000.0 => Some(s * 1000.0),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------
// Shared with afterburner.rs: the sampled-log plumbing.
// ---------------------------------------------------------------------------------

/// Frame times outside this range (ms) are no real frame: 1 ns to 11.6 days, as for
/// every other format.
const PLAUSIBLE_FRAME_TIME_MS: std::ops::RangeInclusive<f64> = 1e-6..=1e9;

/// Timestamps beyond ±10¹⁵ ms (31 700 years) are not read: no difference of two kept
/// timestamps can overflow.
pub(super) const MAX_TIME_MS: f64 = 1e15;

/// The first field of the first non-blank line of `head`, trimmed.
pub(super) fn first_field(head: &[u8]) -> &[u8] {
    let start = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    let rest = &head[start..];
    let end = rest.iter().position(|&b| b == b',' || b == b'\n' || b == b'\r').unwrap_or(rest.len());
    trim(&rest[..end])
}

/// The fields of a row as trimmed text.
pub(super) fn field_texts(row: &Row) -> Vec<String> {
    (0..row.len()).map(|i| String::from_utf8_lossy(trim(row.get(i).unwrap_or(b""))).into_owned()).collect()
}

/// Header names made unique: the second `Framerate` becomes `Framerate (2)`, the third
/// `Framerate (3)`. Empty names stay empty.
pub(super) fn numbered_names<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let name = name.as_ref();
        let before = seen.entry(name).or_insert(0);
        *before += 1;
        out.push(if name.is_empty() || *before == 1 {
            name.to_owned()
        } else {
            format!("{name} ({before})")
        });
    }
    out
}

/// `HardwareMonitoring.hml` → `HardwareMonitoring`: these logs do not name the game.
pub(super) fn file_stem(path: &Path) -> String {
    path.file_stem().map_or_else(|| "capture".into(), |s| s.to_string_lossy().into_owned())
}

/// Why a row of `fields` fields does not fit a header of `header_len` names: too long
/// to keep, fewer fields, or more non-empty fields (trailing empty ones are ignored).
pub(super) fn shape(row: &Row, header_len: usize) -> Option<SkipReason> {
    let fields = row.len();
    if row.is_oversized() {
        return Some(SkipReason::Oversized);
    }
    if fields < header_len {
        return Some(SkipReason::Truncated { fields, header: header_len });
    }
    let mut used = fields;
    while used > header_len && trim(row.get(used - 1).unwrap_or(b"")).is_empty() {
        used -= 1;
    }
    (used > header_len).then_some(SkipReason::TooLong { fields, header: header_len })
}

/// A frame time from a cell in milliseconds, or why the row is skipped.
pub(super) fn frame_time_from_ms(cell: Cell) -> Result<f64, SkipReason> {
    match cell {
        Cell::Number(v) if PLAUSIBLE_FRAME_TIME_MS.contains(&v) => Ok(v),
        Cell::Number(v) if v > 0.0 => Err(SkipReason::ImplausibleFrameTime),
        Cell::Number(_) => Err(SkipReason::NonPositiveFrameTime),
        Cell::Missing => Err(SkipReason::MissingFrameTime),
        Cell::Invalid => Err(SkipReason::InvalidFrameTime),
    }
}

/// A frame time (`1000 / rate`) from a cell in frames per second, or why the row is
/// skipped.
pub(super) fn frame_time_from_rate(cell: Cell) -> Result<f64, SkipReason> {
    match cell {
        Cell::Number(fps) if fps > 0.0 => frame_time_from_ms(Cell::Number(1000.0 / fps)),
        Cell::Number(_) => Err(SkipReason::NonPositiveFrameTime),
        other => frame_time_from_ms(other),
    }
}

/// The file-level note every sampled log gets.
pub(super) fn sampled_warning(writer: &str, interval_ms: Option<f64>, basis: &str) -> Warning {
    let every = interval_ms
        .map_or_else(|| "one row per polling interval".to_owned(), |ms| format!("one row every ~{ms:.0} ms"));
    Warning::file(format!(
        "{writer} wrote {every}, not one per frame: figures describe the samples ({basis})"
    ))
}

/// The error for a sampled log without a usable sample.
pub(super) fn no_frames(path: &Path, rows: u64, what: &str, trace: &Trace) -> LoadError {
    let why = if rows == 0 {
        "the file has a header but no data rows".to_owned()
    } else {
        format!("none of its {rows} rows has a usable {what}")
    };
    let line = trace.warnings.first().and_then(|w| w.line);
    LoadError::new(path, line, LoadErrorKind::NoFrames(why))
}

/// Rows skipped for one reason a sampled log has beyond [`SkipReason`]: how many and
/// the first few lines.
#[derive(Debug, Clone, Default)]
pub(super) struct Tally {
    count: u64,
    first: Vec<u64>,
}

impl Tally {
    /// Rows listed one by one (as [`SkipLog`] does).
    const LIST: usize = 5;

    /// Records one skipped row.
    pub(super) fn add(&mut self, line: u64) {
        self.count += 1;
        if self.first.len() < Self::LIST {
            self.first.push(line);
        }
    }

    /// One warning per row when there are few, else one that counts them and lists
    /// where the first ones are.
    pub(super) fn warnings(&self, one: &str, many: impl Fn(u64) -> String) -> Vec<Warning> {
        if self.count <= Self::LIST as u64 {
            return self.first.iter().map(|&l| Warning::at(l, one)).collect();
        }
        let list: Vec<String> = self.first.iter().map(u64::to_string).collect();
        self.first
            .first()
            .map(|&l| Warning::at(l, format!("{} (lines {}, …)", many(self.count), list.join(", "))))
            .into_iter()
            .collect()
    }
}

/// The most telemetry cells (samples × columns) a sampled log keeps: 800 MB.
const MAX_CELLS: usize = 100_000_000;

/// The samples of a sampled log, stored column-wise as they are read.
#[derive(Debug, Default)]
pub(super) struct Samples {
    frame_time_ms: Vec<f64>,
    /// End of each sample's interval (its timestamp), ms on the log's own clock.
    time_ms: Vec<f64>,
    line: Vec<u64>,
    columns: Vec<Column>,
    /// Per column: a 0 there means "no value" (NVIDIA's PC latency).
    zero_missing: Vec<bool>,
    invalid: Vec<InvalidCells>,
    /// Telemetry was dropped to stay within [`MAX_CELLS`] (a hostile or absurd log).
    pub(super) telemetry_dropped: bool,
    /// Rows skipped for a [`SkipReason`].
    pub(super) skips: SkipLog,
    /// Data rows seen, kept or not.
    pub(super) rows: u64,
}

impl Samples {
    /// Number of samples kept.
    pub(super) fn len(&self) -> usize {
        self.frame_time_ms.len()
    }

    /// Adds a column (missing for the samples so far); returns its index.
    pub(super) fn add_column(&mut self, name: String, kind: ColumnKind, zero_missing: bool) -> usize {
        if self.telemetry_dropped {
            return usize::MAX; // `set` ignores an index it does not have
        }
        self.columns.push(Column { name, kind, values: vec![f64::NAN; self.len()] });
        self.zero_missing.push(zero_missing);
        self.invalid.push(InvalidCells::default());
        self.columns.len() - 1
    }

    /// The index of the column named `name`, if there is one.
    pub(super) fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Number of columns.
    pub(super) fn column_count(&self) -> usize {
        self.columns.len()
    }

    /// Adds a sample; every column is missing for it until [`Samples::set`].
    pub(super) fn push(&mut self, line: u64, frame_time_ms: f64, time_ms: f64) {
        self.frame_time_ms.push(frame_time_ms);
        self.time_ms.push(time_ms);
        self.line.push(line);
        if !self.telemetry_dropped && self.len() * self.columns.len() > MAX_CELLS {
            // Every sample holds a cell for every column ever named: a log that names
            // hundreds of columns and then writes millions of short rows would take
            // far more memory than its size. Keep the frame times, drop the telemetry.
            self.columns.clear();
            self.zero_missing.clear();
            self.invalid.clear();
            self.telemetry_dropped = true;
        }
        self.columns.iter_mut().for_each(|c| c.values.push(f64::NAN));
    }

    /// Sets column `column` of the last sample from a cell (empty and `N/A` are missing;
    /// text is missing and counted for a warning).
    pub(super) fn set(&mut self, column: usize, cell: &[u8], line: u64) {
        let (Some(c), Some(&zero_missing), Some(invalid)) =
            (self.columns.get_mut(column), self.zero_missing.get(column), self.invalid.get_mut(column))
        else {
            return;
        };
        let value = match parse_cell(cell) {
            Cell::Number(v) if !(zero_missing && v == 0.0) => v,
            Cell::Number(_) | Cell::Missing => return,
            Cell::Invalid => {
                invalid.note(line, cell);
                return;
            }
        };
        if let Some(last) = c.values.last_mut() {
            *last = value;
        }
    }

    /// The sample times, for a reader that refines them before [`Samples::finish`].
    pub(super) fn times_mut(&mut self) -> &mut [f64] {
        &mut self.time_ms
    }

    /// The mean time between kept samples, when there are two or more spread in time.
    pub(super) fn interval_ms(&self) -> Option<f64> {
        let (lo, hi) = self
            .time_ms
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        let n = self.len();
        (n >= 2 && hi > lo).then(|| (hi - lo) / (n - 1) as f64)
    }

    /// The trace: each sample's interval ends at its timestamp (`start = t − frame
    /// time`), the earliest start is 0; columns without a number are left out.
    /// `extra` are the reader's own skip warnings.
    pub(super) fn finish(self, meta: TraceMeta, extra: Vec<Warning>) -> Trace {
        let n = self.len();
        let mut start_ms: Vec<f64> =
            self.time_ms.iter().zip(&self.frame_time_ms).map(|(t, ft)| t - ft).collect();
        let shift = start_ms.iter().copied().fold(f64::INFINITY, f64::min);
        if shift.is_finite() {
            for s in &mut start_ms {
                *s -= shift;
            }
        }
        let mut warnings = self.skips.warnings();
        warnings.extend(extra);
        if self.telemetry_dropped {
            warnings.push(Warning::file(
                "the log names so many columns over so many rows that its telemetry was left out to stay \
                 within memory; frame times are kept",
            ));
        }
        let mut columns = Vec::new();
        for (column, invalid) in self.columns.into_iter().zip(self.invalid) {
            let has_numbers = column.values.iter().any(|v| !v.is_nan());
            warnings.extend(invalid.warning(&column.name, has_numbers));
            if has_numbers {
                columns.push(column);
            }
        }
        warnings.sort_by_key(|w| w.line);
        let frames = Frames {
            frame_time_ms: self.frame_time_ms,
            start_ms,
            display_ms: vec![f64::NAN; n],
            dropped: vec![false; n],
            present_mode: Vec::new(),
            frame_type: Vec::new(),
            line: self.line,
            columns,
            ..Frames::default()
        };
        Trace { meta, frames, warnings }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_the_header() {
        assert!(sniff(b"Timestamp (Elapsed time in seconds),PID,FPS,\n0.5,1,60\n"));
        assert!(sniff(b"\r\n  timestamp (ELAPSED time in seconds) ,PID"));
        assert!(!sniff(b"Timestamp,PID,FPS\n"));
        assert!(!sniff(b""));
    }

    #[test]
    fn duplicate_names_are_numbered() {
        let names = numbered_names(&["Framerate", "", "Frametime", "", "Framerate", "Framerate"]);
        assert_eq!(names, ["Framerate", "", "Frametime", "", "Framerate (2)", "Framerate (3)"]);
    }

    #[test]
    fn frame_times_from_rates_and_ms() {
        assert_eq!(frame_time_from_rate(Cell::Number(50.0)), Ok(20.0));
        assert_eq!(frame_time_from_rate(Cell::Number(0.0)), Err(SkipReason::NonPositiveFrameTime));
        assert_eq!(frame_time_from_rate(Cell::Number(1e-300)), Err(SkipReason::ImplausibleFrameTime));
        assert_eq!(frame_time_from_rate(Cell::Missing), Err(SkipReason::MissingFrameTime));
        assert_eq!(frame_time_from_ms(Cell::Number(-1.0)), Err(SkipReason::NonPositiveFrameTime));
        assert_eq!(frame_time_from_ms(Cell::Invalid), Err(SkipReason::InvalidFrameTime));
    }
}
