//! Frame health (`metrics.md` §6): which per-frame action spiked on which frame, and
//! which actions explain each stutter.

use super::Series;
use super::half_steps::HalfSteps;
#[cfg(test)]
use super::rolling::rolling_median_present;
use super::rolling::{HALF_WINDOW, Window, windows_by};
use super::stutter::spikes;
use super::summary::percentile;
use crate::model::{ColumnKind, Trace};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// The PresentMon-family duration columns and the engines' thread and GPU times
/// (`formats.md` §7, §10) that are actions.
const ACTION_KINDS: [ColumnKind; 14] = [
    ColumnKind::CpuBusy,
    ColumnKind::CpuWait,
    ColumnKind::GpuLatency,
    ColumnKind::GpuBusy,
    ColumnKind::GpuWait,
    ColumnKind::InPresentApi,
    ColumnKind::RenderPresentLatency,
    ColumnKind::UntilRenderComplete,
    ColumnKind::UntilDisplayed,
    ColumnKind::DisplayLatency,
    ColumnKind::GpuActive,
    ColumnKind::EngineThread,
    ColumnKind::EngineGpu,
    ColumnKind::FrameMark,
];

/// One action column over the analysed series, with its rolling median.
#[derive(Debug, Clone)]
pub struct Action {
    /// Header name as the file writes it.
    pub name: String,
    /// Value per series position (NaN = missing).
    pub values: Vec<f64>,
    /// Median of the present values of each 19-frame window.
    pub median: Vec<f64>,
}

#[cfg(test)]
/// The actions of a trace, gathered over a series (header order).
#[must_use]
pub fn actions(trace: &Trace, series: &Series) -> Vec<Action> {
    trace
        .frames
        .columns
        .par_iter()
        .filter(|c| ACTION_KINDS.contains(&c.kind))
        .map(|c| {
            // A generated frame does no CPU or GPU work of its own: PresentMon writes 0
            // there, which is no value (it would make every application frame spike).
            let generated = |f: usize| trace.frames.frame_type.get(f).is_some_and(|t| t.is_generated());
            let values: Vec<f64> = (0..series.len())
                .map(|k| series.frame_of(k).unwrap_or(k as u32))
                .map(|f| {
                    let v = c.values.at(f as usize);
                    if v == 0.0 && generated(f as usize) { f64::NAN } else { v }
                })
                .collect();
            let median = rolling_median_present(&values);
            Action { name: c.name.clone(), values, median }
        })
        .collect()
}

/// Frame-health figures.
/// An action column kept for re-flagging as thresholds move: only the frames whose
/// value is above its rolling median (no other frame can spike at any threshold or
/// floor ≥ 0), with that value and median. A constant column keeps none.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// Header name as the file writes it.
    pub name: String,
    /// Positions in the series, ascending (a byte each when close: [`Positions`]).
    pub frames: Positions,
    /// The value at each (4 bytes each when written with four decimals).
    pub values: HalfSteps,
    /// The rolling median there (the same).
    pub median: HalfSteps,
}

impl Candidates {
    /// The candidates of a full action.
    #[must_use]
    pub fn of_action(a: &Action) -> Self {
        Self::of_values(a.name.clone(), &a.values, &a.median)
    }

    fn of_values(name: String, values: &[f64], median: &[f64]) -> Self {
        let mut c = Self { name, ..Self::default() };
        for (k, (&v, &m)) in values.iter().zip(median).enumerate() {
            if v - m > 0.0 {
                c.frames.push(k as u32);
                c.values.push(v);
                c.median.push(m);
            }
        }
        c.shrink_to_fit();
        c
    }

    fn shrink_to_fit(&mut self) {
        self.frames.shrink_to_fit();
        self.values.shrink_to_fit();
        self.median.shrink_to_fit();
    }
}

/// The action columns of a trace over the series, as [`Candidates`]: the same
/// columns as [`actions`], without keeping every value and median. A column stored as
/// one value throughout (and 0 for generated frames, which is no value) never
/// spikes, so its rolling median is never computed.
#[must_use]
///
/// With `spike_rule` (threshold, floor ≥ 0), only the frames that spike by it are
/// kept: enough for the figures at those settings.
pub fn candidates(trace: &Trace, series: &Series, spike_rule: Option<(f64, f64)>) -> Vec<Candidates> {
    trace
        .frames
        .columns
        .par_iter()
        .filter(|c| ACTION_KINDS.contains(&c.kind))
        .map(|c| {
            if c.kind == ColumnKind::FrameMark {
                return marked(c, series);
            }
            if c.values.constant().is_some() || c.values.all_missing() {
                return Candidates { name: c.name.clone(), ..Candidates::default() };
            }
            // Frame `f`'s value `v`: a generated frame's 0 is no value.
            let own = |f: usize, v: f64| {
                let generated = || trace.frames.frame_type.get(f).is_some_and(|t| t.is_generated());
                if v == 0.0 && generated() { f64::NAN } else { v }
            };
            let value = |k: usize| {
                let f = series.frame_of(k).unwrap_or(k as u32) as usize;
                own(f, c.values.at(f))
            };
            // The column is read a stretch at a time into one small buffer (with half a
            // window either side) and the window slides over it: no array of the whole
            // column's values or medians; only the candidates grow (columns run in
            // parallel).
            let n = series.len();
            let mut all = Candidates { name: c.name.clone(), ..Candidates::default() };
            let mut buf: Vec<f64> = Vec::with_capacity(STRETCH + 2 * HALF_WINDOW);
            for first in (0..n).step_by(STRETCH) {
                let last = (first + STRETCH).min(n);
                let (lo, hi) = (first.saturating_sub(HALF_WINDOW), (last + HALF_WINDOW).min(n));
                buf.clear();
                if series.frame.is_empty() {
                    // Positions are frames: the column's stretch, decoded a block at a time.
                    c.values.extend_range(lo..hi, &mut buf);
                    buf.iter_mut().zip(lo..).for_each(|(v, f)| *v = own(f, *v));
                } else {
                    buf.extend((lo..hi).map(value));
                }
                let mut keep = |i: usize, v: f64, m: f64| {
                    if v - m > 0.0 && spike_rule.is_none_or(|(t, floor)| spikes(v, m, t, floor)) {
                        all.frames.push((lo + i) as u32);
                        all.values.push(v);
                        all.median.push(m);
                    }
                };
                match spike_rule {
                    Some((_, floor)) => bounded_medians(&buf, first - lo, last - lo, floor, &mut keep),
                    None => windows_by(
                        buf.len(),
                        |i| buf[i],
                        first - lo,
                        last - lo,
                        |i, w| {
                            keep(i, buf[i], percentile(w, 0.5));
                        },
                    ),
                }
            }
            all.shrink_to_fit();
            all
        })
        .collect()
}

/// A mark column's candidates (Android's jank, `metrics.md` §16): every frame with a
/// value is marked, at a median of 0, so it spikes whenever its value (the frame's
/// duration) is above the floor — a mark is the capture's verdict, not a rolling rule.
fn marked(c: &crate::model::Column, series: &Series) -> Candidates {
    let mut all = Candidates { name: c.name.clone(), ..Candidates::default() };
    for k in 0..series.len() {
        let f = series.frame_of(k).unwrap_or(k as u32) as usize;
        let v = c.values.at(f);
        if v.is_finite() && v > 0.0 {
            all.frames.push(k as u32);
            all.values.push(v);
            all.median.push(0.0);
        }
    }
    all.shrink_to_fit();
    all
}

/// Frames sharing one lower bound in [`bounded_medians`].
const GROUP: usize = 32;

/// Calls `keep(i, value, median)` for the frames `first..last` of `buf` that can
/// spike at `floor` (≥ 0), with the median of the present values of their 19-frame
/// window (cut at `buf`'s ends); the other frames are passed over without a median.
/// A window's median is at least its smallest value `low`, and rounding is monotone,
/// so `value − median ≤ value − low`: a frame with `value − low ≤ floor` (or a
/// missing value) cannot spike. `low` is taken per group of [`GROUP`] frames (the
/// smallest present value of their windows together); the few frames left have their
/// window sorted as the sliding window would hold it.
fn bounded_medians(
    buf: &[f64],
    first: usize,
    last: usize,
    floor: f64,
    keep: &mut impl FnMut(usize, f64, f64),
) {
    let window_of = |i: usize| i.saturating_sub(HALF_WINDOW)..(i + HALF_WINDOW + 1).min(buf.len());
    for g in (first..last).step_by(GROUP) {
        let end = (g + GROUP).min(last);
        let reach = window_of(g).start..window_of(end - 1).end;
        let low = present_min(&buf[reach]);
        for i in g..end {
            let v = buf[i];
            // A NaN `v` is no candidate, as it fails the rule.
            let excess = v - low;
            if excess.is_nan() || excess <= floor {
                continue;
            }
            let mut w = Window::default();
            for &x in &buf[window_of(i)] {
                w.insert(x);
            }
            keep(i, v, percentile(w.sorted(), 0.5));
        }
    }
}

/// The smallest value of `values` that is not NaN (∞ when none is), in four lanes that
/// the compiler keeps in vector registers: one chain of `f64::min` through every value
/// waited on each comparison. Only the sign of a zero can differ from a plain fold,
/// which changes no `value − low` comparison.
fn present_min(values: &[f64]) -> f64 {
    // `x < m` is false for a NaN `x`: NaN never enters.
    let min = |m: f64, x: f64| if x < m { x } else { m };
    let mut lanes = [f64::INFINITY; 4];
    let mut chunks = values.chunks_exact(4);
    for c in &mut chunks {
        for (m, &x) in lanes.iter_mut().zip(c) {
            *m = min(*m, x);
        }
    }
    let rest = chunks.remainder().iter().fold(f64::INFINITY, |m, &x| min(m, x));
    lanes.into_iter().fold(rest, min)
}

/// Frames read at a time by [`candidates`].
const STRETCH: usize = 1 << 14;

#[cfg(test)]
/// Frames of the long series the tests use.
const CHUNK: usize = 1 << 16;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Health {
    /// Action names, in header order.
    pub actions: Vec<String>,
    /// For every action, the series positions where it spiked (ascending).
    pub spikes: BTreeMap<String, Vec<usize>>,
    /// For each stutter (series position) that an action explains, the actions that
    /// spiked on it or the frame before (not in the JSON report; the timeline shows it).
    /// A stutter no action explains has no entry.
    #[serde(skip)]
    pub stutter_causes: Vec<(usize, Vec<String>)>,
}

impl Health {
    /// Flags spikes with the stutter rule and explains `stutters`.
    #[must_use]
    pub fn of(actions: &[Action], stutters: &[usize], threshold: f64, floor_ms: f64) -> Self {
        let candidates: Vec<Candidates> = actions.iter().map(Candidates::of_action).collect();
        Self::of_candidates(&candidates, stutters, threshold, floor_ms)
    }

    /// [`Health::of`] from the actions' candidates. A floor below 0 counts as 0 (no
    /// setting allows one).
    #[must_use]
    pub fn of_candidates(actions: &[Candidates], stutters: &[usize], threshold: f64, floor_ms: f64) -> Self {
        let floor_ms = floor_ms.max(0.0);
        let spikes: BTreeMap<String, Vec<usize>> = actions
            .par_iter()
            .map(|a| {
                let frames = a
                    .frames
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| spikes(a.values.at(k), a.median.at(k), threshold, floor_ms))
                    .map(|(_, f)| f as usize)
                    .collect();
                (a.name.clone(), frames)
            })
            .collect();
        let stutter_causes = stutters
            .iter()
            .filter(|_| !actions.is_empty())
            .map(|&s| {
                let causes: Vec<String> = actions
                    .iter()
                    .filter(|a| {
                        let list = &spikes[&a.name];
                        list.binary_search(&s).is_ok() || (s > 0 && list.binary_search(&(s - 1)).is_ok())
                    })
                    .map(|a| a.name.clone())
                    .collect();
                (s, causes)
            })
            .filter(|(_, causes)| !causes.is_empty())
            .collect();
        Self { actions: actions.iter().map(|a| a.name.clone()).collect(), spikes, stutter_causes }
    }
}

mod positions;
pub use positions::Positions;

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes' minimum is the plain fold's over every length 0..60 (NaN left out, ∞
    /// when none is present), by hand for one: min of [NaN, 3, -1, NaN, 2] is -1.
    #[test]
    fn present_min_matches_the_fold() {
        assert_eq!(present_min(&[f64::NAN, 3.0, -1.0, f64::NAN, 2.0]).to_bits(), (-1.0f64).to_bits());
        let v: Vec<f64> =
            (0..60u32).map(|i| if i % 7 == 3 { f64::NAN } else { f64::from((i * 37) % 23) - 5.0 }).collect();
        for lo in 0..v.len() {
            for hi in lo..=v.len() {
                let fold = v[lo..hi].iter().copied().filter(|x| !x.is_nan()).fold(f64::INFINITY, f64::min);
                assert_eq!(present_min(&v[lo..hi]).to_bits(), fold.to_bits(), "{lo}..{hi}");
            }
        }
    }

    fn action(name: &str, values: Vec<f64>) -> Action {
        let median = rolling_median_present(&values);
        Action { name: name.into(), values, median }
    }

    /// A trace of `n` frames of 5 ms, all displayed every 5 ms, with `columns` and
    /// `frame_type` (empty: none).
    fn steady_trace(
        n: usize,
        columns: Vec<crate::model::Column>,
        frame_type: Vec<crate::model::FrameType>,
    ) -> Trace {
        use crate::model::{Frames, TraceMeta};
        Trace {
            meta: TraceMeta::named("g"),
            frames: Frames {
                frame_time_ms: vec![5.0; n],
                display_ms: vec![5.0; n],
                dropped: vec![false; n],
                frame_type,
                columns,
                ..Frames::default()
            },
            warnings: vec![],
        }
    }

    /// Frame generation, two generated frames per application frame (A G G A G G …),
    /// CPU busy 10 ms on application frames and 0 on generated ones (no CPU work of
    /// their own). Counting the zeros, every 19-frame window has 12–13 zeros, its median
    /// is 0 and every application frame spikes; as missing values, the medians are 10
    /// and nothing spikes.
    #[test]
    fn generated_frames_zeros_are_no_work_not_values() {
        use crate::model::{Column, ColumnKind, FrameType};
        let n = 60;
        let types: Vec<FrameType> = (0..n)
            .map(|i| if i % 3 == 0 { FrameType::Application } else { FrameType::IntelXessFg })
            .collect();
        let busy: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { 10.0 } else { 0.0 }).collect();
        let cpu = Column { name: "MsCPUBusy".into(), kind: ColumnKind::CpuBusy, values: busy.clone().into() };
        let trace = steady_trace(n, vec![cpu], types);
        let series = Series::of(&trace, crate::analysis::FrameTimeSource::Display);
        let health = Health::of(&actions(&trace, &series), &[], 0.2, 4.0);
        assert_eq!(health.spikes["MsCPUBusy"], Vec::<usize>::new());
        // The same values without frame types (no way to tell): the zeros count.
        let counted = action("MsCPUBusy", busy);
        let spiking = Health::of(&[counted], &[], 0.2, 4.0);
        assert_eq!(spiking.spikes["MsCPUBusy"].len(), 20);
    }

    /// GPU busy is 5 ms everywhere but 20 ms on frame 10 (+15 ms, +300 %): a spike.
    /// In-present is missing on frame 9 (never spikes) and 40 ms on frame 9's
    /// neighbour 11. A stutter on frame 11 is explained by GPU busy (frame 10, the
    /// frame before) and in-present (frame 11 itself).
    /// Candidates computed in chunks are those of the whole series, across chunk
    /// boundaries, with missing values and a constant column.
    #[test]
    fn chunked_candidates_match_the_whole_series() {
        use crate::model::{Column, ColumnKind, FrameType};
        let n = 2 * CHUNK + 123;
        let mut x: u32 = 9;
        let busy: Vec<f64> = (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if i % 41 == 0 { f64::NAN } else { f64::from(x % 97) / 8.0 }
            })
            .collect();
        let columns = vec![
            Column { name: "MsCPUBusy".into(), kind: ColumnKind::CpuBusy, values: busy.into() },
            Column { name: "MsGPUWait".into(), kind: ColumnKind::GpuWait, values: vec![0.1; n].into() },
        ];
        // Every 3rd frame generated: its 0 is no value (about one in 97 is 0).
        let kinds = (0..n).map(|i| if i % 3 == 1 { FrameType::IntelXessFg } else { FrameType::Application });
        let trace = steady_trace(n, columns, kinds.collect());
        let series = Series::of(&trace, crate::analysis::FrameTimeSource::Presents);
        let whole: Vec<Candidates> = actions(&trace, &series).iter().map(Candidates::of_action).collect();
        let chunked = candidates(&trace, &series, None);
        // Without a frame list (what `Prepared` holds), the stretches are read in blocks.
        let by_blocks = candidates(&trace, &Series { frame: Vec::new(), ..series.clone() }, None);
        assert_eq!((whole.len(), by_blocks.len()), (chunked.len(), chunked.len()));
        for ((a, b), c) in whole.iter().zip(&chunked).zip(&by_blocks) {
            assert_eq!((&c.frames, &c.values, &c.median), (&b.frames, &b.values, &b.median));
            assert_eq!(a.name, b.name);
            assert_eq!(a.frames, b.frames);
            assert_eq!(a.values, b.values);
            assert_eq!(a.median, b.median);
        }
        assert!(chunked[1].frames.is_empty(), "a constant column has no candidate");
        assert!(!chunked[0].frames.is_empty());
        // Kept for one threshold and floor: fewer frames, the same spikes and causes.
        let stutters: Vec<usize> = (0..n).step_by(97).collect();
        for (threshold, floor) in [(0.2, 1.0), (0.05, 0.0), (0.5, 3.0)] {
            let only = candidates(&trace, &series, Some((threshold, floor)));
            assert!(only[0].frames.len() < chunked[0].frames.len());
            assert_eq!(
                Health::of_candidates(&only, &stutters, threshold, floor),
                Health::of_candidates(&chunked, &stutters, threshold, floor)
            );
        }
    }

    /// With a spike rule, the frames passed over by the lower bound are exactly those
    /// that cannot spike: the candidates kept are the full candidates that spike, with
    /// bit-identical values and medians (spiky values, missing ones, zeros, a negative
    /// one, across stretch and group boundaries).
    #[test]
    fn bounded_candidates_are_the_spiking_full_candidates() {
        use crate::model::{Column, ColumnKind};
        let n = 2 * STRETCH + 77;
        let mut x: u32 = 5;
        let busy: Vec<f64> = (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                match (i % 29, x % 61) {
                    (0, _) => f64::NAN,
                    (_, 0) => 30.0 + f64::from(x % 7),
                    (_, 1) => 0.0,
                    (_, 2) => -1.5,
                    _ => 6.0 + f64::from(x % 13) / 4.0,
                }
            })
            .collect();
        let columns =
            vec![Column { name: "MsCPUBusy".into(), kind: ColumnKind::CpuBusy, values: busy.into() }];
        let trace = steady_trace(n, columns, Vec::new());
        let series = Series::of(&trace, crate::analysis::FrameTimeSource::Presents);
        let full = &candidates(&trace, &series, None)[0];
        for (threshold, floor) in [(0.2, 4.0), (0.05, 0.0), (1.0, 2.5), (-1.0, 0.0)] {
            let only = &candidates(&trace, &series, Some((threshold, floor)))[0];
            let want: Vec<usize> = (0..full.frames.len())
                .filter(|&k| spikes(full.values.at(k), full.median.at(k), threshold, floor))
                .collect();
            assert!(!want.is_empty());
            let pick = |v: &[f64]| want.iter().map(|&k| v[k].to_bits()).collect::<Vec<u64>>();
            let all = full.frames.to_vec();
            assert_eq!(only.frames.to_vec(), want.iter().map(|&k| all[k]).collect::<Vec<u32>>());
            assert_eq!(
                only.values.iter().map(f64::to_bits).collect::<Vec<u64>>(),
                pick(&full.values.to_vec())
            );
            assert_eq!(
                only.median.iter().map(f64::to_bits).collect::<Vec<u64>>(),
                pick(&full.median.to_vec())
            );
        }
    }

    #[test]
    fn spikes_and_causes_by_hand() {
        let mut gpu = vec![5.0; 25];
        gpu[10] = 20.0;
        let mut present = vec![0.5; 25];
        present[9] = f64::NAN;
        present[11] = 40.0;
        let actions = [action("MsGPUBusy", gpu), action("MsInPresentAPI", present)];
        let h = Health::of(&actions, &[11, 20], 0.2, 4.0);
        assert_eq!(h.spikes["MsGPUBusy"], vec![10]);
        assert_eq!(h.spikes["MsInPresentAPI"], vec![11]);
        assert_eq!(h.stutter_causes[0], (11, vec!["MsGPUBusy".to_owned(), "MsInPresentAPI".to_owned()]));
        assert_eq!(h.stutter_causes.len(), 1, "stutter 20 has no cause, no entry");
    }

    /// A column that is 0 almost everywhere (median 0) spikes wherever it exceeds the
    /// floor: the relative excess is infinite.
    #[test]
    fn zero_median_counts_as_infinite_excess() {
        let mut wait = vec![0.0; 20];
        wait[5] = 4.5;
        wait[6] = 3.0;
        let h = Health::of(&[action("MsGPUWait", wait)], &[], 0.2, 4.0);
        assert_eq!(h.spikes["MsGPUWait"], vec![5]);
    }
}
