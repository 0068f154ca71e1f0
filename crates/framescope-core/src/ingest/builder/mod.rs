//! Accumulates the rows of one trace, then turns them into a [`Trace`].

use super::layout::{DroppedRule, FrameTimeRule, Layout, TimeRole, TimeUnit};
use super::records::Fields;

use super::values::{Cell, parse_date_time_ms};
use crate::model::{
    Column, ColumnKind, FrameType, Frames, Trace, TraceMeta, ValuesBuilder, Warning, push_grown,
};

/// The most traces one file may hold; rows naming further traces are skipped (a
/// hostile file could otherwise make one trace per row).
pub const MAX_TRACES: usize = 4096;

/// The most optional columns (summed over traces) a file keeps: a file naming
/// thousands of traces, each with thousands of columns, would otherwise take far more
/// memory than its size. Traces past the limit keep their frame times only.
pub const MAX_TRACE_COLUMNS: usize = 1 << 18;

/// Distinct present modes kept per trace.
const MAX_PRESENT_MODES: usize = 1024;

use super::overflow::{OverflowLog, PLAUSIBLE_FRAME_TIME_MS, plausible_duration};

mod columns;
mod merge;
mod repeats;
mod skips;
#[cfg(test)]
mod tests;
mod times;

pub(crate) use skips::{InvalidCells, SkipLog, SkipReason};

/// The rows of one trace so far.
#[derive(Debug, Clone)]
pub struct TraceBuilder {
    meta: TraceMeta,
    frames: Frames,
    /// The layout's numeric columns (none when the trace keeps no optional columns,
    /// see [`TraceBuilder::new`]), stored compactly as they are read.
    columns: Vec<ValuesBuilder>,
    /// Per numeric column, the cell it repeats while it is constant.
    repeats: Vec<repeats::Repeat>,
    /// Per numeric column not stored ([`NumericColumn::stored`]): whether a cell held a
    /// number (what the warning about its text cells says).
    ///
    /// [`NumericColumn::stored`]: super::layout::NumericColumn::stored
    seen: Vec<columns::Seen>,
    raw_time: Vec<f64>,
    /// For each kept frame, whether the row before it in this trace (kept or skipped)
    /// was the previous kept frame: time differences are only compared across
    /// adjacent rows.
    adjacent: Vec<bool>,
    rows_seen: u64,
    /// The row ordinal of the last kept frame.
    last_kept: Option<u64>,
    /// The row ordinal of the first kept frame (whose adjacency a merge sets,
    /// `merge.rs`).
    first_kept: Option<u64>,
    mode_lookup: std::collections::HashMap<String, u16>,
    /// The last present-mode cell (untrimmed) and its index (rows repeat it).
    last_mode: Option<(Vec<u8>, u16)>,
    /// The last frame type's text and value.
    last_type: Option<(Vec<u8>, FrameType)>,
    /// Per numeric column with text cells: (column, tally). Few columns ever have any.
    invalid: Vec<(usize, InvalidCells)>,
    /// Duration cells of 10⁶ ms or more, read as missing (`metrics.md` §1).
    overflow: OverflowLog,
    skipped: SkipLog,
    /// The `DisplayedTime` of the last displayed frame so far (2.0–2.3 layouts): the
    /// display interval of the next displayed frame.
    shifted_display: f64,
    /// The first frame whose display interval was the `shifted_display` before it
    /// (NaN in a builder started on a later block: a merge fills it in).
    first_shifted: Option<usize>,
    /// Displayed frames without a present interval: (count, first line).
    no_present: Option<(u64, u64)>,
    /// The coarsest step the time column is written with, in its own unit (the PresentMon
    /// GUI writes `TimeInSeconds` with 4 significant digits: 10 ms steps past 10 s).
    time_step_raw: f64,
}

impl TraceBuilder {
    /// An empty trace for a key; `keep_columns` false leaves the optional numeric
    /// columns out (a file with thousands of traces × columns, see
    /// [`MAX_TRACE_COLUMNS`]).
    pub fn new(meta: TraceMeta, layout: &Layout, keep_columns: bool) -> Self {
        let n = if keep_columns { layout.numeric.len() } else { 0 };
        Self {
            meta,
            frames: Frames::default(),
            columns: vec![ValuesBuilder::default(); n],
            repeats: vec![repeats::Repeat::default(); n],
            seen: vec![columns::Seen::default(); n],
            raw_time: Vec::new(),
            adjacent: Vec::new(),
            rows_seen: 0,
            last_kept: None,
            first_kept: None,
            mode_lookup: std::collections::HashMap::new(),
            last_mode: None,
            last_type: None,
            invalid: Vec::new(),
            overflow: OverflowLog::default(),
            skipped: SkipLog::default(),
            shifted_display: f64::NAN,
            first_shifted: None,
            no_present: None,
            time_step_raw: 0.0,
        }
    }

    /// Makes room for `rows` more frames in the lists every kept row adds to (a block's
    /// rows, read by a builder of their own: no regrowing them row by row).
    pub fn reserve_rows(&mut self, rows: usize, layout: &Layout) {
        let f = &mut self.frames;
        f.frame_time_ms.reserve(rows);
        if layout.display.is_some() {
            f.display_ms.reserve(rows);
        }
        if layout.dropped != DroppedRule::Unknown {
            f.dropped.reserve(rows);
        }
        self.adjacent.reserve(rows);
        if layout.time.is_some() {
            self.raw_time.reserve(rows);
        }
        if layout.present_mode.is_some() {
            f.present_mode.reserve(rows);
        }
        if layout.frame_type.is_some() {
            f.frame_type.reserve(rows);
        }
    }

    /// Number of frames kept so far.
    pub fn len(&self) -> usize {
        self.frames.frame_time_ms.len()
    }

    /// Records a row that was not kept.
    pub fn skip(&mut self, line: u64, reason: SkipReason) {
        self.rows_seen += 1;
        self.skipped.add(line, reason);
    }

    /// Adds one row, or records why it was skipped.
    pub fn push<F: Fields>(&mut self, record: &F, layout: &Layout, line: u64) {
        let field = |i: usize| record.get(i).unwrap_or(b"");
        let frame_time = frame_time_cell(record, layout.frame_time);
        let dropped = self.dropped_of(record, layout.dropped, line);
        // A displayed frame without a present interval (the 2.1–2.3 layouts write
        // FrameTime 0 for generated frames) is a frame of the display series only: it is
        // kept with a frame time of 0, which the presents series leaves out.
        let display_only = !dropped && layout.display.is_some() && layout.dropped != DroppedRule::Unknown;
        let ft = match frame_time {
            Cell::Number(v) if PLAUSIBLE_FRAME_TIME_MS.contains(&v) => v,
            Cell::Number(v) if v > 0.0 || !v.is_finite() => {
                return self.skip(line, SkipReason::ImplausibleFrameTime);
            }
            Cell::Number(v) if v == 0.0 && display_only => 0.0,
            Cell::Missing if display_only => 0.0,
            Cell::Number(_) => return self.skip(line, SkipReason::NonPositiveFrameTime),
            Cell::Missing => return self.skip(line, SkipReason::MissingFrameTime),
            Cell::Invalid => return self.skip(line, SkipReason::InvalidFrameTime),
        };
        if ft == 0.0 {
            let (count, first) = self.no_present.unwrap_or((0, line));
            self.no_present = Some((count + 1, first));
        }
        push_grown(&mut self.adjacent, self.last_kept.is_some_and(|k| k + 1 == self.rows_seen));
        if self.last_kept.is_none() {
            self.first_kept = Some(self.rows_seen);
        }
        self.last_kept = Some(self.rows_seen);
        self.rows_seen += 1;
        if let Some(i) = layout.present_mode {
            let idx = self.mode_of(field(i));
            push_grown(&mut self.frames.present_mode, idx);
        }
        if let Some(i) = layout.frame_type {
            let t = self.type_of(field(i));
            push_grown(&mut self.frames.frame_type, t);
        }
        let f = &mut self.frames;
        push_grown(&mut f.frame_time_ms, ft);
        // A layout without display data keeps no display list and no dropped flags
        // (`Frames::display_ms`): a frame is then never dropped, its interval NaN.
        if layout.dropped != DroppedRule::Unknown {
            push_grown(&mut f.dropped, dropped);
        }
        f.line.push(line);
        let number = |c: Cell| if let Cell::Number(v) = c { v } else { f64::NAN };
        let display = Self::display_cell(
            &mut self.overflow,
            layout.display.map_or(f64::NAN, |i| number(record.cell(i))),
            layout,
            line,
        );
        let interval = if dropped {
            f64::NAN
        } else if layout.display_shifted {
            self.first_shifted.get_or_insert(f.display_ms.len());
            std::mem::replace(&mut self.shifted_display, display)
        } else {
            display
        };
        if layout.display.is_some() {
            push_grown(&mut f.display_ms, interval);
        }
        if let Some(i) = layout.join_id {
            push_grown(&mut f.join_id, super::values::parse_id(field(i)));
        }
        self.push_runtime_and_time(record, layout);
        self.push_columns(record, layout, line, dropped);
    }

    /// Whether a row's frame was dropped, by the layout's rule; an odd value in a
    /// dropped column is logged (and read as not dropped).
    fn dropped_of<F: Fields>(&mut self, record: &F, rule: DroppedRule, line: u64) -> bool {
        match rule {
            DroppedRule::Column(i) => match record.cell(i) {
                Cell::Number(1.0) => true,
                Cell::Number(0.0) | Cell::Missing | Cell::Invalid => false,
                Cell::Number(_) => {
                    self.skipped.add(line, SkipReason::OddDropped);
                    false
                }
            },
            // As `record.cell(i) == Cell::Missing`, without parsing the number.
            DroppedRule::MissingDisplay(i) => super::values::is_missing(record.get(i).unwrap_or(b"")),
            DroppedRule::ZeroDisplay(i) => record.cell(i) == Cell::Number(0.0),
            DroppedRule::Unknown => false,
        }
    }

    /// The first non-empty runtime cell (kept as the trace's runtime) and a kept row's
    /// raw time-axis value.
    fn push_runtime_and_time<F: Fields>(&mut self, record: &F, layout: &Layout) {
        let field = |i: usize| record.get(i).unwrap_or(b"");
        if self.meta.runtime.is_none()
            && let Some(i) = layout.runtime
        {
            let text = String::from_utf8_lossy(super::values::trim(field(i)));
            if !text.is_empty() {
                self.meta.runtime = Some(text.into_owned());
            }
        }
        if let Some(t) = layout.time {
            let raw = if t.unit == TimeUnit::DateTime {
                parse_date_time_ms(&String::from_utf8_lossy(field(t.index))).unwrap_or(f64::NAN)
            } else {
                // A cell's step is at most 1 (a whole number): once it is 1, no row
                // can raise it (QPC timestamps: from the first row on).
                if self.time_step_raw < 1.0 {
                    self.time_step_raw = self.time_step_raw.max(record.step(t.index));
                }
                match record.cell(t.index) {
                    Cell::Number(v) => v,
                    _ => f64::NAN,
                }
            };
            push_grown(&mut self.raw_time, raw);
        }
    }

    /// A display-column value, or NaN when it is implausible (counted in `overflow`
    /// for a warning).
    fn display_cell(overflow: &mut OverflowLog, display: f64, layout: &Layout, line: u64) -> f64 {
        if plausible_duration(display) || !display.is_finite() {
            return display;
        }
        let name = if layout.display_shifted { "DisplayedTime" } else { "MsBetweenDisplayChange" };
        overflow.note(name, line, display);
        f64::NAN
    }

    /// The present mode of a cell, trimmed (rows repeat the last cell: no trimming or
    /// lookup then).
    #[inline]
    fn mode_of(&mut self, cell: &[u8]) -> u16 {
        if let Some((last, idx)) = &self.last_mode
            && super::values::same_bytes(last, cell)
        {
            return *idx;
        }
        let idx = self.mode_index(&String::from_utf8_lossy(super::values::trim(cell)));
        self.last_mode = Some((cell.to_vec(), idx));
        idx
    }

    /// The frame type of a cell (rows repeat the last one: no parsing then).
    #[inline]
    fn type_of(&mut self, text: &[u8]) -> FrameType {
        if let Some((last, t)) = &self.last_type
            && super::values::same_bytes(last, text)
        {
            return *t;
        }
        let t = FrameType::parse(&String::from_utf8_lossy(text));
        self.last_type = Some((text.to_vec(), t));
        t
    }

    /// The index of a present mode, adding it when new. Past [`MAX_PRESENT_MODES`]
    /// distinct modes (no real capture has more than a handful) the rest share one
    /// entry that says so.
    fn mode_index(&mut self, mode: &str) -> u16 {
        if let Some(&idx) = self.mode_lookup.get(mode) {
            return idx;
        }
        let modes = &mut self.meta.present_modes;
        if modes.len() >= MAX_PRESENT_MODES {
            if modes.len() == MAX_PRESENT_MODES {
                modes.push("(other present modes)".into());
            }
            return MAX_PRESENT_MODES as u16;
        }
        let idx = modes.len() as u16;
        modes.push(mode.to_owned());
        self.mode_lookup.insert(mode.to_owned(), idx);
        idx
    }

    /// Multiplies every frame time by `factor` (a writer's unit fixed after reading).
    pub fn scale_frame_times(&mut self, factor: f64) {
        self.frames.frame_time_ms.iter_mut().for_each(|v| *v *= factor);
    }

    /// Who wrote the trace's frames (application, process, swap chain).
    #[must_use]
    pub fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    /// The frame times read so far.
    pub fn frame_times(&self) -> &[f64] {
        &self.frames.frame_time_ms
    }

    /// The warnings about numeric columns holding text (as [`TraceBuilder::finish`]
    /// gives them), for a reader that builds its trace another way.
    pub fn cell_warnings(&self, layout: &Layout) -> Vec<Warning> {
        let mut invalid: Vec<&(usize, InvalidCells)> = self.invalid.iter().collect();
        invalid.sort_by_key(|(k, _)| *k);
        invalid
            .into_iter()
            .filter_map(|(k, cells)| cells.warning(&layout.numeric[*k].name, self.has_numbers(*k, layout)))
            .chain(self.overflow.warnings())
            .collect()
    }

    /// Renames the trace's application.
    pub fn set_application(&mut self, name: String) {
        self.meta.application = name;
    }

    /// Pairs of (raw time difference, matching frame-time sum) for unit inference.
    pub fn time_pairs(&self, role: TimeRole) -> (f64, f64) {
        let (ft, t) = (&self.frames.frame_time_ms, &self.raw_time);
        let mut raw = 0.0;
        let mut ms = 0.0;
        for i in 1..t.len().min(ft.len()) {
            let d = t[i] - t[i - 1];
            let step = if role == TimeRole::Present { ft[i] } else { ft[i - 1] };
            if d.is_finite() && step > 0.0 && self.adjacent[i] {
                raw += d;
                ms += step;
            }
        }
        (raw, ms)
    }

    /// The first raw time value that is a number.
    pub fn first_raw_time(&self) -> Option<f64> {
        self.raw_time.iter().copied().find(|v| v.is_finite())
    }

    /// Finishes the trace: start times from the time column (scaled by `ms_per_raw`,
    /// relative to `origin_raw`) or, without one, from the running sum of frame times.
    pub fn finish(
        mut self,
        layout: &Layout,
        role: Option<TimeRole>,
        ms_per_raw: f64,
        origin_raw: f64,
    ) -> Trace {
        self.adjacent = Vec::new();
        self.frames.shrink_to_fit();
        self.raw_time.shrink_to_fit();
        let clock =
            times::Clock { role, ms_per_raw, origin_raw, rounding_ms: self.time_step_raw * ms_per_raw };
        let raw = std::mem::take(&mut self.raw_time);
        let (start, out_of_range) = clock.start_times(&self.frames.frame_time_ms, raw, &self.frames.line);
        self.frames.start_ms = start;
        let mut warnings = self.skipped.warnings();
        if let Some((count, line)) = self.no_present {
            let what = if count == 1 {
                "1 displayed frame has".to_owned()
            } else {
                format!("{count} displayed frames have")
            };
            warnings.push(Warning::at(
                line,
                format!(
                    "{what} no present interval (frame time 0 or missing; in the 2.1–2.3 layouts these are \
                     generated frames): the display series counts them, the presents series leaves them out"
                ),
            ));
        }
        if let Some((count, line)) = out_of_range {
            warnings.push(Warning::at(
                line,
                format!("{count} timestamps are out of range; those frames are placed right after the frame before"),
            ));
        }
        warnings.extend(self.overflow.warnings());
        let mut kept = Vec::new();
        let mut invalid = std::mem::take(&mut self.invalid);
        invalid.sort_by_key(|(k, _)| *k);
        let mut invalid = invalid.into_iter().peekable();
        for k in 0..self.columns.len().min(layout.numeric.len()) {
            let has_numbers = self.has_numbers(k, layout);
            let spec = &layout.numeric[k];
            if let Some((_, cells)) = invalid.next_if(|(c, _)| *c == k) {
                warnings.extend(cells.warning(&spec.name, has_numbers));
            }
            let values = std::mem::take(&mut self.columns[k]);
            let known = !matches!(spec.kind, ColumnKind::Other | ColumnKind::Telemetry);
            if spec.stored && (has_numbers || known) {
                kept.push(Column { name: spec.name.clone(), kind: spec.kind, values: values.finish() });
            }
        }
        self.frames.columns = kept;
        Trace { meta: self.meta, frames: self.frames, warnings }
    }
}

/// A row's frame-time cell by the layout's rule: a column, 1000 / an FPS column, or
/// the sum of two columns.
fn frame_time_cell<F: Fields>(record: &F, rule: FrameTimeRule) -> Cell {
    match rule {
        FrameTimeRule::Column(i) => record.cell(i),
        FrameTimeRule::FromFps(i) => match record.cell(i) {
            Cell::Number(fps) if fps > 0.0 => Cell::Number(1000.0 / fps),
            Cell::Number(_) => Cell::Number(0.0),
            other => other,
        },
        FrameTimeRule::Sum(b, w) => match (record.cell(b), record.cell(w)) {
            (Cell::Number(b), Cell::Number(w)) => Cell::Number(b + w),
            (Cell::Invalid, _) | (_, Cell::Invalid) => Cell::Invalid,
            _ => Cell::Missing,
        },
    }
}
