//! Row-to-frame conversion: each row is routed to its trace and added to it.

use super::super::Progress;
use super::super::builder::{MAX_TRACE_COLUMNS, MAX_TRACES, SkipLog, SkipReason, TraceBuilder};
use super::super::layout::Layout;
use super::super::mangohud::MangoRows;
use super::super::records::Fields;
use super::super::values::{normalize_swap_chain, same_bytes, trim};
use super::Key;
use crate::model::{FileInfo, Format, TraceMeta, Warning};
use std::collections::HashMap;

/// State of the row loop.
#[derive(Clone)]
pub(super) struct RowReader<'a> {
    pub(super) layout: &'a Layout,
    pub(super) file_stem: String,
    pub(super) builders: Vec<TraceBuilder>,
    pub(super) index: HashMap<Key, usize>,
    pub(super) last_key: Vec<Vec<u8>>,
    /// The last row's key fields as one span, when they are adjacent and the row
    /// keeps them so ([`Fields::span`]).
    pub(super) last_span: Option<Vec<u8>>,
    pub(super) last_index: Option<usize>,
    pub(super) file_warnings: Vec<Warning>,
    pub(super) file_skips: SkipLog,
    pub(super) count: u64,
    pub(super) saw_system: bool,
    /// MangoHud: every timed row, to read the log as samples if it is sampled.
    pub(super) mango: Option<MangoRows>,
    /// The trace the load preview shows, and how many of its frames it has.
    pub(super) previewed: Option<(usize, usize)>,
    /// Optional columns kept so far, summed over traces (bounded by
    /// [`MAX_TRACE_COLUMNS`]), and the traces that keep none because of it.
    pub(super) trace_columns: usize,
    pub(super) traces_without_columns: usize,
    /// Rows the first trace makes room for when it is created (a block's: see
    /// [`TraceBuilder::reserve_rows`]); 0 for none.
    pub(super) first_rows: usize,
}

impl<'a> RowReader<'a> {
    pub(super) fn new(layout: &'a Layout, file_stem: String) -> Self {
        Self {
            layout,
            file_stem,
            builders: Vec::new(),
            index: HashMap::new(),
            last_key: Vec::new(),
            last_span: None,
            last_index: None,
            file_warnings: Vec::new(),
            file_skips: SkipLog::default(),
            count: 0,
            saw_system: false,
            mango: None,
            trace_columns: 0,
            traces_without_columns: 0,
            previewed: None,
            first_rows: 0,
        }
    }

    /// Hands the frame times read since the last call to the load preview (of the
    /// trace with the most frames).
    pub(super) fn feed_preview(&mut self, progress: &Progress) {
        let Some((biggest, b)) = self.builders.iter().enumerate().max_by_key(|(_, b)| b.len()) else {
            return;
        };
        let (restart, from) = match self.previewed {
            Some((index, fed)) if index == biggest => (false, fed),
            _ => (true, 0),
        };
        let times = b.frame_times();
        progress.extend_preview(restart, times.get(from..).unwrap_or(&[]));
        self.previewed = Some((biggest, times.len()));
    }

    pub(super) fn row<F: Fields>(&mut self, record: &F, line: u64, info: &mut FileInfo) {
        let layout = self.layout;
        let fields = record.len();
        let used = used_fields(record, layout.header_len);
        let shape = if record.is_oversized() {
            Some(SkipReason::Oversized)
        } else if fields < layout.min_fields {
            Some(SkipReason::Truncated { fields, header: layout.header_len })
        } else if used > layout.header_len && layout.format != Format::Ocat {
            Some(SkipReason::TooLong { fields, header: layout.header_len })
        } else {
            None
        };
        // A malformed row may only join a trace that exists: it never creates one.
        let found = match self.same_as_last(record) {
            Some(index) => Ok(index),
            None => self.trace_index(record, shape.is_none()),
        };
        let index = match found {
            Ok(index) => index,
            Err(reason) => {
                self.file_skips.add(line, shape.unwrap_or(reason));
                if let (Some(m), Some(record)) = (&mut self.mango, record.as_row()) {
                    m.note(record, line, None, true);
                }
                return;
            }
        };
        if let Some(reason) = shape {
            self.builders[index].skip(line, reason);
            if let (Some(m), Some(record)) = (&mut self.mango, record.as_row()) {
                m.skip(line, reason);
                m.note(record, line, None, true);
            }
            return;
        }
        if !self.saw_system {
            self.saw_system = true;
            for (i, name) in &layout.system {
                let value = String::from_utf8_lossy(trim(record.get(*i).unwrap_or(b""))).into_owned();
                if !value.is_empty() && value != "-" {
                    info.system.push((name.clone(), value));
                }
            }
        }
        let before = self.builders[index].len();
        self.builders[index].push(record, layout, line);
        if let (Some(m), Some(record)) = (&mut self.mango, record.as_row()) {
            let kept = (self.builders[index].len() > before).then_some(before);
            m.note(record, line, kept, false);
        }
    }

    /// The last row's trace when this row's key fields are the last row's (rows of
    /// one trace run on): compared as one span when they are side by side
    /// (PresentMon's first three), else field by field. Inline: most rows end here.
    #[inline]
    fn same_as_last<F: Fields>(&self, record: &F) -> Option<usize> {
        let index = self.last_index?;
        let layout = self.layout;
        let cols = [layout.application, layout.process_id, layout.swap_chain];
        let span = key_span(cols).and_then(|(a, b)| record.span(a, b));
        let same = match (span, self.last_span.as_deref()) {
            (Some(now), Some(last)) => same_bytes(now, last),
            _ => cols.iter().zip(&self.last_key).all(|(c, k)| same_bytes(raw_field(record, *c), k)),
        };
        same.then_some(index)
    }

    /// Finds the trace of a row that is not the last row's ([`RowReader::same_as_last`]),
    /// creating it when `create` is set. The error says why the row names no trace.
    fn trace_index<F: Fields>(&mut self, record: &F, create: bool) -> Result<usize, SkipReason> {
        let layout = self.layout;
        let cols = [layout.application, layout.process_id, layout.swap_chain];
        let span = key_span(cols).and_then(|(a, b)| record.span(a, b));
        let text = |c: Option<usize>| {
            c.map(|i| String::from_utf8_lossy(trim(record.get(i).unwrap_or(b""))).into_owned())
        };
        let application = text(layout.application).unwrap_or_else(|| self.file_stem.clone());
        let process_id = match text(layout.process_id) {
            None => None,
            Some(t) => Some(t.parse::<u32>().map_err(|_| SkipReason::BadProcessId)?),
        };
        let swap_chain = text(layout.swap_chain).map(|s| normalize_swap_chain(&s));
        let key = (application, process_id, swap_chain);
        let idx = match self.index.get(&key) {
            Some(&idx) => idx,
            None if !create => return Err(SkipReason::UnknownTrace),
            None if self.builders.len() >= MAX_TRACES => return Err(SkipReason::TooManyTraces),
            None => {
                let meta = TraceMeta {
                    application: key.0.clone(),
                    process_id: key.1,
                    swap_chain: key.2.clone(),
                    runtime: None,
                    present_modes: Vec::new(),
                };
                let keep = self.trace_columns + layout.numeric.len() <= MAX_TRACE_COLUMNS;
                if keep {
                    self.trace_columns += layout.numeric.len();
                } else {
                    self.traces_without_columns += 1;
                }
                let mut builder = TraceBuilder::new(meta, layout, keep);
                if self.builders.is_empty() {
                    builder.reserve_rows(self.first_rows, layout);
                }
                self.builders.push(builder);
                self.index.insert(key, self.builders.len() - 1);
                self.builders.len() - 1
            }
        };
        self.last_key = cols.iter().map(|c| raw_field(record, *c).to_vec()).collect();
        self.last_span = span.map(<[u8]>::to_vec);
        self.last_index = Some(idx);
        Ok(idx)
    }
}

/// The bytes of column `c` of a row (empty when the layout has no such column or the
/// row is short).
fn raw_field<F: Fields>(record: &F, c: Option<usize>) -> &[u8] {
    c.map_or(&b""[..], |i| record.get(i).unwrap_or(b""))
}

/// The first and last of the key columns when each is present and they are
/// adjacent, in order.
#[inline]
fn key_span(cols: [Option<usize>; 3]) -> Option<(usize, usize)> {
    let [a, b, c] = cols;
    let (a, b, c) = (a?, b?, c?);
    (b == a + 1 && c == b + 1).then_some((a, c))
}

/// Counts the fields of a row, ignoring empty trailing ones beyond the header (a
/// trailing comma is not a new column).
pub(super) fn used_fields<F: Fields>(record: &F, header_len: usize) -> usize {
    let mut n = record.len();
    while n > header_len && trim(record.get(n - 1).unwrap_or(b"")).is_empty() {
        n -= 1;
    }
    n
}
