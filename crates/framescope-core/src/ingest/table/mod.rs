//! CSV reading shared by the engine and generic readers (`formats.md` §7, §10, §11):
//! the top of the file (`#` lines, the header, its separator), rows with their file
//! line numbers, cells with decimal commas, and the accumulation of a capture's
//! numeric columns in bounded memory.
//!
//! The PresentMon-family fast path (`csv_capture.rs`) is separate: these formats are
//! rarer and smaller, and they need what it does not do (`;` separators, rows shorter
//! than the header, labelled events, a footer).

use super::builder::{SkipLog, SkipReason};
use super::overflow::plausible_duration;
use super::preamble::{plain_fields, split_trimmed};
use super::records::{Records, Row};
use super::values::{self, Cell};
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{
    Column, ColumnKind, Event, Frames, Lines, Trace, TraceMeta, ValuesBuilder, Warning, push_grown,
};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The longest line accepted before and as the header.
const MAX_HEAD_LINE_BYTES: usize = 256 * 1024;
/// How many lines may stand before the header.
const MAX_HEAD_LINES: u64 = 1000;
/// Column cells kept at most (about 4 bytes each): beyond, the telemetry columns are
/// left out (with a warning) and the frame times and health actions kept.
const MAX_CELLS: u64 = 1 << 25;
/// Rows between two looks at the cancel flag (and preview updates).
const CHECK_ROWS: u64 = 8192;

/// The top of a CSV file up to its header.
#[derive(Debug, Clone, Default)]
pub struct Head {
    /// `#` lines before the header, without the `#`, trimmed.
    pub meta_lines: Vec<String>,
    /// The header names, trimmed, in file order.
    pub header: Vec<String>,
    /// 1-based line of the header.
    pub header_line: u64,
    /// The field separator (`,`, or `;` / tab when the header has more of them).
    pub sep: u8,
}

impl Head {
    /// True when cells may use a decimal comma (`;`-separated files, `formats.md` §11).
    #[must_use]
    pub fn decimal_comma(&self) -> bool {
        self.sep == b';'
    }

    /// The number of names up to the last one that is not empty (a trailing separator
    /// in the header names nothing).
    #[must_use]
    pub fn width(&self) -> usize {
        self.header.iter().rposition(|n| !n.is_empty()).map_or(0, |i| i + 1)
    }

    /// The first column whose name is `name` (trimmed, any case).
    #[must_use]
    pub fn find(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        self.header.iter().position(|h| h.eq_ignore_ascii_case(name))
    }
}

/// Reads lines up to and including the header. Returns the bytes read (to hand the
/// file to another reader unchanged) and the head, or `None` when the top is not
/// plain CSV text of this kind (CapFrameX `//` lines, binary data, overlong lines,
/// no header): the PresentMon-family reader then explains what it found.
pub(super) fn peek_head<R: BufRead>(reader: &mut R) -> std::io::Result<(Vec<u8>, Option<Head>)> {
    let mut raw = Vec::new();
    let mut head = Head::default();
    let mut line_no = 0u64;
    loop {
        let start = raw.len();
        let n = reader.by_ref().take(MAX_HEAD_LINE_BYTES as u64 + 1).read_until(b'\n', &mut raw)?;
        if n == 0 {
            return Ok((raw, None));
        }
        line_no += 1;
        if n > MAX_HEAD_LINE_BYTES || line_no > MAX_HEAD_LINES {
            return Ok((raw, None));
        }
        let mut bytes = &raw[start..];
        if line_no == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        if bytes.contains(&0) {
            return Ok((raw, None));
        }
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Ok((raw, None));
        };
        let text = text.trim_end_matches(['\r', '\n']);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("//") {
            return Ok((raw, None));
        }
        if let Some(meta) = trimmed.strip_prefix('#') {
            head.meta_lines.push(meta.trim().to_owned());
            continue;
        }
        head.sep = separator(text);
        head.header = split_line(text, head.sep);
        head.header_line = line_no;
        return Ok((raw, Some(head)));
    }
}

/// `;` when the header has more semicolons than commas (spreadsheets in many
/// locales), a tab when it has tabs and neither, else `,`.
fn separator(header: &str) -> u8 {
    let count = |c: char| header.chars().filter(|&x| x == c).count();
    let (commas, semis, tabs) = (count(','), count(';'), count('\t'));
    if semis > commas {
        b';'
    } else if commas == 0 && tabs > 0 {
        b'\t'
    } else {
        b','
    }
}

/// The trimmed fields of one line (quotes honoured).
fn split_line(text: &str, sep: u8) -> Vec<String> {
    plain_fields(text, char::from(sep)).unwrap_or_else(|| split_quoted(text, sep))
}

/// [`split_line`] through csv.
fn split_quoted(text: &str, sep: u8) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(sep)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut rec = csv::StringRecord::new();
    match rdr.read_record(&mut rec) {
        Ok(true) => rec.iter().map(str::to_owned).collect(),
        _ => split_trimmed(text, char::from(sep)),
    }
}

/// A numeric cell; with `decimal_comma`, `15,625` is 15.625 (only a comma between
/// digits, nothing else, so thousands groupings stay text).
#[must_use]
pub fn number(cell: &[u8], decimal_comma: bool) -> Cell {
    if decimal_comma && cell.contains(&b',') {
        let t = values::trim(cell);
        let Some(k) = t.iter().position(|&b| b == b',') else { return values::parse_cell(cell) };
        let (int, frac) = (&t[..k], &t[k + 1..]);
        let int_digits = int.strip_prefix(b"-").or_else(|| int.strip_prefix(b"+")).unwrap_or(int);
        let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
        if digits(int_digits) && digits(frac) {
            let mut fixed = t.to_vec();
            fixed[k] = b'.';
            return values::parse_cell(&fixed);
        }
        return Cell::Invalid;
    }
    values::parse_cell(cell)
}

/// The rows after the header, each with its 1-based file line, read with `csv_core`
/// ([`Records`]): a row over 1 MiB or 100 000 fields (the PresentMon reader's limits)
/// is read through without being kept, so a hostile row costs no more than that.
pub(super) struct Rows<R: Read> {
    records: Records<BufReader<R>>,
    row: Row,
    oversized: bool,
    path: std::path::PathBuf,
}

impl<R: Read> Rows<R> {
    /// Rows of `reader`, which stands just after the header of `head`.
    pub(super) fn new(path: &Path, reader: R, head: &Head) -> Self {
        let input = BufReader::with_capacity(1 << 16, reader);
        let records = Records::with_delimiter(input, head.header_line + 1, head.sep);
        Self { records, row: Row::default(), oversized: false, path: path.to_path_buf() }
    }

    /// The next row into `rec` (its fields trimmed) and its line; `None` at the end.
    /// Blank lines are passed over. An oversized row comes back empty.
    pub(super) fn next(&mut self, rec: &mut csv::ByteRecord) -> Result<Option<u64>, LoadError> {
        rec.clear();
        let line = self
            .records
            .next_row(&mut self.row)
            .map_err(|e| LoadError::new(&self.path, None, LoadErrorKind::Io(e)))?;
        self.oversized =
            line.is_some() && (self.row.is_oversized() || self.row.len() > super::records::MAX_ROW_FIELDS);
        if line.is_some() && !self.oversized {
            for i in 0..self.row.len() {
                rec.push_field(self.row.get(i).unwrap_or_default().trim_ascii());
            }
        }
        Ok(line)
    }

    /// Why the last row is no frame when it was too long to keep, else `None`.
    pub(super) fn oversized(&self) -> Option<SkipReason> {
        self.oversized.then_some(SkipReason::Oversized)
    }
}

/// Reads every row after `head` from `reader` and hands it to `row` with its line: the
/// row's fields, or why it cannot be read (too long to keep). The cancel flag is looked
/// at every [`CHECK_ROWS`] rows. Returns how many rows were read. The loop of the
/// readers that keep their own state (the sampled and latency logs).
pub(super) fn each_row<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    progress: &Progress,
    mut row: impl FnMut(Result<&csv::ByteRecord, SkipReason>, u64),
) -> Result<u64, LoadError> {
    let mut rows = Rows::new(path, reader, head);
    let mut rec = csv::ByteRecord::new();
    let mut n = 0u64;
    while let Some(line) = rows.next(&mut rec)? {
        n += 1;
        if n.is_multiple_of(CHECK_ROWS) && progress.is_cancelled() {
            return Err(LoadError::new(path, None, LoadErrorKind::Cancelled));
        }
        row(rows.oversized().map_or(Ok(&rec), Err), line);
    }
    Ok(n)
}

/// How a column's cells become values.
#[derive(Debug, Clone)]
pub(super) struct ColumnSpec {
    /// Field position in a row.
    pub pos: usize,
    /// Header name (may be set later, Unreal's footer).
    pub name: String,
    /// What it measures.
    pub kind: ColumnKind,
    /// Factor to ms (or 1 for non-time columns).
    pub scale: f64,
    /// A 0 cell is no value (Unity's `gpuFrameTime`).
    pub zero_missing: bool,
}

/// A capture's frames as they are read: frame times, start times, lines, the numeric
/// columns (compact), events and skipped rows. The per-frame lists grow by a quarter
/// once long ([`push_grown`]) and the lines are kept compactly ([`Lines`]), so a file of
/// short rows (FRAPS: about 20 bytes a frame) is not outgrown by its own frames.
pub(super) struct Accumulator {
    pub frame_time_ms: Vec<f64>,
    pub start_ms: Vec<f64>,
    pub line: Lines,
    pub events: Vec<Event>,
    pub skips: SkipLog,
    pub warnings: Vec<Warning>,
    specs: Vec<ColumnSpec>,
    values: Vec<ValuesBuilder>,
    invalid: Vec<super::builder::InvalidCells>,
    /// Duration cells of 10⁶ ms or more, read as missing (`metrics.md` §1).
    overflow: super::overflow::OverflowLog,
    decimal_comma: bool,
    cells: u64,
    telemetry_dropped: bool,
    rows: u64,
    previewed: usize,
}

impl Accumulator {
    pub(super) fn new(specs: Vec<ColumnSpec>, decimal_comma: bool) -> Self {
        let n = specs.len();
        Self {
            frame_time_ms: Vec::new(),
            start_ms: Vec::new(),
            line: Lines::default(),
            events: Vec::new(),
            skips: SkipLog::default(),
            warnings: Vec::new(),
            specs,
            values: vec![ValuesBuilder::default(); n],
            invalid: vec![super::builder::InvalidCells::default(); n],
            overflow: super::overflow::OverflowLog::default(),
            decimal_comma,
            cells: 0,
            telemetry_dropped: false,
            rows: 0,
            previewed: 0,
        }
    }

    /// A frame time read from a cell, scaled to ms, or why the row is no frame.
    pub(super) fn frame_time(&self, cell: Option<&[u8]>, scale: f64) -> Result<f64, SkipReason> {
        match cell.map_or(Cell::Missing, |c| number(c, self.decimal_comma)) {
            Cell::Missing => Err(SkipReason::MissingFrameTime),
            Cell::Invalid => Err(SkipReason::InvalidFrameTime),
            Cell::Number(v) => check_frame_time(v * scale),
        }
    }

    /// Adds a column found after reading began (Unreal stats that appear mid-capture):
    /// the frames before it have no value there.
    pub(super) fn add_column(&mut self, spec: ColumnSpec) {
        if self.telemetry_dropped && is_plain_column(spec.kind) {
            // Memory ran short already: no new telemetry. An empty placeholder keeps the
            // column positions of later names meaningful.
            return;
        }
        let n = self.frame_time_ms.len();
        self.cells += n as u64;
        let mut v = ValuesBuilder::default();
        v.extend(std::iter::repeat_n(f64::NAN, n));
        self.specs.push(spec);
        self.values.push(v);
        self.invalid.push(super::builder::InvalidCells::default());
        self.check_cells();
    }

    /// The column specs (to name them once the header is known).
    pub(super) fn specs_mut(&mut self) -> &mut [ColumnSpec] {
        &mut self.specs
    }

    /// Keeps a frame: its time, start, line and every column's cell of `rec`.
    pub(super) fn push(&mut self, rec: &csv::ByteRecord, frame_time_ms: f64, start_ms: f64, line: u64) {
        push_grown(&mut self.frame_time_ms, frame_time_ms);
        push_grown(&mut self.start_ms, start_ms);
        self.line.push(line);
        for ((spec, values), invalid) in self.specs.iter().zip(&mut self.values).zip(&mut self.invalid) {
            let v = match rec.get(spec.pos).map_or(Cell::Missing, |c| number(c, self.decimal_comma)) {
                Cell::Number(v) if spec.zero_missing && v == 0.0 => f64::NAN,
                Cell::Number(v) if spec.kind.is_duration_ms() && !plausible_duration(v * spec.scale) => {
                    self.overflow.note(&spec.name, line, v * spec.scale);
                    f64::NAN
                }
                Cell::Number(v) => v * spec.scale,
                Cell::Missing => f64::NAN,
                Cell::Invalid => {
                    if let Some(c) = rec.get(spec.pos) {
                        invalid.note(line, c);
                    }
                    f64::NAN
                }
            };
            values.push(v);
        }
        self.cells += self.specs.len() as u64;
        self.check_cells();
    }

    /// Keeps memory bounded: past [`MAX_CELLS`] the telemetry columns go.
    fn check_cells(&mut self) {
        if self.cells <= MAX_CELLS || self.telemetry_dropped {
            return;
        }
        self.telemetry_dropped = true;
        let keep: Vec<bool> = self.specs.iter().map(|s| !is_plain_column(s.kind)).collect();
        let mut k = keep.iter();
        self.specs.retain(|_| *k.next().unwrap_or(&false));
        let mut k = keep.iter();
        self.values.retain(|_| *k.next().unwrap_or(&false));
        let mut k = keep.iter();
        self.invalid.retain(|_| *k.next().unwrap_or(&false));
        self.cells = self.specs.len() as u64 * self.frame_time_ms.len() as u64;
        self.warnings.push(Warning::file(
            "the capture has so many columns over so many rows that its telemetry columns were left out to \
             stay within memory; frame times and health actions are kept",
        ));
    }

    /// Records a skipped row.
    pub(super) fn skip(&mut self, line: u64, reason: SkipReason) {
        self.skips.add(line, reason);
    }

    /// Counts a row read; every [`CHECK_ROWS`] rows feeds the load preview and looks at
    /// the cancel flag.
    pub(super) fn tick(&mut self, progress: &Progress, path: &Path) -> Result<(), LoadError> {
        self.rows += 1;
        if self.rows.is_multiple_of(CHECK_ROWS) {
            if progress.is_cancelled() {
                return Err(LoadError::new(path, None, LoadErrorKind::Cancelled));
            }
            progress.extend_preview(false, self.frame_time_ms.get(self.previewed..).unwrap_or_default());
            self.previewed = self.frame_time_ms.len();
        }
        Ok(())
    }

    /// Removes the frames at positions where `drop` is true (Unreal rows longer than
    /// the final header, known only at its end).
    pub(super) fn remove_frames(&mut self, drop: &[bool]) {
        let keep = |v: &mut Vec<f64>| {
            let mut k = drop.iter();
            v.retain(|_| !k.next().copied().unwrap_or(false));
        };
        keep(&mut self.frame_time_ms);
        keep(&mut self.start_ms);
        let lines = std::mem::take(&mut self.line);
        self.line = lines
            .iter()
            .zip(drop.iter().chain(std::iter::repeat(&false)))
            .filter(|(_, d)| !**d)
            .map(|(l, _)| l)
            .collect();
        for values in &mut self.values {
            let old = std::mem::take(values).finish();
            let mut fresh = ValuesBuilder::default();
            fresh.extend(old.iter().zip(drop).filter(|(_, d)| !**d).map(|(v, _)| v));
            *values = fresh;
        }
        // Events move to the frame that now holds their position.
        let mut new_index = Vec::with_capacity(drop.len());
        let mut next = 0usize;
        for &d in drop {
            new_index.push(next);
            if !d {
                next += 1;
            }
        }
        let n = self.frame_time_ms.len();
        self.events.retain_mut(|e| match new_index.get(e.frame) {
            Some(&i) if i < n => {
                e.frame = i;
                true
            }
            _ => false,
        });
    }

    /// The trace: `meta`, the frames, every column with at least one number, the
    /// skipped rows and the reader's warnings. Start times are relative to the first
    /// frame; event times follow them.
    pub(super) fn finish(self, meta: TraceMeta) -> Trace {
        let mut warnings = self.skips.warnings();
        warnings.extend(self.warnings);
        warnings.extend(self.overflow.warnings());
        let mut start_ms = self.start_ms;
        if let Some(&s0) = start_ms.first() {
            for s in &mut start_ms {
                *s -= s0;
            }
        }
        let mut columns = Vec::new();
        for ((spec, values), invalid) in self.specs.into_iter().zip(self.values).zip(self.invalid) {
            let has_numbers = values.any_present();
            warnings.extend(invalid.warning(&spec.name, has_numbers));
            // Engine roles stay even without a number ("the file has this column").
            if has_numbers || !is_plain_column(spec.kind) {
                columns.push(Column { name: spec.name, kind: spec.kind, values: values.finish() });
            }
        }
        let mut events = self.events;
        for e in &mut events {
            e.time_ms = start_ms.get(e.frame).copied().unwrap_or(0.0);
        }
        warnings.sort_by_key(|w| w.line);
        // No display data: `display_ms` and `dropped` stay empty.
        let mut frames = Frames {
            frame_time_ms: self.frame_time_ms,
            start_ms,
            line: self.line,
            columns,
            events,
            ..Frames::default()
        };
        frames.shrink_to_fit();
        Trace { meta, frames, warnings }
    }
}

/// Columns without an engine role (telemetry, flags): left out when memory runs short
/// or when they hold no number.
fn is_plain_column(kind: ColumnKind) -> bool {
    !matches!(kind, ColumnKind::EngineThread | ColumnKind::EngineGpu | ColumnKind::LatencyStage)
}

/// Frame times under 1 ns or of 10⁶ ms or more are no real frame (`metrics.md` §1).
pub(super) fn check_frame_time(v: f64) -> Result<f64, SkipReason> {
    if !v.is_finite() {
        Err(SkipReason::InvalidFrameTime)
    } else if v <= 0.0 {
        Err(SkipReason::NonPositiveFrameTime)
    } else if !super::overflow::PLAUSIBLE_FRAME_TIME_MS.contains(&v) {
        Err(SkipReason::ImplausibleFrameTime)
    } else {
        Ok(v)
    }
}

/// The trace's metadata for a one-trace format: the file name's stem as application.
pub(super) fn meta_for(path: &Path) -> TraceMeta {
    TraceMeta::named(super::sampled::file_stem(path))
}

#[cfg(test)]
mod tests;
