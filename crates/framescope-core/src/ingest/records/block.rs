//! The fast path for plain rows: a block of whole lines split in place (no quote, no
//! lone `\r`), its rows read as [`BlockRow`]s; anything else falls back to
//! [`super::Records`].

use super::super::values::{Cell, parse_cell, parse_scaled_or_cell};
use super::{Fields, Plan, decimal_step, decode_cell, encode_cell};

/// Lines longer than this are split by [`Records`] (the exact rules for oversized
/// rows) rather than by the block splitter.
const FAST_ROW_BYTES: usize = 1 << 18;
/// Rows with more fields than this are split by [`Records`] too.
pub(super) const FAST_ROW_FIELDS: usize = 1 << 15;

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
        // `ends` holds the row's fields' ends, one per field.
        let end = *self.ends.get(i)?;
        self.data.get(self.start_of(i)..end as usize)
    }
    fn is_oversized(&self) -> bool {
        false
    }
    /// Fields split in place hold no comma: equal spans are equal fields.
    #[inline]
    fn span(&self, first: usize, last: usize) -> Option<&[u8]> {
        if first > last {
            return None;
        }
        let end = *self.ends.get(last)?;
        self.data.get(self.start_of(first)..end as usize)
    }
    #[inline]
    fn cell(&self, i: usize) -> Cell {
        match self.parsed(i) {
            Some(&v) => decode_cell(v),
            None => parse_cell(self.get(i).unwrap_or(b"")),
        }
    }
    /// A field parsed ahead is its cell; any other is parsed here, once, as the
    /// scaled integer it is or the cell it is not. Always inlined, with the parse: the
    /// row loop calls it for every numeric cell from two places (a kept column and a
    /// checked one, `builder/columns.rs`), and a call per cell costs about as much as
    /// the parse itself (callgrind, 1M report: 4.76 → 4.67 G instructions).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn scaled_or_cell(&self, i: usize) -> Result<i32, Cell> {
        match self.parsed(i) {
            Some(&v) => Err(decode_cell(v)),
            None => match self.get(i).unwrap_or(b"") {
                b"NA" => Err(Cell::Missing),
                bytes => parse_scaled_or_cell(bytes),
            },
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

impl BlockRow<'_> {
    /// Where field `i` starts (after the comma that ends the field before; `i` is a
    /// field of the row).
    #[inline]
    fn start_of(&self, i: usize) -> usize {
        match i.checked_sub(1) {
            None => self.span.start as usize,
            Some(j) => self.ends[j] as usize + 1,
        }
    }

    /// Field `i` parsed ahead ([`Block::parse`]), encoded; `None` when it was not (a
    /// block built in its own task parses none ahead: one check then).
    #[inline]
    fn parsed(&self, i: usize) -> Option<&f64> {
        if self.cells.is_empty() {
            return None;
        }
        self.plan.slot.get(i).and_then(|&s| self.cells.get(s as usize))
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
            let field = |i: usize| -> &[u8] {
                let Some(&stop) = ends.get(i) else { return b"" };
                let start = if i == 0 { span.start } else { ends[i - 1] + 1 };
                self.data.get(start as usize..stop as usize).unwrap_or(b"")
            };
            self.cells.extend(plan.fields.iter().map(|&f| encode_cell(parse_cell(field(f)))));
            if let Some(f) = plan.step_field {
                self.cells.push(decimal_step(field(f)));
            }
        }
    }

    /// Splits `data` (whole lines: it ends with `\n` or at the end of the input; no
    /// quote and no lone `\r` in it), whose first byte is on line `first_line`.
    /// Returns the line after the last.
    pub fn fill(&mut self, data: Vec<u8>, first_line: u64) -> u64 {
        self.data = data;
        self.rows.clear();
        self.ends.clear();
        self.lines.clear();
        // Cells parsed ahead belong to the rows before ([`Block::parse`]).
        self.cells.clear();
        let data = &self.data;
        let mut scan = Scan {
            row: RowScan { start: 0, first: 0 },
            line: first_line,
            rows: &mut self.rows,
            ends: &mut self.ends,
            lines: &mut self.lines,
        };
        // Sixteen bytes at a time: every comma's position is pushed as a field end (a
        // row's are checked against FAST_ROW_FIELDS when it ends, so a wide row holds
        // at most one entry per byte of the block until then); only the chunks holding
        // a line break take the slower loop that ends rows.
        let mut words = data.chunks_exact(16);
        let mut base = 0usize;
        for word in &mut words {
            scan.chunk(data, base, masks(word));
            base += 16;
        }
        // The last bytes (fewer than 16) the same way: `masks` reads the rest as zeros.
        scan.chunk(data, base, masks(words.remainder()));
        if scan.row.start < data.len() {
            scan.row.finish(data, data.len(), scan.line, scan.rows, scan.ends, scan.lines);
            scan.line += 1;
        }
        scan.line
    }

    /// Gives the block's buffer back for reuse.
    pub fn take_data(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.data)
    }
}

/// The splitting state of [`Block::fill`]: the row being scanned, the line it is
/// on, and the block's lists.
struct Scan<'a> {
    row: RowScan,
    line: u64,
    rows: &'a mut Vec<Span>,
    ends: &'a mut Vec<u32>,
    lines: &'a mut Vec<u64>,
}

impl Scan<'_> {
    /// The commas and line breaks of the chunk at `base` (bit `j`: byte `base + j`).
    #[inline]
    fn chunk(&mut self, data: &[u8], base: usize, (commas, breaks): (u32, u32)) {
        if breaks == 0 {
            let mut m = commas;
            while m != 0 {
                self.ends.push((base + m.trailing_zeros() as usize) as u32);
                m &= m - 1;
            }
        } else {
            let mut m = commas | breaks;
            while m != 0 {
                let i = m.trailing_zeros();
                self.separator(data, base + i as usize, breaks >> i & 1 == 1);
                m &= m - 1;
            }
        }
    }

    /// A comma (a field end) or a line break (the row's end) at `pos`.
    #[inline]
    fn separator(&mut self, data: &[u8], pos: usize, newline: bool) {
        if newline {
            self.row.finish(data, pos, self.line, self.rows, self.ends, self.lines);
            self.line += 1;
            self.row = RowScan { start: pos + 1, first: self.ends.len() as u32 };
        } else {
            self.ends.push(pos as u32);
        }
    }
}

/// The row being scanned by [`Block::fill`].
struct RowScan {
    start: usize,
    /// Index of its first field end in `Block::ends` (its commas are the entries
    /// after it).
    first: u32,
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
        let fields = ends.len() - self.first as usize + 1;
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

/// Bit `j` set where byte `j` of `chunk` (16 bytes, or fewer: the rest read as
/// zeros) is a comma, and where it is a line break.
#[cfg(target_arch = "x86_64")]
#[inline]
fn masks(chunk: &[u8]) -> (u32, u32) {
    use safe_arch::{cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    let v = load_unaligned_m128i(&padded(chunk));
    let found = |byte: u8| move_mask_i8_m128i(cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(byte as i8))) as u32;
    (found(b','), found(b'\n'))
}

/// [`masks`] without SSE2: two `u64` words, each byte compared at once.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
fn masks_portable(chunk: &[u8]) -> (u32, u32) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let b = padded(chunk);
    let word = |k: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[8 * k..8 * k + 8]);
        u64::from_le_bytes(w)
    };
    let (lo, hi) = (word(0), word(1));
    let bits = |w: u64, byte: u8| packed(zero_bytes(w ^ (ONES * u64::from(byte))));
    (bits(lo, b',') | bits(hi, b',') << 8, bits(lo, b'\n') | bits(hi, b'\n') << 8)
}

/// The first 16 bytes of `chunk`, zeros after its end.
#[inline]
fn padded(chunk: &[u8]) -> [u8; 16] {
    let mut b = [0u8; 16];
    let n = chunk.len().min(16);
    b[..n].copy_from_slice(&chunk[..n]);
    b
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn masks(chunk: &[u8]) -> (u32, u32) {
    masks_portable(chunk)
}

/// The high bit of each byte of `x` that is zero, exactly (no borrow from one byte
/// into the next).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

/// The high bits of `x`'s bytes (bit `8·j + 7` for byte `j`) as bits `j` of a byte:
/// one multiplication moves each to bit `56 + j`, with no carries between them.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
fn packed(x: u64) -> u32 {
    ((x >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
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

#[cfg(test)]
mod mask_tests {
    use super::{masks, masks_portable};

    /// The SSE2 masks and the portable ones agree, byte for byte, on chunks of every
    /// length holding commas, line breaks and bytes that differ from them in one bit.
    #[test]
    fn masks_agree_with_the_portable_path() {
        let alphabet = [b',', b'\n', b'a', b'0', 0x2c ^ 0x80, b'\n' ^ 1, 0, 0xff, b'\r'];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=16 {
            for _ in 0..2000 {
                let chunk: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        alphabet[(state % alphabet.len() as u64) as usize]
                    })
                    .collect();
                let want = chunk.iter().enumerate().fold((0u32, 0u32), |(c, n), (j, &b)| {
                    (c | u32::from(b == b',') << j, n | u32::from(b == b'\n') << j)
                });
                assert_eq!(masks(&chunk), want, "{chunk:?}");
                assert_eq!(masks_portable(&chunk), want, "{chunk:?}");
            }
        }
    }
}
