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
//! Here: the column-wise [`Samples`] store, the [`Clock`] that turns row times into
//! intervals, the reasons a row is not a sample (counted into grouped warnings), the
//! frame-time and shape checks, and the "this log is sampled" note.

use super::builder::{InvalidCells, SkipLog, SkipReason};
use super::error::{LoadError, LoadErrorKind};
use super::records::Row;
use super::sessions::{self, Session, SessionClock};
use super::values::{Cell, parse_cell, trim};
use crate::model::{Column, ColumnKind, Frames, Trace, TraceMeta, ValuesBuilder, Warning, push_grown};
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

/// The most telemetry cells (samples × columns) a sampled log keeps: at most 64 MB
/// however the cells are stored (missing and constant ones take none).
const MAX_CELLS: usize = 8_000_000;

/// A column being read: name, meaning, the values of every sample but the last, and
/// the last sample's value (set by [`Samples::set`] until the next sample starts).
#[derive(Debug)]
struct SampleColumn {
    name: String,
    kind: ColumnKind,
    done: ValuesBuilder,
    last: f64,
}

/// The samples of a sampled log, stored column-wise as they are read.
#[derive(Debug, Default)]
pub(super) struct Samples {
    frame_time_ms: Vec<f64>,
    /// `Δt` of each sample (NaN for a polled one until [`Samples::set_polled`]).
    interval_ms: Vec<f64>,
    /// End of each sample's interval (its row's time), ms on the log's own clock.
    end_ms: Vec<f64>,
    line: Vec<u64>,
    columns: Vec<SampleColumn>,
    /// Per column: a 0 there means "no value" (NVIDIA's PC latency).
    zero_missing: Vec<bool>,
    invalid: Vec<InvalidCells>,
    /// What the log calls its rate (`FPS`, `Framerate`, `fps`), for messages.
    rate_name: String,
    /// Telemetry was dropped to stay within [`MAX_CELLS`] (a hostile or absurd log).
    pub(super) telemetry_dropped: bool,
    /// Rows skipped for a [`SkipReason`] (malformed rows).
    pub(super) skips: SkipLog,
    /// Timed rows without a usable rate: missing, not a number, ≤ 0, implausible.
    no_rate: [Tally; 4],
    /// Timed rows of no game (NVIDIA App PID 0).
    no_game: Tally,
    /// Timed rows whose time does not come after the row before.
    no_advance: Tally,
    /// Data rows seen, kept or not.
    pub(super) rows: u64,
    /// Rows with a usable time (the first one opens the log).
    pub(super) timed_rows: u64,
    /// Every timed row's time (ms on the log's own clock) and line: sessions are cut
    /// on them (`sessions.rs`).
    times: Vec<f64>,
    timed_lines: Vec<u64>,
    /// Per sample: its row's place among the timed rows.
    ordinal: Vec<u64>,
}

impl Samples {
    /// An empty store for a log that calls its rate `rate_name`.
    pub(super) fn new(rate_name: &str) -> Self {
        Self { rate_name: rate_name.to_owned(), ..Self::default() }
    }

    /// Renames the rate for messages (Afterburner falls back on `Frametime`).
    pub(super) fn set_rate_name(&mut self, rate_name: &str) {
        rate_name.clone_into(&mut self.rate_name);
    }

    /// Number of samples kept.
    pub(super) fn len(&self) -> usize {
        self.frame_time_ms.len()
    }

    /// Adds a column (missing for the samples so far); returns its index.
    pub(super) fn add_column(&mut self, name: String, kind: ColumnKind, zero_missing: bool) -> usize {
        if self.telemetry_dropped {
            return usize::MAX; // `set` ignores an index it does not have
        }
        let mut done = ValuesBuilder::default();
        done.extend(std::iter::repeat_n(f64::NAN, self.len().saturating_sub(1)));
        self.columns.push(SampleColumn { name, kind, done, last: f64::NAN });
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

    /// Why the log has no sample, when it has none.
    pub(super) fn why_empty(&self) -> Option<String> {
        if self.len() > 0 {
            return None;
        }
        Some(match self.timed_rows {
            0 if self.rows == 0 => "the file has a header but no data rows".to_owned(),
            0 => format!("none of its {} rows has a usable time", self.rows),
            1 => "it has only one row with a usable time: a sample is the rate over the time since the row \
                  before it, and the first row only opens the log"
                .to_owned(),
            n => format!(
                "none of its {n} timed rows is a sample (a usable {} and a time after the row before)",
                self.rate_name
            ),
        })
    }

    /// Counts a malformed row that has a usable time `time_ms` (on the log's clock):
    /// no sample, but it ends the interval before it like any row.
    pub(super) fn malformed_timed_row(&mut self, line: u64, time_ms: f64) {
        self.timed(line, time_ms);
    }

    /// Counts a row with a usable time.
    fn timed(&mut self, line: u64, time_ms: f64) {
        self.timed_rows += 1;
        push_grown(&mut self.times, time_ms);
        push_grown(&mut self.timed_lines, line);
    }

    /// One row with a usable time `end_ms` (ms on the log's clock; `metrics.md` §10):
    /// it closes `interval`; it is a sample when `frame_time` (`1000 / r`) is usable
    /// and the interval is > 0. Returns true when a sample was added (its columns are
    /// then set with [`Samples::set`]); otherwise the reason is counted for a warning.
    pub(super) fn row(
        &mut self,
        line: u64,
        frame_time: Result<f64, NotSample>,
        interval: Interval,
        end_ms: f64,
    ) -> bool {
        self.timed(line, end_ms);
        let interval_ms = match interval {
            Interval::Opens => return false,
            Interval::Closes(ms) => ms,
            Interval::Polled => f64::NAN,
        };
        let ft = match frame_time {
            Ok(ft) => ft,
            Err(NotSample::Rate(reason)) => {
                let kind = match reason {
                    SkipReason::MissingFrameTime => 0,
                    SkipReason::NonPositiveFrameTime => 2,
                    SkipReason::ImplausibleFrameTime => 3,
                    _ => 1,
                };
                self.no_rate[kind].add(line);
                return false;
            }
            Err(NotSample::NoGame) => {
                self.no_game.add(line);
                return false;
            }
        };
        if interval != Interval::Polled && !(interval_ms > 0.0 && interval_ms.is_finite()) {
            self.no_advance.add(line);
            return false;
        }
        self.push(line, ft, interval_ms, end_ms);
        true
    }

    /// Adds a sample; every column is missing for it until [`Samples::set`].
    fn push(&mut self, line: u64, frame_time_ms: f64, interval_ms: f64, end_ms: f64) {
        push_grown(&mut self.ordinal, self.timed_rows - 1);
        self.frame_time_ms.push(frame_time_ms);
        self.interval_ms.push(interval_ms);
        self.end_ms.push(end_ms);
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
        let first = self.len() == 1;
        for c in &mut self.columns {
            if !first {
                c.done.push(c.last);
            }
            c.last = f64::NAN;
        }
    }

    /// Sets column `column` of the last sample from a cell (empty and `N/A` are missing;
    /// text is missing and counted for a warning).
    pub(super) fn set(&mut self, column: usize, cell: &[u8], line: u64) {
        let value = match parse_cell(cell) {
            Cell::Number(v) => v,
            Cell::Missing => return,
            Cell::Invalid => {
                if let Some(invalid) = self.invalid.get_mut(column) {
                    invalid.note(line, cell);
                }
                return;
            }
        };
        self.set_value(column, value);
    }

    /// Sets column `column` of the last sample to a number (NaN = missing).
    pub(super) fn set_value(&mut self, column: usize, value: f64) {
        let (Some(c), Some(&zero_missing)) = (self.columns.get_mut(column), self.zero_missing.get(column))
        else {
            return;
        };
        if zero_missing && value == 0.0 {
            return;
        }
        if self.frame_time_ms.is_empty() {
            return;
        }
        c.last = value;
    }

    /// Gives every sample of each session its session's polling period `(t_last −
    /// t_first) / (rows − 1)` over the session's timed rows as its interval, and ends
    /// sample k (made at timed row o) `o − first` periods after the session's first row
    /// (Afterburner: whole-second timestamps). A session whose period is not positive
    /// keeps no sample.
    fn set_polled(&mut self, sessions: &mut [Session]) {
        for s in sessions {
            let (first, last) = (self.times[s.rows.start], self.times[s.rows.end - 1]);
            let period = (s.rows.len() >= 2).then(|| (last - first) / (s.rows.len() - 1) as f64);
            let Some(p) = period.filter(|p| *p > 0.0 && p.is_finite()) else {
                s.samples = s.samples.start..s.samples.start;
                continue;
            };
            for k in s.samples.clone() {
                self.interval_ms[k] = p;
                self.end_ms[k] = first + (self.ordinal[k] - s.rows.start as u64) as f64 * p;
            }
        }
    }

    /// The log's traces, one per logging session with samples (`metrics.md` §10), and
    /// the file-level notes about its sessions; `polled`: every interval is its
    /// session's polling period (Afterburner). A log of one session gives the one
    /// trace [`Samples::finish`] gives. No trace when no session has a sample.
    pub(super) fn finish_sessions(
        mut self,
        meta: TraceMeta,
        extra: Vec<Warning>,
        clock: SessionClock,
        polled: bool,
    ) -> (Vec<Trace>, Vec<Warning>) {
        let starts = sessions::starts(&self.times);
        let mut list = sessions::sessions(&starts, self.times.len(), &self.ordinal);
        if polled {
            self.set_polled(&mut list);
        }
        let times = std::mem::take(&mut self.times);
        let lines = std::mem::take(&mut self.timed_lines);
        let whole = self.finish(meta, extra);
        if list.len() < 2 {
            let one = list.first().is_some_and(|s| !s.samples.is_empty());
            return (if one { vec![whole] } else { Vec::new() }, Vec::new());
        }
        let names: Vec<String> =
            (1..).zip(&list).map(|(n, s)| sessions::name(n, times[s.rows.start], times[0], clock)).collect();
        let first_lines: Vec<u64> = list.iter().map(|s| lines[s.rows.start]).collect();
        let (traces, mut notes) = sessions::split(&whole, &list, &names, &first_lines);
        notes.insert(0, sessions::note(&starts, &times, &names));
        (traces, notes)
    }

    /// The mean interval of the samples, when there are any.
    pub(super) fn interval_ms(&self) -> Option<f64> {
        let n = self.len();
        let total: f64 = self.interval_ms.iter().sum();
        (n > 0 && total.is_finite()).then(|| total / n as f64)
    }

    /// The trace: sample `i` occupies `[end_i − Δt_i, end_i]`; the earliest start is 0;
    /// columns without a number are left out. `extra` are the reader's own warnings.
    pub(super) fn finish(self, meta: TraceMeta, extra: Vec<Warning>) -> Trace {
        let n = self.len();
        let mut start_ms: Vec<f64> =
            self.end_ms.iter().zip(&self.interval_ms).map(|(t, dt)| t - dt).collect();
        let shift = start_ms.iter().copied().filter(|s| s.is_finite()).fold(f64::INFINITY, f64::min);
        if shift.is_finite() {
            for s in &mut start_ms {
                *s -= shift;
            }
        }
        let rate = &self.rate_name;
        let mut warnings = self.skips.warnings();
        for (tally, what) in self.no_rate.iter().zip(["missing", "not a number", "0 or less", "implausible"])
        {
            warnings.extend(tally.warnings(
                &format!("{rate} is {what}: not a sample; the row still ends the interval before it"),
                |n| format!("{n} rows have a {rate} that is {what}: not samples; each still ends the interval before it"),
            ));
        }
        warnings.extend(self.no_game.warnings(
            "PID is 0 (no game running, e.g. after it exited): not a sample; the row still ends the interval \
             before it",
            |n| format!("{n} rows have PID 0 (no game running, e.g. after it exited): not samples"),
        ));
        warnings.extend(self.no_advance.warnings(
            "the time does not come after the row before (repeated or going back): not a sample; the next \
             interval starts here",
            |n| format!("{n} rows have a time that does not come after the row before: not samples"),
        ));
        warnings.extend(extra);
        if self.telemetry_dropped {
            warnings.push(Warning::file(
                "the log names so many columns over so many rows that its telemetry was left out to stay \
                 within memory; the samples are kept",
            ));
        }
        let mut columns = Vec::new();
        for (mut column, invalid) in self.columns.into_iter().zip(self.invalid) {
            if n > 0 {
                column.done.push(column.last);
            }
            let has_numbers = column.done.any_present();
            warnings.extend(invalid.warning(&column.name, has_numbers));
            if has_numbers {
                columns.push(Column { name: column.name, kind: column.kind, values: column.done.finish() });
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
            sample_ms: self.interval_ms,
            ..Frames::default()
        };
        Trace { meta, frames, warnings }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_names_are_left_out() {
        let names = first_names(&["Framerate", "", "Frametime", "", "FRAMERATE", "Framerate"]);
        assert_eq!(names, ["Framerate", "", "Frametime", "", "", ""]);
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

    /// Rows at 0, 0.5, 1.0, 1.0 and 1.5 s: the first opens the log; the row at 1.0 s
    /// without a rate ends the interval (0.5 s lost); the repeated 1.0 s is no sample;
    /// the last closes 0.5 s. Samples: 0.5 s at 100 FPS (10 ms), 0.5 s at 50 FPS.
    #[test]
    fn rows_become_samples_per_metrics_10() {
        let mut s = Samples::new("FPS");
        let mut clock = Clock::default();
        let rows: [(f64, Result<f64, NotSample>); 5] = [
            (0.0, Ok(10.0)),
            (500.0, Ok(10.0)),
            (1000.0, Err(NotSample::Rate(SkipReason::MissingFrameTime))),
            (1000.0, Ok(40.0)),
            (1500.0, Ok(20.0)),
        ];
        for (line, (t, ft)) in (2..).zip(rows) {
            let interval = clock.step(t).map_or(Interval::Opens, Interval::Closes);
            s.row(line, ft, interval, t);
        }
        let meta = TraceMeta {
            application: "x".into(),
            process_id: None,
            swap_chain: None,
            runtime: None,
            present_modes: Vec::new(),
        };
        let t = s.finish(meta, Vec::new());
        assert_eq!(t.frames.frame_time_ms, vec![10.0, 20.0]);
        assert_eq!(t.frames.sample_ms, vec![500.0, 500.0]);
        assert_eq!(t.frames.start_ms, vec![0.0, 1000.0]);
        assert_eq!(t.frames.line, vec![3, 6]);
        let lines: Vec<Option<u64>> = t.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![Some(4), Some(5)], "{:?}", t.warnings);
    }
}
