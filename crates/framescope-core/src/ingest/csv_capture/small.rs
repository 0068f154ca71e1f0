//! Small inputs, read whole and turned into frames on the calling thread: a capture
//! whose rows fit in one read of the splitting stage ([`READ_BYTES`]) gains nothing
//! from a splitter thread, parallel parts and a reused read buffer, which a batch of
//! hundreds of small captures (`report --format csv DIR`, files already loaded in
//! parallel) paid for each file. The rows are split exactly as that stage splits its
//! single read (one block of whole lines while the input is plain, else csv_core), so
//! the frames are the same.

use super::super::records::{Block, BlockItem, Plan, Records, Row, splits_plainly};
use super::rows::RowReader;
use super::split::READ_BYTES;
use crate::model::FileInfo;
use std::io::{BufRead, Cursor, Read};
use std::sync::Arc;

/// The rows of an input after its header: all of them when they fit in one read, else
/// the reader with what was read put back in front.
pub(super) enum Head<R> {
    /// Every byte after the header (at most [`READ_BYTES`]).
    Whole(Vec<u8>),
    /// A larger input, for the splitting stage.
    Rest(std::io::Chain<Cursor<Vec<u8>>, R>),
}

/// Reads up to one byte more than [`READ_BYTES`] to tell which; `size_hint` (the
/// file's size, 0 when unknown) is reserved up front, so the buffer does not grow by
/// copies.
pub(super) fn read_head<R: BufRead>(mut reader: R, size_hint: u64) -> std::io::Result<Head<R>> {
    let mut data = Vec::with_capacity(size_hint.min(READ_BYTES as u64 + 1) as usize);
    (&mut reader).take(READ_BYTES as u64 + 1).read_to_end(&mut data)?;
    Ok(if data.len() <= READ_BYTES { Head::Whole(data) } else { Head::Rest(Cursor::new(data).chain(reader)) })
}

/// Turns every row of `data` (the input after its header, whose first byte is on
/// `first_line`) into frames: split in place when `plan` allows it and the bytes are
/// plain, else by csv_core.
pub(super) fn read_whole(
    data: Vec<u8>,
    first_line: u64,
    plan: Option<&Arc<Plan>>,
    rows: &mut RowReader<'_>,
    info: &mut FileInfo,
) -> std::io::Result<()> {
    let mut slow = Row::default();
    if let Some(plan) = plan.filter(|_| splits_plainly(&data)) {
        let mut block = Block::default();
        block.fill(data, first_line);
        block.parse(plan);
        take_block(&block, rows, info, &mut slow);
        return Ok(());
    }
    let mut records = Records::new(Cursor::new(data), first_line);
    while let Some(line) = records.next_row(&mut slow)? {
        rows.row(&slow, line, info);
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
