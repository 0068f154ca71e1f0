//! The column-wise [`Samples`] store: one entry per sample, its telemetry columns,
//! the sessions it splits into and the [`Trace`] it becomes.

use super::super::builder::{InvalidCells, SkipLog, SkipReason};
use super::super::sessions::{self, Session, SessionClock};
use super::super::values::{Cell, parse_cell};
use super::{Interval, NotSample, Tally};
use crate::model::{Column, ColumnKind, Frames, Trace, TraceMeta, ValuesBuilder, Warning, push_grown};

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
pub(crate) struct Samples {
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
    pub(crate) telemetry_dropped: bool,
    /// Rows skipped for a [`SkipReason`] (malformed rows).
    pub(crate) skips: SkipLog,
    /// Timed rows without a usable rate: missing, not a number, ≤ 0, implausible.
    no_rate: [Tally; 4],
    /// Timed rows of no game (NVIDIA App PID 0).
    no_game: Tally,
    /// Timed rows whose time does not come after the row before.
    no_advance: Tally,
    /// Data rows seen, kept or not.
    pub(crate) rows: u64,
    /// Rows with a usable time (the first one opens the log).
    pub(crate) timed_rows: u64,
    /// Every timed row's time (ms on the log's own clock) and line: sessions are cut
    /// on them (`sessions.rs`).
    times: Vec<f64>,
    timed_lines: Vec<u64>,
    /// Per sample: its row's place among the timed rows.
    ordinal: Vec<u64>,
}

impl Samples {
    /// An empty store for a log that calls its rate `rate_name`.
    pub(crate) fn new(rate_name: &str) -> Self {
        Self { rate_name: rate_name.to_owned(), ..Self::default() }
    }

    /// Renames the rate for messages (Afterburner falls back on `Frametime`).
    pub(crate) fn set_rate_name(&mut self, rate_name: &str) {
        rate_name.clone_into(&mut self.rate_name);
    }

    /// Number of samples kept.
    pub(crate) fn len(&self) -> usize {
        self.frame_time_ms.len()
    }

    /// Adds a column (missing for the samples so far); returns its index.
    pub(crate) fn add_column(&mut self, name: String, kind: ColumnKind, zero_missing: bool) -> usize {
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
    pub(crate) fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Number of columns.
    pub(crate) fn column_count(&self) -> usize {
        self.columns.len()
    }

    /// Why the log has no sample, when it has none.
    pub(crate) fn why_empty(&self) -> Option<String> {
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
    pub(crate) fn malformed_timed_row(&mut self, line: u64, time_ms: f64) {
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
    pub(crate) fn row(
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
    pub(crate) fn set(&mut self, column: usize, cell: &[u8], line: u64) {
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
    pub(crate) fn set_value(&mut self, column: usize, value: f64) {
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
    pub(crate) fn finish_sessions(
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
    pub(crate) fn interval_ms(&self) -> Option<f64> {
        let n = self.len();
        let total: f64 = self.interval_ms.iter().sum();
        (n > 0 && total.is_finite()).then(|| total / n as f64)
    }

    /// The trace: sample `i` occupies `[end_i − Δt_i, end_i]`; the earliest start is 0;
    /// columns without a number are left out. `extra` are the reader's own warnings.
    pub(crate) fn finish(self, meta: TraceMeta, extra: Vec<Warning>) -> Trace {
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
            present_mode: Vec::new(),
            frame_type: Vec::new(),
            line: self.line.into(),
            columns,
            sample_ms: self.interval_ms,
            ..Frames::default()
        };
        Trace { meta, frames, warnings }
    }
}
