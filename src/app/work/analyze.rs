//! The figures of one trace for one set of settings and trim, computed on a worker
//! ([`analyze`]): the report's figures, the marks the timeline draws (in the whole
//! trace's frame indices), the charts, the PC-latency stack of an attached marker log
//! and the budget shares of the frame-duration rows.

use super::ChartData;
use super::tracks::RowShares;
use framescope_core::analysis::{PclLatency, Prepared, Settings, Trim, TrimError};
use framescope_core::ingest::MarkerLog;
use framescope_core::lod::Budget;
use framescope_core::model::Trace;
use framescope_core::presentation::{Stack, pcl_stack};
use framescope_core::report::{self, Run, RunSource};
use std::sync::Arc;

/// Per-frame marks of the figures, in trace frame indices (ascending).
#[derive(Default)]
pub struct Marks {
    /// Stutter frames.
    pub stutters: Vec<u32>,
    /// The stutter frames outside oscillating stretches, and those inside them
    /// (possible false positives, `metrics.md` §5): `stutters` split in two.
    pub stutters_by_osc: (Vec<u32>, Vec<u32>),
    /// Runs of oscillating frames, `[first, last]`.
    pub oscillating: Vec<(u32, u32)>,
    /// Frames in `oscillating[..j]` for every j ([`framescope_core::lod::run_prefix`]).
    pub oscillating_prefix: Vec<u64>,
    /// Per action, its spike frames.
    pub spikes: Vec<(String, Vec<u32>)>,
    /// The stutters with their frame times (the stutter list).
    pub stutter_spots: Vec<super::navigation::Spot>,
    /// The slowest frames of the analysed series, slowest first (the stutter list).
    pub worst: Vec<super::navigation::Spot>,
}

/// Everything the window shows for one trace and one set of settings.
pub struct Analyzed {
    /// The settings the figures were computed with.
    pub settings: Settings,
    /// The trim the figures were computed with.
    pub trim: Trim,
    /// The frames the trim keeps, in the whole trace's indices.
    pub kept: std::ops::Range<usize>,
    /// The figures, exactly as `framescope report` prints them.
    pub run: Run,
    /// Settings-independent analysis, kept to recompute figures quickly.
    pub prepared: Arc<Prepared>,
    /// Per-frame marks for the timeline.
    pub marks: Marks,
    /// The charts (settings-independent: shared while the prepared analysis is).
    pub charts: Arc<ChartData>,
    /// The PC-latency breakdown, when a PCL marker log is attached.
    pub pcl: Option<Stack>,
    /// The marker log version the figures were computed with.
    pub markers_version: u32,
    /// Time over the target budget per range, for the frame-duration rows.
    pub shares: Arc<RowShares>,
}

/// Why a trace could not be analysed.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// The trim leaves no whole frame of the trace.
    #[error("{0}")]
    TrimLeavesNothing(TrimError),
}

/// Analyses a trace trimmed by `trim` (`metrics.md` §1: every figure, mark and chart
/// is of the kept frames; the timeline still draws the whole trace, so the marks are
/// given in the whole trace's frame indices and the budget shares cover it all);
/// reuses `prepared` and its charts (made earlier for the same trace and trim) when it
/// was made for the source `settings` resolve to: a slider move then costs the
/// settings-dependent figures alone (no sort, no copy of the series). A trim that
/// leaves no frame is an [`AnalysisError`].
pub fn analyze(
    source: &RunSource<'_>,
    trace: &Trace,
    settings: Settings,
    trim: Trim,
    prepared: Option<(Arc<Prepared>, Arc<ChartData>)>,
    shares: Option<Arc<RowShares>>,
    markers: Option<(u32, &MarkerLog)>,
) -> Result<Analyzed, AnalysisError> {
    let range = trim.range(trace);
    if range.is_empty() {
        return Err(AnalysisError::TrimLeavesNothing(TrimError::NothingLeft {
            span_s: Trim::span_s(trace),
            start_s: trim.start_s,
            end_s: trim.end_s,
        }));
    }
    let cut;
    let kept: &Trace = if range.len() == trace.len() {
        trace
    } else {
        cut = trim.apply(trace);
        &cut
    };
    let offset = range.start as u32;
    let budget = Budget::of_fps(settings.target_fps);
    let shares =
        shares.filter(|s| s.budget == budget).unwrap_or_else(|| Arc::new(RowShares::new(trace, budget)));
    let wanted = settings.frame_time.resolve(kept);
    let (prepared, charts) = match prepared.filter(|(p, _)| p.source == wanted) {
        Some((p, c)) => (p, Some(c)),
        None => (Arc::new(Prepared::new(kept, settings.frame_time)), None),
    };
    let log = markers.map(|(_, log)| log);
    let run = report::run_prepared(source, kept, &settings, log, &prepared);
    // The timeline's PC-latency row covers the whole trace.
    let pcl = log.and_then(|log| pcl_stack(trace, &PclLatency::of(log, trace)));
    let series = &prepared.series;
    let to_trace = |positions: &[usize]| -> Vec<u32> {
        positions.iter().filter_map(|&k| series.frame_of(k)).map(|i| i + offset).collect()
    };
    let mut marks = Marks::default();
    if let Some(s) = &run.stutters {
        marks.stutters = to_trace(&s.frames);
        marks.stutter_spots = super::navigation::spots(series, &s.frames, offset);
    }
    if !prepared.is_sampled() {
        marks.worst = super::navigation::worst(series, super::navigation::WORST_FRAMES, offset);
    }
    if let Some(h) = &run.health {
        marks.spikes = h.spikes.iter().map(|(name, list)| (name.clone(), to_trace(list))).collect();
    }
    if let Some(o) = &run.osc {
        marks.oscillating = runs_in(&o.oscillating, |k| series.frame_of(k).unwrap_or(k as u32) + offset);
    }
    marks.stutters_by_osc = split_by_runs(&marks.stutters, &marks.oscillating);
    marks.oscillating_prefix = framescope_core::lod::run_prefix(&marks.oscillating);
    // A sampled log's entries are averages over intervals, not frame times: charting
    // them as frames would mislead (metrics.md §10).
    let charts = charts.unwrap_or_else(|| {
        let charted: &[f64] = if prepared.is_sampled() { &[] } else { &prepared.series.frame_time_ms };
        Arc::new(match prepared.curve() {
            Some(curve) if !prepared.is_sampled() => ChartData::from_curve(curve),
            _ => ChartData::new(charted, framescope_core::analysis::SlowTimeCurve::new(charted).as_ref()),
        })
    });
    Ok(Analyzed {
        settings,
        trim,
        kept: range,
        run,
        prepared,
        marks,
        charts,
        pcl,
        markers_version: markers.map_or(0, |(v, _)| v),
        shares,
    })
}

/// Runs of `true` in a per-series mask, as trace frame ranges.
#[cfg(test)]
fn runs_of(mask: &[bool], frames: &[u32]) -> Vec<(u32, u32)> {
    runs_in(mask, |k| frames[k])
}

/// [`runs_of`] with the trace frame of each position given by `frame`.
fn runs_in(mask: &[bool], frame: impl Fn(usize) -> u32) -> Vec<(u32, u32)> {
    let frames = frame;
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (k, &on) in mask.iter().enumerate() {
        match (on, start) {
            (true, None) => start = Some(k),
            (false, Some(s)) => {
                out.push((frames(s), frames(k - 1)));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((frames(s), frames(mask.len() - 1)));
    }
    out
}

/// Splits ascending `frames` into those outside and those inside the ascending,
/// disjoint `[first, last]` runs.
fn split_by_runs(frames: &[u32], runs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let (mut outside, mut inside) = (Vec::new(), Vec::new());
    let mut k = 0;
    for &i in frames {
        while runs.get(k).is_some_and(|&(_, last)| last < i) {
            k += 1;
        }
        if runs.get(k).is_some_and(|&(first, _)| first <= i) {
            inside.push(i);
        } else {
            outside.push(i);
        }
    }
    (outside, inside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_a_mask() {
        let frames: Vec<u32> = (10..20).collect();
        let mask = [true, true, false, false, true, false, false, true, true, true];
        assert_eq!(runs_of(&mask, &frames), vec![(10, 11), (14, 14), (17, 19)]);
        assert!(runs_of(&[], &[]).is_empty());
    }

    #[test]
    fn stutters_split_by_oscillating_runs() {
        let runs = [(3, 5), (9, 9), (20, 30)];
        let (outside, inside) = split_by_runs(&[0, 3, 5, 6, 9, 10, 25, 31], &runs);
        assert_eq!(outside, [0, 6, 10, 31]);
        assert_eq!(inside, [3, 5, 9, 25]);
        assert_eq!(split_by_runs(&[1, 2], &[]), (vec![1, 2], vec![]));
    }
}
