//! Data rows of a CSV capture, with the file line each row starts on.
//!
//! Built on `csv_core`, fed from a `BufRead`: every byte a record consumes is seen
//! here, so line numbers count `\n`, `\r\n` and lone `\r` line ends alike and stay
//! right across blank lines and quoted fields that span lines.

use super::values::{Cell, parse_cell};
use std::io::BufRead;

/// The longest row kept, in bytes; longer rows are read through and reported.
pub const MAX_ROW_BYTES: usize = 1 << 20;
/// The most fields a row may have.
pub const MAX_ROW_FIELDS: usize = 100_000;

/// One data row: its fields as byte slices.
#[derive(Debug, Clone, Default)]
pub struct Row {
    data: Vec<u8>,
    ends: Vec<usize>,
    len: usize,
    oversized: bool,
}

impl Row {
    /// True when the row was longer than [`MAX_ROW_BYTES`] or had more than
    /// [`MAX_ROW_FIELDS`] fields: its content was dropped while reading.
    pub fn is_oversized(&self) -> bool {
        self.oversized
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Field `i`, if the row has it.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        if i >= self.len {
            return None;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.data.get(start..self.ends[i])
    }
}

/// The fields of one data row, however it was split.
pub trait Fields {
    /// Number of fields.
    fn len(&self) -> usize;
    /// Field `i`, if the row has it.
    fn get(&self, i: usize) -> Option<&[u8]>;
    /// True when the row was too long to keep (see [`Row::is_oversized`]).
    fn is_oversized(&self) -> bool;
    /// The row as [`Row`], when it is one (MangoHud's reader wants it).
    fn as_row(&self) -> Option<&Row> {
        None
    }
    /// Field `i` parsed as a numeric cell (an absent field is empty: missing).
    #[inline]
    fn cell(&self, i: usize) -> Cell {
        parse_cell(self.get(i).unwrap_or(b""))
    }
    /// The decimal step field `i` is written with ([`decimal_step`]).
    #[inline]
    fn step(&self, i: usize) -> f64 {
        decimal_step(self.get(i).unwrap_or(b""))
    }
}

/// The step a decimal cell is written with: `10.01` → 0.01, `123` → 1, `1e-3` → 0
/// (exponent notation says nothing about rounding).
#[must_use]
pub fn decimal_step(cell: &[u8]) -> f64 {
    let b = cell.trim_ascii();
    if b.iter().any(|c| matches!(c, b'e' | b'E')) {
        return 0.0;
    }
    match b.iter().position(|&c| c == b'.') {
        Some(dot) => 10f64.powi(-((b.len() - dot - 1).min(300) as i32)),
        None => 1.0,
    }
}

/// Which fields the splitting stage parses ahead (in parallel, per block), so that
/// the stage that builds traces only reads numbers: the frame-time, dropped, display
/// and time columns and every numeric column. The time column's decimal step too.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Per field index: its slot, or [`NO_SLOT`].
    slot: Vec<u32>,
    /// The field of each slot.
    fields: Vec<usize>,
    /// The field whose decimal step is kept.
    step_field: Option<usize>,
}

const NO_SLOT: u32 = u32::MAX;

impl Plan {
    /// A plan for `fields` (repeats ignored) and the decimal step of `step_field`.
    #[must_use]
    pub fn new(fields: impl IntoIterator<Item = usize>, step_field: Option<usize>) -> Self {
        let mut plan = Self { step_field, ..Self::default() };
        for f in fields {
            if plan.slot.len() <= f {
                plan.slot.resize(f + 1, NO_SLOT);
            }
            if plan.slot[f] == NO_SLOT {
                plan.slot[f] = plan.fields.len() as u32;
                plan.fields.push(f);
            }
        }
        plan
    }

    fn width(&self) -> usize {
        self.fields.len() + usize::from(self.step_field.is_some())
    }
}

/// A parsed cell kept as an `f64`: a number is itself; missing and invalid cells are
/// NaNs with payloads of their own (parsing never yields a NaN).
const MISSING_BITS: u64 = 0x7FF8_0000_0000_0A11;
const INVALID_BITS: u64 = 0x7FF8_0000_0000_0BAD;

fn encode_cell(c: Cell) -> f64 {
    match c {
        Cell::Number(v) => v,
        Cell::Missing => f64::from_bits(MISSING_BITS),
        Cell::Invalid => f64::from_bits(INVALID_BITS),
    }
}

#[inline]
fn decode_cell(v: f64) -> Cell {
    match v.to_bits() {
        MISSING_BITS => Cell::Missing,
        INVALID_BITS => Cell::Invalid,
        _ => Cell::Number(v),
    }
}

impl Fields for Row {
    fn len(&self) -> usize {
        Row::len(self)
    }
    fn get(&self, i: usize) -> Option<&[u8]> {
        Row::get(self, i)
    }
    fn is_oversized(&self) -> bool {
        Row::is_oversized(self)
    }
    fn as_row(&self) -> Option<&Row> {
        Some(self)
    }
}

/// Lines longer than this are split by [`Records`] (the exact rules for oversized
/// rows) rather than by the block splitter.
const FAST_ROW_BYTES: usize = 1 << 18;
/// Rows with more fields than this are split by [`Records`] too.
const FAST_ROW_FIELDS: usize = 1 << 15;

/// One row of a [`Block`]: where its bytes are and where its field ends are.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
    /// Index of the row's first field end in [`Block::ends`].
    first: u32,
    /// Number of fields; [`SLOW`] when the row is to be split by [`Records`].
    fields: u32,
}

const SLOW: u32 = u32::MAX;

/// Whole lines of a quote-free CSV, split into rows and fields without copying: the
/// bytes are read once into the block, rows are found with `memchr`, fields by
/// their commas. Line numbers count every line (blank ones too).
#[derive(Debug, Default)]
pub struct Block {
    data: Vec<u8>,
    rows: Vec<Span>,
    ends: Vec<u32>,
    lines: Vec<u64>,
    /// Per row, the planned fields parsed ([`Plan`]), then the time column's step.
    cells: Vec<f64>,
    plan: std::sync::Arc<Plan>,
}

/// A row of a [`Block`].
#[derive(Debug, Clone, Copy)]
pub struct BlockRow<'a> {
    data: &'a [u8],
    span: Span,
    ends: &'a [u32],
    cells: &'a [f64],
    plan: &'a Plan,
}

impl Fields for BlockRow<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.span.fields as usize
    }
    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        if i >= self.span.fields as usize {
            return None;
        }
        let start = if i == 0 { self.span.start } else { self.ends[i - 1] + 1 };
        self.data.get(start as usize..self.ends[i] as usize)
    }
    fn is_oversized(&self) -> bool {
        false
    }
    #[inline]
    fn cell(&self, i: usize) -> Cell {
        match self.plan.slot.get(i).and_then(|&s| self.cells.get(s as usize)) {
            Some(&v) => decode_cell(v),
            None => parse_cell(self.get(i).unwrap_or(b"")),
        }
    }
    #[inline]
    fn step(&self, i: usize) -> f64 {
        match (self.plan.step_field, self.cells.get(self.plan.fields.len())) {
            (Some(f), Some(&step)) if f == i => step,
            _ => decimal_step(self.get(i).unwrap_or(b"")),
        }
    }
}

/// A row of a block: split in place, or (a very long line) by [`Records`].
pub enum BlockItem<'a> {
    /// Split in place.
    Fast(BlockRow<'a>),
    /// The line's bytes, to split with [`Records`].
    Slow(&'a [u8]),
}

impl Block {
    /// Number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when the block holds no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Row `k` and the line it is on.
    #[must_use]
    pub fn row(&self, k: usize) -> (BlockItem<'_>, u64) {
        let span = self.rows[k];
        let line = self.lines[k];
        if span.fields == SLOW {
            return (BlockItem::Slow(&self.data[span.start as usize..span.end as usize]), line);
        }
        let ends = &self.ends[span.first as usize..(span.first + span.fields) as usize];
        let w = self.plan.width();
        let cells = self.cells.get(k * w..(k + 1) * w).unwrap_or(&[]);
        (BlockItem::Fast(BlockRow { data: &self.data, span, ends, cells, plan: &self.plan }), line)
    }

    /// Parses the planned fields of every row ahead ([`Plan`]) — unless that would
    /// take more than twice the block's bytes (thousands of mostly empty columns): the
    /// builder then parses the cells it reads itself.
    pub fn parse(&mut self, plan: &std::sync::Arc<Plan>) {
        self.plan = std::sync::Arc::clone(plan);
        self.cells.clear();
        let w = plan.width();
        if self.rows.len() * w * 8 > 2 * self.data.len() + 4096 {
            return;
        }
        self.cells.reserve(self.rows.len() * w);
        for k in 0..self.rows.len() {
            let span = self.rows[k];
            if span.fields == SLOW {
                self.cells.extend(std::iter::repeat_n(f64::NAN, w));
                continue;
            }
            let ends = &self.ends[span.first as usize..(span.first + span.fields) as usize];
            let row = BlockRow { data: &self.data, span, ends, cells: &[], plan: &Plan::default() };
            for &f in &plan.fields {
                self.cells.push(encode_cell(row.cell(f)));
            }
            if let Some(f) = plan.step_field {
                self.cells.push(row.step(f));
            }
        }
    }

    /// Moves every line number on by `offset` (blocks are split in parallel, each
    /// counting its lines from 0).
    pub fn shift_lines(&mut self, offset: u64) {
        self.lines.iter_mut().for_each(|l| *l += offset);
    }

    /// Splits `data` (whole lines: it ends with `\n` or at the end of the input; no
    /// quote and no lone `\r` in it), whose first byte is on line `first_line`.
    /// Returns the line after the last.
    pub fn fill(&mut self, data: Vec<u8>, first_line: u64) -> u64 {
        self.data = data;
        self.rows.clear();
        self.ends.clear();
        self.lines.clear();
        let mut row = RowScan { start: 0, first: 0, fields: 0 };
        let mut line = first_line;
        let (rows, ends, lines) = (&mut self.rows, &mut self.ends, &mut self.lines);
        let data = &self.data;
        // One pass finds every comma and line break; a row's field ends are pushed as
        // its commas go by, up to FAST_ROW_FIELDS (a longer row goes to `Records`).
        for_each_separator(data, |pos, newline| {
            if newline {
                row.finish(data, pos, line, rows, ends, lines);
                line += 1;
                row = RowScan { start: pos + 1, first: ends.len() as u32, fields: 0 };
            } else {
                row.fields += 1;
                if row.fields < FAST_ROW_FIELDS {
                    ends.push(pos as u32);
                }
            }
        });
        if row.start < data.len() {
            row.finish(data, data.len(), line, rows, ends, lines);
            line += 1;
        }
        line
    }

    /// Gives the block's buffer back for reuse.
    pub fn take_data(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.data)
    }
}

/// The row being scanned by [`Block::fill`].
struct RowScan {
    start: usize,
    /// Index of its first field end in `Block::ends`.
    first: u32,
    /// Commas seen so far.
    fields: usize,
}

impl RowScan {
    /// Ends the row at the line break at `nl` (or the end of the data): a blank line
    /// adds no row; a row too long or too wide for the fast path is marked [`SLOW`].
    fn finish(
        &self,
        data: &[u8],
        nl: usize,
        line: u64,
        rows: &mut Vec<Span>,
        ends: &mut Vec<u32>,
        lines: &mut Vec<u64>,
    ) {
        let pos = self.start;
        let mut end = nl;
        if end > pos && data[end - 1] == b'\r' {
            end -= 1;
        }
        if end == pos {
            return;
        }
        let fields = self.fields + 1;
        let span = if end - pos <= FAST_ROW_BYTES && fields <= FAST_ROW_FIELDS {
            ends.push(end as u32);
            Span { start: pos as u32, end: end as u32, first: self.first, fields: fields as u32 }
        } else {
            ends.truncate(self.first as usize);
            Span { start: pos as u32, end: (nl + 1).min(data.len()) as u32, first: self.first, fields: SLOW }
        };
        rows.push(span);
        lines.push(line);
    }
}

/// Calls `f(position, is_line_break)` for every `,` and `\n` of `data`, in order:
/// eight bytes at a time into bit masks, then one call per set bit.
#[inline]
fn for_each_separator(data: &[u8], mut f: impl FnMut(usize, bool)) {
    let mut words = data.chunks_exact(8);
    let mut base = 0usize;
    for word in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(word);
        let (commas, breaks) = masks(u64::from_le_bytes(b));
        let mut m = commas | breaks;
        while m != 0 {
            let i = m.trailing_zeros();
            f(base + (i / 8) as usize, breaks >> i & 1 == 1);
            m &= m - 1;
        }
        base += 8;
    }
    for (i, &b) in words.remainder().iter().enumerate() {
        if b == b',' || b == b'\n' {
            f(base + i, b == b'\n');
        }
    }
}

/// The high bit of each byte of `x` that is zero, exactly (no borrow from one byte
/// into the next).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

/// Bit `8·j + 7` set where byte `j` of the 8 bytes at `at` is a comma, and where
/// it is a line break: eight bytes compared at once in a `u64`.
#[inline]
fn masks(word: u64) -> (u64, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    (zero_bytes(word ^ (ONES * u64::from(b','))), zero_bytes(word ^ (ONES * u64::from(b'\n'))))
}

/// True when `data` can be split by [`Block::fill`]: no quote (fields may hold
/// commas or line breaks) and no lone `\r` (a classic-Mac line end).
#[must_use]
pub fn splits_plainly(data: &[u8]) -> bool {
    if memchr::memchr(b'"', data).is_some() {
        return false;
    }
    memchr::memchr_iter(b'\r', data).all(|k| data.get(k + 1) == Some(&b'\n'))
}

/// Counts line breaks: `\r\n`, `\n` and a lone `\r` each end one line.
#[derive(Debug, Clone, Copy, Default)]
struct LineCounter {
    breaks: u64,
    prev_cr: bool,
}

impl LineCounter {
    fn feed(&mut self, b: u8) {
        match b {
            b'\r' => {
                self.breaks += 1;
                self.prev_cr = true;
            }
            b'\n' => {
                if !self.prev_cr {
                    self.breaks += 1;
                }
                self.prev_cr = false;
            }
            _ => self.prev_cr = false,
        }
    }
}

/// Reads rows one at a time.
pub struct Records<R> {
    input: R,
    core: csv_core::Reader,
    lines: LineCounter,
    first_line: u64,
    done: bool,
}

impl<R: BufRead> Records<R> {
    /// Rows of `input`, whose first byte is on line `first_line` (1-based).
    pub fn new(input: R, first_line: u64) -> Self {
        Self::with_delimiter(input, first_line, b',')
    }

    /// [`Records::new`] with another field separator (`;`, tab: the engine and generic
    /// CSVs).
    pub fn with_delimiter(input: R, first_line: u64, delimiter: u8) -> Self {
        let core = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
        Self { input, core, lines: LineCounter::default(), first_line, done: false }
    }

    /// Reads the next row into `row`; returns the line it starts on, or `None` at the
    /// end of the input.
    pub fn next_row(&mut self, row: &mut Row) -> std::io::Result<Option<u64>> {
        if self.done {
            return Ok(None);
        }
        if row.data.is_empty() {
            row.data.resize(1024, 0);
            row.ends.resize(64, 0);
        }
        let (mut out_len, mut ends_len) = (0, 0);
        let mut start: Option<u64> = None;
        row.oversized = false;
        loop {
            let input = self.input.fill_buf()?;
            let (result, n_in, n_out, n_ends) =
                self.core.read_record(input, &mut row.data[out_len..], &mut row.ends[ends_len..]);
            for &b in &input[..n_in] {
                if start.is_none() && b != b'\r' && b != b'\n' {
                    start = Some(self.first_line + self.lines.breaks);
                }
                self.lines.feed(b);
            }
            self.input.consume(n_in);
            out_len += n_out;
            ends_len += n_ends;
            match result {
                csv_core::ReadRecordResult::InputEmpty => {}
                csv_core::ReadRecordResult::OutputFull if row.data.len() >= MAX_ROW_BYTES => {
                    // Keep reading through the row, dropping what it holds.
                    row.oversized = true;
                    (out_len, ends_len) = (0, 0);
                }
                csv_core::ReadRecordResult::OutputFull => {
                    let n = row.data.len() * 2;
                    row.data.resize(n, 0);
                }
                csv_core::ReadRecordResult::OutputEndsFull if row.ends.len() >= MAX_ROW_FIELDS => {
                    row.oversized = true;
                    (out_len, ends_len) = (0, 0);
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    let n = row.ends.len() * 2;
                    row.ends.resize(n, 0);
                }
                csv_core::ReadRecordResult::Record => {
                    row.len = if row.oversized { 0 } else { ends_len };
                    return Ok(Some(start.unwrap_or(self.first_line + self.lines.breaks)));
                }
                csv_core::ReadRecordResult::End => {
                    self.done = true;
                    return Ok(None);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(bytes: &[u8]) -> Vec<(u64, Vec<String>)> {
        rows_from(std::io::BufReader::with_capacity(3, bytes), 2)
    }

    #[test]
    fn line_numbers_with_every_line_end() {
        let expect = vec![
            (2, vec!["a".to_owned(), "b".to_owned()]),
            (3, vec!["c".to_owned()]),
            (5, vec!["d".to_owned()]),
        ];
        assert_eq!(rows(b"a,b\nc\n\nd"), expect);
        assert_eq!(rows(b"a,b\r\nc\r\n\r\nd\r\n"), expect);
        assert_eq!(rows(b"a,b\rc\r\rd\r"), expect);
    }

    #[test]
    fn quoted_fields_spanning_lines() {
        let r = rows(b"\"x\ny\",1\r\nz,2\n");
        assert_eq!(r[0], (2, vec!["x\ny".to_owned(), "1".to_owned()]));
        assert_eq!(r[1].0, 4);
        let long = rows(&[b'q'; 5000]);
        assert_eq!(long[0].1[0].len(), 5000);
    }

    /// The block splitter finds the same rows, fields and line numbers as csv_core on
    /// quote-free input: blank lines, `\r\n`, a last line without a break, empty
    /// fields, separators on every side of the 8-byte words it reads, and a row wider
    /// than the fast path (handed on as a slow row).
    #[test]
    fn block_splits_like_records() {
        let mut x: u64 = 7;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for case in 0..300 {
            let mut bytes = Vec::new();
            for _ in 0..next(40) {
                match next(10) {
                    0 => bytes.push(b'\n'),
                    1 => bytes.extend_from_slice(b"\r\n"),
                    2 => bytes.push(b','),
                    _ => bytes.extend((0..next(12)).map(|k| b'a' + (k % 26) as u8)),
                }
            }
            if case == 0 {
                bytes.extend(std::iter::repeat_n(b',', FAST_ROW_FIELDS + 3));
                bytes.extend_from_slice(b"\nlast,1");
            }
            let mut block = Block::default();
            let after = block.fill(bytes.clone(), 2);
            let mut got = Vec::new();
            for k in 0..block.len() {
                match block.row(k) {
                    (BlockItem::Fast(r), line) => got.push((
                        line,
                        (0..r.len())
                            .map(|i| String::from_utf8_lossy(r.get(i).unwrap_or(b"")).into_owned())
                            .collect::<Vec<_>>(),
                    )),
                    (BlockItem::Slow(b), line) => got.extend(rows_from(b, line)),
                }
            }
            assert_eq!(got, rows(&bytes), "case {case}: {:?}", String::from_utf8_lossy(&bytes));
            let breaks = memchr::memchr_iter(b'\n', &bytes).count() as u64;
            let open_end = u64::from(bytes.last().is_some_and(|&b| b != b'\n'));
            assert_eq!(after, 2 + breaks + open_end, "case {case}");
        }
    }

    fn rows_from(input: impl BufRead, first_line: u64) -> Vec<(u64, Vec<String>)> {
        let mut r = Records::new(input, first_line);
        let mut row = Row::default();
        let mut out = Vec::new();
        while let Ok(Some(line)) = r.next_row(&mut row) {
            let fields =
                (0..row.len()).map(|i| String::from_utf8_lossy(row.get(i).unwrap_or(b"")).into_owned());
            out.push((line, fields.collect()));
        }
        out
    }

    /// A row over the byte or field cap is read through, reported as oversized with
    /// no fields, and the next row is read normally.
    #[test]
    fn oversized_rows_are_dropped_in_bounded_memory() {
        let mut bytes = vec![b'x'; MAX_ROW_BYTES * 3];
        bytes.extend_from_slice(b"\nnext,1\n");
        let mut commas = vec![b','; MAX_ROW_FIELDS * 3];
        commas.extend_from_slice(b"\nafter\n");
        for input in [bytes, commas] {
            let mut r = Records::new(std::io::BufReader::new(input.as_slice()), 2);
            let mut row = Row::default();
            assert_eq!(r.next_row(&mut row).ok().flatten(), Some(2));
            assert!(row.is_oversized() && row.len() == 0);
            assert!(row.data.len() <= 2 * MAX_ROW_BYTES && row.ends.len() <= 2 * MAX_ROW_FIELDS);
            assert_eq!(r.next_row(&mut row).ok().flatten(), Some(3));
            assert!(!row.is_oversized() && row.len() >= 1);
        }
    }
}
