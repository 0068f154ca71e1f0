//! NVIDIA App performance log (`formats.md` §8): the statistics CSV of the NVIDIA
//! overlay, `Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,Render
//! Latency(MSec),Average PC Latency(MSec),CPU Utilization(%),GPU1 …,`.
//!
//! It is a *sampled* log (`metrics.md` §10): one row every ~0.5 s, not one per frame.
//! Each row with a timestamp ends the interval since the row before; it is a sample of
//! rate `FPS` over that interval when its FPS is above 0 and its PID is not 0 (the
//! shared plumbing is `sampled.rs`). The quirks handled: a trailing comma in the
//! header (one name more than the fields), `N/A` cells, rows with PID 0 once the game
//! has exited, rows without a timestamp (truncated rows, a summary row added in a
//! spreadsheet: not rows at all), repeated timestamps, an `Average PC Latency` of 0
//! meaning "none".

use super::Progress;
use super::error::{LoadError, LoadErrorKind};
use super::records::{Records, Row};
use super::sampled::{
    CANCEL_CHECK_ROWS, Clock, Interval, MAX_TIME_MS, NotSample, Samples, Tally, field_texts, file_stem,
    first_field, first_names, frame_time_from_rate, mean_interval, no_frames, sampled_warning, shape,
};
use super::sessions::SessionClock;
use super::values::{Cell, parse_cell};
use crate::model::{Capture, ColumnKind, FileInfo, Format, TraceMeta, Warning};
use std::io::BufRead;
use std::path::Path;

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
        let unique = first_names(&names[..header_len]);
        let mut columns = Vec::new();
        for (i, name) in unique.iter().enumerate() {
            if name.is_empty() || i == timestamp || i == fps || Some(i) == process_id {
                continue;
            }
            let lower = name.to_ascii_lowercase();
            // PC latency is what PresentMon's MsPCLatency measures; 0 is written when
            // the game has no Reflex markers. Render latency (render queue + GPU) is
            // reported as `render_present_latency_mean_ms` (the lead's decision); the
            // rest are sampled sensors or rolling rates.
            let (kind, zero_missing) = if lower.starts_with("average pc latency") {
                (ColumnKind::PcLatency, true)
            } else if lower.starts_with("render latency") {
                (ColumnKind::RenderPresentLatency, false)
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
    let mut samples = Samples::new("FPS");
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
    let mut rows = NvidiaRows {
        layout,
        samples,
        clock: Clock::default(),
        pids: Pids::default(),
        no_time: Tally::default(),
        bad_pid: Tally::default(),
    };
    while let Some(line) = records.next_row(&mut row).map_err(io)? {
        rows.row(&row, line);
        if rows.samples.rows.is_multiple_of(CANCEL_CHECK_ROWS) && progress.is_cancelled() {
            return Err(err(None, LoadErrorKind::Cancelled));
        }
    }
    let NvidiaRows { samples, no_time, bad_pid, pids, .. } = rows;
    let mut extra = no_time.skipped(
        "row has no usable timestamp (e.g. a truncated row, or a summary row added in a spreadsheet); \
         skipped",
        |n| {
            format!(
                "{n} rows have no usable timestamp (e.g. truncated rows, or a summary row added in a \
                 spreadsheet); skipped"
            )
        },
    );
    extra.extend(bad_pid.warnings("PID is not a whole number; read as unknown", |n| {
        format!("{n} rows have a PID that is not a whole number; read as unknown")
    }));
    let meta = TraceMeta {
        application: file_stem(path),
        process_id: pids.first(),
        swap_chain: None,
        runtime: None,
        present_modes: Vec::new(),
    };
    capture(path, samples, meta, extra, pids.warning())
}

/// The capture of a log read into `samples`: one trace per logging session, the
/// sampled note, the sessions' notes and `pids` (several processes); the error when
/// there is no sample.
fn capture(
    path: &Path,
    samples: Samples,
    meta: TraceMeta,
    extra: Vec<Warning>,
    pids: Option<Warning>,
) -> Result<Capture, LoadError> {
    if let Some(why) = samples.why_empty() {
        return Err(no_frames(path, why, &samples.finish(meta, extra)));
    }
    let interval = samples.interval_ms();
    let (traces, notes) = samples.finish_sessions(meta, extra, SessionClock::Elapsed, false);
    if traces.is_empty() {
        let why = "no logging session of the log has a sample".to_owned();
        return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(why)));
    }
    let interval = if notes.is_empty() { interval } else { mean_interval(&traces) };
    let mut warnings = vec![sampled_warning("The NVIDIA App", interval, "FPS")];
    warnings.extend(notes);
    warnings.extend(pids);
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::NvidiaApp,
        format_version: "performance log".into(),
        system: Vec::new(),
        dropped_known: false,
        target_fps: None,
    };
    Ok(Capture { info, traces, warnings })
}

/// State of the NVIDIA App row loop.
struct NvidiaRows {
    layout: Layout,
    samples: Samples,
    clock: Clock,
    pids: Pids,
    no_time: Tally,
    bad_pid: Tally,
}

impl NvidiaRows {
    /// Reads one data row: a row with a usable timestamp ends the interval before it
    /// and is a sample when it is well formed, its FPS is above 0 and its PID is not 0
    /// (`metrics.md` §10). A row without a timestamp is no row at all.
    fn row(&mut self, row: &Row, line: u64) {
        let l = &self.layout;
        let s = &mut self.samples;
        s.rows += 1;
        let malformed = shape(row, l.header_len);
        let field = |i: usize| row.get(i).unwrap_or(b"");
        let Some(seconds) = seconds(parse_cell(field(l.timestamp))) else {
            match malformed {
                Some(reason) => s.skips.add(line, reason),
                None => self.no_time.add(line),
            }
            return;
        };
        let interval = self.clock.step(seconds).map_or(Interval::Opens, |d| Interval::Closes(d * 1000.0));
        if let Some(reason) = malformed {
            s.skips.add(line, reason);
            s.malformed_timed_row(line, seconds * 1000.0);
            return;
        }
        let pid = match l.process_id.map(|i| parse_cell(field(i))) {
            None | Some(Cell::Missing) => None,
            Some(Cell::Number(v)) if v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) => {
                Some(v as u32)
            }
            Some(_) => {
                self.bad_pid.add(line);
                None
            }
        };
        let frame_time = if pid == Some(0) {
            Err(NotSample::NoGame)
        } else {
            frame_time_from_rate(parse_cell(field(l.fps))).map_err(NotSample::Rate)
        };
        if s.row(line, frame_time, interval, seconds * 1000.0) {
            for &(i, c) in &l.columns {
                s.set(c, field(i), line);
            }
        }
        if let Some(pid) = pid.filter(|&p| p != 0) {
            self.pids.add(pid);
        }
    }
}

/// The process ids of the timed rows: the first names the trace, others are warned
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

/// Seconds in a cell, when they are a number of plausible size (so that differences
/// between timestamps stay finite).
fn seconds(cell: Cell) -> Option<f64> {
    match cell {
        Cell::Number(s) if s.abs() <= MAX_TIME_MS / 1000.0 => Some(s),
        _ => None,
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
}
