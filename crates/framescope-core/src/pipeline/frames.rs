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

use super::{Loaded, Picked};
use crate::analysis::limiter::{BusyColumns, Class};
use crate::analysis::{Prepared, Settings};
use crate::model::{FileInfo, FrameType, Trace};
use crate::report::tabular::{Cells, Table};

/// The per-frame table of every run of a loaded file, stacked (`run` tells them
/// apart); the message of a file that failed or a trace trimmed to nothing.
pub fn table(loaded: &Loaded, settings: &Settings) -> Result<Table, String> {
    let (capture, picked) = match loaded {
        Loaded::Failed(_, message) => return Err(message.clone()),
        Loaded::Capture { capture, picked, .. } => (capture, picked),
    };
    let mut tables = Vec::with_capacity(picked.len());
    for (run, p) in picked.iter().enumerate() {
        let trace = match p {
            Picked::Whole(i) => &capture.traces[*i],
            Picked::Trimmed(t) => &**t,
            Picked::Empty(e) => return Err(e.to_string()),
        };
        tables.push(trace_table(&capture.info, trace, settings, run));
    }
    Ok(Table::concat(tables))
}

/// The per-frame table of one trace, analysed with `settings`; `run` fills the `run`
/// column.
#[must_use]
pub fn trace_table(info: &FileInfo, trace: &Trace, settings: &Settings, run: usize) -> Table {
    let f = &trace.frames;
    let n = trace.len();
    let prepared = Prepared::for_settings(trace, settings);
    let figures = prepared.figures(settings);
    let series = &prepared.series;
    // Series position of each frame.
    let mut position: Vec<Option<u32>> = vec![None; n];
    for k in 0..series.len() {
        if let Some(slot) = series.frame_of(k).and_then(|i| position.get_mut(i as usize)) {
            *slot = Some(k as u32);
        }
    }
    let at_series = |value: &dyn Fn(usize) -> f64| -> Vec<f64> {
        position.iter().map(|p| p.map_or(f64::NAN, |k| value(k as usize))).collect()
    };
    let mut t = Table::default();
    t.push("run", Cells::Int(vec![Some(run as i64); n]));
    t.push("frame", Cells::Int((0..n).map(|i| Some(i as i64)).collect()));
    t.push("line", Cells::Int((0..n).map(|i| f.line.get(i).map(|l| l as i64)).collect()));
    t.push("time_ms", Cells::Float(column_or_nan(&f.start_ms, n)));
    t.push("frame_time_ms", Cells::Float(f.frame_time_ms.clone()));
    t.push("display_ms", Cells::Float(column_or_nan(&f.display_ms, n)));
    let dropped_known = info.dropped_known && f.dropped.len() == n && !trace.is_sampled();
    t.push("dropped", Cells::Bool((0..n).map(|i| dropped_known.then(|| f.dropped[i])).collect()));
    push_frame_types(&mut t, &f.frame_type, n);
    let modes = &trace.meta.present_modes;
    let mode_keys =
        (0..n).map(|i| f.present_mode.get(i).map(|&m| u32::from(m)).filter(|&m| (m as usize) < modes.len()));
    t.push("present_mode", Cells::Labels { values: modes.clone(), keys: mode_keys.collect() });
    t.push("analysed", Cells::Bool(position.iter().map(|p| Some(p.is_some())).collect()));
    t.push("series_index", Cells::Int(position.iter().map(|p| p.map(i64::from)).collect()));
    t.push("analysed_frame_time_ms", Cells::Float(at_series(&|k| series.frame_time_ms[k])));
    let median = &prepared.rolling.median;
    t.push("rolling_median_ms", Cells::Float(at_series(&|k| median.get(k).copied().unwrap_or(f64::NAN))));
    let flags = |marked: Option<Vec<bool>>| -> Cells {
        Cells::Bool(position.iter().map(|p| p.and_then(|k| marked.as_ref().map(|m| m[k as usize]))).collect())
    };
    let mask = |indices: &[usize]| {
        let mut m = vec![false; series.len()];
        for &k in indices {
            if let Some(x) = m.get_mut(k) {
                *x = true;
            }
        }
        m
    };
    t.push("stutter", flags(figures.stutters.as_ref().map(|s| mask(&s.frames))));
    t.push("oscillating", flags(figures.osc.as_ref().map(|o| o.oscillating.clone())));
    let health = figures.health.as_ref();
    let any: Option<Vec<usize>> = health.map(|h| h.spikes.values().flatten().copied().collect());
    t.push("spike", flags(any.as_deref().map(mask)));
    for action in health.map(|h| h.actions.as_slice()).unwrap_or_default() {
        let spiked = health.and_then(|h| h.spikes.get(action)).map(|s| mask(s));
        t.push(&format!("spike.{action}"), flags(spiked));
    }
    let weight = if trace.is_sampled() {
        f.sample_ms.iter().zip(&f.frame_time_ms).map(|(dt, ft)| dt / ft).collect()
    } else {
        vec![1.0; n]
    };
    push_limiter(&mut t, trace, n);
    t.push("weight", Cells::Float(weight));
    t.push("sample_ms", Cells::Float(column_or_nan(&f.sample_ms, n)));
    for c in &f.columns {
        t.push(&c.name, Cells::Float(c.values.iter().collect()));
    }
    t
}

/// A column of `n` values, or `n` nulls when the trace does not have it.
fn column_or_nan(values: &[f64], n: usize) -> Vec<f64> {
    if values.len() == n { values.to_vec() } else { vec![f64::NAN; n] }
}

/// `frame_type` (PresentMon's name) and `generated`, null where nothing is known.
fn push_frame_types(t: &mut Table, types: &[FrameType], n: usize) {
    let kinds = [FrameType::Application, FrameType::IntelXessFg, FrameType::AmdAfmf, FrameType::Unknown];
    let known = |i: usize| types.get(i).copied().filter(|k| *k != FrameType::NotSet);
    let keys = (0..n).map(|i| known(i).and_then(|k| kinds.iter().position(|x| *x == k)).map(|p| p as u32));
    let values = kinds.iter().map(|k| k.name().to_owned()).collect();
    t.push("frame_type", Cells::Labels { values, keys: keys.collect() });
    t.push("generated", Cells::Bool((0..n).map(|i| known(i).map(FrameType::is_generated)).collect()));
}

/// The `limiter` column: each frame's class (`metrics.md` §13: `gpu`, `cpu`, `neither`),
/// null for an unclassified frame and on a trace without the busy columns.
fn push_limiter(t: &mut Table, trace: &Trace, n: usize) {
    let classes = [Class::Gpu, Class::Cpu, Class::Neither];
    let values = classes.iter().map(|c| c.name().to_owned()).collect();
    let columns = BusyColumns::of(trace);
    let keys = (0..n)
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
