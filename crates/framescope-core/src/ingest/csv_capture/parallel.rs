//! Blocks of rows turned into traces in parallel: the splitting stage reads each
//! block's rows with a row loop of its own, started fresh ([`build_block`]), and the
//! loading thread merges those traces into the file's in order ([`RowReader::absorb`]),
//! which leaves it copying columns. A block whose rows depend on what came before it
//! in a way a merge cannot set right (a malformed row of a trace the block has not
//! seen, more traces or columns than a file keeps, a row csv_core splits) is read row
//! by row by the loading thread instead, as every block was before; so is a block of
//! many traces × columns ([`BLOCK_TRACE_COLUMNS`]), whose fresh columns, one set per
//! block in flight, would cost more memory than the file.

use super::super::builder::{MAX_TRACE_COLUMNS, MAX_TRACES};
use super::super::layout::Layout;
use super::super::records::{Block, BlockItem};
use super::Key;
use super::rows::RowReader;
use crate::model::FileInfo;

/// The most trace columns (traces × numeric columns) a block builds on its own: a
/// capture of every process has tens of traces of ~30 columns, while a hostile one of
/// 4096 traces × 1000 columns in 4 MB would give each of the ~12 blocks in flight
/// ~128 000 fresh columns (peak RSS 43 → ~100 MiB, `hostile_memory`).
const BLOCK_TRACE_COLUMNS: usize = 4096;

/// The traces of one block's rows, read by a row loop started fresh.
pub(super) struct BuiltBlock<'a> {
    rows: RowReader<'a>,
    /// The system facts of the block's first good row (the file's, when no row before
    /// the block was good).
    system: Vec<(String, String)>,
}

/// Reads the rows of `block` into traces of their own; `None` when the loading
/// thread must read them row by row (see the module docs).
pub(super) fn build_block<'a>(
    block: &Block,
    layout: &'a Layout,
    file_stem: &str,
) -> Option<Box<BuiltBlock<'a>>> {
    let mut rows = RowReader::new(layout, file_stem.to_owned());
    rows.first_rows = block.len();
    let mut info = FileInfo {
        path: std::path::PathBuf::new(),
        format: layout.format,
        format_version: String::new(),
        system: Vec::new(),
        dropped_known: false,
        target_fps: None,
    };
    for k in 0..block.len() {
        let (BlockItem::Fast(record), line) = block.row(k) else { return None };
        rows.row(&record, line, &mut info);
        // A row that joined no trace of the block may belong to one before it.
        if !rows.file_skips.is_empty() || rows.traces_without_columns > 0 {
            return None;
        }
        if rows.trace_columns > BLOCK_TRACE_COLUMNS {
            return None;
        }
    }
    Some(Box::new(BuiltBlock { rows, system: info.system }))
}

impl<'a> RowReader<'a> {
    /// Adds the traces of a block built on its own after the rows read so far, as if
    /// this loop had read its rows; false (nothing changed) when it cannot, and the
    /// block is to be read row by row.
    pub(super) fn absorb(&mut self, built: Box<BuiltBlock<'a>>, info: &mut FileInfo) -> bool {
        let BuiltBlock { rows: block, system } = *built;
        if self.mango.is_some() || block.mango.is_some() {
            return false;
        }
        // Each of the block's traces (in the order the block met them) with its key
        // and the file's trace it continues, if any.
        let mut keys: Vec<(usize, Key)> = block.index.into_iter().map(|(key, i)| (i, key)).collect();
        keys.sort_unstable_by_key(|(i, _)| *i);
        let targets: Vec<Option<usize>> = keys.iter().map(|(_, key)| self.index.get(key).copied()).collect();
        let new = targets.iter().filter(|t| t.is_none()).count();
        let columns = self.layout.numeric.len();
        let fits = self.builders.len() + new <= MAX_TRACES
            && self.trace_columns + new * columns <= MAX_TRACE_COLUMNS
            && targets
                .iter()
                .zip(&block.builders)
                .all(|(t, b)| t.is_none_or(|t| self.builders[t].can_append(b)));
        if !fits {
            return false;
        }
        if !self.saw_system && block.saw_system {
            self.saw_system = true;
            info.system.extend(system);
        }
        for ((target, (_, key)), builder) in targets.into_iter().zip(keys).zip(block.builders) {
            if let Some(t) = target {
                self.builders[t].append(builder);
            } else {
                self.trace_columns += columns;
                self.builders.push(builder);
                self.index.insert(key, self.builders.len() - 1);
            }
        }
        true
    }
}
