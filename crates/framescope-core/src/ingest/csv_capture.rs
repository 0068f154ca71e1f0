//! Reads a PresentMon-family CSV capture row by row into traces.

use super::builder::{MAX_TRACE_COLUMNS, MAX_TRACES, SkipLog, SkipReason, TraceBuilder};
use super::error::{LoadError, LoadErrorKind};
use super::layout::{self, DroppedRule, Layout, TimeUnit};
use super::mangohud::MangoRows;
use super::preamble::{self, PreambleError};
use super::records::{Block, BlockItem, Fields, Plan, Records, Row, splits_plainly};
use super::sampled::sampled_warning;
use super::values::{normalize_swap_chain, same_bytes, trim};
use super::{LoadOptions, Progress};
use crate::model::{Capture, FileInfo, Format, TraceMeta, Warning};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;

/// The identity of a trace: application, process id, swap chain.
type Key = (String, Option<u32>, Option<String>);

/// Loads a CSV capture from `reader`; `path` names it in messages.
pub fn load<R: BufRead + Send>(
    path: &Path,
    mut reader: R,
    opts: &LoadOptions,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let err = |line, kind| LoadError::new(path, line, kind);
    let pre = preamble::read_preamble(&mut reader).map_err(|e| match e {
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
    })?;
    let layout = layout::detect(&pre.header, &pre.comments)
        .map_err(|msg| err(Some(pre.header_line), LoadErrorKind::NotACapture(msg)))?;
    let mut info = FileInfo {
        dropped_known: layout.dropped != DroppedRule::Unknown,
        target_fps: None,
        path: path.to_path_buf(),
        format: layout.format,
        format_version: layout.format_version.clone(),
        system: pre
            .comments
            .iter()
            .filter_map(|c| c.split_once('='))
            .map(|(k, v)| (k.trim().into(), v.trim().into()))
            .collect(),
    };
    let mut rows = RowReader::new(&layout, file_stem(path));
    if layout.format == Format::MangoHud {
        rows.mango = Some(MangoRows::new(&layout, &pre.header, pre.version));
    }
    // MangoHud's reader looks at every row as a `Row`: it keeps to the csv_core splitter.
    let plan = (layout.format != Format::MangoHud).then(|| Arc::new(parse_plan(&layout)));
    let first_line = pre.header_line + 1;
    // Two stages on two threads: one splits the bytes into rows, the other turns rows
    // into frames. Quote-free input is read in blocks of whole lines and split in
    // place (`Block`); anything else goes through csv_core (`Records`). Batches go
    // back and forth so their buffers are reused; the order of rows is kept.
    let (full_tx, full_rx) = mpsc::sync_channel::<std::io::Result<Batch>>(BATCHES_IN_FLIGHT);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        scope.spawn(move || split_input(reader, first_line, plan.as_ref(), &full_tx, &empty_rx));
        // Every way out of this loop drops `full_rx` and `empty_tx`, which stops the
        // splitter at its next batch.
        let (full_rx, empty_tx) = (full_rx, empty_tx);
        let mut slow = Row::default();
        for batch in full_rx {
            let batch = batch.map_err(|e| err(None, LoadErrorKind::Io(e)))?;
            match &batch {
                Batch::Rows(batch) => {
                    for (record, &line) in batch.rows.iter().zip(&batch.lines) {
                        rows.row(record, line, &mut info);
                        rows.count += 1;
                    }
                }
                Batch::Block(block) => {
                    for k in 0..block.len() {
                        match block.row(k) {
                            (BlockItem::Fast(record), line) => rows.row(&record, line, &mut info),
                            (BlockItem::Slow(bytes), line) => {
                                let mut one = Records::new(bytes, line);
                                if let Ok(Some(line)) = one.next_row(&mut slow) {
                                    rows.row(&slow, line, &mut info);
                                }
                            }
                        }
                        rows.count += 1;
                    }
                }
            }
            if progress.is_cancelled() {
                return Err(err(None, LoadErrorKind::Cancelled));
            }
            rows.feed_preview(progress);
            let _ = empty_tx.send(batch);
        }
        Ok(())
    })?;
    rows.finish(info, opts, path)
}

/// Rows per batch handed from the splitter to the builder.
const BATCH_ROWS: usize = 4096;
/// Batches the splitter may be ahead by (bounds the memory in flight).
const BATCHES_IN_FLIGHT: usize = 2;

/// Bytes read at a time, split into blocks of whole lines.
const READ_BYTES: usize = 4 << 20;

/// Rows split from the input, with the line each starts on.
#[derive(Default)]
struct RowBatch {
    rows: Vec<Row>,
    lines: Vec<u64>,
}

/// What the splitting stage hands on.
enum Batch {
    /// Rows split by csv_core.
    Rows(RowBatch),
    /// Whole lines split in place.
    Block(Block),
}

/// The splitting stage. Reads blocks of whole lines and splits them in place while
/// they are plain (no quotes, no lone `\r`; `plain` allows it at all); from the first
/// block that is not, or a line longer than a block, hands the rest of the input to
/// csv_core.
fn split_input<R: BufRead>(
    mut reader: R,
    first_line: u64,
    plan: Option<&Arc<Plan>>,
    full: &mpsc::SyncSender<std::io::Result<Batch>>,
    empty: &mpsc::Receiver<Batch>,
) {
    let mut line = first_line;
    let mut buf: Vec<u8> = Vec::new();
    let mut eof = false;
    let mut pool: Vec<Block> = Vec::new();
    while let Some(plan) = plan {
        let mut filled = buf.len();
        buf.resize(filled.max(READ_BYTES), 0);
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
        buf.truncate(filled);
        let cut = if eof { Some(buf.len()) } else { memchr::memrchr(b'\n', &buf).map(|k| k + 1) };
        let Some(cut) = cut.filter(|&cut| splits_plainly(&buf[..cut])) else {
            // Not plain (or one line fills the buffer): csv_core from here on.
            break;
        };
        // Parts of whole lines, split and parsed in parallel; each counts its lines
        // from 0 and is moved on by the lines before it (a prefix sum).
        while let Ok(batch) = empty.try_recv() {
            if let Batch::Block(block) = batch {
                pool.push(block);
            }
        }
        let parts = line_parts(&buf[..cut], rayon::current_num_threads().max(1) * 2);
        let blocks: Vec<Block> = parts.iter().map(|_| pool.pop().unwrap_or_default()).collect();
        let mut done: Vec<(Block, u64)> = blocks
            .into_par_iter()
            .zip(parts.par_iter())
            .map(|(mut block, range)| {
                let mut data = block.take_data();
                data.clear();
                data.extend_from_slice(&buf[range.clone()]);
                let lines = block.fill(data, 0);
                block.parse(plan);
                (block, lines)
            })
            .collect();
        for (block, lines) in &mut done {
            block.shift_lines(line);
            line += *lines;
        }
        for (block, _) in done {
            if !block.is_empty() && full.send(Ok(Batch::Block(block))).is_err() {
                return;
            }
        }
        buf.drain(..cut);
        if eof && buf.is_empty() {
            return;
        }
    }
    let rest = std::io::Read::chain(std::io::Cursor::new(buf), reader);
    split_rows(Records::new(rest, line), full, empty);
}

/// Splits `data` (whole lines) into about `n` ranges that end at line ends.
fn line_parts(data: &[u8], n: usize) -> Vec<std::ops::Range<usize>> {
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
fn split_rows<R: BufRead>(
    mut records: Records<R>,
    full: &mpsc::SyncSender<std::io::Result<Batch>>,
    empty: &mpsc::Receiver<Batch>,
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
/// (and its decimal step) and every numeric column.
fn parse_plan(layout: &Layout) -> Plan {
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
    fields.extend(layout.numeric.iter().map(|c| c.index));
    Plan::new(fields, time)
}

fn file_stem(path: &Path) -> String {
    path.file_stem().map_or_else(|| "capture".into(), |s| s.to_string_lossy().into_owned())
}

/// State of the row loop.
struct RowReader<'a> {
    layout: &'a Layout,
    file_stem: String,
    builders: Vec<TraceBuilder>,
    index: HashMap<Key, usize>,
    last_key: Vec<Vec<u8>>,
    last_index: Option<usize>,
    file_warnings: Vec<Warning>,
    file_skips: SkipLog,
    count: u64,
    saw_system: bool,
    /// MangoHud: every timed row, to read the log as samples if it is sampled.
    mango: Option<MangoRows>,
    /// The trace the load preview shows, and how many of its frames it has.
    previewed: Option<(usize, usize)>,
    /// Optional columns kept so far, summed over traces (bounded by
    /// [`MAX_TRACE_COLUMNS`]), and the traces that keep none because of it.
    trace_columns: usize,
    traces_without_columns: usize,
}

impl<'a> RowReader<'a> {
    fn new(layout: &'a Layout, file_stem: String) -> Self {
        Self {
            layout,
            file_stem,
            builders: Vec::new(),
            index: HashMap::new(),
            last_key: Vec::new(),
            last_index: None,
            file_warnings: Vec::new(),
            file_skips: SkipLog::default(),
            count: 0,
            saw_system: false,
            mango: None,
            trace_columns: 0,
            traces_without_columns: 0,
            previewed: None,
        }
    }

    /// Hands the frame times read since the last call to the load preview (of the
    /// trace with the most frames).
    fn feed_preview(&mut self, progress: &Progress) {
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

    fn row<F: Fields>(&mut self, record: &F, line: u64, info: &mut FileInfo) {
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
        let index = match self.trace_index(record, shape.is_none()) {
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

    /// Finds the trace a row belongs to, creating it when `create` is set. The error
    /// says why the row names no trace.
    fn trace_index<F: Fields>(&mut self, record: &F, create: bool) -> Result<usize, SkipReason> {
        let layout = self.layout;
        let cols = [layout.application, layout.process_id, layout.swap_chain];
        let raw = |c: Option<usize>| c.map_or(&b""[..], |i| record.get(i).unwrap_or(b""));
        if let Some(idx) = self.last_index
            && cols.iter().zip(&self.last_key).all(|(c, k)| same_bytes(raw(*c), k))
        {
            return Ok(idx);
        }
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
                self.builders.push(TraceBuilder::new(meta, layout, keep));
                self.index.insert(key, self.builders.len() - 1);
                self.builders.len() - 1
            }
        };
        self.last_key = cols.iter().map(|c| raw(*c).to_vec()).collect();
        self.last_index = Some(idx);
        Ok(idx)
    }

    fn finish(mut self, info: FileInfo, opts: &LoadOptions, path: &Path) -> Result<Capture, LoadError> {
        let sampled = self.mangohud_fixups();
        let layout = self.layout;
        let mut mango = self.mango.take();
        let mut warnings = self.file_warnings;
        warnings.extend(self.file_skips.warnings());
        if self.traces_without_columns > 0 {
            warnings.push(Warning::file(format!(
                "the file has so many traces × columns that the optional columns (timings, telemetry) of \
                 its last {} traces were left out to stay within memory (at most {MAX_TRACE_COLUMNS} trace \
                 columns a file); their frame times are kept",
                self.traces_without_columns
            )));
        }
        let (ms_per_raw, unit_warning) = infer_time_scale(&self.builders, layout, opts);
        warnings.extend(unit_warning);
        let origin_raw =
            self.builders.iter().filter_map(TraceBuilder::first_raw_time).fold(f64::INFINITY, f64::min);
        let role = layout.time.map(|t| t.role);
        let origin_raw = if origin_raw.is_finite() { origin_raw } else { 0.0 };
        let mut traces = Vec::new();
        for builder in self.builders {
            let cell_warnings = if sampled { builder.cell_warnings(layout) } else { Vec::new() };
            let mut trace = builder.finish(layout, role, ms_per_raw, origin_raw);
            // A sampled MangoHud log (one trace: MangoHud names no process) is read
            // as samples; its per-frame reading only lends the telemetry.
            if sampled && let Some(rows) = mango.take() {
                let (mut sessions, notes) =
                    rows.sampled_traces(&trace, self.count, cell_warnings).map_err(|why| {
                        let line = warnings.iter().find_map(|w| w.line);
                        LoadError::new(path, line, LoadErrorKind::NoFrames(why))
                    })?;
                warnings.push(sampled_warning("MangoHud", super::sampled::mean_interval(&sessions), "fps"));
                warnings.extend(notes);
                // Every session but the last is a run already; the last goes on below.
                let Some(last) = sessions.pop() else { continue };
                traces.extend(sessions);
                trace = last;
            }
            if has_kept_frame(&trace) {
                traces.push(trace);
            } else {
                // Not a run (`metrics.md` §1: no frame time and no display interval
                // above 0, e.g. every cell 0): its skipped rows still tell the user
                // something.
                warnings.extend(trace.warnings);
            }
        }
        if traces.is_empty() {
            let why = if self.count == 0 {
                "the file has a header but no data rows".to_owned()
            } else {
                format!(
                    "none of its {} rows has a usable frame time (a frame time or display interval above 0)",
                    self.count
                )
            };
            let line = warnings.first().and_then(|w| w.line);
            return Err(LoadError::new(path, line, LoadErrorKind::NoFrames(why)));
        }
        let shift =
            traces.iter().filter_map(|t| t.frames.start_ms.first().copied()).fold(f64::INFINITY, f64::min);
        if shift.is_finite() && shift != 0.0 {
            for t in &mut traces {
                t.frames.start_ms.iter_mut().for_each(|s| *s -= shift);
            }
        }
        warnings.sort_by_key(|w| w.line);
        Ok(Capture { info, traces, warnings })
    }
}

impl RowReader<'_> {
    /// MangoHud: the application is the file name before the date; `frametime` is in
    /// µs up to 0.6.8 and in ms after; a log written with a `log_interval` is sampled
    /// (`mangohud.rs`). Returns true for a sampled log.
    fn mangohud_fixups(&mut self) -> bool {
        let Some(mango) = &self.mango else { return false };
        let app = mangohud_application(&self.file_stem);
        let mut sampled = false;
        for b in &mut self.builders {
            b.set_application(app.clone());
            let verdict = mango.verdict(b);
            if verdict.micros {
                b.scale_frame_times(1e-3);
            }
            sampled |= verdict.sampled;
        }
        sampled
    }
}

/// `glxgears_2021-06-03_21-32-02` → `glxgears`: MangoHud names its logs
/// `<program>_YYYY-MM-DD_HH-MM-SS.csv`.
fn mangohud_application(stem: &str) -> String {
    let parts: Vec<&str> = stem.rsplitn(3, '_').collect();
    let dated = parts.len() == 3
        && parts[0].len() == 8
        && parts[1].len() == 10
        && parts[0].chars().chain(parts[1].chars()).all(|c| c.is_ascii_digit() || c == '-');
    if dated { parts[2].to_owned() } else { stem.to_owned() }
}

/// Counts the fields of a row, ignoring empty trailing ones beyond the header (a
/// trailing comma is not a new column).
fn used_fields<F: Fields>(record: &F, header_len: usize) -> usize {
    let mut n = record.len();
    while n > header_len && trim(record.get(n - 1).unwrap_or(b"")).is_empty() {
        n -= 1;
    }
    n
}

/// Decides how many milliseconds one raw unit of the time column is. The declared
/// unit is trusted when the time column advances in step with the frame times;
/// otherwise the unit that does is used (PresentMon's `--qpc_time_ms` writes ms under
/// a `TimeInSeconds` header; a QPC clock may not run at the assumed frequency).
fn infer_time_scale(
    builders: &[TraceBuilder],
    layout: &Layout,
    opts: &LoadOptions,
) -> (f64, Option<Warning>) {
    let Some(time) = layout.time else {
        return (1.0, None);
    };
    if time.unit == TimeUnit::Nanos {
        // MangoHud's `elapsed`: no writer mislabels it, and a sampled log does not
        // advance with its frame times by design.
        return (1e-6, None);
    }
    let declared = match time.unit {
        TimeUnit::Qpc => 1000.0 / opts.qpc_hz(),
        unit => unit.to_ms(),
    };
    let Some(biggest) = builders.iter().max_by_key(|b| b.len()) else {
        return (declared, None);
    };
    let (raw, ms) = biggest.time_pairs(time.role);
    if !(raw > 0.0 && ms > 0.0) {
        return (declared, None);
    }
    let measured = ms / raw;
    let close = |a: f64, b: f64| (a / b).ln().abs() < 1.2_f64.ln();
    if close(measured, declared) {
        return (declared, None);
    }
    if time.unit == TimeUnit::Qpc {
        let hz = 1000.0 / measured;
        if let Some(given) = opts.qpc_frequency_hz {
            // The user's frequency wins; the measurement is only reported.
            let msg = format!(
                "the QPC time column advances at about {hz:.0} ticks per second against the frame times, \
                 not the {given:.0} you set with --qpc-frequency; timestamps use your {given:.0}"
            );
            return (declared, Some(Warning::file(msg)));
        }
        let msg = format!(
            "the QPC time column advances at about {hz:.0} ticks per second, not the assumed {:.0}; \
             timestamps use the measured rate (set --qpc-frequency to override)",
            opts.qpc_hz()
        );
        return (measured, Some(Warning::file(msg)));
    }
    for candidate in [1000.0, 1.0, 1e-3, 1e-6] {
        if close(measured, candidate) {
            return (candidate, None);
        }
    }
    let msg = "the time column does not advance with the frame times; frame start times \
               on the timeline may be off"
        .to_owned();
    (declared, Some(Warning::file(msg)))
}

/// True when the trace holds a frame of either series: a frame time or a display
/// interval above 0 (a row of zeros is kept as a frame without a present interval, for
/// the display series, and may be all a trace has).
fn has_kept_frame(trace: &crate::model::Trace) -> bool {
    let f = &trace.frames;
    f.frame_time_ms.iter().any(|&v| v > 0.0) || f.display_ms.iter().any(|&v| v > 0.0)
}
