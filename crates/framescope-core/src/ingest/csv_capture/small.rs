//! Small inputs, read whole and turned into frames on the calling thread: a capture
//! whose rows fit in one read of the splitting stage ([`READ_BYTES`]) gains nothing
//! from a splitter thread, parallel parts and a reused read buffer, which a batch of
//! hundreds of small captures (`report --format csv DIR`, files already loaded in
//! parallel) paid for each file. A worker of such a batch (on a one-thread rayon pool
//! of its own: `pipeline::inputs`) reads captures up to [`BATCH_BYTES`] this way, the
//! cores being busy with other files anyway.
//!
//! The rows are cut exactly as that stage cuts them (reads of [`READ_BYTES`] ending at
//! the last whole line, each split in place while it is plain, csv_core from the first
//! read that is not), so the frames are the same.

use super::super::records::{Block, BlockItem, Plan, Records, Row};
use super::rows::RowReader;
use super::split::{READ_BYTES, plain_cut};
use crate::model::FileInfo;
use std::io::{BufRead, Cursor, Read};
use std::sync::Arc;

/// The largest input a batch worker reads whole (its rows, after the header).
pub(super) const BATCH_BYTES: usize = 16 << 20;

/// The rows of an input after its header: all of them when they are few enough, else
/// the reader with what was read put back in front.
pub(super) enum Head<R> {
    /// Every byte after the header.
    Whole(Vec<u8>),
    /// A larger input, for the splitting stage.
    Rest(std::io::Chain<Cursor<Vec<u8>>, R>),
}

/// The largest input read whole here: [`BATCH_BYTES`] on a one-thread rayon pool (a
/// batch worker, or a machine with one core), else one read.
pub(super) fn whole_limit() -> usize {
    if rayon::current_num_threads() == 1 { BATCH_BYTES } else { READ_BYTES }
}

/// Reads up to one byte more than `limit` to tell which; `size_hint` (the file's size,
/// 0 when unknown) is reserved up front, so the buffer does not grow by copies.
pub(super) fn read_head<R: BufRead>(mut reader: R, size_hint: u64, limit: usize) -> std::io::Result<Head<R>> {
    let mut data = SPARE.with(|spare| std::mem::take(&mut *spare.borrow_mut()));
    data.clear();
    data.reserve(size_hint.min(limit as u64 + 1) as usize);
    (&mut reader).take(limit as u64 + 1).read_to_end(&mut data)?;
    Ok(if data.len() <= limit { Head::Whole(data) } else { Head::Rest(Cursor::new(data).chain(reader)) })
}

/// The largest read buffer a thread keeps for its next small input.
const SPARE_BYTES: usize = 4 << 20;

thread_local! {
    /// The buffer the last small input was read into, kept for the next one: a batch
    /// reads hundreds, and fresh memory for each costs a page fault per 4 KiB.
    static SPARE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps `buffer` for the next small input read on this thread (unless it is large).
fn keep_spare(buffer: Vec<u8>) {
    if buffer.capacity() <= SPARE_BYTES {
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if buffer.capacity() > spare.capacity() {
                *spare = buffer;
            }
        });
    }
}

/// Turns every row of `data` (the input after its header, whose first byte is on
/// `first_line`) into frames, cut as the splitting stage cuts them (`split_input`):
/// reads of [`READ_BYTES`] (the last one shorter: the end of the input) up to their
/// last line end, each split in place when `plan` allows it and its bytes are plain;
/// from the first that is not (or holds no line end), csv_core reads the rest.
pub(super) fn read_whole(
    mut data: Vec<u8>,
    first_line: u64,
    plan: Option<&Arc<Plan>>,
    rows: &mut RowReader<'_>,
    info: &mut FileInfo,
) -> std::io::Result<()> {
    let (mut slow, mut block) = (Row::default(), Block::default());
    let (mut pos, mut line, mut done) = (0, first_line, false);
    // Rows are read where they are split: each cell is parsed where it is needed
    // (parsing planned cells ahead only helps another thread).
    while plan.is_some() && !done {
        // The splitting stage sees the end of the input once a read comes short.
        let end = data.len() - pos < READ_BYTES;
        let read = &data[pos..data.len().min(pos + READ_BYTES)];
        let Some(cut) = plain_cut(read, end) else { break };
        if pos == 0 && end {
            // One read: the block takes the bytes as they are.
            line = block.fill(std::mem::take(&mut data), line);
        } else {
            let mut bytes = block.take_data();
            bytes.clear();
            bytes.extend_from_slice(&read[..cut]);
            line = block.fill(bytes, line);
        }
        take_block(&block, rows, info, &mut slow);
        pos += cut;
        done = end;
    }
    let read = if done { Ok(()) } else { read_records(&data[pos..], line, &mut slow, rows, info) };
    keep_spare(block.take_data());
    keep_spare(data);
    read
}

/// Turns the rows of `bytes` (first on `line`) into frames through csv_core.
fn read_records(
    bytes: &[u8],
    line: u64,
    slow: &mut Row,
    rows: &mut RowReader<'_>,
    info: &mut FileInfo,
) -> std::io::Result<()> {
    let mut records = Records::new(Cursor::new(bytes), line);
    while let Some(line) = records.next_row(slow)? {
        rows.row(slow, line, info);
        rows.count += 1;
    }
    Ok(())
}

/// Turns the rows of a block into frames (a row the block could not split, through
/// csv_core into `slow`).
pub(super) fn take_block(block: &Block, rows: &mut RowReader<'_>, info: &mut FileInfo, slow: &mut Row) {
    for k in 0..block.len() {
        match block.row(k) {
            (BlockItem::Fast(record), line) => rows.row(&record, line, info),
            (BlockItem::Slow(bytes), line) => {
                let mut one = Records::new(bytes, line);
                if let Ok(Some(line)) = one.next_row(slow) {
                    rows.row(slow, line, info);
                }
            }
        }
        rows.count += 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::{LoadOptions, Progress};

    const HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentMode,TimeInQPC,MsBetweenPresents,\
                          MsBetweenDisplayChange,MsUntilDisplayed,MsCPUBusy\n";

    /// A capture of `rows` rows (about 60 bytes each) with `edit` applied to row `k`.
    fn capture(rows: usize, edit: impl Fn(usize, String) -> String) -> Vec<u8> {
        let mut text = HEADER.to_owned();
        for k in 0..rows {
            let ft = 6.5 + (k * 7919 % 1000) as f64 / 1000.0;
            let row = format!(
                "game.exe,42,0x1F,Hardware: Independent Flip,{},{ft:.4},{ft:.4},9.0000,{:.4}\n",
                1_000_000 + k * 70_000,
                ft - 1.0
            );
            text.push_str(&edit(k, row));
        }
        text.into_bytes()
    }

    /// The capture as a batch worker loads it (read whole, cut here) and as the
    /// splitting stage does, in the `Debug` form that shows every frame and warning.
    fn both_ways(bytes: &[u8]) -> (String, String) {
        let load = || {
            let path = std::path::Path::new("t.csv");
            let loaded = super::super::load(path, bytes, &LoadOptions::default(), &Progress::default());
            format!("{loaded:?}")
        };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
        let whole = pool.map(|p| p.install(load)).unwrap_or_default();
        let split = rayon::ThreadPoolBuilder::new().num_threads(2).build().map(|p| p.install(load));
        (whole, split.unwrap_or_default())
    }

    /// Plain rows over several reads, a quote in a later read (csv_core from there on),
    /// a line longer than a read, CRLF line ends and blank lines give the same frames
    /// and warnings both ways.
    #[test]
    fn read_whole_cuts_as_the_splitting_stage() {
        let rows = 50_000; // about 3.4 MB: four reads
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("plain", capture(rows, |_, r| r)),
            (
                "late quote",
                capture(rows, |k, r| if k == 35_000 { r.replacen("game", "\"ga,me\"", 1) } else { r }),
            ),
            (
                "long line",
                capture(rows, |k, r| if k == 20_000 { format!("{}\n{r}", "9".repeat(1_200_000)) } else { r }),
            ),
            (
                "crlf and blank lines",
                capture(rows, |k, r| {
                    if k % 999 == 0 {
                        format!("\r\n{}", r.replace('\n', "\r\n"))
                    } else {
                        r.replace('\n', "\r\n")
                    }
                }),
            ),
            ("short rows", capture(rows, |k, r| if k % 4001 == 7 { r[..20].to_owned() + "\n" } else { r })),
        ];
        for (name, bytes) in cases {
            let (whole, split) = both_ways(&bytes);
            assert!(whole.contains("frame_time_ms"), "{name}: {}", &whole[..whole.len().min(300)]);
            assert!(whole == split, "{name}: the two loads differ");
        }
    }

    /// Small inputs read one after another on one thread (reading into the buffer the
    /// one before was read into) load as each does alone.
    #[test]
    fn reading_into_the_last_buffer_keeps_nothing_of_it() {
        let long = capture(3_000, |_, r| r);
        let short = capture(40, |k, r| if k == 7 { r.replace("6.", "16.") } else { r });
        let load = |bytes: &[u8]| {
            let path = std::path::Path::new("t.csv");
            format!("{:?}", super::super::load(path, bytes, &LoadOptions::default(), &Progress::default()))
        };
        let alone = [load(&long), load(&short)];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let in_turn = pool.install(|| [load(&long), load(&short), load(&long), load(&short)]);
        assert_eq!(in_turn, [alone[0].clone(), alone[1].clone(), alone[0].clone(), alone[1].clone()]);
        assert_ne!(alone[0], alone[1]);
    }
}
