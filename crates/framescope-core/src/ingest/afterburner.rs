//! MSI Afterburner hardware-monitoring log (`formats.md` §8): `.hml`, or the same
//! content saved as `.csv`. Every line starts with its type: `00`/`0` the header
//! (`Hardware monitoring log v1.6`), `01`/`1` the GPU name, `02`/`2` the column names
//! (space-padded, duplicates possible), `03`/`3` per-column metadata (skipped), `80`
//! one sample: `80, dd-mm-yyyy HH:MM:SS, v1 ,v2 ,…`.
//!
//! It is a *sampled* log (`metrics.md` §10): one line per polling period (user-set,
//! 0.3–1 s in real logs). A line's rate is the first `Framerate` column, else `1000 /
//! Frametime` when the log has no `Framerate` (`Frametime` is one frame's time at the
//! polling instant, not the period's average, so it is only the fallback). The
//! timestamps have whole seconds only, so every sample's interval is its logging
//! session's polling period `(t_last − t_first) / (rows − 1)` over the session's timed
//! `80` lines, and the sample of line `k` of a session ends `k` periods after its
//! first line, which opens the session. Afterburner appends session after session to
//! one file: a long step between lines starts a new one, a trace of its own
//! (`sessions.rs`).
//! Later duplicates of a name are kept as columns `Name (2)`, `Name (3)`; every column
//! is a sampled sensor ([`ColumnKind::Telemetry`]). The log does not name the game: the
//! application is the file name.

use super::Progress;
use super::builder::SkipReason;
use super::error::{LoadError, LoadErrorKind};
use super::records::{Records, Row};
use super::sampled::{
    CANCEL_CHECK_ROWS, Interval, MAX_TIME_MS, NotSample, Samples, Tally, field_texts, file_stem, first_field,
    first_names, frame_time_from_ms, frame_time_from_rate, mean_interval, no_frames, sampled_warning, shape,
};
use super::sessions::SessionClock;
use super::values::{parse_cell, parse_date_time_ms, trim};
use crate::model::{Capture, ColumnKind, FileInfo, Format, TraceMeta, Warning};
use std::io::BufRead;
use std::path::Path;

/// The most columns kept: a hostile log could otherwise name a new column on every
/// `02` line and make each sample cost far more memory than its line.
const MAX_COLUMNS: usize = 512;

/// Most GPU names kept from `01` lines.
const MAX_GPUS: usize = 16;

/// True when `head` (the first bytes of a file, after any byte-order mark) starts like
/// an Afterburner log: a first line of type `00` or `0` that says "… monitoring log".
pub fn sniff(head: &[u8]) -> bool {
    let first = first_field(head);
    if first != b"00" && first != b"0" {
        return false;
    }
    let start = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    let line = &head[start..];
    let line = &line[..line.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(line.len())];
    let want = b"monitoring log";
    line.windows(want.len()).any(|w| w.eq_ignore_ascii_case(want))
}

/// The columns of the last `02` line.
struct Header {
    /// Fields a sample line must have (line type and time included).
    len: usize,
    /// The rate field, and whether it is a rate (`Framerate`) rather than the
    /// `Frametime` fallback in ms.
    rate: Option<(usize, bool)>,
    /// (field index, sample column index) of every kept column.
    columns: Vec<(usize, usize)>,
}

/// State of the line loop.
#[derive(Default)]
struct Lines {
    samples: Samples,
    header: Option<Header>,
    version: Option<String>,
    system: Vec<(String, String)>,
    /// The names of the last `02` line's value fields (a repeated one empty).
    names: Vec<String>,
    /// The units the `03` lines declare, by column name.
    units: Vec<(String, String)>,
    /// The first and last times (ms) of the timed `80` lines.
    first_ms: Option<f64>,
    last_ms: f64,
    /// True once a `02` line named Framerate or Frametime.
    had_frame_column: bool,
    /// True once a `02` line had no Framerate, so the rate came from Frametime.
    from_frame_time: bool,
    columns_left_out: usize,
    no_time: Tally,
    orphans: Tally,
    unknown: Tally,
}

/// Loads an MSI Afterburner log from `reader` (positioned after any BOM); `path`
/// names it in messages.
pub fn load<R: BufRead>(path: &Path, reader: R, progress: &Progress) -> Result<Capture, LoadError> {
    let io = |e| LoadError::new(path, None, LoadErrorKind::Io(e));
    let mut records = Records::new(reader, 1);
    let mut row = Row::default();
    let mut lines = Lines { samples: Samples::new("Framerate"), ..Lines::default() };
    let mut count = 0u64;
    while let Some(line) = records.next_row(&mut row).map_err(io)? {
        lines.line(&row, line);
        count += 1;
        if count.is_multiple_of(CANCEL_CHECK_ROWS) && progress.is_cancelled() {
            return Err(LoadError::new(path, None, LoadErrorKind::Cancelled));
        }
    }
    lines.finish(path)
}

impl Lines {
    fn line(&mut self, row: &Row, line: u64) {
        if row.is_oversized() {
            self.samples.skips.add(line, SkipReason::Oversized);
            return;
        }
        if (0..row.len()).all(|i| trim(row.get(i).unwrap_or(b"")).is_empty()) {
            return;
        }
        let text = |i: usize| String::from_utf8_lossy(trim(row.get(i).unwrap_or(b""))).into_owned();
        let kind =
            std::str::from_utf8(trim(row.get(0).unwrap_or(b""))).ok().and_then(|t| t.parse::<u32>().ok());
        match kind {
            Some(0) => {
                let v = text(2);
                if self.version.is_none() && !v.is_empty() {
                    self.version = Some(v);
                }
            }
            Some(1) => {
                let gpu = ("GPU".to_owned(), text(2));
                if !gpu.1.is_empty() && self.system.len() < MAX_GPUS && !self.system.contains(&gpu) {
                    self.system.push(gpu);
                }
            }
            Some(2) => self.header(row),
            Some(3) => self.unit(&text(2), &text(3)),
            Some(80) => self.sample(row, line),
            _ => self.unknown.add(line),
        }
    }

    /// A `02` line: the names of the value fields (from the third field on).
    fn header(&mut self, row: &Row) {
        let names = field_texts(row);
        let len = names.iter().rposition(|n| !n.is_empty()).map_or(2, |i| i + 1).max(2);
        let values = names.get(2..len).unwrap_or(&[]);
        let unique = first_names(values);
        self.names.clone_from(&unique);
        let find = |want: &str| values.iter().position(|n| n.eq_ignore_ascii_case(want)).map(|i| i + 2);
        let rate = find("Framerate").map(|i| (i, true)).or_else(|| find("Frametime").map(|i| (i, false)));
        self.had_frame_column |= rate.is_some();
        if rate.is_some_and(|(_, is_rate)| !is_rate) {
            self.from_frame_time = true;
            self.samples.set_rate_name("Frametime");
        }
        let mut columns = Vec::new();
        for (k, name) in unique.into_iter().enumerate() {
            let i = k + 2;
            if name.is_empty() || rate.is_some_and(|(f, _)| f == i) {
                continue;
            }
            let index = match self.samples.column_index(&name) {
                Some(c) => c,
                None if self.samples.column_count() < MAX_COLUMNS => {
                    self.samples.add_column(name, ColumnKind::Telemetry, false)
                }
                None => {
                    self.columns_left_out += 1;
                    continue;
                }
            };
            if !columns.iter().any(|&(_, c)| c == index) {
                columns.push((i, index));
            }
        }
        self.header = Some(Header { len, rate, columns });
    }

    /// A `03` line: the unit of the value field `index` (0 for the first, in the `02`
    /// line's order), e.g. `MB` for "Memory usage"; an empty unit says nothing.
    fn unit(&mut self, index: &str, unit: &str) {
        let name = index.parse::<usize>().ok().and_then(|i| self.names.get(i)).filter(|n| !n.is_empty());
        let room = !unit.is_empty() && self.units.len() < MAX_COLUMNS;
        if let Some(name) = name.filter(|n| room && !self.units.iter().any(|(k, _)| k == *n)) {
            self.units.push((name.clone(), unit.to_owned()));
        }
    }

    /// An `80` line: a polling instant; a sample unless it is the first or has no rate.
    fn sample(&mut self, row: &Row, line: u64) {
        let s = &mut self.samples;
        s.rows += 1;
        let Some(h) = &self.header else {
            self.orphans.add(line);
            return;
        };
        let malformed = shape(row, h.len);
        let field = |i: usize| row.get(i).unwrap_or(b"");
        let Some(time_ms) = parse_time_ms(field(1)) else {
            match malformed {
                Some(reason) => s.skips.add(line, reason),
                None => self.no_time.add(line),
            }
            return;
        };
        let interval = if self.first_ms.is_none() { Interval::Opens } else { Interval::Polled };
        self.first_ms.get_or_insert(time_ms);
        self.last_ms = time_ms;
        if let Some(reason) = malformed {
            s.skips.add(line, reason);
            s.malformed_timed_row(line, time_ms);
            return;
        }
        let frame_time = match h.rate {
            None => Err(SkipReason::MissingFrameTime),
            Some((i, true)) => frame_time_from_rate(parse_cell(field(i))),
            Some((i, false)) => frame_time_from_ms(parse_cell(field(i))),
        };
        if s.row(line, frame_time.map_err(NotSample::Rate), interval, time_ms) {
            for &(i, c) in &h.columns {
                s.set(c, field(i), line);
            }
        }
    }

    fn finish(self, path: &Path) -> Result<Capture, LoadError> {
        // The whole log's polling period, for a log of one session (metrics.md §10);
        // each session's own is set by `finish_sessions`.
        let timed = self.samples.timed_rows;
        let first = self.first_ms.unwrap_or(0.0);
        let period = (timed >= 2).then(|| (self.last_ms - first) / (timed - 1) as f64);
        let mut extra = self
            .no_time
            .skipped("sample line has no usable date and time (dd-mm-yyyy HH:MM:SS); skipped", |n| {
                format!("{n} sample lines have no usable date and time (dd-mm-yyyy HH:MM:SS); skipped")
            });
        extra.extend(self.orphans.skipped("sample line (80) before the column names (02); skipped", |n| {
            format!("{n} sample lines (80) come before the column names (02); skipped")
        }));
        let meta = TraceMeta::named(file_stem(path));
        let rows = self.samples.rows;
        let empty = self.samples.why_empty();
        let why = if rows == 0 {
            Some("the log has no sample lines (line type 80)".to_owned())
        } else if !self.had_frame_column {
            Some(
                "the log has no Framerate or Frametime column (turn on the framerate or frame time graph in \
                 Afterburner's monitoring settings and log again)"
                    .to_owned(),
            )
        } else if empty.is_none() && !period.is_some_and(|p| p > 0.0 && p.is_finite()) {
            Some(format!(
                "its {timed} timed sample lines do not advance in time (the last is not later than the \
                 first), so the log has no polling period"
            ))
        } else {
            empty
        };
        if let Some(why) = why {
            return Err(no_frames(path, why, &self.samples.finish(meta, extra)));
        }
        let (mut traces, notes) = self.samples.finish_sessions(meta, extra, SessionClock::WallClock, true);
        for t in &mut traces {
            let has = |name: &str| t.frames.columns.iter().any(|c| c.name == name);
            t.frames.units = self.units.iter().filter(|(n, _)| has(n)).cloned().collect();
        }
        if traces.is_empty() {
            let why = "no logging session of the log has a polling period (its timed lines do not advance)";
            return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(why.into())));
        }
        let rate =
            if self.from_frame_time { "1000 / Frametime: the log has no Framerate" } else { "Framerate" };
        let period = if notes.is_empty() { period } else { mean_interval(&traces) };
        let mut warnings = vec![sampled_warning("MSI Afterburner", period, rate)];
        warnings.extend(notes);
        if self.columns_left_out > 0 {
            warnings.push(Warning::file(format!(
                "the log names more than {MAX_COLUMNS} columns; {} column names were left out",
                self.columns_left_out
            )));
        }
        warnings.extend(
            self.unknown.skipped("line type is not one of 00, 01, 02, 03 or 80; line skipped", |n| {
                format!("{n} lines have a line type that is not 00, 01, 02, 03 or 80; skipped")
            }),
        );
        let info = FileInfo {
            path: path.to_path_buf(),
            format: Format::Afterburner,
            format_version: self.version.unwrap_or_else(|| "hardware monitoring log".into()),
            system: self.system,
            dropped_known: false,
            target_fps: None,
        };
        Ok(Capture { info, traces, warnings })
    }
}

/// Afterburner's `dd-mm-yyyy HH:MM:SS` in ms since 1970-01-01 (the zone does not
/// matter: only differences are used).
fn parse_time_ms(cell: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(trim(cell)).ok()?;
    let (date, time) = text.split_once(' ')?;
    let mut parts = date.split(['-', '.', '/']);
    let (day, month, year) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    parse_date_time_ms(&format!("{year}-{month}-{day} {}", time.trim())).filter(|t| t.abs() <= MAX_TIME_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_the_first_line() {
        assert!(sniff(b"00, 03-06-2021 18:55:13, Hardware monitoring log v1.6 \r\n01, x"));
        assert!(sniff(b"0, 24-10-2025 16:56:05, Hardware monitoring log v1.6 ,,,\r\n"));
        assert!(!sniff(b"0,1,2\n"));
        assert!(!sniff(b"80, 03-06-2021 18:55:13, Hardware monitoring log\n"));
    }

    #[test]
    fn day_month_year_times() {
        let a = parse_time_ms(b" 31-12-2021 23:59:59").unwrap_or(f64::NAN);
        let b = parse_time_ms(b"01-01-2022 00:00:01 ").unwrap_or(f64::NAN);
        assert!((b - a - 2000.0).abs() < 1e-6);
        assert_eq!(parse_time_ms(b"13-13-2021 00:00:00"), None);
        assert_eq!(parse_time_ms(b"N/A"), None);
        assert_eq!(parse_time_ms(b""), None);
    }
}
