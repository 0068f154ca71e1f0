//! The splitting stage: a thread that reads the input and cuts it into rows, in
//! place while the input is plain, else through csv_core.

use super::super::layout::{self, DroppedRule, Layout, TimeUnit};
use super::super::records::{Block, Plan, Records, Row, splits_plainly};
use super::parallel::{BuiltBlock, build_block};
use rayon::prelude::*;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::mpsc;

/// Rows per batch handed from the splitter to the builder.
pub(super) const BATCH_ROWS: usize = 4096;
/// Batches the splitter may be ahead by (bounds the memory in flight). Two reads'
/// worth of blocks (a read is cut into two parts per thread): at 2 the splitter
/// waited on the builder before it could parse the next read, and the builder then
/// waited on it (issue 24: 15 interleaved runs at 1M frames, median wall 0.58 →
/// 0.53 s; the peak RSS did not grow).
pub(super) const BATCHES_IN_FLIGHT: usize = 8;

/// Bytes read at a time, split into blocks of whole lines. 1 MiB: the blocks in flight
/// (their bytes, field ends and parsed cells, about 2.5 × the bytes) stay a few MiB;
/// at 4 MiB they held about 25 MiB, which the allocator kept through the analysis.
pub(super) const READ_BYTES: usize = 1 << 20;

/// Rows split from the input, with the line each starts on.
#[derive(Default)]
pub(super) struct RowBatch {
    pub(super) rows: Vec<Row>,
    pub(super) lines: Vec<u64>,
}

/// What the splitting stage hands on.
pub(super) enum Batch<'a> {
    /// Rows split by csv_core.
    Rows(RowBatch),
    /// Whole lines split in place, and their traces when they were built beside the
    /// split (`parallel.rs`).
    Block(Block, Option<Box<BuiltBlock<'a>>>),
}

/// What the splitting stage needs to build a block's traces: the layout and the
/// file's stem (the application when the file names none).
#[derive(Clone, Copy)]
pub(super) struct Builds<'a> {
    pub(super) layout: &'a Layout,
    pub(super) file_stem: &'a str,
}

/// The splitting stage. Reads blocks of whole lines and splits them in place while
/// they are plain (no quotes, no lone `\r`; `plain` allows it at all); from the first
/// block that is not, or a line longer than a block, hands the rest of the input to
/// csv_core.
pub(super) fn split_input<'a, R: BufRead>(
    mut reader: R,
    first_line: u64,
    plan: Option<(&Arc<Plan>, Builds<'a>)>,
    full: &mpsc::SyncSender<std::io::Result<Batch<'a>>>,
    empty: &mpsc::Receiver<Batch<'a>>,
) {
    let mut line = first_line;
    let (mut buf, mut filled): (Vec<u8>, usize) = (Vec::new(), 0);
    let mut eof = false;
    let mut pool: Vec<Block> = Vec::new();
    while let Some((plan, builds)) = plan {
        // Zeroed once, on first use; later reads refill it in place after the unsplit
        // tail, which is moved to its front (no zeroing or reallocation per read).
        if buf.is_empty() {
            buf = vec![0; READ_BYTES];
        }
        while filled < READ_BYTES && !eof {
            match reader.read(&mut buf[filled..]) {
                Ok(0) => eof = true,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = full.send(Err(e));
                    return;
                }
            }
        }
        let cut = if eof { Some(filled) } else { memchr::memrchr(b'\n', &buf[..filled]).map(|k| k + 1) };
        let Some(cut) = cut.filter(|&cut| splits_plainly(&buf[..cut])) else {
            // Not plain (or one line fills the buffer): csv_core from here on.
            break;
        };
        // Parts of whole lines, split, parsed and built into traces in parallel; each
        // starts on the line after the line breaks of the parts before it.
        while let Ok(batch) = empty.try_recv() {
            if let Batch::Block(block, _) = batch {
                pool.push(block);
            }
        }
        let parts = line_parts(&buf[..cut], rayon::current_num_threads().max(1) * 2);
        let firsts = first_lines(&buf, &parts, line);
        let blocks: Vec<Block> = parts.iter().map(|_| pool.pop().unwrap_or_default()).collect();
        let done: Vec<(Block, Option<Box<BuiltBlock<'a>>>, u64)> = blocks
            .into_par_iter()
            .zip(parts.par_iter().zip(firsts))
            .map(|(mut block, (range, first))| {
                let mut data = block.take_data();
                data.clear();
                data.extend_from_slice(&buf[range.clone()]);
                let next = block.fill(data, first);
                block.parse(plan);
                let built = build_block(&block, builds.layout, builds.file_stem);
                (block, built, next)
            })
            .collect();
        for (block, built, next) in done {
            line = next;
            if !block.is_empty() && full.send(Ok(Batch::Block(block, built))).is_err() {
                return;
            }
        }
        buf.copy_within(cut..filled, 0);
        filled -= cut;
        if eof && filled == 0 {
            return;
        }
    }
    buf.truncate(filled);
    let rest = std::io::Read::chain(std::io::Cursor::new(buf), reader);
    split_rows(Records::new(rest, line), full, empty);
}

/// The line each of `parts` of `data` starts on, the first on `line`.
fn first_lines(data: &[u8], parts: &[std::ops::Range<usize>], line: u64) -> Vec<u64> {
    let breaks: Vec<u64> =
        parts.par_iter().map(|r| memchr::memchr_iter(b'\n', &data[r.clone()]).count() as u64).collect();
    breaks
        .iter()
        .scan(line, |next, &n| {
            let first = *next;
            *next += n;
            Some(first)
        })
        .collect()
}

/// Splits `data` (whole lines) into about `n` ranges that end at line ends.
pub(super) fn line_parts(data: &[u8], n: usize) -> Vec<std::ops::Range<usize>> {
    let mut parts = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..=n {
        if start >= data.len() {
            break;
        }
        let target = (data.len() * k / n).max(start);
        let end = if k == n {
            data.len()
        } else {
            memchr::memchr(b'\n', &data[target..]).map_or(data.len(), |p| target + p + 1)
        };
        if end > start {
            parts.push(start..end);
            start = end;
        }
    }
    parts
}

/// The csv_core splitting stage: fills batches (reusing those sent back) until the
/// input ends, it fails, or nobody listens any more.
pub(super) fn split_rows<R: BufRead>(
    mut records: Records<R>,
    full: &mpsc::SyncSender<std::io::Result<Batch<'_>>>,
    empty: &mpsc::Receiver<Batch<'_>>,
) {
    loop {
        let mut batch = match empty.try_recv() {
            Ok(Batch::Rows(batch)) => batch,
            _ => RowBatch::default(),
        };
        batch.lines.clear();
        let mut n = 0;
        let mut end = false;
        while n < BATCH_ROWS {
            if batch.rows.len() == n {
                batch.rows.push(Row::default());
            }
            match records.next_row(&mut batch.rows[n]) {
                Ok(Some(line)) => {
                    batch.lines.push(line);
                    n += 1;
                }
                Ok(None) => {
                    end = true;
                    break;
                }
                Err(e) => {
                    let _ = full.send(Err(e));
                    return;
                }
            }
        }
        batch.rows.truncate(n);
        if (n > 0 && full.send(Ok(Batch::Rows(batch))).is_err()) || end {
            return;
        }
    }
}

/// The fields the splitting stage parses ahead: frame time, dropped, display, time
/// and its decimal step.
pub(super) fn parse_plan(layout: &Layout) -> Plan {
    let mut fields = Vec::new();
    match layout.frame_time {
        layout::FrameTimeRule::Column(i) | layout::FrameTimeRule::FromFps(i) => fields.push(i),
        layout::FrameTimeRule::Sum(b, w) => fields.extend([b, w]),
    }
    match layout.dropped {
        DroppedRule::Column(i) | DroppedRule::MissingDisplay(i) | DroppedRule::ZeroDisplay(i) => {
            fields.push(i);
        }
        DroppedRule::Unknown => {}
    }
    fields.extend(layout.display);
    let time = layout.time.filter(|t| t.unit != TimeUnit::DateTime).map(|t| t.index);
    fields.extend(time);
    // The optional numeric columns are parsed by the builder, once each, straight
    // into the scaled integers their compact columns store where they are plain
    // `%.4f` decimals (`Fields::scaled_or_cell`).
    Plan::new(fields, time)
}
