//! Meta's OVR Metrics Tool (Quest headsets): with "Record all captured metrics to CSV
//! file" on, it writes one CSV per app session, one row a second.
//!
//! Layout (from Meta's "OVR Metrics Tool" pages and public scripts that read these
//! files; no capture of our own): the header `Time Stamp,available_memory_MB,app_pss_MB,
//! battery_level_percentage,…,average_frame_rate,display_refresh_rate,…,
//! stale_frame_count,…,app_gpu_time_microseconds,…` — snake_case names whose suffix is
//! the unit; which columns appear depends on the statistics enabled and the tool's
//! version (about 30 to 130).
//! * `Time Stamp` is ms since the recording began; `average_frame_rate` is the average
//!   frame rate since the row before. So the file is a sampled log (`metrics.md` §10):
//!   each row after the first is a sample of rate `average_frame_rate` over the time
//!   since the row before.
//! * `display_refresh_rate` is the headset's rate (72/90/120 Hz): offered as the target
//!   and given as a system fact; `stale_frame_count` (frames the compositor showed
//!   again because the app's was late) and every other number are telemetry.
//! * Warm-up rows write 0 in most columns (an `average_frame_rate` of 0 is no sample);
//!   a column that is 0 throughout (a statistic not enabled) is left out.
//! * `AppendCsvDebugString` adds a field after the last named column on some rows: it
//!   becomes an event (a marker) at that row's sample.

use super::builder::SkipReason;
use super::sampled::{Clock, Interval, NotSample, Samples, frame_time_from_rate, sampled_warning};
use super::table::{Head, each_row, number};
use super::values::Cell;
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, ColumnKind, Event, FileInfo, Format, TraceMeta};
use std::io::Read;
use std::path::Path;

/// The time column, first in the header.
pub const TIME: &str = "Time Stamp";
/// The rate of each row.
pub const RATE: &str = "average_frame_rate";
/// The headset's refresh rate.
const REFRESH: &str = "display_refresh_rate";
/// Debug strings kept as events at most.
const MAX_EVENTS: usize = 10_000;

/// True for the tool's header: `Time Stamp` first, `average_frame_rate` among the names.
#[must_use]
pub fn sniff(lower: &[String]) -> bool {
    lower.first().is_some_and(|n| n == "time stamp") && lower.iter().any(|n| n == RATE)
}

/// The state of the rows while they are read.
struct OvrRows {
    time: usize,
    rate: usize,
    refresh: Option<usize>,
    /// (field, sample column) of every telemetry column.
    kept: Vec<(usize, usize)>,
    header_len: usize,
    decimal_comma: bool,
    clock: Clock,
    samples: Samples,
    /// Per sample: the headset's refresh rate.
    refresh_hz: Vec<f64>,
    /// (sample, text) of the rows with a debug string.
    debug: Vec<(usize, String)>,
}

impl OvrRows {
    fn new(head: &Head) -> Result<Self, String> {
        let (Some(time), Some(rate)) = (head.find(TIME), head.find(RATE)) else {
            return Err(format!("no `{TIME}` or `{RATE}` column"));
        };
        let mut samples = Samples::new(RATE);
        let mut kept = Vec::new();
        for (pos, name) in head.header.iter().enumerate() {
            if pos == time || pos == rate || name.is_empty() || head.find(name) != Some(pos) {
                continue;
            }
            kept.push((pos, samples.add_column(name.clone(), ColumnKind::Telemetry, false)));
        }
        Ok(Self {
            time,
            rate,
            refresh: head.find(REFRESH),
            kept,
            header_len: head.width(),
            decimal_comma: head.decimal_comma(),
            clock: Clock::default(),
            samples,
            refresh_hz: Vec::new(),
            debug: Vec::new(),
        })
    }

    /// One data row: it ends the interval since the row before; a sample when its rate
    /// is above 0. Fields after the header's are a debug string.
    fn row(&mut self, rec: &csv::ByteRecord, line: u64) {
        if rec.len() < self.header_len {
            self.samples
                .skips
                .add(line, SkipReason::Truncated { fields: rec.len(), header: self.header_len });
            return;
        }
        let ms = match rec.get(self.time).map(|c| number(c, self.decimal_comma)) {
            Some(Cell::Number(ms)) if ms.abs() <= super::sampled::MAX_TIME_MS => ms,
            _ => {
                self.samples.skips.add(line, SkipReason::InvalidFrameTime);
                return;
            }
        };
        let interval = self.clock.step(ms).map_or(Interval::Opens, Interval::Closes);
        let rate = rec.get(self.rate).map_or(Cell::Missing, |c| number(c, self.decimal_comma));
        if !self.samples.row(line, frame_time_from_rate(rate).map_err(NotSample::Rate), interval, ms) {
            return;
        }
        for &(i, c) in &self.kept {
            self.samples.set(c, rec.get(i).unwrap_or_default(), line);
        }
        let refresh = self.refresh.and_then(|i| rec.get(i)).map(|c| number(c, self.decimal_comma));
        self.refresh_hz.push(if let Some(Cell::Number(hz)) = refresh { hz } else { f64::NAN });
        let extra: Vec<String> = (self.header_len..rec.len())
            .filter_map(|i| rec.get(i))
            .map(|c| String::from_utf8_lossy(c).trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect();
        if !extra.is_empty() && self.debug.len() < MAX_EVENTS {
            self.debug.push((self.samples.len() - 1, extra.join(", ")));
        }
    }
}

/// The most common positive refresh rate of the samples, and every rate seen (in
/// order of first appearance).
fn headset_rate(refresh_hz: &[f64]) -> (Option<f64>, Vec<f64>) {
    let mut seen: Vec<(f64, usize)> = Vec::new();
    for &hz in refresh_hz.iter().filter(|hz| **hz > 0.0 && hz.is_finite()) {
        match seen.iter_mut().find(|(v, _)| v.to_bits() == hz.to_bits()) {
            Some((_, n)) => *n += 1,
            None => seen.push((hz, 1)),
        }
    }
    let most = seen.iter().max_by_key(|(_, n)| *n).map(|(v, _)| *v);
    (most, seen.into_iter().map(|(v, _)| v).collect())
}

/// Reads an OVR Metrics Tool CSV whose head was read already.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let mut state = OvrRows::new(head)
        .map_err(|m| LoadError::new(path, Some(head.header_line), LoadErrorKind::NotACapture(m)))?;
    state.samples.rows = each_row(path, head, reader, progress, |row, line| match row {
        Ok(rec) => state.row(rec, line),
        Err(reason) => state.samples.skips.add(line, reason),
    })?;
    finish(path, state)
}

/// The capture: one sampled trace, its debug strings as events, columns that are 0
/// throughout left out, the headset's rate as target.
fn finish(path: &Path, state: OvrRows) -> Result<Capture, LoadError> {
    let OvrRows { samples, refresh_hz, debug, .. } = state;
    let meta = TraceMeta::named(super::sampled::file_stem(path));
    if let Some(why) = samples.why_empty() {
        return Err(super::sampled::no_frames(path, why, &samples.finish(meta, Vec::new())));
    }
    let interval = samples.interval_ms();
    let mut trace = samples.finish(meta, Vec::new());
    trace.frames.columns.retain(|c| c.values.iter().any(|v| v != 0.0 && !v.is_nan()));
    let starts = &trace.frames.start_ms;
    trace.frames.events = debug
        .into_iter()
        .filter_map(|(frame, label)| Some(Event { frame, time_ms: *starts.get(frame)?, label }))
        .collect();
    let (rate, rates) = headset_rate(&refresh_hz);
    let mut system = Vec::new();
    if let Some(hz) = rate {
        let all: Vec<String> = rates.iter().map(|v| format!("{v}")).collect();
        let text =
            if rates.len() > 1 { format!("{hz} Hz (also {})", all.join(", ")) } else { format!("{hz} Hz") };
        system.push(("display refresh rate".to_owned(), text));
    }
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::OvrMetrics,
        format_version: "OVR Metrics Tool CSV".into(),
        system,
        dropped_known: false,
        target_fps: rate,
    };
    let warnings = vec![sampled_warning("The OVR Metrics Tool", interval, RATE)];
    Ok(Capture { info, traces: vec![trace], warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_and_the_headset_rate() {
        let lower = |h: &str| h.split(',').map(str::to_ascii_lowercase).collect::<Vec<_>>();
        assert!(sniff(&lower("Time Stamp,available_memory_MB,average_frame_rate,display_refresh_rate")));
        assert!(!sniff(&lower("available_memory_MB,Time Stamp,average_frame_rate")));
        assert!(!sniff(&lower("Time Stamp,fps")));
        assert_eq!(headset_rate(&[72.0, 90.0, 90.0, 0.0, f64::NAN]), (Some(90.0), vec![72.0, 90.0]));
        assert_eq!(headset_rate(&[]), (None, vec![]));
    }
}
