//! The plumbing shared by the sampled-log readers (`metrics.md` §10): NVIDIA App
//! (`nvidia_app.rs`), MSI Afterburner (`afterburner.rs`) and MangoHud logs written with
//! a `log_interval` (`csv_capture.rs`).
//!
//! A sampled log writes one row every 0.1–1 s. Each row with a usable time ends the
//! interval since the row before it; it is a *sample* when it also has a rate `r > 0`
//! (the average FPS over that interval). The first row only opens the log. A sample is
//! stored as one entry of the trace with frame time `1000 / r` and interval `Δt`
//! ([`Frames::sample_ms`]), placed so that it ends at its row's time.
//!
//! Here: the column-wise [`Samples`] store (`store.rs`), the [`Clock`] that turns row times into
//! intervals, the reasons a row is not a sample (counted into grouped warnings), the
//! frame-time and shape checks, and the "this log is sampled" note.

use super::builder::SkipReason;
use super::error::{LoadError, LoadErrorKind};
use super::records::Row;
use super::values::{Cell, trim};
use crate::model::{Trace, Warning, WarningKind};
use std::path::Path;

/// How often (in rows) the loaders look at the cancel flag.
pub(super) const CANCEL_CHECK_ROWS: u64 = 8192;

/// Frame times outside [`PLAUSIBLE_FRAME_TIME_MS`] are no real frame, as for every
/// other format. A rate is usable when `1000 / r` is inside it.
use super::overflow::PLAUSIBLE_FRAME_TIME_MS;

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

/// Header names with repeats blanked: a name seen before (any case; Afterburner logs
/// its `Framerate` once per on-screen source) is left out like an empty one, so every
/// kept column has its own name and the first occurrence wins, as for CSV captures.
pub(super) fn first_names<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    names
        .iter()
        .map(|name| {
            let name = name.as_ref();
            if seen.insert(name.to_ascii_lowercase()) { name.to_owned() } else { String::new() }
        })
        .collect()
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

/// A frame time from a cell in milliseconds, or why it is not usable.
pub(super) fn frame_time_from_ms(cell: Cell) -> Result<f64, SkipReason> {
    match cell {
        Cell::Number(v) if PLAUSIBLE_FRAME_TIME_MS.contains(&v) => Ok(v),
        Cell::Number(v) if v > 0.0 => Err(SkipReason::ImplausibleFrameTime),
        Cell::Number(_) => Err(SkipReason::NonPositiveFrameTime),
        Cell::Missing => Err(SkipReason::MissingFrameTime),
        Cell::Invalid => Err(SkipReason::InvalidFrameTime),
    }
}

/// A sample's frame time `1000 / r` from a cell holding the rate `r` (frames per
/// second), or why the row is not a sample.
pub(super) fn frame_time_from_rate(cell: Cell) -> Result<f64, SkipReason> {
    match cell {
        Cell::Number(fps) if fps > 0.0 => frame_time_from_ms(Cell::Number(1000.0 / fps)),
        Cell::Number(_) => Err(SkipReason::NonPositiveFrameTime),
        other => frame_time_from_ms(other),
    }
}

/// The file-level note every sampled log gets.
pub(super) fn sampled_warning(writer: &str, interval_ms: Option<f64>, rate: &str) -> Warning {
    let every = interval_ms
        .map_or_else(|| "one row per polling interval".to_owned(), |ms| format!("one row every ~{ms:.0} ms"));
    Warning::note(format!(
        "{writer} wrote {every}, not one per frame: each row is a sample of the average rate ({rate}) \
         over the time since the row before (the first row only opens the log); figures weight the \
         samples by their intervals, and the frame count is an estimate"
    ))
    .with_kind(WarningKind::SampledLog)
}

/// The mean interval (ms) of the samples of `traces`, for the "sampled" note of a log
/// of several sessions.
pub(super) fn mean_interval(traces: &[Trace]) -> Option<f64> {
    let (sum, n) = traces
        .iter()
        .fold((0.0, 0usize), |(s, n), t| (s + t.frames.sample_ms.iter().sum::<f64>(), n + t.len()));
    (n > 0).then(|| sum / n as f64)
}

/// The error for a sampled log without a usable sample: `why` from
/// [`Samples::why_empty`], the line of the trace's first warning.
pub(super) fn no_frames(path: &Path, why: String, trace: &Trace) -> LoadError {
    let line = trace.warnings.iter().find_map(|w| w.line);
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

    /// Records one row.
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

    /// As [`Tally::warnings`], for rows that were skipped: each warning says how many.
    pub(super) fn skipped(&self, one: &str, many: impl Fn(u64) -> String) -> Vec<Warning> {
        let grouped = self.count > Self::LIST as u64;
        self.warnings(one, many)
            .into_iter()
            .map(|w| {
                let (count, first_lines) = if grouped {
                    (self.count, self.first.clone())
                } else {
                    (1, w.line.into_iter().collect())
                };
                w.with_kind(WarningKind::SkippedRows { count, first_lines })
            })
            .collect()
    }
}

/// Turns the times of a log's rows into the intervals they close.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Clock {
    previous: Option<f64>,
}

impl Clock {
    /// Counts a row with a usable time `t` (in the log's own unit): the time since the
    /// row before, or `None` for the first row (it opens the log). The next interval
    /// is measured from `t` whatever this row turns out to be (`metrics.md` §10: a row
    /// that is no sample still ends the interval before it).
    pub(super) fn step(&mut self, t: f64) -> Option<f64> {
        self.previous.replace(t).map(|before| t - before)
    }
}

/// The interval a row with a usable time closes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Interval {
    /// The first row: it opens the log and is no sample.
    Opens,
    /// The time since the row before, in ms.
    Closes(f64),
    /// The log's polling period, known once every row is read (Afterburner): set with
    /// [`Samples::set_polled`].
    Polled,
}

/// Why a row with a usable time is not a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum NotSample {
    /// The rate is missing, not a number, ≤ 0 or implausible.
    Rate(SkipReason),
    /// NVIDIA App: PID 0, no game running.
    NoGame,
}

mod store;
#[cfg(test)]
mod tests;

pub(super) use store::Samples;
