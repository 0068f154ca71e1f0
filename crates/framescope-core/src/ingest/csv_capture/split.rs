//! The splitting stage: a thread that reads the input and cuts it into rows, in
//! place while the input is plain, else through csv_core.

use super::super::layout::{self, DroppedRule, Layout, TimeUnit};
use super::super::records::{Block, Plan, Records, Row, splits_plainly};
use super::parallel::{BuiltBlock, build_block};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::mpsc;

/// Rows per batch handed from the splitter to the builder.
pub(super) const BATCH_ROWS: usize = 4096;
/// Batches the splitter may be ahead by (bounds the memory in flight, with
/// [`TASKS_AHEAD`]): at 2 the splitter waited on the loading thread, which then
/// waited on it (issue 24: 15 interleaved runs at 1M frames, median wall 0.58 →
/// 0.53 s; the peak RSS did not grow). 4 since blocks are 512 KiB (the same bytes in
/// flight as 8 of 256 KiB).
pub(super) const BATCHES_IN_FLIGHT: usize = 4;

/// Bytes read at a time, into a block of whole lines. 512 KiB (two thousand rows of a
/// PresentMon 2.x capture): the blocks in flight (their bytes, field ends, parsed
/// cells and traces, about 3 × the bytes) stay a few MiB; at 4 MiB they held about
/// 25 MiB, which the allocator kept through the analysis. Against 256 KiB, half as
/// many blocks wake half as many threads: 3 % less CPU for a 1M-frame report (21
/// interleaved runs, 334 → 324 ms), the same peak RSS.
pub(super) const READ_BYTES: usize = 1 << 19;

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
/// they are plain (no quotes, no lone `\r`; `plan` allows it at all); from the first
/// block that is not, or a line longer than a block, hands the rest of the input to
/// csv_core.
///
/// Each block is read into a buffer of its own (the bytes after its last line end
/// go on to the next), split here, and handed to a rayon task that builds its
/// traces (`parallel.rs`), or, when it cannot, parses its planned cells ahead for the
/// loading thread, which reads it row by row; up to [`TASKS_AHEAD`] tasks run or wait while
/// this thread reads on, and their blocks are passed on in file order.
pub(super) fn split_input<'a, R: BufRead>(
    mut reader: R,
    first_line: u64,
    plan: Option<(&Arc<Plan>, Builds<'a>)>,
    full: &mpsc::SyncSender<std::io::Result<Batch<'a>>>,
    empty: &mpsc::Receiver<Batch<'a>>,
) {
    let mut line = first_line;
    // The bytes read but not yet in a block (a block's unfinished last line, or the
    // rest of the input when it is not plain).
    let mut rest: Vec<u8> = Vec::new();
    let mut pool: Vec<Block> = Vec::new();
    let mut pending: VecDeque<mpsc::Receiver<Built<'a>>> = VecDeque::new();
    // `done`: every block passed on, or nobody listens; else the rest goes to csv_core.
    let (mut done, mut failed) = (false, None);
    rayon::in_place_scope(|scope| {
        while let Some((plan, builds)) = plan {
            while let Ok(batch) = empty.try_recv() {
                if let Batch::Block(block, _) = batch {
                    pool.push(block);
                }
            }
            let mut block = pool.pop().unwrap_or_default();
            // A reused buffer is refilled in place: only bytes past its old length are
            // zeroed before reading into them.
            let mut data = block.take_data();
            if data.len() < rest.len() {
                data.resize(rest.len(), 0);
            }
            data[..rest.len()].copy_from_slice(&rest);
            let kept = rest.len();
            rest.clear();
            let eof = match fill_buffer(&mut reader, &mut data, kept) {
                Ok(more) => !more,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            let Some(cut) = plain_cut(&data, eof) else {
                // Not plain (or one line fills the buffer): csv_core from here on.
                rest = data;
                break;
            };
            rest.extend_from_slice(&data[cut..]);
            data.truncate(cut);
            // Split here, while the bytes just read are in this core's cache (the
            // task reads the rows); the split counts the lines too.
            line = block.fill(data, line);
            let (tx, rx) = mpsc::sync_channel(1);
            pending.push_back(rx);
            let plan = Arc::clone(plan);
            scope.spawn(move |_| {
                // The task reads each planned cell where it needs it; the loading
                // thread, reading a block row by row, gets them parsed ahead.
                let built = build_block(&block, builds.layout, builds.file_stem);
                if built.is_none() {
                    block.parse(&plan);
                }
                let _ = tx.send((block, built));
            });
            let ahead = if eof { 0 } else { TASKS_AHEAD };
            if !pass_on(&mut pending, ahead, full) || eof {
                done = true;
                return;
            }
        }
        done = !pass_on(&mut pending, 0, full);
    });
    if let Some(e) = failed {
        let _ = full.send(Err(e));
        return;
    }
    if done {
        return;
    }
    let rest = std::io::Read::chain(std::io::Cursor::new(rest), reader);
    split_rows(Records::new(rest, line), full, empty);
}

/// Where a read of whole lines ends, when they split in place: after its last line
/// end (or at its end, the end of the input), if the bytes before are plain; `None`
/// when they are not or hold no line end, and csv_core reads on from there.
pub(super) fn plain_cut(data: &[u8], eof: bool) -> Option<usize> {
    let cut = if eof { Some(data.len()) } else { memchr::memrchr(b'\n', data).map(|k| k + 1) };
    cut.filter(|&cut| splits_plainly(&data[..cut]))
}

/// Blocks split by a task, with their traces.
type Built<'a> = (Block, Option<Box<BuiltBlock<'a>>>);

/// Tasks that may run or wait while the splitting stage reads on (bounds the memory
/// in flight, with [`BATCHES_IN_FLIGHT`]).
const TASKS_AHEAD: usize = 4;

/// Passes the oldest tasks' blocks on, in order, until at most `ahead` are left;
/// false when nobody listens any more.
fn pass_on<'a>(
    pending: &mut VecDeque<mpsc::Receiver<Built<'a>>>,
    ahead: usize,
    full: &mpsc::SyncSender<std::io::Result<Batch<'a>>>,
) -> bool {
    while pending.len() > ahead {
        let Some(Ok((block, built))) = pending.pop_front().map(|rx| rx.recv()) else { continue };
        if !block.is_empty() && full.send(Ok(Batch::Block(block, built))).is_err() {
            return false;
        }
    }
    true
}

/// Reads into `data` after its first `filled` bytes until it holds [`READ_BYTES`] or
/// the input ends, and cuts it there; true when there may be more input.
fn fill_buffer<R: BufRead>(reader: &mut R, data: &mut Vec<u8>, mut filled: usize) -> std::io::Result<bool> {
    if filled >= READ_BYTES {
        data.truncate(filled);
        return Ok(true);
    }
    data.resize(READ_BYTES, 0);
    let more = loop {
        match reader.read(&mut data[filled..]) {
            Ok(0) => break false,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        if filled == READ_BYTES {
            break true;
        }
    };
    data.truncate(filled);
    Ok(more)
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

/// The fields parsed ahead for a block the loading thread reads row by row: frame
/// time, dropped, display, time and its decimal step.
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
