//! Data rows of a CSV capture, with the file line each row starts on.
//!
//! Built on `csv_core`, fed from a `BufRead`: every byte a record consumes is seen
//! here, so line numbers count `\n`, `\r\n` and lone `\r` line ends alike and stay
//! right across blank lines and quoted fields that span lines.

use super::values::{Cell, parse_cell};
use std::io::BufRead;

mod block;
pub use block::{Block, BlockItem, splits_plainly};

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
    /// Field `i` as the scaled integer a compact column stores (`v · 10⁴`) where the
    /// reader takes it so (a plain decimal with at most four places, in a field the
    /// splitter did not parse ahead: [`BlockRow`](block::BlockRow)), else as the cell
    /// [`Fields::cell`] reads.
    #[inline]
    fn scaled_or_cell(&self, i: usize) -> Result<i32, Cell> {
        Err(self.cell(i))
    }
    /// Fields `first..=last` as the bytes they are written with, commas between,
    /// when the row keeps them so (a row split in place: [`BlockRow`](block::BlockRow)).
    /// Two rows' spans are equal exactly when those fields are.
    #[inline]
    fn span(&self, _first: usize, _last: usize) -> Option<&[u8]> {
        None
    }
    /// The decimal step field `i` is written with ([`decimal_step`]).
    #[inline]
    fn step(&self, i: usize) -> f64 {
        decimal_step(self.get(i).unwrap_or(b""))
    }
}

/// The step a decimal cell is written with: `10.01` → 0.01, `123` → 1, `1e-3` → 0
/// (exponent notation says nothing about rounding). Never more than 1.
#[must_use]
pub fn decimal_step(cell: &[u8]) -> f64 {
    let b = cell.trim_ascii();
    // One pass: an exponent anywhere says 0; else the first dot counts the decimals.
    let mut dot = None;
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'e' | b'E' => return 0.0,
            b'.' if dot.is_none() => dot = Some(k),
            _ => {}
        }
    }
    match dot {
        Some(dot) => 10f64.powi(-((b.len() - dot - 1).min(300) as i32)),
        None => 1.0,
    }
}

/// Which fields a task parses ahead for a block the loading thread will read row by
/// row (`csv_capture/split.rs`): the frame-time, dropped, display and time columns,
/// which the builder reads as numbers, and the time column's decimal step.
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
mod tests;
