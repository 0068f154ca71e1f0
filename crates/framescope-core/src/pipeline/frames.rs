//! The per-frame table of a file's reported traces (`framescope frames`, the Python
//! package's `frames()`): a row per kept frame of the trace (per sample for a sampled
//! log), with what the analysis found on it, then every other numeric column of the
//! capture under its header name. Built from the same [`Loaded`] and [`Prepared`]
//! analysis as the report, so its flags count what the report counts.
//!
//! Fixed columns, in order (a null where a value does not apply):
//!
//! * `run` — the run's position among the file's runs (0 unless `--trace all`);
//! * `frame` — the frame's index in the (trimmed) trace; `line` — its line in the file;
//! * `time_ms` — the start of its interval on the capture's time axis;
//! * `frame_time_ms` — present to present (a sample: `1000 / rate`); `display_ms` — the
//!   display interval (null when dropped or not captured);
//! * `dropped` (null when the capture has no display data); `frame_type` (as
//!   PresentMon writes it, null when not given) and `generated`; `present_mode`;
//! * `analysed` — in the analysed series (`frames` in the report counts these; with
//!   the display source, dropped frames are not); `series_index` — its position there,
//!   the index `stutters.frames` and `health.spikes` use; `analysed_frame_time_ms`,
//!   `rolling_median_ms` (the 19-frame median the stutter rule compares with);
//! * `stutter`, `oscillating`, `spike` (any action spiked) and `spike.<action>` for
//!   every health action — null on frames outside the series and for sampled logs;
//! * `limiter` — the frame's limiter class (`metrics.md` §13: `gpu`, `cpu`, `neither`;
//!   null when unclassified: a generated frame, a missing value, no busy columns);
//! * `weight` — the frames the row stands for: 1, or `rate · Δt / 1000` for a sample
//!   (`metrics.md` §10: the report's `frames` is `round(Σ weight)`); `sample_ms` — Δt.
//!
//! The table is handed over a chunk of [`CHUNK_ROWS`] rows at a time ([`FrameTable`],
//! [`TableChunks`]): a 10M-frame capture's table is never built whole (issue 34: it
//! took about 200 bytes a frame before the first row was written).

use super::{AnalysisError, Loaded, Picked};
use crate::analysis::limiter::{BusyColumns, Class};
use crate::analysis::{Figures, Prepared, Series, Settings};
use crate::model::{FileInfo, FrameType, Trace};
use crate::report::tabular::{Cells, Table, TableChunks};

/// Rows in a chunk of the table (a Parquet row group holds as many).
pub const CHUNK_ROWS: usize = 1 << 16;

/// Why a loaded file has no per-frame table.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FramesError {
    /// The file could not be read, or no trace matched the selector: the message of
    /// its failed run.
    #[error("{0}")]
    FileFailed(String),
    /// A picked trace cannot be analysed (nothing is left after trimming).
    #[error(transparent)]
    Analysis(AnalysisError),
}

/// The per-frame table of every run of a loaded file, stacked (`run` tells them
/// apart), made a chunk of rows at a time from each run's analysis.
pub struct FrameTable<'a> {
    runs: Vec<RunRows<'a>>,
    /// The columns of every run, in order of first appearance (no rows).
    columns: Table,
}

/// One run's frames and what its analysis found on them: of the analysis, only what
/// the rows read (the series, its rolling medians, the figures; not the sorted copy
/// the slow-time curve keeps, 8 bytes a frame).
struct RunRows<'a> {
    info: &'a FileInfo,
    trace: &'a Trace,
    run: usize,
    series: Series,
    median: Vec<f64>,
    figures: Figures,
}

impl<'a> FrameTable<'a> {
    /// Analyses every run of `loaded` with `settings`; an error for a file that failed
    /// or a trace trimmed to nothing.
    pub fn new(loaded: &'a Loaded, settings: &Settings) -> Result<Self, FramesError> {
        let (capture, picked) = match loaded {
            Loaded::Failed(_, message) => return Err(FramesError::FileFailed(message.clone())),
            Loaded::Capture { capture, picked, .. } => (capture, picked),
        };
        let mut runs = Vec::with_capacity(picked.len());
        for (run, p) in picked.iter().enumerate() {
            let trace = match p {
                Picked::Whole(i) => &capture.traces[*i],
                Picked::Trimmed(t) => &**t,
                Picked::Empty(e) => return Err(FramesError::Analysis(e.clone())),
            };
            runs.push(RunRows::new(&capture.info, trace, settings, run));
        }
        let layouts = runs.iter().map(|r| r.rows(0..0)).collect();
        let columns = Table::concat(layouts).without_rows();
        Ok(Self { runs, columns })
    }

    /// Number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.runs.iter().map(|r| r.trace.len()).sum()
    }

    /// Writes the table as CSV ([``crate::report::tabular::write_csv`).
    pub fn write_csv(&self, out: impl std::io::Write) -> std::io::Result<()> {
        crate::report::tabular::write_csv(self, out)
    }
}

impl TableChunks for FrameTable<'_> {
    fn columns(&self) -> Table {
        self.columns.clone()
    }

    fn each_chunk<E>(&self, mut f: impl FnMut(&Table) -> Result<(), E>) -> Result<(), E> {
        let one_run = self.runs.len() == 1;
        for r in &self.runs {
            let n = r.trace.len();
            for first in (0..n).step_by(CHUNK_ROWS) {
                let chunk = r.rows(first..(first + CHUNK_ROWS).min(n));
                if one_run {
                    f(&chunk)?;
                } else {
                    f(&chunk.aligned(&self.columns))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
/// The per-frame table of every run of a loaded file, stacked (`run` tells them
/// apart), built whole; an error for a file that failed or a trace trimmed to nothing.
/// ([`FrameTable`] hands it over a chunk at a time.)
pub fn table(loaded: &Loaded, settings: &Settings) -> Result<Table, FramesError> {
    let frames = FrameTable::new(loaded, settings)?;
    let mut chunks = vec![frames.columns.clone()];
    let Ok(()) = frames.each_chunk(|chunk| {
        chunks.push(chunk.clone());
        Ok::<(), std::convert::Infallible>(())
    });
    Ok(Table::concat(chunks))
}

#[cfg(test)]
/// The per-frame table of one trace, analysed with `settings`; `run` fills the `run`
/// column.
#[must_use]
pub fn trace_table(info: &FileInfo, trace: &Trace, settings: &Settings, run: usize) -> Table {
    RunRows::new(info, trace, settings, run).rows(0..trace.len())
}

impl<'a> RunRows<'a> {
    fn new(info: &'a FileInfo, trace: &'a Trace, settings: &Settings, run: usize) -> Self {
        let prepared = Prepared::for_settings(trace, settings);
        let figures = prepared.figures(settings);
        let Prepared { series, rolling, .. } = prepared;
        Self { info, trace, run, series, median: rolling.median, figures }
    }

    /// The table's rows for the frames `range` (within the trace).
    fn rows(&self, range: std::ops::Range<usize>) -> Table {
        let (trace, f) = (self.trace, &self.trace.frames);
        let (len, n) = (range.len(), trace.len());
        let position = self.positions(&range);
        let at_series = |value: &dyn Fn(usize) -> f64| -> Vec<f64> {
            position.iter().map(|p| p.map_or(f64::NAN, |k| value(k as usize))).collect()
        };
        let frames = range.clone();
        let mut t = Table::default();
        t.push("run", Cells::Int(vec![Some(self.run as i64); len]));
        t.push("frame", Cells::Int(frames.clone().map(|i| Some(i as i64)).collect()));
        t.push("line", Cells::Int(frames.clone().map(|i| f.line.get(i).map(|l| l as i64)).collect()));
        t.push("time_ms", Cells::Float(column_or_nan(&f.start_ms, n, &range)));
        t.push("frame_time_ms", Cells::Float(f.frame_time_ms[range.clone()].to_vec()));
        t.push("display_ms", Cells::Float(frames.clone().map(|i| f.display(i)).collect()));
        let dropped_known = self.info.dropped_known && !trace.is_sampled();
        t.push(
            "dropped",
            Cells::Bool(frames.clone().map(|i| dropped_known.then(|| f.is_dropped(i))).collect()),
        );
        push_frame_types(&mut t, &f.frame_type, &range);
        let modes = &trace.meta.present_modes;
        let mode_keys = frames
            .clone()
            .map(|i| f.present_mode.get(i).map(|&m| u32::from(m)).filter(|&m| (m as usize) < modes.len()));
        t.push("present_mode", Cells::Labels { values: modes.clone(), keys: mode_keys.collect() });
        t.push("analysed", Cells::Bool(position.iter().map(|p| Some(p.is_some())).collect()));
        t.push("series_index", Cells::Int(position.iter().map(|p| p.map(i64::from)).collect()));
        t.push("analysed_frame_time_ms", Cells::Float(at_series(&|k| self.series.frame_time_ms[k])));
        let median = &self.median;
        t.push("rolling_median_ms", Cells::Float(at_series(&|k| median.get(k).copied().unwrap_or(f64::NAN))));
        self.push_flags(&mut t, &position);
        let weight = if trace.is_sampled() {
            frames.map(|i| f.sample_ms[i] / f.frame_time_ms[i]).collect()
        } else {
            vec![1.0; len]
        };
        push_limiter(&mut t, trace, &range);
        t.push("weight", Cells::Float(weight));
        t.push("sample_ms", Cells::Float(column_or_nan(&f.sample_ms, n, &range)));
        for c in &f.columns {
            let mut values = Vec::with_capacity(len);
            c.values.extend_range(range.clone(), &mut values);
            t.push(&c.name, Cells::Float(values));
        }
        t
    }

    /// The series position of each frame of `range` (`None`: not in the series);
    /// ascending where present.
    fn positions(&self, range: &std::ops::Range<usize>) -> Vec<Option<u32>> {
        let series = &self.series;
        let mut position: Vec<Option<u32>> = vec![None; range.len()];
        if series.frame.is_empty() {
            for (i, p) in range.clone().zip(&mut position) {
                *p = (i < series.len()).then_some(i as u32);
            }
        } else {
            let a = range.start;
            let from = series.frame.partition_point(|&i| (i as usize) < a);
            for (k, &i) in series.frame.iter().enumerate().skip(from) {
                match position.get_mut((i as usize).wrapping_sub(a)) {
                    Some(p) if i as usize >= a => *p = Some(k as u32),
                    _ => break,
                }
            }
        }
        position
    }

    /// `stutter`, `oscillating`, `spike` and `spike.<action>` of the frames at
    /// `position`: null outside the series and where the figure is missing.
    fn push_flags(&self, t: &mut Table, position: &[Option<u32>]) {
        let figures = &self.figures;
        // The series positions the rows cover; each flag is marked over them alone.
        let first = position.iter().flatten().next().map_or(0, |&k| k as usize);
        let end = position.iter().rev().flatten().next().map_or(0, |&k| k as usize + 1);
        let covered = end.saturating_sub(first);
        let mark = |indices: &[usize]| {
            let mut m = vec![false; covered];
            let from = indices.partition_point(|&k| k < first);
            for &k in indices[from..].iter().take_while(|&&k| k < end) {
                m[k - first] = true;
            }
            m
        };
        let flags = |marked: Option<&[bool]>| -> Cells {
            let at = |k: u32| marked.map(|m| m.get(k as usize - first).copied().unwrap_or(false));
            Cells::Bool(position.iter().map(|p| p.and_then(at)).collect())
        };
        t.push("stutter", flags(figures.stutters.as_ref().map(|s| mark(&s.frames)).as_deref()));
        let oscillating = figures.osc.as_ref().map(|o| o.oscillating.get(first..end).unwrap_or_default());
        t.push("oscillating", flags(oscillating));
        let health = figures.health.as_ref();
        let any = health.map(|h| {
            let mut m = vec![false; covered];
            for list in h.spikes.values() {
                mark(list).iter().zip(&mut m).for_each(|(s, a)| *a |= *s);
            }
            m
        });
        t.push("spike", flags(any.as_deref()));
        for action in health.map(|h| h.actions.as_slice()).unwrap_or_default() {
            let spiked = health.and_then(|h| h.spikes.get(action)).map(|s| mark(s));
            t.push(&format!("spike.{action}"), flags(spiked.as_deref()));
        }
    }
}

/// A column's values at `range`, or nulls when the trace (of `n` frames) does not
/// have it.
fn column_or_nan(values: &[f64], n: usize, range: &std::ops::Range<usize>) -> Vec<f64> {
    if values.len() == n { values[range.clone()].to_vec() } else { vec![f64::NAN; range.len()] }
}

/// `frame_type` (PresentMon's name) and `generated`, null where nothing is known.
fn push_frame_types(t: &mut Table, types: &[FrameType], range: &std::ops::Range<usize>) {
    let kinds = [FrameType::Application, FrameType::IntelXessFg, FrameType::AmdAfmf, FrameType::Unknown];
    let known = |i: usize| types.get(i).copied().filter(|k| *k != FrameType::NotSet);
    let keys =
        range.clone().map(|i| known(i).and_then(|k| kinds.iter().position(|x| *x == k)).map(|p| p as u32));
    let values = kinds.iter().map(|k| k.name().to_owned()).collect();
    t.push("frame_type", Cells::Labels { values, keys: keys.collect() });
    t.push("generated", Cells::Bool(range.clone().map(|i| known(i).map(FrameType::is_generated)).collect()));
}

/// The `limiter` column: each frame's class (`metrics.md` §13: `gpu`, `cpu`, `neither`),
/// null for an unclassified frame and on a trace without the busy columns.
fn push_limiter(t: &mut Table, trace: &Trace, range: &std::ops::Range<usize>) {
    let classes = [Class::Gpu, Class::Cpu, Class::Neither];
    let values = classes.iter().map(|c| c.name().to_owned()).collect();
    let columns = BusyColumns::of(trace);
    let keys = range
        .clone()
        .map(|i| {
            let class = columns.filter(|c| i < c.len()).and_then(|c| c.frame(i).class)?;
            classes.iter().position(|&k| k == class).and_then(|k| u32::try_from(k).ok())
        })
        .collect();
    t.push("limiter", Cells::Labels { values, keys });
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::ingest::{LoadOptions, load_bytes};
    use std::fmt::Write;

    /// Two traces of more than a chunk each (dropped frames, stutters, spikes, a trimmed
    /// second run's positions): the table handed over in chunks, aligned to the columns
    /// of both runs, is the one built whole, cell for cell and as CSV.
    #[test]
    fn chunks_make_the_table_built_whole() {
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,\
             Dropped,msGPUActive,Extra\n",
        );
        let rows = CHUNK_ROWS + 4321;
        let mut t = 0.0;
        for i in 0..rows {
            let ft = if i % 997 == 0 { 40.0 } else { 8.0 + f64::from((i % 7) as u32) };
            let gpu = if i % 1231 == 0 { 30.0 } else { 4.0 };
            let dropped = u8::from(i % 13 == 0);
            t += ft / 1000.0;
            let _ = writeln!(csv, "a.exe,1,0x1,{t:.4},{ft},{ft},{dropped},{gpu},");
            // The second trace has no display interval on odd rows: its display series
            // leaves them out, and has a column of its own.
            let display = if i % 2 == 0 { format!("{ft}") } else { String::new() };
            let _ = writeln!(csv, "b.exe,2,0x2,{t:.4},{ft},{display},0,,{i}");
        }
        let capture =
            load_bytes(std::path::Path::new("two.csv"), csv.as_bytes(), LoadOptions::default()).unwrap();
        let job = super::super::Job {
            selector: super::super::TraceSelector::All,
            opts: LoadOptions::default(),
            trim: crate::analysis::Trim::default(),
        };
        let settings =
            Settings { frame_time: crate::analysis::FrameTimeSource::Display, ..Settings::default() };
        let loaded = job.pick_capture("two.csv".into(), capture);
        let Loaded::Capture { capture, .. } = &loaded else { panic!("loaded") };
        let whole = Table::concat(
            capture
                .traces
                .iter()
                .enumerate()
                .map(|(run, t)| trace_table(&capture.info, t, &settings, run))
                .collect(),
        );
        assert_eq!(whole.rows(), 2 * rows);
        assert!(whole.column("stutter").unwrap().len() == 2 * rows);
        let chunked = table(&loaded, &settings).unwrap();
        assert_eq!(chunked.rows(), whole.rows());
        for (a, b) in chunked.columns.iter().zip(&whole.columns) {
            assert_eq!(a.name, b.name);
            for r in 0..whole.rows() {
                assert_eq!(a.cells.text(r), b.cells.text(r), "{} row {r}", a.name);
            }
        }
        assert_eq!(chunked.columns.len(), whole.columns.len());
        let frames = FrameTable::new(&loaded, &settings).unwrap();
        assert_eq!(frames.rows(), whole.rows());
        let (mut streamed, mut built) = (Vec::new(), Vec::new());
        frames.write_csv(&mut streamed).unwrap();
        whole.write_csv(&mut built).unwrap();
        assert!(streamed == built, "the CSV written a chunk at a time is the one written whole");
        let text = |name: &str, row: usize| whole.column(name).unwrap().text(row);
        assert!((0..whole.rows()).any(|r| text("stutter", r) == "true"));
        assert!((0..whole.rows()).any(|r| text("spike.msGPUActive", r) == "true"));
        assert_eq!(text("analysed", rows + 1), "false", "b's odd rows are not in its display series");
    }

    /// A file that failed and a trace trimmed to nothing have no table: each error says
    /// what happened, in the words of the failed run.
    #[test]
    fn no_table_for_a_failed_file_or_a_trace_trimmed_to_nothing() {
        let mut csv =
            String::from("Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents\n");
        for i in 0..10 {
            let _ = writeln!(csv, "a.exe,1,0x1,{:.3},10", f64::from(i) / 100.0);
        }
        let capture =
            load_bytes(std::path::Path::new("short.csv"), csv.as_bytes(), LoadOptions::default()).unwrap();
        let job = super::super::Job {
            selector: super::super::TraceSelector::Default,
            opts: LoadOptions::default(),
            trim: crate::analysis::Trim { start_s: 60.0, end_s: 0.0 },
        };
        let settings = Settings::default();
        let loaded = job.pick_capture("short.csv".into(), capture.clone());
        let Loaded::Capture { picked, .. } = &loaded else { panic!("loaded") };
        let [Picked::Empty(nothing_left)] = picked.as_slice() else { panic!("trimmed to nothing") };
        let err = table(&loaded, &settings).err();
        assert_eq!(err, Some(FramesError::Analysis(nothing_left.clone())));
        assert_eq!(err.map(|e| e.to_string()), Some(nothing_left.to_string()));
        let job = super::super::Job { selector: super::super::TraceSelector::Pid(7), ..job };
        let loaded = job.pick_capture("short.csv".into(), capture);
        let Loaded::Failed(_, message) = &loaded else { panic!("no trace matches") };
        let err = FrameTable::new(&loaded, &settings).err();
        assert_eq!(err, Some(FramesError::FileFailed(message.clone())));
        assert_eq!(err.map(|e| e.to_string()).as_ref(), Some(message));
    }

    /// 25 frames of 10 ms but frame 12 (30 ms, GPU 25 ms against 5): its rolling median
    /// is 10 ms, 30 − 10 = 20 > 4 ms and 200 % > 20 %: a stutter, and msGPUActive spikes
    /// (25 − 5 = 20 > 4, 400 %). Frame 5 is dropped: no display interval.
    #[test]
    fn flags_and_columns_of_a_hand_built_capture() {
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,\
             Dropped,msGPUActive\n",
        );
        let mut t = 0.0;
        for i in 0..25 {
            let (ft, gpu) = if i == 12 { (30.0, 25.0) } else { (10.0, 5.0) };
            let (display, dropped) = if i == 5 { ("0".to_owned(), 1) } else { (format!("{ft}"), 0) };
            t += ft / 1000.0;
            let _ = writeln!(csv, "game.exe,7,0x1,{t:.4},{ft},{display},{dropped},{gpu}");
        }
        let capture =
            load_bytes(std::path::Path::new("hand.csv"), csv.as_bytes(), LoadOptions::default()).unwrap();
        let table = trace_table(&capture.info, &capture.traces[0], &Settings::default(), 0);
        assert_eq!(table.rows(), 25);
        let col = |name: &str| table.column(name).unwrap();
        let true_rows = |name: &str| (0..25).filter(|&r| col(name).text(r) == "true").collect::<Vec<_>>();
        assert_eq!(true_rows("stutter"), [12]);
        assert_eq!(true_rows("spike"), [12]);
        assert_eq!(true_rows("spike.msGPUActive"), [12]);
        assert_eq!(true_rows("dropped"), [5]);
        assert_eq!(col("display_ms").text(5), "");
        assert_eq!(col("frame_time_ms").text(12), "30");
        assert_eq!(col("rolling_median_ms").text(12), "10");
        assert_eq!(col("line").text(0), "2");
        assert_eq!(col("msGPUActive").text(12), "25");
        assert_eq!(col("weight").text(3), "1");
        assert_eq!(col("frame_type").text(0), "");
    }
}
