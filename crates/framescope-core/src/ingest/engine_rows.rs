//! The row-reading loop the engine and generic CSV readers (Unity, Unreal, generic)
//! share: rows are read through [`Rows`] with their file lines, the cancel flag is
//! looked at, over-long rows are skipped, and each other row is handed to the format,
//! which turns it into a frame or says why it is skipped (logged in the
//! [`Accumulator`]'s skip log).

use super::builder::SkipReason;
use super::table::{Accumulator, Head, Rows};
use super::{LoadError, LoadErrorKind, Progress};
use std::io::Read;
use std::path::Path;

/// One format's reading of the rows [`read_frames`] hands it.
pub(super) trait RowFormat {
    /// Takes a row that is no frame row (a footer, lines after it) before its length
    /// is checked: `true` when the row is taken and done with. By default none is.
    fn take_other(&mut self, _rec: &csv::ByteRecord) -> bool {
        false
    }

    /// Turns a row of acceptable length into a frame pushed to `acc` (or into nothing,
    /// with `Ok`), or gives the reason it is skipped.
    fn frame(&mut self, acc: &mut Accumulator, rec: &csv::ByteRecord, line: u64) -> Result<(), SkipReason>;
}

/// Reads every row after `head` from `reader` into `acc` through `format`, skipping
/// over-long rows and the rows `format` refuses (with their lines in the skip log).
pub(super) fn read_frames<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    acc: &mut Accumulator,
    progress: &Progress,
    format: &mut impl RowFormat,
) -> Result<(), LoadError> {
    let mut rows = Rows::new(path, reader, head);
    let mut rec = csv::ByteRecord::new();
    while let Some(line) = rows.next(&mut rec)? {
        acc.tick(progress, path)?;
        if format.take_other(&rec) {
            continue;
        }
        if let Some(reason) = rows.oversized() {
            acc.skip(line, reason);
            continue;
        }
        if let Err(reason) = format.frame(acc, &rec, line) {
            acc.skip(line, reason);
        }
    }
    Ok(())
}

/// The error for a capture none of whose rows became a frame: at the first skipped
/// row's line, when one was skipped, with `what` as the message.
pub(super) fn no_frames(path: &Path, acc: &Accumulator, what: String) -> LoadError {
    let first = acc.skips.warnings().first().and_then(|w| w.line);
    LoadError::new(path, first, LoadErrorKind::NoFrames(what))
}
