//! Reads a PresentMon-family CSV capture row by row into traces.

mod finish;
pub(crate) mod live;
mod parallel;
mod rows;
mod small;
mod split;
#[cfg(test)]
mod tests;

use super::error::{LoadError, LoadErrorKind};
use super::layout::{self, DroppedRule};
use super::mangohud::MangoRows;
use super::preamble::{self, PreambleError};
use super::records::Row;
use super::{LoadOptions, Progress};
use crate::model::{Capture, FileInfo, Format};
use std::io::BufRead;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;

use rows::RowReader;
use split::{BATCHES_IN_FLIGHT, Batch, Builds, parse_plan, split_input};

/// The identity of a trace: application, process id, swap chain.
pub(super) type Key = (String, Option<u32>, Option<String>);

/// Loads a CSV capture from `reader`; `path` names it in messages.
pub fn load<R: BufRead + Send>(
    path: &Path,
    mut reader: R,
    opts: &LoadOptions,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let err = |line, kind| LoadError::new(path, line, kind);
    let pre = read_preamble(path, &mut reader)?;
    let mut layout = layout::detect(&pre.header, &pre.comments)
        .map_err(|msg| err(Some(pre.header_line), LoadErrorKind::NotACapture(msg.to_string())))?;
    // MangoHud's units are read from its columns: its logs keep every one.
    if opts.figures_only && layout.format != Format::MangoHud {
        for c in &mut layout.numeric {
            c.stored = crate::model::Column::read_by_figures(c.kind, &c.name);
        }
    }
    let mut info = file_info(path, &layout, &pre.comments);
    let stem = file_stem(path);
    let mut rows = RowReader::new(&layout, stem.clone());
    if layout.format == Format::MangoHud {
        rows.mango = Some(MangoRows::new(&layout, &pre.header, pre.version));
    }
    // MangoHud's reader looks at every row as a `Row`: it keeps to the csv_core splitter.
    let plan = (layout.format != Format::MangoHud).then(|| Arc::new(parse_plan(&layout)));
    let builds = Builds { layout: &layout, file_stem: &stem };
    let first_line = pre.header_line + 1;
    let size_hint = progress.total_bytes.load(std::sync::atomic::Ordering::Relaxed);
    let reader = match small::read_head(reader, size_hint, small::whole_limit())
        .map_err(|e| err(None, LoadErrorKind::Io(e)))?
    {
        small::Head::Whole(data) => {
            small::read_whole(data, first_line, plan.as_ref(), &mut rows, &mut info)
                .map_err(|e| err(None, LoadErrorKind::Io(e)))?;
            rows.feed_preview(progress);
            return rows.finish(info, opts, path).map(with_units);
        }
        small::Head::Rest(reader) => reader,
    };
    // Two stages on two threads: one splits the bytes into rows, the other turns rows
    // into frames. Quote-free input is read in blocks of whole lines and split in
    // place (`Block`), and their rows built into traces there (`parallel.rs`), which
    // the other stage merges; anything else goes through csv_core (`Records`). Batches
    // go back and forth so their buffers are reused; the order of rows is kept.
    let (full_tx, full_rx) = mpsc::sync_channel::<std::io::Result<Batch>>(BATCHES_IN_FLIGHT);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            split_input(reader, first_line, plan.as_ref().map(|p| (p, builds)), &full_tx, &empty_rx);
        });
        // Every way out of this loop drops `full_rx` and `empty_tx`, which stops the
        // splitter at its next batch.
        let (full_rx, empty_tx) = (full_rx, empty_tx);
        let mut slow = Row::default();
        for batch in full_rx {
            let mut batch = batch.map_err(|e| err(None, LoadErrorKind::Io(e)))?;
            take_batch(&mut batch, &mut rows, &mut info, &mut slow);
            if progress.is_cancelled() {
                return Err(err(None, LoadErrorKind::Cancelled));
            }
            rows.feed_preview(progress);
            let _ = empty_tx.send(batch);
        }
        Ok(())
    })?;
    rows.finish(info, opts, path).map(with_units)
}

/// The top of a CSV capture (`//` comments, MangoHud's preamble, the header), or the
/// error that says why the file is no CSV frame log.
fn read_preamble<R: BufRead>(path: &Path, reader: &mut R) -> Result<preamble::Preamble, LoadError> {
    let err = |line, kind| LoadError::new(path, line, kind);
    preamble::read_preamble(reader).map_err(|e| match e {
        PreambleError::Io(io) => err(None, LoadErrorKind::Io(io)),
        PreambleError::NotText(why, line) => {
            err(Some(line), LoadErrorKind::NotACapture(format!("not a CSV frame log ({why})")))
        }
        PreambleError::Empty => err(
            None,
            LoadErrorKind::NotACapture(
                "the file is empty (or only blank lines); expected a CSV frame log such as a \
                 PresentMon, FrameView, OCAT or CapFrameX capture"
                    .into(),
            ),
        ),
    })
}

/// Feeds one batch from the splitting stage to the row loop: its rows one by one, or a
/// block's traces built beside the split (read row by row when they cannot be merged).
fn take_batch<'a>(batch: &mut Batch<'a>, rows: &mut RowReader<'a>, info: &mut FileInfo, slow: &mut Row) {
    match batch {
        Batch::Rows(batch) => {
            for (record, &line) in batch.rows.iter().zip(&batch.lines) {
                rows.row(record, line, info);
                rows.count += 1;
            }
        }
        Batch::Block(block, built) => {
            if built.take().is_some_and(|built| rows.absorb(built, info)) {
                rows.count += block.len() as u64;
            } else {
                small::take_block(block, rows, info, slow);
            }
        }
    }
}

/// A MangoHud log's traces with the units of the columns MangoHud writes and the
/// figures of the summary file MangoHud wrote beside it.
fn with_units(mut capture: Capture) -> Capture {
    if capture.info.format == Format::MangoHud {
        let (summaries, warning) =
            super::mangohud_summary::read_beside(&capture.info.path, capture.traces.len());
        capture.warnings.extend(warning);
        for (t, summary) in capture.traces.iter_mut().zip(summaries) {
            t.frames.units = super::mangohud::units(&t.frames.columns);
            t.frames.tool_summary = summary;
        }
    }
    capture
}

fn file_stem(path: &Path) -> String {
    path.file_stem().map_or_else(|| "capture".into(), |s| s.to_string_lossy().into_owned())
}

/// What a CSV capture's layout and its `#` comment lines (`key=value`: a MangoHud or
/// OCAT header's system facts) say of the file; shared by a whole load and a live one.
pub(super) fn file_info(path: &Path, layout: &layout::Layout, comments: &[String]) -> FileInfo {
    FileInfo {
        dropped_known: layout.dropped != DroppedRule::Unknown,
        target_fps: None,
        path: path.to_path_buf(),
        format: layout.format,
        format_version: layout.format_version.clone(),
        system: comments
            .iter()
            .filter_map(|c| c.split_once('='))
            .map(|(k, v)| (k.trim().into(), v.trim().into()))
            .collect(),
    }
}
